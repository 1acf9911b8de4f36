"""Joined misère and piek (analyser/solver/joined_misere.py) against the brute-force oracle
(tests/oracle_joined.py), on seeded random endings, plus hand-made positions and properties.

Every question is a random ending (1-4 cards per hand in the default run, up to 5 in the slow
one) from one to four suits, a random leader, two or three declarers of whom one is asked
about, misère or piek, both end-of-play switches (``settle_all``, ``stop_at_first_failure``)
and both models (``duck``, ``coalition``); a third of them start with tricks already taken
(a co-declarer who has failed or holds his piek trick). The solver answers all of them in one
batch and must agree with the oracle on every one.

On full deals the oracle is out of reach; there the coalition game under ``settle_all`` must
equal the lone declarer's misère/piek from the main solver (the same game), and the duck
answer may never be below the coalition answer.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import hand_text, random_ending
from oracle_joined import joined_oracle

from analyser.cards import cards_to_mask
from analyser.sampler import sample_deals
from analyser.solver import GOAL_MISERE, GOAL_PIEK, PositionError, solve_batch
from analyser.solver.joined_api import solve_joined, solve_joined_batch

FORMS = ("misere", "piek")
RULES = ("settle_all", "stop_at_first_failure")
MODELS = ("duck", "coalition")
DEFAULT_SIZES = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4)
SLOW_SIZES = (2, 3, 3, 4, 4, 4, 5, 5)


def questions(seed: int, count: int, sizes: tuple[int, ...]) -> list[tuple]:
    """``count`` random questions (arguments of joined_oracle), seeded."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        hands = random_ending(rng, rng.choice(sizes), rng.choice((1, 2, 2, 3, 4)))
        decl = sorted(rng.sample(range(4), rng.choice((2, 2, 3))))
        taken = [0, 0, 0, 0]
        if rng.random() < 0.3:
            taken = [rng.choice((0, 0, 1, 2)) for _ in range(4)]
        out.append(
            (
                hands,
                rng.randrange(4),
                decl,
                rng.choice(decl),
                rng.choice(FORMS),
                rng.choice(RULES),
                rng.choice(MODELS),
                taken,
            )
        )
    return out


def solve_all(qs: list[tuple], **kwargs) -> np.ndarray:
    """The solver's answers to the questions, batched per (form, rule, model); ``kwargs``
    go to solve_joined_batch."""
    out = np.full(len(qs), -9, np.int64)
    for form in FORMS:
        for rule in RULES:
            for model in MODELS:
                idx = [i for i, q in enumerate(qs) if q[4:7] == (form, rule, model)]
                if not idx:
                    continue
                hands = np.array([[cards_to_mask(h) for h in qs[i][0]] for i in idx], np.int64)
                res = solve_joined_batch(
                    hands,
                    np.array([qs[i][1] for i in idx]),
                    np.array([sum(1 << d for d in qs[i][2]) for i in idx]),
                    np.array([qs[i][3] for i in idx]),
                    form,
                    rule,
                    model,
                    np.array([qs[i][7] for i in idx]),
                    **kwargs,
                )
                out[idx] = res
    return out


def describe(q: tuple) -> str:
    hands, leader, decl, x, form, rule, model, taken = q
    deal = " ".join(hand_text(h) for h in hands)
    return (
        f"N:{deal} lead={'NESW'[leader]} declarers={''.join('NESW'[d] for d in decl)} "
        f"x={'NESW'[x]} {form} {rule} {model} taken={taken}"
    )


def check_against_oracle(qs: list[tuple], **kwargs) -> None:
    expected = [joined_oracle(*q) for q in qs]
    got = solve_all(qs, **kwargs)
    bad = [
        describe(q) + f" oracle={e} solver={g}"
        for q, e, g in zip(qs, expected, got, strict=True)
        if e != g
    ]
    assert not bad, f"{len(bad)} of {len(qs)} differ:\n" + "\n".join(bad[:10])
    # the sample must exercise both answers
    assert 0.1 < np.mean(expected) < 0.9


