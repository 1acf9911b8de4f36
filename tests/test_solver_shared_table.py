"""Positions of one deal that share the solver's table (driver.same_table, solve_range).

solve_batch lets consecutive trick-goal positions on the same hands, trump, leader and side
search in one table generation, whatever their called cards and targets: the analysis asks
every rik call of a trump at once, and calls that name the same partner then reuse each
other's proofs. That is sound only because an entry whose position still owes a called card
names that card (suit in the key, rank relative to the suit), and one whose called card is
gone holds for every call. Checked here against the same questions asked one by one, each
in a generation of its own."""

from __future__ import annotations

import random

import numpy as np
from oracle import random_ending

from analyser.cards import N_RANKS, cards_to_mask
from analyser.solver import GOAL_GE, GOAL_TRICKS, solve_batch

SIDES = (0b0101, 0b0011, 0b1001, 0b0110)  # partners opposite and adjacent


def _grouped_questions(seed: int, count: int, size: int):
    """Per ending: one side and trump, then the same position asked without a called card
    and with up to three called cards of the partner's (other suits, other ranks), each a
    >=K question at a random K or an exact count: rows of one ending are consecutive."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        hands = random_ending(rng, size, rng.choice([2, 3, 4]))
        masks = [cards_to_mask(h) for h in hands]
        side = rng.choice(SIDES)
        trump = rng.randrange(5)
        leader = rng.randrange(4)
        partner = [q for q in range(4) if side >> q & 1][rng.randrange(2)]
        calls = [-1] + rng.sample(hands[partner], min(3, size))
        # a defender's card now and then: a duty on the other side binds it too
        defender = next(q for q in range(4) if not side >> q & 1)
        calls.append(rng.choice(hands[defender]))
        for c in calls:
            goal = rng.choice([GOAL_GE, GOAL_GE, GOAL_TRICKS])
            k = rng.randint(1, size) if goal == GOAL_GE else 0
            rows.append((masks, trump, leader, side, goal, k, c))
    return rows


def _columns(rows):
    hands = np.array([r[0] for r in rows], dtype=np.int64)
    cols = [np.array([r[i] for r in rows], dtype=np.int64) for i in range(1, 7)]
    return hands, *cols


def test_shared_generation_answers_equal_separate_searches():
    rows = _grouped_questions(71, 500, 7)
    hands, trump, leader, side, goal, k, called = _columns(rows)
    shared = solve_batch(hands, trump, leader, side, goal, k, called, threads=1)
    # the same questions in an order where no two neighbours are on one position: every
    # search gets a generation of its own
    order = np.argsort(np.arange(len(rows)) % 5, kind="stable")
    alone = np.empty_like(shared)
    alone[order] = solve_batch(
        hands[order],
        trump[order],
        leader[order],
        side[order],
        goal[order],
        k[order],
        called[order],
        threads=1,
    )
    bad = np.flatnonzero(shared != alone)
    assert bad.size == 0, [(rows[i][1:], int(shared[i]), int(alone[i])) for i in bad[:5]]
    # the questions are not trivial: both answers occur, and the counts spread
    ge = goal == GOAL_GE
    assert set(np.unique(shared[ge])) == {0, 1}
    assert len(set(shared[~ge].tolist())) >= 5


def test_a_duty_changes_answers_on_the_same_position():
    """The check above has teeth only if calls of one position really differ: count the
    positions whose exact count depends on the called card."""
    rng = random.Random(72)
    differ = 0
    for _ in range(150):
        hands = random_ending(rng, 6, 3)
        masks = [cards_to_mask(h) for h in hands]
        calls = [-1] + [c for c in hands[2] if c % N_RANKS >= 8]
        n = len(calls)
        got = solve_batch(
            np.array([masks] * n, dtype=np.int64),
            rng.randrange(5),
            0,
            0b0101,
            GOAL_TRICKS,
            0,
            np.array(calls, dtype=np.int64),
            threads=1,
        )
        differ += len(set(got.tolist())) > 1
    assert differ >= 5
