"""The transposition table's keys: what a trick start looks like to the table.

A position's shape (length_key: the suit lengths of every hand) picks its bucket with the
leader and side conditions (table.tt_bucket); its owner codes decide which entries of the
bucket match it. The owner codes give, per suit, the owner (2 bits, seat 0 = code 0) of each
card in play from the top down: slot ``i`` of a suit holds the owner of the card with ``i``
cards of its suit in play above it; suits 0 and 1 go into the first word (their fields at
bits 0 and 32), suits 2 and 3 into the second. The search computes the key of a trick start
from the one before it (key_after_trick) and the owner codes from the owners of every card,
fixed for the whole search (rank_codes, codes_in_play). An entry's partition is read back as
W sets (w_from_masks); its top-slot word (top_word) lets a bucket scan test the four top
slots of every suit without reading the entry.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.solver.bits import (
    ctz,
    gather,
    hibit,
    popcount,
    scatter,
    suit_bits,
    wrap_add,
    wrap_shl,
)
from analyser.solver.jit import finish_module
from analyser.solver.layout import N_CARD, N_SEAT


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
        # the kt-th card from the top is the (n - kt + 1)-th from the bottom: one scatter
        # each, where a loop dropping one card a round mispredicted its exit
        if kt:
            wt |= scatter(1 << (n - kt), a) << (16 * s)
        if kb:
            wb |= scatter(1 << (kb - 1), a) << (16 * s)
    return wt, wb


@njit(cache=True, _nrt=False, forceinline=True)
def rank_codes(h0, h1, h2, h3):
    """Per suit, the owner (2 bits) of every card of the hands ``h0``..``h3``, the ace's in
    the suit's first slot and the two's in its thirteenth: the owner codes (module
    docstring) of the position where all 52 cards are in play. Owners never change during a
    search, so the owner codes of any later position are these with the slots of the cards
    gone squeezed out (codes_in_play)."""
    r0 = 0
    r1 = 0
    hs = (h1, h2, h3)
    for k in range(3):
        h = hs[k]
        own = k + 1
        while h:
            b = ctz(h)
            h &= h - 1
            s = b >> 4
            at = 32 * (s & 1) + 2 * (12 - (b & 15))
            if s < 2:
                r0 |= own << at
            else:
                r1 |= own << at
    return r0, r1


# masks of the bit reversal of every 16-bit field (reversed_ranks)
_REV1 = np.uint64(0x5555555555555555)
_REV2 = np.uint64(0x3333333333333333)
_REV4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_REV8 = np.uint64(0x00FF00FF00FF00FF)
# bits 0, 2, .., 24 of each 32-bit half: the first bit of the 13 slots of two suits
_SLOT_BITS = 0x0155555501555555


@njit(cache=True, _nrt=False, forceinline=True)
def reversed_ranks(x):
    """The card mask ``x`` with each suit's ranks reversed: the ace at bit 0 of its suit's
    field, the two at bit 12."""
    u = np.uint64(x)
    u = ((u >> np.uint64(1)) & _REV1) | ((u & _REV1) << np.uint64(1))
    u = ((u >> np.uint64(2)) & _REV2) | ((u & _REV2) << np.uint64(2))
    u = ((u >> np.uint64(4)) & _REV4) | ((u & _REV4) << np.uint64(4))
    u = ((u >> np.uint64(8)) & _REV8) | ((u & _REV8) << np.uint64(8))
    # bit r went to 15 - r; the ranks end at 12
    return np.int64(u >> np.uint64(3)) & 0x1FFF1FFF1FFF1FFF


@njit(cache=True, _nrt=False, forceinline=True)
def codes_in_play(r0, r1, alive):
    """The owner codes (module docstring) of the position whose cards in play are
    ``alive``, from the rank codes of the search's first position (rank_codes): each suit's
    slots of the cards in play, gathered top card first. Two scatters and four gathers
    (bits.gather), where carrying the codes from the trick start before, four slot moves a
    trick, took 4.9% of the solver's instructions (the first 10 exact counts of the
    benchmark under callgrind) and the exact counts 1.04 times the time."""
    rev = reversed_ranks(alive)
    # the slots of cards in play, two bits each: suits 0 and 1 in the first word
    p0 = scatter((rev & 0x1FFF) | ((rev >> 3) & 0x3FFE000), _SLOT_BITS)
    p1 = scatter(((rev >> 32) & 0x1FFF) | ((rev >> 35) & 0x3FFE000), _SLOT_BITS)
    p0 |= p0 << 1
    p1 |= p1 << 1
    c0 = gather(r0 & 0xFFFFFFFF, p0 & 0xFFFFFFFF) | (gather(r0 >> 32, p0 >> 32) << 32)
    c1 = gather(r1 & 0xFFFFFFFF, p1 & 0xFFFFFFFF) | (gather(r1 >> 32, p1 >> 32) << 32)
    return c0, c1


@njit(cache=True, _nrt=False, forceinline=True)
def key_after_trick(key, node, d0):
    """The table key (length_key) after the trick played at depths ``d0``..``d0 + 3`` of
    ``node`` (layout.N_CARD, N_SEAT), from the key before it."""
    for k in range(d0, d0 + 4):
        b = node[k, N_CARD]
        key = wrap_add(key, -(1 << (4 * (4 * node[k, N_SEAT] + (b >> 4)))))
    return key


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
