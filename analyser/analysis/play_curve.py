"""The real-play curve of a contract family: the single-dummy make rate as a logistic function
of the hand's double-dummy make-probability, ``P(real) = 1 / (1 + exp(-(a + b logit(p_dd))))``,
and, for a family where a hand feature was measured to help (Study 13's feature table), of
that feature too: ``a + b logit(p_dd) + c x`` with ``x`` the hand's value of the feature
(:func:`analyser.analysis.play_panel.hand_features`).

:func:`fit_curve` fits it to played deals (maximum likelihood, cluster-robust covariance:
deals are clustered within hands); :func:`curve_at` evaluates it with its 95 % band. Study 13
(:mod:`analyser.studies.real_play`) fits one curve per family and ships them in
``data/real_play/real_play_calibration.json``; :func:`load` reads that file and
:meth:`Calibration.estimate` turns a double-dummy P(make) into the real-play headline.
"""

from __future__ import annotations

import functools
import json
import math
import pathlib
from dataclasses import dataclass

import numpy as np

from analyser.resources import shipped_file
from analyser.stats import Z95

# the checkout's data/ folder, or its copy inside an installed wheel (analyser/resources.py)
DEFAULT_PATH = shipped_file("data", "real_play/real_play_calibration.json")
MIN_HANDS = 30
"""Fewest hands a family's curve needs before the analysis uses it: the band's covariance is
estimated from the spread between hands (clusters), unreliable on a handful of them."""


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, float), 1e-3, 1 - 1e-3)
    return np.log(p / (1 - p))


def fit_curve(p_dd: np.ndarray, made: np.ndarray, cluster: np.ndarray) -> dict:
    """Maximum-likelihood logistic fit of ``made`` (0/1) on ``logit(p_dd)`` (Newton's method)
    with the cluster-robust (sandwich) covariance of ``(a, b)``, clusters = ``cluster``.

    The curve may not fall: a hand that makes more often double-dummy cannot make less often
    in real play on average, so a fit whose slope comes out negative (noise, or a family whose
    real-play rate does not depend on p_dd) is replaced by the flat curve at the pooled rate
    (``b = 0``, ``flat`` true; the intercept's variance from the clusters)."""
    made = np.asarray(made, float)
    if made.min() == made.max():
        return _separated(made, cluster)
    fit = _logistic(p_dd, made, cluster, slope=True)
    if fit["b"] < 0:
        fit = _logistic(p_dd, made, cluster, slope=False)
    return fit


def _separated(made: np.ndarray, cluster: np.ndarray) -> dict:
    """Every deal made (or none): the likelihood has no maximum (the curve runs off to 1 or 0)
    and the clusters show no spread. The flat curve at ``(made + 1/2) / (deals + 1)`` instead,
    with the variance of its logit as if each hand were one binomial draw (hands, not deals:
    the clusters), so the band stays honest about how little a few agreeing hands show."""
    g = len(np.unique(np.asarray(cluster)))
    p = (made.sum() + 0.5) / (made.size + 1)
    var = 1 / ((g + 1) * p * (1 - p))
    return {"a": float(np.log(p / (1 - p))), "b": 0.0, "cov": [[var, 0.0], [0.0, 0.0]],
            "clusters": g, "flat": True}  # fmt: skip


def _logistic(p_dd, made, cluster, slope: bool) -> dict:
    x = np.column_stack([np.ones(len(p_dd)), _logit(p_dd)])
    if not slope:
        x = x[:, :1]
    beta, cov = fit_design(x, made, cluster)
    g = len(np.unique(np.asarray(cluster)))
    if not slope:  # the flat curve: b fixed at 0, no variance of its own
        cov = np.array([[cov[0, 0], 0.0], [0.0, 0.0]])
        beta = np.array([beta[0], 0.0])
    return {"a": float(beta[0]), "b": float(beta[1]), "cov": cov.tolist(), "clusters": g,
            "flat": not slope}  # fmt: skip


