"""Study 2, alone bids: the book's trick count (G-ALN-03..05) against double-dummy play.

Hands (North, forehand, on lead) come from a strong-hand design: spades get a length ``L``
drawn uniformly from ``trump_lengths``; all 13 cards are drawn rank-weighted with weight
``exp(+λ·rank)`` (λ uniform in ``[0, lambda_max]`` per hand, so high cards are favoured and λ
= 0 is uniform), ``L`` of them spades and the rest from the other suits. A candidate is
accepted while its book count (:data:`analyser.guidelines.book_count`, with the book's trump
:data:`analyser.guidelines.alone_trump`) still has room in its quota of ``hands_per_count``
(counts ``count_min .. count_max``), so every count is covered about equally.

Each hand's deals are solved exactly once (tricks of North alone, the book's trump, North
leads); that answers every alone level at once. Result: one row per (hand, level N) for N =
the rule set's lowest alone bid .. 13, with ``made`` = deals with at least N tricks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import N_CARDS, N_RANKS
from analyser.guidelines import alone_ok, alone_trump, book_count, trump_risk
from analyser.progress import Progress
from analyser.rules import parse_ruleset
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, model_cells, pooled, renumber
from analyser.studies.config import StudyConfig, float_in, int_in, int_list
from analyser.studies.solve import deals_for_hand, solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# the deal model is a study key (docs/deal_model.md): cut_only draws each hand's deals
CUT_ONLY = True
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "trump_lengths": int_list(4, 13),
    "lambda_max": float_in(0.0, 3.0),
    "count_min": int_in(0, 13),
    "count_max": int_in(0, 13),
    "hands_per_count": int_in(1, 1_000_000),
    "bold_below": float_in(0.0, 1.0),
    "timid_above": float_in(0.0, 1.0),
}

_RANK = np.arange(N_CARDS) % N_RANKS


def strong_hands(
    rng: np.random.Generator, n: int, lengths: list[int], lambda_max: float
) -> np.ndarray:
    """``n`` candidate hands of the strong-hand design (module docstring)."""
    length = rng.choice(np.asarray(lengths), size=n)
    lam = rng.uniform(0.0, lambda_max, size=n)
    # Gumbel-top-k: the k largest of log(weight) + Gumbel noise are a weighted draw without
    # replacement. Spades are cards 0..12, the side suits 13..51.
    score = lam[:, None] * _RANK[None, :] + rng.gumbel(size=(n, N_CARDS))
    out = np.empty(n, dtype=np.int64)
    for ell in np.unique(length):
        idx = np.flatnonzero(length == ell)
        spades = np.argsort(-score[idx, :N_RANKS], axis=1)[:, :ell]
        side = N_RANKS + np.argsort(-score[idx, N_RANKS:], axis=1)[:, : N_RANKS - ell]
        out[idx] = gen.cards_mask(np.concatenate([spades, side], axis=1))
    return out


def levels(cfg: StudyConfig) -> list[int]:
    """Alone levels studied: the rule set's lowest alone bid .. 13."""
    return list(range(parse_ruleset(cfg["rules"]).min_alone, N_RANKS + 1))


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """The accepted hands, with their book count, trump and trump risk."""
    counts = range(cfg["count_min"], cfg["count_max"] + 1)
    quotas = {c: cfg["hands_per_count"] for c in counts}
    masks, keys, drawn = gen.quota_sample(
        cfg["seed"],
        3,
        lambda rng, n: strong_hands(rng, n, cfg["trump_lengths"], cfg["lambda_max"]),
        lambda m: book_count.many(m).tolist(),
        quotas,
    )
    df = renumber([hand_frame(masks, cfg["seed"], 0)], cfg["seed"])
    df["count"] = keys
    df["book_trump"] = alone_trump.many(masks)
    df["risk"] = trump_risk.many(masks)
    df["candidates_drawn"] = drawn
    return df


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One exact solve per deal."""
    return len(hands) * cfg["deals_per_hand"]


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Exact tricks of North alone on every deal; one row per (hand, alone level)."""
    from analyser.solver import GOAL_TRICKS

    n_deals = cfg["deals_per_hand"]
    deals = np.concatenate(
        [
            deals_for_hand(r.mask, n_deals, int(r.deal_seed), cfg["deal_model"])
            for r in hands.itertuples()
        ]
    )
    trump = np.repeat(hands["book_trump"].to_numpy(), n_deals)
    tricks = solve_positions(deals, trump, 0, 1, GOAL_TRICKS, progress=progress)
    tricks = tricks.reshape(len(hands), n_deals).astype(np.int64)
    rows = []
    masks = hands["mask"].to_numpy()
    for n in levels(cfg):
        ok = alone_ok.many(masks, n)
        block = hands.drop(columns=["candidates_drawn"]).copy()
        block["level"] = n
        block["alone_ok"] = ok
        block["deals"] = n_deals
        block["made"] = (tricks >= n).sum(axis=1)
        block["mean_tricks"] = tricks.mean(axis=1)
        rows.append(block)
    return pd.concat(rows, ignore_index=True)


# --------------------------------------------------------------------------- summaries


