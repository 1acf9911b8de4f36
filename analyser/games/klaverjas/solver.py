"""The klaverjas double-dummy solver (docs/klaverjas.md KJ-06 … KJ-10, KJ-12): exact alpha-beta.

What is maximised: ``D`` = the playing team's points minus the opponents' points, each
side's points being its card points (KJ-04, the last trick's 10 included) plus the roem of
the tricks it wins (KJ-05) plus the mars bonus (KJ-09); the playing team maximises D, the
opponents minimise it. Why D: the playing team is nat (KJ-10) exactly when its points are
not more than half of all points, own <= (own + opp) / 2, i.e. when D <= 0. So the minimax
value of D is > 0 exactly when the playing team can force "not nat" against every defence,
and D is zero-sum and additive per trick, which is what alpha-beta and a transposition
table need. The scores themselves (own, opp, and the nat verdict's 0 / 162 + all roem) are
read off one optimal line (:func:`solve_line`: among equally good cards the first in move
order), since lines of equal D can differ in total roem.

Three modules: tricks.py (the trick on bitmasks: legal cards, the winner, points, roem),
search.py (the alpha-beta search with its table, bound and move ordering) and this one (the
exact value, one optimal line, whole deals). Search: fail-soft alpha-beta over single
cards, iterative on an explicit stack (numba's cache cannot hold a recursive function); the
exact value by null-window tests (the first at D >= 1 answers "nat or not", then galloping
out from 0 and halving the bracket), each reusing a transposition table at trick starts
keyed on (cards still out, leader, which teams have won a trick yet: mars needs it) that
holds value bounds and the best card; a safe bound at trick starts (every card point, the
last trick, the most roem the remaining cards allow in every trick, mars); move ordering:
the table's card first, a killer and history for leads, then cards that put the mover's side
ahead in the trick. Everything here works on int64 bitmasks (bit = 32-card int, rules.py)
and flat arrays: the rules arrive as ``tables``/``params`` (KlaverjasRules.tables/params).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.games.klaverjas.rules import P_LAST_TRICK, P_MARS, P_PARTNER_FREES, P_TEGENMARS
from analyser.games.klaverjas.search import (
    INF,
    KILLER,
    MAX_PLY,
    TT_BITS,
    WON_OPP,
    WON_PLAY,
    order_moves,
    search,
)
from analyser.games.klaverjas.tricks import (
    SOLVER_SOURCES,
    legal_mask,
    trick_card_points,
    trick_roem,
    winning_position,
)
from analyser.numba_cache import key_cache_on_sources

GALLOP = 64  # the first step away from 0 when bracketing the value


# the columns of solve_line's result
R_D, R_OWN, R_OPP, R_ROEM, R_MARS, R_NODES = range(6)


@njit(cache=True)
def new_stamp(stats):
    """Start a new solve: entries of earlier solves no longer match (their stamp differs)."""
    stats[1] += 1
    stats[2:] = 0


@njit(cache=True)
def solve_value(hands, trick, n, leader, won, trump, play_team, tables, params, tt, moves, stats):
    """The exact future D of a position (``trick`` holds its first ``n`` cards), with a
    fresh table stamp; ``hands`` and ``trick`` are left as they were."""
    new_stamp(stats)
    moves[:, KILLER] = 0
    h = hands.copy()
    t = trick.copy()
    # null-window tests ("is the value at least beta?"), each reusing the bounds the table
    # holds from the earlier ones: first beta = 1 (answers "nat or not"), then galloping
    # away from 0 in doubling steps until the value is bracketed, then halving the bracket
    lo, hi = -INF, INF  # the value lies in [lo, hi]
    step = GALLOP
    g = 0
    while lo < hi:
        if lo == -INF and hi == INF:
            beta = 1
        elif lo == -INF:
            beta = hi - step
            step *= 2
        elif hi == INF:
            beta = lo + step
            step *= 2
        else:
            beta = (lo + hi + 1) // 2  # lo < beta <= hi
        g = search(
            h, t, n, leader, won, trump, play_team, beta - 1, beta, tables, params, tt, moves,
            0, stats,
        )  # fmt: skip
        if g < beta:
            hi = g
        else:
            lo = g
    return g


@njit(cache=True)
def solve_line(hands0, leader, won, trump, play_team, tables, params, tt, moves, stats, out):
    """Solve from a trick start and walk one optimal line (at each turn the first card in
    move order that keeps the value). Writes into ``out``: D, the playing team's points
    (cards, roem, mars), the opponents' points, all roem, 1 if a side took every trick
    of the line (mars or tegenmars), and the search nodes."""
    nodes0 = stats[0]
    hands = hands0.copy()
    trick = np.zeros(4, np.int64)
    target = solve_value(
        hands, trick, 0, leader, won, trump, play_team, tables, params, tt, moves, stats
    )
    out[R_D] = target
    own = 0
    opp = 0
    roem_all = 0
    n = 0
    ply = 0
    while hands[(leader + n) & 3] != 0:
        seat = (leader + n) & 3
        hand = hands[seat]
        legal = legal_mask(hand, trick, n, trump, params[P_PARTNER_FREES] != 0, tables)
        k = order_moves(legal, trick, n, trump, -1, tables, moves, ply, stats, 2 + 32 * seat)
        chosen = -1
        for i in range(k):
            c = moves[ply, i]
            hands[seat] = hand & ~(1 << c)
            trick[n] = c
            scratch = trick.copy()
            if n < 3:
                v = search(
                    hands,
                    scratch,
                    n + 1,
                    leader,
                    won,
                    trump,
                    play_team,
                    target - 1,
                    target + 1,
                    tables,
                    params,
                    tt,
                    moves,
                    ply + 1,
                    stats,
                )
            else:
                w = (leader + winning_position(trick, 4, trump, tables)) & 3
                roem = trick_roem(trick, trump, params)
                pts = trick_card_points(trick, trump, tables) + roem
                ours = (w & 1) == play_team
                won2 = won | (WON_PLAY if ours else WON_OPP)
                if hands[0] == 0:
                    pts += params[P_LAST_TRICK]
                    if won2 == WON_PLAY:
                        pts += params[P_MARS]
                    elif won2 == WON_OPP:
                        pts += params[P_TEGENMARS]
                sign = 1 if ours else -1
                v = sign * pts + search(
                    hands,
                    scratch,
                    0,
                    w,
                    won2,
                    trump,
                    play_team,
                    target - sign * pts - 1,
                    target - sign * pts + 1,
                    tables,
                    params,
                    tt,
                    moves,
                    ply + 1,
                    stats,
                )
            if v == target:
                chosen = c
                break
            hands[seat] = hand
        if chosen < 0:
            break  # cannot happen: some card keeps the value
        if n < 3:
            n += 1
        else:
            w = (leader + winning_position(trick, 4, trump, tables)) & 3
            roem = trick_roem(trick, trump, params)
            pts = trick_card_points(trick, trump, tables) + roem
            ours = (w & 1) == play_team
            won = won | (WON_PLAY if ours else WON_OPP)
            if hands[0] == 0:
                pts += params[P_LAST_TRICK]
                if won == WON_PLAY:
                    pts += params[P_MARS]
                    out[R_MARS] = 1
                elif won == WON_OPP:
                    pts += params[P_TEGENMARS]
                    out[R_MARS] = 1
            roem_all += roem
            if ours:
                own += pts
                target -= pts
            else:
                opp += pts
                target += pts
            leader = w
            n = 0
        ply += 1
    out[R_OWN] = own
    out[R_OPP] = opp
    out[R_ROEM] = roem_all
    out[R_NODES] = stats[0] - nodes0


@njit(cache=True)
def solve_deals(deals, trump, play_team, tables, params, tt, moves, stats, out):
    """solve_line for each full deal (rows of ``deals``: the four hands, seat 0 leads)."""
    for i in range(deals.shape[0]):
        out[i, R_MARS] = 0
        solve_line(deals[i], 0, 0, trump, play_team, tables, params, tt, moves, stats, out[i])


def workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A fresh transposition table, move buffer and counters (nodes, solve stamp, then the
    history counts of the leads per seat and card)."""
    tt = np.full((5, 1 << TT_BITS), -1, dtype=np.int64)
    return tt, np.zeros((MAX_PLY + 1, KILLER + 1), np.int64), np.zeros(2 + 4 * 32, np.int64)


@njit(cache=True)
def search_window(
    hands, trick, n, leader, won, trump, play_team, alpha, beta, tables, params, tt, moves, stats
):
    """One fail-soft search with the window (alpha, beta) and a fresh table stamp (for
    tests and measurements)."""
    new_stamp(stats)
    moves[:, KILLER] = 0
    return search(
        hands.copy(),
        trick.copy(),
        n,
        leader,
        won,
        trump,
        play_team,
        alpha,
        beta,
        tables,
        params,
        tt,
        moves,
        0,
        stats,
    )


# cache keyed on every klaverjas solver source (SOLVER_SOURCES)
key_cache_on_sources(globals(), SOLVER_SOURCES)
