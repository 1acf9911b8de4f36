"""Study 13's report section: the shipped real-play calibration (curves with their bands, the
held-back panel, the auction's inference effect) and a run's confirming sample against it.

The shipped file (:mod:`analyser.analysis.play_curve`) is what the analysis uses, so the
default report shows it as it is, with its provenance; the small run of the default suite
(sims/real_play.toml) plays a few hands afresh and compares their single-dummy make rate with
what the shipped curves predict for them.
"""

from __future__ import annotations

import pathlib
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.analysis.play_curve import MIN_HANDS, Calibration
from analyser.report.blocks import Block, table_block
from analyser.report.model import pct
from analyser.stats import cluster_interval
from analyser.studies.real_play_fit import Z_FEATURE

if TYPE_CHECKING:
    from analyser.studies.runner import StudyResult


def _shown_values(c) -> list[float | None]:
    """The feature values a curve is drawn at: its lowest and highest calibrated value
    (None: the curve has no feature)."""
    if c.feature is None:
        return [None]
    return sorted({min(c.feature_values), max(c.feature_values)})


def _middle_value(c) -> float | None:
    """The feature value a curve's row of the family table is read at: its middle one."""
    if c.feature is None:
        return None
    v = sorted(c.feature_values)
    return v[len(v) // 2]


def _label(family: str, c, x: float | None) -> str:
    return family if x is None else f"{family}, {c.feature} {x:g}"


def curve_frame(cal: Calibration, points: int = 11) -> pd.DataFrame:
    """Per usable family (enough hands) the curve and band on a grid over its range; a curve
    with a hand feature at its lowest and highest calibrated value of the feature."""
    rows = []
    for family, c in cal.families.items():
        if c.hands < MIN_HANDS:
            continue
        for x in _shown_values(c):
            for p in np.linspace(c.p_range[0], c.p_range[1], points):
                mid, lo, hi = c.at(float(p), x)
                rows.append({"family": _label(family, c, x), "dd_p": float(p), "p": mid,
                             "lo": lo, "hi": hi})  # fmt: skip
    return pd.DataFrame(rows, columns=["family", "dd_p", "p", "lo", "hi"])


def family_table(cal: Calibration) -> pd.DataFrame:
    """One row per family of the shipped file: its size, range, band and whether the
    analysis uses it."""
    rows = []
    for family, c in cal.families.items():
        x = _middle_value(c)
        at = {p: c.at(p, x) for p in (0.5, 0.8) if c.p_range[0] <= p <= c.p_range[1]}
        rows.append(
            {
                "family": _label(family, c, x),
                "deals": c.deals,
                "hands": c.hands,
                "p_dd_from": c.p_range[0],
                "p_dd_to": c.p_range[1],
                "real_at_dd_50": at[0.5][0] if 0.5 in at else np.nan,
                "real_at_dd_80": at[0.8][0] if 0.8 in at else np.nan,
                "max_half_width": c.max_half_width,
                "used": c.hands >= MIN_HANDS,
            }
        )
    return pd.DataFrame(rows)


def shipped_blocks(cal: Calibration | None, folder: pathlib.Path) -> list[Block]:
    """The shipped calibration: reading, chart and tables (one block saying so when the file
    is missing)."""
    from analyser.report import charts

    if cal is None:
        return [
            Block(
                "The shipped calibration",
                "No calibration file: every analysis falls back to double-dummy figures.",
            )
        ]
    prov = cal.provenance
    table = family_table(cal)
    state = (
        "complete"
        if prov.get("complete", True)
        else f"in progress: {prov.get('chunks_done')} of {prov.get('chunks')} chunks"
    )
    runs = prov.get("runs") or [{"key": prov.get("key"), "seed": prov.get("seed")}]
    origin = "; ".join(f"run key {r.get('key')}, seed {r.get('seed')}" for r in runs)
    parts = [
        f"Shipped calibration ({len(runs)} run{'s' if len(runs) > 1 else ''}: {origin}), "
        f"{prov.get('samples')} worlds a decision, {prov.get('played_deals', '?')} deals played "
        f"({state})."
    ]
    for r in table.itertuples():
        if not r.used:
            parts.append(
                f"{r.family}: {r.hands} hands so far, fewer than the {MIN_HANDS} the analysis "
                "needs: not used."
            )
            continue
        here = []
        if not np.isnan(r.real_at_dd_50):
            here.append(f"{pct(r.real_at_dd_50)} at double-dummy 50%")
        if not np.isnan(r.real_at_dd_80):
            here.append(f"{pct(r.real_at_dd_80)} at 80%")
        parts.append(
            f"{r.family}: real play {', '.join(here) or '-'} ({r.deals} deals of {r.hands} "
            f"hands, band at most ±{r.max_half_width:.3f})."
        )
    blocks = []
    frame = curve_frame(cal)
    png = None
    if not frame.empty:
        png = charts.real_play_map(
            frame, folder / "real_play_curves.png",
            title="Real-play (single-dummy) P(make) from the double-dummy P(make), with 95% bands",
        )  # fmt: skip
    blocks.append(Block("The shipped real-play curves", " ".join(parts), png=png))
    blocks.append(table_block("Curves per family", table, folder, "real_play_families"))
    check = pd.DataFrame(prov.get("check") or [])
    if not check.empty:
        consistent = int(check["consistent"].sum()) if "consistent" in check else 0
        inside = int(check["inside_band"].sum()) if "inside_band" in check else 0
        reading = (
            "Held-back panel (another seed), per family and bin of double-dummy P(make): the "
            "observed single-dummy make rate agrees with the curve's prediction for the same "
            f"hands within their combined 95% margin in {consistent} of {len(check)} bins; it "
            f"lies inside the curve's own band in {inside} (a bin's own sampling noise is "
            "often wider than the band)."
        )
        blocks.append(
            table_block(
                "Held-back panel against the curves", check, folder, "real_play_check", reading
            )
        )
    inference = pd.DataFrame(prov.get("inference") or [])
    if not inference.empty:
        lines = [
            f"{r.family} {pct(r['with'])} with, {pct(r.without)} without "
            f"({100 * r.effect:+.1f} points, {100 * r.effect_lo:+.1f} to {100 * r.effect_hi:+.1f}; "
            f"{r.deals} deals)"
            for _, r in inference.iterrows()
        ]
        blocks.append(
            table_block(
                "The auction's inference: make rate with and without",
                inference,
                folder,
                "real_play_inference",
                reading="Same deals played with worlds drawn consistent with the auction and "
                "without: " + "; ".join(lines) + ".",
            )  # fmt: skip
        )
    features = pd.DataFrame(prov.get("features") or [])
    if not features.empty:
        helps = features[features["helps"]]
        said = (
            "none does (the curves use the double-dummy P(make) alone)"
            if helps.empty
            else ", ".join(f"{r.feature} for {r.family}" for r in helps.itertuples())
        )
        reading = (
            "Does a hand feature (high-card points, longest suit, aces, the misère "
            "guidelines' holes) predict real play beyond the double-dummy P(make)? Each "
            "refitted as a third term on the fit panel (z: its cluster-robust coefficient over "
            "its standard error) and scored on the held-back panel (check_gain: mean "
            "log-likelihood per deal against the curve without it); a feature helps where "
            f"|z| > {Z_FEATURE} (the Bonferroni bound for all the features and families "
            f"tried) and check_gain > 0: {said}. Where one helps, the family's curve takes "
            "the one with the largest gain as a third term (the curves above)."
        )
        blocks.append(
            table_block("Other hand features", features, folder, "real_play_features", reading)
        )
    return blocks


def confirming_table(res: StudyResult, cal: Calibration | None) -> pd.DataFrame:
    """Per family of this run's played deals: the observed single-dummy make rate (cluster
    interval over hands) against the shipped curve's mean prediction for the same hands."""
    df = res.table
    df = df[(df["deal"] >= 0) & (df["dd_made"] >= 0)]
    rows = []
    for family, g in df.groupby("family"):
        per = g.groupby("hand_id").agg(made=("sd_made", "sum"), n=("deal", "count"),
                                       p_dd=("p_dd", "first"), mask=("mask", "first"))  # fmt: skip
        p, lo, hi = cluster_interval(per["made"].to_numpy(), per["n"].to_numpy())
        curve = cal.families.get(family) if cal is not None else None
        predicted = np.nan
        if curve is not None and curve.hands >= MIN_HANDS:
            x = curve.features_of(per["mask"].to_numpy())
            pred = [
                curve.at(float(p), None if x is None else x[i])[0]
                for i, p in enumerate(per["p_dd"])
            ]
            predicted = float(np.average(pred, weights=per["n"]))
        inside = None if np.isnan(predicted) else bool(lo <= predicted <= hi)
        rows.append({"family": family, "hands": len(per), "deals": int(per["n"].sum()),
                     "observed": p, "lo": lo, "hi": hi, "predicted": predicted,
                     "inside": inside})  # fmt: skip
    return pd.DataFrame(rows)


def confirming_blocks(res: StudyResult, cal: Calibration | None, folder: pathlib.Path):
    """This run's played deals against the shipped curves."""
    table = confirming_table(res, cal)
    if table.empty:
        return [Block("This run's confirming sample", "No hand of this run was played.")]
    said = []
    for r in table.itertuples():
        pred = (
            "no usable curve" if np.isnan(r.predicted) else f"the curve predicts {pct(r.predicted)}"
        )
        said.append(f"{r.family}: {pct(r.observed)} ({pct(r.lo)}-{pct(r.hi)}) on {r.deals} "
                    f"deals of {r.hands} hands, {pred}")  # fmt: skip
    reading = (
        "Played afresh in this run (single-dummy, the auction's inference): "
        + "; ".join(said)
        + ". A small sample: its interval is wide, and it checks the shipped curves only roughly."
    )
    return [
        table_block(
            "This run's confirming sample", table, folder, "real_play_confirming", reading=reading
        )
    ]
