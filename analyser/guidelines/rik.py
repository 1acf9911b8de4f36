"""Rik: the minimum hand, the trump choice and the called ace (docs/guidelines.md §1).

* G-RIK-01 :func:`rik_ok_suit` (suit level) and :data:`rik_ok` (hand) — classifier for
  ``rik`` (the rikker and the called-ace holder take at least 8 tricks); :data:`rik_e1` (E1, a
  suit of exactly A K Q J 10) and :data:`rik_verdict` (yes / maybe / no);
  :data:`rik_marginal` flags the bare minimum.
* G-RIK-02 :data:`rik_trump`.
* G-ACE-01 :func:`legal_calls` (the rule itself lives in :mod:`analyser.rules.called_card`).
* G-ACE-02 :func:`call_class`, :func:`call_classes`, :data:`default_call`.
"""

from __future__ import annotations

import numpy as np

from analyser.cards import HIGH_MIN_RANK, KING, N_RANKS, suit_of
from analyser.errors import RulesError
from analyser.guidelines.alone import trump_losers
from analyser.guidelines.hand import hand_holdings, per_hand, vectorised
from analyser.guidelines.vocab import SUITS, high_count, length, suit_table
from analyser.rules.called_card import called_card
from analyser.rules.contracts import RIK_TARGET
from analyser.rules.ruleset import RuleSet, get_ruleset

# G-RIK-01 E1: the five top trumps, A K Q J 10, and nothing else in the suit.
TOP_FIVE = sum(1 << r for r in range(HIGH_MIN_RANK, N_RANKS))

YES, MAYBE, NO = "yes", "maybe", "no"

# G-ACE-02 call classes, in the default policy's order of preference.
CLASS_A, CLASS_B, CLASS_C, CLASS_GUESS, CLASS_VOID = "A", "B", "C", "guess", "void"
CALL_CLASSES = (CLASS_A, CLASS_B, CLASS_C, CLASS_GUESS, CLASS_VOID)


# --------------------------------------------------------------------------- G-RIK-01


def rik_ok_suit(holding: int, *, min_length: int = 6, target: int = RIK_TARGET) -> bool:
    """G-RIK-01 for one suit: ``n_s >= 6 and hi_s >= max(0, 8 - n_s)`` — six cards with two
    HIGH, seven with one, eight with none (each extra card replaces a HIGH card)."""
    n = length(holding)
    return n >= min_length and high_count(holding) >= max(0, target - n)


def _rik_suits(holdings: np.ndarray, min_length: int, target: int) -> np.ndarray:
    return suit_table(rik_ok_suit, bool, min_length=min_length, target=target)[holdings]


@vectorised(bool)
def rik_ok(holdings: np.ndarray, *, min_length: int = 6, target: int = RIK_TARGET) -> np.ndarray:
    """G-RIK-01 ``rik_ok(h) := exists s: n_s >= 6 and hi_s >= max(0, 8 - n_s)``.

    Classifier for ``rik``: bid it and the rikker's side takes at least 8 tricks."""
    return _rik_suits(holdings, min_length, target).any(axis=1)


@vectorised(bool)
def rik_e1(holdings: np.ndarray) -> np.ndarray:
    """G-RIK-01 E1: a suit of exactly A K Q J 10 — the five top trumps alone may be enough."""
    return (holdings == TOP_FIVE).any(axis=1)


@vectorised(str)
def rik_verdict(
    holdings: np.ndarray, *, min_length: int = 6, target: int = RIK_TARGET
) -> np.ndarray:
    """G-RIK-01 with E1: ``"yes"`` when :data:`rik_ok`; else ``"maybe"`` when :data:`rik_e1`;
    else ``"no"``."""
    ok = rik_ok.core(holdings, min_length=min_length, target=target)
    return np.where(ok, YES, np.where(rik_e1.core(holdings), MAYBE, NO))


