"""The stoppers bound (cuts.sure_one_trick) when a side needs every remaining trick.

The other side holds the top card of some suits. Side x wins a trick only in a suit whose top it
holds, and each such trick lowers x's longest holding there, so x makes every trick only if
``sum over the suits x tops of its longest holding`` reaches the tricks left, or an opponent
lets go of a top card. An opponent need not while he holds a card that is not a top one, so that
only happens when all his cards are tops of different suits, three tricks or fewer from the end.
With no trump left, no called card owed and x one hand or two, the bound claims that the sum
alone settles it (DDS's later-tricks rule at no trump); with three hands of x it keeps one
trick per extra top card of an opponent, because three hands can squeeze the lone opponent.

The checks run the brute-force oracle on exactly the endings the argument rests on: an opponent
holding nothing but the tops of two or three suits, every seating of the sides.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from oracle import oracle_solve, oracle_solve_many, random_ending

from analyser.cards import cards_to_mask
from analyser.solver.cuts import sure_one_trick
from analyser.solver.layout import NT
from analyser.solver.state import Rules

ACE = 12
# side x (seat 0 leads) and the opponent who holds only top cards, for x of one or two hands
SEATINGS = [
    ((0,), 1),
    ((0,), 2),
    ((0,), 3),
    ((0, 1), 2),
    ((0, 1), 3),
    ((0, 2), 1),
    ((0, 2), 3),
    ((0, 3), 1),
    ((0, 3), 2),
]


def _shortfall(hands, x_seats) -> tuple[int, int]:
    """(x's longest holdings summed over the suits whose top card x holds, the most top cards
    one opponent holds) with no trumps in play."""
    owner = {c: p for p in range(4) for c in hands[p]}
    total = 0
    tops = [0, 0, 0, 0]
    for s in range(4):
        cards = [c for h in hands for c in h if c // 13 == s]
        if not cards:
            continue
        o = owner[max(cards)]
        if o in x_seats:
            total += max(sum(1 for c in hands[p] if c // 13 == s) for p in x_seats)
        else:
            tops[o] += 1
    return total, max(tops)


def _arrangements(counts: list[int]):
    """Every sequence with ``counts[i]`` copies of i (the owners of the cards in order)."""
    if not any(counts):
        yield ()
        return
    for i, k in enumerate(counts):
        if k:
            counts[i] -= 1
            for rest in _arrangements(counts):
                yield (i, *rest)
            counts[i] += 1


def _only_tops(r: int, x_seats, holder: int):
    """Every ending of ``r`` cards a hand (up to the order of ranks inside a suit) where
    ``holder`` holds the top cards of suits 0..r-1 and nothing else, and x's sum falls short
    of ``r``: the positions the bound claims x fails in."""
    others = [p for p in range(4) if p != holder]
    tops = [s * 13 + ACE for s in range(r)]
    m = 3 * r
    for lengths in itertools.product(range(m + 1), repeat=4):
        # suits 0..r-1 are alike (the holder has the top of each): one order of their lengths
        if sum(lengths) != m or list(lengths[:r]) != sorted(lengths[:r], reverse=True):
            continue
        slots = [s * 13 + k for s in range(4) for k in range(lengths[s])]
        for owners in _arrangements([r, r, r]):
            hands = [[], [], [], []]
            hands[holder] = list(tops)
            for card, o in zip(slots, owners, strict=True):
                hands[others[o]].append(card)
            total, _ = _shortfall(hands, x_seats)
            if total < r:
                yield hands


def _claims(hands, x_seats, trump=NT, pend=0) -> bool:
    side = np.array([1 if p in x_seats else 0 for p in range(4)], np.int64)
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    rules = Rules(trump, side, side, 0, -1, -1, True)
    ok, w = sure_one_trick(rules, masks, 0, 1, len(hands[0]), pend)
    assert not ok or w != 0
    return ok


def _check(positions, x_seats, processes=1):
    positions = list(positions)
    for hands in positions:
        assert _claims(hands, x_seats), hands
    r = len(positions[0][0])
    jobs = [(h, NT, 0, list(x_seats), f">={r}", None, True) for h in positions]
    made = oracle_solve_many(jobs, processes)
    bad = [h for h, m in zip(positions, made, strict=True) if m]
    assert not bad, bad[:3]


@pytest.mark.parametrize("x_seats,holder", SEATINGS)
def test_two_cards_left_every_ending_with_an_opponent_of_top_cards(x_seats, holder):
    _check(_only_tops(2, x_seats, holder), x_seats)


@pytest.mark.parametrize("x_seats,holder", SEATINGS)
def test_three_cards_left_a_seeded_sample_of_those_endings(x_seats, holder):
    rng = random.Random(20261130 + 10 * len(x_seats) + holder)
    others = [p for p in range(4) if p != holder]
    pool = [c for c in range(52) if c % 13 != ACE or c // 13 == 3]
    positions = []
    while len(positions) < 150:
        cards = rng.sample(pool, 9)
        hands = [[], [], [], []]
        hands[holder] = [s * 13 + ACE for s in range(3)]
        for i, p in enumerate(others):
            hands[p] = sorted(cards[3 * i : 3 * i + 3])
        if _shortfall(hands, x_seats)[0] < 3:
            positions.append(hands)
    _check(positions, x_seats)


@pytest.mark.slow
@pytest.mark.parametrize("x_seats,holder", SEATINGS)
def test_three_cards_left_every_ending_with_an_opponent_of_top_cards(x_seats, holder):
    _check(_only_tops(3, x_seats, holder), x_seats, processes=2)


def test_three_hands_squeeze_a_lone_opponent_so_the_bound_keeps_his_extra_tops():
    # South holds the aces of spades, hearts and diamonds; North, East and West each keep a
    # small card of one of those suits and two clubs (x's sum: 2). Two club leads make South
    # bare two aces, and the hand with the small card of the third suit takes the last trick.
    hands = [[0, 39, 42], [13, 40, 43], [12, 25, 38], [26, 41, 44]]
    x_seats = (0, 1, 3)
    assert _shortfall(hands, x_seats) == (2, 3)
    assert oracle_solve(hands, NT, 0, list(x_seats), ">=3") == 1
    assert not _claims(hands, x_seats)


def test_the_sum_alone_needs_no_trump_in_play_and_no_called_card_owed():
    # East holds the tops of spades and hearts, North/South the top clubs (sum 2 of 3 tricks)
    hands = [[0, 50, 49], [12, 25, 1], [13, 48, 2], [14, 3, 4]]
    x_seats = (0, 2)
    assert _shortfall(hands, x_seats) == (2, 2)
    assert _claims(hands, x_seats)
    assert oracle_solve(hands, NT, 0, list(x_seats), ">=3") == 0
    # a called card owed: the old bound (one trick per extra top card) no longer settles it
    assert not _claims(hands, x_seats, pend=1)


def test_random_endings_where_the_bound_fires_hold_against_best_play():
    rng = random.Random(20261201)
    fired = tight = tried = 0
    while tight < 40 and tried < 100_000:
        tried += 1
        n = rng.choice((3, 4))
        hands = random_ending(rng, n, rng.choice((2, 3, 4)))
        x_seats = rng.choice([s for s, _ in SEATINGS] + [(0, 1, 2), (0, 1, 3), (0, 2, 3)])
        if not _claims(hands, x_seats):
            continue
        fired += 1
        total, most = _shortfall(hands, x_seats)
        tight += total + most - 1 >= n
        assert oracle_solve(hands, NT, 0, list(x_seats), f">={n}") == 0, (hands, x_seats)
    assert tight >= 40, (fired, tight, tried)
