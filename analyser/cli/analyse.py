"""`rikken analyse HAND`: every bid's double-dummy make-probability and expected score."""

from __future__ import annotations

import click

from analyser.api import GAME_DEALS, PLAYS
from analyser.cli.common import (
    INT64_MAX,
    MAX_COUNT,
    MAX_WORKERS,
    MOST_DEALS,
    SEAT_OR_ALL,
    Applies,
    ShownDefault,
    along,
    applies_only,
    common_options,
    deal_model_option,
    new_seed,
    on,
    play_option,
    sampling_options,
    stopped_early,
    turned_option,
    user_errors,
    was_given,
)
from analyser.errors import RikkenError
from analyser.seats import PLACES, Place

RIKKEN = on("--game", "rikken")
SINGLE_DUMMY = on("--play", "single-dummy")
# Where each option applies (analyser.cli.common.refuse_ignored): given elsewhere it is
# refused with one line, never ignored. Options not listed apply to every game.
APPLIES: dict[str, list[Applies]] = {
    "--seat": [on("--game", "rikken", "whist", "klaverjas")],
    "--precision": [RIKKEN],
    "--max-deals": [RIKKEN],
    "--node-budget": [RIKKEN],
    # the 'highest bid worth competing to' is in the table and the JSON, not in the CSV rows
    "--min-p": [RIKKEN, on("--format", "table", "json")],
    "--turned": [on("--game", "rikken", "whist")],  # under rikken: wiezen (the analysis checks)
    "--auction": [RIKKEN],
    "--model": [along("--auction")],
    "--play": [RIKKEN],
    "--bids": [SINGLE_DUMMY],
    "--samples": [SINGLE_DUMMY],
    "--play-deals": [SINGLE_DUMMY],
    "--workers": [SINGLE_DUMMY],
    "--variant": [on("--game", "klaverjas")],
    "--elder": [on("--game", "piket")],
    "--form": [on("--game", "whist")],
    "--rules": [RIKKEN],
    "--deal-model": [RIKKEN],
    # card names in the chosen language: rikken's table and JSON, klaverjas's table
    "--lang": [
        on("--game", "rikken", "klaverjas"),
        on("--format", "table", "json"),
        Applies(
            lambda value, given: value("--game") != "klaverjas" or value("--format") == "table",
            "with --format table under --game klaverjas",
        ),
    ],
}


def _node_budget() -> str:
    from analyser.analysis.positions import NODE_BUDGET

    return str(NODE_BUDGET)


