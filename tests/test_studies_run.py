"""Each study on a tiny configuration: table columns, plausible values, cache, resume."""

import pathlib

import numpy as np
import pandas as pd
import pytest

import analyser.solver
from analyser.cards import card, cards_to_mask
from analyser.guidelines import alone_trump, book_count
from analyser.studies import alone as alone_study
from analyser.studies import load_study, run_study
from analyser.studies import misere as misere_study
from analyser.studies.cache import StudyCache, read_meta
from analyser.studies.common import hand_frame
from analyser.studies.solve import COUNTERS

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"

TINY = {
    "rik_minimum": dict(
        deals_per_hand=1,
        chunk_hands=4,
        trump_lengths=[7],
        high_min=0,
        high_max=1,
        hands_per_cell=1,
        calls_hands_per_cell=1,
        two_suiter_lengths=[[8, 5]],
        two_suiter_hands=1,
    ),
    "alone": dict(deals_per_hand=2, chunk_hands=8, count_min=7, count_max=9, hands_per_count=1),
    # Proving a misère or piek make takes the solver seconds to minutes per deal, so the tiny
    # misère run keeps to hands with many holes, and piek runs only in the slow tests.
    "misere": dict(deals_per_hand=1, chunk_hands=2, min_holes=5, max_holes=6, hands_per_bucket=1),
    "piek": dict(deals_per_hand=1, chunk_hands=4, hands_per_bucket=1, leaders=["E"]),
    "malheur": dict(deals_per_hand=2, chunk_hands=2, hands=4),
    "wiezen_ask": dict(deals_per_hand=3, chunk_hands=2, trump_lengths=[3, 6], hands_per_length=2),
}


FAST = [k for k in TINY if k != "piek"]


def tiny(kind, tmp_path, **extra):
    """The shipped study file of ``kind`` shrunk to TINY, writing under ``tmp_path``."""
    cfg = load_study(SIMS / f"{kind}.toml").with_params(**{**TINY[kind], **extra})
    return type(cfg)(cfg.path, cfg.params, tmp_path / "data", tmp_path / "reports")


def shared_base(tmp_path_factory):
    """One folder per test session for the tiny studies, so the report tests reuse them."""
    return tmp_path_factory.getbasetemp() / "tiny-studies"


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    base = shared_base(tmp_path_factory)
    return {kind: run_study(tiny(kind, base), quiet=True) for kind in FAST}


def test_rik_minimum_table(results):
    res = results["rik_minimum"]
    df = res.table
    for col in (
        "hand_id",
        "hand",
        "deal_seed",
        "trump",
        "called",
        "call_class",
        "book_call",
        "deals",
        "made",
        "length",
        "high",
        "study_key",
        "version",
    ):
        assert col in df.columns
    assert ((df.made >= 0) & (df.made <= df.deals)).all()
    cells = df[df.role == "cell"]
    assert set(zip(cells.length, cells.high, strict=True)) == {(7, 0), (7, 1)}
    # one book call per heatmap hand; the legal-call comparison adds other calls
    assert (cells[cells.book_call].groupby("hand_id").size() == 1).all()
    assert (cells.called % 13 == 12).all() | (cells.called % 13 == 11).any()
    two = df[df.role == "two_suiter"]
    assert (two.groupby("hand_id").book_trump.sum() == 1).all()
    hm = res.tables["heatmap"]
    verdict = dict(zip(zip(hm.length, hm.high, strict=True), hm.g_rik_01, strict=True))
    assert verdict == {(7, 0): "pass", (7, 1): "rik"}
    assert (hm[(hm.length == 7) & (hm.high == 1)].g_rik_01 == "rik").all()
    assert ((hm.lo <= hm.p) & (hm.p <= hm.hi)).all()
    assert [r["guideline"] for r in res.classifier_rows] == ["G-RIK-01", "G-RIK-01"]


def test_alone_table(results):
    res = results["alone"]
    df = res.table
    assert set(df.level) == set(range(7, 14))
    assert sorted(df[df.level == 7]["count"]) == [7, 8, 9]
    # P(make N) cannot rise with N for one hand
    wide = df.pivot_table(index="hand_id", columns="level", values="made")
    assert (np.diff(wide.to_numpy(), axis=1) <= 0).all()
    cal = res.tables["calibration"]
    assert {"count", "level", "margin", "p", "lo", "hi"} <= set(cal.columns)
    assert {r["contract"] for r in res.classifier_rows} == {f"alone_{n}" for n in range(7, 14)}


