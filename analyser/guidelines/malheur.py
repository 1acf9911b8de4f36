"""Malheur: the partner's trump choice (docs/guidelines.md G-MAL-07).

The malheur partner names trump (R-MAL-04) knowing which aces the malheur player holds (all
the aces the partner does not hold: with three aces the partner has the fourth, with four the
partner has none). G-MAL-07 counts those aces as part of every candidate trump suit.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyser.cards import ACE, N_CARDS, card, rank_of
from analyser.errors import RulesError
from analyser.guidelines.hand import hand_holdings, per_hand
from analyser.guidelines.vocab import SUITS, length, ranks_desc


def malheur_aces_for(hand: list[int]) -> list[int]:
    """The aces the malheur player holds, as his partner can tell: every ace not in ``hand``."""
    held = set(hand)
    return [card(s, ACE) for s in SUITS if card(s, ACE) not in held]


def effective_holding(hand: list[int], suit: int, malheur_aces: Iterable[int]) -> int:
    """G-MAL-07 ``eff(s) = my_cards(s) ∪ ({A_s} if the malheur player holds A_s)``, as a
    13-bit holding."""
    holding = int(hand_holdings(hand)[suit])
    if card(suit, ACE) in set(malheur_aces):
        holding |= 1 << ACE
    return holding


@per_hand(int)
def malheur_trump(
    hand: list[int],
    *,
    malheur_aces: Iterable[int] | None = None,
    shown_suits: Iterable[int] = (),
    shown_penalty: int = 2,
    allowed: Iterable[int] | None = None,
) -> int:
    """G-MAL-07 partner's trump: ``argmax_s (len(eff(s)), ranks_desc(eff(s)))``.

    ``hand`` is the partner's hand. ``malheur_aces`` defaults to every ace not in it.
    ``shown_suits`` are suits an opponent showed in the auction (a rikker's long suit, hearts
    for a *beter* bid); each counts ``shown_penalty`` cards shorter (the penalty is ours).
    ``allowed`` restricts the choice (V-04: see
    :func:`analyser.rules.malheur_trump_choices`). Ties go to the first suit in S, H, D, C.
    """
    aces = malheur_aces_for(hand) if malheur_aces is None else [int(c) for c in malheur_aces]
    held = set(hand)
    for c in aces:
        if not 0 <= c < N_CARDS or rank_of(c) != ACE or c in held:
            raise RulesError(f"malheur aces must be aces the partner does not hold, got {c}")
    shown = {int(s) for s in shown_suits}
    suits = list(SUITS) if allowed is None else sorted({int(s) for s in allowed} & set(SUITS))
    if not suits:
        raise RulesError("no suit is allowed as trump")

    def key(s: int) -> tuple[int, tuple[int, ...]]:
        eff = effective_holding(hand, s, aces)
        return (length(eff) - shown_penalty * (s in shown), ranks_desc(eff))

    best = suits[0]
    for s in suits[1:]:
        if key(s) > key(best):
            best = s
    return best


def malheur_trump_own(hand: list[int]) -> int:
    """The same choice ignoring the malheur player's aces (the partner's own cards only), for
    comparing against G-MAL-07's rule."""
    return malheur_trump(hand, malheur_aces=())
