"""Quick tricks, one hand's runs: how many rounds a hand surely wins leading a suit from the top.

run_suit counts the rounds of one suit, suit_runs those of every suit, and plan_suits adds up
the suits a hand cashes one after the other; spare_deficit checks that a partner can follow
or discard without spoiling a suit still to come. A defender who still holds trumps could
ruff a side suit once he is void, so no suit is run past the ruff caps (ruff_caps), and
caps_after_draw gives the caps once the leader's trumps have drawn some defenders' trumps.
The plans built on these runs: quick_tricks.py (the leader alone) and quick_cross.py
(through the partner).
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from analyser.solver.bits import SUITM, ctz, hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.layout import NT

# A pending called card's duty in the first round of its suit (run_suit): ``lead_first`` the
# card bit the hand that runs the suit must lead first, ``partner_first`` the one his partner
# ``partner_seat`` must play (-1: none).
Duty = namedtuple("Duty", "lead_first partner_first partner_seat")


NO_CAPS = 13 | (13 << 4) | (13 << 8) | (13 << 12)  # ruff_caps when no opponent can ruff


@njit(cache=True, _nrt=False, forceinline=True)
def ruff_caps(hands, trump, side, mine):
    """Per suit, how many rounds side ``mine`` can cash without a ruff: the shortest holding of
    an opponent who still has trumps (13 when none has). Trumps themselves are never capped.
    Packed 4 bits per suit (allocation-free: this runs at every trick start)."""
    if trump == NT:
        return NO_CAPS
    # before any trump is led, every defender who holds one can ruff
    return caps_after_draw(hands, trump, side, mine, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def caps_after_draw(hands, trump, side, mine, rounds):
    """ruff_caps once ``rounds`` rounds of trumps have been led and won by side ``mine``: a
    defender with no more trumps than that has followed with all of them and can no longer
    ruff, so only the others cap a suit."""
    caps = NO_CAPS
    for p in range(4):
        t = popcount(suit_bits(hands[p], trump))
        if side[p] != mine and t > rounds:
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
def capped_suits(hands, h, rounds, caps):
    """The suits (a bit each) whose run by hand ``h`` (``rounds``, from suit_runs) its ruff
    cap stopped: as many rounds as the cap, with more of his cards left there. Only these
    can gain when the caps rise."""
    m = 0
    for s in range(4):
        cap = (caps >> (4 * s)) & 15
        if ((rounds >> (4 * s)) & 15) == cap and popcount(suit_bits(hands[h], s)) > cap:
            m |= 1 << s
    return m


@njit(cache=True, _nrt=False, forceinline=True)
def runs_under(hands, h, side, runs, caps, caps2):
    """``runs`` (suit_runs of hand ``h`` under ``caps``, no called card) under the higher
    caps ``caps2``: only a suit whose run its old cap stopped is run again."""
    rounds, kept_mask, w = runs
    stopped = capped_suits(hands, h, rounds, caps)
    for s in range(4):
        cap2 = (caps2 >> (4 * s)) & 15
        if (stopped >> s) & 1 and cap2 > (caps >> (4 * s)) & 15:
            r2, kept, ws = run_suit(hands, 0, h, s, side, cap2, Duty(-1, -1, -1), 0)
            if r2 != (rounds >> (4 * s)) & 15:
                rounds = (rounds & ~(15 << (4 * s))) | (r2 << (4 * s))
                kept_mask = (kept_mask & ~(1 << s)) | ((1 << s) if kept else 0)
                w = (w & ~(SUITM << (16 * s))) | ws
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


@njit(cache=True, _nrt=False, forceinline=True)
def used_nibbles(used):
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


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
