"""Single-dummy play: every player sees only what a real player sees (perfect-information
Monte Carlo, PIMC).

At each turn the player to move draws ``samples`` worlds from his own knowledge
(:mod:`analyser.worlds`: his hand, the cards played, the suits each seat showed out of, the
public cards), values each of his legal cards in each world with the double-dummy solver
(:func:`analyser.solver.card_values`), and plays the card with the best average for his side:

* trick contracts (``>=K``): the share of worlds in which his side still reaches its goal
  (the declarer side wants it high, the defenders low); ties are broken by the share for one
  trick more (the declarer side's overtrick, the defenders' extra undertrick), then by the
  lowest card;
* misère and piek: the share of worlds in which the lone declarer still makes it, ties to
  the lowest card.

Who is on which side is part of the world: at rik the called card's holder is the partner,
and until that card falls only the partner himself knows who he is; each other player's
worlds place the card with some seat, and so pick a partner, as the true deal would. The
same goes for the tricks the declarer side has won so far.

Known weaknesses, inherited from PIMC: *strategy fusion* (each world is solved as if the
player could see it, so a card that is best in every world separately may be a guess in
reality, and a safety play that wins in all worlds at once is not seen) and *no inference
from the others' play* beyond the suits they showed out of (no signals, no reading of a
defender's choice of card). Both make single-dummy play somewhat weaker than a good human;
it is a floor for real play, where double-dummy is a ceiling.

Every draw comes from the seed: the worlds of turn ``t`` of deal ``i`` are worlds
``t * samples ...`` of the stream of (seed, i), so a deal plays the same way each time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from analyser.cards import N_RANKS, N_SEATS, mask_to_cards
from analyser.errors import RikkenError
from analyser.solver import Solver, card_values
from analyser.worlds import knowledge_after, sample_worlds, trick_winner

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
    seat holding the called card (-1 without one)."""

    made: bool
    tricks: int
    cards: tuple[int, ...]
    partner: int


def _side(contract: PlayContract, holder: int) -> tuple[int, ...]:
    """The declarer side when the called card (or the known partner) is with ``holder``."""
    if contract.partner >= 0:
        return (contract.declarer, contract.partner)
    if contract.called >= 0 and holder >= 0 and holder != contract.declarer:
        return (contract.declarer, holder)
    return (contract.declarer,)


