"""Partner cards: the rikker's called card and the malheur partner card.

Public API:

* :func:`called_card` ``(ruleset, hand_cards, trump)`` — the cards a rikker may call after
  naming ``trump`` (R-BID-10, G-ACE-01, iwwa I-07): every non-trump ace he does not hold (void
  suits included); if he holds all three non-trump aces, every non-trump king he does not hold;
  holding those too, the queens, and so on down. Both rule sets agree: IWWA's "all four aces →
  a king" is the case where the three side aces are held, and its UNSPECIFIED "aces and kings"
  defaults to a queen, which is the book's rule.
* :func:`malheur_partner_cards` ``(hand_cards)`` — R-MAL-03: with 3 aces the 4th ace (one
  card); with 4 aces the kings he does not hold (he names one), holding all four kings the
  queens he does not hold, and so on.
* :func:`troel_partner_card` ``(hand_cards)`` — wiezen W-04/W-05: with 3 aces (troel) the 4th
  ace; with 4 aces (troela) ♥K, or the highest heart below it that he does not hold.

Cards are ints 0..51 (analyser.cards). Results are sorted ascending.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyser.cards import ACE, HEARTS, N_CARDS, N_RANKS, N_SUITS, card
from analyser.errors import RulesError
from analyser.rules.ruleset import RuleSet


def called_card(ruleset: RuleSet, hand_cards: Iterable[int], trump: int) -> list[int]:
    """Legal called cards for a rikker holding ``hand_cards`` with ``trump`` (suit 0..3)."""
    del ruleset  # same rule in every supported set (module docstring); kept for the API's shape
    held = _hand_set(hand_cards)
    if isinstance(trump, bool) or not isinstance(trump, int) or not 0 <= trump < N_SUITS:
        raise RulesError(f"a rik needs a trump suit 0..3, got {trump!r}")
    side_suits = [s for s in range(N_SUITS) if s != trump]
    return _highest_missing(held, side_suits)


def malheur_partner_cards(hand_cards: Iterable[int]) -> list[int]:
    """The malheur partner card(s) for a hand with 3 or 4 aces (R-MAL-03)."""
    held = _hand_set(hand_cards)
    aces = sum(card(s, ACE) in held for s in range(N_SUITS))
    if aces < 3:
        raise RulesError(f"malheur needs 3 or 4 aces, the hand holds {aces}")
    # With 3 aces the missing ace is the only candidate; with 4 the search moves to kings.
    return _highest_missing(held, list(range(N_SUITS)))


def troel_partner_card(hand_cards: Iterable[int]) -> int:
    """The troel partner card of a hand with 3 aces (the 4th ace, W-04) or the troela partner
    card of a hand with 4 (♥K; the next heart down that the hand lacks when it holds ♥K,
    W-05). Its holder is the partner and leads it to trick 1."""
    held = _hand_set(hand_cards)
    aces = sum(card(s, ACE) in held for s in range(N_SUITS))
    if aces == 3:
        return _highest_missing(held, list(range(N_SUITS)))[0]
    if aces == 4:
        return _highest_missing(held, [HEARTS])[0]  # ♥A is his: ♥K or lower
    raise RulesError(f"troel needs 3 aces and troela 4, the hand holds {aces}")


def _highest_missing(held: set[int], suits: list[int]) -> list[int]:
    """Cards of the highest rank (ace down) with at least one card of ``suits`` not held."""
    for rank in range(N_RANKS - 1, -1, -1):
        missing = [card(s, rank) for s in suits if card(s, rank) not in held]
        if missing:
            return sorted(missing)
    raise RulesError("the hand holds every card of the candidate suits; nothing can be called")


def _hand_set(hand_cards: Iterable[int]) -> set[int]:
    cards = [int(c) for c in hand_cards]
    if any(not 0 <= c < N_CARDS for c in cards):
        raise RulesError(f"cards must be ints 0..51, got {sorted(cards)}")
    held = set(cards)
    if len(held) != len(cards):
        raise RulesError("a hand lists a card twice")
    return held
