"""The report: HTML (self-contained) and Markdown with every study's section and charts."""

import base64
import html
import pathlib
import re

import pandas as pd
import pytest
from test_studies_run import FAST, TINY, shared_base, tiny

from analyser.report.writer import markdown_table
from analyser.studies.config import SuiteConfig
from analyser.studies.report import build_report


def make_report(base, kinds):
    studies = tuple(tiny(kind, base) for kind in kinds)
    suite = SuiteConfig(base / "suite.toml", "Test report", studies, base / "reports")
    lines = []
    files = build_report(suite, quiet=True, log=lines.append)
    return files, studies, lines, base


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    # The tiny studies of test_studies_run (cached when that module ran first); piek is left
    # out of the fast report because its tiny run alone takes minutes (slow test below).
    return make_report(shared_base(tmp_path_factory), FAST)


@pytest.mark.slow
def test_report_with_all_five_studies(tmp_path):
    files, studies, _, _ = make_report(tmp_path, list(TINY))
    text = files.html.read_text(encoding="utf-8")
    for cfg in studies:
        assert f'id="{cfg.name}"' in text
    assert "G-PIEK-05" in text


def test_html_is_self_contained_with_every_section(report):
    files, studies, lines, _ = report
    text = files.html.read_text(encoding="utf-8")
    for cfg in studies:
        assert f'id="{cfg.name}"' in text
        assert html.escape(cfg["title"]) in text
        assert f"seed = {cfg['seed']}" in text  # exact parameters are printed
    assert 'id="classifiers"' in text
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(images) >= 6
    assert all(base64.b64decode(img)[:8] == b"\x89PNG\r\n\x1a\n" for img in images)
    assert "<img" in text and 'src="http' not in text and 'src="reports' not in text
    assert text.count("double-dummy") >= len(studies)
    assert text.count("Reading.") >= 8


def test_markdown_links_png_files_beside_it(report):
    files, studies, _, _ = report
    md = files.markdown.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(links) >= 6
    for link in links:
        assert not pathlib.Path(link).is_absolute()
        assert (files.markdown.parent / link).is_file()
    for cfg in studies:
        assert f"## {cfg['title']}" in md
    assert "| guideline |" in md or "| study | guideline |" in md


def test_readings_quote_the_numbers(report):
    files, studies, _, _ = report
    md = files.markdown.read_text(encoding="utf-8")
    assert "leaves out hands with fewer than 5 holes" in md  # the tiny misère run's min_holes
    assert re.search(r"\d+% \(95% interval \d+%–\d+%, \d+ deals\)", md)


def test_second_report_uses_the_cache(report):
    files, studies, _, base = report
    suite = SuiteConfig(base / "suite.toml", "Test report", studies, base / "reports")
    again = build_report(suite, quiet=True)
    assert again.computed == [] and again.cached == [c.name for c in studies]
    assert again.html.read_text(encoding="utf-8").count("<img") >= 6
    assert "From the cache" in again.html.read_text(encoding="utf-8")


def test_markdown_table_escapes_and_rounds():
    df = pd.DataFrame({"a|b": [1, 2], "p": [0.12345, float("nan")], "t": ["x|y", "z"]})
    text = markdown_table(df)
    assert text.splitlines()[0] == "| a\\|b | p | t |"
    assert "0.123" in text and "x\\|y" in text


def test_each_game_states_its_own_seats_and_method():
    from analyser.studies.report import method_note

    assert method_note("misere").startswith("Seats: the studied hand is North, West deals.")
    assert "single-dummy" in method_note("single_dummy")
    assert "North-South" in method_note("whist") and "double-dummy" in method_note("whist")
    assert "elder" in method_note("piket") and "North" not in method_note("piket")
