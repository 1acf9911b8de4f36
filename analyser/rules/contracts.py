"""Contracts (bids): a compact hashable type, its goal, and the id strings of each family.

A bid is a :class:`Contract` ``(kind, n, beter, turned)``:

* ``kind`` is one of :data:`KINDS`: ``pass``; the rikken kinds ``rik``, ``alone``, ``solo``,
  ``misere``, ``piek``, ``open_misere``, ``open_piek``, ``open_misere_praatje``,
  ``open_piek_praatje``, ``malheur``; the wiezen kinds (docs/rules.md §7.4) ``vragen``,
  ``abondance``, ``troel``, ``troela`` (wiezen also plays ``alone``, ``solo``, ``misere`` and
  ``open_misere``);
* ``n`` is the trick target of an ``alone`` bid (rikken 7..12, wiezen 5) or of an
  ``abondance`` (9..12), and 0 for every other kind;
* ``beter`` marks the hearts-are-trump form of ``rik``, ``alone`` and ``solo`` (rikken);
* ``turned`` marks the turned-trump form of ``abondance`` and ``solo`` (wiezen W-10, W-13:
  abondance N in the turned suit, solo slim).

Which contracts exist, what they are called and which other names are read is the business
of a :class:`ContractFamily`: :data:`RIKKEN` (the rule sets ``book`` and ``iwwa2024``) and
:data:`WIEZEN`. Ids (docs/rules.md §0):

* rikken: ``pass``, ``rik``, ``beter_rik``, ``alone_N``, ``alone_N_beter``, ``solo``,
  ``solo_beter``, ``misere``, ``piek``, ``open_misere``, ``open_piek``,
  ``open_misere_praatje``, ``open_piek_praatje``, ``malheur``. The level comes first in
  ``alone_N_beter`` so ids of one level sort together. Also read: ``beter_alone_N``,
  ``alone_13`` (= ``solo``), ``alone_13_beter`` (= ``solo_beter``), ``beter_solo``,
  ``rik_beter`` and the other names of :data:`BOOK_FAMILY_ALIASES` (``troela`` = ``malheur``).
* wiezen: ``pass``, ``vragen``, ``alone_5``, ``abondance_N``, ``abondance_N_turned``
  (N = 9..12), ``misere``, ``open_misere``, ``troel``, ``troela``, ``solo``, ``solo_slim``.
  Also read: the Flemish display names (``alleen``, ``miserie``, ``miserie op tafel``,
  ``abondance 9 in troef``, ``solo slim``, ...) and ``meegaan`` (= ``vragen``: going along
  is bidding the standing ask again, W-07). Here ``troela`` is a contract of its own.

Every family reads upper case and ``-`` or spaces for ``_``. :func:`parse_contract` reads an
id in a family (default :data:`RIKKEN`); a rule set reads with its own family
(``RuleSet.parse``).

:func:`goal` / :func:`made` say when a contract is made, from the tricks ``t`` of the declaring
side (the partnership together, the lone player, or one misère/piek declarer on his own).
Everything that depends on the rule set (ranking, leads, scoring) lives in the sibling modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from analyser.cards import N_RANKS
from analyser.errors import RulesError

KINDS = (
    "pass",
    "rik",
    "alone",
    "solo",
    "misere",
    "piek",
    "open_misere",
    "open_piek",
    "open_misere_praatje",
    "open_piek_praatje",
    "malheur",
    "vragen",
    "abondance",
    "troel",
    "troela",
)
MISERE_KINDS = frozenset({"misere", "open_misere", "open_misere_praatje"})
PIEK_KINDS = frozenset({"piek", "open_piek", "open_piek_praatje"})
# Misère and piek in every form: no trump, each declarer plays for himself, play may end early.
NULL_KINDS = MISERE_KINDS | PIEK_KINDS
OPEN_KINDS = frozenset({"open_misere", "open_piek"})
PRAATJE_KINDS = frozenset({"open_misere_praatje", "open_piek_praatje"})
BETER_KINDS = frozenset({"rik", "alone", "solo"})
# Kinds with a form in the turned trump that ranks above the plain form (W-10, W-13).
TURNED_KINDS = frozenset({"abondance", "solo"})
# A declarer with a partner: the called ace (rik), malheur, meegaan (vragen), troel/troela.
PARTNERSHIP_KINDS = frozenset({"rik", "malheur", "vragen", "troel", "troela"})
# One player against three with a trick target.
LONE_KINDS = frozenset({"alone", "solo", "abondance"})

ALONE_LEVELS = tuple(range(7, 13))  # rikken: 7..12; 13 alone is called solo
WIEZEN_ALONE_LEVEL = 5  # W-08: alone for 5 tricks after an unanswered ask
ABONDANCE_LEVELS = (9, 10, 11, 12)  # W-10
LEVELS: dict[str, tuple[int, ...]] = {
    "alone": (WIEZEN_ALONE_LEVEL, *ALONE_LEVELS),
    "abondance": ABONDANCE_LEVELS,
}
# Aces a player needs to declare the contract (R-MAL-01, W-03).
ACES_NEEDED: dict[str, tuple[int, ...]] = {"malheur": (3, 4), "troel": (3,), "troela": (4,)}

# Other names of contracts in the book family of rule sets (``book`` and ``iwwa2024``, which
# follows the book where it says nothing): the book also calls malheur "troela" (docs/rules.md
# §3); "troella" is a common misspelling. Book-family data, not a universal alias: under the
# Belgian wiezen rules (docs/rules.md §7.4) troela is a contract of its own (4 aces, 9 tricks),
# so the WIEZEN family reads it as such.
BOOK_FAMILY_ALIASES: dict[str, str] = {"troela": "malheur", "troella": "malheur"}
RIK_TARGET = 8
MALHEUR_TARGET = 8
VRAGEN_TARGET = 8  # W-07: the asker and the one who went along
TROEL_TARGET = 8  # W-04
TROELA_TARGET = 9  # W-05
ALL_TRICKS = N_RANKS  # 13

# Goal kinds: the declaring side needs at least n tricks / exactly n / all 13.
AT_LEAST, EXACTLY, ALL = "at_least", "exactly", "all"

# Trick targets of the kinds whose target does not come from the level ``n``.
FIXED_TARGETS: dict[str, int] = {
    "rik": RIK_TARGET,
    "malheur": MALHEUR_TARGET,
    "vragen": VRAGEN_TARGET,
    "troel": TROEL_TARGET,
    "troela": TROELA_TARGET,
}


@dataclass(frozen=True, slots=True)
class Goal:
    """When a contract is made: ``kind`` (``at_least`` / ``exactly`` / ``all``) and ``n`` tricks."""

    kind: str
    n: int

    def made(self, tricks: int) -> bool:
        """True when ``tricks`` (0..13) taken by the declaring side fulfil the goal."""
        if self.kind == AT_LEAST:
            return tricks >= self.n
        return tricks == self.n  # "exactly" and "all" (n = 13)

    def __str__(self) -> str:
        return "all 13" if self.kind == ALL else f"{self.kind.replace('_', ' ')} {self.n}"


@dataclass(frozen=True, slots=True)
class Contract:
    """A bid: ``kind`` (see :data:`KINDS`), level ``n`` (alone, abondance; else 0), ``beter``
    (hearts trump, rikken) and ``turned`` (the turned-trump form, wiezen)."""

    kind: str
    n: int = 0
    beter: bool = False
    turned: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RulesError(f"unknown contract kind {self.kind!r}; valid: {', '.join(KINDS)}")
        if self.kind in LEVELS:
            if self.n not in LEVELS[self.kind]:
                levels = ", ".join(map(str, LEVELS[self.kind]))
                raise RulesError(
                    f"{self.kind} level must be one of {levels} (13 alone is 'solo'), got {self.n}"
                )
        elif self.n != 0:
            raise RulesError(f"only alone and abondance bids carry a level, got n={self.n}")
        if self.beter and self.kind not in BETER_KINDS:
            raise RulesError(f"{self.kind!r} has no beter form")
        if self.turned and self.kind not in TURNED_KINDS:
            raise RulesError(f"{self.kind!r} has no turned-trump form")
        if self.beter and self.turned:
            raise RulesError("a contract is beter (hearts) or turned (the turned suit), not both")

    @classmethod
    def from_id(cls, text: str, family: str = "rikken") -> Contract:
        """The contract for an id of ``family`` (``rikken`` or ``wiezen``), e.g. ``rik``,
        ``alone_9_beter``, ``open_piek`` or (wiezen) ``abondance_10_turned``."""
        if family not in FAMILIES:
            raise RulesError(f"unknown contract family {family!r}; valid: {', '.join(FAMILIES)}")
        return FAMILIES[family].parse(text)

    @property
    def id(self) -> str:
        """The canonical id string (docs/rules.md §0; beter alone bids as ``alone_N_beter``,
        turned abondance as ``abondance_N_turned``, the turned solo as ``solo_slim``)."""
        if self.kind == "rik":
            return "beter_rik" if self.beter else "rik"
        if self.kind in LEVELS:
            suffix = "_beter" if self.beter else "_turned" if self.turned else ""
            return f"{self.kind}_{self.n}{suffix}"
        if self.kind == "solo":
            return "solo_beter" if self.beter else "solo_slim" if self.turned else "solo"
        return self.kind

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        if self.is_pass or self in RIKKEN:
            return f"Contract.from_id({self.id!r})"
        return f"Contract.from_id({self.id!r}, {family_of(self).name!r})"

    @property
    def is_pass(self) -> bool:
        """True for ``pass`` (not a contract that can be played)."""
        return self.kind == "pass"

    @property
    def is_alone(self) -> bool:
        """True for a lone player with a trick target: ``alone_N``, ``solo`` (13 alone, solo
        slim) and ``abondance_N``."""
        return self.kind in LONE_KINDS

    @property
    def is_partnership(self) -> bool:
        """True when the declarer has a partner: rik, beter rik (called ace), malheur, vragen
        (the player who went along), troel and troela (the partner card)."""
        return self.kind in PARTNERSHIP_KINDS

    @property
    def is_null(self) -> bool:
        """True for misère and piek in every form (no trump; each declarer for himself)."""
        return self.kind in NULL_KINDS

    @property
    def is_misere(self) -> bool:
        """True for closed, open and praatje misère (goal: no trick)."""
        return self.kind in MISERE_KINDS

    @property
    def is_piek(self) -> bool:
        """True for closed, open and praatje piek (goal: exactly one trick)."""
        return self.kind in PIEK_KINDS

    @property
    def is_open(self) -> bool:
        """True for the open forms, praatje included (the bidder's hand is shown)."""
        return self.kind in OPEN_KINDS or self.kind in PRAATJE_KINDS

    @property
    def is_praatje(self) -> bool:
        """True for the praatje forms (all hands shown; defenders may talk)."""
        return self.kind in PRAATJE_KINDS

    @property
    def aces_needed(self) -> tuple[int, ...]:
        """Ace counts with which a player may declare it (malheur 3-4, troel 3, troela 4);
        empty when aces do not matter."""
        return ACES_NEEDED.get(self.kind, ())

    @property
    def goal(self) -> Goal:
        """The goal of the declaring side (of each declarer for misère/piek)."""
        return goal(self)

    @property
    def target(self) -> int:
        """Tricks in the goal: 8 (rik, malheur, vragen, troel), 9 (troela), N (alone,
        abondance), 13 (solo), 0 / 1 (misère / piek)."""
        return goal(self).n


PASS = Contract("pass")
RIK = Contract("rik")
BETER_RIK = Contract("rik", beter=True)
SOLO = Contract("solo")
SOLO_BETER = Contract("solo", beter=True)
MISERE = Contract("misere")
PIEK = Contract("piek")
OPEN_MISERE = Contract("open_misere")
OPEN_PIEK = Contract("open_piek")
OPEN_MISERE_PRAATJE = Contract("open_misere_praatje")
OPEN_PIEK_PRAATJE = Contract("open_piek_praatje")
MALHEUR = Contract("malheur")
# wiezen (docs/rules.md §7.4)
VRAGEN = Contract("vragen")
ALONE_5 = Contract("alone", WIEZEN_ALONE_LEVEL)
TROEL = Contract("troel")
TROELA = Contract("troela")
SOLO_SLIM = Contract("solo", turned=True)


def alone(n: int, beter: bool = False) -> Contract:
    """``alone_n`` (rikken 7..12, wiezen 5), or ``solo`` / ``solo_beter`` for n = 13."""
    if n == ALL_TRICKS:
        return Contract("solo", beter=beter)
    return Contract("alone", n, beter)


def abondance(n: int, turned: bool = False) -> Contract:
    """``abondance_n`` (9..12) in a suit of the declarer's choice, or with ``turned`` the
    form in the turned suit, which ranks just above it (W-10)."""
    return Contract("abondance", n, turned=turned)


def goal(contract: Contract) -> Goal:
    """The :class:`Goal` of ``contract``; ``pass`` has none (RulesError)."""
    kind = contract.kind
    if kind in FIXED_TARGETS:
        return Goal(AT_LEAST, FIXED_TARGETS[kind])
    if kind in LEVELS:
        return Goal(AT_LEAST, contract.n)
    if kind == "solo":
        return Goal(ALL, ALL_TRICKS)
    if kind in MISERE_KINDS:
        return Goal(EXACTLY, 0)
    if kind in PIEK_KINDS:
        return Goal(EXACTLY, 1)
    raise RulesError("'pass' is not a playable contract")


def made(contract: Contract, tricks: int) -> bool:
    """True when ``tricks`` of the declaring side (of one misère/piek declarer) make it."""
    check_tricks(tricks)
    return goal(contract).made(tricks)


def check_tricks(tricks: int) -> int:
    """Return ``tricks`` if it is an int 0..13, else raise RulesError."""
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= ALL_TRICKS:
        raise RulesError(f"a trick count must be an integer 0..13, got {tricks!r}")
    return tricks


def normalise_name(text: str) -> str:
    """A contract name as the parsers compare it: lower case, words joined by ``_``."""
    return "_".join(text.strip().lower().replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True, eq=False)
class ContractFamily:
    """The contracts a family of rule sets can name, their display names and other names.

    ``contracts`` lists every contract the family knows (a rule set's switches may leave
    some out of its ladder); ``aliases`` maps other names (normalised, see
    :func:`normalise_name`) to canonical ids; ``names`` maps ids to the names shown in
    tables (default: the id with spaces); ``valid_text`` is the list an error message gives.
    """

    name: str
    contracts: tuple[Contract, ...]
    aliases: Mapping[str, str]
    names: Mapping[str, str]
    valid_text: str
    _by_id: dict[str, Contract] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_id = {c.id: c for c in self.contracts}
        by_id[PASS.id] = PASS
        object.__setattr__(self, "_by_id", by_id)

    def __contains__(self, contract: object) -> bool:
        return isinstance(contract, Contract) and self._by_id.get(contract.id) == contract

    def parse(self, text: str | Contract) -> Contract:
        """The contract named ``text`` (canonical id, other name or display name) in this
        family; a :class:`Contract` is returned as it is. RulesError if unknown."""
        if isinstance(text, Contract):
            return text
        if not isinstance(text, str):
            raise RulesError(f"a contract id must be a string, got {text!r}")
        key = normalise_name(text)
        if key.startswith("beter_"):
            key = key[len("beter_") :] + "_beter"  # beter_alone_9 -> alone_9_beter
        key = self.aliases.get(key, key)
        found = self._by_id.get(key)
        if found is None:
            raise RulesError(f"unknown contract {text!r}; valid ids: {self.valid_text}")
        return found

    def display_name(self, contract: Contract | str) -> str:
        """The name of ``contract`` in tables (wiezen: Flemish, e.g. ``miserie op tafel``)."""
        c = self.parse(contract)
        return self.names.get(c.id, c.id.replace("_", " "))


_RIKKEN_CONTRACTS = (
    RIK,
    BETER_RIK,
    *(alone(n, b) for n in ALONE_LEVELS for b in (False, True)),
    MISERE,
    PIEK,
    MALHEUR,
    OPEN_MISERE,
    OPEN_PIEK,
    OPEN_MISERE_PRAATJE,
    OPEN_PIEK_PRAATJE,
    SOLO,
    SOLO_BETER,
)
RIKKEN = ContractFamily(
    name="rikken",
    contracts=_RIKKEN_CONTRACTS,
    aliases={
        "alone_13": SOLO.id,
        "alone_13_beter": SOLO_BETER.id,
        "rik_beter": BETER_RIK.id,
        **BOOK_FAMILY_ALIASES,
    },
    names={},
    valid_text=(
        "pass, rik, beter_rik, alone_N and alone_N_beter (N = 7..12), solo, solo_beter, "
        "misere, piek, open_misere, open_piek, open_misere_praatje, open_piek_praatje, "
        "malheur (also called troela)"
    ),
)

_WIEZEN_CONTRACTS = (
    VRAGEN,
    ALONE_5,
    *(abondance(n, t) for n in ABONDANCE_LEVELS for t in (False, True)),
    MISERE,
    TROEL,
    TROELA,
    OPEN_MISERE,
    SOLO,
    SOLO_SLIM,
)
# Flemish names for tables (W-07 .. W-13).
_WIEZEN_NAMES = {
    VRAGEN.id: "vragen",
    ALONE_5.id: "alleen",
    **{abondance(n).id: f"abondance {n}" for n in ABONDANCE_LEVELS},
    **{abondance(n, True).id: f"abondance {n} in troef" for n in ABONDANCE_LEVELS},
    MISERE.id: "miserie",
    OPEN_MISERE.id: "miserie op tafel",
    TROEL.id: "troel",
    TROELA.id: "troela",
    SOLO.id: "solo",
    SOLO_SLIM.id: "solo slim",
}
WIEZEN = ContractFamily(
    name="wiezen",
    contracts=_WIEZEN_CONTRACTS,
    aliases={
        **{normalise_name(name): cid for cid, name in _WIEZEN_NAMES.items()},
        **{f"abondance_{n}_troef": abondance(n, True).id for n in ABONDANCE_LEVELS},
        "meegaan": VRAGEN.id,  # going along = bidding the standing ask again (W-07)
        "alleen_gaan": ALONE_5.id,
        "misere_op_tafel": OPEN_MISERE.id,
        "troella": TROELA.id,
    },
    names=_WIEZEN_NAMES,
    valid_text=(
        "pass, vragen (meegaan), alone_5 (alleen), abondance_N and abondance_N_turned "
        "(N = 9..12), misere (miserie), open_misere (miserie op tafel), troel, troela, solo, "
        "solo_slim"
    ),
)
FAMILIES: dict[str, ContractFamily] = {RIKKEN.name: RIKKEN, WIEZEN.name: WIEZEN}


def family_of(contract: Contract) -> ContractFamily:
    """The first family (rikken, then wiezen) that knows ``contract``."""
    for fam in FAMILIES.values():
        if contract in fam:
            return fam
    raise RulesError(f"no family of rule sets plays {contract.id!r}")  # pragma: no cover


def all_contracts() -> tuple[Contract, ...]:
    """Every contract of any rule set (pass excluded): the rikken family's in the book's
    ladder order of kinds, then those only wiezen plays."""
    wiezen_only = tuple(c for c in WIEZEN.contracts if c not in RIKKEN)
    return RIKKEN.contracts + wiezen_only


def parse_contract(text: str | Contract, family: ContractFamily = RIKKEN) -> Contract:
    """Read a contract id (canonical or another name, see the module docstring) in
    ``family`` (default: the rikken family, where ``troela`` = ``malheur``); RulesError if
    the family does not know it. A rule set reads with its own family: ``RuleSet.parse``."""
    return family.parse(text)
