"""Rule sets as data: the ladder of bids, legality switches, leads, visibility, scoring switches.

Public API:

* :class:`RuleSet` — a frozen dataclass; every field is a switch (documented on the field
  below, with its docs/rules.md id); ``ladder`` is derived from the switches: a tuple of
  rungs, low to high, each rung a tuple of contracts sharing one rank (book: misère = piek).
  ``rank(c)`` gives the 1-based rank, ``contracts`` the flat ladder, ``allows(c)`` membership.
* :func:`get_ruleset` ``(name="book", **switches)`` — the named set (``book``, ``iwwa2024``,
  ``wiezen``) with switches overridden; RulesError for unknown names, switches or values, and
  for a switch that does not apply to the set's family (``wiezen:min_alone=8``).
* :func:`parse_ruleset` ``("book:min_alone=8,piek=off")`` — the same from one string (CLI form).
* ``RuleSet.spec`` — the inverse: name plus every switch that differs from the named set, so a
  result can say which rules (and which UNSPECIFIED defaults) it was computed under.

Switch aliases accepted by :func:`get_ruleset` for the rikken family: ``open_after_tricks=k``
(V-05: the first ``k`` tricks of an open misère/piek are closed, i.e.
``open_reveal_after_cards = 4k``) and ``open_leader=...`` (V-06: sets both
``open_misere_leader`` and ``open_piek_leader``).

Families. ``book`` and ``iwwa2024`` belong to the rikken family, ``wiezen`` (docs/rules.md
§7.4) to a family of its own: ``RuleSet.family`` is the
:class:`~analyser.rules.contracts.ContractFamily` that names and reads its contracts
(``RuleSet.parse``: under wiezen ``troela`` is troela, under book it is malheur). Per family
this module holds, as data, the ladder builder and the switches a user may set; a switch
outside that list keeps the named set's value (for wiezen: ``turned_trump`` on, malheur and
piek off, ...). The auction roles of the wiezen contracts are data too: ``joinable`` /
``join_limit`` (meegaan: one partner joins an ask, W-07; miserie shared, W-14),
``announced`` (troel and troela are announced before the auction, W-03) and
``ask_fallbacks`` (an unanswered ask becomes alone 5 or nothing, W-08).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from analyser.cards import N_SEATS
from analyser.errors import RulesError
from analyser.rules.contracts import (
    ALONE_5,
    BETER_RIK,
    FAMILIES,
    MALHEUR,
    MISERE,
    OPEN_MISERE,
    OPEN_MISERE_PRAATJE,
    OPEN_PIEK,
    OPEN_PIEK_PRAATJE,
    PIEK,
    RIK,
    SOLO,
    SOLO_BETER,
    SOLO_SLIM,
    TROEL,
    TROELA,
    VRAGEN,
    Contract,
    ContractFamily,
    abondance,
    alone,
)

RULESET_NAMES = ("book", "iwwa2024", "wiezen")
# The family of contracts each named set plays (analyser.rules.contracts.FAMILIES).
FAMILY_OF: dict[str, str] = {"book": "rikken", "iwwa2024": "rikken", "wiezen": "wiezen"}

# Allowed values of the string switches.
CHOICES: dict[str, tuple[str, ...]] = {
    "malheur": ("obligatory", "optional", "off"),
    "all_pass": ("redeal", "redeal_same_dealer", "forced_bid", "schoppen_mie", "dealer_choice"),
    "open_misere_leader": ("bidder", "forehand"),
    "open_piek_leader": ("bidder", "forehand"),
    "several_declarers": ("settle_all", "stop_at_first_failure"),
    "fail_mode": ("undertricks", "base_only"),
    "failed_rik_payer": ("both", "rikker"),
    "troel": ("obligatory", "off"),
    "meegaan": ("any", "next"),
    "turned_card_exchange": ("closed_misere", "every_misere", "none"),
}
INT_RANGES: dict[str, tuple[int, int]] = {
    "min_alone": (7, 11),
    "open_reveal_after_cards": (0, 51),
    "praatje_reveal_after_cards": (0, 51),
}
ALIASES = ("open_after_tricks", "open_leader")

# W-16: the wiezen ladder, rungs low to high; contracts in one rung share a rank. An abondance
# in the turned suit ranks just above the plain one of its level (W-10).
WIEZEN_LADDER: tuple[tuple[Contract, ...], ...] = (
    (VRAGEN, ALONE_5),
    (abondance(9),),
    (abondance(9, True),),
    (abondance(10),),
    (abondance(10, True),),
    (MISERE,),
    (abondance(11),),
    (abondance(11, True),),
    (abondance(12),),
    (abondance(12, True),),
    (TROEL, TROELA),
    (OPEN_MISERE,),
    (SOLO,),
    (SOLO_SLIM,),
)
# The auction roles of contracts (the auction reads them through the RuleSet properties).
JOIN_LIMITS: dict[Contract, int] = {VRAGEN: 2}  # W-07: one player goes along with an ask
ANNOUNCED: tuple[Contract, ...] = (TROEL, TROELA)  # W-03: announced before the auction
ASK_FALLBACKS: dict[Contract, Contract] = {VRAGEN: ALONE_5}  # W-08


@dataclass(frozen=True)
class RuleSet:
    """Every rule the analyser needs, as data. Build one with :func:`get_ruleset`."""

    name: str = "book"

    # --- ladder and auction legality (docs/rules.md §4, §5) ---
    min_alone: int = 7
    """Lowest alone level (V-01: 8 or 9; iwwa 8). Misère sits just above (min_alone + 1) beter."""
    separate_piek_rungs: bool = False
    """Piek and misère on separate rungs, open piek below open misère (iwwa I-03)."""
    piek: bool = True
    """Piek in all its forms is played (V-12: ``piek=off``)."""
    malheur: str = "obligatory"  # V-02
    """3-4 aces: malheur ``obligatory`` at the first turn (R-MAL-01), ``optional`` or ``off``."""
    malheur_may_overbid: bool = True
    """R-MAL-01 UNSPECIFIED: the obliged malheur holder may bid higher instead (default yes)."""
    jumps: bool = True
    """Jump bids allowed (book); False = iwwa's one-step rule for alone bids (I-04)."""
    alone_needs_rik: bool = True
    """Alone 7..12 only after a rik in this auction (R-BID-06; AMBIGUOUS → default yes)."""
    solo_needs_rik: bool = False
    """Solo / solo beter also need an earlier rik (book UNSPECIFIED → no; iwwa I-02: yes)."""
    join_all_forms: bool = True
    """Joining extends from misère to piek and the open forms (R-MIS-02 default, iwwa I-05)."""
    all_pass: str = "redeal"
    """Four passes: ``redeal`` (R-BID-05, deal passes on), ``redeal_same_dealer`` (V-07),
    ``forced_bid`` (V-08: the 4th player may not pass), ``schoppen_mie`` (V-09),
    ``dealer_choice`` (iwwa I-13: Schoppen Mie or 1 of 5)."""

    # --- trump (docs/rules.md §3) ---
    plain_may_choose_hearts: bool = True
    """UNSPECIFIED: a plain alone/solo bidder may name hearts (default yes)."""
    solo_notrump: bool = False
    """UNSPECIFIED: solo may be played without trump (default no; iwwa I-11: no)."""
    malheur_trump_may_be_partner_suit: bool = True
    """The malheur partner may name the 4th ace's suit as trump (V-04: no)."""

    # --- partner and called card (R-PLAY-05, R-BID-10, R-MAL-03) ---
    called_card_may_be_discarded: bool = True
    """UNSPECIFIED: the called card may be discarded on another suit's lead (default yes)."""
    malheur_card_must_be_played: bool = True
    """The 4th ace / called king must be played on the first lead of its suit (V-03: no)."""
    blind_call: bool = False
    """A rikker void in the called suit may lead face down to call the ace out (iwwa I-08)."""

    # --- first lead and visibility (R-OPEN-02, V-05, V-06, I-12) ---
    open_misere_leader: str = "bidder"
    """Leader to trick 1 in open/praatje misère: ``bidder`` (book), ``forehand`` (V-06, iwwa)."""
    open_piek_leader: str = "bidder"
    """Who leads to trick 1 in open/praatje piek: ``bidder`` (book, iwwa) or ``forehand`` (V-06)."""
    open_reveal_after_cards: int = 0
    """Cards played before an open bidder's hand goes face up (book 0; V-05 4k; iwwa 5)."""
    praatje_reveal_after_cards: int = 0
    """Cards played before all hands go face up in a praatje (book 0; iwwa 5)."""

    # --- end of play and scoring (R-MIS-03, §6, I-06, I-09) ---
    several_declarers: str = "settle_all"
    """Several misère/piek declarers: play on until all are settled (default) or
    ``stop_at_first_failure`` (iwwa I-06)."""
    fail_mode: str = "undertricks"
    """Failed trick-target contracts pay base + undertricks − 1 (default) or ``base_only``."""
    failed_rik_payer: str = "both"
    """Failed rik: rikker and partner each pay (default) or the ``rikker`` alone pays 2v (I-09)."""

    # --- wiezen (docs/rules.md §7.4); fixed in the rikken family ---
    turned_trump: bool = False
    """W-01: the dealer's 13th card is dealt face up and stays his; its suit is the turned
    trump, which vragen, alone 5, abondance in troef and solo slim play (the turned suit is
    an argument wherever a contract's trump depends on it). Fixed per family."""
    troel: str = "off"
    """W-03: a holder of 3 or 4 aces announces troel / troela before the auction
    (``obligatory``), or the games are not played (``off``)."""
    meegaan: str = "any"
    """W-07 UNSPECIFIED: who may go along with an ask: ``any`` later player still in the
    auction, the first to speak (default), or only the ``next`` player after the asker."""
    plain_may_choose_turned: bool = False
    """W-10, W-13 default reading: a plain abondance or solo may name the turned suit
    (default no: that is the turned form, abondance in troef / solo slim)."""
    turned_card_exchange: str = "none"
    """W-11 AMBIGUOUS: the dealer playing miserie may exchange his turned card:
    ``closed_misere`` (wiezen default), ``every_misere`` or ``none``. Recorded only."""

    ladder: tuple[tuple[Contract, ...], ...] = field(init=False, repr=False, compare=False)
    _rank: dict = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        _validate(self)
        ladder = _LADDERS[self.family.name](self)
        object.__setattr__(self, "ladder", ladder)
        rank = {c: i + 1 for i, rung in enumerate(ladder) for c in rung}
        object.__setattr__(self, "_rank", rank)

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """Every biddable contract, low to high (contracts sharing a rung in ladder order)."""
        return tuple(c for rung in self.ladder for c in rung)

    @property
    def family(self) -> ContractFamily:
        """The family of contracts this set plays: how they are named, read and shown."""
        return FAMILIES[FAMILY_OF[self.name]]

    def parse(self, contract: Contract | str) -> Contract:
        """A contract read with this set's family (``troela``: malheur in book, troela in
        wiezen); a :class:`Contract` is returned as it is. RulesError if unknown."""
        return self.family.parse(contract)

    def display_name(self, contract: Contract | str) -> str:
        """The name of ``contract`` in tables (wiezen: Flemish, e.g. ``miserie op tafel``)."""
        return self.family.display_name(contract)

    def allows(self, contract: Contract | str) -> bool:
        """True when ``contract`` exists in this rule set (``pass`` always does)."""
        c = self.parse(contract)
        return c.is_pass or c in self._rank

    def rank(self, contract: Contract | str | None) -> int:
        """1-based rank on the ladder; 0 for ``None`` / ``pass``; RulesError if not in this set."""
        if contract is None:
            return 0
        c = self.parse(contract)
        if c.is_pass:
            return 0
        try:
            return self._rank[c]
        except KeyError:
            raise RulesError(f"contract {c.id!r} is not played under {self.spec!r}") from None

    @property
    def malheur_played(self) -> bool:
        """True when malheur exists (obligatory or optional)."""
        return self.malheur != "off"

    @property
    def joinable(self) -> frozenset[Contract]:
        """Contracts that a further player may bid again while they are highest (R-BID-08;
        wiezen: going along with an ask, W-07, and miserie in both forms, W-14)."""
        if self.join_all_forms:
            forms = {MISERE, PIEK, OPEN_MISERE, OPEN_PIEK, OPEN_MISERE_PRAATJE, OPEN_PIEK_PRAATJE}
        else:
            forms = {MISERE}
        forms |= set(JOIN_LIMITS)
        return frozenset(c for c in forms if c in self._rank)

    def join_limit(self, contract: Contract) -> int:
        """The most declarers ``contract`` can have: 2 for vragen (the asker and the one who
        went along, W-07), 4 for every other joinable contract, 1 for the rest."""
        if contract not in self.joinable:
            return 1
        return JOIN_LIMITS.get(contract, N_SEATS)

    @property
    def announced(self) -> frozenset[Contract]:
        """Contracts announced before the auction instead of bid in it (W-03: troel,
        troela); they stand as the first bid of the auction."""
        return frozenset(c for c in ANNOUNCED if c in self._rank)

    @property
    def ask_fallbacks(self) -> Mapping[Contract, Contract]:
        """Contracts that cannot be played unless someone joins, mapped to what their lone
        bidder may play instead when all others pass (W-08: vragen -> alone 5)."""
        return {a: f for a, f in ASK_FALLBACKS.items() if a in self._rank and f in self._rank}

    @property
    def spec(self) -> str:
        """``name`` plus every switch that differs from the named set, e.g. ``book:piek=off``."""
        diff = changed_switches(self)
        if not diff:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_show(v)}" for k, v in diff.items())


