"""The double-dummy search engine (numba).

One null-window search answers "does the MAX side reach its goal?" for a position at a trick
boundary. Everything here works on int64 hand masks with 16 bits per suit (analyser/cards.py)
and on card *bit indices* (16 * suit + rank), never on Python objects.

Techniques, and why each is safe:

* Alpha-beta with a null window: every node returns a boolean, so a single good move ends a
  MAX node and a single refutation ends a MIN node.
* Equivalent cards: a hand's cards that are adjacent among the cards still in play (remaining
  in hands or on the table) are one move; the *lowest* of such a run is searched.
* Partition search (transposition table at trick boundaries): each result carries the set W of
  cards whose ranks decided it. A table entry records the suit lengths of every hand, the
  leader, and - per suit - which hand holds each card of a top segment (down to the lowest
  top card in W) and of a bottom segment (up to the highest bottom card in W), ranks made
  relative, so equivalent positions share an entry. Any position that agrees on those reuses
  the entry's bounds: the free cards in between keep their order against every fixed card.
  W is built from the leaves up: a trick whose winner beat cards of its own suit adds either
  the winner (top) or the highest card it beat (bottom) - trick-taking goals always take the
  top, the misère phase whichever fixes fewer cards; a node adds its children's W (all
  children at an all-node, the deciding child at a cut-node); sure-trick bounds add the top
  cards they rely on, misère safety tests the low cards; a table hit adds the entry's cards.
  When an all-node's child W cuts through the run a move represented, the cut moves to the
  run's end, so the run stays wholly fixed or wholly free (otherwise its unsearched siblings
  would not be covered).
* Misère: a defender to lead who can force the lone declarer to win at once settles the node;
  so does a declarer who can duck to the end (every suit safe), or who survives the smaller
  game of analyser.solver.misere_proof (safe suits reduced to card counts).
* Quick tricks and trump "later tricks": only provably safe lower bounds (see their docstrings).

Cost per node (measured with perf on rik positions; same nodes, same answers):

* Helpers that only read and write arrays their caller owns are compiled with ``_nrt=False``.
  Otherwise numba increments and decrements the reference count of every array argument on
  every call, with atomic instructions: that was 38% of the solver's time.
* Rows of the move arrays are passed as (array, row), not as slices: a slice is a new array
  object, reference-counted again.
* Those helpers are also compiled with ``forceinline=True``. numba links each helper into
  ``search`` as a separate function, and LLVM's inliner left them as real calls: every call
  passed each array argument as seven machine words and went through numba's status-code
  return. Inlined, the same 300 rik positions (``>=8``, then the exact count) took 7.9 s
  instead of 10.3 s on one thread, with the same nodes and answers; the cost is a longer
  first compilation (about 20 s more to fill numba's cache).
* Everything here compiles without numba's negative-index wraparound for arrays (no array
  index is ever negative; analyser/solver/plain_index.py): numba otherwise compares every
  signed array index with zero and adds the array's length when it is below. 150 rik
  positions (``>=8``, then the exact count) took 3.55 s instead of 3.95 s on one thread,
  same nodes and answers.
* The table is entry-major (one 64-byte row per entry) with the per-slot check byte,
  generation and depth kept apart in byte rows. A bucket scan compares eight check bytes at
  once and reads only the entries whose byte matches, each in one cache line. The probe is
  bound by memory latency, not by instructions.

Goal families: FAM_T - the MAX side (which is also the counted side) needs at least `target`
tricks; table values are bounds on the counted side's future tricks. FAM_E - a lone declarer
(MAX and counted) needs exactly `goal` tricks in all (misere: 0, piek: 1); the position's
remaining need is part of the table key and entries hold a won/lost flag.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from analyser.solver.bits import SUITM, clz, ctz, hibit, popcount, suit_bits
from analyser.solver.misere_proof import (
    RX_MEMO_BITS,
    forced_in_suit,
    misere_safe,
    new_memo,
    suit_is_safe,
)
from analyser.solver.plain_index import compile_without_wraparound

NT = 4
FAM_T = 0
FAM_E = 1

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
TB_ROWS = 3

# statistics slots
S_NODES, S_TT_HITS, S_TT_STORES, S_QT_CUTS, S_SEARCHES, S_TRICK_NODES = 0, 1, 2, 3, 4, 5
S_ESCALATED = 6  # positions solved again on the large table
S_RX_NODES = 7  # nodes of the smaller misère game (misere_proof), not counted in S_NODES
N_STATS = 8

# The move-ordering array a search is given (``killer``): a history weight per (seat, card)
# at [seat * 64 + bit], then per depth the last two leads that cut off there
# (bit + 1; 0 = none) at [LEAD_KILLER + d] (the last) and [LEAD_KILLER_2 + d] (the one before).
LEAD_KILLER = 256
LEAD_KILLER_2 = LEAD_KILLER + 64
KILLER_SIZE = LEAD_KILLER_2 + 64


@njit(cache=True, _nrt=False, forceinline=True)
def beats(b, cur, trump):
    """True if card bit ``b`` beats the currently winning card bit ``cur``."""
    sb = b >> 4
    sc = cur >> 4
    if sb == sc:
        return b > cur
    return sb == trump


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
            k |= popcount(suit_bits(h, s)) << (4 * (4 * p + s))
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
def after_trick(key, c0, c1, alive, card, seat_at, d0):
    """The table key (length_key) and owner codes of the position after the trick played at
    depths ``d0``..``d0 + 3`` of ``card``/``seat_at``, from those before it; ``alive`` is every
    card still in play after the trick. Four slot moves instead of a pass over every card
    still in play, at every trick boundary the search reaches."""
    a = alive
    for k in range(d0, d0 + 4):
        a |= 1 << card[k]  # the cards in play before the trick
    for k in range(d0, d0 + 4):
        b = card[k]
        s = b >> 4
        key -= 1 << (4 * (4 * seat_at[k] + s))
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
def tt_bucket(key, aux, nbuckets):
    """First slot of the bucket for a position shape (multiplicative hash of key and aux)."""
    x = key * -7046029254386353131 + aux * 0x9E3779B1
    x ^= x >> 29
    x *= -4658895280553007687
    x ^= x >> 32
    return (x & (nbuckets - 1)) * TT_WAYS


@njit(cache=True, _nrt=False, forceinline=True)
def tt_tag(key, aux):
    """An 8-bit check value of a position shape (key and aux): a bucket scan compares these
    bytes first and reads the 64-bit columns only where they agree."""
    x = key * -4658895280553007687 + aux * 0x632BE59BD9B4E019
    x ^= x >> 31
    x *= -7046029254386353131
    return (x >> 56) & 0x7F


@njit(cache=True, _nrt=False, forceinline=True)
def equal_bytes(word, byte):
    """0x80 in each byte of the uint64 ``word`` that equals ``byte``, 0 elsewhere. The table's
    check and generation bytes are below 0x80, so adding 0x7F to a byte of ``word ^ pattern``
    never carries into the next: the high bit is clear exactly where the bytes were equal."""
    x = word ^ (np.uint64(byte) * np.uint64(0x0101010101010101))
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
def tt_probe(tt, tagw, base, key, aux, tag, c0, c1, need):
    """Look for an entry that decides this node. Returns (state, entry, likeness) with state
    1 = won, 0 = lost, -1 = nothing decisive; entry = the deciding entry, else the slot of a
    best move or -1; likeness = how far that move's entry agrees with this position
    (NEAR_EXACT for an entry of this very partition, else near_likeness).
    ``tagw`` is the check-byte row of the table seen as uint64 words: eight slots are
    compared at once (equal_bytes); only slots whose byte matches are read, one cache line
    each."""
    move_slot = -1
    near_slot = -1
    near_like = 0
    w0 = base >> 3
    for k in range(TT_WAYS >> 3):
        hits = equal_bytes(tagw[w0 + k], tag)
        while hits != 0:
            e = base + 8 * k + (ctz(hits) >> 3)
            hits &= hits - np.uint64(1)
            if tt[e, C_KEY] != key or tt[e, C_AUX] != aux:
                continue
            bnd = tt[e, C_BND]
            # the fixed slots where this position has other owners (the values lie within
            # the masks, so none means the partition matches)
            x0 = (c0 ^ tt[e, C_V0]) & tt[e, C_M0]
            x1 = (c1 ^ tt[e, C_V1]) & tt[e, C_M1]
            if x0 != 0 or x1 != 0:
                # same shape, other cards: the best move of the most alike such entry is
                # still a good first guess
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
def victim_slot(tb, genw, base, gen8, salt):
    """The slot of the bucket at ``base`` a new entry of search generation ``gen8`` takes:
    the bucket's last entry of another search (the generation byte may also match an old
    one: that entry then only competes on depth), or else one of the shallowest, the first
    from a slot drawn from ``salt`` (the new entry's cards).

    A full bucket's entries mostly have the same depth (a bucket holds the positions of one
    shape). Always taking the first of them made each new entry replace the one before while
    the bucket's 127 oldest entries stayed: the refutation of 8 tricks on benchmark deal #77
    (a cross-ruff, most of one shape's positions in one bucket) searched 36% of its positions
    7 tricks from the end more than once, 13.4M nodes; from a drawn slot, 8.9M."""
    w0 = base >> 3
    for k in range((TT_WAYS >> 3) - 1, -1, -1):
        other = equal_bytes(genw[w0 + k], gen8) ^ np.uint64(0x8080808080808080)
        if other != 0:
            return base + 8 * k + (hibit(other) >> 3)
    victim = base
    victim_rem = 127
    start = (salt * -7046029254386353131) >> 57  # multiplicative hash: its top 7 bits
    for j in range(TT_WAYS):
        e = base + ((start + j) & (TT_WAYS - 1))
        if tb[B_REM, e] < victim_rem:
            victim = e
            victim_rem = tb[B_REM, e]
    return victim


@njit(cache=True, _nrt=False, forceinline=True)
def tt_store(
    tt,
    tb,
    tagw,
    genw,
    base,
    base_top,
    key,
    aux,
    tag,
    c0,
    c1,
    w,
    wb,
    alive,
    won,
    rel,
    rem,
    move,
    gen,
):
    """Record a fail-soft result for the partition of positions that share the cards the
    two-sided W = (``w``, ``wb``) fixes (see :func:`fixed_cards`): ``rel`` is a lower bound
    of the future tricks when ``won``, else an upper bound.

    An entry that fixes the top card of every suit still present goes to the bucket of
    ``base_top`` (shape and top-card owners), any other to the shape bucket ``base``: the
    many narrow entries of deep positions then spread over many buckets, and a probe looks
    in both."""
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
    if all_top:
        base = base_top
    # an entry for the same partition takes the new bound (its check byte matches)
    w0 = base >> 3
    for k in range(TT_WAYS >> 3):
        hits = equal_bytes(tagw[w0 + k], tag)
        while hits != 0:
            e = base + 8 * k + (ctz(hits) >> 3)
            hits &= hits - np.uint64(1)
            if (
                tt[e, C_KEY] == key
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
                tt[e, C_BND] = pack_bounds(lb, ub, mv_)
                return
    gen8 = gen & 0x7F
    e = victim_slot(tb, genw, base, gen8, c0 ^ (3 * c1) ^ rem)
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
    tb[B_TAG, e] = tag
    tb[B_GEN, e] = gen8


@njit(cache=True, _nrt=False, forceinline=True)
def ruff_caps(hands, trump, side, mine):
    """Per suit, how many rounds side ``mine`` can cash without a ruff: the shortest holding of
    an opponent who still has trumps (13 when none has). Trumps themselves are never capped.
    Packed 4 bits per suit (allocation-free: this runs at every trick start)."""
    caps = 13 | (13 << 4) | (13 << 8) | (13 << 12)
    if trump == NT:
        return caps
    for p in range(4):
        if side[p] != mine and suit_bits(hands[p], trump) != 0:
            for s in range(4):
                if s != trump:
                    ln = popcount(suit_bits(hands[p], s))
                    if ln < ((caps >> (4 * s)) & 15):
                        caps = (caps & ~(15 << (4 * s))) | (ln << (4 * s))
    return caps


@njit(cache=True, _nrt=False, forceinline=True)
def run_suit(hands, gone, h, s, side, cap, lead_first, partner_first, partner_seat, skip):
    """Rounds the side of ``h`` surely wins when ``h`` leads suit ``s`` round after round.

    ``h`` leads from the top; his partners unblock (each plays his highest card below h's, or
    else his lowest); a defender is assumed to keep his top card of the suit for as long as
    he can follow, which is the worst case for us. A round counts when our best card beats
    every defender's card that can still appear. Counting stops at the first round we might
    lose, after ``cap`` rounds (a defender with trumps could ruff) and after a partner wins a
    round (the lead has left ``h``). ``lead_first`` >= 0 is a card bit h must lead first;
    ``partner_first`` a card bit partner ``partner_seat`` must play in the first round (a
    pending called card). ``skip`` rounds of the suit were already played, taking the cards in
    ``gone`` from h and his partners and one (unknown) card from each defender.
    Returns (rounds, lead kept by h, W = the lowest card whose rank the count relied on)."""
    mine = suit_bits(hands[h] & ~gone, s)
    if mine == 0 or cap - skip <= 0:
        return 0, True, 0
    ph = 0  # partners' holdings, 16 bits per seat
    dl = 0  # defenders' lengths, 4 bits per seat
    dt = 0  # defenders' top ranks + 1, 4 bits per seat
    for p in range(4):
        if p == h:
            continue
        hs = suit_bits(hands[p] & ~gone, s)
        if side[p] == side[h]:
            ph |= hs << (16 * p)
        elif hs != 0:
            dl |= popcount(hs) << (4 * p)
            dt |= (hibit(hs) + 1) << (4 * p)
    r = 0
    wmin = 16
    kept = True
    while mine != 0 and r + skip < cap:
        if r == 0 and lead_first >= 0:
            hc = lead_first & 15
        else:
            hc = hibit(mine)
        best = hc
        over = False
        followed = False
        for q in range(4):
            hq = (ph >> (16 * q)) & SUITM
            if hq == 0:
                continue
            followed = True
            if r == 0 and q == partner_seat and partner_first >= 0:
                pc = partner_first & 15
            else:
                below = hq & ((1 << hc) - 1)
                pc = hibit(below) if below != 0 else ctz(hq)
            ph ^= (1 << pc) << (16 * q)
            if pc > best:
                best = pc
                over = True
        d = -1
        for q in range(4):
            if ((dl >> (4 * q)) & 15) > r + skip:
                t = ((dt >> (4 * q)) & 15) - 1
                if t > d:
                    d = t
        if best <= d:
            break
        r += 1
        if (d >= 0 or followed) and best < wmin:
            wmin = best
        mine ^= 1 << hc
        if over:
            kept = False
            break
    if wmin == 16:
        return r, kept, 0
    return r, kept, (1 << wmin) << (16 * s)


@njit(cache=True, _nrt=False, forceinline=True)
def suit_runs(hands, gone, h, side, caps, called_suit, lead_first, partner_first, partner_seat):
    """run_suit for each suit: (rounds packed 4 bits per suit, kept-lead mask, W of all)."""
    rounds = 0
    kept_mask = 0
    w = 0
    for s in range(4):
        lf = lead_first if s == called_suit else -1
        pf = partner_first if s == called_suit else -1
        r, kept, ws = run_suit(
            hands, gone, h, s, side, (caps >> (4 * s)) & 15, lf, pf, partner_seat, 0
        )
        rounds |= r << (4 * s)
        if kept:
            kept_mask |= 1 << s
        w |= ws
    return rounds, kept_mask, w


@njit(cache=True, _nrt=False, forceinline=True)
def plan_suits(rounds, kept_mask, w_all, exclude, handoff):
    """Best total when a hand cashes its runs (from suit_runs) one suit after the other,
    skipping the suits in ``exclude``: suits where it keeps the lead first, then (if
    ``handoff``) at most one suit that hands the lead to a partner.
    Returns (tricks, W, suits used)."""
    tot = 0
    used = 0
    last = 0
    last_s = -1
    for s in range(4):
        r = (rounds >> (4 * s)) & 15
        if (exclude >> s) & 1 or r == 0:
            continue
        if (kept_mask >> s) & 1:
            tot += r
            used |= 1 << s
        elif handoff and r > last:
            last = r
            last_s = s
    if last_s >= 0:
        tot += last
        used |= 1 << last_s
    w = 0
    for s in range(4):
        if (used >> s) & 1:
            w |= w_all & (SUITM << (16 * s))
    return tot, w, used


KEEP_ALL = 0xFFFF  # spare_deficit's keep_n when every kept suit is kept whole


@njit(cache=True, _nrt=False, forceinline=True)
def spare_deficit(hands, q, plan, rounds, keep, keep_n, played, not_free):
    """How many cards hand ``q`` (the leader's partner, or the leader while his partner
    cashes) lacks to follow or discard through the planned rounds (``rounds``, 4 bits per
    suit, for the suits in ``plan``); 0 or less when he can.
    Discards must not disturb a suit still to be cashed: of a suit in ``keep`` he throws
    only the cards beyond the ``keep_n`` (4 bits per suit; 15 = all) his own later rounds
    there play (they are led from the top, so his lowest cards are spare). ``played``
    (4 bits per suit) cards of q are already gone; ``not_free`` is a card bit q may not
    throw (a pending called card) or -1."""
    need = 0
    free = 0
    for s in range(4):
        ln = popcount(suit_bits(hands[q], s)) - ((played >> (4 * s)) & 15)
        if ln < 0:
            ln = 0
        if (plan >> s) & 1:
            r = (rounds >> (4 * s)) & 15
            if r > ln:
                need += r - ln
            continue
        spare = ln
        if (keep >> s) & 1:
            spare = ln - ((keep_n >> (4 * s)) & 15)
            if spare <= 0:
                continue
        if not_free >= 0 and (not_free >> 4) == s and (hands[q] >> not_free) & 1:
            spare -= 1
        free += spare
    return need - free


@njit(cache=True, _nrt=False, forceinline=True)
def side_count(side, which):
    """Number of seats on side ``which``."""
    n = 0
    for p in range(4):
        if side[p] == which:
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def nibble_sum(x):
    """The sum of the four 4-bit counts packed in ``x`` (rounds per suit)."""
    return (x & 15) + ((x >> 4) & 15) + ((x >> 8) & 15) + ((x >> 12) & 15)


@njit(cache=True, _nrt=False, forceinline=True)
def quick_tricks(hands, leader, trump, side, called_bit, holder, pend, decisive=0):
    """Tricks the leader's side can take at once from the top, whatever the others do.

    Plan 1: the leader runs his suits (run_suit). Plan 2: he first runs suits of his own,
    then leads to a partner's winner in an entry suit e (the partner's top card of e beats
    every other card of e that can be played to it) and the partner runs e and his other
    suits. Plan 3 (ruff_plan): the partner ruffs a suit he lacks and runs his suits.
    Partners must be able to follow or discard without spoiling a suit still to come.
    Opponents holding trumps are never void in a suit we run (the ruff caps), so they neither
    ruff nor discard. A pending called card binds its holder. Returns (tricks, W).

    A caller that only asks whether the count reaches ``decisive`` passes it (0, the
    default, asks for the full count): the plans through the partner are then skipped when
    they cannot reach it (the count returned is then that of plan 1; skipping never makes
    the count exceed the full one)."""
    me = side[leader]
    caps = ruff_caps(hands, trump, side, me)
    called_suit = called_bit >> 4 if pend == 1 else -1
    lead_first = called_bit if (pend == 1 and leader == holder) else -1
    p_first = called_bit if (pend == 1 and side[holder] == me and holder != leader) else -1
    nf = called_bit if pend == 1 else -1
    l_rounds, l_kept, l_w = suit_runs(
        hands, 0, leader, side, caps, called_suit, lead_first, p_first, holder
    )
    # plan 1
    best, best_w, used = plan_suits(l_rounds, l_kept, l_w, 0, True)
    if best > 0:
        for q in range(4):
            if q != leader and side[q] == me:
                if spare_deficit(hands, q, used, l_rounds, used, KEEP_ALL, 0, nf) > 0:
                    # keep only the single best suit: a partner void there discards elsewhere
                    best = 0
                    best_w = 0
                    for s in range(4):
                        r = (l_rounds >> (4 * s)) & 15
                        if r > best:
                            best = r
                            best_w = l_w & (SUITM << (16 * s))
                    break
    if side_count(side, me) != 2:
        return best, best_w  # transport is tracked for one partner only
    # plan 2: cross to the partner through an entry suit
    pp = 0
    for q in range(4):
        if q != leader and side[q] == me:
            pp = q
    # plans 2 and 3 count at most the leader's rounds, one crossing trick and the partner's
    # rounds, which are at most his cards: most calls that cannot settle the node stop here
    l_sum = nibble_sum(l_rounds)
    if best < decisive and 1 + popcount(hands[pp]) + l_sum < decisive:
        return best, best_w
    p_lf = called_bit if (pend == 1 and pp == holder) else -1
    l_pf = called_bit if (pend == 1 and leader == holder) else -1
    p_rounds, p_kept, p_wall = suit_runs(hands, 0, pp, side, caps, called_suit, p_lf, l_pf, leader)
    # the partner's rounds from the top bound his rounds after an entry or a ruff as well,
    # except in rare blocking layouts (a card fewer can spare an unblock): there this gate
    # only loses a cut-off, and the test of it finds none on random endings
    if best < decisive and 1 + nibble_sum(p_rounds) + l_sum < decisive:
        return best, best_w
    for e in range(4):
        le = suit_bits(hands[leader], e)
        pe = suit_bits(hands[pp], e)
        cap_e = (caps >> (4 * e)) & 15
        if le == 0 or pe == 0 or cap_e == 0:
            continue
        pt = hibit(pe)
        lead_card = ctz(le)
        if e == called_suit:
            if leader == holder:
                lead_card = called_bit & 15  # he must lead the called card
            elif pp == holder and (called_bit & 15) != pt:
                continue  # the partner must play the called card, not his top card
        others = 0
        for q in range(4):
            if q != leader and q != pp:
                others |= suit_bits(hands[q], e)
        if (others >> pt) != 0 or lead_card > pt:
            continue
        # the leader's own suits first (not e), then the entry, then the partner
        l_tot, lw_used, l_used = plan_suits(l_rounds, l_kept, l_w, 1 << e, False)
        gone = (1 << (16 * e + lead_card)) | (1 << (16 * e + pt))
        r_e, kept_e, w_e = run_suit(hands, gone, pp, e, side, cap_e, -1, -1, -1, 1)
        if kept_e:
            p_tot, pw_used, p_used = plan_suits(p_rounds, p_kept, p_wall, (1 << e) | l_used, True)
        else:
            # the lead left the partner inside e: count e only
            p_tot = 0
            pw_used = 0
            p_used = 0
        tot = l_tot + 1 + r_e + p_tot
        if tot <= best:
            continue
        # discards: the partner through the leader's suits, the leader through the rest. Of
        # the suits the partner runs later he keeps only the cards his rounds play (the
        # entry card and r_e in e); when that is not enough, he cashes fewer rounds of his
        # own and throws their cards too (each dropped round frees one card)
        p_plan_rounds = (p_rounds & _used_nibbles(p_used)) | (r_e << (4 * e))
        keep_n = p_plan_rounds + (1 << (4 * e))
        short = spare_deficit(
            hands, pp, l_used, l_rounds, l_used | p_used | (1 << e), keep_n, 0, nf
        )
        if short > 0:
            if short > r_e + p_tot:
                continue
            tot -= short
            if tot <= best:
                continue
            p_plan_rounds = drop_rounds(p_plan_rounds, short, e)
        l_played = (l_rounds & _used_nibbles(l_used)) + (1 << (4 * e))
        if (
            spare_deficit(
                hands,
                leader,
                p_used | (1 << e),
                p_plan_rounds,
                p_used | (1 << e),
                KEEP_ALL,
                l_played,
                nf,
            )
            > 0
        ):
            continue
        best = tot
        best_w = lw_used | pw_used | w_e | ((1 << pt) << (16 * e))
    # plan 3: cross to the partner by a ruff
    if trump != NT and pend == 0:
        t, tw = ruff_plan(
            hands, leader, pp, trump, side, l_rounds, l_kept, l_w, p_rounds, p_kept, p_wall
        )
        if t > best:
            best = t
            best_w = tw
    return best, best_w


@njit(cache=True, _nrt=False, forceinline=True)
def ruff_plan(hands, leader, pp, trump, side, l_rounds, l_kept, l_w, p_rounds, p_kept, p_wall):
    """Quick tricks through a ruff: the leader first runs suits of his own (not trumps, not
    the ruff suit s), then leads s, which his partner ``pp`` lacks, and the partner ruffs;
    then the partner runs his suits. The ruff is sure when the partner ruffs with a trump
    above every trump of an opponent who is void in s (an opponent who follows cannot beat a
    trump). Only when no opponent is void in s does the partner go on after the ruff: a void
    opponent discards in the ruff trick and could become short elsewhere.
    Returns (tricks, W) of the best such plan (0, 0 when there is none)."""
    me = side[leader]
    p_trumps = suit_bits(hands[pp], trump)
    best = 0
    best_w = 0
    if p_trumps == 0:
        return 0, 0
    for s in range(4):
        if s == trump or suit_bits(hands[leader], s) == 0 or suit_bits(hands[pp], s) != 0:
            continue
        over = 0  # rank + 1 of the highest trump an opponent void in s could ruff with
        void_opp = False
        for q in range(4):
            if side[q] != me and suit_bits(hands[q], s) == 0:
                void_opp = True
                ot = suit_bits(hands[q], trump)
                if ot != 0 and hibit(ot) + 1 > over:
                    over = hibit(ot) + 1
        cand = p_trumps & ~((1 << over) - 1)
        if cand == 0:
            continue
        r = ctz(cand)
        rw = (1 << (16 * trump + r)) if over > 0 else 0
        l_tot, lw_used, l_used = plan_suits(l_rounds, l_kept, l_w, (1 << s) | (1 << trump), False)
        p_tot = 0
        pw_used = 0
        p_used = 0
        if not void_opp:
            gone = 1 << (16 * trump + r)
            r_t, kept_t, w_t = run_suit(hands, gone, pp, trump, side, 13, -1, -1, -1, 0)
            tm = 15 << (4 * trump)
            pr = (p_rounds & ~tm) | (r_t << (4 * trump))
            pk = (p_kept & ~(1 << trump)) | ((1 << trump) if kept_t else 0)
            pw = (p_wall & ~(SUITM << (16 * trump))) | w_t
            p_tot, pw_used, p_used = plan_suits(pr, pk, pw, (1 << s) | l_used, True)
        tot = l_tot + 1 + p_tot
        if tot <= best:
            continue
        # the partner discards through the leader's suits, keeping his trumps and later suits
        if (
            l_used != 0
            and spare_deficit(
                hands, pp, l_used, l_rounds, l_used | p_used | (1 << trump), KEEP_ALL, 0, -1
            )
            > 0
        ):
            l_tot, lw_used, l_used = 0, 0, 0
            tot = 1 + p_tot
            if tot <= best:
                continue
        best = tot
        best_w = lw_used | pw_used | rw
    return best, best_w


@njit(cache=True, _nrt=False, forceinline=True)
def _used_nibbles(used):
    """A mask with 4 set bits for each suit in ``used`` (to select packed per-suit counts)."""
    m = 0
    for s in range(4):
        if (used >> s) & 1:
            m |= 15 << (4 * s)
    return m


@njit(cache=True, _nrt=False, forceinline=True)
def drop_rounds(rounds, k, last):
    """``rounds`` (4 bits per suit) less ``k`` rounds in all, taken from the suits other
    than ``last`` first (a hand that stops cashing a suit early keeps the lead)."""
    for s in range(4):
        if s != last and k > 0:
            take = min((rounds >> (4 * s)) & 15, k)
            rounds -= take << (4 * s)
            k -= take
    return rounds - (min((rounds >> (4 * last)) & 15, k) << (4 * last))


@njit(cache=True, _nrt=False, forceinline=True)
def later_tricks(hands, trump, side, which, pairs):
    """Trump tricks side ``which`` is sure to win eventually with its run of top trumps (its
    trumps above every opponent trump: each wins any trick it is played to).

    One hand's run cards win a trick each. Two hands A and B win a trick with every run
    card of both when A holds at least as many other (low) trumps as B holds run cards. They
    play so that no trick holds run cards of both: in a trick where both play a trump, B
    plays a run card while it has one and A a low trump while it has one; where A alone
    plays a trump, A plays a run card while it has one. A then spends a low trump only
    beside one of B's run cards or once its own run cards are gone, so it keeps a low trump
    for each run card B still holds. ``pairs`` False counts single hands only (a pending
    called trump would take the choice of card from its holder).
    Returns (tricks, W = the lowest run card counted)."""
    theirs = 0
    for p in range(4):
        if side[p] != which:
            theirs |= suit_bits(hands[p], trump)
    top = hibit(theirs) + 1 if theirs else 0
    best = 0
    wb = 0
    for a in range(4):
        if side[a] != which:
            continue
        ta = suit_bits(hands[a], trump)
        ra = ta >> top << top
        na = popcount(ra)
        if na > best:
            best = na
            wb = ra & -ra
        la = popcount(ta) - na
        for b in range(4 if pairs else 0):
            if b == a or side[b] != which:
                continue
            rb = suit_bits(hands[b], trump) >> top << top
            nb = popcount(rb)
            if nb == 0 or la < nb or na + nb <= best:
                continue
            best = na + nb
            both = ra | rb
            wb = both & -both
    return best, wb << (16 * trump)


@njit(cache=True, _nrt=False, forceinline=True)
def gen_moves(hands, p, pos, lead_suit, alive, pend, called_bit, holder, discard_ok, mv, run, d):
    """Legal moves of seat ``p``, one per run of equivalent cards (its lowest card), with the
    run's mask, into row ``d`` of ``mv``/``run`` (rows, not slices: a slice is a new array
    whose reference count numba updates on every call). Applies the called-card obligation.
    Returns the number of moves."""
    h = hands[p]
    obliged = pend == 1 and p == holder
    if pos > 0:
        lh = suit_bits(h, lead_suit)
        if lh:
            if obliged and lead_suit == (called_bit >> 4):
                # first lead of the called suit: the holder must play the called card
                mv[d, 0] = called_bit
                run[d, 0] = 1 << called_bit
                return 1
            lo_s = lead_suit
            hi_s = lead_suit + 1
        else:
            lo_s = 0
            hi_s = 4
    else:
        lo_s = 0
        hi_s = 4
    n = 0
    for s in range(lo_s, hi_s):
        mine = suit_bits(h, s)
        if mine == 0:
            continue
        special = -1
        if obliged and (called_bit >> 4) == s:
            cb = 1 << (called_bit & 15)
            if pos == 0:
                # the holder leading the called suit must lead the called card
                mv[d, n] = called_bit
                run[d, n] = 1 << called_bit
                n += 1
                continue
            # the called card is never equivalent to its neighbours
            mine &= ~cb
            if discard_ok or popcount(h) == 1:
                special = called_bit
        sep = suit_bits(alive, s) & ~mine
        rest = mine
        while rest:
            x = rest & -rest
            above = sep & ~((x << 1) - 1)
            if above:
                lim = above & -above
                r = mine & (lim - 1) & ~(x - 1)
            else:
                r = mine & ~(x - 1)
            mv[d, n] = 16 * s + ctz(x)
            run[d, n] = r << (16 * s)
            n += 1
            rest &= ~r
        if special >= 0:
            mv[d, n] = special
            run[d, n] = 1 << special
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def later_best(hands, p, pos, ls, trump):
    """The best card the players after ``p`` in this trick can offer in a trick led in suit
    ``ls``: each offers his highest card of ``ls``, or when void his highest trump. Returns
    (seat, card bit), or (-1, -1) when no later player can offer one. Cards of the led suit and
    trumps are totally ordered by ``beats``, so the order of the players does not matter."""
    bs = -1
    bb = -1
    for k in range(1, 4 - pos):
        q = (p + k) & 3
        hs = suit_bits(hands[q], ls)
        tr = suit_bits(hands[q], trump) if trump != NT and ls != trump else 0
        if hs != 0:
            cand = 16 * ls + hibit(hs)
        elif tr != 0:
            cand = 16 * trump + hibit(tr)
        else:
            continue
        if bs < 0 or beats(cand, bb, trump):
            bs = q
            bb = cand
    return bs, bb


@njit(cache=True, _nrt=False, forceinline=True)
def predict_win(p, pos, x, wseat, wbit, lseat, lbit, trump, side):
    """Guess whether p's side wins the trick if p plays card bit ``x`` now, given the best
    card (``lseat``, ``lbit``; see later_best) the later players can offer: the side holding
    the best card of all wins. A partner who plays later can still cover an opponent's card,
    so asking only "can the losing side win cheaply" misjudges discards. Only a heuristic for
    move ordering."""
    if pos == 0 or beats(x, wbit, trump):
        ws = p
        wb = x
    else:
        ws = wseat
        wb = wbit
    if lseat >= 0 and beats(lbit, wb, trump):
        ws = lseat
    return side[ws] == side[p]


@njit(cache=True, _nrt=False, forceinline=True)
def order_moves(
    hands,
    p,
    pos,
    lead_suit,
    wseat,
    wbit,
    trump,
    side_max,
    fam,
    decl_need,
    alive,
    hist,
    tt_move,
    mv,
    run,
    d,
    n,
    wt,
):
    """Sort the moves best-first by a heuristic weight (never affects results, only speed)."""
    me = side_max[p]
    # misere-like phase (the lone declarer must lose every remaining trick): the declarer
    # ducks and the defenders push; otherwise both sides play for tricks
    wants = fam == 0 or decl_need > 0
    left = popcount(hands[p])
    lseat = -1
    lbit = -1
    lsuit = -1
    if wants and pos > 0:
        lseat, lbit = later_best(hands, p, pos, lead_suit, trump)
    # the leads that cut off last at this depth, in the sibling positions searched just
    # before (another card in an earlier trick), often cut off here too: 6% fewer nodes on
    # >=7, 3.5% on exact counts. At the other three seats the same bonus overrode the card
    # heuristics and multiplied the nodes.
    k1 = hist[LEAD_KILLER + d] if pos == 0 else 0
    k2 = hist[LEAD_KILLER_2 + d] if pos == 0 else 0
    for i in range(n):
        b = mv[d, i]
        s = b >> 4
        r = b & 15
        top_of_run = hibit(run[d, i]) & 15
        a_s = suit_bits(alive, s)
        topcard = hibit(a_s)
        w = 0
        if wants:
            if pos == 0 and s != lsuit:
                # moves come grouped by suit: one later_best per suit led
                lsuit = s
                lseat, lbit = later_best(hands, p, pos, s, trump)
            win = predict_win(p, pos, b, wseat, wbit, lseat, lbit, trump, side_max)
            if pos == 0:
                # suits where the opponents have few cards leave them few replies (a void
                # counts as many: it may discard anything), which keeps proofs small
                opp_count = 0
                for q in range(4):
                    if side_max[q] != me:
                        ln = popcount(suit_bits(hands[q], s))
                        opp_count += 4 * ln if ln > 0 else 4 * left + 4
                w = -(opp_count * 32) // 15
                if win:
                    w += 50
                    if top_of_run != topcard:
                        w += 5  # a low card to a partner's winner keeps our own high cards
                else:
                    ours = side_holding(hands, side_max, me, s)[0]
                    rest = ours & ~(1 << r)
                    if rest != 0 and popcount((a_s & ~ours) >> (hibit(rest) + 1)) == 1:
                        # a lead that knocks out the one card of theirs above our best other
                        # card of the suit (the king from K-Q against the ace) sets up that card
                        w += 20
                w -= r >> 1
            else:
                if win:
                    w = 60 + 15 - r
                else:
                    w = 20 - r
                    if s == (lbit >> 4) and side_max[lseat] != me:
                        # the one card above b that is not our side's beats it: b forces it
                        # out (the queen from K-Q-x under the ace) and our higher card is top
                        above = a_s >> (r + 1)
                        mine_above = side_holding(hands, side_max, me, s)[0] >> (r + 1)
                        if mine_above != 0 and popcount(above & ~mine_above) == 1:
                            w = 45 - r
                if s != lead_suit:
                    if s == trump:
                        if not win or not beats(b, wbit, trump):
                            w -= 25  # a trump that does not win the trick is wasted
                    else:
                        # discard from long suits, keep masters
                        w += 2 * popcount(suit_bits(hands[p], s))
                        if top_of_run == topcard:
                            w -= 15
        else:
            # --- losing-trick heuristics (misere): the declarer ducks, defenders push ---
            if me == 1:
                if pos == 0:
                    w = 50 - r
                    # a card above every other card of the suit would win: lead it last
                    others = a_s & ~suit_bits(hands[p], s)
                    if others == 0 or hibit(others) < r:
                        w -= 40
                elif s == lead_suit and (wbit >> 4) == s:
                    if b < wbit:
                        w = 60 + r  # highest card that still loses
                    else:
                        w = r - 20
                else:
                    w = 40 + r  # discard the most dangerous (highest) card
            else:
                decl_played = False
                for k in range(1, pos + 1):
                    q = (p - k) & 3
                    if side_max[q] == 1:
                        decl_played = True
                if pos == 0:
                    w = 50 - r
                elif decl_played:
                    if side_max[wseat] == 1:
                        # he is winning: stay under him, keeping low cards for later
                        w = 60 + r if not beats(b, wbit, trump) else -r
                    else:
                        w = 30 + r
                else:
                    w = 50 - r
        # history: moves that often refuted or won before, anywhere in the tree; only a
        # tie-breaker (a quarter of its log weight): at full weight it overrode the card
        # heuristics above and cost 3% nodes on exact counts, 5% on >=7
        hv = hist[p * 64 + b]
        if hv > 0:
            w += (63 - clz(hv)) // 4 if hv > 1 else 1
        if tt_move >= 0 and (run[d, i] >> tt_move) & 1:
            w += 100
        if k1 > 0 and (run[d, i] >> (k1 - 1)) & 1:
            w += 15
        if k2 > 0 and (run[d, i] >> (k2 - 1)) & 1:
            w += 7
        wt[i] = w
    # insertion sort, descending weight (stable)
    for i in range(1, n):
        kw = wt[i]
        km = mv[d, i]
        kr = run[d, i]
        j = i - 1
        while j >= 0 and wt[j] < kw:
            wt[j + 1] = wt[j]
            mv[d, j + 1] = mv[d, j]
            run[d, j + 1] = run[d, j]
            j -= 1
        wt[j + 1] = kw
        mv[d, j + 1] = km
        run[d, j + 1] = kr


@njit(cache=True, _nrt=False, forceinline=True)
def trump_tricks(hands, trump, side, which):
    """Tricks side ``which`` surely wins with the trumps of one of its hands h.

    Each of h's trumps is played in a different trick, and every such trick is won by a
    trump: ours, unless an opponent plays a higher trump into it - and each opponent trump can
    do that once, only to an h trump below it. So the side wins at least len(h) minus the
    largest matching of opponent trumps to lower h trumps. Returns (tricks, W): W is h's lowest
    trump when a rank comparison was involved (the matching only looks at cards above it)."""
    theirs = 0
    for p in range(4):
        if side[p] != which:
            theirs |= suit_bits(hands[p], trump)
    best = 0
    best_w = 0
    for p in range(4):
        if side[p] != which:
            continue
        mine = suit_bits(hands[p], trump)
        ln = popcount(mine)
        if ln <= best:
            continue
        # greedy maximum matching: each opponent trump (ascending) takes the lowest of h's
        # trumps below it that is still free
        free = mine
        matched = 0
        o = theirs
        while o != 0:
            ob = o & -o
            cand = free & (ob - 1)
            if cand != 0:
                free ^= cand & -cand
                matched += 1
            o ^= ob
        t = ln - matched
        if t > best:
            best = t
            low = mine & -mine
            # opponents' trumps all below h's lowest: lengths alone decide, no W needed
            best_w = (low << (16 * trump)) if (theirs & ~(low - 1)) != 0 else 0
    return best, best_w


@njit(cache=True, _nrt=False, forceinline=True)
def sure_trump_tricks(hands, trump, side, which, pairs):
    """The better of later_tricks and trump_tricks for side ``which``: (tricks, W)."""
    lt, lw = later_tricks(hands, trump, side, which, pairs)
    tl, tw = trump_tricks(hands, trump, side, which)
    if tl > lt:
        return tl, tw
    return lt, lw


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


@njit(cache=True, _nrt=False, forceinline=True)
def side_holding(hands, side, x, s):
    """Suit ``s`` seen from side ``x``: (its cards there, the other side's cards there,
    the longest holding of one ``x`` hand)."""
    ours = 0
    theirs = 0
    longest = 0
    for q in range(4):
        hs = suit_bits(hands[q], s)
        if side[q] == x:
            ours |= hs
            ln = popcount(hs)
            if ln > longest:
                longest = ln
        else:
            theirs |= hs
    return ours, theirs, longest


@njit(cache=True, _nrt=False, forceinline=True)
def seat_of(hands, b):
    """The seat holding card bit ``b``, or -1 when no hand holds it."""
    for p in range(4):
        if (hands[p] >> b) & 1:
            return p
    return -1


@njit(cache=True, _nrt=False, forceinline=True)
def sure_one_trick(hands, leader, trump, side, x, rem, called_bit, holder, pend, discard_ok):
    """True (with W) if the side opposing ``x`` is sure of a trick, for when ``x`` needs every
    remaining trick. Two sound cases, both only when ``x`` holds no trumps (so it cannot ruff):

    * stoppers: the other side holds the top card of some suits. An opponent holding the tops
      of j of them keeps those cards to the end (he only parts with one when nothing else is
      left), and wins any trick led in such a suit while he holds its top; so tricks in these
      suits can only come in the last j - 1 tricks. Every other trick is led in a suit t, and
      each uses a card of t from every x hand that still has one: x gets at most
      sum over the other suits of its longest holding + max over opponents of (j - 1);
    * the lead: ``x`` is on lead and, in every suit the leader holds, the top card is the
      other side's - with no trumps anywhere, it wins whatever is led.

    A pending called card binds its holder: on the called suit's first lead he must play the
    called card rather than that suit's top card, and when he may not discard the called card
    he can be forced to discard a top card. Suits whose top card he holds are not trusted."""
    x_trumps = 0
    any_trumps = 0
    if trump != NT:
        for p in range(4):
            t = suit_bits(hands[p], trump)
            any_trumps |= t
            if side[p] == x:
                x_trumps |= t
    if x_trumps != 0:
        return False, 0
    total = 0  # x's longest holdings over the suits that are not stoppers
    stop_w = 0
    tops_held = 0  # stoppers per opponent seat, 4 bits each
    lead_ok = side[leader] == x and any_trumps == 0
    lead_w = 0
    for s in range(4):
        mine, theirs, longest = side_holding(hands, side, x, s)
        a = mine | theirs
        stopper = False
        if a != 0:
            top = hibit(a)
            if ((mine >> top) & 1) == 0:
                owner = seat_of(hands, 16 * s + top)
                trusted = not (
                    pend == 1
                    and owner == holder
                    and (s == (called_bit >> 4) or not discard_ok)
                    and 16 * s + top != called_bit
                )
                if trusted:
                    stopper = True
                    stop_w |= 1 << (16 * s + top)
                    tops_held += 1 << (4 * owner)
                    if suit_bits(hands[leader], s) != 0:
                        lead_w |= 1 << (16 * s + top)
        if not stopper:
            total += longest
            if suit_bits(hands[leader], s) != 0:
                lead_ok = False
    if stop_w != 0:
        extra = 0
        for p in range(4):
            j = (tops_held >> (4 * p)) & 15
            if j - 1 > extra:
                extra = j - 1
        if total + extra < rem:
            return True, stop_w
    if lead_ok:
        return True, lead_w
    return False, 0


@njit(cache=True, _nrt=False, forceinline=True)
def ducks_to_the_end(hands, x):
    """Can the lone declarer ``x``, not on lead at no trump, lose every remaining trick?

    Yes when every suit of his is safe: for each of his cards y, the other hands hold no more
    cards below y than he does. Then he can always follow under the card that is winning the
    trick (his own highest card below it), which keeps every suit safe - removing that card
    and a card above it leaves each count below y as it was or lower for the others - and
    discarding never wins. Never winning, he never leads. Returns (yes, W): a bottom W that
    fixes, per suit he holds, every card up to his highest (the test reads nothing above)."""
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    wb = 0
    for s in range(4):
        mine = suit_bits(hands[x], s)
        if mine == 0:
            continue
        if not suit_is_safe(mine, suit_bits(alive, s) & ~mine):
            return False, 0
        wb |= (1 << hibit(mine)) << (16 * s)
    return True, wb


@njit(cache=True, _nrt=False, forceinline=True)
def forced_to_win(hands, leader, x, skip):
    """Must the lone declarer ``x`` win the trick a defender ``leader`` leads at no trump?

    Yes when the leader holds a suit in which ``x`` has cards and every defender holding
    that suit has a card below x's lowest: the defenders play those, and x must follow above
    all of them. Suit ``skip`` (a pending called card's suit, whose holder may have to play
    that card instead; -1 for none) is not used. Returns (yes, W): a bottom W up to x's
    lowest card of that suit."""
    for s in range(4):
        if s != skip and suit_bits(hands[leader], s) != 0 and forced_in_suit(hands, x, s):
            mine = suit_bits(hands[x], s)
            return True, (mine & -mine) << (16 * s)
    return False, 0


@njit(cache=True, _nrt=False, forceinline=True)
def second_hand_cut(hands, p, leader, lead, trump, side, need, rem, c):
    """Sure tricks for the side of ``p``, the second hand of a trick whose lead ``lead`` was
    played by ``leader``, ``need`` = tricks MAX still wants of the ``rem`` left (this one
    included), ``c`` = MAX's tricks so far. Returns (settled, value, W).

    The side surely wins this trick when no opponent still to play can ruff and either one
    of its hands still to play can ruff (void in the suit led, holding trumps) or the side
    holds the highest card of the suit led among the lead and the cards of the hands still
    to play (the lead itself when a partner led it). That is one trick. The hand that wins
    it then leads: with trumps, it takes a round with each of its trumps above every other
    trump; once those have drawn the opponents' trumps (or without trumps), also the next
    round of the suit led if it holds the two highest cards left there, the top card of each
    other suit it holds, and every card of a suit no other hand holds. Settling here saves
    playing out the rest of the trick before the trick-start bounds see the same (DDS checks
    the second hand likewise)."""
    me = side[p]
    cutoff = need if me == 1 else rem - need + 1
    ls = lead >> 4
    ruffs = trump != NT and ls != trump
    # a partner's lead is ours: it may win the trick itself
    mates = side[leader] == me
    ours = (1 << (lead & 15)) if mates else 0
    theirs = 0 if mates else 1 << (lead & 15)
    ruffer = -1
    for k in range(3):
        q = (p + k) & 3
        hs = suit_bits(hands[q], ls)
        can_ruff = ruffs and hs == 0 and suit_bits(hands[q], trump) != 0
        if side[q] == me:
            ours |= hs
            if can_ruff:
                ruffer = q
        else:
            if can_ruff:
                return False, 0, 0
            theirs |= hs
    w = 0
    top = -1
    hh = ruffer
    if hh < 0:
        if ours == 0 or (theirs != 0 and hibit(ours) < hibit(theirs)):
            return False, 0, 0
        top = hibit(ours)
        w = 1 << (16 * ls + top)
        hh = leader
        for k in range(3):
            q = (p + k) & 3
            if side[q] == me and (suit_bits(hands[q], ls) >> top) & 1:
                hh = q
    got = 1
    if got < cutoff:
        # the winner of this trick leads the next ones
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        drawn = True
        if trump != NT:
            # his trumps above every other trump (without the one he wins this trick with:
            # his lowest when he ruffs) win a round each; once that leaves the opponents
            # none, nothing of his can be ruffed
            mt = suit_bits(hands[hh], trump)
            oth = suit_bits(alive, trump) ^ mt
            longest = side_holding(hands, side, 1 - me, trump)[2]
            if ruffer >= 0:
                mt &= mt - 1
            elif ls == trump and (mt >> top) & 1:
                mt ^= 1 << top
            run = mt >> (hibit(oth) + 1) << (hibit(oth) + 1) if oth else mt
            if run:
                got += popcount(run)
                w |= (run & -run) << (16 * trump)
            drawn = longest <= popcount(run)
        if drawn and got < cutoff:
            alive_ls = suit_bits(alive, ls)
            mine = suit_bits(hands[hh], ls)
            rest = alive_ls ^ (1 << hibit(alive_ls)) if alive_ls else 0
            if (
                ls != trump
                and ruffer < 0
                and (mine >> top) & 1
                and hibit(alive_ls) == top
                and rest != 0
            ):
                second = hibit(rest)
                if (mine >> second) & 1:
                    got += 1
                    w |= 1 << (16 * ls + second)
            for s in range(4):
                if got >= cutoff:
                    break
                hs = suit_bits(hands[hh], s)
                if s == ls or s == trump or hs == 0:
                    continue
                others = suit_bits(alive, s) ^ hs
                if others == 0:
                    got += popcount(hs)  # a suit no other hand holds
                elif hibit(hs) > hibit(others):
                    got += 1
                    w |= 1 << (16 * s + hibit(hs))
    if got < cutoff:
        return False, 0, 0
    return True, (c + got) if me == 1 else (c + rem - got), w


@njit(cache=True, _nrt=False, forceinline=True)
def qt_ceiling(hands, leader, trump, side):
    """An upper bound of quick_tricks for the leader's side: every counted round is led by
    one hand of the side and won in its suit, so a suit adds at most the side's longest
    holding, and nothing when an opponent holds its top card (the first round could lose).
    In a suit where the opponents hold cards, run_suit assumes each defender keeps his top
    card while he can follow, so while the holder of their highest card follows, a round
    needs one of our cards above it: such a suit adds at most those cards' number when he
    holds more of the suit. A ruff (ruff_plan) adds one trick in a suit whose top card the
    opponents may hold."""
    me = side[leader]
    tot = 0
    for s in range(4):
        ours, theirs, longest = side_holding(hands, side, me, s)
        if ours > theirs:
            if theirs == 0:
                tot += longest
                continue
            # while the opponent holding their top card of s can follow, a round is won only
            # by one of our t cards above it: t rounds, unless he runs out first
            top = hibit(theirs)
            t = popcount(ours >> (top + 1))
            lx = popcount(suit_bits(hands[seat_of(hands, 16 * s + top)], s))
            tot += longest if lx <= t else min(t, longest)
        elif ours != 0 and s != trump and trump != NT:
            tot += 1  # a lead in s for a partner to ruff (ruff_plan)
    return tot


@njit(cache=True, _nrt=False, forceinline=True)
def trick_bounds(hands, p, trump, side_max, c, need, rem, called_bit, holder, pend, discard_ok):
    """Cheap sure-trick bounds at a trick start (FAM_T). Returns (settled, value, W)."""
    # the trump bounds first: they cost a fraction of quick_tricks, and settling a node
    # with them spares its call (time 0.97 on exact counts and rik >=8)
    if trump != NT:
        pairs = not (pend == 1 and (called_bit >> 4) == trump)
        # the trump bounds never exceed the side's trump count: skip a side whose trumps
        # could not settle the node anyway
        max_trumps, min_trumps, _ = side_holding(hands, side_max, 1, trump)
        if popcount(max_trumps) >= need:
            lt, lw = sure_trump_tricks(hands, trump, side_max, 1, pairs)
            if lt >= need:
                return True, c + lt, lw
        if rem - popcount(min_trumps) < need:
            lt, lw = sure_trump_tricks(hands, trump, side_max, 0, pairs)
            if rem - lt < need:
                return True, c + rem - lt, lw
    # quick tricks only settle the node when they reach `decisive`; their count never
    # exceeds qt_ceiling, which is far cheaper to compute
    decisive = need if side_max[p] == 1 else rem - need + 1
    if qt_ceiling(hands, p, trump, side_max) >= decisive:
        q, qw = quick_tricks(hands, p, trump, side_max, called_bit, holder, pend, decisive)
        if side_max[p] == 1:
            if q >= need:
                return True, c + q, qw
        elif rem - q < need:
            return True, c + rem - q, qw
    if need == rem:
        # MAX needs every trick: does MIN surely get one?
        ok, w1 = sure_one_trick(
            hands, p, trump, side_max, 1, rem, called_bit, holder, pend, discard_ok
        )
        if ok:
            return True, c + rem - 1, w1
    if need == 1:
        # MIN needs every trick: does MAX surely get one?
        ok, w1 = sure_one_trick(
            hands, p, trump, side_max, 0, rem, called_bit, holder, pend, discard_ok
        )
        if ok:
            return True, c + 1, w1
    return False, 0, 0


@njit(cache=True)
def search(
    hands0,
    trump,
    leader0,
    side_max,
    side_cnt,
    fam,
    goal,
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
    max_nodes,
):
    """Null-window search from a trick boundary, returning a fail-soft value.

    FAM_T: the value counts the tricks of the counted side (= MAX side) over the whole play
    from here; ``v >= beta`` means MAX reaches ``beta`` and ``v`` is then a lower bound of the
    true value, otherwise an upper bound. FAM_E: 1 if the lone declarer (MAX and counted) ends
    with exactly ``goal`` tricks from here, else 0 (call with beta = 1).
    ``tt``/``tb`` are the transposition table arrays; entries of other generations are empty.
    ``killer`` (int64[KILLER_SIZE]) holds the move-ordering history and the leads that cut
    off per depth (see LEAD_KILLER); solve_one clears it for each position.
    ``max_nodes`` > 0 abandons the search after that many nodes and returns ABANDONED
    (entries stored until then are proven and stay valid).
    """
    stats[S_SEARCHES] += 1
    hands = hands0.copy()
    n0 = popcount(hands[0])
    total = 4 * n0
    nb = tt.shape[0] // TT_WAYS
    mv = np.empty((total + 1, 14), np.int64)
    run = np.empty((total + 1, 14), np.int64)
    wt = np.empty(14, np.int64)
    nmv = np.zeros(total + 1, np.int64)
    imv = np.zeros(total + 1, np.int64)
    res = np.zeros(total + 1, np.int64)
    wacc = np.zeros(total + 1, np.int64)
    waccb = np.zeros(total + 1, np.int64)
    card = np.zeros(total + 1, np.int64)
    seat_at = np.zeros(total + 1, np.int64)
    wseat = np.zeros(total + 1, np.int64)
    wbit = np.zeros(total + 1, np.int64)
    cnt = np.zeros(total + 2, np.int64)
    pend = np.zeros(total + 2, np.int64)
    trickb = np.zeros(total + 1, np.int64)  # the highest card a trick's winner beat, or -1
    searched = np.zeros(total + 1, np.int64)
    t_key = np.zeros(total + 1, np.int64)
    t_aux = np.zeros(total + 1, np.int64)
    t_tag = np.zeros(total + 1, np.int64)
    t_c0 = np.zeros(total + 1, np.int64)
    t_c1 = np.zeros(total + 1, np.int64)
    t_base = np.zeros(total + 1, np.int64)
    t_base_top = np.zeros(total + 1, np.int64)
    best = np.full(total + 1, -1, np.int64)
    lowwin = np.zeros((total + 1, 4), np.int64)
    highwin = np.zeros((total + 1, 4), np.int64)

    # the smaller misère game's results (misere_proof), for the misère-like phases only
    rx_k, rx_v = new_memo(RX_MEMO_BITS if fam == FAM_E and trump == NT else 0)
    rx_cnt = np.zeros(2, np.int64)
    # the check and generation bytes, eight slots a word (tt_probe, tt_store)
    tagw = tb[B_TAG].view(np.uint64)
    genw = tb[B_GEN].view(np.uint64)

    pend[0] = pend0
    called_suit = called_bit >> 4 if called_bit >= 0 else -1
    nodes_here = 0
    lone_decl = 0  # FAM_E: the one MAX seat
    for q in range(4):
        if side_max[q] == 1:
            lone_decl = q
    d = 0
    descending = True
    v = 0
    w = 0
    wb = 0  # W is two-sided: top cut-off cards in w, bottom cut-off cards in wb
    while True:
        settled = False
        if descending:
            descending = False
            stats[S_NODES] += 1
            if max_nodes > 0:
                nodes_here += 1
                if nodes_here > max_nodes:
                    return ABANDONED
            pos = d & 3
            if pos == 0:
                p = leader0 if d == 0 else wseat[d - 1]
            else:
                p = (seat_at[d - 1] + 1) & 3
            seat_at[d] = p
            searched[d] = 0
            best[d] = -1
            tt_move = -1
            if pos == 0:
                stats[S_TRICK_NODES] += 1
                rem = n0 - (d >> 2)
                c = cnt[d]
                w = 0
                wb = 0
                rx_here = False
                if fam == FAM_T:
                    need = beta - c
                    if need <= 0:
                        v = c
                        settled = True
                    elif need > rem:
                        v = c + rem
                        settled = True
                else:
                    need = goal - c
                    if need < 0 or need > rem:
                        v = 0
                        settled = True
                    elif rem == 0:
                        v = 1
                        settled = True
                    elif (
                        need == 0
                        and side_max[p] == 0
                        and trump == NT
                        and not (pend[d] == 1 and holder == lone_decl)
                    ):
                        # misere phase, a defender on lead, no trumps (a trump could be forced
                        # to win), and no called card the declarer must still play (it could
                        # be forced to win): without this a safe hand is only proved by
                        # searching every defence to the last trick
                        settled, wb = ducks_to_the_end(hands, lone_decl)
                        if settled:
                            v = 1
                        else:
                            skip = called_suit if pend[d] == 1 else -1
                            settled, wb = forced_to_win(hands, p, lone_decl, skip)
                            v = 0
                        # neither: the smaller game may still prove it (after the table)
                        rx_here = not settled and rem >= RX_MIN_REM
                if not settled and rem == 1:
                    # last trick: one card each, the play is forced
                    ws_ = p
                    wb_ = ctz(hands[p])
                    for k in range(1, 4):
                        q = (p + k) & 3
                        b = ctz(hands[q])
                        if beats(b, wb_, trump):
                            ws_ = q
                            wb_ = b
                    beaten = highest_beaten(
                        ctz(hands[0]), ctz(hands[1]), ctz(hands[2]), ctz(hands[3]), wb_
                    )
                    if beaten >= 0:
                        alive = hands[0] | hands[1] | hands[2] | hands[3]
                        w, wb = trick_w(alive, 0, 0, wb_, beaten, w_mode(fam, need))
                    got = side_cnt[ws_]
                    if fam == FAM_T:
                        v = c + got
                    else:
                        v = 1 if got == need else 0
                    settled = True
                if not settled:
                    alive = hands[0] | hands[1] | hands[2] | hands[3]
                    if d == 0:
                        key = length_key(hands[0], hands[1], hands[2], hands[3])
                        c0, c1 = owner_codes(hands[0], hands[1], hands[2], hands[3])
                    else:
                        # the trick start before this one was searched (it has children),
                        # so its key and codes are in t_key / t_c0 / t_c1
                        key, c0, c1 = after_trick(
                            t_key[d - 4],
                            t_c0[d - 4],
                            t_c1[d - 4],
                            alive,
                            card,
                            seat_at,
                            d - 4,
                        )
                    crel = 0
                    if pend[d] == 1:
                        crel = popcount(suit_bits(alive, called_suit) >> (called_bit & 15))
                    tneed = need if fam == FAM_T else 1
                    aux = p | (pend[d] << 2) | (crel << 3) | ((need if fam == FAM_E else 0) << 8)
                    # a pending duty also names its suit: searches of one deal for different
                    # called cards share the table (solve_range), and their entries may
                    # only meet once the called card is gone
                    aux |= (pend[d] * called_suit) << 12
                    aux |= gen << 16
                    base = tt_bucket(key, aux, nb)
                    base_top = tt_bucket(key, aux ^ (top_owners(c0, c1, alive) << 40), nb)
                    tag = tt_tag(key, aux)
                    # the shape bucket first: it decides about twice as many probes as the
                    # top-card bucket (exact counts of the benchmark deals: 5.9M against 2.5M)
                    st, e, like = tt_probe(tt, tagw, base, key, aux, tag, c0, c1, tneed)
                    if st < 0:
                        e_shape = e
                        like_shape = like
                        st, e, like = tt_probe(tt, tagw, base_top, key, aux, tag, c0, c1, tneed)
                        if st < 0 and like_shape >= like:
                            e = e_shape
                    if st >= 0:
                        stats[S_TT_HITS] += 1
                        if fam == FAM_T:
                            e_lb, e_ub, _ = entry_bounds(tt, e)
                            v = c + (e_lb if st == 1 else e_ub)
                        else:
                            v = st
                        w, wb = w_from_masks(tt[e, C_M0], tt[e, C_M1], alive)
                        settled = True
                    else:
                        if e >= 0:
                            tt_move = entry_bounds(tt, e)[2]
                        if fam == FAM_T:
                            settled, v, w = trick_bounds(
                                hands,
                                p,
                                trump,
                                side_max,
                                c,
                                need,
                                rem,
                                called_bit,
                                holder,
                                pend[d],
                                discard_ok,
                            )
                            if settled:
                                stats[S_QT_CUTS] += 1
                        elif rx_here:
                            rx0 = rx_cnt[0]
                            settled, w, wb = misere_safe(
                                hands, lone_decl, rx_k, rx_v, rx_cnt, RX_NODES
                            )
                            stats[S_RX_NODES] += rx_cnt[0] - rx0
                            v = 1
                        if not settled:
                            searched[d] = 1
                            t_key[d] = key
                            t_aux[d] = aux
                            t_tag[d] = tag
                            t_c0[d] = c0
                            t_c1[d] = c1
                            t_base[d] = base
                            t_base_top[d] = base_top
            elif pos == 1 and fam == FAM_T and pend[d] == 0:
                settled, v, w = second_hand_cut(
                    hands,
                    p,
                    seat_at[d - 1],
                    card[d - 1],
                    trump,
                    side_max,
                    beta - cnt[d],
                    n0 - (d >> 2),
                    cnt[d],
                )
                if settled:
                    wb = 0
                    stats[S_QT_CUTS] += 1
            if not settled:
                # alive: cards still in hands plus those on the table in this trick
                alive = hands[0] | hands[1] | hands[2] | hands[3]
                for k in range(d - pos, d):
                    alive |= 1 << card[k]
                lead_suit = card[d - pos] >> 4 if pos > 0 else -1
                n = gen_moves(
                    hands,
                    p,
                    pos,
                    lead_suit,
                    alive,
                    pend[d],
                    called_bit,
                    holder,
                    discard_ok,
                    mv,
                    run,
                    d,
                )
                if n > 1:
                    dn = goal - cnt[d] if fam == FAM_E else 1
                    ws_ = wseat[d - 1] if pos > 0 else p
                    wb_ = wbit[d - 1] if pos > 0 else 0
                    order_moves(
                        hands,
                        p,
                        pos,
                        lead_suit,
                        ws_,
                        wb_,
                        trump,
                        side_max,
                        fam,
                        dn,
                        alive,
                        killer,
                        tt_move,
                        mv,
                        run,
                        d,
                        n,
                        wt,
                    )
                nmv[d] = n
                imv[d] = 0
                for s in range(4):
                    lowwin[d, s] = 0
                    highwin[d, s] = -1
                res[d] = -1 if side_max[p] == 1 else 99
                wacc[d] = 0
                waccb[d] = 0
        if not settled:
            # skip moves proven equivalent to a failed sibling: their whole run lies between
            # the cards that mattered in that sibling's proof (see lowwin below)
            while imv[d] < nmv[d]:
                b = mv[d, imv[d]]
                r = run[d, imv[d]]
                if (hibit(r) & 15) >= lowwin[d, b >> 4] or (b & 15) <= highwin[d, b >> 4]:
                    break
                imv[d] += 1
            if imv[d] < nmv[d]:
                # play the next move of node d
                b = mv[d, imv[d]]
                imv[d] += 1
                p = seat_at[d]
                pos = d & 3
                hands[p] ^= 1 << b
                card[d] = b
                if pos == 0 or beats(b, wbit[d - 1], trump):
                    wseat[d] = p
                    wbit[d] = b
                else:
                    wseat[d] = wseat[d - 1]
                    wbit[d] = wbit[d - 1]
                pend[d + 1] = pend[d] if b != called_bit else 0
                if pos == 3:
                    cnt[d + 1] = cnt[d] + side_cnt[wseat[d]]
                    # the winner's rank mattered only if it beat a card of its own suit
                    trickb[d] = highest_beaten(card[d - 3], card[d - 2], card[d - 1], b, wbit[d])
                else:
                    cnt[d + 1] = cnt[d]
                d += 1
                descending = True
                continue
            # every move tried without a cut-off: the best (fail-soft) value found
            v = res[d]
            w = wacc[d]
            wb = waccb[d]
        # node d is decided with (v, w): store it, then hand the answer up the stack
        while True:
            if searched[d] == 1:
                if pend[d] == 1:
                    # the obligation depends on which card is the called one
                    w |= 1 << called_bit
                w, wb = raise_w(w, wb, hands)
                rel = v - cnt[d] if fam == FAM_T else v
                tt_store(
                    tt,
                    tb,
                    tagw,
                    genw,
                    t_base[d],
                    t_base_top[d],
                    t_key[d],
                    t_aux[d],
                    t_tag[d],
                    t_c0[d],
                    t_c1[d],
                    w,
                    wb,
                    hands[0] | hands[1] | hands[2] | hands[3],
                    v >= beta,
                    rel,
                    n0 - (d >> 2),
                    best[d],
                    gen,
                )
                stats[S_TT_STORES] += 1
            if d == 0:
                return v
            d -= 1
            hands[seat_at[d]] ^= 1 << card[d]
            if (d & 3) == 3 and trickb[d] >= 0:
                alive = hands[0] | hands[1] | hands[2] | hands[3]
                for k in range(d - 3, d):
                    alive |= 1 << card[k]
                w, wb = trick_w(alive, w, wb, wbit[d], trickb[d], w_mode(fam, goal - cnt[d - 3]))
            ismax = side_max[seat_at[d]]
            if (v >= beta) == (ismax == 1):
                # cut-off: MAX reached beta, or MIN held MAX below it
                killer[seat_at[d] * 64 + card[d]] += 1 << (n0 - (d >> 2))
                if (d & 3) == 0 and killer[LEAD_KILLER + d] != card[d] + 1:
                    killer[LEAD_KILLER_2 + d] = killer[LEAD_KILLER + d]
                    killer[LEAD_KILLER + d] = card[d] + 1
                best[d] = card[d]
                continue
            if ismax == 1:
                if v > res[d]:
                    res[d] = v
            elif v < res[d]:
                res[d] = v
            # all-node so far: its answer depends on every child, and on the run of
            # equivalent cards this move stood for: the run must lie wholly inside or wholly
            # outside each fixed segment, so a cut-off inside the run moves to its end
            i = imv[d] - 1
            rn = run[d, i]
            if (w & rn & ~(1 << card[d])) != 0:
                w |= 1 << card[d]
            s = card[d] >> 4
            wbs = suit_bits(wb, s)
            if wbs and ((1 << (16 * s + hibit(wbs))) & rn) and hibit(wbs) != hibit(rn) & 15:
                wb |= 1 << hibit(rn)
            wacc[d] |= w
            waccb[d] |= wb
            # a failed move whose run lies between the cards of its suit that mattered so far
            # (below every top one, above every bottom one) proves the same for the other runs
            # there: later runs inside (high, low) are skipped
            if lowwin[d, s] == 0:
                ws = suit_bits(wacc[d], s)
                low = ctz(ws) if ws != 0 else 16
                wbs = suit_bits(waccb[d], s)
                high = hibit(wbs) if wbs != 0 else -1
                if (hibit(rn) & 15) < low and (card[d] & 15) > high:
                    lowwin[d, s] = low
                    highwin[d, s] = high
            break


# --- goals on top of the null-window search ---------------------------------------------

# node limit of one misere_safe call (its results are kept for the rest of the search)
RX_NODES = 5000
# misere_safe is tried from this many cards left: nearer the end the search itself is cheaper
RX_MIN_REM = 6

FIRST_GUESS = 7  # the exact count's first null window, in tricks of 13 (see solve_one)
GOAL_TRICKS = 0  # exact number of tricks of the declarer side
GOAL_GE = 1  # 1 if the declarer side can take at least `target` tricks
GOAL_MISERE = 2  # 1 if the lone declarer can avoid every trick
GOAL_PIEK = 3  # 1 if the lone declarer can take exactly one trick
UNDECIDED = -1  # result of a position abandoned at its node budget (max_nodes)
ABANDONED = -1000  # search's return value when it gives up

DEFAULT_TT_BITS = 18  # 2**18 entries * 67 bytes = 17.6 MB per thread, 2048 buckets
# A search that outgrows the default table starts again on a larger one. Almost every
# position needs far fewer nodes than ESCALATE_NODES and never pays for the larger table
# (allocating and touching it, and its cache misses); a rare one whose working set does not
# fit thrashes the small table: one 13-card deal took 135M nodes at 2**18 entries and 25M at
# 2**21. The restart keeps what the first attempt proved (move_entries): deal #77 of the
# benchmark searched 26.4M nodes when it restarted on an empty large table, 20.9M now.
ESCALATE_NODES = 4_000_000
BIG_TT_BITS = 21  # 2**21 entries * 67 bytes = 140 MB per thread, allocated on first need


@njit(cache=True)
def new_table(tt_bits):
    """Empty transposition table arrays: ``tt`` holds one 64-byte row per entry (shape key,
    aux, partition masks and values, packed bounds and best move: C_* columns), ``tb`` one
    byte per slot in each of its B_* rows (check byte, search generation, depth), which a
    bucket scan reads eight slots at a time."""
    size = 1 << tt_bits
    tt = np.zeros((size, TT_COLS), np.int64)
    tb = np.zeros((TB_ROWS, size), np.int8)
    return tt, tb


@njit(cache=True)
def solve_one(
    hands,
    trump,
    leader,
    decl_mask,
    goal,
    target,
    called,
    discard_ok,
    tt,
    tb,
    gen,
    killer,
    stats,
    max_nodes=0,
    lower=0,
    upper=13,
):
    """Solve one position (see analyser.solver.api.solve_batch for the meaning of the
    arguments). ``gen`` must be new for every call that shares ``tt``/``tb``. With
    ``max_nodes`` > 0 a search that needs more nodes gives up: the result is UNDECIDED.
    For the exact count, ``lower``/``upper`` are bounds the caller already knows (from
    earlier >=K answers): the null-window iteration starts between them."""
    side = np.zeros(4, np.int64)
    for p in range(4):
        side[p] = (decl_mask >> p) & 1
    called_bit = -1
    holder = -1
    if called >= 0:
        b = 16 * (called // 13) + called % 13
        holder = seat_of(hands, b)
        if holder >= 0:
            called_bit = b
    pend0 = 1 if holder >= 0 else 0
    for k in range(killer.shape[0]):
        killer[k] = 0
    n = popcount(hands[0])
    if goal == GOAL_MISERE or goal == GOAL_PIEK:
        # one yes/no search: the lone declarer needs exactly 0 / 1 tricks
        v = search(
            hands,
            trump,
            leader,
            side,
            side,
            FAM_E,
            0 if goal == GOAL_MISERE else 1,
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
            max_nodes,
        )
        return UNDECIDED if v == ABANDONED else v
    if goal == GOAL_GE:
        # >=K is one null window at K: the loop below with lo = K - 1 and hi = K. Its call
        # passes the trick family as the literals FAM_T, 0, so numba compiles one search
        # specialised for trick goals for both questions: 450 rik >=8 questions took about
        # 2% less time (2.92 s against 2.98 s, nine alternating runs) than in the search
        # compiled for any family.
        lo, hi, g = target - 1, target, target
    else:
        # exact count (MTD(f)): null windows around the current guess; each fail-soft answer
        # moves a bound, and the table keeps its bounds between the windows
        lo = max(0, lower)
        hi = min(n, upper)
        # Without known bounds the first window is at 7 of 13 tricks (scaled to the cards
        # left), whatever the hands. A guess from the side's top cards and trumps was further
        # off, and each window that overshoots leaves best moves for another target in the
        # table, which mislead the window that follows: deal #77 of the benchmark searched
        # 20.2M nodes from a guess of 10 and 13.6M from 7, the other 99 deals 6% fewer, 1 vs 3
        # positions 7% fewer.
        g = (FIRST_GUESS * n + 6) // 13
        # a known bound is the better first guess: the value is most often next to it (a rik
        # that made 8 mostly takes 8-10)
        if lower > 0:
            g = lo + 1
        elif upper < n:
            g = hi
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
            max_nodes,
        )
        if v == ABANDONED:
            return UNDECIDED
        if v >= beta:
            lo = v
        else:
            hi = v
        g = v
    if goal == GOAL_GE:
        return 1 if lo >= target else 0
    return lo


@njit(cache=True)
def first_budget(max_nodes, tt_bits, escalate_nodes):
    """Node budget per search for the attempt on a ``tt_bits`` table, given the caller's
    budget ``max_nodes`` (0 = none): ``escalate_nodes`` (normally ESCALATE_NODES; 0 = never
    escalate) while a larger table is still to come."""
    if (
        escalate_nodes <= 0
        or tt_bits >= BIG_TT_BITS
        or (max_nodes > 0 and max_nodes <= escalate_nodes)
    ):
        return max_nodes
    return escalate_nodes


@njit(cache=True)
def move_entries(tt, tb, big_tt, big_tb, gen):
    """Copy the entries of search generation ``gen`` from the table ``tt``/``tb`` into the
    larger ``big_tt``/``big_tb``, so a search started again there keeps what it proved.

    An entry whose partition fixes the top card of every suit present goes to the bucket of
    its shape and top-card owners (a position it matches has those owners, so a probe finds
    it there), any other to its shape's bucket."""
    gen8 = gen & 0x7F
    nb = big_tt.shape[0] // TT_WAYS
    big_genw = big_tb[B_GEN].view(np.uint64)
    for e in range(tt.shape[0]):
        if tb[B_GEN, e] != gen8 or (tt[e, C_AUX] >> 16) != gen:
            continue
        key = tt[e, C_KEY]
        aux = tt[e, C_AUX]
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
        f = victim_slot(big_tb, big_genw, base, gen8, tt[e, C_V0] ^ (3 * tt[e, C_V1]))
        for c in range(TT_COLS):
            big_tt[f, c] = tt[e, c]
        for r in range(TB_ROWS):
            big_tb[r, f] = tb[r, e]


