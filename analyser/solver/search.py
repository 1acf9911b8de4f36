"""The double-dummy search: one null-window alpha-beta search over the play of the cards.

search answers "does the MAX side reach its goal?" for a position at a trick boundary, or with
cards already on the table in the current trick (``trick0``), and returns a fail-soft value;
``force`` makes the first move one given card (the value of that card: the play API, and
troel's partner card that must lead trick 1). It is iterative (an explicit stack of nodes, one
per card played), with these techniques, each safe:

* Alpha-beta with a null window: every node returns a boolean, so a single good move ends a
  MAX node and a single refutation ends a MIN node.
* Equivalent cards (moves.py): cards adjacent among those still in play are one move.
* Move ordering (moves.py) only decides how soon a cut-off comes. Besides the card heuristics,
  the table's best move and history weights, a cut-off card cache at all four seats: the card
  that last cut off in the same local situation (moves.cut_key) is tried early.
* A hinted move is tried before the others are generated or ordered (first_moves.py): the
  table's best move at a trick start, else the cut-off cache's card (when both exist on
  different cards, the node is ordered as usual). On the bench's exact counts 70% of the
  ordered nodes have a hint, the ordering put it first at 98.9% of them, and 6.7M of the
  8.3M cut off with it and never order at all. The others are ordered once it fails, with the
  history as it is then, so the nodes differ slightly from ordering everything at once.
* Partition search (table.py, partition.py): results are stored at trick boundaries with the set
  W of cards that decided them, so every position that agrees on W reuses them. When an
  all-node's child W cuts through the run a move represented, the cut moves to the run's end,
  so the run stays wholly fixed or wholly free (otherwise its unsearched siblings would not be
  covered).
* At a trick start (trick_start.py) the count, the misère tests, the forced last trick and
  the table settle the node when they can, before any move is generated.
* Sure-trick bounds at trick starts and the second hand's cut (cuts.py, quick_tricks.py,
  later_tricks.py): only provably safe bounds.
* Misère: a defender to lead who can force the lone declarer to win at once settles the node;
  so does a declarer who can duck to the end (every suit safe), or who survives the smaller game
  of misere_proof.py (safe suits reduced to card counts).

Goal families: FAM_T - the MAX side (which is also the counted side) needs at least ``beta``
tricks; table values are bounds on the counted side's future tricks. FAM_E - a lone declarer
(MAX and counted) needs exactly ``goal`` tricks in all (misère: 0, piek: 1); the position's
remaining need is part of the table key and entries hold a won/lost flag.

Cost per node (measured with perf on rik positions; same nodes, same answers):
* Helpers that only read and write arrays their caller owns are compiled with ``_nrt=False``.
  Otherwise numba increments and decrements the reference count of every array argument on
  every call, with atomic instructions: that was 38% of the solver's time.
* Rows of the move arrays are passed as (array, row), not as slices: a slice is a new array
  object, reference-counted again.
* Those helpers are also compiled with ``forceinline=True``. numba links each helper into
  ``search`` as a separate function, and LLVM's inliner left them as real calls: every call
  passed each array argument as seven machine words and went through numba's status-code
  return. Inlined, 300 rik positions (``>=8``, then the exact count) took 7.9 s instead of
  10.3 s on one thread, with the same nodes and answers; the cost is a longer first
  compilation (about 20 s more to fill numba's cache).
* Every solver module compiles without numba's negative-index wraparound for arrays (no array
  index is ever negative; analyser/solver/plain_index.py): numba otherwise compares every
  signed array index with zero and adds the array's length when it is below. 150 rik positions
  took 3.55 s instead of 3.95 s on one thread, same nodes and answers.
* The per-depth values live in one array, ``node`` (a row per depth, layout.N_* columns), not
  in twenty: with one array the loop keeps one base address in a register instead of reloading
  each array's from the stack. On the first 10 exact counts of the benchmark (callgrind, same
  nodes) the loop read 19% fewer words of memory and ran 3.9% fewer instructions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyser.solver.bits import ctz, hibit, popcount, suit_bits
from analyser.solver.cuts import late_hand_cut, second_hand_cut, trick_bounds
from analyser.solver.first_moves import first_moves, other_moves
from analyser.solver.jit import PROFILE_BUILD, finish_module
from analyser.solver.layout import (
    ABANDONED,
    FAM_E,
    FAM_T,
    LEAD_KILLER,
    LEAD_KILLER_2,
    N_BEST,
    N_CARD,
    N_CNT,
    N_COLS,
    N_CUT_CHECK,
    N_CUT_SLOT,
    N_HIGH,
    N_LOW,
    N_MOVES,
    N_NEXT,
    N_ORDER_AT,
    N_PEND,
    N_RES,
    N_SEARCHED,
    N_SEAT,
    N_SKIPS,
    N_TABLE,
    N_TRICKB,
    N_TT_MOVE,
    N_WACC,
    N_WACCB,
    N_WBIT,
    N_WSEAT,
    NT,
    P_CUTS,
    P_ORDER,
    P_PROBE,
    P_QUICK,
    P_STORE,
    S_NODES,
    S_PROFILE,
    S_QT_CUTS,
    S_RX_NODES,
    S_SEARCHES,
    S_SINK,
    S_TRICK_NODES,
    S_TT_HITS,
    S_TT_STORES,
)
from analyser.solver.misere_proof import (
    RX_MEMO_BITS,
    RX_MIN_CARDS,
    RX_NODES,
    misere_safe,
    new_memo,
)
from analyser.solver.moves import cut_hint, cut_record, cut_slots, order_moves
from analyser.solver.partition import highest_beaten, raise_w, trick_w, w_mode
from analyser.solver.position import beats
from analyser.solver.state import Address, Hints, Moves, Result, Turn
from analyser.solver.table import (
    C_M0,
    C_M1,
    GEN_SHIFT,
    TT_WAYS,
    entry_bounds,
    gen_byte,
    table_view,
    tt_bucket,
    tt_store,
    tt_tag,
)
from analyser.solver.table_keys import rank_codes, top_owners, w_from_masks
from analyser.solver.trick_start import (
    address_at,
    goal_reached,
    keep_address,
    last_trick,
    misere_cut,
    probe_both,
    start_aux,
    start_codes,
)


@njit(cache=True, _nrt=False, forceinline=True)
def node_turn(hands, d, p, pos, node):
    """The Turn of node ``d`` (seat ``p`` at place ``pos`` of the trick): the cards played to
    the trick so far are in rows ``d - pos`` .. ``d - 1`` of ``node`` (and together in row
    ``d``'s N_TABLE), its winner so far in row ``d - 1``."""
    table = node[d, N_TABLE]
    alive = hands[0] | hands[1] | hands[2] | hands[3] | table
    if pos == 0:
        return Turn(d, p, 0, -1, p, 0, 0, alive)
    lead_suit = node[d - pos, N_CARD] >> 4
    return Turn(d, p, pos, lead_suit, node[d - 1, N_WSEAT], node[d - 1, N_WBIT], table, alive)


@njit(cache=True, _nrt=False, forceinline=True)
def copy_moves(moves, src, dst, n):
    """Copy the first ``n`` moves (cards and runs) of row ``src`` of ``moves`` to row ``dst``."""
    for i in range(n):
        moves.mv[dst, i] = moves.mv[src, i]
        moves.run[dst, i] = moves.run[src, i]


@njit(cache=True)
def search(rules, root, fam, beta, mem, max_nodes):
    """Null-window search from a trick boundary, returning a fail-soft value.

    ``rules``, ``root`` and ``mem`` are the search state (analyser/solver/state.py: Rules,
    Root, Memory). ``root.trick[:root.n_trick]`` are the cards (bit indices) already played
    to the current trick, from ``root.leader`` on (0..3 of them; ``root.hands`` holds the
    cards still in hands); the value then counts the current trick too. ``root.force`` >= 0
    is the card the seat to move must play first (a legal card of his), -1 for a free
    choice. The first node's value is then not the
    position's, so it is neither looked up in nor stored to the table, and no bound that lets
    that seat choose his card is applied to it.

    FAM_T: the value counts the tricks of the counted side (= MAX side) over the whole play
    from here; ``v >= beta`` means MAX reaches ``beta`` and ``v`` is then a lower bound of the
    true value, otherwise an upper bound. FAM_E: 1 if the lone declarer (MAX and counted) ends
    with exactly ``rules.goal`` tricks from here, else 0 (call with beta = 1).
    ``mem.tt``/``mem.tb`` are the transposition table arrays; entries of other generations
    than ``mem.gen`` are empty (table.next_generation).
    ``mem.killer`` (int64[KILLER_SIZE]) holds the move-ordering history, the leads that cut
    off per depth and the cut-off card cache (see LEAD_KILLER, CUT_CACHE); solve_one clears
    what a position uses of it (moves.cut_slots) for each position.
    ``max_nodes`` > 0 abandons the search after that many nodes (its own, and half of those
    of the smaller misère game, misere_proof) and returns ABANDONED (entries stored until then are
    proven and stay valid). So does ``mem.evict_limit`` > 0 once the search's stores have
    replaced more than that many of its own entries (the table is too small for it).
    """
    # the state's members as locals, once per search: the loop below reads them as before
    trump, side_max, side_cnt, goal, called_bit, holder, discard_ok = rules
    hands0, leader0, pend0, trick0, n_trick0, force = root
    tt, tb, gen, killer, stats, evict_limit = mem
    stats[S_SEARCHES] += 1
    # 0 but in the solver's profile build (jit.PROFILE_BUILD): a concern done twice (layout.py)
    prof = stats[S_PROFILE] if PROFILE_BUILD else 0
    hands = hands0.copy()
    # who holds each card: the table's owner codes at every trick start come from these
    ranks = rank_codes(hands[0], hands[1], hands[2], hands[3])
    d0 = n_trick0
    # tricks left, the current one included: the seat to move has not played to it yet
    n0 = popcount(hands[(leader0 + d0) & 3])
    total = 4 * n0
    nb = tt.shape[0] // TT_WAYS
    # one row per depth, and a spare row: the profile's ordering concern keeps a node's
    # unsorted moves there, to sort them again from the same order
    spare = total + 1
    mv = np.empty((total + 2, 14), np.int64)
    run = np.empty((total + 2, 14), np.int64)
    wt = np.empty(14, np.int64)
    # one row per depth (layout.N_*): its moves, values, cards and table address
    node = np.zeros((total + 2, N_COLS), np.int64)
    n_slots = cut_slots(n0)

    # the smaller misère game's results (misere_proof), for the misère-like phases only
    rx_k, rx_v = new_memo(RX_MEMO_BITS if fam == FAM_E and trump == NT else 0)
    rx_cnt = np.zeros(2, np.int64)
    # the table with its check and generation bytes, eight slots a word (tt_probe, tt_store)
    view = table_view(tt, tb, gen)
    gen8 = gen_byte(gen)
    moves = Moves(mv, run, wt)

    for k in range(d0 + 1):
        node[k, N_PEND] = pend0
    for k in range(d0):
        b = trick0[k]
        node[k, N_CARD] = b
        node[k + 1, N_TABLE] = node[k, N_TABLE] | (1 << b)
        node[k, N_SEAT] = (leader0 + k) & 3
        if k == 0 or beats(b, node[k - 1, N_WBIT], trump):
            node[k, N_WSEAT] = node[k, N_SEAT]
            node[k, N_WBIT] = b
        else:
            node[k, N_WSEAT] = node[k - 1, N_WSEAT]
            node[k, N_WBIT] = node[k - 1, N_WBIT]
    called_suit = called_bit >> 4 if called_bit >= 0 else -1
    evictions = 0  # entries of this search its stores replaced (mem.evict_limit)
    nodes_here = 0  # search nodes and the smaller misère game's, for the budget
    lone_decl = 0  # FAM_E: the one MAX seat
    for q in range(4):
        if side_max[q] == 1:
            lone_decl = q
    d = d0
    descending = True
    v = 0
    w = 0
    wb = 0  # W is two-sided: top cut-off cards in w, bottom cut-off cards in wb
    while True:
        settled = False
        if descending:
            descending = False
            stats[S_NODES] += 1
            if max_nodes > 0:
                nodes_here += 1
                if nodes_here > max_nodes:
                    return ABANDONED
            pos = d & 3
            if pos == 0:
                p = leader0 if d == 0 else node[d - 1, N_WSEAT]
            else:
                p = (node[d - 1, N_SEAT] + 1) & 3
            node[d, N_SEAT] = p
            node[d, N_SEARCHED] = 0
            node[d, N_BEST] = -1
            tt_move = -1
            forced_root = d == d0 and force >= 0
            if pos == 0:
                stats[S_TRICK_NODES] += 1
                rem = n0 - (d >> 2)
                c = node[d, N_CNT]
                w = 0
                wb = 0
                rx_here = False
                settled, v, need = goal_reached(fam, beta, goal, c, rem)
                if (
                    not settled
                    and fam == FAM_E
                    and need == 0
                    and not forced_root
                    and side_max[p] == 0
                    and trump == NT
                    and not (node[d, N_PEND] == 1 and holder == lone_decl)
                ):
                    # misere phase, a defender on lead, no trumps (a trump could be forced
                    # to win), and no called card the declarer must still play (it could
                    # be forced to win): without this a safe hand is only proved by
                    # searching every defence to the last trick
                    skip = called_suit if node[d, N_PEND] == 1 else -1
                    settled, v, wb = misere_cut(hands, p, lone_decl, skip)
                    if prof == P_CUTS:
                        stats[S_SINK] += v
                        settled, v, wb = misere_cut(hands, p, lone_decl, skip)
                    # neither: the smaller game may still prove it (after the table)
                    rx_here = not settled and rem >= RX_MIN_CARDS
                if not settled and rem == 1:
                    v, w, wb = last_trick(hands, p, trump, side_cnt, fam, c, need)
                    settled = True
                if not settled:
                    alive = hands[0] | hands[1] | hands[2] | hands[3]
                    key, c0, c1 = start_codes(hands, alive, d, d0, node, ranks)
                    if prof == P_PROBE:
                        stats[S_SINK] += key
                        key, c0, c1 = start_codes(hands, alive, d, d0, node, ranks)
                    tneed = need if fam == FAM_T else 1
                    aux = start_aux(p, node[d, N_PEND], called_suit, called_bit, alive, fam, need)
                    # buckets from the position alone, the generation only in the check
                    # byte and the entry (table.next_generation)
                    base = tt_bucket(key, aux, nb)
                    base_top = tt_bucket(key, aux ^ (top_owners(c0, c1, alive) << 40), nb)
                    aux |= gen << GEN_SHIFT
                    tag = tt_tag(key, aux)
                    addr = Address(key, aux, tag, c0, c1, base, base_top)
                    # a forced first lead: its value is not the position's (any lead), so the
                    # table is neither asked nor told, and the bounds below (which let the
                    # leader choose his lead) are not applied
                    if forced_root:
                        st = -1
                        e = -1
                    else:
                        st, e = probe_both(view, addr, tneed, gen8)
                        if prof == P_PROBE:
                            stats[S_SINK] += e
                            st, e = probe_both(view, addr, tneed, gen8)
                    if st >= 0:
                        stats[S_TT_HITS] += 1
                        if fam == FAM_T:
                            e_lb, e_ub, _ = entry_bounds(tt, e)
                            v = c + (e_lb if st == 1 else e_ub)
                        else:
                            v = st
                        w, wb = w_from_masks(tt[e, C_M0], tt[e, C_M1], alive)
                        settled = True
                    else:
                        if e >= 0:
                            tt_move = entry_bounds(tt, e)[2]
                        if fam == FAM_T and not forced_root:
                            pd = node[d, N_PEND]
                            settled, v, w = trick_bounds(rules, hands, p, c, need, rem, pd)
                            if prof == P_QUICK:
                                stats[S_SINK] += v
                                settled, v, w = trick_bounds(rules, hands, p, c, need, rem, pd)
                            if settled:
                                stats[S_QT_CUTS] += 1
                        elif rx_here:
                            rx0 = rx_cnt[0]
                            settled, w, wb = misere_safe(
                                hands, lone_decl, rx_k, rx_v, rx_cnt, RX_NODES
                            )
                            stats[S_RX_NODES] += rx_cnt[0] - rx0
                            # the node budget bounds the smaller game's work too, at half
                            # weight: a node of it costs about half a node of the search
                            nodes_here += (rx_cnt[0] - rx0) >> 1
                            v = 1
                        if not settled:
                            node[d, N_SEARCHED] = 1
                            keep_address(node, d, addr)
            elif pos == 1 and fam == FAM_T and node[d, N_PEND] == 0 and not forced_root:
                lead_seat, lead_card = node[d - 1, N_SEAT], node[d - 1, N_CARD]
                need = beta - node[d, N_CNT]
                rem = n0 - (d >> 2)
                settled, v, w = second_hand_cut(
                    rules, hands, p, lead_seat, lead_card, need, rem, node[d, N_CNT]
                )
                if prof == P_CUTS:
                    stats[S_SINK] += v
                    settled, v, w = second_hand_cut(
                        rules, hands, p, lead_seat, lead_card, need, rem, node[d, N_CNT]
                    )
                if settled:
                    wb = 0
                    stats[S_QT_CUTS] += 1
            elif pos >= 2 and fam == FAM_T and node[d, N_PEND] == 0 and not forced_root:
                need = beta - node[d, N_CNT]
                rem = n0 - (d >> 2)
                if (need <= 2) if side_max[p] == 1 else (need >= rem - 1):
                    turn = node_turn(hands, d, p, pos, node)
                    settled, v, w = late_hand_cut(rules, hands, turn, need, rem, node[d, N_CNT])
                    if prof == P_CUTS:
                        stats[S_SINK] += v
                        settled, v, w = late_hand_cut(rules, hands, turn, need, rem, node[d, N_CNT])
                    if settled:
                        wb = 0
                        stats[S_QT_CUTS] += 1
            if not settled:
                turn = node_turn(hands, d, p, pos, node)
                node[d, N_TT_MOVE] = tt_move
                n = first_moves(
                    rules, mem, hands, turn, node, moves, force if forced_root else -1, n_slots
                )
                node[d, N_MOVES] = n
                node[d, N_NEXT] = 0
                node[d, N_SKIPS] = 0
                node[d, N_RES] = -1 if side_max[p] == 1 else 99
                node[d, N_WACC] = 0
                node[d, N_WACCB] = 0
        if not settled and node[d, N_ORDER_AT] == node[d, N_NEXT]:
            # the node's moves are ordered here: at once, or after its hinted move failed
            node[d, N_ORDER_AT] = -1
            if node[d, N_NEXT] == 1:
                # the hinted move failed: the others, without it
                turn = node_turn(hands, d, node[d, N_SEAT], d & 3, node)
                other_moves(rules, hands, turn, node, moves)
            n = node[d, N_MOVES]
            if n > 1:
                cut_move = cut_hint(killer, node[d, N_CUT_SLOT], node[d, N_CUT_CHECK])
                hints = Hints(killer, node[d, N_TT_MOVE], cut_move)
                # FAM_E's misère-like phase (no trick wanted any more): nobody plays for tricks
                wants = fam == FAM_T or goal - node[d, N_CNT] > 0
                if prof == P_ORDER:
                    copy_moves(moves, d, spare, n)
                order_moves(rules, hands, turn, wants, hints, moves, n)
                if prof == P_ORDER:
                    stats[S_SINK] += mv[d, 0]
                    copy_moves(moves, spare, d, n)
                    order_moves(rules, hands, turn, wants, hints, moves, n)
        if not settled:
            # skip moves proven equivalent to a failed sibling: their whole run lies between
            # the cards that mattered in that sibling's proof (see lowwin below)
            while node[d, N_NEXT] < node[d, N_MOVES]:
                b = mv[d, node[d, N_NEXT]]
                r = run[d, node[d, N_NEXT]]
                bs = b >> 4
                if (
                    not (node[d, N_SKIPS] >> bs) & 1
                    or (hibit(r) & 15) >= node[d, N_LOW + bs]
                    or (b & 15) <= node[d, N_HIGH + bs]
                ):
                    break
                node[d, N_NEXT] += 1
            if node[d, N_NEXT] < node[d, N_MOVES]:
                # play the next move of node d
                b = mv[d, node[d, N_NEXT]]
                node[d, N_NEXT] += 1
                p = node[d, N_SEAT]
                pos = d & 3
                hands[p] ^= 1 << b
                node[d, N_CARD] = b
                node[d + 1, N_TABLE] = node[d, N_TABLE] | (1 << b) if pos < 3 else 0
                if pos == 0 or beats(b, node[d - 1, N_WBIT], trump):
                    node[d, N_WSEAT] = p
                    node[d, N_WBIT] = b
                else:
                    node[d, N_WSEAT] = node[d - 1, N_WSEAT]
                    node[d, N_WBIT] = node[d - 1, N_WBIT]
                node[d + 1, N_PEND] = node[d, N_PEND] if b != called_bit else 0
                if pos == 3:
                    node[d + 1, N_CNT] = node[d, N_CNT] + side_cnt[node[d, N_WSEAT]]
                    # the winner's rank mattered only if it beat a card of its own suit
                    b0, b1, b2 = node[d - 3, N_CARD], node[d - 2, N_CARD], node[d - 1, N_CARD]
                    node[d, N_TRICKB] = highest_beaten(b0, b1, b2, b, node[d, N_WBIT])
                else:
                    node[d + 1, N_CNT] = node[d, N_CNT]
                d += 1
                descending = True
                continue
            # every move tried without a cut-off: the best (fail-soft) value found
            v = node[d, N_RES]
            w = node[d, N_WACC]
            wb = node[d, N_WACCB]
        # node d is decided with (v, w): store it, then hand the answer up the stack
        while True:
            if node[d, N_SEARCHED] == 1 and not (d == d0 and force >= 0):
                if node[d, N_PEND] == 1:
                    # the obligation depends on which card is the called one
                    w |= 1 << called_bit
                w, wb = raise_w(w, wb, hands)
                rel = v - node[d, N_CNT] if fam == FAM_T else v
                addr = address_at(node, d)
                alive = hands[0] | hands[1] | hands[2] | hands[3]
                result = Result(w, wb, v >= beta, rel, node[d, N_BEST])
                if tt_store(view, addr, alive, n0 - (d >> 2), result) and evict_limit > 0:
                    evictions += 1
                    if evictions > evict_limit:
                        return ABANDONED
                if prof == P_STORE:
                    stats[S_SINK] += 1
                    tt_store(view, addr, alive, n0 - (d >> 2), result)
                stats[S_TT_STORES] += 1
            if d == d0:
                return v
            d -= 1
            hands[node[d, N_SEAT]] ^= 1 << node[d, N_CARD]
            if (d & 3) == 3 and node[d, N_TRICKB] >= 0:
                alive = hands[0] | hands[1] | hands[2] | hands[3]
                for k in range(d - 3, d):
                    alive |= 1 << node[k, N_CARD]
                mode = w_mode(fam, goal - node[d - 3, N_CNT])
                w, wb = trick_w(alive, w, wb, node[d, N_WBIT], node[d, N_TRICKB], mode)
            ismax = side_max[node[d, N_SEAT]]
            if (v >= beta) == (ismax == 1):
                # cut-off: MAX reached beta, or MIN held MAX below it
                killer[node[d, N_SEAT] * 64 + node[d, N_CARD]] += 1 << (n0 - (d >> 2))
                if (d & 3) == 0 and killer[LEAD_KILLER + d] != node[d, N_CARD] + 1:
                    killer[LEAD_KILLER_2 + d] = killer[LEAD_KILLER + d]
                    killer[LEAD_KILLER + d] = node[d, N_CARD] + 1
                node[d, N_BEST] = node[d, N_CARD]
                if node[d, N_CUT_SLOT] >= 0:
                    cut_record(killer, node[d, N_CUT_SLOT], node[d, N_CUT_CHECK], node[d, N_CARD])
                continue
            if ismax == 1:
                if v > node[d, N_RES]:
                    node[d, N_RES] = v
            elif v < node[d, N_RES]:
                node[d, N_RES] = v
            # all-node so far: its answer depends on every child, and on the run of
            # equivalent cards this move stood for: the run must lie wholly inside or wholly
            # outside each fixed segment, so a cut-off inside the run moves to its end
            i = node[d, N_NEXT] - 1
            rn = run[d, i]
            if (w & rn & ~(1 << node[d, N_CARD])) != 0:
                w |= 1 << node[d, N_CARD]
            s = node[d, N_CARD] >> 4
            wbs = suit_bits(wb, s)
            if wbs and ((1 << (16 * s + hibit(wbs))) & rn) and hibit(wbs) != hibit(rn) & 15:
                wb |= 1 << hibit(rn)
            node[d, N_WACC] |= w
            node[d, N_WACCB] |= wb
            # a failed move whose run lies between the cards of its suit that mattered so far
            # (below every top one, above every bottom one) proves the same for the other runs
            # there: later runs inside (high, low) are skipped
            if not (node[d, N_SKIPS] >> s) & 1:
                ws = suit_bits(node[d, N_WACC], s)
                low = ctz(ws) if ws != 0 else 16
                wbs = suit_bits(node[d, N_WACCB], s)
                high = hibit(wbs) if wbs != 0 else -1
                if (hibit(rn) & 15) < low and (node[d, N_CARD] & 15) > high:
                    node[d, N_LOW + s] = low
                    node[d, N_HIGH + s] = high
                    node[d, N_SKIPS] |= 1 << s
            break


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
