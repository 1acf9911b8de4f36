"""Study 11, piket (docs/piket.md): how much is being elder worth?

Piket players argue about how big elder's edge is: he exchanges up to five cards to
younger's three and leads to the first trick, but younger discards knowing that elder has
exchanged. Here: uniform deals of the 32 cards; both players exchange by the stated
heuristic of the piket analyser (as many cards as they may: elder 5, younger 3, discarding
the lowest keep scores, :func:`analyser.games.piket.exchange.heuristic_discard`); the
declarations are scored (PK-04 … PK-09, repic PK-13) and the play is solved exactly with
both hands open (PK-10 … PK-13, pic included). Reported: elder's expected points minus
younger's per deal, split into declarations and play, with 95% intervals, and how often each
side wins each class of declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.files import atomic_writer
from analyser.games.piket.cards import N_CARDS, cards_of, mask_of
from analyser.games.piket.declarations import (
    S_ELDER,
    S_REPIC,
    S_YOUNGER,
    W_POINT,
    W_SEQ,
    W_SET,
    carte_blanche_masks,
    score_pairs,
)
from analyser.games.piket.exchange import heuristic_discard
from analyser.games.piket.rules import RULES, get_rules
from analyser.games.piket.solver import NO_PIC, solve_batch
from analyser.progress import Progress
from analyser.stats import mean_half_width
from analyser.studies.config import StudyConfig, int_in
from analyser.studies.solve import COUNTERS

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult


def _rules(v) -> str | None:
    return None if str(v) in RULES else f"must be one of {', '.join(RULES)}, got {v!r}"


# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = "the cut_only model is Rikken's deal (R-DEAL-06) of 52 cards; piket deals 32"
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {"deals": int_in(1, 10_000_000), "piket_rules": _rules}


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """One row per deal index (each deal comes from the seed and its index)."""
    return pd.DataFrame({"hand_id": np.arange(cfg["deals"], dtype=np.int64)})


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One exact play per deal."""
    return len(hands)