@njit(cache=True)
def solve_escalating(
    hands,
    trump,
    leader,
    decl,
    goal,
    target,
    called,
    discard_ok,
    tt,
    tb,
    big_tt,
    big_tb,
    gen,
    killer,
    stats,
    max_nodes,
    lower,
    upper,
    tt_bits,
    escalate_nodes,
    keep_gen=False,
):
    """solve_one on the ``tt_bits`` table ``tt``/``tb``, and again on the large table when
    the search outgrows it (see :func:`first_budget`). ``big_tt``/``big_tb`` is the caller's
    large table, or a smaller placeholder: it is then allocated here, on first need. ``gen``
    is the last generation used; ``keep_gen`` searches in that generation again, keeping its
    entries (only for a position with the same hands, trump, leader and side as the one
    before, and a trick goal for both: see :func:`same_table`). Returns (result, last
    generation, large table arrays)."""
    budget = first_budget(max_nodes, tt_bits, escalate_nodes)
    big = False
    if not keep_gen:
        gen += 1
    while True:
        r = solve_one(
            hands,
            trump,
            leader,
            decl,
            goal,
            target,
            called,
            discard_ok,
            big_tt if big else tt,
            big_tb if big else tb,
            gen,
            killer,
            stats,
            max_nodes if big else budget,
            lower,
            upper,
        )
        if big or r != UNDECIDED or budget == max_nodes:
            return r, gen, big_tt, big_tb
        # the small table's limit, not the caller's budget: again on the large table
        if big_tt.shape[0] < (1 << BIG_TT_BITS):
            big_tt, big_tb = new_table(BIG_TT_BITS)
        # what the first attempt proved stays usable: same generation, entries moved over
        move_entries(tt, tb, big_tt, big_tb, gen)
        stats[S_ESCALATED] += 1
        big = True


