"""The node budget of solve_batch: a position that needs more nodes is answered UNDECIDED,
every other answer is unchanged."""

from __future__ import annotations

import random

import numpy as np
from oracle import random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_MISERE, GOAL_TRICKS, UNDECIDED, solve_batch


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
