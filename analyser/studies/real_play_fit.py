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

from analyser.analysis.play_curve import _logit, curve_at, fit_curve, fit_design, log_likelihood
from analyser.analysis.play_panel import hand_features
from analyser.files import write_text_atomic
from analyser.stats import Z95, cluster_interval, cluster_share
from analyser.studies.config import StudyConfig
from analyser.studies.single_dummy import FAMILIES


def _played(df: pd.DataFrame) -> pd.DataFrame:
    return df[(df["deal"] >= 0) & (df["dd_made"] >= 0)]


def curves(df: pd.DataFrame, features: pd.DataFrame | None = None) -> dict[str, dict]:
    """Per family with played deals of the fit panel: the fit, its range of p_dd, its
    widest band half-width there, whether it rises with p_dd, and the counts. Where the
    ``features`` table (:func:`feature_table`) says a hand feature helps, the curve takes
    the one whose held-back gain is largest as a third term (:func:`_with_feature`); its
    widest half-width is then taken over each value of the feature the panel's hands had,
    along the range of p_dd of those hands."""
    out = {}
    d = _played(df)
    for family in FAMILIES:
        g = d[(d["family"] == family) & (d["panel"] == "fit")]
        if g["hand_id"].nunique() < 3:
            continue
        fit = fit_curve(g["p_dd"].to_numpy(), g["sd_made"].to_numpy(), g["hand_id"].to_numpy())
        fit = _with_feature(g, family, features) or fit
        lo_p, hi_p = float(g["p_dd"].min()), float(g["p_dd"].max())
        out[family] = fit | {
            "deals": int(len(g)),
            "hands": int(g["hand_id"].nunique()),
            "p_dd_range": [lo_p, hi_p],
            "max_half_width": _widest_band(fit, g),
            "monotone": bool(fit["b"] >= 0),
            "limited_share": float(g["limited"].sum() / max(g["decisions"].sum(), 1)),
        }
    return out


# a feature value is calibrated where at least this many of the fit panel's hands had it: the
# curve is fitted on every hand, but a hand whose value fewer hands shared gets no real-play
# figure from it (the band there would rest on a handful of clusters)
MIN_VALUE_HANDS = 10


def _with_feature(g: pd.DataFrame, family: str, features: pd.DataFrame | None) -> dict | None:
    """The curve with a third term, the feature of ``family`` that helps most (largest
    held-back gain among those that help), fitted on the fit panel's deals ``g`` with the
    feature's raw values; None where none helps, or where no value of the feature was had
    by MIN_VALUE_HANDS hands. Its ``feature_values`` run from the lowest to the highest value
    that many hands had. The curve may not fall with p_dd: where the fit's slope in p_dd
    comes out negative (the feature carries what p_dd said), the slope is held at 0, the
    constrained maximum of the likelihood."""
    if features is None or features.empty:
        return None
    rows = features[(features["family"] == family) & features["helps"]]
    if rows.empty:
        return None
    name = str(rows.sort_values("check_gain").iloc[-1]["feature"])
    x = hand_features(g["mask"].to_numpy())[name]
    design = np.column_stack([np.ones(len(g)), _logit(g["p_dd"]), x])
    beta, cov = fit_design(design, g["sd_made"], g["hand_id"])
    if beta[1] < 0:
        flat, flat_cov = fit_design(design[:, [0, 2]], g["sd_made"], g["hand_id"])
        beta = np.array([flat[0], 0.0, flat[1]])
        cov = np.zeros((3, 3))
        cov[np.ix_([0, 2], [0, 2])] = flat_cov
    per_hand = pd.Series(x, index=g.index).groupby(g["hand_id"].to_numpy()).first()
    counts = per_hand.value_counts()
    common = sorted(float(v) for v in counts[counts >= MIN_VALUE_HANDS].index)
    if not common:
        return None
    values = sorted(float(v) for v in counts.index if common[0] <= v <= common[-1])
    return {"a": float(beta[0]), "b": float(beta[1]), "c": float(beta[2]), "cov": cov.tolist(),
            "clusters": int(g["hand_id"].nunique()), "flat": False, "feature": name,
            "feature_values": values}  # fmt: skip


