"""The Python API: ``rikken analyse`` and ``rikken misere`` as functions (docs/api.md).

>>> from analyser import analyse
>>> r = analyse("♠AHV1098 ♥104 ♦A10 ♣752", seat=1, deals=20, seed=1)  # doctest: +SKIP
>>> r.to_dict()["recommended_opening"]  # doctest: +SKIP

The keyword arguments are the command's options (``--max-deals`` is ``max_deals``,
``--rules`` is ``rules``), with the same defaults, the same readers (a hand, a card, a rule
set and an auction are read as the command reads them) and the same one-line RikkenError
for a value the command refuses. An option left out (None) is an option not given. The
result's :meth:`Result.to_dict` is the command's ``--format json`` output, parsed.

Both front ends call this module: the command line (:mod:`analyser.cli`) after click has
read its arguments, and the web app (:mod:`analyser.web`). Only :mod:`analyser.errors`,
:mod:`analyser.seats` and :mod:`analyser.analysis.headline` (its light part: the ``--play``
modes) are imported here at load time, so that ``import analyser`` and ``rikken --help``
stay fast (numba is not loaded); the analyses are imported when called.
"""

from __future__ import annotations

import contextlib
import secrets
import shlex
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from analyser.analysis.headline import PLAYS  # the --play modes (the analysis owns them)
from analyser.errors import RikkenError
from analyser.seats import DEALER_PLACE, PLACES, Place

# Upper bounds of the integer options: a value beyond them would reach numba as an int that
# does not fit its int64 (a TypingError), or ask for arrays no machine holds (MemoryError).
INT64_MAX = 2**63 - 1  # the solver's node counters and the seeds are int64
MOST_DEALS = 10_000_000  # --deals, --max-deals, --play-deals: far beyond any useful run
MAX_COUNT = 1_000_000  # smaller counts (--samples, --explain)
MAX_WORKERS = 1024  # processes of one machine
ALL_SEATS = "all"  # --seat all: every seat (where a command allows it)
LANGS = ("nl", "en")
# --deals when it is not given: rikken samples adaptively, the other games a fixed sample
GAME_DEALS = {"rikken": None, "whist": 200, "piket": 40, "klaverjas": 100}
VARIANTS = ("amsterdam", "rotterdam")
FORMS = ("10", "7", "6", "5", "4")
MODELS = ("book",)
from analyser.deal_model import MODELS as DEAL_MODELS  # noqa: E402  (the rules own them)

# Where an option of analyse applies (as the command's table, analyser.cli.analyse.APPLIES):
# option -> (the games it applies to, the option it needs beside it). Given elsewhere it is
# refused with the command's one line, never ignored.
_RIKKEN = ("rikken",)
_SINGLE = ("play", "single-dummy")
_APPLIES: dict[str, tuple[tuple[str, ...], tuple[str, str] | None]] = {
    "seat": (("rikken", "whist", "klaverjas"), None),
    "precision": (_RIKKEN, None),
    "max_deals": (_RIKKEN, None),
    "node_budget": (_RIKKEN, None),
    "min_p": (_RIKKEN, None),
    "turned": (("rikken", "whist"), None),
    "auction": (_RIKKEN, None),
    "model": (_RIKKEN, ("auction", "")),
    "play": (_RIKKEN, None),
    "bids": (_RIKKEN, _SINGLE),
    "samples": (_RIKKEN, _SINGLE),
    "play_deals": (_RIKKEN, _SINGLE),
    "workers": (_RIKKEN, _SINGLE),
    "variant": (("klaverjas",), None),
    "elder": (("piket",), None),
    "form": (("whist",), None),
    "rules": (_RIKKEN, None),
    "deal_model": (_RIKKEN, None),
    "lang": (("rikken", "klaverjas"), None),
}


# analyse's options in the order of its command line (--deals applies to every game)
_OPTIONS = ("seat", "deals", *(k for k in _APPLIES if k != "seat"))
_MISERE_OPTIONS = ("seat", "with_seat", "rules", "deals", "precision", "max_deals", "explain")
_MISERE_OPTIONS += ("turned", "deal_model", "play", "lang")
MISERE_PLAYS = PLAYS[:2]  # rikken misere and batch: real-play or double-dummy (none played out)