def switch_names(name: str | None = None) -> tuple[str, ...]:
    """Names of the switches :func:`get_ruleset` accepts for the named set (fields plus
    aliases); without a name, those of every set."""
    names = [f.name for f in dataclasses.fields(RuleSet) if f.init and f.name != "name"]
    every = tuple(names) + ALIASES
    if name is None:
        return every
    if name not in FAMILY_OF:
        raise RulesError(f"unknown rule set {name!r}; valid: {', '.join(RULESET_NAMES)}")
    settable = _FAMILY_SWITCHES[FAMILY_OF[name]]
    return tuple(n for n in every if n in settable)


def changed_switches(ruleset: RuleSet) -> dict[str, object]:
    """Switches of ``ruleset`` that differ from its named base set, in field order."""
    base = _BASES.get(ruleset.name, {})
    reference = RuleSet(**base) if ruleset.name in _BASES else RuleSet()
    out = {}
    for f in dataclasses.fields(RuleSet):
        if not f.init or f.name == "name":
            continue
        value = getattr(ruleset, f.name)
        if value != getattr(reference, f.name):
            out[f.name] = value
    return out


_BASES: dict[str, dict[str, object]] = {
    "book": {"name": "book"},
    "iwwa2024": {
        "name": "iwwa2024",
        "min_alone": 8,  # I-02
        "separate_piek_rungs": True,  # I-03
        "malheur": "off",  # I-10
        "jumps": False,  # I-04
        "solo_needs_rik": True,  # I-02: 13 alone included
        "all_pass": "dealer_choice",  # I-13
        "blind_call": True,  # I-08
        "open_misere_leader": "forehand",  # I-12
        "open_reveal_after_cards": 5,  # I-12
        "praatje_reveal_after_cards": 5,  # I-12
        "several_declarers": "stop_at_first_failure",  # I-06
        "failed_rik_payer": "rikker",  # I-09
    },
    "wiezen": {
        "name": "wiezen",
        "turned_trump": True,  # W-01
        "troel": "obligatory",  # W-03
        "malheur": "off",  # 3-4 aces: troel instead (W-03)
        "piek": False,  # §7.4 has no piek
        "alone_needs_rik": False,  # alone 5 follows an unanswered ask, not a rik (W-08)
        "solo_notrump": True,  # W-13: own trump or no trump
        "open_misere_leader": "forehand",  # W-12 UNSPECIFIED -> forehand
        "turned_card_exchange": "closed_misere",  # W-11 AMBIGUOUS -> closed miserie only
    },
}

