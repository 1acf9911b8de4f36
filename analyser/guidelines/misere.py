"""Misère: worst-case holes, the book's red flags, following and leading (G-MIS-02 .. G-MIS-08).

Suit level (13-bit holdings; ``gone`` = cards of the suit already played):
:func:`deltas` ``δ(y)``, :func:`suit_holes`, :func:`is_safe_suit` ``safe(s)``,
:func:`largest_hole`, :func:`positive_delta_sum`, :func:`has_big_hole`, and
:func:`misere_forced`, the exhaustive single-suit check behind "absolutely safe".

Card level (a hand as card ints): :func:`delta`, :func:`cover`, :func:`holes`,
:func:`safe_suit`, :func:`hole_measures`; play: :func:`misere_follow` (G-MIS-07),
:func:`lead_cost`, :func:`cover_miss_probability` ``r(x)`` and :func:`best_lead` (G-MIS-08).

Hand level (card ints, or ``.many`` on masks): :data:`absolutely_safe`, :data:`hole_count`,
:data:`hole_suits`, :data:`max_delta`, :data:`bare_high_card` (G-MIS-04),
:data:`long_suit_without_two` (G-MIS-05), :data:`big_hole_suits` / :data:`three_big_holes`
(G-MIS-06) and :data:`misere_ok`, the book's red flags combined into one classifier.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from math import factorial
from typing import NamedTuple

import numpy as np

from analyser.cards import JACK, N_CARDS, N_RANKS, card, rank_of, suit_of
from analyser.errors import RulesError
from analyser.guidelines.hand import check_hand, gone_holdings, hand_holdings, vectorised
from analyser.guidelines.vocab import (
    NINE,
    drop,
    length,
    outstanding,
    run_tops,
    suit_state,
    suit_table,
    top_rank,
)

# --------------------------------------------------------------------------- suit level


def deltas(holding: int, gone: int = 0) -> list[tuple[int, int]]:
    """``(rank, δ)`` for each card of the holding, low to high (G-MIS-02):
    ``δ(y) = #(outstanding cards below y) - #(own cards below y)``."""
    out = outstanding(holding, gone)
    result = []
    mine_below = 0
    for r in range(N_RANKS):
        if int(holding) >> r & 1:
            result.append((r, (out & ((1 << r) - 1)).bit_count() - mine_below))
            mine_below += 1
    return result


def suit_holes(holding: int, gone: int = 0) -> list[int]:
    """Ranks of the holes of a holding: ``hole(y) := δ(y) >= 1`` (G-MIS-02)."""
    return [r for r, d in deltas(holding, gone) if d >= 1]


def is_safe_suit(holding: int, gone: int = 0) -> bool:
    """``safe(s) := no hole in s`` (G-MIS-02): a defender holding every outstanding card of the
    suit cannot force a trick in it."""
    return not suit_holes(holding, gone)


def suit_hole_count(holding: int) -> int:
    """Number of holes in a holding."""
    return len(suit_holes(holding))


def largest_hole(holding: int) -> int:
    """The largest ``δ`` among the holes of a holding, 0 when it has none."""
    return max([0] + [d for _, d in deltas(holding)])


def positive_delta_sum(holding: int, gone: int = 0) -> int:
    """``Σ max(0, δ(y))`` over the holding (the hole mass G-MIS-08's lead cost compares)."""
    return sum(max(0, d) for _, d in deltas(holding, gone))


def has_big_hole(holding: int, *, min_rank: int = NINE, min_delta: int = 3) -> bool:
    """G-MIS-06: the holding has a hole with ``rank(y) >= 9`` or ``δ(y) >= 3`` (thresholds
    ours; ``min_rank`` is a rank index, the nine = 7)."""
    return any(d >= 1 and (r >= min_rank or d >= min_delta) for r, d in deltas(holding))


def exit_count_suit(holding: int) -> int:
    """Cards of the holding with ``δ <= 0`` (G-PIEK-06 exit cards)."""
    return sum(d <= 0 for _, d in deltas(holding))


@functools.cache
def _forced(state: tuple[int, ...]) -> bool:
    """Can a defender holding every 0-card force the 1-cards' owner to win a trick?"""
    if 1 not in state or 0 not in state:
        return False
    for lead in run_tops(state, 0):
        ducks = [p for p in run_tops(state, 1) if p < lead]
        if not ducks or all(_forced(drop(state, lead, p)) for p in ducks):
            return True
    return False


def misere_forced(holding: int, gone: int = 0) -> bool:
    """Exhaustive single-suit play (G-MIS-02's check): True when one defender holding every
    outstanding card of the suit, always on lead in it, can force the misère player to win a
    trick however he follows. Equivalent to ``not is_safe_suit`` (tested over all holdings)."""
    return _forced(suit_state(holding, gone))


