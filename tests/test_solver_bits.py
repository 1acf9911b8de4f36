"""The bit gathers of the solver's keys: BMI2's PEXT and PDEP where they are fast, loops
elsewhere (bits.gather, bits.scatter), the same function either way."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from analyser.solver.bits import (
    GATHER_IN_HARDWARE,
    _gather_loop,
    _scatter_loop,
    gather,
    gather_in_hardware,
    scatter,
)


@njit(cache=False)
def _both(x, m):
    return gather(x, m), scatter(x, m), _gather_loop(x, m), _scatter_loop(x, m)


def _gather_by_definition(x: int, m: int) -> int:
    out = 0
    k = 0
    for b in range(63):
        if (m >> b) & 1:
            out |= ((x >> b) & 1) << k
            k += 1
    return out


def _scatter_by_definition(x: int, m: int) -> int:
    out = 0
    k = 0
    for b in range(63):
        if (m >> b) & 1:
            out |= ((x >> k) & 1) << b
            k += 1
    return out


def test_gather_and_scatter_match_their_definition_in_both_builds():
    rng = np.random.default_rng(20261130)
    for _ in range(3000):
        x = int(rng.integers(0, 1 << 62))
        m = int(rng.integers(0, 1 << 62)) & int(rng.integers(0, 1 << 62))
        g, s, g_loop, s_loop = (int(v) for v in _both(x, m))
        want = (_gather_by_definition(x, m), _scatter_by_definition(x, m))
        assert (g, s) == want
        assert (g_loop, s_loop) == want


def test_hardware_gathers_only_where_they_are_fast():
    assert gather_in_hardware("emeraldrapids", "+sse4.2,+bmi2,+avx2")
    assert gather_in_hardware("znver3", "+bmi2")
    # microcoded on AMD before Zen 3, absent without BMI2
    assert not gather_in_hardware("znver2", "+bmi2")
    assert not gather_in_hardware("bdver4", "+bmi2")
    assert not gather_in_hardware("x86-64", "+sse2,-bmi2")
    assert not gather_in_hardware("generic", "")
    assert isinstance(GATHER_IN_HARDWARE, bool)


_SOLVE_SCRIPT = """
import json, sys
import numpy as np
from analyser.solver import Solver
from analyser.solver.bits import GATHER_IN_HARDWARE
from analyser.solver.layout import S_NODES
rng = np.random.default_rng(20261130)
solver = Solver()
out = []
for _ in range(12):
    deck = rng.permutation(52)
    hands = [sorted(int(c) for c in deck[13 * q : 13 * q + 13]) for q in range(4)]
    trump, leader = int(rng.integers(0, 5)), int(rng.integers(0, 4))
    n0 = int(solver.stats[S_NODES])
    tricks = solver.solve(hands, trump, leader, [leader, (leader + 2) % 4], "tricks")
    out.append((int(tricks), int(solver.stats[S_NODES]) - n0))
print(json.dumps({"hardware": GATHER_IN_HARDWARE, "solved": out}))
"""


@pytest.mark.slow
def test_the_loop_build_solves_as_the_hardware_build_does(tmp_path):
    """The solver compiled for a processor without BMI2 (NUMBA_CPU_NAME=x86-64, so the
    loops) gives the same answers and nodes as this machine's build: the fallback is not
    only tested as a function but as the search that runs it. Compiles the solver anew
    (about two minutes)."""
    root = pathlib.Path(__file__).resolve().parent.parent
    runs = {}
    for name, cpu in (("host", None), ("plain", "x86-64")):
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / name)}
        env.pop("NUMBA_CPU_NAME", None)
        env.pop("NUMBA_CPU_FEATURES", None)
        if cpu:
            env["NUMBA_CPU_NAME"] = cpu
        done = subprocess.run(
            [sys.executable, "-c", _SOLVE_SCRIPT],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        runs[name] = json.loads(done.stdout.strip().splitlines()[-1])
    assert runs["plain"]["hardware"] is False
    assert runs["plain"]["solved"] == runs["host"]["solved"]
