"""Piek: one controllable winner and a misère-safe rest (docs/guidelines.md G-PIEK-02 .. G-PIEK-06).

* G-PIEK-02 :func:`winner_rank` (suit level), :data:`winners`, :func:`piek_rest_ok`,
  :data:`piek_ok` — classifier for ``piek`` (exactly one trick);
* G-PIEK-03 :data:`winner_count`, :data:`second_winner`;
* G-PIEK-05 :data:`piek_fallback` — "too weak to rik, too strong for misère";
* G-PIEK-06 :func:`exit_cards`, :data:`exit_count` (cards with ``δ <= 0``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from analyser.cards import ACE, HIGH_MIN_RANK, card, suit_of
from analyser.errors import RulesError
from analyser.guidelines.hand import (
    check_hand,
    gone_holdings,
    hand_holdings,
    per_hand,
    vectorised,
)
from analyser.guidelines.misere import (
    deltas,
    exit_count_suit,
    largest_hole,
    misere_ok,
    suit_hole_count,
)
from analyser.guidelines.rik import rik_ok
from analyser.guidelines.vocab import SUITS, length, suit_table, top_rank


def winner_rank(holding: int, *, long_min: int = 5, honour_min_rank: int = HIGH_MIN_RANK) -> int:
    """G-PIEK-02: the rank of the suit's possible winner, -1 if none: the ace, or the top card
    of a suit of at least ``long_min`` cards (5, ours) when it is a HIGH card."""
    top = top_rank(holding)
    if top == ACE or (length(holding) >= long_min and top >= honour_min_rank):
        return top
    return -1


@per_hand(tuple)
def winners(hand: list[int], *, long_min: int = 5, honour_min_rank: int = HIGH_MIN_RANK) -> tuple:
    """G-PIEK-02 ``winners(h)``: the aces plus the top honour of each suit of at least
    ``long_min`` cards (ours), as card ints ascending."""
    held = hand_holdings(hand)
    out = []
    for s in SUITS:
        r = winner_rank(int(held[s]), long_min=long_min, honour_min_rank=honour_min_rank)
        if r >= 0:
            out.append(card(s, r))
    return tuple(out)


def _rest_holes(holding: int) -> tuple[int, int]:
    """(hole count, largest δ) of a suit after its top card is played as the piek trick.

    The top card is above every other own card, so removing it leaves their δ unchanged."""
    d = [x for _, x in deltas(holding)[:-1]]
    return sum(x >= 1 for x in d), max([0] + d)


def _rest_hole_count(holding: int) -> int:
    return _rest_holes(holding)[0]


def _rest_largest_hole(holding: int) -> int:
    return _rest_holes(holding)[1]


def piek_rest_ok(hand: Iterable[int], w: int, *, max_holes: int = 1, max_delta: int = 2) -> bool:
    """G-PIEK-02: the rest of the hand after winner ``w`` (the top card of its suit) is
    misère-safe enough: at most ``max_holes`` holes, none with ``δ > max_delta`` (ours)."""
    hand = check_hand(hand)
    if w not in hand:
        raise RulesError(f"card {w} is not in the hand")
    held = hand_holdings(hand)
    s = suit_of(w)
    if card(s, top_rank(int(held[s]))) != w:
        raise RulesError("a piek winner is the top card of its suit")
    n_holes, largest = _rest_holes(int(held[s]))
    for t in SUITS:
        if t != s:
            n_holes += suit_hole_count(int(held[t]))
            largest = max(largest, largest_hole(int(held[t])))
    return n_holes <= max_holes and largest <= max_delta


@vectorised(bool)
def piek_ok(
    holdings: np.ndarray,
    *,
    long_min: int = 5,
    honour_min_rank: int = HIGH_MIN_RANK,
    max_holes: int = 1,
    max_delta: int = 2,
) -> np.ndarray:
    """G-PIEK-02 ``piek_ok(h)``: some possible winner ``w`` leaves a rest with small holes
    (:func:`piek_rest_ok`). Classifier for ``piek``: the player takes exactly one trick."""
    has_winner = _has_winner(holdings, long_min, honour_min_rank)
    hc = suit_table(suit_hole_count)[holdings]
    md = suit_table(largest_hole)[holdings]
    rest_hc = suit_table(_rest_hole_count)[holdings]
    rest_md = suit_table(_rest_largest_hole)[holdings]
    total = hc.sum(axis=1)
    ok = np.zeros(len(holdings), dtype=bool)
    for s in SUITS:
        others = [t for t in SUITS if t != s]
        n_holes = total - hc[:, s] + rest_hc[:, s]
        largest = np.maximum(md[:, others].max(axis=1), rest_md[:, s])
        ok |= has_winner[:, s] & (n_holes <= max_holes) & (largest <= max_delta)
    return ok


def _has_winner(holdings: np.ndarray, long_min: int, honour_min_rank: int) -> np.ndarray:
    table = suit_table(winner_rank, long_min=long_min, honour_min_rank=honour_min_rank)
    return table[holdings] >= 0


@vectorised(int)
def winner_count(
    holdings: np.ndarray, *, long_min: int = 5, honour_min_rank: int = HIGH_MIN_RANK
) -> np.ndarray:
    """G-PIEK-03: number of possible winners (one per suit at most)."""
    return _has_winner(holdings, long_min, honour_min_rank).sum(axis=1)


@vectorised(bool)
def second_winner(
    holdings: np.ndarray, *, long_min: int = 5, honour_min_rank: int = HIGH_MIN_RANK
) -> np.ndarray:
    """G-PIEK-03: a second possible winner (cash one early, discard or duck the other)."""
    return _has_winner(holdings, long_min, honour_min_rank).sum(axis=1) >= 2


@vectorised(bool)
def piek_fallback(holdings: np.ndarray) -> np.ndarray:
    """G-PIEK-05: "too weak to rik, too strong for misère" — not :data:`rik_ok` and not
    :data:`analyser.guidelines.misere.misere_ok`. The book: no reason to piek by itself."""
    return ~rik_ok.core(holdings) & ~misere_ok.core(holdings)


def exit_cards(hand: Iterable[int], gone: Iterable[int] = ()) -> list[int]:
    """G-PIEK-06: the cards with ``δ <= 0`` — low cards to get off lead after the trick."""
    hand = check_hand(hand)
    held, went = hand_holdings(hand), gone_holdings(hand, gone)
    return [card(s, r) for s in SUITS for r, d in deltas(int(held[s]), int(went[s])) if d <= 0]


@vectorised(int)
def exit_count(holdings: np.ndarray) -> np.ndarray:
    """G-PIEK-06: number of exit cards (``δ <= 0``) in the hand."""
    return suit_table(exit_count_suit)[holdings].sum(axis=1)
