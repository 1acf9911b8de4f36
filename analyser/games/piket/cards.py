"""The 32-card piket deck (PK-01): card ids, bitmasks, and reading a hand.

At the boundary a card is an int 0..31: ``suit * 8 + rank`` with suits ordered as in the
rest of the project (0 spades, 1 hearts, 2 diamonds, 3 clubs) and rank indices 0..7 for
7, 8, 9, 10, J, Q, K, A. Inside the numba layers a hand is a bitmask with bit ``c`` set for
card ``c``: eight bits per suit, so a suit's holding is a shift and a mask. Hands are read
with the project's notation (:func:`analyser.notation.parse_hand`) and mapped from the
52-card ids at this edge, refusing the 2 … 6 that a piket deck does not hold.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyser.errors import RikkenError

N_CARDS = 32
N_SUITS = 4
N_RANKS = 8
RANK_CHARS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = "♠♥♦♣"
POINT_VALUES = (7, 8, 9, 10, 10, 10, 10, 11)  # PK-05: A 11, K/Q/J 10, others pip
LOWEST_52 = 5  # the 7's rank in the 52-card encoding (0 = deuce)
FACE_RANKS = (4, 5, 6)  # J Q K: a hand without them is carte blanche (PK-04)


def suit_of(c: int) -> int:
    """The suit 0..3 of piket card ``c``."""
    return c // N_RANKS


def rank_of(c: int) -> int:
    """The rank index 0..7 (7 … A) of piket card ``c``."""
    return c % N_RANKS


def from_52(c: int) -> int:
    """The piket id of 52-card id ``c``; RikkenError for a 2 … 6."""
    from analyser.notation import format_card

    suit, rank = divmod(int(c), 13)
    if rank < LOWEST_52:
        raise RikkenError(
            f"{format_card(c, 'en')} is not a piket card: the 32-card deck holds 7, 8, 9, 10, "
            "J, Q, K, A (PK-01)"
        )
    return suit * N_RANKS + rank - LOWEST_52


def to_52(c: int) -> int:
    """The 52-card id of piket card ``c``."""
    return suit_of(c) * 13 + rank_of(c) + LOWEST_52


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of piket cards ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[int]:
    """The piket cards of bitmask ``mask``, ascending."""
    return [c for c in range(N_CARDS) if (int(mask) >> c) & 1]


def format_card(c: int) -> str:
    """A piket card as suit symbol then rank: '♠A', '♥10'."""
    return SUIT_SYMBOLS[suit_of(c)] + RANK_CHARS[rank_of(c)]


def format_hand(cards: Iterable[int]) -> str:
    """A piket hand by suit, highest first: '♠AKQ ♥10 9 ♦- ♣87' style groups."""
    cs = sorted(cards)
    groups = []
    for s in range(N_SUITS):
        ranks = [RANK_CHARS[rank_of(c)] for c in reversed(cs) if suit_of(c) == s]
        groups.append(SUIT_SYMBOLS[s] + ("".join(ranks) if ranks else "-"))
    return " ".join(groups)


def parse_piket_hand(text: str, n_cards: int = 12) -> list[int]:
    """Read a piket hand of exactly ``n_cards`` cards (the project's notation, Dutch or
    English ranks) as sorted piket ids; RikkenError for a 2 … 6 or a wrong count."""
    from analyser.notation import parse_hand

    cards = [from_52(c) for c in parse_hand(text, None)]
    if len(cards) != n_cards:
        raise RikkenError(f"a piket hand has {n_cards} cards; found {len(cards)} (PK-02)")
    return sorted(cards)
