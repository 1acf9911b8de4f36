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
from llvmlite import binding
from numba import njit
from numba.core import codegen, config

from analyser.solver.bits import (
    GATHER_IN_HARDWARE,
    _binary_intrinsic,
    _gather_loop,
    _microcoded,
    _scatter_loop,
    _target_gathers,
    gather,
    gather_in_hardware,
    scatter,
)

# the instructions themselves, whatever the build chose, where this processor has them
_pext = _binary_intrinsic("llvm.x86.bmi.pext.64")
_pdep = _binary_intrinsic("llvm.x86.bmi.pdep.64")
_HOST_HAS_BMI2 = "+bmi2" in codegen.get_host_cpu_features().split(",")


@njit(cache=False)
def _chosen(x, m):
    return gather(x, m), scatter(x, m), _gather_loop(x, m), _scatter_loop(x, m)


@njit(cache=False)
def _instructions(x, m):
    return _pext(x, m), _pdep(x, m)


def _random_words(rng: np.random.Generator, n: int) -> list[int]:
    """Signed 64-bit words over the whole range, bit 63 included, sparse and dense."""
    words = rng.integers(0, 2**64, size=n, dtype=np.uint64).view(np.int64)
    sparse = words & rng.integers(0, 2**64, size=n, dtype=np.uint64).view(np.int64)
    return [int(v) for v in np.concatenate([words, sparse])]


def _by_definition(x: int, m: int) -> tuple[int, int]:
    """(gather, scatter) of ``x`` by ``m`` bit by bit, as signed 64-bit words: the k-th set
    bit of ``m`` pairs bit k of the packed side with that bit of the spread side."""
    packed = spread = 0
    k = 0
    for b in range(64):
        if (m >> b) & 1:
            packed |= ((x >> b) & 1) << k
            spread |= ((x >> k) & 1) << b
            k += 1
    return np.int64(np.uint64(packed)).item(), np.int64(np.uint64(spread)).item()


def test_gather_and_scatter_match_their_definition_in_both_builds():
    rng = np.random.default_rng(20261130)
    xs, ms = _random_words(rng, 1500), _random_words(rng, 1500)
    for x, m in zip(xs, ms, strict=True):
        want = _by_definition(x, m)
        g, s, g_loop, s_loop = (int(v) for v in _chosen(x, m))
        assert (g, s) == want
        assert (g_loop, s_loop) == want
        if _HOST_HAS_BMI2:
            assert tuple(int(v) for v in _instructions(x, m)) == want


def test_hardware_gathers_only_where_they_are_fast():
    assert gather_in_hardware("emeraldrapids", "+sse4.2,+bmi2,+avx2")
    assert gather_in_hardware("znver3", "+bmi2")
    # microcoded on AMD before Zen 3, absent without BMI2
    assert not gather_in_hardware("znver2", "+bmi2")
    assert not gather_in_hardware("bdver4", "+bmi2")
    assert not gather_in_hardware("x86-64", "+sse2,-bmi2")
    assert not gather_in_hardware("generic", "")
    assert isinstance(GATHER_IN_HARDWARE, bool)


def test_the_choice_follows_the_processor_numba_compiles_for(monkeypatch):
    """numba compiles for NUMBA_CPU_NAME / NUMBA_CPU_FEATURES when they are set: a build
    told there is no BMI2 must not emit PEXT (LLVM cannot select it and aborts)."""
    monkeypatch.setattr(config, "CPU_FEATURES", "-bmi2")
    assert _target_gathers() is False
    monkeypatch.setattr(config, "CPU_NAME", "generic")
    monkeypatch.setattr(config, "CPU_FEATURES", "")
    assert _target_gathers() is False
    monkeypatch.setattr(config, "CPU_NAME", "haswell")
    monkeypatch.setattr(config, "CPU_FEATURES", "+bmi2,+avx2")
    assert _target_gathers() is (_HOST_HAS_BMI2 and not _microcoded(binding.get_host_cpu_name()))


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
    """The solver compiled for a processor without BMI2 (NUMBA_CPU_NAME=x86-64 with
    NUMBA_CPU_FEATURES=-bmi2, so the loops) gives the same answers and nodes as this
    machine's build with the instructions: the fallback is tested as the search that runs
    it, not only as a function. Compiles the solver twice (about four minutes)."""
    if not GATHER_IN_HARDWARE:
        pytest.skip("this machine's build uses the loops too: nothing to compare")
    root = pathlib.Path(__file__).resolve().parent.parent
    runs = {}
    for name, cpu in (("host", None), ("plain", "x86-64")):
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / name)}
        env.pop("NUMBA_CPU_NAME", None)
        env.pop("NUMBA_CPU_FEATURES", None)
        if cpu:
            env["NUMBA_CPU_NAME"] = cpu
            env["NUMBA_CPU_FEATURES"] = "-bmi2"
        done = subprocess.run(
            [sys.executable, "-c", _SOLVE_SCRIPT],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        runs[name] = json.loads(done.stdout.strip().splitlines()[-1])
    assert runs["host"]["hardware"] is True
    assert runs["plain"]["hardware"] is False
    assert runs["plain"]["solved"] == runs["host"]["solved"]
