"""Quick tricks through the partner: the plans of quick_tricks.py that hand the lead over.

entry_plans: the leader runs suits of his own, then leads to his partner's winner in an entry
suit and the partner runs that suit and his other suits; ruff_plan: the partner ruffs a suit
he lacks and runs his suits. can_cross is the cheap test qt_ceiling uses for whether either
could apply. The runs they combine: quick_runs.py.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from analyser.solver.bits import SUITM, ctz, hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.layout import NT
from analyser.solver.quick_runs import (
    KEEP_ALL,
    Duty,
    drop_rounds,
    plan_suits,
    run_suit,
    spare_deficit,
    used_nibbles,
)

# What entry_plans works from: the ruff caps, the suit runs (suit_runs) of the leader and of
# the partner under them, and the suits that may not be the entry (a bit per suit)
Runs = namedtuple("Runs", "caps l_runs p_runs no_entry")


@njit(cache=True, _nrt=False)
def finesse_rounds(hands, leader, pp, e, cap_e):
    """Rounds of entry suit ``e`` the leader's side surely wins when he leads it to his
    partner ``pp``, who holds its top card and the third one, the second lying with an
    opponent who plays before the partner: the partner wins the first round with the third
    card when the second is held back, else with the top one, and the second round with the
    other. So two rounds, where the run from the top counts one; all the partner's cards of
    ``e`` (up to the ruff cap ``cap_e``) when the leader and each opponent hold at most two
    cards of it, as they are then void after two rounds. DDS's quick tricks count this for
    partners opposite; partners side by side have it when the partner plays last. Returns
    (rounds, W): W is the partner's lower card, which fixes who holds the three cards;
    (0, 0) when the layout is another."""
    pe = suit_bits(hands[pp], e)
    if cap_e < 2 or popcount(pe) < 2:
        return 0, 0
    pt = hibit(pe)
    q = hibit(pe ^ (1 << pt))
    le = suit_bits(hands[leader], e)
    short = popcount(le) <= 2
    before = 0  # the cards of e of the opponents who play before the partner
    above = le >> (q + 1)  # every card above q but the partner's top one
    for seat in range(4):
        if seat == leader or seat == pp:
            continue
        hs = suit_bits(hands[seat], e)
        if hs >> pt:
            return 0, 0
        above |= hs >> (q + 1)
        if ((seat - leader) & 3) < ((pp - leader) & 3):
            before |= hs >> (q + 1)
        short = short and popcount(hs) <= 2
    if popcount(above) != 1 or before != above:
        return 0, 0
    r = min(popcount(pe), cap_e) if short else 2
    return r, (1 << q) << (16 * e)


@njit(cache=True, _nrt=False, forceinline=True)
def entry_plans(hands, leader, pp, side, runs, nf, holder, floor):
    """Plan 2 of quick_tricks: the leader runs suits of his own, then leads to his partner
    ``pp``'s winner in an entry suit e (the partner's top card of e beats every other card of
    e that can be played to it), and the partner runs e and his other suits. ``runs`` (a
    Runs): the caps and both hands' runs; ``nf``: a pending called card's bit (-1: none),
    held by ``holder``. Returns (tricks, W) of the best plan above ``floor``, else
    (``floor``, 0)."""
    caps, l_runs, p_runs, no_entry = runs
    l_rounds, l_kept, l_w = l_runs
    p_rounds, p_kept, p_wall = p_runs
    called_suit = nf >> 4 if nf >= 0 else -1
    best = floor
    best_w = 0
    for e in range(4):
        le = suit_bits(hands[leader], e)
        pe = suit_bits(hands[pp], e)
        cap_e = (caps >> (4 * e)) & 15
        if le == 0 or pe == 0 or cap_e == 0 or (no_entry >> e) & 1:
            continue
        pt = hibit(pe)
        lead_card = ctz(le)
        if e == called_suit:
            if leader == holder:
                lead_card = nf & 15  # he must lead the called card
            elif pp == holder and (nf & 15) != pt:
                continue  # the partner must play the called card, not his top card
        others = 0
        for q in range(4):
            if q != leader and q != pp:
                others |= suit_bits(hands[q], e)
        if (others >> pt) != 0 or lead_card > pt:
            continue
        # the leader's cards of e above every opponent's card of e win their rounds: he
        # cashes them first (all but the card he crosses with) while the partner follows with
        # his lowest cards, below them, so they neither block the partner's run nor go to
        # waste. DDS's quick tricks count this; without it the leader's high card overtook
        # the partner's run
        above = hibit(others) + 1 if others != 0 else 0
        hi = ((le ^ (1 << lead_card)) >> above) << above
        k = popcount(hi)
        low = 0
        if k > 0 and popcount(pe) > k and k < cap_e and e != called_suit:
            rest = pe ^ (1 << pt)
            for _ in range(k):
                low |= rest & -rest
                rest &= rest - 1
        if low == 0 or hibit(low) > ctz(hi):
            k = 0
            hi = 0
            low = 0
        # the leader's own suits first (not e), then the entry, then the partner
        l_tot, lw_used, l_used = plan_suits(l_rounds, l_kept, l_w, 1 << e, False)
        gone = ((1 << lead_card) | (1 << pt) | hi | low) << (16 * e)
        r_e, kept_e, w_e = run_suit(hands, gone, pp, e, side, cap_e, Duty(-1, -1, -1), 1 + k)
        if r_e == 0 and k == 0 and e != called_suit:
            f_e, f_w = finesse_rounds(hands, leader, pp, e, cap_e)
            if f_e > 1:
                r_e = f_e - 1
                kept_e = True
                w_e = f_w
        if kept_e:
            p_tot, pw_used, p_used = plan_suits(p_rounds, p_kept, p_wall, (1 << e) | l_used, True)
        else:
            # the lead left the partner inside e: count e only
            p_tot = 0
            pw_used = 0
            p_used = 0
        tot = l_tot + k + 1 + r_e + p_tot
        if tot <= best:
            continue
        # discards: the partner through the leader's suits, the leader through the rest. Of
        # the suits the partner runs later he keeps only the cards his rounds play (the
        # entry card and r_e in e); when that is not enough, he cashes fewer rounds of his
        # own and throws their cards too (each dropped round frees one card)
        p_plan_rounds = (p_rounds & used_nibbles(p_used)) | (r_e << (4 * e))
        keep_n = p_plan_rounds + ((1 + k) << (4 * e))
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
        l_played = (l_rounds & used_nibbles(l_used)) + ((1 + k) << (4 * e))
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
        best_w = lw_used | pw_used | w_e | (((1 << pt) | (hi & -hi)) << (16 * e))
    return best, best_w


@njit(cache=True, _nrt=False, forceinline=True)
def ruff_plan(hands, leader, pp, trump, side, l_runs, p_runs):
    """Quick tricks through a ruff: the leader first runs suits of his own (not trumps, not
    the ruff suit s), then leads s, which his partner ``pp`` lacks, and the partner ruffs;
    then the partner runs his suits. The ruff is sure when the partner ruffs with a trump
    above every trump of an opponent who is void in s (an opponent who follows cannot beat a
    trump). Only when no opponent is void in s does the partner go on after the ruff: a void
    opponent discards in the ruff trick and could become short elsewhere.
    ``l_runs``/``p_runs``: suit_runs of the leader and of the partner.
    Returns (tricks, W) of the best such plan (0, 0 when there is none)."""
    l_rounds, l_kept, l_w = l_runs
    p_rounds, p_kept, p_wall = p_runs
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
            r_t, kept_t, w_t = run_suit(hands, gone, pp, trump, side, 13, Duty(-1, -1, -1), 0)
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
def can_cross(hands, leader, pp, trump, caps):
    """Whether the leader could hand the lead to his partner ``pp`` for plans 2 and 3 of
    quick_tricks: an entry suit (both hold it, it is not capped to nothing, the partner's top
    card is above every opponent's and above the leader's lowest), or a suit the partner
    lacks and could ruff. A necessary condition only: the called card's duties are ignored."""
    opps = 0
    for q in range(4):
        if q != leader and q != pp:
            opps |= hands[q]
    for e in range(4):
        le = suit_bits(hands[leader], e)
        pe = suit_bits(hands[pp], e)
        if le != 0 and pe != 0 and (caps >> (4 * e)) & 15 != 0:
            pt = hibit(pe)
            if (suit_bits(opps, e) >> pt) == 0 and ctz(le) < pt:
                return True
    if trump != NT and suit_bits(hands[pp], trump) != 0:
        for s in range(4):
            if s != trump and suit_bits(hands[leader], s) != 0 and suit_bits(hands[pp], s) == 0:
                return True
    return False


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