def _widest_band(fit: dict, g: pd.DataFrame, points: int = 41) -> float:
    """The widest half-width of the curve's band where the panel's hands lie: over their
    range of p_dd, for a curve with a feature at each feature value along the range of p_dd
    of the hands with that value."""
    if not fit.get("feature"):
        _, lo, hi = curve_at(fit, np.linspace(g["p_dd"].min(), g["p_dd"].max(), points))
        return float(np.max((hi - lo) / 2))
    x = hand_features(g["mask"].to_numpy())[fit["feature"]]
    widest = 0.0
    for v in fit["feature_values"]:
        p = g["p_dd"].to_numpy()[x == v]
        _, lo, hi = curve_at(fit, np.linspace(p.min(), p.max(), points), x=float(v))
        widest = max(widest, float(np.max((hi - lo) / 2)))
    return widest


def check_table(
    df: pd.DataFrame, fits: dict[str, dict], p_range: tuple[float, float], bins: int = 5
) -> pd.DataFrame:
    """The held-back panel per family and bin of p_dd: the observed make rate (cluster
    interval over the bin's hands) against the curve's prediction for the same hands (the
    deal-weighted mean of the curve at each hand's p_dd) and its band. ``inside_band``: the
    observed rate lies in the band; ``consistent``: observed and predicted differ by no more
    than their combined 95 % margin (``z * sqrt(se_obs² + se_band²)``) — the test a correct
    curve passes in about 95 % of bins whatever the bins' size, where a bin of few hands can
    miss a narrow band by its own noise alone."""
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
            per = b.groupby("hand_id").agg(
                made=("sd_made", "sum"), n=("sd_made", "count"), p_dd=("p_dd", "first"),
                mask=("mask", "first"),
            )  # fmt: skip
            n = per["n"].to_numpy(float)
            rate, lo, hi = cluster_interval(per["made"].to_numpy(), n)
            x = None
            if fit.get("feature"):
                x = hand_features(per["mask"].to_numpy())[fit["feature"]]
            mid, blo, bhi = curve_at(fit, per["p_dd"].to_numpy(), x=x)
            pred, plo, phi = (float(np.average(v, weights=n)) for v in (mid, blo, bhi))
            se = math.hypot((hi - lo) / (2 * Z95), (phi - plo) / (2 * Z95))
            rows.append({"family": family, "p_dd": float(np.average(per["p_dd"], weights=n)),
                         "deals": int(n.sum()), "hands": len(per), "observed": rate,
                         "obs_lo": lo, "obs_hi": hi, "predicted": pred, "band_lo": plo,
                         "band_hi": phi, "inside_band": bool(plo <= rate <= phi),
                         "consistent": bool(abs(rate - pred) <= Z95 * se)})  # fmt: skip
    return pd.DataFrame(rows)


# Seven features are tried on eight families: at |z| > 2 about three of those 56 tests would
# pass by chance alone. A feature helps only beyond the Bonferroni bound for them all (two-sided
# 5 % / 56: z 3.3) and with a better fit of the held-back panel.
Z_FEATURE = 3.3


