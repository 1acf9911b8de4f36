"""Conventions shared by every `rikken` command: options, output formats, error handling."""

from __future__ import annotations

import functools
import json
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


def emit_json(obj) -> None:
    """Write ``obj`` as pretty, key-stable JSON to stdout."""
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))
