"""The options of every `rikken` command: an option is taken only where it is used.

* an option a command or the chosen game/mode would ignore is refused: one line on stderr,
  exit code 2 (the table of each command, :func:`analyser.cli.common.refuse_ignored`, or the
  option is not declared at all);
* "was this option given?" comes from where click took the value, so giving the default
  value explicitly counts as giving the option;
* every seat option has the one seat type: 1..4, and 'all' where the command allows it.

These tests parse command lines (``make_context``) or stop at the refusal: no analysis runs.
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from analyser.cli import analyse, batch, dd, main, misere
from analyser.cli.common import (
    ALL_SEATS,
    SEAT,
    SEAT_OR_ALL,
    Applies,
    SeatType,
    applies_only,
    on,
    refuse_ignored,
    was_given,
)

HAND = "♠AHV1098 ♥104 ♦A10 ♣752"
KJ = "♠AHB ♥AH ♦AH ♣B987"  # klaverjas: 8 cards of the 32-card pack
PIKET = "♠AHVB10 ♥AH7 ♦87 ♣AH"  # piket: 12 cards
WHIST = [HAND, "--game", "whist", "--turned", "H7"]
DD_FILE = "data/dd_example.csv"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="rikken")


def assert_refused(result, *fragments: str) -> str:
    """One line on stderr naming the command's help, exit code 2, nothing on stdout."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and "Traceback" not in result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def parsed(command: click.Command, *args: str) -> click.Context:
    """The context of ``command`` after parsing ``args``, without running the command."""
    return command.make_context(command.name, list(args))


# --- refused: the option does not apply to the game or mode -------------------------------
# (arguments, the message); the default value is given on purpose where the option has one:
# given is given, whatever the value
REFUSED_ANALYSE = [
    # options of the single-dummy play
    ([HAND, "--bids", "rik"], "--bids applies only with --play single-dummy"),
    ([HAND, "--samples", "10"], "--samples applies only with --play single-dummy"),
    ([HAND, "--play-deals", "40"], "--play-deals applies only with --play single-dummy"),
    ([HAND, "--workers", "1"], "--workers applies only with --play single-dummy"),
    ([HAND, "--play", "double-dummy", "--samples", "3"], "--samples applies only with --play"),
    # options of another game
    ([HAND, "--variant", "amsterdam"], "--variant applies only with --game klaverjas"),
    ([HAND, "--elder"], "--elder/--younger applies only with --game piket"),
    ([HAND, "--younger"], "--elder/--younger applies only with --game piket"),
    ([HAND, "--form", "5"], "--form applies only with --game whist"),
    ([*WHIST, "--variant", "rotterdam"], "--variant applies only with --game klaverjas"),
    ([KJ, "--game", "klaverjas", "--form", "5"], "--form applies only with --game whist"),
    ([KJ, "--game", "klaverjas", "--elder"], "--elder/--younger applies only with --game piket"),
    # --model goes with --auction
    ([HAND, "--model", "book"], "--model applies only with --auction"),
    # rikken's own options under the other games
    ([*WHIST, "--rules", "book"], "--rules applies only with --game rikken"),
    ([KJ, "--game", "klaverjas", "--rules", "book"], "--rules applies only with --game rikken"),
    ([PIKET, "--game", "piket", "--elder", "--rules", "book"], "--rules applies only with"),
    ([*WHIST, "--precision", "0.05"], "--precision applies only with --game rikken"),
    ([*WHIST, "--max-deals", "1000"], "--max-deals applies only with --game rikken"),
    ([*WHIST, "--node-budget", "2000000"], "--node-budget applies only with --game rikken"),
    ([*WHIST, "--min-p", "0.5"], "--min-p applies only with --game rikken"),
    ([*WHIST, "--auction", "rik"], "--auction applies only with --game rikken"),
    ([*WHIST, "--play", "double-dummy"], "--play applies only with --game rikken"),
    ([KJ, "--game", "klaverjas", "--play", "double-dummy"], "--play applies only with"),
    ([PIKET, "--game", "piket", "--elder", "--play", "double-dummy"], "--play applies only"),
    ([PIKET, "--game", "piket", "--elder", "--auction", "rik"], "--auction applies only"),
    # the seat: piket has --elder/--younger instead (seat 1 given explicitly is still given)
    ([PIKET, "--game", "piket", "--elder", "--seat", "1"], "--seat applies only with --game"),
    # the turned card: rikken (under wiezen, which the analysis checks) and whist only
    ([KJ, "--game", "klaverjas", "--turned", "H7"], "--turned applies only with --game"),
    ([PIKET, "--game", "piket", "--elder", "--turned", "H7"], "--turned applies only with"),
    # the card language: only where cards are printed by name
    ([*WHIST, "--lang", "nl"], "--lang applies only with --game rikken or klaverjas"),
    ([PIKET, "--game", "piket", "--elder", "--lang", "en"], "--lang applies only with --game"),
    ([HAND, "--format", "csv", "--lang", "nl"], "--lang applies only with --format table or"),
    ([KJ, "--game", "klaverjas", "--format", "json", "--lang", "en"], "--format table under"),
    # the CSV rows carry no recommendation
    ([HAND, "--format", "csv", "--min-p", "0.6"], "--min-p applies only with --format table"),
]

