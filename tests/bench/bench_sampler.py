"""Deal-sampler throughput: completing a fixed 13-card hand at South.

Prints the first-call time (numba compilation or cache load), the single-thread throughput
against the 1,000,000 deals/s target, the throughput on all cores, and a vectorised numpy
reference (random sort keys + argsort) measured in the same run, since machines are noisy.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from analyser import sampler
from analyser.cards import card_bit
from analyser.sampler import known_owner, sample_deals

TARGET = 1_000_000  # deals per second on one core
SOUTH_HAND = [0, 4, 9, 12, 14, 18, 23, 27, 31, 36, 40, 45, 51]
KNOWN = [[], [], SOUTH_HAND, []]
BATCH = 1_000_000  # deals per call: keeps memory at 32 MB whatever the speed
SECONDS = 1.5


def _rate(parallel: bool) -> tuple[float, int]:
    """Deals per second over consecutive batches filling about SECONDS of wall time."""
    done = 0
    t0 = time.perf_counter()
    while True:
        sample_deals(KNOWN, BATCH, seed=1, start=done, parallel=parallel)
        done += BATCH
        elapsed = time.perf_counter() - t0
        if elapsed >= SECONDS:
            return done / elapsed, done


def _numpy_reference(n: int) -> float:
    """Deals per second of a vectorised numpy completion (argsort of random keys)."""
    unknown = np.flatnonzero(known_owner(KNOWN) < 0)
    bits = np.array([card_bit(int(c)) for c in unknown], dtype=np.int64)
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    perm = np.argsort(rng.random((n, unknown.size)), axis=1)
    hands = bits[perm].reshape(n, 3, 13).sum(axis=2)
    elapsed = time.perf_counter() - t0
    assert hands.shape == (n, 3)
    return n / elapsed


def _first_call(parallel: bool) -> str:
    """Time the first call and say whether numba compiled or loaded its on-disk cache."""
    kernel = sampler._fill_deals_parallel if parallel else sampler._fill_deals
    t0 = time.perf_counter()
    sample_deals(KNOWN, 10, seed=1, parallel=parallel)
    elapsed = time.perf_counter() - t0
    how = "compiled" if sum(kernel.stats.cache_misses.values()) else "loaded from cache"
    return f"{elapsed:.2f} s ({how})"


def main() -> None:
    """Print the sampler's figures."""
    print(f"   first call: serial {_first_call(False)}, parallel {_first_call(True)}")

    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single, n_single = _rate(parallel=False)
    finally:
        numba.set_num_threads(threads)
    verdict = "met" if single >= TARGET else "NOT met"
    print(
        f"   single thread: {single:,.0f} deals/s ({1e9 / single:.0f} ns/deal, "
        f"{n_single:,} deals)  target {TARGET:,} deals/s: {verdict}"
    )

    par, n_par = _rate(parallel=True)
    print(
        f"   parallel, {threads} threads: {par:,.0f} deals/s ({n_par:,} deals), "
        f"x{par / single:.2f} of single thread"
    )

    ref = _numpy_reference(200_000)
    print(
        f"   numpy argsort reference: {ref:,.0f} deals/s; sampler/reference = x{single / ref:.1f}"
    )


if __name__ == "__main__":
    main()
