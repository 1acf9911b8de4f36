"""Single-dummy play: deals played per minute for rik and closed misère at 16 worlds per
decision, the players of today against the players before their shortcuts and node budget
(tests/bench/sd_reference.py), on the same deals and the same worlds per decision, in the
same run; and each one's time per played deal in yardsticks: the mean exact double-dummy
solve of a full deal measured in the same run. Targets: rik at most 12 yardsticks a deal,
closed misère at most 50 on the hand with holes (spades J62, hearts 9742, diamonds 853,
clubs 642).

The rik deals are seeded and plausible for the bid: North's longest suit (at least five
cards) is trump and he calls an ace he lacks. The misère deals give North the hand with
holes and East the lead. The double-dummy answers on the same deals are printed beside the
single-dummy make-rates, with the decisions that reached the node budget.

Environment: BENCH_SD_DEALS (default 8 per contract) sets the number of deals.
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

SEED = 20261125
SAMPLES = 16
HOLES = "♠B62 ♥9742 ♦853 ♣642"


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
    """North holds the hand with holes; the other 39 cards dealt at random."""
    from analyser.notation import parse_hand

    north = parse_hand(HOLES)
    rest = [c for c in range(52) if c not in north]
    rng.shuffle(rest)
    return [sorted(north)] + [sorted(rest[13 * k : 13 * k + 13]) for k in range(3)]


def _play(job):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import sd_reference as ref

    from analyser.single_dummy import KIND_GE, KIND_MISERE, PlayContract, PlayOptions, play_deal
    from analyser.solver import Solver

    which, kind, hands, trump, called, index = job
    solver = Solver()
    if kind == "rik":
        args = (trump, 1, 0, KIND_GE, 8, called)
        holder = next(s for s in range(4) if called in hands[s])
        dd = solver.solve(hands, trump, 1, [0, holder], ">=8", called)
    else:
        args = (4, 1, 0, KIND_MISERE)
        dd = solver.solve(hands, 4, 1, [0], "misere")
    t0 = time.perf_counter()
    if which == "new":
        got = play_deal(
            hands, PlayContract(*args), PlayOptions(SAMPLES), SEED, index, solver=solver
        )
        limited, decisions = got.limited, got.decisions
    else:
        got = ref.play_deal(hands, ref.PlayContract(*args), SAMPLES, SEED, index, solver=solver)
        limited = decisions = 0
    return int(got.made), int(dd), time.perf_counter() - t0, limited, decisions


def _yardstick() -> float:
    """Seconds of the mean exact double-dummy count of a full deal (20 seeded deals)."""
    from bench_games import _yardstick as twenty

    twenty()  # the first call loads numba's cache: time the second
    return twenty() / 20


def main() -> None:
    n = int(os.environ.get("BENCH_SD_DEALS", "8"))
    cores = os.cpu_count() or 1
    rng = random.Random(SEED)
    deals = {
        "rik": [("rik", *_rik_deal(rng), i) for i in range(n)],
        "misere": [("misere", _misere_deal(rng), 4, -1, i) for i in range(n)],
    }
    unit = _yardstick()
    print(f"   yardstick: mean exact double-dummy count of a full deal, {1000 * unit:.1f} ms")
    with ProcessPoolExecutor(cores) as pool:
        list(pool.map(_play, [("new", *deals["misere"][0]), ("ref", *deals["misere"][0])]))
        for kind, js in deals.items():
            secs = {}
            for which in ("new", "ref"):
                t0 = time.perf_counter()
                res = list(pool.map(_play, [(which, *j) for j in js]))
                wall = time.perf_counter() - t0
                per = sum(r[2] for r in res) / n  # one process's seconds per deal
                secs[which] = wall
                sd = sum(r[0] for r in res)
                dd = sum(r[1] for r in res)
                lim = sum(r[3] for r in res)
                dec = sum(r[4] for r in res)
                extra = f", {lim} of {dec} decisions at the node budget" if which == "new" else ""
                print(
                    f"   {kind:7s} {which:3s} {n} deals, {SAMPLES} worlds, {cores} processes: "
                    f"{60 * n / wall:6.1f} deals/min, {per:5.2f} s a deal = "
                    f"{per / unit:6.1f} yardsticks; made single-dummy {sd}/{n}, double-dummy "
                    f"{dd}/{n}{extra}",
                    flush=True,
                )
            print(
                f"   {kind:7s} speed-up (deals per minute, new / before): "
                f"{secs['ref'] / secs['new']:.1f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
