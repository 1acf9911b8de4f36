"""The two seat conventions, as named types, and the one conversion between them.

* :data:`Seat` — an absolute seat 0..3 = N, E, S, W, clockwise (:mod:`analyser.cards`): what
  deals, the sampler, the rules' auction and scoring and the solver index by.
* :data:`Place` — a player's place relative to the dealer, 1..4, as the user gives it
  (``--seat``): 1 = the forehand, left of the dealer (bids first, leads to trick 1 of a closed
  contract), 4 = the dealer. Results report it as ``seat``.

The analysis puts the dealer at West (:data:`DEALER`), so place 1 = North (:data:`FOREHAND`),
2 = East, 3 = South, 4 = West. :func:`seat_of` and :func:`place_of` are the only conversions
between the two; :func:`turn_order` gives a seat's place counted from 0, the form
:func:`analyser.rules.declarable_contracts` takes. Both types are plain ints at run time
(:class:`typing.NewType`); the solver (:mod:`analyser.solver`) keeps plain ints 0..3.
"""

from __future__ import annotations

from typing import NewType

from analyser.cards import N_SEATS, WEST

Seat = NewType("Seat", int)
"""An absolute seat 0..3: N, E, S, W."""
Place = NewType("Place", int)
"""A place relative to the dealer 1..4: 1 = forehand (left of the dealer) .. 4 = the dealer."""

PLACES: tuple[Place, ...] = tuple(Place(p) for p in range(1, N_SEATS + 1))
FOREHAND_PLACE = Place(1)  # bids first, leads to trick 1 of a closed contract
DEALER_PLACE = Place(N_SEATS)

DEALER = Seat(WEST)  # where the analysis seats the dealer


def seat_of(place: Place) -> Seat:
    """The absolute seat 0..3 (N E S W) of the player ``place`` (1..4) places left of the
    dealer; ValueError outside 1..4."""
    if not 1 <= place <= N_SEATS:
        raise ValueError(f"a seat relative to the dealer is 1..4, got {place}")
    return Seat((DEALER + place) % N_SEATS)


def place_of(seat: Seat) -> Place:
    """The place 1..4 relative to the dealer of absolute ``seat`` (0..3); the inverse of
    :func:`seat_of`. ValueError outside 0..3."""
    if not 0 <= seat < N_SEATS:
        raise ValueError(f"a seat is 0..3 (N E S W), got {seat}")
    return Place((seat - DEALER - 1) % N_SEATS + 1)


def turn_order(seat: Seat) -> int:
    """The place of absolute ``seat`` in the auction counted from 0: 0 = the forehand .. 3 =
    the dealer (``turn_order`` of :func:`analyser.rules.declarable_contracts`)."""
    return place_of(seat) - 1


FOREHAND = seat_of(FOREHAND_PLACE)  # North
