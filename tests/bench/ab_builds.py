"""Two checkouts of the solver timed deal by deal in turn: is a change faster than its noise?

`python tests/bench/ab_builds.py OTHER [--mode exact|>=7] [--rounds N] [--deals 77,61]` starts
one worker process in this checkout (A) and one in the checkout OTHER (B, e.g. a `git worktree`
of the commit before a change), each with its own numba cache, and has them solve the solver
benchmark's deals one at a time in turn: A then B on a deal, B then A on the next. A shared
machine changes speed over seconds, so two solves of the same deal back to back see the same
load. On these machines a checkout against itself gave rounds of 0.96-1.04 and 0.99 over
four rounds, where separate processes timed one after the other differed by ±10%. Prints
each round's summed times and ratio B/A, then the median round and the whole run's ratio,
deal #77's (the slowest) and the ratio without it. ``--deals`` times only the deals listed (by
their index among the bench's 100), for a change that concerns a few of them.

The two checkouts solve the same positions, so their node counts can be compared too: a
worker prints its trick-start nodes with each time, and the script says when they differ.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
SLOWEST = 77  # the bench's slowest exact count (a cross-ruff)


def worker() -> None:
    """Solve the deal indices read from stdin, one per line as 'INDEX MODE'; print for each
    its milliseconds and trick-start nodes. Imports the solver of the current directory."""
    sys.path.insert(0, ".")
    sys.path.insert(0, str(HERE))
    from bench_solver import SEED, make_deals, our_deal

    from analyser.solver import Solver

    deals = make_deals(100, SEED)
    solver = Solver()
    our_deal(deals[50], "exact", solver)  # load numba's cache before the first timed solve
    print("ready", flush=True)
    for line in sys.stdin:
        index, mode = line.split()
        ms, _, nodes = our_deal(deals[int(index)], mode, solver)
        print(f"{ms:.3f} {nodes}", flush=True)


class Worker:
    """A worker process in one checkout."""

    def __init__(self, checkout: pathlib.Path):
        python = checkout / ".venv" / "bin" / "python"
        self.proc = subprocess.Popen(
            [str(python if python.exists() else sys.executable), str(__file__), "--worker"],
            cwd=checkout,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self.proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker in {checkout} did not start")

    def solve(self, index: int, mode: str) -> tuple[float, int]:
        self.proc.stdin.write(f"{index} {mode}\n")
        self.proc.stdin.flush()
        ms, nodes = self.proc.stdout.readline().split()
        return float(ms), int(nodes)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=pathlib.Path, help="the checkout to compare with (B)")
    ap.add_argument("--mode", choices=["exact", ">=7"], default="exact")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", help="only these deals, by index among the bench's 100 (e.g. 77,61)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    if "--worker" in sys.argv:
        worker()
        return 0
    args = ap.parse_args()
    if not (args.other / "analyser" / "solver").is_dir():
        print(f"error: {args.other} is not a checkout of this project", file=sys.stderr)
        return 2
    try:
        deals = sorted({int(x) for x in args.deals.split(",")}) if args.deals else range(100)
    except ValueError:
        deals = [-1]
    if not deals or min(deals) < 0 or max(deals) > 99:
        print(
            f"error: --deals takes indices 0..99 separated by commas, not {args.deals!r}",
            file=sys.stderr,
        )
        return 2
    a, b = Worker(HERE.parent.parent), Worker(args.other.resolve())
    ta, tb = [0.0] * 100, [0.0] * 100
    ratios = []
    differ = set()
    for r in range(args.rounds):
        sa = sb = 0.0
        for i in deals:
            if (i + r) % 2:
                ma, na = a.solve(i, args.mode)
                mb, nb = b.solve(i, args.mode)
            else:
                mb, nb = b.solve(i, args.mode)
                ma, na = a.solve(i, args.mode)
            sa, sb = sa + ma, sb + mb
            ta[i] += ma
            tb[i] += mb
            if na != nb:
                differ.add(i)
        ratios.append(sb / sa)
        print(f"round {r}: A {sa:.0f} ms, B {sb:.0f} ms, B/A {sb / sa:.3f}", flush=True)
    line = f"B/A: median round {statistics.median(ratios):.3f}, whole run {sum(tb) / sum(ta):.3f}"
    if SLOWEST in deals and len(deals) > 1:
        rest = (sum(tb) - tb[SLOWEST]) / (sum(ta) - ta[SLOWEST])
        line += f", deal #{SLOWEST} {tb[SLOWEST] / ta[SLOWEST]:.3f}, the others {rest:.3f}"
    print(line)
    n = len(deals)
    print(f"trick-start nodes differ on {len(differ)} of {n} deals" if differ else "same nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
