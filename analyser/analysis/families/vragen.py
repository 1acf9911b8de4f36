"""The vragen family (wiezen W-07, W-08): ask, and someone goes along.

The partner is the player the meegaan model of :mod:`analyser.analysis.wiezen` lets go along
(per deal; none on some deals). P(make) is P(8 tricks together) over the deals on which
someone goes along (their share is reported as ``joined``); the expected score counts the
other deals as the asker's fallback, alone 5 in the turned suit (solved as the alone
family's positions, which alone 5 itself shares), or a pass (0) when alone 5 loses on
average on those deals (W-08).
"""

from __future__ import annotations

import numpy as np

from analyser.analysis.bids import BidSpec, score_table
from analyser.analysis.families.alone import TAG_ALONE
from analyser.analysis.families.registry import Family, register
from analyser.analysis.families.sample import SampleView
from analyser.analysis.results import BidResult
from analyser.analysis.wiezen import (
    JOIN_MIN_COUNT,
    JOIN_MIN_TRUMPS,
    join_candidates,
    meegaan_partner,
)
from analyser.rules import contract_terms, first_leader
from analyser.seats import FOREHAND
from analyser.stats import Estimate, stratified_mean

FAMILY_VRAGEN = "vragen"
TAG_VRAGEN = "vragen"


@register
class VragenFamily(Family):
    """vragen + meegaan (module docstring)."""

    name = FAMILY_VRAGEN
    kinds = ("vragen",)
    tag = TAG_VRAGEN
    order = 50
    labelled_notes = True
    always_reported = False

    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """The figures under the meegaan model, alone 5 or a pass where nobody goes along."""
        return {spec.id: _evaluate(sample, spec) for spec in specs}


def _evaluate(sample: SampleView, spec: BidSpec) -> BidResult:
    rs = sample.ruleset
    trump, leader = spec.strains[0], spec.leader
    partner = meegaan_partner(sample.store.deals[: sample.n], rs, sample.seat, trump)
    joined = partner >= 0
    decl = np.where(joined, sample.me | (1 << np.maximum(partner, 0)), sample.me)
    fallback = rs.ask_fallbacks[spec.contract]
    fb_leader = first_leader(rs, fallback, (sample.seat,), FOREHAND)
    fb_target = contract_terms(rs, fallback, turned=trump).target
    fb_scores = np.asarray(score_table(rs, fallback), dtype=np.float64)
    ok = np.zeros(sample.n, dtype=np.int8)
    j, a = sample.all[joined], sample.all[~joined]
    if j.size:
        ok[j] = sample.store.at_least(j, trump, leader, decl[j], -1, spec.target, TAG_VRAGEN)
    if a.size:
        ok[a] = sample.store.at_least(a, trump, fb_leader, sample.me, -1, fb_target, TAG_ALONE)
    # strata: (joined or not) x (made, failed, given up)
    strata = np.where(joined, 0, 3) + ok.astype(np.int64) + 1
    counted = sample.counted(strata)
    lo = np.zeros(sample.n, dtype=np.int64)
    hi = np.zeros(sample.n, dtype=np.int64)
    for m, ldr, tag in ((joined, leader, TAG_VRAGEN), (~joined, fb_leader, TAG_ALONE)):
        if not m.any():
            continue
        lo[m], hi[m] = sample.store.known_range(sample.all[m], trump, ldr, decl[m], -1)
        solve = m & counted & (ok >= 0)  # a given-up question keeps its known bounds
        if solve.any():
            lo[solve], hi[solve] = sample.store.trick_range(
                sample.all[solve], trump, ldr, decl[solve], -1, tag
            )
    scores = np.asarray(spec.scores, dtype=np.float64)
    low = np.where(joined, scores[lo], fb_scores[lo])
    high = np.where(joined, scores[hi], fb_scores[hi])
    notes = []
    n_joined = int(joined.sum())
    join_est = Estimate(n_joined, sample.n)
    if not join_candidates(rs, sample.seat):
        notes.append(
            "nobody speaks after the dealer: his ask cannot be answered and he decides at once "
            "between alone 5 and a pass (W-08)"
        )
    else:
        jl, jh = join_est.interval
        notes.append(
            f"someone goes along on {n_joined} of {sample.n} deals ({100 * join_est.p:.1f}%, "
            f"95% CI {100 * jl:.1f}-{100 * jh:.1f}%; meegaan model: the first later player "
            f"with >= {JOIN_MIN_TRUMPS} trumps and trumps + side aces >= {JOIN_MIN_COUNT}); "
            "P(make) is P(8 tricks together) over those deals"
        )
    alone = ~joined
    if alone.any():
        # the asker's choice when nobody joins, made once for the hand: alone 5 unless it
        # loses on average over those deals (then pass: the deal is thrown in, 0 each)
        fb_mean, _, _ = stratified_mean(strata[alone], counted[alone], low[alone], high[alone])
        if fb_mean < 0:
            low[alone] = high[alone] = 0.0
            notes.append(
                f"unanswered ({int(alone.sum())} deals): alone 5 would average {fb_mean:+.2f}, "
                "so the asker passes (0)"
            )
        else:
            notes.append(
                f"unanswered ({int(alone.sum())} deals): the asker plays alone 5 "
                f"(averaging {fb_mean:+.2f} there)"
            )
    point, e_low, e_high = stratified_mean(strata, counted, low, high)
    # the trick distribution of the partnership, on the deals with a partner
    hist, hist_deals = sample.hist(np.where(joined, lo, -1), np.where(joined, hi, -2))
    return BidResult(
        spec=spec,
        trump=trump,
        called=None,
        estimate=Estimate.of_answers(ok[j]),
        expected_score=point,
        expected_score_ci=(e_low, e_high),
        tricks_hist=hist if hist_deals else None,
        tricks_hist_deals=hist_deals,
        notes=notes,
        joined=join_est,
    )
