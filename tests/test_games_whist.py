"""Whist (docs/whist.md): the scoring forms, the hand analysis against the solver on the
same sampled deals, and the command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyser.cards import N_RANKS
from analyser.cli import main
from analyser.errors import RikkenError
from analyser.games.whist import FORMS, analyse_whist, get_form
from analyser.notation import parse_card, parse_hand
from analyser.sampler import sample_deals, with_turned_card
from analyser.seats import DEALER, FOREHAND, Place, seat_of
from analyser.solver import solve

HAND = "♠AHV4 ♥H10985 ♦A2 ♣73"


def test_trick_and_honour_points_of_every_form():
    five = get_form("5")
    assert five.points(9, 4) == 3 + 4  # WH-04 tricks over six, WH-05/06 four honours
    assert five.points(7, 3) == 1 + 2
    assert five.points(6, 2) == 0  # 2-2: nothing
    assert five.points(9, 4, score=4) == 3  # from 4 on honours no longer count (WH-06)
    assert get_form("10").points(9, 3) == 6 + 2  # tricks count double
    seven = get_form("7")
    assert seven.points(7, 2) == 1 + 2 and seven.points(6, 2) == 2  # each honour one point
    assert seven.points(8, 3, score=6) == 2
    assert get_form("6").points(6, 3) == 2 and get_form("6").points(13, 4, score=5) == 7
    assert get_form("4").points(13, 4) == 7  # tricks only
    assert [f.target for f in FORMS.values()] == [10, 7, 6, 5, 4]
    with pytest.raises(RikkenError, match="unknown whist form"):
        get_form("3")


def test_analysis_matches_the_solver_on_the_same_deals():
    hand, turned, n, seed = parse_hand(HAND), parse_card("♥7"), 12, 5
    a = analyse_whist(hand, Place(1), turned, "5", deals=n, seed=seed)
    me = seat_of(Place(1))
    known = [[], [], [], []]
    known[me] = hand
    deals = sample_deals(with_turned_card(known, turned, DEALER), n, seed)
    tricks, games, honours = [], 0, [0] * 5
    for d in deals:
        cards = [
            [c for c in range(52) if int(d[s]) >> (16 * (c // 13) + c % 13) & 1] for s in range(4)
        ]
        assert turned in cards[DEALER]
        t = solve(cards, turned // N_RANKS, FOREHAND, [me, (me + 2) % 4], "tricks")
        ours = cards[me] + cards[(me + 2) % 4]
        h = sum(1 for r in (12, 11, 10, 9) if (turned // N_RANKS) * 13 + r in ours)
        tricks.append(t)
        honours[h] += 1
        games += get_form("5").points(t, h) >= 5
    assert a.tricks_hist == [tricks.count(k) for k in range(14)]
    assert a.honours == honours and a.game.made == games and a.game.n == n
    lo, hi = a.expected_diff_ci
    assert lo <= a.expected_diff <= hi


def run(*args: str):
    return CliRunner().invoke(main, ["analyse", HAND, *args])


def test_cli_json():
    result = run("--game", "whist", "--turned", "♥7", "--deals", "8", "--seed", "2",
                 "--format", "json", "--quiet", "--form", "7")  # fmt: skip
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert d["game"] == "whist" and d["form"] == "7 points" and d["deals"] == 8
    assert sum(d["tricks_hist"]) == 8 and sum(d["honours_held"]) == 8
    assert d["ci_low"] <= d["p_game"] <= d["ci_high"] and d["play"] == "double-dummy"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--game", "whist"], "--turned"),
        (["--game", "whist", "--turned", "♥7", "--seat", "4"], "dealer"),
        (["--game", "whist", "--turned", "♠A"], "dealer"),
        (["--form", "7"], "--game whist"),
        (["--game", "whist", "--turned", "♥7", "--auction", "rik"], "--auction"),
        (["--game", "whist", "--turned", "♥7", "--seat", "all"], "one seat"),
        (["--game", "whist", "--turned", "♥7", "--format", "csv"], "table or JSON"),
    ],
)
def test_bad_whist_input_is_one_error_line(args, fragment):
    result = run("--deals", "4", "--quiet", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and fragment in errors[0]