def _holder(hands: Sequence[int], card: int) -> int:
    bit = 1 << (16 * (card // N_RANKS) + card % N_RANKS)
    for s in range(N_SEATS):
        if int(hands[s]) & bit:
            return s
    return -1


def _decided(contract: PlayContract, won: int, left: int) -> bool | None:
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


def _goal(contract: PlayContract, won: int) -> str:
    """The solver goal from here (goals count from the current trick on)."""
    if contract.kind == KIND_GE:
        return f">={contract.target - won}"
    if contract.kind == KIND_PIEK and won == 0:
        return "piek"
    return "misere"


def play_deal(
    hands: Sequence[Sequence[int]],
    contract: PlayContract,
    samples: int,
    seed: int,
    deal_index: int = 0,
    *,
    solver: Solver | None = None,
    called_card_may_be_discarded: bool = True,
    max_nodes: int = 0,
) -> PlayedDeal:
    """Play one deal out with single-dummy players, each drawing ``samples`` worlds per
    decision (see the module docstring). ``hands``: the four 13-card hands (card ints).
    Stops when the contract is decided (R-MIS-03 for misère and piek; a trick contract once
    made or beaten, which changes no result)."""
    if samples < 1:
        raise RikkenError("single-dummy play needs at least one world per decision")
    solver = solver or Solver()
    options = (bool(called_card_may_be_discarded), int(max_nodes))
    deal = [sorted(int(c) for c in h) for h in hands]
    true_holder = -1
    if contract.called >= 0:
        true_holder = next(s for s in range(N_SEATS) if contract.called in deal[s])
    played: list[int] = []
    trick: list[tuple[int, int]] = []
    winners: list[int] = []
    seat = contract.leader
    turn = 0
    true_side = _side(contract, true_holder)
    while True:
        won = sum(w in true_side for w in winners)
        outcome = _decided(contract, won, N_RANKS - len(winners))
        if outcome is not None:
            return PlayedDeal(outcome, won, tuple(played), true_holder)
        ctx = _Turn(seat, played, trick, winners, turn)
        card = _choose(deal, contract, ctx, samples, _mix(seed, deal_index), solver, options)
        played.append(card)
        trick.append((seat, card))
        turn += 1
        if len(trick) == N_SEATS:
            seat = trick_winner(trick, contract.trump)
            winners.append(seat)
            trick = []
        else:
            seat = (seat + 1) % N_SEATS


@dataclasses.dataclass(frozen=True)
class _Turn:
    """Where the play stands: the seat to move, the cards played (in order), the current
    trick's (seat, card) pairs, the seats that won the tricks so far, the turn number."""

    seat: int
    played: list[int]
    trick: list[tuple[int, int]]
    winners: list[int]
    turn: int


def _public(deal, contract: PlayContract, me: int) -> dict[int, int]:
    """Cards whose holder everyone knows: the open hands, and the called card when its holder
    is a known partner (malheur: the partner named trump)."""
    known = {c: s for s in contract.open if s != me for c in deal[s]}
    if contract.partner >= 0 and contract.called >= 0 and me != contract.partner:
        known[contract.called] = contract.partner
    return known


def _choose(deal, contract: PlayContract, at: _Turn, samples: int, stream: int, solver, options):
    """The card the seat to move plays: the best average over his sampled worlds."""
    seat = at.seat
    called = contract.called if contract.called >= 0 else None
    k = knowledge_after(
        seat, deal[seat], contract.trump, contract.leader, at.played,
        _public(deal, contract, seat), called,
    )  # fmt: skip
    worlds = sample_worlds(k, samples, stream, start=at.turn * samples)
    leader = at.trick[0][0] if at.trick else seat
    on_table = [c for _, c in at.trick]
    fell = -1  # the seat that played the called card, once it has fallen
    if called is not None and called in at.played:
        fell = _trick_pairs(contract, at.played)[at.played.index(called)][0]
    cards: list[int] = []
    first = second = np.zeros(0)
    for w in worlds:
        holder = fell if fell >= 0 else (_holder(w, called) if called is not None else -1)
        side = _side(contract, holder)
        won = sum(x in side for x in at.winners)
        hands = [mask_to_cards(int(m)) for m in w]
        values = _world_values(hands, contract, leader, side, won, on_table, solver, options)
        if not cards:
            cards = sorted(values)
            first = np.zeros(len(cards))
            second = np.zeros(len(cards))
        mine = seat in side
        for i, c in enumerate(cards):
            a, b = values[c]
            # the player's side's view: a defender wants the declarer side to fail
            first[i] += a if mine else 1 - a
            second[i] += b if mine else 1 - b
    best = max(range(len(cards)), key=lambda i: (first[i], second[i], -(cards[i] % N_RANKS)))
    return cards[best]


def _world_values(hands, contract, leader, side, won, on_table, solver, options):
    """{card: (goal made 0/1, tie-break 0/1)} in one world; a card given up at the node
    budget counts as failing."""
    may_discard, max_nodes = options
    left = len(hands[(leader + len(on_table)) % N_SEATS])
    called = contract.called if contract.called >= 0 else None

    def values(goal: str) -> dict[int, int]:
        v = card_values(
            hands, contract.trump, leader, side, goal, called, on_table,
            called_card_may_be_discarded=may_discard, solver=solver, max_nodes=max_nodes,
        )  # fmt: skip
        return {c: max(x, 0) for c, x in v.items()}

    if contract.kind != KIND_GE:
        return {c: (x, 0) for c, x in values(_goal(contract, won)).items()}
    need = contract.target - won
    if need <= 0 or need > left:
        # settled in this world already (its partner is not the true one): every card alike
        ok = int(need <= 0)
        return {c: (ok, ok) for c in values("tricks")}
    a = values(f">={need}")
    # the tie-break: one trick more for the declarer side (one fewer for the defenders)
    b = values(f">={need + 1}") if need + 1 <= left else dict.fromkeys(a, 0)
    return {c: (a[c], b[c]) for c in a}


def _trick_pairs(contract: PlayContract, played: Sequence[int]):
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


def _mix(seed: int, index: int) -> int:
    """The worlds stream of deal ``index``: a 64-bit seed from (seed, index)."""
    z = (int(seed) * 0x9E3779B97F4A7C15 + int(index) + 1) & ((1 << 64) - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
    return z ^ (z >> 31)
