"""The play API: the value of every legal card of the seat to move, with a trick in progress.

A player deciding what to play (a single-dummy player sampling worlds, a user replaying a deal)
asks: "in this position, with these cards already on the table, what does each of my cards
give?". :func:`card_values` answers for every contract the solver knows, one call per position:

* ``tricks``: the declarer side's tricks from the current trick on (that trick included);
* ``>=K``: 1 if the declarer side can still take K tricks from here, else 0;
* ``misere`` / ``piek``: 1 if the lone declarer can take no trick / exactly one trick from here.

Goals count from the current trick on: a caller in the middle of a deal subtracts the tricks
already taken (a piek declarer who has his trick plays on for ``misere``).

Each legal card is searched with the first move forced to it (search's ``force``), on one table
generation, so what one card's search proved serves the next. Equivalent cards (adjacent
among the cards still in play, moves.gen_moves) get one search and the same value. Under a node
budget a card whose search is given up has the value -1.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit
from numpy import ndarray

from analyser.cards import N_RANKS, N_SEATS
from analyser.solver.bits import ctz, popcount
from analyser.solver.driver import FIRST_GUESS, null_windows
from analyser.solver.jit import finish_module
from analyser.solver.layout import (
    ABANDONED,
    CUT_CACHE,
    FAM_E,
    GOAL_GE,
    GOAL_MISERE,
    GOAL_PIEK,
    NEED_MISERE,
    NEED_PIEK,
    NT,
    S_NODES,
    S_RX_NODES,
    UNDECIDED,
)
from analyser.solver.moves import cut_slots, gen_moves
from analyser.solver.position import seat_of
from analyser.solver.search import search
from analyser.solver.state import Memory, Moves, Root, Rules, Turn
from analyser.solver.table import next_generation

NOT_LEGAL = -2  # card_values_core's value of a card the seat to move may not play
UNDECIDED_CARD = UNDECIDED  # its value of a card whose search was given up at the node budget


# A position and goal as card_values_core takes them: ``hands`` (int64[4] bit masks, the cards
# still held), ``trump``, ``leader`` (of the current trick), ``decl`` (the declarer side as a
# seat mask), ``goal`` and ``target`` (a parsed goal: code and K), ``called`` (0..51, -1 for
# none), ``trick``/``n_trick`` (int64[3], the cards on the table from ``leader`` on, as bits),
# ``discard_ok`` (the called card may be discarded).
Query = namedtuple("Query", "hands trump leader decl goal target called trick n_trick discard_ok")


@njit(cache=True)
def card_values_core(query, mem, max_nodes, only, out):
    """Fill ``out`` (int64[64], by card bit 16 * suit + rank) with the value of every legal
    card of the seat to move whose run of equivalent cards meets the bit mask ``only`` (-1:
    every legal card; NOT_LEGAL elsewhere, UNDECIDED_CARD where the budget ran out), for
    the position and goal ``query`` (a Query). ``max_nodes`` > 0 is a budget for the whole
    call. Every search uses the table, move-ordering array and generation of ``mem`` (a
    Memory, analyser/solver/state.py); the caller takes the generation
    (table.next_generation) before the call."""
    hands, trump, leader, decl_mask, goal, target, called, trick0, n_trick0, discard_ok = query
    killer = mem.killer
    stats = mem.stats
    for k in range(out.shape[0]):
        out[k] = NOT_LEGAL
    side = np.zeros(4, np.int64)
    for p in range(4):
        side[p] = (decl_mask >> p) & 1
    called_bit = -1
    holder = -1
    if called >= 0:
        b = 16 * (called // 13) + called % 13
        holder = seat_of(hands, b)
        if holder >= 0:
            called_bit = b
    pend0 = 1 if holder >= 0 else 0
    n = popcount(hands[(leader + n_trick0) & 3])
    mv = np.empty((1, 14), np.int64)
    run = np.empty((1, 14), np.int64)
    first = Rules(trump, side, side, 0, called_bit, holder, discard_ok)
    turn = first_turn(hands, leader, trick0, n_trick0)
    n_moves = gen_moves(first, hands, turn, pend0, Moves(mv, run, mv[0]))
    # the history, lead killers and cut-off cache slots this position uses (as solve_one)
    for k in range(CUT_CACHE + cut_slots(n)):
        killer[k] = 0
    start_n = stats[S_NODES]
    start_rx = stats[S_RX_NODES]
    for i in range(n_moves):
        c = mv[0, i]
        if (run[0, i] & only) == 0:
            continue  # a card the caller does not ask about (single-dummy: settled already)
        # the budget is the whole call's: each search gets what the earlier ones left
        # as search counts its budget: its own nodes and half of the smaller misère game's
        spent = stats[S_NODES] - start_n + (stats[S_RX_NODES] - start_rx) // 2
        left = max_nodes - spent if max_nodes > 0 else 0
        if max_nodes > 0 and left <= 0:
            value = UNDECIDED_CARD
            r = run[0, i]
            while r:
                low = r & -r
                out[ctz(low)] = value
                r ^= low
            continue
        if goal == GOAL_MISERE or goal == GOAL_PIEK:
            need = NEED_MISERE if goal == GOAL_MISERE else NEED_PIEK
            rules = Rules(trump, side, side, need, called_bit, holder, discard_ok)
            root = Root(hands, leader, pend0, trick0, n_trick0, c)
            v = search(rules, root, FAM_E, 1, mem, left)
            value = UNDECIDED_CARD if v == ABANDONED else v
        else:
            # GOAL_GE: one null window at the target; GOAL_TRICKS: MTD(f) from 7 of 13
            lo = target - 1 if goal == GOAL_GE else 0
            hi = target if goal == GOAL_GE else n
            g = hi if goal == GOAL_GE else (FIRST_GUESS * n + 6) // 13
            rules = Rules(trump, side, side, 0, called_bit, holder, discard_ok)
            root = Root(hands, leader, pend0, trick0, n_trick0, c)
            lo, hi, given_up = null_windows(rules, root, lo, hi, g, mem, left)
            if given_up:
                value = UNDECIDED_CARD
            elif goal == GOAL_GE:
                value = 1 if lo >= target else 0
            else:
                value = lo
        # every card of the run is equivalent to the one searched
        r = run[0, i]
        while r:
            low = r & -r
            out[ctz(low)] = value
            r ^= low


@njit(cache=True, _nrt=False, forceinline=True)
def first_turn(hands, leader, trick0, n_trick0):
    """The Turn (at depth 0) of the seat to move with the cards ``trick0[:n_trick0]`` on the
    table, from ``leader`` on (who wins the trick so far is left unset: gen_moves does not
    read it)."""
    p = (leader + n_trick0) & 3
    table = 0
    for k in range(n_trick0):
        table |= 1 << trick0[k]
    alive = hands[0] | hands[1] | hands[2] | hands[3] | table
    lead_suit = trick0[0] >> 4 if n_trick0 > 0 else -1
    return Turn(0, p, n_trick0, lead_suit, p, 0, table, alive)


@njit(cache=True)
def legal_runs_core(hands, leader, trick0, n_trick0, called, discard_ok, out):
    """Fill ``out`` (int64[14]) with the legal moves of the seat to move as runs of
    equivalent cards (bit masks, moves.gen_moves); return their number."""
    holder = -1
    called_bit = -1
    if called >= 0:
        b = 16 * (called // 13) + called % 13
        holder = seat_of(hands, b)
        if holder >= 0:
            called_bit = b
    pend0 = 1 if holder >= 0 else 0
    mv = np.empty((1, 14), np.int64)
    run = np.empty((1, 14), np.int64)
    # gen_moves reads only the called card's members of the rules: trump and sides are moot
    no_side = np.zeros(4, np.int64)
    rules = Rules(NT, no_side, no_side, 0, called_bit, holder, discard_ok)
    turn = first_turn(hands, leader, trick0, n_trick0)
    n = gen_moves(rules, hands, turn, pend0, Moves(mv, run, mv[0]))
    for i in range(n):
        out[i] = run[0, i]
    return n


def legal_runs(
    hands: Sequence[Iterable[int]],
    leader: int,
    trick: Sequence[int] = (),
    called: int | None = None,
    *,
    called_card_may_be_discarded: bool = True,
) -> list[list[int]]:
    """The legal cards of the seat to move, grouped in runs of equivalent cards (adjacent
    among the cards still in play, so one value serves the run whatever the other hands
    hold), each run's cards ascending, the runs in the solver's move order. The grouping
    depends only on the mover's hand and the cards still in play: every world of a
    single-dummy player's sample gives the same runs. Positions as :func:`card_values`."""
    hands = [[int(c) for c in h] for h in hands]
    trick = [int(c) for c in trick]
    check_trick_position(hands, leader, trick)
    masks = np.zeros(N_SEATS, np.int64)
    for s, h in enumerate(hands):
        masks[s] = _mask(h)
    trick0 = np.zeros(3, np.int64)
    for i, c in enumerate(trick):
        trick0[i] = 16 * (c // N_RANKS) + c % N_RANKS
    out = np.zeros(14, np.int64)
    n = legal_runs_core(
        masks, int(leader), trick0, len(trick), -1 if called is None else int(called),
        bool(called_card_may_be_discarded), out,
    )  # fmt: skip
    runs = []
    for i in range(n):
        r = int(out[i])
        runs.append(sorted((b >> 4) * N_RANKS + (b & 15) for b in range(64) if r >> b & 1))
    return runs


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << (16 * (int(c) // N_RANKS) + int(c) % N_RANKS)
    return m


def check_trick_position(hands: Sequence[Sequence[int]], leader: int, trick: Sequence[int]) -> None:
    """Raise PositionError unless ``hands`` (cards still held) and ``trick`` (cards on the
    table from ``leader`` on, 0-3 of them) make a position: every card once, the seats that
    played to the trick one card fewer than the others, and a seat that did not follow suit
    holds no card of the suit led."""
    from analyser.solver.api import PositionError

    if len(hands) != N_SEATS:
        raise PositionError("need four hands")
    if not 0 <= int(leader) < N_SEATS:
        raise PositionError(f"leader {leader} is not a seat 0..3")
    if len(trick) > 3:
        raise PositionError("a trick in progress has 0 to 3 cards on the table")
    cards = [int(c) for h in hands for c in h] + [int(c) for c in trick]
    if any(not 0 <= c < 52 for c in cards):
        raise PositionError("cards are 0..51")
    if len(set(cards)) != len(cards):
        raise PositionError("a card is in two places")
    played = {(leader + k) % N_SEATS for k in range(len(trick))}
    sizes = {len(h) + (1 if q in played else 0) for q, h in enumerate(hands)}
    if len(sizes) != 1 or not 1 <= sizes.pop() <= 13:
        raise PositionError(
            "hands must hold equal numbers of cards (1..13), the seats that played to the "
            "trick one fewer"
        )
    if trick:
        suit = int(trick[0]) // N_RANKS
        for k, c in enumerate(trick[1:], start=1):
            q = (leader + k) % N_SEATS
            if int(c) // N_RANKS != suit and any(int(x) // N_RANKS == suit for x in hands[q]):
                raise PositionError(
                    f"seat {q} did not follow suit to the trick but still holds that suit"
                )


def card_values(
    hands: Sequence[Iterable[int]],
    trump: int,
    leader: int,
    declarer: int | Iterable[int],
    goal: str | int = "tricks",
    called: int | None = None,
    trick: Sequence[int] = (),
    *,
    called_card_may_be_discarded: bool = True,
    max_nodes: int = 0,
    solver=None,
    only: Iterable[int] | None = None,
    keep_table: bool = False,
) -> dict[int, int]:
    """Value of every legal card of the seat to move: {card: value}.

    ``hands``: the four hands (index = seat N E S W) as card ints still held; ``trick``: the
    cards already on the table in the current trick, from ``leader`` on (0-3; the seats that
    played hold one card fewer). ``trump`` 0..3 or 4 = no trump; ``declarer`` a seat or
    seats; ``called``: the called card (its holder must play it the first time its suit is
    led; a called card already played has no further effect). ``goal`` and the values: see
    the module docstring (goals count from the current trick on). ``max_nodes`` > 0 is a
    node budget for the whole call (the cards are searched in move order, each with what the
    earlier ones left): a card whose search needs more, or comes after the budget is spent,
    gets -1. ``solver``: an
    :class:`~analyser.solver.Solver` whose table is reused (a new one if None). ``only``:
    value just these cards (and the cards equivalent to them); None = every legal card.
    ``keep_table``: search on the solver's current table generation instead of a new one,
    so that what earlier calls proved serves this one; the caller must keep the declarer
    side, trump, called card and rule switches the same within a generation (the table's
    entries do not record them)."""
    from analyser.solver.api import (
        PositionError,
        Solver,
        _check_goal_side,
        _seat_mask,
        ctrl_c_in_numba,
        parse_goal,
    )

    hands = [[int(c) for c in h] for h in hands]
    trick = [int(c) for c in trick]
    check_trick_position(hands, leader, trick)
    if not 0 <= int(trump) <= 4:
        raise PositionError(f"trump {trump} is not 0..4 (4 = no trump)")
    code, k = parse_goal(goal)
    decl = _seat_mask(declarer)
    _check_goal_side(code, decl)
    mover = (int(leader) + len(trick)) % N_SEATS
    if code == GOAL_GE and not 1 <= k <= len(hands[mover]):
        raise PositionError(f">=K needs K in 1..{len(hands[mover])} (the tricks left)")
    if called is not None and not 0 <= int(called) < 52:
        raise PositionError(f"called card {called} is not 0..51")
    if int(max_nodes) < 0:
        raise PositionError("max_nodes must be 0 (no budget) or positive")
    if solver is None:
        solver = Solver()
    tt, tb, _, _, killer, stats = solver.tables
    masks = np.zeros(N_SEATS, np.int64)
    for s, h in enumerate(hands):
        masks[s] = _mask(h)
    trick0 = np.zeros(3, np.int64)
    for i, c in enumerate(trick):
        trick0[i] = 16 * (c // N_RANKS) + c % N_RANKS
    out = np.zeros(64, np.int64)
    # the generation is taken before the numba call (as Solver.solve does), so a Ctrl-C that
    # ends the call cannot leave it to be used again by the next search on this solver
    if not keep_table:
        solver.gen = next_generation(tb, solver.gen)
    only_mask = -1 if only is None else _mask(only)
    with ctrl_c_in_numba():
        query = Query(
            masks,
            int(trump),
            int(leader),
            int(decl),
            int(code),
            int(k),
            -1 if called is None else int(called),
            trick0,
            len(trick),
            bool(called_card_may_be_discarded),
        )
        mem = Memory(tt, tb, solver.gen, killer, stats, 0)
        card_values_core(query, mem, int(max_nodes), only_mask, out)
    return {(b >> 4) * N_RANKS + (b & 15): int(out[b]) for b in range(64) if out[b] != NOT_LEGAL}


def world_values(query: Query, max_nodes: int, only_mask: int, solver) -> ndarray:
    """:func:`card_values` for a caller that already holds a checked position in the
    solver's own form (a :data:`Query`: the hands as ``int64[4]`` bit masks, the declarer
    side as a seat mask, the goal as a parsed (code, K), ``called`` -1 for none, the trick's
    cards as bits in ``trick[:n_trick]``), on the solver's current table generation (its
    ``keep_table``); the cards to value as a bit mask ``only_mask`` (-1: all). Returns
    ``int64[64]`` by card bit (NOT_LEGAL, a value, or -1 where the budget ran out). A
    single-dummy player values the same cards in many worlds: this skips the per-call
    reading and checks."""
    tt, tb, _, _, killer, stats = solver.tables
    out = np.zeros(64, np.int64)
    with _ctrl_c():
        mem = Memory(tt, tb, solver.gen, killer, stats, 0)
        card_values_core(query, mem, int(max_nodes), int(only_mask), out)
    return out


def _ctrl_c():
    from analyser.solver.api import ctrl_c_in_numba

    return ctrl_c_in_numba()


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