REFUSED_OTHERS = [
    # options a command does not have at all
    (["hand", HAND, "--seed", "3"], "No such option '--seed'", "rikken hand --help"),
    (["hand", HAND, "--rules", "book"], "No such option '--rules'", "rikken hand --help"),
    (["dd", DD_FILE, "--seed", "1"], "No such option '--seed'", "rikken dd --help"),
    (["dd", DD_FILE, "--lang", "nl"], "No such option '--lang'", "rikken dd --help"),
    # dd --out always writes CSV
    (["dd", DD_FILE, "--out", "x.csv", "--format", "table"], "--format applies only without --out",
     "rikken dd --help"),
    # misère's CSV rows name no card in a language
    (["misere", HAND, "--format", "csv", "--lang", "nl"], "--lang applies only with --format",
     "rikken misere --help"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "message"), REFUSED_ANALYSE)
def test_an_option_that_does_not_apply_to_the_game_or_mode_is_refused(args, message):
    line = assert_refused(invoke("analyse", *args, "--quiet"), message)
    assert line.endswith("(see 'rikken analyse --help')")


@pytest.mark.parametrize(("args", "message", "where"), REFUSED_OTHERS)
def test_an_option_a_command_does_not_use_is_refused(args, message, where, tmp_path):
    args = [str(tmp_path / a) if a == "x.csv" else a for a in args]
    line = assert_refused(invoke(*args), message, f"(see '{where}')")
    assert not (tmp_path / "x.csv").exists()
    assert line


# --- accepted: the same options where they apply ---------------------------------------------
ACCEPTED_ANALYSE = [
    [HAND],
    [HAND, "--seat", "all", "--rules", "wiezen", "--turned", "H7", "--lang", "en"],
    [HAND, "--play", "single-dummy", "--bids", "rik", "--samples", "10", "--play-deals", "40",
     "--workers", "1"],
    [HAND, "--seat", "2", "--auction", "rik pass", "--model", "book", "--min-p", "0.5"],
    [HAND, "--precision", "0.05", "--max-deals", "1000", "--node-budget", "0", "--format", "json"],
    [HAND, "--format", "csv", "--deals", "20", "--seed", "1"],
    [*WHIST, "--form", "5", "--seat", "1", "--deals", "10", "--seed", "3", "--format", "json"],
    [KJ, "--game", "klaverjas", "--variant", "amsterdam", "--seat", "1", "--lang", "en"],
    [KJ, "--game", "klaverjas", "--format", "json", "--deals", "10"],
    [PIKET, "--game", "piket", "--elder", "--deals", "5", "--seed", "3"],
    [PIKET, "--game", "piket", "--younger", "--format", "json"],
]  # fmt: skip


@pytest.mark.parametrize("args", ACCEPTED_ANALYSE)
def test_an_option_where_it_applies_is_accepted(args):
    refuse_ignored(parsed(analyse.command, *args, "--quiet"), analyse.APPLIES)


@pytest.mark.parametrize(
    ("command", "table", "args"),
    [
        (misere.command, misere.APPLIES, [HAND, "--lang", "en", "--format", "json"]),
        (misere.command, misere.APPLIES, [HAND, "--format", "csv", "--seed", "1"]),
        (dd.command, dd.APPLIES, [DD_FILE, "--format", "json"]),
        (dd.command, dd.APPLIES, [DD_FILE, "--out", "x.csv", "--rules", "book"]),
    ],
)
def test_the_other_commands_accept_their_options(command, table, args):
    refuse_ignored(parsed(command, *args), table)


