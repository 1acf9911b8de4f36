"""Output paths are checked before any solving: `rikken dd --out`, `rikken report --out` and a
study's data_dir and report_dir are refused in one line with exit code 2 when empty, a file,
under a file, or not writable; a missing folder is created. A result that cannot be written
at the end is kept where the message says. Writes are atomic (temporary file, rename)."""

from __future__ import annotations

import os
import pathlib
import re

import pytest
from click.testing import CliRunner

import analyser.solver
from analyser.cli import main
from analyser.files import (
    OutputPathError,
    atomic_writer,
    check_output_dir,
    check_output_file,
)

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
DEAL = "N:AKQT98.T4.AT.752 J7.KQ98.KJ6.KQJ3 543.AJ5.Q987.A96 62.7632.5432.T84"


@pytest.fixture
def no_solving(monkeypatch):
    """Any solving fails the test: the checks must come first."""

    def solving(*args, **kwargs):
        raise AssertionError("solved before the output path was checked")

    monkeypatch.setattr(analyser.solver.Solver, "solve", solving)
    monkeypatch.setattr(analyser.solver, "solve_batch", solving)


def positions_file(tmp_path) -> pathlib.Path:
    path = tmp_path / "positions.csv"
    path.write_text(f"deal,trump,leader,declarer,partner,goal\n{DEAL},S,N,N,,tricks\n")
    return path


