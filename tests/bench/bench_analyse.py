"""Wall time of the full bid table (`rikken analyse`) for 5 fixed hands at 1000 deals.

For each hand: the wall time against the target (<= 60 s per hand; the project's goal is
<= 10 s), then the solver time, positions solved and milliseconds per position of each
contract family (rik, alone/solo, misère/piek, malheur), which says what dominates. The first
line times numba's first call (compilation or cache load), kept out of the per-hand figures.
Seat 1 (forehand), book rules, seed 1, all cores.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

TARGET = 60.0  # seconds per hand (issue 4); the project's goal is 10
GOAL = 10.0
DEALS = 1000
SEED = 1
HANDS = (
    ("rik, strong spades", "♠AHV1098 ♥104 ♦A10 ♣752"),
    ("malheur, three aces", "♠A32 ♥A54 ♦A765 ♣H32"),
    ("misère, low cards", "♠2 ♥5432 ♦6432 ♣7532"),
    ("alone 9, hearts", "♠A ♥AHVB1087 ♦HV3 ♣32"),
    ("borderline rik", "♠HV1087 ♥A92 ♦V3 ♣H54"),
)


def _warm() -> str:
    from analyser.solver import GOAL_GE, solve_batch

    t0 = time.perf_counter()
    solve_batch(np.array([[1, 2, 4, 8]], dtype=np.int64), 4, 0, 1, GOAL_GE, 1, -1)
    return f"{time.perf_counter() - t0:.1f} s"


def main() -> None:
    from analyser.analysis.evaluate import TAGS, analyse_hand
    from analyser.notation import parse_hand
    from analyser.rules import get_ruleset

    deals = int(os.environ.get("BENCH_ANALYSE_DEALS", DEALS))
    print(f"   first solver call (numba compile/cache load): {_warm()}")
    print(
        f"   {len(HANDS)} hands x {deals} deals, seat 1, book, seed {SEED}, cores {os.cpu_count()}"
    )
    rs = get_ruleset("book")
    walls = []
    for name, text in HANDS:
        t0 = time.perf_counter()
        a = analyse_hand(parse_hand(text), 1, rs, deals=deals, seed=SEED, threads=None)
        wall = time.perf_counter() - t0
        walls.append(wall)
        verdict = "ok" if wall <= TARGET else "OVER"
        print(
            f"   {name:<22} {text:<26} {wall:7.1f} s/hand  target {TARGET:.0f} s: {verdict}  "
            f"(recommend {a.recommended_opening}, compete {a.highest_competitive})",
            flush=True,
        )
        for tag in TAGS:
            sec, pos = a.seconds.get(tag, 0.0), a.positions.get(tag, 0)
            if pos:
                share = 100 * sec / wall if wall else 0.0
                print(
                    f"      {tag:<12} {sec:7.1f} s ({share:4.0f}%)  {pos:6d} positions  "
                    f"{1000 * sec / pos:7.2f} ms/position (wall, all cores)"
                )
                for (t, kind), (ksec, kpos) in sorted(a.query_kinds.items()):
                    if t == tag:
                        print(
                            f"        {kind:<10} {ksec:7.1f} s  {kpos:6d} positions  "
                            f"{1000 * ksec / kpos:7.2f} ms/position"
                        )
    mean = sum(walls) / len(walls)
    print(
        f"   mean {mean:.1f} s/hand, max {max(walls):.1f} s; target {TARGET:.0f} s, "
        f"goal {GOAL:.0f} s"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
