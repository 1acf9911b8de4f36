"""Card, suit and seat conventions shared by every layer.

At the boundary a card is an int 0..51: ``suit = c // 13``, ``rank = c % 13`` (0 = deuce,
12 = ace). Suits are ordered as in PBN: 0 spades, 1 hearts, 2 diamonds, 3 clubs; index 4 is
no trump where a strain is meant. Seats are 0..3 = N, E, S, W, clockwise (the type
:data:`analyser.seats.Seat`; places 1..4 relative to the dealer: :mod:`analyser.seats`).

Inside the numba layers a hand is an int64 bitmask with 16 bits per suit: card ``c`` is bit
``16 * (c // 13) + c % 13``. Sixteen (not thirteen) bits per suit make a suit's holding a
shift and a mask, and keep bit 63 clear so the masks stay positive int64.
"""

from __future__ import annotations

import numpy as np

N_CARDS = 52
N_SUITS = 4
N_RANKS = 13
N_SEATS = 4
SUIT_BITS = 16
SUIT_MASK = (1 << N_RANKS) - 1

SPADES, HEARTS, DIAMONDS, CLUBS, NOTRUMP = 0, 1, 2, 3, 4
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3

SUIT_LETTERS = "SHDC"  # English letters; index = suit
STRAIN_LETTERS = ("S", "H", "D", "C", "NT")
SEAT_LETTERS = "NESW"
SEAT_LETTERS_NL = "NOZW"  # noord, oost, zuid, west
RANK_CHARS_EN = "23456789TJQKA"
RANK_CHARS_NL = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "V", "H", "A")
SUIT_SYMBOLS = "♠♥♦♣"

ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
HIGH_MIN_RANK = TEN  # the book's "card of 10 or higher": A K Q J 10


def card(suit: int, rank: int) -> int:
    """The card int for ``suit`` (0..3) and ``rank`` (0 = deuce .. 12 = ace)."""
    return suit * N_RANKS + rank


def suit_of(c: int) -> int:
    """Suit index 0..3 of card ``c``."""
    return c // N_RANKS


def rank_of(c: int) -> int:
    """Rank index 0..12 (12 = ace) of card ``c``."""
    return c % N_RANKS


def card_bit(c: int) -> int:
    """The bitmask bit of card ``c`` in the 16-bits-per-suit layout."""
    return 1 << (SUIT_BITS * (c // N_RANKS) + c % N_RANKS)


def cards_to_mask(cards) -> int:
    """Bitmask (16 bits per suit) of an iterable of card ints."""
    m = 0
    for c in cards:
        m |= card_bit(int(c))
    return m


def mask_to_cards(mask: int) -> list[int]:
    """Card ints held in a bitmask, ascending."""
    mask = int(mask)
    out = []
    for s in range(N_SUITS):
        bits = (mask >> (SUIT_BITS * s)) & SUIT_MASK
        r = 0
        while bits:
            if bits & 1:
                out.append(s * N_RANKS + r)
            bits >>= 1
            r += 1
    return out


def owner_to_masks(owner: np.ndarray) -> np.ndarray:
    """Convert owner arrays (``int8[..., 52]``, seat per card, -1 = absent) to masks
    (``int64[..., 4]``)."""
    owner = np.asarray(owner)
    bits = np.array([card_bit(c) for c in range(N_CARDS)], dtype=np.int64)
    out = np.zeros(owner.shape[:-1] + (N_SEATS,), dtype=np.int64)
    for seat in range(N_SEATS):
        out[..., seat] = np.where(owner == seat, bits, 0).sum(axis=-1)
    return out


def masks_to_owner(masks: np.ndarray) -> np.ndarray:
    """Convert ``int64[..., 4]`` hand masks to owner arrays ``int8[..., 52]`` (-1 = nobody)."""
    masks = np.asarray(masks, dtype=np.int64)
    bits = np.array([card_bit(c) for c in range(N_CARDS)], dtype=np.int64)
    out = np.full(masks.shape[:-1] + (N_CARDS,), -1, dtype=np.int8)
    for seat in range(N_SEATS):
        held = (masks[..., seat : seat + 1] & bits) != 0
        out[held] = seat
    return out


def left_of(seat: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % N_SEATS