# The switches a user may set, per family. The others keep the named set's value: they do not
# apply to the family (min_alone under wiezen) or are fixed by it (turned_trump).
_WIEZEN_ONLY = (
    "turned_trump",
    "troel",
    "meegaan",
    "plain_may_choose_turned",
    "turned_card_exchange",
)
_FAMILY_SWITCHES: dict[str, frozenset[str]] = {
    "rikken": frozenset(
        f.name
        for f in dataclasses.fields(RuleSet)
        if f.init and f.name != "name" and f.name not in _WIEZEN_ONLY
    )
    | frozenset(ALIASES),
    "wiezen": frozenset(
        {
            "troel",
            "meegaan",
            "plain_may_choose_turned",
            "turned_card_exchange",
            "solo_notrump",
            "open_misere_leader",
            "open_reveal_after_cards",
            "several_declarers",
        }
    ),
}


def get_ruleset(name: str = "book", **switches: object) -> RuleSet:
    """The rule set ``name`` (``book``, ``iwwa2024`` or ``wiezen``) with ``switches``
    overridden.

    Switch values may be given as Python values or as strings (``"8"``, ``"off"``, ``"true"``).
    Raises RulesError for an unknown name, switch or value, listing the valid ones, and for a
    switch that does not apply to the set's family.
    """
    if name not in _BASES:
        raise RulesError(f"unknown rule set {name!r}; valid: {', '.join(RULESET_NAMES)}")
    values = dict(_BASES[name])
    valid = switch_names(name)
    for key, raw in switches.items():
        if key not in valid:
            if key in switch_names():
                raise RulesError(
                    f"rule switch {key!r} does not apply to {name!r}; valid: {', '.join(valid)}"
                )
            raise RulesError(f"unknown rule switch {key!r}; valid: {', '.join(valid)}")
        if key == "open_after_tricks":
            tricks = _coerce_int(key, raw, (0, 12))
            values["open_reveal_after_cards"] = 4 * tricks
        elif key == "open_leader":
            leader = _coerce_choice(key, raw, CHOICES["open_misere_leader"])
            values["open_misere_leader"] = values["open_piek_leader"] = leader
        else:
            values[key] = _coerce(key, raw)
    return RuleSet(**values)


