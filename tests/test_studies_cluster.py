"""Studies on Dask (analyser.studies.cluster): a small study solved on a 2-worker LocalCluster
gives the same table as in process, and finished chunks go to the same cache."""

from __future__ import annotations

import pathlib

import pandas as pd
import pytest

from analyser.errors import RikkenError
from analyser.studies import load_study, run_study
from analyser.studies.cache import StudyCache

SIMS = pathlib.Path(__file__).resolve().parent.parent / "sims"


def _tiny_malheur(tmp_path: pathlib.Path, name: str) -> pathlib.Path:
    text = (SIMS / "malheur.toml").read_text()
    text = text.replace("hands = 120", "hands = 6").replace("chunk_hands = 20", "chunk_hands = 2")
    text = text.replace('name = "malheur"', f'name = "{name}"')
    path = tmp_path / f"{name}.toml"
    path.write_text(text + f'\ndata_dir = "{tmp_path}"\nreport_dir = "{tmp_path}"\n')
    return path


def test_a_local_cluster_gives_the_in_process_table(tmp_path):
    here = run_study(load_study(_tiny_malheur(tmp_path, "here")), quiet=True)
    cfg = load_study(_tiny_malheur(tmp_path, "there"))
    there = run_study(cfg, quiet=True, workers=2)
    assert not there.from_cache and there.positions > 0
    cols = [c for c in here.table.columns if c not in ("study", "study_key")]  # its name
    pd.testing.assert_frame_equal(here.table[cols], there.table[cols])
    # the chunks went to the study's cache: a rerun loads it without solving
    assert StudyCache(cfg).load() is not None
    assert run_study(cfg, quiet=True, workers=2).from_cache


def test_scheduler_and_workers_exclude_each_other(tmp_path):
    cfg = load_study(_tiny_malheur(tmp_path, "both"))
    with pytest.raises(RikkenError, match="not both"):
        run_study(cfg, quiet=True, workers=2, scheduler="tcp://127.0.0.1:1")


def test_workers_on_one_machine_share_its_cores():
    from analyser.solver.api import PositionError, default_threads, set_default_threads
    from analyser.studies.cluster import worker_threads

    assert worker_threads(2, 2) == 1
    assert worker_threads(16, 3) == 5
    assert worker_threads(2, 8) == 1
    assert worker_threads(8, 1) == 8
    try:
        set_default_threads(3)
        assert default_threads() == 3
        with pytest.raises(PositionError, match="at least 1"):
            set_default_threads(0)
    finally:
        set_default_threads(None)
    assert default_threads() >= 1
