"""Study 7 (the auction) on a tiny scale, and its report section `auction`."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from analyser.auction import BookModel, read_auction
from analyser.auction.conditioned import accepts
from analyser.rules import get_ruleset
from analyser.sampler import sample_deals
from analyser.studies.auction import SCENARIOS, UNIFORM
from analyser.studies.config import load_study
from analyser.studies.report import study_section
from analyser.studies.runner import run_study

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
TINY = dict(hands_per_scenario=2, deals_per_hand=3, chunk_hands=4, max_nodes=200_000)


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    base = tmp_path_factory.mktemp("auction-study")
    cfg = load_study(SIMS / "auction.toml").with_params(**TINY)
    cfg = type(cfg)(cfg.path, cfg.params, base / "data", base / "reports")
    return run_study(cfg, quiet=True), base


def test_table_has_both_deal_sets_per_hand(result):
    res, _ = result
    df = res.table
    assert set(df.scenario) == set(SCENARIOS)
    assert len(df) == 2 * 2 * len(SCENARIOS)  # hands x deal sets x scenarios
    for _, g in df.groupby("hand_id"):
        assert sorted(g.conditioned) == [False, True]
    assert (df.deals + df.undecided == TINY["deals_per_hand"]).all()
    cond = df[df.conditioned]
    assert (cond.accepted >= TINY["deals_per_hand"]).all() and (cond.sampled > 0).all()
    uni = df[df.condition == UNIFORM]
    assert (uni.accepted == uni.sampled).all()


def test_conditioned_hands_accept_their_auction(result):
    """The conditioned deal set of a hand is the accepted part of the hand's raw stream."""
    res, _ = result
    rs = get_ruleset("book")
    r = res.table[res.table.conditioned].iloc[0]
    seat, auction, _ = SCENARIOS[r.scenario]
    _, turns, _ = read_auction(rs, auction, seat)
    known = [[] for _ in range(4)]
    from analyser.cards import mask_to_cards

    known[seat] = mask_to_cards(int(r["mask"]))
    raw = sample_deals(known, int(r.sampled), int(r.deal_seed))
    assert int(accepts(rs, BookModel(), turns, raw, seat).sum()) == int(r.accepted)


def test_section_auction_reads_the_numbers(result):
    res, base = result
    section = study_section(res, base / "reports")
    assert section.name == "auction"
    main = next(b for b in section.blocks if b.title.startswith("How much"))
    assert "beter rik after a rik" in main.reading and "misère after two passes" in main.reading
    assert "Double-dummy" in main.reading and "accepted" in main.reading
    assert main.png is not None and pathlib.Path(main.png).exists()
    shift = res.tables["shift"]
    assert np.isfinite(shift["shift"]).all()


def test_report_has_the_auction_section(result):
    from analyser.studies.config import SuiteConfig
    from analyser.studies.report import build_report

    res, base = result
    suite = SuiteConfig(base / "suite.toml", "Test report", (res.cfg,), base / "reports")
    files = build_report(suite, quiet=True, log=lambda _: None)
    text = files.html.read_text(encoding="utf-8")
    assert 'id="auction"' in text and "How much the auction changes the answer" in text
