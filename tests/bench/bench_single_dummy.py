"""Single-dummy play: deals played out per minute for rik and misère at 20 worlds per decision,
on every core (one process per core, each playing its share of the deals).

The deals are seeded and plausible for the bid: for rik, North's longest suit (at least five
cards) is trump and he calls an ace he lacks; for misère, North holds no card above the nine in
at least three suits. The double-dummy answers on the same deals are printed beside the
single-dummy make-rate.

Environment: BENCH_SD_DEALS (default 8 per contract) sets the number of deals.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

SEED = 20261125
SAMPLES = 20


def _rik_deal(rng: random.Random):
    """A deal where North has a suit of 5+ and an ace to call; (hands, trump, called)."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sorted(deck[13 * k : 13 * k + 13]) for k in range(4)]
        lengths = [sum(c // 13 == s for c in hands[0]) for s in range(4)]
        trump = max(range(4), key=lambda s: (lengths[s], s))
        aces = [s * 13 + 12 for s in range(4) if s * 13 + 12 not in hands[0] and s != trump]
        if lengths[trump] >= 5 and aces:
            return hands, trump, aces[0]


def _misere_deal(rng: random.Random):
    """A deal where North has no card above the nine in at least three suits."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sorted(deck[13 * k : 13 * k + 13]) for k in range(4)]
        low = sum(all(c % 13 <= 7 for c in hands[0] if c // 13 == s) for s in range(4))
        if low >= 3:
            return hands


def _play(job):
    from analyser.single_dummy import KIND_GE, KIND_MISERE, PlayContract, play_deal
    from analyser.solver import Solver

    kind, hands, trump, called, index = job
    solver = Solver()
    if kind == "rik":
        c = PlayContract(trump, 1, 0, KIND_GE, 8, called=called)
        holder = next(s for s in range(4) if called in hands[s])
        dd = solver.solve(hands, trump, 1, [0, holder], ">=8", called)
    else:
        c = PlayContract(4, 1, 0, KIND_MISERE)
        dd = solver.solve(hands, 4, 1, [0], "misere")
    got = play_deal(hands, c, SAMPLES, SEED, index, solver=solver)
    return int(got.made), int(dd)


def main() -> None:
    n = int(os.environ.get("BENCH_SD_DEALS", "8"))
    cores = os.cpu_count() or 1
    rng = random.Random(SEED)
    jobs = {
        "rik": [("rik", *_rik_deal(rng), i) for i in range(n)],
        "misere": [("misere", _misere_deal(rng), 4, -1, i) for i in range(n)],
    }
    with ProcessPoolExecutor(cores) as pool:
        list(pool.map(_play, [jobs["misere"][0]]))  # each worker loads numba's cache once
        for kind, js in jobs.items():
            t0 = time.perf_counter()
            res = list(pool.map(_play, js))
            dt = time.perf_counter() - t0
            sd = sum(r[0] for r in res)
            dd = sum(r[1] for r in res)
            print(
                f"   {kind:7s} {n} deals, {SAMPLES} worlds per decision, {cores} processes: "
                f"{60 * n / dt:6.1f} deals/min ({dt / n:5.1f} s a deal); made single-dummy "
                f"{sd}/{n}, double-dummy {dd}/{n}"
            )


if __name__ == "__main__":
    main()
