"""Move generation (the play rules) and move ordering.

gen_moves produces the legal cards of the seat to play, one per run of equivalent cards (cards
adjacent among those still in play are one move; the lowest of the run is searched):

* R-PLAY-02 (docs/rules.md): follow suit when able; a player void in the suit led may play
  any card - trumping is allowed, never required, and there is no duty to overtrump;
* R-PLAY-05, the called card: the first time the called suit is led, its holder must play the
  called card (even when a lower card would win), and if he is the first to lead the suit he
  must lead it. The called card may be discarded on another suit's lead unless the rule set
  forbids it (``discard_ok``, the switch called_card_may_be_discarded); it is never equivalent
  to its neighbours.

order_moves sorts the moves best-first. It never changes a result, only how soon a cut-off
comes: card heuristics per seat in the trick (for tricks: win cheaply, lead where the opponents
have few cards; for the misère phase: the declarer ducks, the defenders push), the table's best
move, the cut-off cache's card (below), the history weights and the last two leads that cut
off at the same depth.

The cut-off card cache (cut_key, cut_hint, cut_record), at all four seats: for a short
description of the local situation of the seat to play it remembers the card that last cut
off there, and that card is tried early. The description, besides the seat and its place in
the trick:

* on lead: the leader's whole hand;
* following suit: every card of the suit led still in play (in hands or on the table), the
  card winning the trick so far and who played it - the rest of his hand cannot be played;
* void in the suit led: his whole hand and who is winning the trick, with trumps also the
  winning card (under no trump a discard never wins, so the card does not matter).

The same situation recurs all over the tree, after other play in the other suits, and its
refutation usually stays the same. A slot holds a 32-bit check of its description, so another
situation rarely reuses its card, and when it does only the move order suffers, never a result.
Fast bridge solvers are known to keep such a table; this one is our own. It lives in the
``killer`` array and is cleared with it per position (cut_slots).

Measured on the fingerprint sets (tests/bench/fingerprint.py), every answer unchanged: the 100
bridge deals searched 26.2M nodes instead of 38.6M for exact counts (-32%) and 5.0M instead of
7.7M for ``>=7`` (-35%); rik positions -25%, misère and piek -45%, the lone declarer's 13-card
set -5% (most of it positions given up at the node budget). The time per node stays about the
same. While tuning: without the cache at
leads the search needed 4% more nodes on exact counts and 13% more on ``>=7``; without who is
winning in the key 3% more on exact counts; with 2**14 slots instead of 2**16, 10% more.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.solver.bits import clz, ctz, hibit, popcount, suit_bits, wrap_add, wrap_mul
from analyser.solver.jit import finish_module
from analyser.solver.layout import CUT_BITS, CUT_CACHE, LEAD_KILLER, LEAD_KILLER_2, NT
from analyser.solver.position import beats, best_offer, side_holding


@njit(cache=True, _nrt=False, forceinline=True)
def gen_moves(rules, hands, turn, pend, moves):
    """Legal moves of the seat to move (``turn``, a Turn), one per run of equivalent cards
    (its lowest card), with the run's mask, into row ``turn.d`` of ``moves.mv``/``moves.run``
    (rows, not slices: a slice is a new array whose reference count numba updates on every
    call). Applies the called-card obligation (``rules``, and ``pend``: 1 while the called
    card is owed). Returns the number of moves."""
    d, p, pos, lead_suit = turn.d, turn.p, turn.pos, turn.lead_suit
    alive = turn.alive
    called_bit, holder, discard_ok = rules.called_bit, rules.holder, rules.discard_ok
    mv, run = moves.mv, moves.run
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


# the cut-off cache's hash (a multiplicative hash with a final mix, as table.tt_bucket)
CUT_M1 = np.uint64(0xD6E8FEB86659FD93)
CUT_M2 = np.uint64(0x94D049BB133111EB)

# order_moves' bonus for the cut-off cache's card, below the table's best move (100), which
# keeps its place at a trick start. Of 50, 70, 85, 100 and 150 on the fingerprint sets, 70 was
# the best compromise: 150 searched 2% fewer nodes on the bridge exact counts but 8% more on the
# lone declarer's 13-card set (so did 85 and 100), 50 12% more on the bridge ``>=7``.
CUT_BONUS = 70

# order_moves' penalty for leading a low card of a suit whose top card the leader holds when
# the partner would ruff it (the win then costs the partner a trump and moves the lead).
# Measured on the fingerprint sets (answers unchanged), nodes against no penalty: 20, 30 and
# 40 gave bridge exact counts -5.7 to -5.8% (deal #68: 1.11M -> 0.15M), >=7 -0.8 to -1.9%,
# rik -1.1 to -1.2%, the lone declarer's 13-card set +1.6 to +1.7%; 40 was best on the first
# three. Penalising every low lead to a partner's ruff (the top card anywhere) had cost rik
# nodes; requiring also that no opponent can ruff the top card gave 0.6% more on exact counts.
RUFF_LEAD_PENALTY = 40

# A follower whose partner, still to play, would ruff the trick, and who holds a card of the
# suit led that beats every card the opponents can still offer, plays that card before his
# low ones: the trick is as sure, and the partner keeps his trump. Both were predicted to win
# and the lower card came first. On the fingerprint sets, answers unchanged: bridge ``>=7``
# 4,859,234 nodes instead of 5,008,721 (-3.0%), exact counts -0.3%, rik -0.2%, the others
# the same; paired runs 0.98 of the time on ``>=7``, the same on exact counts. Found by
# following bench deal #99 with tests/bench/dds_diff.py down to a 5-card position we
# searched in 118 nodes and DDS in 6.
OWN_WIN_BONUS = 15

# A low lead that wins only because the partner ruffs it spends one of his trumps: it comes
# after a lead that wins the trick as well without one. Found, as OWN_WIN_BONUS, on bench
# deal #99 with tests/bench/dds_diff.py (a 6-card position where three club leads into the
# partner's ruff came before the winning DQ). On the fingerprint sets, answers unchanged,
# nodes against none: 8 gave bridge exact counts -2.1% (deals #77, #6 and #99 the most),
# ``>=7`` -2.4%, rik -0.7%, the lone declarer's set -0.1%; 15 gave -1.1%, -3.1%, -1.2% and
# +0.3%; 30 gave -0.9%, -5.3%, -0.1% and +1.1%. Paired runs: deal #77 0.88 of the time (10
# rounds), the other 99 deals the same.
MATE_RUFF_LEAD_PENALTY = 8

# order_moves' bonus for a low lead toward a partner's card that only opponents playing before
# him can beat (a small heart toward the king with the ace on the left): the partner's card
# wins the trick or becomes master, though the trick may be lost now. Measured on the
# fingerprint sets against the sets without it (answers unchanged): rik -3.2% nodes, bridge
# >=7 -2.5%, exact -0.9%, the lone declarer's 13-card set +0.2%, misere/piek +1.7%; a bonus
# of 40 gave >=7 -4.2% and rik -3.1% but exact counts no gain.
TOWARD_BONUS = 20

# A lead into a suit where the opponent who plays last to the trick (the leader's right-hand
# opponent, who sees every other card first) holds the suit's top or second card, and more
# than one card of it, rarely gains: every lead of the suit loses RHO_HIGH_PENALTY, and a lead
# predicted to win loses RHO_CASH_PENALTY more (cashing an ace under his king sets the king
# up; the better lead is usually elsewhere). DDS weighs leads the same way. On the fingerprint
# sets, answers unchanged, nodes against neither: bridge exact counts -2.7%, ``>=7`` -1.7%,
# rik -1.7%, the lone declarer's 13-card set -3.1%, misere/piek 13 -18.8%, the 7-card sets
# between -2.3% and +1.8%. On 100 deals no tuning has seen (bench deals of seed 4242) the
# trick-start nodes fell 3.4% on exact counts and on ``>=7``. Measured and left out: 12 on
# every lead and no more for a win (exact counts +0.5%, ``>=7`` -4.6%), 27 for a win only
# (-1.4%, +0.7%), 12 and 15 (the same as 6 and 21), the win's penalty only where no partner
# ruffs (+1.1%, -3.9%) or only at no trump (+1.0%, -5.0%). Found on bench deal #63 (no
# trump): North's CA under West's CK was tried first and failed; the root took 21,873
# trick-start nodes, now 4,096 (DDS 2,131).
RHO_HIGH_PENALTY = 6
RHO_CASH_PENALTY = 21

# A low lead that does not win the trick, from a suit whose top card the leader holds himself
# (underleading his own ace), rarely is the move that decides: it gives the trick away and
# keeps the ace for later. DDS weighs such leads down too. Found on deal #87 of seed 9001
# (tests/bench/nodes_vs_dds.py, dds_diff.py --seed 9001): a 10-card position where East, to
# lead with CA-CJ-C4, tried C4 and CJ before the spade honour that refutes (19,763
# trick-start nodes, DDS 6,551; now 15,748). Trick-start nodes against none, answers
# unchanged: bench seed exact counts -1.3%, ``>=7`` -2.6% (the median deal's ratio to DDS
# 1.066 -> 1.004 and 1.106 -> 1.042); seed 4242 -0.1% and -0.9%; seed 9001 -3.0% and -3.7%.
# Fingerprint sets: bridge exact -1.2%, ``>=7`` -2.5%, rik -2.8%, the lone declarer -0.1%,
# the 7-card sets -0.2% to -0.3%, misere/piek unchanged. 20 gained less; 45 about the same.
UNDERLEAD_PENALTY = 30

# A follower's card that cannot win the trick but costs the opponents a higher card comes
# before his lowest: the third hand covers the second hand's card although the fourth hand
# beats it (COVER_BONUS), and the second or third hand ruffs although a later opponent
# overruffs (FORCING_RUFF_BONUS; without it such a ruff counted as a wasted trump). Either way
# the opponent's higher card is gone, which often decides a later trick. DDS weighs both
# plays up ("force out a higher trump", "play high enough to beat 2nd hand"). Found by
# tracing a 6-card position of bench deal #33 where we searched 518 trick-start nodes and
# DDS 241: the children of its first trick cost the same in both, so the difference was in
# the order of its cards. Trick-start nodes against neither, answers unchanged: bench seed
# exact counts -5.9%, ``>=7`` -10.8%; seed 4242 -10.2% and -9.8%; seed 9001 -8.1% and
# -9.3%. Measured and left out, on the sum of those six totals: the same bonus for the second
# hand following suit (+0.8% against none, alone); covering only an opponent's card (-4.1%
# against none, where covering any card gave -5.3%); against the two bonuses as they are, 30
# for COVER_BONUS +0.9%, 0, 10 or 30 for FORCING_RUFF_BONUS +1.8%, +0.4% and 0.0%, and a ruff
# counted as wasted where the partner wins the trick anyway +0.8%.
COVER_BONUS = 20
FORCING_RUFF_BONUS = 20

# A discard from a doubleton whose higher card is the suit's second card in play (K-x under
# the ace) comes after the other discards: the small card guards the king, and without it the
# king falls under the ace. DDS weighs such discards down too ("don't pitch from Kx").
# Trick-start nodes against none, answers unchanged: bench seed exact counts -1.2%, ``>=7``
# -3.8%; seed 4242 -0.5% and -0.6%; seed 9001 -1.0% and -0.9%. 4 and 15 gave the same within
# 0.2% on the sum of the six.
GUARD_DISCARD_PENALTY = 8


@njit(cache=True, _nrt=False, forceinline=True)
def toward_partner(hands, side_max, me, p, s, r, a_s, trump):
    """TOWARD_BONUS when leader ``p``'s card of rank ``r`` in suit ``s`` goes toward a
    partner's higher card that every card of the suit above it (``a_s``: the suit's cards in
    play) lies with opponents who play before that partner, and no opponent after him can
    ruff it; else 0. Only a heuristic for move ordering."""
    for k in range(1, 4):
        q = (p + k) & 3
        if side_max[q] != me:
            continue
        mate = suit_bits(hands[q], s)
        if mate == 0:
            continue
        top = hibit(mate)
        if top <= r:
            continue
        above = a_s >> (top + 1)
        if above == 0:
            return 0  # the partner's card is top: the lead is predicted to win
        before = 0
        for j in range(1, k):
            o = (p + j) & 3
            if side_max[o] == me:
                return 0
            before |= suit_bits(hands[o], s)
        if above & ~(before >> (top + 1)):
            return 0
        for j in range(k + 1, 4):
            o = (p + j) & 3
            if (
                trump != NT
                and side_max[o] != me
                and suit_bits(hands[o], s) == 0
                and suit_bits(hands[o], trump) != 0
            ):
                return 0
        return TOWARD_BONUS
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def rho_guards(hands, side_max, me, p, s, a_s):
    """Whether the opponent who plays last to leader ``p``'s lead in suit ``s`` (side ``me``)
    holds the suit's top or second card in play (``a_s``: the suit's cards in play) and more
    than one card of the suit. Only a heuristic for move ordering (RHO_HIGH_PENALTY)."""
    q = (p + 3) & 3
    if side_max[q] == me:
        return False
    mine = suit_bits(hands[q], s)
    if popcount(mine) < 2:
        return False
    first = 1 << hibit(a_s)
    rest = a_s ^ first
    second = (1 << hibit(rest)) if rest != 0 else 0
    return (mine & (first | second)) != 0


@njit(cache=True, _nrt=False, forceinline=True)
def cut_slots(n_cards):
    """The number of cut-off cache slots a search from ``n_cards`` cards a hand uses (a power
    of two): 2**CUT_BITS from 12 cards on, half as many for each card fewer. A 7-card ending
    searches a few hundred nodes in 100-300 us, and clearing all 2**16 slots (512 kB) takes
    about 10 us, after which the search's probes miss the processor's cache."""
    return 1 << min(CUT_BITS, n_cards + 4)


@njit(cache=True, _nrt=False, forceinline=True)
def cut_key(hands, turn, trump, slots):
    """The cut-off cache's (slot, 32-bit check) for the seat to move at its place in the
    trick (``turn``, a Turn; see the module docstring for what describes the situation; who
    is winning the trick so far is unused on lead); ``slots``: cut_slots of the search."""
    p, pos, lead_suit, alive = turn.p, turn.pos, turn.lead_suit, turn.alive
    wseat, wbit = turn.wseat, turn.wbit
    if pos == 0:
        cards = hands[p]
        context = p << 4
    elif suit_bits(hands[p], lead_suit) != 0:
        cards = suit_bits(alive, lead_suit) << (16 * lead_suit)
        context = 1 | (pos << 2) | (p << 4) | (wseat << 6) | ((wbit + 1) << 8)
    else:
        cards = hands[p]
        context = 2 | (pos << 2) | (p << 4) | (wseat << 6)
        if trump != NT:
            context |= (wbit + 1) << 8
    x = wrap_add(wrap_mul(cards, CUT_M1), wrap_mul(context + 1, 0x9E3779B1))
    x ^= (x >> 31) & 0x1FFFFFFFF
    x = wrap_mul(x, CUT_M2)
    x ^= (x >> 29) & 0x7FFFFFFFF
    return x & (slots - 1), (x >> 32) & 0xFFFFFFFF


@njit(cache=True, _nrt=False, forceinline=True)
def cut_hint(killer, slot, check):
    """The card (bit) the cut-off cache holds for (slot, check), or -1."""
    e = killer[CUT_CACHE + slot]
    if e != 0 and (e >> 8) == check:
        return (e & 0xFF) - 1
    return -1


@njit(cache=True, _nrt=False, forceinline=True)
def cut_record(killer, slot, check, b):
    """Card bit ``b`` cut off in the situation (slot, check): it replaces the slot's entry."""
    killer[CUT_CACHE + slot] = (check << 8) | (b + 1)


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
        cand = best_offer(hands[q], ls, trump)
        if cand < 0:
            continue
        if bs < 0 or beats(cand, bb, trump):
            bs = q
            bb = cand
    return bs, bb


