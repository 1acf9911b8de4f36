"""The alone family: every lone trick target (alone 7-12 and solo; wiezen: alone 5,
abondance, solo, solo slim).

Per strain a ``>=L`` question (L = the lowest alone level) and exact counts on the deals that
pass it, which give every level's make-probability (the counts of the deals that reach the
lowest level say every level at once). Per bid the declarer's strain is the one with the
highest make-probability (exact ties: higher probabilities of overtricks, then of the levels
below, then G-RIK-02). A strain that never passes the ``>=L`` question gets no counts: its
bids fail on every deal and the expected score is an upper bound, every deal scored at L - 1
tricks (stated in the note). The levels with one leader to trick 1 share one ladder of
answers, so they are one batch and one question of the adaptive sample (wiezen: abondance,
led by its declarer, apart from alone 5 and solo).
"""

from __future__ import annotations

import numpy as np

from analyser.analysis.bids import N_TRICKS, BidSpec
from analyser.analysis.choice import trump_preference
from analyser.analysis.families.registry import Family, register
from analyser.analysis.families.sample import SampleView, expected_score, never_made
from analyser.analysis.results import Alternative, BidResult
from analyser.notation import format_strain
from analyser.rules.contracts import LONE_KINDS
from analyser.seats import FOREHAND, Seat
from analyser.stats import Estimate

FAMILY_ALONE = "alone"
TAG_ALONE = "alone/solo"


@register
class AloneFamily(Family):
    """Alone, solo, abondance (module docstring)."""

    name = FAMILY_ALONE
    kinds = LONE_KINDS
    tag = TAG_ALONE
    order = 20

    def question(self, spec: BidSpec) -> str:
        """One question per leader to trick 1: ``alone``, or ``alone (own lead)``."""
        return self.name if spec.leader == FOREHAND else f"{self.name} (own lead)"

    def batches(self, specs: list[BidSpec]) -> list[list[BidSpec]]:
        """The bids grouped by their leader to trick 1 (each group shares its positions)."""
        out: dict[Seat | None, list[BidSpec]] = {}
        for s in specs:
            out.setdefault(s.leader, []).append(s)
        return list(out.values())

    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """Choose each bid's strain from the ladder of answers and make its figures."""
        leader = specs[0].leader
        gate = min(s.target for s in specs)
        strains = sorted({t for s in specs for t in s.strains})
        gate_ok: dict[int, np.ndarray] = {}
        ranges: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for strain in strains:
            ok = sample.store.at_least(sample.all, strain, leader, sample.me, -1, gate, TAG_ALONE)
            passed = ok == 1
            if passed.any():
                # the counts of the deals that pass say every level's answer at once
                sample.store.trick_range(
                    sample.all[passed], strain, leader, sample.me, -1, TAG_ALONE
                )
            gate_ok[strain] = ok
            ranges[strain] = sample.store.known_range(sample.all, strain, leader, sample.me, -1)
        at_least = {s: [int((ranges[s][0] >= k).sum()) for k in range(N_TRICKS)] for s in strains}
        maybe = {
            s: [int(((ranges[s][0] < k) & (ranges[s][1] >= k)).sum()) for k in range(N_TRICKS)]
            for s in strains
        }

        def key(strain: int, level: int) -> tuple:
            counts = at_least[strain]
            above = tuple(counts[k] for k in range(level, N_TRICKS))
            below = tuple(counts[k] for k in range(level - 1, gate - 1, -1))
            return above + below + (trump_preference(sample.hand, strain),)

        chosen = {}
        for spec in specs:
            ranked = sorted(spec.strains, key=lambda s, _n=spec.target: key(s, _n), reverse=True)
            chosen[spec.id] = ranked
        never = [s for s in strains if at_least[s][gate] == 0 and maybe[s][gate] == 0]
        counted: dict[int, np.ndarray] = {}
        for strain in sorted({r[0] for r in chosen.values()} - set(never)):
            # undertricks only on the counted deals (the passing ones are counted already)
            c = sample.counted(gate_ok[strain]) | (gate_ok[strain] == 1)
            solve = c & (gate_ok[strain] >= 0)  # a given-up question keeps its known bounds
            sample.store.trick_range(sample.all[solve], strain, leader, sample.me, -1, TAG_ALONE)
            ranges[strain] = sample.store.known_range(sample.all, strain, leader, sample.me, -1)
            counted[strain] = c

        def estimate(strain: int, level: int) -> Estimate:
            return Estimate(at_least[strain][level], sample.n, maybe[strain][level])

        out = {}
        for spec in specs:
            ranked = chosen[spec.id]
            strain = ranked[0]
            notes = []
            skipped = [s for s in never if s in spec.strains and s != strain]
            if skipped:
                names = " ".join(format_strain(s, "en") for s in skipped)
                notes.append(f"never {gate}+ tricks on this sample, not counted: {names}")
            hist, hist_deals = None, 0
            if strain in never:
                expected, ci, more = never_made(spec, gate, format_strain(strain, "en"))
                notes += more
            else:
                lo, hi = ranges[strain]
                expected, ci = expected_score(spec, gate_ok[strain], counted[strain], lo, hi)
                hist, hist_deals = sample.hist(lo, hi)
            out[spec.id] = BidResult(
                spec=spec,
                trump=strain,
                called=None,
                estimate=estimate(strain, spec.target),
                expected_score=expected,
                expected_score_ci=ci,
                tricks_hist=hist,
                tricks_hist_deals=hist_deals,
                alternatives=[Alternative(s, None, estimate(s, spec.target)) for s in ranked[1:]],
                notes=notes,
                score_is_bound=hist is None,
            )
        return out
