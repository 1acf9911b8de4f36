"""Wall time of `rikken analyse` on the panel of 42 hands (tests/bench/panel.py).

Each hand at its panel seat, book rules, seed 1, all cores: first at the default settings
(adaptive sample, at most 1000 deals), then with ``--deals 1000``. Per hand: the wall time,
the deals the widest question used, the positions given up at the node budget, and the
family that took most of the solver's time. Then median, 95th percentile and maximum of each
setting against the targets (default settings: median <= 10 s, max <= 60 s on a 2-core
machine). The first line times numba's first call (compilation or cache load), kept out of
the per-hand figures.

Environment: BENCH_PANEL (a number) runs only the first that many hands of each kind;
BENCH_FIXED=0 skips the ``--deals 1000`` pass.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

TARGET_MEDIAN = 10.0  # seconds per hand at the default settings
TARGET_MAX = 60.0
FIXED_DEALS = 1000
SEED = 1


def _warm() -> str:
    from analyser.solver import GOAL_GE, solve_batch

    t0 = time.perf_counter()
    solve_batch(np.array([[1, 2, 4, 8]], dtype=np.int64), 4, 0, 1, GOAL_GE, 1, -1)
    return f"{time.perf_counter() - t0:.1f} s"


def _p95(xs: list[float]) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(np.ceil(0.95 * len(ordered))) - 1)]


def _run(hand, seat, deals):
    from analyser.analysis.evaluate import analyse_hand
    from analyser.rules import get_ruleset
    from analyser.seats import Place

    t0 = time.perf_counter()
    a = analyse_hand(hand, Place(seat), get_ruleset("book"), deals=deals, seed=SEED)
    if a.interrupted:  # a Ctrl-C keeps a partial run: not a timing
        raise KeyboardInterrupt
    wall = time.perf_counter() - t0
    top = max(a.seconds.items(), key=lambda kv: kv[1] if kv[0] != "total" else -1)
    return wall, a, top


def main() -> None:
    from panel import PER_KIND, panel

    from analyser.notation import format_hand

    per_kind = int(os.environ.get("BENCH_PANEL", PER_KIND))
    fixed = os.environ.get("BENCH_FIXED", "1") != "0"
    hands = []
    seen: dict[str, int] = {}
    for kind, hand, seat in panel():
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= per_kind:
            hands.append((kind, hand, seat))
    print(f"   first solver call (numba compile/cache load): {_warm()}")
    print(
        f"   {len(hands)} panel hands, book, seed {SEED}, cores {os.cpu_count()}; "
        "default = adaptive (half-width <= 0.05, at most 1000 deals)"
    )
    settings = [("default", None)] + ([(f"--deals {FIXED_DEALS}", FIXED_DEALS)] if fixed else [])
    for label, deals in settings:
        walls = []
        print(f"   -- {label}")
        for kind, hand, seat in hands:
            wall, a, top = _run(hand, seat, deals)
            walls.append(wall)
            given_up = sum(a.given_up.values())
            print(
                f"   {kind:<11} seat {seat} {format_hand(hand):<28} {wall:6.1f} s  "
                f"{a.n_deals:4d} deals  {given_up:3d} bounded  most: {top[0]} {top[1]:.1f} s "
                f"(recommend {a.recommended_opening})",
                flush=True,
            )
        med, p95, mx = statistics.median(walls), _p95(walls), max(walls)
        verdict = ""
        if deals is None:
            ok = med <= TARGET_MEDIAN and mx <= TARGET_MAX
            verdict = f"  targets median <= {TARGET_MEDIAN:.0f} s, max <= {TARGET_MAX:.0f} s: " + (
                "met" if ok else "NOT met"
            )
        print(f"   {label}: median {med:.1f} s, p95 {p95:.1f} s, max {mx:.1f} s{verdict}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
