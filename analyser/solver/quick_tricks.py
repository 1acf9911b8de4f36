"""Quick tricks: a sure lower bound on the tricks the side on lead takes at once from the top.

Plans, each counted only when it is safe whatever the others do: the leader runs his own suits
(after drawing the opponents' trumps when his run of trumps can: drawn_plan); he crosses to his
partner's winner in an entry suit and the partner runs his suits; or the partner ruffs a suit
he lacks and runs his suits (the last two: quick_cross.py). Partners must be able to follow or
discard without spoiling a suit still to come (spare_deficit, quick_runs.py). qt_ceiling is
a cheap upper bound of the count, so most calls that could not settle a node are never made.
Since it knows the ruff caps and whether the leader can reach his partner at all (can_cross),
the benchmark's 100 exact counts called quick_tricks 1.45M times instead of 2.17M, with the
same 849,317 nodes settled. DDS computes the same kind of bound at every trick start.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import SUITM, hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.layout import NT
from analyser.solver.position import seat_of, side_count, side_holding
from analyser.solver.quick_cross import Runs, can_cross, entry_plans, finesse_rounds, ruff_plan
from analyser.solver.quick_runs import (
    KEEP_ALL,
    NO_CAPS,
    Duty,
    capped_suits,
    caps_after_draw,
    nibble_sum,
    plan_suits,
    ruff_caps,
    runs_under,
    spare_deficit,
    suit_runs,
)


@njit(cache=True, _nrt=False, forceinline=True)
def drawn_plan(hands, leader, trump, side, caps, l_runs, duty, nf):
    """Plan 1 after the trumps are drawn: the leader's run of trumps (a suit where he keeps
    the lead) takes every trump an opponent holds, so his side suits are then cashed without
    ruff caps. DDS's quick tricks count this plan; ours stopped each side suit at the
    shortest holding of an opponent who still had trumps. ``duty`` binds the first round of
    the suit of ``nf``, a pending called card's bit (-1: none). Returns (tricks, W), (0, 0)
    when the run of trumps cannot draw them or no suit would gain."""
    me = side[leader]
    l_rounds, l_kept, _ = l_runs
    rt = (l_rounds >> (4 * trump)) & 15
    if rt == 0 or not (l_kept >> trump) & 1:
        return 0, 0
    for q in range(4):
        if side[q] != me and popcount(suit_bits(hands[q], trump)) > rt:
            return 0, 0
    # only a suit whose run its cap stopped can gain (the trumps are never capped)
    if capped_suits(hands, leader, l_rounds, caps) == 0:
        return 0, 0
    called_suit = nf >> 4 if nf >= 0 else -1
    rounds, kept, w_all = suit_runs(hands, 0, leader, side, NO_CAPS, called_suit, duty)
    tot, w, used = plan_suits(rounds, kept, w_all, 0, True)
    for q in range(4):
        if q != leader and side[q] == me:
            if spare_deficit(hands, q, used, rounds, used, KEEP_ALL, 0, nf) > 0:
                return 0, 0
    return tot, w


@njit(cache=True, _nrt=False, forceinline=True)
def quick_tricks(hands, leader, trump, side, called_bit, holder, pend, decisive=0):
    """Tricks the leader's side can take at once from the top, whatever the others do.

    Plan 1: the leader runs his suits (run_suit). Plan 2: he first runs suits of his own,
    then leads to a partner's winner in an entry suit e (the partner's top card of e beats
    every other card of e that can be played to it) and the partner runs e and his other
    suits; it is tried again after the leader's run of trumps, with the caps of the
    defenders who still hold trumps then (caps_after_draw). Plan 3 (ruff_plan): the partner
    ruffs a suit he lacks and runs his suits. Plan 1 after every trump is drawn: drawn_plan.
    Partners must be able to follow or discard without spoiling a suit still to come.
    Opponents holding trumps are never void in a suit we run (the ruff caps), so they neither
    ruff nor discard. A pending called card binds its holder. Returns (tricks, W).

    A caller that only asks whether the count reaches ``decisive`` passes it (0, the
    default, asks for the full count): the plans through the partner are then skipped when
    they cannot reach it, and at no trump also when plan 1 already does (the count returned
    is then that of plan 1; skipping never makes the count exceed the full one)."""
    me = side[leader]
    caps = ruff_caps(hands, trump, side, me)
    called_suit = called_bit >> 4 if pend == 1 else -1
    lead_first = called_bit if (pend == 1 and leader == holder) else -1
    p_first = called_bit if (pend == 1 and side[holder] == me and holder != leader) else -1
    nf = called_bit if pend == 1 else -1
    l_runs = suit_runs(hands, 0, leader, side, caps, called_suit, Duty(lead_first, p_first, holder))
    l_rounds, l_kept, l_w = l_runs
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
    if trump != NT and caps != NO_CAPS and (decisive == 0 or best < decisive):
        duty = Duty(lead_first, p_first, holder)
        t, tw = drawn_plan(hands, leader, trump, side, caps, l_runs, duty, nf)
        if t > best:
            best = t
            best_w = tw
    if side_count(side, me) != 2:
        return best, best_w  # transport is tracked for one partner only
    if trump == NT and 0 < decisive <= best:
        # the leader's own runs settle the node: at no trump, where most counts that are
        # asked for settle it, the plans through the partner are not worth their cost (the
        # bench's 20 no-trump exact counts in 0.96 of the time, with 1% more nodes: the
        # count is lower, so the fail-soft value says less). With trumps it did not pay.
        return best, best_w
    # plan 2: cross to the partner through an entry suit
    pp = 0
    for q in range(4):
        if q != leader and side[q] == me:
            pp = q
    # plan 2 may also follow the leader's run of trumps (a suit he cashes first): it takes
    # the trumps of a defender who holds no more of them, who then can no longer ruff
    rt = (l_rounds >> (4 * trump)) & 15 if trump != NT else 0
    caps2 = caps
    if rt > 0 and (l_kept >> trump) & 1 and pend == 0:
        caps2 = caps_after_draw(hands, trump, side, me, rt)
    # plans 2 and 3 count at most the leader's rounds, one crossing trick and the partner's
    # rounds, which are at most his cards: most calls that cannot settle the node stop here
    # (after trumps, the leader's runs are at most his cards)
    l_sum = nibble_sum(l_rounds) if caps2 == caps else popcount(hands[leader])
    if best < decisive and 1 + popcount(hands[pp]) + l_sum < decisive:
        return best, best_w
    p_lf = called_bit if (pend == 1 and pp == holder) else -1
    l_pf = called_bit if (pend == 1 and leader == holder) else -1
    p_runs = suit_runs(hands, 0, pp, side, caps, called_suit, Duty(p_lf, l_pf, leader))
    p_rounds, p_kept, p_wall = p_runs
    # the partner's rounds from the top bound his rounds after an entry or a ruff as well,
    # except in rare blocking layouts (a card fewer can spare an unblock): there this gate
    # only loses a cut-off, and the test of it finds none on random endings. In the entry
    # suit the leader's early rounds and the partner's run after the entry may exceed their
    # runs from the top by at most their cards there beyond those runs
    if caps2 == caps and best < decisive and 1 + nibble_sum(p_rounds) + l_sum < decisive:
        extra = 0
        for e in range(4):
            ne = popcount(suit_bits(hands[leader], e))
            pe = popcount(suit_bits(hands[pp], e))
            if ne and pe:
                x = ne + pe - ((l_rounds >> (4 * e)) & 15) - ((p_rounds >> (4 * e)) & 15)
                extra = max(extra, x)
        if 1 + nibble_sum(p_rounds) + l_sum + extra < decisive:
            return best, best_w
    runs = Runs(caps, l_runs, p_runs, 0)
    t, tw = entry_plans(hands, leader, pp, side, runs, nf, holder, best)
    if t > best:
        best = t
        best_w = tw
    if caps2 != caps:
        l_runs2 = runs_under(hands, leader, side, l_runs, caps, caps2)
        p_runs2 = runs_under(hands, pp, side, p_runs, caps, caps2)
        # the trumps are cashed first, so they are not the entry
        runs = Runs(caps2, l_runs2, p_runs2, 1 << trump)
        t, tw = entry_plans(hands, leader, pp, side, runs, -1, -1, best)
        if t > best:
            best = t
            best_w = tw
    # plan 3: cross to the partner by a ruff
    if trump != NT and pend == 0:
        t, tw = ruff_plan(hands, leader, pp, trump, side, l_runs, p_runs)
        if t > best:
            best = t
            best_w = tw
    return best, best_w


@njit(cache=True, _nrt=False, forceinline=True)
def side_rounds(hands, side, me, s):
    """(rounds, ours): at most how many rounds of suit ``s`` side ``me`` wins leading it from
    the top (0 when an opponent holds its top card), and the side's cards of ``s``. In a suit
    where the opponents hold cards, run_suit assumes each defender keeps his top card while he
    can follow, so while the holder of their highest card follows, a round needs one of our
    cards above it: at most those cards' number when he holds more of the suit."""
    ours, theirs, longest = side_holding(hands, side, me, s)
    if ours <= theirs:
        return 0, ours
    if theirs == 0:
        return longest, ours
    top = hibit(theirs)
    t = popcount(ours >> (top + 1))
    lx = popcount(suit_bits(hands[seat_of(hands, 16 * s + top)], s))
    return (longest if lx <= t else min(t, longest)), ours


