"""Alone bids: the book's trick count and its risks (docs/guidelines.md G-ALN-03 .. G-ALN-06).

Suit level (a 13-bit holding, :mod:`analyser.guidelines.hand`):

* G-ALN-03/04 trump figures — :func:`trump_losers` ``L(s)``, :func:`trump_tricks` ``TT(s)``,
  :func:`trump_risks` ``risk(s)``, :func:`expected_trump_losers` ``EL(s)``; the worst case
  ``WL(s)`` is :func:`analyser.guidelines.vocab.worst_case_trump_losers`.
* G-ALN-05 :func:`side_winners` ``SW(x)``.

Hand level (card ints, or ``.many`` on masks):

* :data:`book_count` ``count(h)``, :data:`alone_trump` (the trump that maximises it),
  :data:`alone_ok` ``alone_ok(h, N)`` — a classifier for ``alone_N``;
* :data:`ruff_risk` (G-ALN-06 a);
* :data:`trump_l`, :data:`trump_tt`, :data:`trump_risk`, :data:`trump_el`, :data:`trump_wl`:
  the figures of the hand's trump suit (``trump=None``: :data:`alone_trump`).
"""

from __future__ import annotations

import numpy as np

from analyser.cards import ACE, JACK, KING, N_RANKS, QUEEN
from analyser.errors import RulesError
from analyser.guidelines.hand import HandFunction, vectorised
from analyser.guidelines.vocab import (
    SUITS,
    length,
    m_above,
    outstanding,
    p_guard,
    suit_table,
    worst_case_trump_losers,
)

KQJ = (1 << KING) | (1 << QUEEN) | (1 << JACK)
KQ = (1 << KING) | (1 << QUEEN)


# --------------------------------------------------------------------------- suit level


def _m_values(holding: int) -> list[int]:
    out = outstanding(holding)
    return [m_above(holding, r) for r in range(N_RANKS) if out >> r & 1]


def trump_losers(holding: int, *, loser_max_m: int = 2) -> int:
    """``L(s)`` (G-ALN-03): outstanding trumps with ``m(c) <= 2`` — the vocabulary's losers."""
    return sum(m <= loser_max_m for m in _m_values(holding))


def trump_tricks(holding: int, *, loser_max_m: int = 2) -> int:
    """``TT(s) = max(0, n_s - L(s))`` (G-ALN-03): the book's trump-trick count."""
    return max(0, length(holding) - trump_losers(holding, loser_max_m=loser_max_m))


def trump_risks(holding: int, *, risk_m: int = 3) -> int:
    """``risk(s)`` (G-ALN-03): outstanding trumps with ``m(c) == 3`` (flagged, not subtracted)."""
    return sum(m == risk_m for m in _m_values(holding))


def expected_trump_losers(holding: int) -> float:
    """``EL(s)`` (G-ALN-03, ours): ``sum over outstanding c of p_guard(k_s, m(c))``,
    ``k_s = 13 - n_s`` — the expected number of outstanding trumps that beat the guard rule."""
    k = N_RANKS - length(holding)
    return float(sum(p_guard(k, m) for m in _m_values(holding)))


def top_sequence(holding: int) -> int:
    """Length of the unbroken sequence from the ace (A = 1, A-K = 2, ...; 0 without the ace)."""
    n = 0
    while n < N_RANKS and int(holding) >> (ACE - n) & 1:
        n += 1
    return n


def side_winners(holding: int, *, top_only: bool = False) -> int:
    """``SW(x)`` (G-ALN-05): side-suit cards that win without help.

    The top sequence from the ace counts in full; otherwise K-Q-J counts 2 (it loses only to
    the ace) and K-Q with a third card 1; a lone K, K-x, Q-x(-x), J... count 0.
    ``top_only=True`` counts the top sequence only, as the book advises for high bids.
    """
    top = top_sequence(holding)
    if top or top_only:
        return top
    if holding & KQJ == KQJ:
        return 2
    if holding & KQ == KQ and length(holding) >= 3:
        return 1
    return 0


# --------------------------------------------------------------------------- hand level


def _counts_by_trump(holdings: np.ndarray, top_only: bool) -> np.ndarray:
    """``int64[n, 4]``: ``count(h)`` with each suit as trump."""
    tt = suit_table(trump_tricks)[holdings]
    sw = suit_table(side_winners, top_only=top_only)[holdings]
    return tt + sw.sum(axis=1, keepdims=True) - sw