def new_seed() -> int:
    """A fresh random seed for runs where the user gave none (it is printed/recorded)."""
    return secrets.randbelow(2**31 - 1) + 1


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _ranged(name: str, value: Any, low: float, high: float, kind: type = int) -> Any:
    """``value`` as ``kind`` within [low, high]; the command's message otherwise."""
    try:
        x = kind(value)
        if kind is int and (isinstance(value, bool) or x != float(value)):
            raise ValueError
    except (TypeError, ValueError):
        what = "integer" if kind is int else "float"
        raise RikkenError(
            f"Invalid value for '{_flag(name)}': {value!r} is not a valid {what}."
        ) from None
    if not low <= x <= high:
        raise RikkenError(
            f"Invalid value for '{_flag(name)}': {x} is not in the range {low}<=x<={high}."
        )
    return x


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    text = str(value)
    if text not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise RikkenError(
            f"Invalid value for '{_flag(name)}': {text!r} is not one of {listed}."
        ) from None
    return text


def read_seat(value: Any, allow_all: bool = False) -> Place | str:
    """A seat as the commands read it: 1..4 (4 = the dealer), or ``all`` with ``allow_all``."""
    text = str(value).strip()
    if allow_all and text.lower() == ALL_SEATS:
        return ALL_SEATS
    if text in {str(p) for p in PLACES}:
        return Place(int(text))
    accepted = "1..4 (4 = the dealer)" + (" or all" if allow_all else "")
    raise RikkenError(f"Invalid value for '--seat': {text!r} is not a seat: give {accepted}")


def read_rules(value: Any):
    """A rule set: a :class:`~analyser.rules.RuleSet`, or its text (``book:min_alone=8``)."""
    from analyser.rules import RuleSet, parse_ruleset

    if isinstance(value, RuleSet):
        return value
    try:
        return parse_ruleset(str(value))
    except RikkenError as exc:
        raise RikkenError(f"Invalid value for '--rules': {exc}") from None


def read_turned(value: Any) -> int | None:
    """The turned card: a card int, or any notation of :func:`analyser.notation.parse_card`."""
    from analyser.notation import parse_card

    if value is None or isinstance(value, int):
        return value
    try:
        return parse_card(str(value))
    except RikkenError as exc:
        raise RikkenError(f"Invalid value for '--turned': {exc}") from None


def _hand_text(hand: Any) -> str:
    """HAND as one text: a string, the words of a command line, or card ints (written out)."""
    if isinstance(hand, str):
        return hand
    items = list(hand)
    if items and all(isinstance(c, int) for c in items):
        from analyser.notation import format_hand

        return format_hand(items)
    return " ".join(str(w) for w in items)


@dataclass
class Result:
    """What an analysis gives: ``value``, the result the command prints (the output layer
    renders it), the ``seed`` it ran on, the equivalent command line's arguments ``argv``,
    and, after a stop, ``missing``: what the stop left out (empty when nothing)."""

    command: str
    value: Any
    seed: int
    lang: str
    argv: list[str]
    missing: str = ""
    parts: tuple = field(default=(), repr=False)

    @property
    def interrupted(self) -> bool:
        """Was the run stopped (Ctrl-C, or ``stop``) before it finished?"""
        return bool(self.missing) or any(getattr(p, "interrupted", False) for p in self.parts)

    def to_dict(self) -> Any:
        """The command's ``--format json`` output, parsed (docs/schemas/)."""
        from analyser.output import to_json

        return to_json(self.value, self.lang)

    def render(self, fmt: str = "table") -> str:
        """The command's output in ``fmt`` (``table``, ``json`` or ``csv``)."""
        from analyser.output import render

        return render(self.value, fmt, self.lang)

    def command_line(self) -> str:
        """The ``rikken`` command line that gives this result again."""
        return shlex.join(["rikken", *self.argv])


