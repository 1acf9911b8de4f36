"""The contract as the single-dummy players know it, the outcome of a played deal, and the
small rules of the play loop (who is on the declarer side, when a deal is decided, the
solver goal from the current trick on)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from analyser.cards import N_SEATS, card_bit
from analyser.errors import RikkenError
from analyser.worlds import trick_winner

KIND_GE, KIND_MISERE, KIND_PIEK = "ge", "misere", "piek"


@dataclasses.dataclass(frozen=True)
class PlayContract:
    """The contract as the players know it: ``trump`` 0-3 or 4 (no trump), ``leader`` to
    trick 1, the ``declarer`` seat, ``kind`` (``ge`` with ``target`` tricks for the
    declarer side, ``misere``, ``piek``), the ``called`` card (rik: its holder is the
    declarer's partner; -1 for none), ``partner`` a known partner seat (-1 for none: lone, or
    unknown until the called card falls; with a ``called`` card too, everyone knows he holds
    it) and the ``open`` seats whose hands everyone sees
    (open misère and piek; praatje: all four)."""

    trump: int
    leader: int
    declarer: int
    kind: str = KIND_GE
    target: int = 8
    called: int = -1
    partner: int = -1
    open: tuple[int, ...] = ()

    def __post_init__(self):
        if self.kind not in (KIND_GE, KIND_MISERE, KIND_PIEK):
            raise RikkenError(f"unknown contract kind {self.kind!r}")
        if self.kind == KIND_GE and not 1 <= self.target <= 13:
            raise RikkenError("a trick contract needs a target of 1..13 tricks")
        if self.kind != KIND_GE and (self.called >= 0 or self.partner >= 0):
            raise RikkenError("misère and piek are played alone")


@dataclasses.dataclass(frozen=True)
class PlayedDeal:
    """The outcome of one deal played out: ``made``, the declarer side's ``tricks`` (up to
    the point the play stopped, R-MIS-03), the ``cards`` in the order played, and the
    seat holding the called card (-1 without one).

    How the play went: ``decisions`` the cards chosen by a search over worlds (a single
    legal card or a run of equivalent cards needs none), ``limited`` those that ran out of
    the node budget per decision and played the best card found on the worlds finished,
    ``nodes`` the solver nodes searched, ``claimed`` whether the play stopped early
    because the rest could not change the outcome whatever anyone played; with an inference
    from the auction, ``uninformed`` the decisions whose candidate worlds all contradicted
    it (drawn without it instead) and ``thin`` those that found fewer worlds than asked."""

    made: bool
    tricks: int
    cards: tuple[int, ...]
    partner: int
    decisions: int = 0
    limited: int = 0
    nodes: int = 0
    claimed: bool = False
    uninformed: int = 0
    thin: int = 0


def side_of(contract: PlayContract, holder: int) -> tuple[int, ...]:
    """The declarer side when the called card (or the known partner) is with ``holder``."""
    if contract.partner >= 0:
        return (contract.declarer, contract.partner)
    if contract.called >= 0 and holder >= 0 and holder != contract.declarer:
        return (contract.declarer, holder)
    return (contract.declarer,)


def holder_of(hands: Sequence[int], card: int) -> int:
    """The seat whose hand mask holds ``card``, -1 if none."""
    bit = card_bit(card)
    for s in range(N_SEATS):
        if int(hands[s]) & bit:
            return s
    return -1


def decided(contract: PlayContract, won: int, left: int) -> bool | None:
    """True/False once the contract is made or lost whatever follows; None while open."""
    if contract.kind == KIND_GE:
        if won >= contract.target:
            return True
        if won + left < contract.target:
            return False
        return None
    limit = 0 if contract.kind == KIND_MISERE else 1
    if won > limit:
        return False
    if left == 0:
        return won == limit
    return None


def goal_from_here(contract: PlayContract, won: int) -> str:
    """The solver goal from here (goals count from the current trick on)."""
    if contract.kind == KIND_GE:
        return f">={contract.target - won}"
    if contract.kind == KIND_PIEK and won == 0:
        return "piek"
    return "misere"


def public_cards(deal, contract: PlayContract, me: int) -> dict[int, int]:
    """Cards whose holder everyone knows: the open hands, and the called card when its holder
    is a known partner (malheur: the partner named trump)."""
    known = {c: s for s in contract.open if s != me for c in deal[s]}
    if contract.partner >= 0 and contract.called >= 0 and me != contract.partner:
        known[contract.called] = contract.partner
    return known


def trick_pairs(contract: PlayContract, played: Sequence[int]) -> list[tuple[int, int]]:
    """(seat, card) of every card played, seats worked out from the trick winners."""
    seat = contract.leader
    trick: list[tuple[int, int]] = []
    out = []
    for c in played:
        trick.append((seat, c))
        out.append((seat, c))
        if len(trick) == N_SEATS:
            seat = trick_winner(trick, contract.trump)
            trick = []
        else:
            seat = (seat + 1) % N_SEATS
    return out


def mix(seed: int, index: int) -> int:
    """The worlds stream of deal ``index``: a 64-bit seed from (seed, index)."""
    z = (int(seed) * 0x9E3779B97F4A7C15 + int(index) + 1) & ((1 << 64) - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
    return z ^ (z >> 31)
