"""The exact trick-play solver for two-handed piket (PK-10 … PK-13), pic included.

Both hands are open (each player knows the other's cards after the exchange only in part;
the solver, like the project's Rikken solver, sees both: the value is the double-dummy one).
Elder leads to trick 1; follow suit when able, no trumps, the highest card of the suit led
wins and its player leads next (PK-10). The value solved is the **real score of the play**
from elder's side: elder's trick-play points minus younger's (leads and wins with a 10 or
higher, the last trick, the majority or capot, PK-11/PK-12), plus elder's pic bonus when he
reaches 30 before younger has scored anything (PK-13).

Pic depends on the order in which points fall, so it cannot be added after the search: it
is part of the state. While pic is still possible the state carries elder's running total
(declarations + play so far, below 30); the first point younger scores, or elder reaching
30 (the bonus is then scored at once), ends it. The search is a fail-soft alpha-beta over
tricks with a transposition table keyed by (cards still out, leader, elder's tricks, pic
counter); cards that are adjacent among those still out, in one hand and on the same side
of the 10 (so they score alike), are played as one (equivalent cards). The search keeps
its own stack (numba cannot cache a recursive function). A plain minimax
without pruning (tests/piket_oracle.py) checks it on endings and deeper positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.games.piket.cards import mask_of
from analyser.games.piket.rules import (
    P_CAPOT,
    P_LAST_TRICK,
    P_LEAD_POINT,
    P_MAJORITY,
    P_PIC_AT,
    P_PIC_BONUS,
    P_SCORING_RANK,
    P_WIN_POINT,
    PiketRules,
)
from analyser.numba_cache import key_cache_on_sources

SOLVER_SOURCES = (
    "games/piket/solver.py",
    "games/piket/rules.py",
    "games/piket/cards.py",
    "numba_cache.py",
)

TABLE_BITS = 20
NO_PIC = -1  # the pic counter when pic can no longer happen (or already has)
INF = 1 << 20
ELDER, YOUNGER = 0, 1
TRICKS = 12


@njit(cache=True)
def _popcount(x: np.int64) -> np.int64:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _elder_scores(k, val, pic, prm):
    """Elder scores ``k``: the new (value, pic counter) with the pic bonus if 30 is reached."""
    val += k
    if pic >= 0 and k > 0:
        pic += k
        if pic >= prm[P_PIC_AT]:
            val += prm[P_PIC_BONUS]
            pic = NO_PIC
    return val, pic


@njit(cache=True)
def _younger_scores(k, val, pic):
    """Younger scores ``k``: any point of his ends elder's chance of pic."""
    if k > 0:
        val -= k
        pic = NO_PIC
    return val, pic


@njit(cache=True)
def _end_value(etr, pic, prm):
    """PK-12 after the last trick: majority 10, all tricks (capot) 40 instead; a tie 6-6
    scores nothing. Elder's bonus may still complete his pic."""
    val = 0
    if etr == TRICKS:
        val, pic = _elder_scores(prm[P_CAPOT], val, pic, prm)
    elif 2 * etr > TRICKS:
        val, pic = _elder_scores(prm[P_MAJORITY], val, pic, prm)
    elif etr == 0:
        val, pic = _younger_scores(prm[P_CAPOT], val, pic)
    elif 2 * etr < TRICKS:
        val, pic = _younger_scores(prm[P_MAJORITY], val, pic)
    return val


@njit(cache=True)
def _trick(lead, follow, leader, last, pic, prm):
    """The points of one trick in the order they fall (lead, win, last trick): returns
    (value from elder's side, new pic counter, winner)."""
    val = 0
    sr = prm[P_SCORING_RANK]
    r1 = lead & 7
    r2 = follow & 7
    if r1 >= sr:
        if leader == ELDER:
            val, pic = _elder_scores(prm[P_LEAD_POINT], val, pic, prm)
        else:
            val, pic = _younger_scores(prm[P_LEAD_POINT], val, pic)
    winner = leader
    if (follow >> 3) == (lead >> 3) and r2 > r1:
        winner = 1 - leader
        if r2 >= sr:
            if winner == ELDER:
                val, pic = _elder_scores(prm[P_WIN_POINT], val, pic, prm)
            else:
                val, pic = _younger_scores(prm[P_WIN_POINT], val, pic)
    if last:
        if winner == ELDER:
            val, pic = _elder_scores(prm[P_LAST_TRICK], val, pic, prm)
        else:
            val, pic = _younger_scores(prm[P_LAST_TRICK], val, pic)
    return val, pic, winner


@njit(cache=True)
def _is_move(c, hand, out, sr):
    """Whether card ``c`` of ``hand`` stands for its group of equivalent cards: it is the
    lowest card of a run of the hand's cards with no card still out between them and all
    on the same side of the scoring rank."""
    if c & 7 == 0:
        return True
    below = c - 1
    suit_base = c & ~7
    while below >= suit_base and not ((out >> below) & 1):
        below -= 1  # skip the cards already played
    if below < suit_base or not ((hand >> below) & 1):
        return True
    return ((below & 7) >= sr) != ((c & 7) >= sr)


