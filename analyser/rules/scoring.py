"""Scoring (docs/rules.md §6 and its UNSPECIFIED defaults; iwwa I-09; wiezen W-17, W-18).
Zero-sum in every case.

Public API:

* :func:`per_opponent` ``(ruleset, contract, t)`` — the signed amount ``v`` one declarer (side)
  wins from each opponent with ``t`` tricks (negative when the contract fails).
* :func:`score` ``(ruleset, contract, tricks, declarers, partner=None)`` — points per seat N, E,
  S, W; they always sum to 0. ``tricks`` is either the tricks of the declaring side (an int;
  for misère/piek only with one declarer) or a 4-sequence of tricks per seat.
* :func:`declarer_score` ``(ruleset, contract, t)`` — the bidder's points when he is the only
  declarer (partner present for the partnerships): what an expected-score estimate needs.
* :func:`payment` ``(ruleset, contract)`` — the :class:`Payment` behind ``v``: the table of
  the rule set's family, as data.
* :func:`penalty_score` ``(ruleset, offence, offender)`` — wiezen's fixed penalties (W-18):
  a misdeal, a troel not announced.

Who receives what: with a partnership (rik, malheur, vragen, troel, troela) both partners get
``v`` and each opponent ``-v``; a lone player (alone, solo, abondance) gets ``3v`` and each
opponent ``-v``; every misère/piek declarer settles ``v`` on his own with each of the other
three players (R-MIS-02 default, the wiezen scheme, W-17), so several declarers stay
zero-sum. iwwa I-09: a failed rik is paid by the rikker alone (−2v), the partner scores 0.

Amounts, rikken (book; iwwa the same): rik ``v = 1 + (t − 8)``, malheur ``2 + (t − 8)``, 13
tricks ``10`` / ``11``; alone N ``v = 1 + (t − N)``; misère/piek 3, open 6, praatje 9, solo
15, solo beter 16. Failed trick-target contracts pay ``base + (u − 1)`` with ``u``
undertricks (``fail_mode=undertricks``) or the base only (``base_only``); misère/piek/solo pay
the same ``v`` as a win. wiezen (W-17): see :data:`WIEZEN_PAYMENTS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyser.cards import N_SEATS
from analyser.errors import RulesError
from analyser.rules.contracts import (
    ABONDANCE_LEVELS,
    ALL_TRICKS,
    ALONE_5,
    AT_LEAST,
    MISERE,
    OPEN_MISERE,
    SOLO,
    SOLO_SLIM,
    TROEL,
    TROELA,
    VRAGEN,
    Contract,
    abondance,
    check_tricks,
)
from analyser.rules.ruleset import RuleSet

# Fixed amount per opponent of the contracts without over- or undertricks (book).
UNITS = {
    "misere": 3,
    "piek": 3,
    "open_misere": 6,
    "open_piek": 6,
    "open_misere_praatje": 9,
    "open_piek_praatje": 9,
    "solo": 15,
}
SOLO_BETER_UNIT = 16
# Base amount of the trick-target contracts (one trick over or under changes it by one).
BASES = {"rik": 1, "malheur": 2, "alone": 1}
# All 13 tricks in a rik / malheur: the "round" bonus replaces the overtrick count.
ALL_TRICKS_BONUS = {"rik": 10, "malheur": 11}
LONE_FACTOR = N_SEATS - 1  # a lone player settles with three opponents

Score = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Payment:
    """How much one declarer (side) settles with each opponent, by the tricks it took.

    Made with ``t`` tricks (target ``n``): ``made + overtrick * (t - n)``, or ``all_tricks``
    with all 13 when given. Failed, ``u = n - t`` tricks short (1 when the goal is not a
    minimum): ``-(failed + undertrick * (u - 1))``; ``failed`` None means ``made``."""

    made: int
    overtrick: int = 0
    all_tricks: int | None = None
    failed: int | None = None
    undertrick: int = 0

    def amount(self, contract: Contract, tricks: int) -> int:
        """The signed ``v`` of ``contract`` with ``tricks`` of the declaring side."""
        g = contract.goal
        if g.made(tricks):
            if tricks == ALL_TRICKS and self.all_tricks is not None:
                return self.all_tricks
            over = tricks - g.n if g.kind == AT_LEAST else 0
            return self.made + self.overtrick * over
        short = g.n - tricks if g.kind == AT_LEAST else 1
        first = self.made if self.failed is None else self.failed
        return -(first + self.undertrick * (short - 1))


# W-17: the wiezen points table, per contract: v settled with each opponent.
WIEZEN_PAYMENTS: dict[Contract, Payment] = {
    # vragen + meegaan: each +(2 + (t - 8)), 13 tricks +14; failed each -2 * (2 + (8 - t)).
    VRAGEN: Payment(made=2, overtrick=1, all_tricks=14, failed=6, undertrick=2),
    # alone 5: lone +3 * (2 + (t - 5)); failed lone -(6 + 6 * (5 - t)), each opponent
    # +(2 + 2 * (5 - t)). No all-13 bonus: the table gives none.
    ALONE_5: Payment(made=2, overtrick=1, failed=4, undertrick=2),
    # abondance 9 / 10 / 11 / 12: 5 / 6 / 8 / 9 from each opponent, no overtricks, the same
    # amounts the other way when failed; the turned form pays the same.
    **{
        abondance(n, turned): Payment(made=unit)
        for n, unit in zip(ABONDANCE_LEVELS, (5, 6, 8, 9), strict=True)
        for turned in (False, True)
    },
    MISERE: Payment(made=7),  # each miserie player settles 7 with every other player
    OPEN_MISERE: Payment(made=14),
    # troel: each +2 * (2 + (t - 8)), 13 tricks UNSPECIFIED -> +28; failed each
    # -2 * (2 + (8 - t)), doubled once only.
    TROEL: Payment(made=4, overtrick=2, all_tricks=28, failed=6, undertrick=2),
    # troela: each +2 * (2 + (t - 9)), 13 tricks UNSPECIFIED -> +24; failed -2 * (2 + (9 - t)).
    TROELA: Payment(made=4, overtrick=2, all_tricks=24, failed=6, undertrick=2),
    SOLO: Payment(made=25),
    SOLO_SLIM: Payment(made=30),
}

# W-18: wiezen's fixed penalties, as (the offender's loss, each other player's gain).
WIEZEN_PENALTIES: dict[str, tuple[int, int]] = {
    "misdeal": (3, 1),  # W-02: a misdeal, or the card not turned
    "troel_not_announced": (15, 5),  # W-03
}


def _rikken_payment(ruleset: RuleSet, c: Contract) -> Payment:
    """The book's amounts (§6) with the rule set's ``fail_mode``."""
    if c.kind in BASES:
        base = BASES[c.kind]
        under = 1 if ruleset.fail_mode == "undertricks" else 0
        return Payment(base, 1, ALL_TRICKS_BONUS.get(c.kind), base, under)
    return Payment(SOLO_BETER_UNIT if (c.kind == "solo" and c.beter) else UNITS[c.kind])


def _wiezen_payment(ruleset: RuleSet, c: Contract) -> Payment:
    """W-17: :data:`WIEZEN_PAYMENTS`."""
    del ruleset  # no wiezen switch changes an amount
    return WIEZEN_PAYMENTS[c]


_PAYMENTS: dict[str, Callable[[RuleSet, Contract], Payment]] = {
    "rikken": _rikken_payment,
    "wiezen": _wiezen_payment,
}
_PENALTIES: dict[str, dict[str, tuple[int, int]]] = {"rikken": {}, "wiezen": WIEZEN_PENALTIES}


def payment(ruleset: RuleSet, contract: Contract | str) -> Payment:
    """The :class:`Payment` of ``contract`` under ``ruleset`` (RulesError if not played)."""
    c = ruleset.parse(contract)
    if c.is_pass:
        raise RulesError("'pass' is not a playable contract")
    ruleset.rank(c)  # raises if the contract is not played under this rule set
    return _PAYMENTS[ruleset.family.name](ruleset, c)


def per_opponent(ruleset: RuleSet, contract: Contract | str, tricks: int) -> int:
    """Signed ``v`` of one declarer (side) with ``tricks``: + wins from, − pays each opponent."""
    c = ruleset.parse(contract)
    t = check_tricks(tricks)
    if c.is_pass:
        return 0
    return payment(ruleset, c).amount(c, t)


def penalty_score(ruleset: RuleSet, offence: str, offender: int) -> Score:
    """Points per seat when ``offender`` commits ``offence`` (W-18: ``misdeal``, the dealer;
    ``troel_not_announced``): he pays, each other player receives; zero-sum."""
    table = _PENALTIES[ruleset.family.name]
    if offence not in table:
        valid = ", ".join(table) or "none"
        raise RulesError(f"no penalty {offence!r} under {ruleset.spec!r}; valid: {valid}")
    (seat,) = _check_seats([offender])
    loss, gain = table[offence]
    if loss != (N_SEATS - 1) * gain:
        raise RulesError(f"penalty {offence!r} is not zero-sum")  # pragma: no cover
    return tuple(-loss if s == seat else gain for s in range(N_SEATS))  # type: ignore[return-value]


def score(
    ruleset: RuleSet,
    contract: Contract | str,
    tricks: int | Sequence[int],
    declarers: Sequence[int] = (),
    partner: int | None = None,
) -> Score:
    """Points per seat (N, E, S, W) after playing ``contract``; the four always sum to 0.

    ``declarers``: the bidder(s) in bidding order (one for the partnerships and the lone
    contracts; one or more for misère/piek forms). ``partner``: the partner of a partnership
    only: the called-ace / malheur partner, the player who went along with an ask (vragen,
    the second declarer of the auction) or the holder of the troel / troela partner card.
    ``pass`` (deal thrown in) scores 0 for everybody.
    """
    c = ruleset.parse(contract)
    out = [0] * N_SEATS
    if c.is_pass:
        return (0, 0, 0, 0)
    decl = _check_seats(declarers)
    per_seat = _per_seat_tricks(tricks)

    if c.is_partnership:
        if len(decl) != 1:
            raise RulesError(f"{c.id} has exactly one bidder, got declarers {tuple(decl)}")
        if partner is None or partner == decl[0]:
            raise RulesError(f"{c.id} needs a partner seat other than the bidder")
        (p,) = _check_seats([partner])
        side = (decl[0], p)
        t = _side_tricks(tricks, per_seat, side)
        v = per_opponent(ruleset, c, t)
        rikker_pays_alone = v < 0 and c.kind == "rik" and ruleset.failed_rik_payer == "rikker"
        for seat in range(N_SEATS):
            if seat in side:
                out[seat] = v
            else:
                out[seat] = -v
        if rikker_pays_alone:
            out[decl[0]], out[p] = 2 * v, 0  # I-09: -2v for the rikker, the partner goes free
        return tuple(out)  # type: ignore[return-value]

    if partner is not None:
        raise RulesError(f"{c.id} has no partner")
    if c.is_alone:
        if len(decl) != 1:
            raise RulesError(f"{c.id} has exactly one declarer, got {tuple(decl)}")
        v = per_opponent(ruleset, c, _side_tricks(tricks, per_seat, (decl[0],)))
        _settle(out, decl[0], v)
        return tuple(out)  # type: ignore[return-value]

    # Misère / piek forms: every declarer settles on his own tricks with each other player.
    if per_seat is None and len(decl) > 1:
        raise RulesError("several declarers need the tricks of each seat (a 4-sequence)")
    for d in decl:
        t = per_seat[d] if per_seat is not None else int(tricks)  # type: ignore[arg-type]
        _settle(out, d, per_opponent(ruleset, c, t))
    return tuple(out)  # type: ignore[return-value]


def declarer_score(ruleset: RuleSet, contract: Contract | str, tricks: int) -> int:
    """Points of the bidder as the only declarer (with his partner for rik/malheur)."""
    c = ruleset.parse(contract)
    if c.is_pass:
        return 0
    partner = 1 if c.is_partnership else None
    return score(ruleset, c, tricks, declarers=(0,), partner=partner)[0]


def _settle(out: list[int], declarer: int, v: int) -> None:
    """The declarer wins ``v`` from each of the other three (pays if v < 0)."""
    for seat in range(N_SEATS):
        out[seat] += LONE_FACTOR * v if seat == declarer else -v


def _check_seats(seats: Sequence[int]) -> list[int]:
    out = []
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < N_SEATS:
            raise RulesError(f"a seat must be an int 0..3, got {s!r}")
        out.append(s)
    if not out:
        raise RulesError("a contract needs at least one declarer")
    if len(set(out)) != len(out):
        raise RulesError(f"a seat is listed twice among the declarers: {tuple(out)}")
    return out


def _per_seat_tricks(tricks: int | Sequence[int]) -> list[int] | None:
    """None for a side total; the validated 4 counts for a per-seat sequence."""
    if isinstance(tricks, int) and not isinstance(tricks, bool):
        check_tricks(tricks)
        return None
    try:
        counts = [int(t) for t in tricks]  # type: ignore[union-attr]
    except TypeError:
        raise RulesError(f"tricks must be an int or 4 ints (per seat), got {tricks!r}") from None
    if len(counts) != N_SEATS:
        raise RulesError(f"tricks per seat need 4 counts, got {len(counts)}")
    for t in counts:
        check_tricks(t)
    if sum(counts) > ALL_TRICKS:
        raise RulesError(f"the seats took {sum(counts)} tricks; at most 13 are played")
    return counts


def _side_tricks(tricks: int | Sequence[int], per_seat: list[int] | None, side) -> int:
    if per_seat is None:
        return int(tricks)  # type: ignore[arg-type]
    return sum(per_seat[s] for s in side)
