"""Conventions shared by every `rikken` command: options, output formats, error handling."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable

import click

from analyser.errors import RikkenError

FORMATS = ("table", "json", "csv")
LANGS = ("nl", "en")


def _parse_rules(ctx: click.Context, param: click.Parameter, value: str):
    """Turn the --rules text into a RuleSet (an unknown name or switch is a usage error)."""
    from analyser.rules import parse_ruleset

    try:
        return parse_ruleset(value)
    except RikkenError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def _parse_turned(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """Read the --turned card (any notation of :func:`analyser.notation.parse_card`)."""
    if value is None:
        return None
    from analyser.notation import parse_card

    try:
        return parse_card(value)
    except RikkenError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def turned_option(func: Callable) -> Callable:
    """Add --turned CARD: the wiezen turned card (W-01), required there, refused elsewhere
    (the check is the analysis's, so every command words it the same)."""
    return click.option(
        "--turned",
        default=None,
        metavar="CARD",
        callback=_parse_turned,
        help="wiezen: the turned card, the dealer's face-up 13th card (W-01), e.g. '♥7' or "
        "H7; its suit is the turned trump and the card lies with the dealer (seat 4). "
        "Required under --rules wiezen, refused under the others.",
    )(func)


def sampling_options(func: Callable) -> Callable:
    """Add --deals, --precision and --max-deals: the sample size of an analysis
    (analyser.analysis.adaptive), worded once for every command that samples deals."""
    from analyser.analysis.adaptive import MAX_DEALS, STEPS, TARGET_HALF_WIDTH

    steps = ", ".join(str(x) for x in STEPS[:4])
    for option in reversed(
        [
            click.option(
                "--deals",
                type=click.IntRange(min=1),
                default=None,
                help="A fixed sample of this many deals of the other 39 cards. Without it the "
                "sample is adaptive (see --precision); with --precision, adaptive with this "
                "many deals at most.",
            ),
            click.option(
                "--precision",
                type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
                default=None,
                help=f"Adaptive sampling (the default): deals are added in steps ({steps}, "
                "...) and each question stops once every P(make) it reports has a 95% "
                f"half-width of at most this.  [default: {TARGET_HALF_WIDTH:g}]",
            ),
            click.option(
                "--max-deals",
                "max_deals",
                type=click.IntRange(min=1),
                default=None,
                help="Adaptive sampling: the most deals any question gets.  "
                f"[default: {MAX_DEALS}]",
            ),
        ]
    ):
        func = option(func)
    return func


def new_seed() -> int:
    """A fresh random seed for runs where the user gave none (it is printed/recorded)."""
    return secrets.randbelow(2**31 - 1) + 1


def common_options(func: Callable) -> Callable:
    """Add the options every command shares: --seed, --rules, --lang, --format."""
    options = [
        click.option(
            "--seed",
            type=click.IntRange(min=0),
            default=None,
            help="Random seed (default: a fresh one, printed so the run can be repeated).",
        ),
        click.option(
            "--rules",
            "ruleset",
            default="book",
            show_default=True,
            callback=_parse_rules,
            help="Rule set: 'book' (Doevendans 1998), 'iwwa2024' (IWWA tournament rules) or "
            "'wiezen' (Belgian club rules, with --turned), optionally with variant switches, "
            "e.g. 'book:min_alone=8,malheur=optional'.",
        ),
        click.option(
            "--lang",
            type=click.Choice(LANGS),
            default="nl",
            show_default=True,
            help="Card notation in output: Dutch (A H V B 10) or English (A K Q J T).",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(FORMATS),
            default="table",
            show_default=True,
            help="Output format.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def user_errors(func: Callable) -> Callable:
    """Turn a RikkenError (bad user input) into a one-line message and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except RikkenError as exc:
            raise click.UsageError(str(exc)) from None

    return wrapper


# exit code of a run stopped with Ctrl-C (128 + SIGINT, as a shell reports it), also when it
# printed the figures of the deals it finished
EXIT_INTERRUPTED = 130


def stopped_early(*results, missing: str = "") -> None:
    """After the output: when any of ``results`` was stopped with Ctrl-C (its
    ``interrupted``), or a part of the run is ``missing`` (stopped before it had a figure:
    say which), say so in one line on stderr and exit with :data:`EXIT_INTERRUPTED`, so that
    a script can tell a partial run from a finished one."""
    if missing or any(getattr(r, "interrupted", False) for r in results):
        line = "stopped early (Ctrl-C): the figures printed are those of the steps finished"
        click.echo(line + (f"; {missing}" if missing else ""), err=True)
        click.get_current_context().exit(EXIT_INTERRUPTED)