def _check_bids(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--bids: ids separated by commas, each given once (which ids the rules know is checked
    with the analysis); an empty or repeated id is refused before anything is solved."""
    if value is None:
        return None
    ids = [b.strip() for b in value.split(",")]
    if not all(ids):
        raise click.BadParameter(f"an empty bid id in {value!r}", ctx=ctx, param=param)
    twice = sorted({b for b in ids if ids.count(b) > 1})
    if twice:
        raise click.BadParameter(f"bid {twice[0]!r} given twice", ctx=ctx, param=param)
    return value


def _default_bids() -> str:
    from analyser.analysis.single_dummy_run import MAX_DEFAULT_BIDS, REACH

    return f"up to {MAX_DEFAULT_BIDS} bids within reach: double-dummy P(make) >= {REACH:g}"


@click.command("analyse")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--seat",
    type=SEAT_OR_ALL,
    default=PLACES[0],
    show_default=True,
    help="Seat relative to the dealer: 1 = left of the dealer (bids first, leads trick 1), "
    "4 = the dealer; 'all' analyses every seat.",
)
@sampling_options(
    deals_default="adaptive; "
    + ", ".join(f"--game {g}: {n}" for g, n in GAME_DEALS.items() if n is not None)
)
@click.option(
    "--node-budget",
    "node_budget",
    cls=ShownDefault,
    type=click.IntRange(min=0, max=INT64_MAX),
    default=None,
    shown=_node_budget,
    help="Solver nodes per search before a position is given up and reported as a range "
    "(0 = no budget: answers may take minutes).",
)
@click.option(
    "--min-p",
    "min_p",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="Smallest make-probability for the 'highest bid worth competing to'.",
)
@turned_option
@click.option(
    "--auction",
    default=None,
    metavar="CALLS",
    help="The calls made before this seat's turn, in order from seat 1, e.g. 'rik pass' or "
    "'rik, pas, beter rik' (Dutch or English: pass/pas, rik, beter rik, 8 alone/alleen, "
    "misère, piek, open misère, solo, malheur, ...). The other hands are then sampled "
    "among the deals on which every call is what --model says that seat would call, only "
    "the bids legal now are analysed, and a decision table gives every legal call's "
    "expected score (a pass lets the standing bid play).",
)
@click.option(
    "--model",
    "model",
    type=click.Choice(["book"]),
    default="book",
    show_default=True,
    help="With --auction: the bidding model of the other seats (book = the book's coded "
    "guidelines: the lowest legal call the hand supports, pass when none).",
)
@play_option(
    PLAYS,
    "Which P(make) and E[score] come first and drive the recommendation. real-play: "
    "the double-dummy figure mapped through the calibration of single-dummy play (Study 13; "
    "a bid it does not cover falls back to double-dummy, and says so). double-dummy: every "
    "hand seen. single-dummy: real-play, and the bids played out by players who see only "
    "their own hand, the cards played and the open hands (PIMC) on the first --play-deals "
    "deals of the sample, beside the double-dummy figure on the same deals (about a second "
    "a deal).",
)
@click.option(
    "--bids",
    cls=ShownDefault,
    default=None,
    callback=_check_bids,
    metavar="IDS",
    shown=_default_bids,
    help="With --play single-dummy: the bids to play, as ids separated by commas (e.g. "
    "'rik,misere,alone_9').",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1, max=MAX_COUNT),
    default=10,
    show_default=True,
    help="With --play single-dummy: worlds each player samples per decision.",
)
@click.option(
    "--play-deals",
    "play_deals",
    type=click.IntRange(min=1, max=MOST_DEALS),
    default=40,
    show_default=True,
    help="With --play single-dummy: deals of the sample played out per bid.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    default=None,
    cls=ShownDefault,
    shown="one per core",
    help="With --play single-dummy: processes that share the deals.",
)
@click.option(
    "--game",
    type=click.Choice(list(GAME_DEALS)),
    default="rikken",
    show_default=True,
    help="whist (docs/whist.md): partners opposite, --turned CARD is trump and lies with the "
    "dealer (seat 4), seat 1 leads; reports our tricks, P(game in this deal), the expected "
    "point difference and the honours odds, double-dummy on --deals deals. "
    "piket (docs/piket.md): HAND is the 12 dealt cards of the 32-card deck, with --elder or "
    "--younger; ranks every discard set the exchange allows by its expected score (ours minus "
    "theirs: declarations and exact trick play, on --deals sampled talons and opponent "
    "hands) with 95% intervals, and the odds of winning the point, the sequence and the "
    "quatorze/trio after the exchange. "
    "klaverjas (docs/klaverjas.md): an 8-card hand of the 32-card pack (7..A); per trump, "
    "with your team playing and seat 1 leading, P(not nat) and the expected score with "
    "95% intervals, and the trump to choose, double-dummy on --deals deals. "
    "Each game takes only the options that apply to it; any other is refused.",
)
@click.option(
    "--variant",
    type=click.Choice(["amsterdam", "rotterdam"]),
    default="amsterdam",
    show_default=True,
    help="With --game klaverjas: the trump duties (KJ-07): amsterdam (no duty to trump or "
    "overtrump while your partner wins the trick, seat 1 must choose trump) or rotterdam "
    "(always (over)trump).",
)
@click.option(
    "--elder/--younger",
    "elder",
    default=None,
    help="With --game piket, required: the hand is elder's (exchanges 1-5, leads) or "
    "younger's (the dealer: exchanges 1-3 after elder).",
)
@click.option(
    "--form",
    type=click.Choice(["10", "7", "6", "5", "4"]),
    default="5",
    show_default=True,
    help="With --game whist: the scoring form, in points to win a game (WH-06).",
)
@deal_model_option
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@common_options()
@user_errors
@applies_only(APPLIES)
def command(
    hand: tuple[str, ...],
    seat: Place | str,
    deals: int | None,
    precision: float | None,
    max_deals: int | None,
    node_budget: int | None,
    min_p: float,
    turned: int | None,
    auction: str | None,
    model: str,
    play: str,
    bids: str | None,
    samples: int,
    play_deals: int,
    workers: int | None,
    game: str,
    elder: bool | None,
    form: str,
    variant: str,
    deal_model: str,
    quiet: bool,
    seed: int | None,
    ruleset,
    lang: str,
    fmt: str,
) -> None:
    """Analyse HAND: P(make), 95% interval and expected score of every bid, with a recommendation.

    The other 39 cards are sampled (uniformly; --deal-model cut_only: as they lie after an
    unshuffled deal, R-DEAL-06) and every bid the rule set offers the hand at
    its seat is solved double-dummy on the same deals: rik per trump and called ace (chosen
    once for the hand: the highest make-probability), beter rik, alone 7..12 and solo per
    trump and beter, misère and piek (closed, open, praatje) and malheur with 3-4 aces. Left
    out, and listed in the notes: beter rik at seat 1 (the forehand can never bid it), and
    with 3-4 aces under an obligatory malheur (book) every bid below malheur; --rules
    'book:malheur=optional' evaluates those as a what-if. With --seat all each seat gets its
    own sample from the same seed. HAND is written as for `rikken hand`, e.g.
    '♠AHV1098 ♥104 ♦A10 ♣752'.

    Under --rules wiezen (docs/rules.md §7.4) --turned CARD is required: the dealer's
    face-up card, which lies with the dealer (seat 4) in every deal. The bids are vragen
    (P(8 tricks) over the deals on which a later player goes along, by the stated meegaan
    model; the others count as alone 5 or a pass), alone 5, abondance 9-12 (own suit and in
    troef; the declarer leads), miserie, miserie op tafel, solo, solo slim, and troel or
    troela with 3 or 4 aces. With --seat all only the seats the turned card allows are
    analysed (4 when the hand holds it, else 1-3).

    How long it takes: by default each question (the rik family, beter rik, the alone levels,
    each misère/piek form, malheur) takes deals until its P(make) is known to within 0.05
    (95% interval), at most 1000: a certain or hopeless bid settles after 50 deals, one near
    50% after about 400. Typical hands take seconds; long suits and two-suiters up to about
    a minute. Every solver search has a node budget: a position over it is reported as a
    range (P(make) low-high) and counted in the notes, never dropped. Exact trick counts,
    which only the expected score needs, are made on a subsample (the first 60 deals and 15
    of each stratum), and the expected score comes with its 95% interval. --deals N asks
    for exactly N deals (same seed, same output). Ctrl-C stops the run and prints each
    question's figures on the deals of its last finished step (exit code 130; with
    --auction, or before the first step, it aborts).

    The sample's figures are double-dummy (all hands seen), which a real table does not
    reach (closed misère makes far more often at the table, rik less often). So P(make) and
    E[score] come first as the estimated real play: each bid's double-dummy P(make) mapped
    through its family's curve from Study 13 (single-dummy players drawing worlds that fit
    the auction, thousands of played deals; the range carries the curve's band and the
    sample's interval), the double-dummy figure beside it (DD %), and the recommendation
    weighs the real-play expected score. A bid the calibration does not cover (alone 10-12,
    a hand outside the family's panel, a double-dummy P(make) outside 15-95%) shows its
    double-dummy figure, marked dd, with the reason in the notes. --play double-dummy shows
    and weighs the double-dummy figures only. --play single-dummy also plays the bids out
    with players who see what a real player sees (each samples --samples worlds per
    decision and plays the card that does best over them), on the first --play-deals deals,
    and shows P(make) single-dummy beside double-dummy on the same deals: about a second a
    deal and bid at the default 10 worlds.

    --game piket --elder|--younger (docs/piket.md): HAND is the 12 dealt cards of the 32-card
    deck (7 … A). Every discard set the exchange allows is ranked by its expected score over
    --deals sampled talons and opponent hands (the opponent exchanges by a stated
    heuristic): screened on the declarations, the best played out exactly (both hands open,
    pic and repic included), with 95% intervals and the odds of winning the point, the
    sequence and the quatorze/trio. About 15 s for elder, 5-10 s for younger.

    --game klaverjas [--variant amsterdam|rotterdam] (docs/klaverjas.md): HAND is 8 cards of
    the 32-card pack (7 … A) at --seat 1..4. With your team playing each trump in turn and
    seat 1 leading, every one of --deals sampled deals is solved exactly,
    double-dummy: P(not nat) per trump with its 95% interval, the expected score and point
    difference (on 16 exactly solved deals per trump) with 95% intervals, and the trump to
    choose. About 10-20 s.
    """
    # imported here so that `rikken --help` does not load numba
    from analyser.api import analyse
    from analyser.cli.warmup import compile_notice
    from analyser.output import emit

    # the options that do not apply to the game or mode are refused before this (APPLIES)
    if not was_given("seed"):
        seed = new_seed()
    if fmt == "csv" and game in CSV_REFUSED:
        raise RikkenError(CSV_REFUSED[game])
    if fmt == "csv" and play == "single-dummy":
        raise RikkenError("--play single-dummy writes a table or JSON, not CSV")
    values = locals()
    # the API takes the options given, as click read them; the rest keep their defaults
    given = {
        name: values["ruleset" if name == "rules" else name]
        for name in API_OPTIONS
        if was_given("ruleset" if name == "rules" else name)
    }
    if game == "rikken":
        compile_notice()
    result = analyse(" ".join(hand), game=game, seed=seed, quiet=quiet, **given)
    emit(result.value, fmt, lang)
    if game == "rikken" and not was_given("auction"):
        stopped_early(*result.parts, missing=result.missing)


# the API's keywords that are options of the command (by the command's parameter names;
# --rules is the parameter ``ruleset``)
API_OPTIONS = (
    "seat",
    "deals",
    "precision",
    "max_deals",
    "node_budget",
    "min_p",
    "turned",
    "auction",
    "model",
    "play",
    "bids",
    "samples",
    "play_deals",
    "workers",
    "variant",
    "elder",
    "form",
    "rules",
    "deal_model",
    "lang",
)
# the games whose figures have no CSV form: the one line that says so
CSV_REFUSED = {
    "whist": "--game whist writes double-dummy figures as a table or JSON",
    "piket": "--game piket writes its exact-play figures as a table or JSON",
    "klaverjas": "--game klaverjas writes double-dummy figures as a table or JSON",
}
