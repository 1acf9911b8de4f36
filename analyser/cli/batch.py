"""`rikken batch FILE`: many hands through `rikken analyse`, one row per hand and bid
(:mod:`analyser.batch`)."""

from __future__ import annotations

import pathlib

import click

from analyser.api import MISERE_PLAYS
from analyser.cli.common import (
    INT64_MAX,
    SEAT,
    ShownDefault,
    common_options,
    new_seed,
    play_option,
    sampling_options,
    stopped_early,
    turned_option,
    user_errors,
    was_given,
)
from analyser.errors import RikkenError
from analyser.seats import PLACES

OUT_SUFFIXES = (".csv", ".parquet")


@click.command("batch")
@click.argument("file", type=click.Path(dir_okay=False, path_type=pathlib.Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=pathlib.Path),
    default=None,
    help="Write the rows to this file (.csv or .parquet), rewritten after every hand; a run "
    "stopped and started again with the same --out resumes. Without it the CSV goes to "
    "stdout.",
)
@click.option(
    "--seat",
    type=SEAT,
    default=PLACES[0],
    show_default=True,
    help="The seat of the hands whose line gives none (PBN: each hand at its own seat).",
)
@sampling_options()
@click.option(
    "--node-budget",
    "node_budget",
    cls=ShownDefault,
    type=click.IntRange(min=0, max=INT64_MAX),
    default=None,
    shown="as rikken analyse",
    help="Solver nodes per search before a position is reported as a range (0 = none).",
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
@play_option(
    MISERE_PLAYS,
    "As rikken analyse: the figures first in each row and weighed by the summary "
    "(real-play: the calibrated real-play estimate where it applies; double-dummy).",
)
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
@common_options("seed", "rules")
@user_errors
def command(
    file: pathlib.Path,
    out: pathlib.Path | None,
    seat: int,
    deals: int | None,
    precision: float | None,
    max_deals: int | None,
    node_budget: int | None,
    min_p: float,
    turned: int | None,
    play: str,
    quiet: bool,
    seed: int | None,
    ruleset,
) -> None:
    """Analyse every hand of FILE as `rikken analyse --format csv` does, one row per hand and
    bid: the columns hand, seat, bid, then the analyse CSV's figures, and the item number.

    \b
    FILE is one of:
      a text file: one hand per line, optionally '; SEAT; RULES' after it
        (columns separated by ';', '|' or a tab; '#' starts a comment line);
      a CSV file (.csv) with the column hand and, optional, seat, rules, turned;
      a PBN file (.pbn): each deal's four hands, each at its seat from the [Dealer].

    Every hand runs on the same seed (given, or a fresh one printed on stderr), so a hand's
    rows equal `rikken analyse HAND --seed S --format csv`. --out FILE.csv or FILE.parquet
    is rewritten after each hand: after a stop (Ctrl-C; exit code 130) the same command
    resumes, skipping the hands done. A summary table ends the run (on stderr without
    --out): per hand the opening bid with the best expected score.

    \b
    Examples:
      rikken batch club-evening.txt --deals 100 --seed 1 --out club.csv
      rikken batch boards.pbn --rules iwwa2024 --out boards.parquet
    """
    from analyser.batch import read_done, read_items, run_batch, summary
    from analyser.cli.warmup import compile_notice
    from analyser.files import check_output_file

    if out is not None:
        if out.suffix.lower() not in OUT_SUFFIXES:
            raise RikkenError(f"--out {out}: give a .csv or .parquet file")
        check_output_file(out, "--out")
    items = read_items(file)
    earlier = read_done(out) if out is not None else []
    if earlier:
        before = earlier[0]["seed"]
        if was_given("seed") and str(seed) != before:
            raise RikkenError(f"{out} was written with --seed {before}; give that seed to resume")
        seed = int(before)
    elif not was_given("seed"):
        seed = new_seed()
        click.echo(f"seed {seed}", err=True)
    options = {"seed": seed, "min_p": min_p, "deals": deals, "precision": precision}
    options.update(max_deals=max_deals, node_budget=node_budget, turned=turned)
    options["seat"] = seat
    if was_given("play"):
        options["play"] = play
    if was_given("ruleset"):
        options["rules"] = ruleset
    options = {k: v for k, v in options.items() if v is not None}
    compile_notice()
    rows, stopped = run_batch(items, options, out, lambda t: click.echo(t, nl=False), quiet)
    lines = _summary_lines(summary(rows))
    click.echo("\n".join(lines), err=out is None)
    stopped_early(missing=f"{len({r['item'] for r in rows})} of {len(items)} hands done"
                  if stopped else "")  # fmt: skip


def _summary_lines(table: list[tuple[str, ...]]) -> list[str]:
    """The summary as aligned columns."""
    head = ("item", "hand", "seat", "best opening", "P(make)", "E[score]")
    rows = [head, *table]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
