"""Joined misère and piek: two or three declarers in one deal (numba).

Several players may play misère (or piek) in the same deal, each for himself (R-BID-08,
R-MIS-02, I-05, W-14, docs/rules.md). All of them play the same form (misère and piek share a
rank but neither joins the other), without trump. This module answers, for one declarer X of
the deal, whether X makes his contract against best play by the others. How the deal ends is
the rule set's switch ``several_declarers``:

* ``settle_all`` (book R-MIS-03 default, wiezen): every declarer is settled at his failure
  (misère: his first trick; piek: his second, or none at the end) and play goes on until all
  are settled. X makes iff he takes no trick (piek: exactly one) in the whole deal.
* ``stop_at_first_failure`` (IWWA I-06): play stops the moment any declarer fails, and the
  others are settled on the tricks they have then (misère made with none, piek only with
  exactly one). X makes iff he holds no trick (piek: exactly one) when play stops. So another
  declarer's failure ends the deal in X's favour at misère, but against him at piek when he
  has not yet taken his trick.

**The goal: a two-sided game per declarer.** X alone is MAX: he wins when he makes. Every
other seat is MIN, the defenders and the other declarers alike: the defenders' aim is to make
the declarers fail, and for X's question a co-declarer's choices count against X wherever his
own contract leaves him a choice. What a co-declarer may not do (the *duck* model, the
default): he never sinks himself when he can surely avoid it. When winning the current trick
would make him fail (misère: any trick; piek: a second one) and he holds a card of the led suit
below the highest card played to it so far, he plays one of those cards; without trump such a
card cannot win the trick whatever the later players do. A co-declarer who is void in the led
suit (every discard is safe), who is on lead, who holds only higher cards of the suit, or who
cannot be sunk by this trick (a piek player without a trick yet; under ``settle_all`` one who
has failed already) plays freely against X. X himself plays freely. The *coalition* model
drops the restriction: all three other seats join against X, a lower bound on X's chance in
both rule switches (under ``settle_all`` it is the lone declarer's own misère/piek game, which
the main solver answers; tests check that they agree). Restricting MIN only helps X, so the
duck answer is never below the coalition answer.

Each declarer's answer is his own game: "X makes and Y makes" on one deal means both make
against the worst case each of them faces, not that one line of play lets both make.

**The search.** An AND-OR search (values 1 = made, 0 = failed) over every legal card, one
card per run of equivalent cards (cards of one hand with no other hand's card, or card on the
table, between them), with a transposition table at trick boundaries keyed on the hands in
relative ranks (the cards already played squeezed out), the leader, the capped trick counts
and the question (declarers, X, form, switch, model). One shortcut: when X cannot be forced
any more - not on lead, needing no further trick, and every suit safe in the sense of
:func:`analyser.solver.misere_proof.suit_is_safe` (he can always follow under and discard from
the top) - he makes, whatever the others do. numba cannot cache recursive functions, so the
search keeps an explicit stack. A search that needs more than its node budget is given up
(answer :data:`UNDECIDED`); every other answer is exact.

**Budget rounds.** Where x still holds ROUND_MIN_CARDS cards or more, a node searches its
children in rounds: in the first each child may take ROUND_NODES nodes, and a child that
needs more is put aside; the next round gives the children put aside ROUND_GROWTH times as
many, and so on, within the node's own budget. Why: a MIN node needs one refutation, but the
card ordering often picks first a card that lets x escape, and proving that x escapes means
searching every defence to the end, while the refutation behind it is small. Under
``stop_at_first_failure`` this is the common case: a co-declarer cannot win a trick without
ending play in x's favour, so only the two defenders ever lead, and the lines that catch x
are few and deep. Measured on ``♠B62 ♥9742 ♦853 ♣642`` at seat 2 joined by seat 3,
iwwa2024, 100 deals, seed 1: in a search of 2.6M nodes that ended "x fails", 938k of 939k
finished nodes had the value "x makes" (the first lead tried took 2.4M nodes to show that x
escapes, the second lead refuted him in 232k). Sound: a node still returns only when a child
gives the mover's aim (exact) or when every child has given the other value (exact); a child
put aside is neither stored in the table nor counted as a value, and is searched again until
it has one or the node's own budget runs out, which gives the node up as before. So the
rounds never change an answer, only which positions are given up at the budget (tests:
the oracle with rounds of a few nodes at every node).

Hands are the solver's masks (bit 16 * suit + rank); card ints 0..51 only at the Python
boundary (:mod:`analyser.solver.api`). This module holds the search; the game's codes, trick
counts and move list are in joined_moves.py, the trick-start tests in joined_cuts.py, and
the table (and why it is not the main solver's) in joined_table.py.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analyser.solver.bits import popcount
from analyser.solver.jit import finish_module
from analyser.solver.joined_cuts import (
    leader_forces_x,
    wins_any_lead,
    x_cannot_be_forced,
    x_forced_on_lead,
)
from analyser.solver.joined_moves import (
    STOP_AT_FIRST_FAILURE,
    add_trick,
    joined_options,
    trick_count,
)
from analyser.solver.joined_table import jt_probe, jt_store, relative_hands
from analyser.solver.layout import ABANDONED, UNDECIDED
from analyser.solver.misere_proof import (
    RX_MEMO_BITS,
    RX_MIN_CARDS,
    RX_NODES,
    Memo,
    misere_safe,
    new_memo,
)
from analyser.solver.state import JoinedAsk, JoinedTrick

# frame columns of the explicit stack
F_LEADER, F_POS, F_LS, F_TOP, F_TOPSEAT, F_CNT, F_TABLE, F_N, F_I, F_SLOT = range(10)
F_LIM, F_CB, F_TODO, F_PEND = range(10, 14)
N_COLS = 14
# budget rounds (module docstring): nodes per child in the first round, the growth from
# round to round, and the fewest cards in x's hand for them
ROUND_NODES = 2000
ROUND_GROWTH = 4
ROUND_MIN_CARDS = 4
MAX_LEVELS = 53  # 52 cards, plus the root

# The search's own state, passed whole (besides JoinedAsk and JoinedTrick, state.py):
# Stack - the explicit stack (``fh`` the hands, ``fi`` the F_* columns, ``fk`` the table key
# per level, ``ob`` the options per level plus a scratch row); JoinedTable - the table
# ``tk``/``tv`` and this search's generation ``gen``; Budget - ``stats`` (int64[2+]: nodes,
# table hits), the node count ``limit`` at which this node gives up, and the budget
# ``rounds`` (int64[2]); JoinedBatch - the columns of a batch of positions (joined_api).
Stack = namedtuple("Stack", "fh fi fk ob")
JoinedTable = namedtuple("JoinedTable", "tk tv gen")
Budget = namedtuple("Budget", "stats limit rounds")
JoinedBatch = namedtuple("JoinedBatch", "hands leader x decl taken need rule model")


@njit(cache=True)
def _enter(lvl, g, at, ask, stack, jt, budget, memo):
    """Open the node at stack level ``lvl`` (hands ``g``; the trick ``at``, a JoinedTrick,
    with ``at.pos`` cards played) for the question ``ask`` (a JoinedAsk), on the explicit
    stack ``stack`` (a Stack), the table ``jt`` (a JoinedTable), the node budget ``budget``
    (a Budget) and the smaller game's memo (misere_proof.Memo). Returns its value when it is
    settled at once (1, 0, or ABANDONED when the budget is spent), else -1 with the frame
    filled in."""
    leader, pos, ls, top, topseat, cnt, table = at
    x, decl, need, ctx = ask.x, ask.decl, ask.need, ask.ctx
    fh, fi, fk, ob = stack
    tk, tv, gen = jt
    stats, limit, rounds = budget
    mk, mv, rxc = memo
    stats[0] += 1
    if stats[0] > limit:
        return ABANDONED
    slot = -1
    if pos == 0:
        if g[x] == 0:
            return 1 if trick_count(cnt, x) == need else 0
        if leader == x and trick_count(cnt, x) == need:
            if x_forced_on_lead(g, x):
                return 0
        elif (
            (ctx >> 7) & 1 == STOP_AT_FIRST_FAILURE
            and (decl >> leader) & 1
            and trick_count(cnt, leader) == need
            and wins_any_lead(g, leader)
        ):
            # a co-declarer on lead who must win this trick fails first, and play stops
            return 1 if trick_count(cnt, x) == need else 0
        elif trick_count(cnt, x) == need:
            if x_cannot_be_forced(g, x):
                return 1
            if leader_forces_x(g, leader, x):
                # he wins this trick and fails (under stop_at_first_failure too: nobody
                # else can fail in a trick he wins)
                return 0
        k0, k1, k2, k3 = relative_hands(g[0], g[1], g[2], g[3])
        aux = leader | (cnt << 2) | (ctx << 10)
        found, slot = jt_probe(tk, tv, k0, k1, k2, k3, aux, gen)
        if found >= 0:
            stats[1] += 1
            return found
        if leader != x and trick_count(cnt, x) == need and popcount(g[x]) >= RX_MIN_CARDS:
            # the smaller game is at least as good for the others as this one (any seat but
            # x may lead there, and nobody is bound to duck): safe there is safe here
            rx0 = rxc[0]
            safe, _wt, _wb = misere_safe(g, x, mk, mv, rxc, RX_NODES)
            # its nodes count against the budget at half weight, as in the main search
            stats[0] += (rxc[0] - rx0) >> 1
            if safe:
                return 1
        fk[lvl, 0] = k0
        fk[lvl, 1] = k1
        fk[lvl, 2] = k2
        fk[lvl, 3] = k3
        fk[lvl, 4] = aux
    p = (leader + pos) & 3
    fi[lvl, F_N] = joined_options(g, p, at, ask, ob[lvl], ob[MAX_LEVELS])
    for q in range(4):
        fh[lvl, q] = g[q]
    fi[lvl, F_LEADER] = leader
    fi[lvl, F_POS] = pos
    fi[lvl, F_LS] = ls
    fi[lvl, F_TOP] = top
    fi[lvl, F_TOPSEAT] = topseat
    fi[lvl, F_CNT] = cnt
    fi[lvl, F_TABLE] = table
    fi[lvl, F_I] = 0
    fi[lvl, F_SLOT] = slot
    fi[lvl, F_LIM] = limit
    fi[lvl, F_CB] = rounds[0] if rounds[0] > 0 and popcount(g[x]) >= rounds[1] else 0
    fi[lvl, F_TODO] = (1 << fi[lvl, F_N]) - 1
    fi[lvl, F_PEND] = 0
    return -1


@njit(cache=True)
def joined_search(hands, leader, taken, ask, jt, stats, limit, rounds):
    """Whether declarer ``x`` makes (1), fails (0) or the search gave up (UNDECIDED) at a
    trick boundary: ``hands`` int64[4] masks, ``leader`` on lead, ``taken`` int64[4] the
    tricks each seat holds already; ``ask`` (a JoinedAsk, :func:`joined_ask`): ``decl`` the
    declarers' seat bitmask (``x`` among them), ``need`` layout.NEED_MISERE / NEED_PIEK,
    ``rule`` SETTLE_ALL / STOP_AT_FIRST_FAILURE, ``model`` MODEL_DUCK / MODEL_COALITION
    (joined_moves.py). ``jt`` the table (a JoinedTable: joined_table.new_table and a
    generation number > 0; entries of other generations count as empty), ``stats``
    int64[2] (nodes, table hits; added to), ``limit`` the node budget (0 = none), ``rounds``
    int64[2] the budget rounds (module docstring): the first round's nodes per child (0 = no
    rounds) and the fewest cards in x's hand for them."""
    x, decl, need, rule = ask.x, ask.decl, ask.need, ask.rule
    tk, tv, gen = jt
    cnt = 0
    for p in range(4):
        cnt |= min(taken[p], 2) << (2 * p)
    budget = stats[0] + limit if limit > 0 else np.int64(1) << 62
    # settled before the first card: a failed declarer (or the first failure) decides it
    for p in range(4):
        if (decl >> p) & 1 and trick_count(cnt, p) > need:
            if p == x or rule == STOP_AT_FIRST_FAILURE:
                return 1 if trick_count(cnt, x) == need else 0
    fh = np.empty((MAX_LEVELS, 4), np.int64)
    fi = np.empty((MAX_LEVELS, N_COLS), np.int64)
    fk = np.empty((MAX_LEVELS, 5), np.int64)
    ob = np.empty((MAX_LEVELS + 1, 13), np.int64)  # the last row: scratch of joined_options
    g = np.empty(4, np.int64)
    # a fresh memo of the smaller game per search, so the nodes a position takes (and so
    # the positions given up at the budget) depend on the position alone
    big = popcount(hands[x]) >= RX_MIN_CARDS
    mk, mv = new_memo(RX_MEMO_BITS if big else 0)
    rxc = np.zeros(2, np.int64)
    for q in range(4):
        g[q] = hands[q]
    stack = Stack(fh, fi, fk, ob)
    memo = Memo(mk, mv, rxc)
    at = JoinedTrick(leader, 0, -1, -1, -1, cnt, 0)
    r = _enter(0, g, at, ask, stack, jt, Budget(stats, budget, rounds), memo)
    if r == ABANDONED:
        return UNDECIDED
    if r >= 0:
        return r
    lvl = 0
    while True:
        pos = fi[lvl, F_POS]
        leader_l = fi[lvl, F_LEADER]
        p = (leader_l + pos) & 3
        if r == ABANDONED:
            if stats[0] > fi[lvl, F_LIM]:
                # this frame's own budget is spent too: give it up as well
                lvl -= 1
                if lvl < 0:
                    return UNDECIDED
                continue
            # the child ran out of its round's budget: it waits for the next round
            fi[lvl, F_PEND] |= np.int64(1) << (fi[lvl, F_I] - 1)
            r = -1
        elif r >= 0:
            # r is the value of a child of frame lvl: a cut when it is the mover's aim
            if (p == x and r == 1) or (p != x and r == 0):
                jt_store(tk, tv, fi[lvl, F_SLOT], fk, lvl, r, gen)
                lvl -= 1
                if lvl < 0:
                    return r
                continue
            r = -1
        i = fi[lvl, F_I]
        todo = fi[lvl, F_TODO]
        while i < fi[lvl, F_N] and not (todo >> i) & 1:
            i += 1
        if i == fi[lvl, F_N]:
            if fi[lvl, F_PEND] != 0:
                # the next round: the children given up in this one, with more nodes each
                fi[lvl, F_TODO] = fi[lvl, F_PEND]
                fi[lvl, F_PEND] = 0
                fi[lvl, F_CB] = min(fi[lvl, F_CB] * ROUND_GROWTH, np.int64(1) << 50)
                fi[lvl, F_I] = 0
                continue
            r = 0 if p == x else 1
            jt_store(tk, tv, fi[lvl, F_SLOT], fk, lvl, r, gen)
            lvl -= 1
            if lvl < 0:
                return r
            continue
        fi[lvl, F_I] = i + 1
        lim = fi[lvl, F_LIM]
        if fi[lvl, F_CB] > 0:
            lim = min(lim, stats[0] + fi[lvl, F_CB])
        b = ob[lvl, i]
        for q in range(4):
            g[q] = fh[lvl, q]
        g[p] ^= np.int64(1) << b
        ls = fi[lvl, F_LS]
        top = fi[lvl, F_TOP]
        topseat = fi[lvl, F_TOPSEAT]
        if pos == 0:
            ls = b >> 4
            top = b
            topseat = p
        elif (b >> 4) == ls and b > top:
            top = b
            topseat = p
        cnt = fi[lvl, F_CNT]
        if pos == 3:
            w = topseat
            cnt = add_trick(cnt, w)
            if (
                (decl >> w) & 1
                and trick_count(cnt, w) > need
                and (w == x or rule == STOP_AT_FIRST_FAILURE)
            ):
                r = 1 if trick_count(cnt, x) == need else 0
            elif g[0] == 0:
                r = 1 if trick_count(cnt, x) == need else 0
            else:
                at = JoinedTrick(w, 0, -1, -1, -1, cnt, 0)
                r = _enter(lvl + 1, g, at, ask, stack, jt, Budget(stats, lim, rounds), memo)
        else:
            table = fi[lvl, F_TABLE] | (np.int64(1) << b)
            at = JoinedTrick(leader_l, pos + 1, ls, top, topseat, cnt, table)
            r = _enter(lvl + 1, g, at, ask, stack, jt, Budget(stats, lim, rounds), memo)
        if r == -1:
            lvl += 1


