"""Public entry points of the double-dummy solver: validate at the boundary, then call numba."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager

import numpy as np

from analyser.cards import N_SEATS, cards_to_mask
from analyser.errors import RikkenError
from analyser.solver.driver import (
    ESCALATE_NODES,
    Batch,
    Limits,
    Tables,
    same_table,
    solve_position,
    solve_range,
)
from analyser.solver.layout import (
    GOAL_GE,
    GOAL_MISERE,
    GOAL_PIEK,
    GOAL_TRICKS,
    KILLER_SIZE,
    N_STATS,
)
from analyser.solver.table import DEFAULT_TT_BITS, new_table, next_generation

GOAL_NAMES = {GOAL_TRICKS: "tricks", GOAL_GE: ">=K", GOAL_MISERE: "misere", GOAL_PIEK: "piek"}


class PositionError(RikkenError, ValueError):
    """A position the solver cannot take: unequal hands, a card twice, a bad seat or goal."""


def parse_goal(goal: str | int) -> tuple[int, int]:
    """Read a goal: 'tricks', '>=K' (K = 1..13), 'misere' or 'piek'. Returns (code, K)."""
    if isinstance(goal, int | np.integer) and int(goal) in GOAL_NAMES:
        return int(goal), 0
    text = str(goal).strip().lower().replace("è", "e")
    if text in ("", "tricks"):
        return GOAL_TRICKS, 0
    if text == "misere":
        return GOAL_MISERE, 0
    if text == "piek":
        return GOAL_PIEK, 0
    m = re.fullmatch(r">=\s*(\d{1,2})", text)
    if m and 1 <= int(m.group(1)) <= 13:
        return GOAL_GE, int(m.group(1))
    raise PositionError(
        f"unknown goal {goal!r}: use 'tricks', '>=K' with K 1..13, 'misere' or 'piek'"
    )


def _hand_mask(hand) -> int:
    if isinstance(hand, int | np.integer):
        return int(hand)
    return cards_to_mask(hand)


def check_position(masks: Sequence[int]) -> int:
    """Validate four hand masks (disjoint, equal counts 1..13). Returns cards per hand."""
    if len(masks) != N_SEATS:
        raise PositionError(f"a position needs 4 hands, got {len(masks)}")
    seen = 0
    counts = []
    for m in masks:
        if m < 0 or m & ~0x1FFF1FFF1FFF1FFF:
            raise PositionError("a hand mask has bits outside the 52 cards")
        if seen & m:
            raise PositionError("a card is in two hands")
        seen |= m
        counts.append(bin(m).count("1"))
    if len(set(counts)) != 1 or not 1 <= counts[0] <= 13:
        raise PositionError(f"hands must hold equal numbers of cards (1..13), got {counts}")
    return counts[0]


def _seat_mask(declarer) -> int:
    seats = [declarer] if isinstance(declarer, int | np.integer) else list(declarer)
    mask = 0
    for s in seats:
        if not 0 <= int(s) < N_SEATS:
            raise PositionError(f"seat {s} is not 0..3")
        mask |= 1 << int(s)
    if mask in (0, 15):
        raise PositionError("the declarer side must hold one, two or three seats")
    return mask


def _check_goal_side(goal: int, decl_mask: int) -> None:
    if goal in (GOAL_MISERE, GOAL_PIEK) and bin(decl_mask).count("1") != 1:
        raise PositionError("misere and piek are played by a lone declarer")


def _check_leads(masks: Sequence[int], leader: int, called: int | None, goal: int) -> None:
    """A position whose called card must lead trick 1: the leader holds it, trick goals."""
    if called is None or not 0 <= int(called) < 52:
        raise PositionError("called_leads needs a called card 0..51")
    if goal not in (GOAL_GE, GOAL_TRICKS):
        raise PositionError("called_leads is for trick goals (exact tricks or >=K)")
    bit = 1 << (16 * (int(called) // 13) + int(called) % 13)
    if not int(masks[leader]) & bit:
        raise PositionError(f"called_leads: the leader (seat {leader}) must hold the called card")


def _checked_tt_bits(tt_bits: int) -> int:
    """``tt_bits`` as an int, or ValueError below 7: a table is whole buckets of
    TT_WAYS = 2**7 slots, and fewer bits leave no bucket."""
    if int(tt_bits) < 7:
        raise ValueError(f"tt_bits must be at least 7, got {tt_bits}")
    return int(tt_bits)


class _Tables:
    """One searcher's transposition tables, killer/history array, statistics and last table
    generation, kept from position to position: allocating and zeroing 14 MB costs more
    than many small positions take to solve."""

    def __init__(self, tt_bits: int):
        self.tt_bits = _checked_tt_bits(tt_bits)
        tt, tb = new_table(self.tt_bits)
        big_tt, big_tb = new_table(7)  # placeholder until a position needs it
        killer = np.zeros(KILLER_SIZE, np.int64)
        self.tables = Tables(tt, tb, big_tt, big_tb, killer, np.zeros(N_STATS, np.int64))
        self.gen = 0

    @property
    def stats(self) -> np.ndarray:
        """Counters of every search made with these tables (layout.S_* slots)."""
        return self.tables.stats


class Solver(_Tables):
    """A solver with its own transposition table, for solving positions one by one.

    Reusing one instance avoids allocating the table (79.7 MB at the default size) per call.
    A position whose search outgrows it is solved again on a 159 MB table (2**21 entries),
    allocated once on first need, starting from the entries the first attempt stored
    (``stats[S_ESCALATED]`` counts these positions).
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS, escalate_nodes: int = ESCALATE_NODES):
        super().__init__(tt_bits)
        self.escalate_nodes = int(escalate_nodes)

    def solve(
        self,
        hands: Sequence,
        trump: int,
        leader: int,
        declarer,
        goal: str | int = "tricks",
        called: int | None = None,
        *,
        called_card_may_be_discarded: bool = True,
        called_leads: bool = False,
        max_nodes: int = 0,
    ) -> int:
        """Solve one position; see :func:`solve`. ``max_nodes`` > 0 is a node budget per
        search: a position that needs more is answered UNDECIDED (-1)."""
        masks = [_hand_mask(h) for h in hands]
        check_position(masks)
        if not 0 <= int(trump) <= 4:
            raise PositionError(f"trump {trump} is not 0..4 (4 = no trump)")
        if not 0 <= int(leader) < N_SEATS:
            raise PositionError(f"leader {leader} is not a seat 0..3")
        code, k = parse_goal(goal)
        decl = _seat_mask(declarer)
        _check_goal_side(code, decl)
        if called is not None and not 0 <= int(called) < 52:
            raise PositionError(f"called card {called} is not 0..51")
        if int(max_nodes) < 0:
            raise PositionError("max_nodes must be 0 (no budget) or positive")
        if called_leads:
            _check_leads(masks, int(leader), called, code)
        one = np.zeros(1, np.int64)
        batch = Batch(
            np.array([masks], dtype=np.int64),
            one + int(trump),
            one + int(leader),
            one + decl,
            one + code,
            one + k,
            one + (-1 if called is None else int(called)),
            one + 0,
            one + 13,
            one + int(bool(called_leads)),
        )
        limits = Limits(int(max_nodes), self.tt_bits, self.escalate_nodes)
        # the search's table generation is taken here, before the call, so that a Ctrl-C
        # ending the call cannot leave it to be used again by the next search
        self.gen = next_generation(self.tables.tb, self.gen)
        with ctrl_c_in_numba():
            r, (_, *tables) = solve_position(
                batch, 0, bool(called_card_may_be_discarded), self.tables, self.gen, limits
            )
        self.tables = Tables(*tables)
        return int(r[0])


