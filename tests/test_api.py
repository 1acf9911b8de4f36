"""The Python API (analyser.api, docs/api.md): the same result as the command's JSON, the
command's one-line refusals, progress, stop, and its runnable documentation."""

from __future__ import annotations

import doctest
import json
import pathlib
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

import analyser
from analyser import api
from analyser.cli import main
from analyser.errors import RikkenError

ROOT = pathlib.Path(__file__).resolve().parents[1]
HONOURS = "♠AHVB ♥AHVB ♦AHV ♣AH"  # every answer is clear: fast to solve
SAFE = "♠5432 ♥432 ♦432 ♣432"
RIK = "♠AHV1098 ♥104 ♦A10 ♣752"


def cli_json(*args: str):
    result = CliRunner().invoke(main, [*args, "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def timeless(figures):
    """The JSON without its timings (klaverjas reports the seconds it took)."""
    if isinstance(figures, dict):
        return {k: v for k, v in figures.items() if k != "seconds"}
    return figures


# (API call, the same command line)
CASES = {
    "analyse": (
        lambda: api.analyse(HONOURS, deals=3, seed=11),
        ["analyse", HONOURS, "--deals", "3", "--seed", "11"],
    ),
    "analyse seat rules lang": (
        lambda: api.analyse(RIK, seat=2, rules="book:malheur=optional", deals=4, seed=5, lang="en"),
        ["analyse", RIK, "--seat", "2", "--rules", "book:malheur=optional", "--deals", "4"]
        + ["--seed", "5", "--lang", "en"],
    ),
    "analyse wiezen": (
        lambda: api.analyse(
            "♠AH32 ♥AH32 ♦H32 ♣32", seat=2, rules="wiezen", turned="H7", deals=4, seed=2
        ),
        ["analyse", "♠AH32 ♥AH32 ♦H32 ♣32", "--seat", "2", "--rules", "wiezen", "--turned"]
        + ["H7", "--deals", "4", "--seed", "2"],
    ),
    "analyse auction": (
        lambda: api.analyse(SAFE, seat=2, auction="rik", deals=6, seed=4),
        ["analyse", SAFE, "--seat", "2", "--auction", "rik", "--deals", "6", "--seed", "4"],
    ),
    "misere": (
        lambda: api.misere("♠B62 ♥9742 ♦853 ♣642", seat=2, deals=20, seed=1, explain=3),
        ["misere", "♠B62 ♥9742 ♦853 ♣642", "--seat", "2", "--deals", "20", "--seed", "1"]
        + ["--explain", "3"],
    ),
    "whist": (
        lambda: api.analyse(HONOURS, game="whist", turned="H7", deals=6, seed=3),
        ["analyse", HONOURS, "--game", "whist", "--turned", "H7", "--deals", "6", "--seed", "3"],
    ),
    "klaverjas": (
        lambda: api.analyse("♠AB9 ♥A10 ♦H ♣A7", game="klaverjas", deals=2, seed=2),
        ["analyse", "♠AB9 ♥A10 ♦H ♣A7", "--game", "klaverjas", "--deals", "2", "--seed", "2"],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_to_dict_equals_the_json_of_the_same_command(case):
    call, argv = CASES[case]
    result = call()
    assert timeless(result.to_dict()) == timeless(cli_json(*argv))
    assert result.command_line().startswith("rikken " + argv[0])


@pytest.mark.parametrize("case", ["analyse seat rules lang", "analyse wiezen"])
def test_the_command_line_of_a_result_reproduces_it(case):
    result = CASES[case][0]()
    assert timeless(cli_json(*result.argv)) == timeless(result.to_dict())


def test_piket_through_the_api_equals_the_command():
    hand = "♠AHVB10 ♥A98 ♦H87 ♣7"
    result = api.analyse(hand, game="piket", elder=True, deals=3, seed=4)
    assert result.to_dict() == cli_json(
        "analyse", hand, "--game", "piket", "--elder", "--deals", "3", "--seed", "4"
    )
    assert "--elder" in result.argv


def test_the_table_and_csv_are_the_commands():
    result = api.analyse(HONOURS, deals=3, seed=11)
    for fmt in ("table", "csv"):
        out = CliRunner().invoke(
            main, ["analyse", HONOURS, "--deals", "3", "--seed", "11", "--quiet", "--format", fmt]
        )
        assert result.render(fmt) == out.stdout


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 5}, "'5' is not a seat: give 1..4 (4 = the dealer) or all"),
        ({"variant": "rotterdam"}, "--variant applies only with --game klaverjas"),
        ({"game": "whist", "rules": "book"}, "--rules applies only with --game rikken"),
        ({"samples": 3}, "--samples applies only with --play single-dummy"),
        ({"model": "book"}, "--model applies only with --auction"),
        ({"rules": "bok"}, "unknown rule set 'bok'"),
        ({"deals": 0}, "0 is not in the range 1<=x<=10000000"),
        ({"deals": "many"}, "'many' is not a valid integer"),
        ({"min_p": 2}, "2.0 is not in the range 0<=x<=1"),
        ({"turned": "X9"}, "Invalid value for '--turned'"),
        ({"game": "chess"}, "'chess' is not one of"),
        ({"play": "single-dummy", "seat": "all"}, "--play single-dummy analyses one seat"),
    ],
)
def test_the_api_refuses_what_the_command_refuses(kwargs, message):
    with pytest.raises(RikkenError, match=None) as info:
        api.analyse(HONOURS, dry_run=True, **kwargs)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_bad_hand_is_the_readers_message():
    with pytest.raises(RikkenError) as api_error:
        api.analyse("♠AHVB ♥AHVB ♦AHV", dry_run=True)
    out = CliRunner().invoke(main, ["analyse", "♠AHVB ♥AHVB ♦AHV"])
    assert out.exit_code == 2
    assert str(api_error.value) in out.output


