"""Conversions between the project's card ints and endplay (Bo Haglund's DDS), for tests only.

DDS conventions that matter here (checked on known deals in the tests):

* ``Deal.first`` is the seat on lead to the (empty) current trick; ``solve_board`` scores every
  card of that seat, in tricks for **the side on lead** (the leader and the seat opposite).
* ``calc_dd_table`` gives, per strain and **declarer** seat, the declarer side's tricks when the
  declarer's left-hand opponent leads. It assumes full 13-card hands: on shorter endings it
  returns nonsense, so endings go through ``solve_board`` only.
* endplay's ``Player`` (N E S W = 0..3) and ``Denom`` (S H D C NT = 0..4) use our numbering.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from endplay.dds import calc_dd_table, solve_all_boards, solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player
from oracle import hand_text

from analyser.cards import N_RANKS, N_SEATS, RANK_CHARS_EN, SEAT_LETTERS

MAX_BOARDS = 200  # DDS's MAXNOOFBOARDS: the most deals one solve_all_boards call takes


def pbn_deal(hands: Sequence[Iterable[int]]) -> str:
    """A PBN deal string starting at North, e.g. ``N:AK.. QJ.. T9.. 87..``."""
    return "N:" + " ".join(hand_text(h) for h in hands)


def hands_from_pbn(pbn: str) -> list[list[int]]:
    """The four hands (index = seat) of a PBN deal string; inverse of :func:`pbn_deal`."""
    first, _, rest = pbn.strip().partition(":")
    start = SEAT_LETTERS.index(first.upper())
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    for i, text in enumerate(rest.split()):
        seat = (start + i) % N_SEATS
        for suit, group in enumerate(text.split(".")):
            hands[seat] += [suit * N_RANKS + RANK_CHARS_EN.index(ch.upper()) for ch in group]
    return [sorted(h) for h in hands]


def to_deal(hands: Sequence[Iterable[int]], trump: int = 4, leader: int = 0) -> Deal:
    """An endplay Deal with ``leader`` on lead to an empty trick and strain ``trump`` (4 = NT)."""
    return Deal(pbn_deal(hands), first=Player(leader), trump=Denom(trump))


def hands_from_deal(deal: Deal) -> list[list[int]]:
    """The four hands of an endplay Deal as card ints (index = seat)."""
    return hands_from_pbn(deal.to_pbn())


def leader_side_tricks(hands: Sequence[Iterable[int]], trump: int, leader: int) -> int:
    """DDS: tricks the leader's side (leader + partner opposite) takes from this ending."""
    return max(score for _, score in solve_board(to_deal(hands, trump, leader)))


def side_tricks(hands: Sequence[Sequence[int]], trump: int, leader: int, declarer: int) -> int:
    """DDS: tricks for the side of ``declarer`` (partners opposite), ``leader`` on lead."""
    lead_side = leader_side_tricks(hands, trump, leader)
    same_side = (declarer - leader) % 2 == 0
    return lead_side if same_side else len(hands[0]) - lead_side


def leader_side_tricks_many(
    boards: Sequence[tuple[Sequence[Iterable[int]], int, int]],
) -> list[int]:
    """DDS on many (hands, trump, leader) boards at once (threaded); leader-side tricks each."""
    out: list[int] = []
    for i in range(0, len(boards), MAX_BOARDS):
        deals = [to_deal(h, t, lead) for h, t, lead in boards[i : i + MAX_BOARDS]]
        solved = solve_all_boards(deals, SolveMode.OptimalOne)
        out += [max(score for _, score in board) for board in solved]
    return out


def dd_table(hands: Sequence[Iterable[int]]) -> list[list[int]]:
    """DDS table of a full deal: ``table[strain][declarer]`` = declarer-side tricks, LHO leading."""
    table = calc_dd_table(Deal(pbn_deal(hands)))
    return [[table[Denom(s), Player(d)] for d in range(N_SEATS)] for s in range(5)]
