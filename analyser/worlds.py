"""What one player knows during the play, and the deals ("worlds") consistent with it.

A player at the table sees his own hand, every card played, which suits a player has shown out
of (he did not follow), and whatever the rules make public: open hands (open misère or piek,
praatje), the turned card in the dealer's hand, the holder of a called card once it has
fallen or once the holder has revealed himself. :class:`Knowledge` holds that, and
:func:`sample_worlds` draws the hidden cards uniformly among the deals that agree with it.

Exactly uniform, without rejection: the hidden cards fall into groups of cards that the same
seats may hold (a seat may hold a card when he still has room, is not void in its suit and is
not excluded from that card: the called card is not with a seat that followed its suit's
first lead with another card, R-PLAY-05). The number of completions is counted group by
group (the ways to give ``k_s`` of a group's ``m`` cards to each seat ``s`` is the
multinomial ``m! / prod k_s!``), with a table over the seats' remaining room. A world then
takes, group after group, a split ``(k_s)`` with probability proportional to its ways times
the completions of the groups after it, and a uniformly shuffled order of the group's cards
cut by that split. Every completion is equally likely, and a world with a contradiction
cannot come out.

Reproducible by construction: world ``i`` of seed ``s`` uses the SplitMix64 words of the deal
sampler's stream (analyser.sampler: key of ``s``, block of world ``i``) read in pure Python, so
the same world comes out on any machine, in any batch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from functools import cache
from math import factorial

import numpy as np

from analyser.cards import N_CARDS, N_RANKS, N_SEATS, cards_to_mask
from analyser.errors import RikkenError

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_BLOCK = 1 << 15  # words per world, as the deal sampler's block per deal


class KnowledgeError(RikkenError):
    """The knowledge contradicts itself: no deal agrees with it."""


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class _Stream:
    """The 32-bit draws of world ``index`` of ``seed`` (high half of each word first)."""

    def __init__(self, seed: int, index: int):
        self.key = _mix64((int(seed) + _GAMMA) & _M64)
        self.word = int(index) * _BLOCK
        self.spare: int | None = None

    def draw32(self) -> int:
        if self.spare is not None:
            x, self.spare = self.spare, None
            return x
        self.word += 1
        w = _mix64((self.key + _GAMMA * self.word) & _M64)
        self.spare = w & 0xFFFFFFFF
        return w >> 32

    def below(self, r: int) -> int:
        """Uniform integer in [0, r) for r < 2**32 (multiply-shift with rejection)."""
        while True:
            prod = self.draw32() * r
            low = prod & 0xFFFFFFFF
            if low >= r or low >= ((1 << 32) - r) % r:
                return prod >> 32

    def below_big(self, r: int) -> int:
        """Uniform integer in [0, r) for any r >= 1 (whole 32-bit chunks, with rejection)."""
        if r < (1 << 32):
            return self.below(r)
        bits = r.bit_length()
        while True:
            x = 0
            for _ in range(-(-bits // 32)):
                x = (x << 32) | self.draw32()
            x >>= -(-bits // 32) * 32 - bits
            if x < r:
                return x


@dataclasses.dataclass(frozen=True)
class Knowledge:
    """What one player knows of the deal at a moment of the play.

    ``owner``: int8[52], the seat (0..3) holding each card as far as known, -1 for a hidden
    card; ``played``: bool[52], the cards already played (their owner is irrelevant);
    ``counts``: the number of cards each seat still holds; ``void``: bool[4, 4], seat ``s``
    has shown out of suit ``u`` (he cannot hold a hidden card of it); ``excluded``:
    bool[52, 4], seat ``s`` cannot hold card ``c`` for another reason (or None).
    """

    owner: np.ndarray
    played: np.ndarray
    counts: tuple[int, int, int, int]
    void: np.ndarray
    excluded: np.ndarray | None = None

    def may_hold(self, seat: int, c: int) -> bool:
        """May ``seat`` hold the hidden card ``c``?"""
        if self.void[seat, c // N_RANKS]:
            return False
        return self.excluded is None or not self.excluded[c, seat]

    def hidden(self) -> list[int]:
        """The cards whose holder the player does not know."""
        return [c for c in range(N_CARDS) if self.owner[c] < 0 and not self.played[c]]

    def room(self) -> list[int]:
        """Per seat, the hidden cards he still holds (his count minus his known cards)."""
        out = []
        for s in range(N_SEATS):
            fixed = int(np.sum((self.owner == s) & ~self.played))
            out.append(self.counts[s] - fixed)
        return out


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins a full trick of (seat, card) pairs in play order (R-PLAY-03: the
    highest trump, else the highest card of the suit led)."""
    lead = trick[0][1] // N_RANKS

    def strength(card: int) -> int:
        suit = card // N_RANKS
        if suit == trump:
            return 100 + card % N_RANKS
        return card % N_RANKS if suit == lead else -1

    return max(trick, key=lambda sc: strength(sc[1]))[0]


