"""Bad input, every kind of it: one line on stderr, exit code 2, never a traceback.

The cases are data (a fuzz corpus found by hand): each is a command line, in which ``{tmp}``
stands for a folder holding the files of :data:`FILES`. Every case runs through click's
CliRunner; a few also as a real process, and output into a closed pipe ends quietly.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyser.cli import EXIT_BROKEN_PIPE, main

HAND = "♠AHV1098 ♥104 ♦A10 ♣752"
HUGE = "99999999999999999999"  # over int64
SIMS = pathlib.Path(__file__).resolve().parent.parent / "sims"


def _study(name: str = "malheur", extra: str = "") -> str:
    """A valid small study file's text, with its name replaced (as a TOML string)."""
    text = (SIMS / "malheur.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^name = ".*"$', lambda _: f"name = {name}", text)
    return text + '\ndata_dir = "."\nreport_dir = "."\n' + extra


DD_HEADER = "deal,trump,leader,declarer\n"
DD_ROW = "N:AKQT98.T4.AT.752 J765.AK3.K2.AKQ 432.Q9876.QJ9.J6 .J52.876543.T9843,S,N,N\n"

# files the cases read, by name: their bytes
FILES: dict[str, bytes] = {
    "utf16.toml": _study('"malheur"').encode("utf-16"),
    "binary.toml": bytes(range(256)) * 8,
    "nul_name.toml": _study(r'"mal\u0000heur"').encode(),
    "up_name.toml": _study('"../../x"').encode(),
    "dotdot_name.toml": _study('".."').encode(),
    "slash_name.toml": _study('"a/b"').encode(),
    "backslash_name.toml": _study(r'"a\\b"').encode(),
    "empty_name.toml": _study('""').encode(),
    "newline_name.toml": _study(r'"a\nb"').encode(),
    "long_name.toml": _study('"' + "x" * 300 + '"').encode(),
    "nul_extends.toml": b'extends = "a\\u0000b"\n',
    "nul_data_dir.toml": _study('"malheur"').encode() + b'data_dir = "a\\u0000b"\n',
    "deep.toml": b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "large.toml": b"# " + b"x" * (2 << 20) + b"\n",
    "binary_list/a.toml": bytes(range(256)),
    "suite_utf16.toml": 'studies = ["a.toml"]\n'.encode("utf-16"),
    "suite_binary.toml": b"\xff\xfe\x00" * 100,
    "big_field.csv": (DD_HEADER + "x" * 140_000 + ",S,N,N\n").encode(),
    "dup_column.csv": ("deal,trump,leader,declarer,trump\n" + DD_ROW[:-1] + ",H\n").encode(),
    "utf16.csv": (DD_HEADER + DD_ROW).encode("utf-16"),
    "binary.csv": bytes(range(256)) * 4,
    "stray_quote.csv": (DD_HEADER + 'N:"AKQT98,S,N,N\n"x"y,S,N,N\n').encode(),
    "short_header.csv": b"deal\n",
    "a_folder/keep": b"",
}

# (what is wrong, command line, standard input)
CORPUS: list[tuple[str, list[str], bytes | None]] = [
    # --- auctions
    ("auction of 5000 calls", ["analyse", HAND, "--seat", "2", "--auction", "pas " * 5000], None),
    ("auction of 201 words", ["analyse", HAND, "--seat", "2", "--auction", "rik " * 201], None),
    ("auction failing at its end", ["analyse", HAND, "--auction", "rik beter " * 90 + "x"], None),
    ("empty call", ["analyse", HAND, "--seat", "2", "--auction", "rik, , pas"], None),
    ("empty last call", ["analyse", HAND, "--seat", "3", "--auction", "rik, pas,"], None),
    ("empty first call", ["analyse", HAND, "--seat", "2", "--auction", ", rik"], None),
    ("NUL in an auction", ["analyse", HAND, "--seat", "2", "--auction", "rik\x00"], None),
    # --- integers beyond int64 or beyond any run
    ("node budget over int64", ["analyse", HAND, "--node-budget", HUGE], None),
    ("node budget 2**63", ["analyse", HAND, "--node-budget", str(2**63)], None),
    ("seed over int64", ["analyse", HAND, "--seed", HUGE], None),
    ("deals huge", ["analyse", HAND, "--deals", HUGE], None),
    ("max deals huge", ["analyse", HAND, "--max-deals", HUGE], None),
    ("samples huge", ["analyse", HAND, "--play", "single-dummy", "--samples", HUGE], None),
    ("play deals huge", ["analyse", HAND, "--play", "single-dummy", "--play-deals", HUGE], None),
    ("workers huge", ["analyse", HAND, "--play", "single-dummy", "--workers", HUGE], None),
    ("misere explain huge", ["misere", HAND, "--explain", HUGE], None),
    ("misere deals huge", ["misere", HAND, "--deals", HUGE], None),
    ("misere seed huge", ["misere", HAND, "--seed", HUGE], None),
    ("study workers huge", ["study", "run", "{tmp}/up_name.toml", "--workers", HUGE], None),
    ("rule switch over int64", ["analyse", HAND, "--rules", f"book:min_alone={HUGE}"], None),
    ("empty bid id", ["analyse", HAND, "--play", "single-dummy", "--bids", "rik,,misere"], None),
    ("bid id twice", ["analyse", HAND, "--play", "single-dummy", "--bids", "rik,rik"], None),
    ("only a comma as bids", ["analyse", HAND, "--play", "single-dummy", "--bids", ","], None),
    # --- hands
    ("Dutch H with English Q", ["hand", "♠AHQ1098 ♥104 ♦A10 ♣752"], None),
    ("English K with Dutch V", ["hand", "♠AKV1098 ♥104 ♦A10 ♣752"], None),
    ("English T with Dutch H V", ["hand", "♠AHV1098 ♥T4 ♦A10 ♣752"], None),
    ("mixed alphabets in PBN", ["hand", "AKB.T4.AT.765432"], None),
    ("mixed alphabets in analyse", ["analyse", "♠AHQ1098 ♥104 ♦A10 ♣752"], None),
    ("NUL in a hand", ["hand", "♠AHV1098 ♥104 ♦A10 ♣75\x00"], None),
    ("a hand of 100,000 characters", ["hand", "A" * 100_000], None),
    # --- rule sets
    (
        "switch given twice",
        ["analyse", HAND, "--rules", "book:malheur=optional,malheur=obligatory"],
        None,
    ),
    ("empty switch", ["analyse", HAND, "--rules", "book:malheur=optional,,min_alone=8"], None),
    (
        "rules wiezen with game whist",
        ["analyse", HAND, "--game", "whist", "--rules", "wiezen", "--turned", "H7"],
        None,
    ),
    (
        "switch with its alias",
        ["analyse", HAND, "--rules", "book:open_after_tricks=1,open_reveal_after_cards=8"],
        None,
    ),
    ("NUL in rules", ["analyse", HAND, "--rules", "book\x00"], None),
    # --- dd files
    ("CSV field over 131,072 characters", ["dd", "{tmp}/big_field.csv"], None),
    ("duplicated column", ["dd", "{tmp}/dup_column.csv"], None),
    ("dd /dev/zero", ["dd", "/dev/zero"], None),
    ("dd UTF-16 file", ["dd", "{tmp}/utf16.csv"], None),
    ("dd binary file", ["dd", "{tmp}/binary.csv"], None),
    ("dd stray quote", ["dd", "{tmp}/stray_quote.csv"], None),
    ("dd header only", ["dd", "{tmp}/short_header.csv"], None),
    ("dd a folder", ["dd", "{tmp}/a_folder"], None),
    ("dd missing file", ["dd", "{tmp}/nowhere.csv"], None),
    ("dd binary standard input", ["dd", "-"], b"\xff\xfe\x00deal\n"),
    # --- study files
    ("study in UTF-16", ["study", "run", "{tmp}/utf16.toml"], None),
    ("binary study", ["study", "run", "{tmp}/binary.toml"], None),
    ("NUL in a study name", ["study", "run", "{tmp}/nul_name.toml"], None),
    ("study named ../../x", ["study", "run", "{tmp}/up_name.toml"], None),
    ("study named ..", ["study", "run", "{tmp}/dotdot_name.toml"], None),
    ("study named a/b", ["study", "run", "{tmp}/slash_name.toml"], None),
    ("study named a\\b", ["study", "run", "{tmp}/backslash_name.toml"], None),
    ("study with an empty name", ["study", "run", "{tmp}/empty_name.toml"], None),
    ("newline in a study name", ["study", "run", "{tmp}/newline_name.toml"], None),
    ("study name of 300 characters", ["study", "run", "{tmp}/long_name.toml"], None),
    ("NUL in extends", ["study", "run", "{tmp}/nul_extends.toml"], None),
    ("NUL in data_dir", ["study", "run", "{tmp}/nul_data_dir.toml"], None),
    ("TOML nested 100,000 deep", ["study", "run", "{tmp}/deep.toml"], None),
    ("TOML over 1 MiB", ["study", "run", "{tmp}/large.toml"], None),
    ("study /dev/zero", ["study", "run", "/dev/zero"], None),
    ("study list over a binary TOML", ["study", "list", "{tmp}/binary_list"], None),
    ("suite in UTF-16", ["report", "--config", "{tmp}/suite_utf16.toml", "--out", "{tmp}/r"], None),
    ("binary suite", ["report", "--config", "{tmp}/suite_binary.toml", "--out", "{tmp}/r"], None),
    # --- scheduler addresses and the wait for one
    ("scheduler bogus", ["study", "run", "{tmp}/ok.toml", "--scheduler", "bogus"], None),
    ("scheduler empty", ["study", "run", "{tmp}/ok.toml", "--scheduler", ""], None),
    (
        "scheduler http",
        ["study", "run", "{tmp}/ok.toml", "--scheduler", "http://127.0.0.1:8786"],
        None,
    ),
    (
        "scheduler without port",
        ["study", "run", "{tmp}/ok.toml", "--scheduler", "tcp://host"],
        None,
    ),
    (
        "scheduler port 99999",
        ["study", "run", "{tmp}/ok.toml", "--scheduler", "tcp://h:99999"],
        None,
    ),
    (
        "scheduler timeout 0",
        ["study", "run", "{tmp}/ok.toml", "--scheduler", "h:1", "--scheduler-timeout", "0"],
        None,
    ),
    (
        "scheduler timeout nan",
        ["study", "run", "{tmp}/ok.toml", "--scheduler", "h:1", "--scheduler-timeout", "nan"],
        None,
    ),
    (
        "scheduler timeout without scheduler",
        ["study", "run", "{tmp}/ok.toml", "--scheduler-timeout", "5"],
        None,
    ),
]


def _write_files(tmp: pathlib.Path) -> None:
    for name, data in FILES.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (tmp / "ok.toml").write_text(_study('"malheur"'), encoding="utf-8")


def _args(args: list[str], tmp: pathlib.Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)) for a in args]


