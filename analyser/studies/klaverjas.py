"""Study 12, klaverjas (docs/klaverjas.md): how strong must a hand be to play without going
nat?

Players argue about the least hand that may name trump. Here: uniform deals of the 32-card
pack; seat 1 (North, left of the dealer) names trump in the suit where his hand holds the
most trump points (KJ-04; ties: the longer suit, then the lower suit index) and leads, and
one double-dummy test per deal decides whether North-South avoid nat (D > 0, KJ-10;
analyser.games.klaverjas.solver). Each deal is classed by the trump maker's own hand: his
trumps, and which of the two top trumps (J, 9) he holds. Reported: P(not nat) by trump
count and top trumps, with 95% intervals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.games.klaverjas import solver
from analyser.games.klaverjas.rules import JACK, NINE, VARIANTS
from analyser.progress import Progress
from analyser.studies.common import pooled
from analyser.studies.config import StudyConfig, int_in
from analyser.studies.solve import COUNTERS

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult


def _variant(v) -> str | None:
    return None if str(v) in VARIANTS else f"must be one of {', '.join(VARIANTS)}, got {v!r}"


# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = "the cut_only model is Rikken's deal (R-DEAL-06) of 52 cards; klaverjas deals 32"
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {"deals": int_in(1, 10_000_000), "variant": _variant}

NORTH = 0
TOPS = ("neither", "9 only", "J only", "J and 9")  # the maker's top trumps, by 2*J + 9
MIN_TRUMPS_SHOWN, MAX_TRUMPS_SHOWN = 1, 5


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """One row per deal index (the deals themselves come from the seed in solve_hands)."""
    n = cfg["deals"]
    return pd.DataFrame({"hand_id": np.arange(n, dtype=np.int64)})


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One null-window test per deal."""
    return len(hands)


def uniform_deals(n: int, seed: int, start: int = 0) -> np.ndarray:
    """``int64[n, 4]`` hand masks of uniform 32-card deals; deal ``start + i`` comes from the
    generator seeded with ``[seed, start + i]`` (so a chunk's deals do not depend on the
    chunking)."""
    out = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        perm = np.random.default_rng([seed, start + i]).permutation(32)
        for s in range(4):
            out[i, s] = sum(1 << int(c) for c in perm[8 * s : 8 * s + 8])
    return out


def maker_trump(hand: int, trump_points: tuple[int, ...]) -> int:
    """The suit in which ``hand`` (a 32-card mask) holds the most trump points; ties: the
    longer suit, then the lower index."""

    def strength(s: int) -> tuple[int, int, int]:
        h = (hand >> (8 * s)) & 0xFF
        pts = sum(p for r, p in enumerate(trump_points) if (h >> r) & 1)
        return pts, bin(h).count("1"), -s

    return max(range(4), key=strength)


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per deal: North's trump, his holding in it, and whether North-South avoid nat."""
    rules = VARIANTS[str(cfg["variant"])]
    tables, params = rules.tables(), rules.params()
    tt, moves, stats = solver.workspace()
    start = int(hands["hand_id"].iloc[0])
    deals = uniform_deals(len(hands), cfg["seed"], start=start)
    trick = np.zeros(4, np.int64)
    rows = []
    for i in range(len(hands)):
        north = int(deals[i, NORTH])
        trump = maker_trump(north, rules.trump_points)
        g = solver.search_window(
            deals[i], trick, 0, NORTH, 0, trump, 0, 0, 1, tables, params, tt, moves, stats
        )
        h = (north >> (8 * trump)) & 0xFF
        rows.append({
            "hand_id": start + i, "trump": trump, "trumps": bin(h).count("1"),
            "jack": (h >> JACK) & 1, "nine": (h >> NINE) & 1,
            "trump_points": sum(p for r, p in enumerate(rules.trump_points) if (h >> r) & 1),
            "made": int(g > 0), "deals": 1,
        })  # fmt: skip
        if progress is not None:
            progress.advance()
    COUNTERS["positions"] += len(hands)
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """P(not nat) by the maker's trump count, and by trump count and top trumps."""
    d = df.assign(
        count=df["trumps"].clip(MIN_TRUMPS_SHOWN, MAX_TRUMPS_SHOWN),
        tops=[TOPS[2 * int(j) + int(n)] for j, n in zip(df["jack"], df["nine"], strict=True)],
    )
    return {"by_trumps": pooled(d, ["count"]), "by_tops": pooled(d, ["tops", "count"])}


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """No guideline of the book is scored here."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 12, klaverjas (docs/klaverjas.md). Uniform deals of the 32-card pack; seat 1 "
    "(North) names trump in the suit where he holds the most trump points and leads, and "
    "North-South's result is solved double-dummy: do they avoid nat (more than half of all "
    "points, KJ-10)? The deals are classed by the trump maker's trumps and his top trumps "
    "(J, 9)."
)


METHOD_NOTE = (
    "Seats: North (seat 1, left of the dealer West) names trump and leads; North-South are the "
    "playing team. Klaverjas figures are double-dummy (every hand visible, best play by both "
    "sides), exact in card points and roem."
)

MIN_CELL = 20  # deals a cell needs before the reading relies on it


def _first_safe(cells: pd.DataFrame, level: float = 0.75) -> int | None:
    """The least trump count from which every cell of at least MIN_CELL deals avoids nat
    with probability ``level`` or more (None: no such count)."""
    big = cells[cells.deals >= MIN_CELL].sort_values("count")
    first = None
    for count, p in zip(big["count"], big["p"], strict=True):
        if p >= level:
            first = int(count) if first is None else first
        else:
            first = None
    return first


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its chart, tables and reading (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, bar_series, charts, pct, table_block

    t = res.tables
    by_tops = t["by_tops"]
    labels = [str(k) for k in range(MIN_TRUMPS_SHOWN, MAX_TRUMPS_SHOWN + 1)]
    series = {f"{top}": bar_series(by_tops[by_tops.tops == top], "count", labels) for top in TOPS}
    png = charts.paired_bars(
        [f"{k}{'+' if k == str(MAX_TRUMPS_SHOWN) else ''}" for k in labels],
        series,
        folder / "klaverjas_not_nat.png",
        title="Klaverjas: P(not nat) by the trump maker's trumps and top trumps (double-dummy)",
        xlabel="trumps in the trump maker's hand",
        ylabel="P(not nat)",
    )
    by_trumps = t["by_trumps"]
    first = _first_safe(by_trumps)
    first_both = _first_safe(by_tops[by_tops.tops == TOPS[3]])
    reading = (
        f"Under {res.cfg['variant']} rules ({res.cfg['deals']} deals), the trump maker's team "
        f"avoids nat three times in four (cells of at least {MIN_CELL} deals) "
        + (f"from {first} trumps on" if first is not None else "at no trump count")
        + (
            f", and holding both the J and the 9 from {first_both} trumps"
            if first_both is not None
            else ""
        )
        + ". Overall "
        + pct(float(res.table["made"].mean()))
        + " of the deals are not nat. Double-dummy: both sides see every card, and seat 1 "
        "must name a trump on every deal (Amsterdam), so weak hands play too."
    )
    return [
        Block("How strong must a klaverjas hand be to play without going nat?", reading, png=png),
        table_block("P(not nat) by trumps", by_trumps, folder, "klaverjas_by_trumps"),
        table_block("P(not nat) by top trumps and trumps", by_tops, folder, "klaverjas_by_tops"),
    ]
