"""Study 3, misère: P(no trick) by the book's hole measures and red flags (G-MIS-02..06), the
'absolutely safe' test, open misère (G-OPEN-03) and misère with a praatje (G-PRAAT-02).

Hands (North): uniform hands are rarely misère hands, so candidates are drawn rank-weighted
with weight ``exp(-λ·rank)`` per card (λ uniform in ``[0, lambda_max]`` per hand: λ = 0 is a
uniform hand, larger λ favours low cards) and accepted while the quota of their number of
holes (``min_holes``, ..., ``max_holes`` or more; ``hands_per_bucket`` each) has room.
``min_holes > 0`` leaves out the hands whose misère the solver must prove safe against every
defence, which are by far the slowest positions to solve (see the suite files).

Each deal is solved for every seat in ``leaders`` leading trick 1 (no trump, North alone
aiming at no trick): ``"N"`` is North on lead (forehand), another seat means North is not on
lead (``"E"``: North plays last to trick 1). Double-dummy, the closed, open and praatje forms
with the same leader are the same position (everything is visible to everybody); the open
forms have the bidder (North) lead, so they are scored on the ``"N"`` rows, where the figure is
exact for the praatje (G-PRAAT-01) and pessimistic for the closed misère.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.guidelines import (
    absolutely_safe,
    bare_high_card,
    big_hole_suits,
    hole_count,
    hole_suits,
    long_suit_without_two,
    max_delta,
    misere_ok,
    open_misere_ok,
    praatje_ok,
    three_big_holes,
)
from analyser.guidelines.hand import mask_holdings
from analyser.progress import Progress
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, model_cells, pooled, renumber
from analyser.studies.config import SEAT_NAMES, StudyConfig, float_in, int_in, seat_list
from analyser.studies.solve import deals_for_hand, solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# the deal model is a study key (docs/deal_model.md): cut_only draws each hand's deals
CUT_ONLY = True
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "lambda_max": float_in(0.0, 3.0),
    "min_holes": int_in(0, 13),
    "max_holes": int_in(1, 13),
    "hands_per_bucket": int_in(1, 1_000_000),
    "leaders": seat_list,
    "max_nodes": int_in(0, 10**12),
}

# (registry id, feature column, the value that means "bid") for the classifier scores.
CLOSED_CLASSIFIERS = (
    ("G-MIS-02", "absolutely_safe", True),
    ("G-MIS-04", "bare_high_card", False),
    ("G-MIS-05", "long_without_two", False),
    ("G-MIS-06", "three_big_holes", False),
    ("G-MIS-04..06", "misere_ok", True),
)
OPEN_CLASSIFIERS = (
    ("G-OPEN-03", "open_misere_ok", True, "open_misere"),
    ("G-PRAAT-02", "praatje_ok", True, "open_misere_praatje"),
)


def low_hands(rng: np.random.Generator, n: int, lambda_max: float) -> np.ndarray:
    """``n`` candidates with weight ``exp(-λ·rank)``, λ uniform in ``[0, lambda_max]``."""
    return gen.weighted_hands(rng, n, rng.uniform(0.0, lambda_max, size=n))


def hand_features(masks: np.ndarray) -> pd.DataFrame:
    """The misère guidelines' measures and flags of each hand."""
    masks = np.asarray(masks, dtype=np.int64)
    hold = mask_holdings(masks)
    lengths = np.vectorize(lambda h: int(h).bit_count())(hold)
    tops = np.vectorize(lambda h: int(h).bit_length() - 1)(hold)
    singleton_top = np.where(lengths == 1, tops, -1).max(axis=1)
    return pd.DataFrame(
        {
            "holes": hole_count.many(masks),
            "hole_suits": hole_suits.many(masks),
            "max_delta": max_delta.many(masks),
            "big_hole_suits": big_hole_suits.many(masks),
            "highest_singleton": singleton_top,  # rank index, -1 = no singleton
            "absolutely_safe": absolutely_safe.many(masks),
            "bare_high_card": bare_high_card.many(masks),
            "long_without_two": long_suit_without_two.many(masks),
            "three_big_holes": three_big_holes.many(masks),
            "misere_ok": misere_ok.many(masks),
            "open_misere_ok": open_misere_ok.many(masks),
            "praatje_ok": praatje_ok.many(masks),
        }
    )


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """The accepted hands with their features (bucket = holes, capped at ``max_holes``)."""
    cap = cfg["max_holes"]
    quotas = {k: cfg["hands_per_bucket"] for k in range(cfg["min_holes"], cap + 1)}
    masks, keys, drawn = gen.quota_sample(
        cfg["seed"],
        4,
        lambda rng, n: low_hands(rng, n, cfg["lambda_max"]),
        lambda m: np.minimum(hole_count.many(m), cap).tolist(),
        quotas,
    )
    df = renumber([hand_frame(masks, cfg["seed"], 0, hole_bucket=keys)], cfg["seed"])
    return pd.concat([df, hand_features(masks)], axis=1)


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One misère solve per deal and leader."""
    return len(hands) * cfg["deals_per_hand"] * len(cfg["leaders"])


def solve_null(cfg: StudyConfig, hands: pd.DataFrame, goal: int, progress) -> pd.DataFrame:
    """Rows per (hand, leader) with ``made`` = deals where North alone makes ``goal``
    (misère or piek), no trump, of ``deals`` decided deals; ``undecided`` = deals given up at
    the node budget ``max_nodes`` (0 = none). Shared by the misère and piek studies."""
    n_deals = cfg["deals_per_hand"]
    deals = np.concatenate(
        [
            deals_for_hand(r.mask, n_deals, int(r.deal_seed), cfg["deal_model"])
            for r in hands.itertuples()
        ]
    )
    blocks = []
    for leader in cfg["leaders"]:
        seat = SEAT_NAMES.index(leader)
        res = solve_positions(
            deals, 4, seat, 1, goal, progress=progress, max_nodes=cfg["max_nodes"]
        ).reshape(len(hands), n_deals)
        block = hands.copy()
        block["leader"] = leader
        block["on_lead"] = seat == 0
        # a deal whose proof exceeds the node budget is undecided: it is left out of
        # ``deals`` (the denominator) and counted in ``undecided``, which the report states
        block["undecided"] = (res < 0).sum(axis=1).astype(np.int64)
        block["deals"] = n_deals - block["undecided"]
        block["made"] = (res == 1).sum(axis=1).astype(np.int64)
        blocks.append(block)
    return pd.concat(blocks, ignore_index=True)


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Misère (no trick) for North on every deal, for each leader."""
    from analyser.solver import GOAL_MISERE

    return solve_null(cfg, hands, GOAL_MISERE, progress)


