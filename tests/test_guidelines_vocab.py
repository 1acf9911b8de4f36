"""docs/guidelines.md §0: hand edges, n_s / hi_s, m(c) and the guard rule, p_guard, WL."""

import functools

import numpy as np
import pytest

from analyser.cards import RANK_CHARS_EN, cards_to_mask
from analyser.errors import ParseError, RulesError
from analyser.guidelines import best_lead, misere_ok, rik_ok, winners
from analyser.guidelines.hand import (
    check_hand,
    hand_holdings,
    mask_holdings,
    masks_cards,
    ranks_holding,
)
from analyser.guidelines.vocab import (
    LOSER,
    RISK,
    VERY_SMALL_RISK,
    guard_rule_wins,
    high_count,
    high_counts,
    length,
    loser_class,
    m_above,
    p_guard,
    ranks_desc,
    suit_lengths,
    suit_table,
    trump_vocabulary,
    worst_case_trump_losers,
)
from analyser.notation import parse_hand
from analyser.sampler import random_hands


def holding(text):
    """13-bit holding from ranks such as 'AKQJ765' (T = ten, '' = void)."""
    return ranks_holding(RANK_CHARS_EN.index(ch) for ch in text)


def rank(ch):
    return RANK_CHARS_EN.index(ch)


# --------------------------------------------------------------------------- edges


def test_hand_holdings_and_masks_agree():
    h = parse_hand("AKQT98.T4.AT.752")
    hold = hand_holdings(h)
    assert list(hold) == [holding("AKQT98"), holding("T4"), holding("AT"), holding("752")]
    masks = np.array([cards_to_mask(h)], dtype=np.int64)
    assert (mask_holdings(masks)[0] == hold).all()
    assert masks_cards(masks) == [h]


@pytest.mark.parametrize(
    "bad, exc",
    [
        ([0, 0, 1], ParseError),
        ([52], ParseError),
        ([-1], ParseError),
        (list(range(14)), ParseError),
        ("AKQ", ParseError),
        ([None], ParseError),
    ],
)
def test_check_hand_rejects(bad, exc):
    with pytest.raises(exc):
        check_hand(bad)


def test_guideline_functions_check_their_hand():
    for fn in (rik_ok, misere_ok, winners, best_lead):
        with pytest.raises(ParseError):
            fn([0, 0, 1])
        with pytest.raises(ParseError):
            fn(list(range(14)))


def test_mask_holdings_needs_1d():
    with pytest.raises(ParseError):
        mask_holdings(np.zeros((3, 4), dtype=np.int64))


def test_lengths_and_high_counts():
    h = parse_hand("AKQT98.T4.AT.752")
    assert suit_lengths(h) == (6, 2, 2, 3)
    assert high_counts(h) == (4, 1, 2, 0)
    assert length(holding("")) == 0 and high_count(holding("")) == 0
    assert length(holding("AKQJT98765432")) == 13
    assert high_count(holding("AKQJT98765432")) == 5
    assert ranks_desc(holding("K2A")) == (rank("A"), rank("K"), rank("2"))


def test_suit_table_is_cached_and_read_only():
    t = suit_table(length)
    assert t is suit_table(length)
    assert t.shape == (8192,) and t[holding("AK2")] == 3
    with pytest.raises(ValueError):
        t[0] = 1


# --------------------------------------------------------------------------- m(c), guard rule


def test_m_and_guard_rule():
    trumps = holding("AKQ9")
    # K needs 1 guard against A; J needs 3 against A-K-Q; the 10 also 3 (the 9 is below it).
    assert m_above(holding("A"), rank("K")) == 1
    assert m_above(trumps, rank("J")) == 3
    assert m_above(trumps, rank("T")) == 3
    assert m_above(trumps, rank("8")) == 4
    assert guard_rule_wins(3, 3) and not guard_rule_wins(3, 2)
    assert guard_rule_wins(0, 0)  # a card above all of the declarer's trumps always wins


@pytest.mark.parametrize(
    "m, cls",
    [(0, LOSER), (1, LOSER), (2, LOSER), (3, RISK), (4, VERY_SMALL_RISK), (9, VERY_SMALL_RISK)],
)
def test_loser_class(m, cls):
    assert loser_class(m) == cls


def test_trump_vocabulary_illustration():
    # GUIDELINES §0: A-K-Q-J-7-6-5 against 10-9-8-4-3-2: every outstanding card has m >= 4.
    voc = trump_vocabulary(holding("AKQJ765"))
    assert [r for r, _, _ in voc] == [rank(ch) for ch in "T98432"]
    assert [m for _, m, _ in voc] == [4, 4, 4, 7, 7, 7]
    assert {cls for _, _, cls in voc} == {VERY_SMALL_RISK}


