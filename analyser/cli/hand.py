"""`rikken hand`: read one hand, check it, and show its shape and HIGH cards.

JSON output (``--format json``) is one object with these keys, stable across versions:

* ``hand`` — the hand in the chosen language, e.g. ``"♠AHV1098 ♥104 ♦A10 ♣752"``
* ``pbn`` — dotted PBN, English letters, e.g. ``"AKQT98.T4.AT.752"``
* ``lang`` — ``"nl"`` or ``"en"``
* ``cards`` — the card ints (suit = c // 13, rank = c % 13), ascending
* ``suits`` — four objects in the order ♠ ♥ ♦ ♣, each with ``suit`` (English letter S H D C),
  ``symbol``, ``cards`` (the ranks, highest first, in the chosen language; "" for a void),
  ``length`` and ``high`` (the number of HIGH cards: A K Q J 10)
* ``lengths`` — suit lengths in the order ♠ ♥ ♦ ♣
* ``shape`` — the lengths sorted, longest first
* ``high`` — HIGH cards per suit, ♠ ♥ ♦ ♣; ``high_total`` — their sum
* ``aces`` — the number of aces

CSV output is a header and one row: ``hand,pbn,lengths,shape,high,high_total,aces``, the list
fields written with dashes (``6-2-2-3``).
"""

from __future__ import annotations

import csv
import io

import click

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
from analyser.cli.common import common_options, emit_json, user_errors
from analyser.notation import format_hand, format_hand_pbn, parse_hand


def _dashed(values: list[int]) -> str:
    return "-".join(str(v) for v in values)


def describe_hand(cards: list[int], lang: str) -> dict:
    """The facts `rikken hand` shows about a (validated) hand, keyed as in its JSON output."""
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


def _table(info: dict) -> str:
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


def _csv(info: dict) -> str:
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
    return out.getvalue().rstrip("\n")


@click.command("hand")
@click.argument("hand", nargs=-1, required=True)
@common_options("lang", "format")
@user_errors
def command(hand: tuple[str, ...], lang: str, fmt: str) -> None:
    """Read HAND, check it is a full 13-card hand, and show its shape and HIGH cards.

    HAND may be given in several words without quotes. Forms: symbols '♠AHV1098 ♥104 ♦A10
    ♣752', letters 'S:AKQT98 H:T4 D:AT C:752' (Dutch S H R K), groups 'SAHV1098 H104 RA10
    K752', or dotted PBN 'AKQT98.T4.AT.752'. Ranks A H V B 10..2 (Dutch) or A K Q J T..2.
    HIGH cards are those of 10 or higher.
    """
    info = describe_hand(parse_hand(" ".join(hand)), lang)
    if fmt == "json":
        emit_json(info)
    elif fmt == "csv":
        click.echo(_csv(info))
    else:
        click.echo(_table(info))
