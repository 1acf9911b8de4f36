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


@pytest.mark.parametrize("bad", ["bogus", "", "http://127.0.0.1:8786", "tcp://host", "host:0"])
def test_a_scheduler_address_is_checked_before_dask_sees_it(bad):
    from analyser.studies.cluster import parse_scheduler

    with pytest.raises(RikkenError, match="not a Dask scheduler address"):
        parse_scheduler(bad)


def test_a_scheduler_address_without_protocol_is_tcp():
    from analyser.studies.cluster import parse_scheduler

    assert parse_scheduler("127.0.0.1:8786").address == "tcp://127.0.0.1:8786"
    assert parse_scheduler("tls://[::1]:8786", 5).timeout == 5


def test_a_scheduler_without_workers_stops_after_the_timeout(tmp_path, capsys):
    from distributed import LocalCluster

    from analyser.studies.cluster import Scheduler, solve_on_cluster

    cfg = load_study(_tiny_malheur(tmp_path, "idle"))
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        with pytest.raises(RikkenError, match=f"scheduler at {address} has no worker after 1 s"):
            list(solve_on_cluster(cfg, [], Scheduler(address, 1.0)))
    # meanwhile the run said what it waits for
    assert f"connecting to the Dask scheduler at {address}" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_one_line_naming_it(tmp_path):
    from analyser.studies.cluster import Scheduler, solve_on_cluster

    cfg = load_study(_tiny_malheur(tmp_path, "nowhere"))
    with pytest.raises(
        RikkenError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"
    ) as info:
        list(solve_on_cluster(cfg, [], Scheduler("tcp://127.0.0.1:1", 1.0)))
    assert "\n" not in str(info.value)


def test_study_run_on_an_idle_scheduler_ends_in_one_line_naming_it(tmp_path):
    from click.testing import CliRunner
    from distributed import LocalCluster

    from analyser.cli import main

    sim = _tiny_malheur(tmp_path, "idle_cli")
    idle = LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None
    )
    with idle as cluster:
        address = cluster.scheduler_address
        args = ["study", "run", str(sim), "--quiet", "--scheduler", address]
        result = CliRunner().invoke(main, [*args, "--scheduler-timeout", "1"])
    assert result.exit_code == 2, result.output
    wait, error = result.stderr.splitlines()  # what it waits for, then why it stopped
    assert address in wait and "up to 1 s" in wait
    assert error.startswith("Error: ") and f"scheduler at {address} has no worker" in error
