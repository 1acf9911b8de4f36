"""Conventions shared by every `rikken` command: options, output formats, error handling."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem

# the bounds of the integer options, the languages and the fresh seed are the API's (the
# command line and the web app read the same values)
from analyser.api import (  # noqa: F401 - ALL_SEATS and the bounds are used by the commands
    ALL_SEATS,
    INT64_MAX,
    LANGS,
    MAX_COUNT,
    MAX_WORKERS,
    MOST_DEALS,
    new_seed,
)
from analyser.errors import RikkenError
from analyser.seats import PLACES, Place

FORMATS = ("table", "json", "csv")


def was_given(name: str, ctx: click.Context | None = None) -> bool:
    """Did the user give the parameter ``name`` (its Python name, e.g. ``"fmt"`` for
    --format)? True also when the value given is the default: the answer comes from where
    click took the value (:meth:`click.Context.get_parameter_source`), never from comparing it
    with the default. ``ctx``: the running command's context when omitted."""
    ctx = ctx or click.get_current_context()
    if name not in ctx.params:
        raise KeyError(f"{ctx.command_path} has no parameter {name!r}")
    source = ctx.get_parameter_source(name)
    return source not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


class SeatType(click.ParamType):
    """A player's seat relative to the dealer: 1..4 (1 = left of the dealer, who bids first
    and leads to trick 1; 4 = the dealer), and, with ``allow_all``, ``all`` for every seat.
    Converts to a :data:`analyser.seats.Place`, or to :data:`ALL_SEATS`. The one seat type of
    every option that names a seat (--seat, --with-seat)."""

    name = "seat"

    def __init__(self, allow_all: bool = False) -> None:
        self.allow_all = allow_all

    def choices(self) -> tuple[str, ...]:
        """The values accepted, as typed."""
        return (*(str(p) for p in PLACES), *((ALL_SEATS,) if self.allow_all else ()))

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return f"[{'|'.join(self.choices())}]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, int) and not isinstance(value, bool) and value in PLACES:
            return Place(value)  # a default given as a number
        text = str(value).strip()
        if self.allow_all and text.lower() == ALL_SEATS:
            return ALL_SEATS
        if text in self.choices():
            return Place(int(text))
        accepted = "1..4 (4 = the dealer)" + (" or all" if self.allow_all else "")
        self.fail(f"{value!r} is not a seat: give {accepted}", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str):
        return [CompletionItem(c) for c in self.choices() if c.startswith(incomplete)]

    def __repr__(self) -> str:
        return f"SeatType(allow_all={self.allow_all})"


SEAT = SeatType()
SEAT_OR_ALL = SeatType(allow_all=True)


