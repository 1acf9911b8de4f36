"""Quick tricks: a sure lower bound on the tricks the side on lead takes at once from the top.

Three plans, each counted only when it is safe whatever the others do: the leader runs his own
suits; he crosses to his partner's winner in an entry suit and the partner runs his suits; or
the partner ruffs a suit he lacks and runs his suits (quick_tricks, ruff_plan). Partners must be
able to follow or discard without spoiling a suit still to come (spare_deficit). qt_ceiling is
a cheap upper bound of the count, so most calls that could not settle a node are never made.
Since it knows the ruff caps and whether the leader can reach his partner at all (can_cross),
the benchmark's 100 exact counts call quick_tricks 1.45M times instead of 2.17M; the 849,317
nodes it settles, and every node count, are unchanged. DDS computes the same kind of bound at
every trick start.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from analyser.solver.bits import SUITM, ctz, hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.layout import NT
from analyser.solver.position import seat_of, side_count, side_holding

# A pending called card's duty in the first round of its suit (run_suit): ``lead_first`` the
# card bit the hand that runs the suit must lead first, ``partner_first`` the one his partner
# ``partner_seat`` must play (-1: none).
Duty = namedtuple("Duty", "lead_first partner_first partner_seat")


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
def run_suit(hands, gone, h, s, side, cap, duty, skip):
    """Rounds the side of ``h`` surely wins when ``h`` leads suit ``s`` round after round.

    ``h`` leads from the top; his partners unblock (each plays his highest card below h's, or
    else his lowest); a defender is assumed to keep his top card of the suit for as long as
    he can follow, which is the worst case for us. A round counts when our best card beats
    every defender's card that can still appear. Counting stops at the first round we might
    lose, after ``cap`` rounds (a defender with trumps could ruff) and after a partner wins a
    round (the lead has left ``h``). ``duty`` (a Duty): ``lead_first`` >= 0 is a card bit h
    must lead first; ``partner_first`` a card bit partner ``partner_seat`` must play in the
    first round (a pending called card). ``skip`` rounds of the suit were already played,
    taking the cards in ``gone`` from h and his partners and one (unknown) card from each
    defender.
    Returns (rounds, lead kept by h, W = the lowest card whose rank the count relied on)."""
    lead_first, partner_first, partner_seat = duty
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
def suit_runs(hands, gone, h, side, caps, called_suit, duty):
    """run_suit for each suit: (rounds packed 4 bits per suit, kept-lead mask, W of all).
    ``duty`` (a Duty) binds the first round of ``called_suit`` only."""
    lead_first, partner_first, partner_seat = duty
    rounds = 0
    kept_mask = 0
    w = 0
    for s in range(4):
        lf = lead_first if s == called_suit else -1
        pf = partner_first if s == called_suit else -1
        cap = (caps >> (4 * s)) & 15
        r, kept, ws = run_suit(hands, gone, h, s, side, cap, Duty(lf, pf, partner_seat), 0)
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
def nibble_sum(x):
    """The sum of the four 4-bit counts packed in ``x`` (rounds per suit)."""
    return (x & 15) + ((x >> 4) & 15) + ((x >> 8) & 15) + ((x >> 12) & 15)


NO_CAPS = 13 | (13 << 4) | (13 << 8) | (13 << 12)  # ruff_caps when no opponent can ruff


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
    # only a suit whose run its cap stopped can gain
    gain = False
    for s in range(4):
        cap = (caps >> (4 * s)) & 15
        if s != trump and ((l_rounds >> (4 * s)) & 15) == cap:
            gain |= popcount(suit_bits(hands[leader], s)) > cap
    if not gain:
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
    p_runs = suit_runs(hands, 0, pp, side, caps, called_suit, Duty(p_lf, l_pf, leader))
    p_rounds, p_kept, p_wall = p_runs
    # the partner's rounds from the top bound his rounds after an entry or a ruff as well,
    # except in rare blocking layouts (a card fewer can spare an unblock): there this gate
    # only loses a cut-off, and the test of it finds none on random endings. In the entry
    # suit the leader's early rounds and the partner's run after the entry may exceed their
    # runs from the top by at most their cards there beyond those runs
    if best < decisive and 1 + nibble_sum(p_rounds) + l_sum < decisive:
        extra = 0
        for e in range(4):
            ne = popcount(suit_bits(hands[leader], e))
            pe = popcount(suit_bits(hands[pp], e))
            if ne and pe:
                x = ne + pe - ((l_rounds >> (4 * e)) & 15) - ((p_rounds >> (4 * e)) & 15)
                extra = max(extra, x)
        if 1 + nibble_sum(p_rounds) + l_sum + extra < decisive:
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
        p_plan_rounds = (p_rounds & _used_nibbles(p_used)) | (r_e << (4 * e))
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
        l_played = (l_rounds & _used_nibbles(l_used)) + ((1 + k) << (4 * e))
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
    # plan 3: cross to the partner by a ruff
    if trump != NT and pend == 0:
        t, tw = ruff_plan(hands, leader, pp, trump, side, l_runs, p_runs)
        if t > best:
            best = t
            best_w = tw
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


@njit(cache=True, _nrt=False, forceinline=True)
def qt_ceiling(hands, leader, trump, side):
    """An upper bound of quick_tricks for the leader's side: every counted round is led by
    one hand of the side and won in its suit, so a suit adds at most the side's longest
    holding, and nothing when an opponent holds its top card (the first round could lose).
    In a suit where the opponents hold cards, run_suit assumes each defender keeps his top
    card while he can follow, so while the holder of their highest card follows, a round
    needs one of our cards above it: such a suit adds at most those cards' number when he
    holds more of the suit. No plan runs a side suit past its ruff cap (ruff_caps). A ruff
    (ruff_plan) adds one trick in a side suit. Without a way to the partner (can_cross) only
    the leader's own runs count, each at most his cards of the suit."""
    me = side[leader]
    caps = ruff_caps(hands, trump, side, me)
    tot = 0  # every plan
    own = 0  # the leader's runs alone (plan 1)
    own_free = 0  # the same without ruff caps (drawn_plan)
    for s in range(4):
        ours, theirs, longest = side_holding(hands, side, me, s)
        if ours > theirs:
            if theirs == 0:
                k = longest
            else:
                # while the opponent holding their top card of s can follow, a round is won
                # only by one of our t cards above it: t rounds, unless he runs out first
                top = hibit(theirs)
                t = popcount(ours >> (top + 1))
                lx = popcount(suit_bits(hands[seat_of(hands, 16 * s + top)], s))
                k = longest if lx <= t else min(t, longest)
            own_free += min(k, popcount(suit_bits(hands[leader], s)))
            if s != trump and trump != NT:
                k = min(k, (caps >> (4 * s)) & 15)
                tot += max(k, 1)
            else:
                tot += k
            own += min(k, popcount(suit_bits(hands[leader], s)))
        elif ours != 0 and s != trump and trump != NT:
            tot += 1  # a lead in s for a partner to ruff (ruff_plan)
    if caps != NO_CAPS and own_free > own and can_draw(hands, leader, trump, side):
        # drawn_plan runs the side suits past their caps
        own = own_free
    if side_count(side, me) != 2:
        return own  # quick_tricks tracks transport for one partner only: plan 1 alone
    for q in range(4):
        if q != leader and side[q] == me and can_cross(hands, leader, q, trump, caps):
            return max(tot, own)
    return own


@njit(cache=True, _nrt=False, forceinline=True)
def can_draw(hands, leader, trump, side):
    """Whether the leader's trumps above every opponent's could draw the opponents' trumps
    (drawn_plan's condition, which counts only such rounds)."""
    theirs = 0
    longest = 0
    for q in range(4):
        if side[q] != side[leader]:
            t = suit_bits(hands[q], trump)
            theirs |= t
            longest = max(longest, popcount(t))
    above = suit_bits(hands[leader], trump) >> (hibit(theirs) + 1) if theirs else 0
    return popcount(above) >= longest


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
