"""Shared vocabulary of the bidding guidelines (docs/guidelines.md §0).

Suit-level quantities take a *holding*: the 13-bit rank set of one suit in the player's hand
(bit ``r`` = rank ``r``, 0 = deuce .. 12 = ace; see :mod:`analyser.guidelines.hand`). Seen from
that hand every other card of the suit is *outstanding*, unless a ``gone`` holding names cards
already played.

* ``n_s``, ``hi_s``: :func:`length`, :func:`high_count`; per hand :data:`suit_lengths`,
  :data:`high_counts`.
* ``m(c)`` and the guard rule: :func:`m_above`, :func:`guard_rule_wins`.
* ``p_guard(k, m)``: :func:`p_guard` (exact hypergeometric).
* the trump-loser vocabulary (loser / risk / very small risk): :func:`loser_class`,
  :func:`trump_vocabulary`.
* ``WL(T)``: :func:`worst_case_trump_losers` (exhaustive single-suit search).
* :func:`suit_table`: any suit-level function as an 8192-entry lookup table, for the
  vectorised hand-level guidelines.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from math import comb

import numpy as np

from analyser.cards import HIGH_MIN_RANK, N_RANKS, N_SUITS, SUIT_MASK
from analyser.errors import RulesError
from analyser.guidelines.hand import N_HOLDINGS, vectorised

SUITS = tuple(range(N_SUITS))
FULL = SUIT_MASK  # all 13 ranks of a suit
NINE = 7  # rank index of the nine (0 = deuce)

LOSER, RISK, VERY_SMALL_RISK = "loser", "risk", "very small risk"


# --------------------------------------------------------------------------- tables


@functools.cache
def _table(fn: Callable[..., object], params: tuple, dtype: np.dtype) -> np.ndarray:
    kwargs = dict(params)
    table = np.array([fn(h, **kwargs) for h in range(N_HOLDINGS)], dtype=dtype)
    table.flags.writeable = False
    return table


def suit_table(fn: Callable[..., object], dtype: type = np.int64, **params: object) -> np.ndarray:
    """``fn(holding, **params)`` for all 8192 holdings, as a read-only array (cached).

    Indexing it with an ``int64[n, 4]`` holdings array gives the value for every suit of every
    hand at once; this is how the hand-level guidelines are vectorised."""
    return _table(fn, tuple(sorted(params.items())), np.dtype(dtype))


# --------------------------------------------------------------------------- n_s, hi_s


def length(holding: int) -> int:
    """``n_s``: number of cards in the holding."""
    return int(holding).bit_count()


def high_count(holding: int) -> int:
    """``hi_s``: number of HIGH cards (A K Q J 10) in the holding."""
    return (int(holding) >> HIGH_MIN_RANK).bit_count()


def outstanding(holding: int, gone: int = 0) -> int:
    """The holding of the suit's cards the player does not hold (minus ``gone`` cards)."""
    return FULL & ~int(holding) & ~int(gone)


def top_rank(holding: int) -> int:
    """The highest rank in a holding, -1 for a void."""
    return int(holding).bit_length() - 1


def ranks_desc(holding: int) -> tuple[int, ...]:
    """Ranks of a holding from high to low (the book's "quality" order for equal lengths)."""
    h = int(holding)
    return tuple(r for r in range(N_RANKS - 1, -1, -1) if h >> r & 1)


@vectorised(int)
def suit_lengths(holdings: np.ndarray) -> np.ndarray:
    """``n_s`` of each suit (S, H, D, C) of the hand."""
    return suit_table(length)[holdings]


@vectorised(int)
def high_counts(holdings: np.ndarray) -> np.ndarray:
    """``hi_s`` (A K Q J 10 held) of each suit (S, H, D, C) of the hand."""
    return suit_table(high_count)[holdings]


# --------------------------------------------------------------------------- guard rule


def m_above(holding: int, rank: int) -> int:
    """``m(c)`` for an outstanding card of ``rank``: the declarer's cards ranked above it."""
    return (int(holding) >> (rank + 1)).bit_count()


def guard_rule_wins(m: int, guards: int) -> bool:
    """The guard rule (§0): an outstanding trump wins a trick iff its holder has ``guards >= m``
    other trumps (K needs 1 guard against A, Q 2 against A-K, J 3 against A-K-Q, ...)."""
    return guards >= m


