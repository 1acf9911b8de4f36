"""A guideline study under both deal models: its cells on uniform deals against the same
hands on ``cut_only`` deals (docs/deal_model.md), and where a verdict changes.

A study that takes ``deal_model = "cut_only"`` (its module sets ``CUT_ONLY = True``) declares
``MODEL_CELLS``: a function of its result table giving one row per (cell, hand) with ``made``
and ``deals``, the cells being the guideline's verdicts (a heatmap cell of Study 1, a book
count of Study 2, ...), and ``MODEL_VERDICT`` = (threshold, verdict at or above it, verdict
below it): a cell's verdict is its make-probability against the threshold (by the point
estimate; "clear" when the 95% interval lies on that side too).

:func:`partners` pairs each ``cut_only`` study of a suite with the uniform study of the same
kind, seed, rules and hands (every parameter equal but the name, the deal model, the deals
per hand and the chunk size). :func:`compare` gives per cell both make-probabilities with
cluster intervals over the hands (a hand's deals share that hand), and the paired
difference over the hands the two runs share, with its normal interval.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import pandas as pd

from analyser.stats import cluster_share, mean_half_width, wilson_interval
from analyser.studies.registry import study_module

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Section
    from analyser.studies.runner import StudyResult

# the parameters two runs of one study may differ in and still study the same hands
FREE = ("name", "title", "deal_model", "deals_per_hand", "chunk_hands")


def same_hands(a: StudyResult, b: StudyResult) -> bool:
    """Do ``a`` and ``b`` study the same hands (every parameter equal but :data:`FREE`)?"""
    pa = {k: v for k, v in a.cfg.params.items() if k not in FREE}
    pb = {k: v for k, v in b.cfg.params.items() if k not in FREE}
    return pa == pb


def partners(results: list[StudyResult]) -> list[tuple[StudyResult, StudyResult]]:
    """(uniform, cut_only) pairs of ``results`` that study the same hands."""
    pairs = []
    for cut in results:
        if cut.cfg["deal_model"] != "cut_only":
            continue
        for uni in results:
            if uni.cfg["deal_model"] == "uniform" and same_hands(uni, cut):
                pairs.append((uni, cut))
                break
    return pairs


def compare(uniform: StudyResult, cut: StudyResult) -> pd.DataFrame:
    """Per cell of the study's ``MODEL_CELLS``: hands, deals, p, lo, hi under each model
    (suffixes ``_uniform``, ``_cut_only``; cluster intervals over hands, never narrower than
    the Wilson interval over deals), the paired
    difference ``diff`` (cut_only minus uniform, mean over the shared hands of each hand's
    difference in make-rate) with ``diff_lo``, ``diff_hi``, each model's verdict and
    whether it changes."""
    module = study_module(uniform.cfg.kind)
    threshold, above, below = module.MODEL_VERDICT
    cu = module.MODEL_CELLS(uniform.table)
    cc = module.MODEL_CELLS(cut.table)
    rows = []
    for cell in sorted(dict.fromkeys(cu["cell"]), key=_natural):
        row: dict = {"cell": cell}
        per_hand = {}
        for model, cells in (("uniform", cu), ("cut_only", cc)):
            g = cells[cells["cell"] == cell].groupby("hand_id")[["made", "deals"]].sum()
            g = g[g["deals"] > 0]
            per_hand[model] = g["made"] / g["deals"]
            if len(g):
                p, lo, hi = cluster_share(g["made"].to_numpy(), g["deals"].to_numpy())
                # never narrower than Wilson's over the deals (all made or all failed)
                w_lo, w_hi = wilson_interval(int(g["made"].sum()), int(g["deals"].sum()))
                lo, hi = min(lo, w_lo), max(hi, w_hi)
            else:
                p, lo, hi = math.nan, math.nan, math.nan
            row.update(
                {
                    f"hands_{model}": len(g),
                    f"deals_{model}": int(g["deals"].sum()),
                    f"p_{model}": p,
                    f"lo_{model}": lo,
                    f"hi_{model}": hi,
                    f"verdict_{model}": "" if math.isnan(p) else above if p >= threshold else below,
                    f"clear_{model}": bool(lo >= threshold or hi < threshold),
                }
            )
        d = (per_hand["cut_only"] - per_hand["uniform"]).dropna().to_numpy()
        mean = float(d.mean()) if d.size else math.nan
        half = mean_half_width(d)
        row.update({"paired_hands": int(d.size), "diff": mean})
        row.update({"diff_lo": mean - half, "diff_hi": mean + half})
        row["changes"] = bool(
            row["verdict_uniform"] and row["verdict_cut_only"]
            and row["verdict_uniform"] != row["verdict_cut_only"]
        )  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)


def _natural(label: str) -> list:
    """Sort key: the numbers in a cell label compared as numbers."""
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", label)]


def _fig(p: float, lo: float, hi: float) -> str:
    if math.isnan(p):
        return "no deals"
    return f"{100 * p:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"


def changes_text(uniform: StudyResult, cut: StudyResult, table: pd.DataFrame) -> str:
    """The reading: which cells' verdicts change, with both figures and the difference."""
    threshold, above, below = study_module(uniform.cfg.kind).MODEL_VERDICT
    sizes = (
        f"uniform {uniform.cfg['deals_per_hand']} deals per hand, cut_only "
        f"{cut.cfg['deals_per_hand']}, the same hands"
    )
    moved = table[table["changes"]]
    head = (
        f"Verdict: '{above}' when P(make) is at least {100 * threshold:.0f}%, else '{below}' "
        f"({sizes}; 95% cluster intervals over hands). "
    )
    if moved.empty:
        return head + f"No cell's verdict changes between the models (of {len(table)} cells)."
    parts = []
    for _, r in moved.iterrows():
        clear = (
            "both intervals on their side of the threshold"
            if r["clear_uniform"] and r["clear_cut_only"]
            else "an interval reaches the threshold"
        )
        parts.append(
            f"{r['cell']}: {r['verdict_uniform']} at "
            f"{_fig(r['p_uniform'], r['lo_uniform'], r['hi_uniform'])} uniform, "
            f"{r['verdict_cut_only']} at "
            f"{_fig(r['p_cut_only'], r['lo_cut_only'], r['hi_cut_only'])} cut_only "
            f"(per hand {100 * r['diff']:+.0f} points, {100 * r['diff_lo']:+.0f} to "
            f"{100 * r['diff_hi']:+.0f}; {clear})"
        )
    return (
        head + f"{len(moved)} of {len(table)} cells change their verdict: " + "; ".join(parts) + "."
    )


