"""The second-hand cut (cuts.second_hand_cut): once a trick's lead is on the table, the side
of the second hand may be sure of this trick and, from the hand that wins it, of more. Its
value settles search nodes, so it must hold against best play: checked here against the
brute-force oracle on random endings after every lead, for every layout of the sides (the
second hand the leader's opponent or partner), with and without trumps."""

from __future__ import annotations

import random

import numpy as np
from oracle import oracle_solve, random_ending

from analyser.cards import N_RANKS, NOTRUMP, card, cards_to_mask
from analyser.solver.cuts import second_hand_cut
from analyser.solver.state import Rules

LAYOUTS = (
    (1, 0, 0, 0),  # a lone declarer, each seat in turn by rotation below
    (1, 0, 1, 0),  # partners opposite
    (1, 1, 0, 0),  # adjacent partners
)


def _bit(c: int) -> int:
    """The solver's bit index of card ``c`` (16 bits per suit)."""
    return 16 * (c // N_RANKS) + c % N_RANKS


def _cut(hands_after, second, leader, lead, trump, side, need, rem):
    """second_hand_cut on card lists (``lead`` already out of the leader's hand), c = 0."""
    masks = np.array([cards_to_mask(h) for h in hands_after], np.int64)
    side_arr = np.array(side, np.int64)
    rules = Rules(trump, side_arr, side_arr, 0, -1, -1, True)
    return second_hand_cut(rules, masks, second, leader, _bit(lead), need, rem, 0)


def test_cut_values_hold_against_best_play():
    rng = random.Random(20261124)
    settled = 0
    checked = 0
    while checked < 1500:
        n = rng.choice((2, 3, 4))
        hands = random_ending(rng, n, rng.choice((2, 3, 4)))
        trump = rng.choice((0, 1, 2, 3, NOTRUMP))
        leader = rng.randrange(4)
        layout = rng.choice(LAYOUTS)
        turn = rng.randrange(4)
        side = [layout[(q + turn) % 4] for q in range(4)]
        declarer = [q for q in range(4) if side[q]]
        second = (leader + 1) % 4
        checked += 1
        for lead in hands[leader]:
            after = [list(h) for h in hands]
            after[leader].remove(lead)
            truth = None
            for need in range(1, n + 1):
                ok, value, _ = _cut(after, second, leader, lead, trump, side, need, n)
                if not ok:
                    continue
                settled += 1
                if truth is None:
                    truth = oracle_solve(after, trump, leader, declarer, trick=(lead,))
                if side[second] == 1:
                    # the declarer side is sure of `value` tricks, which reach `need`
                    assert value >= need and truth >= value, (hands, trump, leader, side, lead)
                else:
                    # the defenders hold the declarer side to `value`, below `need`
                    assert value < need and truth <= value, (hands, trump, leader, side, lead)
    # the cut is not vacuous on these endings
    assert settled > 1000


def test_an_opponent_who_can_ruff_stops_the_cut():
    # West leads a club; North holds the club ace, but East (void, with a trump) plays after
    # him and could ruff it: nothing is sure. Without trumps the ace and North's winners are.
    s, h, c = 0, 1, 3
    lead = card(c, 2)
    after = [
        [card(c, 12), card(s, 12), card(h, 12)],  # N: CA SA HA
        [card(s, 2), card(h, 3), card(h, 4)],  # E: S4 H5 H6
        [card(c, 5), card(s, 3), card(h, 5)],  # S: C7 S5 H7
        [card(s, 4), card(h, 6)],  # W: S6 H8, after leading C4
    ]
    side = [1, 0, 1, 0]
    ok, _, _ = _cut(after, 0, 3, lead, s, side, 3, 3)
    assert not ok
    ok, value, _ = _cut(after, 0, 3, lead, NOTRUMP, side, 3, 3)
    assert ok and value == 3
    assert oracle_solve(after, NOTRUMP, 3, [0, 2], trick=(lead,)) == 3
