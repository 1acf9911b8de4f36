"""The bidding-advice report: every study of a suite, its charts, tables and readings, written
as ``index.html`` (self-contained) and ``index.md`` (charts beside it).

:func:`build_report` runs (or loads from the cache) each study of a suite and writes the
report; :mod:`~analyser.report.sections` turns one study into a section,
:mod:`~analyser.report.charts` draws, :mod:`~analyser.report.writer` writes.
"""

from __future__ import annotations

import pathlib
import time
from dataclasses import dataclass

from analyser.studies.config import SuiteConfig


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
    ``out`` (default: the suite's ``report_dir``). ``log`` receives one line per study."""
    from analyser.report.sections import classifier_section, study_section
    from analyser.report.writer import footer_text, write_html, write_markdown
    from analyser.studies.runner import run_study

    out = pathlib.Path(out) if out is not None else suite.report_dir
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    results, sections, computed, cached = [], [], [], []
    for cfg in suite.studies:
        res = run_study(cfg, force=force, quiet=quiet)
        results.append(res)
        (cached if res.from_cache else computed).append(cfg.name)
        sections.append(study_section(res, out))
        if log is not None:
            how = "cache" if res.from_cache else f"{res.positions} positions solved"
            log(f"{cfg.name}: {len(res.table)} rows ({how}, {res.seconds:.0f} s)")
    sections.append(classifier_section(results, out))
    footer = footer_text(time.perf_counter() - t0, computed, cached)
    html = write_html(sections, out, suite.title, footer)
    md = write_markdown(sections, out, suite.title, footer)
    return ReportFiles(html, md, time.perf_counter() - t0, computed, cached)
