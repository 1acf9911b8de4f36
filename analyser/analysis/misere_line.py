"""Why a closed misère fails: the forced card of each failing deal, along a principal line.

**Why it fails.** On every sampled deal where the closed misère fails, the *forced card* is the
card with which the declarer wins his first trick along this principal line, built one trick
at a time from trick 1:

1. every legal way to play the current trick is enumerated (following suit; cards of one hand
   with no other player's card of the suit between them count as one, represented by the lowest);
2. each way ends in one of three outcomes, judged by the solver at the next trick boundary:
   the declarer wins this trick (**now**), or he does not and the position that follows still
   fails against best defence (**later**), or it is a made misère (**escape**);
3. the trick is played by minimax on these outcomes — the defenders prefer now > later >
   escape, the declarer the reverse — every player, among equally good cards, playing his
   lowest (by rank, then suit ♠ ♥ ♦ ♣);
4. on "later" the next trick is played the same way; on "now" the declarer's card in that
   trick is the forced card (his lowest card among the choices, all of which win).

So the defenders force a trick as early as they can, looking one trick ahead with the solver
telling them which continuations still beat the contract; the forced card names the suit (and
rank) where the hand is caught.

*How the line is found* (the result is exactly the minimax above). Whether the defenders can
force the declarer to win the current trick is a question about that trick alone, answered
without the solver; when they can, the trick is "now" and its line follows. Otherwise the
trick's play tree is searched by alpha-beta, its leaves judged lazily in the same lowest-card
order (a defender's node stops at the first "later", since "now" is out of reach there, a
declarer's node at the first "escape"), so the principal line is unchanged while a trick needs
a handful of solver calls instead of one per way to play it. One generator per deal asks for
the positions it needs; :func:`forced_cards` solves the questions of up to :data:`WINDOW`
deals at a time in one batch (all cores) per round and keeps every answer. Only the first
:data:`~analyser.analysis.misere.EXPLAIN_MAX` failing deals in sample order are explained
(``explain``); the shares of the forced cards are shares of the deals explained.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

import numpy as np

from analyser.analysis.positions import NODE_BUDGET
from analyser.cards import (
    N_RANKS,
    N_SEATS,
    N_SUITS,
    NOTRUMP,
    SUIT_BITS,
    SUIT_MASK,
    card,
    card_bit,
    rank_of,
    suit_of,
)
from analyser.seats import Seat

NOW, LATER, ESCAPE = 0, 1, 2  # outcomes of a trick, in the declarer's order of preference
UNEXPLAINED = -1
"""Forced card of a deal whose line escaped (the deal did not fail: a solver inconsistency)."""
BUDGET = -2
"""Forced card of a deal whose line needs a position given up at the node budget."""
# Deals whose failure analysis runs side by side: each round solves at most one position per
# deal in one batch, so the width keeps the cores busy while the progress line moves steadily.
WINDOW = 48


def _holding(mask: int, s: int) -> int:
    return (mask >> (SUIT_BITS * s)) & SUIT_MASK


def _choices(hands: list[int], seat: int, led: int | None) -> list[int]:
    """Legal cards of ``seat`` (the lowest of each run of equivalent cards), low rank first.

    Two cards of one hand are equivalent when no other hand holds a card of the suit between
    them (cards already on the table in this trick still count as held: they are in ``hands``).
    """
    mask = hands[seat]
    suits = [led] if led is not None and _holding(mask, led) else range(N_SUITS)
    others = 0
    for p in range(N_SEATS):
        if p != seat:
            others |= hands[p]
    out = []
    for s in suits:
        mine, theirs = _holding(mask, s), _holding(others, s)
        prev_mine = False
        for r in range(N_RANKS):
            if mine >> r & 1:
                if not prev_mine:
                    out.append(card(s, r))
                prev_mine = True
            elif theirs >> r & 1:
                prev_mine = False
    out.sort(key=lambda c: (rank_of(c), suit_of(c)))
    return out


def _winner(played: tuple[int, ...], leader: int) -> int:
    """Seat winning a no-trump trick: the highest card of the led suit."""
    led = suit_of(played[0])
    best = 0
    for i in range(1, N_SEATS):
        c = played[i]
        if suit_of(c) == led and rank_of(c) > rank_of(played[best]):
            best = i
    return (leader + best) % N_SEATS


def _after(hands: list[int], played: tuple[int, ...]) -> list[int]:
    out = list(hands)
    for c in played:
        bit = card_bit(c)
        for p in range(N_SEATS):
            if out[p] & bit:
                out[p] &= ~bit
    return out


Position = tuple[tuple[int, int, int, int], int]
"""A position to judge: the four hand masks and the seat on lead."""
Line = tuple[int, ...]


class _GivenUp(Exception):
    """A position the line needs was given up at the node budget."""


class _Trick:
    """The play tree of one trick from ``leader`` (cards in play order), searched for the
    minimax of the module docstring: the declarer ``me`` maximises the outcome, the defenders
    minimise it, each preferring his lowest card on a tie."""

    def __init__(self, hands: list[int], leader: int, me: int):
        self.hands = hands
        self.leader = leader
        self.me = me
        self.seats = [(leader + i) % N_SEATS for i in range(N_SEATS)]
        self._choices: dict[tuple[int, int | None], list[int]] = {}
        self._now: dict[Line, bool] = {}

    def choices(self, played: Line) -> list[int]:
        """The cards of the next player (the lowest of each equivalent run), lowest first."""
        pos = len(played)
        led = suit_of(played[0]) if played else None
        key = (pos, led)
        if key not in self._choices:
            self._choices[key] = _choices(self.hands, self.seats[pos], led)
        return self._choices[key]

    def forces_now(self, played: Line) -> bool:
        """The defenders can make the declarer win this trick from here (no solver needed:
        it is a question about this trick alone)."""
        if played in self._now:
            return self._now[played]
        if len(played) == N_SEATS:
            value = _winner(played, self.leader) == self.me
        elif self.seats[len(played)] == self.me:
            value = all(self.forces_now(played + (c,)) for c in self.choices(played))
        else:
            value = any(self.forces_now(played + (c,)) for c in self.choices(played))
        self._now[played] = value
        return value

    def now_line(self, played: Line) -> Line:
        """The rest of the principal line from a node whose value is "now": the declarer
        plays his lowest card (all of them lose the trick), a defender the lowest card that
        keeps the trick forced."""
        rest: Line = ()
        while len(played) + len(rest) < N_SEATS:
            here = played + rest
            for c in self.choices(here):
                if self.seats[len(here)] == self.me or self.forces_now(here + (c,)):
                    rest += (c,)
                    break
        return rest

    def search(
        self, played: Line = (), alpha: int = NOW - 1, beta: int = ESCAPE + 1
    ) -> Generator[Position, int, tuple[int, Line]]:
        """(value, rest of the principal line) of the node after ``played``, by alpha-beta
        with the window (``alpha``, ``beta``): a value inside it is exact and its line the
        principal one; a value <= alpha is an upper bound, >= beta a lower bound (their line
        means nothing). Yields the positions after the trick it needs judged and receives
        1 (made: escape), 0 (fails: later) or -1 (given up: raises :class:`_GivenUp`)."""
        pos = len(played)
        if pos == N_SEATS:
            w = _winner(played, self.leader)
            if w == self.me:
                return NOW, ()
            rest = _after(self.hands, played)
            if rest[0] == 0:
                return ESCAPE, ()  # last trick gone by without a trick: made
            answer = yield (rest[0], rest[1], rest[2], rest[3]), w
            if answer < 0:
                raise _GivenUp
            return (ESCAPE if answer else LATER), ()
        if self.forces_now(played):
            return NOW, self.now_line(played)
        # "now" is out of reach: the value is at least "later"
        if LATER >= beta:
            return LATER, ()
        maximise = self.seats[pos] == self.me
        best: tuple[int, Line] | None = None
        for c in self.choices(played):
            v, rest = yield from self.search(played + (c,), alpha, beta)
            if best is None or (v > best[0] if maximise else v < best[0]):
                best = (v, (c,) + rest)
            if maximise:
                if v >= beta or v == ESCAPE:
                    break
                alpha = max(alpha, v)
            else:
                if v <= alpha or v == LATER:
                    break
                beta = min(beta, v)
        assert best is not None
        return best


def _forced_line(
    hands: list[int], leader: int, me: int
) -> Generator[Position, int, tuple[int, int]]:
    """The principal line of one failing deal, trick by trick: yields the positions it needs
    judged (see :meth:`_Trick.search`) and returns (forced card, trick number 1..13), or
    (:data:`UNEXPLAINED`, 0) if the line escapes, or (:data:`BUDGET`, trick) if a position it
    needs was given up at the node budget."""
    trick = 1
    while True:
        try:
            value, line = yield from _Trick(hands, leader, me).search()
        except _GivenUp:
            return BUDGET, trick
        if value == NOW:
            return line[(me - leader) % N_SEATS], trick
        if value == ESCAPE:
            return UNEXPLAINED, 0
        hands, leader = _after(hands, line), _winner(line, leader)
        trick += 1


def forced_cards(
    deals: np.ndarray,
    leader: Seat,
    me: Seat,
    threads: int | None = None,
    max_nodes: int = NODE_BUDGET,
    *,
    window: int = WINDOW,
    on_deal: Callable[[int], None] | None = None,
    stats: dict[str, int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Forced card and trick number (1..13) per failing deal (see the module docstring).

    ``deals`` are ``int64[n, 4]`` positions at trick 1 in which the misère of seat ``me`` fails
    with ``leader`` on lead. A deal whose line escapes gets card :data:`UNEXPLAINED` (-1,
    trick 0; cannot happen when the deals really fail); one whose line needs a position given
    up at the node budget ``max_nodes`` (0 = none) gets :data:`BUDGET` (-2) and the trick
    where that happened. Up to ``window`` deals are worked on at once: each round solves the
    positions they wait for in one :func:`~analyser.solver.solve_batch` call; answers are
    kept per position. ``on_deal(1)`` is called as each deal is done; ``stats`` (optional)
    receives ``positions`` (solved), ``given_up`` and ``rounds``.
    """
    from analyser.solver import GOAL_MISERE, solve_batch

    n = deals.shape[0]
    out_card = np.full(n, UNEXPLAINED, dtype=np.int64)
    out_trick = np.zeros(n, dtype=np.int64)
    known: dict[Position, int] = {}
    waiting: dict[int, tuple[Generator[Position, int, tuple[int, int]], Position]] = {}
    tally = {"positions": 0, "given_up": 0, "rounds": 0}

    def run(i: int, gen, answer: int | None) -> None:
        """Drive deal ``i`` until it waits for an unknown position or is done."""
        try:
            question = gen.send(answer)
            while question in known:
                question = gen.send(known[question])
        except StopIteration as stop:
            out_card[i], out_trick[i] = stop.value
            if on_deal is not None:
                on_deal(1)
            return
        waiting[i] = (gen, question)

    following = 0
    while True:
        while len(waiting) < max(window, 1) and following < n:
            run(following, _forced_line([int(x) for x in deals[following]], int(leader), me), None)
            following += 1
        if not waiting:
            break
        asked = list(dict.fromkeys(q for _, q in waiting.values()))
        masks = np.array([q[0] for q in asked], dtype=np.int64)
        leads = np.array([q[1] for q in asked], dtype=np.int64)
        res = solve_batch(
            masks, NOTRUMP, leads, 1 << me, GOAL_MISERE, 0, -1,
            threads=threads, max_nodes=max_nodes, bounds=True,
        )[0]  # fmt: skip
        for q, r in zip(asked, res, strict=True):
            known[q] = int(r)
        tally["positions"] += len(asked)
        tally["given_up"] += int((res < 0).sum())
        tally["rounds"] += 1
        pending = sorted(waiting.items())
        waiting.clear()
        for i, (gen, q) in pending:
            run(i, gen, known[q])
    if stats is not None:
        stats.update(tally)
    return out_card, out_trick
