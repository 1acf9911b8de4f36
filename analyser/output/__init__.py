"""The output layer: every command's result written as a table, JSON or CSV.

Each command has one result model (the analyses' own dataclasses where they fit, else a small
wrapper defined beside its renderer) and one module that renders it:

* :mod:`.analyse` — ``rikken analyse`` (:class:`~.analyse.AnalyseResult`, or one
  :class:`~analyser.analysis.results.HandAnalysis`); :mod:`.single_dummy` — with
  ``--play single-dummy``; :mod:`.auction` — with ``--auction``
  (:class:`~analyser.auction.decision.TableAnalysis`);
* :mod:`.misere` — ``rikken misere``, the joined misère included (:class:`~.misere.MisereResult`);
* :mod:`.whist`, :mod:`.klaverjas`, :mod:`.piket` — ``rikken analyse --game ...`` (the games'
  analysis dataclasses);
* :mod:`.hand` — ``rikken hand``; :mod:`.dd` — ``rikken dd``;
* :mod:`.format` — what they share: rounding, card codes, JSON text, aligned columns.

Each of those modules has a ``RENDERER`` (:class:`~.format.Renderer`); :func:`render` and
:func:`emit` pick it by the result's class. The JSON schemas (draft 2020-12) are in
``docs/schemas/``, one per command or game; ``tests/test_output_schemas.py`` checks real
output against them.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from analyser.errors import RikkenError
from analyser.output.format import Renderer, dump_json

FORMATS = ("table", "json", "csv")

# the module rendering each result class, by the class's name. A renderer is imported on
# first use, so a command loads only its own (`rikken hand` neither the analyses nor the
# solvers); the auction, klaverjas and piket renderers import their result classes for type
# checking only, as those modules load numba
MODULES = {
    "AnalyseResult": "analyse",
    "HandAnalysis": "analyse",
    "SingleDummyResult": "single_dummy",
    "TableAnalysis": "auction",
    "MisereResult": "misere",
    "WhistAnalysis": "whist",
    "KlaverjasAnalysis": "klaverjas",
    "PiketAnalysis": "piket",
    "HandResult": "hand",
    "DDResult": "dd",
}


def renderer_of(result: Any) -> Renderer:
    """The renderer of ``result``'s class; TypeError for a class no command prints."""
    name = type(result).__name__
    if name not in MODULES:
        raise TypeError(f"no output for a {name}")
    return importlib.import_module(f"{__name__}.{MODULES[name]}").RENDERER


def render(result: Any, fmt: str = "table", lang: str = "nl") -> str:
    """``result`` as the text its command writes to stdout in ``fmt`` (``table``, ``json``,
    ``csv``), final newline included; cards in ``lang`` (``nl``/``en``) where the format
    writes them by name. RikkenError when the command has no such format."""
    r = renderer_of(result)
    if fmt == "json":
        return dump_json(r.to_json(result, lang)) + "\n"
    if fmt == "csv":
        if r.csv is None:
            raise RikkenError(f"{r.command} writes a table or JSON, not CSV")
        return r.csv(result, lang)
    if fmt == "table":
        return r.table(result, lang) + "\n"
    raise RikkenError(f"unknown output format {fmt!r} (one of: {', '.join(FORMATS)})")


def to_json(result: Any, lang: str = "nl") -> Any:
    """``result`` as the JSON value (dicts, lists, numbers, strings) its command writes."""
    return renderer_of(result).to_json(result, lang)


def emit(result: Any, fmt: str = "table", lang: str = "nl") -> None:
    """Write ``result`` to stdout as :func:`render` gives it and, after a table, the
    command's note to stderr if it has one."""
    click.echo(render(result, fmt, lang), nl=False)
    note = renderer_of(result).table_note
    if fmt == "table" and note:
        click.echo(note, err=True)


__all__ = ["FORMATS", "MODULES", "emit", "render", "renderer_of", "to_json"]
