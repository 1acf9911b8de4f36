"""The joined search's transposition table (numba): exact results at trick starts.

An entry holds a position's key in a row of ``tk`` - the four hands in relative ranks
(:func:`relative_hands`) and an aux word (leader, capped trick counts, the question) - and
``(generation << 1) | value`` in ``tv`` (1 = the declarer asked about makes). A key hashes to
a slot (bits.hands_slot); the JT_WAYS slots from there are probed, and a store takes the
first slot of another generation among them, else the hashed slot. Generation 0 marks an
empty slot, so searches number their generations from 1 (joined_range gives each position
its own).

Why not the main solver's table (table.py): that one stores bounds together with the set W
of cards that decided them (partition search) so that positions agreeing on W share an entry,
in buckets of one position shape with their own replacement, and its aux has no room for
the joined question (declarers, form, rule switch, model, each seat's trick count). Using it
here would find and evict other entries: other node counts, and other positions given up at
the budget. The two tables share their hash (bits.hands_slot) with the smaller misère game's
memo (misere_proof.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.solver.bits import hands_slot, popcount, suit_bits
from analyser.solver.jit import finish_module

JT_BITS = 18  # default table: 2**18 entries of 6 int64, 12.6 MB per worker
JT_WAYS = 4  # slots probed per key


@njit(cache=True, _nrt=False)
def relative_hands(h0, h1, h2, h3):
    """The four hands in relative ranks: in each suit the cards still held renumbered from
    0 up, so positions that differ only in cards already played get one key."""
    out0 = 0
    out1 = 0
    out2 = 0
    out3 = 0
    for s in range(4):
        a0 = suit_bits(h0, s)
        a1 = suit_bits(h1, s)
        a2 = suit_bits(h2, s)
        a3 = suit_bits(h3, s)
        rest = a0 | a1 | a2 | a3
        r = 16 * s
        while rest:
            low = rest & -rest
            if a0 & low:
                out0 |= 1 << r
            elif a1 & low:
                out1 |= 1 << r
            elif a2 & low:
                out2 |= 1 << r
            else:
                out3 |= 1 << r
            r += 1
            rest ^= low
    return out0, out1, out2, out3


# inlined into the search's node entry, where the probe loop stood before it had a module
@njit(cache=True, _nrt=False, forceinline=True)
def jt_probe(tk, tv, k0, k1, k2, k3, aux, gen):
    """Look the key (``k0``..``k3`` relative hands, ``aux``) up in generation ``gen``.
    Returns (value, slot): the stored value (0 or 1) and its slot, or -1 and the slot a
    store of this key should take."""
    size = tv.shape[0]
    base = hands_slot(k0, k1, k2, k3, aux, popcount(size - 1))
    free = -1
    for j in range(JT_WAYS):
        e = (base + j) & (size - 1)
        if (tv[e] >> 1) != gen:
            if free < 0:
                free = e
            continue
        if tk[e, 0] == k0 and tk[e, 1] == k1 and tk[e, 2] == k2 and tk[e, 3] == k3:
            if tk[e, 4] == aux:
                return tv[e] & 1, e
    return -1, free if free >= 0 else base


@njit(cache=True, _nrt=False)
def jt_store(tk, tv, e, keys, row, value, gen):
    """Store ``value`` (0 or 1) of generation ``gen`` at slot ``e`` (from jt_probe; -1 for a
    node that has none), under the key in row ``row`` of ``keys`` (four relative hands, aux)."""
    if e < 0:
        return
    for j in range(5):
        tk[e, j] = keys[row, j]
    tv[e] = (gen << 1) | value


@njit(cache=True)
def new_table(bits):
    """An empty table: 2**bits entries (keys, generation|value); generation 0 marks an empty
    entry, so searches use generations from 1 on."""
    return np.zeros((1 << bits, 5), np.int64), np.zeros(1 << bits, np.int64)


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