@contextlib.contextmanager
def _watched(on_progress: Callable[[dict], None] | None, stop: threading.Event | None) -> Iterator:
    """Report progress to ``on_progress`` and stop (as a Ctrl-C does) once ``stop`` is set."""
    if on_progress is None and stop is None:
        yield
        return
    from analyser.progress import watching

    def listener(event: dict) -> None:
        if on_progress is not None:
            on_progress(event)
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt

    with watching(listener):
        yield


def _argv(command: str, text: str, given: dict[str, Any], seed: int) -> list[str]:
    """The arguments of the equivalent command line, options in the order given."""
    out = [command, text]
    for name, value in given.items():
        if isinstance(value, bool):
            out.append(_flag(name) if value else "--younger")
        elif name == "turned" and isinstance(value, int):
            from analyser.notation import format_card

            out += ["--turned", format_card(value, "en")]
        elif name == "with_seat":
            for s in value:
                out += ["--with-seat", str(s)]
        else:
            out += [_flag(name), value.spec if name == "rules" else str(value)]
    return [*out, "--seed", str(seed)]


def analyse(
    hand: Any,
    *,
    seat: int | str | None = None,
    game: str = "rikken",
    rules: Any = None,
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int | None = None,
    node_budget: int | None = None,
    min_p: float | None = None,
    turned: Any = None,
    auction: str | None = None,
    model: str | None = None,
    play: str | None = None,
    bids: str | None = None,
    samples: int | None = None,
    play_deals: int | None = None,
    workers: int | None = None,
    variant: str | None = None,
    elder: bool | None = None,
    form: str | None = None,
    deal_model: str | None = None,
    seed: int | None = None,
    lang: str | None = None,
    quiet: bool = True,
    on_progress: Callable[[dict], None] | None = None,
    stop: threading.Event | None = None,
    dry_run: bool = False,
) -> Result:
    """``rikken analyse HAND``: every bid's P(make), interval and expected score, with the
    recommendation (``game="rikken"``), or the whist, klaverjas or piket advisor.

    ``hand`` is a text in any notation the command reads (or card ints). The keywords are
    the command's options; see ``rikken analyse --help`` and docs/api.md. ``seed`` None
    draws a fresh seed, kept in :attr:`Result.seed` and the command line. ``quiet=False``
    shows the progress line on a terminal; ``on_progress`` receives each step (a dict, see
    :mod:`analyser.progress`); setting ``stop`` stops the run at its next step as a Ctrl-C
    does: the figures of the steps finished are kept and :attr:`Result.interrupted` is set.
    A stop before the first step raises KeyboardInterrupt. RikkenError for input the command
    refuses. ``dry_run``: read and check the arguments only (the Result has its seed and
    command line, and ``value`` None); a front end refuses bad input so before queueing it.
    """
    given = {k: v for k, v in locals().items() if k in _OPTIONS and v is not None}
    game = _choice("game", game, tuple(GAME_DEALS))
    for name in [n for n in _APPLIES if n in given]:
        games, needs = _APPLIES[name]
        if game not in games:
            listed = " or ".join([", ".join(games[:-1]), games[-1]] if len(games) > 1 else games)
            raise RikkenError(f"{_flag(name)} applies only with --game {listed}")
        if needs is not None:
            other, value = needs
            here = given.get(other)
            missing = here is None if not value else str(here) != value
            if missing:
                what = f"{_flag(other)} {value}" if value else _flag(other)
                raise RikkenError(f"{_flag(name)} applies only with {what}")
    if lang is not None:
        lang = _choice("lang", lang, LANGS)
    seed = _ranged("seed", seed, 0, INT64_MAX) if seed is not None else new_seed()
    if deals is not None:
        deals = _ranged("deals", deals, 1, MOST_DEALS)
    text = _hand_text(hand)
    if rules is not None:
        given["rules"] = rules = read_rules(rules)
    shown = dict(given)
    if game != "rikken":
        shown = {"game": game, **shown}
    result = Result("analyse", None, seed, lang or "nl", _argv("analyse", text, shown, seed))
    if deals is None:
        deals = GAME_DEALS[game]
    with _watched(on_progress, stop):
        if game == "piket":
            return _piket(result, text, elder, deals, quiet, dry_run)
        if game == "klaverjas":
            return _klaverjas(result, text, seat, variant, deals, quiet, dry_run)
        if game == "whist":
            return _whist(result, text, seat, turned, form, deals, quiet, dry_run)
        return _rikken(result, text, seat, deals, quiet, given, locals())


