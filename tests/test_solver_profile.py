"""The solver's profile per concern (tests/bench/bench_solver_profile.py) doubles one
concern's work at every node: the doubled work must be the same work, so every node count and
answer stays that of the plain search, and outside the profile nothing is doubled."""

from __future__ import annotations

import random

import pytest

from analyser.solver import Solver
from analyser.solver.layout import PROFILE_CONCERNS, S_NODES, S_PROFILE, S_SINK


def _deals(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        out.append(([sorted(cards[13 * k : 13 * k + 13]) for k in range(4)], rng.randrange(5)))
    return out


# partners at full length (the trick count), a lone declarer (1 vs 3, >=7), and a misère
# declarer in no trump (the misère cut): every concern's code path is reached
CASES = [("tricks", [0, 2], None), (">=7", [0], None), ("misere", [0], 4)]


def _run(solver: Solver, concern: int) -> list[tuple[int, int]]:
    out = []
    for hands, trump in _deals(4, 20261129):
        for goal, side, strain in CASES:
            solver.stats[S_PROFILE] = concern
            n0 = int(solver.stats[S_NODES])
            answer = solver.solve(hands, trump if strain is None else strain, 1, side, goal)
            out.append((answer, int(solver.stats[S_NODES]) - n0))
    solver.stats[S_PROFILE] = 0
    return out


@pytest.mark.parametrize("name", list(PROFILE_CONCERNS))
def test_doubling_a_concern_keeps_every_node_and_answer(name):
    solver = Solver()
    plain = _run(solver, 0)
    assert solver.stats[S_SINK] == 0  # the plain search doubles nothing
    assert _run(solver, PROFILE_CONCERNS[name]) == plain
    assert solver.stats[S_SINK] != 0  # the concern's work was done a second time
