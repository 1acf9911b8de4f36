"""docs/guidelines.md §1: G-RIK-01 (minimum, E1, marginal), G-RIK-02 (trump), G-ACE-01/02 (call)."""

import numpy as np
import pytest

from analyser.cards import DIAMONDS, HEARTS, RANK_CHARS_EN, SPADES, cards_to_mask
from analyser.errors import RulesError
from analyser.guidelines.hand import ranks_holding
from analyser.guidelines.rik import (
    CLASS_A,
    CLASS_B,
    CLASS_C,
    CLASS_GUESS,
    CLASS_VOID,
    call_class,
    call_classes,
    default_call,
    legal_calls,
    rik_e1,
    rik_marginal,
    rik_ok,
    rik_ok_suit,
    rik_trump,
    rik_verdict,
)
from analyser.notation import parse_card, parse_hand
from analyser.rules import get_ruleset


def holding(text):
    return ranks_holding(RANK_CHARS_EN.index(ch) for ch in text)


# Hands just inside and just outside the G-RIK-01 boundary (length / HIGH in the long suit).
INSIDE = {
    "6/2": "AQ5432.K7.983.J6",
    "7/1": "K765432.Q8.J9.T5",
    "8/0": "98765432.AK.Q3.J",
    "8/0 hearts": "A.98765432.K.KQ2",
}
OUTSIDE = {
    "6/1": "K98765.A2.KQ3.Q4",
    "5/3": "AKQ32.AK4.Q54.J6",
    "7/0": "9876543.AK.AK.AQ",
    "5/5 E1": "AKQJT.A32.K54.Q6",
    "4333": "AKQJ.AKQ.AKQ.AKQ",
}


@pytest.mark.parametrize("name", sorted(INSIDE))
def test_rik_ok_inside(name):
    text = INSIDE[name]
    assert rik_ok(parse_hand(text)) is True
    assert rik_verdict(parse_hand(text)) == "yes"


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_rik_ok_outside(name):
    assert rik_ok(parse_hand(OUTSIDE[name])) is False


def test_rik_ok_suit_boundary_table():
    # Every (length, HIGH) pair: ok exactly when n >= 6 and HIGH >= 8 - n.
    for n in range(0, 14):
        for hi in range(0, min(n, 5) + 1):
            h = ranks_holding(list(range(12, 12 - hi, -1)) + list(range(n - hi)))
            assert rik_ok_suit(h) == (n >= 6 and hi >= max(0, 8 - n)), (n, hi)


def test_rik_thresholds_are_parameters():
    h = parse_hand("K98765.A2.KQ3.Q4")  # 6/1
    assert rik_ok(h) is False
    assert rik_ok(h, target=7) is True
    assert rik_ok(parse_hand("AKQ32.AK4.Q54.J6"), min_length=5) is True


def test_e1_and_verdict():
    e1 = parse_hand("AKQJT.A32.K54.Q6")
    assert rik_e1(e1) is True and rik_verdict(e1) == "maybe"
    # A K Q J 10 plus a sixth card is an ordinary yes, not E1.
    assert rik_e1(parse_hand("AKQJT2.A32.K54.Q")) is False
    assert rik_verdict(parse_hand("AKQJT2.A32.K54.Q")) == "yes"
    assert rik_verdict(parse_hand("AKQJ2.A32.K54.Q6")) == "no"


def test_marginal():
    assert rik_marginal(parse_hand("98765432.98.76.5")) is True
    assert rik_marginal(parse_hand("9.98765432.76.54")) is True  # in hearts
    assert rik_ok(parse_hand("98765432.98.76.5")) is True
    assert rik_marginal(parse_hand("98765432.AK.Q3.J")) is False  # side honours
    assert rik_marginal(parse_hand("T8765432.98.76.5")) is False  # a HIGH trump
    assert rik_marginal(parse_hand("9876543.982.76.5")) is False  # only seven


def test_thirteen_card_suit():
    h = parse_hand("AKQJT98765432...")
    assert rik_ok(h) is True and rik_trump(h) == SPADES
    h = parse_hand("..98765432AKQJT.")
    assert rik_trump(h) == DIAMONDS


@pytest.mark.parametrize(
    "text, trump",
    [
        ("AK5432.Q765432..", HEARTS),  # both qualify: the longer
        ("KQ5432.AJ5432.7.", HEARTS),  # equal length: the better honours (A beats K)
        ("AJ5432.AQ5432.7.", HEARTS),  # A-Q beats A-J
        ("AK5432.AK5432.7.", SPADES),  # identical: first suit
        ("9876543.AK5432..", HEARTS),  # only hearts qualifies, though spades is longer
        ("K98765.A2.KQ3.Q4", SPADES),  # none qualifies: the longest
        ("J8765.AQ432.K2.5", HEARTS),  # none qualifies, two longest: better honours
        ("2.K3.AQJ32.T9876", DIAMONDS),  # equal length 5, A-Q-J beats T-9
    ],
)
def test_rik_trump(text, trump):
    assert rik_trump(parse_hand(text)) == trump


