"""Goals on top of the null-window search, and the loops that solve positions in batches.

* solve_one turns a goal into searches: misère and piek are one yes/no search each; ``>=K`` is
  one null window at K; the exact count is MTD(f) - null windows around a guess, each fail-soft
  answer moving a bound, the table keeping its bounds between windows.
* solve_escalating runs solve_one on the worker's table and, when the search outgrows it, again
  on a larger table that keeps what the first attempt proved.
* solve_range solves a block of a batch without the GIL (Python threads take blocks from one
  queue: analyser/solver/api.py). A search does not depend on what the worker's table held
  before (table.next_generation), so neither the answers nor the positions given up at a
  node budget depend on how the blocks were spread over the threads.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analyser.solver.bits import popcount
from analyser.solver.jit import finish_module
from analyser.solver.layout import (
    ABANDONED,
    CUT_CACHE,
    FAM_E,
    FAM_T,
    GOAL_GE,
    GOAL_MISERE,
    GOAL_PIEK,
    GOAL_TRICKS,
    NEED_MISERE,
    NEED_PIEK,
    S_ESCALATED,
    UNDECIDED,
)
from analyser.solver.moves import cut_slots
from analyser.solver.position import seat_of
from analyser.solver.search import search
from analyser.solver.state import Memory, Root, Rules
from analyser.solver.table import BIG_TT_BITS, move_entries, new_table, next_generation

# What the driver passes around, as named tuples (numba compiles them as structs):
# Batch - the columns of a batch of positions (hands int64[n, 4], the others int64[n]; their
# meaning: analyser.solver.api.solve_batch); Tables - one worker's transposition table, its
# large table (or a placeholder until needed), move-ordering array and statistics;
# Limits - the node budget per position (0 = none), the table size and when to escalate.
Batch = namedtuple("Batch", "hands trump leader decl goal target called lower upper leads")
Tables = namedtuple("Tables", "tt tb big_tt big_tb killer stats")
Limits = namedtuple("Limits", "max_nodes tt_bits escalate_nodes")

FIRST_GUESS = 7  # the exact count's first null window, in tricks of 13 (see solve_one)

# A search that outgrows the default table starts again on a larger one. Almost every
# position needs far fewer nodes than ESCALATE_NODES and never pays for the larger table
# (allocating and touching it, and its cache misses); a rare one whose working set does not
# fit thrashes the small table: one 13-card deal took 135M nodes at 2**18 entries and 25M at
# 2**21. The restart keeps what the first attempt proved (move_entries): deal #77 of the
# benchmark searched 26.4M nodes when it restarted on an empty large table, 20.9M now.
ESCALATE_NODES = 4_000_000

# A search on the default table that has replaced more than EVICT_LIMIT of its own entries
# gives up at once and starts again on the large table, without waiting for ESCALATE_NODES:
# the entries it replaces are positions it will meet again. Of the fingerprint sets only
# deal #77 of the benchmark's exact counts replaces its own entries on the default table
# (18,654 times), and it then searched 2,010,070 trick-start nodes instead of 2,177,245
# (1,977,612 on the large table from the start) in 0.87 of the time; every other node count
# is unchanged. A search that reaches ESCALATE_NODES without thrashing (a lone declarer's
# long proof) still gains from its first attempt's entries, so that limit stays.
EVICT_LIMIT = 1000


@njit(cache=True)
def null_windows(rules, root, lo, hi, g, mem, max_nodes):
    """The trick goals' searches (MTD(f)): null windows between ``lo`` and ``hi``, the first
    at the guess ``g``, each fail-soft answer moving a bound, until ``lo == hi``. A ``>=K``
    question is the one window ``lo = K - 1, hi = K``. The position and the state
    (``rules``, ``root``, ``mem``: analyser/solver/state.py) as
    :func:`~analyser.solver.search.search` takes them. Returns (lo, hi, given up): after a
    search given up at the budget, the bounds the windows before it proved."""
    while lo < hi:
        beta = g
        if beta < lo + 1:
            beta = lo + 1
        if beta > hi:
            beta = hi
        v = search(rules, root, FAM_T, beta, mem, max_nodes)
        if v == ABANDONED:
            return lo, hi, True
        if v >= beta:
            lo = v
        else:
            hi = v
        g = v
    return lo, hi, False


@njit(cache=True)
def solve_one(batch, i, discard_ok, mem, max_nodes):
    """Solve position ``i`` of ``batch`` (a Batch; see analyser.solver.api.solve_batch for
    its columns) with the worker's Memory ``mem`` (analyser/solver/state.py): its ``gen``
    must be new for every call that shares the table. With ``max_nodes`` > 0 a search that
    needs more nodes gives up: the result is UNDECIDED. For the exact count, the batch's
    ``lower``/``upper`` are bounds the caller already knows (from earlier >=K answers): the
    null-window iteration starts between them.

    Returns (result, lo, hi). For trick goals ``lo <= tricks <= hi`` are the bounds on the
    declarer side's tricks the searches proved, the caller's included: equal for an exact
    count; after a ``>=K`` answer the fail-soft value bounds one side (a ``>=8`` that fails
    with value 5 proves at most 5 tricks); for a position given up at the budget, what the
    windows before proved. For misère and piek, ``lo <= result <= hi`` with 0/1 bounds."""
    hands = batch.hands[i]
    trump = batch.trump[i]
    leader = batch.leader[i]
    decl_mask = batch.decl[i]
    goal = batch.goal[i]
    target = batch.target[i]
    called = batch.called[i]
    lower = batch.lower[i]
    upper = batch.upper[i]
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
    force = -1
    if holder >= 0 and holder == leader and batch.leads[i] != 0:
        # troel (W-04/W-05): the holder of the partner card leads it to trick 1
        force = called_bit
    n = popcount(hands[0])
    # the history, lead killers and the cut-off cache's slots this position uses
    for k in range(CUT_CACHE + cut_slots(n)):
        mem.killer[k] = 0
    root = Root(hands, leader, pend0, np.zeros(3, np.int64), 0, force)
    if goal == GOAL_MISERE or goal == GOAL_PIEK:
        # one yes/no search: the lone declarer needs exactly 0 / 1 tricks
        need = NEED_MISERE if goal == GOAL_MISERE else NEED_PIEK
        rules = Rules(trump, side, side, need, called_bit, holder, discard_ok)
        v = search(rules, root, FAM_E, 1, mem, max_nodes)
        if v == ABANDONED:
            return UNDECIDED, 0, 1
        return v, v, v
    t_lo = max(0, lower)
    t_hi = min(n, upper)
    if goal == GOAL_GE:
        # >=K is one null window at K: the loop below with lo = K - 1 and hi = K. Its call
        # passes the trick family as the literals FAM_T, 0, so numba compiles one search
        # specialised for trick goals for both questions: 450 rik >=8 questions took about
        # 2% less time (2.92 s against 2.98 s, nine alternating runs) than in the search
        # compiled for any family.
        lo, hi, g = target - 1, target, target
    else:
        # exact count (MTD(f)): null windows around the current guess; each fail-soft answer
        # moves a bound, and the table keeps its bounds between the windows
        lo = t_lo
        hi = t_hi
        # Without known bounds the first window is at 7 of 13 tricks (scaled to the cards
        # left), whatever the hands. A guess from the side's top cards and trumps was further
        # off, and each window that overshoots leaves best moves for another target in the
        # table, which mislead the window that follows: deal #77 of the benchmark searched
        # 20.2M nodes from a guess of 10 and 13.6M from 7, the other 99 deals 6% fewer, 1 vs 3
        # positions 7% fewer.
        g = (FIRST_GUESS * n + 6) // 13
        # a known bound is the better first guess: the value is most often next to it (a rik
        # that made 8 mostly takes 8-10)
        if lower > 0:
            g = lo + 1
        elif upper < n:
            g = hi
    rules = Rules(trump, side, side, 0, called_bit, holder, discard_ok)
    lo, hi, given_up = null_windows(rules, root, lo, hi, g, mem, max_nodes)
    if given_up:
        if goal == GOAL_GE:
            return UNDECIDED, t_lo, t_hi
        return UNDECIDED, lo, hi
    if goal == GOAL_GE:
        if lo >= target:
            return 1, max(t_lo, lo), t_hi
        return 0, t_lo, min(t_hi, hi)
    return lo, lo, lo


@njit(cache=True)
def first_budget(max_nodes, tt_bits, escalate_nodes):
    """Node budget per search for the attempt on a ``tt_bits`` table, given the caller's
    budget ``max_nodes`` (0 = none): ``escalate_nodes`` (normally ESCALATE_NODES; 0 = never
    escalate) while a larger table is still to come."""
    if (
        escalate_nodes <= 0
        or tt_bits >= BIG_TT_BITS
        or (max_nodes > 0 and max_nodes <= escalate_nodes)
    ):
        return max_nodes
    return escalate_nodes


@njit(cache=True)
def solve_escalating(batch, i, discard_ok, tables, gen, limits, keep_gen=False):
    """solve_one on the worker's ``limits.tt_bits`` table, and again on its large table when
    the search outgrows the first (see :func:`first_budget`). ``tables.big_tt``/``big_tb`` is
    the large table, or a smaller placeholder: it is then allocated here, on first need.
    ``gen`` is the last generation used; ``keep_gen`` searches in that generation again,
    keeping its entries (only for a position with the same hands, trump, leader and side as
    the one before, and a trick goal for both: see :func:`same_table`). Returns (result,
    last generation, the worker's Tables: a new large table replaces the placeholder); the
    result is (answer, lo, hi) as solve_one gives it, the bounds of both attempts combined."""
    max_nodes = limits.max_nodes
    budget = first_budget(max_nodes, limits.tt_bits, limits.escalate_nodes)
    tt, tb, big_tt, big_tb, killer, stats = tables
    big = False
    if not keep_gen:
        gen = next_generation(tb, gen)
    lo = 0
    hi = 13
    while True:
        if big:
            mem = Memory(big_tt, big_tb, gen, killer, stats, 0)
        else:
            # a search that would only thrash this table gives up for the large one
            limit = EVICT_LIMIT if budget != max_nodes else 0
            mem = Memory(tt, tb, gen, killer, stats, limit)
        r, lo_r, hi_r = solve_one(batch, i, discard_ok, mem, max_nodes if big else budget)
        lo = max(lo, lo_r)
        hi = min(hi, hi_r)
        if big or r != UNDECIDED or budget == max_nodes:
            return (r, lo, hi), gen, Tables(tt, tb, big_tt, big_tb, killer, stats)
        # the small table's limit, not the caller's budget: again on the large table
        if big_tt.shape[0] < (1 << BIG_TT_BITS):
            big_tt, big_tb = new_table(BIG_TT_BITS)
        # what the first attempt proved stays usable: same generation, entries moved over
        move_entries(tt, tb, big_tt, big_tb, gen)
        stats[S_ESCALATED] += 1
        big = True


@njit(cache=True, _nrt=False, forceinline=True)
def same_table(batch, i, j):
    """May position ``j`` search in the table generation of position ``i``? Yes when both
    are trick goals (>=K or exact: the entries bound the side's future tricks whatever the
    target) on the same hands, trump, leader and declarer side. Their called cards may
    differ: an entry whose position still owes a called card names that card's suit and
    rank (the table key), and one whose called card is gone holds for any call."""
    hands, trump, leader, decl, goal = (
        batch.hands,
        batch.trump,
        batch.leader,
        batch.decl,
        batch.goal,
    )
    if goal[i] != GOAL_GE and goal[i] != GOAL_TRICKS:
        return False
    if goal[j] != GOAL_GE and goal[j] != GOAL_TRICKS:
        return False
    if trump[i] != trump[j] or leader[i] != leader[j] or decl[i] != decl[j]:
        return False
    for q in range(4):
        if hands[i, q] != hands[j, q]:
            return False
    return True


@njit(cache=True, nogil=True)
def solve_range(idx, batch, discard_ok, tables, gen, limits, out):
    """Solve the positions ``idx`` of a batch into ``out`` (int8[n, 3]: answer, lo, hi as
    solve_one gives them) on one worker's tables, without
    the GIL: Python threads call this on blocks they take from a shared queue, so a worker
    that drew cheap positions takes more (the cost of a position varies by 10**4). Returns
    the last generation and the worker's tables as a plain tuple (:func:`flat_tables`).

    A position that asks about the same deal and side as the one before it in ``idx``
    (:func:`same_table`: another called card, another target) searches on in that one's
    table generation: the rik >=8 questions of 200 deals of the benchmark's borderline rik
    hand (every trump and call) searched 7.4% fewer nodes (122.5M -> 113.4M)."""
    for j in range(idx.shape[0]):
        i = idx[j]
        keep = j > 0 and same_table(batch, idx[j - 1], i)
        r, gen, tables = solve_escalating(batch, i, discard_ok, tables, gen, limits, keep)
        out[i, 0] = r[0]
        out[i, 1] = r[1]
        out[i, 2] = r[2]
    return flat_tables(gen, tables)


@njit(cache=True, nogil=True)
def solve_position(batch, i, discard_ok, tables, gen, limits):
    """:func:`solve_escalating` for a call from Python, in the generation ``gen`` the
    caller took (table.next_generation): returns (r, lo, hi) and then what
    :func:`flat_tables` gives."""
    r, gen, tables = solve_escalating(batch, i, discard_ok, tables, gen, limits, True)
    return r, flat_tables(gen, tables)


@njit(cache=True)
def flat_tables(gen, tables):
    """(gen, tt, tb, big_tt, big_tb, killer, stats): what a call from Python gets back
    instead of the Tables named tuple. numba turns a named tuple into a Python object by
    unpickling its class, which runs Python code; with a Ctrl-C pending at that moment the
    unpickling fails and numba (0.68) calls the missing class: a segmentation fault instead
    of a KeyboardInterrupt. A plain tuple of arrays needs no Python code."""
    return (
        gen,
        tables.tt,
        tables.tb,
        tables.big_tt,
        tables.big_tb,
        tables.killer,
        tables.stats,
    )


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
