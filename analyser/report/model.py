"""The report as data: sections of figures, tables and text, written out by
:mod:`analyser.report.writer`."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

import pandas as pd

CAVEAT = (
    "All figures are double-dummy: every hand visible, best play by both sides. That is "
    "optimistic for rik, malheur and alone bids (the hidden partner and every finesse are "
    "known) and pessimistic for closed misère and piek (the defenders see the player's hand)."
)


@dataclass
class Block:
    """A figure (``png``), a table (``table``) or plain text, with its title and reading."""

    title: str
    reading: str = ""
    png: pathlib.Path | None = None
    table: pd.DataFrame | None = None
    csv: pathlib.Path | None = None


@dataclass
class Section:
    """One study's part of the report."""

    name: str
    title: str
    intro: str
    params: str
    blocks: list[Block] = field(default_factory=list)


SD_CAVEAT = (
    "The double-dummy column sees every hand (best play by both sides); the single-dummy "
    "column is PIMC play from each player's own view, weaker than a good human (no reading of "
    "the others' cards beyond shown-out suits), so real play lies roughly between the two."
)


def pct(x: float) -> str:
    """A probability as a whole percentage ('n/a' for a missing value)."""
    return "n/a" if pd.isna(x) else f"{100 * x:.0f}%"


def ci(row) -> str:
    """'p (95% CI lo–hi, n = deals)' for a row with p, lo, hi, deals."""
    interval = f"95% interval {pct(row['lo'])}–{pct(row['hi'])}"
    return f"{pct(row['p'])} ({interval}, {int(row['deals'])} deals)"
