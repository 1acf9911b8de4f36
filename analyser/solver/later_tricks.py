"""Trump bounds: tricks a side surely wins eventually with its trumps.

later_tricks counts a side's run of top trumps (each wins any trick it is played to), pairing
two hands when one can play low trumps under the other's run; trump_tricks counts one hand's
trumps minus the opponent trumps that can overruff them. Both are sound lower bounds and cost
a fraction of quick_tricks, so the search tries them first.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import hibit, popcount, suit_bits
from analyser.solver.jit import finish_module


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


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
