"""Every shared statistic of the analyser, defined once: the 95 % quantile, the Wilson score
interval, paired and stratified estimates, cluster and normal intervals, and the
:class:`Estimate` of a make-probability.

The Wilson interval (Wilson 1927) is used rather than the normal approximation because it stays
inside [0, 1] and is sensible at 0 or n successes, which are common here (a certain solo, a
hopeless misère).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` for ``successes`` out of ``n`` trials.

    ``n == 0`` gives the uninformative ``(0.0, 1.0)``.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    # Clamp the rounding noise at the ends (0 or n successes give exactly 0 or 1).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def wilson_half_width(successes: int, n: int, z: float = Z95) -> float:
    """Half the width of the Wilson interval (the ``--precision`` criterion)."""
    low, high = wilson_interval(successes, n, z)
    return (high - low) / 2.0


def paired_gain_upper(a: np.ndarray, b: np.ndarray, z: float = Z95) -> float:
    """Upper end of a 95 % interval for ``P(a) - P(b)`` from paired yes/no answers on the same
    deals (1 made, 0 failed, -1 unknown; an unknown counts in ``a``'s favour).

    Only the discordant deals (one makes, the other fails) carry information on the
    difference: with ``m`` of them, ``g`` won by ``a``, the difference is ``(2 g - m) / n``,
    and its upper end takes the Wilson upper bound of ``g / m`` (McNemar's comparison,
    conditional on ``m``). With no discordant deal the upper end is 0: the two made on exactly
    the same deals.
    """
    if a.shape != b.shape:
        raise ValueError(f"paired answers need the same deals, got {a.shape} and {b.shape}")
    n = a.size
    if n == 0:
        return 1.0
    a_hi = a != 0
    b_lo = b == 1
    gain = int((a_hi & ~b_lo).sum())
    m = gain + int((b_lo & ~a_hi).sum())
    if m == 0:
        return 0.0
    return (2.0 * wilson_interval(gain, m, z)[1] - 1.0) * m / n


def stratified_mean(
    strata: np.ndarray, counted: np.ndarray, low: np.ndarray, high: np.ndarray, z: float = Z95
) -> tuple[float, float, float]:
    """Mean of a per-deal score over ``n`` deals, when the score is known only on a subsample
    (``counted``), and there possibly only as a range ``[low, high]``.

    The deals fall into strata (``strata``, ints; e.g. made / failed, known for every deal from
    cheaper questions). The estimate weights each stratum's mean over its counted deals by
    the stratum's share of all ``n`` deals (two-phase sampling for stratification: the first
    phase, all deals, gives the weights; the second, the counted deals, the means). Every
    non-empty stratum must have at least one counted deal.

    Returns ``(point, ci_low, ci_high)``: the estimate at the middle of each counted range,
    and a 95 % interval that covers both the ranges (from the means of ``low`` to those of
    ``high``) and the sampling error, whose variance is taken as
    ``s**2 / n + sum_h W_h**2 * s_h**2 * (1 / m_h - 1 / n_h)`` (``s``: the score's standard
    deviation over all deals, ``s_h`` within stratum h, ``n_h`` its deals, ``m_h`` its counted
    deals; the second term vanishes when every deal is counted, leaving the variance of a
    plain sample mean)."""
    strata = np.asarray(strata)
    counted = np.asarray(counted, dtype=bool)
    low = np.asarray(low, dtype=np.float64)
    high = np.asarray(high, dtype=np.float64)
    n = strata.size
    if n == 0:
        return 0.0, 0.0, 0.0
    mid = (low + high) / 2
    lo_mean = hi_mean = 0.0
    extra = 0.0
    parts = []
    for h in np.unique(strata):
        in_h = strata == h
        n_h = int(in_h.sum())
        sel = in_h & counted
        m_h = int(sel.sum())
        if m_h == 0:
            raise ValueError(f"stratum {h} has {n_h} deals but none counted")
        w = n_h / n
        lo_mean += w * float(low[sel].mean())
        hi_mean += w * float(high[sel].mean())
        mu = float(mid[sel].mean())
        var_h = float(mid[sel].var(ddof=1)) if m_h > 1 else 0.0
        parts.append((w, mu, var_h))
        extra += w * w * var_h * (1 / m_h - 1 / n_h)
    point = (lo_mean + hi_mean) / 2
    total_var = sum(w * (v + (mu - point) ** 2) for w, mu, v in parts)
    if n > 1:
        total_var *= n / (n - 1)
    sd = math.sqrt(max(total_var / n + extra, 0.0))
    return point, lo_mean - z * sd, hi_mean + z * sd


def mean_half_width(x: np.ndarray, z: float = Z95) -> float:
    """Half-width of the 95 % normal interval of the mean of ``x``: ``z`` times the sample
    standard deviation over the square root of the count (NaN for fewer than two values)."""
    x = np.asarray(x)
    if x.size < 2:
        return math.nan
    return z * float(x.std(ddof=1)) / math.sqrt(x.size)


def cluster_share(x: np.ndarray, n: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Share sum(x)/sum(n) over clusters (e.g. sequences of deals) with a 95% interval from the
    between-cluster variance of the ratio estimator (clusters of equal weight)."""
    x = np.asarray(x, float)
    n = np.asarray(n, float)
    k = x.size
    p = float(x.sum() / n.sum())
    if k < 2:
        return p, 0.0, 1.0
    resid = (x - p * n) / n.mean()
    se = math.sqrt(float((resid**2).sum()) / (k * (k - 1)))
    return p, max(0.0, p - z * se), min(1.0, p + z * se)


