"""`rikken analyse --play single-dummy`: the bids played out single-dummy beside
double-dummy on the same deals; JSON fields and bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyser.cli import main

HAND = "♠AHV1098 ♥104 ♦A10 ♣752"
SAFE = "♠5432 ♥432 ♦432 ♣432"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_json_has_single_dummy_beside_double_dummy_on_the_same_deals():
    # with --play-deals equal to --deals the played deals are the whole sample, so the
    # double-dummy figure on them is the analysis's own
    args = ["analyse", HAND, "--seat", "2", "--deals", "6", "--seed", "3", "--format", "json"]
    args += ["--play", "single-dummy", "--bids", "rik,misere", "--samples", "2"]
    result = run(*args, "--play-deals", "6", "--quiet", "--workers", "1")
    assert result.exit_code == 0, result.output
    # two worker processes play the same deals the same way
    assert run(*args, "--play-deals", "6", "--quiet", "--workers", "2").output == result.output
    d = json.loads(result.output)
    assert d["play"] == "single-dummy"
    by_id = {b["contract"]: b for b in d["bids"]}
    for bid in ("rik", "misere"):
        b = by_id[bid]
        assert b["play"] == "single-dummy" and b["played_deals"] == 6 and b["samples"] == 2
        assert b["p_make_dd"] == b["double_dummy_sample"]["p_make"]
        assert b["ci_low"] <= b["p_make"] <= b["ci_high"]
        assert 0 <= b["made_both"] <= 6 * min(b["p_make"], b["p_make_dd"]) + 1e-9
    assert by_id["alone_9"]["play"] == "double-dummy"


def test_a_safe_misere_makes_single_dummy_too():
    args = ["analyse", SAFE, "--deals", "4", "--seed", "5", "--format", "json", "--quiet"]
    result = run(*args, "--play", "single-dummy", "--bids", "misere", "--samples", "2",
                 "--play-deals", "4", "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    b = {b["contract"]: b for b in json.loads(result.output)["bids"]}["misere"]
    assert b["p_make"] == b["p_make_dd"] == 1.0


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--play", "single-dummy", "--bids", "slam"], "slam"),
        (["--samples", "5"], "--play single-dummy"),
        (["--workers", "2"], "--play single-dummy"),
        (["--play", "single-dummy", "--seat", "all"], "one seat"),
        (["--play", "single-dummy", "--samples", "0"], "--samples"),
        (["--play", "single-dummy", "--format", "csv"], "CSV"),
        (["--play", "single-dummy", "--bids", "malheur", "--rules", "book:malheur=optional"],
         "malheur"),
    ],
)  # fmt: skip
def test_bad_single_dummy_options_are_one_error_line(args, fragment):
    result = run("analyse", HAND, "--deals", "3", "--seed", "1", "--quiet", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0]
