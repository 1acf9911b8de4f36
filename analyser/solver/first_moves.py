"""A node's moves as the search tries them: a hinted move first, alone, and the others only
when it fails.

A hint is the table's best move at a trick start, else the card that last cut off in the same
local situation (moves.cut_key; when both exist on different cards there is no hint and the
node is ordered as usual). On the bench's exact counts 70% of the nodes with more than one move
have a hint and 6.7M of 8.3M such nodes cut off with it, so first_moves finds the hinted card's
run of equivalent cards alone (hinted_run) and generates the other moves only if it fails
(other_moves), in gen_moves' order, so that the search tries the same moves in the same order
as when it generated them all at once: the same nodes and answers. On the bench's first 20
exact counts under valgrind's cachegrind that took 1.1% fewer instructions and 10.7% fewer
mispredicted branches (valgrind's model of a predictor) than generating every move of every
node.

A seat that owes the called card, or a forced first card, gets its moves from gen_moves as
before.
"""

from __future__ import annotations

from numba import njit

from analyser.solver.bits import ctz, hibit, suit_bits
from analyser.solver.jit import PROFILE_BUILD, finish_module
from analyser.solver.layout import (
    N_CUT_CHECK,
    N_CUT_SLOT,
    N_LAZY,
    N_MOVES,
    N_NEXT,
    N_ORDER_AT,
    N_PEND,
    N_TT_MOVE,
    P_GENERATE,
    S_PROFILE,
    S_SINK,
)
from analyser.solver.moves import cut_hint, cut_key, gen_moves


@njit(cache=True, _nrt=False, forceinline=True)
def swap_moves(mv, run, d, i, j):
    """Swap moves ``i`` and ``j`` of row ``d`` (card and run)."""
    b = mv[d, i]
    r = run[d, i]
    mv[d, i] = mv[d, j]
    run[d, i] = run[d, j]
    mv[d, j] = b
    run[d, j] = r


@njit(cache=True, _nrt=False, forceinline=True)
def legal_cards(h, turn):
    """The cards of hand ``h`` the seat to move (``turn``, a Turn) may play when no called
    card is owed: those of the suit led, else all."""
    h_ls = suit_bits(h, turn.lead_suit) if turn.pos > 0 else 0
    return h_ls << (16 * turn.lead_suit) if h_ls else h


@njit(cache=True, _nrt=False, forceinline=True)
def hinted_run(h, alive, legal, b):
    """The move a hinted card bit ``b`` stands for, found without generating the others: the
    run of equivalent cards of hand ``h`` that holds ``b`` (cards adjacent among ``alive``),
    as gen_moves gives it; 0 when ``b`` is not among the ``legal`` cards."""
    if not (legal >> b) & 1:
        return 0
    s = b >> 4
    mine = suit_bits(h, s)
    sep = suit_bits(alive, s) & ~mine
    r = b & 15
    above = sep >> (r + 1) << (r + 1)
    below = sep & ((1 << r) - 1)
    run = mine & ((above & -above) - 1) if above else mine
    if below:
        run &= ~((2 << hibit(below)) - 1)
    return run << (16 * s)


@njit(cache=True, _nrt=False, forceinline=True)
def node_hint(killer, slot, check, tt_move):
    """The node's hinted card: the table's best move ``tt_move`` (-1: none), else the cut-off
    cache's card for (slot, check); -1 when both exist on different cards (the ordering then
    weighs them) or neither does."""
    hint = cut_hint(killer, slot, check)
    if tt_move >= 0:
        hint = tt_move if hint < 0 or hint == tt_move else -1
    return hint


@njit(cache=True, _nrt=False, forceinline=True)
def first_moves(rules, mem, hands, turn, node, moves, force, slots):
    """Put the moves node ``turn.d`` tries first into its row of ``moves`` (a Moves) and
    return how many: the hinted move alone (node's N_LAZY set: other_moves generates the
    rest), else every move, the hinted one first. ``force`` >= 0 is a card the seat must play
    (its only move, -1 for none); ``slots``: the search's cut_slots. Sets the node's cut-off
    cache slot and check (-1: no slot, a single move or a forced card), and N_ORDER_AT: 1 when
    a hinted move leads, 0 when the moves are to be ordered at once, -1 for a single move.
    Reads the table's best move from N_TT_MOVE and the called-card duty from N_PEND."""
    d, p = turn.d, turn.p
    trump, holder = rules.trump, rules.holder
    mv, run = moves.mv, moves.run
    killer = mem.killer
    # a forced card neither asks nor tells the cut-off cache (-1): recording forced cards as
    # well displaced useful ones (27.8M nodes instead of 27.0M, exact counts)
    node[d, N_CUT_SLOT] = -1
    node[d, N_ORDER_AT] = -1
    node[d, N_LAZY] = 0
    tt_move = node[d, N_TT_MOVE]
    hint = -1
    slot = -1
    check = 0
    if force < 0 and not (node[d, N_PEND] == 1 and p == holder):
        legal = legal_cards(hands[p], turn)
        if legal & (legal - 1):
            slot, check = cut_key(hands, turn, trump, slots)
            hint = node_hint(killer, slot, check, tt_move)
            if hint >= 0:
                hr = hinted_run(hands[p], turn.alive, legal, hint)
                # (a run of all the legal cards is the only move: no cache slot, as below)
                if hr != 0 and hr != legal:
                    mv[d, 0] = ctz(hr)
                    run[d, 0] = hr
                    node[d, N_LAZY] = 1
                    node[d, N_CUT_SLOT] = slot
                    node[d, N_CUT_CHECK] = check
                    node[d, N_ORDER_AT] = 1
                    return 1
    if force >= 0:
        mv[d, 0] = force
        run[d, 0] = 1 << force
        return 1
    n = gen_moves(rules, hands, turn, node[d, N_PEND], moves)
    if PROFILE_BUILD and mem.stats[S_PROFILE] == P_GENERATE:
        mem.stats[S_SINK] += n
        n = gen_moves(rules, hands, turn, node[d, N_PEND], moves)
    if n > 1:
        if slot < 0:
            slot, check = cut_key(hands, turn, trump, slots)
            hint = node_hint(killer, slot, check, tt_move)
        node[d, N_CUT_SLOT] = slot
        node[d, N_CUT_CHECK] = check
        node[d, N_ORDER_AT] = 0
        k = -1
        if hint >= 0:
            for i in range(n):
                if (run[d, i] >> hint) & 1:
                    k = i
        if k >= 0:
            # to the front, the others in their order (the sort is stable)
            for i in range(k, 0, -1):
                swap_moves(mv, run, d, i, i - 1)
            node[d, N_ORDER_AT] = 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def other_moves(rules, hands, turn, node, moves):
    """The hinted first move of node ``turn.d`` failed: leave its row of ``moves`` with the
    other moves (generated now if only the hinted one was), in gen_moves' order, and the
    node's N_MOVES and N_NEXT set to try them from the first."""
    d = turn.d
    mv, run = moves.mv, moves.run
    k = 0  # where the tried move stands: first, unless the moves are generated now
    if node[d, N_LAZY] == 1:
        node[d, N_LAZY] = 0
        tried = run[d, 0]
        node[d, N_MOVES] = gen_moves(rules, hands, turn, node[d, N_PEND], moves)
        for i in range(node[d, N_MOVES]):
            if run[d, i] == tried:
                k = i
    # the tried move leaves the list, the others keep their order
    n = node[d, N_MOVES] - 1
    for i in range(k, n):
        swap_moves(mv, run, d, i, i + 1)
    node[d, N_MOVES] = n
    node[d, N_NEXT] = 0


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
