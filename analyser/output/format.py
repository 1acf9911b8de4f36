"""Formatting shared by every command's output: rounding, card codes, JSON text, aligned
table columns, and the fields the hand analyses (``rikken analyse``, ``rikken misere``) have
in common."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from analyser.cards import RANK_CHARS_EN, SEAT_LETTERS, SUIT_LETTERS, rank_of, suit_of
from analyser.notation import format_hand, format_hand_pbn
from analyser.seats import seat_of

if TYPE_CHECKING:
    from analyser.stats import Estimate

METHOD = "double-dummy"
DECIMALS = 4


@dataclass(frozen=True)
class Renderer:
    """How one kind of result is written in each format: ``to_json(result, lang)`` gives the
    JSON value, ``table(result, lang)`` and ``csv(result, lang)`` the text without and with
    its final newline (``csv`` None: the command has no CSV); ``table_note`` is a line for
    stderr after the table."""

    command: str
    to_json: Callable[[Any, str], Any]
    table: Callable[[Any, str], str]
    csv: Callable[[Any, str], str] | None = None
    table_note: str | None = None


def rounded(x: float, decimals: int = DECIMALS) -> float:
    """``x`` as a plain float rounded to ``decimals`` places (the JSON figures)."""
    return round(float(x), decimals)


def card_code(c: int | None) -> str | None:
    """A card as suit letter + English rank (``"HA"``, ``"DT"``) for JSON/CSV; None stays None."""
    if c is None:
        return None
    return SUIT_LETTERS[suit_of(c)] + RANK_CHARS_EN[rank_of(c)]


def strain_code(strain: int | None) -> str | None:
    """A trump suit as its letter (``"S"`` .. ``"C"``); None and no-trump are None."""
    if strain is None or strain >= len(SUIT_LETTERS):
        return None
    return SUIT_LETTERS[strain]


def dump_json(obj: Any) -> str:
    """``obj`` as the pretty, key-ordered JSON text every command writes (no final newline)."""
    return json.dumps(obj, indent=2, ensure_ascii=False)


def header_fields(a, lang: str = "nl") -> dict:
    """The leading JSON keys of ``rikken analyse`` and ``rikken misere``: hand, seat, sample,
    rules, method, deal model (``a`` is a :class:`~analyser.analysis.results.HandAnalysis`
    or a misère analysis; both carry these attributes)."""
    return {
        "hand": format_hand(a.hand, lang),
        "pbn": format_hand_pbn(a.hand),
        "seat": a.seat,
        "seat_compass": SEAT_LETTERS[seat_of(a.seat)],
        "deals": a.n_deals,
        "seed": a.seed,
        "rules": a.ruleset.spec,
        "method": METHOD,
        "deal_model": a.deal_model,
    }


def given_up_counts(counts: Mapping[str, int] | int, question: str = "make") -> dict[str, int]:
    """The JSON ``given_up`` of every command: positions given up at the node budget, as an
    object keyed by what they were solved for. A bare count (the joined misère counts only
    its make-searches) becomes ``{question: count}``."""
    if isinstance(counts, Mapping):
        return {k: int(v) for k, v in counts.items()}
    return {question: int(counts)}


def estimate_range(e: Estimate) -> dict:
    """A make-estimate with its range over the given-up deals and its 95 % interval, keyed as
    in the misère JSON (``p_make`` .. ``ci_high``)."""
    low, high = e.interval
    return {
        "p_make": rounded(e.p),
        "p_low": rounded(e.p_low),
        "p_high": rounded(e.p_high),
        "unknown": e.unknown,
        "ci_low": rounded(low),
        "ci_high": rounded(high),
    }


def pct_range(low: float, high: float) -> str:
    """A percentage, or its range ``low-high`` (one decimal) when the ends differ."""
    return f"{100 * low:.1f}" if high == low else f"{100 * low:.1f}-{100 * high:.1f}"


def aligned(head: Sequence[str], rows: Sequence[Sequence[str]], left: Callable[[int], bool]):
    """Table lines: ``head``, a rule of dashes and ``rows``, each column as wide as its widest
    cell, left-aligned where ``left(column)`` holds, else right-aligned."""
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(len(head))]

    def line(r: Sequence[str]) -> str:
        cells = [r[i].ljust(w) if left(i) else r[i].rjust(w) for i, w in enumerate(widths)]
        return "  ".join(cells).rstrip()

    return [line(head), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]
