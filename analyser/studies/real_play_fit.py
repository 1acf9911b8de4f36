"""Study 13's summary: the curve per family from the played deals, the held-back panel's
check, the auction's inference effect and the calibration document the analysis reads.

Apart from :mod:`analyser.studies.real_play` (the hands and their play) so that refitting
never changes the study's cache key: the played deals stay valid while the fit evolves.
"""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pandas as pd

from analyser.analysis.play_curve import curve_at, fit_curve
from analyser.files import write_text_atomic
from analyser.stats import Z95, cluster_share
from analyser.studies.config import StudyConfig
from analyser.studies.single_dummy import FAMILIES


def _played(df: pd.DataFrame) -> pd.DataFrame:
    return df[(df["deal"] >= 0) & (df["dd_made"] >= 0)]


def curves(df: pd.DataFrame) -> dict[str, dict]:
    """Per family with played deals of the fit panel: the fit, its range of p_dd, its
    widest band half-width there, whether it rises with p_dd, and the counts."""
    out = {}
    d = _played(df)
    for family in FAMILIES:
        g = d[(d["family"] == family) & (d["panel"] == "fit")]
        if g["hand_id"].nunique() < 3:
            continue
        fit = fit_curve(g["p_dd"].to_numpy(), g["sd_made"].to_numpy(), g["hand_id"].to_numpy())
        lo_p, hi_p = float(g["p_dd"].min()), float(g["p_dd"].max())
        grid = np.linspace(lo_p, hi_p, 41)
        _, lo, hi = curve_at(fit, grid)
        out[family] = fit | {
            "deals": int(len(g)),
            "hands": int(g["hand_id"].nunique()),
            "p_dd_range": [lo_p, hi_p],
            "max_half_width": float(np.max((hi - lo) / 2)),
            "monotone": bool(fit["b"] >= 0),
            "limited_share": float(g["limited"].sum() / max(g["decisions"].sum(), 1)),
        }
    return out


def check_table(
    df: pd.DataFrame, fits: dict[str, dict], p_range: tuple[float, float], bins: int = 5
) -> pd.DataFrame:
    """The held-back panel per family and bin of p_dd: observed make rate (cluster interval)
    against the fitted curve's prediction and band at the bin's mean p_dd."""
    rows = []
    d = _played(df)
    for family, fit in fits.items():
        g = d[(d["family"] == family) & (d["panel"] == "check")]
        if g.empty:
            continue
        edges = np.linspace(p_range[0], p_range[1], bins + 1)
        for k in range(bins):
            b = g[(g["p_dd"] >= edges[k]) & (g["p_dd"] < edges[k + 1] + (k == bins - 1))]
            if b.empty:
                continue
            per = b.groupby("hand_id")["sd_made"].agg(["sum", "count"])
            rate, lo, hi = cluster_share(per["sum"].to_numpy(), per["count"].to_numpy())
            pred, plo, phi = (float(v[0]) for v in curve_at(fit, np.array([b["p_dd"].mean()])))
            rows.append({"family": family, "p_dd": float(b["p_dd"].mean()), "deals": len(b),
                         "hands": len(per), "observed": rate, "obs_lo": lo, "obs_hi": hi,
                         "predicted": pred, "band_lo": plo, "band_hi": phi,
                         "covered": bool(plo <= rate <= phi)})  # fmt: skip
    return pd.DataFrame(rows)


def inference_effect(df: pd.DataFrame) -> pd.DataFrame:
    """Per family, on the deals played both ways: the make rate with and without the
    auction's inference and the paired difference, with cluster intervals."""
    rows = []
    d = _played(df)
    d = d[d["sd_plain"] >= 0]
    for family in FAMILIES:
        g = d[d["family"] == family]
        if g.empty:
            continue
        per = g.groupby("hand_id").agg(
            w=("sd_made", "sum"), p=("sd_plain", "sum"), n=("deal", "count")
        )
        w, wlo, whi = cluster_share(per["w"].to_numpy(), per["n"].to_numpy())
        p, plo, phi = cluster_share(per["p"].to_numpy(), per["n"].to_numpy())
        diff = (per["w"] - per["p"]).to_numpy()
        n = per["n"].to_numpy()
        share = diff.sum() / n.sum()
        # the ratio estimator's between-hand variance, as cluster_share computes it
        resid = diff - share * n
        g_n = len(n)
        se = math.sqrt(g_n / max(g_n - 1, 1) * float((resid**2).sum())) / n.sum()
        rows.append({"family": family, "deals": int(n.sum()), "hands": g_n,
                     "with": w, "with_lo": wlo, "with_hi": whi, "without": p,
                     "without_lo": plo, "without_hi": phi, "effect": share,
                     "effect_lo": share - Z95 * se, "effect_hi": share + Z95 * se})  # fmt: skip
    return pd.DataFrame(rows)


def summary(
    df: pd.DataFrame, cfg: StudyConfig, p_range: tuple[float, float], path: pathlib.Path
) -> dict[str, pd.DataFrame]:
    """The study's tables (curves, held-back check, inference effect); writes the calibration
    document to ``path``."""
    fits = curves(df)
    doc = {
        "what": "real-play (single-dummy) calibration of double-dummy make-probabilities: "
        "P(real make) = 1 / (1 + exp(-(a + b logit(p_dd)))) per family (rikken study real_play)",
        "study": cfg.name,
        "key": cfg.key,
        "seed": cfg["seed"],
        "samples": cfg["samples"],
        "decision_nodes": cfg["decision_nodes"],
        "dd_deals": cfg["dd_deals"],
        "deals_per_hand": cfg["deals_per_hand"],
        "p_range": list(p_range),
        "auction": "uncontested: North (forehand) bids, the others pass (book bidding model)",
        "families": fits,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    table = pd.DataFrame(
        [
            {"family": f, **{k: v for k, v in x.items() if k not in ("cov",)}}
            for f, x in fits.items()
        ]
    )
    return {
        "curves": table,
        "check": check_table(df, fits, p_range),
        "inference": inference_effect(df),
    }
