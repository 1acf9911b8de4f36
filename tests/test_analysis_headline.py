"""`rikken analyse` puts the estimated real play first (the double-dummy P(make) through the
real-play calibration's curve), the double-dummy figure beside it, recommends on it, and falls
back to double-dummy, visibly, where the calibration does not apply."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from analyser.analysis import play_curve
from analyser.analysis.bids import BidSpec
from analyser.analysis.headline import outcome_scores
from analyser.analysis.play_panel import family_of, in_design
from analyser.analysis.results import BidResult
from analyser.cards import cards_to_mask
from analyser.cli import main
from analyser.notation import parse_hand
from analyser.rules.contracts import Contract
from analyser.stats import Estimate

RIK_HAND = "♠AHV1098 ♥104 ♦A10 ♣752"  # rik certain double-dummy; book count 7: alone's design


def _curve(a, b, deals=2000, hands=250, lo=0.0, hi=1.0, var=1e-4):
    return {"a": a, "b": b, "cov": [[var, 0.0], [0.0, var]], "p_dd_range": [lo, hi],
            "deals": deals, "hands": hands, "max_half_width": 0.04}  # fmt: skip


def _write(path, families, **extra):
    doc = {"seed": 7, "samples": 16, "key": "k", "version": "v", "families": families} | extra
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def calibration(tmp_path, monkeypatch):
    """A calibration whose rik curve is steep and whose alone curve is flat at 0.1."""

    def install(families, **extra):
        path = _write(tmp_path / f"cal{len(list(tmp_path.iterdir()))}.json", families, **extra)
        monkeypatch.setattr(play_curve, "DEFAULT_PATH", path)
        return path

    return install


def _analyse(*extra: str):
    args = ["analyse", RIK_HAND, "--deals", "20", "--seed", "11", *extra]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


def _bids(*extra: str) -> tuple[dict, dict]:
    d = json.loads(_analyse("--format", "json", *extra))
    return d, {b["contract"]: b for b in d["bids"]}


def _expit(x):
    return 1 / (1 + math.exp(-x))


def test_the_headline_is_the_curve_at_the_double_dummy_figure(calibration):
    calibration({"rik": _curve(-1.0, 1.0), "alone": _curve(math.log(0.1 / 0.9), 0.0)})
    d, bids = _bids()
    assert d["play"] == "real-play"
    rik = bids["rik"]
    assert rik["estimate"] == "real-play" and rik["real_play_note"] is None
    p_dd = rik["p_make_dd"]
    logit = math.log(min(max(p_dd, 1e-3), 1 - 1e-3) / (1 - min(max(p_dd, 1e-3), 1 - 1e-3)))
    assert rik["p_make"] == pytest.approx(_expit(-1.0 + logit), abs=1e-4)
    assert rik["ci_low"] <= rik["p_make"] <= rik["ci_high"]
    assert rik["p_make_real_est"] == rik["p_make"]
    # the flat alone curve: 0.1 whatever the double-dummy figure
    alone = bids["alone_7"]
    assert alone["estimate"] == "real-play" and alone["p_make"] == pytest.approx(0.1, abs=1e-3)
    assert alone["p_make_dd"] > 0.3
    # E[score] weighs the made and failed scores by the real-play P(make)
    assert alone["expected_score"] < alone["expected_score_dd"]
    fams = d["real_play_calibration"]["families"]
    assert fams["rik"] == {"deals": 2000, "hands": 250, "max_half_width": 0.04, "feature": None}


def _feature_curve(a, b, c, values, var=1e-4):
    cov = [[var, 0.0, 0.0], [0.0, var, 0.0], [0.0, 0.0, var]]
    return _curve(a, b) | {"cov": cov, "feature": "hcp", "c": c, "feature_values": values}


def test_a_curve_with_a_hand_feature_uses_the_hands_value(calibration):
    # RIK_HAND has 13 high-card points: the curve adds c * 13 to its logit
    calibration({"rik": _feature_curve(-1.0, 1.0, 0.1, [10.0, 20.0])})
    d, bids = _bids()
    rik = bids["rik"]
    p_dd = min(max(rik["p_make_dd"], 1e-3), 1 - 1e-3)
    assert rik["estimate"] == "real-play"
    assert rik["p_make"] == pytest.approx(
        _expit(-1.0 + math.log(p_dd / (1 - p_dd)) + 1.3), abs=1e-4
    )
    assert d["real_play_calibration"]["families"]["rik"]["feature"] == "hcp"
    assert "also by the hand's high-card points" in _analyse()


def test_a_hand_outside_the_features_values_falls_back(calibration):
    calibration({"rik": _feature_curve(-1.0, 1.0, 0.1, [0.0, 5.0])})
    _, bids = _bids()
    rik = bids["rik"]
    assert rik["estimate"] == "double-dummy" and rik["p_make"] == rik["p_make_dd"]
    assert "high-card points is 13, outside the calibrated values 0-5" in rik["real_play_note"]


def test_a_bid_the_calibration_does_not_cover_falls_back_visibly(calibration):
    calibration({"rik": _curve(-1.0, 1.0, lo=0.15, hi=0.95), "alone": _curve(0.0, 1.0, hands=5)})
    _, bids = _bids()
    for cid, why in (
        ("rik", "outside the calibrated range 15-95%"),  # P(make) double-dummy 1.0
        ("alone_7", "5 hands"),
        ("alone_11", "no real-play calibration for this bid"),
        ("solo", "outside the solo panel"),
        ("open_misere_praatje", "praatje play is double-dummy"),
    ):
        b = bids[cid]
        assert b["estimate"] == "double-dummy", cid
        assert why in b["real_play_note"], (cid, b["real_play_note"])
        assert b["p_make"] == b["p_make_dd"] and b["p_make_real_est"] is None
    text = _analyse()
    assert "double-dummy figures for rik: " in text and " est " in text and "DD %" in text


def test_without_the_file_every_bid_is_double_dummy_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(play_curve, "DEFAULT_PATH", tmp_path / "missing.json")
    d, bids = _bids()
    assert d["real_play_calibration"] is None
    assert all(b["estimate"] == "double-dummy" for b in bids.values())
    assert "no real-play calibration file" in bids["rik"]["real_play_note"]


def test_play_double_dummy_is_the_old_table(calibration):
    calibration({"rik": _curve(-1.0, 1.0)})
    d, bids = _bids("--play", "double-dummy")
    assert d["play"] == "double-dummy" and d["real_play_calibration"] is None
    assert all(
        b["estimate"] == "double-dummy" and b["real_play_note"] is None for b in bids.values()
    )
    text = _analyse("--play", "double-dummy")
    assert "DD %" not in text and "est real" not in text


def test_the_recommendation_weighs_the_real_play_score(calibration):
    # rik is certain double-dummy; a curve at 1% real play makes it a losing bid
    d_dd = json.loads(_analyse("--format", "json", "--play", "double-dummy"))
    assert d_dd["recommended_opening"] == "rik"
    low = math.log(0.01 / 0.99)
    calibration({f: _curve(low, 0.0) for f in ("rik", "alone", "misere", "piek", "open_misere")})
    d = json.loads(_analyse("--format", "json"))
    assert d["recommended_opening"] == "pass"
    assert "recommended opening bid:  pass" in _analyse()


def test_auction_refuses_a_real_play_headline():
    result = CliRunner().invoke(
        main, ["analyse", RIK_HAND, "--auction", "", "--play", "real-play", "--deals", "5"]
    )
    assert result.exit_code == 2 and "--auction weighs the calls double-dummy" in result.output


def test_the_range_carries_the_double_dummy_interval(tmp_path):
    cal = play_curve.load(_write(tmp_path / "c.json", {"rik": _curve(0.0, 1.0, var=0.01)}))
    p, lo, hi = cal.estimate("rik", 0.5, 0.3, 0.7)
    mid, blo, bhi = cal.families["rik"].at(0.5)
    assert p == pytest.approx(mid) and lo < blo and hi > bhi
    assert isinstance(cal.estimate("piek", 0.5, 0.4, 0.6), str)


def test_a_damaged_file_is_no_calibration(tmp_path):
    path = _write(tmp_path / "c.json", {"rik": _curve(0.0, 1.0)})
    assert play_curve.load(path) is not None
    bad = tmp_path / "bad.json"
    bad.write_text(path.read_text().replace('"b": 1.0', '"b": -1.0'))
    assert play_curve.load(bad) is None  # a falling curve is refused
    bad2 = tmp_path / "bad2.json"
    bad2.write_text(path.read_text()[:-5])
    assert play_curve.load(bad2) is None


def test_outcome_scores_split_the_trick_distribution():
    spec = BidSpec(Contract("rik"), "rik", 1, (0,), 1, 8, tuple(range(-13, 1)), "exact", "")
    hist = [0] * 14
    hist[6], hist[9] = 1, 3  # one failed deal at 6 tricks, three made at 9
    b = BidResult(spec, 0, None, Estimate.of_answers(np.array([1, 1, 1, 0])), 0.0, hist)
    made, failed = outcome_scores(b)
    assert made == spec.scores[9] and failed == spec.scores[6]
    b.tricks_hist = None
    assert outcome_scores(b) == (spec.scores[8], spec.scores[7])


def test_family_of_contracts_and_designs():
    assert family_of(Contract("rik")) == "rik"
    assert family_of(Contract("rik", beter=True)) == "beter_rik"
    assert family_of(Contract("alone", 8)) == "alone"
    assert family_of(Contract("alone", 11)) is None
    assert family_of(Contract("open_piek")) is None
    rik = cards_to_mask(parse_hand(RIK_HAND))
    low = cards_to_mask(parse_hand("♠5432 ♥432 ♦432 ♣432"))
    assert list(in_design("alone", np.array([rik, low]))) == [True, False]
    assert list(in_design("solo", np.array([rik]))) == [False]
    assert list(in_design("misere", np.array([rik, low]))) == [True, True]


def test_misere_shows_the_real_play_headline(calibration):
    calibration({"misere": _curve(math.log(0.8 / 0.2), 0.0), "open_misere": _curve(0.0, 1.0)})
    args = ["misere", "♠2 ♥9742 ♦8532 ♣6432", "--deals", "20", "--seed", "3", "--explain", "0"]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    rows = {r["contract"]: r for r in d["contracts"]}
    assert d["play"] == "real-play" and "misere" in d["real_play_calibration"]["families"]
    closed = rows["misere"]
    assert closed["estimate"] == "real-play" and closed["p_make"] == pytest.approx(0.8, abs=1e-3)
    # misère scores are fixed: E[score] is linear in the headline P(make)
    win, lose = 9, -9  # the book's closed misère table (R-SCORE)
    assert closed["expected_score"] == pytest.approx(0.8 * win + 0.2 * lose, abs=0.01)
    assert rows["open_misere_praatje"]["estimate"] == "double-dummy"
    assert "praatje" in rows["open_misere_praatje"]["real_play_note"]
    dd = json.loads(
        CliRunner().invoke(main, [*args, "--format", "json", "--play", "double-dummy"]).output
    )
    assert all(r["estimate"] == "double-dummy" for r in dd["contracts"])
    assert dd["real_play_calibration"] is None
    assert [r["p_make"] for r in dd["contracts"]] == [r["p_make_dd"] for r in d["contracts"]]
    text = CliRunner().invoke(main, args).output
    assert " est " in text and "DD %" in text and "curve on 2000 deals of 250 hands" in text