@contextmanager
def ctrl_c_in_numba():
    """Around a numba call from the main thread: a Ctrl-C that came while numba handed the
    result back to Python (it runs Python code to build it; see _solve_shared_queue) ends
    the call as a SystemError caused by the KeyboardInterrupt; raise it as the
    KeyboardInterrupt it is."""
    try:
        yield
    except SystemError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise


_default_solver: Solver | None = None


def solve(
    hands: Sequence,
    trump: int,
    leader: int,
    declarer: int | Iterable[int],
    goal: str | int = "tricks",
    called: int | None = None,
    *,
    called_card_may_be_discarded: bool = True,
    called_leads: bool = False,
) -> int:
    """Double-dummy result of one position at a trick boundary.

    ``hands``: 4 hands (index = seat N E S W), each a sequence of card ints or an int64 mask,
    equal counts 1..13. ``trump``: 0..3 or 4 = no trump. ``leader``: the seat on lead.
    ``declarer``: a seat or seats forming the declarer side (partners may be adjacent).
    ``goal``: 'tricks' (exact tricks of the declarer side), '>=K' (1/0), 'misere' (1 if the
    lone declarer can take no trick), 'piek' (1 if he can take exactly one).
    ``called``: the called card (its holder must play it the first time its suit is led).
    ``called_leads``: its holder is the leader and must lead it to the first trick (the
    partner card of troel and troela, wiezen W-04/W-05); trick goals only.
    """
    global _default_solver
    if _default_solver is None:
        _default_solver = Solver()
    return _default_solver.solve(
        hands,
        trump,
        leader,
        declarer,
        goal,
        called,
        called_card_may_be_discarded=called_card_may_be_discarded,
        called_leads=called_leads,
    )


_idle_workers: list[_Tables] = []
_idle_lock = threading.Lock()


