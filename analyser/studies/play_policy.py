"""The play policy that gathers the tricks is part of the cut_only deal model (R-DEAL-06):
a second policy, double-dummy play, to measure how much the model's deals and the
make-probabilities move with it (docs/deal_model.md).

:func:`play_double_dummy` plays a deal out card by card, each player choosing the card that
is best double-dummy for his side: the leader of trick 1 and the player opposite him
against the other two (a fixed partnership standing in for a rik's, whose partner the
gathering does not see), trump as the model draws it; among equal cards the lowest, as the
simple policy plays low. About half a second a deal, against microseconds for the simple
policy, so it serves measurements, never an analysis.

:func:`pool_deals` draws deals given one hand from a pool of model deals (sessions of either
policy): the pool's deals whose hand at the place has the hand's sorted shape, with the
suits renamed and the given cards exchanged in as :mod:`analyser.deal_draw` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analyser.cards import N_RANKS, N_SEATS, SUIT_MASK
from analyser.deal_model import play_simple

POLICIES = ("simple", "double_dummy")


def play_double_dummy(hands: Sequence[Sequence[int]], trump: int, leader: int):
    """Play a deal out double-dummy (module docstring): a list of 13 (cards in play order,
    leader, winner) tricks, as :func:`analyser.deal_model.play_simple` returns them."""
    from analyser.solver import Solver
    from analyser.solver.play import card_values

    solver = Solver()
    held = [sorted(int(c) for c in h) for h in hands]
    side = (leader, (leader + 2) % N_SEATS)
    tricks = []
    for _ in range(N_RANKS):
        cards: list[int] = []
        for k in range(N_SEATS):
            seat = (leader + k) % N_SEATS
            values = card_values(held, trump, leader, side, "tricks", trick=cards, solver=solver)
            best = max(values.values()) if seat in side else min(values.values())
            c = min(x for x, v in values.items() if v == best)
            held[seat].remove(c)
            cards.append(c)
        winner = (leader + max(range(N_SEATS), key=lambda i: _rank_in_trick(cards, i, trump))) % 4
        tricks.append((tuple(cards), leader, winner))
        leader = winner
    return tricks


def _rank_in_trick(cards: Sequence[int], i: int, trump: int) -> tuple[int, int]:
    """Sort key of card ``i`` of a trick: trumps above the led suit above discards (R-PLAY-03)."""
    s = cards[i] // N_RANKS
    return (2 if s == trump else 1 if s == cards[0] // N_RANKS else 0, cards[i] % N_RANKS)


def policy(name: str):
    """The play function of a policy name (:data:`POLICIES`)."""
    return {"simple": play_simple, "double_dummy": play_double_dummy}[name]


def pool_deals(pool: np.ndarray, hand_mask: int, seat: int) -> np.ndarray:
    """The deals of ``pool`` (``int64[n, 4]`` model deals) whose hand at ``seat`` has the
    sorted suit lengths of ``hand_mask``, each with the suits renamed (the first renaming
    that fits) and the given cards exchanged in at ``seat`` (lowest with lowest):
    :func:`analyser.deal_draw.place_hand`."""
    from analyser.deal_draw import place_hand

    want = sorted(_lengths(hand_mask))
    out = [
        place_hand(d, hand_mask, seat)
        for d in np.asarray(pool, np.int64)
        if sorted(_lengths(int(d[seat]))) == want
    ]
    return np.array(out, np.int64).reshape(-1, N_SEATS)


def _lengths(mask: int) -> list[int]:
    return [bin((int(mask) >> (16 * s)) & SUIT_MASK).count("1") for s in range(4)]
