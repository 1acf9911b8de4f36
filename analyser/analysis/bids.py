"""Which bids a hand can make under a rule set, and how each maps to solver positions.

Seats: every function here takes the absolute :data:`~analyser.seats.Seat` (0..3, N E S W);
the place relative to the dealer (:data:`~analyser.seats.Place` 1..4, the ``--seat`` option)
is converted by :func:`analyser.seats.seat_of`. The analysis puts the dealer at West, so place
1 = North = forehand (bids first, leads the first trick of a closed contract), 4 = West.

A :class:`BidSpec` holds everything the evaluation needs about one contract: its family
(``rik``, ``alone`` (every lone trick target: alone, solo, abondance, solo slim), ``null``
for misère/piek in every form, ``malheur``; wiezen: ``vragen`` (ask + meegaan) and
``troel`` (troel, troela)), the strains the declarer may choose from (the turned suit where
the contract plays it, W-01), the seat leading to trick 1 (from
:func:`analyser.rules.first_leader`; None for troel, led by the partner who varies per deal),
the solver goal, the declarer's score for every trick count (the rule set's
:func:`~analyser.rules.declarer_score`, docs/rules.md §6 and ``fail_mode``), and what a double-dummy
figure means for it (:data:`EXACTNESS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from analyser.cards import ACE, HEARTS, NOTRUMP, card
from analyser.errors import RikkenError
from analyser.rules import (
    RIKKEN,
    Contract,
    ContractFamily,
    RuleSet,
    contract_terms,
    declarable_contracts,
    declarer_score,
    first_leader,
    troel_partner_card,
    troel_trump,
)
from analyser.rules.terms import (
    PARTNER_CALLED_ACE,
    PARTNER_MALHEUR,
    PARTNER_MEEGAAN,
    PARTNER_NONE,
    PARTNER_TROEL,
)
from analyser.seats import FOREHAND, Seat, turn_order

FAMILY_RIK, FAMILY_ALONE, FAMILY_NULL, FAMILY_MALHEUR = "rik", "alone", "null", "malheur"
FAMILY_VRAGEN, FAMILY_TROEL = "vragen", "troel"  # wiezen W-07, W-04/W-05
# The evaluation family of each partner mechanism of a partnership contract (terms.py).
PARTNER_FAMILIES = {
    PARTNER_CALLED_ACE: FAMILY_RIK,
    PARTNER_MALHEUR: FAMILY_MALHEUR,
    PARTNER_MEEGAAN: FAMILY_VRAGEN,
    PARTNER_TROEL: FAMILY_TROEL,
}
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
    """Contracts of ``ruleset`` that :func:`bid_specs` leaves out because this hand at
    absolute ``seat`` can never bid them (:func:`~analyser.rules.declarable_contracts`: below
    malheur for 3-4 aces under an obligatory malheur, beter rik for the forehand, ...).
    Malheur itself, which needs 3 aces, is not listed."""
    offered = set(declarable_contracts(ruleset, aces_held(hand), turn_order(seat)))
    return [c for c in ruleset.contracts if c not in offered and c.kind != "malheur"]


def score_table(ruleset: RuleSet, contract: Contract) -> tuple[int, ...]:
    """The declarer's score for 0..13 tricks of his side (docs/rules.md §6 under ``ruleset``)."""
    return tuple(declarer_score(ruleset, contract, t) for t in range(14))


def aces_held(hand: list[int]) -> int:
    """Number of aces in ``hand``."""
    return sum(card(s, ACE) in set(hand) for s in range(4))


def bid_specs(
    ruleset: RuleSet, hand: list[int], seat: Seat, turned: int | None = None
) -> list[BidSpec]:
    """Every contract ``ruleset`` offers the hand at absolute ``seat``, in ladder order: the
    ones it can bid in some auction (:func:`~analyser.rules.declarable_contracts`). So malheur
    only with 3 or 4 aces where the rule set plays it, and with 3 or 4 aces under an
    obligatory malheur nothing below malheur (R-MAL-01), and no beter rik for the forehand
    (R-BID-07: his rik may choose hearts); wiezen: troel or troela with 3 or 4 aces and then
    only what ranks above them (W-03, W-06). ``turned`` is the turned suit (W-01), needed
    by a rule set with a turned trump."""
    out = []
    for contract in declarable_contracts(ruleset, aces_held(hand), turn_order(seat)):
        terms = contract_terms(ruleset, contract, turned=turned)
        if terms.partner != PARTNER_NONE:
            family = PARTNER_FAMILIES[terms.partner]
        elif contract.is_null:
            family = FAMILY_NULL
        else:
            family = FAMILY_ALONE
        if contract.is_praatje:
            exactness = EXACT
        elif contract.is_null:
            exactness = PESSIMISTIC
        else:
            exactness = OPTIMISTIC
        strains = (NOTRUMP,) if contract.is_null else tuple(terms.trump_choices)
        if contract.beter:
            strains = (HEARTS,)
        if family == FAMILY_TROEL:
            # W-04/W-05: the suit of the 4th ace, or hearts; the hand fixes the partner card
            strains = (troel_trump(ruleset, contract, troel_partner_card(hand)),)
        out.append(
            BidSpec(
                contract=contract,
                family=family,
                rank=ruleset.rank(contract),
                strains=strains,
                leader=None
                if terms.leads_partner_card
                else first_leader(ruleset, contract, (seat,), FOREHAND),
                target=terms.target,
                scores=score_table(ruleset, contract),
                exactness=exactness,
                visibility=terms.visibility,
            )
        )
    return out
