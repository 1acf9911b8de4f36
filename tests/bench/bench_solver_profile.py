"""Where a node of the solver spends its time: the profile per concern.

The solver's concerns (move generation, ordering, the table's probe and store, quick tricks,
the cut tests) are inlined into one loop, so a sampling profiler sees a single function.
Instead, each concern is measured by doing its work twice: with ``stats[S_PROFILE]`` set to a
concern (analyser/solver/layout.py), every node that does that concern's work does it again
with the same inputs, and the node counts and answers stay the same (checked here). The extra
time over the plain solve is the concern's cost. Deal by deal, the plain solve and every
doubled one run back to back, ``rounds`` times, so a shared machine's load falls on all of
them alike; the figures are per trick-start node (DDS's unit), the median over rounds of each
deal, summed over the deals.

The doubling is compiled in only with RIKKEN_SOLVER_PROFILE=1 (analyser/solver/jit.py), so
this section runs itself again in a subprocess with that switch and a numba cache folder of its
own (the first run there compiles the profile build, a few minutes).

Run: ``python tests/bench/run.py solver_profile`` (BENCH_DEALS, BENCH_ROUNDS as bench_solver).
"""

from __future__ import annotations

import os
import pathlib
import statistics
import subprocess
import sys
import time

from bench_solver import SEED, make_deals

from analyser.solver import Solver
from analyser.solver.jit import PROFILE_BUILD, profile_build_env
from analyser.solver.layout import PROFILE_CONCERNS, S_NODES, S_PROFILE, S_TRICK_NODES


def timed(solver: Solver, deal, concern: int) -> tuple[float, int, int, int]:
    """One exact count with ``concern`` doubled (0: none): ms, answer, nodes, trick nodes."""
    hands, trump, leader = deal
    solver.stats[S_PROFILE] = concern
    n0, t0n = int(solver.stats[S_NODES]), int(solver.stats[S_TRICK_NODES])
    t0 = time.perf_counter()
    answer = solver.solve(hands, trump, leader, [leader, (leader + 2) % 4], "tricks")
    ms = (time.perf_counter() - t0) * 1000
    solver.stats[S_PROFILE] = 0
    return ms, answer, int(solver.stats[S_NODES]) - n0, int(solver.stats[S_TRICK_NODES]) - t0n


def profile(deals, rounds: int) -> dict[str, float]:
    """Per concern (and ``plain``) the per-deal median ms summed over the deals; raises when
    a doubled concern changes a node count or an answer (its work was not the same twice)."""
    solver = Solver()
    variants = {"plain": 0, **PROFILE_CONCERNS}
    ms = {name: [[0.0] * rounds for _ in deals] for name in variants}
    base: list[tuple[int, int]] = []
    trick_nodes = 0
    for r in range(rounds):
        for i, deal in enumerate(deals):
            for name, code in variants.items():
                t, answer, nodes, tnodes = timed(solver, deal, code)
                ms[name][i][r] = t
                if r == 0 and code == 0:
                    base.append((answer, nodes))
                    trick_nodes += tnodes
                elif (answer, nodes) != base[i]:
                    raise AssertionError(
                        f"deal #{i}: doubling {name} gave {(answer, nodes)}, plain {base[i]}"
                    )
    total = {name: sum(statistics.median(t) for t in per) for name, per in ms.items()}
    total["trick_nodes"] = trick_nodes
    return total


# the profile build's own numba cache, beside the repository's other ignored caches
PROFILE_CACHE = pathlib.Path(__file__).resolve().parents[2] / "data" / "cache" / "numba-profile"


def main() -> None:
    if not PROFILE_BUILD:
        # the solver of this process ignores S_PROFILE: measure in the profile build
        env = profile_build_env(str(PROFILE_CACHE))
        subprocess.run([sys.executable, __file__], env=env, check=True)
        return
    n = int(os.environ.get("BENCH_DEALS", "100"))
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    deals = make_deals(n, SEED)
    profile(make_deals(2, SEED + 1), 1)  # load every variant's code before timing
    total = profile(deals, rounds)
    tn = total["trick_nodes"]
    plain = total["plain"]
    print(
        f"   {n} seeded deals (bench_solver's), exact counts, one thread, {rounds} rounds; "
        f"{tn:,} trick-start nodes, {1000 * plain / tn:.3f} µs per node in all"
    )
    cost = {name: total[name] - plain for name in PROFILE_CONCERNS}
    rest = plain - sum(cost.values())
    for name, extra in [*sorted(cost.items(), key=lambda kv: -kv[1]), ("the rest", rest)]:
        print(
            f"     {name:14s} {1000 * extra / tn:7.3f} µs per trick-start node "
            f"({100 * extra / plain:5.1f}% of the time)"
        )
    print(
        "   (the rest: playing and taking back cards, the stack, the trick-start tests of the "
        "count and the last trick, the cut-off cache)"
    )


if __name__ == "__main__":
    main()
