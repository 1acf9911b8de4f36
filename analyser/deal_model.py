"""How Rikken is really dealt: the ``cut_only`` deal model of R-DEAL-06 (docs/rules.md).

The cards are not shuffled between games (R-DEAL-03): the tricks of a game are gathered, the
pack is cut once and dealt in packets (R-DEAL-04: seven to each player, then six; wiezen W-02:
4-4-5 after a cut of at least four cards). Runs of one suit from the last game's tricks then
survive into the next hands. This module produces such *sequences* of deals:

1. the first deal of a sequence is uniform (the seeded deal sampler);
2. the deal is played out by a stated simple policy (below), with a trump drawn per game;
3. the cards are gathered as R-DEAL-06 states: each player's tricks form one pile in the
   order won, the cards of a trick in the order played; the piles go on top of each other
   in seat order starting left of the new dealer (the deal moves one seat on, R-DEAL-02);
4. the pack is cut at a position ``c`` drawn uniformly (1 … 51; wiezen 4 … 48: at least four
   cards lifted and left), the top ``c`` cards going to the bottom;
5. the cards are dealt from the top in packets, starting left of the dealer.

The play policy (a simple, stated one: double-dummy play of every deal would cost far more and
is not how people play either): the leader leads the highest card of his longest suit (ties:
the higher suit index); a follower who can follow plays the lowest card that beats the
trick's best card if he has one, else his lowest card of the suit; a player who cannot follow
trumps with his lowest trump that wins if he has one, else discards his lowest card of his
longest suit. Every player plays for himself (no partnerships): the gathering, not the
contract, is what shapes the next deal.

Reproducible: sequence ``i`` of seed ``s`` uses the deal sampler's deal ``i`` of ``s`` as its
first deal and a ``random.Random`` seeded from (s, i) for trumps and cuts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from analyser.cards import N_RANKS, N_SEATS, cards_to_mask, mask_to_cards
from analyser.errors import RikkenError

MODELS = ("uniform", "cut_only")
PACKETS = {"book": (7, 6), "wiezen": (4, 4, 5)}
MIN_CUT = {"book": 1, "wiezen": 4}


def _beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the trick's winning card so far?"""
    if card // N_RANKS == best // N_RANKS:
        return card % N_RANKS > best % N_RANKS
    return card // N_RANKS == trump


def play_simple(hands: Sequence[Sequence[int]], trump: int, leader: int):
    """Play a deal out by the module's simple policy: a list of 13 (cards in play order,
    leader, winner) tricks. ``trump`` 0..3 or 4 (no trump)."""
    held = [sorted(int(c) for c in h) for h in hands]
    tricks = []
    for _ in range(N_RANKS):
        cards = []
        seat = leader
        best = -1
        winner = leader
        for k in range(N_SEATS):
            h = held[seat]
            if k == 0:
                lengths = [sum(c // N_RANKS == s for c in h) for s in range(4)]
                suit = max(range(4), key=lambda s: (lengths[s], s))
                c = max(x for x in h if x // N_RANKS == suit)
            else:
                lead = cards[0] // N_RANKS
                follow = [x for x in h if x // N_RANKS == lead]
                if follow:
                    winning = [x for x in follow if _beats(x, best, trump)]
                    c = min(winning) if winning else min(follow)
                else:
                    ruffs = [x for x in h if x // N_RANKS == trump and _beats(x, best, trump)]
                    if ruffs:
                        c = min(ruffs)
                    else:
                        lengths = [sum(x // N_RANKS == s for x in h) for s in range(4)]
                        suit = max(range(4), key=lambda s: (lengths[s], s))
                        c = min(x for x in h if x // N_RANKS == suit)
            if k == 0 or _beats(c, best, trump):
                best = c
                winner = seat
            h.remove(c)
            cards.append(c)
            seat = (seat + 1) % N_SEATS
        tricks.append((tuple(cards), leader, winner))
        leader = winner
    return tricks


def gather(tricks, new_dealer: int) -> list[int]:
    """The pack (top first) after gathering: each player's tricks form a pile in the order
    won, the cards of a trick in the order played; the piles go on top of each other in
    seat order starting left of the new dealer (the first pile on top)."""
    piles: list[list[int]] = [[] for _ in range(N_SEATS)]
    for cards, _, winner in tricks:
        piles[winner].extend(cards)
    pack: list[int] = []
    for k in range(1, N_SEATS + 1):
        pack.extend(piles[(new_dealer + k) % N_SEATS])
    return pack


def cut(pack: Sequence[int], c: int) -> list[int]:
    """Cut at ``c``: the top ``c`` cards go to the bottom."""
    return list(pack[c:]) + list(pack[:c])


def deal_packets(pack: Sequence[int], dealer: int, packets: Sequence[int]) -> list[list[int]]:
    """Deal ``pack`` from the top in ``packets`` (rounds of one packet to each player),
    starting left of ``dealer``."""
    if sum(packets) != N_RANKS or len(pack) != N_SEATS * N_RANKS:
        raise RikkenError("packets must add up to 13 cards and the pack hold 52")
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    at = 0
    for size in packets:
        for k in range(1, N_SEATS + 1):
            hands[(dealer + k) % N_SEATS].extend(pack[at : at + size])
            at += size
    return [sorted(h) for h in hands]


def deal_sequences(
    n_sequences: int,
    length: int,
    seed: int,
    model: str = "cut_only",
    family: str = "book",
    start: int = 0,
    play: Callable | None = None,
) -> np.ndarray:
    """``int64[n_sequences, length, 4]`` hand masks: sequences ``start .. start +
    n_sequences - 1`` of ``length`` consecutive deals under ``model`` (``uniform``: every deal
    drawn afresh; ``cut_only``: the module docstring), with the packets and cut of ``family``
    (``book`` or ``wiezen``). Deal ``j`` of a sequence is dealt by seat ``j % 4``
    (R-DEAL-02). A sequence depends only on (seed, its index). ``play`` is the policy that
    plays each deal out before the gathering (``play(hands, trump, leader)`` -> tricks as
    :func:`play_simple` gives them; default :func:`play_simple`): the play is part of the
    model, and another policy gives another model."""
    from analyser.sampler import random_deals

    if model not in MODELS:
        raise RikkenError(f"unknown deal model {model!r} (one of: {', '.join(MODELS)})")
    if family not in PACKETS:
        raise RikkenError(f"unknown deal family {family!r} (one of: {', '.join(PACKETS)})")
    if n_sequences < 1 or length < 1:
        raise RikkenError("need at least one sequence of at least one deal")
    out = np.zeros((n_sequences, length, N_SEATS), np.int64)
    if model == "uniform":
        flat = random_deals(n_sequences * length, seed, start=start * length)
        return flat.reshape(n_sequences, length, N_SEATS)
    first = random_deals(n_sequences, seed, start=start)
    lo = MIN_CUT[family]
    for i in range(n_sequences):
        rng = random.Random(f"{seed}/{start + i}")
        hands = [mask_to_cards(int(m)) for m in first[i]]
        for j in range(length):
            out[i, j] = [cards_to_mask(h) for h in hands]
            if j == length - 1:
                break  # the last deal's play would only shape a deal not returned
            dealer = j % N_SEATS
            tricks = (play or play_simple)(hands, rng.randrange(4), (dealer + 1) % N_SEATS)
            new_dealer = (dealer + 1) % N_SEATS
            pack = cut(gather(tricks, new_dealer), rng.randint(lo, 52 - lo))
            hands = deal_packets(pack, new_dealer, PACKETS[family])
    return out
