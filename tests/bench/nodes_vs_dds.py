"""Our trick-start nodes against DDS's on deals of any seed: does a change to the search
help on deals no tuning has seen?

`python tests/bench/nodes_vs_dds.py [--seeds 20261121,4242,9001] [--deals 100]` makes the
solver benchmark's kind of deals (a random strain and leader each, partners opposite) from
each seed, has both solvers answer each deal's exact count and ``>=7`` on a fresh table,
and prints per seed and question the two node totals, their ratio, the median of the
per-deal ratios and the deals where we search the most nodes more than DDS (the ones to
follow with dds_diff.py --seed). Node counts do not depend on the machine's load, so a
change to the move ordering or to a bound can be judged here in a minute, on the bench's
seed (the first, which every earlier rule was tuned on) and on others.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

from bench_solver import SEED, dds_deal, make_deals, our_deal  # noqa: E402

from analyser.solver import Solver  # noqa: E402

MODES = ("exact", ">=7")


def compare(seed: int, n: int, solver: Solver) -> None:
    """Print both solvers' trick-start nodes on ``n`` deals of ``seed``, per question."""
    deals = make_deals(n, seed)
    for mode in MODES:
        ours, theirs = [], []
        for deal in deals:
            _, our_answer, our_n = our_deal(deal, mode, solver)
            _, dds_answer, dds_n = dds_deal(deal, mode)
            if our_answer != dds_answer:
                raise SystemExit(f"error: seed {seed}, {mode}: answers differ from DDS's")
            ours.append(our_n)
            theirs.append(dds_n)
        ratios = [o / max(t, 1) for o, t in zip(ours, theirs, strict=True)]
        worst = sorted(range(n), key=lambda i: theirs[i] - ours[i])[:5]
        print(
            f"seed {seed:>9}  {mode:5s}  ours {sum(ours):>11,}  DDS {sum(theirs):>11,}  "
            f"ratio {sum(ours) / max(sum(theirs), 1):.3f}  median per deal "
            f"{statistics.median(ratios):.3f}"
        )
        print(
            "      most above DDS: " + ", ".join(f"#{i} {ours[i]:,}/{theirs[i]:,}" for i in worst)
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--seeds",
        default=f"{SEED},4242,9001",
        help="comma-separated deal seeds (default: the bench's, then two others)",
    )
    ap.add_argument("--deals", type=int, default=100, help="deals per seed (default 100)")
    args = ap.parse_args()
    try:
        seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    except ValueError:
        print(f"error: --seeds wants comma-separated integers, got {args.seeds!r}", file=sys.stderr)
        return 2
    if not seeds or args.deals < 1:
        print("error: give at least one seed and one deal", file=sys.stderr)
        return 2
    solver = Solver()
    for seed in seeds:
        compare(seed, args.deals, solver)
    return 0


if __name__ == "__main__":
    sys.exit(main())