# --------------------------------------------------------------------------- card level


def _suit_of_held(hand: list[int], y: int) -> int:
    if y not in hand:
        raise RulesError(f"card {y} is not in the hand")
    return suit_of(y)


def delta(hand: Iterable[int], y: int, gone: Iterable[int] = ()) -> int:
    """``δ(y)`` of the card ``y`` of ``hand`` (G-MIS-02)."""
    hand = check_hand(hand)
    s = _suit_of_held(hand, y)
    table = dict(deltas(int(hand_holdings(hand)[s]), int(gone_holdings(hand, gone)[s])))
    return table[rank_of(y)]


def cover(hand: Iterable[int], y: int, gone: Iterable[int] = ()) -> int:
    """``cover(y)``: outstanding cards of ``y``'s suit above ``y`` (a hole-size measure)."""
    hand = check_hand(hand)
    s = _suit_of_held(hand, y)
    out = outstanding(int(hand_holdings(hand)[s]), int(gone_holdings(hand, gone)[s]))
    return (out >> (rank_of(y) + 1)).bit_count()


def holes(hand: Iterable[int], gone: Iterable[int] = ()) -> list[int]:
    """The cards of ``hand`` that are holes (``δ >= 1``), ascending."""
    hand = check_hand(hand)
    held, went = hand_holdings(hand), gone_holdings(hand, gone)
    return [card(s, r) for s in range(4) for r in suit_holes(int(held[s]), int(went[s]))]


def safe_suit(hand: Iterable[int], suit: int, gone: Iterable[int] = ()) -> bool:
    """``safe(s)`` for suit ``suit`` of ``hand`` (G-MIS-02)."""
    hand = check_hand(hand)
    return is_safe_suit(int(hand_holdings(hand)[suit]), int(gone_holdings(hand, gone)[suit]))


class HoleMeasure(NamedTuple):
    """Size measures of one hole (G-MIS-02): ``δ``, rank, ``cover`` and the suit length."""

    card: int
    suit: int
    rank: int
    delta: int
    cover: int
    length: int


def hole_measures(hand: Iterable[int], gone: Iterable[int] = ()) -> list[HoleMeasure]:
    """One :class:`HoleMeasure` per hole of ``hand``, ascending by card."""
    hand = check_hand(hand)
    held, went = hand_holdings(hand), gone_holdings(hand, gone)
    result = []
    for s in range(4):
        h, g = int(held[s]), int(went[s])
        out = outstanding(h, g)
        for r, d in deltas(h, g):
            if d >= 1:
                above = (out >> (r + 1)).bit_count()
                result.append(HoleMeasure(card(s, r), s, r, d, above, length(h)))
    return result


# --------------------------------------------------------------------------- hand level


@vectorised(bool)
def absolutely_safe(holdings: np.ndarray) -> np.ndarray:
    """G-MIS-02 "absolutely safe": no hole in any suit — no distribution beats the misère when
    the player is not on lead. Classifier for ``misere`` (claims 100 % when not on lead)."""
    return suit_table(suit_hole_count)[holdings].sum(axis=1) == 0


@vectorised(int)
def hole_count(holdings: np.ndarray) -> np.ndarray:
    """Number of holes (cards with ``δ >= 1``) in the hand (G-MIS-03, G-PRAAT-02)."""
    return suit_table(suit_hole_count)[holdings].sum(axis=1)


@vectorised(int)
def hole_suits(holdings: np.ndarray) -> np.ndarray:
    """Number of suits with at least one hole."""
    return (suit_table(suit_hole_count)[holdings] > 0).sum(axis=1)


@vectorised(int)
def max_delta(holdings: np.ndarray) -> np.ndarray:
    """The largest hole ``δ`` in the hand, 0 when it is hole-free (G-MIS-03)."""
    return suit_table(largest_hole)[holdings].max(axis=1)


@vectorised(bool)
def bare_high_card(holdings: np.ndarray, *, min_rank: int = JACK) -> np.ndarray:
    """G-MIS-04: a singleton of rank J or higher (``n_s == 1 and rank >= J``) → no misère."""
    lengths = suit_table(length)[holdings]
    return ((lengths == 1) & (suit_table(top_rank)[holdings] >= min_rank)).any(axis=1)


@vectorised(bool)
def long_suit_without_two(holdings: np.ndarray, *, min_length: int = 6) -> np.ndarray:
    """G-MIS-05: a suit of at least ``min_length`` cards (6, ours) without its 2 → great risk."""
    lengths = suit_table(length)[holdings]
    return ((lengths >= min_length) & (holdings & 1 == 0)).any(axis=1)


