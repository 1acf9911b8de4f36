"""The W sets of partition search: which cards a result depends on.

A result is valid for every position that agrees with it on the cards of W (both sides of each
suit: a top segment and a bottom segment, see analyser/solver/table.py). W is built from the
leaves up:

* a trick whose winner beat cards of its own suit adds either the winner (top) or the highest
  card it beat (bottom) - trick-taking goals always take the top, the misère phase whichever
  fixes fewer cards (trick_w);
* a node adds its children's W (all children at an all-node, the deciding child at a cut-node;
  the search does this);
* sure-trick bounds add the top cards they rely on, misère safety tests the low cards, and a
  table hit adds the entry's cards;
* before a result is stored, raise_w moves each cut-off past a run of cards one hand holds
  (the suit lengths already place such a run), which makes W smaller and the entry wider.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.layout import FAM_T


@njit(cache=True, _nrt=False, forceinline=True)
def fixed_cards(alive_s, wt_s, wb_s):
    """The cards of one suit a two-sided W fixes: those at or above its lowest top card and
    those at or below its highest bottom card."""
    f = 0
    if wt_s:
        f = alive_s & ~((wt_s & -wt_s) - 1)
    if wb_s:
        f |= alive_s & ((2 << hibit(wb_s)) - 1)
    return f


# how trick_w places a trick's comparison: trick-taking goals (FAM_T), the trick-winning phase
# of piek (FAM_E needing a trick), the misère phase (FAM_E needing none)
W_MODE_T = 0
W_MODE_WIN = 0
W_MODE_DUCK = 2


@njit(cache=True, _nrt=False, forceinline=True)
def w_mode(fam, need):
    """trick_w's mode for a trick that starts with ``need`` tricks still wanted (FAM_E)."""
    if fam == FAM_T:
        return W_MODE_T
    return W_MODE_DUCK if need == 0 else W_MODE_WIN


@njit(cache=True, _nrt=False, forceinline=True)
def highest_beaten(c0, c1, c2, c3, win):
    """The highest of a trick's four cards that the winning card ``win`` beat in its own
    suit, or -1 when it beat none (then its rank decided nothing)."""
    out = -1
    for c in (c0, c1, c2, c3):
        if c != win and (c >> 4) == (win >> 4) and c > out:
            out = c
    return out


@njit(cache=True, _nrt=False, forceinline=True)
def trick_w(alive, wt, wb, win, beaten, mode):
    """Add one trick's comparison to W = (wt, wb): the trick's winner ``win`` beat cards of its
    own suit, the highest of them ``beaten``. Either fixing the top down to the winner or the
    bottom up to that beaten card keeps every such comparison in matched positions; take the
    one that fixes fewer new cards (ties: the bottom when ``mode`` is 2). Mode 0 always fixes
    the top: the trick-taking goals, whose other bounds (quick tricks, trumps) fix top cards,
    search fewer nodes that way."""
    if mode == 0:
        return wt | (1 << win), wb
    s = win >> 4
    a = suit_bits(alive, s)
    f = fixed_cards(a, suit_bits(wt, s), suit_bits(wb, s))
    ct = popcount(a & ~((1 << (win & 15)) - 1) & ~f)
    cb = popcount(a & ((2 << (beaten & 15)) - 1) & ~f)
    if cb < ct or (cb == ct and mode == 2):
        if cb:
            wb |= 1 << beaten
    elif ct:
        wt |= 1 << win
    return wt, wb


@njit(cache=True, _nrt=False, forceinline=True)
def raise_w(w, wb, hands):
    """A smaller W = (``w``, ``wb``) that fixes the same positions. When a suit's top cut-off
    card lies in the bottom run of cards held by one hand, the lengths already place that run,
    so the cut-off can move to the first card above it (or vanish when one hand holds the whole
    suit). The same holds upside down for the bottom cut-off and the top run of one hand."""
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    out = 0
    outb = 0
    for s in range(4):
        ws = suit_bits(w, s)
        wbs = suit_bits(wb, s)
        if ws == 0 and wbs == 0:
            continue
        a = suit_bits(alive, s)
        low = a & -a
        top = 1 << hibit(a)
        h0 = 0
        h1 = 0
        for p in range(4):
            hs = suit_bits(hands[p], s)
            if hs & low:
                h0 = p
            if hs & top:
                h1 = p
        if ws:
            others = a & ~suit_bits(hands[h0], s)
            if others == 0:
                continue
            t = ws & -ws
            ob = others & -others
            if t < ob:
                t = ob
            out |= t << (16 * s)
        if wbs:
            others = a & ~suit_bits(hands[h1], s)
            if others == 0:
                continue
            t = 1 << hibit(wbs)
            ob = 1 << hibit(others)
            if t > ob:
                t = ob
            outb |= t << (16 * s)
    return out, outb


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