def test_the_corpus_is_large_and_named_once():
    names = [name for name, _, _ in CORPUS]
    assert len(names) == len(set(names))
    assert len(CORPUS) >= 60


@pytest.mark.parametrize("what, args, stdin", CORPUS, ids=[c[0] for c in CORPUS])
def test_bad_input_is_one_line_and_exit_2(what, args, stdin, tmp_path):
    _write_files(tmp_path)
    result = CliRunner().invoke(main, _args(args, tmp_path), input=stdin)
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # no traceback
    assert result.exit_code == 2, (what, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), (what, result.stderr)
    assert "Traceback" not in result.output and result.stdout == ""


def _run(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from analyser.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


@pytest.mark.parametrize(
    "what", ["dd /dev/zero", "study named ../../x", "auction of 5000 calls", "scheduler bogus"]
)
def test_a_real_process_prints_one_line_too(what, tmp_path):
    _write_files(tmp_path)
    args = next(a for name, a, _ in CORPUS if name == what)
    done = _run(*_args(args, tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path.parent.parent / "x.parquet").exists()


@pytest.mark.parametrize(
    "args", [["hand", HAND], ["--help"], ["analyse", "--help"], ["--version"]], ids=" ".join
)
def test_output_into_a_closed_pipe_ends_quietly(args):
    # the reader closes the pipe before the command writes (as `| head -0` does)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from analyser.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == EXIT_BROKEN_PIPE == 128 + 13  # 128 + SIGPIPE
    assert err == b""