def test_misere_table(results):
    res = results["misere"]
    df = res.table
    assert set(df.leader) == {"N", "E"}
    assert sorted(df.hole_bucket) == [5, 5, 6, 6]  # one hand per bucket, two leaders
    assert (df.deals + df.undecided == 1).all()  # decided + given up at the node budget
    assert (np.minimum(df.holes, 6) == df.hole_bucket).all()
    assert not df.absolutely_safe.any() and res.tables["absolutely_safe"].empty
    assert ((df.made >= 0) & (df.made <= df.deals)).all()
    # many holes: the misère fails on most deals
    assert df.made.sum() < df.deals.sum()
    gids = {r["guideline"] for r in res.classifier_rows}
    assert {"G-MIS-02", "G-MIS-04", "G-MIS-05", "G-MIS-06", "G-OPEN-03", "G-PRAAT-02"} <= gids


def certain_hand(cfg, cards, **columns):
    masks = np.array([cards_to_mask(cards)], dtype=np.int64)
    return hand_frame(masks, cfg["seed"], 0, **columns)


def test_certain_answers(tmp_path):
    """Hands whose result is known without search appear with that result in the tables."""
    # The 13 highest cards (A K Q of every suit and the jack of spades): every trick North
    # leads he wins (the defenders hold only lower cards and can follow), so misère (North
    # on lead) fails on every deal.
    cfg = tiny("misere", tmp_path, deals_per_hand=3, leaders=["N"])
    top = [card(s, r) for s in range(4) for r in (12, 11, 10)] + [card(0, 9)]
    hands = certain_hand(cfg, top, hole_bucket=6)
    hands = pd.concat([hands, misere_study.hand_features(hands["mask"].to_numpy())], axis=1)
    out = misere_study.solve_hands(cfg, hands, None)
    assert out.made.tolist() == [0] and out.deals.tolist() == [3]
    # All thirteen spades: the book count is 13 and every alone level makes on every deal.
    cfg = tiny("alone", tmp_path, deals_per_hand=3)
    spades = [card(0, r) for r in range(13)]
    hands = certain_hand(cfg, spades)
    hands["count"] = book_count(spades)
    hands["book_trump"] = alone_trump(spades)
    hands["risk"] = 0
    hands["candidates_drawn"] = 1
    out = alone_study.solve_hands(cfg, hands, None)
    assert hands["count"].item() == 13 and hands["book_trump"].item() == 0
    assert (out.made == out.deals).all() and (out.mean_tricks == 13).all()


@pytest.mark.slow
def test_piek_table(tmp_path):
    res = run_study(tiny("piek", tmp_path), quiet=True)
    df = res.table
    buckets = sorted(zip(df.winners, df.piek_ok, strict=True))
    assert buckets == [
        (0, False),
        (1, False),
        (1, True),
        (2, False),
        (2, True),
        (3, False),
        (3, True),
    ]
    assert set(df.leader) == {"E"}
    assert ((df.made >= 0) & (df.made <= df.deals)).all()
    # no possible winner and no ace: the hand can still take a trick by accident, but the
    # table's fallback groups are present
    assert set(res.tables["fallback"].group) <= {
        "G-PIEK-02 piek hand",
        "fallback (no rik, no misère)",
        "other",
    }


def test_malheur_table(results):
    res = results["malheur"]
    df = res.table
    assert len(df) == 4 * 2
    made_cols = [f"made_{s}" for s in "SHDC"]
    assert (df.made_best == df[made_cols].max(axis=1)).all()
    assert (df.made_heuristic <= df.made_best).all()  # the best suit is an upper bound
    assert (df.partner.between(1, 3)).all()
    ov = res.tables["overview"].set_index("choice")
    assert (
        ov.loc["best suit per deal (upper bound)", "p"] >= ov.loc["G-MAL-07 heuristic trump", "p"]
    )


def test_parquet_records_parameters_and_version(results):
    cfg = results["misere"].cfg
    meta = read_meta(cfg.data_dir / "misere.parquet")
    assert meta["key"] == cfg.key and meta["version"] == cfg.version
    assert meta["code"] == cfg.code
    assert meta["params"]["seed"] == cfg["seed"]
    assert not StudyCache(cfg).parts_dir.exists()  # parts are dropped once finished


def test_rerun_loads_the_cache_without_solving(results, monkeypatch):
    def no_solving(*args, **kwargs):
        raise AssertionError("the solver was called on a cached rerun")

    monkeypatch.setattr(analyser.solver, "solve_batch", no_solving)
    for first in results.values():
        again = run_study(first.cfg, quiet=True)
        assert again.from_cache and again.positions == 0
        pd.testing.assert_frame_equal(again.table, first.table)


