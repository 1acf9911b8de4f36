"""The single-dummy calibration of double-dummy make-probabilities: what the study measures
(:mod:`analyser.studies.single_dummy`) and ``rikken analyse`` applies
(:mod:`analyser.analysis.real_play`), defined once for both.

* :func:`qualifies` — the filter of each family's panel: the kind of hand the calibration
  was measured on (and the only kind it is applied to);
* :func:`calibration_row` — one family's ``a = P(SD make | DD make)`` and ``b = P(SD make |
  DD fail)`` with their 95 % Wilson intervals, from the paired counts;
* :func:`real_play` — the map of a DD make-probability ``P`` to the estimated real-play
  ``P·a + (1-P)·b``.

The guidelines are imported by :func:`qualifies` when first called, so that ``rikken analyse``
loads them only when it shows an estimate.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from analyser.cards import HEARTS
from analyser.stats import wilson_interval

ALONE_LEVELS = range(7, 10)  # the alone family: book counts 7..9, each bid at its count
SOLO_COUNT = 13
MISERE_MAX_HOLES = 3  # (ours) as Study 7: red-flag-free hands with more holes nearly all fail


@functools.cache
def _hearts_rik() -> np.ndarray:
    """Per hearts holding: whether it passes G-RIK-01 as the trump suit (beter rik)."""
    from analyser.guidelines.rik import rik_ok_suit
    from analyser.guidelines.vocab import suit_table

    return suit_table(rik_ok_suit, bool)


def qualifies(family: str, masks: np.ndarray) -> np.ndarray:
    """Which of ``masks`` are plausible bids of ``family``: the filter of the study's panel
    (module docstring of :mod:`analyser.studies.single_dummy`, its table)."""
    from analyser.guidelines import (
        alone_ok,
        book_count,
        hole_count,
        misere_ok,
        open_misere_ok,
        piek_ok,
        rik_ok,
    )
    from analyser.guidelines.hand import mask_holdings

    masks = np.asarray(masks, dtype=np.int64)
    if family == "rik":
        return np.asarray(rik_ok.many(masks), dtype=bool)
    if family == "beter_rik":
        return _hearts_rik()[mask_holdings(masks)[:, HEARTS]]
    if family == "alone":
        count = np.asarray(book_count.many(masks))
        ok = np.zeros(masks.size, dtype=bool)
        for k in ALONE_LEVELS:
            ok |= (count == k) & np.asarray(alone_ok.many(masks, k), dtype=bool)
        return ok
    if family == "solo":
        return np.asarray(book_count.many(masks)) >= SOLO_COUNT
    if family == "misere":
        ok = np.asarray(misere_ok.many(masks), dtype=bool)
        return ok & (np.asarray(hole_count.many(masks)) <= MISERE_MAX_HOLES)
    if family == "open_misere":
        return np.asarray(open_misere_ok.many(masks), dtype=bool)
    if family == "piek":
        return np.asarray(piek_ok.many(masks), dtype=bool)
    if family == "malheur":
        return np.ones(masks.size, dtype=bool)
    raise ValueError(f"unknown family {family!r}")


def calibration_row(
    label: str,
    n11: int,
    n10: int,
    n01: int,
    n00: int,
    fallback: tuple[int, int, int, int] | None = None,
) -> dict:
    """One family's calibration from its paired counts (``n11`` both made, ``n10`` DD only,
    ``n01`` SD only, ``n00`` neither).

    ``a`` is over the deals DD makes, ``b`` over those it fails. A condition without deals
    takes its counts from ``fallback`` (the group's paired counts; ``a_from``/``b_from`` =
    ``"group"``); with none there either, it has no point estimate (NaN) and the interval
    0..1. A real player cannot make a contract more often because DD says it fails, so the
    map is kept monotone: when the counts give ``a < b`` both become their pooled rate
    (``pooled`` true)."""
    n_a, n_b = n11 + n10, n01 + n00
    k_a, k_b = n11, n01
    src_a = src_b = "family"
    if n_a == 0 and fallback is not None:
        k_a, n_a, src_a = fallback[0], fallback[0] + fallback[1], "group"
    if n_b == 0 and fallback is not None:
        k_b, n_b, src_b = fallback[2], fallback[2] + fallback[3], "group"
    a = k_a / n_a if n_a else math.nan
    b = k_b / n_b if n_b else math.nan
    pooled = bool(n_a and n_b and a < b)
    if pooled:
        k_a = k_b = k_a + k_b
        n_a = n_b = n_a + n_b
        a = b = k_a / n_a
    a_lo, a_hi = wilson_interval(k_a, n_a)
    b_lo, b_hi = wilson_interval(k_b, n_b)
    return {
        "family": label,
        "dd_made": n11 + n10,
        "sd_given_dd_made": n11,
        "dd_failed": n01 + n00,
        "sd_given_dd_failed": n01,
        "a": a,
        "a_lo": a_lo,
        "a_hi": a_hi,
        "a_from": src_a,
        "b": b,
        "b_lo": b_lo,
        "b_hi": b_hi,
        "b_from": src_b,
        "pooled": pooled,
    }


def real_play(p_dd: float, cal: dict) -> tuple[float, float, float]:
    """``(p, lo, hi)``: the estimated real-play (single-dummy) make-probability of a contract
    whose DD make-probability is ``p_dd``, from one family's calibration row (a dict with
    ``a``, ``a_lo``, ``a_hi``, ``b``, ``b_lo``, ``b_hi``): ``p = P·a + (1-P)·b``. The interval
    combines the ends of both intervals (``P·a_lo + (1-P)·b_lo`` .. ``P·a_hi + (1-P)·b_hi``),
    a conservative 95 % range. With no deals in a condition its rate is unknown: the point
    estimate uses the middle of 0..1 for it, and the interval spans that term's 0..1."""
    p = min(1.0, max(0.0, float(p_dd)))

    def point(x: str) -> float:
        v = float(cal[x])
        return 0.5 * (float(cal[f"{x}_lo"]) + float(cal[f"{x}_hi"])) if math.isnan(v) else v

    est = p * point("a") + (1 - p) * point("b")
    lo = p * float(cal["a_lo"]) + (1 - p) * float(cal["b_lo"])
    hi = p * float(cal["a_hi"]) + (1 - p) * float(cal["b_hi"])
    return est, lo, hi
