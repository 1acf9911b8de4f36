"""The studies' only door to the solver and the sampler: deals per hand, batched solving.

Studies build flat arrays of positions (one row per hand x deal x option) and solve them here
in pieces large enough for :func:`analyser.solver.solve_batch` to keep every core busy while
the progress line still moves. :data:`COUNTERS` tallies positions solved, so a test can
check that a cached rerun solves nothing.
"""

from __future__ import annotations

import numpy as np

from analyser.cards import N_SEATS, card_bit, mask_to_cards
from analyser.progress import Progress

PIECE = 512  # positions per solve_batch call
COUNTERS = {"calls": 0, "positions": 0}


def deals_for_hand(mask: int, n: int, seed: int, model: str = "uniform") -> np.ndarray:
    """``int64[n, 4]``: deals 0..n-1 of ``seed`` with the hand ``mask`` fixed at North (West
    deals, so North is forehand) under the deal ``model``: ``uniform`` the sampler's deals,
    ``cut_only`` the conditional draw of :mod:`analyser.deal_draw` (place 1). RikkenError for
    a hand too rare under ``cut_only`` to be drawn."""
    if model == "uniform":
        from analyser.sampler import sample_deals

        return sample_deals([mask_to_cards(int(mask)), [], [], []], n, seed)
    from analyser.deal_draw import cut_only_deals

    return cut_only_deals(int(mask), 1, n, int(seed))


def holder_of(deals: np.ndarray, c: int) -> np.ndarray:
    """``int64[n]``: the seat holding card ``c`` in each deal (``int64[n, 4]`` masks)."""
    held = (np.asarray(deals) & card_bit(int(c))) != 0
    return np.argmax(held, axis=1)


def solve_positions(
    hands: np.ndarray,
    trump,
    leader,
    declarer,
    goal,
    target=0,
    called=-1,
    *,
    discard_ok: bool = True,
    progress: Progress | None = None,
    max_nodes: int = 0,
) -> np.ndarray:
    """Solve positions (arguments as :func:`analyser.solver.solve_batch`, scalars broadcast)
    in pieces of :data:`PIECE`, advancing ``progress`` by one per position. ``max_nodes`` > 0
    is the solver's node budget: positions beyond it come back as -1 (undecided)."""
    from analyser import solver

    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, N_SEATS)
    n = hands.shape[0]

    def col(x) -> np.ndarray:
        return np.broadcast_to(np.asarray(x, dtype=np.int64), (n,))

    cols = [col(x) for x in (trump, leader, declarer, goal, target, called)]
    out = np.empty(n, dtype=np.int8)
    for a in range(0, n, PIECE):
        b = min(n, a + PIECE)
        out[a:b] = solver.solve_batch(
            hands[a:b],
            *(c[a:b] for c in cols),
            called_card_may_be_discarded=discard_ok,
            max_nodes=max_nodes,
        )
        COUNTERS["calls"] += 1
        COUNTERS["positions"] += b - a
        if progress is not None:
            progress.advance(b - a)
    return out
