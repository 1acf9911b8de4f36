"""A sufficient test that a lone misère declarer never wins a trick (numba).

The exact search proves a misère that makes only by refuting every defence, and a hand with a
hole (a low card the defenders hold under one of the declarer's cards) keeps that proof going
to the last trick: the defenders may hold the low card back while they try to void the others.
This module decides a smaller game that is at least as good for the defenders; when the
declarer survives it, he survives the real one.

The smaller game. At no trump with a defender on lead, call a suit *safe* when, for each of the
declarer's cards y in it, the other hands hold no more cards below y than he does
(cuts.ducks_to_the_end). A safe suit stays safe whatever the defenders do if the declarer
follows it with his highest card below the winning card and discards from it only its highest
card; he then never wins a trick in it. So in safe suits only the number of cards each hand
holds matters - except for which defender wins a trick there, and the smaller game lets the
defenders choose the next leader freely after every trick (more than they can do). The other
suits, the *holes*, are played card for card; a defender's hole card only matters by where it
lies among the declarer's cards (defenders never need to beat each other, since the leader is
free), so cards are grouped by those gaps. The declarer keeps every choice in the holes and
every choice of discard; he loses as soon as he wins a trick.

Hands use the solver's masks (16 bits per suit). A safe suit is stored as a count: the lowest
k bits of its field. Results of the smaller game depend only on its state, so they are kept in
a table (keys = the four canonical masks) across calls.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analyser.solver.bits import ctz, hands_slot, hibit, popcount, suit_bits
from analyser.solver.jit import finish_module

# The search (search.py) and the joined search (joined_misere.py) both ask misere_safe, from
# RX_MIN_CARDS cards a hand on (nearer the end their own search is cheaper), within RX_NODES
# of its nodes a call (its results are kept for the rest of the calling search).
RX_MIN_CARDS = 6
RX_NODES = 5000
RX_MEMO_BITS = 18  # 262144 states, 10.5 MB (2**15 thrashed: 234M nodes where 11M do)
RX_EMPTY, RX_SAFE, RX_LOST = 0, 1, 2


@njit(cache=True, _nrt=False)
def suit_is_safe(mine, others):
    """True if, for each of the declarer's cards y in one suit (``mine``), the other hands
    (``others``) hold no more cards below y than he does: he can always follow under."""
    below = 0
    rest = mine
    while rest:
        y = rest & -rest
        if popcount(others & (y - 1)) > below:
            return False
        below += 1
        rest ^= y
    return True


@njit(cache=True, _nrt=False)
def forced_in_suit(hands, x, s):
    """True if a lead of suit ``s`` by a defender forces the lone declarer ``x`` to win at
    no trump: he holds the suit, a defender does, and every defender holding it has a card
    below his lowest (they play those; he must follow above them all)."""
    mine = suit_bits(hands[x], s)
    if mine == 0:
        return False
    low = mine & -mine
    held = False
    for p in range(4):
        if p != x:
            hp = suit_bits(hands[p], s)
            if hp:
                held = True
                if (hp & (low - 1)) == 0:
                    return False
    return held


@njit(cache=True, _nrt=False)
def hole_suits(hands, x):
    """The suits (4-bit set) in which the declarer ``x`` holds a card y with more of the other
    hands' cards below y than of his own (suit_is_safe fails)."""
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    holes = 0
    for s in range(4):
        mine = suit_bits(hands[x], s)
        if not suit_is_safe(mine, suit_bits(alive, s) & ~mine):
            holes |= 1 << s
    return holes


@njit(cache=True)
def canon(h0, h1, h2, h3, x, holes):
    """The smaller game's state: safe suits as counts; each hole renumbered from its lowest
    card up, with the defenders' cards between two of the declarer's cards placed in seat
    order (only that gap matters, see the module docstring)."""
    hs = (h0, h1, h2, h3)
    out = [0, 0, 0, 0]
    for s in range(4):
        if (holes >> s) & 1:
            r = 0
            g = [0, 0, 0, 0]
            for rank in range(14):
                owner = -1
                if rank < 13:
                    for p in range(4):
                        if (hs[p] >> (16 * s + rank)) & 1:
                            owner = p
                    if owner < 0:
                        continue
                if owner == x or rank == 13:
                    # close the gap below this card of the declarer (or the top of the suit)
                    for p in range(4):
                        for _ in range(g[p]):
                            out[p] |= 1 << (16 * s + r)
                            r += 1
                        g[p] = 0
                    if owner == x:
                        out[x] |= 1 << (16 * s + r)
                        r += 1
                else:
                    g[owner] += 1
        else:
            for p in range(4):
                k = popcount(suit_bits(hs[p], s))
                out[p] |= ((1 << k) - 1) << (16 * s)
    return out[0], out[1], out[2], out[3]


