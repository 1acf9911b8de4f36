"""The node budget of solve_batch: a position that needs more nodes is answered UNDECIDED,
every other answer is unchanged."""

from __future__ import annotations

import random

import numpy as np
from oracle import random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_MISERE, GOAL_TRICKS, UNDECIDED, Solver, solve_batch
from analyser.solver.engine import S_ESCALATED


def _boards(seed: int, count: int, size: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.array(
        [[cards_to_mask(h) for h in random_ending(rng, size)] for _ in range(count)],
        dtype=np.int64,
    )


def test_budget_answers_exactly_or_undecided():
    hands = _boards(11, 40, 7)
    full = solve_batch(hands, 4, 0, 0b0101, GOAL_TRICKS)
    tight = solve_batch(hands, 4, 0, 0b0101, GOAL_TRICKS, max_nodes=200)
    undecided = tight == UNDECIDED
    assert 0 < undecided.sum() < len(hands)  # the budget bites on some positions only
    assert np.array_equal(tight[~undecided], full[~undecided])
    assert np.array_equal(solve_batch(hands, 4, 0, 0b0101, GOAL_TRICKS, max_nodes=10**9), full)


def test_budget_on_misere():
    hands = _boards(12, 60, 6)
    full = solve_batch(hands, 4, 1, 0b0001, GOAL_MISERE)
    tight = solve_batch(hands, 4, 1, 0b0001, GOAL_MISERE, max_nodes=30)
    decided = tight != UNDECIDED
    assert decided.sum() < len(hands)
    assert np.array_equal(tight[decided], full[decided])


def test_escalation_to_the_large_table_keeps_every_answer():
    # a one-bucket table (2**7 entries) thrashes, so searches over 50 nodes start again on
    # the large table: the answers must not change, with or without a budget there
    hands = _boards(13, 40, 7)
    full = solve_batch(hands, 2, 0, 0b0011, GOAL_TRICKS)
    again = solve_batch(hands, 2, 0, 0b0011, GOAL_TRICKS, tt_bits=7, escalate_nodes=50)
    assert np.array_equal(again, full)
    capped = solve_batch(
        hands, 2, 0, 0b0011, GOAL_TRICKS, tt_bits=7, escalate_nodes=50, max_nodes=400
    )
    decided = capped != UNDECIDED
    assert 0 < decided.sum()
    assert np.array_equal(capped[decided], full[decided])


def test_solver_counts_its_escalations():
    rng = random.Random(14)
    small = Solver(tt_bits=7, escalate_nodes=50)
    plain = Solver()
    for _ in range(20):
        hands = random_ending(rng, 7)
        for goal in ("tricks", ">=4"):
            assert small.solve(hands, 1, 3, [1, 2], goal) == plain.solve(hands, 1, 3, [1, 2], goal)
    assert small.stats[S_ESCALATED] > 0
    assert plain.stats[S_ESCALATED] == 0