def _piket(result: Result, text: str, elder, deals: int, quiet: bool, dry_run: bool) -> Result:
    """--game piket: every discard set ranked by its expected score (docs/piket.md)."""
    from analyser.games.piket.cards import parse_piket_hand
    from analyser.games.piket.exchange import analyse_piket

    cards = parse_piket_hand(text)
    if elder is None:
        raise RikkenError("--game piket needs --elder or --younger (who holds HAND)")
    role = "elder" if elder else "younger"
    if dry_run:
        return result
    result.value = analyse_piket(cards, role, worlds=deals, seed=result.seed, quiet=quiet)
    return result


def _klaverjas(result: Result, text, seat, variant, deals: int, quiet, dry_run) -> Result:
    """--game klaverjas: per trump P(not nat), expected score, the trump to choose."""
    from analyser.games.klaverjas.analysis import analyse_klaverjas, hand_from_52
    from analyser.notation import parse_hand

    hand = hand_from_52(parse_hand(text, None))  # 8 cards of the 32-card pack (KJ-01)
    place = read_seat(PLACES[0] if seat is None else seat, allow_all=True)
    if place == ALL_SEATS:
        raise RikkenError("--game klaverjas analyses one seat: give --seat 1..4")
    variant = _choice("variant", variant or VARIANTS[0], VARIANTS)
    if dry_run:
        return result
    result.value = analyse_klaverjas(hand, place, variant, deals, result.seed, quiet=quiet)
    return result


def _whist(result: Result, text, seat, turned, form, deals: int, quiet, dry_run) -> Result:
    """--game whist: the partnership's tricks, P(game), points and honours (docs/whist.md)."""
    from analyser.games.whist import analyse_whist
    from analyser.notation import parse_hand

    cards = parse_hand(text)
    place = read_seat(PLACES[0] if seat is None else seat, allow_all=True)
    form = _choice("form", form or "5", FORMS)
    card = read_turned(turned)
    if card is None:
        raise RikkenError("--game whist needs --turned CARD (the dealer's turned card, WH-02)")
    if place == ALL_SEATS:
        raise RikkenError("--game whist analyses one seat: give --seat 1..4")
    if dry_run:
        return result
    result.value = analyse_whist(cards, place, card, form, deals, result.seed, quiet)
    return result


def _sampling(precision: Any, max_deals: Any) -> dict:
    """--precision and --max-deals, read and checked (None: not given)."""
    out = {"precision": None, "max_deals": None}
    if precision is not None:
        out["precision"] = _ranged("precision", precision, 0, 0.5, float)
        if out["precision"] in (0, 0.5):
            raise RikkenError(
                f"Invalid value for '--precision': {out['precision']} is not in the range 0<x<0.5."
            )
    if max_deals is not None:
        out["max_deals"] = _ranged("max_deals", max_deals, 1, MOST_DEALS)
    return out


