"""Brute-force reference for joined misère and piek (analyser/solver/joined_misere.py).

Plain minimax over **every** legal card at no trump, memoised on the exact state, nothing
else: no runs of equivalent cards, no relative ranks, no safe-suit shortcut. The game is the
one the solver's module docstring defines, written out here from docs/rules.md:

* declarer ``x`` is MAX (made = 1), every other seat MIN;
* a declarer fails at his first trick (misère) or his second (piek; also with none at the
  end); ``settle_all``: play goes on, ``x`` is decided at his own failure or after trick 13;
  ``stop_at_first_failure`` (I-06): play stops at any declarer's failure and ``x`` is settled
  on the tricks he has then;
* ``duck`` model: a co-declarer whom the current trick would sink, following suit, plays a
  card below the highest card of the led suit so far when he has one; ``coalition``: no
  restriction.

Cards are ints 0..51 (suit * 13 + rank), as in tests/oracle.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from oracle import legal_cards, trick_winner

from analyser.cards import N_RANKS, N_SEATS

NT = 4


def joined_oracle(
    hands: Sequence[Iterable[int]],
    leader: int,
    declarers: Iterable[int],
    x: int,
    form: str = "misere",
    rule: str = "settle_all",
    model: str = "duck",
    taken: Sequence[int] = (0, 0, 0, 0),
) -> int:
    """1 if declarer ``x`` makes ``form`` against best play by the others, else 0."""
    need = {"misere": 0, "piek": 1}[form]
    stop = {"settle_all": False, "stop_at_first_failure": True}[rule]
    duck = {"duck": True, "coalition": False}[model]
    decl = frozenset(int(d) for d in declarers)
    start = tuple(sum(1 << int(c) for c in h) for h in hands)
    counts0 = tuple(min(int(t), 2) for t in taken)

    def made(counts: tuple) -> int:
        return int(counts[x] == need)

    def fails(counts: tuple, seat: int) -> bool:
        return seat in decl and counts[seat] > need

    @cache
    def value(hands: tuple, leader: int, counts: tuple) -> int:
        if not hands[leader]:
            return made(counts)
        return play(hands, (), leader, counts)

    def play(hands: tuple, trick: tuple, leader: int, counts: tuple) -> int:
        seat = (leader + len(trick)) % N_SEATS
        cards = legal_cards(hands[seat], trick, None, False, True)
        if duck and trick and seat != x and seat in decl and counts[seat] == need:
            led = trick[0] // N_RANKS
            top = max(c % N_RANKS for c in trick if c // N_RANKS == led)
            under = [c for c in cards if c // N_RANKS == led and c % N_RANKS < top]
            if under:
                cards = under
        results = []
        for c in cards:
            after = hands[:seat] + (hands[seat] & ~(1 << c),) + hands[seat + 1 :]
            played = trick + (c,)
            if len(played) < N_SEATS:
                results.append(play(after, played, leader, counts))
                continue
            w = trick_winner(played, leader, NT)
            now = tuple(min(k + 1, 2) if s == w else k for s, k in enumerate(counts))
            if fails(now, w) and (w == x or stop):
                results.append(made(now))
            elif not any(after):
                results.append(made(now))
            else:
                results.append(value(after, w, now))
        return max(results) if seat == x else min(results)

    for s in range(N_SEATS):
        if fails(counts0, s) and (s == x or stop):
            return made(counts0)
    return value(start, leader, counts0)