@njit(cache=True, _nrt=False, forceinline=True)
def qt_ceiling(hands, leader, trump, side):
    """An upper bound of quick_tricks for the leader's side: every counted round is led by
    one hand of the side and won in its suit, so a suit adds at most side_rounds. No plan
    runs a side suit past its ruff cap (ruff_caps). A plan ruffs at most once (ruff_plan):
    one trick in a side suit where the runs count none. Without a way to the partner
    (can_cross) only the leader's own runs count, each at most his cards of the suit. The
    leader's rounds of trumps, at most side_rounds and his trumps, may draw the trumps of
    defenders who hold no more of them: their caps then no longer bind (drawn_plan, and
    plan 2 after trumps). A finesse in plan 2's one entry suit (finesse_rounds) adds the
    rounds it wins beyond the one its suit counts, once."""
    me = side[leader]
    caps = ruff_caps(hands, trump, side, me)
    a = 0
    opp_longest = 0
    if trump != NT and caps != NO_CAPS:
        kt, _ = side_rounds(hands, side, me, trump)
        a = min(kt, popcount(suit_bits(hands[leader], trump)))
        opp_longest = side_holding(hands, side, 1 - me, trump)[2]
    caps_up = caps_after_draw(hands, trump, side, me, a) if a > 0 else caps
    tot = 0  # every plan
    ruff_suit = 0  # 1 when some side suit could be the one ruff of plan 3 beyond its runs
    own = 0  # the leader's runs alone (plan 1)
    own_free = 0  # the same without ruff caps (drawn_plan)
    ks = 0  # each suit's k, 4 bits per suit
    for s in range(4):
        k, ours = side_rounds(hands, side, me, s)
        if k > 0:
            mine = popcount(suit_bits(hands[leader], s))
            own_free += min(k, mine)
            if s != trump and trump != NT:
                k = min(k, (caps_up >> (4 * s)) & 15)
                if k == 0:
                    ruff_suit = 1
            tot += k
            ks |= k << (4 * s)
            own += min(k, mine)
        elif ours != 0 and s != trump and trump != NT:
            ruff_suit = 1  # a lead in s for a partner to ruff (ruff_plan)
    if a >= opp_longest > 0 and own_free > own:
        # drawn_plan runs the side suits past their caps
        own = own_free
    # plan 3 ruffs once: its ruff suit adds one trick where its runs add none
    tot += ruff_suit
    if side_count(side, me) != 2:
        return own  # quick_tricks tracks transport for one partner only: plan 1 alone
    for q in range(4):
        if q != leader and side[q] == me and can_cross(hands, leader, q, trump, caps_up):
            # a finesse in the one entry suit of plan 2 may win more rounds than the runs
            # (the partner's top card there is the only one above the opponents', so the
            # runs count one round)
            bonus = 0
            for s in range(4):
                if (ks >> (4 * s)) & 15 == 1:
                    f, _ = finesse_rounds(hands, leader, q, s, (caps_up >> (4 * s)) & 15)
                    bonus = max(bonus, f - 1)
            return max(tot + bonus, own)
    return own


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
