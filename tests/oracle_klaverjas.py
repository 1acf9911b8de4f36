"""A brute-force klaverjas oracle in plain Python (docs/klaverjas.md): every card of every
line is tried, with no pruning and no move ordering; positions at trick starts are
remembered (the same position always has the same value), which changes nothing but the
time. Written from the rules text, separately from the numba solver, to check it.

Cards are 32-card ints (suit * 8 + rank, rank 0..7 = 7 8 9 10 J Q K A); a position is four
tuples of cards, the seat to lead and which teams have won a trick so far. Values are the
solver's: D = the playing team's points minus the opponents' over the rest of the play.
"""

from __future__ import annotations

import functools

TRUMP_POINTS = {0: 0, 1: 0, 2: 14, 3: 10, 4: 20, 5: 3, 6: 4, 7: 11}
PLAIN_POINTS = {0: 0, 1: 0, 2: 0, 3: 10, 4: 2, 5: 3, 6: 4, 7: 11}
TRUMP_RANKING = [0, 1, 5, 6, 3, 7, 2, 4]  # 7 8 Q K 10 A 9 J, lowest first
PLAIN_RANKING = [0, 1, 2, 4, 5, 6, 3, 7]  # 7 8 9 J Q K 10 A, lowest first


def suit(c: int) -> int:
    """The suit 0..3 of a card."""
    return c // 8


def rank(c: int) -> int:
    """The rank 0..7 (7 .. A) of a card."""
    return c % 8


def beats(a: int, b: int, trump: int, led: int) -> bool:
    """Card ``a`` beats card ``b`` in a trick led in suit ``led``."""
    if suit(a) == trump and suit(b) != trump:
        return True
    if suit(a) != trump and suit(b) == trump:
        return False
    if suit(a) == suit(b):
        order = TRUMP_RANKING if suit(a) == trump else PLAIN_RANKING
        return order.index(rank(a)) > order.index(rank(b))
    return suit(b) != led and suit(a) == led


def winner(trick: list[int], trump: int) -> int:
    """Index of the winning card."""
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump, suit(trick[0])):
            best = i
    return best


def legal(hand: tuple[int, ...], trick: list[int], trump: int, amsterdam: bool) -> list[int]:
    """The pseudo-code of the rules text (KJ-07), literally."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    trumps_in_trick = [c for c in trick if suit(c) == trump]

    def higher_trumps():
        return [
            c
            for c in hand
            if suit(c) == trump and all(beats(c, t, trump, led) for t in trumps_in_trick)
        ]

    same = [c for c in hand if suit(c) == led]
    if same:
        if led == trump:
            return higher_trumps() or same
        return same
    if amsterdam and len(trick) >= 2 and winner(trick, trump) == len(trick) - 2:
        return list(hand)
    mine = [c for c in hand if suit(c) == trump]
    if mine:
        if trumps_in_trick:
            over = higher_trumps()
            if over:
                return over
            others = [c for c in hand if suit(c) != trump]
            return others or list(hand)
        return mine
    return list(hand)


def roem(trick: list[int], trump: int) -> int:
    """Roem of four cards: sequences 20 / 50, stuk 20, four equal 100."""
    total = 0
    for s in range(4):
        ranks = sorted(rank(c) for c in trick if suit(c) == s)
        run = best = 1 if ranks else 0
        for a, b in zip(ranks, ranks[1:], strict=False):
            run = run + 1 if b == a + 1 else 1
            best = max(best, run)
        total += 50 if best >= 4 else 20 if best == 3 else 0
    if trump * 8 + 5 in trick and trump * 8 + 6 in trick:
        total += 20
    if len({rank(c) for c in trick}) == 1:
        total += 100
    return total


def points(c: int, trump: int) -> int:
    """The card points of a card."""
    return (TRUMP_POINTS if suit(c) == trump else PLAIN_POINTS)[rank(c)]


def value(hands, leader: int, won: int, trump: int, play_team: int, amsterdam: bool) -> int:
    """Exact future D from a trick start (``won``: bit 1 the playing team, bit 2 the
    opponents have taken a trick)."""
    key = tuple(tuple(sorted(h)) for h in hands)
    return _at_trick_start(key, leader, won, trump, play_team, amsterdam)


@functools.cache
def _at_trick_start(key, leader, won, trump, play_team, amsterdam):
    """The value of a trick start, remembered (the same position has the same value)."""
    if not key[leader]:
        return 0
    return _play(key, leader, won, [], trump, play_team, amsterdam)


def _play(key, leader, won, trick, trump, play_team, amsterdam):
    """Every legal card of the seat to play, each line to the end; max or min of them."""
    seat = (leader + len(trick)) % 4
    results = []
    for c in legal(key[seat], trick, trump, amsterdam):
        hands2 = list(key)
        hands2[seat] = tuple(x for x in key[seat] if x != c)
        hands2 = tuple(hands2)
        t2 = trick + [c]
        if len(t2) < 4:
            results.append(_play(hands2, leader, won, t2, trump, play_team, amsterdam))
            continue
        w = (leader + winner(t2, trump)) % 4
        pts = sum(points(x, trump) for x in t2) + roem(t2, trump)
        ours = w % 2 == play_team
        won2 = won | (1 if ours else 2)
        if not hands2[0]:
            pts += 10
            if won2 == 1:
                pts += 100  # mars; tegenmars is simply nat (no bonus)
        rest = _at_trick_start(hands2, w, won2, trump, play_team, amsterdam)
        results.append((pts if ours else -pts) + rest)
    return max(results) if seat % 2 == play_team else min(results)


def move_values(hands, leader, won, trump, play_team, amsterdam) -> dict[int, int]:
    """The exact future D after each legal lead of ``leader``."""
    key = tuple(tuple(sorted(h)) for h in hands)
    out = {}
    for c in legal(key[leader], [], trump, amsterdam):
        rest = list(key)
        rest[leader] = tuple(x for x in key[leader] if x != c)
        out[c] = _play(tuple(rest), leader, won, [c], trump, play_team, amsterdam)
    return out
