"""docs/guidelines.md §3: L/TT/risk/EL (G-ALN-03/04), SW (G-ALN-05), count, alone_ok, ruff_risk."""

import numpy as np
import pytest

from analyser.cards import HEARTS, RANK_CHARS_EN, SPADES, cards_to_mask
from analyser.errors import RulesError
from analyser.guidelines.alone import (
    alone_ok,
    alone_trump,
    book_count,
    expected_trump_losers,
    ruff_risk,
    side_winners,
    top_sequence,
    trump_el,
    trump_l,
    trump_losers,
    trump_risk,
    trump_risks,
    trump_tricks,
    trump_tt,
    trump_wl,
)
from analyser.guidelines.hand import ranks_holding
from analyser.guidelines.vocab import length, p_guard, suit_table
from analyser.notation import parse_hand


def holding(text):
    return ranks_holding(RANK_CHARS_EN.index(ch) for ch in text)


@pytest.mark.parametrize(
    "text, L, TT, risk",
    [
        ("AKQJ765", 0, 7, 0),  # §0 illustration: the book counts 7
        ("AQT6", 2, 2, 3),  # K (m 1), J (m 2) lose; 9 8 7 (m 3) are risks
        ("AKQ5432", 0, 7, 6),  # J..6 all need three guards
        ("KQJT9", 1, 4, 0),  # the ace is out
        ("765432", 7, 0, 0),  # more losers than trumps: TT floors at 0
        ("", 13, 0, 0),
        ("AKQJT98765432", 0, 13, 0),
    ],
)
def test_trump_figures(text, L, TT, risk):
    h = holding(text)
    assert (trump_losers(h), trump_tricks(h), trump_risks(h)) == (L, TT, risk)


def test_expected_trump_losers():
    # §0 illustration: three cards with m = 4 (p_guard(6, 4) each), three with m = 7 (0).
    assert expected_trump_losers(holding("AKQJ765")) == pytest.approx(3 * p_guard(6, 4))
    assert expected_trump_losers(holding("")) == pytest.approx(13.0)
    assert expected_trump_losers(holding("AKQJT98765432")) == 0.0
    # A missing ace always scores (m = 0): EL counts it as a whole loser.
    assert expected_trump_losers(holding("KQJT98765432")) == pytest.approx(1.0)


def test_trump_figures_properties_over_all_holdings():
    n = suit_table(length)
    L = suit_table(trump_losers)
    TT = suit_table(trump_tricks)
    el = suit_table(expected_trump_losers, float)
    assert (L <= 13 - n).all() and (TT <= n).all() and (TT >= 0).all()
    assert (el <= 13 - n + 1e-9).all() and (el >= 0).all()


@pytest.mark.parametrize(
    "text, sw, top_only",
    [
        ("AKQ2", 3, 3),
        ("A", 1, 1),
        ("AQ", 1, 1),  # only the unbroken sequence from the ace
        ("AKQJT98765432", 13, 13),
        ("KQJ", 2, 0),  # loses only to the ace
        ("KQJ5", 2, 0),
        ("KQ5", 1, 0),
        ("KQ", 0, 0),
        ("K", 0, 0),
        ("K5", 0, 0),
        ("Q54", 0, 0),
        ("J", 0, 0),
        ("", 0, 0),
    ],
)
def test_side_winners(text, sw, top_only):
    assert side_winners(holding(text)) == sw
    assert side_winners(holding(text), top_only=True) == top_only
    assert top_sequence(holding(text)) == top_only


def test_book_count():
    assert book_count(parse_hand("AKQT98.T4.AT.752")) == 7
    strong = parse_hand("AKQJT9.AK.AKQ.32")
    assert book_count(strong) == 11
    assert book_count(strong, trump=HEARTS) == 9  # A-K as trumps: TT 0; side 6 + 3
    assert book_count(parse_hand("KQJT98.A2.A2.A32")) == 8
    assert book_count(parse_hand("KQJ983.A2.A2.KQ3"), top_only=True) == 7
    assert book_count(parse_hand("KQJ983.A2.A2.KQ3")) == 8


def test_alone_trump_picks_the_best_count():
    # Spades as trump counts 5 + 3 = 8; clubs as trump (A-3-2) 0 + 2 + 1 + 1 = 4.
    assert alone_trump(parse_hand("KQJT98.A2.A2.A32")) == SPADES
    # Equal counts (7 either way) and equal lengths: the better honours.
    assert alone_trump(parse_hand("765432.AKQJT9.A.")) == HEARTS
    assert book_count(parse_hand("765432.AKQJT9.A."), trump=SPADES) == 7


def test_alone_ok_and_risk_limit():
    strong = parse_hand("AKQJT9.AK.AKQ.32")
    assert alone_ok(strong, 11) is True
    assert alone_ok(strong, 12) is False
    risky = parse_hand("AKQ5432.AK.AK.AK")  # count 13, but six trumps need three guards
    assert book_count(risky) == 13 and trump_risk(risky) == 6
    assert alone_ok(risky, 9) is False
    assert alone_ok(risky, 13, max_risk=6) is True
    assert trump_wl(risky) == 3


def test_trump_figures_of_a_hand():
    h = parse_hand("AQT6.AKQ.AKQ.AK2")
    assert alone_trump(h) == SPADES
    assert (trump_l(h), trump_tt(h), trump_risk(h)) == (2, 2, 3)
    assert trump_el(h) == pytest.approx(expected_trump_losers(holding("AQT6")))
    assert trump_wl(h, trump=HEARTS) == 7  # A-K-Q against ten: the ten-card length wins 7


def test_ruff_risk():
    h = parse_hand("AKQJT9.A32.K2.Q2")
    assert ruff_risk(h, forehand=False) is True
    assert ruff_risk(h, forehand=True) is False
    short = parse_hand("AKQJT9.A2.K32.Q2")
    assert ruff_risk(short, forehand=False) is False
    assert ruff_risk(short, forehand=False, min_length=2) is True
    # The trump ace never counts as a side ace.
    assert ruff_risk(parse_hand("AKQJT9.K32.K2.Q2"), forehand=False) is False
    masks = np.array([cards_to_mask(h), cards_to_mask(short)], dtype=np.int64)
    assert list(ruff_risk.many(masks, forehand=np.array([False, False]))) == [True, False]
    assert list(ruff_risk.many(masks, forehand=np.array([True, False]))) == [False, False]


def test_bad_trump_is_a_rules_error():
    with pytest.raises(RulesError):
        book_count(parse_hand("AKQJT9.AK.AKQ.32"), trump=4)
    with pytest.raises(RulesError):
        alone_ok(parse_hand("AKQJT9.AK.AKQ.32"), 9, trump=True)
