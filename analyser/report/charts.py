"""Charts of the report: matplotlib (Agg), labelled axes, colour-blind-safe colours.

Categorical colours are the Okabe–Ito palette; the heatmap uses ``cividis`` (readable in
grey and by every common colour-vision deficiency). Every function writes one PNG and returns
its path.
"""

from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analyser.files import atomic_writer  # noqa: E402

OKABE_ITO = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",
)
MARKERS = "osD^v<>P"
DPI = 110


def _save(fig, path: pathlib.Path) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    try:
        with atomic_writer(path, "wb") as fh:  # a stop never leaves half a PNG
            fig.savefig(fh, dpi=DPI, format="png")
    finally:
        plt.close(fig)
    return path


def heatmap(
    table: pd.DataFrame,
    path: pathlib.Path,
    *,
    x: str,
    y: str,
    boundary: pd.Series,
    title: str,
    xlabel: str,
    ylabel: str,
) -> pathlib.Path:
    """A P(make) heatmap of ``table`` (columns x, y, p, lo, hi, hands) with each cell's value,
    interval and count written in it, and a line around the cells where ``boundary`` is True."""
    xs = sorted(table[x].unique())
    ys = sorted(table[y].unique())
    grid = np.full((len(ys), len(xs)), np.nan)
    inside = np.zeros_like(grid, dtype=bool)
    fig, ax = plt.subplots(figsize=(1.45 * len(xs) + 2.2, 0.9 * len(ys) + 1.6))
    for (_, r), b in zip(table.iterrows(), boundary, strict=True):
        i, j = ys.index(r[y]), xs.index(r[x])
        grid[i, j] = r["p"]
        inside[i, j] = bool(b)
    im = ax.imshow(grid, cmap="cividis", vmin=0, vmax=1, origin="lower", aspect="auto")
    for _, r in table.iterrows():
        i, j = ys.index(r[y]), xs.index(r[x])
        dark = r["p"] < 0.55
        ax.text(
            j,
            i,
            f"{r['p']:.0%}\n[{r['lo']:.0%}–{r['hi']:.0%}]\nn={int(r['hands'])}",
            ha="center",
            va="center",
            fontsize=7.5,
            color="white" if dark else "black",
        )
    # Outline the region the guideline accepts: draw each cell edge between inside and not.
    for i in range(len(ys)):
        for j in range(len(xs)):
            if not inside[i, j]:
                continue
            for di, dj, seg in (
                (-1, 0, ([j - 0.5, j + 0.5], [i - 0.5, i - 0.5])),
                (1, 0, ([j - 0.5, j + 0.5], [i + 0.5, i + 0.5])),
                (0, -1, ([j - 0.5, j - 0.5], [i - 0.5, i + 0.5])),
                (0, 1, ([j + 0.5, j + 0.5], [i - 0.5, i + 0.5])),
            ):
                ni, nj = i + di, j + dj
                if not (0 <= ni < len(ys) and 0 <= nj < len(xs)) or not inside[ni, nj]:
                    ax.plot(*seg, color=OKABE_ITO[3], linewidth=3)
    ax.plot([], [], color=OKABE_ITO[3], linewidth=3, label="guideline says bid")
    ax.legend(loc="upper left", bbox_to_anchor=(1.25, 1.0), fontsize=8, frameon=False)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    cbar = fig.colorbar(im, ax=ax, fraction=0.05)
    cbar.set_label("P(make)")
    return _save(fig, path)


def points(
    table: pd.DataFrame,
    path: pathlib.Path,
    *,
    x: str,
    title: str,
    xlabel: str,
    ylabel: str = "P(make)",
    hue: str | None = None,
    hue_label: dict | None = None,
    xticklabels: dict | None = None,
    reference: float | None = None,
) -> pathlib.Path:
    """P with 95 % intervals against a category or count ``x``, one series per ``hue``."""
    fig, ax = plt.subplots(figsize=(7.2, 4.2))
    groups = [(None, table)] if hue is None else list(table.groupby(hue, sort=True))
    xs = sorted(table[x].unique(), key=lambda v: (str(type(v)), v))
    pos = {v: i for i, v in enumerate(xs)}
    width = 0.6 / max(len(groups), 1)
    for k, (key, g) in enumerate(groups):
        offset = (k - (len(groups) - 1) / 2) * width
        xv = np.array([pos[v] for v in g[x]]) + offset
        yerr = np.vstack([g["p"] - g["lo"], g["hi"] - g["p"]]).clip(min=0)
        label = None if key is None else (hue_label or {}).get(key, str(key))
        ax.errorbar(
            xv,
            g["p"],
            yerr=yerr,
            fmt=MARKERS[k % len(MARKERS)],
            color=OKABE_ITO[k % len(OKABE_ITO)],
            capsize=3,
            label=label,
        )
    if reference is not None:
        ax.axhline(reference, color="grey", linewidth=0.8, linestyle=":")
    labels = [(xticklabels or {}).get(v, str(v)) for v in xs]
    ax.set_xticks(range(len(xs)), labels, rotation=0 if len(xs) < 10 else 45)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    if hue is not None:
        ax.legend(fontsize=8, frameon=False)
    return _save(fig, path)


