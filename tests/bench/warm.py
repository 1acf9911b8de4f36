"""Fill numba's on-disk cache before any benchmark section is timed.

`python tests/bench/warm.py` calls every compiled entry point the benchmarks use once, on
tiny inputs: the sampler (serial and parallel), the solver one position at a time and in a
batch, a 2-deal hand analysis and the play API. run.py
starts it in a subprocess, so the timed sections only ever *load* the cache. Before, the
first `make bench` on a fresh clone compiled inside timed sections and measured one-thread
batch solving at 11.7 deals/s and the 1-vs-3 exact positions at 178 ms, where a second run
measured 15.2 deals/s and 91 ms. (That also needs solve_batch to give the kernels the same
argument types whatever its caller passes: it copies its arrays.)
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
    from analyser.solver import GOAL_GE, Solver, solve_batch

    known: list[list[int]] = [[], [], [], []]
    known[0] = list(range(13))
    for parallel in (False, True):
        sample_deals(known, 10, seed=1, parallel=parallel)
    Solver().solve([[0], [13], [26], [39]], 0, 0, [0, 2], "tricks")
    # the goal is a column like the others: one call per kernel compiles it for every goal
    one = np.array([[1, 2, 4, 8]], dtype=np.int64)
    solve_batch(one, 4, 0, 1, GOAL_GE, 1, -1)
    # a malheur hand and a rik hand: under book a 3-ace hand is offered no rik (R-MAL-01)
    for hand in ("♠A32 ♥A54 ♦A765 ♣H32", "♠HV1087 ♥A92 ♦V3 ♣H54"):
        analyse_hand(parse_hand(hand), 1, get_ruleset("book"), deals=2, seed=1)
    # the play API (single-dummy play), with a trick in progress
    from analyser.solver import card_values

    card_values([[1, 2], [13, 14], [26, 27], [39, 40]], 0, 0, [0, 2], ">=1", trick=[])
    card_values([[2], [13, 14], [26, 27], [39, 40]], 4, 0, [1], "misere", trick=[1])


if __name__ == "__main__":
    t0 = time.perf_counter()
    warm()
    print(f"{time.perf_counter() - t0:.1f}")
