"""Bad input on the command line: one line on stderr, exit code 2, no usage block, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyser.cli import main

HAND = "♠AHVB10 ♥AHV ♦AHV ♣AH"

BAD = [
    (["analyse", "♠AH", "--seat", "1"], "a full hand has 13 cards", "rikken analyse --help"),
    (["analyse", HAND, "--seat", "7"], "'7' is not a seat", "rikken analyse --help"),
    (["analyse"], "Missing argument 'HAND...'", "rikken analyse --help"),
    (["misere", HAND, "--rules", "nope"], "unknown rule set 'nope'", "rikken misere --help"),
    (["study", "run"], "Missing argument 'SIM'", "rikken study run --help"),
    (["nope"], "No such command 'nope'", "rikken --help"),
]


@pytest.mark.parametrize("args, message, where", BAD)
def test_a_usage_error_is_one_line_naming_the_help(args, message, where):
    result = CliRunner().invoke(main, args, prog_name="rikken")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and message in lines[0] and f"'{where}'" in lines[0]
    assert "Usage:" not in result.output and "Traceback" not in result.output


def test_the_installed_command_prints_the_same_one_line():
    # what a user's shell sees: a real process, stdout empty, stderr one line
    rikken = Path(sys.executable).parent / "rikken"  # the venv's console script
    proc = subprocess.run(
        [str(rikken), "analyse", "♠AH"],
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("Error: ")
    assert "(see 'rikken analyse --help')" in proc.stderr


def test_help_version_and_a_bare_group_keep_their_exit_codes():
    runner = CliRunner()
    assert runner.invoke(main, ["--version"]).exit_code == 0
    helped = runner.invoke(main, ["analyse", "--help"], prog_name="rikken")
    assert helped.exit_code == 0 and "Usage: rikken analyse" in helped.output
    bare = runner.invoke(main, ["study"], prog_name="rikken")
    # a group without its command shows its help (click's own behaviour), not an error line
    assert "Usage: rikken study" in bare.output and "Error:" not in bare.output