def p_guard(k: int, m: int, *, unseen: int = 39, hand_size: int = 13) -> float:
    """``p_guard(k, m)`` (§0): P(the holder of a given outstanding trump also holds >= ``m`` of
    the other ``k - 1`` outstanding trumps).

    Exact hypergeometric under a uniform deal: the holder's other ``hand_size - 1`` cards are
    drawn from the ``unseen - 1`` other unseen cards (defaults: one known hand, three unknown).
    """
    if not 1 <= k <= unseen:
        raise RulesError(f"outstanding trumps k must be 1..{unseen}, got {k}")
    others, places, good = unseen - 1, hand_size - 1, k - 1
    total = comb(others, places)
    hits = sum(comb(good, x) * comb(others - good, places - x) for x in range(max(m, 0), good + 1))
    return hits / total


def loser_class(m: int, *, loser_max_m: int = 2, risk_m: int = 3) -> str:
    """The book's trump-loser vocabulary for an outstanding trump with ``m(c) = m``:
    ``m <= 2`` a loser, ``m == 3`` a risk (counted as a winner, flagged), ``m >= 4`` a very
    small risk (a winner)."""
    if m <= loser_max_m:
        return LOSER
    if m <= risk_m:
        return RISK
    return VERY_SMALL_RISK


def trump_vocabulary(holding: int, **params: int) -> list[tuple[int, int, str]]:
    """``(rank, m(c), class)`` for every outstanding card of a trump holding, high to low."""
    out = outstanding(holding)
    return [
        (r, m_above(holding, r), loser_class(m_above(holding, r), **params))
        for r in range(N_RANKS - 1, -1, -1)
        if out >> r & 1
    ]


# --------------------------------------------------------------------------- WL(T)


def suit_state(holding: int, gone: int = 0) -> tuple[int, ...]:
    """The live cards of a suit, low to high, as owners: 1 = the player's, 0 = outstanding.

    Only the order of live cards matters in single-suit play, so this compact form lets
    :func:`worst_case_trump_losers` and the misère check share their searches across holdings.
    """
    return tuple(int(holding) >> r & 1 for r in range(N_RANKS) if not int(gone) >> r & 1)


def run_tops(state: tuple[int, ...], owner: int) -> list[int]:
    """Positions of the top card of each run of ``owner``'s consecutive live cards.

    Cards of one run are interchangeable (no live card lies between them), so a search
    needs to try one card per run."""
    last = len(state) - 1
    return [p for p, v in enumerate(state) if v == owner and (p == last or state[p + 1] != owner)]


def drop(state: tuple[int, ...], *positions: int) -> tuple[int, ...]:
    """The state without the cards at ``positions`` (they were played)."""
    return tuple(v for p, v in enumerate(state) if p not in positions)


@functools.cache
def _defender_tricks(state: tuple[int, ...], declarer_leads: bool) -> int:
    """Tricks of a lone defender holding every 0-card, both sides optimal (minimax)."""
    n_decl = sum(state)
    n_def = len(state) - n_decl
    if n_decl == 0 or n_def == 0:
        # In isolation the side still holding cards wins all of them.
        return n_def
    leader = 1 if declarer_leads else 0
    lead_values = []
    for i in run_tops(state, leader):
        replies = []
        for j in run_tops(state, 1 - leader):
            winner = leader if i > j else 1 - leader
            later = _defender_tricks(drop(state, i, j), winner == 1)
            replies.append((winner == 0) + later)
        # The follower picks his best reply: the defender maximises, the declarer minimises.
        lead_values.append(max(replies) if leader == 1 else min(replies))
    return min(lead_values) if leader == 1 else max(lead_values)


def worst_case_trump_losers(holding: int, *, declarer_leads: bool = True) -> int:
    """``WL(T)`` (§0, G-ALN-04): tricks the defenders take in the trump suit when all
    outstanding trumps sit in one defender's hand; the suit played in isolation, the trick
    winner leads, both sides optimal (exhaustive search; the declarer leads first by default).

    A side that runs out of the suit loses the rest of its tricks in it: the other side's
    remaining trumps all win.
    """
    return _defender_tricks(suit_state(holding), bool(declarer_leads))
