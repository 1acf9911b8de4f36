"""The transposition table of partition search: buckets, probe and store (keys: table_keys.py).

Results are stored at trick boundaries. Each result carries the set W of cards whose ranks
decided it (analyser/solver/partition.py). An entry records the suit lengths of every hand,
the leader and - per suit - which hand holds each card of a top segment (down to the lowest top
card in W) and of a bottom segment (up to the highest bottom card in W), ranks made relative.
Any position that agrees on those reuses the entry's bounds, since the free cards in between
keep their order against every fixed card: equivalent positions share an entry.

Layout. ``tt`` is entry-major, one 64-byte row (a cache line) per entry: shape key, aux (leader,
called-card state, remaining need, search generation), the partition's owner masks and values,
packed bounds and best move (the C_* columns). ``tb`` keeps, apart from the entries, one byte
per slot in each of its B_TAG, B_GEN and B_REM rows (check byte with the TAG_MOVE flag,
generation, depth), four bytes per bucket (B_META) and eight bytes per slot of top-slot words
(B_TOP). A bucket scan compares eight check bytes at once; where a byte matches it tests the
slot's top-slot word, and reads the entry's row only where that word agrees with the position.
A bucket holds the entries of the position shapes (suit lengths per seat and leader) that hash
to it, and the check byte is a hash of the shape: on the exact counts of the benchmark a probe
scans 4.3 words of check bytes and meets 6.1 entries of its shape, whose cards mostly differ
among the top slots, so the top-slot words are what spare reading their rows. Entries that
fix the top card of every suit present go to a second bucket keyed by the owners of those top
cards too. The probe is bound by memory latency, not by instructions: on the first 10 exact
counts of the benchmark (callgrind's cache model, a 512 kB second level) the top-slot words
and the bucket bytes kept together took the table's reads that miss the second level from
1.60M to 0.79M, with the same nodes and answers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.solver.bits import (
    HASH_M1,
    HASH_M2,
    ctz,
    hibit,
    popcount,
    suit_bits,
    wrap_add,
    wrap_mul,
)
from analyser.solver.jit import finish_module
from analyser.solver.state import TableView
from analyser.solver.table_keys import top_likeness, top_mismatch, top_owners, top_slots, top_word

# Entries of one position shape (suit lengths per seat, leader) differ only in the card layout
# their partition fixes, so the bucket is chosen by the shape alone and holds many of them:
# with 8 ways, entries of the same shape evicted each other and a deal searched ~10x more nodes.
TT_WAYS = 128

# columns of an entry's row in ``tt`` (C_BND packs lower bound | upper bound << 8 |
# (best move + 1) << 16; the eighth column pads the row to 64 bytes, one cache line)
C_KEY, C_AUX, C_M0, C_M1, C_V0, C_V1, C_BND = 0, 1, 2, 3, 4, 5, 6
TT_COLS = 8

# rows of ``tb``, one byte per slot: scanned for a whole bucket, so kept apart from the entries
B_TAG, B_GEN, B_REM = 0, 1, 2
# B_META: four bytes per bucket (at 4 * bucket, M_* offsets) at the start of the row, so the
# buckets' bytes share a few cache lines instead of one line per bucket (2048 buckets: 8 KB):
# M_FILL and M_LOW, the generation byte of the search whose entries the bucket holds, and its
# lowest slot holding one. A search fills a bucket from its last slot down (free_slot), so
# its entries are the slots from that one to the end: a scan starts there and an empty bucket
# is not scanned at all (the slots skipped hold no entry that could match, so the scan finds
# what it found before, in the same order). M_OVF, the generation byte of the search whose
# entries overflowed the bucket into the next one of its chain (see overflow_bucket).
B_META = 3
M_FILL, M_LOW, M_OVF = 0, 1, 2
# B_TOP .. B_TOP + 7: not rows but one region of eight bytes a slot (top_word), the owners
# of the four top slots of each suit that the entry's partition fixes: a bucket scan tests
# these words, eight to a cache line, and reads an entry's 64-byte row only where they agree
# (exact counts of the benchmark deals: 74M rows read in 12.1M probes, 67M of them for
# entries whose cards differ, all but 1M of those in a top slot)
B_TOP = 4
TB_ROWS = B_TOP + 8

# A bucket holds TT_WAYS entries of one position shape. When a search fills it with entries
# of its own, further entries of that shape go to the next bucket of the shape's chain (up to
# MAX_CHAIN buckets) instead of replacing each other: a lone declarer's exact count can need
# thousands of positions of one shape. Only the chain's last bucket replaces entries. On the
# 200 1-vs-3 exact counts of the benchmark the slowest took 27.0 s (98M nodes) before and
# 7.1 s (25M) with chains of 8, all 200 together 58.7 s and 25.7 s; 16 buckets changed the
# node counts by under 3%. Answers are the same; bridge exact counts 3.7% fewer nodes.
MAX_CHAIN = 8

# An entry's aux holds its search generation from this bit up. Buckets are chosen without it
# (tt_bucket is given aux below this bit): where a search's entries go then depends only on
# its own positions, never on what earlier searches left in the table (see gen_byte).
GEN_SHIFT = 16
NO_GEN = (1 << GEN_SHIFT) - 1


@njit(cache=True)
def table_view(tt, tb, gen):
    """The TableView of the table ``tt``/``tb`` for search generation ``gen``."""
    return TableView(
        tt, tb, tb[B_TAG].view(np.uint64), tb[B_TOP : B_TOP + 8].reshape(-1).view(np.int64), gen
    )


@njit(cache=True, _nrt=False, forceinline=True)
def tt_bucket(key, aux, nbuckets):
    """First slot of the bucket for a position shape (multiplicative hash of key and aux)."""
    x = wrap_add(wrap_mul(key, HASH_M1), wrap_mul(aux, 0x9E3779B1))
    x ^= x >> 29
    x = wrap_mul(x, HASH_M2)
    x ^= x >> 32
    return (x & (nbuckets - 1)) * TT_WAYS


@njit(cache=True, _nrt=False, forceinline=True)
def tt_tag(key, aux):
    """A 7-bit check value of a position shape (key and aux): a bucket scan compares these
    bytes first and reads the 64-bit columns only where they agree. The slot's byte holds it
    below TAG_MOVE."""
    x = wrap_add(wrap_mul(key, HASH_M2), wrap_mul(aux, 0x632BE59BD9B4E019))
    x ^= x >> 31
    x = wrap_mul(x, HASH_M1)
    return (x >> 56) & 0x7F


# Set in a slot's check byte when its entry holds a best move (the move's field of C_BND is
# not 0). Among the entries of other cards the probe looks for the likeliest one with a best
# move, and most entries it meets hold none. It used to read each candidate's row to find
# out: 25.1M rows in the 12.1M probes of the benchmark's exact counts. With the flag read
# from the check bytes it already holds, 2.7M rows, and the same nodes. The first 10 of those
# counts under callgrind: reads missing the second level 1.04M -> 0.87M, missing the first
# 3.27M -> 2.80M, the same instructions (3.41G).
TAG_MOVE = 0x80
NO_MOVE_BITS = np.uint64(0x7F7F7F7F7F7F7F7F)  # every bit of a word of check bytes but TAG_MOVE


@njit(cache=True, _nrt=False, forceinline=True)
def equal_bytes(word, byte):
    """0x80 in each byte of the uint64 ``word`` whose check value (TAG_MOVE aside) equals
    ``byte`` (below 0x80), 0 elsewhere. With TAG_MOVE masked out the bytes of
    ``word ^ pattern`` are below 0x80, so adding 0x7F to one never carries into the next: the
    high bit is clear exactly where the bytes were equal."""
    x = (word & NO_MOVE_BITS) ^ (np.uint64(byte) * np.uint64(0x0101010101010101))
    return ~(x + np.uint64(0x7F7F7F7F7F7F7F7F)) & np.uint64(0x8080808080808080)


NEAR_EXACT = 64  # tt_probe's likeness of an entry whose partition this position matches


@njit(cache=True, _nrt=False, forceinline=True)
def near_likeness(x0, x1):
    """How alike an entry of the same shape whose partition a position does not match is to
    that position, from ``x0``/``x1`` = (owner codes ^ entry values) & entry masks (not both
    0): the number of card slots, counted from the top of every suit at once, down to the
    first slot the entry fixes to another owner.

    0 means some suit's top card has another owner: such an entry's best move is not used.
    Before, the first entry of the shape was taken whatever its cards; taking the most alike
    one searched 6% fewer nodes on >=7 and rik >=8 and 4% fewer on the exact counts of 99
    benchmark deals (deal #77, a cross-ruff, 11% more)."""
    x = x0 | x1
    x = (x | (x >> 32)) & 0xFFFFFFFF  # the suits of each word folded onto each other
    return ctz(x) >> 1


@njit(cache=True, _nrt=False, forceinline=True)
def tt_probe(view, base, addr, need, gen8):
    """Look for an entry that decides the trick start at ``addr`` (an Address) in bucket
    ``base`` of the table ``view`` (a TableView; ``gen8`` its generation byte). Returns
    (state, entry, likeness) with state 1 = won, 0 = lost, -1 = nothing decisive; entry =
    the deciding entry, else the slot of a best move or -1; likeness = how far that move's
    entry agrees with this position (NEAR_EXACT for an entry of this very partition, else
    near_likeness).
    ``tagw`` is the check-byte row of the table seen as uint64 words: eight slots are
    compared at once (equal_bytes), from the word of the bucket's lowest entry of this
    search on (lowest_used); only slots whose byte matches are read, one cache line each.
    Where the search with byte ``gen8`` overflowed the bucket, the probe follows its chain
    (overflow_bucket)."""
    tt, tb, tagw, topw = view.tt, view.tb, view.tagw, view.topw
    key, aux, tag, c0, c1 = addr.key, addr.aux, addr.tag, addr.c0, addr.c1
    top = top_slots(c0, c1)
    move_slot = -1
    near_slot = -1
    near_like = 0
    nb = tt.shape[0] // TT_WAYS
    for _ in range(MAX_CHAIN):
        w0 = base >> 3
        for k in range(lowest_used(tb, base, gen8) >> 3, TT_WAYS >> 3):
            tw = tagw[w0 + k]
            hits = equal_bytes(tw, tag)
            while hits != 0:
                j = ctz(hits)  # 8 * the byte's place in the word, + 7: its TAG_MOVE bit
                e = base + 8 * k + (j >> 3)
                hits &= hits - np.uint64(1)
                xt = top_mismatch(top, topw[e])
                if xt != 0:
                    # other owners in a top slot: not this position's, and as alike as its
                    # top slots say; the row is read only for a likelier best move (the
                    # check byte's TAG_MOVE says whether the entry holds one)
                    if (tw >> np.uint64(j)) & np.uint64(1) != 0:
                        like = top_likeness(xt)
                        if like > near_like and tt[e, C_KEY] == key and tt[e, C_AUX] == aux:
                            near_like = like
                            near_slot = e
                    continue
                if tt[e, C_KEY] != key or tt[e, C_AUX] != aux:
                    continue
                bnd = tt[e, C_BND]
                # the fixed slots where this position has other owners (the values lie
                # within the masks, so none means the partition matches)
                x0 = (c0 ^ tt[e, C_V0]) & tt[e, C_M0]
                x1 = (c1 ^ tt[e, C_V1]) & tt[e, C_M1]
                if x0 != 0 or x1 != 0:
                    # same shape, other cards: the best move of the most alike such entry
                    # is still a good first guess
                    if bnd >> 16 != 0:
                        like = near_likeness(x0, x1)
                        if like > near_like:
                            near_like = like
                            near_slot = e
                    continue
                if (bnd & 0xFF) >= need:
                    return 1, e, NEAR_EXACT
                if ((bnd >> 8) & 0xFF) < need:
                    return 0, e, NEAR_EXACT
                if bnd >> 16 != 0:
                    move_slot = e
        if tb[B_META, meta(base) + M_OVF] != gen8:
            break  # this search's entries of the shape did not go further
        base = overflow_bucket(base, nb)
    if move_slot >= 0:
        return -1, move_slot, NEAR_EXACT
    return -1, near_slot, near_like


@njit(cache=True, _nrt=False, forceinline=True)
def entry_bounds(tt, e):
    """(lower bound, upper bound, best move or -1) of table entry ``e``."""
    bnd = tt[e, C_BND]
    return bnd & 0xFF, (bnd >> 8) & 0xFF, (bnd >> 16) - 1


@njit(cache=True, _nrt=False, forceinline=True)
def pack_bounds(lb, ub, move):
    """The C_BND column of an entry with these bounds and best move (-1 for none)."""
    return lb | (ub << 8) | ((move + 1) << 16)


@njit(cache=True, _nrt=False, forceinline=True)
def gen_byte(gen):
    """The B_GEN byte of search generation ``gen``: 1..127, never the 0 of a cleared slot."""
    return gen % 127 + 1


@njit(cache=True, _nrt=False)
def next_generation(tb, gen):
    """The generation after ``gen`` for a new search on the table ``tb``. When its byte comes
    round to 1 again the B_GEN row is cleared, so no slot ever holds the byte of the current
    search unless this search wrote it.

    That makes a search independent of the table's history: probes and stores only match
    entries of this generation, a new entry takes a slot of another generation first (by
    position in the bucket, whatever that slot holds), and buckets do not depend on the
    generation. Node counts, and so whether a search ends within a node budget, are then the
    same whichever positions a worker solved before: a batch gives the same answers and the
    same undecided positions however its positions are spread over threads. (Before, an old
    entry whose byte matched competed on depth, and the generation fed the bucket hash.)"""
    gen += 1
    if gen_byte(gen) == 1:
        for e in range(tb.shape[1]):
            tb[B_GEN, e] = 0
            tb[B_META, e] = 0
    return gen


@njit(cache=True, _nrt=False, forceinline=True)
def overflow_bucket(base, nbuckets):
    """The bucket after ``base`` (a bucket's first slot) in its chain: a multiplicative hash
    of the bucket, so chains of neighbouring buckets do not run into each other."""
    b = wrap_mul(base // TT_WAYS + 1, HASH_M1) >> 20
    return (b & (nbuckets - 1)) * TT_WAYS


@njit(cache=True, _nrt=False, forceinline=True)
def meta(base):
    """Where the B_META bytes of the bucket whose first slot is ``base`` begin."""
    return (base // TT_WAYS) * 4


@njit(cache=True, _nrt=False, forceinline=True)
def lowest_used(tb, base, gen8):
    """The bucket's lowest slot (0..TT_WAYS-1) that holds an entry of the search with byte
    ``gen8``, TT_WAYS when it holds none (B_META)."""
    m = meta(base)
    if tb[B_META, m + M_FILL] != gen8:
        return TT_WAYS
    return tb[B_META, m + M_LOW]


@njit(cache=True, _nrt=False, forceinline=True)
def free_slot(tb, base, gen8):
    """The bucket's last slot (an index into the table) that holds no entry of the search
    with byte ``gen8``, or -1: the one below its lowest entry (a search fills a bucket from
    its last slot down)."""
    low = lowest_used(tb, base, gen8)
    return base + low - 1 if low > 0 else -1


@njit(cache=True, _nrt=False, forceinline=True)
def victim_slot(tb, base, gen8, salt):
    """The slot of the bucket at ``base`` a new entry of search generation byte ``gen8``
    (gen_byte) takes: the bucket's last slot of another search, or else one of the
    shallowest, the first from a slot drawn from ``salt`` (the new entry's cards).

    A full bucket's entries mostly have the same depth (a bucket holds the positions of one
    shape). Always taking the first of them made each new entry replace the one before while
    the bucket's 127 oldest entries stayed: the refutation of 8 tricks on benchmark deal #77
    (a cross-ruff, most of one shape's positions in one bucket) searched 36% of its positions
    7 tricks from the end more than once, 13.4M nodes; from a drawn slot, 8.9M."""
    free = free_slot(tb, base, gen8)
    if free >= 0:
        tb[B_META, meta(base) + M_FILL] = gen8
        tb[B_META, meta(base) + M_LOW] = free - base
        return free
    victim = base
    victim_rem = 127
    start = wrap_mul(salt, HASH_M1) >> 57  # multiplicative hash: its top 7 bits
    for j in range(TT_WAYS):
        e = base + ((start + j) & (TT_WAYS - 1))
        if tb[B_REM, e] < victim_rem:
            victim = e
            victim_rem = tb[B_REM, e]
    return victim


@njit(cache=True, _nrt=False, forceinline=True)
def tt_store(view, addr, alive, rem, result):
    """Record a fail-soft result (a Result) for the partition of positions that share the
    cards the two-sided W = (``result.w``, ``result.wb``) fixes (see :func:`fixed_cards`):
    ``result.rel`` is a lower bound of the future tricks when ``result.won``, else an upper
    bound. The node: the trick start at ``addr`` (an Address) with the cards ``alive`` and
    ``rem`` tricks left; ``view``: the table (a TableView).

    An entry that fixes the top card of every suit still present goes to the bucket of
    ``base_top`` (shape and top-card owners), any other to the shape bucket ``base``: the
    many narrow entries of deep positions then spread over many buckets, and a probe looks
    in both. Returns True when the entry replaced one of the same search (the bucket's chain
    was full of them), False otherwise."""
    tt, tb, tagw, topw, gen = view
    key, aux, tag, c0, c1, base, base_top = addr
    w, wb, won, rel, move = result
    m0 = 0
    m1 = 0
    all_top = True
    for s in range(4):
        ws = suit_bits(w, s)
        if not ws and suit_bits(alive, s):
            all_top = False
        a = suit_bits(alive, s)
        mm = 0
        if ws:
            low = ws & -ws
            k = popcount(a & ~(low - 1))
            mm = (1 << (2 * k)) - 1
        wbs = suit_bits(wb, s)
        if wbs:
            # slots count cards from the top: the bottom k cards are slots n-k .. n-1
            k = popcount(a & ((2 << hibit(wbs)) - 1))
            n = popcount(a)
            mm |= ((1 << (2 * k)) - 1) << (2 * (n - k))
        if mm:
            if s < 2:
                m0 |= mm << (32 * s)
            else:
                m1 |= mm << (32 * (s - 2))
    v0 = c0 & m0
    v1 = c1 & m1
    word = top_word(m0, m1, v0, v1)
    if all_top:
        base = base_top
    gen8 = gen_byte(gen)
    nb = tt.shape[0] // TT_WAYS
    for hop in range(MAX_CHAIN):
        # an entry for the same partition takes the new bound (its check byte matches)
        w0 = base >> 3
        for k in range(lowest_used(tb, base, gen8) >> 3, TT_WAYS >> 3):
            hits = equal_bytes(tagw[w0 + k], tag)
            while hits != 0:
                e = base + 8 * k + (ctz(hits) >> 3)
                hits &= hits - np.uint64(1)
                if (
                    topw[e] == word
                    and tt[e, C_KEY] == key
                    and tt[e, C_AUX] == aux
                    and tt[e, C_M0] == m0
                    and tt[e, C_M1] == m1
                    and tt[e, C_V0] == v0
                    and tt[e, C_V1] == v1
                ):
                    lb, ub, mv_ = entry_bounds(tt, e)
                    if won:
                        if rel > lb:
                            lb = rel
                    elif rel < ub:
                        ub = rel
                    if move >= 0:
                        mv_ = move
                        tb[B_TAG, e] |= TAG_MOVE
                    tt[e, C_BND] = pack_bounds(lb, ub, mv_)
                    return False
        if tb[B_META, meta(base) + M_OVF] == gen8 and hop < MAX_CHAIN - 1:
            base = overflow_bucket(base, nb)
            continue
        if hop < MAX_CHAIN - 1 and free_slot(tb, base, gen8) < 0:
            # full of this search's entries: open the chain's next bucket
            tb[B_META, meta(base) + M_OVF] = gen8
            base = overflow_bucket(base, nb)
        break
    e = victim_slot(tb, base, gen8, c0 ^ (3 * c1) ^ rem)
    own = tb[B_GEN, e] == gen8
    tt[e, C_KEY] = key
    tt[e, C_AUX] = aux
    tt[e, C_M0] = m0
    tt[e, C_M1] = m1
    tt[e, C_V0] = v0
    tt[e, C_V1] = v1
    if won:
        tt[e, C_BND] = pack_bounds(rel, rem, move)
    else:
        tt[e, C_BND] = pack_bounds(0, rel, move)
    tb[B_REM, e] = rem
    tb[B_TAG, e] = tag | (TAG_MOVE if move >= 0 else 0)
    tb[B_GEN, e] = gen8
    topw[e] = word
    return own


# 2**20 entries * 76 bytes = 79.7 MB per thread, 8192 buckets. At 2**18 the bench's slowest exact
# count (deal #77, a cross-ruff) outgrew the table and was solved again on the large one: 1.55M
# trick-start nodes and 0.62-0.68 s instead of 1.32M and 0.53-0.55 s; the 100 deals' exact counts
# took 0.95-0.98 of the time in three paired rounds (the other 99 the same within 2%), ``>=7``
# the same. 2**19 kept #77 on the table too but took 0.54-0.59 s.
DEFAULT_TT_BITS = 20
BIG_TT_BITS = 21  # 2**21 entries * 76 bytes = 159 MB per thread, allocated on first need


@njit(cache=True)
def new_table(tt_bits):
    """Empty transposition table arrays: ``tt`` holds one 64-byte row per entry (shape key,
    aux, partition masks and values, packed bounds and best move: C_* columns), ``tb`` the
    bytes a bucket scan reads first (one per slot in each of the B_TAG, B_GEN and B_REM rows,
    the buckets' B_META bytes, and the slots' top-slot words from row B_TOP on)."""
    size = 1 << tt_bits
    tt = np.zeros((size, TT_COLS), np.int64)
    tb = np.zeros((TB_ROWS, size), np.int8)
    return tt, tb


@njit(cache=True)
def move_entries(tt, tb, big_tt, big_tb, gen):
    """Copy the entries of search generation ``gen`` from the table ``tt``/``tb`` into the
    larger ``big_tt``/``big_tb``, so a search started again there keeps what it proved. The
    large table's B_GEN row is cleared first: it may hold this generation's byte from an
    earlier search (see next_generation).

    An entry whose partition fixes the top card of every suit present goes to the bucket of
    its shape and top-card owners (a position it matches has those owners, so a probe finds
    it there), any other to its shape's bucket."""
    gen8 = gen_byte(gen)
    nb = big_tt.shape[0] // TT_WAYS
    topw = table_view(tt, tb, gen).topw
    big_topw = table_view(big_tt, big_tb, gen).topw
    for f in range(big_tb.shape[1]):
        big_tb[B_GEN, f] = 0
        big_tb[B_META, f] = 0
    for e in range(tt.shape[0]):
        if tb[B_GEN, e] != gen8 or (tt[e, C_AUX] >> GEN_SHIFT) != gen:
            continue
        key = tt[e, C_KEY]
        aux = tt[e, C_AUX] & NO_GEN
        m0 = tt[e, C_M0]
        m1 = tt[e, C_M1]
        # the suits present (a card of each stands in for the suit), and whether the entry
        # fixes each one's top slot
        present = 0
        all_top = True
        for s in range(4):
            if (key >> (4 * s)) & 0xF000F000F000F:
                present |= 1 << (16 * s)
                if (((m0 if s < 2 else m1) >> (32 * (s & 1))) & 3) != 3:
                    all_top = False
        if all_top:
            top = top_owners(tt[e, C_V0], tt[e, C_V1], present)
            base = tt_bucket(key, aux ^ (top << 40), nb)
        else:
            base = tt_bucket(key, aux, nb)
        # follow (and if need be extend) the shape's chain, as tt_store does
        for _ in range(MAX_CHAIN - 1):
            if big_tb[B_META, meta(base) + M_OVF] == gen8:
                base = overflow_bucket(base, nb)
            elif free_slot(big_tb, base, gen8) < 0:
                big_tb[B_META, meta(base) + M_OVF] = gen8
                base = overflow_bucket(base, nb)
            else:
                break
        f = victim_slot(big_tb, base, gen8, tt[e, C_V0] ^ (3 * tt[e, C_V1]))
        for c in range(TT_COLS):
            big_tt[f, c] = tt[e, c]
        for r in (B_TAG, B_GEN, B_REM):
            big_tb[r, f] = tb[r, e]
        big_topw[f] = topw[e]


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
