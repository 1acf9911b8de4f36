"""The study cache key follows the study's code: an edit to the code it runs misses the cache."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from analyser.studies import codehash, load_study
from analyser.studies.cache import StudyCache, _atomic_write, read_meta
from analyser.studies.codehash import PACKAGE_DIR, code_files, code_hash
from analyser.studies.registry import study_kinds

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
MALHEUR = study_kinds()["malheur"]


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory) -> pathlib.Path:
    """A copy of the analyser package's sources, to edit."""
    root = tmp_path_factory.mktemp("src") / "analyser"
    shutil.copytree(PACKAGE_DIR, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def rel(files, root: pathlib.Path = PACKAGE_DIR) -> set[str]:
    """Paths relative to the package folder ``root``."""
    return {f.relative_to(root).as_posix() for f in files}


def test_hashed_files_cover_the_study_and_what_it_runs():
    for kind, module in study_kinds().items():
        files = rel(code_files(module))
        assert f"studies/{kind}.py" in files
        if kind == "deal_model":  # the deal model deals and tests hands, it solves nothing
            assert "deal_model.py" in files
        elif kind == "whist":  # whist deals uniformly and scores by its own rules
            assert {"games/whist.py", "studies/solve.py"} <= files
        elif kind == "piket":  # piket deals its 32 cards and solves with its own solver
            assert {"games/piket/solver.py", "games/piket/declarations.py"} <= files
        elif kind == "klaverjas":  # klaverjas deals its 32 cards and has its own solver
            assert {"games/klaverjas/rules.py", "games/klaverjas/solver.py"} <= files
        else:
            assert {"studies/common.py", "studies/solve.py", "studies/hands.py"} <= files
        assert {"sampler.py", "cards.py"} <= files
        # the guideline studies run the book's guidelines; wiezen_ask runs the meegaan model
        extra = {"wiezen_ask": "analysis/wiezen.py", "whist": "games/whist.py"}
        extra["piket"] = "games/piket/rules.py"
        extra["klaverjas"] = "games/klaverjas/solver.py"
        assert extra.get(kind, "guidelines/__init__.py") in files
        assert rel(PACKAGE_DIR.glob("rules/*.py")) <= files
        assert rel(PACKAGE_DIR.glob("solver/*.py")) <= files
        # another study's module, the report and the CLI are not what this study runs
        assert not any(f.startswith(("report/", "cli/")) for f in files)
    assert "studies/misere.py" in rel(code_files(study_kinds()["piek"]))  # piek imports it
    assert "studies/piek.py" not in rel(code_files(MALHEUR))


def test_same_code_same_hash_wherever_the_package_lies(package_copy):
    assert code_hash(MALHEUR, package_copy) == code_hash(MALHEUR)


@pytest.mark.parametrize(
    "edited",
    [
        "studies/malheur.py",  # the study's own module
        "studies/common.py",  # what it imports from analyser.studies
        "guidelines/malheur.py",  # imported through the guidelines package
        "sampler.py",
        "rules/scoring.py",
        "solver/__init__.py",
    ],
)
def test_an_edit_to_the_code_changes_the_hash(package_copy, edited):
    path = package_copy / edited
    before = code_hash(MALHEUR, package_copy)
    original = path.read_bytes()
    try:
        path.write_bytes(original + b"\n# an edit\n")
        assert code_hash(MALHEUR, package_copy) != before
    finally:
        path.write_bytes(original)
    assert code_hash(MALHEUR, package_copy) == before


def test_every_solver_file_counts(package_copy):
    before = code_hash(MALHEUR, package_copy)
    for path in sorted((package_copy / "solver").glob("*.py")):
        original = path.read_bytes()
        path.write_bytes(original + b"\n# an edit\n")
        try:
            assert code_hash(MALHEUR, package_copy) != before, path.name
        finally:
            path.write_bytes(original)


def test_an_edit_elsewhere_keeps_the_hash(package_copy):
    path = package_copy / "report" / "charts.py"
    before = code_hash(MALHEUR, package_copy)
    original = path.read_bytes()
    try:
        path.write_bytes(original + b"\n# an edit\n")
        assert code_hash(MALHEUR, package_copy) == before
    finally:
        path.write_bytes(original)


def test_a_new_import_is_followed(package_copy):
    path = package_copy / "studies" / "malheur.py"
    original = path.read_bytes()
    assert "report/charts.py" not in rel(code_files(MALHEUR, package_copy), package_copy)
    try:
        path.write_bytes(original + b"\n\ndef f():\n    from analyser.report import charts\n")
        files = rel(code_files(MALHEUR, package_copy), package_copy)
        assert {"report/charts.py", "report/__init__.py"} <= files
    finally:
        path.write_bytes(original)


def test_an_edit_to_the_study_module_changes_the_cache_key(monkeypatch):
    cfg = load_study(SIMS / "malheur.toml")
    study_file = PACKAGE_DIR / "studies" / "malheur.py"
    real = codehash.read_source

    def edited(path):
        data = real(path)
        return data + b"\n# an edit\n" if path == study_file else data

    monkeypatch.setattr(codehash, "read_source", edited)
    again = load_study(SIMS / "malheur.toml")
    assert again.params == cfg.params
    assert again.code != cfg.code and again.key != cfg.key
    assert StudyCache(again).parts_dir != StudyCache(cfg).parts_dir  # resume is keyed too
    # the other studies do not run the malheur module: their keys stay
    misere = load_study(SIMS / "misere.toml")
    monkeypatch.setattr(codehash, "read_source", real)
    assert load_study(SIMS / "misere.toml").key == misere.key


def test_same_code_same_key_in_another_process():
    script = (
        "from analyser.studies import load_study; "
        f"c = load_study({str(SIMS / 'malheur.toml')!r}); print(c.code, c.key)"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    cfg = load_study(SIMS / "malheur.toml")
    assert out.stdout.split() == [cfg.code, cfg.key]


def test_a_table_made_by_other_code_is_not_loaded(tmp_path):
    cfg = load_study(SIMS / "malheur.toml")
    cfg = type(cfg)(cfg.path, cfg.params, tmp_path / "data", tmp_path / "reports")
    table = pd.DataFrame({"hand_id": [0, 1], "made": [1, 2]})
    old = type(cfg)(cfg.path, cfg.params, cfg.data_dir, cfg.report_dir, code="0" * 64)
    assert old.key != cfg.key
    StudyCache(old).finish(table)
    meta = read_meta(cfg.data_dir / "malheur.parquet")
    assert meta["code"] == "0" * 64 and meta["params"] == dict(cfg.params)
    assert StudyCache(old).load() is not None
    assert StudyCache(cfg).load() is None  # same parameters, other code: solve again
    StudyCache(cfg).finish(table)
    assert read_meta(cfg.data_dir / "malheur.parquet")["code"] == cfg.code
    pd.testing.assert_frame_equal(StudyCache(cfg).load(), table)


def test_a_table_whose_key_matches_but_code_does_not_is_not_loaded(tmp_path):
    """The recorded code hash is checked on its own as well (belt and braces)."""
    cfg = load_study(SIMS / "malheur.toml")
    cfg = type(cfg)(cfg.path, cfg.params, tmp_path / "data", tmp_path / "reports")
    cache = StudyCache(cfg)
    cache.finish(pd.DataFrame({"x": [1]}))
    meta = {**cache.meta(), "code": "f" * 64}
    _atomic_write(pd.DataFrame({"x": [1]}), cache.table_path, meta)
    assert cache.load() is None


def test_an_edit_to_the_report_part_keeps_the_hash(package_copy):
    # report_blocks and INTRO build the section, not the results: editing them never
    # re-solves; an edit to the study's results code still does
    path = package_copy / "studies" / "malheur.py"
    original = path.read_text()
    before = code_hash(MALHEUR, package_copy)
    try:
        text = original.replace('"Study 5. North holds', '"Study 5 (edited). North holds')
        text = text.replace("def report_blocks(res", "def report_blocks(res")  # same name
        text = text.replace(
            "from analyser.report.blocks import", "x = 1\n    from analyser.report.blocks import"
        )
        assert text != original
        path.write_text(text)
        assert code_hash(MALHEUR, package_copy) == before
        path.write_text(text.replace("def plan(cfg", "def plan(cfg", 1) + "\nY = 2\n")
        assert code_hash(MALHEUR, package_copy) != before
    finally:
        path.write_text(original)


def test_an_edit_to_the_summary_keeps_the_hash(package_copy):
    # summarise and classifiers read the solved table (after a solve or a load): the cached
    # table does not depend on them, so a refit never re-solves; plan and solve_hands still do
    path = package_copy / "studies" / "real_play.py"
    original = path.read_text()
    study = study_kinds()["real_play"]
    before = code_hash(study, package_copy)
    try:
        text = original.replace(
            "    from analyser.studies.real_play_fit import summary\n",
            "    from analyser.studies.real_play_fit import summary\n"
            "    from analyser import stats\n",
        )
        assert text != original
        path.write_text(text)
        assert code_hash(study, package_copy) == before
        path.write_text(original.replace("AUCTION_DRAWS = 64", "AUCTION_DRAWS = 65"))
        assert code_hash(study, package_copy) != before
    finally:
        path.write_text(original)
