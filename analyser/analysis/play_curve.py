"""The real-play curve of a contract family: the single-dummy make rate as a logistic function
of the hand's double-dummy make-probability, ``P(real) = 1 / (1 + exp(-(a + b logit(p_dd))))``.

:func:`fit_curve` fits it to played deals (maximum likelihood, cluster-robust covariance:
deals are clustered within hands); :func:`curve_at` evaluates it with its 95 % band. Study 13
(:mod:`analyser.studies.real_play`) fits one curve per family and ships them in
``data/real_play_calibration.json``; the analysis reads that file to turn a double-dummy
P(make) into the real-play headline.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.stats import Z95


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
    fit = _logistic(p_dd, made, cluster, slope=True)
    if fit["b"] < 0:
        fit = _logistic(p_dd, made, cluster, slope=False)
    return fit


def _logistic(p_dd, made, cluster, slope: bool) -> dict:
    x = np.column_stack([np.ones(len(p_dd)), _logit(p_dd)])
    if not slope:
        x = x[:, :1]
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
    bread = np.linalg.inv(x.T @ (x * (mu * (1 - mu))[:, None]))
    scores = pd.DataFrame(x * (y - mu)[:, None]).groupby(np.asarray(cluster)).sum().to_numpy()
    g = len(scores)
    meat = scores.T @ scores * (g / max(g - 1, 1))
    cov = bread @ meat @ bread
    if not slope:  # the flat curve: b fixed at 0, no variance of its own
        cov = np.array([[cov[0, 0], 0.0], [0.0, 0.0]])
        beta = np.array([beta[0], 0.0])
    return {"a": float(beta[0]), "b": float(beta[1]), "cov": cov.tolist(), "clusters": g,
            "flat": not slope}  # fmt: skip


def curve_at(fit: dict, p: np.ndarray, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The curve and its 95 % band at double-dummy probabilities ``p``."""
    x = np.column_stack([np.ones(np.size(p)), _logit(p)])
    eta = x @ np.array([fit["a"], fit["b"]])
    se = np.sqrt(np.einsum("ij,jk,ik->i", x, np.asarray(fit["cov"]), x))

    def expit(v):
        return 1 / (1 + np.exp(-v))

    return expit(eta), expit(eta - z * se), expit(eta + z * se)
