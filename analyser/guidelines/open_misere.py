"""Open misère and misère *met een praatje* (docs/guidelines.md G-OPEN-03, G-PRAAT-02).

The open bidder leads to trick 1 (R-OPEN-02), so besides the holes the lead matters
(G-MIS-08). A *safe lead* (ours) is a card whose lead adds no hole mass (deterministic
lead cost ``<= max_lead_cost``) and that wins trick 1 with probability ``<= max_lead_win``
(``r(x)``, before trick 1: three unknown 13-card hands). With the defaults, 0 and 0.01, it is
a lead that practically never wins and never hurts, such as a singleton 2, the 2 from 2-3 or
the 4 from 4-2 (it wins only if one defender holds all eleven outstanding cards of the
suit).
"""

from __future__ import annotations

import numpy as np

from analyser.guidelines.hand import holding_ranks, vectorised
from analyser.guidelines.misere import largest_hole, suit_hole_count, suit_lead_cost, suit_lead_wins
from analyser.guidelines.vocab import suit_table


def has_safe_lead(holding: int, *, max_lead_cost: int = 0, max_lead_win: float = 0.01) -> bool:
    """The holding contains a safe lead at trick 1 (see the module docstring)."""
    return any(
        suit_lead_cost(holding, r) <= max_lead_cost and suit_lead_wins(holding, r) <= max_lead_win
        for r in holding_ranks(holding)
    )


@vectorised(bool)
def open_misere_ok(
    holdings: np.ndarray,
    *,
    max_hole_suits: int = 1,
    max_delta: int = 1,
    max_lead_cost: int = 0,
    max_lead_win: float = 0.01,
) -> np.ndarray:
    """G-OPEN-03 (ours): at most one suit with holes, every hole ``δ = 1``, plus a safe lead.
    Classifier for ``open_misere``: the bidder, leading with his hand face up, takes no trick."""
    holes = suit_table(suit_hole_count)[holdings]
    largest = suit_table(largest_hole)[holdings].max(axis=1)
    lead = suit_table(has_safe_lead, bool, max_lead_cost=max_lead_cost, max_lead_win=max_lead_win)[
        holdings
    ].any(axis=1)
    return ((holes > 0).sum(axis=1) <= max_hole_suits) & (largest <= max_delta) & lead


@vectorised(bool)
def praatje_ok(holdings: np.ndarray, *, max_holes: int = 0) -> np.ndarray:
    """G-PRAAT-02 (threshold ours): (almost) no holes — at most ``max_holes``. Classifier for
    ``open_misere_praatje``; the hole count itself is
    :data:`analyser.guidelines.misere.hole_count`."""
    return suit_table(suit_hole_count)[holdings].sum(axis=1) <= max_holes
