"""Tests that settle a trick start of the joined search without searching it (numba).

Each looks at one declarer at a trick start, with the others playing as the duck model of
joined_misere.py's docstring allows: a co-declarer whom a trick would sink plays under when
he can. The search (joined_misere._enter) applies them only where the declarer still has his
contract (for piek: has taken his one trick) and the test's answer decides his game.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.misere_proof import suit_is_safe


@njit(cache=True, _nrt=False)
def x_cannot_be_forced(hands, x):
    """True if declarer ``x`` surely wins no further trick when not on lead: every suit of
    his is safe (misere_proof.suit_is_safe), so he can always follow under and discard the
    top of a suit, and never has to lead."""
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    for s in range(4):
        mine = suit_bits(hands[x], s)
        if mine and not suit_is_safe(mine, suit_bits(alive, s) & ~mine):
            return False
    return True


@njit(cache=True, _nrt=False)
def leader_forces_x(hands, leader, x):
    """True if the leader (not ``x``) can make declarer ``x`` win this trick: in a suit x
    holds, the leader and every other holder of it have a card below x's lowest. The
    leader leads his lowest; whoever follows plays under x's card - a free player by
    choice, a co-declarer bound to duck (duck model) because every card under the top is
    under x's cards too - so x's card is the highest of the suit."""
    for s in range(4):
        mine = suit_bits(hands[x], s)
        if mine == 0:
            continue
        low = mine & -mine
        ok = (suit_bits(hands[leader], s) & (low - 1)) != 0
        q = 0
        while ok and q < 4:
            if q != x:
                hq = suit_bits(hands[q], s)
                if hq and (hq & (low - 1)) == 0:
                    ok = False
            q += 1
        if ok:
            return True
    return False


@njit(cache=True, _nrt=False)
def x_forced_on_lead(hands, x):
    """True if declarer ``x``, on lead, wins this trick whatever he leads: for each suit he
    holds, every other hand holding it has a card below his lowest (each follower can play
    under; a co-declarer bound to duck must), or nobody else holds it."""
    for s in range(4):
        mine = suit_bits(hands[x], s)
        if mine == 0:
            continue
        low = mine & -mine
        for q in range(4):
            if q != x:
                hq = suit_bits(hands[q], s)
                if hq and (hq & (low - 1)) == 0:
                    return False  # q holds only higher cards: he must beat x's lowest
    return True


@njit(cache=True, _nrt=False)
def wins_any_lead(hands, p):
    """True if seat ``p``, on lead, wins the trick whatever he leads: in each suit he holds,
    every other hand's cards are below his lowest."""
    for s in range(4):
        mine = suit_bits(hands[p], s)
        if mine == 0:
            continue
        low = mine & -mine
        for q in range(4):
            if q != p and suit_bits(hands[q], s) & ~(low - 1):
                return False
    return True


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