def test_joined_against_oracle_on_1200_endings():
    check_against_oracle(questions(28, 1200, DEFAULT_SIZES))


@pytest.mark.slow
def test_joined_against_oracle_on_4000_larger_endings():
    check_against_oracle(questions(2028, 4000, SLOW_SIZES))


# Budget rounds (joined_search): the default ones start at 4 cards in x's hand, which the
# endings above rarely reach, so here they run at every node with budgets of a few nodes:
# many children are given up and searched again in later rounds, and no answer may change.


@pytest.mark.parametrize("round_nodes", [1, 3, 20])
def test_budget_rounds_against_oracle(round_nodes):
    qs = questions(29 + round_nodes, 600, DEFAULT_SIZES)
    check_against_oracle(qs, round_nodes=round_nodes, round_min_cards=1)


@pytest.mark.slow
@pytest.mark.parametrize("round_nodes", [1, 5, 50])
def test_budget_rounds_against_oracle_on_larger_endings(round_nodes):
    qs = questions(3028 + round_nodes, 2000, SLOW_SIZES)
    check_against_oracle(qs, round_nodes=round_nodes, round_min_cards=1)


def test_budget_rounds_change_no_answer_on_full_deals():
    # a weak misère hand joined under both ends of play: the same answer with and without
    # the rounds wherever both searches finish
    hand = [9, 4, 0, 20, 18, 15, 13, 32, 29, 27, 43, 41, 39]
    deals = sample_deals([[], hand, [], []], 12, 7)
    compared = []
    for rule in RULES:
        for x in (1, 2):
            plain = solve_joined_batch(
                deals, 0, 0b0110, x, "misere", rule, max_nodes=300_000, round_nodes=0
            )
            rounds = solve_joined_batch(deals, 0, 0b0110, x, "misere", rule, max_nodes=300_000)
            both = (plain >= 0) & (rounds >= 0)
            assert np.array_equal(plain[both], rounds[both]), (rule, x)
            compared.extend(both)
    assert np.mean(compared) > 0.7


# Hand-made endings (cards: suit * 13 + rank; ♠ 0-12, ♥ 13-25, ♦ 26-38), found with the oracle.


def test_the_duck_rule_can_save_a_declarer():
    # N ♠J4, E ♠Q3, S ♠T5, W ♠86; S leads; N and E play misère. Against all three N is
    # caught, but E may not overtake when he can play under.
    hands = [[9, 2], [10, 1], [8, 3], [6, 4]]
    assert joined_oracle(hands, 2, [0, 1], 0, model="coalition") == 0
    assert solve_joined(hands, 2, [0, 1], 0, model="coalition") == 0
    assert joined_oracle(hands, 2, [0, 1], 0, model="duck") == 1
    assert solve_joined(hands, 2, [0, 1], 0, model="duck") == 1


def test_stopping_at_the_first_failure_can_save_a_misere():
    # ♥Q3 / ♥K6 / ♥J4 / ♥95, W leads: E is caught first, and play stops (I-06).
    hands = [[23, 14], [24, 17], [22, 15], [20, 16]]
    for x in (0,):
        assert solve_joined(hands, 3, [0, 1], x, rule="settle_all") == 0
        assert solve_joined(hands, 3, [0, 1], x, rule="stop_at_first_failure") == 1
        assert joined_oracle(hands, 3, [0, 1], x, rule="stop_at_first_failure") == 1


def test_stopping_at_the_first_failure_can_sink_a_piek():
    hands = [[15, 25, 42], [13, 43, 50], [21, 39, 44], [20, 22, 47]]
    assert solve_joined(hands, 1, [0, 1], 0, "piek", "settle_all") == 1
    assert solve_joined(hands, 1, [0, 1], 0, "piek", "stop_at_first_failure") == 0
    assert joined_oracle(hands, 1, [0, 1], 0, "piek", "stop_at_first_failure") == 0


