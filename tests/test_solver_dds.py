"""The solver against DDS (endplay) on full 13-card deals: partners opposite, no called card.

DDS answers for the side on lead (``solve_board``) or per declarer with the left-hand opponent
on lead (``calc_dd_table``); tests/dds_ref.py converts. Deals, strains and leaders are seeded.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from dds_ref import dd_table, hands_from_pbn, leader_side_tricks_many
from oracle import position_text, random_ending

from analyser.cards import cards_to_mask
from analyser.solver import GOAL_GE, GOAL_TRICKS, solve, solve_batch

N, E, S, W = 0, 1, 2, 3
SPADES, HEARTS, NT = 0, 1, 4


def random_boards(seed: int, count: int):
    """``count`` (hands, trump, leader, declarer side) full deals; the side is NS or EW."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        hands = random_ending(rng, 13)
        trump, leader = rng.randrange(5), rng.randrange(4)
        first = rng.randrange(2)
        boards.append((hands, trump, leader, (first, first + 2)))
    return boards


def batch(boards, goal: int, targets) -> np.ndarray:
    """The solver on every board, one ``solve_batch`` call."""
    n = len(boards)
    return solve_batch(
        np.array([[cards_to_mask(h) for h in b[0]] for b in boards], dtype=np.int64),
        np.array([b[1] for b in boards], dtype=np.int8),
        np.array([b[2] for b in boards], dtype=np.int8),
        np.array([(1 << b[3][0]) | (1 << b[3][1]) for b in boards], dtype=np.int8),
        np.full(n, goal, dtype=np.int8),
        np.asarray(targets, dtype=np.int8),
        np.full(n, -1, dtype=np.int8),
    )


def check_against_dds(boards) -> None:
    """Exact tricks equal DDS on every board; >=K agrees for K = exact and exact+1."""
    lead_side = leader_side_tricks_many([(h, t, lead) for h, t, lead, _ in boards])
    # DDS scores the side on lead; our declarer side may be the other one.
    want = [
        lt if lead in side else 13 - lt
        for (_, _, lead, side), lt in zip(boards, lead_side, strict=True)
    ]
    got = batch(boards, GOAL_TRICKS, np.zeros(len(boards)))
    bad = [
        f"{position_text(b[0], b[1], b[2], b[3])}: dds {w} solver {int(g)}"
        for b, w, g in zip(boards, want, got, strict=True)
        if int(g) != w
    ]
    assert not bad, f"{len(bad)} of {len(boards)} deals differ:\n" + "\n".join(bad[:10])
    for shift in (0, 1):
        chosen = [i for i, w in enumerate(want) if 1 <= w + shift <= 13]
        sub = [boards[i] for i in chosen]
        ks = [want[i] + shift for i in chosen]
        ge = batch(sub, GOAL_GE, ks)
        bad = [
            f"{position_text(b[0], b[1], b[2], b[3], f'>={k}')}: exact {k - shift} solver {int(g)}"
            for b, k, g in zip(sub, ks, ge, strict=True)
            if int(g) != int(shift <= 0)
        ]
        assert not bad, "\n".join(bad[:10])


def test_known_deal_conventions():
    # Each seat holds a whole suit (N spades, E hearts, S diamonds, W clubs). At no trump the
    # side on lead cashes its suit; with spades trump N ruffs any lead and takes everything.
    hands = hands_from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    assert solve(hands, NT, E, (E, W)) == 13
    assert solve(hands, NT, E, (N, S)) == 0
    assert solve(hands, SPADES, E, (N, S)) == 13
    assert solve(hands, HEARTS, N, (N, S)) == 0  # N must lead a spade: E ruffs, cashes hearts
    assert dd_table(hands)[HEARTS] == [0, 13, 0, 13]


def test_full_deals_match_dds():
    # 40 seeded full deals by default (the suite's time budget); 1000 others in the slow run
    check_against_dds(random_boards(1313, 40))


def test_dd_table_matches_on_two_deals():
    # calc_dd_table: every strain and declarer, the declarer's left-hand opponent on lead.
    rng = random.Random(77)
    deals = [random_ending(rng, 13) for _ in range(2)]
    boards, want = [], []
    for hands in deals:
        table = dd_table(hands)
        for strain in range(5):
            for decl in range(4):
                boards.append((hands, strain, (decl + 1) % 4, (decl % 2, decl % 2 + 2)))
                want.append(table[strain][decl])
    got = batch(boards, GOAL_TRICKS, np.zeros(len(boards)))
    assert [int(g) for g in got] == want


@pytest.mark.slow
def test_many_full_deals_match_dds():
    check_against_dds(random_boards(2626, 1000))
