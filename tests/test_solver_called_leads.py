"""The troel lead (``called_leads``): the leader holds the called card and must lead it to
trick 1 (wiezen W-04/W-05), against the brute-force oracle, which plays the same positions
with that card already on the table (tests/oracle.py, ``called_leads``).

The endings are drawn so that the duty often matters: the called card is a random card of the
leader's, the side is the leader with one other seat (troel's partners sit anywhere), and the
set must hold positions where leading the card first costs the side tricks, or the test
would not tell the duty from its absence."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import oracle_solve, random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_TRICKS, PositionError, solve, solve_batch


def _positions(seed: int, count: int, sizes=(3, 4)):
    """(hands, trump, leader, side seats, called card) with the called card in the leader's
    hand; endings of ``sizes`` cards a hand."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice(sizes)
        hands = random_ending(rng, n, n_suits=rng.choice((2, 3, 4)))
        leader = rng.randrange(4)
        partner = rng.choice([q for q in range(4) if q != leader])
        called = rng.choice(hands[leader])
        out.append((hands, rng.randrange(5), leader, (leader, partner), called))
    return out


# 4-card endings by default (the oracle is the slow part: 5-card ones cost ten times more),
# 5-card ones in the slow run
@pytest.mark.parametrize(
    "count, sizes",
    [(120, (3, 4)), pytest.param(300, (4, 5), marks=pytest.mark.slow)],
)
def test_called_leads_matches_oracle(count, sizes):
    positions = _positions(29, count, sizes)
    want = [
        oracle_solve(h, t, ld, s, "tricks", c, called_leads=True) for h, t, ld, s, c in positions
    ]
    free = [oracle_solve(h, t, ld, s, "tricks", c) for h, t, ld, s, c in positions]
    # the duty costs tricks on a share of the positions, never gains any
    assert all(w <= f for w, f in zip(want, free, strict=True))
    assert sum(w < f for w, f in zip(want, free, strict=True)) >= count // 20
    masks = np.array([[cards_to_mask(h) for h in p[0]] for p in positions], np.int64)
    trump = np.array([p[1] for p in positions])
    leader = np.array([p[2] for p in positions])
    decl = np.array([sum(1 << s for s in p[3]) for p in positions])
    called = np.array([p[4] for p in positions])
    got = solve_batch(masks, trump, leader, decl, GOAL_TRICKS, called=called, called_leads=True)
    assert [int(g) for g in got] == want
    # >=K at the value and one above, the same positions (one table generation per deal)
    for delta in (0, 1):
        target = np.array(
            [max(1, min(len(p[0][0]), w + delta)) for p, w in zip(positions, want, strict=True)]
        )
        ge = solve_batch(
            masks, trump, leader, decl, GOAL_GE, target, called, called_leads=True, threads=1
        )
        assert [int(g) for g in ge] == [int(w >= k) for w, k in zip(want, target, strict=True)]
    # without the duty the solver gives the free value on the same positions
    plain = solve_batch(masks, trump, leader, decl, GOAL_TRICKS, called=called)
    assert [int(g) for g in plain] == free


def test_called_leads_mixed_with_free_rows_of_one_deal():
    # rows of one deal with and without the duty share a table generation: the duty's root
    # is never stored, so neither answer leaks into the other
    hands, trump, leader, side, called = _positions(31, 1)[0]
    while oracle_solve(hands, trump, leader, side, "tricks", called, called_leads=True) == (
        oracle_solve(hands, trump, leader, side, "tricks", called)
    ):
        hands, trump, leader, side, called = _positions(random.randrange(10**6), 1)[0]
    masks = np.array([[cards_to_mask(h) for h in hands]] * 4, np.int64)
    decl = sum(1 << s for s in side)
    leads = np.array([1, 0, 1, 0])
    got = solve_batch(masks, trump, leader, decl, GOAL_TRICKS, called=called, called_leads=leads)
    want_lead = oracle_solve(hands, trump, leader, side, "tricks", called, called_leads=True)
    want_free = oracle_solve(hands, trump, leader, side, "tricks", called)
    assert [int(g) for g in got] == [want_lead, want_free, want_lead, want_free]


def test_called_leads_refuses_positions_without_the_duty():
    hands = [[0, 1], [13, 14], [26, 27], [39, 40]]
    with pytest.raises(PositionError, match="leader"):
        solve(hands, 0, 1, [1, 3], "tricks", called=0, called_leads=True)
    with pytest.raises(PositionError, match="called card"):
        solve(hands, 0, 0, [0, 2], "tricks", called_leads=True)
    with pytest.raises(PositionError, match="trick goals"):
        solve(hands, 4, 0, [0], "misere", called=0, called_leads=True)
    # spades are trump and only seat 0 holds any: he wins both tricks whatever he leads
    assert solve(hands, 0, 0, [0, 2], "tricks", called=0, called_leads=True) == solve(
        hands, 0, 0, [0, 2], "tricks", called=0
    )
