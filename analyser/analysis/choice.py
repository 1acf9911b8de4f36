"""The book's choices where the analysis needs a fixed rule rather than a solver figure.

* :func:`trump_preference` (G-RIK-02): longer suit first, then better honours. Used only to
  break exact ties of the make-probability when a declarer picks his trump.
* :func:`call_preference` (G-ACE-02, default policy): class A (a singleton in the called suit),
  B (K plus one card), C (four or more cards and no vocabulary trump losers), other non-void
  suits, void; then more HIGH cards in the called suit. Used only to break exact ties.
* :func:`malheur_partner_trump` (G-MAL-07): the malheur partner's trump per deal, counting the
  malheur player's aces as part of every suit: longest such suit, then the best ranks; an exact
  tie goes to the first suit in the order ♠ ♥ ♦ ♣.
"""

from __future__ import annotations

import numpy as np

from analyser.cards import (
    ACE,
    HIGH_MIN_RANK,
    KING,
    N_RANKS,
    N_SUITS,
    SUIT_BITS,
    SUIT_MASK,
    card,
    rank_of,
    suit_of,
)


def _ranks(hand: list[int], suit: int) -> list[int]:
    return sorted((rank_of(c) for c in hand if suit_of(c) == suit), reverse=True)


def trump_preference(hand: list[int], strain: int) -> tuple:
    """Sort key (larger = preferred) of a trump strain by G-RIK-02: length, then ranks."""
    if strain >= N_SUITS:
        return (-1, ())  # no trump (solo only, where allowed) comes after every suit
    ranks = _ranks(hand, strain)
    return (len(ranks), tuple(ranks))


def trump_losers(hand: list[int], trump: int) -> int:
    """G-ALN-03's vocabulary losers L(trump): outstanding trumps with at most two of the
    declarer's trumps above them."""
    mine = set(_ranks(hand, trump))
    losers = 0
    for r in range(N_RANKS):
        if r in mine:
            continue
        above = sum(1 for m in mine if m > r)
        if above <= 2:
            losers += 1
    return losers


def call_preference(hand: list[int], trump: int, called: int) -> tuple:
    """Sort key (larger = preferred) of a called card by G-ACE-02's default policy."""
    suit = suit_of(called)
    ranks = _ranks(hand, suit)
    n = len(ranks)
    if n == 1:
        cls = 4  # A: partner's ace wins round one, the rikker ruffs round two
    elif n == 2 and KING in ranks:
        cls = 3  # B: after partner's ace the king is master
    elif n >= 4 and trump_losers(hand, trump) == 0:
        cls = 2  # C: a long suit to run once trumps are drawn
    elif n > 0:
        cls = 1
    else:
        cls = 0  # void: the rikker cannot lead it to find his partner
    high = sum(1 for r in ranks if r >= HIGH_MIN_RANK)
    return (cls, high, -suit)


def malheur_partner_trump(
    deals: np.ndarray, partner: np.ndarray, hand: list[int], choices: tuple[int, ...]
) -> np.ndarray:
    """The G-MAL-07 trump per deal (``int64[n]``): ``partner[i]`` is the partner's seat on
    deal ``i``; ``hand`` the malheur player's cards; ``choices`` the suits he may name."""
    n = deals.shape[0]
    partner_mask = deals[np.arange(n), partner]
    mine = set(hand)
    best_key = np.full(n, -1, dtype=np.int64)
    best = np.full(n, choices[0], dtype=np.int64)
    for s in choices:
        bits = (partner_mask >> (SUIT_BITS * s)) & SUIT_MASK
        if card(s, ACE) in mine:
            bits = bits | (1 << ACE)
        length = np.zeros(n, dtype=np.int64)
        for r in range(N_RANKS):
            length += (bits >> r) & 1
        # Equal lengths: the larger rank bitmask has the higher card at the first difference
        # in descending order, i.e. it is the better suit.
        key = length * (1 << N_RANKS) + bits
        better = key > best_key
        best = np.where(better, s, best)
        best_key = np.where(better, key, best_key)
    return best
