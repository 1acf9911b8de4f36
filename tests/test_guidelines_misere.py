"""docs/guidelines.md §4: δ, holes, safe(s), the red flags G-MIS-04/05/06, follow and lead rules."""

import functools

import numpy as np
import pytest

from analyser.cards import RANK_CHARS_EN, card, rank_of, suit_of
from analyser.errors import RulesError
from analyser.guidelines.hand import ranks_holding
from analyser.guidelines.misere import (
    HoleMeasure,
    absolutely_safe,
    bare_high_card,
    best_lead,
    big_hole_suits,
    cover,
    cover_miss_probability,
    delta,
    deltas,
    has_big_hole,
    hole_count,
    hole_measures,
    hole_suits,
    holes,
    is_safe_suit,
    lead_cost,
    lead_cost_deterministic,
    long_suit_without_two,
    max_delta,
    misere_follow,
    misere_forced,
    misere_ok,
    safe_suit,
    suit_holes,
    three_big_holes,
)
from analyser.notation import parse_card, parse_hand


def holding(text):
    return ranks_holding(RANK_CHARS_EN.index(ch) for ch in text)


def r(ch):
    return RANK_CHARS_EN.index(ch)


C = parse_card
SAFE = "5432.642.32.7532"  # hole-free in every suit
HOLEY = "6543.JT2.9.87432"  # holes: ♠3 (δ 1), ♥T (6), ♥J (5), ♦9 (7)


# --------------------------------------------------------------------------- δ and holes


def test_guidelines_illustrations():
    assert deltas(holding("642")) == [(r("2"), 0), (r("4"), 0), (r("6"), 0)]
    assert is_safe_suit(holding("642"))
    assert deltas(holding("643")) == [(r("3"), 1), (r("4"), 0), (r("6"), 0)]
    assert suit_holes(holding("643")) == [r("3")]
    assert deltas(holding("9")) == [(r("9"), 7)]


def test_voids_and_thirteen_card_suits():
    assert deltas(holding("")) == [] and is_safe_suit(holding(""))
    full = deltas(holding("AKQJT98765432"))
    assert [d for _, d in full] == [-i for i in range(13)]
    assert absolutely_safe(parse_hand("AKQJT98765432...")) is True
    assert deltas(holding("A")) == [(r("A"), 12)]


def test_gone_cards_close_holes():
    assert deltas(holding("643"), gone=holding("2")) == [(r("3"), 0), (r("4"), -1), (r("6"), -1)]
    hand = parse_hand("643.AKQ.AKQ.AKQJ")
    assert delta(hand, C("S3")) == 1
    assert delta(hand, C("S3"), gone=[C("S2")]) == 0
    with pytest.raises(RulesError):
        delta(hand, C("S3"), gone=[C("S3")])
    with pytest.raises(RulesError):
        delta(hand, C("S5"))


def i_th_lowest_safe(h):
    """safe(s) ⇔ for all i: own i-th lowest < outstanding i-th lowest (where that exists)."""
    own = [x for x in range(13) if h >> x & 1]
    out = [x for x in range(13) if not h >> x & 1]
    return all(own[i] < out[i] for i in range(min(len(own), len(out))))


def test_safe_equals_i_th_lowest_comparison_for_every_holding():
    for h in range(8192):
        assert is_safe_suit(h) == i_th_lowest_safe(h), h


def test_safe_equals_exhaustive_single_suit_play_for_every_holding():
    for h in range(8192):
        assert is_safe_suit(h) == (not misere_forced(h)), h


@functools.cache
def brute_forced(mine, theirs):
    """Independent search on explicit rank sets: can the lone defender force a trick?"""
    if not mine or not theirs:
        return False
    for d in theirs:
        below = [m for m in mine if m < d]
        if not below:
            return True
        if all(brute_forced(mine - {m}, theirs - {d}) for m in below):
            return True
    return False


def test_misere_forced_agrees_with_brute_force():
    rng = np.random.default_rng(11)
    for _ in range(300):
        h = int(rng.integers(0, 8192))
        mine = frozenset(x for x in range(13) if h >> x & 1)
        assert misere_forced(h) == brute_forced(mine, frozenset(range(13)) - mine), h