def test_every_flag_of_a_table_is_an_option_of_its_command():
    # refuse_ignored looks every flag up, given or not: a typo is a KeyError, not a dead rule
    for command, table in [
        (analyse.command, analyse.APPLIES),
        (misere.command, misere.APPLIES),
        (dd.command, dd.APPLIES),
    ]:
        args = [DD_FILE] if command is dd.command else [HAND]
        refuse_ignored(parsed(command, *args), table)
    with pytest.raises(KeyError):
        refuse_ignored(parsed(dd.command, DD_FILE), {"--no-such-flag": [on("--format", "csv")]})


def test_the_tables_are_the_ones_the_commands_check():
    assert analyse.command.callback.applies is analyse.APPLIES
    assert misere.command.callback.applies is misere.APPLIES
    assert dd.command.callback.applies is dd.APPLIES


# --- given or default ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "name", "given"),
    [
        ([HAND], "form", False),
        ([HAND, "--form", "5"], "form", True),  # the default value, given
        ([HAND, "--seat", "1"], "seat", True),
        ([HAND], "seat", False),
        ([HAND, "--samples", "10"], "samples", True),
        ([HAND, "--play", "double-dummy"], "play", True),
        ([HAND, "--rules", "book"], "ruleset", True),
        ([HAND, "--lang", "nl"], "lang", True),
        ([HAND, "--format", "table"], "fmt", True),
        ([HAND], "fmt", False),
        ([HAND, "--elder"], "elder", True),
        ([HAND, "--younger"], "elder", True),
        ([HAND], "elder", False),
    ],
)
def test_was_given_tells_a_given_default_from_the_default(args, name, given):
    ctx = parsed(analyse.command, *args)
    assert was_given(name, ctx) is given


def test_was_given_in_a_command_and_a_typo_is_an_error():
    seen = {}

    @click.command()
    @click.option("--n", type=int, default=3)
    @click.option("--m", type=int, default=None)
    def probe(n, m):
        seen["n"], seen["m"] = was_given("n"), was_given("m")
        with pytest.raises(KeyError):
            was_given("nn")

    runner = CliRunner()
    assert runner.invoke(probe, ["--n", "3"]).exit_code == 0 and seen == {"n": True, "m": False}
    assert runner.invoke(probe, []).exit_code == 0 and seen == {"n": False, "m": False}


def test_a_toy_table_refuses_a_given_default_and_names_the_rule():
    @click.command()
    @click.option("--mode", type=click.Choice(["a", "b"]), default="a")
    @click.option("--size", type=int, default=5)
    @applies_only({"--size": [on("--mode", "b")]})
    def toy(mode, size):
        click.echo(f"{mode} {size}")

    runner = CliRunner()
    assert runner.invoke(toy, []).output == "a 5\n"
    assert runner.invoke(toy, ["--mode", "b", "--size", "5"]).output == "b 5\n"
    refused = runner.invoke(toy, ["--size", "5"])
    assert refused.exit_code == 2 and "--size applies only with --mode b" in refused.output
    custom = Applies(lambda value, given: value("--size") > 1, "with a size above 1")
    with pytest.raises(click.UsageError, match="--size applies only with a size above 1"):
        refuse_ignored(toy.make_context("toy", ["--size", "1"]), {"--size": [custom]})


# --- the seat type ---------------------------------------------------------------------------
# (command, option, the other arguments): every option that names a seat
SEAT_OPTIONS = [
    (analyse.command, "--seat", [HAND], True),  # rikken, whist, klaverjas ('all': rikken only)
    (analyse.command, "--seat", WHIST, True),
    (analyse.command, "--seat", [KJ, "--game", "klaverjas"], True),
    (misere.command, "--seat", [HAND], False),
    (misere.command, "--with-seat", [HAND], False),
    (batch.command, "--seat", ["hands.txt"], False),
]


