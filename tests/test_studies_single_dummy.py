"""Study 9 (single-dummy against double-dummy) on a tiny scale, its calibration and its
report section `single_dummy`."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

from analyser.analysis.calibration import calibration_row, qualifies, real_play
from analyser.cards import mask_to_cards
from analyser.single_dummy import play_deal
from analyser.studies.config import ConfigError, load_study
from analyser.studies.report import study_section
from analyser.studies.runner import run_study
from analyser.studies.single_dummy import (
    FAMILIES,
    calibration_file,
    contract_for,
    double_dummy,
    paired_difference,
    plan,
)
from analyser.studies.solve import deals_for_hand

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
# cheap families only: misère stops at the declarer's first trick; malheur hands are quick
TINY = dict(
    hands_per_family={"misere": 2, "malheur": 1},
    deals_per_hand=2,
    chunk_hands=2,
    samples=1,
    max_nodes=200_000,
)


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    base = tmp_path_factory.mktemp("sd-study")
    cfg = load_study(SIMS / "single_dummy.toml").with_params(**TINY)
    cfg = type(cfg)(cfg.path, cfg.params, base / "data", base / "reports")
    return run_study(cfg, quiet=True), base


def test_table_has_one_row_per_deal(result):
    res, _ = result
    df = res.table
    assert len(df) == (2 + 1) * TINY["deals_per_hand"]
    assert df.groupby("family").size().to_dict() == {"misere": 4, "malheur": 2}
    assert set(df.dd_made) <= {-1, 0, 1} and set(df.sd_made) <= {0, 1}
    bias = res.tables["bias"]
    assert bias.family.tolist() == [FAMILIES["misere"], FAMILIES["malheur"]]
    assert (bias.deals + bias.undecided == [4, 2]).all()
    for r in bias.itertuples():
        assert r.dd_lo <= r.dd_p <= r.dd_hi and r.sd_lo <= r.sd_p <= r.sd_hi
        assert r.diff_lo <= r.diff <= r.diff_hi
        assert math.isclose(r.diff, r.sd_p - r.dd_p)
    assert len(res.tables["calibration"]) == 2


def test_dd_and_sd_are_on_the_same_deals(result):
    """Every row's deal is the hand's seeded deal; its DD answer and SD play reproduce."""
    res, _ = result
    cfg = res.cfg
    for r in res.table.itertuples():
        deals = deals_for_hand(int(r.mask), cfg["deals_per_hand"], int(r.deal_seed))
        deal = deals[r.deal]
        assert [int(x) for x in deal] == [r.seat0, r.seat1, r.seat2, r.seat3]
        contract = contract_for(r.family, deal, cfg["rules"])
        assert contract.trump == r.trump
        dd = double_dummy(contract, deal[None, :], cfg["rules"], cfg["max_nodes"])
        assert int(dd[0]) == r.dd_made
    r = res.table.iloc[0]
    deal = [int(r[f"seat{s}"]) for s in range(4)]
    contract = contract_for(r.family, np.array(deal), cfg["rules"])
    hands = [mask_to_cards(m) for m in deal]
    sd = play_deal(hands, contract, cfg["samples"], int(r.deal_seed), int(r.deal))
    assert int(sd.made) == r.sd_made and sd.tricks == r.sd_tricks


def test_calibration_file_records_its_origin(result):
    res, _ = result
    doc = json.loads(calibration_file(res.cfg).read_text(encoding="utf-8"))
    assert doc["seed"] == res.cfg["seed"] and doc["samples"] == TINY["samples"]
    assert doc["key"] == res.cfg.key
    assert set(doc["families"]) == {"misere", "malheur"}
    fam = doc["families"]["misere"]
    assert fam["dd_made"] + fam["dd_failed"] == int((res.table.family == "misere").sum()) - int(
        ((res.table.family == "misere") & (res.table.dd_made < 0)).sum()
    )


def test_section_renders(result):
    res, base = result
    section = study_section(res, base / "reports")
    assert section.name == "single_dummy"
    main = section.blocks[0]
    assert "misère" in main.reading and "SD − DD" in main.reading
    assert main.png is not None and pathlib.Path(main.png).exists()
    cal = next(b for b in section.blocks if b.title.startswith("Calibration:"))
    assert "a = " in cal.reading and pathlib.Path(cal.png).exists()
    relook = next(b for b in section.blocks if b.title.endswith("in this light"))
    assert "50%" in relook.reading
    assert "PIMC" in section.params or "single-dummy" in section.params


def test_calibration_on_a_hand_made_table():
    # DD made 10 (SD made 8 of them), DD failed 10 (SD made 1 of them)
    row = calibration_row("rik", 8, 2, 1, 9)
    assert row["a"] == 0.8 and row["b"] == 0.1 and not row["pooled"]
    assert row["a_lo"] < 0.8 < row["a_hi"] and row["b_lo"] < 0.1 < row["b_hi"]
    est, lo, hi = real_play(0.5, row)
    assert math.isclose(est, 0.5 * 0.8 + 0.5 * 0.1)
    assert math.isclose(lo, 0.5 * row["a_lo"] + 0.5 * row["b_lo"])
    assert lo < est < hi
    assert real_play(1.0, row)[0] == 0.8 and real_play(0.0, row)[0] == 0.1
    grid = [real_play(p, row) for p in np.linspace(0, 1, 21)]
    for (e0, l0, h0), (e1, l1, h1) in zip(grid, grid[1:], strict=False):
        assert e1 >= e0 and l1 >= l0 and h1 >= h0


def test_calibration_is_kept_monotone():
    # noise: SD made 1 of 4 DD makes but 3 of 4 DD fails: pooled to 4 of 8
    row = calibration_row("piek", 1, 3, 3, 1)
    assert row["pooled"] and row["a"] == row["b"] == 0.5
    assert real_play(0.2, row)[0] == real_play(0.9, row)[0] == 0.5
    # no DD fail: b borrowed from the group's counts
    row = calibration_row("solo", 5, 0, 0, 0, fallback=(20, 5, 2, 8))
    assert row["b"] == 0.2 and row["b_from"] == "group" and row["a_from"] == "family"
    assert row["a"] == 1.0 and real_play(0.5, row)[0] == 0.6
    # nothing to borrow: b unknown, its interval 0..1
    row = calibration_row("solo", 5, 0, 0, 0)
    assert math.isnan(row["b"]) and (row["b_lo"], row["b_hi"]) == (0.0, 1.0)
    est, lo, hi = real_play(1.0, row)
    assert est == 1.0 and lo == row["a_lo"]
    assert real_play(0.5, row)[2] >= real_play(0.5, row)[0] >= real_play(0.5, row)[1]


def test_paired_difference():
    d, lo, hi = paired_difference(10, 0, 0, 10)  # identical answers
    assert d == 0 and lo < 0 < hi
    d, lo, hi = paired_difference(5, 15, 0, 0)  # SD failed 15 of 20 DD makes
    assert math.isclose(d, -0.75) and hi < 0 and lo >= -1
    d, lo, hi = paired_difference(0, 0, 0, 0)
    assert math.isnan(d) and (lo, hi) == (-1.0, 1.0)


# open misère and piek hands are rare among the candidates: drawing them takes seconds
RARE = ("open_misere", "piek")


@pytest.mark.parametrize(
    "families",
    [
        [f for f in FAMILIES if f not in RARE],
        pytest.param(list(RARE), marks=pytest.mark.slow),
    ],
)
def test_panel_hands_qualify_for_their_family(families):
    cfg = load_study(SIMS / "single_dummy.toml").with_params(
        hands_per_family=dict.fromkeys(families, 2)
    )
    hands = plan(cfg)
    assert hands.groupby("family").size().to_dict() == dict.fromkeys(families, 2)
    for family, g in hands.groupby("family"):
        assert qualifies(family, g["mask"].to_numpy()).all()
    assert hands.equals(plan(cfg))  # seeded


def test_config_rejects_unknown_family():
    cfg = load_study(SIMS / "single_dummy.toml")
    with pytest.raises(ConfigError, match="unknown family"):
        cfg.with_params(hands_per_family={"troel": 2})


def test_malheur_partner_and_his_ace_are_public():
    """At malheur the partner named trump: every other player's worlds give him the 4th ace."""
    from analyser.single_dummy.contract import public_cards as _public
    from analyser.worlds import knowledge_after, sample_worlds

    cfg = load_study(SIMS / "single_dummy.toml").with_params(hands_per_family={"malheur": 1})
    r = plan(cfg).iloc[0]
    deal = deals_for_hand(int(r["mask"]), 1, int(r["deal_seed"]))[0]
    contract = contract_for("malheur", deal, cfg["rules"])
    hands = [mask_to_cards(int(m)) for m in deal]
    assert contract.called in hands[contract.partner]
    for me in range(4):
        if me == contract.partner:
            continue
        known = _public(hands, contract, me)
        assert known == {contract.called: contract.partner}
        k = knowledge_after(me, hands[me], contract.trump, 0, [], known, contract.called)
        bit = 1 << (16 * (contract.called // 13) + contract.called % 13)
        assert all(int(w[contract.partner]) & bit for w in sample_worlds(k, 4, 1))


def test_report_has_the_single_dummy_section(result):
    from analyser.studies.config import SuiteConfig
    from analyser.studies.report import build_report

    res, base = result
    suite = SuiteConfig(base / "suite.toml", "Test report", (res.cfg,), base / "reports")
    files = build_report(suite, quiet=True, log=lambda _: None)
    text = files.html.read_text(encoding="utf-8")
    assert 'id="single_dummy"' in text and "How much double-dummy flatters" in text
