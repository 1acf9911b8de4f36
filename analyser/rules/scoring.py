"""Scoring (docs/rules.md §6 and its UNSPECIFIED defaults; iwwa I-09). Zero-sum in every case.

Public API:

* :func:`per_opponent` ``(ruleset, contract, t)`` — the signed amount ``v`` one declarer (side)
  wins from each opponent with ``t`` tricks (negative when the contract fails).
* :func:`score` ``(ruleset, contract, tricks, declarers, partner=None)`` — points per seat N, E,
  S, W; they always sum to 0. ``tricks`` is either the tricks of the declaring side (an int;
  for misère/piek only with one declarer) or a 4-sequence of tricks per seat.
* :func:`declarer_score` ``(ruleset, contract, t)`` — the bidder's points when he is the only
  declarer (partner present for rik/malheur): what an expected-score estimate needs.

Amounts (book; iwwa uses the same): rik ``v = 1 + (t − 8)``, malheur ``2 + (t − 8)``, 13 tricks
``10`` / ``11``, each side player ±v; alone N ``v = 1 + (t − N)``, lone player ±3v; misère/piek
3, open 6, praatje 9, solo 15, solo beter 16 (lone ±3v). Failed trick-target contracts pay
``base + (u − 1)`` with ``u`` undertricks (``fail_mode=undertricks``) or the base only
(``base_only``); misère/piek/solo pay the same ``v`` as a win. iwwa I-09: a failed rik is paid
by the rikker alone (−2v), the partner scores 0. Several misère/piek declarers each settle
``v`` with each of the other three players (R-MIS-02 default, the wiezen scheme).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyser.cards import N_SEATS
from analyser.errors import RulesError
from analyser.rules.contracts import (
    ALL_TRICKS,
    MALHEUR_TARGET,
    RIK_TARGET,
    Contract,
    check_tricks,
    made,
    parse_contract,
)
from analyser.rules.ruleset import RuleSet

# Fixed amount per opponent of the contracts without over- or undertricks.
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


def per_opponent(ruleset: RuleSet, contract: Contract | str, tricks: int) -> int:
    """Signed ``v`` of one declarer (side) with ``tricks``: + wins from, − pays each opponent."""
    c = parse_contract(contract)
    t = check_tricks(tricks)
    ruleset.rank(c)  # raises if the contract is not played under this rule set
    if c.kind in ("rik", "malheur", "alone"):
        target = {"rik": RIK_TARGET, "malheur": MALHEUR_TARGET}.get(c.kind, c.n)
        base = BASES[c.kind]
        if t >= target:
            if t == ALL_TRICKS and c.kind in ALL_TRICKS_BONUS:
                return ALL_TRICKS_BONUS[c.kind]
            return base + (t - target)
        extra = (target - t - 1) if ruleset.fail_mode == "undertricks" else 0
        return -(base + extra)
    if c.is_pass:
        return 0
    unit = SOLO_BETER_UNIT if (c.kind == "solo" and c.beter) else UNITS[c.kind]
    return unit if made(c, t) else -unit


def score(
    ruleset: RuleSet,
    contract: Contract | str,
    tricks: int | Sequence[int],
    declarers: Sequence[int] = (),
    partner: int | None = None,
) -> Score:
    """Points per seat (N, E, S, W) after playing ``contract``; the four always sum to 0.

    ``declarers``: the bidder(s) in bidding order (one for rik, malheur, alone, solo; one or
    more for misère/piek forms). ``partner``: the called-ace / malheur partner (rik, malheur
    only). ``pass`` (deal thrown in) scores 0 for everybody.
    """
    c = parse_contract(contract)
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
    c = parse_contract(contract)
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
