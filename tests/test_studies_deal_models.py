"""The studies under both deal models: the deal_model key, cut_only deals per hand, the
comparison of a study's cells between the models, and `study run --deal-model`."""

from __future__ import annotations

import pathlib
import re
import types

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from test_studies_run import TINY, tiny

from analyser.cards import cards_to_mask, mask_to_cards
from analyser.cli import main
from analyser.deal_draw import place_hand
from analyser.notation import parse_hand
from analyser.sampler import random_deals, sample_deals
from analyser.studies import load_study, model_compare, run_study
from analyser.studies.config import ConfigError, SuiteConfig
from analyser.studies.registry import study_cut_only, study_kinds, study_module
from analyser.studies.report import build_report
from analyser.studies.solve import deals_for_hand

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
HAND = cards_to_mask(parse_hand("♠A109872 ♥H4 ♦V73 ♣52"))


def test_deal_model_defaults_to_uniform_and_is_checked():
    cfg = load_study(SIMS / "malheur.toml")
    assert cfg["deal_model"] == "uniform"
    assert cfg.with_params(deal_model="cut_only")["deal_model"] == "cut_only"
    with pytest.raises(ConfigError, match="key 'deal_model' must be 'uniform' or 'cut_only'"):
        cfg.with_params(deal_model="shuffled")


def test_studies_whose_design_cannot_take_cut_only_say_why():
    takes = {k for k in study_kinds() if study_cut_only(k) is True}
    assert takes == {"rik_minimum", "alone", "misere", "piek", "malheur"}
    for kind in set(study_kinds()) - takes:
        assert isinstance(study_cut_only(kind), str) and study_cut_only(kind)
    cfg = load_study(SIMS / "wiezen_ask.toml")
    with pytest.raises(ConfigError, match="cannot be 'cut_only' for a wiezen_ask study: its"):
        cfg.with_params(deal_model="cut_only")
    for kind in takes:  # each declares its cells and verdict for the comparison
        module = study_module(kind)
        assert callable(module.MODEL_CELLS) and len(module.MODEL_VERDICT) == 3


def test_each_cut_only_file_studies_the_hands_of_its_uniform_file():
    for path in [*SIMS.glob("*_cut_only.toml"), *(SIMS / "full").glob("*_cut_only.toml")]:
        cut = load_study(path)
        uni = load_study(path.with_name(path.name.replace("_cut_only", "")))
        assert cut["deal_model"] == "cut_only" and uni["deal_model"] == "uniform"
        a = types.SimpleNamespace(cfg=uni)
        b = types.SimpleNamespace(cfg=cut)
        assert model_compare.same_hands(a, b), path.name
        other = types.SimpleNamespace(cfg=uni.with_params(seed=uni["seed"] + 1))
        assert not model_compare.same_hands(other, b)


def test_uniform_deals_per_hand_are_the_samplers_as_before():
    got = deals_for_hand(HAND, 5, 11)
    assert np.array_equal(got, sample_deals([mask_to_cards(HAND), [], [], []], 5, 11))
    assert np.array_equal(got, deals_for_hand(HAND, 5, 11, "uniform"))


def test_cut_only_deals_per_hand_keep_the_hand_and_reproduce():
    got = deals_for_hand(HAND, 40, 11, "cut_only")
    assert got.shape == (40, 4) and np.all(got[:, 0] == HAND)
    for d in got:  # four disjoint hands of 13 cards
        assert [int(h).bit_count() for h in d] == [13] * 4
        assert int(d[0] | d[1] | d[2] | d[3]).bit_count() == 52
    assert np.array_equal(got, deals_for_hand(HAND, 40, 11, "cut_only"))
    assert np.array_equal(got[:30], deals_for_hand(HAND, 30, 11, "cut_only"))  # deal i: (seed, i)
    assert not np.array_equal(got[:5], deals_for_hand(HAND, 5, 11))


def test_place_hand_renames_suits_and_exchanges_the_cards():
    pool = random_deals(400, 3)
    want = sorted(int(HAND >> (16 * s) & 0x1FFF).bit_count() for s in range(4))
    done = 0
    for d in pool:
        if sorted(int(d[2] >> (16 * s) & 0x1FFF).bit_count() for s in range(4)) != want:
            with pytest.raises(Exception, match="does not have the hand's suit lengths"):
                place_hand(d, HAND, 2)
            continue
        out = place_hand(d, HAND, 2)
        assert out[2] == HAND and int(out[0] | out[1] | out[2] | out[3]).bit_count() == 52
        # every other hand keeps its sorted suit lengths
        for q in (0, 1, 3):
            before = sorted(int(d[q] >> (16 * s) & 0x1FFF).bit_count() for s in range(4))
            after = sorted(int(out[q] >> (16 * s) & 0x1FFF).bit_count() for s in range(4))
            assert before == after
        done += 1
    assert done > 5


