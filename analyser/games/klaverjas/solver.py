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

Search: fail-soft alpha-beta over single cards, iterative on an explicit stack (numba's
cache cannot hold a recursive function); the exact value by null-window tests (the first at
D >= 1 answers "nat or not", then galloping out from 0 and halving the bracket), each
reusing a transposition table at trick starts keyed on (cards still out, leader, which
teams have won a trick yet: mars needs it) that holds value bounds and the best card; a
safe bound at trick starts (every card point, the last trick, the most roem the remaining
cards allow in every trick, mars); move ordering: the table's card first, a killer and
history for leads, then cards that put the mover's side ahead in the trick. Everything here
works on int64 bitmasks (bit = 32-card int, rules.py) and flat arrays: the rules arrive as
``tables``/``params`` (KlaverjasRules.tables/params).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.numba_cache import key_cache_on_sources

INF = 1 << 20
GALLOP = 64  # the first step away from 0 when bracketing the value
TT_BITS = 20
MAX_PLY = 33
KILLER = 16  # the column of ``moves`` that holds each ply's killer lead (+1; 0: none)
# rows/entries of the rule arrays (rules.py: TRUMP_POINTS … ; P_PARTNER_FREES …)
_TP, _PP, _TO, _PO = 0, 1, 2, 3
_FREE, _LAST, _THREE, _FOUR, _STUK, _EQUAL, _MARS, _TEGEN = 0, 1, 2, 3, 4, 5, 6, 7
WON_PLAY, WON_OPP = 1, 2  # bits of ``won``: the playing team / the opponents took a trick


@njit(cache=True)
def _strength(card, trump, led, tables):
    """Trick strength of ``card`` when ``led`` was led (KJ-06): trumps above the led suit,
    -1 for a discard of another suit."""
    s = card >> 3
    if s == trump:
        return 16 + tables[_TO, card & 7]
    if s == led:
        return tables[_PO, card & 7]
    return -1


@njit(cache=True)
def winning_position(trick, n, trump, tables):
    """Index 0..n-1 of the card that currently wins the ``n`` cards of ``trick`` (KJ-06)."""
    led = trick[0] >> 3
    best = 0
    best_s = _strength(trick[0], trump, led, tables)
    for i in range(1, n):
        s = _strength(trick[i], trump, led, tables)
        if s > best_s:
            best, best_s = i, s
    return best


@njit(cache=True)
def legal_mask(hand, trick, n, trump, partner_frees, tables):
    """The cards of ``hand`` that may be played to ``trick`` (its first ``n`` cards), as a
    bitmask: the pseudo-code of KJ-07 line by line. ``partner_frees``: Amsterdam."""
    if n == 0:
        return hand  # the leader: any card
    led = trick[0] >> 3
    follow = hand & (0xFF << (8 * led))
    trump_bits = 0xFF << (8 * trump)
    my_trumps = hand & trump_bits
    # the highest trump strength on the table (-1: no trump yet)
    top = -1
    for i in range(n):
        if (trick[i] >> 3) == trump:
            s = tables[_TO, trick[i] & 7]
            if s > top:
                top = s
    if follow != 0:
        if led != trump:
            return follow  # any card of the suit led
        higher = 0
        for r in range(8):
            if (my_trumps >> (8 * trump + r)) & 1 and tables[_TO, r] > top:
                higher |= 1 << (8 * trump + r)
        return higher if higher != 0 else follow  # overtrump if able, else any trump
    # void in the suit led
    if partner_frees and n >= 2 and winning_position(trick, n, trump, tables) == n - 2:
        return hand  # Amsterdam: partner wins the trick, no duty to (over)trump
    if my_trumps == 0:
        return hand
    if top < 0:
        return my_trumps  # not trumped yet: must trump
    higher = 0
    for r in range(8):
        if (my_trumps >> (8 * trump + r)) & 1 and tables[_TO, r] > top:
            higher |= 1 << (8 * trump + r)
    if higher != 0:
        return higher  # must overtrump
    plain = hand & ~trump_bits
    if plain != 0:
        return plain  # no undertrumping while holding another card
    return hand  # nothing but lower trumps


@njit(cache=True)
def trick_roem(trick, trump, params):
    """The roem in four cards (KJ-05): three in sequence 20, four 50, stuk (trump K+Q) 20 on
    top, four equal cards 100."""
    m = 0
    for i in range(4):
        m |= 1 << trick[i]
    roem = 0
    for s in range(4):
        h = (m >> (8 * s)) & 0xFF
        if h & (h >> 1) & (h >> 2) & (h >> 3):
            roem += params[_FOUR]
        elif h & (h >> 1) & (h >> 2):
            roem += params[_THREE]
    if (m >> (8 * trump + 5)) & 3 == 3:
        roem += params[_STUK]
    if m & (m >> 8) & (m >> 16) & (m >> 24) & 0xFF:
        roem += params[_EQUAL]
    return roem


