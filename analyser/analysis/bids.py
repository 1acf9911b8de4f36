"""The bids of a hand as the evaluation sees them: :class:`BidSpec`, scores and exactness.

Seats: every function here takes the absolute :data:`~analyser.seats.Seat` (0..3, N E S W);
the place relative to the dealer (:data:`~analyser.seats.Place` 1..4, the ``--seat`` option)
is converted by :func:`analyser.seats.seat_of`. The analysis puts the dealer at West, so place
1 = North = forehand (bids first, leads the first trick of a closed contract), 4 = West.

A :class:`BidSpec` holds everything the evaluation needs about one contract: its contract
family (the :mod:`analyser.analysis.families` module that evaluates it, which
:func:`~analyser.analysis.families.registry.bid_specs` looks up by the contract's kind), the
strains the declarer may choose from (the turned suit where the contract plays it, W-01), the
seat leading to trick 1 (from :func:`analyser.rules.first_leader`; None for troel, led by the
partner who varies per deal), the solver goal, the declarer's score for every trick count
(the rule set's :func:`~analyser.rules.declarer_score`, docs/rules.md §6 and ``fail_mode``),
and what a double-dummy figure means for it (:data:`EXACTNESS_TEXT`).
"""

from __future__ import annotations

from dataclasses import dataclass

from analyser.cards import ACE, N_RANKS, N_SUITS, card
from analyser.errors import RikkenError
from analyser.rules import (
    RIKKEN,
    Contract,
    ContractFamily,
    RuleSet,
    declarable_contracts,
    declarer_score,
)
from analyser.seats import Seat, turn_order

N_TRICKS = N_RANKS + 1  # a side takes 0..13 tricks: one score per count
# The families of rule sets the analysis plays (analyser.rules.contracts.FAMILIES).
ANALYSED_FAMILIES = ("rikken", "wiezen")

EXACT, PESSIMISTIC, OPTIMISTIC = "exact", "pessimistic", "optimistic"
EXACTNESS_TEXT = {
    EXACT: "exact: all hands are open and the defenders confer, so play is double-dummy",
    PESSIMISTIC: "pessimistic: the defenders play as if they saw the declarer's cards "
    "(and each other's)",
    OPTIMISTIC: "optimistic: both sides see every card (the rikker knows his partner, every "
    "finesse is right)",
}
UPPER_BOUND_TEXT = (
    "upper bound: the malheur partner names the best trump for the actual deal, "
    "which he cannot know"
)


def schema_id(contract: Contract, family: ContractFamily = RIKKEN) -> tuple[str, bool]:
    """The bid id and beter flag of the JSON schema. Rikken family: solo is ``alone_13``,
    beter alone bids are ``alone_N`` with ``beter`` true, beter rik keeps its own id
    ``beter_rik``. Other families (wiezen) use the contract id (``abondance_9_turned``,
    ``solo_slim``) and never set ``beter``."""
    if family is not RIKKEN:
        return contract.id, False
    if contract.kind == "alone":
        return f"alone_{contract.n}", contract.beter
    if contract.kind == "solo":
        return "alone_13", contract.beter
    if contract.kind == "rik":
        return ("beter_rik" if contract.beter else "rik"), contract.beter
    return contract.kind, False


@dataclass(frozen=True)
class BidSpec:
    """One contract as the evaluation sees it (see the module docstring)."""

    contract: Contract
    family: str
    """The name of the contract family that evaluates it (:mod:`analyser.analysis.families`)."""
    rank: int
    """1-based rank on the rule set's ladder."""
    strains: tuple[int, ...]
    """Strains the trump chooser may name (4 = no trump; one strain = no choice)."""
    leader: Seat | None
    """Seat 0..3 leading to trick 1; None where it varies per deal (troel: the partner)."""
    target: int
    """Tricks in the goal (8, N, 13; 0 misère, 1 piek)."""
    scores: tuple[int, ...]
    """The declarer's score with t = 0..13 tricks (for misère/piek: the declarer's own)."""
    exactness: str
    visibility: str

    @property
    def id(self) -> str:
        """The canonical contract id (``alone_9_beter``, ``solo``, ...)."""
        return self.contract.id

    def made_score(self) -> int:
        """Score when made (misère/piek family: exactly ``target`` tricks)."""
        return self.scores[self.target]

    def failed_score(self) -> int:
        """Score of a failed misère/piek (any wrong trick count pays the same)."""
        return self.scores[self.target + 1]


def check_analysed(ruleset: RuleSet, command: str = "rikken analyse") -> None:
    """RikkenError (one line) when ``command`` cannot analyse under ``ruleset`` yet."""
    if ruleset.family.name not in ANALYSED_FAMILIES:
        raise RikkenError(f"the {ruleset.name} rule set is not yet supported by {command}")


def left_out(ruleset: RuleSet, hand: list[int], seat: Seat) -> list[Contract]:
    """Contracts of ``ruleset`` that :func:`~analyser.analysis.families.registry.bid_specs`
    leaves out because this hand at absolute ``seat`` can never bid them
    (:func:`~analyser.rules.declarable_contracts`: below malheur for 3-4 aces under an
    obligatory malheur, beter rik for the forehand, ...). Malheur itself, which needs 3
    aces, is not listed."""
    offered = set(declarable_contracts(ruleset, aces_held(hand), turn_order(seat)))
    return [c for c in ruleset.contracts if c not in offered and c.kind != "malheur"]


def score_table(ruleset: RuleSet, contract: Contract) -> tuple[int, ...]:
    """The declarer's score for 0..13 tricks of his side (docs/rules.md §6 under ``ruleset``)."""
    return tuple(declarer_score(ruleset, contract, t) for t in range(N_TRICKS))


def aces_held(hand: list[int]) -> int:
    """Number of aces in ``hand``."""
    return sum(card(s, ACE) in set(hand) for s in range(N_SUITS))
