"""Output of ``rikken dd FILE``: each input row repeated with its ``result`` and ``ms``, as
an aligned table, CSV (also written to ``--out``) or JSON (a list of row objects, every value
as read but ``result``; schema ``docs/schemas/dd.schema.json``)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import TextIO

from analyser.output.format import Renderer

TABLE_NOTE = "Results are double-dummy: every hand visible to every player, best play."


@dataclass
class DDResult:
    """What ``rikken dd`` prints: the output columns (the input's, then ``result`` and
    ``ms``) and one row per position."""

    columns: list[str]
    rows: list[dict]


def to_json(result: DDResult, lang: str = "nl") -> list[dict]:
    """The JSON list of rows (``lang`` unused: the input's notation is written back)."""
    del lang
    return result.rows


def write_csv(fh: TextIO, result: DDResult) -> None:
    """Write the rows as CSV (header first) to ``fh``."""
    writer = csv.DictWriter(fh, fieldnames=result.columns, lineterminator="\n")
    writer.writeheader()
    for r in result.rows:
        writer.writerow(r)


def render_csv(result: DDResult, lang: str = "nl") -> str:
    """CSV text (``lang`` unused)."""
    del lang
    buf = io.StringIO()
    write_csv(buf, result)
    return buf.getvalue()


def render_table(result: DDResult, lang: str = "nl") -> str:
    """The rows as left-aligned columns (``lang`` unused)."""
    del lang
    columns, rows = result.columns, result.rows
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    for r in rows:
        lines.append("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in columns).rstrip())
    return "\n".join(lines)


RENDERER = Renderer("rikken dd", to_json, render_table, render_csv, TABLE_NOTE)