def _deal(seed: int, i: int) -> tuple[int, int, list[int]]:
    """Deal ``i``: elder's and younger's dealt hands (masks) and the talon, top first."""
    p = np.random.default_rng([seed, i]).permutation(N_CARDS)
    return mask_of(p[:12].tolist()), mask_of(p[12:24].tolist()), [int(c) for c in p[24:]]


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per deal: the declarations of both sides after the heuristic exchanges and the exact
    value of the play (elder's side)."""
    r = get_rules(str(cfg["piket_rules"]))
    ids = hands["hand_id"].to_numpy()
    dealt_e, dealt_y, finals_e, finals_y = [], [], [], []
    for i in ids:
        e, y, talon = _deal(int(cfg["seed"]), int(i))
        de = mask_of(heuristic_discard(cards_of(e), r.elder_max))
        dy = mask_of(heuristic_discard(cards_of(y), r.younger_max))
        take_e = talon[: r.elder_max]
        take_y = talon[r.elder_max : r.elder_max + r.younger_max]  # PK-03
        dealt_e.append(e)
        dealt_y.append(y)
        finals_e.append((e & ~de) | mask_of(take_e))
        finals_y.append((y & ~dy) | mask_of(take_y))
    fe = np.array(finals_e, np.int64)
    fy = np.array(finals_y, np.int64)
    sc = score_pairs(
        fe, fy, carte_blanche_masks(np.array(dealt_e)), carte_blanche_masks(np.array(dealt_y)),
        r.packed(),
    )  # fmt: skip
    pic = np.where((sc[:, S_YOUNGER] == 0) & (sc[:, S_ELDER] < r.pic_at), sc[:, S_ELDER], NO_PIC)
    play = solve_batch(fe, fy, r, pic)
    # pic is part of the play's value: the deals where it was possible are solved once more
    # without it, to say how often it was scored
    plain = play.copy()
    alive = pic >= 0
    if alive.any():
        plain[alive] = solve_batch(fe[alive], fy[alive], r)
    if progress is not None:
        progress.advance(len(ids))
    COUNTERS["positions"] += len(ids)
    decl = sc[:, S_ELDER] - sc[:, S_YOUNGER]
    return pd.DataFrame({
        "hand_id": ids, "decl_elder": sc[:, S_ELDER], "decl_younger": sc[:, S_YOUNGER],
        "declarations": decl, "play": play, "total": decl + play,
        "point": sc[:, W_POINT], "sequence": sc[:, W_SEQ], "sets": sc[:, W_SET],
        "repic": sc[:, S_REPIC], "pic": (play - plain >= r.pic_bonus).astype(np.int64),
        "deals": 1,
    })  # fmt: skip


def _mean_row(name: str, v: np.ndarray) -> dict:
    n = len(v)
    m = float(v.mean()) if n else float("nan")
    half = mean_half_width(v)
    return {"part": name, "deals": n, "mean": m, "lo": m - half, "hi": m + half}


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """Elder's edge per deal by part (declarations, play, total) and the classes' winners."""
    r = get_rules(str(cfg["piket_rules"]))
    bonus = (
        (df["repic"] == 1) * r.repic_bonus
        - (df["repic"] == -1) * r.repic_bonus
        + df["pic"] * r.pic_bonus
    ).to_numpy()
    parts = pd.DataFrame([
        _mean_row("declarations", df["declarations"].to_numpy()),
        _mean_row("trick play", df["play"].to_numpy()),
        _mean_row("repic + pic (in the two left)", bonus),
        _mean_row("total", df["total"].to_numpy()),
    ])  # fmt: skip
    rows = []
    for label, col in (("point", "point"), ("sequence", "sequence"), ("quatorze/trio", "sets")):
        v = df[col].to_numpy()
        for who, sel in (("elder", v > 0), ("younger", v < 0), ("nobody", v == 0)):
            rows.append({"class": label, "won by": who, "deals": len(v), "made": int(sel.sum())})
    from analyser.stats import with_interval

    classes = with_interval(pd.DataFrame(rows))
    bonuses = with_interval(pd.DataFrame([
        {"bonus": "repic (elder)", "deals": len(df), "made": int((df["repic"] == 1).sum())},
        {"bonus": "repic (younger)", "deals": len(df), "made": int((df["repic"] == -1).sum())},
        {"bonus": "pic (elder)", "deals": len(df), "made": int(df["pic"].sum())},
    ]))  # fmt: skip
    return {"parts": parts, "classes": classes, "bonuses": bonuses}


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """No guideline of the book is scored here."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 11, piket (docs/piket.md). Uniform deals of the 32 cards; elder exchanges 5 and "
    "younger 3 by the analyser's stated heuristic (keep kings and aces, then the longer "
    "suits, then the higher cards); declarations scored between the hands after the exchange "
    "(PK-04..09, repic PK-13), the play solved exactly with both hands open, pic included "
    "(PK-10..13). Elder's points minus younger's per deal."
)

METHOD_NOTE = (
    "Two players: elder (the non-dealer, who leads) and younger (the dealer). The play is "
    "solved exactly with both hands open; the exchanges follow the stated heuristic."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its chart, tables and reading (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    import matplotlib.pyplot as plt

    from analyser.report.blocks import Block, charts, pct, table_block

    parts = res.tables["parts"]
    fig, ax = plt.subplots(figsize=(7.2, 4.2))
    x = np.arange(len(parts))
    m, lo, hi = (parts[k].to_numpy() for k in ("mean", "lo", "hi"))
    ax.bar(x, m, color=[charts.OKABE_ITO[k % len(charts.OKABE_ITO)] for k in x], width=0.6)
    ax.errorbar(x, m, yerr=np.vstack([m - lo, hi - m]).clip(min=0), fmt="none",
                ecolor="black", capsize=4, linewidth=1)  # fmt: skip
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, list(parts["part"]))
    ax.set_ylabel("elder's points minus younger's, per deal")
    ax.set_xlabel("part of the deal's score (95% intervals)")
    ax.set_title("Piket: how much is being elder worth? (exact play, heuristic exchange)",
                 fontsize=10)  # fmt: skip
    ax.grid(axis="y", alpha=0.3)
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / "piket_elder.png"
    fig.tight_layout()
    try:
        with atomic_writer(png, "wb") as fh:
            fig.savefig(fh, dpi=charts.DPI, format="png")
    finally:
        plt.close(fig)
    total = parts[parts.part == "total"].iloc[0]
    decl = parts[parts.part == "declarations"].iloc[0]
    play = parts[parts.part == "trick play"].iloc[0]
    cls = res.tables["classes"]
    point_e = cls[(cls["class"] == "point") & (cls["won by"] == "elder")].iloc[0]
    reading = (
        f"Over {res.cfg['deals']} deals elder scores {total['mean']:+.1f} points a deal more "
        f"than younger (95% interval {total['lo']:+.1f} to {total['hi']:+.1f}): "
        f"{decl['mean']:+.1f} from the declarations and {play['mean']:+.1f} from the play. "
        f"Elder wins the point on {pct(float(point_e['p']))} of deals. Both players exchange "
        "by a simple stated heuristic and play with both hands open, so this is elder's edge "
        "between two equal players of that kind, not a table's."
    )
    return [
        Block("How much is being elder worth?", reading, png=png),
        table_block("Elder's edge by part of the score", parts, folder, "piket_parts"),
        table_block("Who wins each class of declaration", cls, folder, "piket_classes"),
        table_block("Repic and pic", res.tables["bonuses"], folder, "piket_bonuses"),
    ]
