"""The README stays a first page and the manual in docs/ stays complete and honest.

* README.md is at most MAX_README_LINES lines: the manual lives in docs/.
* Every study file of sims/ (and every study module of analyser/studies/) is named in the
  table of docs/studies.md, and the numbered studies appear there in study order, each under
  the number its TOML file's header gives it.
* Every page the README links to exists.
* No file cites a tracker number (the word for a tracker entry followed by its number, a
  constant named after one, a number in brackets after a hash): code, tests, docs and study
  files say what they mean instead. This file is left out of that scan (its examples match).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
THIS_FILE = Path(__file__).resolve()
README = ROOT / "README.md"
STUDIES_DOC = ROOT / "docs" / "studies.md"
SIMS = ROOT / "sims"
MAX_README_LINES = 220

# where a tracker number must not appear
SCANNED_DIRS = ("analyser", "tests", "sims", "docs", ".ci")
SCANNED_FILES = ("README.md", "CHANGELOG.md", "pyproject.toml", "Makefile")
SUFFIXES = {".py", ".md", ".toml", ".txt", ".json", ".cfg", ".ini", ""}
_WORD = "iss" + "ue"
TRACKER_RE = re.compile(
    rf"\b{_WORD}s?\s*#?\s*\d+|\b{_WORD.upper()}_\d+|\(#\d+\)|\bgh-\d+", re.IGNORECASE
)
STUDY_HEADER_RE = re.compile(r"^#\s*Study\s+(\d+)\b", re.MULTILINE)
TABLE_ROW_RE = re.compile(r"^\|\s*(\d+|–|-)\s*\|\s*`(sims/[^`]+\.toml)`", re.MULTILINE)


def _study_files() -> list[Path]:
    """The study files of sims/ (not the suites, which list studies)."""
    out = []
    for path in sorted(SIMS.glob("*.toml")):
        with path.open("rb") as f:
            if "studies" not in tomllib.load(f):
                out.append(path)
    return out


def _table_rows() -> list[tuple[str, str]]:
    """(number, file) of every row of the study table in docs/studies.md, in order."""
    return TABLE_ROW_RE.findall(STUDIES_DOC.read_text(encoding="utf-8"))


def test_readme_is_a_first_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines (at most {MAX_README_LINES}): move the detail to "
        "docs/ and link to it"
    )


def test_readme_links_exist():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert "docs/cli.md" in local and "docs/studies.md" in local
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, f"README links to missing files: {missing}"


def test_every_study_file_is_in_the_table():
    named = {file for _, file in _table_rows()}
    files = _study_files()
    assert len(files) >= 12  # guard against a vacuous check
    missing = [f"sims/{p.name}" for p in files if f"sims/{p.name}" not in named]
    assert not missing, f"docs/studies.md does not list: {missing}"
    stale = sorted(n for n in named if not (ROOT / n).is_file())
    assert not stale, f"docs/studies.md lists study files that do not exist: {stale}"


def test_every_study_kind_is_in_the_table():
    from analyser.studies.registry import study_kinds

    text = STUDIES_DOC.read_text(encoding="utf-8")
    missing = [kind for kind in study_kinds() if f"(`{kind}`)" not in text]
    assert not missing, f"docs/studies.md has no row of kind: {missing}"


def test_the_table_is_in_study_order_with_the_files_numbers():
    rows = _table_rows()
    numbers = [int(n) for n, _ in rows if n.isdigit()]
    assert numbers == sorted(numbers) and len(numbers) == len(set(numbers)), numbers
    for number, file in rows:
        header = STUDY_HEADER_RE.search((ROOT / file).read_text(encoding="utf-8"))
        if header is None:
            assert not number.isdigit(), f"{file} has no '# Study N' header but row {number}"
        else:
            assert number == header.group(1), f"{file} is Study {header.group(1)}, row {number}"


def _scanned() -> list[Path]:
    files = [ROOT / name for name in SCANNED_FILES]
    for d in SCANNED_DIRS:
        for path in sorted((ROOT / d).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                files.append(path)
    return [path for path in files if path.resolve() != THIS_FILE]


def test_no_tracker_numbers():
    files = _scanned()
    assert len(files) > 100  # guard against a vacuous check
    found = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in files
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TRACKER_RE.search(line)
    ]
    assert not found, "say what the number stands for instead:\n" + "\n".join(found)


def test_the_tracker_pattern_is_not_vacuous():
    word = "iss" + "ue"
    for text in (f"({word} 27)", f"{word.upper()}_27 = 1", f"{word} #5", "fixed (#12)"):
        assert TRACKER_RE.search(text), text
    for text in ("deal #77 of the benchmark", "colour #0072B2", f"a known {word}: none"):
        assert not TRACKER_RE.search(text), text
