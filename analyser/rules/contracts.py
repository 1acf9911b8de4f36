"""Contracts (bids) of Rikken: a compact hashable type, its goal, and the id strings.

A bid is a :class:`Contract` ``(kind, n, beter)``:

* ``kind`` is one of :data:`KINDS`: ``pass``, ``rik``, ``alone``, ``solo``, ``misere``, ``piek``,
  ``open_misere``, ``open_piek``, ``open_misere_praatje``, ``open_piek_praatje``, ``malheur``;
* ``n`` is the trick target of an ``alone`` bid (7..12) and 0 for every other kind;
* ``beter`` marks the hearts-are-trump form of ``rik``, ``alone`` and ``solo``.

Ids (docs/rules.md §0) are ``pass``, ``rik``, ``beter_rik``, ``alone_N``, ``solo``, ``solo_beter``,
``misere``, ``piek``, ``open_misere``, ``open_piek``, ``open_misere_praatje``,
``open_piek_praatje``, ``malheur``. The canonical id of a beter alone bid is ``alone_N_beter``
(e.g. ``alone_9_beter``): the level first, so ids of one level sort together.
:func:`parse_contract` also accepts ``beter_alone_N``, ``alone_13`` (= ``solo``),
``alone_13_beter`` (= ``solo_beter``), ``beter_solo``, upper case and ``-``/space for ``_``,
and the other names of :data:`BOOK_FAMILY_ALIASES` (``troela`` = ``malheur``).

:func:`goal` / :func:`made` say when a contract is made, from the tricks ``t`` of the declaring
side (rikker + partner together, the lone player, or one misère/piek declarer on his own).
Everything that depends on the rule set (ranking, leads, scoring) lives in the sibling modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
)
MISERE_KINDS = frozenset({"misere", "open_misere", "open_misere_praatje"})
PIEK_KINDS = frozenset({"piek", "open_piek", "open_piek_praatje"})
# Misère and piek in every form: no trump, each declarer plays for himself, play may end early.
NULL_KINDS = MISERE_KINDS | PIEK_KINDS
OPEN_KINDS = frozenset({"open_misere", "open_piek"})
PRAATJE_KINDS = frozenset({"open_misere_praatje", "open_piek_praatje"})
BETER_KINDS = frozenset({"rik", "alone", "solo"})

ALONE_LEVELS = tuple(range(7, 13))  # 7..12; 13 alone is called solo
# Other names of contracts in the book family of rule sets (``book`` and ``iwwa2024``, which
# follows the book where it says nothing): the book also calls malheur "troela" (docs/rules.md
# §3); "troella" is a common misspelling. Book-family data, not a universal alias: under the
# Belgian wiezen rules (docs/rules.md §7.4) troela is a contract of its own (4 aces, 9 tricks),
# so a wiezen rule set must give parse_contract its own table instead of this one.
BOOK_FAMILY_ALIASES: dict[str, str] = {"troela": "malheur", "troella": "malheur"}
RIK_TARGET = 8
MALHEUR_TARGET = 8
ALL_TRICKS = N_RANKS  # 13

# Goal kinds: the declaring side needs at least n tricks / exactly n / all 13.
AT_LEAST, EXACTLY, ALL = "at_least", "exactly", "all"


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
    """A bid: ``kind`` (see :data:`KINDS`), alone level ``n`` (else 0), ``beter`` (hearts trump)."""

    kind: str
    n: int = 0
    beter: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RulesError(f"unknown contract kind {self.kind!r}; valid: {', '.join(KINDS)}")
        if self.kind == "alone":
            if self.n not in ALONE_LEVELS:
                raise RulesError(f"alone level must be 7..12 (13 alone is 'solo'), got {self.n}")
        elif self.n != 0:
            raise RulesError(f"only alone bids carry a level, got n={self.n} for {self.kind!r}")
        if self.beter and self.kind not in BETER_KINDS:
            raise RulesError(f"{self.kind!r} has no beter form")

    @classmethod
    def from_id(cls, text: str) -> Contract:
        """The contract for an id such as ``rik``, ``alone_9_beter`` or ``open_piek``."""
        return parse_contract(text)

    @property
    def id(self) -> str:
        """The canonical id string (docs/rules.md §0; beter alone bids as ``alone_N_beter``)."""
        if self.kind == "rik":
            return "beter_rik" if self.beter else "rik"
        if self.kind == "alone":
            return f"alone_{self.n}_beter" if self.beter else f"alone_{self.n}"
        if self.kind == "solo":
            return "solo_beter" if self.beter else "solo"
        return self.kind

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return f"Contract.from_id({self.id!r})"

    @property
    def is_pass(self) -> bool:
        """True for ``pass`` (not a contract that can be played)."""
        return self.kind == "pass"

    @property
    def is_alone(self) -> bool:
        """True for a lone player with a trick target: ``alone_N`` and ``solo`` (13 alone)."""
        return self.kind in ("alone", "solo")

    @property
    def is_partnership(self) -> bool:
        """True when the declarer has a partner: rik, beter rik (called ace) and malheur."""
        return self.kind in ("rik", "malheur")

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
    def goal(self) -> Goal:
        """The goal of the declaring side (of each declarer for misère/piek)."""
        return goal(self)

    @property
    def target(self) -> int:
        """Tricks in the goal: 8 (rik, malheur), N (alone), 13 (solo), 0 / 1 (misère / piek)."""
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


def alone(n: int, beter: bool = False) -> Contract:
    """``alone_n`` (7..12), or ``solo`` / ``solo_beter`` for n = 13."""
    if n == ALL_TRICKS:
        return Contract("solo", beter=beter)
    return Contract("alone", n, beter)


def all_contracts() -> tuple[Contract, ...]:
    """Every contract of any rule set (pass excluded), in the book's ladder order of kinds."""
    out = [RIK, BETER_RIK]
    out += [alone(n, b) for n in ALONE_LEVELS for b in (False, True)]
    out += [MISERE, PIEK, MALHEUR, OPEN_MISERE, OPEN_PIEK]
    out += [OPEN_MISERE_PRAATJE, OPEN_PIEK_PRAATJE, SOLO, SOLO_BETER]
    return tuple(out)