@vectorised(bool)
def rik_marginal(holdings: np.ndarray, *, min_trumps: int = 8) -> np.ndarray:
    """G-RIK-01 "marginal": eight or more trumps without a HIGH card and no HIGH card in the
    side suits either — the bare minimum for a rik. (The book's "side honours" are read as
    side HIGH cards.)"""
    lengths = suit_table(length)[holdings]
    highs = suit_table(high_count)[holdings]
    return ((lengths >= min_trumps) & (highs == 0)).any(axis=1) & (highs.sum(axis=1) == 0)


# --------------------------------------------------------------------------- G-RIK-02


@vectorised(int)
def rik_trump(holdings: np.ndarray, *, min_length: int = 6, target: int = RIK_TARGET) -> np.ndarray:
    """G-RIK-02: trump = the suit meeting G-RIK-01; among several the longer, equal length the
    better honours (ranks compared from the top). Without such a suit the longest suit(s) are
    the candidates. Complete ties go to the first suit in the order S, H, D, C."""
    ok = _rik_suits(holdings, min_length, target)
    lengths = suit_table(length)[holdings]
    longest = lengths == lengths.max(axis=1, keepdims=True)
    cands = np.where(ok.any(axis=1, keepdims=True), ok, longest)
    # For equal lengths, comparing holdings as integers is comparing ranks from the top.
    key = np.where(cands, (lengths << N_RANKS) | holdings, -1)
    return np.argmax(key, axis=1)


# --------------------------------------------------------------------------- G-ACE-01/02


def legal_calls(hand: list[int], trump: int, ruleset: RuleSet | None = None) -> list[int]:
    """G-ACE-01 (R-BID-10): the cards the rikker may call with ``trump`` — every non-trump ace
    he does not hold; holding all three, the side kings he does not hold (and so on)."""
    return called_card(ruleset or get_ruleset(), hand, trump)


def call_class(
    hand: list[int],
    called: int,
    trump: int,
    *,
    b_max_length: int = 2,
    c_min_length: int = 4,
) -> str:
    """G-ACE-02: the class of calling ``called`` (a card of suit ``x``) for this hand.

    ``"A"`` ``n_x == 1`` (partner's ace wins round 1, the rikker ruffs round 2); ``"B"`` the
    king with one more card (``b_max_length=3`` tests K-x-x, ours); ``"C"`` a long suit,
    ``n_x >= c_min_length`` (4, ours), and no vocabulary trump losers, ``L(trump) == 0``;
    ``"void"`` ``n_x == 0``; otherwise ``"guess"``. The first matching class in that order.
    """
    if trump not in SUITS:
        raise RulesError(f"trump must be a suit 0..3, got {trump!r}")
    holdings = hand_holdings(hand)
    x = int(holdings[suit_of(called)])
    n_x = length(x)
    if n_x == 1:
        return CLASS_A
    if 2 <= n_x <= b_max_length and x >> KING & 1:
        return CLASS_B
    if n_x >= c_min_length and trump_losers(int(holdings[trump])) == 0:
        return CLASS_C
    if n_x == 0:
        return CLASS_VOID
    return CLASS_GUESS


def call_classes(
    hand: list[int], trump: int, ruleset: RuleSet | None = None, **params: int
) -> dict[int, str]:
    """G-ACE-02 class of every legal call (G-ACE-01) for ``trump``, keyed by called card."""
    return {c: call_class(hand, c, trump, **params) for c in legal_calls(hand, trump, ruleset)}


@per_hand(int)
def default_call(
    hand: list[int],
    *,
    trump: int | None = None,
    ruleset: RuleSet | None = None,
    b_max_length: int = 2,
    c_min_length: int = 4,
) -> int:
    """G-ACE-02 default policy (ours): the called card from the first non-empty class in the
    order A, B, C, guess (other non-void), void; ties → the suit where the rikker holds more
    HIGH cards, then the lower card int. ``trump=None`` uses G-RIK-02's choice."""
    if trump is None:
        trump = rik_trump(hand)
    holdings = hand_holdings(hand)
    classes = call_classes(
        hand, trump, ruleset, b_max_length=b_max_length, c_min_length=c_min_length
    )

    def preference(c: int) -> tuple[int, int, int]:
        return (CALL_CLASSES.index(classes[c]), -high_count(int(holdings[suit_of(c)])), c)

    return min(classes, key=preference)
