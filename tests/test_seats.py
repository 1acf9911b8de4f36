"""The two seat conventions: absolute seats 0..3 (N E S W) and places 1..4 from the dealer."""

from __future__ import annotations

import pytest

from analyser.cards import EAST, N_SEATS, NORTH, SOUTH, WEST, left_of
from analyser.rules import AuctionState, get_ruleset, next_dealer
from analyser.seats import (
    DEALER,
    DEALER_PLACE,
    FOREHAND,
    FOREHAND_PLACE,
    PLACES,
    place_of,
    seat_of,
    turn_order,
)


def test_places_map_to_compass_seats_with_the_dealer_at_west():
    assert PLACES == (1, 2, 3, 4)
    assert [seat_of(p) for p in PLACES] == [NORTH, EAST, SOUTH, WEST]
    assert DEALER == WEST == seat_of(DEALER_PLACE)
    assert FOREHAND == NORTH == seat_of(FOREHAND_PLACE) == left_of(DEALER)


@pytest.mark.parametrize("place", PLACES)
def test_conversions_are_inverse(place):
    assert place_of(seat_of(place)) == place
    assert seat_of(place_of(seat_of(place))) == seat_of(place)
    assert turn_order(seat_of(place)) == place - 1


def test_turn_order_follows_the_auction():
    """Place k speaks k-th in an auction the forehand opens (R-BID-01)."""
    state = AuctionState.start(FOREHAND)
    rs = get_ruleset()
    for k in range(N_SEATS):
        assert turn_order(state.turn) == k
        state = state.apply(rs, "pass")
    assert next_dealer(rs, DEALER, thrown_in=False) == FOREHAND


@pytest.mark.parametrize("bad", [0, 5, -1])
def test_seat_of_rejects_places_outside_1_to_4(bad):
    with pytest.raises(ValueError, match="1..4"):
        seat_of(bad)


@pytest.mark.parametrize("bad", [-1, 4])
def test_place_of_rejects_seats_outside_0_to_3(bad):
    with pytest.raises(ValueError, match="0..3"):
        place_of(bad)
