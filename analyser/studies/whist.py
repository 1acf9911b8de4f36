"""Study 10, whist (docs/whist.md): when should a partnership expect game?

Players argue about how much a partnership needs to make game in one deal. Here: uniform
deals, the dealer (West) turns his last card (a uniformly drawn card of his hand, WH-02),
North (seat 1) leads, and the North-South partnership's tricks are solved double-dummy. Each
deal is classed by what North-South hold together: trumps, and high-card points (A 4, K 3,
Q 2, J 1); its points follow the scoring form (WH-04..06). Reported: P(game in this deal,
from love-all) and the expected point difference by trumps and by points.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import N_RANKS
from analyser.games.whist import FORMS, get_form
from analyser.progress import Progress
from analyser.studies.common import pooled
from analyser.studies.config import StudyConfig, int_in
from analyser.studies.solve import COUNTERS

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult


def _form(v) -> str | None:
    return None if str(v) in FORMS else f"must be one of {', '.join(FORMS)}, got {v!r}"


# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = (
    "the cut_only model is Rikken's deal (R-DEAL-06); whist's deals are uniform deals of "
    "the whole pack"
)
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {"deals": int_in(1, 10_000_000), "form": _form}

NORTH, SOUTH, WEST = 0, 2, 3
HCP = {12: 4, 11: 3, 10: 2, 9: 1}
HCP_BANDS = ((0, 19, "under 20"), (20, 25, "20-25"), (26, 40, "26 or more"))
MAX_TRUMPS_SHOWN = 10


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """One row per deal index (the deals themselves come from the seed in solve_hands)."""
    n = cfg["deals"]
    return pd.DataFrame({"hand_id": np.arange(n, dtype=np.int64)})


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One exact count per deal."""
    return len(hands)


def _features(deal: np.ndarray, trump: int) -> tuple[int, int, int]:
    """North-South's trumps, trump honours (A K Q J) and high-card points."""
    ns = int(deal[NORTH]) | int(deal[SOUTH])
    trumps = bin((ns >> (16 * trump)) & 0xFFFF).count("1")
    honours = sum((ns >> (16 * trump + r)) & 1 for r in HCP)
    hcp = sum(v * ((ns >> (16 * s + r)) & 1) for s in range(4) for r, v in HCP.items())
    return trumps, honours, hcp


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per deal: the turned card's suit, North-South's holding, tricks and points."""
    from analyser.sampler import random_deals
    from analyser.solver import GOAL_TRICKS, solve_batch

    start = int(hands["hand_id"].iloc[0])
    deals = random_deals(len(hands), cfg["seed"], start=start)
    trumps = []
    for i in range(len(hands)):
        rng = random.Random(f"{cfg['seed']}/turned/{start + i}")
        west = [b for b in range(64) if (int(deals[i, WEST]) >> b) & 1]
        trumps.append(rng.choice(west) // 16)
    side = (1 << NORTH) | (1 << SOUTH)
    tricks = solve_batch(
        deals, np.array(trumps), NORTH, side, GOAL_TRICKS,
        on_done=None if progress is None else progress.advance,
    ).astype(np.int64)  # fmt: skip
    COUNTERS["positions"] += len(hands)
    form = get_form(str(cfg["form"]))
    rows = []
    for i in range(len(hands)):
        t_ns, h_ns, hcp = _features(deals[i], trumps[i])
        ours = form.points(int(tricks[i]), h_ns)
        theirs = form.points(N_RANKS - int(tricks[i]), 4 - h_ns)
        rows.append({
            "hand_id": start + i, "trump": trumps[i], "ns_trumps": t_ns, "ns_honours": h_ns,
            "ns_hcp": hcp, "tricks": int(tricks[i]), "points": ours, "points_against": theirs,
            "made": int(ours >= form.target), "deals": 1,
        })  # fmt: skip
    return pd.DataFrame(rows)


def _band(hcp: int) -> str:
    return next(label for lo, hi, label in HCP_BANDS if lo <= hcp <= hi)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """P(game in this deal) by North-South's trumps and points band; points by trumps."""
    d = df.assign(
        trumps=df["ns_trumps"].clip(upper=MAX_TRUMPS_SHOWN),
        band=[_band(int(h)) for h in df["ns_hcp"]],
        diff=df["points"] - df["points_against"],
    )
    by_trumps = pooled(d, ["trumps"])
    by_both = pooled(d, ["band", "trumps"])
    points = d.groupby("trumps")["diff"].agg(["mean", "count"]).reset_index()
    return {"by_trumps": by_trumps, "by_band": by_both, "points": points}


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """No guideline of the book is scored here."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 10, whist (docs/whist.md). Uniform deals; the dealer (West) turns a random card of "
    "his hand for trump, North leads, and North-South's tricks are solved double-dummy. The "
    "deals are classed by what North-South hold together (trumps; high-card points A 4, K 3, "
    "Q 2, J 1) and scored by the chosen form from love-all (WH-04..06)."
)

METHOD_NOTE = (
    "Seats: North-South are the partnership studied; West deals and turns trump, North "
    "leads. Whist figures are double-dummy (every hand visible, best play by both sides)."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, bar_series, charts, pct, table_block

    t = res.tables
    by_band = t["by_band"]
    labels = [str(k) for k in range(int(by_band["trumps"].min()), MAX_TRUMPS_SHOWN + 1)]
    series = {
        f"{band} points": bar_series(by_band[by_band.band == band], "trumps", labels)
        for _, _, band in HCP_BANDS
    }
    png = charts.paired_bars(
        [f"{k}{'+' if k == str(MAX_TRUMPS_SHOWN) else ''}" for k in labels],
        series,
        folder / "whist_game.png",
        title="Whist: P(game in one deal) by North-South's trumps and points (double-dummy)",
        xlabel="trumps held by the partnership",
        ylabel="P(game in this deal)",
    )
    by_trumps = t["by_trumps"]
    half = by_trumps[by_trumps.p >= 0.5]
    first = int(half["trumps"].min()) if not half.empty else None
    strong = by_band[(by_band.band == HCP_BANDS[-1][2]) & (by_band.p >= 0.5)]
    first_strong = int(strong["trumps"].min()) if not strong.empty else None
    form = get_form(str(res.cfg["form"]))
    reading = (
        f"Under the {form.name} form ({res.cfg['deals']} deals), a partnership wins the game "
        "in one deal from love-all "
        + (
            f"more often than not from {first} trumps between them on average"
            if first is not None
            else "less often than not at every trump count"
        )
        + (
            f", and with {HCP_BANDS[-1][2]} high-card points from {first_strong} trumps"
            if first_strong is not None
            else ""
        )
        + ". Overall: "
        + pct(float(res.table["made"].mean()))
        + " of deals give North-South the game. Double-dummy: both sides see every card."
    )
    return [
        Block("When does a partnership expect game?", reading, png=png),
        table_block("P(game) by trumps", by_trumps, folder, "whist_by_trumps"),
        table_block("P(game) by points band and trumps", by_band, folder, "whist_by_band"),
        table_block("Point difference by trumps", t["points"], folder, "whist_points"),
    ]