def parse_ruleset(spec: str) -> RuleSet:
    """A rule set from ``name[:switch=value,...]``, e.g. ``book:min_alone=8,malheur=optional``."""
    name, _, rest = spec.strip().partition(":")
    switches: dict[str, str] = {}
    items = [part.strip() for part in rest.split(",")] if rest.strip() else []
    for item in items:
        if not item:
            raise RulesError(
                f"empty rule switch in {spec.strip()!r} (two commas, or one at an end)"
            )
        key, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"rule switch {item!r} needs the form name=value")
        key = key.strip()
        if key in switches:
            # which of the two was meant cannot be told: refused rather than the last kept
            raise RulesError(f"rule switch {key!r} given twice in {spec.strip()!r}")
        switches[key] = value.strip()
    for alias, targets in _ALIASES.items():
        both = [t for t in targets if alias in switches and t in switches]
        if both:
            raise RulesError(
                f"rule switches {alias!r} and {both[0]!r} both given in {spec.strip()!r}: "
                f"{alias} sets {' and '.join(targets)}"
            )
    return get_ruleset(name.strip(), **switches)


# switches that set others (get_ruleset): giving one with what it sets is ambiguous
_ALIASES = {
    "open_after_tricks": ("open_reveal_after_cards",),
    "open_leader": ("open_misere_leader", "open_piek_leader"),
}


