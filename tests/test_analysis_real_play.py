"""`rikken analyse` shows the estimated real play from the single-dummy calibration file, and
nothing extra without it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyser.analysis import real_play
from analyser.analysis.calibration import calibration_row
from analyser.cli import main
from analyser.rules.contracts import Contract

RIK_HAND = "♠AHV1098 ♥104 ♦A10 ♣752"  # meets G-RIK-01 in spades; no misère hand


def _write(path, families):
    doc = {"seed": 1, "samples": 8, "deals": 40, "key": "x", "families": families}
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture
def calibrated(tmp_path, monkeypatch):
    path = tmp_path / "single_dummy_calibration.json"
    rik = calibration_row("rik", 6, 4, 1, 9)  # a = 0.6, b = 0.1
    _write(path, {"rik": rik, "misere": calibration_row("misère", 9, 1, 0, 10)})
    monkeypatch.setattr(real_play, "DEFAULT_PATH", path)
    return rik


def _analyse(*extra: str):
    args = ["analyse", RIK_HAND, "--deals", "3", "--seed", "11"]
    args += extra
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_json_has_the_estimate_for_covered_families(calibrated):
    d = json.loads(_analyse("--format", "json"))
    assert d["real_play_calibration"]["samples"] == 8
    assert d["real_play_calibration"]["deals"] == 40
    by_bid = {b["contract"]: b for b in d["bids"]}
    rik = by_bid["rik"]
    p = rik["p_make"]
    assert rik["p_make_real_est"] == pytest.approx(p * 0.6 + (1 - p) * 0.1, abs=1e-4)
    lo, hi = rik["p_make_real_est_ci"]
    assert lo <= rik["p_make_real_est"] <= hi
    # alone is not in this file, open piek in no calibration, and this hand is no misère hand
    assert by_bid["alone_8"]["p_make_real_est"] is None
    assert by_bid["open_piek"]["p_make_real_est_ci"] is None
    assert by_bid["misere"]["p_make_real_est"] is None


def test_table_has_the_note_line(calibrated):
    text = _analyse()
    line = next(x for x in text.splitlines() if x.startswith("estimated real play"))
    assert "single-dummy" in line and "40 deals" in line and "rik " in line


def test_nothing_without_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(real_play, "DEFAULT_PATH", tmp_path / "missing.json")
    d = json.loads(_analyse("--format", "json"))
    assert d["real_play_calibration"] is None
    assert all(b["p_make_real_est"] is None for b in d["bids"])
    assert "estimated real play" not in _analyse()


def test_family_of_contracts():
    assert real_play.family_of(Contract("rik")) == "rik"
    assert real_play.family_of(Contract("rik", beter=True)) == "beter_rik"
    assert real_play.family_of(Contract("alone", 8)) == "alone"
    assert real_play.family_of(Contract("alone", 11)) is None
    assert real_play.family_of(Contract("solo")) == "solo"
    assert real_play.family_of(Contract("open_piek")) is None


def test_range_carries_the_dd_interval(tmp_path):
    path = tmp_path / "c.json"
    _write(path, {"rik": calibration_row("rik", 6, 4, 1, 9)})
    cal = real_play.load(path)
    p, lo, hi = cal.estimate_range("rik", 0.5, 0.3, 0.7)
    p0, lo0, hi0 = cal.estimate("rik", 0.5)
    assert p == p0 and lo < lo0 and hi > hi0
    assert cal.estimate("piek", 0.5) is None


def test_in_panel():
    from analyser.notation import parse_hand

    rik = parse_hand(RIK_HAND)
    low = parse_hand("♠5432 ♥432 ♦432 ♣432")
    assert real_play.in_panel("rik", rik) and not real_play.in_panel("rik", low)
    assert real_play.in_panel("misere", low) and not real_play.in_panel("misere", rik)
