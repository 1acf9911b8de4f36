"""``rikken batch FILE``: many hands through ``rikken analyse``, one row per hand and bid.

The input (:func:`read_items`) is one of

* a text file: one hand per line, optionally followed by a seat and a rule set, the columns
  separated by ``;``, ``|`` or a tab (``♠AHV1098 ♥104 ♦A10 ♣752; 2; iwwa2024``); blank lines
  and lines starting with ``#`` are skipped;
* a CSV file (``.csv``) with a header: ``hand`` and, optional, ``seat``, ``rules`` and
  ``turned``;
* a PBN file (``.pbn``): each ``[Deal "N:..."]`` gives four items, each hand at its seat
  counted from the deal's ``[Dealer "..."]``.

Each item runs :func:`analyser.api.analyse` with the batch's options (a line's own seat,
rules or turned card win) and the same seed, so its rows are the rows ``rikken analyse HAND
--format csv`` writes for it, with ``hand`` in front and the item's number (``item``, from
1) at the end. The output (CSV or Parquet, by its suffix) is rewritten atomically after
every item; a run stopped (Ctrl-C) and started again with the same ``--out`` skips the items
it holds, so that it resumes where it stopped.
"""

from __future__ import annotations

import csv
import io
import pathlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analyser.errors import RikkenError
from analyser.seats import PLACES

# where the seat and rule set of a text line start
_COLUMNS = re.compile(r"[;|\t]")
_PBN_TAG = re.compile(r'^\s*\[(\w+)\s+"([^"]*)"\s*\]\s*$')
COMPASS = "NESW"


@dataclass(frozen=True)
class Item:
    """One hand to analyse: its text, where it came from (``source``, for messages) and the
    options it sets itself (``seat``, ``rules``, ``turned``; None: the batch's)."""

    hand: str
    source: str
    seat: str | None = None
    rules: str | None = None
    turned: str | None = None


def read_items(path: str | pathlib.Path) -> list[Item]:
    """The items of ``path`` (module docstring); RikkenError (one line, with where) for a file
    that cannot be read or a line that is not an item. The hands themselves are read when
    they are analysed, with the analysis's own messages."""
    path = pathlib.Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise RikkenError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    suffix = path.suffix.lower()
    items = (
        _csv_items(text, path.name)
        if suffix == ".csv"
        else _pbn_items(text, path.name)
        if suffix == ".pbn"
        else _line_items(text, path.name)
    )
    if not items:
        raise RikkenError(f"{path}: no hands found")
    return items


def _line_items(text: str, name: str) -> list[Item]:
    out = []
    for k, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = [c.strip() for c in _COLUMNS.split(line)]
        if len(cols) > 3:
            raise RikkenError(f"{name}:{k}: more than 3 columns (hand; seat; rules)")
        cols += [""] * (3 - len(cols))
        out.append(Item(cols[0], f"{name}:{k}", cols[1] or None, cols[2] or None))
    return out


def _csv_items(text: str, name: str) -> list[Item]:
    rows = csv.DictReader(io.StringIO(text))
    fields = [f.strip().lower() for f in rows.fieldnames or []]
    if "hand" not in fields:
        raise RikkenError(f"{name}: a CSV needs a 'hand' column (and may have seat, rules, turned)")
    unknown = sorted(set(fields) - {"hand", "seat", "rules", "turned"})
    if unknown:
        raise RikkenError(f"{name}: unknown column {unknown[0]!r} (hand, seat, rules, turned)")
    out = []
    for k, row in enumerate(rows, start=2):
        row = {f.strip().lower(): (v or "").strip() for f, v in row.items() if f is not None}
        if not row.get("hand"):
            continue
        get = row.get
        out.append(Item(row["hand"], f"{name}:{k}", get("seat") or None, get("rules") or None,
                        get("turned") or None))  # fmt: skip
    return out


def _pbn_items(text: str, name: str) -> list[Item]:
    """Four items per deal, each hand at its place from the dealer (1 = left of him)."""
    from analyser.notation import format_hand, parse_deal

    out: list[Item] = []
    tags: dict[str, tuple[str, int]] = {}

    def flush() -> None:
        if "Deal" not in tags:
            return
        deal_text, k = tags["Deal"]
        dealer, _ = tags.get("Dealer", ("", k))
        if dealer.upper() not in COMPASS or not dealer:
            raise RikkenError(f'{name}:{k}: the deal has no [Dealer "N|E|S|W"] tag')
        hands = parse_deal(deal_text)
        d = COMPASS.index(dealer.upper())
        for place in PLACES:
            seat = (d + place) % 4  # place 1 sits left of (after) the dealer
            out.append(Item(format_hand(hands[seat], "en"), f"{name}:{k} {COMPASS[seat]}",
                            str(place)))  # fmt: skip

    for k, line in enumerate(text.splitlines(), start=1):
        m = _PBN_TAG.match(line)
        if not m:
            continue
        tag, value = m.groups()
        if tag == "Event" or (tag in tags and tag in ("Deal", "Dealer")):
            flush()  # a new board begins
            tags = {}
        tags[tag] = (value, k)
    flush()
    return out


