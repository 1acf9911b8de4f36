"""The bidding-advice report built from the studies: one section per study, the classifier
section over all of them, and the whole report of a suite.

:func:`build_report` runs (or loads from the cache) each study of a suite and writes the
report (a study run on cut_only deals beside the same study on uniform deals shows as their
comparison, :mod:`analyser.studies.model_compare`); :func:`study_section` turns one study
into a section (the study module's own
``report_blocks`` and ``INTRO``, with what every study shares: the node budget's undecided
positions and the parameters). The readings are generated from the study's own numbers (they
quote them), so they cannot contradict the figures they describe. The section types, charts
and writers are :mod:`analyser.report`'s; the charts and writers are imported only when a
section is written, so finding the studies does not load matplotlib.
"""

from __future__ import annotations

import pathlib
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyser.errors import RikkenError
from analyser.files import check_output_dir, keep_folder_elsewhere, os_reason
from analyser.report.model import CAVEAT, SD_CAVEAT, Block, Section, pct
from analyser.studies.config import StudyConfig, SuiteConfig
from analyser.studies.registry import study_module
from analyser.studies.runner import StudyResult, run_study


@dataclass
class ReportFiles:
    """What :func:`build_report` wrote."""

    html: pathlib.Path
    markdown: pathlib.Path
    seconds: float
    computed: list[str]
    cached: list[str]


def build_report(
    suite: SuiteConfig,
    out: pathlib.Path | None = None,
    *,
    force: bool = False,
    quiet: bool = False,
    log=None,
) -> ReportFiles:
    """Run every study of ``suite`` (cached ones are loaded) and write the report into
    ``out`` (default: the suite's ``report_dir``). ``log`` receives one line per study.

    The report folder and every study's ``data_dir`` are checked before any solving (an
    :class:`~analyser.files.OutputPathError` names the first that cannot be written). When
    writing the report fails after all, it is written to a new folder in the system's
    temporary folder and a :class:`~analyser.errors.RikkenError` names it."""
    out = pathlib.Path(out) if out is not None else suite.report_dir
    check_output_dir(out, "report folder")
    for cfg in suite.studies:
        check_output_dir(cfg.data_dir, f"data_dir of {cfg.name}")
    t0 = time.perf_counter()
    results, computed, cached = [], [], []
    for cfg in suite.studies:
        res = run_study(cfg, force=force, quiet=quiet)
        results.append(res)
        (cached if res.from_cache else computed).append(cfg.name)
        if log is not None:
            how = "cache" if res.from_cache else f"{res.positions} positions solved"
            log(f"{cfg.name}: {len(res.table)} rows ({how}, {res.seconds:.0f} s)")
    try:
        html, md = _write_report(suite, results, out, t0, computed, cached)
    except OSError as exc:
        kept = keep_folder_elsewhere("report")
        try:
            html, md = _write_report(suite, results, kept, t0, computed, cached)
        except OSError as again:
            raise RikkenError(
                f"could not write the report to {out} ({os_reason(exc)}) nor to {kept} "
                f"({os_reason(again)}); the study tables are in the cache"
            ) from None
        raise RikkenError(
            f"could not write the report to {out} ({os_reason(exc)}); it was written to "
            f"{html} instead"
        ) from None
    return ReportFiles(html, md, time.perf_counter() - t0, computed, cached)


def _write_report(suite, results, out, t0, computed, cached):
    """Write every section's charts and tables and the two report files into ``out``."""
    from analyser.report.writer import footer_text, write_html, write_markdown
    from analyser.studies import model_compare

    # a cut_only study beside its uniform partner shows as the comparison of the two
    pairs = model_compare.partners(results)
    shown_as_pair = {id(cut) for _, cut in pairs}
    sections = []
    for res in results:
        if id(res) not in shown_as_pair:
            sections.append(study_section(res, out))
        sections += [model_compare.section(u, c, out) for u, c in pairs if u is res]
    uniform = [res for res in results if res.cfg["deal_model"] == "uniform"]
    sections.append(classifier_section(uniform, out))
    footer = footer_text(time.perf_counter() - t0, computed, cached)
    html = write_html(sections, out, suite.title, footer)
    md = write_markdown(sections, out, suite.title, footer)
    return html, md


def write_study_section(
    res: StudyResult, report_dir: pathlib.Path
) -> tuple[Section, pathlib.Path, str]:
    """:func:`study_section` into ``report_dir``; when that cannot be written, into a new
    folder in the system's temporary folder. Returns the section, the folder used and the
    one-line failure ('' when ``report_dir`` was written)."""
    try:
        return study_section(res, report_dir), report_dir, ""
    except OSError as exc:
        kept = keep_folder_elsewhere(res.cfg.name)
        failure = (
            f"could not write the charts and tables to {report_dir / res.cfg.name} "
            f"({os_reason(exc)}); they were written to {kept / res.cfg.name} instead"
        )
        try:
            return study_section(res, kept), kept, failure
        except OSError as again:
            raise RikkenError(
                f"could not write the charts and tables to {report_dir / res.cfg.name} "
                f"({os_reason(exc)}) nor to {kept} ({os_reason(again)}); the "
                "study's table is in the cache"
            ) from None


def budget_block(res: StudyResult) -> Block | None:
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
    budget = budget_block(res)
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
    from analyser.report.blocks import table_block

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
        real = []
        if "p_real" in df:
            wide_real = df.pivot_table(
                index=["guideline", "contract", "seat"], columns="says", values="p_real",
                aggfunc="first",
            ).reset_index()  # fmt: skip
            for _, r in wide_real.iterrows():
                if not np.isnan(r.get("bid", np.nan)):
                    real.append(
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
        if real:
            reading += (
                " Under real play (p_real: each hand's double-dummy rate through the shipped "
                "single-dummy curve of its family where the curve covers it, its double-dummy "
                "rate elsewhere; real_share is the share of deals the curve covered): "
                + "; ".join(real)
                + "."
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
        "95% intervals that count each hand's deals as one cluster (deals of one hand are not "
        "independent), never narrower than the Wilson interval of the deals. Double-dummy "
        "(p, lo, hi) and, where the real-play calibration covers the contract with North "
        "bidding and leading, the same verdict under real play (p_real, lo_real, hi_real).",
        params="Figures from the studies above on uniform deals, with their parameters (the "
        "cut_only scores are in each study's comparison section). p, lo, hi double-dummy; "
        "p_real single-dummy (estimated through the shipped calibration).",
        blocks=blocks,
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
    own = getattr(study_module(kind), "METHOD_NOTE", None)
    if own is not None:
        return own
    return "Seats: the studied hand is North, West deals. " + (
        SD_CAVEAT if kind == "single_dummy" else CAVEAT
    )
