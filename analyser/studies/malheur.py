"""Study 5, malheur: P(8 tricks) for three-ace hands, the partner choosing trump (G-MAL-07).

North holds exactly three aces (uniform among such hands) and leads trick 1 (forehand). On
each deal the partner is the holder of the fourth ace (R-MAL-03), which is his partner card
(R-PLAY-05). Every deal is solved with each suit the partner may name (V-04 may forbid the
fourth ace's suit): whether North and the partner take at least 8 tricks. From that:

* ``made_heuristic`` — with the trump G-MAL-07 picks from the partner's hand (his cards plus
  North's known aces): a rule a partner can follow at the table;
* ``made_best`` — with the best suit for that very deal: an **upper bound**, since choosing
  it needs every hand visible.

Result: one row per (hand, deal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import ACE, N_RANKS, SUIT_LETTERS, card, mask_to_cards
from analyser.guidelines import malheur_trump
from analyser.progress import Progress
from analyser.rules import MALHEUR_TARGET, malheur_trump_choices, parse_ruleset
from analyser.stats import cluster_interval
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, model_cells, pooled, renumber
from analyser.studies.config import ConfigError, StudyConfig, int_in
from analyser.studies.solve import deals_for_hand, holder_of, solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# the deal model is a study key (docs/deal_model.md): cut_only draws each hand's deals
CUT_ONLY = True
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "hands": int_in(1, 1_000_000),
}


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """``hands`` three-ace hands, with the suit of the missing (fourth) ace."""
    ruleset = parse_ruleset(cfg["rules"])
    if not ruleset.malheur_played:
        raise ConfigError(f"{cfg.path}: key 'rules' turns malheur off ({cfg['rules']!r})")
    masks = gen.three_ace_hands(gen.stream(cfg["seed"], 6), cfg["hands"])
    df = renumber([hand_frame(masks, cfg["seed"], 0)], cfg["seed"])
    df["fourth_ace"] = [
        next(card(s, ACE) for s in range(4) if not int(m) >> (16 * s + ACE) & 1) for m in masks
    ]
    return df


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One solve per deal and allowed trump."""
    ruleset = parse_ruleset(cfg["rules"])
    return sum(
        len(malheur_trump_choices(ruleset, int(a))) * cfg["deals_per_hand"]
        for a in hands["fourth_ace"]
    )


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per (hand, deal): made with each allowed trump, with G-MAL-07's trump, with the best."""
    from analyser.solver import GOAL_GE

    ruleset = parse_ruleset(cfg["rules"])
    n_deals = cfg["deals_per_hand"]
    frames, pos = [], []
    for r in hands.itertuples():
        deals = deals_for_hand(r.mask, n_deals, int(r.deal_seed), cfg["deal_model"])
        ace = int(r.fourth_ace)
        partner = holder_of(deals, ace)
        allowed = malheur_trump_choices(ruleset, ace)
        heur = [
            malheur_trump(mask_to_cards(int(deals[i, partner[i]])), allowed=allowed)
            for i in range(n_deals)
        ]
        for t in allowed:
            pos.append((deals, t, 1 | (1 << partner), ace))
        frames.append(
            pd.DataFrame(
                {
                    "hand_id": r.hand_id,
                    "hand": r.hand,
                    "mask": r.mask,
                    "deal_seed": r.deal_seed,
                    "deal": np.arange(n_deals),
                    "fourth_ace_suit": SUIT_LETTERS[ace // N_RANKS],
                    "partner": partner,
                    "heuristic_trump": heur,
                    "allowed": [len(allowed)] * n_deals,
                }
            )
        )
    made = solve_positions(
        np.concatenate([p[0] for p in pos]),
        np.concatenate([np.full(n_deals, p[1]) for p in pos]),
        0,
        np.concatenate([p[2] for p in pos]),
        GOAL_GE,
        MALHEUR_TARGET,
        np.concatenate([np.full(n_deals, p[3]) for p in pos]),
        discard_ok=ruleset.called_card_may_be_discarded,
        progress=progress,
    )
    out = pd.concat(frames, ignore_index=True)
    by_trump = np.full((len(out), 4), -1, dtype=np.int64)  # -1: trump not allowed
    k, row0 = 0, 0
    for r in hands.itertuples():
        for t in malheur_trump_choices(ruleset, int(r.fourth_ace)):
            by_trump[row0 : row0 + n_deals, t] = made[k * n_deals : (k + 1) * n_deals]
            k += 1
        row0 += n_deals
    for t in range(4):
        out[f"made_{SUIT_LETTERS[t]}"] = by_trump[:, t]
    out["made_heuristic"] = by_trump[np.arange(len(out)), out["heuristic_trump"].to_numpy()]
    out["made_best"] = by_trump.max(axis=1).clip(min=0)
    out["deals"] = 1
    best_suits = by_trump == 1
    out["heuristic_is_a_best"] = (out["made_heuristic"] == 1) | ~best_suits.any(axis=1)
    return out


# --------------------------------------------------------------------------- summaries


def overview(df: pd.DataFrame) -> pd.DataFrame:
    """P(8 tricks) with G-MAL-07's trump and with the best suit per deal (upper bound), and how
    often the heuristic's suit is as good as the best; 95 % intervals count each hand's deals
    as one cluster (:func:`analyser.stats.cluster_interval`)."""
    rows = []
    for label, col in (
        ("G-MAL-07 heuristic trump", "made_heuristic"),
        ("best suit per deal (upper bound)", "made_best"),
        ("heuristic trump as good as the best", "heuristic_is_a_best"),
    ):
        per = df.groupby("hand_id")[col].agg(["sum", "count"])
        p, lo, hi = cluster_interval(per["sum"].to_numpy(float), per["count"].to_numpy(float))
        rows.append({"choice": label, "hands": len(per), "deals": int(per["count"].sum()),
                     "made": int(per["sum"].sum()), "p": p, "lo": lo, "hi": hi})  # fmt: skip
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    per_hand = df.groupby("hand_id").agg(
        made_heuristic=("made_heuristic", "sum"),
        made_best=("made_best", "sum"),
        deals=("deals", "sum"),
    )
    per_hand["p_heuristic"] = per_hand.made_heuristic / per_hand.deals
    per_hand["p_best"] = per_hand.made_best / per_hand.deals
    return {
        "overview": overview(df),
        "by_heuristic_trump_vs_ace": pooled(
            df.assign(
                trump_is_ace_suit=[
                    SUIT_LETTERS[t] == s
                    for t, s in zip(df.heuristic_trump, df.fourth_ace_suit, strict=True)
                ]
            ),
            "trump_is_ace_suit",
            made="made_heuristic",
        ),
        "per_hand": per_hand.reset_index(),
    }


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """Malheur is obligatory: the study has no bid/pass classifier to score."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 5. North holds exactly three aces (uniform among such hands) and leads; "
    "the holder of the fourth ace is the partner and names trump. Make = 8 tricks together."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, ci, pct, table_block

    ov = res.tables["overview"]
    d = {r.choice: r for r in ov.itertuples()}
    h = d["G-MAL-07 heuristic trump"]
    b = d["best suit per deal (upper bound)"]
    a = d["heuristic trump as good as the best"]
    reading = (
        f"Three-ace malheur hands made 8 tricks with the partner's G-MAL-07 trump in "
        f"{ci(h._asdict())}; choosing the best suit for each deal (an upper bound: it needs "
        f"every hand visible) gives {pct(b.p)}. The heuristic's suit was as good as the best on "
        f"{pct(a.p)} of deals. For a player: "
        + (
            "partner's heuristic trump leaves little on the table."
            if b.p - h.p < 0.1
            else "the trump choice matters; the heuristic misses a good share of makeable deals."
        )
    )
    png = charts.paired_bars(
        ["P(8 tricks)"],
        {
            "G-MAL-07 heuristic trump": ([h.p], [h.lo], [h.hi]),
            "best suit per deal (upper bound)": ([b.p], [b.lo], [b.hi]),
        },
        folder / "malheur.png",
        title="Malheur (3 aces, N on lead): partner's trump choice",
        xlabel="",
    )
    per_hand = res.tables["per_hand"]
    return [
        Block("Malheur: P(8 tricks), heuristic vs best trump", reading, png=png),
        table_block("Malheur overview", ov, folder, "malheur_overview"),
        table_block(
            "Heuristic trump is the fourth ace's suit?",
            res.tables["by_heuristic_trump_vs_ace"],
            folder,
            "malheur_by_ace_suit",
            reading=f"Per hand, P(make) with the heuristic ranges from "
            f"{pct(per_hand.p_heuristic.min())} to {pct(per_hand.p_heuristic.max())}.",
        ),
    ]


# --------------------------------------------------------------------------- deal models

MODEL_VERDICT = (0.5, "makes 8", "fails")


def MODEL_CELLS(df: pd.DataFrame) -> pd.DataFrame:  # noqa: N802 (the study protocol's name)
    """The cells compared between deal models: P(8 tricks) with G-MAL-07's trump and with
    the best trump for each deal."""
    return pd.concat(
        [
            model_cells(df, ["G-MAL-07 trump"] * len(df), made="made_heuristic"),
            model_cells(df, ["best trump (upper bound)"] * len(df), made="made_best"),
        ],
        ignore_index=True,
    )
