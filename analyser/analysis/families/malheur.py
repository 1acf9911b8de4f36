"""The malheur family (3-4 aces): the partner is the holder of the 4th ace.

With 4 aces the partner is the holder of the named king: the king with the highest
make-probability, exact ties to the first suit ♠ ♥ ♦ ♣. His trump is the book's heuristic
G-MAL-07 per deal (the reported figure) and, as an upper bound, the double-dummy best trump
per deal (the most tricks over the suits he may name).
"""

from __future__ import annotations

import numpy as np

from analyser.analysis.bids import BidSpec
from analyser.analysis.choice import malheur_partner_trump
from analyser.analysis.families.registry import Family, register
from analyser.analysis.families.sample import SampleView, expected_score
from analyser.analysis.results import Alternative, BidResult, Bound
from analyser.cards import N_RANKS
from analyser.notation import format_strain
from analyser.rules import contract_terms, malheur_partner_cards, malheur_trump_choices
from analyser.stats import Estimate

FAMILY_MALHEUR = "malheur"
TAG_MALHEUR = "malheur"


@register
class MalheurFamily(Family):
    """Malheur (module docstring)."""

    name = FAMILY_MALHEUR
    kinds = ("malheur",)
    tag = TAG_MALHEUR
    order = 40
    labelled_notes = True
    no_trump_text = "partner"

    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """The partnership's figures under G-MAL-07, with the best-trump bound."""
        return {spec.id: _evaluate(sample, spec) for spec in specs}


def _evaluate(sample: SampleView, spec: BidSpec) -> BidResult:
    rs = sample.ruleset
    must_play = contract_terms(rs, spec.contract).called_card_must_be_played

    def at_least(idx, trump, decl, called, target):
        return sample.store.at_least(idx, trump, spec.leader, decl, called, target, TAG_MALHEUR)

    options = {}
    for pc in malheur_partner_cards(sample.hand):
        partner = sample.partner_of(pc)
        choices = malheur_trump_choices(rs, pc)
        trump = malheur_partner_trump(sample.store.deals[: sample.n], partner, sample.hand, choices)
        decl = sample.me | (1 << partner)
        called = sample.effective_called(pc, partner) if must_play else np.full(sample.n, -1)
        ok = np.zeros(sample.n, dtype=np.int8)
        for s in choices:
            m = trump == s
            if m.any():
                ok[m] = at_least(sample.all[m], s, decl[m], called[m], spec.target)
        options[pc] = (int((ok == 1).sum()), partner, choices, trump, decl, called, ok)
    # The first partner card (♠ ♥ ♦ ♣ order) wins exact ties: max() keeps the first maximum.
    pc = max(options, key=lambda k: options[k][0])
    _, partner, choices, trump, decl, called, ok = options[pc]
    counted = sample.counted(ok)
    lo = np.zeros(sample.n, dtype=np.int64)
    hi = np.zeros(sample.n, dtype=np.int64)
    for s in choices:
        m = trump == s
        if m.any():
            lo[m], hi[m] = sample.trick_ranges(
                sample.all[m], s, spec.leader, decl[m], called[m], TAG_MALHEUR, False
            )
        m &= counted & (ok >= 0)
        if m.any():
            lo[m], hi[m] = sample.trick_ranges(
                sample.all[m], s, spec.leader, decl[m], called[m], TAG_MALHEUR
            )
    expected, ci = expected_score(spec, ok, counted, lo, hi)
    hist, hist_deals = sample.hist(lo, hi)
    # The double-dummy best trump: on every deal whether some suit makes (>=target in each),
    # and on the counted deals the best count (raised while another suit reaches one trick
    # more: the maximum over the suits, found with yes/no questions).
    any_ok = ok.copy()
    for s in choices:
        other = (trump != s) & (any_ok != 1)
        if other.any():
            got = at_least(sample.all[other], s, decl[other], called[other], spec.target)
            any_ok[other] = np.where(got == 1, 1, np.where(got < 0, -1, any_ok[other]))
    best_lo, best_hi = lo.copy(), hi.copy()
    for s in choices:
        active = counted & (trump != s) & (best_lo < N_RANKS)
        while active.any():
            i = sample.all[active]
            more = at_least(i, s, decl[active], called[active], best_lo[active] + 1)
            grown = i[more == 1]
            best_lo[grown] += 1
            lost = i[more < 0]
            if lost.size:
                _, h = sample.trick_ranges(
                    lost, s, spec.leader, decl[lost], called[lost], TAG_MALHEUR, False
                )
                best_hi[lost] = np.maximum(best_hi[lost], h)
            active = np.zeros(sample.n, dtype=bool)
            active[grown] = best_lo[grown] < N_RANKS
    best_hi = np.maximum(best_hi, best_lo)
    b_expected, b_ci = expected_score(spec, any_ok, counted, best_lo, best_hi)
    b_hist, _ = sample.hist(best_lo, best_hi)
    alternatives = [
        Alternative(None, k, Estimate(options[k][0], sample.n, int((options[k][6] < 0).sum())))
        for k in options
        if k != pc
    ]
    trump_counts = {format_strain(s, "en"): int((trump == s).sum()) for s in choices}
    notes = [
        "partner's trump by G-MAL-07 (longest suit counting the malheur player's aces, then "
        "best ranks): " + ", ".join(f"{k} {v}" for k, v in trump_counts.items() if v)
    ]
    if len(options) > 1:
        notes.append("4 aces: the named king is the one with the highest make-probability")
    return BidResult(
        spec=spec,
        trump=None,
        called=pc,
        estimate=Estimate.of_answers(ok),
        expected_score=expected,
        expected_score_ci=ci,
        tricks_hist=hist,
        tricks_hist_deals=hist_deals,
        alternatives=alternatives,
        notes=notes,
        bound=Bound(
            estimate=Estimate.of_answers(any_ok),
            expected_score=b_expected,
            tricks_hist=b_hist,
            expected_score_ci=b_ci,
        ),
    )