@njit(cache=True, _nrt=False, forceinline=True)
def same_table(hands, trump, leader, decl, goal, i, j):
    """May position ``j`` search in the table generation of position ``i``? Yes when both
    are trick goals (>=K or exact: the entries bound the side's future tricks whatever the
    target) on the same hands, trump, leader and declarer side. Their called cards may
    differ: an entry whose position still owes a called card names that card's suit and
    rank (the table key), and one whose called card is gone holds for any call."""
    if goal[i] != GOAL_GE and goal[i] != GOAL_TRICKS:
        return False
    if goal[j] != GOAL_GE and goal[j] != GOAL_TRICKS:
        return False
    if trump[i] != trump[j] or leader[i] != leader[j] or decl[i] != decl[j]:
        return False
    for q in range(4):
        if hands[i, q] != hands[j, q]:
            return False
    return True


@njit(cache=True, nogil=True)
def solve_range(
    idx,
    hands,
    trump,
    leader,
    decl,
    goal,
    target,
    called,
    discard_ok,
    tt,
    tb,
    big_tt,
    big_tb,
    gen,
    killer,
    stats,
    max_nodes,
    lower,
    upper,
    tt_bits,
    escalate_nodes,
    out,
):
    """Solve the positions ``idx`` of a batch into ``out`` on one worker's tables, without
    the GIL: Python threads call this on blocks they take from a shared queue, so a worker
    that drew cheap positions takes more (the cost of a position varies by 10**4). Returns
    (last generation, large table arrays) as :func:`solve_escalating` does.

    A position that asks about the same deal and side as the one before it in ``idx``
    (:func:`same_table`: another called card, another target) searches on in that one's
    table generation: the rik >=8 questions of 200 deals of the benchmark's borderline rik
    hand (every trump and call) searched 7.4% fewer nodes (122.5M -> 113.4M)."""
    for j in range(idx.shape[0]):
        i = idx[j]
        keep = j > 0 and same_table(hands, trump, leader, decl, goal, idx[j - 1], i)
        r, gen, big_tt, big_tb = solve_escalating(
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
            big_tt,
            big_tb,
            gen,
            killer,
            stats,
            max_nodes,
            lower[i],
            upper[i],
            tt_bits,
            escalate_nodes,
            keep,
        )
        out[i] = r
    return gen, big_tt, big_tb