def calibration(
    table: pd.DataFrame, path: pathlib.Path, *, margins: tuple[int, ...], title: str
) -> pathlib.Path:
    """Alone calibration: book count on x, P(make N) on y, one line per ``count - N``."""
    fig, ax = plt.subplots(figsize=(7.2, 4.4))
    for k, margin in enumerate(margins):
        g = table[table["margin"] == margin].sort_values("count")
        if g.empty:
            continue
        yerr = np.vstack([g["p"] - g["lo"], g["hi"] - g["p"]]).clip(min=0)
        what = {0: "bid N = count", 1: "bid N = count − 1", -1: "bid N = count + 1"}.get(
            margin, f"N = count − {margin}" if margin > 0 else f"N = count + {-margin}"
        )
        ax.errorbar(
            g["count"] + 0.08 * (k - 1),
            g["p"],
            yerr=yerr,
            fmt=MARKERS[k] + "-",
            color=OKABE_ITO[k],
            capsize=3,
            label=what,
        )
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("book trick count (trump tricks by the guard rule + side winners)")
    ax.set_ylabel("P(lone player takes ≥ N tricks)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    return _save(fig, path)


def paired_bars(
    labels: list[str],
    series: dict[str, tuple[list[float], list[float], list[float]]],
    path: pathlib.Path,
    *,
    title: str,
    xlabel: str,
    ylabel: str = "P(make)",
) -> pathlib.Path:
    """Bars per label, one colour per series; each series is (p, lo, hi) lists."""
    fig, ax = plt.subplots(figsize=(7.2, 4.2))
    width = 0.8 / max(len(series), 1)
    for k, (name, (p, lo, hi)) in enumerate(series.items()):
        xv = np.arange(len(labels)) + (k - (len(series) - 1) / 2) * width
        p, lo, hi = map(np.asarray, (p, lo, hi))
        ax.bar(xv, p, width=width * 0.95, color=OKABE_ITO[k % len(OKABE_ITO)], label=name)
        ax.errorbar(
            xv,
            p,
            yerr=np.vstack([p - lo, hi - p]).clip(min=0),
            fmt="none",
            ecolor="black",
            capsize=3,
            linewidth=1,
        )
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    # an opaque box: the legend sits over the bars, whose colour would hide its patches
    ax.legend(fontsize=8, loc="lower right", frameon=True, facecolor="white", framealpha=1.0)
    return _save(fig, path)


def real_play_map(curve: pd.DataFrame, path: pathlib.Path, *, title: str) -> pathlib.Path:
    """One line per family: estimated real-play P(make) against the double-dummy P, with the
    95 % band of the calibration, and the diagonal (no bias) for reference."""
    fig, ax = plt.subplots(figsize=(7.2, 4.4))
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle=":", label="no bias")
    for k, (family, g) in enumerate(curve.groupby("family", sort=False)):
        colour = OKABE_ITO[k % len(OKABE_ITO)]
        # past the palette's eight colours: another marker and a dashed line, so no two
        # lines look alike
        lap = k // len(OKABE_ITO)
        style = MARKERS[(k + lap) % len(MARKERS)] + ("-" if lap == 0 else "--")
        ax.plot(g["dd_p"], g["p"], style, color=colour, label=family)
        ax.fill_between(g["dd_p"], g["lo"], g["hi"], color=colour, alpha=0.12, linewidth=0)
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("double-dummy P(make)")
    ax.set_ylabel("estimated real-play (single-dummy) P(make)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False, ncol=2)
    return _save(fig, path)
