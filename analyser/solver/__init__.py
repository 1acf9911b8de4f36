"""Double-dummy solver for every Rikken contract (numba).

Positions are at a trick boundary: four hands with equal counts, a trump suit or no trump,
the leader, the declarer side (one seat, or two seats adjacent or opposite), a goal and an
optional called card. See :func:`solve` and :func:`solve_batch`. :func:`card_values` values
every legal card of the seat to move, also with a trick in progress (the play API).
"""

from analyser.solver.api import PositionError, Solver, parse_goal, solve, solve_batch
from analyser.solver.layout import GOAL_GE, GOAL_MISERE, GOAL_PIEK, GOAL_TRICKS, UNDECIDED
from analyser.solver.play import card_values, legal_runs

__all__ = [
    "GOAL_GE",
    "GOAL_MISERE",
    "GOAL_PIEK",
    "GOAL_TRICKS",
    "PositionError",
    "Solver",
    "card_values",
    "legal_runs",
    "parse_goal",
    "solve",
    "solve_batch",
    "UNDECIDED",
]