class ShownDefault(click.Option):
    """A click option whose help shows ``shown`` as its default: a text, or a function
    returning it, called only when the help is written. For an option whose default stays
    None (the analysis then applies its own, so that "not given" keeps its meaning) while
    the help shows the value that means, read from where it is defined, e.g. a module
    `rikken --help` must not load. Use it as ``click.option(..., cls=ShownDefault,
    shown=...)``; unlike click's ``show_default="text"`` it is not put in parentheses."""

    def __init__(self, *args, shown: str | Callable[[], str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown = shown

    def get_help_extra(self, ctx: click.Context):
        extra = super().get_help_extra(ctx)
        extra["default"] = self.shown() if callable(self.shown) else self.shown
        return extra


# --- options that apply only under a condition ------------------------------------------------
# Each command that has such options declares them in one table: option flag -> the rules under
# which it applies (all must hold). An option the user gives where a rule fails is refused with
# one line ("--form applies only with --game whist") and exit code 2: a command never accepts an
# option it would ignore. Options that a command ignores altogether are simply not declared.


@dataclass(frozen=True)
class Applies:
    """One rule of an option's table: ``test(value, given)`` is true where the option applies,
    ``value(flag)`` being an option's value and ``given(flag)`` whether the user gave it;
    ``words`` end the sentence "--X applies only ..." (e.g. "with --game whist")."""

    test: Callable[[Callable[[str], Any], Callable[[str], bool]], bool]
    words: str


def on(flag: str, *values: str) -> Applies:
    """The option applies only while ``flag`` has one of ``values`` (given or by default)."""
    listed = " or ".join([", ".join(values[:-1]), values[-1]] if len(values) > 1 else values)
    return Applies(lambda value, given: value(flag) in values, f"with {flag} {listed}")


def along(flag: str) -> Applies:
    """The option applies only when ``flag`` is given too."""
    return Applies(lambda value, given: given(flag), f"with {flag}")


def without(flag: str) -> Applies:
    """The option applies only when ``flag`` is not given."""
    return Applies(lambda value, given: not given(flag), f"without {flag}")


def refuse_ignored(ctx: click.Context, table: Mapping[str, Sequence[Applies]]) -> None:
    """Raise a one-line usage error for the first option of ``table`` the user gave where one
    of its rules fails. A flag that the command does not declare is a KeyError (a typo in the
    table, caught by the tests), never a silently dead rule."""
    by_flag = {f: p for p in ctx.command.params for f in (*p.opts, *p.secondary_opts)}

    def value(flag: str) -> Any:
        return ctx.params[by_flag[flag].name]

    def given(flag: str) -> bool:
        return was_given(by_flag[flag].name, ctx)

    for flag, rules in table.items():
        param = by_flag[flag]
        if not given(flag):
            continue
        for rule in rules:
            if not rule.test(value, given):
                shown = "/".join((*param.opts, *param.secondary_opts))
                raise click.UsageError(f"{shown} applies only {rule.words}", ctx=ctx)


def applies_only(table: Mapping[str, Sequence[Applies]]) -> Callable:
    """Decorator of a command body: before it runs, refuse every option the user gave where
    ``table`` says it does not apply (:func:`refuse_ignored`)."""

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            refuse_ignored(click.get_current_context(), table)
            return func(*args, **kwargs)

        wrapper.applies = table  # for the tests: the table of this command
        return wrapper

    return decorate


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


def play_option(plays: Sequence[str], help: str) -> Callable[[Callable], Callable]:
    """Add --play: which figures come first (``plays``, the first the default; the modes are
    :data:`analyser.analysis.headline.PLAYS`), with the command's own ``help``."""
    return click.option(
        "--play",
        type=click.Choice(list(plays)),
        default=plays[0],
        show_default=True,
        help=help,
    )


def deal_model_option(func: Callable) -> Callable:
    """Add --deal-model uniform|cut_only: how the other hands are dealt (R-DEAL-06)."""
    from analyser.deal_model import MODELS

    return click.option(
        "--deal-model",
        "deal_model",
        type=click.Choice(list(MODELS)),
        default=MODELS[0],
        show_default=True,
        help="How the other 39 cards are dealt (R-DEAL-06): uniform (shuffled), or cut_only, "
        "as they lie at a table that does not shuffle (the tricks gathered, one cut, packets "
        "of 7 and 6), given this hand: sessions of the model kept when this seat's hand has "
        "the same suit lengths, the given cards exchanged into place (every hand keeps its "
        "suit lengths; docs/deal_model.md).",
    )(func)


def sampling_options(deals_default: str = "adaptive (see --precision)") -> Callable:
    """Add --deals, --precision and --max-deals: the sample size of an analysis
    (analyser.analysis.adaptive), worded once for every command that samples deals.
    ``deals_default``: what the help shows as the default of --deals."""
    from analyser.analysis.adaptive import MAX_DEALS, STEPS, TARGET_HALF_WIDTH

    steps = ", ".join(str(x) for x in STEPS[:4])
    options = [
        click.option(
            "--deals",
            type=click.IntRange(min=1, max=MOST_DEALS),
            default=None,
            cls=ShownDefault,
            shown=deals_default,
            help="A fixed sample of this many deals of the other 39 cards. Without it the "
            "sample is adaptive (see --precision); with --precision, adaptive with this "
            "many deals at most.",
        ),
        click.option(
            "--precision",
            type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
            default=None,
            cls=ShownDefault,
            shown=f"{TARGET_HALF_WIDTH:g}",
            help=f"Adaptive sampling (the default): deals are added in steps ({steps}, "
            "...) and each question stops once every P(make) it reports has a 95% "
            "half-width of at most this.",
        ),
        click.option(
            "--max-deals",
            "max_deals",
            type=click.IntRange(min=1, max=MOST_DEALS),
            default=None,
            cls=ShownDefault,
            shown=str(MAX_DEALS),
            help="Adaptive sampling: the most deals any question gets.",
        ),
    ]

    def decorate(func: Callable) -> Callable:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


SHARED_OPTIONS = ("seed", "rules", "lang", "format")


def common_options(*which: str) -> Callable:
    """Add the options commands share, those named in ``which`` (of :data:`SHARED_OPTIONS`:
    --seed, --rules, --lang, --format; all four when none is named). A command declares only
    the ones it uses, so that it never accepts an option it would ignore."""
    which = which or SHARED_OPTIONS
    unknown = set(which) - set(SHARED_OPTIONS)
    if unknown:
        raise ValueError(f"no shared option {sorted(unknown)}")
    options = {
        "seed": click.option(
            "--seed",
            type=click.IntRange(min=0, max=INT64_MAX),
            default=None,
            cls=ShownDefault,
            shown="a fresh one, printed so that the run can be repeated",
            help="Random seed: the same seed and arguments give the same output.",
        ),
        "rules": click.option(
            "--rules",
            "ruleset",
            default="book",
            show_default=True,
            callback=_parse_rules,
            help="Rule set: 'book' (Doevendans 1998), 'iwwa2024' (IWWA tournament rules) or "
            "'wiezen' (Belgian club rules, with --turned), optionally with variant switches, "
            "e.g. 'book:min_alone=8,malheur=optional'.",
        ),
        "lang": click.option(
            "--lang",
            type=click.Choice(LANGS),
            default="nl",
            show_default=True,
            help="Card notation in output: Dutch (A H V B 10) or English (A K Q J T).",
        ),
        "format": click.option(
            "--format",
            "fmt",
            type=click.Choice(FORMATS),
            default="table",
            show_default=True,
            help="Output format.",
        ),
    }

    def decorate(func: Callable) -> Callable:
        for name in reversed(SHARED_OPTIONS):
            if name in which:
                func = options[name](func)
        return func

    return decorate


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