def cluster_interval(x: np.ndarray, n: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Share sum(x)/sum(n) of deals clustered within hands (``x`` made of ``n`` per hand) with a
    95 % interval: the cluster interval (:func:`cluster_share`, the spread between hands),
    never narrower than the Wilson interval of the pooled deals (which it is when the hands
    agree, and which is all there is with one hand or none made)."""
    x = np.asarray(x, float)
    n = np.asarray(n, float)
    keep = n > 0  # a hand without deals is no cluster
    x, n = x[keep], n[keep]
    if n.sum() <= 0:
        return math.nan, 0.0, 1.0
    w_lo, w_hi = wilson_interval(int(round(x.sum())), int(round(n.sum())), z)
    if n.size < 2:  # one hand: no spread between hands to measure, its deals' interval
        return float(x.sum() / n.sum()), w_lo, w_hi
    p, lo, hi = cluster_share(x, n, z)
    return p, min(lo, w_lo), max(hi, w_hi)


def with_interval(out: pd.DataFrame, made: str = "made", n: str = "deals") -> pd.DataFrame:
    """Add ``p``, ``lo``, ``hi`` (95 % Wilson) from integer columns ``made`` of ``n``."""
    out = out.copy()
    made_v = out[made].astype(int).to_numpy()
    n_v = out[n].astype(int).to_numpy()
    lo_hi = [wilson_interval(int(a), int(b)) for a, b in zip(made_v, n_v, strict=True)]
    out["p"] = np.where(n_v > 0, made_v / np.maximum(n_v, 1), np.nan)
    out["lo"] = [x[0] for x in lo_hi]
    out["hi"] = [x[1] for x in lo_hi]
    return out


@dataclass(frozen=True)
class Estimate:
    """``made`` successes out of ``n`` sampled deals, with its 95 % Wilson interval.

    ``unknown`` of the other deals were given up at the solver's node budget: each may be a
    success or not, so the proportion is a range, ``p_low`` (none of them made) to ``p_high``
    (all made), and the interval runs from the Wilson lower end of the first to the upper
    end of the second. With ``unknown == 0`` every figure is the plain estimate."""

    made: int
    n: int
    unknown: int = 0

    @classmethod
    def of_answers(cls, answers) -> Estimate:
        """The estimate of per-deal yes/no answers as the solver store gives them (numpy
        array: 1 made, 0 failed, -1 given up at the node budget)."""
        return cls(int((answers == 1).sum()), int(answers.size), int((answers < 0).sum()))

    @property
    def p_low(self) -> float:
        """The proportion when none of the unknown deals made (0 for an empty sample)."""
        return self.made / self.n if self.n else 0.0

    @property
    def p_high(self) -> float:
        """The proportion when all the unknown deals made."""
        return (self.made + self.unknown) / self.n if self.n else 0.0

    @property
    def p(self) -> float:
        """The sample proportion; with unknown deals the middle of its range."""
        return (self.p_low + self.p_high) / 2

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval (widened over the unknown deals)."""
        if not self.unknown:
            return wilson_interval(self.made, self.n)
        return wilson_interval(self.made, self.n)[0], wilson_interval(
            self.made + self.unknown, self.n
        )[1]

    @property
    def sampling_half_width(self) -> float:
        """The larger Wilson half-width of the range's two ends: the part of the interval
        more deals can shrink (the stopping criterion of adaptive sampling). The unknown
        deals' share does not shrink with more deals, so it is left out."""
        if not self.unknown:
            return wilson_half_width(self.made, self.n)
        return max(
            wilson_half_width(self.made, self.n),
            wilson_half_width(self.made + self.unknown, self.n),
        )

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        if not self.unknown:
            return wilson_half_width(self.made, self.n)
        low, high = self.interval
        return (high - low) / 2


def chi_square_homogeneity(counts: np.ndarray) -> tuple[float, int, float]:
    """Pearson's chi-square test that the rows of ``counts`` (a samples × categories table of
    counts) come from one distribution: ``(statistic, degrees of freedom, p-value)``.
    Categories empty in every row are dropped; the p-value is the upper tail of the
    chi-square distribution (regularised incomplete gamma, Numerical Recipes' series and
    continued fraction)."""
    table = np.asarray(counts, float)
    table = table[:, table.sum(axis=0) > 0]
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    stat = float(((table - expected) ** 2 / expected).sum())
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    return stat, dof, _upper_gamma(dof / 2, stat / 2) if dof else 1.0


def _upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma Q(a, x)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series of P(a, x) converges fast here
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction for Q(a, x)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(log_front)
