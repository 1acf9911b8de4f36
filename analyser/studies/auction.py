"""Study 7, the auction: how much the calls before a seat's turn change its chances.

The bidding model of the other seats is the book model (:class:`analyser.auction.BookModel`:
the lowest legal call the coded guidelines support, pass when none). Two scenarios, each
with hands the book would bid on, each hand solved on two sets of deals:

* ``beter rik after a rik`` — East (seat 2) holds a hand that meets the rik minimum in hearts
  (G-RIK-01 on ♥); he bids beter rik (hearts trump, the called ace by G-ACE-02), North on
  lead. Deals: uniform (``uniform``) and those on which North, the forehand, bid rik
  (``after: rik``, :class:`~analyser.auction.conditioned.ConditionedDeals`).
* ``misère after two passes`` — South (seat 3) holds a hand without G-MIS-04 … 06's red flags
  (``misere_ok``) and with at most :data:`MISERE_MAX_HOLES` holes (G-MIS-02; ours: the
  book model bids misère with every red-flag-free hand, but double-dummy nearly all of those
  with more holes fail, which would leave nothing to compare); he plays misère, North on
  lead. Deals: uniform and those on which North
  and East both passed (``after: pass pass``).

Hands are drawn uniformly (``random_hands``) and kept when they qualify, the first
``hands_per_scenario`` of each. A hand's two deal sets come from the same seed: the
conditioned deals are the accepted ones of the same raw stream. Each deal is one yes/no
question (>= 8 tricks; no trick), under the node budget ``max_nodes``: a position over it is
undecided and left out of the figures (reported). Result: one row per (hand, deal set) with
``made`` of ``deals`` decided, ``undecided``, and the auction's acceptance (``accepted`` of
``sampled`` raw deals).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.auction import BookModel, read_auction
from analyser.auction.conditioned import ConditionedDeals
from analyser.cards import HEARTS, NOTRUMP, RANK_CHARS_EN, SUIT_LETTERS, mask_to_cards, rank_of
from analyser.guidelines import default_call, hole_count, misere_ok
from analyser.guidelines.hand import mask_holdings
from analyser.guidelines.rik import rik_ok_suit
from analyser.guidelines.vocab import suit_table
from analyser.progress import Progress
from analyser.rules import RIK_TARGET, parse_ruleset
from analyser.sampler import random_hands, sample_deals
from analyser.studies.common import hand_frame, renumber
from analyser.studies.config import StudyConfig, int_in
from analyser.studies.solve import holder_of, solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = (
    "it compares uniform deals with deals the calls accept; the cut_only draw fixes one "
    "hand and no calls"
)
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "hands_per_scenario": int_in(1, 1_000_000),
    "max_nodes": int_in(0, 10**12),
}

BETER_RIK_AFTER_RIK = "beter rik after a rik"
MISERE_AFTER_PASSES = "misère after two passes"
UNIFORM = "uniform"
# scenario -> (absolute seat, the auction before its turn, solver goal)
SCENARIOS = {
    BETER_RIK_AFTER_RIK: (1, "rik", "beter_rik"),
    MISERE_AFTER_PASSES: (2, "pass pass", "misere"),
}
FOREHAND = 0  # North leads trick 1 in both scenarios
_HEARTS_RIK = suit_table(rik_ok_suit, bool)
MISERE_MAX_HOLES = 3  # (ours) misère hands near the safe end: most red-flag-free hands fail


def _qualifies(scenario: str, masks: np.ndarray) -> np.ndarray:
    if scenario == BETER_RIK_AFTER_RIK:
        return _HEARTS_RIK[mask_holdings(masks)[:, HEARTS]]
    ok = np.asarray(misere_ok.many(masks), dtype=bool)
    return ok & (np.asarray(hole_count.many(masks)) <= MISERE_MAX_HOLES)


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """The hands of both scenarios (the first qualifying uniform hands of the seed)."""
    frames = []
    for k, scenario in enumerate(SCENARIOS):
        start, picked = 0, []
        while len(picked) < cfg["hands_per_scenario"]:
            masks = random_hands(50_000, cfg["seed"] + k, start)
            picked += list(masks[_qualifies(scenario, masks)])
            start += masks.size
        masks = np.array(picked[: cfg["hands_per_scenario"]], dtype=np.int64)
        frames.append(hand_frame(masks, cfg["seed"], 0, scenario=scenario))
    return renumber(frames, cfg["seed"])


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """Two deal sets per hand."""
    return 2 * len(hands) * cfg["deals_per_hand"]


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per hand and deal set: made / decided / undecided, and the auction's acceptance."""
    from analyser.solver import GOAL_GE, GOAL_MISERE

    rs = parse_ruleset(cfg["rules"])
    model = BookModel()
    n = cfg["deals_per_hand"]
    rows = []
    for r in hands.itertuples():
        seat, auction, contract = SCENARIOS[r.scenario]
        cards = mask_to_cards(int(r.mask))
        known = [[] for _ in range(4)]
        known[seat] = cards
        _, turns, _ = read_auction(rs, auction, seat)
        source = ConditionedDeals(rs, model, turns, known, int(r.deal_seed), seat)
        sets = {
            UNIFORM: (sample_deals(known, n, int(r.deal_seed)), n, n),
            f"after: {auction}": (source.take(0, n), source.accepted, source.raw),
        }
        called = None
        for condition, (deals, accepted, sampled) in sets.items():
            if contract == "beter_rik":
                called = default_call(cards, trump=HEARTS, ruleset=rs)
                partner = holder_of(deals, called)
                ok = solve_positions(
                    deals,
                    HEARTS,
                    FOREHAND,
                    (1 << seat) | (1 << partner),
                    GOAL_GE,
                    RIK_TARGET,
                    called,
                    discard_ok=rs.called_card_may_be_discarded,
                    progress=progress,
                    max_nodes=cfg["max_nodes"],
                )
            else:
                ok = solve_positions(
                    deals,
                    NOTRUMP,
                    FOREHAND,
                    1 << seat,
                    GOAL_MISERE,
                    progress=progress,
                    max_nodes=cfg["max_nodes"],
                )
            rows.append(
                {
                    "hand_id": r.hand_id,
                    "hand": r.hand,
                    "mask": r.mask,
                    "deal_seed": r.deal_seed,
                    "scenario": r.scenario,
                    "condition": condition,
                    "conditioned": condition != UNIFORM,
                    "called": None
                    if called is None
                    else SUIT_LETTERS[called // 13] + RANK_CHARS_EN[rank_of(called)],
                    "made": int((ok == 1).sum()),
                    "deals": int((ok >= 0).sum()),
                    "undecided": int((ok < 0).sum()),
                    "accepted": int(accepted),
                    "sampled": int(sampled),
                }
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- summaries


def by_condition(df: pd.DataFrame) -> pd.DataFrame:
    """P(make) per scenario and deal set (95 % Wilson), with the acceptance rate."""
    from analyser.stats import with_interval

    g = df.groupby(["scenario", "condition"], sort=False)
    out = g.agg(
        hands=("hand_id", "nunique"),
        deals=("deals", "sum"),
        made=("made", "sum"),
        undecided=("undecided", "sum"),
        accepted=("accepted", "sum"),
        sampled=("sampled", "sum"),
    ).reset_index()
    out = with_interval(out)
    out["acceptance"] = out["accepted"] / out["sampled"]
    return out


def paired_shift(df: pd.DataFrame) -> pd.DataFrame:
    """Per scenario: the mean over hands of P(make | auction) - P(make | uniform), each hand's
    two shares on its own decided deals, with a normal 95 % interval over hands."""
    rows = []
    for scenario, g in df.groupby("scenario", sort=False):
        wide = g.pivot_table(index="hand_id", columns="conditioned", values=["made", "deals"])
        ok = (wide["deals"][True] > 0) & (wide["deals"][False] > 0)
        d = (wide["made"][True] / wide["deals"][True] - wide["made"][False] / wide["deals"][False])[
            ok
        ]
        k = int(d.size)
        mean = float(d.mean()) if k else np.nan
        half = 1.959963984540054 * float(d.std(ddof=1)) / np.sqrt(k) if k > 1 else np.nan
        rows.append(
            {
                "scenario": scenario,
                "hands": k,
                "shift": mean,
                "lo": mean - half,
                "hi": mean + half,
            }
        )
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    return {"by_condition": by_condition(df), "shift": paired_shift(df)}


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """The study compares deal sets, not a bid/pass verdict: nothing to score."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 7. What the calls before a seat's turn say about the other hands, under "
    "the book bidding model (each player makes the lowest legal call the coded guidelines "
    "support, and passes when none). Seat 2 (East) hands that meet the rik minimum in hearts "
    "play beter rik (the called ace by G-ACE-02) on uniform deals and on the deals on which "
    "seat 1 bid rik; seat 3 (South) hands without misère red flags and with at most 3 holes "
    "(ours) play misère on uniform deals and on those on which seats 1 and 2 passed. North "
    "leads. The conditioned deals are drawn by rejection (analyser.auction)."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, ci, pct, table_block

    t = res.tables
    bc, shift = t["by_condition"], t["shift"]
    readings = []
    labels, uniform, after = [], ([], [], []), ([], [], [])
    for scenario, g in bc.groupby("scenario", sort=False):
        u = g[g.condition == "uniform"].iloc[0]
        a = g[g.condition != "uniform"].iloc[0]
        s = shift[shift.scenario == scenario].iloc[0]
        labels.append(scenario)
        for store, row in ((uniform, u), (after, a)):
            store[0].append(row.p)
            store[1].append(row.lo)
            store[2].append(row.hi)
        readings.append(
            f"{scenario}: P(make) {ci(u)} on uniform deals, {ci(a)} "
            f"on the deals {a.condition.removeprefix('after: ')!r} leaves "
            f"({a.hands} hands; the auction accepted {pct(a.acceptance)} of the sampled "
            f"deals); per hand the auction moves it by {100 * s['shift']:+.1f} points (95% CI "
            f"{100 * s.lo:+.1f} to {100 * s.hi:+.1f}, over {s.hands} hands)"
        )
    reading = (
        "; ".join(readings) + ". Double-dummy. A shift whose interval excludes 0 is what the "
        "earlier calls tell about the other hands under the book bidding model; "
        "`rikken analyse HAND --seat S --auction ...` applies it to one hand."
    )
    png = charts.paired_bars(
        labels,
        {"uniform deals": uniform, "deals the auction accepts": after},
        folder / "auction.png",
        title="P(make) with and without the auction (book bidding model)",
        xlabel="",
    )
    return [
        Block("How much the auction changes the answer", reading, png=png),
        table_block("P(make) by deal set", bc, folder, "auction_by_condition"),
        table_block("Per-hand shift (auction - uniform)", shift, folder, "auction_shift"),
    ]
