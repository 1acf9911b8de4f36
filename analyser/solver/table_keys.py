"""The transposition table's keys: what a trick start looks like to the table.

A position's shape (length_key: the suit lengths of every hand) picks its bucket with the
leader and side conditions (table.tt_bucket); its owner codes (owner_codes: per suit, who
holds each card from the top) decide which entries of the bucket match it. The search carries
both from one trick start to the next (after_trick) instead of computing them afresh. An
entry's partition is read back as W sets (w_from_masks); its top-slot word (top_word) lets a
bucket scan test the four top slots of every suit without reading the entry.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import (
    ctz,
    hibit,
    popcount,
    suit_bits,
    wrap_add,
    wrap_shl,
)
from analyser.solver.jit import finish_module
from analyser.solver.layout import N_CARD, N_SEAT


@njit(cache=True, _nrt=False, forceinline=True)
def owner_codes(h0, h1, h2, h3):
    """Per suit, the owners (2 bits each, top card first) of the cards still in hands.

    Suits 0 and 1 go into the first word (offsets 0 and 32), suits 2 and 3 into the second.
    Seat 0 owns code 0, so only the cards of seats 1-3 are placed: a card's slot is the number
    of cards in play above it."""
    c0 = 0
    c1 = 0
    a = h0 | h1 | h2 | h3
    hs = (h1, h2, h3)
    for k in range(3):
        h = hs[k]
        own = k + 1
        while h:
            b = ctz(h)
            h &= h - 1
            s = b >> 4
            # cards of suit s above b: the suit's 16-bit field shifted past b
            i = popcount((a >> (b + 1)) & ((1 << (15 - (b & 15))) - 1))
            if s < 2:
                c0 |= own << (32 * s + 2 * i)
            else:
                c1 |= own << (32 * (s - 2) + 2 * i)
    return c0, c1


@njit(cache=True, _nrt=False, forceinline=True)
def length_key(h0, h1, h2, h3):
    """Suit lengths of the four hands, 4 bits each (the table's bucket key)."""
    k = 0
    hs = (h0, h1, h2, h3)
    for p in range(4):
        h = hs[p]
        for s in range(4):
            # seat 3's clubs fill the top nibble: 8 or more reach the sign bit
            k |= wrap_shl(popcount(suit_bits(h, s)), 4 * (4 * p + s))
    return k


@njit(cache=True, _nrt=False, forceinline=True)
def drop_slot(c0, c1, b, above):
    """Owner codes (see owner_codes) after card bit ``b`` leaves play, ``above`` cards of its
    suit still in play above it: the slots below it move up one."""
    s = b >> 4
    sh = 32 * (s & 1)
    c = c0 if s < 2 else c1
    f = (c >> sh) & 0xFFFFFFFF
    keep = (1 << (2 * above)) - 1
    f = (f & keep) | ((f >> 2) & ~keep)
    c = (c & ~(0xFFFFFFFF << sh)) | (f << sh)
    if s < 2:
        return c, c1
    return c0, c


@njit(cache=True, _nrt=False, forceinline=True)
def after_trick(key, c0, c1, alive, node, d0):
    """The table key (length_key) and owner codes of the position after the trick played at
    depths ``d0``..``d0 + 3`` of ``node`` (layout.N_CARD, N_SEAT), from those before it;
    ``alive`` is every card still in play after the trick. Four slot moves instead of a pass
    over every card still in play, at every trick boundary the search reaches."""
    a = alive
    for k in range(d0, d0 + 4):
        a |= 1 << node[k, N_CARD]  # the cards in play before the trick
    for k in range(d0, d0 + 4):
        b = node[k, N_CARD]
        s = b >> 4
        key = wrap_add(key, -(1 << (4 * (4 * node[k, N_SEAT] + s))))
        c0, c1 = drop_slot(c0, c1, b, popcount(suit_bits(a, s) >> ((b & 15) + 1)))
        a ^= 1 << b
    return key, c0, c1


@njit(cache=True, _nrt=False, forceinline=True)
def w_from_masks(m0, m1, alive):
    """The W sets a table entry stands for in the current position: per suit, the lowest of
    the top cards it fixes (all cards above are then fixed too) in the first mask, and the
    highest of the bottom cards it fixes (all cards below are fixed too) in the second."""
    wt = 0
    wb = 0
    for s in range(4):
        if s < 2:
            m = (m0 >> (32 * s)) & 0x3FFFFFF
        else:
            m = (m1 >> (32 * (s - 2))) & 0x3FFFFFF
        if m == 0:
            continue
        a = suit_bits(alive, s)
        n = popcount(a)
        # fixed slots come in pairs of set bits: kt = trailing pairs, kb = leading pairs
        # below slot n (their count from the first unfixed bit, found with one instruction)
        kt = ctz(~m) >> 1
        if kt >= n:
            wt |= (a & -a) << (16 * s)
            continue
        kb = (2 * n - 1 - hibit(~m & ((1 << (2 * n)) - 1))) >> 1
        if kt:
            t = a
            for _ in range(kt - 1):
                t ^= 1 << hibit(t)
            wt |= 1 << (16 * s + hibit(t))
        if kb:
            b = a
            for _ in range(kb - 1):
                b &= b - 1
            wb |= (b & -b) << (16 * s)
    return wt, wb


@njit(cache=True, _nrt=False, forceinline=True)
def top_owners(c0, c1, alive):
    """The owner of each suit's top card (2 bits per suit, 0 for a suit that is gone) plus
    one bit per suit still present: the finer bucket key of entries that fix every top card."""
    t = 0
    for s in range(4):
        if suit_bits(alive, s):
            code = (c0 >> (32 * s)) & 3 if s < 2 else (c1 >> (32 * (s - 2))) & 3
            t |= (4 | code) << (3 * s)
    return t + 1


@njit(cache=True, _nrt=False, forceinline=True)
def top_slots(c0, c1):
    """The first byte of each suit's field of owner codes (or of an entry's masks or
    values): the four top slots of every suit, in 32 bits."""
    return (c0 & 0xFF) | ((c0 >> 24) & 0xFF00) | ((c1 & 0xFF) << 16) | ((c1 >> 8) & 0xFF000000)


@njit(cache=True, _nrt=False, forceinline=True)
def top_word(m0, m1, v0, v1):
    """An entry's top-slot word (B_TOP): the values of the four top slots of each suit in
    the low 32 bits, which of them the partition fixes in the high 32 bits."""
    return top_slots(v0, v1) | wrap_shl(top_slots(m0, m1), 32)


@njit(cache=True, _nrt=False, forceinline=True)
def top_mismatch(top, word):
    """The top slots (2 bits each, 8 per suit) fixed by an entry's top-slot ``word`` where
    a position with top slots ``top`` (top_slots of its owner codes) has other owners."""
    return (top ^ word) & (word >> 32) & 0xFFFFFFFF


@njit(cache=True, _nrt=False, forceinline=True)
def top_likeness(x):
    """near_likeness of an entry from its top_mismatch ``x`` (not 0): the first slot where
    some suit differs lies among the four top ones, so the top slots alone give it."""
    x |= x >> 16
    x = (x | (x >> 8)) & 0xFF
    return ctz(x) >> 1


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