@njit(cache=True, _nrt=False)
def _options(h, p, x, holes, lead_suit, sep_all, opts):
    """Cards seat ``p`` may play in the smaller game, one per class, into ``opts``; returns
    their number. ``sep_all`` holds the cards that separate classes in a hole: for the
    declarer the defenders' cards, for a defender the declarer's (both including this
    trick's). Order: holes before safe suits; high classes first when the declarer plays or
    anyone discards (a high hole card is the declarer's danger and a defender's obstacle),
    low first when a defender leads or follows in a hole (the low cards force him)."""
    follow = lead_suit >= 0 and suit_bits(h, lead_suit) != 0
    high_first = p == x or (lead_suit >= 0 and not follow)
    n = 0
    for phase in range(2):
        for s in range(4):
            if follow and s != lead_suit:
                continue
            mine = suit_bits(h, s)
            if mine == 0:
                continue
            hole = (holes >> s) & 1
            if phase == 0 and not hole:
                continue
            if phase == 1:
                if not hole:
                    # a safe suit: the count drops by one, whichever card it is
                    opts[n] = 16 * s + hibit(mine)
                    n += 1
                continue
            sep = suit_bits(sep_all, s)
            first = n
            rest = mine
            while rest:
                c = rest & -rest
                above = sep & ~((c << 1) - 1)
                if above:
                    cls = mine & ((above & -above) - 1) & ~(c - 1)
                else:
                    cls = mine & ~(c - 1)
                opts[n] = 16 * s + ctz(c)
                n += 1
                rest &= ~cls
            if high_first:
                i, j = first, n - 1
                while i < j:
                    t = opts[i]
                    opts[i] = opts[j]
                    opts[j] = t
                    i += 1
                    j -= 1
    return n


# frame columns of the smaller game's explicit stack (numba cannot cache recursive functions)
K_KIND, K_LEADER, K_POS, K_LS, K_HD, K_NC, K_TABLE, K_SLOT, K_N, K_I = range(10)
STATE, PLAY = 0, 1
MAX_LEVELS = 70  # 13 tricks of a state frame and four play frames, plus the root

# The smaller game's state, passed whole: Frames - the explicit stack (``fh`` the four hands
# per level, ``fi`` the K_* columns per level, ``ob`` a play frame's options); Memo - the
# results table ``mk``/``mv`` (new_memo) and ``cnt`` (nodes so far, the budget's end);
# Trick - the trick a play frame continues: its ``leader``, the place ``pos`` of the seat to
# play, the suit led ``ls``, the highest defender card of it ``hd``, the declarer's card
# ``nc`` and the cards on the table ``table`` (a mask).
Frames = namedtuple("Frames", "fh fi ob")
Memo = namedtuple("Memo", "mk mv cnt")
Trick = namedtuple("Trick", "leader pos ls hd nc table")


