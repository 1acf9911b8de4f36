"""The play policy's effect on make-probabilities under cut_only (docs/deal_model.md).

The gathering that shapes an unshuffled deal depends on how the last deals were played, so
the play policy is part of the cut_only model. This script measures how much the panel's
make-probabilities move between the model's simple policy and double-dummy play
(:mod:`analyser.studies.play_policy`):

1. ``SESSIONS`` sessions of ``LENGTH`` deals under each policy, on the same first deals,
   trumps and cuts (``deal_model.deal_sequences(play=...)``, seed ``SEED``); a session's
   deals ``USED`` (after two and three gatherings: Study 8's shares settle after about three
   deals) form the policy's pool.
2. Every place of every pool deal whose hand has a panel hand's sorted suit lengths gives
   one deal for that hand: rotated so that hand sits at North, on lead, then the suits
   renamed and the given cards exchanged in (``deal_draw.place_hand``). Using all four
   places, not only forehand, is what makes the double-dummy pool affordable; both
   policies are treated alike, so their difference is the policy's effect on a hand at a
   random place of the table.
3. Each hand's bids solved double-dummy on its deals: rik with the book's trump and call,
   alone 8 with the book's trump, misère. P(make) with a 95% cluster interval over sessions
   (deals of one session are not independent; never narrower than the Wilson interval),
   and the difference of the two policies with an interval (the two pools share their first
   deals, trumps and cuts; the difference's interval treats them as independent, so it is
   if anything too wide).

Run (the double-dummy play is 0.3-0.8 s of CPU a deal: 600 sessions took 3,456 s):
``PYTHONPATH=. python sims/play_policy_panel.py [--sessions N] [--out FILE.csv]``
The shipped result, sims/results/play_policy.csv, is what docs/deal_model.md quotes.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time

import numpy as np
import pandas as pd

from analyser.cards import N_SEATS, cards_to_mask
from analyser.deal_draw import place_hand
from analyser.deal_model import deal_sequences
from analyser.guidelines import default_call, rik_trump
from analyser.notation import parse_hand
from analyser.rules import RIK_TARGET, parse_ruleset
from analyser.stats import cluster_share, wilson_interval
from analyser.studies.play_policy import policy
from analyser.studies.solve import holder_of, solve_positions

SEED = 20250601
SESSIONS = 600
LENGTH = 4
USED = (2, 3)
MAX_NODES = 50_000_000  # misère proofs beyond it are left out (counted in the output)
PANEL = [
    ("rik minimum 6/2", "♠A109872 ♥H4 ♦V73 ♣52", ("rik",)),
    ("rik minimum 7/1", "♠A987532 ♥H4 ♦V7 ♣52", ("rik",)),
    ("two-suiter 5-5", "♠AHV98 ♥AB1072 ♦7 ♣52", ("rik", "alone_8")),
    ("two-suiter 6-5", "♠AH9876 ♥VB1043 ♦2 ♣3", ("rik", "alone_8")),
    ("misère 3-4-3-3", "♠B62 ♥9742 ♦853 ♣642", ("misere",)),
    ("misère 4-1-6-2", "♠8532 ♥7 ♦965432 ♣32", ("misere",)),
    ("misère 1-4-4-4", "♠2 ♥9742 ♦8532 ♣6432", ("misere",)),
]


def lengths(mask: int) -> tuple[int, ...]:
    return tuple(sorted(bin((int(mask) >> (16 * s)) & 0x1FFF).count("1") for s in range(4)))


def pool(name: str, sessions: int) -> tuple[np.ndarray, np.ndarray]:
    """(deals with each place's hand rotated to North, their session) of policy ``name``."""
    # in batches, with a progress line: a session depends only on (SEED, its index)
    batches = []
    for a in range(0, sessions, 50):
        n = min(50, sessions - a)
        batches.append(deal_sequences(n, LENGTH, SEED, start=a, play=policy(name)))
        print(f"  {name}: {a + n} of {sessions} sessions", flush=True)
    seqs = np.concatenate(batches)
    deals, session = [], []
    for i in range(sessions):
        for j in USED:
            dealer = j % N_SEATS
            for q in range(1, N_SEATS + 1):
                s = (dealer + q) % N_SEATS
                deals.append([seqs[i, j, (s + k) % N_SEATS] for k in range(N_SEATS)])
                session.append(i)
    return np.array(deals, np.int64), np.array(session, np.int64)


def solve_bid(deals: np.ndarray, cards: list[int], bid: str) -> np.ndarray:
    """Per deal: 1 made, 0 failed, -1 undecided (North declares and leads)."""
    from analyser.solver import GOAL_GE, GOAL_MISERE

    ruleset = parse_ruleset("book")
    if bid == "misere":
        return solve_positions(deals, 4, 0, 1, GOAL_MISERE, max_nodes=MAX_NODES)
    trump = int(rik_trump(cards))
    if bid == "alone_8":
        return solve_positions(deals, trump, 0, 1, GOAL_GE, 8)
    called = int(default_call(cards, trump=trump, ruleset=ruleset))
    declarer = 1 | (1 << holder_of(deals, called))
    return solve_positions(
        deals, trump, 0, declarer, GOAL_GE, RIK_TARGET, called,
        discard_ok=ruleset.called_card_may_be_discarded,
    )  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=SESSIONS)
    ap.add_argument(
        "--out", type=pathlib.Path, default=pathlib.Path("sims/results/play_policy.csv")
    )
    args = ap.parse_args()
    pools = {}
    for name in ("simple", "double_dummy"):
        t0 = time.perf_counter()
        pools[name] = pool(name, args.sessions)
        print(f"{name}: {args.sessions} sessions in {time.perf_counter() - t0:.0f} s", flush=True)
    rows = []
    for label, text, bids in PANEL:
        cards = parse_hand(text)
        mask = cards_to_mask(cards)
        for name, (deals, session) in pools.items():
            keep = np.array([lengths(d[0]) == lengths(mask) for d in deals], bool)
            mine = np.array([place_hand(d, mask, 0) for d in deals[keep]], np.int64)
            mine = mine.reshape(-1, N_SEATS)
            for bid in bids:
                res = solve_bid(mine, cards, bid) if len(mine) else np.zeros(0, np.int8)
                ok = res >= 0
                sess = session[keep][ok]
                ids = np.unique(sess)
                made = np.array([(res[ok][sess == k] == 1).sum() for k in ids])
                n = np.array([(sess == k).sum() for k in ids])
                p, lo, hi = cluster_share(made, n) if len(ids) else (math.nan,) * 3
                if len(ids):  # never narrower than Wilson's (all made or all failed)
                    w = wilson_interval(int(made.sum()), int(n.sum()))
                    lo, hi = min(lo, w[0]), max(hi, w[1])
                rows.append(
                    {"hand": label, "cards": text, "bid": bid, "policy": name,
                     "deals": int(ok.sum()), "sessions": len(ids),
                     "undecided": int((~ok).sum()), "p": p, "lo": lo, "hi": hi}
                )  # fmt: skip
                print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    wide = df.pivot_table(
        index=["hand", "cards", "bid"],
        columns="policy",
        values=["p", "lo", "hi", "deals"],
        aggfunc="first",
    )
    se = ((wide["hi"] - wide["lo"]) / (2 * 1.959964)) ** 2
    diff = wide["p"]["double_dummy"] - wide["p"]["simple"]
    half = 1.959964 * np.sqrt(se["double_dummy"] + se["simple"])
    summary = pd.DataFrame({"diff": diff, "diff_lo": diff - half, "diff_hi": diff + half})
    df = df.merge(summary.reset_index(), on=["hand", "cards", "bid"])
    df.insert(0, "seed", SEED)
    df.insert(1, "sessions_run", args.sessions)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    df.round(4).to_csv(args.out, index=False)
    print(df.round(3).to_string())


if __name__ == "__main__":
    main()