@dataclass
class Outcome:
    """One item's rows (the analyse CSV's, as dicts with ``hand`` and ``item``) and whether
    its run was stopped."""

    rows: list[dict[str, str]]
    interrupted: bool


def columns() -> list[str]:
    """The output's columns: ``hand``, ``seat``, ``bid``, the rest of the analyse CSV's, and
    ``item``."""
    from analyser.output.analyse import CSV_COLUMNS

    rest = [c for c in CSV_COLUMNS if c not in ("seat", "bid")]
    return ["hand", "seat", "bid", *rest, "item"]


def analyse_item(item: Item, number: int, options: dict[str, Any]) -> Outcome:
    """The rows of one item: ``rikken analyse`` with ``options`` (the API's keywords), the
    item's own seat, rules and turned card winning. A RikkenError names the item."""
    from analyser.api import analyse

    own = {"seat": item.seat, "rules": item.rules, "turned": item.turned}
    kwargs = {**options, **{k: v for k, v in own.items() if v is not None}}
    try:
        result = analyse(item.hand, **kwargs)
    except RikkenError as exc:
        raise RikkenError(f"{item.source}: {exc}") from None
    rows = list(csv.DictReader(io.StringIO(result.render("csv"))))
    return Outcome(
        [{**r, "hand": item.hand, "item": str(number)} for r in rows], result.interrupted
    )


def read_done(path: pathlib.Path) -> list[dict[str, str]]:
    """The rows an earlier run wrote to ``path`` (none when it does not exist); RikkenError
    when it is not a batch output."""
    if not path.exists():
        return []
    try:
        if path.suffix.lower() == ".parquet":
            import pandas as pd

            frame = pd.read_parquet(path).astype(str)
        else:
            import pandas as pd

            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except Exception as exc:  # noqa: BLE001 - any reader error: not our file
        raise RikkenError(f"{path}: cannot be read to resume ({type(exc).__name__})") from None
    if list(frame.columns) != columns():
        raise RikkenError(
            f"{path}: not the output of rikken batch (other columns); give another --out"
        )
    return frame.fillna("").to_dict("records")


def write_rows(path: pathlib.Path, rows: list[dict[str, str]]) -> None:
    """``rows`` to ``path`` atomically: Parquet (every column text, as the CSV) or CSV."""
    from analyser.files import write_bytes_atomic, write_text_atomic

    cols = columns()
    if path.suffix.lower() == ".parquet":
        import pandas as pd

        frame = pd.DataFrame([[r[c] for c in cols] for r in rows], columns=cols, dtype=str)
        write_bytes_atomic(path, frame.to_parquet(index=False))
        return
    write_text_atomic(path, csv_text(rows, header=True))


def csv_text(rows: list[dict[str, str]], header: bool) -> str:
    """``rows`` as CSV lines in the output's column order, the header first if asked."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if header:
        w.writerow(columns())
    for r in rows:
        w.writerow([r[c] for c in columns()])
    return buf.getvalue()


def summary(rows: list[dict[str, str]]) -> list[tuple[str, str, str, str, str, str]]:
    """Per item: item, hand, seat, the opening bid with the best expected score, its P(make)
    and expected score."""
    best: dict[tuple[str, str], dict[str, str]] = {}
    order: list[tuple[str, str]] = []
    for r in rows:
        key = (r["item"], r["seat"])
        if key not in best:
            order.append(key)
            best[key] = r
        opening = r["opening_legal"] == "true"
        if opening and (
            best[key]["opening_legal"] != "true"
            or float(r["expected_score"]) > float(best[key]["expected_score"])
        ):
            best[key] = r
    return [
        (k[0], best[k]["hand"], k[1], best[k]["contract"], best[k]["p_make"],
         best[k]["expected_score"])
        for k in order
    ]  # fmt: skip


def run_batch(
    items: list[Item],
    options: dict[str, Any],
    out: pathlib.Path | None,
    emit: Callable[[str], None],
    quiet: bool = True,
) -> tuple[list[dict[str, str]], bool]:
    """Analyse ``items`` with ``options``; with ``out``, resume from the rows it holds and
    rewrite it after each item; without, give each item's CSV lines to ``emit``. Returns every
    row and whether a Ctrl-C stopped the run (the stopped item is not written)."""
    from analyser.progress import Progress

    rows = read_done(out) if out is not None else []
    done = {r["item"] for r in rows}
    if out is None:
        emit(csv_text([], header=True))
    stopped = False
    with Progress(len(items), "batch: hands", quiet=quiet) as progress:
        progress.advance(len(done))
        for number, item in enumerate(items, start=1):
            if str(number) in done:
                continue
            try:
                outcome = analyse_item(item, number, options)
            except KeyboardInterrupt:
                stopped = True
                break
            if outcome.interrupted:  # partial figures: redone when the batch resumes
                stopped = True
                break
            rows += outcome.rows
            if out is not None:
                write_rows(out, rows)
            else:
                emit(csv_text(outcome.rows, header=False))
            progress.advance()
    return rows, stopped
