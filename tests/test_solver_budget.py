"""The node budget of solve_batch: a position that needs more nodes is answered UNDECIDED,
every other answer is unchanged."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_MISERE, GOAL_TRICKS, UNDECIDED, Solver, solve_batch
from analyser.solver.driver import Batch, solve_one
from analyser.solver.layout import KILLER_SIZE, N_STATS, S_ESCALATED, S_NODES, S_SEARCHES
from analyser.solver.state import Memory
from analyser.solver.table import move_entries, new_table


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


def test_a_search_that_replaces_its_own_entries_starts_again_on_the_large_table():
    # 9-card endings overflow a one-bucket table (2**7 entries) with their own entries long
    # before a budget of 10**9 nodes: they give up after EVICT_LIMIT replacements and are
    # solved again on the large table, with the same answers; without a larger table to go
    # to (escalate_nodes=0) nothing gives up
    rng = random.Random(16)
    small = Solver(tt_bits=7, escalate_nodes=10**9)
    stay = Solver(tt_bits=7, escalate_nodes=0)
    plain = Solver()
    for _ in range(6):
        hands = random_ending(rng, 9)
        want = plain.solve(hands, 4, 0, [0, 2], "tricks")
        assert small.solve(hands, 4, 0, [0, 2], "tricks") == want
        assert stay.solve(hands, 4, 0, [0, 2], "tricks") == want
    assert small.stats[S_ESCALATED] > 0
    assert stay.stats[S_ESCALATED] == 0


def test_entries_moved_to_the_large_table_answer_at_the_root():
    # move_entries must place every entry where a probe of the large table looks: solving
    # the same positions again there (same generation) is then settled at each search's root
    rng = random.Random(15)
    killer = np.zeros(KILLER_SIZE, np.int64)
    searched = 0
    for k in range(24):
        hands = np.array([cards_to_mask(h) for h in random_ending(rng, 7)], np.int64)
        trump, leader = k % 5, k % 4
        decl = (0b0101, 0b0011, 0b0001)[k % 3]
        goal, target = (GOAL_TRICKS, 0) if k % 2 else (GOAL_GE, 4)
        small_tt, small_tb = new_table(10)
        big_tt, big_tb = new_table(14)
        one = np.zeros(1, np.int64)
        columns = [one + x for x in (trump, leader, decl, goal, target, -1, 0, 13, 0)]
        batch = Batch(hands[None, :], *columns)
        first = np.zeros(N_STATS, np.int64)
        r = solve_one(batch, 0, True, Memory(small_tt, small_tb, 9, killer, first, 0), 0)
        move_entries(small_tt, small_tb, big_tt, big_tb, 9)
        again = np.zeros(N_STATS, np.int64)
        r2 = solve_one(batch, 0, True, Memory(big_tt, big_tb, 9, killer, again, 0), 0)
        assert r2 == r
        assert again[S_NODES] == again[S_SEARCHES]
        searched += first[S_NODES] > first[S_SEARCHES]
    assert searched >= 16  # most first solves needed a real search, not a root bound


def test_a_table_needs_one_bucket():
    with pytest.raises(ValueError, match="at least 7"):
        Solver(tt_bits=6)
    hands = np.array([[1, 2, 4, 8]], np.int64)  # one card each
    for budget in (0, 100):  # the shared queue and the budgeted kernel
        with pytest.raises(ValueError, match="at least 7"):
            solve_batch(hands, 4, 0, 0b0101, GOAL_TRICKS, tt_bits=6, max_nodes=budget)


def _mixed(seed: int, count: int, size: int):
    """Positions of several goals, sides and trumps on random endings."""
    rng = random.Random(seed)
    hands = _boards(seed, count, size)
    trump = np.array([rng.randrange(5) for _ in range(count)], np.int64)
    leader = np.array([rng.randrange(4) for _ in range(count)], np.int64)
    decl = np.array([rng.choice((0b0101, 0b0011, 0b0001, 0b1000)) for _ in range(count)])
    goal = np.array([rng.choice((GOAL_TRICKS, GOAL_GE)) for _ in range(count)], np.int64)
    target = np.array([rng.randint(1, size) for _ in range(count)], np.int64)
    return hands, trump, leader, decl, goal, target


def test_bounds_of_given_up_positions_hold_the_exact_answer():
    hands, trump, leader, decl, goal, target = _mixed(21, 120, 8)
    exact = solve_batch(hands, trump, leader, decl, GOAL_TRICKS)
    r, lo, hi = solve_batch(hands, trump, leader, decl, goal, target, max_nodes=150, bounds=True)
    given_up = r == UNDECIDED
    assert 0 < given_up.sum() < len(r)
    assert np.all((lo <= exact) & (exact <= hi))
    # answered positions: an exact count closes its bounds, a >=K answer agrees with them
    counted = ~given_up & (goal == GOAL_TRICKS)
    assert np.array_equal(r[counted], exact[counted])
    assert np.all(lo[counted] == hi[counted])
    ge = ~given_up & (goal == GOAL_GE)
    assert np.array_equal(r[ge], (exact[ge] >= target[ge]).astype(np.int8))
    assert np.all(lo[ge & (r == 1)] >= target[ge & (r == 1)])
    assert np.all(hi[ge & (r == 0)] < target[ge & (r == 0)])
    # some given-up exact counts still narrowed the range before the budget ran out
    narrowed = given_up & (goal == GOAL_TRICKS) & ((lo > 0) | (hi < 8))
    assert narrowed.any()


def test_given_up_positions_do_not_depend_on_threads_or_what_was_solved_before():
    hands, trump, leader, decl, goal, target = _mixed(22, 90, 9)
    args = (hands, trump, leader, decl, goal, target)
    first = solve_batch(*args, max_nodes=300, threads=1, bounds=True)
    assert 0 < (first[0] == UNDECIDED).sum() < len(hands)
    # other positions first on the same (pooled) tables, then in reverse order, two threads
    solve_batch(*_mixed(23, 50, 9), threads=2)
    order = np.arange(len(hands))[::-1]
    again = solve_batch(*(x[order] for x in args), max_nodes=300, threads=2, bounds=True)
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a[order], b)
    # the node counts themselves: one position solved on a used table and on a fresh one
    used, fresh = Solver(), Solver()
    for h, t, ld, d in zip(hands[:20], trump[:20], leader[:20], decl[:20], strict=True):
        used.solve(h, int(t), int(ld), [q for q in range(4) if d >> q & 1], "tricks")
    h, t, ld, d = hands[30], int(trump[30]), int(leader[30]), decl[30]
    side = [q for q in range(4) if d >> q & 1]
    before = int(used.stats[S_NODES])
    assert used.solve(h, t, ld, side, "tricks") == fresh.solve(h, t, ld, side, "tricks")
    assert int(used.stats[S_NODES]) - before == int(fresh.stats[S_NODES])
