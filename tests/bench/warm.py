"""Fill numba's on-disk cache before any benchmark section is timed.

`python tests/bench/warm.py` calls every compiled entry point the benchmarks use once, on
tiny inputs: the sampler (serial and parallel), the solver one position at a time and in a
batch (with and without a node budget: two kernels), and a 2-deal hand analysis. run.py
starts it in a subprocess, so the timed sections only ever *load* the cache. Compiling
inside the timed process made every figure after it slower: the solver against DDS measured
3.11-3.12 (exact) in runs that compiled in-process and 2.96-3.00 in runs that loaded a warm
cache; the one-thread batch 9.4-9.7 deals/s against 14.6-15.5.
"""

from __future__ import annotations

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent.parent))


def warm() -> None:
    """Call each compiled entry point once (results are discarded)."""
    import numpy as np

    from analyser.analysis.evaluate import analyse_hand
    from analyser.notation import parse_hand
    from analyser.rules import get_ruleset
    from analyser.sampler import sample_deals
    from analyser.solver import GOAL_GE, GOAL_MISERE, GOAL_TRICKS, Solver, solve_batch

    known: list[list[int]] = [[], [], [], []]
    known[0] = list(range(13))
    for parallel in (False, True):
        sample_deals(known, 10, seed=1, parallel=parallel)
    Solver().solve([[0], [13], [26], [39]], 0, 0, [0, 2], "tricks")
    one = np.array([[1, 2, 4, 8]], dtype=np.int64)
    for goal in (GOAL_GE, GOAL_TRICKS, GOAL_MISERE):
        solve_batch(one, 4, 0, 1, goal, 1, -1)  # the shared queue (no node budget)
        solve_batch(one, 4, 0, 1, goal, 1, -1, max_nodes=1000)  # the parallel kernel
    analyse_hand(parse_hand("♠A32 ♥A54 ♦A765 ♣H32"), 1, get_ruleset("book"), deals=2, seed=1)


if __name__ == "__main__":
    t0 = time.perf_counter()
    warm()
    print(f"{time.perf_counter() - t0:.1f}")