# --------------------------------------------------------------------------- G-ACE-01


def cards(*texts):
    return sorted(parse_card(t) for t in texts)


def test_legal_calls_reuse_the_rule():
    h = parse_hand("AKQJ32.5.K4.J876")
    assert legal_calls(h, SPADES) == cards("HA", "DA", "CA")
    assert legal_calls(h, SPADES, get_ruleset("iwwa2024")) == cards("HA", "DA", "CA")
    # All three side aces held: the side kings not held.
    h = parse_hand("AKQ32.A5.A4.A876")
    assert legal_calls(h, SPADES) == cards("HK", "DK", "CK")
    # The trump ace is never called; an own side ace is not legal.
    h = parse_hand("KQJ932.A5.K4.J87")
    assert legal_calls(h, SPADES) == cards("DA", "CA")


# --------------------------------------------------------------------------- G-ACE-02


def test_call_classes_a_b_c():
    h = parse_hand("AKQJ32.5.K4.J876")  # L(spades) == 0: the outstanding T..4 all have m >= 4
    assert call_classes(h, SPADES) == {
        parse_card("HA"): CLASS_A,
        parse_card("DA"): CLASS_B,
        parse_card("CA"): CLASS_C,
    }
    assert default_call(h) == parse_card("HA")
    assert default_call(h, trump=SPADES) == parse_card("HA")


def test_class_c_needs_solid_trumps():
    h = parse_hand("KQJ932.5.K4.J876")  # the trump ace is out: L >= 1
    assert call_class(h, parse_card("CA"), SPADES) == CLASS_GUESS
    assert call_class(h, parse_card("CA"), SPADES, c_min_length=5) == CLASS_GUESS


def test_void_is_last_and_b_before_void():
    h = parse_hand("AKQJ32..K4.J8765")
    classes = call_classes(h, SPADES)
    assert classes[parse_card("HA")] == CLASS_VOID
    assert classes[parse_card("DA")] == CLASS_B
    assert classes[parse_card("CA")] == CLASS_C
    assert default_call(h) == parse_card("DA")
    h = parse_hand("AKQJ32..Q43.T876")
    assert call_classes(h, SPADES) == {
        parse_card("HA"): CLASS_VOID,
        parse_card("DA"): CLASS_GUESS,
        parse_card("CA"): CLASS_C,
    }
    h = parse_hand("KQJ9432..Q43.T87")
    assert default_call(h) == parse_card("DA")  # guess beats void; D and C tie: suit order


def test_k_x_x_variant():
    h = parse_hand("AKQJ32.5.K43.J87")
    assert call_class(h, parse_card("DA"), SPADES) == CLASS_GUESS
    assert call_class(h, parse_card("DA"), SPADES, b_max_length=3) == CLASS_B
    # A singleton king is class A, not B.
    assert call_class(parse_hand("AKQJ32.K.543.J87"), parse_card("HA"), SPADES) == CLASS_A


def test_default_call_ties_go_to_more_high_cards():
    h = parse_hand("AKQJ32.T5.QJ.876")
    assert call_classes(h, SPADES) == {
        parse_card("HA"): CLASS_GUESS,
        parse_card("DA"): CLASS_GUESS,
        parse_card("CA"): CLASS_GUESS,
    }
    assert default_call(h) == parse_card("DA")  # Q-J: two HIGH cards
    # Equal HIGH counts: the lower card int (suit order).
    assert default_call(parse_hand("AKQJ32.T5.Q4.876")) == parse_card("HA")


def test_default_call_when_all_side_aces_are_held():
    h = parse_hand("AKQ32.A5.A4.A876")
    assert call_class(h, parse_card("CK"), SPADES) == CLASS_C
    assert default_call(h) == parse_card("CK")


def test_call_class_rejects_bad_trump():
    with pytest.raises(RulesError):
        call_class(parse_hand("AKQJ32.5.K4.J876"), parse_card("HA"), 4)


def test_many_matches_single_hands():
    hands = [parse_hand(t) for t in list(INSIDE.values())[:3] + list(OUTSIDE.values())]
    masks = np.array([cards_to_mask(h) for h in hands], dtype=np.int64)
    assert list(rik_ok.many(masks)) == [rik_ok(h) for h in hands]
    assert list(rik_trump.many(masks)) == [rik_trump(h) for h in hands]
    assert list(default_call.many(masks)) == [default_call(h) for h in hands]
    assert list(rik_verdict.many(masks)) == [rik_verdict(h) for h in hands]
