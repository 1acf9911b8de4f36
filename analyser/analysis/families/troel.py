"""The troel family (wiezen W-04, W-05): troel and troela.

The partner is the holder of the partner card (the 4th ace, or ♥K / the next heart down)
and leads that card to trick 1 (the solver's ``called_leads``); trump is its suit (troela:
hearts). The hand fixes the partner card, so it fixes the trump too. Before the auction, a
player with 3-4 aces announces troel (W-03): the hand notes say how often another player
does, which leaves this hand only the games above troel.
"""

from __future__ import annotations

import numpy as np

from analyser.analysis.bids import BidSpec, aces_held
from analyser.analysis.families.registry import Family, register
from analyser.analysis.families.sample import SampleView, expected_score
from analyser.analysis.results import BidResult, HandAnalysis
from analyser.analysis.wiezen import troel_elsewhere
from analyser.notation import format_card
from analyser.rules import Contract, ContractTerms, RuleSet, troel_partner_card, troel_trump
from analyser.seats import Seat
from analyser.stats import Estimate

FAMILY_TROEL = "troel"
TAG_TROEL = "troel"


@register
class TroelFamily(Family):
    """Troel and troela (module docstring)."""

    name = FAMILY_TROEL
    kinds = ("troel", "troela")
    tag = TAG_TROEL
    order = 60
    labelled_notes = True
    always_reported = False

    def strains(
        self, ruleset: RuleSet, contract: Contract, terms: ContractTerms, hand: list[int]
    ) -> tuple[int, ...]:
        """W-04/W-05: the suit of the 4th ace, or hearts; the hand fixes the partner card."""
        return (troel_trump(ruleset, contract, troel_partner_card(hand)),)

    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """The partnership's figures, the partner leading the partner card."""
        return {spec.id: _evaluate(sample, spec) for spec in specs}

    def hand_notes(self, analysis: HandAnalysis, deals: np.ndarray, seat: Seat) -> list[str]:
        """W-03: on some deals another player holds 3-4 aces and announces troel before the
        auction, which leaves this hand only the games above troel. Say how often."""
        if not analysis.ruleset.announced or aces_held(analysis.hand) >= 2 or not len(deals):
            return []
        k = int(troel_elsewhere(deals, seat).sum())
        if not k:
            return []
        e = Estimate(k, len(deals))
        low, high = e.interval
        return [
            f"another player holds 3-4 aces on {k} of {len(deals)} deals ({100 * e.p:.1f}%, "
            f"95% CI {100 * low:.1f}-{100 * high:.1f}%) and announces troel/troela before the "
            "auction (W-03): this hand can then only bid above it; the figures above include "
            "those deals"
        ]


def _evaluate(sample: SampleView, spec: BidSpec) -> BidResult:
    pc = troel_partner_card(sample.hand)
    trump = spec.strains[0]
    partner = sample.partner_of(pc)
    decl = sample.me | (1 << partner)
    ok = np.zeros(sample.n, dtype=np.int8)
    for p in np.unique(partner):
        m = partner == p
        ok[m] = sample.store.at_least(
            sample.all[m], trump, int(p), decl[m], pc, spec.target, TAG_TROEL, leads=True
        )
    counted = sample.counted(ok)
    lo = np.zeros(sample.n, dtype=np.int64)
    hi = np.zeros(sample.n, dtype=np.int64)
    for p in np.unique(partner):
        m = partner == p
        lo[m], hi[m] = sample.store.known_range(
            sample.all[m], trump, int(p), decl[m], pc, leads=True
        )
        solve = m & counted & (ok >= 0)
        if solve.any():
            lo[solve], hi[solve] = sample.store.trick_range(
                sample.all[solve], trump, int(p), decl[solve], pc, TAG_TROEL, leads=True
            )
    expected, ci = expected_score(spec, ok, counted, lo, hi)
    hist, hist_deals = sample.hist(lo, hi)
    notes = [f"partner: the holder of {format_card(pc, 'en')}, who leads it to trick 1 (W-04/W-05)"]
    return BidResult(
        spec=spec,
        trump=trump,
        called=pc,
        estimate=Estimate.of_answers(ok),
        expected_score=expected,
        expected_score_ci=ci,
        tricks_hist=hist,
        tricks_hist_deals=hist_deals,
        notes=notes,
    )
