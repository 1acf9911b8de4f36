"""Study 4, piek: P(exactly one trick) by the number of possible winners and the misère-safety
of the rest (G-PIEK-02, -03), and the book's warning that a hand "too weak to rik, too strong
for misère" is no piek hand (G-PIEK-05), quantified.

Hands (North): ``k`` aces planted (``k`` uniform in ``0 .. max_planted_aces``), the other
cards drawn rank-weighted with weight ``exp(-λ·rank)`` (λ uniform in ``[0, lambda_max]``; λ =
0 is uniform); accepted while the quota of their bucket (possible winners 0, 1, 2, 3+ ×
G-PIEK-02 verdict yes/no; ``hands_per_bucket`` each) has room. Each deal is solved (no
trump, North alone aiming at exactly one trick) for every seat in ``leaders`` leading trick 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import ACE, N_RANKS, N_SUITS, card
from analyser.guidelines import (
    exit_count,
    misere_ok,
    piek_fallback,
    piek_ok,
    rik_ok,
    second_winner,
    winner_count,
)
from analyser.progress import Progress
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, model_cells, pooled, renumber
from analyser.studies.config import StudyConfig, float_in, int_in, seat_list
from analyser.studies.misere import solve_null

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# the deal model is a study key (docs/deal_model.md): cut_only draws each hand's deals
CUT_ONLY = True
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "lambda_max": float_in(0.0, 3.0),
    "max_planted_aces": int_in(0, 4),
    "hands_per_bucket": int_in(1, 1_000_000),
    "leaders": seat_list,
    "max_nodes": int_in(0, 10**12),
}

MAX_WINNER_BUCKET = 3


def piek_candidates(
    rng: np.random.Generator, n: int, lambda_max: float, max_aces: int
) -> np.ndarray:
    """``n`` candidates of the planted-aces design (module docstring)."""
    k = rng.integers(0, max_aces + 1, size=n)
    planted = [
        [card(int(s), ACE) for s in rng.permutation(N_SUITS)[: int(ki)]] for ki in k.tolist()
    ]
    return gen.weighted_hands(rng, n, rng.uniform(0.0, lambda_max, size=n), planted)


def bucket_of(masks: np.ndarray) -> list[tuple[int, bool]]:
    """(possible winners capped at 3, G-PIEK-02 verdict) of each hand."""
    w = np.minimum(winner_count.many(masks), MAX_WINNER_BUCKET)
    return list(zip(w.tolist(), piek_ok.many(masks).tolist(), strict=True))


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """The accepted hands with their features."""
    quotas = {
        (w, ok): cfg["hands_per_bucket"]
        for w in range(MAX_WINNER_BUCKET + 1)
        for ok in (False, True)
        if w > 0 or not ok  # no winner: G-PIEK-02 never says yes
    }
    masks, keys, drawn = gen.quota_sample(
        cfg["seed"],
        5,
        lambda rng, n: piek_candidates(rng, n, cfg["lambda_max"], cfg["max_planted_aces"]),
        bucket_of,
        quotas,
    )
    df = renumber([hand_frame(masks, cfg["seed"], 0)], cfg["seed"])
    df["winners"] = [k[0] for k in keys]
    df["piek_ok"] = [k[1] for k in keys]
    df["second_winner"] = second_winner.many(masks)
    df["fallback"] = piek_fallback.many(masks)
    df["rik_ok"] = rik_ok.many(masks)
    df["misere_ok"] = misere_ok.many(masks)
    df["exit_cards"] = exit_count.many(masks)
    df["aces"] = [sum(int(m) >> (16 * s + ACE) & 1 for s in range(N_SUITS)) for m in masks]
    return df


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One piek solve per deal and leader."""
    return len(hands) * cfg["deals_per_hand"] * len(cfg["leaders"])


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Piek (exactly one trick) for North on every deal, for each leader."""
    from analyser.solver import GOAL_PIEK

    return solve_null(cfg, hands, GOAL_PIEK, progress)


# --------------------------------------------------------------------------- summaries


def fallback_table(df: pd.DataFrame) -> pd.DataFrame:
    """P(piek) for G-PIEK-05's fallback hands against G-PIEK-02's piek hands, per leader."""
    group = np.where(
        df["piek_ok"],
        "G-PIEK-02 piek hand",
        np.where(df["fallback"], "fallback (no rik, no misère)", "other"),
    )
    return pooled(df.assign(group=group), ["leader", "group"])


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    return {
        "by_winners": pooled(df, ["leader", "winners", "piek_ok"]),
        "fallback": fallback_table(df),
        "by_exit_cards": pooled(
            df.assign(exit_cards=df["exit_cards"].clip(upper=N_RANKS - 3)), ["leader", "exit_cards"]
        ),
    }


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """G-PIEK-02 scored per leader."""
    from analyser.studies.verdicts import classifier_score

    rows = []
    for leader, g in df.groupby("leader"):
        rows += classifier_score(
            cfg.name,
            "G-PIEK-02",
            g["piek_ok"].to_numpy(),
            g["made"].to_numpy(),
            g["deals"].to_numpy(),
            contract="piek",
            seat="N forehand (on lead)" if leader == "N" else f"{leader} leads",
        )
    return rows


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 4. Hands with 0–3 planted aces, other cards weighted toward low ranks, "
    "accepted up to a quota per (possible winners, G-PIEK-02 verdict). Make = exactly one "
    "trick, no trump."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import LEADER_LABEL, Block, charts, ci, pct, pool, table_block

    t = res.tables
    bw = t["by_winners"].copy()
    bw["series"] = np.where(bw.piek_ok, "rest misère-safe (G-PIEK-02 yes)", "rest not safe")
    labels = {0: "0", 1: "1", 2: "2", 3: "3+"}
    blocks = []
    for leader, g in bw.groupby("leader"):
        png = charts.points(
            g,
            folder / f"piek_winners_{leader}.png",
            x="winners",
            hue="series",
            xticklabels=labels,
            title=f"Piek: P(exactly one trick), {LEADER_LABEL.get(leader, leader)}",
            xlabel="possible winners (aces, top honour of a 5+ suit)",
            ylabel="P(piek makes)",
        )
        yes, no = g[g.piek_ok], g[~g.piek_ok]
        one = g[(g.winners == 1) & g.piek_ok]
        two = g[(g.winners >= 2) & g.piek_ok]
        reading = (
            f"{LEADER_LABEL.get(leader, leader)}: hands G-PIEK-02 accepts made {ci(pool(yes))}, "
            f"the others {ci(pool(no))}. Among accepted hands, one possible winner: "
            f"{pct(pool(one)['p'])}; two or more (G-PIEK-03): {pct(pool(two)['p'])}."
        )
        blocks.append(
            Block(f"G-PIEK-02/03: winners and a safe rest ({leader} leads)", reading, png=png)
        )
    fb = t["fallback"]
    lines = []
    for leader, g in fb.groupby("leader"):
        d = {r.group: r for r in g.itertuples()}
        f = d.get("fallback (no rik, no misère)")
        p = d.get("G-PIEK-02 piek hand")
        if f is not None and p is not None:
            lines.append(
                f"{LEADER_LABEL.get(leader, leader)}: fallback hands {pct(f.p)} "
                f"({f.hands} hands) against {pct(p.p)} for piek hands"
            )
    warn = (
        (
            "The book's warning (G-PIEK-05) quantified — " + "; ".join(lines) + ". For a player: "
            "a hand that is merely too weak to rik and too strong for misère is no reason to piek "
            "unless it also has a winner and a safe rest."
        )
        if lines
        else "The sample has no fallback hands."
    )
    png = charts.points(
        fb,
        folder / "piek_fallback.png",
        x="group",
        hue="leader",
        hue_label=LEADER_LABEL,
        title="G-PIEK-05: P(piek) for fallback hands vs piek hands",
        xlabel="hand group",
        ylabel="P(piek makes)",
    )
    blocks.append(Block("G-PIEK-05: too weak to rik, too strong for misère", warn, png=png))
    blocks.append(table_block("Piek by winners and rest", t["by_winners"], folder, "piek_winners"))
    blocks.append(
        table_block("Piek by exit cards (G-PIEK-06)", t["by_exit_cards"], folder, "piek_exit")
    )
    return blocks


# --------------------------------------------------------------------------- deal models

MODEL_VERDICT = (0.5, "piek", "pass")


def MODEL_CELLS(df: pd.DataFrame) -> pd.DataFrame:  # noqa: N802 (the study protocol's name)
    """The cells compared between deal models: P(exactly one trick) by possible winners,
    G-PIEK-02 and leader."""
    labels = [
        f"{w} winners, G-PIEK-02 {'yes' if ok else 'no'}, {lead} leads"
        for w, ok, lead in zip(df["winners"], df["piek_ok"], df["leader"], strict=True)
    ]
    return model_cells(df, labels)
