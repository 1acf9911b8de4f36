"""The registry of contract families, and the bid specs it gives a hand.

Each family module registers one :class:`Family` subclass with :func:`register`; the
registry maps every contract kind to the family that evaluates it. :func:`families` lists
them in their ``order``, importing every module of the package the first time it is asked
(so a family is added by adding its module, see the package docstring).
:func:`bid_specs` turns the contracts a hand can bid into :class:`~analyser.analysis.bids.
BidSpec` records, with the family and the trump choices the family gives each.
"""

from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from collections.abc import Collection
from typing import TYPE_CHECKING, ClassVar

from analyser.analysis.bids import (
    EXACT,
    OPTIMISTIC,
    PESSIMISTIC,
    BidSpec,
    aces_held,
    score_table,
)
from analyser.errors import RikkenError
from analyser.rules import (
    Contract,
    ContractTerms,
    RuleSet,
    contract_terms,
    declarable_contracts,
    first_leader,
)
from analyser.seats import FOREHAND, Seat, turn_order

if TYPE_CHECKING:
    import numpy as np

    from analyser.analysis.families.sample import SampleView
    from analyser.analysis.results import BidResult, HandAnalysis


class Family(ABC):
    """One contract family: which kinds it evaluates and how (see the package docstring).

    Subclasses set the class attributes and implement :meth:`evaluate`; the other methods
    have defaults that fit most families."""

    name: ClassVar[str]
    """The family of its bids (``BidSpec.family``)."""
    kinds: ClassVar[Collection[str]]
    """The contract kinds (``Contract.kind``) it evaluates; a kind belongs to one family."""
    tag: ClassVar[str]
    """The label of its solver work (``HandAnalysis.seconds`` / ``positions`` / ``given_up``)."""
    order: ClassVar[int]
    """Evaluation order of the families, and the order of their tags in the reports."""
    always_reported: ClassVar[bool] = True
    """Its tag is reported in every analysis (zero when unused), else only when it solved."""
    labelled_notes: ClassVar[bool] = False
    """Its bids' notes differ per bid, so the table prefixes each with the bid's label."""
    no_trump_text: ClassVar[str] = "-"
    """The trump column of a bid whose trump the declarer does not name (malheur: the
    partner names it)."""
    shows_runners_up: ClassVar[bool] = False
    """The table lists the runners-up of the choice made once per hand (rik: trump and call)."""

    def strains(
        self, ruleset: RuleSet, contract: Contract, terms: ContractTerms, hand: list[int]
    ) -> tuple[int, ...]:
        """The strains the trump chooser of ``contract`` may name, for this hand."""
        return tuple(terms.trump_choices)

    def question(self, spec: BidSpec) -> str:
        """The adaptive sample's question of ``spec``: bids with one question share their
        positions, take deals together and stop together (its name in the stop reason)."""
        return spec.id

    def batches(self, specs: list[BidSpec]) -> list[list[BidSpec]]:
        """``specs`` (all of this family) in the groups :meth:`evaluate` takes at once."""
        return [[s] for s in specs]

    @abstractmethod
    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """The figures of every bid of one batch on ``sample``, by contract id (every family
        implements it; :func:`register` cannot instantiate a family that does not)."""

    def hand_notes(self, analysis: HandAnalysis, deals: np.ndarray, seat: Seat) -> list[str]:
        """Notes on the whole hand (not one bid's), given the analysed ``deals``; ``seat``
        is absolute. Asked of every family, whether or not the hand bids it."""
        return []


_BY_NAME: dict[str, Family] = {}
_BY_KIND: dict[str, Family] = {}
_discovered = False


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: record one instance of ``cls`` as the family of its ``kinds``."""
    family = cls()
    if family.name in _BY_NAME:
        raise RuntimeError(f"contract family {family.name!r} registered twice")
    taken = sorted(k for k in family.kinds if k in _BY_KIND)
    if taken:
        raise RuntimeError(f"contract kinds {taken} already have a family")
    if any(f.order == family.order for f in _BY_NAME.values()):
        raise RuntimeError(f"two contract families with order {family.order}")
    _BY_NAME[family.name] = family
    _BY_KIND.update((k, family) for k in family.kinds)
    return cls


def _discover() -> None:
    """Import every module of the families package once (each registers its family)."""
    global _discovered
    if _discovered:
        return
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{__package__}.{info.name}")
    _discovered = True


def families() -> list[Family]:
    """Every registered family, in its ``order``."""
    _discover()
    return sorted(_BY_NAME.values(), key=lambda f: f.order)


def family_named(name: str) -> Family:
    """The family called ``name`` (a ``BidSpec.family``)."""
    _discover()
    return _BY_NAME[name]


def family_of(contract: Contract) -> Family:
    """The family that evaluates ``contract``; RikkenError when none does."""
    _discover()
    family = _BY_KIND.get(contract.kind)
    if family is None:
        raise RikkenError(f"no contract family of the analysis evaluates {contract.id!r}")
    return family


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
        family = family_of(contract)
        if contract.is_praatje:
            exactness = EXACT
        elif contract.is_null:
            exactness = PESSIMISTIC
        else:
            exactness = OPTIMISTIC
        out.append(
            BidSpec(
                contract=contract,
                family=family.name,
                rank=ruleset.rank(contract),
                strains=family.strains(ruleset, contract, terms, hand),
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
