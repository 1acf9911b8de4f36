"""Quick tricks through a partner's ruff (quick_tricks.ruff_plan) against the brute-force oracle.

Random trump endings are kept only when the side on lead has a ruff plan worth at least one
trick, so every position exercises the bound; the exact count and >=K around it must match
the oracle (the bound may only ever settle a node correctly)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import oracle_solve_many, random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_TRICKS, solve_batch
from analyser.solver.quick_cross import ruff_plan
from analyser.solver.quick_runs import Duty, ruff_caps, suit_runs
from analyser.solver.quick_tricks import quick_tricks


def _ruff_positions(seed: int, count: int):
    """(hands, trump, leader, side seats) with a ruff plan for the side on lead."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        size = rng.choice((3, 4, 5))
        hands = random_ending(rng, size, n_suits=rng.choice((3, 4)))
        trump = rng.randrange(4)
        leader = rng.randrange(4)
        seats = rng.choice(((0, 2), (1, 3), (0, 1), (1, 2), (2, 3), (3, 0)))
        masks = np.array([cards_to_mask(h) for h in hands], np.int64)
        side = np.array([1 if p in seats else 0 for p in range(4)], np.int64)
        me = side[leader]
        pp = [q for q in range(4) if q != leader and side[q] == me][0]
        caps = ruff_caps(masks, trump, side, me)
        no_duty = Duty(-1, -1, -1)
        l_runs = suit_runs(masks, 0, leader, side, caps, -1, no_duty)
        p_runs = suit_runs(masks, 0, pp, side, caps, -1, no_duty)
        t, _ = ruff_plan(masks, leader, pp, trump, side, l_runs, p_runs)
        if t > 0:
            q, _ = quick_tricks(masks, leader, trump, side, -1, -1, 0)
            assert q >= t
            out.append((hands, trump, leader, seats))
    return out


@pytest.mark.parametrize("count", [50, pytest.param(300, marks=pytest.mark.slow)])
def test_ruff_plan_positions_agree_with_oracle(count):
    # a seeded sixth by default (the oracle is the slow part), every position in the slow run
    positions = _ruff_positions(7, count)
    jobs = [(h, t, ld, s, "tricks", None, True) for h, t, ld, s in positions]
    want = oracle_solve_many(jobs)
    masks = np.array([[cards_to_mask(h) for h in p[0]] for p in positions], np.int64)
    trump = np.array([p[1] for p in positions])
    leader = np.array([p[2] for p in positions])
    decl = np.array([sum(1 << s for s in p[3]) for p in positions])
    got = solve_batch(masks, trump, leader, decl, GOAL_TRICKS)
    assert [int(g) for g in got] == want
    for delta in (0, 1):
        k = np.clip(np.array(want) + delta, 1, 13)
        ge = solve_batch(masks, trump, leader, decl, GOAL_GE, k)
        assert [int(x) for x in ge] == [int(w >= kk) for w, kk in zip(want, k, strict=True)]