def classifier_table(uniform: StudyResult, cut: StudyResult) -> pd.DataFrame:
    """The study's classifier scores (bid / pass shares, Wilson) under both models."""
    a = pd.DataFrame(uniform.classifier_rows)
    b = pd.DataFrame(cut.classifier_rows)
    if a.empty or b.empty:
        return pd.DataFrame()
    keys = [c for c in ("guideline", "contract", "seat", "says") if c in a]
    cols = ["hands", "deals", "p", "lo", "hi"]
    return a[keys + cols].merge(b[keys + cols], on=keys, suffixes=("_uniform", "_cut_only"))


def section(uniform: StudyResult, cut: StudyResult, report_dir: pathlib.Path) -> Section:
    """The report section comparing the two runs (tables written under ``report_dir``)."""
    from analyser.report.blocks import table_block
    from analyser.report.model import Section

    folder = report_dir / cut.cfg.name
    table = compare(uniform, cut)
    shown = table.copy()
    for c in shown.columns:
        if c.startswith(("p_", "lo_", "hi_", "diff")) and shown[c].dtype.kind == "f":
            shown[c] = shown[c].round(3)
    blocks = [
        table_block(
            "Cells under both deal models",
            shown,
            folder,
            "deal_models",
            reading=changes_text(uniform, cut, table),
        )
    ]
    scores = classifier_table(uniform, cut)
    if not scores.empty:
        blocks.append(
            table_block(
                "Classifier scores under both deal models",
                scores.round(3),
                folder,
                "classifiers_deal_models",
                reading="Of the hands each guideline says to bid, the share of deals made; of "
                "those it says to pass, the share that would have made (95% Wilson over "
                "deals), on uniform and on cut_only deals of the same hands.",
            )
        )
    return Section(
        name=cut.cfg.name,
        title=f"{uniform.cfg['title']}: uniform against cut_only deals",
        intro=(
            f"The hands of {uniform.cfg.name} solved on deals as a table that does not "
            "shuffle deals them around each hand (deal_model = cut_only, docs/deal_model.md), "
            "against the uniform deals of the section above. Double-dummy on both."
        ),
        params=(
            f"Study files {uniform.cfg.path.name} (uniform, {uniform.cfg['deals_per_hand']} "
            f"deals per hand) and {cut.cfg.path.name} (cut_only, {cut.cfg['deals_per_hand']} "
            f"deals per hand; cache key {cut.cfg.key}); seed {cut.cfg['seed']}."
        ),
        blocks=blocks,
    )