def test_card_level_holes_cover_and_measures():
    hand = parse_hand(HOLEY)
    assert holes(hand) == sorted(C(x) for x in ("S3", "HT", "HJ", "D9"))
    assert safe_suit(hand, 3) and not safe_suit(hand, 0)
    assert cover(hand, C("HT")) == 3  # Q K A
    assert cover(hand, C("D9")) == 5
    assert cover(hand, C("C8")) == 6  # 9 T J Q K A
    assert hole_measures(hand) == [
        HoleMeasure(C("S3"), 0, r("3"), 1, 8, 4),
        HoleMeasure(C("HT"), 1, r("T"), 6, 3, 3),
        HoleMeasure(C("HJ"), 1, r("J"), 5, 3, 3),
        HoleMeasure(C("D9"), 2, r("9"), 7, 5, 1),
    ]


def test_hand_level_hole_figures():
    safe, holey = parse_hand(SAFE), parse_hand(HOLEY)
    assert absolutely_safe(safe) is True and absolutely_safe(holey) is False
    assert (hole_count(safe), hole_suits(safe), max_delta(safe)) == (0, 0, 0)
    assert (hole_count(holey), hole_suits(holey), max_delta(holey)) == (4, 3, 7)


# --------------------------------------------------------------------------- red flags


def test_bare_high_card():
    assert bare_high_card(parse_hand("5432.642.J.75432")) is True
    assert bare_high_card(parse_hand("5432.642.A.75432")) is True
    assert bare_high_card(parse_hand("5432.642.T.75432")) is False
    assert bare_high_card(parse_hand("5432.642.7.J5432")) is False
    # The "up to about the 7" boundary is a parameter (rank index: 7 = 5).
    assert bare_high_card(parse_hand("5432.642.7.J5432"), min_rank=r("7")) is True
    assert bare_high_card(parse_hand(SAFE)) is False


def test_long_suit_without_two():
    assert long_suit_without_two(parse_hand("876543.AK.32.432")) is True
    assert long_suit_without_two(parse_hand("765432.AK.83.543")) is False
    assert long_suit_without_two(parse_hand("87654.2.AK32.432")) is False
    assert long_suit_without_two(parse_hand("87654.2.AK32.432"), min_length=5) is True
    assert long_suit_without_two(parse_hand("..AKQJT98765432.")) is False
    assert long_suit_without_two(parse_hand("AKQJT9876543..2.")) is True


def test_big_holes():
    assert has_big_hole(holding("T2"))  # a hole at the ten
    assert not has_big_hole(holding("43"))  # δ 1 at the 3
    assert has_big_hole(holding("5"))  # δ 3
    assert not has_big_hole(holding("5"), min_delta=4)
    four = parse_hand("KQ2.T32.J32.A932")
    assert big_hole_suits(four) == 4 and three_big_holes(four) is True
    small = parse_hand("43.43.43.9876532")
    assert hole_suits(small) == 3 and big_hole_suits(small) == 0
    assert three_big_holes(small) is False
    assert three_big_holes(small, min_delta=1) is True
    holey = parse_hand(HOLEY)
    assert big_hole_suits(holey) == 2 and three_big_holes(holey) is False
    assert three_big_holes(holey, min_suits=2) is True


def test_misere_ok_combines_the_red_flags():
    assert misere_ok(parse_hand(SAFE)) is True
    assert misere_ok(parse_hand(HOLEY)) is True  # holes, but none of the book's red flags
    assert misere_ok(parse_hand("5432.642.J.75432")) is False
    assert misere_ok(parse_hand("876543.AK.32.432")) is False
    assert misere_ok(parse_hand("KQ2.T32.J32.A932")) is False
    assert misere_ok(parse_hand("5432.642.J.75432"), bare_min_rank=r("Q")) is True


# --------------------------------------------------------------------------- G-MIS-07


def test_follow_highest_card_that_still_loses():
    hand = parse_hand(HOLEY)
    assert misere_follow(hand, [C("HQ")]) == C("HJ")
    assert misere_follow(hand, [C("H9")]) == C("H2")
    assert misere_follow(hand, [C("H3"), C("H8")]) == C("H2")
    assert misere_follow(hand, [C("H3"), C("S8"), C("H8")]) == C("H2")  # off-suit ignored
    # Every spade beats the 2: the contract is lost; the highest goes.
    assert misere_follow(hand, [C("S2")]) == C("S6")