@njit(cache=True)
def _hash(key, mask):
    h = key * np.int64(0x9E3779B97F4A7C15)
    return (h ^ (h >> 29)) & mask


@njit(cache=True)
def _store(slot, key, best, a0, b0, lo, hi, keys, lows, highs, stamps, stamp):
    """Store the bound a search proved (fail-soft), merged with what the slot knew."""
    nlo = lo
    nhi = hi
    if best <= a0:
        nhi = min(hi, best)
    elif best >= b0:
        nlo = max(lo, best)
    else:
        nlo = best
        nhi = best
    keys[slot] = key
    lows[slot] = nlo
    highs[slot] = nhi
    stamps[slot] = stamp


@njit(cache=True)
def _search(e0, y0, leader0, etr0, pic0, prm, keys, lows, highs, stamps, stamp):
    """The value (elder's side) of the rest of the play from a trick's start.

    Alpha-beta over tricks with an explicit stack (numba cannot cache a recursive
    function): frame ``d`` is the position after ``d`` more tricks; the leader picks a card
    (high ranks first), the follower answers (high first), and the trick's points plus the
    child's value back up into the follower's and then the leader's choice."""
    depth = TRICKS + 2
    fe = np.zeros(depth, np.int64)  # cards still held
    fy = np.zeros(depth, np.int64)
    fl = np.zeros(depth, np.int64)  # leader
    ft = np.zeros(depth, np.int64)  # elder's tricks so far
    fp = np.zeros(depth, np.int64)  # pic counter
    fa = np.zeros(depth, np.int64)  # window
    fb = np.zeros(depth, np.int64)
    fa0 = np.zeros(depth, np.int64)
    fb0 = np.zeros(depth, np.int64)
    flo = np.zeros(depth, np.int64)  # what the table knew
    fhi = np.zeros(depth, np.int64)
    fkey = np.zeros(depth, np.int64)
    fslot = np.zeros(depth, np.int64)
    fbest = np.zeros(depth, np.int64)
    fli = np.zeros(depth, np.int64)  # next lead in the order (0..32)
    fc1 = np.zeros(depth, np.int64)  # the lead being answered, -1 none
    fc2 = np.zeros(depth, np.int64)  # next reply to try (downwards), -1 none left
    frep = np.zeros(depth, np.int64)  # the follower's legal replies
    fin = np.zeros(depth, np.int64)  # the follower's best so far
    fia = np.zeros(depth, np.int64)
    fib = np.zeros(depth, np.int64)
    ftv = np.zeros(depth, np.int64)  # the points of the trick whose child is searched
    tmask = keys.shape[0] - 1
    sr = prm[P_SCORING_RANK]
    d = 0
    fe[0] = e0
    fy[0] = y0
    fl[0] = leader0
    ft[0] = etr0
    fp[0] = pic0
    fa[0] = -INF
    fb[0] = INF
    state = 0  # 0 enter, 1 next move, 2 return
    ret = 0
    while True:
        if state == 0:
            e = fe[d]
            y = fy[d]
            if e == 0:
                ret = _end_value(ft[d], fp[d], prm)
                state = 2
                continue
            out = e | y
            key = out | (fl[d] << 32) | (ft[d] << 33) | ((fp[d] + 1) << 37)
            slot = _hash(key, tmask)
            lo = -INF
            hi = INF
            if stamps[slot] == stamp and keys[slot] == key:
                lo = lows[slot]
                hi = highs[slot]
                if lo >= fb[d] or lo == hi:
                    ret = lo
                    state = 2
                    continue
                if hi <= fa[d]:
                    ret = hi
                    state = 2
                    continue
                fa[d] = max(fa[d], lo)
                fb[d] = min(fb[d], hi)
            fkey[d] = key
            fslot[d] = slot
            flo[d] = lo
            fhi[d] = hi
            fa0[d] = fa[d]
            fb0[d] = fb[d]
            fbest[d] = -INF if fl[d] == ELDER else INF
            fli[d] = 0
            fc1[d] = -1
            state = 1
        elif state == 1:
            e = fe[d]
            y = fy[d]
            leader = fl[d]
            lh = e if leader == ELDER else y
            fh = y if leader == ELDER else e
            out = e | y
            if fc1[d] >= 0:
                c1 = fc1[d]
                c2 = fc2[d]
                rep = frep[d]
                while c2 >= 0 and not ((rep >> c2) & 1 and _is_move(c2, fh, out, sr)):
                    c2 -= 1
                if c2 >= 0:
                    fc2[d] = c2 - 1
                    v, p2, w = _trick(c1, c2, leader, _popcount(e) == 1, fp[d], prm)
                    ftv[d] = v
                    ne = e & ~(1 << (c1 if leader == ELDER else c2))
                    ny = y & ~(1 << (c2 if leader == ELDER else c1))
                    fe[d + 1] = ne
                    fy[d + 1] = ny
                    fl[d + 1] = w
                    ft[d + 1] = ft[d] + (1 - w)
                    fp[d + 1] = p2
                    fa[d + 1] = fia[d] - v
                    fb[d + 1] = fib[d] - v
                    d += 1
                    state = 0
                    continue
                # every reply tried (or cut): the lead's value is the follower's best
                inner = fin[d]
                fc1[d] = -1
                if leader == ELDER:
                    if inner > fbest[d]:
                        fbest[d] = inner
                    if fbest[d] > fa[d]:
                        fa[d] = fbest[d]
                else:
                    if inner < fbest[d]:
                        fbest[d] = inner
                    if fbest[d] < fb[d]:
                        fb[d] = fbest[d]
                if fa[d] >= fb[d]:
                    fli[d] = 32  # cut: no more leads
            li = fli[d]
            c1 = -1
            while li < 32:
                cand = (li & 3) * 8 + 7 - (li >> 2)
                li += 1
                if (lh >> cand) & 1 and _is_move(cand, lh, out, sr):
                    c1 = cand
                    break
            fli[d] = li
            if c1 < 0:
                ret = fbest[d]
                _store(fslot[d], fkey[d], ret, fa0[d], fb0[d], flo[d], fhi[d],
                       keys, lows, highs, stamps, stamp)  # fmt: skip
                state = 2
                continue
            s = c1 >> 3
            suit = (fh >> (s * 8)) & 0xFF
            fc1[d] = c1
            frep[d] = (suit << (s * 8)) if suit else fh
            fc2[d] = 31
            fin[d] = INF if leader == ELDER else -INF
            fia[d] = fa[d]
            fib[d] = fb[d]
        else:
            if d == 0:
                return ret
            d -= 1
            v = ftv[d] + ret
            if fl[d] == ELDER:  # the follower is younger: he minimises
                if v < fin[d]:
                    fin[d] = v
                if fin[d] < fib[d]:
                    fib[d] = fin[d]
            else:
                if v > fin[d]:
                    fin[d] = v
                if fin[d] > fia[d]:
                    fia[d] = fin[d]
            if fia[d] >= fib[d]:
                fc2[d] = -1
            state = 1


