"""The play API (analyser.solver.card_values): the value of every legal card, with a trick in
progress, against the brute-force oracle on endings (every goal, called cards, adjacent and
opposite partners, lone declarers) and against DDS (its per-card scores with a trick in
progress) on full bridge-shaped deals."""

from __future__ import annotations

import random

import pytest
from dds_ref import to_deal
from endplay.dds import solve_board
from endplay.types import Card, Denom, Rank
from oracle import legal_cards, oracle_solve, random_ending

from analyser.cards import N_RANKS
from analyser.solver import PositionError, Solver, card_values, solve

SIDES = ((0,), (1,), (0, 2), (1, 3), (0, 1), (1, 2), (2, 3), (3, 0))


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _with_trick(rng: random.Random, hands, leader: int, called: int | None):
    """Play 0-3 random legal cards to the first trick; (hands left, trick)."""
    hands = [list(h) for h in hands]
    trick: list[int] = []
    for k in range(rng.randrange(4)):
        seat = (leader + k) % 4
        legal = legal_cards(_mask(hands[seat]), tuple(trick), called, True, True)
        c = rng.choice(legal)
        hands[seat].remove(c)
        trick.append(c)
    return hands, trick


def _positions(seed: int, count: int, sizes=(2, 3, 4)):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice(sizes)
        full = random_ending(rng, n, n_suits=rng.choice((2, 3, 4)))
        leader = rng.randrange(4)
        side = rng.choice(SIDES)
        trump = rng.randrange(5)
        goal = rng.choice(("tricks", "tricks", "ge", "misere", "piek"))
        if goal in ("misere", "piek"):
            side = (rng.randrange(4),)
        called = None
        if len(side) == 2 and rng.random() < 0.4:
            called = rng.choice(full[side[1]])  # the partner's called card
        hands, trick = _with_trick(rng, full, leader, called)
        if goal == "ge":
            goal = f">={rng.randint(1, n)}"
        out.append((hands, trump, leader, side, goal, called, trick))
    return out


def _oracle_values(hands, trump, leader, side, goal, called, trick):
    seat = (leader + len(trick)) % 4
    pending = called is not None and any(called in h for h in hands)
    legal = legal_cards(_mask(hands[seat]), tuple(trick), called, pending, True)
    return {
        c: oracle_solve(hands, trump, leader, side, goal, called, trick=trick, first_card=c)
        for c in legal
    }


@pytest.mark.parametrize(
    "count, sizes", [(160, (2, 3, 4)), pytest.param(400, (4, 5), marks=pytest.mark.slow)]
)
def test_card_values_match_the_oracle(count, sizes):
    solver = Solver()
    with_trick = 0
    for hands, trump, leader, side, goal, called, trick in _positions(41, count, sizes):
        want = _oracle_values(hands, trump, leader, side, goal, called, trick)
        got = card_values(hands, trump, leader, side, goal, called, trick, solver=solver)
        assert got == want, (hands, trump, leader, side, goal, called, trick)
        with_trick += bool(trick)
    assert with_trick >= count // 2


def test_card_values_agree_with_solve_at_a_trick_start():
    # the side to move takes the best of its cards' values, the other side the worst
    rng = random.Random(43)
    for _ in range(40):
        n = rng.choice((3, 4, 5))
        hands = random_ending(rng, n)
        leader, trump = rng.randrange(4), rng.randrange(5)
        side = rng.choice(SIDES)
        values = card_values(hands, trump, leader, side, "tricks")
        best = max(values.values()) if leader in side else min(values.values())
        assert best == solve(hands, trump, leader, side, "tricks")
        assert set(values) == set(hands[leader])  # on lead every card is legal


def _dds_card(c: int) -> Card:
    return Card(suit=Denom(c // N_RANKS), rank=Rank(1 << (c % N_RANKS + 2)))


@pytest.mark.parametrize("deals", [6, pytest.param(60, marks=pytest.mark.slow)])
def test_card_values_match_dds_with_a_trick_in_progress(deals):
    rng = random.Random(47)
    solver = Solver()
    for _ in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        full = [sorted(deck[13 * k : 13 * k + 13]) for k in range(4)]
        leader, trump = rng.randrange(4), rng.randrange(5)
        deal = to_deal(full, trump, leader)
        hands, trick = _with_trick(rng, full, leader, None)
        for c in trick:
            deal.play(_dds_card(c))
        mover = (leader + len(trick)) % 4
        want = {}
        for card, tricks in solve_board(deal):
            want[card.suit.value * N_RANKS + card.rank.bit_length() - 3] = tricks
        side = (mover, (mover + 2) % 4)
        got = card_values(hands, trump, leader, side, "tricks", trick=trick, solver=solver)
        # DDS lists one card of each run of equivalent cards: those must agree
        assert want and all(got[c] == v for c, v in want.items()), (full, trump, leader, trick)


def test_card_values_refuses_impossible_positions():
    hands = [[0, 1], [13, 14], [26, 27], [39, 40]]
    four = [[1], [14], [27], [40]]
    with pytest.raises(PositionError, match="0 to 3 cards"):
        card_values(four, 4, 0, [0], "tricks", trick=[0, 13, 26, 39])
    with pytest.raises(PositionError, match="equal numbers"):
        card_values(hands, 4, 0, [0], "tricks", trick=[2])
    with pytest.raises(PositionError, match="follow suit"):
        card_values([[1], [2], [26, 27], [39, 40]], 4, 0, [0], "tricks", trick=[0, 13])
    with pytest.raises(PositionError, match="two places"):
        card_values([[1], [13, 14], [26, 27], [39, 40]], 4, 0, [0], "tricks", trick=[1])
    with pytest.raises(PositionError, match="K in"):
        card_values(hands, 4, 0, [0, 2], ">=3")
    with pytest.raises(PositionError, match="lone declarer"):
        card_values(hands, 4, 0, [0, 2], "misere")


def test_an_interrupted_card_values_call_leaves_no_generation_to_reuse(monkeypatch):
    """A Ctrl-C ending the numba call: the solver already holds the generation that call
    searched in, so the next search starts a fresh one (else it would read the interrupted
    search's half-written entries as its own)."""
    import analyser.solver.play as play

    solver = Solver()
    hands = [[0, 1], [2, 3], [13, 14], [26, 27]]
    seen: list[int] = []

    def interrupted(*args):
        seen.append(args[1].gen)  # the generation the search was given (its Memory)
        raise KeyboardInterrupt

    monkeypatch.setattr(play, "card_values_core", interrupted)
    start = solver.gen
    with pytest.raises(KeyboardInterrupt):
        card_values(hands, 4, 0, 0, solver=solver)
    # the search got a new generation, and the solver kept it as used
    assert seen == [solver.gen] and solver.gen > start
    monkeypatch.undo()
    before = solver.gen
    values = card_values(hands, 4, 0, 0, solver=solver)
    assert solver.gen == before + 1
    assert set(values) == {0, 1}
