"""Fill numba's on-disk cache before any benchmark section is timed.

`python tests/bench/warm.py` calls every compiled entry point the benchmarks use once, on
tiny inputs (the steps of `rikken warm-up`, analyser/cli/warmup.py): the sampler (serial and
parallel), the solver one position at a time and in a batch, a 2-deal hand analysis and the
play API. run.py
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
    """Call each compiled entry point once (results are discarded): `rikken warm-up`'s steps."""
    from analyser.cli.warmup import warm as warm_steps

    warm_steps()


if __name__ == "__main__":
    t0 = time.perf_counter()
    warm()
    print(f"{time.perf_counter() - t0:.1f}")