def calibration(df: pd.DataFrame) -> pd.DataFrame:
    """P(make level N) per (book count, N), with ``margin = count - N``."""
    out = pooled(df, ["count", "level"])
    out["margin"] = out["count"] - out["level"]
    return out


def bold_timid(df: pd.DataFrame, cfg: StudyConfig) -> pd.DataFrame:
    """Cells (count, N) where the count misleads: it reaches N but P(make) is below
    ``bold_below`` (too bold), or it falls short of N but P(make) is at least ``timid_above``
    (too timid). Judged on the Wilson interval's far end so noise alone does not flag a cell."""
    cal = calibration(df)
    bold = (cal["count"] >= cal["level"]) & (cal["hi"] < cfg["bold_below"])
    timid = (cal["count"] < cal["level"]) & (cal["lo"] >= cfg["timid_above"])
    cal["verdict"] = np.where(bold, "too bold", np.where(timid, "too timid", ""))
    return cal[cal["verdict"] != ""].reset_index(drop=True)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    by_risk = pooled(df[df["count"] == df["level"]], ["risk"])
    return {
        "calibration": calibration(df),
        "bold_timid": bold_timid(df, cfg),
        "at_count_by_risk": by_risk,
    }


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """G-ALN-03 (``alone_ok(h, N)``) scored for each level N."""
    from analyser.studies.verdicts import classifier_score

    rows = []
    for n, g in df.groupby("level"):
        rows += classifier_score(
            cfg.name,
            "G-ALN-03",
            g["alone_ok"].to_numpy(),
            g["made"].to_numpy(),
            g["deals"].to_numpy(),
            g["mask"].to_numpy(),
            contract=f"alone_{n}",
            seat="N forehand",
        )
    return rows


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 2. Strong hands (spade length drawn from the study's list, cards weighted "
    "toward high ranks) accepted up to a quota per book trick count, so every count is equally "
    "covered. The lone player uses the book's trump (highest count) and leads; exact tricks "
    "give P(make N) for every level N."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, ci, pct, pool, table_block

    cal = res.tables["calibration"]
    exact = cal[cal.margin == 0]
    over = cal[cal.margin == -1]
    parts = []
    if not exact.empty:
        lo_r, hi_r = exact.loc[exact.p.idxmin()], exact.loc[exact.p.idxmax()]
        parts.append(
            f"Bidding exactly the book count made between {pct(lo_r.p)} (count "
            f"{int(lo_r['count'])}) and {pct(hi_r.p)} (count {int(hi_r['count'])}); over all "
            f"counts {ci(pool(exact))}."
        )
    if not over.empty:
        parts.append(f"Bidding one trick more than the count made {ci(pool(over))}.")
    bt = res.tables["bold_timid"]
    if bt.empty:
        parts.append(
            "No (count, level) cell is clearly too bold or too timid at the study's thresholds."
        )
    else:
        for verdict in ("too bold", "too timid"):
            g = bt[bt.verdict == verdict]
            if not g.empty:
                cells = ", ".join(
                    f"count {int(r['count'])}→{int(r.level)} ({pct(r.p)})" for _, r in g.iterrows()
                )
                parts.append(f"{verdict.capitalize()}: {cells}.")
    mean_exact = pool(exact)["p"] if not exact.empty else np.nan
    if not np.isnan(mean_exact):
        parts.append(
            "For a player: "
            + (
                "the count is a safe guide — bid what you count (double-dummy, forehand)."
                if mean_exact >= 0.75
                else "the count alone is not enough; keep a trick in reserve."
            )
        )
    png = charts.calibration(
        cal,
        folder / "alone_calibration.png",
        margins=(1, 0, -1),
        title="Alone bids: P(make N) against the book's trick count (N on lead)",
    )
    risk = res.tables["at_count_by_risk"]
    risk_text = "; ".join(f"risk {int(r.risk)}: {ci(r._asdict())}" for r in risk.itertuples())
    return [
        Block("G-ALN-03..05: calibration of the trick count", " ".join(parts), png=png),
        table_block(
            "Too bold / too timid cells",
            bt,
            folder,
            "alone_bold_timid",
            reading=f"Thresholds: too bold if the count reaches N and the interval lies below "
            f"{res.cfg['bold_below']:.0%}; too timid if it falls short and the interval lies "
            f"at or above {res.cfg['timid_above']:.0%}.",
        ),
        table_block(
            "Bidding exactly the count, by trump risk (m = 3 honours)",
            risk,
            folder,
            "alone_by_risk",
            reading=f"P(make N = count) by the trump risk count: {risk_text}.",
        ),
        table_block("Calibration table (count × level)", cal, folder, "alone_calibration"),
    ]


# --------------------------------------------------------------------------- deal models

MODEL_VERDICT = (0.5, "bid", "pass")


def MODEL_CELLS(df: pd.DataFrame) -> pd.DataFrame:  # noqa: N802 (the study protocol's name)
    """The cells compared between deal models: P(make N alone) where the book's count is N
    (G-ALN-03 says bid) and where it is one short."""
    rows = df[(df["count"] == df["level"]) | (df["count"] == df["level"] - 1)]
    labels = [f"alone {n}, count {c}" for n, c in zip(rows["level"], rows["count"], strict=True)]
    return model_cells(rows, labels)