def fake(cfg, rows):
    """A study result with a hand-made table (the comparison reads cfg and table)."""
    return types.SimpleNamespace(cfg=cfg, table=pd.DataFrame(rows), classifier_rows=[])


def test_compare_finds_the_cell_whose_verdict_changes():
    uni = load_study(SIMS / "misere.toml")
    cut = load_study(SIMS / "misere_cut_only.toml")
    rows_u, rows_c = [], []
    for h in range(20):
        # 6 holes: makes on uniform deals 3 of 4, on cut_only 0 of 2 (changes, clear);
        # 0 holes: always makes on both
        rows_u += [
            dict(hand_id=h, hole_bucket=6, leader="N", made=3, deals=4),
            dict(hand_id=100 + h, hole_bucket=0, leader="N", made=4, deals=4),
        ]
        rows_c += [
            dict(hand_id=h, hole_bucket=6, leader="N", made=0, deals=2),
            dict(hand_id=100 + h, hole_bucket=0, leader="N", made=2, deals=2),
        ]
    a, b = fake(uni, rows_u), fake(cut, rows_c)
    assert model_compare.partners([a, b]) == [(a, b)]
    t = model_compare.compare(a, b).set_index("cell")
    six, zero = t.loc["6 holes, N leads"], t.loc["0 holes, N leads"]
    assert six["changes"] and not zero["changes"]
    assert (six["verdict_uniform"], six["verdict_cut_only"]) == ("misere", "pass")
    assert six["p_uniform"] == 0.75 and six["p_cut_only"] == 0.0
    assert six["diff"] == pytest.approx(-0.75) and six["paired_hands"] == 20
    # all made: the interval is Wilson's over the deals, not a point
    assert zero["lo_cut_only"] < 1.0 and zero["hi_cut_only"] == 1.0
    text = model_compare.changes_text(a, b, t.reset_index())
    assert "1 of 2 cells change their verdict: 6 holes, N leads: misere at 75%" in text
    assert "-75 points" in text and "both intervals on their side" in text


def test_report_shows_a_cut_only_study_beside_its_uniform_run(tmp_path):
    uni = tiny("malheur", tmp_path)
    cut = tiny("malheur", tmp_path, deal_model="cut_only", name="malheur_cut_only")
    suite = SuiteConfig(tmp_path / "suite.toml", "Test", (uni, cut), tmp_path / "reports")
    files = build_report(suite, quiet=True)
    text = files.markdown.read_text(encoding="utf-8")
    assert "uniform against cut_only deals" in text
    assert "Cells under both deal models" in text
    assert re.search(r"No cell's verdict changes|cells change their verdict", text)
    table = pd.read_csv(tmp_path / "reports" / "malheur_cut_only" / "deal_models.csv")
    assert set(table["cell"]) == {"G-MAL-07 trump", "best trump (upper bound)"}
    assert (table["hands_uniform"] == TINY["malheur"]["hands"]).all()
    assert (table["paired_hands"] == TINY["malheur"]["hands"]).all()
    # the same hands, other deals
    a = run_study(uni, quiet=True).table
    b = run_study(cut, quiet=True).table
    assert list(a.drop_duplicates("hand_id")["hand"]) == list(b.drop_duplicates("hand_id")["hand"])


def test_study_run_takes_deal_model(tmp_path):
    text = (SIMS / "malheur.toml").read_text()
    text = re.sub(r"(?m)^hands = \d+", "hands = 2", text)
    text = re.sub(r"(?m)^deals_per_hand = \d+", "deals_per_hand = 2", text)
    path = tmp_path / "m.toml"
    path.write_text(text + '\ndata_dir = "data"\nreport_dir = "reports"\n')
    out = CliRunner().invoke(
        main, ["study", "run", str(path), "--quiet", "--deal-model", "cut_only"]
    )
    assert out.exit_code == 0, out.output
    assert "malheur_cut_only: " in out.output and "deal model cut_only" in out.output
    assert (tmp_path / "data" / "malheur_cut_only.parquet").is_file()
    assert not (tmp_path / "data" / "malheur.parquet").exists()
    listed = CliRunner().invoke(main, ["study", "list", str(SIMS)])
    assert "sims/misere_cut_only.toml: misere" in listed.output.replace(str(SIMS), "sims")
    assert "deal model cut_only" in listed.output and "deal model uniform" in listed.output