@njit(cache=True, _nrt=False, forceinline=True)
def opponents_best(hands, p, pos, ls, trump, side):
    """later_best among the opponents of ``p`` only: the best card they can still offer in a
    trick led in suit ``ls`` (each his highest of ``ls``, or when void his highest trump), or
    -1 when none of them plays after ``p`` or can offer one."""
    best = -1
    for k in range(1, 4 - pos):
        q = (p + k) & 3
        if side[q] == side[p]:
            continue
        cand = best_offer(hands[q], ls, trump)
        if cand >= 0 and (best < 0 or beats(cand, best, trump)):
            best = cand
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def mate_ruffs(side, me, lseat, lbit, ls, trump):
    """Whether the best card to come in a trick led in side suit ``ls`` (``lseat``,
    ``lbit``: later_best) is a trump of a partner of side ``me``: he would ruff it."""
    return lseat >= 0 and side[lseat] == me and trump != NT and ls != trump and (lbit >> 4) == trump


@njit(cache=True, _nrt=False, forceinline=True)
def predict_win(turn, x, lseat, lbit, trump, side):
    """Guess whether the side of the seat to move (``turn``, a Turn) wins the trick if it
    plays card bit ``x`` now, given the best
    card (``lseat``, ``lbit``; see later_best) the later players can offer: the side holding
    the best card of all wins. A partner who plays later can still cover an opponent's card,
    so asking only "can the losing side win cheaply" misjudges discards. Only a heuristic for
    move ordering."""
    p, pos, wseat, wbit = turn.p, turn.pos, turn.wseat, turn.wbit
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
def order_moves(rules, hands, turn, wants, hints, moves, n):
    """Sort the moves best-first by a heuristic weight (never affects results, only speed).
    The node: ``turn`` (a Turn), its ``n`` moves in row ``turn.d`` of ``moves`` (a Moves).
    ``wants``: the side to move plays for tricks (False in a misère-like phase: the lone
    declarer must lose every remaining trick, so the declarer ducks and the defenders
    push). ``hints`` (a Hints): the history and lead killers, the table's best move and the
    cut-off cache's card (-1 = none)."""
    d, p, pos, lead_suit = turn.d, turn.p, turn.pos, turn.lead_suit
    wseat, wbit, alive = turn.wseat, turn.wbit, turn.alive
    trump, side_max = rules.trump, rules.side_max
    hist, tt_move, cut_move = hints
    mv, run, wt = moves
    me = side_max[p]
    left = popcount(hands[p])
    lseat = -1
    lbit = -1
    lsuit = -1
    lead_w = 0
    ours_s = 0
    rho_g = False
    holds_top = False  # the leader holds the top card of the suit (per suit led)
    # a partner still to play would ruff the trick (per suit led); following, our own card
    # of the suit led that beats every card the opponents can still offer (opp_best) then
    # comes first (see OWN_WIN_BONUS)
    ruffs = False
    opp_best = -1
    if wants and pos > 0:
        lseat, lbit = later_best(hands, p, pos, lead_suit, trump)
        ruffs = mate_ruffs(side_max, me, lseat, lbit, lead_suit, trump)
        if ruffs:
            opp_best = opponents_best(hands, p, pos, lead_suit, trump, side_max)
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
                # moves come grouped by suit: what depends on the suit alone is found once
                # per suit led (the best later card, the opponents' replies, our cards)
                lsuit = s
                lseat, lbit = later_best(hands, p, pos, s, trump)
                ruffs = mate_ruffs(side_max, me, lseat, lbit, s, trump)
                # suits where the opponents have few cards leave them few replies (a void
                # counts as many: it may discard anything), which keeps proofs small
                opp_count = 0
                for q in range(4):
                    if side_max[q] != me:
                        ln = popcount(suit_bits(hands[q], s))
                        opp_count += 4 * ln if ln > 0 else 4 * left + 4
                lead_w = -(opp_count * 32) // 15
                ours_s = side_holding(hands, side_max, me, s)[0]
                rho_g = rho_guards(hands, side_max, me, p, s, a_s)
                if rho_g:
                    lead_w -= RHO_HIGH_PENALTY
                holds_top = ((hands[p] >> (16 * s + topcard)) & 1) != 0
            win = predict_win(turn, b, lseat, lbit, trump, side_max)
            if pos == 0:
                w = lead_w
                if win:
                    w += 50
                    if rho_g:
                        w -= RHO_CASH_PENALTY
                    if top_of_run != topcard:
                        if ruffs and holds_top:
                            # the partner would ruff a trick our own top card takes: the
                            # top card keeps the lead here and the partner's trump
                            w -= RUFF_LEAD_PENALTY
                        else:
                            w += 5  # a low card to a partner's winner keeps our high cards
                            if ruffs:
                                w -= MATE_RUFF_LEAD_PENALTY
                else:
                    rest = ours_s & ~(1 << r)
                    if rest != 0 and popcount((a_s & ~ours_s) >> (hibit(rest) + 1)) == 1:
                        # a lead that knocks out the one card of theirs above our best other
                        # card of the suit (the king from K-Q against the ace) sets up that card;
                        # a low card of such a suit gets it too (kept to the leads that knock
                        # out: nodes +2.1-8.9% on the bench's seed and 4242, -0.6-3.5% on 9001)
                        w += 20
                    w += toward_partner(hands, side_max, me, p, s, r, a_s, trump)
                    if top_of_run != topcard and holds_top:
                        w -= UNDERLEAD_PENALTY
                w -= r >> 1
            else:
                if win:
                    w = 60 + 15 - r
                    if (
                        ruffs
                        and s == lead_suit
                        and beats(b, wbit, trump)
                        and (opp_best < 0 or beats(b, opp_best, trump))
                    ):
                        w += OWN_WIN_BONUS
                else:
                    w = 20 - r
                    if pos == 2 and s == lead_suit and beats(b, wbit, trump):
                        w += COVER_BONUS
                    if s == (lbit >> 4) and side_max[lseat] != me:
                        # the one card above b that is not our side's beats it: b forces it
                        # out (the queen from K-Q-x under the ace) and our higher card is top
                        above = a_s >> (r + 1)
                        mine_above = side_holding(hands, side_max, me, s)[0] >> (r + 1)
                        if mine_above != 0 and popcount(above & ~mine_above) == 1:
                            w = 45 - r
                if s != lead_suit:
                    if s == trump:
                        if pos < 3 and not win and beats(b, wbit, trump):
                            w += FORCING_RUFF_BONUS
                        elif not win or not beats(b, wbit, trump):
                            w -= 25  # a trump that does not win the trick is wasted
                    else:
                        # discard from long suits, keep masters and guarded seconds
                        mine_s = suit_bits(hands[p], s)
                        w += 2 * popcount(mine_s)
                        if top_of_run == topcard:
                            w -= 15
                        elif popcount(mine_s) == 2 and hibit(mine_s) == hibit(a_s ^ (1 << topcard)):
                            w -= GUARD_DISCARD_PENALTY
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
        if cut_move >= 0 and (run[d, i] >> cut_move) & 1:
            w += CUT_BONUS
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


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
