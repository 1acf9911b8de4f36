"""Study 13 (real play) on a tiny scale: the panel, the rows, the curve's fit and band, the
held-back check and the inference's effect."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd
import pytest

from analyser.analysis.play_curve import curve_at, fit_curve
from analyser.studies.config import load_study
from analyser.studies.real_play import P_HIGH, P_LOW, calibration_file
from analyser.studies.runner import run_study

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
TINY = dict(
    hands_per_family={"misere": 3, "beter_rik": 1},
    check_hands_per_family={"misere": 1},
    deals_per_hand=2,
    chunk_hands=2,
    samples=2,
    dd_deals=8,
    plain_every=1,
)


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    base = tmp_path_factory.mktemp("real-play")
    cfg = load_study(SIMS / "real_play.toml").with_params(**TINY)
    cfg = type(cfg)(cfg.path, cfg.params, base / "data", base / "reports")
    return run_study(cfg, quiet=True), cfg


def test_rows_play_only_hands_inside_the_range(result):
    res, _ = result
    df = res.table
    assert set(df["panel"]) <= {"fit", "check"} and set(df["family"]) == {"misere", "beter_rik"}
    # beter rik cannot open the auction (a raise over a rik): played without its inference
    assert (df.loc[df["family"] == "beter_rik", "auction"] == 0).all()
    assert (df.loc[df["family"] == "beter_rik", "sd_plain"] == -1).all()
    outside = df[df["deal"] < 0]
    assert ((outside["p_dd"] < P_LOW) | (outside["p_dd"] > P_HIGH) | outside["sd_made"].lt(0)).all()
    played = df[df["deal"] >= 0]
    assert played["p_dd"].between(P_LOW, P_HIGH).all()
    assert set(played["sd_made"]) <= {0, 1} and set(played["sd_plain"]) <= {-1, 0, 1}
    both = played[played["auction"] == 1]
    assert set(both["sd_plain"]) <= {0, 1}  # plain_every = 1: every deal played both ways
    assert (played["limited"] <= played["decisions"]).all()


def test_its_parts_pass_the_cache_checks_so_a_stopped_run_resumes(result):
    # hands outside the range have a row with deal -1; the cache's checks accept it, so a
    # stopped run reuses every finished part instead of solving it again
    from analyser.studies.cache import StudyCache
    from analyser.studies.domains import domain_problem

    res, cfg = result
    assert (res.table["deal"] == -1).any() and domain_problem(res.table, cfg) is None
    cache = StudyCache(cfg)
    part = res.table.drop(columns=["study", "study_key", "version"]).head(3)
    cache.save_part(0, part)
    assert cache.load_part(0) is not None
    assert domain_problem(part.assign(deal=-2)) is not None


def test_the_calibration_file_records_its_provenance(result):
    res, cfg = result
    doc = json.loads(calibration_file(cfg).read_text())
    for key in ("seed", "samples", "decision_nodes", "dd_deals", "deals_per_hand", "key"):
        assert key in doc
    assert doc["samples"] == TINY["samples"] and doc["key"] == cfg.key


def test_the_logistic_fit_recovers_a_known_curve_and_its_band_covers_it():
    rng = np.random.default_rng(5)
    hands = 400
    p = rng.uniform(0.15, 0.95, hands)
    a, b = 0.8, 1.3
    truth = 1 / (1 + np.exp(-(a + b * np.log(p / (1 - p)))))
    deals = 6
    made = (rng.random((hands, deals)) < truth[:, None]).astype(int)
    fit = fit_curve(np.repeat(p, deals), made.ravel(), np.repeat(np.arange(hands), deals))
    assert abs(fit["a"] - a) < 0.25 and abs(fit["b"] - b) < 0.25
    grid = np.linspace(0.2, 0.9, 8)
    mid, lo, hi = curve_at(fit, grid)
    want = 1 / (1 + np.exp(-(a + b * np.log(grid / (1 - grid)))))
    assert (lo <= mid).all() and (mid <= hi).all()
    assert (lo <= want + 0.02).all() and (want - 0.02 <= hi).all()
    assert np.all(np.diff(mid) > 0)  # rising with the double-dummy probability


def test_a_falling_fit_is_replaced_by_the_flat_curve():
    # real-play rates that fall with p_dd (noise) give the flat curve at the pooled rate
    rng = np.random.default_rng(7)
    p = rng.uniform(0.15, 0.95, 300)
    made = (rng.random(300) < 0.9 - 0.3 * p).astype(int)
    fit = fit_curve(p, made, np.arange(300))
    assert fit["flat"] and fit["b"] == 0
    mid, lo, hi = curve_at(fit, np.array([0.2, 0.5, 0.9]))
    assert np.allclose(mid, made.mean(), atol=1e-6)
    assert (lo < mid).all() and (mid < hi).all()


def test_hands_that_all_make_give_a_flat_curve_with_an_honest_band():
    # every deal made: no maximum-likelihood curve exists and the hands show no spread; the
    # flat curve below 1 with a band as wide as four agreeing hands warrant
    p = np.repeat([0.2, 0.4, 0.6, 0.8], 8)
    fit = fit_curve(p, np.ones(32), np.repeat(np.arange(4), 8))
    assert fit["flat"] and fit["b"] == 0
    mid, lo, hi = curve_at(fit, np.array([0.5]))
    assert 0.9 < mid[0] < 1 and lo[0] < 0.8 and hi[0] <= 1
    none = fit_curve(p, np.zeros(32), np.repeat(np.arange(4), 8))
    assert 0 < curve_at(none, np.array([0.5]))[0][0] < 0.1


def test_a_hand_feature_that_predicts_real_play_is_found():
    from analyser.analysis.play_panel import hand_features
    from analyser.cards import cards_to_mask
    from analyser.notation import parse_hand
    from analyser.studies.real_play_fit import curves, feature_table

    rng = np.random.default_rng(11)
    rows = []
    for panel, hands in (("fit", 300), ("check", 200)):
        for _ in range(hands):
            mask = cards_to_mask([int(c) for c in rng.choice(52, 13, replace=False)])
            p = rng.uniform(0.2, 0.9)
            hcp = hand_features(np.array([mask]))["hcp"][0]
            truth = 1 / (1 + np.exp(-(np.log(p / (1 - p)) + 0.25 * (hcp - 10))))
            hid = len(rows)
            for k in range(6):
                rows.append({"family": "rik", "panel": panel, "hand_id": hid, "mask": mask,
                             "p_dd": p, "deal": k, "dd_made": 1, "limited": 0, "decisions": 1,
                             "sd_made": int(rng.random() < truth)})  # fmt: skip
    four_aces = cards_to_mask(parse_hand("♠AHVB ♥A ♦A32 ♣A5432"))
    f = hand_features(np.array([four_aces]))
    assert (f["hcp"][0], f["aces"][0], f["longest"][0]) == (22, 4, 5)
    table = feature_table(pd.DataFrame(rows)).set_index("feature")
    assert table.loc["hcp", "helps"] and table.loc["hcp", "z"] > 4
    assert table.loc["hcp", "check_gain"] > 0
    assert not table.loc["longest", "helps"]
    # the curve takes the feature that helps as a third term, on its raw values
    fit = curves(pd.DataFrame(rows), table.reset_index())["rik"]
    assert fit["feature"] == "hcp" and len(fit["cov"]) == 3
    assert abs(fit["c"] - 0.25) < 0.1 and abs(fit["b"] - 1) < 0.3
    assert fit["feature_values"] == sorted(set(fit["feature_values"]))
    # the calibrated values run between the lowest and highest value ten hands had
    hcp = pd.Series([hand_features(np.array([r["mask"]]))["hcp"][0] for r in rows[::6]][:300])
    common = hcp.value_counts()[lambda c: c >= 10].index
    assert (fit["feature_values"][0], fit["feature_values"][-1]) == (min(common), max(common))
    # without a feature that helps, the curve is the double-dummy P(make) alone
    plain = curves(pd.DataFrame(rows), table.reset_index().assign(helps=False))["rik"]
    assert "feature" not in plain and len(plain["cov"]) == 2


def test_a_feature_that_carries_what_p_dd_said_holds_the_slope_at_zero():
    # real play depends on the feature only, and p_dd is the feature's shadow: the fit's
    # slope in p_dd would fall, so it is held at 0 (the curve may not fall with p_dd)
    from analyser.analysis.play_panel import hand_features
    from analyser.cards import cards_to_mask
    from analyser.studies.real_play_fit import curves

    rng = np.random.default_rng(5)
    rows = []
    for hid in range(300):
        mask = cards_to_mask([int(c) for c in rng.choice(52, 13, replace=False)])
        hcp = hand_features(np.array([mask]))["hcp"][0]
        p = float(np.clip(0.9 - 0.03 * hcp + rng.normal(0, 0.02), 0.05, 0.95))
        truth = 1 / (1 + np.exp(-(2 - 0.2 * hcp)))
        for k in range(6):
            rows.append({"family": "rik", "panel": "fit", "hand_id": hid, "mask": mask,
                         "p_dd": p, "deal": k, "dd_made": 1, "limited": 0, "decisions": 1,
                         "sd_made": int(rng.random() < truth)})  # fmt: skip
    table = pd.DataFrame([{"family": "rik", "feature": "hcp", "helps": True, "check_gain": 0.1}])
    fit = curves(pd.DataFrame(rows), table)["rik"]
    assert fit["feature"] == "hcp" and fit["b"] == 0.0 and fit["c"] < 0
    assert fit["cov"][1] == [0.0, 0.0, 0.0] and fit["monotone"]


# --------------------------------------------------------------------------- strata


def _with_strata(strata):
    return load_study(SIMS / "real_play.toml").with_params(**TINY, strata=strata)


def _misere_stratum(hands: int, check_hands: int, delta: list[int]) -> dict:
    """A closed misère stratum of largest hole δ in ``delta``, played at p_dd 0.15..0.5."""
    return {"family": "misere", "hands": hands, "check_hands": check_hands,
            "max_delta": delta, "p_dd": [0.15, 0.5]}  # fmt: skip


def test_a_stratum_draws_hands_whose_features_lie_in_its_ranges():
    from analyser.analysis.play_panel import hand_features
    from analyser.studies.real_play import plan

    cfg = _with_strata([_misere_stratum(30, 10, [4, 5])])
    hands = plan(cfg)
    plain = plan(load_study(SIMS / "real_play.toml").with_params(**TINY))
    # the plain panels are unchanged by the stratum: same hands, played over the full range
    base = hands[hands["stratum"] == -1]
    assert base["mask"].tolist() == plain["mask"].tolist()
    assert (base["play_lo"] == P_LOW).all() and (base["play_hi"] == P_HIGH).all()
    s = hands[hands["stratum"] == 0]
    assert s.groupby("panel").size().to_dict() == {"fit": 30, "check": 10}
    delta = hand_features(s["mask"].to_numpy())["max_delta"]
    assert ((delta >= 4) & (delta <= 5)).all()
    assert (s["play_lo"] == 0.15).all() and (s["play_hi"] == 0.5).all()
    assert hands["hand_id"].is_unique and set(s["mask"]).isdisjoint(set(base["mask"]))


def test_a_stratum_plays_only_hands_inside_its_range_of_p_dd():
    from analyser.studies.real_play import plan, solve_hands

    cfg = _with_strata([_misere_stratum(6, 0, [3, 4])])
    hands = plan(cfg)
    s = hands[hands["stratum"] == 0]
    df = solve_hands(cfg, s, None)
    assert (df["stratum"] == 0).all() and df["hand_id"].nunique() == 6
    played = df[df["deal"] >= 0]
    assert played["p_dd"].between(0.15, 0.5).all()
    skipped = df[df["deal"] < 0].drop_duplicates("hand_id")
    assert (~skipped["p_dd"].between(0.15, 0.5)).all()


@pytest.mark.parametrize(
    ("strata", "words"),
    [
        ({"family": "misere"}, "must be a list"),
        ([{"family": "whist", "hands": 1, "check_hands": 0}], "needs a family"),
        ([{"family": "misere", "hands": -1, "check_hands": 0}], "'hands'"),
        ([{"family": "misere", "hands": 1}], "'check_hands'"),
        ([{"family": "misere", "hands": 1, "check_hands": 0, "colour": [1, 2]}], "unknown range"),
        ([{"family": "misere", "hands": 1, "check_hands": 0, "max_delta": [5, 4]}], "lo <= hi"),
        ([{"family": "misere", "hands": 1, "check_hands": 0, "p_dd": [0.1, 0.5]}], "inside"),
    ],
)
def test_a_bad_stratum_is_a_one_line_error(strata, words):
    from analyser.studies.config import ConfigError

    with pytest.raises(ConfigError, match=words):
        _with_strata(strata)