@njit(cache=True)
def trick_card_points(trick, trump, tables):
    """Card points of the four cards of ``trick`` (KJ-04; the last trick's 10 is not here)."""
    pts = 0
    for i in range(4):
        c = trick[i]
        pts += tables[_TP if (c >> 3) == trump else _PP, c & 7]
    return pts


@njit(cache=True)
def _hash(key):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(64 - TT_BITS))


@njit(cache=True)
def _order(legal, trick, n, trump, best, tables, moves, ply, stats, hist):
    """Write the cards of ``legal`` into row ``ply`` of ``moves`` in search order (their sort
    keys in columns 8..15; ``stats[hist:]``: the seat's history counts); return how many. The
    table's ``best`` card first. Then, leading: the lead that last cut off at this ply
    (killer; measured: 30% fewer nodes in the nat test, 11% in the exact value, while
    killers when following cost nodes), then by history, then the strongest cards first.
    Following while the partner wins the trick: the richest cards first (points to the
    partner). Following while an opponent wins: the cheapest card that takes the trick
    first, then the other winners upwards, then the losers cheapest first."""
    k = 0
    if best >= 0 and (legal >> best) & 1:
        moves[ply, 0] = best
        k = 1
        legal &= ~(1 << best)
    killer = moves[ply, KILLER] - 1  # the card that last cut off at this ply
    if n == 0 and killer >= 0 and (legal >> killer) & 1:
        moves[ply, k] = killer
        k += 1
        legal &= ~(1 << killer)
    start = k
    led = trick[0] >> 3 if n > 0 else -1
    top = -1
    partner = False
    if n > 0:
        wp = winning_position(trick, n, trump, tables)
        top = _strength(trick[wp], trump, led, tables)
        partner = wp == n - 2
    todo = legal
    while todo:
        low = todo & -todo  # the lowest card left: visit set bits only
        todo ^= low
        c = _lowest_card(low)
        pts = tables[_TP if (c >> 3) == trump else _PP, c & 7]
        if n == 0:
            # leads: the cards that cut off most often so far (history), then strength
            key = -(stats[hist + c] * 64 + _strength(c, trump, c >> 3, tables))
        else:
            s = _strength(c, trump, led, tables)
            if partner:
                key = -pts * 64 + s
            elif s > top:
                key = s - 1000  # winners before losers, cheapest winner first
            else:
                key = pts * 64 + s
        j = k
        while j > start and moves[ply, 7 + j - start] > key:
            moves[ply, j] = moves[ply, j - 1]
            moves[ply, 8 + j - start] = moves[ply, 7 + j - start]
            j -= 1
        moves[ply, j] = c
        moves[ply, 8 + j - start] = key
        k += 1
    return k


@njit(cache=True)
def _lowest_card(mask):
    """The lowest card of a non-empty bitmask (a binary search over its 32 bits)."""
    c = 0
    if mask & 0xFFFF == 0:
        c += 16
        mask >>= 16
    if mask & 0xFF == 0:
        c += 8
        mask >>= 8
    if mask & 0xF == 0:
        c += 4
        mask >>= 4
    if mask & 0x3 == 0:
        c += 2
        mask >>= 2
    if mask & 0x1 == 0:
        c += 1
    return c


@njit(cache=True)
def _popcount(mask):
    """Number of cards in a bitmask."""
    k = 0
    while mask:
        mask &= mask - 1
        k += 1
    return k


@njit(cache=True)
def _points_left(rem, trump, tables):
    """Card points of the cards in ``rem``."""
    pts = 0
    for s in range(4):
        h = (rem >> (8 * s)) & 0xFF
        row = _TP if s == trump else _PP
        r = 0
        while h:
            if h & 1:
                pts += tables[row, r]
            h >>= 1
            r += 1
    return pts


@njit(cache=True)
def _roem_room(rem, trump, params):
    """The most roem one trick can hold when only the cards of ``rem`` are left (KJ-05)."""
    if rem & (rem >> 8) & (rem >> 16) & (rem >> 24) & 0xFF:
        best = params[_EQUAL]
    else:
        best = 0
    seq = 0
    for s in range(4):
        h = (rem >> (8 * s)) & 0xFF
        if h & (h >> 1) & (h >> 2) & (h >> 3):
            seq = max(seq, params[_FOUR])
        elif h & (h >> 1) & (h >> 2):
            seq = max(seq, params[_THREE])
    if (rem >> (8 * trump + 5)) & 3 == 3:
        seq += params[_STUK]
    return max(best, seq)


