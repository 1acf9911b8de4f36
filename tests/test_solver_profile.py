"""The solver's profile per concern (tests/bench/bench_solver_profile.py) doubles one
concern's work at every node: the doubled work must be the same work, so every node count and
answer stays that of the plain search, and outside the profile nothing is doubled.

The doubling is compiled in only in a process started with RIKKEN_SOLVER_PROFILE=1
(analyser/solver/jit.py). The solver of the test process must ignore S_PROFILE; the doubling
itself is checked in a subprocess of the profile build, which compiles the solver a second
time (a few minutes), so that test is marked slow."""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys

import pytest

from analyser.solver import Solver
from analyser.solver.jit import PROFILE_BUILD, profile_build_env
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


def _doubled_runs() -> dict:
    """In this process: per concern (and 0, the plain search), the runs and whether any work
    was done a second time (S_SINK moved)."""
    solver = Solver()
    out = {"0": (_run(solver, 0), int(solver.stats[S_SINK]))}
    for code in PROFILE_CONCERNS.values():
        before = int(solver.stats[S_SINK])
        out[str(code)] = (_run(solver, code), int(solver.stats[S_SINK]) - before)
    return out


def test_the_solver_everyone_runs_ignores_the_profile_switch():
    assert not PROFILE_BUILD
    runs = _doubled_runs()
    plain, sink = runs["0"]
    for code, (got, doubled) in runs.items():
        assert got == plain, code
        assert doubled == 0 and sink == 0, code  # no concern's work was done twice


@pytest.mark.slow
def test_doubling_a_concern_keeps_every_node_and_answer(tmp_path):
    env = profile_build_env(str(tmp_path))
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); import test_solver_profile as t; "
        "print(json.dumps(t._doubled_runs()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=pathlib.Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    runs = json.loads(done.stdout.strip().splitlines()[-1])
    plain, sink = runs["0"]
    assert sink == 0  # the plain search doubles nothing
    for name, concern in PROFILE_CONCERNS.items():
        got, doubled = runs[str(concern)]
        assert got == plain, name
        assert doubled != 0, name  # the concern's work was done a second time
