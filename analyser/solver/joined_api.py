"""Python entry points of the joined misère / piek search (analyser/solver/joined_misere.py):
validate at the boundary, then solve on worker threads without the GIL."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np

from analyser.cards import N_SEATS, cards_to_mask
from analyser.solver.api import PositionError, check_position, default_threads
from analyser.solver.joined_misere import ROUND_MIN_CARDS, ROUND_NODES, JoinedBatch, joined_range
from analyser.solver.joined_moves import (
    MODEL_COALITION,
    MODEL_DUCK,
    SETTLE_ALL,
    STOP_AT_FIRST_FAILURE,
)
from analyser.solver.joined_table import JT_BITS, new_table
from analyser.solver.layout import NEED_MISERE, NEED_PIEK, UNDECIDED

FORMS = {"misere": NEED_MISERE, "piek": NEED_PIEK}
RULES = {"settle_all": SETTLE_ALL, "stop_at_first_failure": STOP_AT_FIRST_FAILURE}
MODELS = {"duck": MODEL_DUCK, "coalition": MODEL_COALITION}

__all__ = ["UNDECIDED", "solve_joined", "solve_joined_batch"]


def _code(table: dict[str, int], value: str | int, what: str) -> int:
    if isinstance(value, str):
        if value not in table:
            raise PositionError(f"unknown {what} {value!r}: use one of {', '.join(table)}")
        return table[value]
    if int(value) not in table.values():
        raise PositionError(f"unknown {what} code {value!r}")
    return int(value)


def _decl_mask(declarers: Iterable[int]) -> int:
    mask = 0
    for s in declarers:
        if not 0 <= int(s) < N_SEATS:
            raise PositionError(f"seat {s} is not 0..3")
        if mask >> int(s) & 1:
            raise PositionError(f"seat {s} is listed twice among the declarers")
        mask |= 1 << int(s)
    return mask


class _Worker:
    """One thread's table and generation, kept between calls (allocating and zeroing the
    table costs more than many small positions take)."""

    def __init__(self, bits: int):
        self.bits = bits
        self.tk, self.tv = new_table(bits)
        self.gen = 0


_idle: list[_Worker] = []
_idle_lock = threading.Lock()


def solve_joined_batch(
    hands: np.ndarray,
    leader: np.ndarray | int,
    declarers: np.ndarray | int,
    x: np.ndarray | int,
    form: str | int = "misere",
    rule: str | int = "settle_all",
    model: str | int = "duck",
    taken: np.ndarray | None = None,
    *,
    max_nodes: int = 0,
    threads: int | None = None,
    table_bits: int = JT_BITS,
    stats: dict[str, int] | None = None,
    round_nodes: int = ROUND_NODES,
    round_min_cards: int = ROUND_MIN_CARDS,
) -> np.ndarray:
    """Whether declarer ``x`` makes his misère (or piek) with other declarers in the deal,
    per position: int8[n] of 1 (made), 0 (failed), UNDECIDED (-1: given up at the node
    budget ``max_nodes``, 0 = none). The game is the one of
    :mod:`analyser.solver.joined_misere` (its docstring defines the goal).

    ``hands`` int64[n, 4] masks at a trick boundary (equal counts); ``leader`` seats;
    ``declarers`` seat bitmasks (two or three seats; one is allowed, the lone game);
    ``x`` the declarer asked about (in ``declarers``); ``form`` ``misere`` / ``piek``;
    ``rule`` ``settle_all`` (book, wiezen) / ``stop_at_first_failure`` (IWWA I-06);
    ``model`` ``duck`` (default) / ``coalition``; ``taken`` int[n, 4] tricks each seat holds
    already (default none). Scalars broadcast. ``stats`` (optional) receives ``nodes``,
    ``hits``, ``given_up`` and ``max_nodes_one`` (the most nodes one position took).
    ``round_nodes`` / ``round_min_cards``: the budget rounds of the search (its docstring;
    0 nodes = none); they change only how many nodes a position takes, never an answer."""
    hands = np.array(hands, dtype=np.int64, order="C")
    if hands.ndim != 2 or hands.shape[1] != N_SEATS:
        raise PositionError("hands must be an int64 array of shape (n, 4)")
    n = hands.shape[0]

    def column(v) -> np.ndarray:
        return np.array(np.broadcast_to(np.asarray(v, dtype=np.int64), (n,)), order="C")

    lead_a, decl_a, x_a = column(leader), column(declarers), column(x)
    need_a = column(_code(FORMS, form, "form"))
    rule_a = column(_code(RULES, rule, "rule"))
    model_a = column(_code(MODELS, model, "model"))
    if taken is None:
        taken_a = np.zeros((n, N_SEATS), np.int64)
    else:
        taken_a = np.array(np.broadcast_to(np.asarray(taken, np.int64), (n, N_SEATS)), order="C")
    for i in range(n):
        check_position([int(h) for h in hands[i]])
    if n and (lead_a.min() < 0 or lead_a.max() > 3 or x_a.min() < 0 or x_a.max() > 3):
        raise PositionError("leader and x must be seats 0..3")
    if n and (decl_a.min() < 1 or decl_a.max() > 15):
        raise PositionError("declarers must be a seat bitmask 1..15")
    if n and np.any((decl_a >> x_a) & 1 == 0):
        raise PositionError("x must be one of the declarers")
    if n and (taken_a.min() < 0 or np.any(taken_a.sum(axis=1) > 13)):
        raise PositionError("tricks taken must be 0..13 per seat, 13 in all")
    if int(max_nodes) < 0:
        raise PositionError("max_nodes must be 0 (no budget) or positive")
    if int(round_nodes) < 0 or int(round_min_cards) < 0:
        raise PositionError("round_nodes and round_min_cards must be 0 or positive")
    rounds = np.array([int(round_nodes), int(round_min_cards)], np.int64)
    batch = JoinedBatch(hands, lead_a, x_a, decl_a, taken_a, need_a, rule_a, model_a)
    out = np.zeros(n, np.int64)
    if n == 0:
        return out.astype(np.int8)
    threads = max(1, min(int(threads or default_threads()), n))
    with _idle_lock:
        workers = [w for w in _idle if w.bits == table_bits][:threads]
        for w in workers:
            _idle.remove(w)
    workers += [_Worker(table_bits) for _ in range(threads - len(workers))]
    lock = threading.Lock()
    state = {"next": 0, "error": None}
    counts = np.zeros((threads, 3), np.int64)

    def work(k: int) -> None:
        w = workers[k]
        try:
            while True:
                with lock:
                    a = state["next"]
                    if a >= n:
                        return
                    blk = max(1, min(32, (n - a) // (4 * threads)))
                    state["next"] = a + blk
                for i in range(a, a + blk):
                    # one position per call: the largest node count of one position is kept
                    one = np.zeros(3, np.int64)
                    w.gen = joined_range(
                        np.array([i], np.int64),
                        batch,
                        w.tk,
                        w.tv,
                        w.gen,
                        one,
                        (int(max_nodes), rounds),
                        out,
                    )
                    counts[k] += one
                    if stats is not None:
                        stats["max_nodes_one"] = max(stats.get("max_nodes_one", 0), int(one[0]))
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            with lock:
                state["next"] = n
                if state["error"] is None:
                    state["error"] = exc

    helpers = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(1, threads)]
    for t in helpers:
        t.start()
    try:
        work(0)
    finally:
        for t in helpers:
            t.join()
        with _idle_lock:
            _idle.extend(workers)
    if state["error"] is not None:
        raise state["error"]
    if stats is not None:
        tot = counts.sum(axis=0)
        stats["nodes"] = stats.get("nodes", 0) + int(tot[0])
        stats["hits"] = stats.get("hits", 0) + int(tot[1])
        stats["given_up"] = stats.get("given_up", 0) + int(tot[2])
    return out.astype(np.int8)


def solve_joined(
    hands: Sequence,
    leader: int,
    declarers: Iterable[int],
    x: int,
    form: str = "misere",
    rule: str = "settle_all",
    model: str = "duck",
    taken: Sequence[int] | None = None,
    *,
    max_nodes: int = 0,
) -> int:
    """One position: 1 if declarer ``x`` makes his ``form`` (misère, piek) with the other
    ``declarers`` in the deal, 0 if not, UNDECIDED (-1) when given up at ``max_nodes``.
    ``hands``: four hands (seat N E S W) as sequences of card ints 0..51 or masks; see
    :func:`solve_joined_batch` for the rest."""
    masks = [int(h) if isinstance(h, int | np.integer) else cards_to_mask(h) for h in hands]
    check_position(masks)
    mask = _decl_mask(declarers)
    out = solve_joined_batch(
        np.array([masks], np.int64),
        int(leader),
        mask,
        int(x),
        form,
        rule,
        model,
        None if taken is None else np.array([list(taken)], np.int64),
        max_nodes=max_nodes,
        threads=1,
    )
    return int(out[0])
