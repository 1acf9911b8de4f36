"""docs/guidelines.md §5-§6: piek (G-PIEK-02..06), open misère (G-OPEN-03), praatje (G-PRAAT-02)."""

import numpy as np
import pytest

from analyser.cards import RANK_CHARS_EN, cards_to_mask
from analyser.errors import RulesError
from analyser.guidelines.hand import ranks_holding
from analyser.guidelines.open_misere import has_safe_lead, open_misere_ok, praatje_ok
from analyser.guidelines.piek import (
    exit_cards,
    exit_count,
    piek_fallback,
    piek_ok,
    piek_rest_ok,
    second_winner,
    winner_count,
    winner_rank,
    winners,
)
from analyser.notation import parse_card, parse_hand

C = parse_card


def holding(text):
    return ranks_holding(RANK_CHARS_EN.index(ch) for ch in text)


# --------------------------------------------------------------------------- piek


def test_winner_rank():
    assert winner_rank(holding("A2")) == 12
    assert winner_rank(holding("KQ876")) == 11  # top honour of a five-card suit
    assert winner_rank(holding("KQ87")) == -1  # too short
    assert winner_rank(holding("KQ876"), long_min=6) == -1
    assert winner_rank(holding("987654")) == -1  # the top card is no HIGH card
    assert winner_rank(holding("T98765")) == 8
    assert winner_rank(holding("")) == -1


def test_one_ace_and_a_safe_rest():
    h = parse_hand("A5432.5432.432.2")
    assert winners(h) == (C("SA"),)
    assert piek_rest_ok(h, C("SA")) is True
    assert piek_ok(h) is True
    # A bare ace is a fine piek winner (and a misère disaster).
    assert piek_ok(parse_hand("A.5432.5432.5432")) is True


def test_long_suit_honour_with_holes_below():
    h = parse_hand("KQ8765.432.32.32")
    assert winners(h) == (C("SK"),)
    # The rest of the spades (Q 8 7 6 5 over the outstanding 4 3 2) has four holes.
    assert piek_rest_ok(h, C("SK")) is False
    assert piek_ok(h) is False
    assert piek_ok(h, max_holes=4, max_delta=3) is True


def test_no_winner_no_piek():
    h = parse_hand("5432.642.32.7532")  # a perfect misère hand
    assert winners(h) == ()
    assert piek_ok(h) is False


def test_second_ace_is_a_hole_of_the_rest():
    h = parse_hand("A2.A432.5432.432")
    assert winners(h) == (C("SA"), C("HA"))
    assert winner_count(h) == 2 and second_winner(h) is True
    assert piek_ok(h) is False  # either ace left over is a big hole
    assert piek_ok(h, max_delta=10) is True
    assert second_winner(parse_hand("A5432.5432.432.2")) is False


def test_winners_many_keeps_one_tuple_per_hand():
    hands = ["A5432.5432.432.2", "A2.A432.5432.432", "5432.642.32.7532", "KQ8765.432.32.32"]
    masks = np.array([cards_to_mask(parse_hand(t)) for t in hands], dtype=np.int64)
    got = winners.many(masks)
    assert got.shape == (4,)
    assert list(got) == [winners(parse_hand(t)) for t in hands]
    assert list(winner_count.many(masks)) == [1, 2, 0, 1]


def test_piek_rest_ok_checks_its_winner():
    h = parse_hand("A5432.5432.432.2")
    with pytest.raises(RulesError):
        piek_rest_ok(h, C("S5"))  # not the top card of its suit
    with pytest.raises(RulesError):
        piek_rest_ok(h, C("HA"))  # not in the hand


def test_exit_cards():
    h = parse_hand("A5432.5432.432.2")
    assert exit_cards(h) == sorted(set(h) - {C("SA")})
    assert exit_count(h) == 12
    holey = parse_hand("6543.JT2.9.87432")
    assert exit_count(holey) == 9
    assert C("S3") not in exit_cards(holey)
    assert C("S3") in exit_cards(holey, gone=[C("S2")])


def test_piek_fallback():
    # No six-card suit, big holes in four suits: too weak to rik, too strong for misère.
    assert piek_fallback(parse_hand("KQ2.T32.J32.A932")) is True
    assert piek_fallback(parse_hand("5432.642.32.7532")) is False  # a misère hand
    assert piek_fallback(parse_hand("AQ5432.K7.983.J6")) is False  # a rik hand


# --------------------------------------------------------------------------- G-OPEN-03


@pytest.mark.parametrize(
    "text, safe",
    [
        ("2", True),
        ("32", True),
        ("42", True),  # the 4 wins only if one defender holds all eleven others
        ("9", False),  # a bare 9 wins trick 1 in most deals
        ("", False),
        ("8642", False),  # low leads open holes, higher ones may win
        ("642", False),
    ],
)
def test_has_safe_lead(text, safe):
    assert has_safe_lead(holding(text)) is safe


def test_open_misere_ok():
    assert open_misere_ok(parse_hand("5432.642.32.7532")) is True
    assert open_misere_ok(parse_hand("643.5432.5432.32")) is True  # one hole, δ 1
    two_suits = parse_hand("643.643.5432.532")
    assert open_misere_ok(two_suits) is False
    assert open_misere_ok(two_suits, max_hole_suits=2) is True
    deep = parse_hand("754.5432.5432.32")  # δ(♠4) = 2
    assert open_misere_ok(deep) is False
    assert open_misere_ok(deep, max_delta=2) is True
    # Hole-free, but every lead either opens holes or may win the trick.
    no_lead = parse_hand("T8642.T8642.642.")
    assert open_misere_ok(no_lead) is False
    assert open_misere_ok(no_lead, max_lead_cost=2) is True


def test_praatje_ok():
    assert praatje_ok(parse_hand("5432.642.32.7532")) is True
    assert praatje_ok(parse_hand("T8642.T8642.642.")) is True
    one = parse_hand("643.5432.5432.32")
    assert praatje_ok(one) is False
    assert praatje_ok(one, max_holes=1) is True