@vectorised(int)
def big_hole_suits(holdings: np.ndarray, *, min_rank: int = NINE, min_delta: int = 3) -> np.ndarray:
    """G-MIS-06: number of suits with a big hole (see :func:`has_big_hole`)."""
    table = suit_table(has_big_hole, bool, min_rank=min_rank, min_delta=min_delta)
    return table[holdings].sum(axis=1)


@vectorised(bool)
def three_big_holes(
    holdings: np.ndarray, *, min_rank: int = NINE, min_delta: int = 3, min_suits: int = 3
) -> np.ndarray:
    """G-MIS-06: big holes in at least ``min_suits`` (3, ours) suits → no misère."""
    return big_hole_suits.core(holdings, min_rank=min_rank, min_delta=min_delta) >= min_suits


@vectorised(bool)
def misere_ok(
    holdings: np.ndarray,
    *,
    bare_min_rank: int = JACK,
    long_min_length: int = 6,
    big_min_rank: int = NINE,
    big_min_delta: int = 3,
    big_min_suits: int = 3,
) -> np.ndarray:
    """The book's misère red flags combined (ours): no bare high card (G-MIS-04), no long suit
    without its 2 (G-MIS-05), no big holes in three suits (G-MIS-06). Classifier for
    ``misere``: the player takes no trick."""
    bad = bare_high_card.core(holdings, min_rank=bare_min_rank)
    bad |= long_suit_without_two.core(holdings, min_length=long_min_length)
    bad |= three_big_holes.core(
        holdings, min_rank=big_min_rank, min_delta=big_min_delta, min_suits=big_min_suits
    )
    return ~bad


# --------------------------------------------------------------------------- play


def misere_follow(hand: Iterable[int], trick: Iterable[int], gone: Iterable[int] = ()) -> int:
    """G-MIS-07: the misère player's card to a trick already led (``trick`` = the cards
    played to it so far; ``gone`` = earlier tricks' cards).

    Following suit: the highest card that still loses to the current winning card (if every
    card would win, the contract is lost anyway: the highest). Void: discard the most
    dangerous card, the largest ``δ`` (ties: higher rank, then suit order S, H, D, C).
    """
    hand = check_hand(hand)
    trick = [int(c) for c in trick]
    if not trick:
        raise RulesError("misere_follow needs a trick with its lead; for leads see best_lead")
    led = suit_of(trick[0])
    winning = max(c for c in trick if suit_of(c) == led)  # no trump in misère
    mine = [c for c in hand if suit_of(c) == led]
    if mine:
        below = [c for c in mine if c < winning]
        return max(below) if below else max(mine)
    held = hand_holdings(hand)
    went = gone_holdings(hand, list(gone) + trick)
    danger = []
    for s in range(4):
        for r, d in deltas(int(held[s]), int(went[s])):
            danger.append((d, r, -s))
    d, r, neg_s = max(danger)
    return card(-neg_s, r)


@functools.cache
def _no_cover_probability(below: int, above: int, sizes: tuple[int, ...]) -> float:
    """P(no defender is forced to cover) when ``below``/``above`` outstanding cards of the suit
    lie below/above the led card, dealt at random into hands of ``sizes``."""
    if above == 0:
        return 1.0
    total = sum(sizes)
    others = total - below - above
    denom = factorial(total)
    for s in sizes:
        denom //= factorial(s)
    hits = 0
    for a in _splits(below, len(sizes)):
        ways_a = _multinomial(below, a)
        for b in _splits(above, len(sizes)):
            rest = [s - x - y for s, x, y in zip(sizes, a, b, strict=True)]
            if min(rest) < 0:
                continue
            # A defender with only higher cards of the suit must cover (he cannot duck).
            if any(y > 0 and x == 0 for x, y in zip(a, b, strict=True)):
                continue
            hits += ways_a * _multinomial(above, b) * _multinomial(others, rest)
    return hits / denom


def _splits(n: int, parts: int) -> Iterable[tuple[int, ...]]:
    for cut in itertools.combinations(range(n + parts - 1), parts - 1):
        edges = (-1, *cut, n + parts - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(parts))


def _multinomial(n: int, parts: Iterable[int]) -> int:
    out = factorial(n)
    for p in parts:
        out //= factorial(p)
    return out


