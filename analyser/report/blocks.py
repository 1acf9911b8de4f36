"""What the studies' report sections are built from (each study module's ``report_blocks``):
the charts, blocks, formatting, pooled rows and table blocks, in one import."""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd

from analyser.cards import RANK_CHARS_EN
from analyser.files import atomic_writer
from analyser.report import charts
from analyser.report.model import Block, ci, pct
from analyser.stats import Z95, cluster_interval, wilson_interval

LEADER_LABEL = {
    "N": "N on lead (forehand)",
    "E": "E leads (N plays last)",
    "S": "S leads",
    "W": "W leads (N plays second)",
}

__all__ = [
    "LEADER_LABEL",
    "RANK_CHARS_EN",
    "Block",
    "charts",
    "ci",
    "pct",
    "pool",
    "table_block",
]


def pool(df: pd.DataFrame) -> dict:
    """Pooled made/deals of the rows of a pooled table, with a 95 % interval: the rows are
    cells of different hands (independent), each with its interval (deals clustered within
    hands, :func:`analyser.studies.common.pooled`), so the pooled share's standard error
    combines theirs by the cells' weights; never narrower than the Wilson interval of the
    pooled deals."""
    made, deals = int(df["made"].sum()), int(df["deals"].sum())
    lo, hi = wilson_interval(made, deals)
    if deals and {"lo", "hi"} <= set(df.columns):
        w = df["deals"].to_numpy(float) / deals
        se_cell = (df["hi"].to_numpy(float) - df["lo"].to_numpy(float)) / (2 * Z95)
        se = float(np.sqrt(np.nansum((w * se_cell) ** 2)))
        p = made / deals
        lo, hi = min(lo, max(0.0, p - Z95 * se)), max(hi, min(1.0, p + Z95 * se))
    return {
        "made": made,
        "deals": deals,
        "p": made / deals if deals else np.nan,
        "lo": lo,
        "hi": hi,
    }


def pool_hands(rows: pd.DataFrame, made: str = "made", deals: str = "deals") -> dict:
    """Pooled made/deals of a study's own rows (one per hand and choice, e.g. per leader) with
    the 95 % cluster interval over their hands: rows of the same hand are one cluster, so a
    hand counted under both leaders is not taken as two independent draws."""
    per = rows.groupby("hand_id")[[made, deals]].sum()
    p, lo, hi = cluster_interval(per[made].to_numpy(float), per[deals].to_numpy(float))
    return {"made": int(per[made].sum()), "deals": int(per[deals].sum()), "p": p, "lo": lo,
            "hi": hi}  # fmt: skip


def bar_series(rows: pd.DataFrame, key: str, labels: list[str]) -> tuple[list, list, list]:
    """The (p, lo, hi) lists of one bar series for charts.paired_bars: the rows of a pooled
    table indexed by their ``key`` column, one value per label (0 where no row has it)."""
    g = rows.set_index(key)
    cols = [g.loc[int(k)] if int(k) in g.index else None for k in labels]
    return (
        [float(c.p) if c is not None else 0.0 for c in cols],
        [float(c.lo) if c is not None else 0.0 for c in cols],
        [float(c.hi) if c is not None else 0.0 for c in cols],
    )


def table_block(
    title: str, df: pd.DataFrame, folder: pathlib.Path, stem: str, reading: str = ""
) -> Block:
    """A table written to ``folder/stem.csv`` and shown under ``title``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.csv"
    with atomic_writer(path, "w", encoding="utf-8", newline="") as fh:
        df.to_csv(fh, index=False)
    return Block(title=title, reading=reading, table=df, csv=path)
