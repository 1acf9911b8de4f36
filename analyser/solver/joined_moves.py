"""The joined game's codes and moves (numba): the rule switch, the co-declarer model, the
packed trick counts, and the cards a seat may play in the order the search tries them.

The game itself is defined in joined_misere.py's docstring; the tricks a declarer needs are
layout.NEED_MISERE / NEED_PIEK.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import SUITM, popcount, suit_bits
from analyser.solver.jit import finish_module

# rule switch ``several_declarers``
SETTLE_ALL = 0
STOP_AT_FIRST_FAILURE = 1
# model of what a co-declarer may do (joined_misere.py's docstring)
MODEL_DUCK = 0
MODEL_COALITION = 1


@njit(cache=True, _nrt=False, forceinline=True)
def trick_count(cnt, p):
    """Tricks of seat ``p`` (capped at 2) in the packed counts ``cnt`` (2 bits per seat)."""
    return (cnt >> (2 * p)) & 3


@njit(cache=True, _nrt=False, forceinline=True)
def add_trick(cnt, p):
    """``cnt`` with one more trick for seat ``p``, capped at 2 (more is never needed)."""
    c = (cnt >> (2 * p)) & 3
    if c < 2:
        cnt += 1 << (2 * p)
    return cnt


@njit(cache=True, _nrt=False)
def joined_options(hands, p, at, ask, opts, keys):
    """The cards seat ``p`` may play, one per run of equivalent cards, into ``opts`` in the
    order to try them; returns their number. ``ask`` (a JoinedAsk): ``x`` is the declarer
    asked about, ``decl`` the declarers' seat bitmask, ``need`` the tricks each needs;
    ``at`` (a JoinedTrick): ``ls`` is the led suit and ``top`` the highest card of it played
    so far (both -1 on the lead), played by ``topseat``; ``table`` the cards on the table;
    ``keys`` is scratch space for the order."""
    pos, ls, top, topseat, cnt, table = at.pos, at.ls, at.top, at.topseat, at.cnt, at.table
    x, decl, need, rule, model = ask.x, ask.decl, ask.need, ask.rule, ask.model
    h = hands[p]
    legal = h
    follow = False
    if pos > 0:
        sh = h & (SUITM << (16 * ls))
        if sh:
            legal = sh
            follow = True
    # the duck model: a co-declarer whom this trick would sink plays under when he can
    if (
        model == MODEL_DUCK
        and p != x
        and (decl >> p) & 1
        and trick_count(cnt, p) == need
        and follow
    ):
        under = legal & ((1 << top) - 1)
        if under:
            legal = under
    others = (hands[0] | hands[1] | hands[2] | hands[3] | table) & ~h
    # stop_at_first_failure: a co-declarer about to win a trick that sinks him would end the
    # deal (in x's favour at misère), so the others try to overtake him first
    rescue = (
        rule == STOP_AT_FIRST_FAILURE
        and pos > 0
        and topseat != x
        and (decl >> topseat) & 1
        and trick_count(cnt, topseat) == need
    )
    n = 0
    for s in range(4):
        mine = suit_bits(legal, s)
        if mine == 0:
            continue
        sep = suit_bits(others, s)
        x_holds = suit_bits(hands[x], s) != 0
        rest = mine
        while rest:
            c = rest & -rest
            r = popcount(c - 1)
            # the run of equivalent cards starting at c: up to the next card of another hand
            above = sep & ~((c << 1) - 1)
            if above:
                run = mine & ((above & -above) - 1)
            else:
                run = mine
            rest &= ~run
            b = 16 * s + r
            # order: the declarer follows with his highest card under the top first, then
            # the lowest over it, discards his highest card, leads low; the others lead and
            # follow low (keeping the declarer on top) and discard high
            if p == x:
                if pos == 0:
                    k = r
                elif follow:
                    k = 100 - r if b < top else 200 + r
                else:
                    k = 100 - r
            else:
                if pos == 0:
                    k = r if x_holds else 50 + r
                elif follow:
                    k = r
                    if rescue and b < top:
                        k = 50 + r
                else:
                    k = 100 - r
            j = n
            while j > 0 and keys[j - 1] > k:
                keys[j] = keys[j - 1]
                opts[j] = opts[j - 1]
                j -= 1
            keys[j] = k
            opts[j] = b
            n += 1
    return n


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
