"""Does the real-play correction depend on the deal model? (docs/deal_model.md)

The real-play headline maps a hand's double-dummy P(make) through the curves of Study 13,
measured by single-dummy play on uniform deals. Under ``--deal-model cut_only`` the same
curves are applied to the double-dummy figure of the cut_only deals. This script measures
whether that is right, on a panel of hands:

1. Each hand is analysed at seat 1 (forehand) under each deal model (seed ``SEED``), and its
   bid is played out single-dummy on the first ``--deals`` deals of that model's own sample
   (``rikken analyse --play single-dummy``: ``--samples`` worlds a decision, the default
   node budget per decision), and solved double-dummy on the same deals.
2. Per model: the single-dummy and double-dummy make-rates on those deals, and their paired
   difference (the real-play correction of this hand) with a 95 % interval from the
   discordant deals.
3. The correction under cut_only minus the correction under uniform, with a 95 % interval
   (the two models' deals are independent samples). If the curves carried over, this is
   zero.
4. The curve's prediction from the played deals' double-dummy rate beside the observed
   single-dummy rate, per model, where the shipped calibration has a curve for the bid.

The players draw their worlds uniformly, whatever the deal model (as the analysis's
single-dummy play does), and without inference from an auction: both models are treated
alike, so the difference measures the deal model's effect on the correction.

Run: ``PYTHONPATH=. python sims/real_play_deal_model.py [--deals N] [--out FILE.csv]``
(about a CPU second a deal for rik, more for misère). ``--curves-only FILE.csv`` recomputes
step 4 of an earlier result with the calibration shipped now (no play). The shipped result,
sims/results/real_play_deal_model.csv, is what docs/deal_model.md quotes; its column
``calibration`` says which calibration fit step 4 used.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from analyser.analysis import play_curve  # noqa: E402
from analyser.analysis.evaluate import analyse_hand  # noqa: E402
from analyser.analysis.single_dummy_run import play_out  # noqa: E402
from analyser.cards import cards_to_mask  # noqa: E402
from analyser.notation import parse_hand  # noqa: E402
from analyser.rules import parse_ruleset  # noqa: E402
from analyser.seats import Place  # noqa: E402
from analyser.stats import Z95, Estimate  # noqa: E402

SEED = 20261128
MODELS = ("uniform", "cut_only")
PANEL = [
    ("rik minimum 6/2", "♠A109872 ♥H4 ♦V73 ♣52", "rik"),
    ("rik minimum 7/1", "♠A987532 ♥H4 ♦V7 ♣52", "rik"),
    ("misère 4-1-6-2", "♠8532 ♥7 ♦965432 ♣32", "misere"),
    ("misère 1-4-4-4", "♠2 ♥9742 ♦8532 ♣6432", "misere"),
    ("misère 1-4-4-4", "♠2 ♥9742 ♦8532 ♣6432", "open_misere"),
]


def paired_gap(sd_made: int, dd_made: int, both: int, n: int) -> tuple[float, float]:
    """The single-dummy minus double-dummy make-rate on the same ``n`` deals, and its
    variance from the discordant deals (made one way only)."""
    b, c = sd_made - both, dd_made - both
    gap = (b - c) / n
    return gap, max(b + c - (b - c) ** 2 / n, 0.0) / n**2


def curve_columns(cal, bid: str, cards: str, dd_p: float, deals: int) -> dict:
    """Step 4: the shipped curve's prediction (and band) for the hand at the played deals'
    double-dummy rate, or why there is none."""
    hand = parse_hand(cards)
    fam = bid  # the panel's bids (rik, misere, open_misere) are their families' keys
    lo, hi = Estimate(round(dd_p * deals), deals).interval
    got = cal.estimate(fam, dd_p, lo, hi, cards_to_mask(hand)) if cal else "no calibration file"
    curve = got if not isinstance(got, str) else (math.nan,) * 3
    prov = cal.provenance if cal else {}
    return {"curve_p": curve[0], "curve_lo": curve[1], "curve_hi": curve[2],
            "curve_note": got if isinstance(got, str) else "",
            "calibration": f"{prov.get('key')} ({prov.get('chunks_done')} of "
                           f"{prov.get('chunks')} chunks)"}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="deals played per hand and model")
    ap.add_argument("--samples", type=int, default=16, help="worlds per decision")
    ap.add_argument("--workers", type=int, default=1, help="processes for the play")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument(
        "--out", type=pathlib.Path, default=ROOT / "sims/results/real_play_deal_model.csv"
    )
    ap.add_argument(
        "--curves-only",
        type=pathlib.Path,
        metavar="FILE.csv",
        help="recompute step 4 of an earlier result with today's calibration",
    )
    args = ap.parse_args()
    rules = parse_ruleset("book")
    cal = play_curve.load()
    if args.curves_only:
        df = pd.read_csv(args.curves_only)
        cols = [curve_columns(cal, r.bid, r.cards, r.dd_p, r.deals) for r in df.itertuples()]
        for k in cols[0]:
            df[k] = [c[k] for c in cols]
        df.round(4).to_csv(args.curves_only, index=False)
        print(f"written: {args.curves_only}")
        return
    rows = []
    for name, text, bid in PANEL:
        hand = parse_hand(text)
        gaps = {}
        for model in MODELS:
            t0 = time.perf_counter()
            a = analyse_hand(
                hand, Place(1), rules, deals=args.deals, seed=args.seed, deal_model=model,
                play="double-dummy",
            )  # fmt: skip
            (pb,) = play_out(a, [bid], samples=args.samples, n_deals=args.deals,
                             workers=args.workers)  # fmt: skip
            n = pb.sd.n
            gap, var = paired_gap(pb.sd.made, pb.dd.made, pb.both, n)
            gaps[model] = (gap, var)
            sd_lo, sd_hi = pb.sd.interval
            rows.append({
                "seed": args.seed, "samples": args.samples, "hand": name, "cards": text,
                "bid": bid, "deal_model": model, "deals": n, "dd_p": pb.dd.p,
                "dd_unknown": pb.dd.unknown, "sd_p": pb.sd.p, "sd_lo": sd_lo, "sd_hi": sd_hi,
                "gap": gap, "gap_lo": gap - Z95 * math.sqrt(var),
                "gap_hi": gap + Z95 * math.sqrt(var),
                **curve_columns(cal, bid, text, pb.dd.p, n),
                "limited": pb.limited, "decisions": pb.decisions,
                "seconds": round(time.perf_counter() - t0, 1),
            })  # fmt: skip
            print(
                f"{name} {bid} {model}: single-dummy {pb.sd.p:.3f} double-dummy {pb.dd.p:.3f} "
                f"on {n} deals, gap {gap:+.3f} ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
        (gu, vu), (gc, vc) = gaps["uniform"], gaps["cut_only"]
        half = Z95 * math.sqrt(vu + vc)
        for r in rows[-2:]:
            r.update(gap_diff=gc - gu, gap_diff_lo=gc - gu - half, gap_diff_hi=gc - gu + half)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows).round(4).to_csv(args.out, index=False)  # each hand saved as it ends
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()
