"""Node counts and answers of the solver on fixed position sets: the check a refactor must pass.

`python tests/bench/fingerprint.py [OUT.json]` solves seeded positions one at a time on one
thread and prints, per set, the number of positions, the total nodes, a checksum of the
answers and one of the (answer, nodes) pairs; with OUT.json it also writes every
position's answer and node count, for a diff against an earlier run. A change that must keep
the search as it is ("same nodes and answers") shows identical lines before and after.

The sets: the solver benchmark's 100 bridge-shaped deals (exact and ``>=7``), rik positions
(adjacent partners with a called ace, exact and ``>=8``), lone declarers (1 vs 3, exact and
``>=8``, under a node budget so none runs away), misère and piek at no trump, and 7-card
endings of each kind.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent.parent))

from analyser.cards import cards_to_mask  # noqa: E402
from analyser.solver import GOAL_GE, GOAL_MISERE, GOAL_PIEK, GOAL_TRICKS  # noqa: E402
from analyser.solver.api import Solver  # noqa: E402
from analyser.solver.layout import S_NODES  # noqa: E402

SEED = 20261121
BUDGET = 3_000_000  # per search, for the lone-declarer sets (a budget ends them UNDECIDED)


def deals(n: int, seed: int, cards: int = 13) -> list[tuple[list[int], int, int]]:
    """n seeded deals of ``cards`` cards a hand (masks), each with a strain and leader."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pack = list(range(52))
        rng.shuffle(pack)
        hands = [cards_to_mask(pack[13 * k : 13 * k + cards]) for k in range(4)]
        out.append((hands, rng.randrange(5), rng.randrange(4)))
    return out


def called_ace(hands: list[int], trump: int, rikker: int) -> int:
    """A non-trump ace the rikker does not hold (card int), or -1 when there is none."""
    for s in range(4):
        ace = 13 * s + 12
        if s != trump and not (hands[rikker] >> (16 * s + 12)) & 1:
            return ace
    return -1


def position_sets():
    """(label, positions, max_nodes); a position is (hands, trump, leader, side, goal, K,
    called)."""
    full = deals(100, SEED)
    lone = deals(60, SEED + 2)
    ends = deals(150, SEED + 3, cards=7)
    sets = []
    for label, ds in (("bridge 13", full), ("bridge 7", ends)):
        sets.append(
            (
                f"{label}: exact",
                [(h, t, ld, [ld, (ld + 2) % 4], GOAL_TRICKS, 0, -1) for h, t, ld in ds],
                0,
            )
        )
        sets.append(
            (
                f"{label}: >=7" if label == "bridge 13" else f"{label}: >=4",
                [
                    (h, t, ld, [ld, (ld + 2) % 4], GOAL_GE, 7 if label == "bridge 13" else 4, -1)
                    for h, t, ld in ds
                ],
                0,
            )
        )
    for label, ds, k in (("rik 13", full[:60], 8), ("rik 7", ends, 4)):
        rows = []
        for h, t, ld in ds:
            tr = t if t < 4 else 0
            rikker = (ld + 1) % 4
            called = called_ace(h, tr, rikker)
            partner = rikker
            if called >= 0:
                for q in range(4):
                    if (h[q] >> (16 * (called // 13) + called % 13)) & 1:
                        partner = q
            side = sorted({rikker, partner}) if partner != rikker else [rikker, (rikker + 1) % 4]
            rows.append((h, tr, ld, side, GOAL_TRICKS, 0, called))
            rows.append((h, tr, ld, side, GOAL_GE, k, called))
        sets.append((f"{label}: exact and >={k}", rows, 0))
    for label, ds, k in (("1 vs 3, 13", lone, 8), ("1 vs 3, 7", ends, 4)):
        rows = []
        for h, t, ld in ds:
            rows.append((h, t, ld, [(ld + 3) % 4], GOAL_TRICKS, 0, -1))
            rows.append((h, t, ld, [(ld + 3) % 4], GOAL_GE, k, -1))
        sets.append((f"{label}: exact and >={k}", rows, BUDGET))
    for label, ds in (("misere/piek 13", lone), ("misere/piek 7", ends)):
        rows = []
        for h, _, ld in ds:
            rows.append((h, 4, ld, [(ld + 3) % 4], GOAL_MISERE, 0, -1))
            rows.append((h, 4, ld, [(ld + 3) % 4], GOAL_PIEK, 0, -1))
        sets.append((f"{label}", rows, BUDGET))
    return sets


def run(out_path: str | None = None) -> dict:
    """Solve every set; print one line per set and return the per-position records."""
    t0 = time.perf_counter()
    # a solver of its own: the table generation feeds the bucket hash, so one more search
    # on the measuring solver would change its node counts
    Solver(tt_bits=7).solve([[0], [13], [26], [39]], 0, 0, [0, 2], "tricks")
    print(f"numba compile or cache load: {time.perf_counter() - t0:.1f} s (not in the timings)")
    solver = Solver()
    record = {}
    for label, rows, budget in position_sets():
        t0 = time.perf_counter()
        items = []
        for hands, trump, leader, side, goal, k, called in rows:
            before = int(solver.stats[S_NODES])
            question = f">={k}" if goal == GOAL_GE else goal
            r = solver.solve(
                hands,
                trump,
                leader,
                side,
                question,
                called if called >= 0 else None,
                max_nodes=budget,
            )
            items.append((int(r), int(solver.stats[S_NODES]) - before))
        digest = hashlib.sha256(json.dumps(items).encode()).hexdigest()[:16]
        answers = hashlib.sha256(json.dumps([r for r, _ in items]).encode()).hexdigest()[:8]
        nodes = sum(n for _, n in items)
        undecided = sum(1 for r, _ in items if r < 0)
        print(
            f"{label:28s} {len(items):4d} positions {nodes:13,d} nodes  "
            f"undecided {undecided:3d}  answers {answers}  checksum {digest}  "
            f"({time.perf_counter() - t0:6.1f} s)",
            flush=True,
        )
        record[label] = items
    if out_path:
        pathlib.Path(out_path).write_text(json.dumps(record))
    return record


if __name__ == "__main__":
    run(sys.argv[1] if len(sys.argv) > 1 else None)
