"""The verdict of a classifier guideline on a study's hands: of the hands it says to bid, the
share of deals made; of those it says to pass, the share that would have made; double-dummy,
and beside it under real play (the shipped single-dummy calibration curve).

Read by each study's ``classifiers`` (after the solve, so outside the study's cache key: a
change here or to the curves never re-solves a study).
"""

from __future__ import annotations

import numpy as np

from analyser.stats import cluster_interval


def classifier_score(
    study: str,
    gid: str,
    says_bid: np.ndarray,
    made: np.ndarray,
    deals: np.ndarray,
    masks: np.ndarray | None = None,
    **extra,
) -> list[dict]:
    """Rows scoring a classifier guideline: of the hands it says to bid, the share of deals
    made; of the hands it says to pass, the share that would have made (95 % cluster interval
    over the hands, :func:`analyser.stats.cluster_interval`). One entry of ``says_bid``,
    ``made`` and ``deals`` per hand (and choice). Double-dummy figures, and beside them the
    same verdict under real play (:func:`real_play_columns`; ``masks``, the hands, lets it
    keep the curve to hands of the family's design)."""
    says_bid = np.asarray(says_bid, dtype=bool)
    made = np.asarray(made, dtype=float)
    deals = np.asarray(deals, dtype=float)
    rows = []
    for verdict, sel in (("bid", says_bid), ("pass", ~says_bid)):
        m, n = int(made[sel].sum()), int(deals[sel].sum())
        p, lo, hi = cluster_interval(made[sel], deals[sel])
        rows.append(
            {
                "study": study,
                "guideline": gid,
                **extra,
                "says": verdict,
                "hands": int(sel.sum()),
                "deals": n,
                "made": m,
                "p": p,
                "lo": lo,
                "hi": hi,
                **real_play_columns(
                    made[sel],
                    deals[sel],
                    extra.get("contract"),
                    extra.get("seat"),
                    None if masks is None else np.asarray(masks)[sel],
                ),  # fmt: skip
            }
        )
    return rows


def real_play_columns(made, deals, contract: str | None, seat: str | None, masks=None) -> dict:
    """The classifier's figure under real play: each hand's double-dummy rate ``made / deals``
    mapped through the shipped real-play curve of its family (:mod:`analyser.analysis.
    play_curve`) where it lies in the curve's range, its double-dummy rate elsewhere (the
    curve says nothing there), pooled over the deals with a cluster interval (the curve's own
    band is not added: it is reported with the calibration). ``real_share``: the share of the
    deals whose hand the curve covered. NaN where no curve applies: a contract the
    calibration does not play, or a seat other than North's (it calibrated North bidding
    first and leading)."""
    from analyser.analysis import play_curve

    family = _family_of(contract)
    cal = play_curve.load() if family is not None else None
    curve = cal.families.get(family) if cal is not None else None
    nan = {"p_real": np.nan, "lo_real": np.nan, "hi_real": np.nan, "real_share": np.nan}
    if curve is None or curve.hands < play_curve.MIN_HANDS or not str(seat).startswith("N"):
        return nan
    made, deals = np.asarray(made, float), np.asarray(deals, float)
    keep = deals > 0
    made, deals = made[keep], deals[keep]
    if deals.sum() == 0:
        return nan
    p_dd = made / deals
    lo_p, hi_p = curve.p_range
    inside = (p_dd >= lo_p) & (p_dd <= hi_p)
    if masks is not None:  # hands outside the family's design: the curve says nothing
        from analyser.analysis.play_panel import in_design

        inside &= in_design(family, np.asarray(masks, dtype=np.int64)[keep])
    if curve.feature is not None:
        # the curve needs each hand's feature: without the hands, or outside the values
        # the calibration's hands had, it says nothing
        if masks is None:
            return nan
        x = curve.features_of(np.asarray(masks, dtype=np.int64)[keep])
        inside &= curve.calibrated(x)
    real = p_dd.copy()
    for i in np.flatnonzero(inside):
        real[i] = curve.at(float(p_dd[i]), None if curve.feature is None else x[i])[0]
    p, lo, hi = cluster_interval(real * deals, deals)
    share = float(deals[inside].sum() / deals.sum())
    return {"p_real": p, "lo_real": lo, "hi_real": hi, "real_share": share}


def _family_of(contract: str | None) -> str | None:
    """The calibration family of a classifier row's contract label."""
    text = str(contract or "")
    if text.startswith("rik"):
        return "rik"
    if text in ("alone_7", "alone_8", "alone_9"):
        return "alone"
    if text in ("misere", "open_misere", "piek"):
        return text
    return None
