"""`rikken warm-up` and the compile notice (analyser/cli/warmup.py): a fresh numba cache is
detected as cold, a cache holding the solver as warm, and a command that has to compile says
so on stderr before it starts."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyser.cli import main, warmup
from analyser.numba_cache import cache_dir

REPO = pathlib.Path(__file__).resolve().parent.parent
PROBE = """
from analyser.cli.warmup import entry_points, solver_is_compiled
from analyser.numba_cache import cache_dir
print(solver_is_compiled())
for d in entry_points():
    print(cache_dir(d))
"""


def _env(cache: pathlib.Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(REPO), NUMBA_CACHE_DIR=str(cache))
    env.pop(warmup.NO_NOTICE_ENV, None)
    return env


def _probe(cache: pathlib.Path) -> tuple[bool, list[pathlib.Path]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=_env(cache), check=True
    ).stdout.split("\n")
    return out[0] == "True", [pathlib.Path(line) for line in out[1:] if line]


def test_a_fresh_cache_is_cold_and_one_holding_the_solver_is_warm(tmp_path):
    cold, dirs = _probe(tmp_path / "cache")
    assert cold is False
    # fill the fresh cache with this checkout's compiled solver (warmed here first)
    warmup.warm()
    assert warmup.solver_is_compiled()
    for d, target in zip(warmup.entry_points(), dirs, strict=True):
        target.mkdir(parents=True, exist_ok=True)
        for f in cache_dir(d).glob("*.nb?"):
            shutil.copy2(f, target / f.name)
    assert _probe(tmp_path / "cache")[0] is True


def test_an_index_of_other_sources_is_cold(tmp_path):
    """After an edit to the solver the cache's entries carry another stamp: cold."""
    _, dirs = _probe(tmp_path / "cache")
    warmup.warm()
    for d, target in zip(warmup.entry_points(), dirs, strict=True):
        target.mkdir(parents=True, exist_ok=True)
        # the entry point's own index file (the folder holds its neighbours' too, each
        # stamped with the sources it depends on)
        module = pathlib.Path(d.py_func.__code__.co_filename).stem
        line = d.py_func.__code__.co_firstlineno  # numba names the index by it too
        own = list(cache_dir(d).glob(f"{module}.{d.py_func.__name__}-{line}.*nbi"))
        assert len(own) == 1, own
        for f in own:
            # the index starts with numba's version, then the pickled (stamp, entries)
            shutil.copy2(f, target / f.name)
            data = (target / f.name).read_bytes()
            stamp = d._cache._impl.locator.get_source_stamp()[1].encode()
            assert stamp in data
            (target / f.name).write_bytes(data.replace(stamp, b"0" * len(stamp)))
    assert _probe(tmp_path / "cache")[0] is False


def test_a_command_that_must_compile_says_so_first(monkeypatch):
    monkeypatch.delenv(warmup.NO_NOTICE_ENV, raising=False)
    monkeypatch.setattr(warmup, "solver_is_compiled", lambda: False)
    args = ["analyse", "♠AHV1098 ♥104 ♦A10 ♣752", "--deals", "2", "--quiet", "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [warmup.NOTICE]
    assert result.stdout.startswith("{")


def test_no_notice_when_the_solver_is_compiled(monkeypatch):
    monkeypatch.delenv(warmup.NO_NOTICE_ENV, raising=False)
    warmup.warm()
    args = ["analyse", "♠AHV1098 ♥104 ♦A10 ♣752", "--deals", "2", "--quiet", "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_warm_up_runs_every_step_and_says_how_long():
    result = CliRunner().invoke(main, ["warm-up"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "the solver is compiled already" in lines[0]  # the tests above warmed it
    assert [line.split(":")[0].strip() for line in lines[1:-1]] == [s for s, _ in warmup.STEPS]
    assert lines[-1].startswith("solver loaded in ")


@pytest.mark.slow
def test_warm_up_compiles_a_fresh_cache(tmp_path):
    cache = tmp_path / "cache"
    assert _probe(cache)[0] is False
    out = subprocess.run(
        [sys.executable, "-c", "from analyser.cli import main; main(['warm-up'])"],
        capture_output=True,
        text=True,
        env=_env(cache),
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("compiling the solver into numba's cache in ")
    assert "solver compiled in " in out.stdout
    assert _probe(cache)[0] is True
