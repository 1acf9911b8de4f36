"""Brute-force double-dummy reference for Rikken endings, used only to check the real solver.

Plain Python minimax over **every** legal card: no alpha-beta, no merging of equivalent cards,
no relative ranks, no bounds. The only speed-up is memoisation on the exact game state, which
returns the same value the full tree would. Its worth lies in being short enough to check by eye
against docs/rules.md §2 (R-PLAY-02/03/05), so keep it that way.

The module also holds the test-side helpers for random endings and for printing a position.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Iterable, Sequence
from functools import cache

from analyser.cards import N_RANKS, N_SEATS, RANK_CHARS_EN, SEAT_LETTERS, STRAIN_LETTERS


def parse_goal(goal: str) -> tuple[str, int]:
    """Split a goal ("tricks", ">=K", "misere", "piek") into (kind, K); K is 0 unless ">=K"."""
    if goal.startswith(">="):
        return "ge", int(goal[2:])
    if goal in ("tricks", "misere", "piek"):
        return goal, 0
    raise ValueError(f"unknown goal {goal!r}")


def payoff(kind: str, k: int, won: int) -> int:
    """What the declarer side scores when play ends with ``won`` tricks for it."""
    if kind == "tricks":
        return won
    if kind == "ge":
        return int(won >= k)
    if kind == "misere":
        return int(won == 0)
    return int(won == 1)  # piek: exactly one trick; none or two or more fail (R-MIS-03)


def cards_in(hand: int) -> list[int]:
    """The cards of a hand given as a 52-bit set (bit ``c`` = card ``c``), ascending."""
    cards = []
    while hand:
        low = hand & -hand
        cards.append(low.bit_length() - 1)
        hand ^= low
    return cards


def legal_cards(
    hand: int,
    trick: tuple[int, ...],
    called: int | None,
    pending: bool,
    may_discard: bool,
) -> list[int]:
    """The cards the player holding ``hand`` (bit c = card c) may play to ``trick``.

    ``trick`` holds the cards played to the current trick so far. ``pending`` means the called
    card's suit has not been led in an earlier trick. The obligation (R-PLAY-05) only binds the
    player who still holds the called card.
    """
    held = cards_in(hand)
    cards = held
    if trick:
        follow = [c for c in held if c // N_RANKS == trick[0] // N_RANKS]
        cards = follow or held  # R-PLAY-02: follow suit if able, else anything
    if called is None or not pending or called not in held:
        return cards
    called_suit = called // N_RANKS
    if not trick:
        # Leading the called suit for the first time: it must be the called card itself.
        cards = [c for c in cards if c // N_RANKS != called_suit or c == called]
    elif trick[0] // N_RANKS == called_suit:
        # First lead of the called suit: the holder must play the called card.
        cards = [called]
    elif not may_discard and len(held) > 1:
        # Circle rule: the called card may not go on another suit's lead unless it is the last card.
        cards = [c for c in cards if c != called]
    return cards


def trick_winner(trick: Sequence[int], leader: int, trump: int) -> int:
    """Seat that wins a complete trick (R-PLAY-03); ``trick[i]`` was played by ``leader + i``."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c // N_RANKS == trump and b // N_RANKS != trump:
            best = i
        elif c // N_RANKS == b // N_RANKS and c % N_RANKS > b % N_RANKS:
            best = i  # the best card so far is a trump or of the led suit, so c is one too
    return (leader + best) % N_SEATS


def declarer_seats(declarer: int | Iterable[int]) -> frozenset[int]:
    """The declarer side as a set of seats, from one seat or an iterable of seats."""
    if isinstance(declarer, Iterable):
        return frozenset(int(s) for s in declarer)
    return frozenset([int(declarer)])


