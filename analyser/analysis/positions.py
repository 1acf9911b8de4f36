"""Solver queries over one growing set of sampled deals, with every answer kept and reused.

Every question the analysis asks is "on deal ``i``, with this trump, leader, declarer side and
called card, ...": does the side reach ``K`` tricks, how many tricks exactly, or (misère/piek)
does the lone declarer make it. :class:`PositionStore` keeps, per position and deal, what is
known so far and sends only the unknown positions to :func:`analyser.solver.solve_batch`:

* trick goals share one record per position: a lower and an upper bound on the declarer
  side's tricks. A ``>=K`` answer moves one bound, an exact count closes both, so an exact
  count answers every later ``>=K`` question, and a ``>=8`` failure answers ``>=9``;
* positions are identified by (trump, leader, called card, declarer seats) and the deal, so
  two bids that reach the same position (beter rik and rik in hearts with the same called
  ace; open misère and its praatje form) are solved once. ``leads=True`` (troel: the called
  card's holder leads it to trick 1) makes a position of its own.

Every search runs under a node budget (``max_nodes``, default :data:`NODE_BUDGET`), so no
question runs away. A position given up at the budget keeps the bounds its searches proved:
its ``>=K`` answer is -1 (unknown) unless those bounds settle it, its exact count is a range
(:meth:`PositionStore.trick_range`), and its misère/piek answer is -1. The budget's outcome
depends only on the position (analyser.solver.table.next_generation), so the same questions
give the same unknowns on every run. A given-up question is not asked again.

Solver time and position counts are tallied per caller-supplied tag (the benchmark's
break-down by contract family) in ``seconds`` / ``solved``, per (tag, query kind) in
``kind_seconds`` / ``kind_solved`` (kinds ``>=K``, ``exact``, ``misere``, ``piek``), and the
positions given up at the budget in ``given_up`` (per tag).
"""

from __future__ import annotations

import time
from collections import defaultdict

import numpy as np

from analyser.cards import N_RANKS
from analyser.progress import Progress

N_DECL = 16  # declarer sides are seat bitmasks 1..14; index by the mask itself
# Nodes per search before a position is given up: about 0.3-0.6 s of one core. Measured on
# the benchmark panel, a search that needs more is almost always a lone declarer's exact
# count far from any target, or a misère or piek whose failure needs an exhaustive proof.
NODE_BUDGET = 2_000_000
EXACT_TRIED = 1 << 14  # the exact count's bit in a record's given-up mask (>=K uses bit K)
_KIND_NAMES = {0: "exact", 1: ">=K", 2: "misere", 3: "piek"}  # GOAL_* codes of the solver


