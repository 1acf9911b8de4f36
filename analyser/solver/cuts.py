"""Cut-offs that settle a node without searching it: sure-trick bounds at a trick start,
the second hand's sure trick, and the misère tests.

* trick_bounds (trick-taking goals, at a trick start): the trump bounds (later_tricks.py), the
  quick tricks (quick_tricks.py), and sure_one_trick when one side needs every remaining trick;
* second_hand_cut: once the lead is on the table, the second hand's side may be sure of this
  trick and of more tricks led by its winner (DDS checks the second hand likewise);
* late_hand_cut: the third or fourth hand's side is sure of this trick and wants no more
  (measured: a weak lone declarer's proofs of the 1 vs 3 benchmark, 200 exact counts,
  124.4M -> 103.3M nodes, the slowest 35.0M -> 24.6M; the other fingerprint sets within 1%);
* ducks_to_the_end and forced_to_win (misère at no trump): the lone declarer can lose every
  remaining trick, or a defender can force him to win the next one. misere_proof.py decides a
  smaller game when neither test settles the node.

Each returns the W of the cards its answer relied on (partition.py).
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import hibit, popcount, suit_bits
from analyser.solver.jit import finish_module
from analyser.solver.later_tricks import sure_trump_tricks
from analyser.solver.layout import NT
from analyser.solver.misere_proof import forced_in_suit, suit_is_safe
from analyser.solver.position import beats, best_offer, seat_of, side_count, side_holding
from analyser.solver.quick_tricks import qt_ceiling, quick_tricks


@njit(cache=True, _nrt=False, forceinline=True)
def sure_one_trick(rules, hands, leader, x, rem, pend):
    """True (with W) if the side opposing ``x`` is sure of a trick, for when ``x`` needs every
    remaining trick (``rules``: a Rules, ``pend`` 1 while the called card is owed). Two
    sound cases, both only when ``x`` holds no trumps (so it cannot ruff):

    * stoppers: the other side holds the top card of some suits. An opponent holding the tops
      of j of them keeps those cards to the end (he only parts with one when nothing else is
      left), and wins any trick led in such a suit while he holds its top; so tricks in these
      suits can only come in the last j - 1 tricks. Every other trick is led in a suit t, and
      each uses a card of t from every x hand that still has one: x gets at most
      sum over the other suits of its longest holding + max over opponents of (j - 1).
      With no trump left, no called card owed and x one hand or two, the j - 1 go. Each
      trick x wins is led in a suit whose top x holds and lowers x's longest holding there,
      so x only makes up the shortfall if an opponent lets go of a top card; he need not
      while he holds a card that is not a top one, so only when all his cards are tops of
      different suits, three tricks or fewer from the end. An exhaustive search of those
      endings (every seating, checked in tests/test_solver_stoppers.py) finds none that x
      makes while the sum falls short. Three hands of x can: each keeps a small card of a
      different suit and the lone opponent, holding those suits' tops, must bare one a trick;
    * the lead: ``x`` is on lead and, in every suit the leader holds, the top card is the
      other side's - with no trumps anywhere, it wins whatever is led.

    A pending called card binds its holder: on the called suit's first lead he must play the
    called card rather than that suit's top card, and when he may not discard the called card
    he can be forced to discard a top card. Suits whose top card he holds are not trusted."""
    trump, side = rules.trump, rules.side_max
    called_bit, holder, discard_ok = rules.called_bit, rules.holder, rules.discard_ok
    x_trumps = 0
    any_trumps = 0
    if trump != NT:
        for p in range(4):
            t = suit_bits(hands[p], trump)
            any_trumps |= t
            if side[p] == x:
                x_trumps |= t
    if x_trumps != 0:
        return False, 0
    total = 0  # x's longest holdings over the suits that are not stoppers
    stop_w = 0
    tops_held = 0  # stoppers per opponent seat, 4 bits each
    lead_ok = side[leader] == x and any_trumps == 0
    lead_w = 0
    for s in range(4):
        mine, theirs, longest = side_holding(hands, side, x, s)
        a = mine | theirs
        stopper = False
        if a != 0:
            top = hibit(a)
            if ((mine >> top) & 1) == 0:
                owner = seat_of(hands, 16 * s + top)
                trusted = not (
                    pend == 1
                    and owner == holder
                    and (s == (called_bit >> 4) or not discard_ok)
                    and 16 * s + top != called_bit
                )
                if trusted:
                    stopper = True
                    stop_w |= 1 << (16 * s + top)
                    tops_held += 1 << (4 * owner)
                    if suit_bits(hands[leader], s) != 0:
                        lead_w |= 1 << (16 * s + top)
        if not stopper:
            total += longest
            if suit_bits(hands[leader], s) != 0:
                lead_ok = False
    if stop_w != 0:
        extra = 0
        if any_trumps != 0 or pend == 1 or side_count(side, x) > 2:
            for p in range(4):
                j = (tops_held >> (4 * p)) & 15
                if j - 1 > extra:
                    extra = j - 1
        if total + extra < rem:
            return True, stop_w
    if lead_ok:
        return True, lead_w
    return False, 0


@njit(cache=True, _nrt=False, forceinline=True)
def guarded_second_trump(rules, hands, leader, x, pend):
    """True (with W) if the side opposing ``x`` is sure of a trump trick although ``x`` holds
    the top trump, for when ``x`` needs every remaining trick. A hand h of the other side, not
    on lead, holds the second trump and another one (DDS's later-tricks test, which settled
    positions our other bounds left to the search); then either

    * the top trump sits at h's right: it is played before h's card in every trick h does not
      lead, so h plays the second trump only when it wins (the top one held back) and a low
      trump under the top one; h leads only after its side has won a trick;
    * or h's side also holds the third trump: the top trump can beat only one of the two, and
      h never has to spend its low trump but on a trump lead (trumping is never required).

    A pending called card is not trusted: its holder may then have to play a trump."""
    trump, side = rules.trump, rules.side_max
    if trump == NT or pend == 1:
        return False, 0
    t = 0
    for p in range(4):
        t |= suit_bits(hands[p], trump)
    if popcount(t) < 3:
        return False, 0
    top = hibit(t)
    top_seat = seat_of(hands, 16 * trump + top)
    if side[top_seat] != x:
        return False, 0
    second = hibit(t ^ (1 << top))
    h = seat_of(hands, 16 * trump + second)
    if side[h] == x or h == leader or popcount(suit_bits(hands[h], trump)) < 2:
        return False, 0
    if top_seat == (h + 3) & 3:
        return True, 1 << (16 * trump + second)
    third = hibit(t ^ (1 << top) ^ (1 << second))
    if side[seat_of(hands, 16 * trump + third)] != x:
        return True, 1 << (16 * trump + third)
    return False, 0


@njit(cache=True, _nrt=False, forceinline=True)
def ducks_to_the_end(hands, x):
    """Can the lone declarer ``x``, not on lead at no trump, lose every remaining trick?

    Yes when every suit of his is safe: for each of his cards y, the other hands hold no more
    cards below y than he does. Then he can always follow under the card that is winning the
    trick (his own highest card below it), which keeps every suit safe - removing that card
    and a card above it leaves each count below y as it was or lower for the others - and
    discarding never wins. Never winning, he never leads. Returns (yes, W): a bottom W that
    fixes, per suit he holds, every card up to his highest (the test reads nothing above)."""
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    wb = 0
    for s in range(4):
        mine = suit_bits(hands[x], s)
        if mine == 0:
            continue
        if not suit_is_safe(mine, suit_bits(alive, s) & ~mine):
            return False, 0
        wb |= (1 << hibit(mine)) << (16 * s)
    return True, wb


@njit(cache=True, _nrt=False, forceinline=True)
def forced_to_win(hands, leader, x, skip):
    """Must the lone declarer ``x`` win the trick a defender ``leader`` leads at no trump?

    Yes when the leader holds a suit in which ``x`` has cards and every defender holding
    that suit has a card below x's lowest: the defenders play those, and x must follow above
    all of them. Suit ``skip`` (a pending called card's suit, whose holder may have to play
    that card instead; -1 for none) is not used. Returns (yes, W): a bottom W up to x's
    lowest card of that suit."""
    for s in range(4):
        if s != skip and suit_bits(hands[leader], s) != 0 and forced_in_suit(hands, x, s):
            mine = suit_bits(hands[x], s)
            return True, (mine & -mine) << (16 * s)
    return False, 0


@njit(cache=True, _nrt=False, forceinline=True)
def second_hand_cut(rules, hands, p, leader, lead, need, rem, c):
    """Sure tricks for the side of ``p``, the second hand of a trick whose lead ``lead`` was
    played by ``leader`` (``rules``: a Rules), ``need`` = tricks MAX still wants of the
    ``rem`` left (this one included), ``c`` = MAX's tricks so far. Returns (settled, value, W).

    The side surely wins this trick when no opponent still to play can ruff and either one
    of its hands still to play can ruff (void in the suit led, holding trumps) or the side
    holds the highest card of the suit led among the lead and the cards of the hands still
    to play (the lead itself when a partner led it). That is one trick. The hand that wins
    it then leads: with trumps, it takes a round with each of its trumps above every other
    trump; once those have drawn the opponents' trumps (or without trumps), also the next
    round of the suit led if it holds the two highest cards left there, the top card of each
    other suit it holds, and every card of a suit no other hand holds. Settling here saves
    playing out the rest of the trick before the trick-start bounds see the same (DDS checks
    the second hand likewise)."""
    trump, side = rules.trump, rules.side_max
    me = side[p]
    cutoff = need if me == 1 else rem - need + 1
    ls = lead >> 4
    ruffs = trump != NT and ls != trump
    # a partner's lead is ours: it may win the trick itself
    mates = side[leader] == me
    ours = (1 << (lead & 15)) if mates else 0
    theirs = 0 if mates else 1 << (lead & 15)
    ruffer = -1
    for k in range(3):
        q = (p + k) & 3
        hs = suit_bits(hands[q], ls)
        can_ruff = ruffs and hs == 0 and suit_bits(hands[q], trump) != 0
        if side[q] == me:
            ours |= hs
            if can_ruff:
                ruffer = q
        else:
            if can_ruff:
                return False, 0, 0
            theirs |= hs
    w = 0
    top = -1
    hh = ruffer
    if hh < 0:
        if ours == 0 or (theirs != 0 and hibit(ours) < hibit(theirs)):
            return False, 0, 0
        top = hibit(ours)
        w = 1 << (16 * ls + top)
        hh = leader
        for k in range(3):
            q = (p + k) & 3
            if side[q] == me and (suit_bits(hands[q], ls) >> top) & 1:
                hh = q
    got = 1
    if got < cutoff:
        # the winner of this trick leads the next ones
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        drawn = True
        if trump != NT:
            # his trumps above every other trump (without the one he wins this trick with:
            # his lowest when he ruffs) win a round each; once that leaves the opponents
            # none, nothing of his can be ruffed
            mt = suit_bits(hands[hh], trump)
            oth = suit_bits(alive, trump) ^ mt
            longest = side_holding(hands, side, 1 - me, trump)[2]
            if ruffer >= 0:
                mt &= mt - 1
            elif ls == trump and (mt >> top) & 1:
                mt ^= 1 << top
            run = mt >> (hibit(oth) + 1) << (hibit(oth) + 1) if oth else mt
            if run:
                got += popcount(run)
                w |= (run & -run) << (16 * trump)
            drawn = longest <= popcount(run)
        if drawn and got < cutoff:
            alive_ls = suit_bits(alive, ls)
            mine = suit_bits(hands[hh], ls)
            rest = alive_ls ^ (1 << hibit(alive_ls)) if alive_ls else 0
            if (
                ls != trump
                and ruffer < 0
                and (mine >> top) & 1
                and hibit(alive_ls) == top
                and rest != 0
            ):
                second = hibit(rest)
                if (mine >> second) & 1:
                    got += 1
                    w |= 1 << (16 * ls + second)
            for s in range(4):
                if got >= cutoff:
                    break
                hs = suit_bits(hands[hh], s)
                if s == ls or s == trump or hs == 0:
                    continue
                others = suit_bits(alive, s) ^ hs
                if others == 0:
                    got += popcount(hs)  # a suit no other hand holds
                elif hibit(hs) > hibit(others):
                    got += 1
                    w |= 1 << (16 * s + hibit(hs))
    if got < cutoff:
        return False, 0, 0
    return True, (c + got) if me == 1 else (c + rem - got), w


@njit(cache=True, _nrt=False, forceinline=True)
def late_hand_cut(rules, hands, turn, need, rem, c):
    """The third or fourth hand's cut (``turn.pos`` 2 or 3; ``turn`` a Turn, ``p`` the seat
    to move): the side of ``p`` is sure of this trick, and one trick (or two, see below) is
    all it still wants. ``ls`` is the suit led, ``wseat``/``wbit`` win the trick so far,
    ``table`` holds the cards already played to it (a mask), ``need`` = tricks MAX still
    wants of the ``rem`` left (this one included),
    ``c`` = MAX's tricks so far. Returns (settled, value, W).

    The side wins the trick when the card winning it is the side's and the fourth hand (if
    still to play, and an opponent) cannot beat it, or when ``p`` has a card that beats it
    and the fourth hand cannot beat that card. When the side wants two tricks, ``p`` must
    win this one himself and then hold, for the next lead, a card above every opponent card
    of its suit that no opponent can ruff. The fourth hand's best offer is his highest
    card of the suit led, or when void his highest trump; a fourth hand on p's side is left
    to the search. A lone declarer who needs one more trick meets this at every trick he
    can win, and without the cut each card of the fourth hand is searched to a trick start
    that is already decided. W: the winning card, when cards of its suit lie on the table
    or may still be played to the trick (its rank decided)."""
    p, pos, ls, table = turn.p, turn.pos, turn.lead_suit, turn.table
    wseat, wbit = turn.wseat, turn.wbit
    trump, side = rules.trump, rules.side_max
    me = side[p]
    cutoff = need if me == 1 else rem - need + 1
    if cutoff > 2:
        return False, 0, 0
    q = (p + 1) & 3
    qbest = -1  # the fourth hand's best offer (card bit), -1 when none or none to come
    if pos == 2:
        if side[q] == me:
            return False, 0, 0
        qbest = best_offer(hands[q], ls, trump)
    win = -1
    # a partner's card winning the trick wins it for the side, but p may still overtake it
    # (he may have to, following suit): then who leads next is not known, so only one trick
    if cutoff == 1 and side[wseat] == me and (qbest < 0 or not beats(qbest, wbit, trump)):
        win = wbit
    else:
        # p's strongest legal card
        x = best_offer(hands[p], ls, trump)
        if x >= 0 and beats(x, wbit, trump) and (qbest < 0 or not beats(qbest, x, trump)):
            win = x
    if win < 0:
        return False, 0, 0
    ws = win >> 4
    w = 0
    if suit_bits(table & ~(1 << win), ws) != 0 or (qbest >= 0 and (qbest >> 4) == ws):
        w = 1 << win
    if cutoff == 2:
        # a second trick: the winner leads next a card above every opponent card of its suit
        # that no opponent can ruff. The fourth hand still plays one unknown card to this
        # trick, so a ruff is ruled out only while he holds two cards of the suit
        mine = hands[p] & ~(1 << win)  # p plays ``win`` and leads next
        opp = 0
        ruffers = 0
        for k in range(4):
            if side[k] != me:
                opp |= hands[k]
                if trump != NT and suit_bits(hands[k], trump) != 0:
                    ruffers |= 1 << k
        second = -1
        for s in range(4):
            ms = suit_bits(mine, s)
            if ms == 0 or (suit_bits(opp, s) >> hibit(ms)) != 0:
                continue
            safe = True
            if s != trump:
                for k in range(4):
                    if (ruffers >> k) & 1:
                        lk = popcount(suit_bits(hands[k], s))
                        if lk < (2 if (pos == 2 and k == q) else 1):
                            safe = False
            if safe:
                second = 16 * s + hibit(ms)
                break
        if second < 0:
            return False, 0, 0
        return True, (c + 2) if me == 1 else (c + rem - 2), w | (1 << second)
    return True, (c + 1) if me == 1 else (c + rem - 1), w


@njit(cache=True, _nrt=False, forceinline=True)
def trick_bounds(rules, hands, p, c, need, rem, pend):
    """Cheap sure-trick bounds at a trick start (FAM_T), ``p`` to lead, ``c`` tricks counted,
    ``need`` wanted of the ``rem`` left, ``pend`` 1 while the called card is owed. Returns
    (settled, value, W)."""
    trump, side_max = rules.trump, rules.side_max
    called_bit, holder = rules.called_bit, rules.holder
    # the trump bounds first: they cost a fraction of quick_tricks, and settling a node
    # with them spares its call (time 0.97 on exact counts and rik >=8)
    if trump != NT:
        pairs = not (pend == 1 and (called_bit >> 4) == trump)
        # the trump bounds never exceed the side's trump count: skip a side whose trumps
        # could not settle the node anyway
        max_trumps, min_trumps, _ = side_holding(hands, side_max, 1, trump)
        if popcount(max_trumps) >= need:
            lt, lw = sure_trump_tricks(hands, trump, side_max, 1, pairs)
            if lt >= need:
                return True, c + lt, lw
        if rem - popcount(min_trumps) < need:
            lt, lw = sure_trump_tricks(hands, trump, side_max, 0, pairs)
            if rem - lt < need:
                return True, c + rem - lt, lw
    # quick tricks only settle the node when they reach `decisive`; their count never
    # exceeds qt_ceiling, which is far cheaper to compute
    decisive = need if side_max[p] == 1 else rem - need + 1
    if qt_ceiling(hands, p, trump, side_max) >= decisive:
        q, qw = quick_tricks(hands, p, trump, side_max, called_bit, holder, pend, decisive)
        if side_max[p] == 1:
            if q >= need:
                return True, c + q, qw
        elif rem - q < need:
            return True, c + rem - q, qw
    if need == rem:
        # MAX needs every trick: does MIN surely get one?
        ok, w1 = sure_one_trick(rules, hands, p, 1, rem, pend)
        if not ok:
            ok, w1 = guarded_second_trump(rules, hands, p, 1, pend)
        if ok:
            return True, c + rem - 1, w1
    if need == 1:
        # MIN needs every trick: does MAX surely get one?
        ok, w1 = sure_one_trick(rules, hands, p, 0, rem, pend)
        if not ok:
            ok, w1 = guarded_second_trump(rules, hands, p, 0, pend)
        if ok:
            return True, c + 1, w1
    return False, 0, 0


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