def feature_table(df: pd.DataFrame, min_hands: int = 30) -> pd.DataFrame:
    """Whether a hand feature helps beside the double-dummy P(make), per family and feature:
    the curve refitted on the fit panel with the feature (standardised) as a third term, its
    coefficient with the cluster-robust z, and the change in mean log-likelihood per deal on
    the held-back panel against the curve without it (positive: the feature predicts the
    held-back deals better). A feature helps where both the z (beyond Z_FEATURE) and the
    held-back gain say so; the family's curve then takes it (:func:`curves`)."""
    rows = []
    d = _played(df)
    for family in FAMILIES:
        fit = d[(d["family"] == family) & (d["panel"] == "fit")]
        check = d[(d["family"] == family) & (d["panel"] == "check")]
        if fit["hand_id"].nunique() < min_hands or check.empty:
            continue
        if fit["sd_made"].min() == fit["sd_made"].max():
            continue  # nothing to explain: every deal made (or none)
        base_x = np.column_stack([np.ones(len(fit)), _logit(fit["p_dd"])])
        base_xc = np.column_stack([np.ones(len(check)), _logit(check["p_dd"])])
        base_beta, _ = fit_design(base_x, fit["sd_made"], fit["hand_id"])
        base_ll = log_likelihood(base_xc, base_beta, check["sd_made"])
        f_fit = hand_features(fit["mask"].to_numpy())
        f_check = hand_features(check["mask"].to_numpy())
        for name, values in f_fit.items():
            sd = values.std()
            if sd == 0:
                continue
            z_fit, z_check = (values - values.mean()) / sd, (f_check[name] - values.mean()) / sd
            beta, cov = fit_design(np.column_stack([base_x, z_fit]), fit["sd_made"], fit["hand_id"])
            ll = log_likelihood(np.column_stack([base_xc, z_check]), beta, check["sd_made"])
            se = math.sqrt(max(cov[2, 2], 0.0))
            rows.append({"family": family, "feature": name, "coef": float(beta[2]),
                         "z": float(beta[2] / se) if se > 0 else math.nan,
                         "check_gain": ll - base_ll, "fit_deals": len(fit),
                         "check_deals": len(check)})  # fmt: skip
    table = pd.DataFrame(rows)
    if not table.empty:
        table["helps"] = (table["z"].abs() > Z_FEATURE) & (table["check_gain"] > 0)
    return table


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
    df: pd.DataFrame,
    cfg: StudyConfig,
    p_range: tuple[float, float],
    path: pathlib.Path,
    run: dict | None = None,
) -> dict[str, pd.DataFrame]:
    """The study's tables (curves, held-back check, inference effect); writes the calibration
    document to ``path``. ``run`` overrides its provenance for a fit of a run still in
    progress (``key`` of the run, ``complete`` false, ``chunks_done`` of ``chunks``)."""
    features = feature_table(df)
    fits = curves(df, features)
    played = df[df["deal"] >= 0]
    check = check_table(df, fits, p_range)
    inference = inference_effect(df)
    doc = {
        "what": "real-play (single-dummy) calibration of double-dummy make-probabilities: "
        "P(real make) = 1 / (1 + exp(-(a + b logit(p_dd)))) per family (rikken study real_play)",
        "study": cfg.name,
        "key": cfg.key,
        "version": cfg.version,
        "complete": True,
        "seed": cfg["seed"],
        "hands": {p: int(df.loc[df["panel"] == p, "hand_id"].nunique()) for p in ("fit", "check")},
        "played_deals": int(len(played)),
        "samples": cfg["samples"],
        "decision_nodes": cfg["decision_nodes"],
        "dd_deals": cfg["dd_deals"],
        "deals_per_hand": cfg["deals_per_hand"],
        "p_range": list(p_range),
        "auction": "uncontested: North (forehand) bids, the others pass (book bidding model)",
        "families": fits,
        # the held-back panel and the inference's effect, for the report (records of floats)
        "check": json.loads(check.to_json(orient="records")),
        "inference": json.loads(inference.to_json(orient="records")),
        "features": json.loads(features.to_json(orient="records")),
    } | (run or {})
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
        "check": check,
        "inference": inference,
        "features": features,
    }


def finished_parts(parts_dir: pathlib.Path) -> tuple[pd.DataFrame, int]:
    """The verified parts of a run in progress (its cache folder) as one table, and how many
    there are; a part that fails verification is reported and left out."""
    from analyser.studies.cache import VerificationError, read_verified, report_failure

    frames = []
    for path in sorted(parts_dir.glob("part-*.parquet")):
        try:
            frames.append(read_verified(path)[0])
        except VerificationError as exc:
            report_failure(path, str(exc))
    return (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()), len(frames)
