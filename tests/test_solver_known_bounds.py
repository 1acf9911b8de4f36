"""Known trick bounds for the exact count (solve_batch's lower/upper): the answer is the
same as without them, and bounds that cannot be bounds are refused."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_TRICKS, solve_batch
from analyser.solver.api import PositionError


def _boards(seed: int, count: int, size: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.array(
        [[cards_to_mask(h) for h in random_ending(rng, size)] for _ in range(count)],
        dtype=np.int64,
    )


@pytest.mark.parametrize("trump", [0, 4])
def test_exact_count_with_bounds_from_ge_answers(trump):
    hands = _boards(21 + trump, 60, 7)
    decl = 0b1010
    exact = solve_batch(hands, trump, 1, decl, GOAL_TRICKS)
    for k in (2, 4, 6):
        ge = solve_batch(hands, trump, 1, decl, GOAL_GE, k)
        assert np.array_equal(ge, (exact >= k).astype(ge.dtype))
        lower = np.where(ge == 1, k, 0)
        upper = np.where(ge == 1, 13, k - 1)
        bounded = solve_batch(hands, trump, 1, decl, GOAL_TRICKS, lower=lower, upper=upper)
        assert np.array_equal(bounded, exact)
    # closed bounds are the answer itself
    assert np.array_equal(
        solve_batch(hands, trump, 1, decl, GOAL_TRICKS, lower=exact, upper=exact), exact
    )


def test_impossible_bounds_are_refused():
    hands = _boards(30, 2, 3)
    with pytest.raises(PositionError):
        solve_batch(hands, 4, 0, 0b0101, GOAL_TRICKS, lower=[3, 3], upper=[2, 3])
    with pytest.raises(PositionError):
        solve_batch(hands, 4, 0, 0b0101, GOAL_TRICKS, lower=-1)
