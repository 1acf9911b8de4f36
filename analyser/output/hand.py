"""Output of ``rikken hand``: a hand's shape and HIGH cards as a table, JSON or CSV.

JSON (``--format json``): one object, stable across versions; its schema, with every field
described, is ``docs/schemas/hand.schema.json``. CSV: a header and one row,
``hand,pbn,lengths,shape,high,high_total,aces``, the list fields written with dashes
(``6-2-2-3``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from analyser.cards import (
    ACE,
    HIGH_MIN_RANK,
    N_SUITS,
    RANK_CHARS_EN,
    RANK_CHARS_NL,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    rank_of,
    suit_of,
)
from analyser.notation import format_hand, format_hand_pbn
from analyser.output.format import Renderer


@dataclass
class HandResult:
    """What ``rikken hand`` prints: a validated hand (card ints)."""

    cards: list[int]


def _dashed(values: list[int]) -> str:
    return "-".join(str(v) for v in values)


def describe_hand(cards: list[int], lang: str = "nl") -> dict:
    """The facts ``rikken hand`` shows about a (validated) hand, keyed as in its JSON output."""
    rank_chars = RANK_CHARS_NL if lang == "nl" else RANK_CHARS_EN
    suits = []
    for s in range(N_SUITS):
        ranks = sorted((rank_of(c) for c in cards if suit_of(c) == s), reverse=True)
        suits.append(
            {
                "suit": SUIT_LETTERS[s],
                "symbol": SUIT_SYMBOLS[s],
                "cards": "".join(rank_chars[r] for r in ranks),
                "length": len(ranks),
                "high": sum(r >= HIGH_MIN_RANK for r in ranks),
            }
        )
    lengths = [entry["length"] for entry in suits]
    high = [entry["high"] for entry in suits]
    return {
        "hand": format_hand(cards, lang),
        "pbn": format_hand_pbn(cards),
        "lang": lang,
        "cards": sorted(cards),
        "suits": suits,
        "lengths": lengths,
        "shape": sorted(lengths, reverse=True),
        "high": high,
        "high_total": sum(high),
        "aces": sum(rank_of(c) == ACE for c in cards),
    }


def to_json(result: HandResult, lang: str = "nl") -> dict:
    """The JSON object (:func:`describe_hand`)."""
    return describe_hand(result.cards, lang)


def render_table(result: HandResult, lang: str = "nl") -> str:
    """The table: the hand, its suits with their length and HIGH cards, shape and aces."""
    info = describe_hand(result.cards, lang)
    high_names = "A H V B 10" if info["lang"] == "nl" else "A K Q J 10"
    lines = [
        f"hand     {info['hand']}",
        f"pbn      {info['pbn']}",
        "",
        f"{'suit':<6}{'cards':<15}{'length':>6}{'HIGH':>6}",
    ]
    for entry in info["suits"]:
        lines.append(
            f"{entry['symbol']:<6}{entry['cards'] or '-':<15}{entry['length']:>6}{entry['high']:>6}"
        )
    lines += [
        "",
        f"lengths  {_dashed(info['lengths'])}  (♠-♥-♦-♣)",
        f"shape    {_dashed(info['shape'])}",
        f"HIGH     {info['high_total']}  (cards of 10 or higher: {high_names})",
        f"aces     {info['aces']}",
    ]
    return "\n".join(lines)


def render_csv(result: HandResult, lang: str = "nl") -> str:
    """CSV text: the header and the hand's row."""
    info = describe_hand(result.cards, lang)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["hand", "pbn", "lengths", "shape", "high", "high_total", "aces"])
    writer.writerow(
        [
            info["hand"],
            info["pbn"],
            _dashed(info["lengths"]),
            _dashed(info["shape"]),
            _dashed(info["high"]),
            info["high_total"],
            info["aces"],
        ]
    )
    return out.getvalue()


RENDERER = Renderer("rikken hand", to_json, render_table, render_csv)