@njit(cache=True)
def _enter_state(lvl, hs, x, holes, done, frames, memo):
    """Open a frame at a trick's end (hands ``hs``; ``done``, a Trick: the trick just
    finished, its led suit ``ls``, highest defender card ``hd`` of it and declarer's card
    ``nc``, all -1 at the root). Returns its value when it is settled at once, else -1."""
    ls, hd, nc = done.ls, done.hd, done.nc
    h0, h1, h2, h3 = hs
    fh, fi = frames.fh, frames.fi
    mk, mv, cnt = memo
    cnt[0] += 1
    if cnt[0] > cnt[1]:
        return 0
    if ls >= 0 and (holes >> ls) & 1 and (nc >> 4) == ls and nc > hd:
        return 0  # he won this trick
    h0, h1, h2, h3 = canon(h0, h1, h2, h3, x, holes)
    hs = (h0, h1, h2, h3)
    hx = hs[x]
    if hx == 0:
        return 1
    alive = h0 | h1 | h2 | h3
    all_safe = True
    for s in range(4):
        if not (holes >> s) & 1:
            continue
        # any defender holding the suit may lead it here (the leader is free)
        if forced_in_suit(hs, x, s):
            return 0
        mine = suit_bits(hx, s)
        if all_safe and not suit_is_safe(mine, suit_bits(alive, s) & ~mine):
            all_safe = False
    if all_safe:
        return 1
    size = mv.shape[0]
    base = hands_slot(h0, h1, h2, h3, 0, hibit(size))
    free = -1
    for j in range(4):
        e = (base + j) & (size - 1)
        if mv[e] == RX_EMPTY:
            if free < 0:
                free = e
            continue
        if mk[e, 0] == h0 and mk[e, 1] == h1 and mk[e, 2] == h2 and mk[e, 3] == h3:
            return 1 if mv[e] == RX_SAFE else 0
    fh[lvl, 0] = h0
    fh[lvl, 1] = h1
    fh[lvl, 2] = h2
    fh[lvl, 3] = h3
    fi[lvl, K_KIND] = STATE
    fi[lvl, K_SLOT] = free if free >= 0 else base
    fi[lvl, K_I] = 0
    return -1


@njit(cache=True, _nrt=False)
def _enter_play(lvl, hs, x, holes, trick, frames, cnt):
    """Open a frame for the next card of ``trick`` (a Trick; hands ``hs``). Returns 0 when
    the node budget is spent, else -1 (the frame's options are in ``frames.ob[lvl]``)."""
    h0, h1, h2, h3 = hs
    leader, pos, ls, hd, nc, table = trick
    fh, fi, ob = frames
    cnt[0] += 1
    if cnt[0] > cnt[1]:
        return 0
    hs = (h0, h1, h2, h3)
    p = (leader + pos) & 3
    if p == x:
        sep = (h0 | h1 | h2 | h3 | table) & ~hs[x]
    else:
        sep = hs[x]
        if nc >= 0:
            sep |= 1 << nc
    fi[lvl, K_N] = _options(hs[p], p, x, holes, ls if pos > 0 else -1, sep, ob[lvl])
    fh[lvl, 0] = h0
    fh[lvl, 1] = h1
    fh[lvl, 2] = h2
    fh[lvl, 3] = h3
    fi[lvl, K_KIND] = PLAY
    fi[lvl, K_LEADER] = leader
    fi[lvl, K_POS] = pos
    fi[lvl, K_LS] = ls
    fi[lvl, K_HD] = hd
    fi[lvl, K_NC] = nc
    fi[lvl, K_TABLE] = table
    fi[lvl, K_I] = 0
    return -1


@njit(cache=True, _nrt=False)
def _store(fh, fi, lvl, r, mk, mv, cnt):
    # a "lost" found after the budget ran out may only mean "not searched"
    if r == 1 or cnt[0] <= cnt[1]:
        e = fi[lvl, K_SLOT]
        for j in range(4):
            mk[e, j] = fh[lvl, j]
        mv[e] = RX_SAFE if r == 1 else RX_LOST


