"""What happens when all four players pass (R-BID-05, V-07/V-08/V-09, iwwa I-13), and its scoring.

Public API:

* :func:`all_pass_games` ``(ruleset)`` — the games that may be played after four passes: none
  (redeal, or V-08 where four passes cannot happen), ``("schoppen_mie",)`` (V-09) or
  ``("schoppen_mie", "one_of_five")`` (iwwa: the dealer chooses). Both are played without trump.
* :func:`score_schoppen_mie` — the taker of ♠Q pays 5 to each other player; under iwwa the
  taker of the last trick pays 5 to each other player as well.
* :func:`score_one_of_five` — every player with exactly 1 or exactly 5 tricks wins 10 from each
  player who has neither (no winner: all 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyser.cards import N_SEATS
from analyser.errors import RulesError
from analyser.rules.contracts import ALL_TRICKS
from analyser.rules.ruleset import RuleSet

SCHOPPEN_MIE_PENALTY = 5  # V-09 default and I-13
LAST_TRICK_PENALTY = 5  # I-13
ONE_OF_FIVE_AMOUNT = 10  # I-13
ONE_OF_FIVE_WINNING_COUNTS = (1, 5)


def all_pass_games(ruleset: RuleSet) -> tuple[str, ...]:
    """The games that may follow four passes under ``ruleset`` (empty: the deal is redealt)."""
    if ruleset.all_pass == "schoppen_mie":
        return ("schoppen_mie",)
    if ruleset.all_pass == "dealer_choice":
        return ("schoppen_mie", "one_of_five")
    return ()


def score_schoppen_mie(
    ruleset: RuleSet, queen_taker: int, last_trick_taker: int | None = None
) -> tuple[int, int, int, int]:
    """Points per seat in Schoppen Mie: ``queen_taker`` took ♠Q, ``last_trick_taker`` trick 13.

    The last-trick penalty applies only under iwwa's form (``all_pass=dealer_choice``), where
    ``last_trick_taker`` is required.
    """
    if "schoppen_mie" not in all_pass_games(ruleset):
        raise RulesError(f"Schoppen Mie is not played under {ruleset.spec!r}")
    out = [0] * N_SEATS
    _pay_each(out, _seat(queen_taker), SCHOPPEN_MIE_PENALTY)
    if ruleset.all_pass == "dealer_choice":
        if last_trick_taker is None:
            raise RulesError("iwwa Schoppen Mie needs the seat that took the last trick")
        _pay_each(out, _seat(last_trick_taker), LAST_TRICK_PENALTY)
    return tuple(out)  # type: ignore[return-value]


def score_one_of_five(ruleset: RuleSet, tricks: Sequence[int]) -> tuple[int, int, int, int]:
    """Points per seat in 1 of 5 from the tricks each seat took (13 in all)."""
    if "one_of_five" not in all_pass_games(ruleset):
        raise RulesError(f"1 of 5 is not played under {ruleset.spec!r}")
    counts = [int(t) for t in tricks]
    if len(counts) != N_SEATS or any(t < 0 for t in counts) or sum(counts) != ALL_TRICKS:
        raise RulesError(f"1 of 5 needs 4 trick counts summing to 13, got {counts}")
    winners = [s for s in range(N_SEATS) if counts[s] in ONE_OF_FIVE_WINNING_COUNTS]
    losers = [s for s in range(N_SEATS) if s not in winners]
    out = [0] * N_SEATS
    for w in winners:
        for loser in losers:
            out[w] += ONE_OF_FIVE_AMOUNT
            out[loser] -= ONE_OF_FIVE_AMOUNT
    return tuple(out)  # type: ignore[return-value]


def _pay_each(out: list[int], payer: int, amount: int) -> None:
    for seat in range(N_SEATS):
        out[seat] += -(N_SEATS - 1) * amount if seat == payer else amount


def _seat(seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < N_SEATS:
        raise RulesError(f"a seat must be an int 0..3, got {seat!r}")
    return seat
