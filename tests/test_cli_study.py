"""`rikken study run|list` and `rikken report`: usage, one-line errors with exit code 2."""

import pathlib
import re

import pytest
from click.testing import CliRunner

from analyser.cli import main

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"


def small_study(tmp_path, name="m"):
    text = (SIMS / "malheur.toml").read_text()
    text = text.replace('name = "malheur"', f'name = "{name}"')
    text = re.sub(r"(?m)^hands = \d+", "hands = 2", text)
    text = re.sub(r"(?m)^deals_per_hand = \d+", "deals_per_hand = 2", text)
    text += '\ndata_dir = "data"\nreport_dir = "reports"\n'
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "args, message",
    [
        (["study", "run", "nope.toml"], "no such file"),
        (["report", "--config", "nope.toml"], "no such file"),
    ],
)
def test_missing_files_are_usage_errors(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_bad_key_is_one_line_error(tmp_path):
    path = small_study(tmp_path)
    path.write_text(path.read_text() + "\nfoo = 1\n")
    result = CliRunner().invoke(main, ["study", "run", str(path), "--quiet"])
    assert result.exit_code == 2
    assert "unknown key 'foo'" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text("kind = \n")
    result = CliRunner().invoke(main, ["study", "run", str(bad)])
    assert result.exit_code == 2 and "not valid TOML" in result.output


def test_study_run_then_cached_rerun_and_report(tmp_path):
    path = small_study(tmp_path)
    runner = CliRunner()
    first = runner.invoke(main, ["study", "run", str(path), "--quiet"])
    assert first.exit_code == 0, first.output
    assert "positions solved" in first.output
    assert (tmp_path / "data" / "m.parquet").is_file()
    assert (tmp_path / "reports" / "m" / "malheur.png").is_file()
    second = runner.invoke(main, ["study", "run", str(path), "--quiet"])
    assert second.exit_code == 0 and "loaded from the cache" in second.output
    forced = runner.invoke(main, ["study", "run", str(path), "--quiet", "--force"])
    assert "positions solved" in forced.output

    suite = tmp_path / "suite.toml"
    suite.write_text('title = "T"\nstudies = ["m.toml"]\nreport_dir = "out"\n')
    rep = runner.invoke(main, ["report", "--config", str(suite), "--quiet"])
    assert rep.exit_code == 0, rep.output
    assert (tmp_path / "out" / "index.html").is_file()
    assert (tmp_path / "out" / "index.md").is_file()
    other = tmp_path / "elsewhere"
    rep = runner.invoke(main, ["report", "--config", str(suite), "--out", str(other), "--quiet"])
    assert rep.exit_code == 0 and (other / "index.html").is_file()


def test_study_list():
    result = CliRunner().invoke(main, ["study", "list", str(SIMS)])
    assert result.exit_code == 0
    assert "misere" in result.output and "default.toml: suite" in result.output
