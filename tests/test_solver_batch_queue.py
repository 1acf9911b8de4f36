"""solve_batch without a node budget: threads take positions from one queue and keep their
tables between calls. The answers must not depend on that (nor on the thread count), every
position must be reported done once, and an error in a thread must reach the caller."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_MISERE, GOAL_PIEK, GOAL_TRICKS, solve_batch


def _mixed_batch(seed: int, count: int, size: int):
    """Endings with every goal, side layout, trump and leader, as batch columns."""
    rng = random.Random(seed)
    hands, trump, leader, decl, goal, target = [], [], [], [], [], []
    for _ in range(count):
        hands.append([cards_to_mask(h) for h in random_ending(rng, size)])
        g = rng.choice([GOAL_TRICKS, GOAL_GE, GOAL_MISERE, GOAL_PIEK])
        goal.append(g)
        if g in (GOAL_MISERE, GOAL_PIEK):
            trump.append(4)
            decl.append(1 << rng.randrange(4))
        else:
            trump.append(rng.randrange(5))
            decl.append(rng.choice([0b0101, 0b0011, 0b1000, 0b1010]))
        leader.append(rng.randrange(4))
        target.append(rng.randint(1, size) if g == GOAL_GE else 0)
    cols = (trump, leader, decl, goal, target)
    return np.array(hands, dtype=np.int64), *(np.array(c, dtype=np.int64) for c in cols)


def test_queue_answers_equal_the_fixed_interleaving():
    hands, trump, leader, decl, goal, target = _mixed_batch(31, 150, 6)
    # a budget no search reaches selects the fixed interleaving on fresh tables
    fixed = solve_batch(hands, trump, leader, decl, goal, target, max_nodes=10**12)
    for threads in (1, 2, 3):
        queued = solve_batch(hands, trump, leader, decl, goal, target, threads=threads)
        assert np.array_equal(queued, fixed), threads
    # again, now on tables that still hold the entries of the calls above
    assert np.array_equal(solve_batch(hands, trump, leader, decl, goal, target), fixed)
    assert set(np.unique(fixed[goal != GOAL_TRICKS])) <= {0, 1}


def test_every_position_is_reported_done_once():
    hands, trump, leader, decl, goal, target = _mixed_batch(32, 90, 5)
    done = []
    solve_batch(hands, trump, leader, decl, goal, target, threads=2, on_done=done.append)
    assert sum(done) == len(hands)
    assert all(k >= 1 for k in done)
    budgeted = []
    solve_batch(hands, trump, leader, decl, goal, target, max_nodes=10**12, on_done=budgeted.append)
    assert sum(budgeted) == len(hands)  # with a budget too: the same queue


def test_an_error_in_a_thread_reaches_the_caller():
    hands, trump, leader, decl, goal, target = _mixed_batch(33, 40, 5)
    calls = []

    def fail(k: int) -> None:
        calls.append(k)
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        solve_batch(hands, trump, leader, decl, goal, target, threads=2, on_done=fail)
    # the queue was closed at the first error: no thread went on through the batch
    assert sum(calls) < len(hands)
    # and the tables went back to the pool in a usable state
    fixed = solve_batch(hands, trump, leader, decl, goal, target, max_nodes=10**12)
    assert np.array_equal(solve_batch(hands, trump, leader, decl, goal, target), fixed)


def test_read_only_inputs_reuse_the_compiled_kernels():
    """numba compiles a kernel once per combination of read-only flags of its array
    arguments; solve_batch hands it fresh writable copies, so a caller passing read-only
    views (broadcast scalars, a frozen deal array) never waits for another compilation."""
    from analyser.solver import driver

    hands, trump, leader, decl, goal, target = _mixed_batch(37, 6, 4)
    kernels = (driver.solve_range, driver.same_table)
    # without and with a node budget, with writable arrays first
    expected = solve_batch(hands, trump, leader, decl, goal, target)
    assert list(solve_batch(hands, trump, leader, decl, goal, target, max_nodes=10**12)) == list(
        expected
    )
    before = [set(k.signatures) for k in kernels]
    frozen = [np.array(x) for x in (hands, trump, leader, decl, goal, target)]
    for x in frozen:
        x.setflags(write=False)
    assert list(solve_batch(*frozen)) == list(expected)
    assert list(solve_batch(*frozen, max_nodes=10**12)) == list(expected)
    # scalars broadcast to read-only views inside
    one = solve_batch(
        hands[:1], int(trump[0]), int(leader[0]), int(decl[0]), int(goal[0]), int(target[0])
    )
    assert one[0] == expected[0]
    assert [set(k.signatures) for k in kernels] == before
