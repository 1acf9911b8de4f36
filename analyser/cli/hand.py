"""`rikken hand`: read one hand, check it, and show its shape and HIGH cards.

The output (table, JSON, CSV) is :mod:`analyser.output.hand`'s; the JSON schema is
``docs/schemas/hand.schema.json``.
"""

from __future__ import annotations

import click

from analyser.cli.common import common_options, user_errors
from analyser.notation import parse_hand
from analyser.output import emit
from analyser.output.hand import HandResult


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
    emit(HandResult(parse_hand(" ".join(hand))), fmt, lang)
