"""`rikken dd` under the wiezen rule set: the turned card lies with the dealer (West) and a
row's trump may be the turned suit."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyser.cli import main

DEAL = "N:AKQT98.T4.AT.752 J7.KQ98.KJ6.KQJ3 543.AJ5.Q987.A96 62.7632.5432.T84"
ENDING = "N:A2... KQ... 43... T8..."  # two spades each: no turned card left in any hand
HEADER = "deal,trump,leader,declarer,partner,goal\n"


def run(tmp_path, rows: str, *args: str):
    path = tmp_path / "positions.csv"
    path.write_text(HEADER + rows, encoding="utf-8")
    return CliRunner().invoke(main, ["dd", str(path), "--format", "json", *args])


def test_turned_suit_is_the_trump(tmp_path):
    rows = f"{DEAL},turned,N,N,,>=5\n{DEAL},H,N,N,,>=5\n{DEAL},S,N,N,,tricks\n"
    result = run(tmp_path, rows, "--rules", "wiezen", "--turned", "♥7")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out[0]["result"] == out[1]["result"]  # 'turned' = hearts, the ♥7's suit
    assert out[0]["trump"] == "turned"
    # an ending in which the turned card has been played
    result = run(tmp_path, f"{ENDING},turned,N,N,,tricks\n", "--rules", "wiezen", "--turned", "H7")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "rows, args, fragment",
    [
        (f"{DEAL},S,N,N,,>=5\n", ["--rules", "wiezen", "--turned", "♥K"], "the dealer (W) keeps"),
        (f"{DEAL},S,N,N,,>=5\n", ["--rules", "wiezen"], "needs the turned card"),
        (f"{DEAL},S,N,N,,>=5\n", ["--turned", "♥7"], "no turned trump"),
        (f"{DEAL},turned,N,N,,>=5\n", [], "give --turned"),
    ],
)
def test_bad_turned_card_is_one_error_line(tmp_path, rows, args, fragment):
    result = run(tmp_path, rows, *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0], result.output
