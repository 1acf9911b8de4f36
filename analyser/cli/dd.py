"""`rikken dd FILE`: double-dummy results for the positions in a CSV file.

The output (table, JSON, CSV) is :mod:`analyser.output.dd`'s; the JSON schema is
``docs/schemas/dd.schema.json``.
"""

from __future__ import annotations

import sys
import time

import click

from analyser.cli.common import (
    ShownDefault,
    applies_only,
    common_options,
    turned_option,
    user_errors,
    was_given,
    without,
)
from analyser.errors import RikkenError
from analyser.files import check_output_file, os_reason, write_text_atomic
from analyser.progress import Progress

# where an option applies (analyser.cli.common.refuse_ignored): --out always writes CSV
APPLIES = {"--format": [without("--out")]}


@click.command("dd")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    cls=ShownDefault,
    shown="print them, as --format says",
    help="Write the result rows as CSV to this file (--format does not apply then).",
)
@turned_option
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@common_options("rules", "format")
@user_errors
@applies_only(APPLIES)
def command(
    file: str,
    out: str | None,
    turned: int | None,
    quiet: bool,
    ruleset,
    fmt: str,
) -> None:
    """Solve the positions of a CSV file double-dummy (all hands visible, best play).

    Each row: deal (PBN 'N:hand hand hand hand', a full deal or an ending with equal hands),
    trump (S H D C NT; Dutch S H R K SA), leader, declarer, partner (seat or empty; N E S W or
    Dutch N O Z W), goal (tricks, >=K, misere, piek; default tricks) and an optional called
    card such as DA (its holder must play it the first time its suit is led; left empty, the
    partner is whoever holds it). The output repeats each row with 'result' (tricks of the
    declarer side, or 1/0 for a yes/no goal) and 'ms' (solve time of that row).

    The rule set only matters through its called-card switch
    (called_card_may_be_discarded) and, under wiezen, the turned card: --turned CARD is
    required there (refused elsewhere); the dealer is W, whose hand must hold the card
    (unless an ending has played it), and a row's trump may be written 'turned' for its
    suit. Examples: data/dd_example.csv, data/dd_wiezen_example.csv.
    """
    # imported here so that `rikken --help` does not load numba
    from analyser.analysis.wiezen import check_turned
    from analyser.cli.warmup import compile_notice
    from analyser.output import emit
    from analyser.output.dd import DDResult, render_csv
    from analyser.solver import Solver
    from analyser.solver.ddfile import read_dd_csv

    check_turned(ruleset, turned)
    if was_given("out"):
        check_output_file(out, "--out")  # before the solving, which the error would waste
    text = _read_text(file)
    columns, raw, rows = read_dd_csv(text, turned)
    compile_notice()
    solver = Solver()
    out_columns = columns + [c for c in ("result", "ms") if c not in columns]
    results = []
    with Progress(len(rows), "solving", quiet=quiet) as progress:
        for record, row in zip(raw, rows, strict=True):
            t0 = time.perf_counter()
            value = solver.solve(
                list(row.masks),
                row.trump,
                row.leader,
                [s for s in range(4) if row.declarer_mask >> s & 1],
                row.goal if row.goal != 1 else f">={row.target}",
                None if row.called < 0 else row.called,
                called_card_may_be_discarded=ruleset.called_card_may_be_discarded,
            )
            ms = (time.perf_counter() - t0) * 1000.0
            results.append(
                {**{c: record.get(c, "") for c in columns}, "result": value, "ms": f"{ms:.2f}"}
            )
            progress.advance()
    result = DDResult(out_columns, results)
    if was_given("out"):
        csv_text = render_csv(result)
        try:
            write_text_atomic(out, csv_text)
        except OSError as exc:
            # the solving is done: the rows go to stdout rather than being lost
            click.echo(csv_text, nl=False)
            raise RikkenError(
                f"could not write {out} ({os_reason(exc)}); the results are printed on "
                "stdout instead"
            ) from None
        click.echo(f"{len(results)} positions solved; results written to {out}", err=True)
        return
    emit(result, fmt)


# The most of a file `rikken dd` reads: a position is a line of about 80 bytes, so this holds
# far more positions than a run can solve, and a device such as /dev/zero ends with one line.
MAX_FILE_BYTES = 64 * 2**20


def _read_text(file: str) -> str:
    """The text of FILE (``-``: standard input), at most :data:`MAX_FILE_BYTES`, as UTF-8."""
    try:
        if file == "-":
            if sys.stdin.isatty():  # else the run would wait without a word
                click.echo("reading the CSV from standard input (end it with Ctrl-D)", err=True)
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with open(file, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise RikkenError(f"no such file: {file}") from None
    except OSError as exc:
        raise RikkenError(f"{file}: cannot be read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise RikkenError(f"{file} is larger than {MAX_FILE_BYTES // 2**20} MiB: not a dd file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RikkenError(f"{file} is not UTF-8 text") from None
