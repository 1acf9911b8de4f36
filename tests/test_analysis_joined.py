"""Joined misère in the analysis (analyser/analysis/joined.py) and ``rikken misere
--with-seat`` (analyser/cli/misere.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyser.analysis.joined import (
    _all_made,
    _score_bounds,
    _score_table,
    analyse_joined,
    check_with_places,
)
from analyser.cli import main
from analyser.errors import RikkenError
from analyser.notation import parse_hand
from analyser.rules import get_ruleset
from analyser.sampler import sample_deals
from analyser.seats import Place
from analyser.solver.joined_api import solve_joined_batch

SAFE = "♠5432 ♥432 ♦432 ♣432"
HOLES = "♠B62 ♥9742 ♦853 ♣642"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_score_table_book_two_declarers():
    t = _score_table(get_ruleset("book"), (1, 2))
    # made +3 from each of three; the other declarer's failure pays 3 more, his make costs 3
    assert t[(1, 0)] == 12 and t[(1, 1)] == 6 and t[(0, 0)] == -6 and t[(0, 1)] == -12


def test_score_table_wiezen_three_miserie_players():
    # W-17's worked check: three miserie players, one makes: +35 for him, -21 for the others
    t = _score_table(get_ruleset("wiezen"), (0, 1, 2))
    assert t[(1, 0, 0)] == 35 and t[(0, 1, 0)] == -21 and t[(0, 0, 1)] == -21


def test_score_bounds_resolve_open_results_against_and_for_the_hand():
    t = _score_table(get_ruleset("book"), (1, 2))
    low, high = _score_bounds(np.array([[-1, -1], [1, -1], [0, 0]]), t)
    assert list(low) == [t[(0, 1)], t[(1, 1)], t[(0, 0)]]
    assert list(high) == [t[(1, 0)], t[(1, 0)], t[(0, 0)]]
    assert list(_all_made(np.array([[1, 1], [1, -1], [0, -1]]))) == [1, -1, 0]


@pytest.mark.parametrize(
    "places, fragment",
    [
        ((2,), "own seat"),
        ((5,), "1..4"),
        ((0,), "1..4"),
        ((3, 3), "twice"),
        ((1, 3, 4), "at most 3"),
    ],
)
def test_bad_with_seats(places, fragment):
    with pytest.raises(RikkenError, match=fragment):
        check_with_places(Place(2), places)


def test_analysis_agrees_with_the_solver_deal_by_deal():
    hand = parse_hand(HOLES)
    a = analyse_joined(hand, Place(2), (3,), get_ruleset("book"), deals=12, seed=5)
    assert a.n_deals == 12 and a.declarers == (1, 2) and a.leader == 0
    known = [[], hand, [], []]
    deals = sample_deals(known, 12, 5)
    for k, x in enumerate((1, 2)):
        r = solve_joined_batch(
            deals, 0, 0b0110, x, "misere", "settle_all", "duck", max_nodes=a.node_budget
        )
        e = a.made[k]
        assert (e.made, e.unknown) == (int((r == 1).sum()), int((r < 0).sum()))
    assert a.all_made.p_high <= min(e.p_high for e in a.made)
    lo, hi = a.expected_range
    assert a.expected_ci[0] <= lo <= a.expected <= hi <= a.expected_ci[1]


def test_iwwa_stops_at_the_first_failure():
    hand = parse_hand(SAFE)
    a = analyse_joined(hand, Place(2), (3, 4), get_ruleset("iwwa2024"), deals=6, seed=2)
    assert a.end_of_play == "stop_at_first_failure" and len(a.made) == 3
    # a hand of deuces to fives never wins a trick: it makes whatever the others do
    assert a.made[0].made == 6


def test_cli_with_seat_json_appends_the_joined_section():
    result = run(
        "misere",
        SAFE,
        "--seat",
        "2",
        "--with-seat",
        "3",
        "--deals",
        "6",
        "--seed",
        "3",
        "--format",
        "json",
        "--explain",
        "0",
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert [c["contract"] for c in d["contracts"]] == [
        "misere",
        "open_misere",
        "open_misere_praatje",
    ]
    j = d["joined"]
    assert list(d)[-1] == "joined"
    assert j["end_of_play"] == "settle_all" and j["model"] == "duck" and j["deals"] == 6
    assert [x["seat"] for x in j["declarers"]] == [2, 3]
    assert [x["seat_compass"] for x in j["declarers"]] == ["E", "S"]
    me = j["declarers"][0]
    assert me["me"] and me["p_make"] == 1.0
    # the hand makes on every deal: +9 from the misère, +-3 with the other declarer
    assert 6 <= j["expected_score"] <= 12
    plain = json.loads(
        run(
            "misere",
            SAFE,
            "--seat",
            "2",
            "--deals",
            "6",
            "--seed",
            "3",
            "--format",
            "json",
            "--explain",
            "0",
            "--quiet",
        ).output
    )
    assert "joined" not in plain and {k: v for k, v in d.items() if k != "joined"} == plain


def test_cli_with_seat_table():
    result = run(
        "misere",
        SAFE,
        "--seat",
        "1",
        "--with-seat",
        "4",
        "--deals",
        "4",
        "--seed",
        "1",
        "--explain",
        "0",
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert "Joined misère: you, seat 1 (N) + seat 4 (W)" in result.output
    assert "all make" in result.output and "E[score] you" in result.output


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--seat", "2", "--with-seat", "2"], "own seat"),
        (["--with-seat", "5"], "1..4"),
        (["--seat", "1", "--with-seat", "2", "--with-seat", "3", "--with-seat", "4"], "at most"),
        (["--with-seat", "3", "--with-seat", "3"], "twice"),
    ],
)
def test_cli_bad_with_seat_is_one_error_line_and_exit_code_2(args, fragment):
    result = run("misere", SAFE, "--deals", "3", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0]


def test_a_misere_that_makes_alone_makes_joined_under_both_ends_of_play():
    # the analysis answers such deals from the lone misère (analysis.joined._joined_column);
    # the joined search itself must agree wherever it decides
    from analyser.analysis.joined import _joined_column
    from analyser.solver import GOAL_MISERE, solve_batch

    hand = parse_hand(HOLES)
    deals = sample_deals([[], hand, [], []], 16, 9)
    alone = solve_batch(deals, 4, 0, 1 << 1, GOAL_MISERE, 0, -1)
    assert 0 < int((alone == 1).sum()) < 16  # both kinds of deal occur
    for rule in ("settle_all", "stop_at_first_failure"):
        full = solve_joined_batch(deals, 0, 0b0110, 1, "misere", rule, "duck", max_nodes=4_000_000)
        quick = _joined_column(deals, 0, 0b0110, 1, rule, 4_000_000, None, {})
        assert all(full[alone == 1] != 0), rule
        decided = full >= 0
        assert (quick[decided] == full[decided]).all(), rule
