"""docs/rules.md and docs/guidelines.md stay in step with the code that cites them.

* Every rule id cited in the code, tests, study definitions, README, the manual pages of
  docs/ or the two rules docs themselves (``R-PLAY-05``, ``V-01``, ``I-06``, ``W-07``,
  ``G-RIK-01`` ...; lists and ranges such as ``R-MAL-01/02``, ``V-07/V-08/V-09``,
  ``G-ALN-03 .. 06`` are expanded) is *defined* in one of the two docs: it appears in the
  first cell of a Markdown table row or in a heading.
* Every ``docs/rules.md §N`` / ``docs/guidelines.md §N`` citation names an existing section.
* No file cites the old rules files that lived outside the repository.

This file itself is left out of the scans (its examples and patterns would match).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
THIS_FILE = Path(__file__).resolve()
DOCS = {"rules": ROOT / "docs" / "rules.md", "guidelines": ROOT / "docs" / "guidelines.md"}

# Where the code cites rule ids and where stale references must not appear: the package, the
# tests, the study files, the README and the manual (every other page of docs/).
CODE_DIRS = ("analyser", "tests", "sims")
MANUAL = tuple(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")) if p.stem not in DOCS)
CODE_FILES = ("README.md", *MANUAL)
CONFIG_FILES = ("README.md", "Makefile", "pyproject.toml", *MANUAL)

# Ids that are cited on purpose without a definition (a test of the "unknown id" error).
UNDEFINED_ON_PURPOSE = frozenset({"G-" + "NOPE-01"})

_ID = r"(?:[RG]-[A-Z]+-\d{2}|[VIW]-\d{2})"
ID_RE = re.compile(rf"\b{_ID}\b")
# An id followed by more items: "/02", "/V-08", " .. 06", " .. G-PIEK-06", "…05".
CITATION_RE = re.compile(rf"\b(?P<head>{_ID})(?P<tail>(?:\s*(?:/|\.\.|…)\s*(?:{_ID}|\d{{2}})\b)*)")
PART_RE = re.compile(rf"\s*(?P<sep>/|\.\.|…)\s*(?P<item>{_ID}|\d{{2}})")
SECTION_CITE_RE = re.compile(
    r"docs/(?P<doc>rules|guidelines)\.md(?P<refs>(?:[\s,;–-]*§\d+(?:\.\d+)?)+)"
)
HEADING_NUMBER_RE = re.compile(r"^#{2,4}\s+(?P<num>\d+(?:\.\d+)*)\.?\s")
# Built from parts so that the patterns do not spell the names they look for.
OLD_DIR = "shared" + "/rules"
STALE_RE = re.compile(r"(?<!docs/)\b(?:RULES|GUIDELINES)" + r"\.md", re.IGNORECASE)


def expand_ids(text: str) -> list[str]:
    """Every id cited in ``text``, lists and ranges expanded, in order of appearance."""
    out: list[str] = []
    for m in CITATION_RE.finditer(text):
        ids = [m["head"]]
        for part in PART_RE.finditer(m["tail"]):
            prefix, number = ids[-1].rsplit("-", 1)
            item = part["item"]
            if item.isdigit():
                item = f"{prefix}-{item}"
            item_prefix, item_number = item.rsplit("-", 1)
            if part["sep"] != "/" and item_prefix == prefix and int(item_number) > int(number):
                ids += [f"{prefix}-{n:02d}" for n in range(int(number) + 1, int(item_number) + 1)]
            else:
                ids.append(item)
        out += ids
    return out


def _text_files(*paths: Path) -> list[Path]:
    """The readable text files under ``paths`` (files or folders), this test file excluded."""
    out = []
    for p in paths:
        candidates = sorted(p.rglob("*")) if p.is_dir() else [p]
        for f in candidates:
            if not f.is_file() or "__pycache__" in f.parts or f.resolve() == THIS_FILE:
                continue
            try:
                f.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            out.append(f)
    return out


def _lines(files: list[Path]):
    for f in files:
        name = f.relative_to(ROOT) if f.is_relative_to(ROOT) else f
        for no, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            yield f"{name}:{no}", line


def defined_ids(doc: Path) -> set[str]:
    """Ids defined in ``doc``: in the first cell of a table row or in a heading."""
    out: set[str] = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            out.update(expand_ids(stripped))
        elif stripped.startswith("|"):
            out.update(expand_ids(stripped.split("|")[1]))
    return out


def section_numbers(doc: Path) -> set[str]:
    """Numbers of the numbered headings of ``doc`` ("0", "4", "7.3", ...)."""
    out = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        m = HEADING_NUMBER_RE.match(line)
        if m:
            out.add(m["num"])
    return out


def cited_ids() -> dict[str, list[str]]:
    """Every cited id → the places ("path:line") citing it."""
    files = _text_files(*(ROOT / d for d in CODE_DIRS), *(ROOT / f for f in CODE_FILES))
    files += _text_files(*DOCS.values())
    where: dict[str, list[str]] = defaultdict(list)
    for place, line in _lines(files):
        for rule_id in expand_ids(line):
            where[rule_id].append(place)
    return where


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("R-PLAY-05 and V-01, iwwa I-06", ["R-PLAY-05", "V-01", "I-06"]),
        ("wiezen W-04/W-05, W-07 .. 09", ["W-04", "W-05", "W-07", "W-08", "W-09"]),
        ("(R-MAL-01/02)", ["R-MAL-01", "R-MAL-02"]),
        ("R-PLAY-02/03/05", ["R-PLAY-02", "R-PLAY-03", "R-PLAY-05"]),
        ("V-07/V-08/V-09", ["V-07", "V-08", "V-09"]),
        ("G-MAL-01/V-02", ["G-MAL-01", "V-02"]),
        ("G-ALN-03 .. 06", ["G-ALN-03", "G-ALN-04", "G-ALN-05", "G-ALN-06"]),
        ("G-PIEK-02 .. G-PIEK-04", ["G-PIEK-02", "G-PIEK-03", "G-PIEK-04"]),
        ("G-MIS-04..06", ["G-MIS-04", "G-MIS-05", "G-MIS-06"]),
        ("R-MAL-01 … R-MAL-03", ["R-MAL-01", "R-MAL-02", "R-MAL-03"]),
        ("G-ALN-03:count, G-ACE-01/02.", ["G-ALN-03", "G-ACE-01", "G-ACE-02"]),
        ("UI-02, GR-BID-01, R-BID-1", []),
    ],
)
def test_expand_ids(text, ids):
    assert expand_ids(text) == ids


def test_docs_exist_and_define_ids():
    for name, doc in DOCS.items():
        assert doc.is_file(), f"docs/{name}.md is missing"
        assert defined_ids(doc), f"docs/{name}.md defines no rule id"
        assert "0" in section_numbers(doc), f"docs/{name}.md has no section 0"


def test_every_cited_id_is_defined():
    defined = set().union(*(defined_ids(doc) for doc in DOCS.values()))
    missing = {
        rule_id: places
        for rule_id, places in cited_ids().items()
        if rule_id not in defined and rule_id not in UNDEFINED_ON_PURPOSE
    }
    report = "\n".join(
        f"  {rule_id}: cited at {', '.join(places[:3])}{' ...' if len(places) > 3 else ''}"
        for rule_id, places in sorted(missing.items())
    )
    assert not missing, (
        f"{len(missing)} rule id(s) cited but defined in neither docs/rules.md nor "
        f"docs/guidelines.md (define each in a table row's first cell or a heading):\n{report}"
    )


def test_section_citations_exist():
    sections = {name: section_numbers(doc) for name, doc in DOCS.items()}
    files = _text_files(*(ROOT / d for d in CODE_DIRS), *(ROOT / f for f in CONFIG_FILES))
    files += _text_files(*DOCS.values())
    bad = []
    for place, line in _lines(files):
        for m in SECTION_CITE_RE.finditer(line):
            for num in re.findall(r"§(\d+(?:\.\d+)?)", m["refs"]):
                if num not in sections[m["doc"]]:
                    bad.append(f"  {place}: docs/{m['doc']}.md §{num}")
    assert not bad, "citations of sections that do not exist:\n" + "\n".join(bad)


def test_no_citation_of_the_old_rules_files():
    files = _text_files(*(ROOT / d for d in CODE_DIRS), *(ROOT / f for f in CONFIG_FILES))
    stale = [
        f"  {place}: {line.strip()}"
        for place, line in _lines(files)
        if OLD_DIR in line or STALE_RE.search(line)
    ]
    assert not stale, (
        "the rules reference is docs/rules.md and docs/guidelines.md; these lines still cite "
        "the old files:\n" + "\n".join(stale)
    )