def goal(contract: Contract) -> Goal:
    """The :class:`Goal` of ``contract``; ``pass`` has none (RulesError)."""
    kind = contract.kind
    if kind == "rik":
        return Goal(AT_LEAST, RIK_TARGET)
    if kind == "malheur":
        return Goal(AT_LEAST, MALHEUR_TARGET)
    if kind == "alone":
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


def parse_contract(
    text: str | Contract, aliases: Mapping[str, str] = BOOK_FAMILY_ALIASES
) -> Contract:
    """Read a contract id (canonical or alias, see the module docstring); RulesError if unknown.

    ``aliases`` maps other names of a contract (normalised: lower case, ``_`` between words)
    to its id; the default is the book family's (``troela`` = ``malheur``)."""
    if isinstance(text, Contract):
        return text
    if not isinstance(text, str):
        raise RulesError(f"a contract id must be a string, got {text!r}")
    key = "_".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    beter = False
    if key.startswith("beter_"):
        beter, key = True, key[len("beter_") :]
    elif key.endswith("_beter"):
        beter, key = True, key[: -len("_beter")]
    key = aliases.get(key, key)
    try:
        if key in ("rik", "solo"):
            return Contract(key, beter=beter)
        if key.startswith("alone_") and key[len("alone_") :].isdigit():
            return alone(int(key[len("alone_") :]), beter)
        if not beter and key in KINDS:
            return Contract(key)
    except RulesError as exc:
        raise RulesError(f"invalid contract {text!r}: {exc}") from None
    raise RulesError(
        f"unknown contract {text!r}; valid ids: pass, rik, beter_rik, alone_N and alone_N_beter "
        "(N = 7..12), solo, solo_beter, misere, piek, open_misere, open_piek, "
        "open_misere_praatje, open_piek_praatje, malheur (also called troela)"
    )
