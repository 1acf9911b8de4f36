"""`rikken analyse HAND`: every bid's double-dummy make-probability and expected score."""

from __future__ import annotations

import click

from analyser.cli.common import common_options, new_seed, user_errors
from analyser.seats import PLACES, Place

SEAT_CHOICES = (*(str(p) for p in PLACES), "all")  # places relative to the dealer


@click.command("analyse")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--seat",
    type=click.Choice(SEAT_CHOICES),
    default="1",
    show_default=True,
    help="Seat relative to the dealer: 1 = left of the dealer (bids first, leads trick 1), "
    "4 = the dealer; 'all' analyses every seat.",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Deals of the other 39 cards to sample (the maximum with --precision).",
)
@click.option(
    "--precision",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=None,
    help="Sample in batches of 200 until every reported probability's 95% half-width is at "
    "most this (at least 200 deals, at most --deals).",
)
@click.option(
    "--min-p",
    "min_p",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="Smallest make-probability for the 'highest bid worth competing to'.",
)
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@common_options
@user_errors
def command(
    hand: tuple[str, ...],
    seat: str,
    deals: int,
    precision: float | None,
    min_p: float,
    quiet: bool,
    seed: int | None,
    ruleset,
    lang: str,
    fmt: str,
) -> None:
    """Analyse HAND: P(make), 95% interval and expected score of every bid, with a recommendation.

    The other 39 cards are sampled (uniformly) and every bid the rule set offers the hand at
    its seat is solved double-dummy on the same deals: rik per trump and called ace (chosen
    once for the hand: the highest make-probability), beter rik, alone 7..12 and solo per
    trump and beter, misère and piek (closed, open, praatje) and malheur with 3-4 aces. Left
    out, and listed in the notes: beter rik at seat 1 (the forehand can never bid it), and
    with 3-4 aces under an obligatory malheur (book) every bid below malheur; --rules
    'book:malheur=optional' evaluates those as a what-if. With --seat all each seat gets its
    own sample from the same seed. HAND is written as for `rikken hand`, e.g.
    '♠AHV1098 ♥104 ♦A10 ♣752'.
    """
    # imported here so that `rikken --help` does not load numba
    from analyser.analysis.evaluate import analyse_hand
    from analyser.analysis.report_format import render_csv, render_json, render_table
    from analyser.notation import parse_hand

    cards = parse_hand(" ".join(hand))
    if seed is None:
        seed = new_seed()
    seats = list(PLACES) if seat == "all" else [Place(int(seat))]
    results = [
        analyse_hand(
            cards,
            s,
            ruleset,
            deals=deals,
            seed=seed,
            precision=precision,
            min_p=min_p,
            quiet=quiet,
        )
        for s in seats
    ]
    if fmt == "json":
        click.echo(render_json(results, lang, many=seat == "all"))
    elif fmt == "csv":
        click.echo(render_csv(results), nl=False)
    else:
        click.echo("\n\n".join(render_table(r, lang) for r in results))