def read_only_folder(tmp_path) -> pathlib.Path:
    """A folder nobody may write, or a skip where chmod does not stop this user (root)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        (folder / "probe").write_text("x")
    except OSError:
        return folder
    (folder / "probe").unlink()
    pytest.skip("chmod does not stop this user from writing (root)")


def one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for fragment in fragments:
        assert fragment in errors[0], errors[0]


def bad_folders(tmp_path) -> dict[str, tuple[pathlib.Path, str]]:
    """Folder paths that cannot be written, even by root, with the words of their error."""
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    return {
        "a file": (a_file, "is a file, not a folder"),
        "under a file": (a_file / "sub", "cannot be created"),
    }


def test_the_checks_on_a_folder(tmp_path):
    created = check_output_dir(tmp_path / "new" / "deeper", "--out")
    assert created.is_dir()
    for path, words in bad_folders(tmp_path).values():
        with pytest.raises(OutputPathError, match=words):
            check_output_dir(path, "--out")
    with pytest.raises(OutputPathError, match="empty path"):
        check_output_dir("", "--out")
    with pytest.raises(OutputPathError, match="cannot write there"):
        check_output_dir(read_only_folder(tmp_path), "--out")


def test_the_checks_on_a_file(tmp_path):
    assert check_output_file(tmp_path / "new" / "out.csv", "--out").parent.is_dir()
    with pytest.raises(OutputPathError, match="is a folder"):
        check_output_file(tmp_path, "--out")
    with pytest.raises(OutputPathError, match="empty path"):
        check_output_file("", "--out")
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    with pytest.raises(OutputPathError, match="a_file is a file, not a folder"):
        check_output_file(a_file / "out.csv", "--out")
    with pytest.raises(OutputPathError, match="cannot be created"):
        check_output_file(a_file / "sub" / "out.csv", "--out")


@pytest.mark.parametrize("case", ["empty", "under a file", "read-only"])
def test_dd_out_is_checked_before_solving(tmp_path, no_solving, case):
    if case == "empty":
        out, words = "", "empty path"
    elif case == "under a file":
        (tmp_path / "a_file").write_text("x")
        out, words = str(tmp_path / "a_file" / "r.csv"), "is a file, not a folder"
    else:
        out, words = str(read_only_folder(tmp_path) / "r.csv"), "cannot write there"
    result = CliRunner().invoke(main, ["dd", str(positions_file(tmp_path)), "--out", out])
    one_line_error(result, "--out", words)


def test_dd_out_into_a_missing_folder_creates_it(tmp_path):
    out = tmp_path / "new" / "r.csv"
    result = CliRunner().invoke(main, ["dd", str(positions_file(tmp_path)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("deal,trump,leader,declarer,partner,goal,result,ms\n")
    assert [p.name for p in out.parent.iterdir()] == ["r.csv"]  # no temporary file left


def test_dd_results_that_cannot_be_written_go_to_stdout(tmp_path, monkeypatch):
    from analyser.cli import dd

    def fails(path, text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dd, "write_text_atomic", fails)
    out = tmp_path / "r.csv"
    result = CliRunner().invoke(main, ["dd", str(positions_file(tmp_path)), "--out", str(out)])
    one_line_error(result, "No space left on device", "printed on stdout instead")
    assert result.stdout.startswith("deal,trump,leader,declarer,partner,goal,result,ms\n")
    assert DEAL in result.stdout


def small_study(tmp_path, data_dir: str, report_dir: str) -> pathlib.Path:
    text = (SIMS / "malheur.toml").read_text()
    text = re.sub(r"(?m)^hands = \d+", "hands = 2", text)
    text = re.sub(r"(?m)^deals_per_hand = \d+", "deals_per_hand = 1", text)
    text += f"\ndata_dir = {data_dir!r}\nreport_dir = {report_dir!r}\n"
    path = tmp_path / "m.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("which", ["data_dir", "report_dir"])
@pytest.mark.parametrize("case", ["a file", "under a file", "read-only"])
def test_study_folders_are_checked_before_solving(tmp_path, no_solving, which, case):
    if case == "read-only":
        bad, words = read_only_folder(tmp_path) / "sub", "cannot be created"
    else:
        bad, words = bad_folders(tmp_path)[case]
    dirs = {"data_dir": str(tmp_path / "data"), "report_dir": str(tmp_path / "reports")}
    dirs[which] = str(bad)
    path = small_study(tmp_path, **dirs)
    result = CliRunner().invoke(main, ["study", "run", str(path), "--quiet"])
    one_line_error(result, which, words)
    assert not (tmp_path / "data" / "malheur.parquet").exists()


@pytest.mark.parametrize("case", ["empty", "a file", "under a file", "read-only"])
def test_report_out_is_checked_before_solving(tmp_path, no_solving, case):
    if case == "empty":
        out, words = "", "empty path"
    elif case == "read-only":
        out, words = str(read_only_folder(tmp_path)), "cannot write there"
    else:
        bad, words = bad_folders(tmp_path)[case]
        out, words = str(bad), "is a file" if case == "a file" else words  # click's words
    small_study(tmp_path, "data", "reports")
    suite = tmp_path / "suite.toml"
    suite.write_text('title = "T"\nstudies = ["m.toml"]\n')
    result = CliRunner().invoke(main, ["report", "--config", str(suite), "--out", out, "--quiet"])
    one_line_error(result, "--out", words)


def test_a_report_data_dir_is_checked_before_solving(tmp_path, no_solving):
    bad, _ = bad_folders(tmp_path)["under a file"]
    small_study(tmp_path, str(bad), "reports")
    suite = tmp_path / "suite.toml"
    suite.write_text('title = "T"\nstudies = ["m.toml"]\n')
    result = CliRunner().invoke(main, ["report", "--config", str(suite), "--quiet"])
    one_line_error(result, "data_dir of malheur", "cannot be created")


def test_an_atomic_write_stopped_midway_leaves_the_old_file(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("old")
    os.chmod(path, 0o640)
    with pytest.raises(KeyboardInterrupt), atomic_writer(path, "w") as fh:
        fh.write("half of the new")
        raise KeyboardInterrupt
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]
    with atomic_writer(path, "w") as fh:
        fh.write("new")
    assert path.read_text() == "new"
    assert path.stat().st_mode & 0o777 == 0o640  # the file keeps its permissions