def test_a_failed_declarer_decides_before_the_first_card():
    hands = [[0], [1], [2], [3]]
    # x has taken a trick already: failed; another declarer failed under I-06: x made
    assert solve_joined(hands, 0, [0, 1], 0, taken=[1, 0, 0, 0]) == 0
    assert solve_joined(hands, 0, [0, 1], 0, rule="stop_at_first_failure", taken=[0, 1, 0, 0]) == 1
    # piek: E has failed, play goes on (settle_all); N leads ♠2, loses it and keeps his trick
    assert solve_joined(hands, 0, [0, 1], 0, "piek", taken=[1, 2, 0, 0]) == 1
    assert solve_joined(hands, 1, [0, 1], 0, "piek", taken=[1, 2, 0, 0]) == 1
    assert solve_joined([[3], [1], [2], [0]], 0, [0, 1], 0, "piek", taken=[1, 2, 0, 0]) == 0


def test_full_deals_coalition_equals_the_lone_declarer_and_duck_is_not_below():
    deals = sample_deals([[], [], [], []], 40, 11)
    for form, goal in (("misere", GOAL_MISERE), ("piek", GOAL_PIEK)):
        for x, decl in ((1, 0b0011), (2, 0b0111)):
            lone = solve_batch(deals, 4, 0, 1 << x, goal, max_nodes=2_000_000)
            coal = solve_joined_batch(
                deals, 0, decl, x, form, "settle_all", "coalition", max_nodes=2_000_000
            )
            duck = solve_joined_batch(
                deals, 0, decl, x, form, "settle_all", "duck", max_nodes=2_000_000
            )
            known = (lone >= 0) & (coal >= 0)
            assert np.array_equal(lone[known], coal[known]), (form, x)
            assert known.mean() > 0.9
            both = (coal >= 0) & (duck >= 0)
            assert np.all(duck[both] >= coal[both]), (form, x)


def test_misere_hands_with_holes_coalition_equals_lone():
    # a misère hand with holes (♠J62 ♥9742 ♦853 ♣642) at E, the others random: the deep proofs
    hand = [9, 4, 0, 20, 18, 15, 13, 32, 29, 27, 43, 41, 39]
    known = [[], hand, [], []]
    deals = sample_deals(known, 16, 3)
    lone = solve_batch(deals, 4, 0, 1 << 1, GOAL_MISERE, max_nodes=2_000_000)
    for rule in ("settle_all",):
        coal = solve_joined_batch(
            deals, 0, 0b0011, 1, "misere", rule, "coalition", max_nodes=2_000_000
        )
        known_ = (lone >= 0) & (coal >= 0)
        assert known_.mean() > 0.9
        assert np.array_equal(lone[known_], coal[known_])


def test_node_budget_gives_up():
    hand = [9, 4, 0, 20, 18, 15, 13, 32, 29, 27, 43, 41, 39]
    deals = sample_deals([[], hand, [], []], 10, 3)
    stats: dict[str, int] = {}
    r = solve_joined_batch(deals, 0, 0b0011, 1, max_nodes=1, stats=stats)
    assert np.all(r == -1)
    assert stats["given_up"] == 10


@pytest.mark.parametrize(
    "kwargs",
    [
        {"declarers": [0, 1], "x": 2},
        {"declarers": [0, 0], "x": 0},
        {"declarers": [0, 4], "x": 0},
        {"declarers": [0, 1], "x": 0, "form": "rik"},
        {"declarers": [0, 1], "x": 0, "rule": "never"},
        {"declarers": [0, 1], "x": 0, "model": "friendly"},
    ],
)
def test_bad_questions_are_refused(kwargs):
    with pytest.raises(PositionError):
        solve_joined([[0], [1], [2], [3]], 0, **kwargs)


def test_unequal_hands_are_refused():
    with pytest.raises(PositionError):
        solve_joined([[0, 5], [1], [2], [3]], 0, [0, 1], 0)