def oracle_solve(
    hands: Sequence[Iterable[int]],
    trump: int,
    leader: int,
    declarer: int | Iterable[int],
    goal: str = "tricks",
    called: int | None = None,
    *,
    called_card_may_be_discarded: bool = True,
    trick: Sequence[int] = (),
    called_leads: bool = False,
    first_card: int | None = None,
) -> int:
    """Value of an ending with best play by both sides, by exhaustive minimax.

    ``goal`` "tricks" gives the declarer side's trick count; ">=K", "misere" and "piek" give 1/0
    (whether the declarer side can reach the goal). Same meaning as ``analyser.solver.solve``.
    ``trick``: cards already played to the current trick, from ``leader`` on; ``hands`` are
    then the cards still held (the trick's players hold one card fewer).
    ``called_leads``: the leader holds the called card and leads it to this trick (troel's
    partner card): the same as the position with that card already on the table.
    ``first_card``: the seat to move plays this (legal) card; the value is that card's.
    """
    lists = [[int(c) for c in h] for h in hands]
    trick = tuple(int(c) for c in trick)
    if called_leads:
        if trick or called is None or called not in lists[leader]:
            raise ValueError("called_leads: the leader must hold the called card, no trick")
        lists[leader].remove(called)
        trick = (called,)
    played = [1 if (i - leader) % N_SEATS < len(trick) else 0 for i in range(len(lists))]
    sizes = {len(h) + played[i] for i, h in enumerate(lists)}
    if len(lists) != N_SEATS or len(sizes) != 1 or not 1 <= sizes.pop() <= 13:
        raise ValueError("need four hands of the same size (1..13 cards)")
    if len({c for h in lists for c in h}) != sum(len(h) for h in lists):
        raise ValueError("a card is in two hands")
    start = tuple(sum(1 << c for c in h) for h in lists)  # hand = set of bits, bit c = card c
    side = declarer_seats(declarer)
    kind, k = parse_goal(goal)
    # Memo keys keep only the part of the trick count that the goal can still see: the payoff of
    # ">=K", misere and piek depends on min(count, cap) alone; "tricks" adds the future tricks to
    # the count, so there the recursion returns future tricks and ``won`` stays 0.
    cap = {"tricks": 0, "ge": k, "misere": 1, "piek": 2}[kind]

    @cache
    def value(hands: tuple, leader: int, pending: bool, won: int) -> int:
        """Value at the start of a trick; ``won`` = declarer-side tricks so far, capped."""
        if not hands[leader]:
            return payoff(kind, k, won)
        return play(hands, (), leader, pending, won)

    def play(
        hands: tuple, trick: tuple, leader: int, pending: bool, won: int, only: int | None = None
    ) -> int:
        """Value in the middle of a trick (``trick`` = cards played to it so far)."""
        seat = (leader + len(trick)) % N_SEATS
        results = []
        legal = legal_cards(hands[seat], trick, called, pending, called_card_may_be_discarded)
        if only is not None:
            if only not in legal:
                raise ValueError(f"first_card {only} is not a legal card")
            legal = [only]
        for c in legal:
            after = hands[:seat] + (hands[seat] & ~(1 << c),) + hands[seat + 1 :]
            played = trick + (c,)
            if len(played) < N_SEATS:
                results.append(play(after, played, leader, pending, won))
                continue
            winner = trick_winner(played, leader, trump)
            still = pending and (called is None or played[0] // N_RANKS != called // N_RANKS)
            gain = int(winner in side)
            if kind == "tricks":
                results.append(gain + value(after, winner, still, 0))
            else:
                results.append(value(after, winner, still, min(won + gain, cap)))
        return max(results) if seat in side else min(results)

    pending = called is not None and any(called in h for h in lists)
    if trick or first_card is not None:
        return play(start, trick, leader, pending, 0, first_card)
    return value(start, leader, pending, 0)


# ---------------------------------------------------------------- positions for the tests


def random_ending(rng: random.Random, n: int, n_suits: int | None = None) -> list[list[int]]:
    """Four random hands of ``n`` cards each, drawn from ``n_suits`` random suits (all if None).

    Few suits make following, ruffing and squeezes frequent; all four suits model real deals.
    """
    if n_suits is None:
        n_suits = 4
    n_suits = max(n_suits, -(-4 * n // N_RANKS))  # enough suits to hold 4n cards
    suits = rng.sample(range(4), n_suits)
    pool = [s * N_RANKS + r for s in suits for r in range(N_RANKS)]
    cards = rng.sample(pool, 4 * n)
    return [sorted(cards[i * n : (i + 1) * n]) for i in range(N_SEATS)]


def hand_text(hand: Iterable[int]) -> str:
    """A hand as PBN suit groups, e.g. ``AK.2..T9`` (spades.hearts.diamonds.clubs)."""
    groups = []
    for s in range(4):
        ranks = sorted((c % N_RANKS for c in hand if c // N_RANKS == s), reverse=True)
        groups.append("".join(RANK_CHARS_EN[r] for r in ranks))
    return ".".join(groups)


def card_text(c: int | None) -> str:
    """A card as suit letter + rank, e.g. ``DA``; ``-`` for none."""
    if c is None or c < 0:
        return "-"
    return "SHDC"[c // N_RANKS] + RANK_CHARS_EN[c % N_RANKS]


def position_text(
    hands: Sequence[Iterable[int]],
    trump: int,
    leader: int,
    declarer: int | Iterable[int],
    goal: str = "tricks",
    called: int | None = None,
    may_discard: bool = True,
) -> str:
    """A one-line, PBN-like description of a position and question (for failure messages)."""
    deal = "N:" + " ".join(hand_text(h) for h in hands)
    side = "".join(SEAT_LETTERS[s] for s in sorted(declarer_seats(declarer)))
    return (
        f'[Deal "{deal}"] trump={STRAIN_LETTERS[trump]} lead={SEAT_LETTERS[leader]} '
        f"declarer={side} goal={goal} called={card_text(called)} may_discard={may_discard}"
    )


def _solve_job(job: tuple) -> int:
    hands, trump, leader, declarer, goal, called, may_discard = job
    return oracle_solve(
        hands, trump, leader, declarer, goal, called, called_card_may_be_discarded=may_discard
    )


def oracle_solve_many(jobs: Sequence[tuple], processes: int = 1) -> list[int]:
    """:func:`oracle_solve` on many (hands, trump, leader, declarer, goal, called, may_discard)
    jobs, in ``processes`` worker processes when more than one (for the long test runs)."""
    if processes <= 1 or len(jobs) < 2:
        return [_solve_job(job) for job in jobs]
    # "spawn" starts clean interpreters (no inherited numba threads); they get our sys.path.
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return pool.map(_solve_job, jobs, chunksize=8)
