"""Write the report: ``index.html`` (self-contained, charts embedded as base64 PNG) and
``index.md`` (charts as PNG files beside it, in one folder per study)."""

from __future__ import annotations

import base64
import datetime
import html
import os
import pathlib

import pandas as pd

from analyser import __version__
from analyser.files import write_text_atomic
from analyser.report.model import CAVEAT, Section

CSS = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
h1, h2, h3 { line-height: 1.2; }
h2 { border-bottom: 2px solid #0072B2; padding-bottom: .2rem; margin-top: 2.5rem; }
.params { font-size: .85rem; color: #555; background: #f5f5f5; padding: .5rem .75rem; }
.reading { background: #eef5fb; border-left: 4px solid #0072B2; padding: .4rem .75rem; }
table { border-collapse: collapse; font-size: .8rem; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .15rem .4rem; text-align: right; }
th { background: #f0f0f0; }
img { max-width: 100%; }
.caveat { font-weight: bold; }
@media print { h2 { page-break-before: always; } img { page-break-inside: avoid; } }
"""


def _fmt_table(df: pd.DataFrame) -> pd.DataFrame:
    """Round floats for display (probabilities to 3 places)."""
    out = df.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].map(lambda v: "" if pd.isna(v) else f"{v:.3f}")
    return out


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``df`` (no index)."""
    df = _fmt_table(df)
    cols = [str(c) for c in df.columns]
    esc = [c.replace("|", "\\|") for c in cols]
    lines = ["| " + " | ".join(esc) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        cells = [str(v).replace("|", "\\|") for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _png_data(path: pathlib.Path) -> str:
    return base64.b64encode(path.read_bytes()).decode("ascii")


def write_html(sections: list[Section], out: pathlib.Path, title: str, footer: str) -> pathlib.Path:
    """Write ``out/index.html``; every chart is embedded, so the file stands alone."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="caveat">{html.escape(CAVEAT)}</p>',
        "<ul>"
        + "".join(
            f'<li><a href="#{html.escape(s.name)}">{html.escape(s.title)}</a></li>'
            for s in sections
        )
        + "</ul>",
    ]
    for s in sections:
        parts.append(f'<h2 id="{html.escape(s.name)}">{html.escape(s.title)}</h2>')
        parts.append(f"<p>{html.escape(s.intro)}</p>")
        parts.append(f'<p class="params">{html.escape(s.params)}</p>')
        for b in s.blocks:
            parts.append(f"<h3>{html.escape(b.title)}</h3>")
            if b.png is not None:
                parts.append(
                    f'<img alt="{html.escape(b.title)}" '
                    f'src="data:image/png;base64,{_png_data(b.png)}">'
                )
            if b.reading:
                parts.append(f'<p class="reading"><b>Reading.</b> {html.escape(b.reading)}</p>')
            if b.table is not None:
                if b.table.empty:
                    parts.append("<p><i>(no rows)</i></p>")
                else:
                    parts.append(_fmt_table(b.table).to_html(index=False, border=0, escape=True))
    parts.append(f'<hr><p class="params">{html.escape(footer)}</p></body></html>')
    path = out / "index.html"
    write_text_atomic(path, "\n".join(parts))
    return path


def write_markdown(
    sections: list[Section], out: pathlib.Path, title: str, footer: str
) -> pathlib.Path:
    """Write ``out/index.md`` referring to the PNG files by relative path."""
    lines = [f"# {title}", "", f"**{CAVEAT}**", ""]
    for s in sections:
        lines.append(f"- [{s.title}](#{s.name})")
    lines.append("")
    for s in sections:
        lines += [
            f'<a id="{s.name}"></a>',
            "",
            f"## {s.title}",
            "",
            s.intro,
            "",
            f"*{s.params}*",
            "",
        ]
        for b in s.blocks:
            lines += [f"### {b.title}", ""]
            if b.png is not None:
                rel = pathlib.Path(os.path.relpath(b.png, out)).as_posix()
                lines += [f"![{b.title}]({rel})", ""]
            if b.reading:
                lines += [f"**Reading.** {b.reading}", ""]
            if b.table is not None:
                lines += [markdown_table(b.table) if not b.table.empty else "*(no rows)*", ""]
    lines += ["---", "", footer, ""]
    path = out / "index.md"
    write_text_atomic(path, "\n".join(lines))
    return path


def footer_text(seconds: float, computed: list[str], cached: list[str]) -> str:
    """Provenance line at the end of the report."""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"Generated {when} by rikken-analyser {__version__} in {seconds:.0f} s."]
    if computed:
        parts.append(f"Computed: {', '.join(computed)}.")
    if cached:
        parts.append(f"From the cache: {', '.join(cached)}.")
    return " ".join(parts)