@njit(cache=True, _nrt=False, forceinline=True)
def joined_ask(x, decl, need, rule, model):
    """The JoinedAsk of declarer ``x`` among the declarers ``decl`` (codes: joined_search)."""
    # the question, for the table key: x, declarers, form, switch, model
    ctx = x | (decl << 2) | (need << 6) | (rule << 7) | (model << 8)
    return JoinedAsk(x, decl, need, rule, model, ctx)


@njit(cache=True, nogil=True)
def joined_range(idx, batch, tk, tv, gen, stats, budget, out):
    """Solve the positions ``idx`` (rows of ``batch``, a JoinedBatch) into ``out`` on one
    worker's table ``tk``/``tv`` (last generation used: ``gen``), without the GIL (Python
    threads share the batch). ``budget``: (the node budget per position, 0 = none; the
    budget rounds, int64[2]: joined_search). Each position searches in a
    fresh table generation, so its answer and its node count do not depend on which worker
    solved it or what it solved before. ``stats[0]``/``[1]`` count nodes and table hits,
    ``stats[2]`` positions given up. Returns the last generation used."""
    limit, rounds = budget
    for j in range(idx.shape[0]):
        i = idx[j]
        gen += 1
        ask = joined_ask(batch.x[i], batch.decl[i], batch.need[i], batch.rule[i], batch.model[i])
        jt = JoinedTable(tk, tv, gen)
        r = joined_search(
            batch.hands[i], batch.leader[i], batch.taken[i], ask, jt, stats, limit, rounds
        )
        if r == UNDECIDED:
            stats[2] += 1
        out[i] = r
    return gen


# no negative-index wraparound, cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