# --------------------------------------------------------------------------- summaries


def flags(df: pd.DataFrame) -> pd.DataFrame:
    """P(make) with and without each red flag / test, per leader."""
    rows = []
    for gid, col, _ in CLOSED_CLASSIFIERS:
        t = pooled(df, ["leader", col]).rename(columns={col: "present"})
        t.insert(0, "flag", f"{gid} {col.replace('_', ' ')}")
        rows.append(t)
    return pd.concat(rows, ignore_index=True)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    singles = df[df["highest_singleton"] >= 0]
    return {
        "by_holes": pooled(df, ["leader", "hole_bucket"]),
        "by_max_delta": pooled(
            df.assign(max_delta=df["max_delta"].clip(upper=8)), ["leader", "max_delta"]
        ),
        "by_hole_suits": pooled(df, ["leader", "hole_suits"]),
        "by_singleton": pooled(singles, ["leader", "highest_singleton"]),
        "flags": flags(df),
        "absolutely_safe": pooled(df[df["absolutely_safe"]], ["leader"]),
    }


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """The misère classifiers per leader; the open forms on the rows where North leads."""
    from analyser.studies.verdicts import classifier_score

    rows = []
    for leader, g in df.groupby("leader"):
        seat = "N forehand (on lead)" if leader == "N" else f"{leader} leads"
        for gid, col, bid_value in CLOSED_CLASSIFIERS:
            rows += classifier_score(
                cfg.name,
                gid,
                g[col].to_numpy() == bid_value,
                g["made"].to_numpy(),
                g["deals"].to_numpy(),
                contract="misere",
                seat=seat,
            )
    bidder = df[df["leader"] == "N"]
    if not bidder.empty:
        for gid, col, bid_value, contract in OPEN_CLASSIFIERS:
            rows += classifier_score(
                cfg.name,
                gid,
                bidder[col].to_numpy() == bid_value,
                bidder["made"].to_numpy(),
                bidder["deals"].to_numpy(),
                contract=contract,
                seat="N (the bidder leads)",
            )
    return rows


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 3. Hands drawn with card weights favouring low ranks and accepted up to a "
    "quota per number of holes (so hole-free hands are well represented). Each deal is played "
    "with North on lead and with East leading (North not on lead). Double-dummy, closed, open "
    "and praatje misère with the same leader coincide; the open forms (bidder leads) are scored "
    "on the North-leads rows, where the figure is exact for the praatje."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import (
        LEADER_LABEL,
        RANK_CHARS_EN,
        Block,
        charts,
        ci,
        pct,
        pool,
        pool_hands,
        table_block,
    )

    t = res.tables
    blocks = []
    safe = t["absolutely_safe"]
    parts = []
    for r in safe.itertuples():
        rate = f"{r.made} of {r.deals} deals ({pct(r.p)}, {r.hands} hands)"
        if r.leader == "N":
            parts.append(f"On lead (forehand), hole-free hands made {rate}.")
        else:
            verdict = (
                "exactly as the book claims (100%)"
                if r.made == r.deals
                else f"NOT 100% — {r.deals - r.made} failures contradict the book's claim"
            )
            parts.append(
                f"Not on lead ({LEADER_LABEL.get(r.leader, r.leader)}), hole-free hands "
                f"made {rate}: {verdict}."
            )
    if res.cfg["min_holes"] > 0:
        parts.append(
            f"This run leaves out hands with fewer than {res.cfg['min_holes']} holes "
            "(key min_holes), so it cannot test the 'absolutely safe' claim."
        )
    elif safe.empty:
        parts.append("The sample has no hole-free hand.")
    blocks.append(
        table_block(
            "G-MIS-02: 'absolutely safe' (no holes)",
            safe,
            folder,
            "misere_safe",
            reading=" ".join(parts),
        )
    )

    bh = t["by_holes"]
    cap = int(res.cfg["max_holes"])
    labels = {k: (f"{k}+" if k == cap else str(k)) for k in range(cap + 1)}

    lines = []
    for leader, g in bh.groupby("leader"):
        g = g.sort_values("hole_bucket")
        first, last = g.iloc[0], g.iloc[-1]
        lines.append(
            f"{LEADER_LABEL.get(leader, leader)}: {pct(first.p)} with "
            f"{labels[int(first.hole_bucket)]} holes, {pct(last.p)} with "
            f"{labels[int(last.hole_bucket)]}"
        )
    png = charts.points(
        bh,
        folder / "misere_holes.png",
        x="hole_bucket",
        hue="leader",
        hue_label=LEADER_LABEL,
        xticklabels=labels,
        title="Misère: P(no trick) by number of holes",
        xlabel="holes (cards with δ ≥ 1, G-MIS-02)",
        ylabel="P(misère makes)",
    )
    blocks.append(
        Block(
            "G-MIS-03: P(misère) by number of holes",
            "P(misère) falls with the number of holes — " + "; ".join(lines) + ". "
            "For a player: count your holes; each one costs, and being on lead costs "
            "more.",
            png=png,
        )
    )
    bd = t["by_max_delta"]
    png = charts.points(
        bd,
        folder / "misere_delta.png",
        x="max_delta",
        hue="leader",
        hue_label=LEADER_LABEL,
        xticklabels={8: "8+"},
        title="Misère: P(no trick) by the largest hole",
        xlabel="largest hole δ (0 = no hole)",
        ylabel="P(misère makes)",
    )
    raw = res.table  # pooled over both leaders: the same hands, so clustered by hand
    small = pool_hands(raw[raw.max_delta == 1])
    big = pool_hands(raw[raw.max_delta >= 3])
    blocks.append(
        Block(
            "G-MIS-03: P(misère) by hole size",
            f"Hands whose largest hole has δ = 1 made {ci(small)}; hands with a hole of "
            f"δ ≥ 3 made {ci(big)} (both leaders pooled). For a player: small holes are "
            "risks, big ones are usually fatal.",
            png=png,
        )
    )

    fl = t["flags"]
    rows = []
    for flag, g in fl.groupby("flag", sort=False):
        yes, no = g[g.present], g[~g.present]
        if yes.empty or no.empty:
            continue
        rows.append(f"{flag}: {pct(pool(yes)['p'])} with, {pct(pool(no)['p'])} without")
    blocks.append(
        table_block(
            "G-MIS-02..06: P(misère) with and without each flag",
            fl,
            folder,
            "misere_flags",
            reading="Both leaders pooled — " + "; ".join(rows) + ".",
        )
    )
    sg = t["by_singleton"].copy()
    if not sg.empty:
        sg["rank"] = [RANK_CHARS_EN[int(r)] for r in sg.highest_singleton]
        high_p = pool_hands(raw[raw.highest_singleton >= 9])
        low_p = pool_hands(raw[(raw.highest_singleton >= 0) & (raw.highest_singleton <= 5)])
        png = charts.points(
            sg,
            folder / "misere_singleton.png",
            x="highest_singleton",
            hue="leader",
            hue_label=LEADER_LABEL,
            xticklabels={i: RANK_CHARS_EN[i] for i in range(13)},
            title="Misère: P(no trick) by the rank of the highest singleton",
            xlabel="highest singleton (hands with a singleton)",
            ylabel="P(misère makes)",
        )
        blocks.append(
            Block(
                "G-MIS-04: bare cards",
                f"With a bare J or higher the misère made {ci(high_p)}; with a bare 7 or "
                f"lower {ci(low_p)}. For a player: a bare high card is the red flag the book "
                "says; a bare low card is a small risk.",
                png=png,
            )
        )
    return blocks


# --------------------------------------------------------------------------- deal models

MODEL_VERDICT = (0.5, "misere", "pass")


def MODEL_CELLS(df: pd.DataFrame) -> pd.DataFrame:  # noqa: N802 (the study protocol's name)
    """The cells compared between deal models: P(no trick) by number of holes (the last
    bucket: ``max_holes`` or more) and leader."""
    labels = [
        f"{h} hole{'' if h == 1 else 's'}, {lead} leads"
        for h, lead in zip(df["hole_bucket"], df["leader"], strict=True)
    ]
    return model_cells(df, labels)
