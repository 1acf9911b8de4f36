"""Run a study: plan its hands, solve them chunk by chunk (cached), return the tidy table.

Every study module offers the same functions: ``plan(cfg)`` (the hands, cheap and
deterministic), ``cost(cfg, hands)`` (positions to solve), ``solve_hands(cfg, hands,
progress)`` (result rows of one chunk), ``summarise(df, cfg)`` (named tables for the report)
and ``classifiers(df, cfg)`` (classifier scores of its guidelines).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pandas as pd

from analyser.files import check_output_dir
from analyser.progress import Progress
from analyser.studies.cache import StudyCache
from analyser.studies.config import StudyConfig
from analyser.studies.registry import study_module
from analyser.studies.solve import COUNTERS

__all__ = ["StudyResult", "check_outputs", "run_study"]


@dataclass
class StudyResult:
    """A study's table and how it was obtained."""

    cfg: StudyConfig
    table: pd.DataFrame
    from_cache: bool
    seconds: float
    positions: int
    parts_reused: int = 0
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    classifier_rows: list[dict] = field(default_factory=list)


def check_outputs(cfg: StudyConfig, report_dir: bool = True) -> None:
    """Before any solving: refuse (one line, exit 2) a study whose ``data_dir`` (and, with
    ``report_dir``, its report folder) cannot be written; create them when missing."""
    check_output_dir(cfg.data_dir, "data_dir")
    if report_dir:
        check_output_dir(cfg.report_dir, "report_dir")


def run_study(
    cfg: StudyConfig,
    *,
    force: bool = False,
    quiet: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
) -> StudyResult:
    """The study's table: from the cache when these parameters were run before with the same
    code (unless ``force``), else solved chunk by chunk, each finished chunk saved at once.
    ``scheduler`` (a Dask scheduler address) or ``workers`` (a LocalCluster of that many
    processes) solves the chunks as Dask tasks (:mod:`analyser.studies.cluster`); the table
    is the same.

    Cached tables and parts are verified before use (:mod:`~analyser.studies.cache`); one
    that fails is reported on stderr and solved again. ``force`` solves every chunk again but
    keeps the old table until the new one replaces it, so a stopped forced run loses
    nothing. ``data_dir`` is checked before any solving (:func:`check_outputs`)."""
    module = study_module(cfg.kind)
    check_output_dir(cfg.data_dir, "data_dir")
    cache = StudyCache(cfg)
    t0 = time.perf_counter()
    table = None if force else cache.load()
    if table is not None:
        return _finish(module, cfg, table, True, time.perf_counter() - t0, 0, 0)
    hands = module.plan(cfg)
    size = cfg["chunk_hands"]
    chunks = [hands.iloc[a : a + size] for a in range(0, len(hands), size)]
    parts: list[pd.DataFrame | None] = [
        None if force else cache.load_part(i) for i in range(len(chunks))
    ]
    todo = [i for i, p in enumerate(parts) if p is None]
    before = COUNTERS["positions"]
    total = sum(module.cost(cfg, chunks[i]) for i in todo)
    distributed = scheduler is not None or workers is not None
    with Progress(total, cfg.name, quiet=quiet) as progress:
        if distributed:
            from analyser.studies.cluster import solve_on_cluster

            done = solve_on_cluster(cfg, [(i, chunks[i]) for i in todo], scheduler, workers)
            for i, part in done:
                cache.save_part(i, part)
                parts[i] = part
                progress.advance(module.cost(cfg, chunks[i]))
        else:
            for i in todo:
                part = module.solve_hands(cfg, chunks[i], progress)
                cache.save_part(i, part)
                parts[i] = part
    table = pd.concat(parts, ignore_index=True)
    table.insert(0, "study", cfg.name)
    table["study_key"] = cfg.key
    table["version"] = cfg.version
    cache.finish(table)
    # on a cluster the positions were counted in the workers: the plan's count stands in
    solved = total if distributed else COUNTERS["positions"] - before
    return _finish(
        module, cfg, table, False, time.perf_counter() - t0, solved, len(chunks) - len(todo)
    )


def _finish(module, cfg, table, from_cache, seconds, positions, reused) -> StudyResult:
    result = StudyResult(cfg, table, from_cache, seconds, positions, reused)
    result.tables = module.summarise(table, cfg)
    result.classifier_rows = module.classifiers(table, cfg)
    return result