def _best_trump(holdings: np.ndarray, counts: np.ndarray) -> np.ndarray:
    # Highest count; ties: longer, then better honours (G-RIK-02's order), then suit order.
    lengths = suit_table(length)[holdings]
    key = (counts << 17) | (lengths << N_RANKS) | holdings
    return np.argmax(key, axis=1)


def _trump_column(holdings: np.ndarray, trump: int | None, top_only: bool = False) -> np.ndarray:
    if trump is None:
        return _best_trump(holdings, _counts_by_trump(holdings, top_only))
    if isinstance(trump, bool) or not isinstance(trump, int | np.integer) or trump not in SUITS:
        raise RulesError(f"trump must be a suit 0..3 or None, got {trump!r}")
    return np.full(len(holdings), int(trump), dtype=np.int64)


def _pick(values: np.ndarray, column: np.ndarray) -> np.ndarray:
    return np.take_along_axis(values, column[:, None], axis=1)[:, 0]


@vectorised(int)
def alone_trump(holdings: np.ndarray, *, top_only: bool = False) -> np.ndarray:
    """G-ALN-02/03: the trump suit that gives the highest book count (ties: longer suit, then
    better honours, then suit order S, H, D, C)."""
    return _trump_column(holdings, None, top_only)


@vectorised(int)
def book_count(
    holdings: np.ndarray, *, trump: int | None = None, top_only: bool = False
) -> np.ndarray:
    """``count(h) = TT(trump) + sum over side suits of SW(x)`` (G-ALN-03).

    ``trump=None`` uses :data:`alone_trump`; ``top_only`` as in :func:`side_winners`."""
    counts = _counts_by_trump(holdings, top_only)
    return _pick(counts, _trump_column(holdings, trump, top_only))


@vectorised(bool)
def alone_ok(
    holdings: np.ndarray,
    n: int,
    *,
    trump: int | None = None,
    max_risk: int = 1,
    top_only: bool = False,
) -> np.ndarray:
    """``alone_ok(h, N) := count(h) >= N and risk(trump) <= max_risk`` (G-ALN-03; the risk
    limit 1 is ours). Classifier for ``alone_N``: the lone player takes at least N tricks."""
    column = _trump_column(holdings, trump, top_only)
    counts = _pick(_counts_by_trump(holdings, top_only), column)
    risk = _pick(suit_table(trump_risks)[holdings], column)
    return (counts >= n) & (risk <= max_risk)


@vectorised(bool)
def ruff_risk(
    holdings: np.ndarray,
    *,
    forehand: bool | np.ndarray,
    trump: int | None = None,
    min_length: int = 3,
) -> np.ndarray:
    """G-ALN-06 (a), flag (ours): the declarer is not forehand (not on lead) and holds a side
    ace in a suit of at least ``min_length`` cards, which a defender may lead and ruff before
    trumps are drawn. ``forehand`` may be an array in the ``.many`` form."""
    column = _trump_column(holdings, trump)
    lengths = suit_table(length)[holdings]
    side = np.arange(len(SUITS))[None, :] != column[:, None]
    exposed = side & ((holdings >> ACE) & 1 == 1) & (lengths >= min_length)
    return exposed.any(axis=1) & ~np.asarray(forehand, dtype=bool)


def _on_trump(fn, out: type, doc: str) -> HandFunction:
    def core(holdings: np.ndarray, *, trump: int | None = None) -> np.ndarray:
        dtype = np.float64 if out is float else np.int64
        return _pick(suit_table(fn, dtype)[holdings], _trump_column(holdings, trump))

    core.__name__ = core.__qualname__ = f"trump_{fn.__name__}"
    core.__doc__ = doc + " ``trump=None``: :data:`alone_trump`."
    return vectorised(out)(core)


trump_l = _on_trump(trump_losers, int, "``L`` of the hand's trump suit (G-ALN-03).")
trump_tt = _on_trump(trump_tricks, int, "``TT`` of the hand's trump suit (G-ALN-03).")
trump_risk = _on_trump(trump_risks, int, "``risk`` of the hand's trump suit (G-ALN-03).")
trump_el = _on_trump(expected_trump_losers, float, "``EL`` of the hand's trump suit (G-ALN-03).")
trump_wl = _on_trump(worst_case_trump_losers, int, "``WL`` of the hand's trump suit (G-ALN-04).")
