"""Piket (docs/piket.md): the declarations on the booklet's worked example and on each
comparison rule, the exact trick-play solver against a plain minimax (zero mismatches), the
exchange advisor and the command line."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pytest
from click.testing import CliRunner
from piket_oracle import value as oracle_value

from analyser.cli import main
from analyser.errors import RikkenError
from analyser.games.piket.cards import (
    cards_of,
    format_card,
    from_52,
    mask_of,
    parse_piket_hand,
    to_52,
)
from analyser.games.piket.declarations import carte_blanche, features, score
from analyser.games.piket.exchange import analyse_piket, heuristic_discard
from analyser.games.piket.rules import RULES, get_rules
from analyser.games.piket.solver import NO_PIC, pic_counter, solve_batch

R = get_rules()
HAND = "♠AHVB10 ♥A98 ♦H87 ♣7"


def hand(text: str) -> list[int]:
    """A hand of any size (the comparisons do not depend on it)."""
    from analyser.notation import parse_hand

    return sorted(from_52(c) for c in parse_hand(text, None))


# --------------------------------------------------------------------------- cards


def test_cards_map_both_ways_and_the_low_cards_are_refused():
    assert [to_52(from_52(c)) for c in range(52) if c % 13 >= 5] == [
        c for c in range(52) if c % 13 >= 5
    ]
    assert format_card(from_52(12)) == "♠A" and format_card(0) == "♠7"
    assert parse_piket_hand(HAND) == sorted(parse_piket_hand("♣7 ♦H87 ♥A98 ♠AHVB10"))
    with pytest.raises(RikkenError, match="♠6 is not a piket card"):
        parse_piket_hand("♠AHVB6 ♥A98 ♦H87 ♣7")
    with pytest.raises(RikkenError, match="12 cards; found 11"):
        parse_piket_hand("♠AHVB10 ♥A98 ♦H87")


# --------------------------------------------------------------------------- declarations


def test_worked_example_quint_with_a_good_point_of_five_is_twenty():
    # PK-06: "quint with a good point of 5 = 15 + 5 = 20"; elder holds no set, younger's
    # trios (A, Q, 10) score for him (PK-07)
    elder = parse_piket_hand("♠AHVB10 ♥B97 ♦97 ♣97")
    younger = parse_piket_hand("♥A V 10 8 ♦A V 10 8 ♣A V 10 8")
    d = score(elder, younger, R)
    assert (d.point, d.sequence, d.sets) == (1, 1, -1)
    assert d.elder == 15 + 5 and d.younger == 3 * 3 and d.repic == 0


def test_point_longer_beats_shorter_and_a_tie_goes_to_the_value_or_cancels():
    assert features(hand("♠10 9 8 B V"), R)["point_len"] == 5
    assert score(hand("♥A 10 8 7 ♦H"), hand("♣A H 9 ♦8"), R).point == 1  # 4 beats 3
    a, b = hand("♥A H 9 7"), hand("♣V B 9 7")  # 4 cards each: 37 + 11 + 10 against 36
    assert score(a, b, R).point == 1 and score(a, b, R).elder == 4
    assert score(b, a, R).point == -1 and score(b, a, R).younger == 4
    cancel = RULES["cancel"]  # the booklet's words: equal claims cancel
    assert score(a, b, cancel).point == 0 and score(a, b, cancel).elder == 0
    same = score(hand("♥A H 9 7"), hand("♣A V 9 7"), R)  # 4 cards, 37 each: cancel
    assert same.point == 0 and same.elder == same.younger == 0


def test_sequences_longer_higher_equal_cancel_and_the_best_validates_the_rest():
    quart = hand("♠10 9 8 7")
    tierce_ace = hand("♥A H V")
    d = score(quart, tierce_ace, R)
    assert d.sequence == 1 and d.elder == 4 + 4  # quart 4 (and a point of 4)
    d = score(hand("♠A H V ♥9 8 7"), hand("♦H V B"), R)  # equal length: the higher top
    assert d.sequence == 1 and d.elder == 3 + 3 + 3  # both tierces count, and the point
    d = score(hand("♦H V B ♣8 9 10"), hand("♥H V B"), R)  # K-high tierces: fully equal
    assert d.sequence == 0 and d.elder == 0 and d.younger == 0  # 3 cards each: point cancels
    d = score(hand("♠A H V B 10 ♥8 9 10"), hand("♦A H V B ♣10 9 8 7"), R)
    assert d.sequence == 1 and d.elder == 5 + 15 + 3 and d.younger == 0  # opponent's annulled
    assert features(hand("♠A H V B 10 9 8 7"), R)["seq_total"] == 18  # huitième, one run


def test_sets_any_quatorze_annuls_trios_and_the_highest_quatorze_wins():
    d = score(hand("♠10 ♥10 ♦10 ♣10"), hand("♠A H ♥A H ♦A H"), R)
    assert d.sets == 1 and d.elder == 14  # a quatorze of tens annuls two trios
    assert d.younger == 2  # younger's point (2 cards against 1) still counts
    d = score(hand("♠B 9 ♥B ♦B ♣B"), hand("♠H ♥A H ♦A H ♣A H"), R)
    assert d.sets == -1 and d.younger == 14 + 3 + 2  # K quatorze annuls J's; his trio counts
    assert features(hand("♠9 ♥9 ♦9 ♣9"), R)["set_total"] == 0  # no sets of 9, 8, 7


def test_carte_blanche_and_repic():
    blanche = parse_piket_hand("♠A 10 9 8 7 ♥A 10 9 ♦A 10 9 ♣7")
    assert carte_blanche(blanche) and not carte_blanche(parse_piket_hand(HAND))
    d = score(hand("♥7"), hand("♠7"), R, elder_blanche=True)
    assert d.elder == 10 and d.younger == 0
    # 30 from declarations alone with the opponent at 0: repic counts 90 (PK-13)
    big = hand("♠V B 10 9 8 7 ♥A H ♦A H ♣A H")  # point 6 + sixième 16 + 2 trios: 28
    d = score(big, hand("♠A ♥7"), R)
    assert d.elder == 6 + 16 + 3 + 3 and d.repic == 0
    big = hand("♠V B 10 9 8 ♥A H V ♦A H V ♣A H")  # quint, two tierces, three trios
    d = score(big, hand("♠A ♥7"), R)
    assert d.elder == 5 + (15 + 3 + 3) + (3 + 3 + 3) + 60 and d.repic == 1 and d.younger == 0
    d = score(big, hand("♣V B 10 9 8 7"), R)  # younger's point and sixième: no repic
    assert d.repic == 0 and d.younger > 0
    assert pic_counter(25, 0, R) == 25 and pic_counter(25, 1, R) == NO_PIC
    assert pic_counter(30, 0, R) == NO_PIC  # repic, not pic


# --------------------------------------------------------------------------- trick play


def _ending(seed: int, k: int) -> tuple:
    rng = random.Random(seed)
    cards = rng.sample(range(32), 2 * k)
    leader = rng.choice(["elder", "younger"])
    etr = rng.randint(0, 12 - k)
    # pic still possible in half the positions, often close to 30
    pic = rng.choice([None, None, rng.randint(0, 29), 29 - rng.randint(0, 4)])
    return cards[:k], cards[k:], leader, etr, pic


def _check_endings(seeds, k: int) -> int:
    pos = [_ending(s, k) for s in seeds]
    got = solve_batch(
        np.array([mask_of(p[0]) for p in pos], np.int64),
        np.array([mask_of(p[1]) for p in pos], np.int64),
        R,
        np.array([NO_PIC if p[4] is None else p[4] for p in pos], np.int64),
        np.array([0 if p[2] == "elder" else 1 for p in pos], np.int64),
        np.array([p[3] for p in pos], np.int64),
    )
    return sum(int(g) != oracle_value(*p) for g, p in zip(got, pos, strict=True))


@pytest.mark.parametrize(("k", "n"), [(3, 150), (4, 120), (5, 40)])
def test_solver_matches_the_plain_minimax_on_endings(k, n):
    assert _check_endings(range(1000 * k, 1000 * k + n), k) == 0


@pytest.mark.slow
@pytest.mark.parametrize(("k", "n"), [(5, 300), (6, 60), (7, 8)])
def test_solver_matches_the_plain_minimax_on_deeper_endings(k, n):
    # a full 12-trick deal is beyond the plain minimax: 6-7 tricks are its limit here (the
    # eight 7-trick endings take about 3-5 minutes)
    assert _check_endings(range(50_000 + 1000 * k, 50_000 + 1000 * k + n), k) == 0


def test_trick_scoring_by_hand():
    # 10 tricks played, elder has 5. Leading ♠A first (+1) lets younger win the last trick
    # with ♥A (+1, +1 last): -1. Leading ♥7 first: younger wins with ♥A (+1), leads ♠7,
    # elder wins with ♠A (+1) and the last trick (+1): +1, and 6-6 scores no majority
    v = solve_batch(
        np.array([mask_of(hand("♠A ♥7"))], np.int64),
        np.array([mask_of(hand("♠7 ♥A"))], np.int64),
        R,
        elder_tricks=np.array([5], np.int64),
    )[0]
    assert v == 1


def test_pic_is_scored_when_elder_reaches_thirty_before_younger_scores():
    e, y = hand("♠A ♥A"), hand("♠7 ♥7")
    base = solve_batch(np.array([mask_of(e)]), np.array([mask_of(y)]), R,
                       elder_tricks=np.array([7]))[0]  # fmt: skip
    # 9 tricks of 12: leads 1 + 1, last trick 1, majority 10: 13 points; from 17 that
    # is 30 before younger scores anything: pic +30
    assert base == 13
    with_pic = solve_batch(np.array([mask_of(e)]), np.array([mask_of(y)]), R,
                           np.array([17]), elder_tricks=np.array([7]))[0]  # fmt: skip
    assert with_pic == 13 + 30
    short = solve_batch(np.array([mask_of(e)]), np.array([mask_of(y)]), R,
                        np.array([16]), elder_tricks=np.array([7]))[0]  # fmt: skip
    assert short == 13


def test_full_deals_solve_fast_and_the_same_twice():
    rng = np.random.default_rng(3)
    deals = [rng.permutation(32) for _ in range(10)]
    e = np.array([mask_of(d[:12].tolist()) for d in deals], np.int64)
    y = np.array([mask_of(d[12:24].tolist()) for d in deals], np.int64)
    solve_batch(e[:1], y[:1], R)  # compile
    t0 = time.perf_counter()
    first = solve_batch(e, y, R)
    seconds = (time.perf_counter() - t0) / len(e)
    assert (solve_batch(e, y, R) == first).all()
    assert seconds < 1.0  # about 0.04 s a deal on one core


# --------------------------------------------------------------------------- exchange


def test_heuristic_discards_the_low_cards_of_short_suits():
    cards = parse_piket_hand(HAND)
    assert [format_card(c) for c in heuristic_discard(cards, 3)] == ["♥8", "♦7", "♣7"]


def test_exchange_ranks_every_discard_set_and_repeats_with_the_seed():
    cards = parse_piket_hand(HAND)
    kw = dict(worlds=4, seed=9, top=2, pool=3, screen_worlds=8, pool_worlds=2)
    a = analyse_piket(cards, "elder", **kw)
    assert len(a.candidates) == sum(
        __import__("math").comb(12, k) for k in range(1, 6)
    )  # 1585 sets of 1..5 cards
    best = a.candidates[0]
    assert best.stage == 3 and best.n == 4 and best.ci[0] <= best.mean <= best.ci[1]
    assert 0 <= best.p_point <= 1 and best.vs_best is not None
    again = analyse_piket(cards, "elder", **kw)
    assert [c.discard for c in again.candidates[:5]] == [c.discard for c in a.candidates[:5]]
    assert again.candidates[0].mean == best.mean
    y = analyse_piket(cards, "younger", **kw)
    assert len(y.candidates) == 12 + 66 + 220 and all(len(c.discard) <= 3 for c in y.candidates)


def test_exchange_figures_are_the_declarations_and_the_solver_on_the_same_deals():
    from analyser.games.piket.exchange import _worlds

    cards = parse_piket_hand(HAND)
    n, seed = 6, 21
    a = analyse_piket(cards, "younger", worlds=n, seed=seed, top=1, pool=2, screen_worlds=6,
                      pool_worlds=3)  # fmt: skip
    best = a.candidates[0]
    opp, talon = _worlds(cards, n, seed)
    totals, points = [], 0
    for w in range(n):
        elder = cards_of(int(opp[w]))
        elder = [c for c in elder if c not in heuristic_discard(elder, 5)] + list(talon[w][:5])
        k = len(best.discard)
        younger = [c for c in cards if c not in best.discard] + list(talon[w][5 : 5 + k])
        d = score(elder, younger, R, carte_blanche(cards_of(int(opp[w]))), carte_blanche(cards))
        play = solve_batch(
            np.array([mask_of(elder)]), np.array([mask_of(younger)]), R,
            np.array([pic_counter(d.elder, d.younger, R)]),
        )[0]  # fmt: skip
        totals.append(d.younger - d.elder - int(play))
        points += d.point < 0
    assert best.n == n and best.mean == pytest.approx(sum(totals) / n)
    assert best.p_point == pytest.approx(points / n)


# --------------------------------------------------------------------------- command line


def run(*args: str):
    return CliRunner().invoke(main, ["analyse", *args])


def test_cli_json_end_to_end():
    result = run(HAND, "--game", "piket", "--elder", "--deals", "3", "--seed", "4",
                 "--format", "json", "--quiet")  # fmt: skip
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert d["game"] == "piket" and d["role"] == "elder" and d["discard_sets"] == 1585
    top = d["candidates"][0]
    assert top["deals"] == 3 and top["ci"][0] <= top["expected_score"] <= top["ci"][1]
    assert {"p_win_point", "p_win_sequence", "p_win_sets"} <= set(top)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["♠AHVB6 ♥A98 ♦H87 ♣7", "--game", "piket", "--elder"], "♠6 is not a piket card"),
        (["♠AHVB10 ♥A98 ♦H87", "--game", "piket", "--elder"], "12 cards; found 11"),
        (["♠AHVB10 ♥A98 ♦H87 ♣87", "--game", "piket", "--younger"], "found 13"),
        ([HAND, "--game", "piket"], "--elder or --younger"),
        (["♠AHV4 ♥H10985 ♦A2 ♣73", "--elder"], "--game piket"),
        ([HAND, "--game", "piket", "--elder", "--turned", "♥7"], "--turned"),
        ([HAND, "--game", "piket", "--elder", "--format", "csv"], "table or JSON"),
    ],
)
def test_bad_piket_input_is_one_error_line(args, fragment):
    result = run(*args, "--deals", "2", "--quiet")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and fragment in errors[0]


def test_cards_of_and_mask_of_agree():
    assert cards_of(mask_of([0, 9, 31])) == [0, 9, 31]