class PositionStore:
    """Answers solver questions about ``deals`` (``int64[n, 4]``), solving each position once.

    ``discard_ok`` is the rule set's ``called_card_may_be_discarded``; ``threads`` goes to
    :func:`~analyser.solver.solve_batch` (None = all cores). ``progress`` (optional) is
    advanced by one per position solved. ``max_nodes`` is the node budget per search (0 =
    none; see the module docstring).
    """

    def __init__(
        self,
        deals: np.ndarray,
        discard_ok: bool = True,
        threads: int | None = None,
        progress: Progress | None = None,
        max_nodes: int = NODE_BUDGET,
    ):
        self.deals = np.zeros((0, 4), dtype=np.int64)
        self.discard_ok = bool(discard_ok)
        self.threads = threads
        self.progress = progress
        self.max_nodes = int(max_nodes)
        self._bounds: dict[tuple[int, int, int, bool], tuple[np.ndarray, np.ndarray]] = {}
        self._tried: dict[tuple[int, int, int, bool], np.ndarray] = {}  # given-up masks
        self._null: dict[tuple[int, int], np.ndarray] = {}
        self.given_up: dict[str, int] = defaultdict(int)
        self._queued = 0
        self.seconds: dict[str, float] = defaultdict(float)
        self.solved: dict[str, int] = defaultdict(int)
        # The same tallies split by query kind (">=K", "exact", "misere", "piek") per tag.
        self.kind_seconds: dict[tuple[str, str], float] = defaultdict(float)
        self.kind_solved: dict[tuple[str, str], int] = defaultdict(int)
        self.extend(deals)

    @property
    def n(self) -> int:
        """Number of deals held."""
        return int(self.deals.shape[0])

    def extend(self, deals: np.ndarray) -> None:
        """Append more deals (their positions start unknown)."""
        deals = np.ascontiguousarray(deals, dtype=np.int64).reshape(-1, 4)
        old = self.n
        self.deals = np.concatenate([self.deals, deals])
        grow = self.n - old
        for key, (lo, hi) in self._bounds.items():
            self._bounds[key] = (
                np.concatenate([lo, np.zeros((grow, N_DECL), np.int8)]),
                np.concatenate([hi, np.full((grow, N_DECL), N_RANKS, np.int8)]),
            )
            self._tried[key] = np.concatenate(
                [self._tried[key], np.zeros((grow, N_DECL), np.int16)]
            )
        for key, val in self._null.items():
            self._null[key] = np.concatenate([val, np.full((grow, N_DECL), -1, np.int8)])

    # ------------------------------------------------------------------ trick goals

    def _trick_record(self, trump: int, leader: int, called: int, leads: bool = False):
        key = (int(trump), int(leader), int(called), bool(leads))
        if key not in self._bounds:
            self._bounds[key] = (
                np.zeros((self.n, N_DECL), np.int8),
                np.full((self.n, N_DECL), N_RANKS, np.int8),
            )
            self._tried[key] = np.zeros((self.n, N_DECL), np.int16)
        return self._bounds[key]

    def _tried_record(
        self, trump: int, leader: int, called: int, leads: bool = False
    ) -> np.ndarray:
        self._trick_record(trump, leader, called, leads)
        return self._tried[(int(trump), int(leader), int(called), bool(leads))]

    def at_least(
        self, idx, trump: int, leader: int, decl, called, target, tag: str, leads: bool = False
    ) -> np.ndarray:
        """1/0 per deal in ``idx``: the side ``decl`` (seat bitmask per deal or one mask)
        takes at least ``target`` (per deal or one int) tricks with the called card
        ``called`` (per row or one card; -1 for none); -1 where the position was given up at
        the node budget and its bounds do not settle the question.

        Rows may repeat a deal with other called cards (rik: every call of one trump at
        once): the unknown ones are solved in one batch, grouped by deal and side, so the
        calls that name the same partner on a deal share the solver's table. ``leads``: the
        called card's holder is the leader and leads it to trick 1 (troel)."""
        idx, decl = self._index(idx, decl)
        target = np.broadcast_to(np.asarray(target, dtype=np.int64), idx.shape)
        called = np.broadcast_to(np.asarray(called, dtype=np.int64), idx.shape)
        out = np.zeros(idx.size, dtype=np.int8)
        unknown = np.zeros(idx.size, dtype=bool)
        for value in np.unique(called):
            m = called == value
            lo, hi = self._trick_record(trump, leader, int(value), leads)
            tried = self._tried_record(trump, leader, int(value), leads)
            out[m] = lo[idx[m], decl[m]] >= target[m]
            open_ = (lo[idx[m], decl[m]] < target[m]) & (hi[idx[m], decl[m]] >= target[m])
            gave_up = (tried[idx[m], decl[m]] >> target[m]) & 1 == 1
            out[m] = np.where(open_ & gave_up, -1, out[m])
            unknown[m] = open_ & ~gave_up
        if unknown.any():
            from analyser.solver import GOAL_GE

            rows = np.flatnonzero(unknown)
            # each distinct question once (two calls can be the same position: both void of
            # duty), sorted by deal, then side: a deal's questions for one partner together
            code = ((idx[rows] * N_DECL + decl[rows]) * 64 + called[rows] + 1) * 16 + target[rows]
            _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
            asked = rows
            rows = rows[first]
            res, r_lo, r_hi = self._solve(
                idx[rows],
                trump,
                leader,
                decl[rows],
                GOAL_GE,
                target[rows],
                called[rows],
                tag,
                leads=leads,
            )
            for value in np.unique(called[rows]):
                m = called[rows] == value
                u_idx, u_decl, u_target = idx[rows][m], decl[rows][m], target[rows][m]
                lo, hi = self._trick_record(trump, leader, int(value), leads)
                # the bounds the searches proved (a fail-soft >=K answer bounds one side)
                lo[u_idx, u_decl] = np.maximum(lo[u_idx, u_decl], r_lo[m])
                hi[u_idx, u_decl] = np.minimum(hi[u_idx, u_decl], r_hi[m])
                lost = res[m] < 0
                if lost.any():
                    tried = self._tried_record(trump, leader, int(value), leads)
                    tried[u_idx[lost], u_decl[lost]] |= (1 << u_target[lost]).astype(np.int16)
                    self.given_up[tag] += int(lost.sum())
            out[asked] = res[inverse.reshape(-1)]
        return out

    def trick_range(
        self, idx, trump: int, leader: int, decl, called: int, tag: str, leads: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) per deal in ``idx``: the exact tricks of the side ``decl`` where
        ``lo == hi``; where the exact count was given up at the node budget, the range its
        searches (and earlier answers) proved."""
        idx, decl = self._index(idx, decl)
        lo, hi = self._trick_record(trump, leader, called, leads)
        tried = self._tried_record(trump, leader, called, leads)
        unknown = (lo[idx, decl] != hi[idx, decl]) & (tried[idx, decl] & EXACT_TRIED == 0)
        if unknown.any():
            from analyser.solver import GOAL_TRICKS

            u_idx, u_decl = idx[unknown], decl[unknown]
            # the bounds earlier >=K answers left spare the exact count those searches
            bounds = (lo[u_idx, u_decl], hi[u_idx, u_decl])
            res, r_lo, r_hi = self._solve(
                u_idx, trump, leader, u_decl, GOAL_TRICKS, 0, called, tag, bounds, leads
            )
            lo[u_idx, u_decl] = np.maximum(lo[u_idx, u_decl], r_lo)
            hi[u_idx, u_decl] = np.minimum(hi[u_idx, u_decl], r_hi)
            lost = res < 0
            if lost.any():
                tried[u_idx[lost], u_decl[lost]] |= EXACT_TRIED
                self.given_up[tag] += int(lost.sum())
        return lo[idx, decl].copy(), hi[idx, decl].copy()

    def known_range(
        self, idx, trump: int, leader: int, decl, called: int, leads: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) per deal in ``idx``: the bounds on the side's tricks known so far from
        earlier answers (0 and 13 where nothing is known); solves nothing."""
        idx, decl = self._index(idx, decl)
        lo, hi = self._trick_record(trump, leader, called, leads)
        return lo[idx, decl].astype(np.int64), hi[idx, decl].astype(np.int64)

    def tricks(self, idx, trump: int, leader: int, decl, called: int, tag: str) -> np.ndarray:
        """Exact tricks of the side ``decl`` per deal in ``idx``; -1 where the count was
        given up at the node budget (see :meth:`trick_range`)."""
        lo, hi = self.trick_range(idx, trump, leader, decl, called, tag)
        return np.where(lo == hi, lo, -1).astype(np.int8)

    # ------------------------------------------------------------------ misère / piek

    def null_goal(self, idx, goal: int, leader: int, decl, tag: str) -> np.ndarray:
        """1/0 per deal: the lone declarer ``decl`` makes misère / piek (``goal``); -1 where
        the position was given up at the node budget."""
        idx, decl = self._index(idx, decl)
        key = (int(goal), int(leader))
        if key not in self._null:
            # -1: not asked yet; -2: given up at the node budget
            self._null[key] = np.full((self.n, N_DECL), -1, np.int8)
        val = self._null[key]
        unknown = val[idx, decl] == -1
        if unknown.any():
            u_idx, u_decl = idx[unknown], decl[unknown]
            res = self._solve(u_idx, 4, leader, u_decl, goal, 0, -1, tag)[0]
            self.given_up[tag] += int((res < 0).sum())
            val[u_idx, u_decl] = np.where(res < 0, -2, res)
        return np.maximum(val[idx, decl], -1)

    # ------------------------------------------------------------------ internals

    def _index(self, idx, decl) -> tuple[np.ndarray, np.ndarray]:
        idx = np.asarray(idx, dtype=np.int64).reshape(-1)
        decl = np.broadcast_to(np.asarray(decl, dtype=np.int64), idx.shape).copy()
        return idx, decl

    def _solve(
        self, idx, trump, leader, decl, goal, target, called, tag, bounds=None, leads=False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Solve the positions of deals ``idx`` under the node budget, tallying time under
        ``tag``: (answers, lo, hi) as :func:`~analyser.solver.solve_batch` gives them with
        ``bounds=True``. ``bounds`` (lower, upper arrays) are known trick bounds for an exact
        count."""
        from analyser.solver import solve_batch

        n = idx.size
        target = np.broadcast_to(np.asarray(target, dtype=np.int64), (n,))
        self._queued += n
        if self.progress is not None:
            self.progress.set_total(self._queued)
        t0 = time.perf_counter()
        out = solve_batch(
            self.deals[idx],
            trump,
            leader,
            decl,
            goal,
            target,
            called,
            called_card_may_be_discarded=self.discard_ok,
            threads=self.threads,
            lower=None if bounds is None else bounds[0],
            upper=None if bounds is None else bounds[1],
            on_done=None if self.progress is None else self.progress.advance,
            max_nodes=self.max_nodes,
            bounds=True,
            called_leads=bool(leads),
        )
        elapsed = time.perf_counter() - t0
        self.seconds[tag] += elapsed
        self.solved[tag] += n
        kind = _KIND_NAMES.get(int(goal), str(goal))
        self.kind_seconds[(tag, kind)] += elapsed
        self.kind_solved[(tag, kind)] += n
        return out
