"""The report as data: sections of figures, tables and text, written out by
:mod:`analyser.report.writer`."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

import pandas as pd

from analyser.studies.config import StudyConfig

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


def params_text(cfg: StudyConfig, n_hands: int, from_cache: bool) -> str:
    """The exact parameters, seed and origin of a study's figures."""
    p = ", ".join(f"{k} = {v!r}" for k, v in cfg.params.items())
    origin = "loaded from the cache" if from_cache else "computed in this run"
    return (
        f"Study file {cfg.path.name} ({n_hands} hands; results {origin}; cache key "
        f"{cfg.key}, code hash {cfg.code[:12]}, rikken-analyser {cfg.version}; regenerate with "
        f"`rikken study run sims/{cfg.path.name}`). Parameters: {p}. " + method_note(cfg.kind)
    )


def method_note(kind: str) -> str:
    """Who sits where and how the figures were played, for study ``kind``: the study
    module's ``METHOD_NOTE`` when it has one (the other games of the family), else Rikken's
    seats and the double-dummy caveat."""
    from analyser.studies.registry import study_module

    own = getattr(study_module(kind), "METHOD_NOTE", None)
    if own is not None:
        return own
    return "Seats: the studied hand is North, West deals. " + (
        SD_CAVEAT if kind == "single_dummy" else CAVEAT
    )


def pct(x: float) -> str:
    """A probability as a whole percentage ('n/a' for a missing value)."""
    return "n/a" if pd.isna(x) else f"{100 * x:.0f}%"


def ci(row) -> str:
    """'p (95% CI lo–hi, n = deals)' for a row with p, lo, hi, deals."""
    interval = f"95% interval {pct(row['lo'])}–{pct(row['hi'])}"
    return f"{pct(row['p'])} ({interval}, {int(row['deals'])} deals)"
