"""The recommendation: the best legal opening bid, and the highest bid worth competing to.

Both weigh each bid's headline figures (:mod:`analyser.analysis.headline`: the estimated
real play by default, double-dummy with ``--play double-dummy`` or where no calibration
applies).

* **Opening bid**: the seat's legal bids when every earlier seat has passed (the rule set's
  :func:`~analyser.rules.legal_bids`, so alone bids need an earlier rik, beter rik another
  player's rik, and a 3-4 ace hand under obligatory malheur must bid malheur or higher). Among
  them the one with the highest expected score (ties: higher make-probability, then the lower
  bid). A pass counts as 0 points — a simplification: after a pass the deal may be thrown in
  (0 for everybody) or another player declares. So ``pass`` is recommended when it is legal and
  every legal bid has a negative expected score.
* **Highest bid worth competing to**: the highest-ranked bid (any bid, alone included) with a
  positive expected score and a make-probability of at least ``--min-p`` (ties on the same
  rung: the higher expected score).
"""

from __future__ import annotations

from collections.abc import Collection

from analyser.analysis.results import BidResult, HandAnalysis
from analyser.rules import (
    PASS,
    AuctionState,
    Contract,
    RuleSet,
    legal_bids,
    troel_announcement,
)
from analyser.seats import FOREHAND, Place, seat_of


def opening_bids(ruleset: RuleSet, seat: Place, aces: int) -> list[Contract]:
    """Legal bids of ``seat`` (1..4 relative to the dealer) at its first turn when every
    earlier seat passed; ``pass`` included when legal. A hand that must announce troel or
    troela before the auction (wiezen W-03) opens with that announcement and nothing else:
    the games above it are open to him only once someone has outbid it (W-06)."""
    target = seat_of(seat)
    announced = troel_announcement(ruleset, [aces if s == target else 0 for s in range(4)])
    if announced is not None:
        return [announced[1]]
    state = AuctionState.start(FOREHAND)
    while state.turn != target:
        state = state.apply(ruleset, PASS, 0)
    return legal_bids(ruleset, state, target, aces)


def recommend(analysis: HandAnalysis, aces: int, legal: Collection[Contract] | None = None) -> None:
    """Fill ``recommended_opening``, ``highest_competitive`` and each bid's ``opening`` flag.

    ``legal``: the calls open to the seat at this point of an auction (``--auction``); they
    then stand for the opening bids (default: the seat's opening bids after passes)."""
    at_table = legal is not None  # the caller's decision scores the pass (analyser.auction)
    if legal is None:
        legal = opening_bids(analysis.ruleset, analysis.seat, aces)
    openings: list[BidResult] = []
    for b in analysis.bids:
        b.opening = b.spec.contract in legal
        if b.opening:
            openings.append(b)
    if openings:
        best = max(openings, key=lambda b: (b.score_headline, b.p_headline, -b.spec.rank))
        if best.score_headline < 0 and PASS in legal:
            analysis.recommended_opening = PASS.id
            if not at_table:
                analysis.notes.append("every legal opening bid loses on average: pass (scored 0)")
        else:
            analysis.recommended_opening = best.spec.id
    elif PASS in legal:
        analysis.recommended_opening = PASS.id
    worth = [b for b in analysis.bids if b.score_headline > 0 and b.p_headline >= analysis.min_p]
    if worth:
        top = max(worth, key=lambda b: (b.spec.rank, b.score_headline))
        analysis.highest_competitive = top.spec.id