def _take_workers(k: int, tt_bits: int) -> list[_Tables]:
    with _idle_lock:
        got = [w for w in _idle_workers if w.tt_bits == tt_bits][:k]
        for w in got:
            _idle_workers.remove(w)
    return got + [_Tables(tt_bits) for _ in range(k - len(got))]


def _give_back(workers: list[_Tables]) -> None:
    with _idle_lock:
        _idle_workers.extend(workers)


def _solve_shared_queue(batch, discard_ok, threads, limits, out, on_done) -> None:
    """Solve positions 0..n-1 on ``threads`` threads that take blocks from one queue
    (guided: blocks shrink as the queue empties), so no thread idles while another still
    works through an expensive position. The answers, and the positions given up at a node
    budget, do not depend on which thread solved a position or what its table held before
    (table.next_generation). A block never ends inside a run of positions that share a table
    (driver.same_table)."""
    n = batch.hands.shape[0]
    lock = threading.Lock()
    state = {"next": 0, "error": None}

    def work(w: _Tables) -> None:
        try:
            while True:
                with lock:
                    a = state["next"]
                    if a >= n:
                        return
                    blk = max(1, min(64, (n - a) // (4 * threads)))
                    while a + blk < n and same_table(batch, a + blk - 1, a + blk):
                        blk += 1
                    state["next"] = a + blk
                idx = np.arange(a, a + blk, dtype=np.int64)
                w.gen, *tables = solve_range(idx, batch, discard_ok, w.tables, w.gen, limits, out)
                w.tables = Tables(*tables)
                if on_done is not None:
                    with lock:
                        on_done(blk)
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            with lock:
                state["next"] = n  # the other threads stop at their next block
                if state["error"] is None:
                    state["error"] = exc

    workers = _take_workers(threads, limits.tt_bits)
    # Every block is solved on a worker thread and this (the main) thread only waits: Python
    # runs its Ctrl-C handler in the main thread only, and a KeyboardInterrupt raised while
    # numba hands a result back (it runs Python code to build it) leaves an exception set
    # inside the call. Here a Ctrl-C stops the queue instead; the workers finish their block,
    # so their tables and generations stay consistent for the next batch.
    helpers = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
    for t in helpers:
        t.start()
    try:
        for t in helpers:
            while t.is_alive():
                t.join(0.1)
    except KeyboardInterrupt:
        with lock:
            state["next"] = n  # the workers stop after their block (joined below)
        raise
    finally:
        for t in helpers:
            t.join()
        _give_back(workers)
    if state["error"] is not None:
        raise state["error"]


# The solver threads a batch uses when the caller does not say: every core, unless this
# process shares its machine with other solving processes (a Dask worker among several on
# one machine: analyser.studies.cluster), where each takes its share of the cores.
_thread_cap: int | None = None


def set_default_threads(threads: int | None) -> None:
    """Make ``threads`` (None: one per core) the solver threads of every later batch that
    does not choose its own, in this process."""
    global _thread_cap
    if threads is not None and int(threads) < 1:
        raise PositionError("threads must be at least 1")
    _thread_cap = None if threads is None else int(threads)


def default_threads() -> int:
    """The solver threads of a batch that does not choose (set_default_threads)."""
    return _thread_cap or os.cpu_count() or 1


def solve_batch(
    hands: np.ndarray,
    trump: np.ndarray,
    leader: np.ndarray,
    declarer: np.ndarray,
    goal: np.ndarray,
    target: np.ndarray | None = None,
    called: np.ndarray | None = None,
    *,
    called_card_may_be_discarded: bool = True,
    threads: int | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
    max_nodes: int = 0,
    lower: np.ndarray | None = None,
    upper: np.ndarray | None = None,
    escalate_nodes: int = ESCALATE_NODES,
    on_done: Callable[[int], None] | None = None,
    bounds: bool = False,
    called_leads: np.ndarray | bool | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve many positions in parallel, one table per thread.

    ``hands`` int64[n, 4] masks; ``trump``, ``leader`` int8[n]; ``declarer`` int8[n] seat
    bitmasks (bit i = seat i); ``goal`` int8[n] GOAL_* codes; ``target`` int8[n] (K of
    GOAL_GE); ``called`` int8[n] (card or -1). Returns int8[n]: tricks or 1/0.

    ``max_nodes`` > 0 is a node budget per search (an exact count runs a few searches): a
    position whose search needs more is given up and answered UNDECIDED (-1). Every other
    answer stays exact; callers that use a budget must report the undecided positions.
    Which positions are given up depends only on the positions, never on the threads or the
    order they were solved in (table.next_generation).

    ``bounds=True`` returns (answers, lo, hi) instead: for trick goals ``lo <= tricks <= hi``
    are the bounds on the declarer side's tricks the searches proved (equal for an exact
    count; one side of the fail-soft value after a ``>=K`` answer; what the windows before
    proved for a position given up at the budget); for misère and piek 0/1 bounds of the
    answer.

    Each worker owns a ``tt_bits`` table (79.7 MB at the default 20). A search that needs
    more than ``escalate_nodes`` (default ESCALATE_NODES = 4M; 0 = never) nodes on it, or
    that replaces more than EVICT_LIMIT (1,000) of its own entries there first, is restarted
    on a 2**21-entry table (159 MB, allocated by the worker on first need), where
    ``max_nodes`` applies.

    ``called_leads`` (bool[n] or one bool, optional): the called card's holder is on lead
    and must lead it to trick 1 (troel's partner card, wiezen W-04/W-05); trick goals only.

    ``lower``/``upper`` (int8[n], optional, GOAL_TRICKS only) are bounds on the declarer
    side's tricks that the caller already knows from earlier ``>=K`` answers: the exact
    count then skips the searches those bounds settle. They must be true bounds.

    Consecutive positions on the same hands, trump, leader and side with trick goals (rik
    questions of one deal for several called cards, say) search in one table generation,
    so what one proved serves the next: callers group such positions together.

    The threads take positions from one queue and keep their tables between calls (a
    thread's table holds 79.7 MB, and 159 MB more once a position escalated); ``on_done(k)``
    (optional) is called as each block of ``k`` positions is finished.
    """
    if int(max_nodes) < 0:
        raise PositionError("max_nodes must be 0 (no budget) or positive")
    if int(escalate_nodes) < 0:
        raise PositionError("escalate_nodes must be 0 (never) or positive")
    # Fresh writable copies of every array argument: numba compiles one version of the
    # kernels per combination of read-only flags, so a caller passing a read-only view (a
    # broadcast scalar, say) paid another 2-10 s compilation on its first call.
    hands = np.array(hands, dtype=np.int64, order="C")
    if hands.ndim != 2 or hands.shape[1] != N_SEATS:
        raise PositionError("hands must be an int64 array of shape (n, 4)")
    n = hands.shape[0]

    def column(x, default):
        if x is None:
            return np.full(n, default, dtype=np.int64)
        return np.array(np.broadcast_to(np.asarray(x), (n,)), dtype=np.int64, order="C")

    trump_a = column(trump, 4)
    leader_a = column(leader, 0)
    decl_a = column(declarer, 0)
    goal_a = column(goal, GOAL_TRICKS)
    target_a = column(target, 0)
    called_a = column(called, -1)
    lower_a = column(lower, 0)
    upper_a = column(upper, 13)
    leads_a = (column(called_leads, 0) != 0).astype(np.int64)
    for i in range(n):
        check_position([int(x) for x in hands[i]])
    if n and (trump_a.min() < 0 or trump_a.max() > 4):
        raise PositionError("trump must be 0..4")
    if n and (leader_a.min() < 0 or leader_a.max() > 3):
        raise PositionError("leader must be a seat 0..3")
    if n and (decl_a.min() < 1 or decl_a.max() > 14):
        raise PositionError("declarer must be a seat bitmask 1..14")
    if n and (goal_a.min() < 0 or goal_a.max() > 3):
        raise PositionError("goal must be a GOAL_* code 0..3")
    lone = np.array([bin(int(m)).count("1") == 1 for m in decl_a], dtype=bool)
    if np.any(((goal_a == GOAL_MISERE) | (goal_a == GOAL_PIEK)) & ~lone):
        raise PositionError("misere and piek are played by a lone declarer")
    ge = goal_a == GOAL_GE
    if np.any(ge & ((target_a < 1) | (target_a > 13))):
        raise PositionError("a >=K goal needs K in 1..13")
    if n and (called_a.min() < -1 or called_a.max() > 51):
        raise PositionError("called must be a card 0..51 or -1")
    if n and (lower_a.min() < 0 or upper_a.max() > 13 or np.any(lower_a > upper_a)):
        raise PositionError("known bounds need 0 <= lower <= upper <= 13")
    for i in np.flatnonzero(leads_a):
        _check_leads([int(x) for x in hands[i]], int(leader_a[i]), int(called_a[i]), goal_a[i])
    _checked_tt_bits(tt_bits)
    if threads is None:
        threads = default_threads()
    threads = max(1, min(int(threads), max(n, 1)))
    batch = Batch(
        hands, trump_a, leader_a, decl_a, goal_a, target_a, called_a, lower_a, upper_a, leads_a
    )
    limits = Limits(int(max_nodes), int(tt_bits), int(escalate_nodes))
    discard_ok = bool(called_card_may_be_discarded)
    out = np.zeros((n, 3), np.int8)
    if n:
        _solve_shared_queue(batch, discard_ok, threads, limits, out, on_done)
    if bounds:
        return out[:, 0].copy(), out[:, 1].copy(), out[:, 2].copy()
    return out[:, 0].copy()