def knowledge_after(
    me: int,
    hand: Iterable[int],
    trump: int,
    leader: int,
    played: Sequence[int] = (),
    known: dict[int, int] | None = None,
    called: int | None = None,
) -> Knowledge:
    """The knowledge of seat ``me``, dealt ``hand``, after the cards ``played`` in order from
    ``leader`` on (the winner of each trick leads the next, by ``trump``: 0-3 or 4 = no
    trump). A player who did not follow suit is void in the suit led. ``known``: cards
    whose holder is public {card: seat}: open hands, the turned card, a called card's holder
    once he has revealed himself. ``called``: the called card, whose holder must play it on
    its suit's first lead (R-PLAY-05): a seat that leads or follows that lead with another
    card of the suit does not hold it. Raises KnowledgeError on a contradiction (a card played by
    a seat that cannot hold it, a card twice)."""
    owner = np.full(N_CARDS, -1, np.int8)
    hand = [int(c) for c in hand]
    if len(hand) != N_RANKS or len(set(hand)) != N_RANKS:
        raise KnowledgeError("the player's hand must be 13 different cards")
    for c in hand:
        owner[c] = me
    for c, s in (known or {}).items():
        if owner[int(c)] >= 0 and owner[int(c)] != int(s):
            raise KnowledgeError(f"card {c} is known to be with two seats")
        owner[int(c)] = int(s)
    done = np.zeros(N_CARDS, bool)
    void = np.zeros((N_SEATS, 4), bool)
    excluded = np.zeros((N_CARDS, N_SEATS), bool)
    called_suit_led = False
    counts = [N_RANKS] * N_SEATS
    seat = int(leader)
    trick: list[tuple[int, int]] = []
    for c in played:
        c = int(c)
        if done[c]:
            raise KnowledgeError(f"card {c} is played twice")
        if owner[c] >= 0 and owner[c] != seat:
            raise KnowledgeError(f"seat {seat} played card {c}, which another seat holds")
        if owner[c] < 0 and void[seat, c // N_RANKS]:
            raise KnowledgeError(f"seat {seat} played card {c} of a suit he showed out of")
        if trick and c // N_RANKS != trick[0][1] // N_RANKS:
            void[seat, trick[0][1] // N_RANKS] = True
        # a called card already discarded on another suit's lead frees its holder
        if called is not None and not called_suit_led and c != called and not done[called]:
            lead = trick[0][1] if trick else c
            if lead // N_RANKS == called // N_RANKS and c // N_RANKS == called // N_RANKS:
                if owner[called] == seat:
                    raise KnowledgeError(f"seat {seat} holds the called card and did not play it")
                excluded[called, seat] = True
        owner[c] = seat
        done[c] = True
        counts[seat] -= 1
        trick.append((seat, c))
        if len(trick) == N_SEATS:
            if called is not None and trick[0][1] // N_RANKS == called // N_RANKS:
                called_suit_led = True
            seat = trick_winner(trick, trump)
            trick = []
        else:
            seat = (seat + 1) % N_SEATS
    for c in range(N_CARDS):
        s = owner[c]
        if s >= 0 and not done[c] and void[s, c // N_RANKS]:
            raise KnowledgeError(f"seat {s} showed out of the suit of card {c}, which he holds")
    k = Knowledge(owner, done, tuple(counts), void, excluded)
    if count_worlds(k) == 0:
        raise KnowledgeError("no deal agrees with what this player knows")
    return k


def _group_plan(k: Knowledge) -> tuple[list[list[int]], list[tuple[int, ...]], tuple[int, ...]]:
    """The hidden cards in groups that the same seats may hold; those seats; their room."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in k.hidden():
        seats = tuple(s for s in range(N_SEATS) if k.may_hold(s, c))
        groups.setdefault(seats, []).append(c)
    allowed = sorted(groups)
    cards = [groups[a] for a in allowed]
    room = tuple(k.room())
    if any(r < 0 for r in room) or sum(room) != sum(len(g) for g in cards):
        raise KnowledgeError("the seats' card counts do not match the hidden cards")
    return cards, allowed, room


@cache
def _splits(m: int, seats: tuple[int, ...], room: tuple[int, ...]):
    """Every way to give ``m`` cards to ``seats`` within ``room``: (k per seat, ways), as a
    tuple (cached: the same group sizes and rooms recur in every world and decision)."""
    return tuple(_split_gen(m, seats, room))


def _split_gen(m: int, seats: tuple[int, ...], room: tuple[int, ...]):

    def rec(i: int, left: int, k: list[int]):
        if i == len(seats) - 1:
            s = seats[i]
            if left <= room[s]:
                k[s] = left
                yield tuple(k)
                k[s] = 0
            return
        s = seats[i]
        for x in range(min(left, room[s]) + 1):
            k[s] = x
            yield from rec(i + 1, left - x, k)
        k[s] = 0

    if m == 0:
        yield (0, 0, 0, 0), 1
        return
    if not seats:
        return
    for k in rec(0, m, [0, 0, 0, 0]):
        ways = factorial(m)
        for x in k:
            ways //= factorial(x)
        yield k, ways


def _counter(cards, allowed):
    sizes = tuple(len(c) for c in cards)

    @cache
    def completions(u: int, room: tuple[int, ...]) -> int:
        """Completions of groups u.. with ``room`` left per seat."""
        if u == len(sizes):
            return 1 if not any(room) else 0
        total = 0
        for k, ways in _splits(sizes[u], allowed[u], room):
            rest = tuple(r - x for r, x in zip(room, k, strict=True))
            total += ways * completions(u + 1, rest)
        return total

    return completions


def count_worlds(k: Knowledge) -> int:
    """The number of deals that agree with ``k`` (exact)."""
    cards, allowed, room = _group_plan(k)
    return _counter(cards, allowed)(0, room)


def sample_worlds(k: Knowledge, n: int, seed: int, start: int = 0) -> np.ndarray:
    """Worlds ``start .. start + n - 1`` of ``seed``: ``int64[n, 4]`` hand masks of the
    cards each seat still holds (played cards in no hand), uniform among the deals that
    agree with ``k``. World ``i`` depends only on (seed, k, i)."""
    cards, allowed, room = _group_plan(k)
    completions = _counter(cards, allowed)
    total = completions(0, room)
    if total == 0:
        raise KnowledgeError("no deal agrees with what this player knows")
    base = [[] for _ in range(N_SEATS)]
    for c in range(N_CARDS):
        if k.owner[c] >= 0 and not k.played[c]:
            base[int(k.owner[c])].append(c)
    out = np.zeros((n, N_SEATS), np.int64)
    plans: dict[tuple[int, tuple[int, ...]], list] = {}  # (group, room left) -> its options
    for j in range(n):
        rng = _Stream(seed, start + j)
        hands = [list(h) for h in base]
        left = room
        for u in range(len(cards)):
            # a split of this group's cards with probability ways * completions after
            options = plans.get((u, left))
            if options is None:
                options = []
                for split, ways in _splits(len(cards[u]), allowed[u], left):
                    rest = tuple(r - x for r, x in zip(left, split, strict=True))
                    weight = ways * completions(u + 1, rest)
                    if weight:
                        options.append((split, weight))
                plans[(u, left)] = options
            pick = rng.below_big(sum(w for _, w in options))
            i = 0
            while pick >= options[i][1]:
                pick -= options[i][1]
                i += 1
            split = options[i][0]
            order = list(cards[u])
            for i in range(len(order) - 1, 0, -1):  # Fisher-Yates
                r = rng.below(i + 1)
                order[i], order[r] = order[r], order[i]
            at = 0
            for s in range(N_SEATS):
                hands[s] += order[at : at + split[s]]
                at += split[s]
            left = tuple(r - x for r, x in zip(left, split, strict=True))
        for s in range(N_SEATS):
            out[j, s] = cards_to_mask(hands[s])
    return out


def all_worlds(k: Knowledge, limit: int) -> np.ndarray | None:
    """Every deal that agrees with ``k``, once each (``int64[m, 4]`` as
    :func:`sample_worlds`), in a fixed order; None when there are more than ``limit``. A
    player with so few layouts left averages over all of them instead of a sample: exact
    for his knowledge, and cheaper than ``limit`` sampled worlds."""
    from itertools import combinations

    cards, allowed, room = _group_plan(k)
    completions = _counter(cards, allowed)
    total = completions(0, room)
    if total > limit:
        return None
    base = [0] * N_SEATS
    for c in range(N_CARDS):
        if k.owner[c] >= 0 and not k.played[c]:
            base[int(k.owner[c])] |= 1 << (16 * (c // N_RANKS) + c % N_RANKS)
    out: list[list[int]] = []

    def bits(cs) -> int:
        m = 0
        for c in cs:
            m |= 1 << (16 * (c // N_RANKS) + c % N_RANKS)
        return m

    def give(u: int, left: tuple[int, ...], hands: list[int]) -> None:
        if u == len(cards):
            if not any(left):
                out.append(list(hands))
            return
        for split, _ in _splits(len(cards[u]), allowed[u], left):
            rest = tuple(r - x for r, x in zip(left, split, strict=True))
            if completions(u + 1, rest) == 0:
                continue
            _deal_group(cards[u], split, 0, hands, lambda h, rest=rest: give(u + 1, rest, h))

    def _deal_group(group, split, s, hands, then) -> None:
        # the group's cards to the seats in order, split[s] to seat s, every subset once
        while s < N_SEATS and split[s] == 0:
            s += 1
        if s == N_SEATS:
            then(hands)
            return
        for pick in combinations(group, split[s]):
            rest = [c for c in group if c not in pick]
            h = list(hands)
            h[s] |= bits(pick)
            _deal_group(rest, split, s + 1, h, then)

    give(0, room, base)
    return np.array(out, dtype=np.int64).reshape(-1, N_SEATS)