def test_trump_vocabulary_mixed():
    voc = dict((r, (m, cls)) for r, m, cls in trump_vocabulary(holding("AQT6")))
    assert voc[rank("K")] == (1, LOSER)
    assert voc[rank("J")] == (2, LOSER)
    assert voc[rank("9")] == (3, RISK)
    assert voc[rank("5")] == (4, VERY_SMALL_RISK)


# --------------------------------------------------------------------------- p_guard

BOOK_TABLE = {
    4: [0.69, 0.23, 0.03, 0.00],
    5: [0.80, 0.38, 0.08, 0.01],
    6: [0.87, 0.51, 0.17, 0.03],
    7: [0.92, 0.63, 0.27, 0.07],
}


@pytest.mark.parametrize("k", sorted(BOOK_TABLE))
@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_p_guard_reproduces_guidelines_table(k, m):
    # The table's 0.38 at k=5, m=2 is 0.3748 rounded twice (0.375 → 0.38); allow that.
    assert abs(p_guard(k, m) - BOOK_TABLE[k][m - 1]) <= 0.0053


def test_p_guard_spot_values_and_edges():
    assert p_guard(6, 4) == pytest.approx(0.0272, abs=1e-4)  # the 10 in the §0 illustration
    assert p_guard(5, 2) == pytest.approx(0.3748, abs=1e-4)
    assert p_guard(4, 0) == 1.0
    assert p_guard(4, 4) == 0.0  # only 3 other outstanding trumps
    assert p_guard(1, 1) == 0.0
    for k in range(1, 14):
        values = [p_guard(k, m) for m in range(0, 14)]
        assert values == sorted(values, reverse=True)  # decreasing in m
    with pytest.raises(RulesError):
        p_guard(0, 1)


def test_p_guard_matches_deal_samples():
    rng = np.random.default_rng(20240501)
    k, n = 6, 40000
    # 39 unseen cards in three 13-card hands; cards 0..k-1 are the outstanding trumps.
    owners = np.argsort(rng.random((n, 39)), axis=1)[:, :k] // 13
    same = (owners[:, 1:] == owners[:, :1]).sum(axis=1)
    for m in (1, 2, 3, 4):
        assert abs((same >= m).mean() - p_guard(k, m)) < 0.012


# --------------------------------------------------------------------------- WL


@pytest.mark.parametrize(
    "text, wl",
    [
        ("AKQJ765", 2),  # §0 illustration: one defender with all six takes two
        ("AKQJT98", 0),
        ("AKQT98", 2),  # the J with six guards, and the 7th card
        ("AK", 9),
        ("A", 11),
        ("", 13),
        ("AKQJT98765432", 0),
        ("2", 12),
        ("KQJT98765432", 1),  # the ace alone
        ("AKQJ", 5),
    ],
)
def test_worst_case_trump_losers(text, wl):
    assert worst_case_trump_losers(holding(text)) == wl


@functools.cache
def brute_defender_tricks(decl, defn, declarer_leads):
    """Independent minimax over explicit rank sets (no state compaction)."""
    if not decl or not defn:
        return len(defn)
    leader = decl if declarer_leads else defn
    follower = defn if declarer_leads else decl
    lead_values = []
    for a in leader:
        replies = []
        for b in follower:
            declarer_wins = (a > b) == declarer_leads
            d = decl - {a if declarer_leads else b}
            f = defn - {b if declarer_leads else a}
            replies.append((not declarer_wins) + brute_defender_tricks(d, f, declarer_wins))
        lead_values.append(max(replies) if declarer_leads else min(replies))
    return min(lead_values) if declarer_leads else max(lead_values)


def test_wl_agrees_with_brute_force_on_random_suits():
    rng = np.random.default_rng(7)
    for _ in range(60):
        h = int(rng.integers(0, 8192))
        decl = frozenset(r for r in range(13) if h >> r & 1)
        defn = frozenset(range(13)) - decl
        for leads in (True, False):
            expected = brute_defender_tricks(decl, defn, leads)
            assert worst_case_trump_losers(h, declarer_leads=leads) == expected, (h, leads)


def test_wl_bounds_on_all_holdings():
    wl = suit_table(worst_case_trump_losers)
    n = suit_table(length)
    # The defender takes at least his length surplus and never more than his cards.
    assert (wl >= np.maximum(0, 13 - 2 * n)).all()
    assert (wl <= 13 - n).all()


def test_random_hands_vectorised_lengths():
    masks = random_hands(500, seed=3)
    lengths = suit_lengths.many(masks)
    assert lengths.shape == (500, 4)
    assert (lengths.sum(axis=1) == 13).all()
    for m, row in zip(masks[:20], lengths[:20], strict=True):
        assert suit_lengths(masks_cards([m])[0]) == tuple(row)
