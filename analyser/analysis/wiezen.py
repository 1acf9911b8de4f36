"""What the analysis of a hand needs under a rule set with a turned trump (wiezen, §7.4).

* **The turned card** (W-01). The dealer's 13th card is dealt face up and stays in his hand:
  its suit is the turned trump and every player knows where it lies. :func:`turned_known`
  checks it against the analysed hand and seat and returns the known cards the sampler
  deals around (:func:`analyser.sampler.with_turned_card`), so every sampled deal has the
  card in the dealer's hand and is otherwise uniform.
* **Who goes along with an ask** (vragen + meegaan, W-07). The asker cannot see who will
  join him, so the analysis needs a model of the other players. The model, stated once
  here and in docs/rules.md: every player still in the auction after the asker (the later
  seats in turn order; only the next one under ``meegaan=next``) goes along when his hand
  holds at least :data:`JOIN_MIN_TRUMPS` cards of the turned suit and his turned-suit cards
  plus his aces outside it number at least :data:`JOIN_MIN_COUNT` (4 trumps and a side ace,
  5 trumps, or 3 trumps and two side aces); the first such player in turn order is the
  partner. The dealer's ask is never answered: he speaks last, and after three passes he
  decides at once (W-08). When nobody joins, the asker plays alone for 5 in the turned suit
  if that scores better than passing on the sample (the deal is then thrown in, 0 points),
  else he passes. The ``wiezen_ask`` study measures P(8 tricks) by the two hands' trumps
  and high cards, which is the evidence behind (or against) this threshold.
* **Troel announced by someone else** (W-03): :func:`troel_elsewhere` counts the deals on
  which another player holds 3 or 4 aces and so announces troel before the auction.

Seats here are absolute (0..3, the dealer at West, :mod:`analyser.seats`).
"""

from __future__ import annotations

import numpy as np

from analyser.cards import ACE, N_SEATS, N_SUITS, SUIT_BITS, SUIT_MASK, suit_of
from analyser.errors import RikkenError
from analyser.notation import format_card
from analyser.rules import RuleSet
from analyser.seats import DEALER, DEALER_PLACE, Seat, turn_order

JOIN_MIN_TRUMPS = 3
"""Fewest cards of the turned suit a player goes along with (the meegaan model)."""
JOIN_MIN_COUNT = 5
"""Fewest turned-suit cards plus side aces a player goes along with (the meegaan model)."""

_ACE_BITS = sum(1 << (SUIT_BITS * s + ACE) for s in range(N_SUITS))


def turned_known(
    ruleset: RuleSet, hand: list[int], seat: Seat, turned: int | None
) -> tuple[list[list[int]], int | None]:
    """The known cards to sample around (four card lists, N E S W) for ``hand`` at absolute
    ``seat``, and the turned suit (None without a turned trump).

    RikkenError (one line) when the rule set needs a turned card and none is given, when one
    is given to a rule set without a turned trump, when the dealer's hand lacks the turned
    card, or when another seat's hand holds it (the dealer keeps it, W-01)."""
    known: list[list[int]] = [[], [], [], []]
    known[seat] = list(hand)
    check_turned(ruleset, turned)
    if turned is None:
        return known, None
    name = format_card(turned, "nl")
    if seat == DEALER and turned not in hand:
        raise RikkenError(
            f"the turned card {name} is not in this hand, but seat {DEALER_PLACE} is the "
            "dealer, who keeps his turned card (W-01)"
        )
    if seat != DEALER and turned in hand:
        raise RikkenError(
            f"the turned card {name} is in this hand, but it lies with the dealer (seat "
            f"{DEALER_PLACE}); this hand sits at seat {turn_order(seat) + 1}"
        )
    from analyser.sampler import with_turned_card

    owner = with_turned_card(known, turned, DEALER)
    known = [[c for c in range(len(owner)) if owner[c] == s] for s in range(N_SEATS)]
    return known, suit_of(turned)


def check_turned(ruleset: RuleSet, turned: int | None) -> None:
    """RikkenError (one line) when ``ruleset`` has a turned trump and no turned card is
    given, or has none and one is given (the --turned option of every command)."""
    if not ruleset.turned_trump and turned is not None:
        raise RikkenError(
            f"--turned: the {ruleset.name} rule set has no turned trump card "
            "(only wiezen turns the dealer's last card)"
        )
    if ruleset.turned_trump and turned is None:
        raise RikkenError(
            f"the {ruleset.name} rule set needs the turned card: give --turned CARD, the "
            "dealer's face-up 13th card (W-01), e.g. --turned ♥7"
        )


def joins(masks: np.ndarray, trump: int) -> np.ndarray:
    """Per hand mask, True when the meegaan model lets its holder go along with an ask in
    ``trump`` (module docstring)."""
    masks = np.asarray(masks, dtype=np.int64)
    trumps = np.bitwise_count((masks >> (SUIT_BITS * trump)) & SUIT_MASK).astype(np.int64)
    side_aces = np.bitwise_count(masks & (_ACE_BITS & ~(1 << (SUIT_BITS * trump + ACE))))
    return (trumps >= JOIN_MIN_TRUMPS) & (trumps + side_aces.astype(np.int64) >= JOIN_MIN_COUNT)


def join_candidates(ruleset: RuleSet, seat: Seat) -> list[Seat]:
    """The seats that may go along with an ask from absolute ``seat`` when every seat before
    him passed, in the order they speak: the later seats (W-07), only the next one under
    ``meegaan=next``; none for the dealer (W-08: after three passes he decides at once)."""
    first = turn_order(seat)
    later = [Seat((seat + k) % N_SEATS) for k in range(1, N_SEATS - first)]
    return later[:1] if ruleset.meegaan == "next" else later


def meegaan_partner(deals: np.ndarray, ruleset: RuleSet, seat: Seat, trump: int) -> np.ndarray:
    """Per deal (``int64[n, 4]`` masks), the seat that goes along with an ask by ``seat`` in
    ``trump`` under the meegaan model, or -1 when nobody does."""
    out = np.full(deals.shape[0], -1, dtype=np.int64)
    for s in reversed(join_candidates(ruleset, seat)):  # the earliest speaker wins
        out[joins(deals[:, s], trump)] = s
    return out


def troel_elsewhere(deals: np.ndarray, seat: Seat) -> np.ndarray:
    """Per deal, True when a seat other than ``seat`` holds 3 or 4 aces (it announces troel
    or troela before the auction, W-03)."""
    aces = np.bitwise_count(np.asarray(deals, dtype=np.int64) & _ACE_BITS)
    others = np.delete(aces, seat, axis=1)
    return (others >= 3).any(axis=1)
