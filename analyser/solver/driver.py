"""Goals on top of the null-window engine, one position at a time or a batch in parallel."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from analyser.solver.bits import popcount
from analyser.solver.engine import FAM_E, FAM_T, N_STATS, TT_COLS, search

GOAL_TRICKS = 0  # exact number of tricks of the declarer side
GOAL_GE = 1  # 1 if the declarer side can take at least `target` tricks
GOAL_MISERE = 2  # 1 if the lone declarer can avoid every trick
GOAL_PIEK = 3  # 1 if the lone declarer can take exactly one trick

DEFAULT_TT_BITS = 18  # 2**18 entries * 52 bytes = 13.6 MB per thread


@njit(cache=True)
def new_table(tt_bits):
    """Empty transposition table arrays (int64 columns, int8 bounds/move/depth)."""
    size = 1 << tt_bits
    tt = np.zeros((size, TT_COLS), np.int64)
    tb = np.zeros((size, 4), np.int8)
    return tt, tb


@njit(cache=True)
def _guess(hands, side, trump):
    """A first guess of the declarer side's tricks, to start the null-window iteration
    near the answer: its top cards per suit plus a share of its trump length."""
    n = popcount(hands[0])
    g = 0
    for s in range(4):
        ours = 0
        theirs = 0
        for p in range(4):
            hs = (hands[p] >> (16 * s)) & 0x1FFF
            if side[p] == 1:
                ours |= hs
            else:
                theirs |= hs
        while ours != 0 and (theirs == 0 or ours > theirs):
            top = 63
            while (ours >> top) & 1 == 0:
                top -= 1
            if theirs != 0 and (theirs >> top) != 0:
                break
            g += 1
            ours ^= 1 << top
        if s == trump:
            g += popcount(ours) // 2
    if g > n:
        g = n
    return g


@njit(cache=True)
def solve_one(
    hands, trump, leader, decl_mask, goal, target, called, discard_ok, tt, tb, gen, killer, stats
):
    """Solve one position (see analyser.solver.api.solve_batch for the meaning of the
    arguments). ``gen`` must be new for every call that shares ``tt``/``tb``."""
    side = np.zeros(4, np.int64)
    for p in range(4):
        side[p] = (decl_mask >> p) & 1
    called_bit = -1
    holder = -1
    if called >= 0:
        b = 16 * (called // 13) + called % 13
        for p in range(4):
            if (hands[p] >> b) & 1:
                holder = p
                called_bit = b
    pend0 = 1 if holder >= 0 else 0
    for k in range(killer.shape[0]):
        killer[k] = 0
    n = popcount(hands[0])
    if goal == GOAL_GE:
        v = search(
            hands,
            trump,
            leader,
            side,
            side,
            FAM_T,
            0,
            target,
            called_bit,
            holder,
            discard_ok,
            pend0,
            tt,
            tb,
            gen,
            killer,
            stats,
        )
        return 1 if v >= target else 0
    if goal == GOAL_MISERE or goal == GOAL_PIEK:
        g = 0 if goal == GOAL_MISERE else 1
        return search(
            hands,
            trump,
            leader,
            side,
            side,
            FAM_E,
            g,
            1,
            called_bit,
            holder,
            discard_ok,
            pend0,
            tt,
            tb,
            gen,
            killer,
            stats,
        )
    # exact count (MTD(f)): null windows around the current guess; each fail-soft answer
    # moves a bound, and the table keeps its bounds between the windows
    lo = 0
    hi = n
    g = _guess(hands, side, trump)
    while lo < hi:
        beta = g
        if beta < lo + 1:
            beta = lo + 1
        if beta > hi:
            beta = hi
        v = search(
            hands,
            trump,
            leader,
            side,
            side,
            FAM_T,
            0,
            beta,
            called_bit,
            holder,
            discard_ok,
            pend0,
            tt,
            tb,
            gen,
            killer,
            stats,
        )
        if v >= beta:
            lo = v
        else:
            hi = v
        g = v
    return lo


@njit(cache=True, parallel=True)
def solve_batch_kernel(
    hands, trump, leader, decl, goal, target, called, discard_ok, nthreads, tt_bits
):
    """Solve many positions, interleaved over ``nthreads`` workers each owning a table."""
    n = hands.shape[0]
    out = np.zeros(n, np.int8)
    for t in prange(nthreads):
        tt, tb = new_table(tt_bits)
        killer = np.zeros(256, np.int64)
        stats = np.zeros(N_STATS, np.int64)
        gen = 0
        for i in range(t, n, nthreads):
            gen += 1
            out[i] = solve_one(
                hands[i],
                trump[i],
                leader[i],
                decl[i],
                goal[i],
                target[i],
                called[i],
                discard_ok,
                tt,
                tb,
                gen,
                killer,
                stats,
            )
    return out
