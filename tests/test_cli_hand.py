"""`rikken hand`: output in every format and language, and one-line errors for bad hands."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from analyser.cli import main

HAND = "♠AHV1098 ♥104 ♦A10 ♣752"

JSON_KEYS = {
    "hand",
    "pbn",
    "lang",
    "cards",
    "suits",
    "lengths",
    "shape",
    "high",
    "high_total",
    "aces",
}


def run(*args: str):
    return CliRunner().invoke(main, ["hand", *args])


def test_table_output_dutch():
    result = run(HAND)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "hand     ♠AHV1098 ♥104 ♦A10 ♣752"
    assert lines[1] == "pbn      AKQT98.T4.AT.752"
    assert "lengths  6-2-2-3  (♠-♥-♦-♣)" in lines
    assert "shape    6-3-2-2" in lines
    assert "HIGH     7  (cards of 10 or higher: A H V B 10)" in lines
    assert "aces     2" in lines
    spades = next(line for line in lines if line.startswith("♠ "))
    assert spades.split() == ["♠", "AHV1098", "6", "4"]
    clubs = next(line for line in lines if line.startswith("♣ "))
    assert clubs.split() == ["♣", "752", "3", "0"]


def test_table_output_english_from_unquoted_words():
    # The hand may arrive as several shell words; a void shows as '-'.
    result = run("--lang", "en", "S:AKQJT98", "H:-", "D:AT32", "C:75")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("hand     ♠AKQJT98 ♥- ♦AT32 ♣75\n")
    hearts = next(line for line in result.output.splitlines() if line.startswith("♥ "))
    assert hearts.split() == ["♥", "-", "0", "0"]
    assert "shape    7-4-2-0" in result.output
    assert "HIGH     7  (cards of 10 or higher: A K Q J 10)" in result.output


def test_json_output_has_the_documented_keys():
    result = run("--format", "json", "--lang", "en", "AKQT98.T4.AT.752")
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert set(info) == JSON_KEYS
    assert info["hand"] == "♠AKQT98 ♥T4 ♦AT ♣752"
    assert info["pbn"] == "AKQT98.T4.AT.752"
    assert info["lang"] == "en"
    assert info["cards"] == [6, 7, 8, 10, 11, 12, 15, 21, 34, 38, 39, 42, 44]
    assert info["lengths"] == [6, 2, 2, 3]
    assert info["shape"] == [6, 3, 2, 2]
    assert info["high"] == [4, 1, 2, 0]
    assert info["high_total"] == 7
    assert info["aces"] == 2
    assert [s["suit"] for s in info["suits"]] == ["S", "H", "D", "C"]
    assert info["suits"][0] == {
        "suit": "S",
        "symbol": "♠",
        "cards": "AKQT98",
        "length": 6,
        "high": 4,
    }
    assert info["suits"][3]["cards"] == "752"


def test_json_output_dutch_and_void():
    result = run("--format", "json", "SAHVB1098 H- RA1032 K75")
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["hand"] == "♠AHVB1098 ♥- ♦A1032 ♣75"
    assert info["suits"][1] == {"suit": "H", "symbol": "♥", "cards": "", "length": 0, "high": 0}
    assert info["lengths"] == [7, 0, 4, 2] and info["shape"] == [7, 4, 2, 0]


def test_csv_output():
    result = run("--format", "csv", HAND)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert rows == [
        {
            "hand": HAND,
            "pbn": "AKQT98.T4.AT.752",
            "lengths": "6-2-2-3",
            "shape": "6-3-2-2",
            "high": "4-1-2-0",
            "high_total": "7",
            "aces": "2",
        }
    ]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["♠AHV1098 ♥104 ♦A10 ♣75"], "a full hand has 13 cards; found 12"),
        (["♠AHX1098 ♥104 ♦A10 ♣752"], "unknown character 'X' at position 4"),
        (["♠AAV1098 ♥104 ♦A10 ♣752"], "duplicate card ♠A"),
        (["AKQT98", "T4", "AT", "752"], "does not start with a suit letter"),
        (["AKQT98.T4.AT"], "found 3 suits"),
        (["--lang", "de", HAND], "Invalid value for '--lang'"),
        (["--seed", "3", HAND], "No such option '--seed'"),  # a hand needs no seed or rules
        (["--rules", "book", HAND], "No such option '--rules'"),
        ([], "Missing argument 'HAND...'"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_code_2(args, fragment):
    result = run(*args)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert fragment in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0]