def _defender_sizes(hand: list[int], gone: list[int], sizes: Iterable[int] | None) -> tuple:
    unseen = N_CARDS - len(hand) - len(gone)
    if sizes is None:
        if unseen % 3:
            raise RulesError("give defender_cards: the unseen cards do not split evenly")
        return (unseen // 3,) * 3
    sizes = tuple(int(s) for s in sizes)
    if min(sizes, default=-1) < 0 or sum(sizes) != unseen:
        raise RulesError(f"defender_cards {sizes} must share the {unseen} unseen cards")
    return sizes


def cover_miss_probability(
    hand: Iterable[int],
    x: int,
    gone: Iterable[int] = (),
    *,
    defender_cards: Iterable[int] | None = None,
) -> float:
    """G-MIS-08 ``r(x)``: P(no defender covers the led card ``x``) — every defender holding
    the suit also holds a lower card and ducks, so ``x`` wins the trick.

    Computed exactly over the uniform deals of the unseen cards into the defenders' hands
    (``defender_cards`` sizes; default an even split, 13 each before trick 1) rather than by
    sampling: the enumeration is small and has no sampling noise.
    """
    hand = check_hand(hand)
    gone = check_hand(gone, N_CARDS)
    s = _suit_of_held(hand, x)
    h, g = int(hand_holdings(hand)[s]), int(gone_holdings(hand, gone)[s])
    return suit_lead_wins(h, rank_of(x), g, _defender_sizes(hand, gone, defender_cards))


def suit_lead_cost(holding: int, rank: int, gone: int = 0) -> int:
    """G-MIS-08, deterministic part, on one suit: the increase of ``Σ max(0, δ)`` after the
    card of ``rank`` is led and the three highest outstanding cards fall on it (the defenders
    throw their high cards on the lead and keep their low ones)."""
    before = positive_delta_sum(holding, gone)
    out = outstanding(holding, gone)
    thrown = 0
    for r in range(N_RANKS - 1, -1, -1):
        if out >> r & 1 and thrown.bit_count() < 3:
            thrown |= 1 << r
    played = 1 << rank
    return positive_delta_sum(holding & ~played, gone | played | thrown) - before


def suit_lead_wins(holding: int, rank: int, gone: int = 0, sizes: tuple = (13, 13, 13)) -> float:
    """``r(x)`` on one suit: P(the led card of ``rank`` wins the trick), the defenders' hands
    of ``sizes`` dealt uniformly (see :func:`cover_miss_probability`)."""
    out = outstanding(holding, gone)
    below = (out & ((1 << rank) - 1)).bit_count()
    above = (out >> (rank + 1)).bit_count()
    return _no_cover_probability(below, above, tuple(sizes))


def lead_cost_deterministic(hand: Iterable[int], x: int, gone: Iterable[int] = ()) -> int:
    """G-MIS-08, deterministic part, for the card ``x`` of ``hand`` (:func:`suit_lead_cost`)."""
    hand = check_hand(hand)
    s = _suit_of_held(hand, x)
    h = int(hand_holdings(hand)[s])
    return suit_lead_cost(h, rank_of(x), int(gone_holdings(hand, gone)[s]))


def lead_cost(
    hand: Iterable[int],
    x: int,
    gone: Iterable[int] = (),
    *,
    r_weight: float = 13.0,
    defender_cards: Iterable[int] | None = None,
) -> float:
    """G-MIS-08 ``lead_cost(x)`` (ours): :func:`lead_cost_deterministic` plus ``r_weight``
    times :func:`cover_miss_probability`.

    docs/guidelines.md adds ``r(x)`` with weight 1, but the two terms have different units (hole
    mass vs a probability of failing at once), and with weight 1 cashing a card that surely
    wins the trick looks cheap (leading the ace from A-2 removes a hole of δ 10 at cost
    1). The default 13 makes a sure trick cost more than removing any one card's hole
    (δ <= 12); the weight is a parameter to fit against the solver's best lead."""
    cost = float(lead_cost_deterministic(hand, x, gone))
    if r_weight:
        cost += r_weight * cover_miss_probability(hand, x, gone, defender_cards=defender_cards)
    return cost


def best_lead(
    hand: Iterable[int],
    gone: Iterable[int] = (),
    *,
    r_weight: float = 13.0,
    defender_cards: Iterable[int] | None = None,
) -> int:
    """G-MIS-08: the card with the lowest :func:`lead_cost`; ties → a singleton, then the lower
    rank, then suit order."""
    hand = check_hand(hand)
    lengths = [length(int(h)) for h in hand_holdings(hand)]

    def key(c: int) -> tuple[float, bool, int, int]:
        cost = lead_cost(hand, c, gone, r_weight=r_weight, defender_cards=defender_cards)
        return (cost, lengths[suit_of(c)] != 1, rank_of(c), suit_of(c))

    if not hand:
        raise RulesError("an empty hand has no lead")
    return min(hand, key=key)