@njit(cache=True)
def _last_trick(hands, trick, leader, won, trump, play_team, tables, params):
    """The value of the last trick, every card forced (each hand holds one card)."""
    for i in range(4):
        trick[i] = _lowest_card(hands[(leader + i) & 3])
    w = (leader + winning_position(trick, 4, trump, tables)) & 3
    pts = trick_card_points(trick, trump, tables) + trick_roem(trick, trump, params)
    pts += params[_LAST]
    ours = (w & 1) == play_team
    won2 = won | (WON_PLAY if ours else WON_OPP)
    if won2 == WON_PLAY:
        pts += params[_MARS]
    elif won2 == WON_OPP:
        pts += params[_TEGEN]
    return pts if ours else -pts


# the fields of a search frame (one row per ply of the explicit stack)
(F_N, F_LEADER, F_WON, F_ALPHA, F_BETA, F_A0, F_B0, F_KEY, F_SLOT, F_K, F_I, F_BESTV,
 F_BESTC, F_SEAT, F_HAND, F_GAIN, F_T0, F_T1, F_T2) = range(19)  # fmt: skip
N_FIELDS = 19
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True)
def _search(
    hands,
    trick,
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
    root,
    stats,
):
    """Fail-soft alpha-beta value of the rest of the play (future D, see the module
    docstring) from the position ``hands`` (bitmasks by seat 0..3), ``trick`` (its first
    ``n`` cards, led by ``leader``), ``won`` (WON_PLAY | WON_OPP so far), with the window
    (alpha, beta). Iterative, on an explicit stack of frames (rows ``root``.. of ``moves``
    hold each ply's cards): numba's cache cannot hold a recursive function safely.
    ``hands`` and ``trick`` are changed during the search and restored at its end."""
    fr = np.empty((MAX_PLY + 1, N_FIELDS), np.int64)
    ply = root
    mode = ENTER
    v = 0
    while True:
        if mode == ENTER:
            stats[0] += 1
            mode = RETURN  # unless the node needs its cards searched
            best_tt = -1
            key = -1
            slot = 0
            if n == 0:
                if hands[leader] == 0:
                    v = 0
                    continue
                if hands[leader] & (hands[leader] - 1) == 0:
                    v = _last_trick(hands, trick, leader, won, trump, play_team, tables, params)
                    continue
                # the most either side can still gain: every card point, the last trick,
                # roem in every remaining trick at the most the cards allow, mars if possible
                rem = hands[0] | hands[1] | hands[2] | hands[3]
                room = _points_left(rem, trump, tables) + params[_LAST]
                room += _roem_room(rem, trump, params) * _popcount(hands[leader])
                up = room + (params[_MARS] if (won & WON_OPP) == 0 else 0)
                if up <= alpha:
                    v = up
                    continue
                down = -room - (params[_TEGEN] if (won & WON_PLAY) == 0 else 0)
                if down >= beta:
                    v = down
                    continue
                # the table holds trick starts only (entries mid-trick saved no nodes)
                key = rem | (leader << 32) | (won << 34)
                slot = _hash(key)
                if tt[0, slot] == key and tt[4, slot] == stats[1]:  # stats[1]: the stamp
                    lo, hi = tt[1, slot], tt[2, slot]
                    if lo >= beta or lo == hi:
                        v = lo
                        continue
                    if hi <= alpha:
                        v = hi
                        continue
                    alpha = max(alpha, lo)
                    beta = min(beta, hi)
                    best_tt = tt[3, slot]
            seat = (leader + n) & 3
            hand = hands[seat]
            legal = legal_mask(hand, trick, n, trump, params[_FREE] != 0, tables)
            k = _order(legal, trick, n, trump, best_tt, tables, moves, ply, stats, 2 + 32 * seat)
            f = fr[ply]
            f[F_N], f[F_LEADER], f[F_WON] = n, leader, won
            f[F_ALPHA], f[F_BETA], f[F_A0], f[F_B0] = alpha, beta, alpha, beta
            f[F_KEY], f[F_SLOT], f[F_K], f[F_I] = key, slot, k, 0
            f[F_BESTV] = -INF if (seat & 1) == play_team else INF
            f[F_BESTC], f[F_SEAT], f[F_HAND] = -1, seat, hand
            mode = NEXT
        elif mode == NEXT:
            f = fr[ply]
            if f[F_I] < f[F_K] and f[F_ALPHA] < f[F_BETA]:
                c = moves[ply, f[F_I]]
                f[F_I] += 1
                fn = f[F_N]
                leader = f[F_LEADER]
                won = f[F_WON]
                hands[f[F_SEAT]] = f[F_HAND] & ~(1 << c)
                trick[fn] = c
                alpha, beta = f[F_ALPHA], f[F_BETA]
                gain = 0
                if fn < 3:
                    n = fn + 1
                else:
                    w = (leader + winning_position(trick, 4, trump, tables)) & 3
                    pts = trick_card_points(trick, trump, tables) + trick_roem(trick, trump, params)
                    ours = (w & 1) == play_team
                    won = won | (WON_PLAY if ours else WON_OPP)
                    if hands[0] == 0:
                        pts += params[_LAST]
                        if won == WON_PLAY:
                            pts += params[_MARS]
                        elif won == WON_OPP:
                            pts += params[_TEGEN]
                    gain = pts if ours else -pts
                    # the next trick reuses ``trick``: keep this one's cards for the siblings
                    f[F_T0], f[F_T1], f[F_T2] = trick[0], trick[1], trick[2]
                    n = 0
                    leader = w
                    alpha -= gain
                    beta -= gain
                f[F_GAIN] = gain
                ply += 1
                mode = ENTER
            else:
                v = f[F_BESTV]
                if f[F_N] == 0:
                    slot = f[F_SLOT]
                    key = f[F_KEY]
                    lo, hi = -INF, INF
                    if tt[0, slot] == key and tt[4, slot] == stats[1]:
                        lo, hi = tt[1, slot], tt[2, slot]
                    if v <= f[F_A0]:
                        hi = min(hi, v)
                    elif v >= f[F_B0]:
                        lo = max(lo, v)
                    else:
                        lo, hi = v, v
                    tt[0, slot], tt[1, slot], tt[2, slot] = key, lo, hi
                    tt[3, slot], tt[4, slot] = f[F_BESTC], stats[1]
                mode = RETURN
        else:  # RETURN: v is the value of the node at ``ply``
            if ply == root:
                return v
            ply -= 1
            f = fr[ply]
            hands[f[F_SEAT]] = f[F_HAND]
            c = moves[ply, f[F_I] - 1]
            if f[F_N] == 3:
                trick[0], trick[1], trick[2] = f[F_T0], f[F_T1], f[F_T2]
            v += f[F_GAIN]
            if (f[F_SEAT] & 1) == play_team:
                if v > f[F_BESTV]:
                    f[F_BESTV], f[F_BESTC] = v, c
                    if v > f[F_ALPHA]:
                        f[F_ALPHA] = v
            else:
                if v < f[F_BESTV]:
                    f[F_BESTV], f[F_BESTC] = v, c
                    if v < f[F_BETA]:
                        f[F_BETA] = v
            if f[F_ALPHA] >= f[F_BETA] and f[F_N] == 0:
                moves[ply, KILLER] = c + 1  # killer and history: this lead cut off
                stats[2 + 32 * f[F_SEAT] + c] += 1
            mode = NEXT


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
        g = _search(
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
        legal = legal_mask(hand, trick, n, trump, params[_FREE] != 0, tables)
        k = _order(legal, trick, n, trump, -1, tables, moves, ply, stats, 2 + 32 * seat)
        chosen = -1
        for i in range(k):
            c = moves[ply, i]
            hands[seat] = hand & ~(1 << c)
            trick[n] = c
            scratch = trick.copy()
            if n < 3:
                v = _search(
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
                    pts += params[_LAST]
                    if won2 == WON_PLAY:
                        pts += params[_MARS]
                    elif won2 == WON_OPP:
                        pts += params[_TEGEN]
                sign = 1 if ours else -1
                v = sign * pts + _search(
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
                pts += params[_LAST]
                if won == WON_PLAY:
                    pts += params[_MARS]
                    out[R_MARS] = 1
                elif won == WON_OPP:
                    pts += params[_TEGEN]
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


# numba's cache follows this file and the cache helper (analyser/numba_cache.py)
key_cache_on_sources(globals(), ("games/klaverjas/solver.py", "numba_cache.py"))


@njit(cache=True)
def search_window(
    hands, trick, n, leader, won, trump, play_team, alpha, beta, tables, params, tt, moves, stats
):
    """One fail-soft search with the window (alpha, beta) and a fresh table stamp (for
    tests and measurements)."""
    new_stamp(stats)
    moves[:, KILLER] = 0
    return _search(
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
