"""The guideline studies' cell figures: intervals that count hands as clusters of deals, and
the classifier verdicts restated under real play from the shipped calibration curve."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from analyser.analysis import play_curve
from analyser.stats import wilson_interval
from analyser.studies.common import pooled
from analyser.studies.verdicts import classifier_score


def _frame(rates_by_group: dict[str, list[int]], deals: int = 16) -> pd.DataFrame:
    rows, hid = [], 0
    for group, made in rates_by_group.items():
        for m in made:
            rows.append({"group": group, "hand_id": hid, "made": m, "deals": deals})
            hid += 1
    return pd.DataFrame(rows)


def test_pooled_intervals_widen_when_hands_disagree():
    df = _frame({"agree": [8, 8, 8, 8], "split": [0, 16, 0, 16]})
    out = pooled(df, "group").set_index("group")
    w_lo, w_hi = wilson_interval(32, 64)
    assert out.loc["agree", "p"] == out.loc["split", "p"] == 0.5
    # hands that agree: the Wilson interval of the deals (the cluster one is narrower)
    assert out.loc["agree", "lo"] == pytest.approx(w_lo)
    assert out.loc["agree", "hi"] == pytest.approx(w_hi)
    # all-or-nothing hands: four clusters, far wider than 64 independent deals would be
    assert out.loc["split", "lo"] < w_lo - 0.2 and out.loc["split", "hi"] > w_hi + 0.2
    assert (out["hands"] == 4).all() and (out["deals"] == 64).all()


def test_pooled_on_no_rows_is_an_empty_table_with_its_columns():
    empty = pd.DataFrame({"group": [], "hand_id": [], "made": [], "deals": []})
    out = pooled(empty, "group")
    assert out.empty and {"p", "lo", "hi", "hands", "deals", "made"} <= set(out.columns)


def test_pooled_keeps_groups_over_several_columns_and_one_hand_gets_its_wilson_interval():
    df = _frame({"a": [3, 5], "b": [16]}).assign(leader=["N", "E", "N"])
    df.loc[len(df)] = {"group": "b", "hand_id": 9, "made": 5, "deals": 16, "leader": np.nan}
    out = pooled(df, ["group", "leader"])
    assert len(out) == 4
    for r in out.itertuples():  # every group here is one hand: the Wilson interval of its deals
        assert (r.lo, r.hi) == pytest.approx(wilson_interval(int(r.made), int(r.deals)))


def _install(tmp_path, monkeypatch, families):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"seed": 1, "samples": 16, "families": families}))
    monkeypatch.setattr(play_curve, "DEFAULT_PATH", path)


def _flat(p, lo=0.15, hi=0.95, hands=100):
    return {
        "a": math.log(p / (1 - p)),
        "b": 0.0,
        "cov": [[1e-4, 0], [0, 0]],
        "p_dd_range": [lo, hi],
        "deals": 800,
        "hands": hands,
        "max_half_width": 0.02,
    }


def test_classifier_rows_carry_the_real_play_verdict(tmp_path, monkeypatch):
    _install(tmp_path, monkeypatch, {"rik": _flat(0.3)})
    made = np.array([8, 8, 16, 0])  # p_dd 0.5, 0.5 (in range) and 1.0, 0.0 (outside)
    deals = np.full(4, 16)
    says = np.array([True, True, True, False])
    rows = {
        r["says"]: r
        for r in classifier_score("s", "G", says, made, deals, contract="rik", seat="N forehand")
    }
    bid = rows["bid"]
    # the in-range hands count at the curve's 0.3, the certain one at its double-dummy 1.0
    assert bid["p_real"] == pytest.approx((0.3 * 16 * 2 + 16) / 48, abs=1e-3)
    assert bid["real_share"] == pytest.approx(2 / 3)
    assert bid["lo_real"] <= bid["p_real"] <= bid["hi_real"]
    assert rows["pass"]["p_real"] == 0.0 and rows["pass"]["real_share"] == 0.0
    # another leader, or a contract without a curve: no real-play figure
    other = classifier_score("s", "G", says, made, deals, contract="rik", seat="E leads")
    assert all(math.isnan(r["p_real"]) for r in other)
    solo = classifier_score("s", "G", says, made, deals, contract="alone_11", seat="N")
    assert all(math.isnan(r["p_real"]) for r in solo)


def test_a_curve_on_too_few_hands_gives_no_verdict(tmp_path, monkeypatch):
    _install(tmp_path, monkeypatch, {"rik": _flat(0.3, hands=play_curve.MIN_HANDS - 1)})
    rows = classifier_score(
        "s", "G", np.array([True]), np.array([8]), np.array([16]), contract="rik", seat="N"
    )
    assert math.isnan(rows[0]["p_real"])
