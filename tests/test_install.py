"""A plain (not editable) install is the whole tool: the wheel carries the default studies
and the single-dummy calibration, and the installed `rikken` finds them from any folder.

The test builds the wheel from a copy of the sources, installs it into a fresh venv and runs
the installed command in an empty folder. The venv reuses this environment's packages
(numpy, numba, pandas, ...) through a .pth file pointing at a folder of links to them — all
but this project's own editable install, so the only `analyser` the venv can import is the
wheel's. numba's cache of the solver is copied beside the installed modules (its entries are
keyed on the sources' hash, not their path), so the run loads the solver instead of
compiling it for minutes.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
RIK_HAND = "♠AHV1098 ♥104 ♦A10 ♣752"  # a rik hand of the calibrated panel
# what the wheel is built from (tests/, docs/ and reports/ are not part of the package)
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "analyser", "sims", "data")
# this project's own install in the current environment, hidden from the new venv
OWN = ("__editable__", "rikken_analyser", "analyser")


def _copy_sources(dest: pathlib.Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "bundled", "*.parquet", "cache", "*.nb?")
    dest.mkdir()
    for name in SOURCES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=skip)
        else:
            shutil.copy2(src, dest / name)


def _shared_packages(dest: pathlib.Path) -> pathlib.Path:
    """A folder of links to this environment's installed packages, without this project."""
    dest.mkdir()
    site = pathlib.Path(sysconfig.get_paths()["purelib"])
    for entry in site.iterdir():
        if entry.name.startswith(OWN) or entry.suffix == ".pth":
            continue
        (dest / entry.name).symlink_to(entry)
    return dest


def _copy_numba_cache(installed: pathlib.Path) -> int:
    """Copy numba's cache of the solver's modules (warmed here first) beside the installed
    copies of those modules; returns the number of files copied."""
    from analyser.cli.warmup import entry_points, warm
    from analyser.numba_cache import cache_dir

    warm()
    copied = 0
    for dispatcher in entry_points():
        module = sys.modules[dispatcher.py_func.__module__]
        rel = pathlib.Path(module.__file__).resolve().parent.relative_to(REPO / "analyser")
        target = installed / rel / "__pycache__"
        target.mkdir(parents=True, exist_ok=True)
        for f in cache_dir(dispatcher).iterdir():
            if f.suffix in (".nbi", ".nbc") and not (target / f.name).exists():
                shutil.copy2(f, target / f.name)
                copied += 1
    return copied


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv's bin folder, environment, empty working folder) of a fresh install."""
    root = tmp_path_factory.mktemp("install")
    src = root / "src"
    _copy_sources(src)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        + ["-w", str(root / "wheel"), str(src)],
        check=True,
        capture_output=True,
        cwd=root,
    )
    (wheel,) = (root / "wheel").glob("rikken_analyser-*.whl")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (pathlib.Path(site) / "shared.pth").write_text(f"{_shared_packages(root / 'shared')}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NUMBA_"))}
    env["PATH"] = f"{venv / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}"
    env.pop("VIRTUAL_ENV", None)
    work = root / "work"
    work.mkdir()
    subprocess.run(
        [py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        env=env,
        cwd=work,
    )
    assert _copy_numba_cache(pathlib.Path(site) / "analyser") > 0
    return venv / "bin", env, work


def _run(installed, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    bin_dir, env, work = installed
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
        timeout=timeout,
    )


def test_the_venv_imports_the_installed_wheel_not_the_source_tree(installed):
    bin_dir, _, _ = installed
    out = _run(installed, "python", "-c", "import analyser; print(analyser.__file__)")
    path = pathlib.Path(out.stdout.strip())
    assert path.is_relative_to(bin_dir.parent), out.stdout + out.stderr
    assert not path.is_relative_to(REPO)


def test_installed_analyse_gives_the_real_play_estimate(installed):
    args = ("rikken", "analyse", RIK_HAND, "--deals", "3", "--seed", "11", "--format", "json")
    out = _run(installed, *args)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["real_play_calibration"] is not None
    assert doc["real_play_calibration"]["samples"] > 0


def test_installed_study_list_shows_the_default_studies(installed):
    out = _run(installed, "rikken", "study", "list")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "sims/default.toml: suite" in lines
    assert "sims/full.toml: suite" in lines
    names = {line.split(":")[0] for line in lines}
    for study in ("rik_minimum", "alone", "misere", "piek", "malheur", "klaverjas", "smoke"):
        assert f"sims/{study}.toml" in names


def test_installed_report_finds_the_default_suite_and_writes_outside_the_package(installed):
    bin_dir, env, work = installed
    proc = subprocess.Popen(
        [str(bin_dir / "rikken"), "report"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=work,
    )
    try:
        # the first line names the suite it loaded (every one of its studies parsed); the
        # studies themselves take minutes, so the run is stopped there
        deadline = time.monotonic() + 120
        line = ""
        while time.monotonic() < deadline and "studies of" not in line:
            line = proc.stderr.readline()
            if not line:
                break
    finally:
        proc.kill()
        proc.communicate()
    # as many studies as the checkout's default suite lists (every one found in the wheel)
    from analyser.studies.config import load_suite

    listed = len(load_suite(pathlib.Path(__file__).parents[1] / "sims" / "default.toml").studies)
    assert listed >= 11
    assert line.startswith(f"{listed} studies of "), line
    assert "/analyser/bundled/sims/default.toml" in line
    assert f"results in {work / 'data'}" in line
    assert f"report in {work / 'reports'}" in line


def test_installed_study_run_of_a_shipped_study_writes_to_the_working_folder(installed):
    _, _, work = installed
    out = _run(installed, "rikken", "study", "run", "sims/smoke.toml", "--quiet")
    assert out.returncode == 0, out.stderr
    assert (work / "data" / "smoke.parquet").is_file()
    assert (work / "reports" / "smoke").is_dir()


def test_installed_web_app_serves_its_page_from_the_wheel(installed):
    # the page's files are package data: the installed app finds and serves them
    code = (
        "from starlette.testclient import TestClient; "
        "from analyser.web.app import create_app, static_dir; "
        "c = TestClient(create_app(jobs=1)); "
        "assert c.get('/').status_code == 200 and 'id=\"form\"' in c.get('/').text; "
        "assert c.get('/static/app.js').status_code == 200; "
        "print(static_dir())"
    )
    out = _run(installed, "python", "-c", code)
    assert out.returncode == 0, out.stderr
    assert not pathlib.Path(out.stdout.strip()).is_relative_to(REPO)
    assert _run(installed, "rikken", "serve", "--help").returncode == 0
