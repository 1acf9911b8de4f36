"""Called card (R-BID-10, G-ACE-01, iwwa I-07) and malheur partner card (R-MAL-03)."""

import pytest

from analyser.cards import DIAMONDS, HEARTS, RANK_CHARS_EN, SPADES, card
from analyser.errors import RulesError
from analyser.rules import called_card, get_ruleset, malheur_partner_cards

BOOK, IWWA = get_ruleset(), get_ruleset("iwwa2024")


def hand(text):
    """Cards from 'S:AK H:Q D: C:T2' (English ranks; empty suits may be left out)."""
    out = []
    for part in text.split():
        suit, ranks = part.split(":")
        s = "SHDC".index(suit)
        out += [card(s, RANK_CHARS_EN.index(r)) for r in ranks]
    return out


def c(text):
    """One card such as 'HA' (suit letter, then rank)."""
    return card("SHDC".index(text[0]), RANK_CHARS_EN.index(text[1]))


@pytest.mark.parametrize("rules", [BOOK, IWWA])
@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        # No aces: every non-trump ace.
        ("S:KQJT98 H:KQ D:KQ C:KQJ", SPADES, ["HA", "DA", "CA"]),
        # Own side ace excluded; the trump ace is never called.
        ("S:AKQJT9 H:A2 D:K2 C:K32", SPADES, ["DA", "CA"]),
        # A void suit's ace may be called (R-PLAY-05).
        ("S:KQJT9876 H:K2 C:K32", SPADES, ["HA", "DA", "CA"]),
        # Hearts trump: spades, diamonds, clubs aces.
        ("S:2 H:AKQJT98 D:32 C:432", HEARTS, ["SA", "DA", "CA"]),
        # All three side aces held: the side kings not held.
        ("S:AKQJ H:A D:A2 C:A5432", SPADES, ["HK", "DK", "CK"]),
        ("S:KQJT H:AK D:A2 C:A5432", SPADES, ["DK", "CK"]),
        # All four aces (IWWA's wording): a king; the trump king is not a side king.
        ("S:AQJT H:A D:AK C:A5432", SPADES, ["HK", "CK"]),
        # Side aces and side kings held: the queens.
        ("S:AKQ H:AK D:AKQ C:AKQJ", DIAMONDS, ["HQ"]),
    ],
)
def test_called_card(rules, cards, trump, expected):
    assert called_card(rules, hand(cards), trump) == sorted(c(x) for x in expected)


def test_called_card_queens_and_below():
    # Holding A K of every side suit and the side queens of spades and clubs.
    cards = hand("S:AKQ H:AK D:AKQJT C:AKQ")
    assert called_card(BOOK, cards, DIAMONDS) == [c("HQ")]
    # Holding A K Q of every side suit: jacks.
    cards = hand("S:AKQ H:AKQ D:2 C:AKQJ")
    assert called_card(BOOK, cards, DIAMONDS) == [c("SJ"), c("HJ")]


def test_called_card_errors():
    cards = hand("S:KQJT98 H:KQ D:KQ C:KQJ")
    for bad_trump in (4, -1, True, None):
        with pytest.raises(RulesError):
            called_card(BOOK, cards, bad_trump)
    with pytest.raises(RulesError, match="twice"):
        called_card(BOOK, [0, 0, 1], SPADES)
    with pytest.raises(RulesError):
        called_card(BOOK, [52], SPADES)


@pytest.mark.parametrize(
    "cards, expected",
    [
        ("S:A H:A D:A2 C:5432 S:KQJ H:KQ", ["CA"]),  # 3 aces: the 4th ace
        ("S:AKQ H:A D:KQ C:A5432", ["DA"]),
        ("S:A H:A D:A C:A5432 S:Q H:Q D:QJ", ["SK", "HK", "DK", "CK"]),  # 4 aces: kings
        ("S:AK H:AK D:A C:AK5432", ["DK"]),
        ("S:AKQ H:AK D:AK C:AK5432", ["HQ", "DQ", "CQ"]),  # all kings too: queens
    ],
)
def test_malheur_partner_cards(cards, expected):
    assert malheur_partner_cards(hand(cards)) == sorted(c(x) for x in expected)


def test_malheur_needs_three_aces():
    with pytest.raises(RulesError, match="3 or 4 aces"):
        malheur_partner_cards(hand("S:A H:A D:KQJT C:KQJT98"))