def _rikken_options(given: dict, opts: dict) -> dict:
    """The rikken options, read and checked (the command's defaults where not given)."""
    out = {
        "ruleset": read_rules(opts["rules"] if opts["rules"] is not None else "book"),
        "turned": read_turned(opts["turned"]),
        **_sampling(opts["precision"], opts["max_deals"]),
        "min_p": 0.5,
        "play": _choice("play", opts["play"] or PLAYS[0], PLAYS),
        "model": _choice("model", opts["model"] or MODELS[0], MODELS),
        "samples": _ranged("samples", opts["samples"] or 10, 1, MAX_COUNT),
        "play_deals": _ranged("play_deals", opts["play_deals"] or 40, 1, MOST_DEALS),
        "workers": None,
        "bids": opts["bids"],
        "deal_model": _choice("deal_model", opts["deal_model"] or DEAL_MODELS[0], DEAL_MODELS),
    }
    if opts["min_p"] is not None:
        out["min_p"] = _ranged("min_p", opts["min_p"], 0, 1, float)
    if opts["workers"] is not None:
        out["workers"] = _ranged("workers", opts["workers"], 1, MAX_WORKERS)
    if "node_budget" in given:
        out["max_nodes"] = _ranged("node_budget", opts["node_budget"], 0, INT64_MAX)
    if out["bids"] is not None:
        ids = [b.strip() for b in str(out["bids"]).split(",")]
        if not all(ids):
            raise RikkenError(f"Invalid value for '--bids': an empty bid id in {out['bids']!r}")
        twice = sorted({b for b in ids if ids.count(b) > 1})
        if twice:
            raise RikkenError(f"Invalid value for '--bids': bid {twice[0]!r} given twice")
    return out


def _rikken(result: Result, text, seat, deals, quiet: bool, given: dict, opts) -> Result:
    """Rikken: every bid of the hand at its seat(s), at the table with ``auction``, or with
    the single-dummy play."""
    from analyser.notation import parse_hand

    o = _rikken_options(given, opts)
    cards = parse_hand(text)
    place = read_seat(PLACES[0] if seat is None else seat, allow_all=True)
    single = o["play"] == "single-dummy"
    at_table = "auction" in given
    if single and (at_table or place == ALL_SEATS):
        raise RikkenError("--play single-dummy analyses one seat without --auction")
    if at_table and o["play"] == "real-play" and "play" in given:
        raise RikkenError(
            "--auction weighs the calls double-dummy (a pass is valued by the other "
            "declarer's double-dummy play): leave --play out or give --play double-dummy"
        )
    ruleset = o["ruleset"]
    budget = {"max_nodes": o["max_nodes"]} if "max_nodes" in o else {}
    sizes = {"deals": deals, "precision": o["precision"], "max_deals": o["max_deals"]}
    if at_table:
        from analyser.auction.decision import analyse_at_table

        if place == ALL_SEATS:
            raise RikkenError("--auction analyses one seat: give --seat 1..4, not 'all'")
        if ruleset.turned_trump or o["turned"] is not None:
            raise RikkenError(
                f"--auction is not supported under --rules {ruleset.name} yet (the book and "
                "iwwa2024 auctions only)"
            )
    if opts["dry_run"]:
        return result
    if at_table:
        result.value = analyse_at_table(
            cards, place, ruleset, opts["auction"], model=o["model"], seed=result.seed,
            quiet=quiet, min_p=o["min_p"], deal_model=o["deal_model"], **sizes, **budget,
        )  # fmt: skip
        return result
    return _seats(result, cards, place, o, sizes, budget, quiet)


def _seats(result: Result, cards, place, o: dict, sizes: dict, budget: dict, quiet) -> Result:
    """The hand at its seat, or at every seat: a stop keeps the seats finished."""
    from analyser.analysis.evaluate import analyse_hand
    from analyser.output.analyse import AnalyseResult

    ruleset, turned = o["ruleset"], o["turned"]
    seats = list(PLACES) if place == ALL_SEATS else [place]
    if place == ALL_SEATS and turned is not None and ruleset.turned_trump:
        # the turned card lies with the dealer: a hand holding it is his, else it is not
        seats = [p for p in seats if (p == DEALER_PLACE) == (turned in cards)]
    results = []
    for s in seats:
        try:
            r = analyse_hand(
                cards, s, ruleset, seed=result.seed, min_p=o["min_p"], quiet=quiet,
                turned=turned, deal_model=o["deal_model"], play=o["play"], **sizes, **budget,
            )  # fmt: skip
        except KeyboardInterrupt:
            if not results:  # stopped before any step finished: nothing to report
                raise
            break  # the seats before it stand: report them
        results.append(r)
        if r.interrupted:
            break
    rest = seats[len(results) :]  # seats a stop left out
    result.missing = f"seat(s) {', '.join(str(q) for q in rest)} not analysed" if rest else ""
    result.parts = tuple(results)
    result.value = AnalyseResult(results, all_seats=place == ALL_SEATS)
    if o["play"] == "single-dummy" and not results[0].interrupted:
        from analyser.analysis.single_dummy_run import play_out
        from analyser.output.single_dummy import SingleDummyResult

        asked = [b.strip() for b in o["bids"].split(",") if b.strip()] if o["bids"] else None
        try:
            played = play_out(results[0], asked, o["samples"], o["play_deals"], quiet, o["workers"])
        except KeyboardInterrupt:
            # stopped during the play: the double-dummy figures are complete
            result.missing = (
                "the single-dummy play was stopped (the double-dummy figures are complete)"
            )
            return result
        result.value = SingleDummyResult(results[0], played)
    return result


