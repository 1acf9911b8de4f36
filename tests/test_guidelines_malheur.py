"""docs/guidelines.md G-MAL-07: the partner's trump choice with the malheur player's aces."""

import numpy as np
import pytest

from analyser.cards import CLUBS, DIAMONDS, HEARTS, RANK_CHARS_EN, SPADES, cards_to_mask
from analyser.errors import RulesError
from analyser.guidelines.hand import ranks_holding
from analyser.guidelines.malheur import (
    effective_holding,
    malheur_aces_for,
    malheur_trump,
    malheur_trump_own,
)
from analyser.notation import parse_card, parse_hand
from analyser.rules import get_ruleset, malheur_trump_choices

C = parse_card

# The partner holds the 4th ace (hearts); K-Q-8-7-6 of spades plus the malheur player's
# spade ace is A-K-Q-8-7-6, which beats his own A-J-9-8-7-6 of hearts.
PARTNER = "KQ876.AJ9876.2.3"


def holding(text):
    return ranks_holding(RANK_CHARS_EN.index(ch) for ch in text)


def test_malheur_aces_are_the_aces_the_partner_lacks():
    assert malheur_aces_for(parse_hand(PARTNER)) == [C("SA"), C("DA"), C("CA")]
    assert len(malheur_aces_for(parse_hand("KQJ32.K32.KQ2.32"))) == 4


def test_effective_holding():
    h = parse_hand(PARTNER)
    aces = malheur_aces_for(h)
    assert effective_holding(h, SPADES, aces) == holding("AKQ876")
    assert effective_holding(h, HEARTS, aces) == holding("AJ9876")
    assert effective_holding(h, DIAMONDS, aces) == holding("A2")


def test_k_q_suit_beats_own_ace_suit():
    h = parse_hand(PARTNER)
    assert malheur_trump(h) == SPADES
    assert malheur_trump_own(h) == HEARTS  # on his own cards the longer hearts win


def test_auction_penalty_and_allowed_suits():
    h = parse_hand(PARTNER)
    assert malheur_trump(h, shown_suits=[SPADES]) == HEARTS
    assert malheur_trump(h, shown_suits=[SPADES], shown_penalty=0) == SPADES
    assert malheur_trump(h, allowed=[HEARTS, DIAMONDS, CLUBS]) == HEARTS
    # V-04: the 4th ace's suit (hearts) may not be trump; spades is still allowed.
    v04 = get_ruleset("book", malheur_trump_may_be_partner_suit=False)
    assert malheur_trump(h, allowed=malheur_trump_choices(v04, C("HA"))) == SPADES
    with pytest.raises(RulesError):
        malheur_trump(h, allowed=[])


def test_four_aces_and_ties():
    # The malheur player holds all four aces: every suit gains one.
    assert malheur_trump(parse_hand("KQJ32.K32.KQ2.32")) == SPADES
    assert malheur_trump(parse_hand("K32.K32.KQJ2.QJ2")) == DIAMONDS
    # Identical effective suits: the first in suit order.
    tie = parse_hand("KQ32.KQ32.J32.32")
    assert malheur_trump(tie) == SPADES
    assert malheur_trump(tie, allowed=[HEARTS, DIAMONDS, CLUBS]) == HEARTS


def test_explicit_aces_are_checked():
    h = parse_hand(PARTNER)
    with pytest.raises(RulesError):
        malheur_trump(h, malheur_aces=[C("HA")])  # the partner's own ace
    with pytest.raises(RulesError):
        malheur_trump(h, malheur_aces=[C("SK")])  # not an ace
    assert malheur_trump(h, malheur_aces=[C("DA")]) == HEARTS  # without the spade ace


def test_many_loops_over_hands():
    hands = [parse_hand(t) for t in (PARTNER, "KQJ32.K32.KQ2.32", "K32.K32.KQJ2.QJ2")]
    masks = np.array([cards_to_mask(h) for h in hands], dtype=np.int64)
    assert list(malheur_trump.many(masks)) == [SPADES, SPADES, DIAMONDS]
