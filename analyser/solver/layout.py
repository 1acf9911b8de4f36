"""Constants every solver module shares: goal codes, trick families, the statistics slots and
the layout of the move-ordering array.

Conventions of the whole solver (see analyser/cards.py for the boundary): a hand is an int64
mask with 16 bits per suit, and a card inside the solver is its *bit index* 16 * suit + rank
(rank 0 = the deuce, 12 = the ace), never a Python object; suits are 0..3 (spades, hearts,
diamonds, clubs) and NT = 4 is no trump; seats are 0..3 (N E S W, clockwise). A side is an
int64[4] array holding 1 for each seat of the MAX side (the declarer side) and 0 for the others.
"""

from __future__ import annotations

NT = 4  # the strain "no trump" (suits are 0..3)

# goal families of the search: FAM_T, the MAX side needs at least ``beta`` tricks; FAM_E, a
# lone declarer needs exactly ``goal`` tricks in all (NEED_MISERE, NEED_PIEK)
FAM_T = 0
FAM_E = 1
# the tricks a misère and a piek declarer take, alone (FAM_E) or joined (joined_misere.py)
NEED_MISERE = 0
NEED_PIEK = 1

# statistics slots
S_NODES, S_TT_HITS, S_TT_STORES, S_QT_CUTS, S_SEARCHES, S_TRICK_NODES = 0, 1, 2, 3, 4, 5
S_ESCALATED = 6  # positions solved again on the large table
S_RX_NODES = 7  # nodes of the smaller misère game (misere_proof), not counted in S_NODES
# The solver's profile per concern (tests/bench/bench_solver_profile.py): a search reads
# S_PROFILE once and, where it names a concern (P_*), does that concern's work twice at every
# node that does it, with the same inputs and the same result, so the extra time is the
# concern's cost; 0 (always, outside the profile) does everything once. S_SINK takes the
# first result, a store between the two that keeps the compiler from merging them. Only the
# profile build reads S_PROFILE (jit.PROFILE_BUILD); the solver everyone runs ignores it.
S_PROFILE = 8
S_SINK = 9
N_STATS = 10
P_GENERATE = 1  # move generation (moves.gen_moves)
P_ORDER = 2  # ordering (moves.order_moves), again from a copy of the same unsorted moves
P_PROBE = 3  # the table's key and probe at a trick start (trick_start.start_codes, probe_both)
P_STORE = 4  # the table's store (table.tt_store)
P_QUICK = 5  # quick and later tricks at a trick start (cuts.trick_bounds)
P_CUTS = 6  # the second and late hand's cuts and the misère cut (cuts.py, trick_start.py)
PROFILE_CONCERNS = {
    "generation": P_GENERATE,
    "ordering": P_ORDER,
    "table probe": P_PROBE,
    "table store": P_STORE,
    "quick tricks": P_QUICK,
    "cut tests": P_CUTS,
}

# The move-ordering array a search is given (``killer``): a history weight per (seat, card)
# at [seat * 64 + bit], then per depth the last two leads that cut off there
# (bit + 1; 0 = none) at [LEAD_KILLER + d] (the last) and [LEAD_KILLER_2 + d] (the one before),
# then the cut-off card cache: 2**CUT_BITS slots from CUT_CACHE, each 0 (empty) or
# (32-bit check << 8) | (bit + 1) of the card that last cut off in a situation hashed to that
# slot (analyser.solver.moves.cut_key).
LEAD_KILLER = 256
LEAD_KILLER_2 = LEAD_KILLER + 64
CUT_CACHE = LEAD_KILLER_2 + 64
CUT_BITS = 16
KILLER_SIZE = CUT_CACHE + (1 << CUT_BITS)

# The search's per-depth state (search.py): one row of ``node`` per depth (int64), so the
# search keeps one array instead of one per value and each node's values lie together.
# N_MOVES/N_NEXT: how many moves the node has and the next one to try; N_RES: its best
# value so far (fail-soft); N_WACC/N_WACCB: the W its searched moves relied on (top and
# bottom); N_CARD/N_SEAT: the card played at this depth and who played it; N_WSEAT/N_WBIT:
# who wins the trick so far and with which card; N_CNT: the counted side's tricks before
# this depth; N_PEND: 1 while the called card is owed; N_TRICKB: the highest card the
# trick's winner beat (-1: its rank did not matter); N_SEARCHED: 1 for a trick start that
# is searched (its result is stored); N_BEST: the move that cut off; N_CUT_SLOT/N_CUT_CHECK:
# its cut-off cache slot and check (-1: none); N_TT_MOVE: the table's best move; N_ORDER_AT:
# the move index at which its moves are ordered (0: before the first, 1: after a hinted first
# move failed, -1: not at all); N_LAZY: 1 while only the hinted move is generated (the
# others are generated when it fails); N_TABLE: the cards on the table before this depth
# plays (of its trick); N_SKIPS: a bit per suit whose N_LOW/N_HIGH are set; N_LOW/N_HIGH (4
# each, per suit): the bounds of the runs proven equivalent to a failed sibling; N_ADDR (7):
# the trick start's Address (trick_start.keep_address).
(
    N_MOVES,
    N_NEXT,
    N_RES,
    N_WACC,
    N_WACCB,
    N_CARD,
    N_SEAT,
    N_WSEAT,
    N_WBIT,
    N_CNT,
    N_PEND,
    N_TRICKB,
    N_SEARCHED,
    N_BEST,
    N_CUT_SLOT,
    N_CUT_CHECK,
    N_TT_MOVE,
    N_ORDER_AT,
    N_LAZY,
    N_TABLE,
    N_SKIPS,
) = range(21)
N_LOW = 21
N_HIGH = 25
N_ADDR = 29
N_COLS = 37

# goals of a position (analyser.solver.api.solve_batch)
GOAL_TRICKS = 0  # exact number of tricks of the declarer side
GOAL_GE = 1  # 1 if the declarer side can take at least `target` tricks
GOAL_MISERE = 2  # 1 if the lone declarer can avoid every trick
GOAL_PIEK = 3  # 1 if the lone declarer can take exactly one trick
UNDECIDED = -1  # result of a position abandoned at its node budget (max_nodes)
ABANDONED = -1000  # search's return value when it gives up
