"""Playing one deal out with single-dummy players: the play loop, and the claim that ends it
once the rest cannot change the outcome."""

from __future__ import annotations

from collections.abc import Sequence

from analyser.cards import N_RANKS, N_SEATS
from analyser.single_dummy.contract import (
    KIND_MISERE,
    PlayContract,
    PlayedDeal,
    decided,
    mix,
    side_of,
)
from analyser.single_dummy.decide import PlayOptions, Turn, WarmTable, choose
from analyser.solver import Solver
from analyser.worlds import trick_winner


def misere_claim(hands: Sequence[Sequence[int]], declarer: int) -> bool:
    """At a trick start with another seat to lead, no trick can come to a lone no-trump
    declarer whatever anyone plays: in every suit his cards are all below every card of it
    the others hold. (A suit led is led by another seat with a higher card, or he is void
    and discards; a suit only he holds is never led, since he never wins the lead.)"""
    mine = hands[declarer]
    for suit in range(4):
        his = [c % N_RANKS for c in mine if c // N_RANKS == suit]
        if not his:
            continue
        theirs = [
            c % N_RANKS
            for s in range(N_SEATS)
            if s != declarer
            for c in hands[s]
            if c // N_RANKS == suit
        ]
        if theirs and max(his) > min(theirs):
            return False
    return True


def play_deal(
    hands: Sequence[Sequence[int]],
    contract: PlayContract,
    options: PlayOptions | int,
    seed: int,
    deal_index: int = 0,
    *,
    solver: Solver | None = None,
) -> PlayedDeal:
    """Play one deal out with single-dummy players (:mod:`analyser.single_dummy`).
    ``hands``: the four 13-card hands (card ints). Stops when the contract is decided
    (R-MIS-03 for misère and piek; a trick contract once made or beaten, which changes no
    result), or at a claim (:func:`misere_claim`). ``options``: how the players decide, or
    just the worlds per decision (the other options at their defaults)."""
    if not isinstance(options, PlayOptions):
        options = PlayOptions(int(options))
    solver = solver or Solver()
    deal = [sorted(int(c) for c in h) for h in hands]
    true_holder = -1
    if contract.called >= 0:
        true_holder = next(s for s in range(N_SEATS) if contract.called in deal[s])
    played: list[int] = []
    trick: list[tuple[int, int]] = []
    winners: list[int] = []
    seat = contract.leader
    turn = decisions = limited = nodes = uninformed = thin = 0
    true_side = side_of(contract, true_holder)
    stream = mix(seed, deal_index)
    table = WarmTable(solver)
    try:
        while True:
            won = sum(w in true_side for w in winners)
            left = N_RANKS - len(winners)
            outcome = decided(contract, won, left)
            claimed = False
            if outcome is None and not trick and contract.kind == KIND_MISERE and won == 0:
                if seat != contract.declarer:
                    now = [[c for c in h if c not in set(played)] for h in deal]
                    if misere_claim(now, contract.declarer):
                        outcome, claimed = True, True
            if outcome is not None:
                return PlayedDeal(
                    outcome, won, tuple(played), true_holder, decisions, limited, nodes,
                    claimed, uninformed, thin,
                )  # fmt: skip
            at = Turn(seat, played, trick, winners, turn)
            got = choose(deal, contract, at, options, stream, solver, table)
            decisions += got.searched
            limited += got.limited
            nodes += got.nodes
            uninformed += got.uninformed
            thin += got.thin
            played.append(got.card)
            trick.append((seat, got.card))
            turn += 1
            if len(trick) == N_SEATS:
                seat = trick_winner(trick, contract.trump)
                winners.append(seat)
                trick = []
            else:
                seat = (seat + 1) % N_SEATS
    finally:
        table.close()
