"""The smaller misère game (analyser.solver.misere_proof) and the misère search that uses it.

The smaller game may only ever answer "safe" for a declarer who really wins no trick, so:

* on 4- and 5-card endings every "safe" is checked against the brute-force oracle;
* on 6- and 7-card endings the misère search, which calls the smaller game from six cards on,
  is checked against a plain yes/no search over every legal card;
* the canonical state forgets exactly what the smaller game ignores.

Declarer hands lean to low cards (card weight falling with rank), so holes - a defender's low
card under one of the declarer's - are common and the smaller game has something to prove.
"""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np
import pytest
from oracle import legal_cards, oracle_solve, trick_winner

from analyser.cards import N_RANKS, cards_to_mask
from analyser.solver import GOAL_MISERE, solve_batch
from analyser.solver.cuts import ducks_to_the_end
from analyser.solver.misere_proof import canon, hole_suits, misere_safe, new_memo

NT = 4


def low_ending(rng: random.Random, n: int, n_suits: int, declarer: int) -> list[list[int]]:
    """Four hands of ``n`` cards from ``n_suits`` suits; the declarer's cards drawn with weight
    exp(-0.5 * rank), the others' at random from the rest."""
    suits = rng.sample(range(4), max(n_suits, -(-4 * n // N_RANKS)))
    pool = [s * N_RANKS + r for s in suits for r in range(N_RANKS)]
    mine: list[int] = []
    while len(mine) < n:
        c = rng.choice(pool)
        if c not in mine and rng.random() < math.exp(-0.5 * (c % N_RANKS)):
            mine.append(c)
    rest = [c for c in pool if c not in mine]
    rng.shuffle(rest)
    hands = []
    k = 0
    for seat in range(4):
        if seat == declarer:
            hands.append(sorted(mine))
        else:
            hands.append(sorted(rest[k : k + n]))
            k += n
    return hands


def masks(hands: list[list[int]]) -> np.ndarray:
    return np.array([cards_to_mask(h) for h in hands], np.int64)


@pytest.mark.parametrize(
    "count, min_proved", [(350, 20), pytest.param(700, 40, marks=pytest.mark.slow)]
)
def test_smaller_game_safe_answers_hold_under_the_oracle(count, min_proved):
    # a seeded half by default (the oracle is the slow part), all 700 endings in the slow run
    rng = random.Random(41)
    mk, mv = new_memo(12)
    cnt = np.zeros(2, np.int64)
    proved_with_holes = 0
    checked = 0
    for i in range(count):
        n = 4 if i % 4 else 5
        x = rng.randrange(4)
        leader = rng.choice([s for s in range(4) if s != x])
        hands = low_ending(rng, n, rng.choice((2, 3, 4)), x)
        h = masks(hands)
        safe, _, _ = misere_safe(h, x, mk, mv, cnt, 100_000)
        if not safe:
            continue
        checked += 1
        if not ducks_to_the_end(h, x)[0]:
            proved_with_holes += 1
        assert oracle_solve(hands, NT, leader, x, "misere") == 1, (hands, x, leader)
    # the test means something only if the smaller game proves hands the simple test cannot
    assert proved_with_holes >= min_proved, (proved_with_holes, checked)


def misere_by_search(hands: list[list[int]], leader: int, x: int) -> bool:
    """Plain yes/no search over every legal card (no trumps, no called card), independent of
    the solver: can the lone declarer ``x`` lose every trick? Trick starts are memoised."""
    start = tuple(sum(1 << c for c in h) for h in hands)

    @cache
    def safe(hs: tuple, lead: int) -> bool:
        if not hs[lead]:
            return True
        return play(hs, (), lead)

    def play(hs: tuple, trick: tuple, lead: int) -> bool:
        seat = (lead + len(trick)) % 4
        options = legal_cards(hs[seat], trick, None, False, True)
        outcomes = (after(hs, trick, lead, seat, c) for c in options)
        return any(outcomes) if seat == x else all(outcomes)

    def after(hs: tuple, trick: tuple, lead: int, seat: int, c: int) -> bool:
        hs = hs[:seat] + (hs[seat] & ~(1 << c),) + hs[seat + 1 :]
        played = trick + (c,)
        if len(played) < 4:
            return play(hs, played, lead)
        winner = trick_winner(played, lead, NT)
        return winner != x and safe(hs, winner)

    return safe(start, leader)


def check_against_plain_search(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    """The solver's misère answers on ``count`` low-declarer endings equal misere_by_search's,
    with both answers and made hands with a hole among them."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        n = rng.choice(sizes)
        x = rng.randrange(4)
        hands = low_ending(rng, n, 3, x)
        rows.append((hands, rng.choice([s for s in range(4) if s != x]), x))
    h = np.array([masks(r[0]) for r in rows])
    leader = np.array([r[1] for r in rows], np.int8)
    decl = np.array([1 << r[2] for r in rows], np.int8)
    nt = np.full(len(rows), NT, np.int8)
    got = solve_batch(h, nt, leader, decl, np.full(len(rows), GOAL_MISERE, np.int8))
    want = [int(misere_by_search(*r)) for r in rows]
    bad = [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if int(g) != w]
    assert not bad, [(rows[i], want[i]) for i in bad[:5]]
    made = [i for i, w in enumerate(want) if w]
    assert count // 6 <= len(made) <= count - count // 6
    assert sum(hole_suits(h[i], rows[i][2]) != 0 for i in made) >= count // 12


def test_misere_search_agrees_with_a_plain_search_on_six_card_endings():
    # the search calls the smaller game from six cards on
    check_against_plain_search(42, 36, (6,))


@pytest.mark.slow
def test_misere_search_agrees_with_a_plain_search_on_larger_endings():
    check_against_plain_search(43, 150, (6, 7, 7))


def test_canonical_state_keeps_gaps_and_counts_only():
    # declarer (seat 0) holds hearts 4 and 9 (a hole: the 2 and 3 lie below his 4)
    # and spades 2, 3 (safe); the defenders' cards differ only inside a gap or in safe suits
    def state(h):
        m = masks(h)
        return canon(m[0], m[1], m[2], m[3], 0, hole_suits(m, 0))

    h4, h9 = 13 + 2, 13 + 7
    a = [[0, 1, h4, h9], [13 + 0, 5, 6, 13 + 12], [13 + 1, 7, 8, 13 + 11], [9, 10, 11, 13 + 10]]
    # swap W's and E's heart above the 9 (same gap), and move spade ranks (safe suit: counts)
    b = [[0, 1, h4, h9], [13 + 0, 4, 6, 13 + 10], [13 + 1, 12, 8, 13 + 11], [9, 10, 5, 13 + 12]]
    assert hole_suits(masks(a), 0) == 2
    assert state(a) == state(b)
    # the hearts 2 and 3 are below the 4; moving the 3 above the 9 changes the state
    c = [[0, 1, h4, h9], [13 + 0, 5, 6, 13 + 12], [13 + 8, 7, 8, 13 + 11], [9, 10, 11, 13 + 10]]
    assert state(a) != state(c)
