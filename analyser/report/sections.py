"""One report section per study: its charts (PNG), tables (CSV) and readings.

Each study module builds its own section (``report_blocks`` and ``INTRO``, with the pieces of
:mod:`analyser.report.blocks`); this module adds what every study shares (the node budget's
undecided positions, the parameters) and the classifier section over all studies.
The readings are generated from the study's own numbers (they quote them), so they cannot
contradict the figures they describe. :func:`study_section` writes the section's files into
``<report_dir>/<study name>/`` and returns the :class:`~analyser.report.model.Section`.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd

from analyser.report.blocks import table_block
from analyser.report.model import Block, Section, params_text, pct
from analyser.studies.runner import StudyResult, study_module


def _budget_block(res: StudyResult) -> Block | None:
    """What the solver's node budget left undecided (studies with a ``max_nodes`` key)."""
    budget = res.cfg.params.get("max_nodes")
    if not budget or "undecided" not in res.table:
        return None
    df = res.table
    undecided, decided, made = (int(df[c].sum()) for c in ("undecided", "deals", "made"))
    total = undecided + decided
    if undecided == 0:
        text = (
            f"Every one of the {total} solved positions was decided within the solver's node "
            f"budget (max_nodes = {budget:,}): all figures are exact double-dummy results."
        )
    else:
        text = (
            f"{undecided} of {total} positions ({pct(undecided / total)}) needed more than the "
            f"solver's node budget (max_nodes = {budget:,} per search) and were given up. They "
            "are left out of every figure below (each share is over the decided deals), so a "
            "figure could move if they were solved: over all decided deals the make rate is "
            f"{pct(made / decided if decided else np.nan)}; counting every undecided position "
            f"as made would give {pct((made + undecided) / total)}, as failed "
            f"{pct(made / total)}. Long proofs are typically hands that make despite a hole."
        )
    return Block(title="Positions left undecided by the node budget", reading=text)


def study_section(res: StudyResult, report_dir: pathlib.Path) -> Section:
    """Write one study's charts and tables under ``report_dir/<name>/``; return its section."""
    folder = report_dir / res.cfg.name
    module = study_module(res.cfg.kind)
    blocks = module.report_blocks(res, folder)
    budget = _budget_block(res)
    if budget is not None:
        blocks.insert(0, budget)
    if "hand_id" in res.table:
        n_hands = int(res.table["hand_id"].nunique())
    else:  # a study of dealt hands (deal_model): every hand it examined
        n_hands = int(res.table["hands"].sum())
    return Section(
        name=res.cfg.name,
        title=res.cfg["title"],
        intro=module.INTRO,
        params=params_text(res.cfg, n_hands, res.from_cache),
        blocks=blocks,
    )


def classifier_section(results: list[StudyResult], report_dir: pathlib.Path) -> Section:
    """Every classifier guideline scored: share made among 'bid' and among 'pass' hands."""
    rows = [r for res in results for r in res.classifier_rows]
    df = pd.DataFrame(rows)
    blocks = []
    if not df.empty:
        lines = []
        wide = df.pivot_table(
            index=["guideline", "contract", "seat"], columns="says", values="p", aggfunc="first"
        ).reset_index()
        for _, r in wide.iterrows():
            lines.append(
                f"{r['guideline']} ({r['contract']}, {r['seat']}): bid "
                f"{pct(r.get('bid', np.nan))} / pass {pct(r.get('pass', np.nan))}"
            )
        sep = df[df.says == "bid"].set_index(["guideline", "contract", "seat"])["p"]
        pas = df[df.says == "pass"].set_index(["guideline", "contract", "seat"])["p"]
        good = int(((sep - pas) > 0).sum())
        reading = (
            f"{good} of {len(sep)} scored guideline/contract/seat combinations make more often "
            "on the hands they say to bid than on the hands they say to pass. Shares are over "
            "each study's stratified sample, not over random hands, so compare the two columns "
            "with each other rather than with table frequencies. " + "; ".join(lines) + "."
        )
        blocks.append(
            table_block(
                "Classifier scores", df, report_dir / "classifiers", "classifiers", reading=reading
            )
        )
    return Section(
        name="classifiers",
        title="Every classifier guideline scored",
        intro="For each guideline that says bid or pass: of the hands it says to bid, the share "
        "of deals made; of the hands it says to pass, the share that would have made — with "
        "95% Wilson intervals over deals (deals of one hand are not independent, so the "
        "intervals are somewhat narrow when hands are few; the 'hands' column shows how many).",
        params="Figures from the studies above, with their parameters. All double-dummy.",
        blocks=blocks,
    )
