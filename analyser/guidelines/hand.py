"""A hand as the guidelines see it, and the two edges where hands come in.

Every guideline in this package looks at one player's own hand only. Hands arrive in one of
two forms:

* **one hand**: its card ints 0..51 (:mod:`analyser.cards`), a list such as
  :func:`analyser.notation.parse_hand` returns — the form of every public guideline function;
* **many hands**: an ``int64[n]`` array of hand masks, the form
  :func:`analyser.sampler.random_hands` and the deal sampler produce — the ``.many`` form of a
  guideline, for studies over ~100k hands.

Inside, both become *holdings*: ``int64[n, 4]``, entry ``[i, s]`` the 13-bit rank set of suit
``s`` in hand ``i`` (bit ``r`` = rank ``r``, 0 = deuce .. 12 = ace). Everything a guideline
needs about one suit is a function of that suit's holding alone (the outstanding cards are the
other 13 − n), so suit-level quantities are looked up in 8192-entry tables
(:func:`analyser.guidelines.vocab.suit_table`) and a hand-level guideline is a few numpy
operations on the holdings — one implementation serves both edges.

:func:`vectorised` turns such a holdings function into a :class:`HandFunction`;
:func:`per_hand` does the same for a guideline that is simpler written on card ints (its
``.many`` form loops).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from analyser.cards import N_CARDS, N_RANKS, N_SUITS, SUIT_BITS, SUIT_MASK, card, mask_to_cards
from analyser.errors import ParseError, RulesError

N_HOLDINGS = 1 << N_RANKS  # every possible holding of one suit
MAX_HAND = 13


def check_hand(hand: Iterable[int], max_cards: int = MAX_HAND) -> list[int]:
    """The cards of ``hand`` as a sorted list, after checking them (distinct ints 0..51, at
    most ``max_cards``; pass 52 for a set of played cards)."""
    if isinstance(hand, str | bytes):
        raise ParseError("a hand must be card ints 0..51, not text (see analyser.notation)")
    try:
        cards = [int(c) for c in hand]
    except (TypeError, ValueError) as exc:
        raise ParseError(f"a hand must be card ints 0..51: {exc}") from None
    bad = [c for c in cards if not 0 <= c < N_CARDS]
    if bad:
        raise ParseError(f"cards must be ints 0..51, got {bad}")
    if len(set(cards)) != len(cards):
        raise ParseError("a hand lists a card twice")
    if len(cards) > max_cards:
        raise ParseError(f"a hand holds at most {max_cards} cards, got {len(cards)}")
    return sorted(cards)


def hand_holdings(hand: Iterable[int], max_cards: int = MAX_HAND) -> np.ndarray:
    """``int64[4]``: the 13-bit rank set of each suit of a hand given as card ints."""
    out = np.zeros(N_SUITS, dtype=np.int64)
    for c in check_hand(hand, max_cards):
        out[c // N_RANKS] |= 1 << (c % N_RANKS)
    return out


def gone_holdings(hand: Iterable[int], gone: Iterable[int]) -> np.ndarray:
    """``int64[4]`` holdings of the cards already played (``gone``), checked against ``hand``."""
    gone_cards = check_hand(gone, N_CARDS)
    if set(gone_cards) & set(check_hand(hand)):
        raise RulesError("a card cannot be both in the hand and already played")
    return hand_holdings(gone_cards, N_CARDS)


def mask_holdings(masks: np.ndarray | Sequence[int]) -> np.ndarray:
    """``int64[n, 4]`` holdings of ``int64[n]`` hand masks (16 bits per suit, analyser.cards)."""
    masks = np.asarray(masks, dtype=np.int64)
    if masks.ndim != 1:
        raise ParseError(f"hand masks must be a 1-D array (one mask per hand), got {masks.shape}")
    shifts = np.arange(N_SUITS, dtype=np.int64) * SUIT_BITS
    return (masks[:, None] >> shifts) & SUIT_MASK


def holding_ranks(holding: int) -> list[int]:
    """Ranks (0..12) in a 13-bit holding, ascending."""
    holding = int(holding)
    return [r for r in range(N_RANKS) if holding >> r & 1]


def ranks_holding(ranks: Iterable[int]) -> int:
    """The 13-bit holding of a set of ranks (0 = deuce .. 12 = ace)."""
    out = 0
    for r in ranks:
        r = int(r)
        if not 0 <= r < N_RANKS:
            raise ParseError(f"ranks must be 0..12, got {r}")
        out |= 1 << r
    return out


class HandFunction:
    """A guideline on a hand, callable on one hand (card ints) and, via ``.many``, on masks.

    ``f(hand, **params)`` returns a Python value (bool, int, float, str, or a 4-tuple for a
    per-suit result); ``f.many(masks, **params)`` returns a numpy array with one row per
    hand. ``f.core(holdings, **params)`` is the underlying holdings function, for guidelines
    built on other guidelines.
    """

    def __init__(self, core: Callable[..., np.ndarray], out: type, loops: bool):
        self.core = core
        self.out = out
        self.loops = loops  # True: .many calls the per-hand form once per hand (slower)
        functools.update_wrapper(self, core)

    def __call__(self, hand: Iterable[int], *args: Any, **params: Any) -> Any:
        value = self.core(hand_holdings(hand)[None, :], *args, **params)[0]
        if isinstance(value, np.ndarray):
            return tuple(self.out(v) for v in value)
        return self.out(value)

    def many(self, masks: np.ndarray | Sequence[int], *args: Any, **params: Any) -> np.ndarray:
        """The guideline on every hand of ``int64[n]`` masks: an array with n rows."""
        return self.core(mask_holdings(masks), *args, **params)

    def __repr__(self) -> str:
        return f"<guideline function {self.__name__}>"


def vectorised(out: type) -> Callable[[Callable[..., np.ndarray]], HandFunction]:
    """Decorate ``core(holdings int64[n, 4], **params) -> array[n, ...]`` as a HandFunction
    whose one-hand result is converted by ``out`` (``bool``, ``int``, ``float`` or ``str``)."""

    def wrap(core: Callable[..., np.ndarray]) -> HandFunction:
        return HandFunction(core, out, loops=False)

    return wrap


def per_hand(out: type) -> Callable[[Callable[..., Any]], HandFunction]:
    """Decorate ``f(cards: list[int], **params)`` as a HandFunction; its ``.many`` loops.

    For guidelines that choose a card or weigh a few candidates, where a loop over hands is
    clearer than array code and still fast enough (a few µs per hand)."""

    def wrap(fn: Callable[..., Any]) -> HandFunction:
        def core(holdings: np.ndarray, *args: Any, **params: Any) -> np.ndarray:
            values = [fn(_holdings_cards(row), *args, **params) for row in holdings]
            if out is not tuple:
                return np.array(values)
            # Filled one by one: equal-length tuples must not become a 2-D array.
            result = np.empty(len(values), dtype=object)
            for i, v in enumerate(values):
                result[i] = v
            return result

        return _DirectHandFunction(fn, core, out)

    return wrap


class _DirectHandFunction(HandFunction):
    """A HandFunction whose one-hand form calls the card-int implementation directly."""

    def __init__(self, fn: Callable[..., Any], core: Callable[..., np.ndarray], out: type):
        super().__init__(core, out, loops=True)
        functools.update_wrapper(self, fn)
        self.fn = fn

    def __call__(self, hand: Iterable[int], *args: Any, **params: Any) -> Any:
        return self.fn(check_hand(hand), *args, **params)


def _holdings_cards(row: np.ndarray) -> list[int]:
    return [card(s, r) for s in range(N_SUITS) for r in holding_ranks(int(row[s]))]


def masks_cards(masks: np.ndarray | Sequence[int]) -> list[list[int]]:
    """Card-int lists of ``int64[n]`` hand masks."""
    return [mask_to_cards(int(m)) for m in np.asarray(masks, dtype=np.int64)]
