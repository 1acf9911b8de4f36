"""The klaverjas trick on bitmasks (numba): which card wins, which cards may be played, and
what cards are worth (docs/klaverjas.md KJ-04 … KJ-07).

A hand or a set of cards is an int64 bitmask with bit = the 32-card int (rules.py); a trick
is an int64 array of card ints in the order played. The rules arrive as the two flat arrays
of :meth:`~analyser.games.klaverjas.rules.KlaverjasRules.tables` (rows TRUMP_POINTS …
PLAIN_ORDER) and :meth:`~analyser.games.klaverjas.rules.KlaverjasRules.params` (entries
P_PARTNER_FREES …), indexed by the constants rules.py defines.

The solver's modules (this one, search.py, solver.py) key numba's cache on SOLVER_SOURCES
(analyser/numba_cache.py): they inline each other's functions and read rules.py's indices,
so an edit to any of those files must recompile all of them.
"""

from __future__ import annotations

from numba import njit

from analyser.games.klaverjas.rules import (
    P_FOUR,
    P_FOUR_EQUAL,
    P_STUK,
    P_THREE,
    PLAIN_ORDER,
    PLAIN_POINTS,
    TRUMP_ORDER,
    TRUMP_POINTS,
)
from analyser.numba_cache import key_cache_on_sources

# the modules that define numba functions (a test checks that no other module of the
# package does), and every file their compiled code depends on
COMPILED_MODULES = ("tricks", "search", "solver")
SOLVER_SOURCES = tuple(f"games/klaverjas/{m}.py" for m in COMPILED_MODULES) + (
    "games/klaverjas/rules.py",
    "numba_cache.py",
)


@njit(cache=True)
def strength(card, trump, led, tables):
    """Trick strength of ``card`` when ``led`` was led (KJ-06): trumps above the led suit,
    -1 for a discard of another suit."""
    s = card >> 3
    if s == trump:
        return 16 + tables[TRUMP_ORDER, card & 7]
    if s == led:
        return tables[PLAIN_ORDER, card & 7]
    return -1


@njit(cache=True)
def winning_position(trick, n, trump, tables):
    """Index 0..n-1 of the card that currently wins the ``n`` cards of ``trick`` (KJ-06)."""
    led = trick[0] >> 3
    best = 0
    best_s = strength(trick[0], trump, led, tables)
    for i in range(1, n):
        s = strength(trick[i], trump, led, tables)
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
            s = tables[TRUMP_ORDER, trick[i] & 7]
            if s > top:
                top = s
    if follow != 0:
        if led != trump:
            return follow  # any card of the suit led
        higher = 0
        for r in range(8):
            if (my_trumps >> (8 * trump + r)) & 1 and tables[TRUMP_ORDER, r] > top:
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
        if (my_trumps >> (8 * trump + r)) & 1 and tables[TRUMP_ORDER, r] > top:
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
            roem += params[P_FOUR]
        elif h & (h >> 1) & (h >> 2):
            roem += params[P_THREE]
    if (m >> (8 * trump + 5)) & 3 == 3:
        roem += params[P_STUK]
    if m & (m >> 8) & (m >> 16) & (m >> 24) & 0xFF:
        roem += params[P_FOUR_EQUAL]
    return roem


@njit(cache=True)
def trick_card_points(trick, trump, tables):
    """Card points of the four cards of ``trick`` (KJ-04; the last trick's 10 is not here)."""
    pts = 0
    for i in range(4):
        c = trick[i]
        pts += tables[TRUMP_POINTS if (c >> 3) == trump else PLAIN_POINTS, c & 7]
    return pts


@njit(cache=True)
def lowest_card(mask):
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
def card_count(mask):
    """Number of cards in a bitmask."""
    k = 0
    while mask:
        mask &= mask - 1
        k += 1
    return k


@njit(cache=True)
def points_left(rem, trump, tables):
    """Card points of the cards in ``rem``."""
    pts = 0
    for s in range(4):
        h = (rem >> (8 * s)) & 0xFF
        row = TRUMP_POINTS if s == trump else PLAIN_POINTS
        r = 0
        while h:
            if h & 1:
                pts += tables[row, r]
            h >>= 1
            r += 1
    return pts


@njit(cache=True)
def roem_room(rem, trump, params):
    """The most roem one trick can hold when only the cards of ``rem`` are left (KJ-05)."""
    if rem & (rem >> 8) & (rem >> 16) & (rem >> 24) & 0xFF:
        best = params[P_FOUR_EQUAL]
    else:
        best = 0
    seq = 0
    for s in range(4):
        h = (rem >> (8 * s)) & 0xFF
        if h & (h >> 1) & (h >> 2) & (h >> 3):
            seq = max(seq, params[P_FOUR])
        elif h & (h >> 1) & (h >> 2):
            seq = max(seq, params[P_THREE])
    if (rem >> (8 * trump + 5)) & 3 == 3:
        seq += params[P_STUK]
    return max(best, seq)


# cache keyed on every klaverjas solver source (SOLVER_SOURCES)
key_cache_on_sources(globals(), SOLVER_SOURCES)