@njit(cache=True)
def _solve(hs, x, holes, memo):
    """The smaller game from a trick start (canonical hands ``hs``). Returns 1 if the declarer is
    safe, 0 if that is not shown (he can be forced to win, or the budget ``cnt[1]`` ran out).
    Depth-first over an explicit stack: a state frame tries each defender as the leader (all
    must fail), a play frame each class of card of the seat to play (the declarer needs one
    that keeps him safe, a defender one that does not)."""
    mk, mv, cnt = memo
    fh = np.empty((MAX_LEVELS, 4), np.int64)
    fi = np.empty((MAX_LEVELS, 10), np.int64)
    ob = np.empty((MAX_LEVELS, 14), np.int64)
    frames = Frames(fh, fi, ob)
    r = _enter_state(0, hs, x, holes, Trick(-1, 0, -1, -1, -1, 0), frames, memo)
    if r >= 0:
        return r
    lvl = 0
    while True:
        if r >= 0:
            # r is the value of a child of frame lvl
            if lvl < 0:
                return r
            fin = -1
            if fi[lvl, K_KIND] == STATE:
                if r == 0:
                    fin = 0
            else:
                mover = (fi[lvl, K_LEADER] + fi[lvl, K_POS]) & 3
                if mover == x:
                    if r == 1:
                        fin = 1
                elif r == 0:
                    fin = 0
            if fin >= 0:
                if fi[lvl, K_KIND] == STATE:
                    _store(fh, fi, lvl, fin, mk, mv, cnt)
                r = fin
                lvl -= 1
                continue
            r = -1
        g0, g1, g2, g3 = fh[lvl, 0], fh[lvl, 1], fh[lvl, 2], fh[lvl, 3]
        if fi[lvl, K_KIND] == STATE:
            q = fi[lvl, K_I]
            while q < 4 and q == x:
                q += 1
            if q >= 4:
                _store(fh, fi, lvl, 1, mk, mv, cnt)
                r = 1
                lvl -= 1
                continue
            fi[lvl, K_I] = q + 1
            trick = Trick(q, 0, -1, -1, -1, 0)
            r = _enter_play(lvl + 1, (g0, g1, g2, g3), x, holes, trick, frames, cnt)
            if r < 0:
                lvl += 1
            continue
        i = fi[lvl, K_I]
        leader = fi[lvl, K_LEADER]
        pos = fi[lvl, K_POS]
        p = (leader + pos) & 3
        if i == fi[lvl, K_N]:
            r = 0 if p == x else 1
            lvl -= 1
            continue
        fi[lvl, K_I] = i + 1
        b = ob[lvl, i]
        if p == 0:
            g0 ^= 1 << b
        elif p == 1:
            g1 ^= 1 << b
        elif p == 2:
            g2 ^= 1 << b
        else:
            g3 ^= 1 << b
        ls = fi[lvl, K_LS] if pos > 0 else b >> 4
        hd = fi[lvl, K_HD]
        nc = fi[lvl, K_NC]
        if p == x:
            nc = b
        elif (b >> 4) == ls and b > hd:
            hd = b
        if pos == 3:
            done = Trick(leader, 4, ls, hd, nc, 0)
            r = _enter_state(lvl + 1, (g0, g1, g2, g3), x, holes, done, frames, memo)
        else:
            table = fi[lvl, K_TABLE] | (1 << b)
            trick = Trick(leader, pos + 1, ls, hd, nc, table)
            r = _enter_play(lvl + 1, (g0, g1, g2, g3), x, holes, trick, frames, cnt)
        if r < 0:
            lvl += 1


@njit(cache=True)
def misere_safe(hands, x, mk, mv, cnt, limit):
    """True if the lone declarer ``x`` (no trumps, a defender on lead) surely wins no trick,
    shown on the smaller game of the module docstring within ``limit`` of its nodes. Results
    are kept in the table ``mk``/``mv`` (see :func:`new_memo`); ``cnt[0]`` counts nodes.
    Also returns the W the answer rests on, as (top W, bottom W) for the solver's table: the
    holes whole, and each safe suit up to the declarer's highest card."""
    holes = hole_suits(hands, x)
    cnt[1] = cnt[0] + limit
    r = _solve((hands[0], hands[1], hands[2], hands[3]), x, holes, Memo(mk, mv, cnt))
    if r == 0:
        return False, 0, 0
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    wt = 0
    wb = 0
    for s in range(4):
        a = suit_bits(alive, s)
        mine = suit_bits(hands[x], s)
        if (holes >> s) & 1:
            wt |= (a & -a) << (16 * s)
        elif mine:
            wb |= (1 << hibit(mine)) << (16 * s)
    return True, wt, wb


@njit(cache=True)
def new_memo(bits):
    """An empty results table for :func:`misere_safe`: 2**bits states (a slot is empty while
    its value is RX_EMPTY, so the keys need no clearing)."""
    return np.empty((1 << bits, 4), np.int64), np.zeros(1 << bits, np.int8)


# compiled like the search that calls these (analyser/solver/jit.py)
finish_module(globals())