# --- internals ---------------------------------------------------------------------------

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _field_default(key: str) -> object:
    return next(f.default for f in dataclasses.fields(RuleSet) if f.name == key)


def _coerce(key: str, raw: object) -> object:
    default = _field_default(key)
    if isinstance(default, bool):
        return _coerce_bool(key, raw)
    if isinstance(default, int):
        return _coerce_int(key, raw, INT_RANGES[key])
    return _coerce_choice(key, raw, CHOICES[key])


def _coerce_bool(key: str, raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise RulesError(f"switch {key!r} takes on/off (true/false), got {raw!r}")


def _coerce_int(key: str, raw: object, bounds: tuple[int, int]) -> int:
    lo, hi = bounds
    try:
        if isinstance(raw, bool):
            raise ValueError
        value = int(str(raw).strip()) if not isinstance(raw, int) else raw
    except ValueError:
        raise RulesError(f"switch {key!r} takes an integer {lo}..{hi}, got {raw!r}") from None
    if not lo <= value <= hi:
        raise RulesError(f"switch {key!r} takes an integer {lo}..{hi}, got {raw!r}")
    return value


def _coerce_choice(key: str, raw: object, choices: tuple[str, ...]) -> str:
    text = str(raw).strip().lower()
    if text not in choices:
        raise RulesError(f"switch {key!r} takes one of {', '.join(choices)}; got {raw!r}")
    return text


def _validate(rs: RuleSet) -> None:
    """Reject impossible field values, also when a RuleSet is built directly."""
    if rs.name not in RULESET_NAMES:
        raise RulesError(f"unknown rule set {rs.name!r}; valid: {', '.join(RULESET_NAMES)}")
    settable = _FAMILY_SWITCHES[FAMILY_OF[rs.name]]
    for f in dataclasses.fields(RuleSet):
        if not f.init or f.name == "name":
            continue
        value = getattr(rs, f.name)
        fixed = _BASES[rs.name].get(f.name, f.default)
        if f.name not in settable and value != fixed:
            raise RulesError(
                f"switch {f.name!r} is fixed at {_show(fixed)} under {rs.name!r}, got "
                f"{_show(value)} (build rule sets with get_ruleset)"
            )
        if isinstance(f.default, bool):
            if not isinstance(value, bool):
                raise RulesError(f"switch {f.name!r} takes True/False, got {value!r}")
        elif isinstance(f.default, int):
            lo, hi = INT_RANGES[f.name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise RulesError(f"switch {f.name!r} takes an integer {lo}..{hi}, got {value!r}")
        elif value not in CHOICES[f.name]:
            raise RulesError(
                f"switch {f.name!r} takes one of {', '.join(CHOICES[f.name])}; got {value!r}"
            )


def _rikken_ladder(rs: RuleSet) -> tuple[tuple[Contract, ...], ...]:
    """The rungs low to high (docs/rules.md §5; V-01, V-02, V-12; iwwa I-03)."""
    rungs: list[tuple[Contract, ...]] = [(RIK,), (BETER_RIK,)]
    for n in range(rs.min_alone, 13):
        rungs += [(alone(n),), (alone(n, True),)]
        # The misère rung rides one alone level above the lowest (V-01). With separate rungs,
        # piek is the step just above the lowest level (iwwa I-03: 9 alone is the step over piek).
        if rs.separate_piek_rungs:
            if n == rs.min_alone and rs.piek:
                rungs.append((PIEK,))
            if n == rs.min_alone + 1:
                rungs.append((MISERE,))
        elif n == rs.min_alone + 1:
            rungs.append((MISERE, PIEK) if rs.piek else (MISERE,))
    if rs.malheur_played:
        rungs.append((MALHEUR,))
    if rs.separate_piek_rungs:
        order = [OPEN_PIEK, OPEN_MISERE, OPEN_PIEK_PRAATJE, OPEN_MISERE_PRAATJE]
        rungs += [(c,) for c in order if rs.piek or not c.is_piek]
    else:
        for pair in ((OPEN_MISERE, OPEN_PIEK), (OPEN_MISERE_PRAATJE, OPEN_PIEK_PRAATJE)):
            rungs.append(tuple(c for c in pair if rs.piek or not c.is_piek))
    rungs += [(SOLO,), (SOLO_BETER,)]
    return tuple(rungs)


def _wiezen_ladder(rs: RuleSet) -> tuple[tuple[Contract, ...], ...]:
    """W-16: :data:`WIEZEN_LADDER`, without troel and troela when ``troel=off``."""
    return tuple(rung for rung in WIEZEN_LADDER if rs.troel != "off" or rung[0] not in ANNOUNCED)


_LADDERS: dict[str, Callable[[RuleSet], tuple[tuple[Contract, ...], ...]]] = {
    "rikken": _rikken_ladder,
    "wiezen": _wiezen_ladder,
}


def _show(value: object) -> str:
    """A switch value as :func:`parse_ruleset` reads it (booleans as on/off)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
