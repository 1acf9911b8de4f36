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
N_STATS = 8

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

# goals of a position (analyser.solver.api.solve_batch)
GOAL_TRICKS = 0  # exact number of tricks of the declarer side
GOAL_GE = 1  # 1 if the declarer side can take at least `target` tricks
GOAL_MISERE = 2  # 1 if the lone declarer can avoid every trick
GOAL_PIEK = 3  # 1 if the lone declarer can take exactly one trick
UNDECIDED = -1  # result of a position abandoned at its node budget (max_nodes)
ABANDONED = -1000  # search's return value when it gives up