def test_every_seat_option_has_the_one_seat_type():
    found = []
    for command in main.commands.values():
        for param in getattr(command, "params", []):
            if "seat" in param.name:
                assert isinstance(param.type, SeatType), (command.name, param.name)
                found.append((command.name, param.opts[0], param.type.allow_all))
    assert sorted(found) == [
        ("analyse", "--seat", True),
        ("batch", "--seat", False),
        ("misere", "--seat", False),
        ("misere", "--with-seat", False),
    ]


@pytest.mark.parametrize(("command", "option", "args", "allow_all"), SEAT_OPTIONS)
@pytest.mark.parametrize("typed", ["1", "2", "3", "4", " 3 "])
def test_the_seat_type_takes_1_to_4(command, option, args, allow_all, typed):
    ctx = parsed(command, *args, option, typed)
    value = ctx.params[option.lstrip("-").replace("-", "_")]
    expected = int(typed)
    assert value in (expected, (expected,)) and not isinstance(value, str)


@pytest.mark.parametrize(("command", "option", "args", "allow_all"), SEAT_OPTIONS)
@pytest.mark.parametrize("typed", ["all", "ALL"])
def test_all_seats_only_where_the_command_allows_it(command, option, args, allow_all, typed):
    if allow_all:
        ctx = parsed(command, *args, option, typed)
        assert ctx.params["seat"] == ALL_SEATS
    else:
        result = invoke(command.name, *args, option, typed)
        line = assert_refused(result, f"'{typed}' is not a seat")
        assert "give 1..4 (4 = the dealer)" in line and "or all" not in line


@pytest.mark.parametrize(("command", "option", "args", "allow_all"), SEAT_OPTIONS)
@pytest.mark.parametrize("typed", ["0", "5", "-1", "1.0", "N", "one", ""])
def test_the_seat_type_refuses_anything_else(command, option, args, allow_all, typed):
    line = assert_refused(invoke(command.name, *args, option, typed), "is not a seat: give 1..4")
    assert f"Invalid value for '{option}'" in line
    assert ("or all" in line) is allow_all


def test_the_seat_type_converts_defaults_and_describes_itself():
    assert SEAT.convert(2, None, None) == 2 and SEAT_OR_ALL.convert("all", None, None) == "all"
    assert SEAT.get_metavar(None, None) == "[1|2|3|4]"
    assert SEAT_OR_ALL.get_metavar(None, None) == "[1|2|3|4|all]"
    completions = [c.value for c in SEAT_OR_ALL.shell_complete(None, None, "")]
    assert completions == ["1", "2", "3", "4", "all"]


# --- the help shows the defaults --------------------------------------------------------------
def help_of(*path: str) -> str:
    result = CliRunner().invoke(main, [*path, "--help"], terminal_width=10_000)
    assert result.exit_code == 0
    return " ".join(result.output.split())


def test_the_help_shows_the_defaults_from_where_they_are_defined():
    from analyser.analysis.adaptive import MAX_DEALS, TARGET_HALF_WIDTH
    from analyser.analysis.misere import EXPLAIN_MAX
    from analyser.analysis.positions import NODE_BUDGET
    from analyser.analysis.single_dummy_run import MAX_DEFAULT_BIDS, REACH
    from analyser.cli.common import INT64_MAX, MAX_COUNT, MOST_DEALS

    text = help_of("analyse")
    assert f"[default: {NODE_BUDGET}; 0<=x<={INT64_MAX}]" in text
    assert f"[default: {TARGET_HALF_WIDTH:g}; 0<x<0.5]" in text
    assert f"[default: {MAX_DEALS}; 1<=x<={MOST_DEALS}]" in text
    assert f"[default: up to {MAX_DEFAULT_BIDS} bids" in text and f">= {REACH:g}]" in text
    assert "--game whist: 200, --game piket: 40, --game klaverjas: 100" in text
    assert "[default: amsterdam]" in text and "[default: a fresh one" in text
    assert f"[default: {EXPLAIN_MAX}; 0<=x<={MAX_COUNT}]" in help_of("misere")
    options = text[text.index("Options:") :]
    assert "(default" not in options.lower().replace("(the default)", "")  # none hand-typed


def test_the_help_lists_only_the_options_a_command_takes():
    hand, dd_help = help_of("hand"), help_of("dd")
    assert "--seed" not in hand and "--rules" not in hand and "--lang" in hand
    assert "--seed" not in dd_help and "--lang" not in dd_help and "--rules" in dd_help