def test_changed_parameters_miss_the_cache(results):
    cfg = results["malheur"].cfg.with_params(hands=2)
    cfg = type(cfg)(cfg.path, cfg.params, results["malheur"].cfg.data_dir, cfg.report_dir)
    before = COUNTERS["positions"]
    res = run_study(cfg, quiet=True)
    assert not res.from_cache and COUNTERS["positions"] > before


def test_resume_after_interruption(results, tmp_path, monkeypatch):
    cfg = tiny("malheur", tmp_path, chunk_hands=1)  # 4 hands: 4 chunks, one solver call each
    real = analyser.solver.solve_batch
    calls = {"n": 0}

    def dies_in_second_chunk(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(analyser.solver, "solve_batch", dies_in_second_chunk)
    with pytest.raises(KeyboardInterrupt):
        run_study(cfg, quiet=True)
    cache = StudyCache(cfg)
    assert cache.part_path(0).exists() and not cache.part_path(1).exists()
    assert not cache.table_path.exists()
    monkeypatch.setattr(analyser.solver, "solve_batch", real)
    before = COUNTERS["positions"]
    res = run_study(cfg, quiet=True)
    assert res.parts_reused == 1
    assert COUNTERS["positions"] - before == 3 * 2 * 4  # 3 hands x 2 deals x 4 trumps left
    # the resumed table equals an uninterrupted run (which used other chunks)
    drop = ["study_key"]
    pd.testing.assert_frame_equal(
        res.table.drop(columns=drop), results["malheur"].table.drop(columns=drop)
    )


def test_safe_hand_certain_and_budget_reported(tmp_path):
    """A hole-free hand not on lead makes misère on every deal (exactly, within any budget);
    a budget too small to prove anything leaves deals undecided, out of the denominator."""
    cfg = tiny("misere", tmp_path, deals_per_hand=4, leaders=["E"])
    # 2-3-4-5 of spades and 2-3-4 of the other suits: no card has a hole.
    low = [card(0, r) for r in range(4)] + [card(s, r) for s in (1, 2, 3) for r in range(3)]
    hands = certain_hand(cfg, low, hole_bucket=0)
    hands = pd.concat([hands, misere_study.hand_features(hands["mask"].to_numpy())], axis=1)
    assert hands["absolutely_safe"].item()
    out = misere_study.solve_hands(cfg, hands, None)
    assert out.made.tolist() == [4] and out.deals.tolist() == [4] and out.undecided.sum() == 0
    # a hand with a hole in every suit, North on lead, and a budget of one node per search
    tight = tiny("misere", tmp_path, deals_per_hand=4, leaders=["N"], max_nodes=1)
    high = [card(s, r) for s in range(4) for r in (12, 8, 5)] + [card(0, 2)]
    hands = certain_hand(tight, high, hole_bucket=6)
    hands = pd.concat([hands, misere_study.hand_features(hands["mask"].to_numpy())], axis=1)
    out = misere_study.solve_hands(tight, hands, None)
    assert out.undecided.item() > 0
    assert out.deals.item() + out.undecided.item() == 4


def test_wiezen_ask_table(results):
    from analyser.cards import HEARTS
    from analyser.studies.wiezen_ask import TURNED

    res = results["wiezen_ask"]
    df = res.table
    assert sorted(df.asker_trumps.unique()) == [3, 6]
    assert len(df) == 4 * 3 * 3  # hands x deals x partner seats
    # the asker holds exactly k hearts, never the turned card
    from analyser.notation import parse_hand

    for r in df.drop_duplicates("hand_id").itertuples():
        hand = parse_hand(r.hand)
        assert sum(c // 13 == HEARTS for c in hand) == r.asker_trumps and TURNED not in hand
    per_deal = df.groupby(["hand_id", "deal"])
    assert (per_deal.first_joiner.sum() <= 1).all()
    assert ((per_deal.first_joiner.sum() == 0) == per_deal.nobody_joins.first()).all()
    assert set(df.made) <= {0, 1} and set(df.partner) == {"E", "S", "W"}
    # a score only for the model's partner, an alone 5 figure only where nobody joins
    assert df.score.notna().sum() <= df.first_joiner.sum()
    assert (df.score.notna() <= df.first_joiner).all()
    assert (df.alone_score.notna() <= df.nobody_joins).all()
    joined = df[df.first_joiner & (df.exact_given_up == 0)]
    assert ((joined.exact >= 8) == (joined.made == 1)).all()  # the two solves agree
    ask = res.tables["ask"]
    assert list(ask.asker_trumps) == [3, 6] and (ask.deals == 6).all()
    assert ((ask.lo <= ask.p) | ask.p.isna()).all()
    assert res.classifier_rows == []
