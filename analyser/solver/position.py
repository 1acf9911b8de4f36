"""Reading a position: which card wins a trick, who holds a card, what a side holds in a suit.

Small helpers the bounds, the move ordering and the search all use. Trick winner (R-PLAY-03,
docs/rules.md): the highest trump in the trick, or, without one, the highest card of the suit
led.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.layout import NT


@njit(cache=True, _nrt=False, forceinline=True)
def beats(b, cur, trump):
    """True if card bit ``b`` beats the currently winning card bit ``cur``."""
    sb = b >> 4
    sc = cur >> 4
    if sb == sc:
        return b > cur
    return sb == trump


@njit(cache=True, _nrt=False, forceinline=True)
def best_offer(hand, ls, trump):
    """The strongest card (bit) ``hand`` can play to a trick led in suit ``ls``: its highest
    card of ``ls``, or when void its highest trump; -1 when it holds neither (no lower card
    beats what that one cannot)."""
    hs = suit_bits(hand, ls)
    if hs != 0:
        return 16 * ls + hibit(hs)
    if trump != NT and suit_bits(hand, trump) != 0:
        return 16 * trump + hibit(suit_bits(hand, trump))
    return -1


@njit(cache=True, _nrt=False, forceinline=True)
def side_count(side, which):
    """Number of seats on side ``which``."""
    n = 0
    for p in range(4):
        if side[p] == which:
            n += 1
    return n


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


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
