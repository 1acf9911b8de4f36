"""The late-hand cut (cuts.late_hand_cut): with two or three cards of a trick on the table,
the side of the third or fourth hand may be sure of the trick while one trick is all it
still wants. Its value settles search nodes, so it must hold against best play: checked here
against the brute-force oracle on random endings after random starts of a trick, for every
layout of the sides, with and without trumps."""

from __future__ import annotations

import random

import numpy as np
from oracle import oracle_solve, random_ending

from analyser.cards import N_RANKS, NOTRUMP, cards_to_mask
from analyser.solver.cuts import late_hand_cut
from analyser.solver.position import beats
from analyser.solver.state import Rules, Turn

LAYOUTS = (
    (1, 0, 0, 0),  # a lone declarer, each seat in turn by rotation below
    (1, 0, 1, 0),  # partners opposite
    (1, 1, 0, 0),  # adjacent partners
)


def _bit(c: int) -> int:
    """The solver's bit index of card ``c`` (16 bits per suit)."""
    return 16 * (c // N_RANKS) + c % N_RANKS


def _cut(hands_after, leader, trick, trump, side, need, rem):
    """late_hand_cut on card lists (``trick`` already out of its players' hands), c = 0."""
    masks = np.array([cards_to_mask(h) for h in hands_after], np.int64)
    bits = [_bit(c) for c in trick]
    wseat, wbit = leader, bits[0]
    for i in range(1, len(bits)):
        if beats(bits[i], wbit, trump):
            wseat, wbit = (leader + i) % 4, bits[i]
    table = 0
    for b in bits:
        table |= 1 << b
    p = (leader + len(trick)) % 4
    side_arr = np.array(side, np.int64)
    rules = Rules(trump, side_arr, side_arr, 0, -1, -1, True)
    turn = Turn(len(trick), p, len(trick), bits[0] >> 4, wseat, wbit, table, 0)
    return late_hand_cut(rules, masks, turn, need, rem, 0)


def test_cut_values_hold_against_best_play():
    rng = random.Random(20261125)
    settled = {1: 0, 0: 0}
    checked = 0
    while checked < 2500:
        n = rng.choice((2, 3, 4))
        hands = random_ending(rng, n, rng.choice((2, 3, 4)))
        trump = rng.choice((0, 1, 2, 3, NOTRUMP))
        leader = rng.randrange(4)
        layout = rng.choice(LAYOUTS)
        turn = rng.randrange(4)
        side = [layout[(q + turn) % 4] for q in range(4)]
        declarer = [q for q in range(4) if side[q]]
        after = [list(h) for h in hands]
        trick = []
        for k in range(rng.choice((2, 3))):
            q = (leader + k) % 4
            follow = [c for c in after[q] if trick and c // N_RANKS == trick[0] // N_RANKS]
            c = rng.choice(follow or after[q])
            after[q].remove(c)
            trick.append(c)
        checked += 1
        truth = None
        for need in range(1, n + 1):
            ok, value, _ = _cut(after, leader, trick, trump, side, need, n)
            if not ok:
                continue
            p = (leader + len(trick)) % 4
            settled[side[p]] += 1
            if truth is None:
                truth = oracle_solve(after, trump, leader, declarer, trick=tuple(trick))
            if side[p] == 1:
                # the declarer side is sure of `value` tricks, which reach `need`
                assert value >= need and truth >= value, (hands, trump, leader, side, trick)
            else:
                # the defenders hold the declarer side to `value`, below `need`
                assert value < need and truth <= value, (hands, trump, leader, side, trick)
    # the cut is not vacuous on these endings, for either side
    assert settled[1] > 300 and settled[0] > 100, settled