def test_discard_the_most_dangerous_card():
    hand = parse_hand("6543.JT32..87432")
    assert misere_follow(hand, [C("DK")]) == C("HT")  # δ(♥T) = 4 is the largest
    gone = [C(f"H{x}") for x in "456789"]
    assert misere_follow(hand, [C("DK")], gone=gone) == C("S3")  # hearts now safe
    with pytest.raises(RulesError):
        misere_follow(hand, [])


# --------------------------------------------------------------------------- G-MIS-08


def test_lead_cost_deterministic():
    hand = parse_hand("642.AKQ.AKQJ.AKQ")
    # Leading the 2 from 2-4-6 (A K Q fall on it) leaves 4 and 6 with δ 1 each.
    assert lead_cost_deterministic(hand, C("S2")) == 2
    hand = parse_hand("9.AKQ2.AKQJ.AKQ2")
    assert lead_cost_deterministic(hand, C("S9")) == -7  # a bare card removes its hole
    hand = parse_hand(HOLEY)
    assert lead_cost_deterministic(hand, C("H2")) == 2
    assert lead_cost_deterministic(hand, C("C2")) == 0


def sampled_cover_miss(hand, x, n, seed):
    """Monte-Carlo r(x): deal the 39 unseen cards to three defenders; x wins the trick when
    every defender holding the suit has a lower card to duck with."""
    rng = np.random.default_rng(seed)
    unseen = [c for c in range(52) if c not in set(hand)]
    suit = [i for i, c in enumerate(unseen) if suit_of(c) == suit_of(x)]
    low = np.array([rank_of(unseen[i]) < rank_of(x) for i in suit])
    owner = np.argsort(rng.random((n, 39)), axis=1)[:, suit] // 13
    wins = np.ones(n, dtype=bool)
    for d in range(3):
        has = (owner == d).any(axis=1)
        has_low = ((owner == d) & low).any(axis=1)
        wins &= ~(has & ~has_low)
    return wins.mean()


@pytest.mark.parametrize("x", ["D9", "S3", "HT", "C8"])
def test_cover_miss_probability_exact_matches_sampling(x):
    hand = parse_hand(HOLEY)
    exact = cover_miss_probability(hand, C(x))
    assert abs(exact - sampled_cover_miss(hand, C(x), 20000, seed=5)) < 0.015


def test_cover_miss_probability_edges():
    hand = parse_hand("A2.5432.5432.432")
    assert cover_miss_probability(hand, C("SA")) == 1.0  # nothing outstanding above
    assert cover_miss_probability(hand, C("S2")) == 0.0  # nothing below: someone covers
    assert cover_miss_probability(hand, C("H5")) == 0.0  # 5-4-3-2: nothing outstanding below
    with pytest.raises(RulesError):
        cover_miss_probability(hand, C("H5"), gone=[C("HA")])  # 38 unseen: give the sizes
    p = cover_miss_probability(hand, C("H5"), gone=[C("HA")], defender_cards=(13, 13, 12))
    assert p == 0.0
    with pytest.raises(RulesError):
        cover_miss_probability(hand, C("H5"), defender_cards=(13, 13, 12))


def test_best_lead():
    # Ties at cost 0 go to the singleton.
    assert best_lead(parse_hand("5432.642.2.87543")) == C("D2")
    # Weight 1 (docs/guidelines.md literally) cashes the ace of A-2; the default does not.
    hand = parse_hand("A2.5432.5432.432")
    assert lead_cost(hand, C("SA"), r_weight=1.0) == pytest.approx(-9.0)
    assert best_lead(hand, r_weight=1.0) == C("SA")
    assert best_lead(hand) != C("SA")
    assert lead_cost(hand, C("SA")) == pytest.approx(3.0)
    # Without the probability term only the hole mass counts.
    assert lead_cost(hand, C("S2"), r_weight=0) == lead_cost_deterministic(hand, C("S2"))
    chosen = best_lead(parse_hand(HOLEY))
    costs = {c: lead_cost(parse_hand(HOLEY), c) for c in parse_hand(HOLEY)}
    assert costs[chosen] == min(costs.values())
    assert card(3, 0) == chosen  # ♣2: no cost, cannot win the trick
