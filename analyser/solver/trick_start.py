"""What the search does at a trick start before it generates moves (numba).

At the first card of a trick, search.py first tries to settle the node without searching it,
in this order:

* the count: the goal is reached, or out of reach (goal_reached);
* misère at no trump with a defender on lead: the lone declarer ducks to the end, or a
  defender forces him to win the next trick (misere_cut);
* the last trick: one card each, so the play is forced (last_trick);
* the transposition table: the position's key, owner codes and aux (start_codes,
  start_aux), then its two buckets (probe_both).

The sure-trick bounds and the smaller misère game come after a table miss, in the search.
Every helper here is inlined into the search and reads only arrays its caller owns, so it is
compiled like the helpers of cuts.py and table.py (search.py's docstring: cost per node).
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import ctz, popcount, suit_bits
from analyser.solver.cuts import ducks_to_the_end, forced_to_win
from analyser.solver.jit import finish_module
from analyser.solver.layout import FAM_E, FAM_T, N_ADDR
from analyser.solver.partition import highest_beaten, trick_w, w_mode
from analyser.solver.position import beats
from analyser.solver.state import Address
from analyser.solver.table import tt_probe
from analyser.solver.table_keys import codes_in_play, key_after_trick, length_key


@njit(cache=True, _nrt=False, forceinline=True)
def goal_reached(fam, beta, goal, c, rem):
    """Whether the count alone settles a trick start, ``c`` tricks counted so far and
    ``rem`` tricks left. Returns (settled, value, need), ``need`` the tricks still wanted.

    FAM_T: the MAX side has ``beta`` already (value ``c``) or cannot reach it (value
    ``c + rem``, as if it took every trick left). FAM_E: the lone declarer is past ``goal`` or
    cannot reach it (0), or has it with no trick left (1). The value is 0 when unsettled."""
    if fam == FAM_T:
        need = beta - c
        if need <= 0:
            return True, c, need
        if need > rem:
            return True, c + rem, need
        return False, 0, need
    need = goal - c
    if need < 0 or need > rem:
        return True, 0, need
    if rem == 0:
        return True, 1, need
    return False, 0, need


@njit(cache=True, _nrt=False, forceinline=True)
def misere_cut(hands, leader, x, skip):
    """The misère tests of cuts.py for the lone declarer ``x`` at no trump, a defender
    ``leader`` on lead: (settled, value, bottom W). Settled with value 1 when x ducks to the
    end, with 0 when a lead forces him to win (suit ``skip`` excluded: a pending called
    card's suit, -1 for none); the W is 0 when neither settles it."""
    settled, wb = ducks_to_the_end(hands, x)
    if settled:
        return True, 1, wb
    settled, wb = forced_to_win(hands, leader, x, skip)
    return settled, 0, wb


@njit(cache=True, _nrt=False, forceinline=True)
def last_trick(hands, p, trump, side_cnt, fam, c, need):
    """The value of the last trick, led by ``p`` with one card in each hand (the play is
    forced), with the W it rests on: (value, top W, bottom W). FAM_T: ``c`` plus the trick if
    the counted side wins it; FAM_E: 1 if the lone declarer ends with the ``need`` tricks he
    still wants (0 or 1), else 0."""
    ws_ = p
    wb_ = ctz(hands[p])
    for k in range(1, 4):
        q = (p + k) & 3
        b = ctz(hands[q])
        if beats(b, wb_, trump):
            ws_ = q
            wb_ = b
    w = 0
    wb = 0
    # the winner's rank matters only if it beat a card of its own suit
    beaten = highest_beaten(ctz(hands[0]), ctz(hands[1]), ctz(hands[2]), ctz(hands[3]), wb_)
    if beaten >= 0:
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        w, wb = trick_w(alive, 0, 0, wb_, beaten, w_mode(fam, need))
    got = side_cnt[ws_]
    if fam == FAM_T:
        return c + got, w, wb
    return (1 if got == need else 0), w, wb


# the columns of a trick start's Address in the search's node rows (state.Address's fields in
# order, from layout.N_ADDR on)
A_KEY, A_AUX, A_TAG, A_C0, A_C1, A_BASE, A_BASE_TOP = range(N_ADDR, N_ADDR + 7)


@njit(cache=True, _nrt=False, forceinline=True)
def keep_address(node, d, addr):
    """Keep the Address ``addr`` of the trick start at depth ``d`` in row ``d``."""
    node[d, A_KEY] = addr.key
    node[d, A_AUX] = addr.aux
    node[d, A_TAG] = addr.tag
    node[d, A_C0] = addr.c0
    node[d, A_C1] = addr.c1
    node[d, A_BASE] = addr.base
    node[d, A_BASE_TOP] = addr.base_top


@njit(cache=True, _nrt=False, forceinline=True)
def address_at(node, d):
    """The Address kept in row ``d`` (keep_address)."""
    return Address(
        node[d, A_KEY],
        node[d, A_AUX],
        node[d, A_TAG],
        node[d, A_C0],
        node[d, A_C1],
        node[d, A_BASE],
        node[d, A_BASE_TOP],
    )


@njit(cache=True, _nrt=False, forceinline=True)
def start_codes(hands, alive, d, d0, node, ranks):
    """The table key (table_keys.length_key) and owner codes (table_keys.codes_in_play) of
    the trick start at depth ``d`` of a search that began at depth ``d0``, ``ranks`` the rank
    codes of its first position (table_keys.rank_codes): the key computed afresh at its
    first trick start, else updated from the trick start four plies up (which was searched,
    so its Address is in row ``d - 4`` of ``node``) and the trick played since."""
    c0, c1 = codes_in_play(ranks[0], ranks[1], alive)
    if d - 4 < d0:
        return length_key(hands[0], hands[1], hands[2], hands[3]), c0, c1
    return key_after_trick(node[d - 4, A_KEY], node, d - 4), c0, c1


@njit(cache=True, _nrt=False, forceinline=True)
def start_aux(p, pend, called_suit, called_bit, alive, fam, need):
    """The table's aux word of a trick start, below the generation bits: the leader ``p``,
    whether the called card is still to be played (``pend``) and its rank among the cards
    of its suit in play, and FAM_E's remaining need."""
    crel = 0
    if pend == 1:
        crel = popcount(suit_bits(alive, called_suit) >> (called_bit & 15))
    aux = p | (pend << 2) | (crel << 3) | ((need if fam == FAM_E else 0) << 8)
    # a pending duty also names its suit: searches of one deal for different called cards
    # share the table (solve_range), and their entries may only meet once the called card
    # is gone
    return aux | ((pend * called_suit) << 12)


@njit(cache=True, _nrt=False, forceinline=True)
def probe_both(view, addr, need, gen8):
    """Probe the two buckets of the trick start at ``addr`` (an Address) in the table
    ``view`` (a TableView; ``gen8`` its generation byte; table.tt_probe): (state, entry),
    state 1 = won, 0 = lost, -1 = undecided, with the entry then the likelier source of a
    best move (the shape bucket's when it is at least as alike), or -1."""
    # the shape bucket first: it decides about twice as many probes as the top-card bucket
    # (exact counts of the benchmark deals: 5.9M and 2.5M)
    st, e, like = tt_probe(view, addr.base, addr, need, gen8)
    if st < 0:
        e_shape = e
        like_shape = like
        st, e, like = tt_probe(view, addr.base_top, addr, need, gen8)
        if st < 0 and like_shape >= like:
            e = e_shape
    return st, e


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