def misere(
    hand: Any,
    *,
    seat: int | str | None = None,
    with_seat: tuple[int, ...] | list[int] = (),
    rules: Any = None,
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int | None = None,
    explain: int | None = None,
    turned: Any = None,
    deal_model: str | None = None,
    play: str | None = None,
    seed: int | None = None,
    lang: str | None = None,
    quiet: bool = True,
    on_progress: Callable[[dict], None] | None = None,
    stop: threading.Event | None = None,
    dry_run: bool = False,
) -> Result:
    """``rikken misere HAND``: P(misère), P(open misère), P(praatje), why the closed misère
    fails and, with ``with_seat`` (one or two seats), the joined misère. Keywords, progress,
    ``stop`` and ``dry_run`` as :func:`analyse`."""
    from analyser.analysis.misere import EXPLAIN_MAX, analyse_misere
    from analyser.notation import parse_hand
    from analyser.output.misere import MisereResult

    given = {k: v for k, v in locals().items() if k in _MISERE_OPTIONS and v not in (None, ())}
    ruleset = read_rules(rules if rules is not None else "book")
    card = read_turned(turned)
    model = _choice("deal_model", deal_model or DEAL_MODELS[0], DEAL_MODELS)
    play = _choice("play", play or MISERE_PLAYS[0], MISERE_PLAYS)
    sizes = {"deals": None, **_sampling(precision, max_deals)}
    lang = _choice("lang", lang or "nl", LANGS)
    seed = _ranged("seed", seed, 0, INT64_MAX) if seed is not None else new_seed()
    if deals is not None:
        sizes["deals"] = _ranged("deals", deals, 1, MOST_DEALS)
    explain = EXPLAIN_MAX if explain is None else _ranged("explain", explain, 0, MAX_COUNT)
    text = _hand_text(hand)
    place = read_seat(PLACES[0] if seat is None else seat)
    if "rules" in given:
        given["rules"] = ruleset
    result = Result("misere", None, seed, lang, _argv("misere", text, given, seed))
    cards = parse_hand(text)
    if with_seat:
        from analyser.analysis.joined import check_with_places

        others = [read_seat(s) for s in with_seat]
        check_with_places(place, tuple(others))  # bad seats fail before the sampling
    if dry_run:
        return result
    with _watched(on_progress, stop):
        found = analyse_misere(
            cards, place, ruleset, seed=seed, explain=explain, quiet=quiet, turned=card,
            deal_model=model, play=play, **sizes,
        )  # fmt: skip
        joined = None
        if with_seat and not found.interrupted:
            from analyser.analysis.joined import analyse_joined

            # a stop before the joined question's first step leaves the misère figures
            with contextlib.suppress(KeyboardInterrupt):
                joined = analyse_joined(
                    cards, place, tuple(others), ruleset, seed=seed, quiet=quiet,
                    turned=card, deal_model=model, **sizes,
                )  # fmt: skip
    if with_seat and joined is None:
        result.missing = "the joined misère was stopped before its first step"
    result.value = MisereResult(found, joined)
    result.parts = (found, joined)
    return result


__all__ = ["Result", "analyse", "misere", "new_seed", "read_rules", "read_seat", "read_turned"]