def test_dry_run_checks_only_and_fixes_the_seed():
    r = api.analyse(RIK, seat=3, dry_run=True)
    assert r.value is None and r.seed >= 1
    assert r.argv == ["analyse", RIK, "--seat", "3", "--seed", str(r.seed)]
    m = api.misere(SAFE, with_seat=[3], seat=2, seed=7, dry_run=True)
    assert m.command_line() == f"rikken misere '{SAFE}' --seat 2 --with-seat 3 --seed 7"
    with pytest.raises(RikkenError, match="hand's own seat"):
        api.misere(SAFE, seat=2, with_seat=[2], dry_run=True)


def test_progress_reaches_the_listener_and_stop_keeps_the_finished_steps():
    events: list[dict] = []
    stop = threading.Event()

    def listen(event: dict) -> None:
        events.append(event)
        if "deals" in event:  # a step of the sample finished: stop as a Ctrl-C would
            stop.set()

    r = api.analyse(RIK, seed=3, on_progress=listen, stop=stop)
    assert events and any("deals" in e for e in events)
    assert r.interrupted
    figures = r.to_dict()
    assert figures["bids"] and "stopped" in figures["stop_reason"].lower()


def test_a_stop_before_the_first_step_raises_keyboard_interrupt():
    stop = threading.Event()
    stop.set()
    with pytest.raises(KeyboardInterrupt):
        api.analyse(RIK, seed=3, stop=stop)


def test_importing_the_package_loads_neither_the_api_nor_numba():
    code = (
        "import sys, analyser; "
        "assert 'analyser.api' not in sys.modules and 'numba' not in sys.modules; "
        "from analyser import analyse, misere, Result; "
        "assert analyse.__module__ == 'analyser.api'; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "ok", out.stderr
    with pytest.raises(AttributeError):
        analyser.no_such_name  # noqa: B018


def test_the_examples_of_docs_api_md_run():
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "api.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert tried >= 8 and failures == 0
