"""The trump 'later tricks' bound (later_tricks.later_tricks) for two hands holding top trumps,
against the brute-force oracle.

Random trump endings are kept only when the two-hand count (a partner holding enough low
trumps to play under each of the other hand's top trumps) says more than the best single
hand, so every position exercises it: the bound may never exceed the side's double-dummy
tricks with either side on lead, and the solver's answers around it must match the oracle."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import oracle_solve_many, random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_TRICKS, solve_batch
from analyser.solver.later_tricks import later_tricks


def _pair_positions(seed: int, count: int):
    """(hands, trump, leader, declarer seats, bound per side) where pairs count more."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        hands = random_ending(rng, rng.choice((3, 4, 5)), n_suits=rng.choice((2, 3, 4)))
        trump = rng.randrange(4)
        seats = rng.choice(((0, 2), (1, 3), (0, 1), (1, 2), (2, 3), (3, 0), (0,), (1, 2, 3)))
        masks = np.array([cards_to_mask(h) for h in hands], np.int64)
        side = np.array([1 if p in seats else 0 for p in range(4)], np.int64)
        gain = False
        bound = []
        for which in (0, 1):
            single, _ = later_tricks(masks, trump, side, which, False)
            both, _ = later_tricks(masks, trump, side, which, True)
            assert both >= single
            gain |= both > single
            bound.append(both)
        if gain:
            out.append((hands, trump, rng.randrange(4), seats, bound))
    return out


def _called_trump(hands, trump, seats):
    """A trump of the last declarer seat that holds one, as the called card (or None): its
    holder must play it on the first trump lead, so pairs are not trusted then."""
    for p in reversed(seats):
        mine = [c for c in hands[p] if c // 13 == trump]
        if mine:
            return max(mine)
    return None


@pytest.mark.parametrize("count", [40, pytest.param(240, marks=pytest.mark.slow)])
def test_two_hand_trump_bound_is_safe(count):
    # a seeded sixth by default (the oracle is the slow part), every position in the slow run
    positions = _pair_positions(21, count)
    called = [
        _called_trump(h, t, s) if i % 3 == 0 else None
        for i, (h, t, _, s, _) in enumerate(positions)
    ]
    jobs = [
        (h, t, ld, s, "tricks", c, True)
        for (h, t, ld, s, _), c in zip(positions, called, strict=True)
    ]
    want = oracle_solve_many(jobs)
    # the bound itself, on the positions without a called card
    for (hands, _, _, _, bound), c, tricks in zip(positions, called, want, strict=True):
        if c is None:
            assert bound[1] <= tricks, hands
            assert bound[0] <= len(hands[0]) - tricks, hands
    masks = np.array([[cards_to_mask(h) for h in p[0]] for p in positions], np.int64)
    trump = np.array([p[1] for p in positions])
    leader = np.array([p[2] for p in positions])
    decl = np.array([sum(1 << s for s in p[3]) for p in positions])
    calls = np.array([-1 if c is None else c for c in called])
    got = solve_batch(masks, trump, leader, decl, GOAL_TRICKS, called=calls)
    assert [int(g) for g in got] == want
    for delta in (0, 1):
        k = np.clip(np.array(want) + delta, 1, 13)
        ge = solve_batch(masks, trump, leader, decl, GOAL_GE, k, called=calls)
        assert [int(x) for x in ge] == [int(w >= kk) for w, kk in zip(want, k, strict=True)]