@njit(cache=True, parallel=True)
def solve_batch_kernel(
    hands,
    trump,
    leader,
    decl,
    goal,
    target,
    called,
    discard_ok,
    nthreads,
    tt_bits,
    max_nodes,
    lower,
    upper,
    escalate_nodes,
):
    """Solve many positions, interleaved over ``nthreads`` workers each owning a table (and
    a BIG_TT_BITS one once a position outgrows it, see ESCALATE_NODES)."""
    n = hands.shape[0]
    out = np.zeros(n, np.int8)
    for t in prange(nthreads):
        tt, tb = new_table(tt_bits)
        big_tt, big_tb = new_table(7)  # one bucket: a placeholder until a position needs it
        solve_range(
            np.arange(t, n, nthreads),
            hands,
            trump,
            leader,
            decl,
            goal,
            target,
            called,
            discard_ok,
            tt,
            tb,
            big_tt,
            big_tb,
            0,
            np.zeros(KILLER_SIZE, np.int64),
            np.zeros(N_STATS, np.int64),
            max_nodes,
            lower,
            upper,
            tt_bits,
            escalate_nodes,
            out,
        )
    return out


# Every function above compiles without numba's negative-index wraparound for arrays (why:
# "Cost per node" above; which numpy functions that allows: analyser/solver/plain_index.py).
compile_without_wraparound(globals())