def fit_design(x: np.ndarray, made, cluster) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood logistic regression of ``made`` (0/1) on the columns of ``x``
    (Newton's method) and the cluster-robust (sandwich) covariance of the coefficients,
    clusters = ``cluster`` (with the small-sample factor g / (g - 1))."""
    import pandas as pd  # the fit only (the analysis reads the curves without pandas)

    y = np.asarray(made, float)
    k = x.shape[1]
    beta = np.zeros(k)
    for _ in range(50):
        mu = 1 / (1 + np.exp(-(x @ beta)))
        w = mu * (1 - mu)
        h = x.T @ (x * w[:, None])
        step = np.linalg.solve(h + 1e-9 * np.eye(k), x.T @ (y - mu))
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    mu = 1 / (1 + np.exp(-(x @ beta)))
    bread = np.linalg.pinv(x.T @ (x * (mu * (1 - mu))[:, None]))
    scores = pd.DataFrame(x * (y - mu)[:, None]).groupby(np.asarray(cluster)).sum().to_numpy()
    g = len(scores)
    meat = scores.T @ scores * (g / max(g - 1, 1))
    return beta, bread @ meat @ bread


def log_likelihood(x: np.ndarray, beta: np.ndarray, made) -> float:
    """The mean log-likelihood per deal of ``made`` under the logistic model ``x @ beta``
    (probabilities kept within 1e-6 of 0 and 1)."""
    mu = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-6, 1 - 1e-6)
    y = np.asarray(made, float)
    return float(np.mean(y * np.log(mu) + (1 - y) * np.log(1 - mu)))


def curve_at(
    fit: dict, p: np.ndarray, z: float = Z95, x: np.ndarray | float | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The curve and its 95 % band at double-dummy probabilities ``p`` (and, for a curve with
    a feature, the hands' feature values ``x``: one per ``p``, or one for all)."""
    cols = [np.ones(np.size(p)), _logit(p)]
    coef = [fit["a"], fit["b"]]
    if fit.get("feature"):
        if x is None:
            raise ValueError(f"the curve uses the hand feature {fit['feature']}: give its values")
        cols.append(np.broadcast_to(np.asarray(x, float), np.shape(cols[0])))
        coef.append(fit["c"])
    x = np.column_stack(cols)
    eta = x @ np.array(coef)
    se = np.sqrt(np.einsum("ij,jk,ik->i", x, np.asarray(fit["cov"]), x))

    def expit(v):
        return 1 / (1 + np.exp(-v))

    return expit(eta), expit(eta - z * se), expit(eta + z * se)


@dataclass(frozen=True)
class FamilyCurve:
    """One family's fitted curve: coefficients, their covariance, the range of double-dummy
    P(make) its panel covered, the deals and hands behind it and its widest band half-width;
    for a curve with a hand feature, its name, coefficient ``c`` and the values the panel's
    hands had (the curve says nothing for a hand outside them)."""

    a: float
    b: float
    cov: tuple[tuple[float, ...], ...]
    p_range: tuple[float, float]
    deals: int
    hands: int
    max_half_width: float
    feature: str | None = None
    c: float = 0.0
    feature_values: tuple[float, ...] = ()

    def at(self, p: float, x: float | None = None) -> tuple[float, float, float]:
        """The curve and its 95 % band at one double-dummy P(make) (and feature value ``x``,
        required for a curve with a feature)."""
        fit = {"a": self.a, "b": self.b, "cov": self.cov, "feature": self.feature, "c": self.c}
        mid, lo, hi = curve_at(fit, np.array([p]), x=x)
        return float(mid[0]), float(lo[0]), float(hi[0])

    def features_of(self, masks) -> np.ndarray | None:
        """Each hand's value of the curve's feature, per hand mask (None for a curve without
        one)."""
        if self.feature is None:
            return None
        from analyser.analysis.play_panel import hand_features  # the guidelines: heavy

        return hand_features(np.asarray(masks, dtype=np.int64).reshape(-1))[self.feature]

    def calibrated(self, x: np.ndarray) -> np.ndarray:
        """Per feature value, whether it lies among the values the curve calibrates."""
        values = self.feature_values
        x = np.asarray(x, float)
        if not values:
            return np.zeros(x.shape, bool)
        return (x >= min(values)) & (x <= max(values))


@dataclass(frozen=True)
class Calibration:
    """The shipped curves (per family key: ``rik``, ``beter_rik``, ``alone``, ``solo``,
    ``misere``, ``open_misere``, ``piek``, ``malheur``) and where they came from."""

    families: dict[str, FamilyCurve]
    provenance: dict
    path: pathlib.Path

    def estimate(
        self, family: str | None, p_dd: float, low: float, high: float, mask: int | None = None
    ) -> tuple[float, float, float] | str:
        """``(p, lo, hi)``: the real-play P(make) of a hand (bit ``mask``, needed by a curve
        with a hand feature) whose double-dummy estimate is ``p_dd`` with 95 % interval
        ``low``..``high``; or, where the curve does not apply, the reason in words. The point
        maps ``p_dd``; the range runs from the band's low end at ``low`` to its high end at
        ``high`` (the curve never falls), so it carries both the calibration's and the
        sample's uncertainty."""
        curve = self.families.get(family or "")
        if curve is None:
            return "no real-play calibration for this bid"
        if curve.hands < MIN_HANDS:
            return (
                f"the calibration has {curve.hands} hands for it so far (at least {MIN_HANDS} "
                "needed: its band counts hands as clusters)"
            )
        lo_p, hi_p = curve.p_range
        if math.isnan(p_dd) or not lo_p <= p_dd <= hi_p:
            return (
                f"double-dummy P(make) outside the calibrated range {100 * lo_p:.0f}-"
                f"{100 * hi_p:.0f}%"
            )
        x = None
        if curve.feature is not None:
            from analyser.analysis.play_panel import FEATURE_LABELS

            label = FEATURE_LABELS.get(curve.feature, curve.feature)
            if mask is None:
                return f"the curve needs the hand's {label}"
            x = float(curve.features_of([mask])[0])
            values = curve.feature_values
            if not curve.calibrated(x):
                return (
                    f"the hand's {label} is {x:g}, outside the calibrated values "
                    f"{min(values):g}-{max(values):g}"
                )
        mid = curve.at(p_dd, x)[0]
        return mid, curve.at(max(low, 0.0), x)[1], curve.at(min(high, 1.0), x)[2]

    def summary(self) -> dict:
        """Per family the deals played, the hands, the widest 95 % half-width of its band
        and the hand feature the curve uses beside the double-dummy P(make) (None: none)."""
        return {
            f: {
                "deals": c.deals,
                "hands": c.hands,
                "max_half_width": round(c.max_half_width, 4),
                "feature": c.feature,
            }  # fmt: skip
            for f, c in self.families.items()
        }


def load(path: str | pathlib.Path | None = None) -> Calibration | None:
    """The calibration file (default :data:`DEFAULT_PATH`); None if it is missing or does not
    read as one (the analysis then falls back to double-dummy, and says so)."""
    return _load(str(path or DEFAULT_PATH))


@functools.cache
def _load(path: str) -> Calibration | None:
    p = pathlib.Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
        families = {}
        for name, row in doc["families"].items():
            cov = tuple(tuple(float(x) for x in r) for r in row["cov"])
            feature = row.get("feature") or None
            curve = FamilyCurve(
                float(row["a"]), float(row["b"]), cov,
                (float(row["p_dd_range"][0]), float(row["p_dd_range"][1])),
                int(row["deals"]), int(row["hands"]), float(row["max_half_width"]),
                None if feature is None else str(feature), float(row.get("c", 0.0)),
                tuple(float(v) for v in row.get("feature_values", ())),
            )  # fmt: skip
            numbers = (curve.a, curve.b, curve.c, *curve.p_range, curve.max_half_width,
                       *sum(cov, ()), *curve.feature_values)  # fmt: skip
            size = 2 if feature is None else 3
            if (
                len(cov) != size
                or any(len(r) != size for r in cov)
                or not all(math.isfinite(x) for x in numbers)
                or curve.b < 0
                or (feature is not None and not curve.feature_values)
            ):
                return None
            families[str(name)] = curve
        provenance = {k: v for k, v in doc.items() if k != "families"}
        return Calibration(families, provenance, p)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