@njit(cache=True)
def _solve_all(elder, younger, leader, etr, pic, prm, keys, lows, highs, stamps, stamp0):
    n = elder.shape[0]
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = _search(
            elder[i], younger[i], leader[i], etr[i], pic[i],
            prm, keys, lows, highs, stamps, stamp0 + i,
        )  # fmt: skip
    return out


class _Table:
    """The transposition table, made once per process and reused: each search gets a new
    stamp, so no search reads another's entries and nothing is cleared between them."""

    def __init__(self, bits: int = TABLE_BITS):
        size = 1 << bits
        self.keys = np.zeros(size, np.int64)
        self.lows = np.zeros(size, np.int64)
        self.highs = np.zeros(size, np.int64)
        self.stamps = np.zeros(size, np.int64)
        self.next_stamp = 1


_TABLE: _Table | None = None


def solve_batch(
    elder: np.ndarray,
    younger: np.ndarray,
    rules: PiketRules,
    pic: np.ndarray | None = None,
    leader: np.ndarray | None = None,
    elder_tricks: np.ndarray | None = None,
) -> np.ndarray:
    """The exact trick-play value (elder's points minus younger's, pic bonus included) of
    each position: ``elder``/``younger`` the bitmasks still held (equal counts), ``pic``
    elder's running total while pic is possible (else -1; default -1), ``leader`` 0 elder /
    1 younger (default elder), ``elder_tricks`` the tricks elder has won so far (default 0).
    """
    global _TABLE
    if _TABLE is None:
        _TABLE = _Table()
    t = _TABLE
    n = len(elder)
    elder = np.asarray(elder, np.int64)
    younger = np.asarray(younger, np.int64)
    zeros = np.zeros(n, np.int64)
    pic = np.full(n, NO_PIC, np.int64) if pic is None else np.asarray(pic, np.int64)
    leader = zeros if leader is None else np.asarray(leader, np.int64)
    etr = zeros if elder_tricks is None else np.asarray(elder_tricks, np.int64)
    out = _solve_all(
        elder, younger, leader, etr, pic, rules.packed(),
        t.keys, t.lows, t.highs, t.stamps, t.next_stamp,
    )  # fmt: skip
    t.next_stamp += n
    return out


def pic_counter(elder_decl: int, younger_decl: int, rules: PiketRules) -> int:
    """Elder's starting pic counter (PK-13): his declaration points when younger scored
    none and elder has not already reached 30 (then it is repic, not pic), else -1."""
    if younger_decl == 0 and elder_decl < rules.pic_at:
        return int(elder_decl)
    return NO_PIC


def solve(elder_cards, younger_cards, rules: PiketRules, pic: int = NO_PIC) -> int:
    """The exact trick-play value of one deal after the exchange (elder leads trick 1)."""
    e = np.array([mask_of(elder_cards)], np.int64)
    y = np.array([mask_of(younger_cards)], np.int64)
    return int(solve_batch(e, y, rules, np.array([pic], np.int64))[0])


# numba's cache follows the rules' slot numbers and the card encoding (compiled in)
key_cache_on_sources(globals(), SOLVER_SOURCES)
