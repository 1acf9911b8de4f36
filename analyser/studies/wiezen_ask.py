"""Study 6, wiezen_ask (docs/rules.md W-07, W-08, W-17): how many cards of the turned suit a
hand needs to ask (*vragen*), and how strong a partner must be to go along (*meegaan*).

The turned card is ♥7, with the dealer (West); so hearts are the turned trump. North, the
forehand, asks and leads trick 1 (W-07: the first lead is the forehand's). His hand has
exactly ``k`` hearts (``k`` from ``trump_lengths``, ``hands_per_length`` hands each), drawn
uniformly from the twelve hearts other than the turned card, the other cards uniformly
from the other suits. Each of his deals (the other 39 cards uniform with the ♥7 in West's
hand, :func:`analyser.sampler.with_turned_card`) is solved double-dummy for North with each
of East, South and West as the partner (exact trick counts, hearts trump, North leads) and
for North alone (alone 5, W-08). One row per (hand, deal, partner seat), with:

* ``tricks`` — the partnership's tricks; ``made`` — at least 8; ``score`` — the vragen
  score of each partner (W-17); ``alone_tricks`` / ``alone_score`` — North alone (alone 5);
* the partner's hand: ``partner_trumps``, ``partner_side_aces``, ``partner_high`` (HIGH
  cards A K Q J 10 in the whole hand); ``model_joins`` — he meets the analysis's meegaan
  model (:func:`analyser.analysis.wiezen.joins`); ``first_joiner`` — he is the model's
  partner on this deal (the first such player after North).

Every figure is double-dummy: both partners see every card, so it is optimistic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.analysis.wiezen import JOIN_MIN_COUNT, JOIN_MIN_TRUMPS, joins, meegaan_partner
from analyser.cards import (
    ACE,
    HEARTS,
    HIGH_MIN_RANK,
    N_CARDS,
    N_RANKS,
    N_SUITS,
    SUIT_BITS,
    card,
    mask_to_cards,
)
from analyser.progress import Progress
from analyser.rules import ALONE_5, VRAGEN, declarer_score, parse_ruleset
from analyser.stats import mean_half_width, with_interval
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, pooled, renumber
from analyser.studies.config import StudyConfig, int_in, int_list
from analyser.studies.solve import solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = "its deals hold the dealer's turned card, which the cut_only draw does not condition on"
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "trump_lengths": int_list(0, 12),
    "hands_per_length": int_in(1, 1_000_000),
    "max_nodes": int_in(0, 10**12),
}
FAMILY = "wiezen"  # the rule-set family it plays (default: rikken)

TURNED = card(HEARTS, 5)  # ♥7: the dealer's face-up card
DEALER = 3  # West deals; North (0) is the forehand and asks
PARTNERS = (1, 2, 3)  # East, South, West, in the order they speak after North
MAX_TRUMPS_SHOWN = 6  # partner trump counts from here up are pooled


def asker_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``n`` hands with exactly ``k`` hearts (never the turned ♥7), the rest uniform."""
    hearts = np.array([c for c in range(HEARTS * N_RANKS, (HEARTS + 1) * N_RANKS) if c != TURNED])
    others = np.array([c for c in range(N_CARDS) if c // N_RANKS != HEARTS])
    pick_h = np.argsort(rng.random((n, hearts.size)), axis=1)[:, :k]
    pick_o = np.argsort(rng.random((n, others.size)), axis=1)[:, : N_RANKS - k]
    return gen.cards_mask(np.concatenate([hearts[pick_h], others[pick_o]], axis=1))


def _count(masks: np.ndarray, bits: int) -> np.ndarray:
    return np.bitwise_count(np.asarray(masks, dtype=np.int64) & bits).astype(np.int64)


_HEARTS_BITS = ((1 << N_RANKS) - 1) << (SUIT_BITS * HEARTS)
_SIDE_ACES = sum(1 << (SUIT_BITS * s + ACE) for s in range(N_SUITS) if s != HEARTS)
_HIGH = sum(1 << (SUIT_BITS * s + r) for s in range(N_SUITS) for r in range(HIGH_MIN_RANK, N_RANKS))


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """The asker's hands, ``hands_per_length`` per heart count."""
    frames = []
    for i, k in enumerate(cfg["trump_lengths"]):
        masks = asker_hands(gen.stream(cfg["seed"], 7, i), cfg["hands_per_length"], k)
        frames.append(hand_frame(masks, cfg["seed"], 0, asker_trumps=k))
    df = renumber(frames, cfg["seed"])
    df["asker_high"] = _count(df["mask"].to_numpy(), _HIGH)
    df["asker_high_trumps"] = _count(df["mask"].to_numpy(), _HIGH & _HEARTS_BITS)
    return df


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """Per deal: a >=8 question per partner seat, and (at most) one exact count."""
    return len(hands) * cfg["deals_per_hand"] * (len(PARTNERS) + 1)


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per (hand, deal, partner seat): whether North and that partner take 8 tricks; the
    exact tricks with the model's partner where one goes along, else North's exact tricks
    alone (alone 5); exact counts under the node budget ``max_nodes`` (-1: given up)."""
    from analyser.sampler import sample_deals, with_turned_card
    from analyser.solver import GOAL_GE, GOAL_TRICKS

    rs = parse_ruleset(cfg["rules"])
    n = cfg["deals_per_hand"]
    all_deals, firsts, frames = [], [], []
    for r in hands.itertuples():
        known = with_turned_card([mask_to_cards(int(r.mask)), [], [], []], TURNED, DEALER)
        deals = sample_deals(known, n, int(r.deal_seed))
        all_deals.append(deals)
        first = meegaan_partner(deals, rs, 0, HEARTS)
        firsts.append(first)
        for p in PARTNERS:
            frames.append(
                pd.DataFrame(
                    {
                        "hand_id": r.hand_id,
                        "hand": r.hand,
                        "asker_trumps": r.asker_trumps,
                        "asker_high": r.asker_high,
                        "asker_high_trumps": r.asker_high_trumps,
                        "deal": np.arange(n),
                        "partner": "NESW"[p],
                        "partner_trumps": _count(deals[:, p], _HEARTS_BITS),
                        "partner_side_aces": _count(deals[:, p], _SIDE_ACES),
                        "partner_high": _count(deals[:, p], _HIGH),
                        "model_joins": joins(deals[:, p], HEARTS),
                        "first_joiner": first == p,
                        "nobody_joins": first < 0,
                    }
                )
            )
    deals = np.concatenate(all_deals)
    first = np.concatenate(firsts)
    m = deals.shape[0]
    sides = np.array([1 | (1 << p) for p in PARTNERS])
    made = solve_positions(
        np.tile(deals, (len(sides), 1)),
        HEARTS,
        0,
        np.repeat(sides, m),
        GOAL_GE,
        8,
        progress=progress,
    ).reshape(len(sides), m)
    # one exact count per deal: the ask with the model's partner, or North alone
    side = np.where(first >= 0, 1 | (1 << np.maximum(first, 0)), 1)
    exact = solve_positions(
        deals, HEARTS, 0, side, GOAL_TRICKS, progress=progress, max_nodes=cfg["max_nodes"]
    ).astype(np.int64)
    out_frames = []
    for h in range(len(hands)):
        rows = slice(h * n, (h + 1) * n)
        for k, _ in enumerate(PARTNERS):
            f = frames[h * len(PARTNERS) + k].copy()
            f["made"] = made[k, rows].astype(np.int64)
            f["exact"] = exact[rows]  # the model's partnership, or North alone
            out_frames.append(f)
    out = pd.concat(out_frames, ignore_index=True)
    vragen = np.array([declarer_score(rs, VRAGEN, t) for t in range(N_RANKS + 1)] + [0])
    alone = np.array([declarer_score(rs, ALONE_5, t) for t in range(N_RANKS + 1)] + [0])
    t = out["exact"].to_numpy()  # -1 (given up) reads the trailing 0, masked below
    out["exact_given_up"] = (t < 0).astype(np.int64)
    out["score"] = np.where(out.first_joiner & (t >= 0), vragen[t], np.nan)
    out["alone_made"] = np.where(out.nobody_joins & (t >= 0), (t >= 5).astype(float), np.nan)
    out["alone_score"] = np.where(out.nobody_joins & (t >= 0), alone[t], np.nan)
    out["deals"] = 1
    return out


# --------------------------------------------------------------------------- summaries


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95 % normal interval (deals of one hand are not independent: a little
    narrow when hands are few)."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return np.nan, np.nan, np.nan
    m = float(x.mean())
    h = mean_half_width(x)
    return m, m - h, m + h


def ask_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per asker heart count k: how often the model's partner goes along, P(8 tricks) and
    the vragen score when he does, alone 5 when nobody does, and the ask's expected score
    (the asker plays alone 5 after an unanswered ask when that averages above 0 for his k,
    else passes: 0)."""
    rows = []
    for k, g in df.groupby("asker_trumps"):
        per_deal = g.drop_duplicates(["hand_id", "deal"])
        n = len(per_deal)
        joined = g[g.first_joiner]
        alone = per_deal[per_deal.nobody_joins]
        v_mean = float(joined.score.mean()) if joined.score.notna().any() else 0.0
        a_mean = float(alone.alone_score.mean()) if alone.alone_score.notna().any() else 0.0
        share = len(joined) / n
        fallback = max(a_mean, 0.0)
        decided = per_deal[per_deal.exact_given_up == 0]
        ask = np.where(decided.nobody_joins, fallback, 0.0)
        joined_d = decided[~decided.nobody_joins.to_numpy()]
        ask[~decided.nobody_joins.to_numpy()] = (
            (g[g.first_joiner & (g.exact_given_up == 0)].set_index(["hand_id", "deal"]).score)
            .reindex(list(zip(joined_d.hand_id, joined_d.deal, strict=True)))
            .to_numpy()
        )
        e, lo, hi = _mean_ci(ask)
        rows.append(
            {
                "asker_trumps": k,
                "hands": g.hand_id.nunique(),
                "deals": n,
                "joined": len(joined),
                "made": int(joined.made.sum()),
                "vragen_score": v_mean,
                "alone_deals": len(alone),
                "alone_made": int(np.nansum(alone.alone_made)),
                "exact_given_up": int(per_deal.exact_given_up.sum()),
                "alone_score": a_mean,
                "unanswered": "alone 5" if a_mean > 0 else "pass",
                "ask_score": e,
                "ask_lo": lo,
                "ask_hi": hi,
                "join_share": share,
            }
        )
    out = pd.DataFrame(rows)
    # p, lo, hi: P(8 tricks) over the deals someone goes along
    return with_interval(out, made="made", n="joined")


def partner_table(df: pd.DataFrame) -> pd.DataFrame:
    """P(8 tricks) by the asker's and the partner's heart counts, over every (deal, partner
    seat): how the two would fare if that partner went along."""
    d = df.assign(partner_trumps=df.partner_trumps.clip(upper=MAX_TRUMPS_SHOWN))
    out = pooled(d, ["asker_trumps", "partner_trumps"])
    return out


def strength_table(df: pd.DataFrame) -> pd.DataFrame:
    """P(8 tricks) by the two hands' hearts together and the partner's side aces, over every
    (deal, partner seat)."""
    d = df.assign(
        together=df.asker_trumps + df.partner_trumps,
        partner_side_aces=df.partner_side_aces.clip(upper=2),
    )
    keys = ["together", "partner_side_aces"]
    out = pooled(d, keys)
    return out


def high_table(df: pd.DataFrame) -> pd.DataFrame:
    """P(8 tricks) by the two hands' HIGH cards (A K Q J 10) together, in bands of three."""
    band = ((df.asker_high + df.partner_high) // 3 * 3).clip(lower=3, upper=15)
    d = df.assign(high_together=band)
    out = pooled(d, "high_together")
    return out


def model_table(df: pd.DataFrame) -> pd.DataFrame:
    """P(8 tricks) for partners who meet the meegaan model and for those who do not."""
    label = np.where(
        df.model_joins,
        f"meets the model (>= {JOIN_MIN_TRUMPS} trumps, trumps + side aces >= {JOIN_MIN_COUNT})",
        "does not meet it",
    )
    d = df.assign(partner_kind=label)
    out = pooled(d, "partner_kind")
    return out


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    return {
        "ask": ask_table(df),
        "partner": partner_table(df),
        "strength": strength_table(df),
        "high": high_table(df),
        "model": model_table(df),
    }


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """wiezen has no book guideline to score."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 6, under the wiezen rules (docs/rules.md §7.4). The turned card is ♥7, "
    "in the dealer's (West's) hand, so hearts are trump. North, the forehand, asks (vragen) "
    "with exactly k hearts, the rest of his hand uniform; every deal is solved with each other "
    "player as his partner and with North alone (alone 5). Make = 8 tricks together; scores "
    "by W-17 (a made ask +2 and +1 per overtrick for each partner, a failed one -2 x (2 + "
    "undertricks))."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, ci, pct, table_block

    t = res.tables
    ask, part = t["ask"], t["partner"]
    worth = ask[ask.ask_score > 0]
    k_min = int(worth.asker_trumps.min()) if len(worth) else None
    lines = []
    for r in ask.itertuples():
        lines.append(
            f"{r.asker_trumps} hearts: someone goes along on {pct(r.join_share)} of deals, then "
            f"8 tricks in {pct(r.p)} (95% interval {pct(r.lo)}–{pct(r.hi)}, {r.joined} deals), "
            f"the ask averages {r.ask_score:+.1f} (95% interval {r.ask_lo:+.1f} to "
            f"{r.ask_hi:+.1f}; unanswered: {r.unanswered})"
        )
    headline = (
        f"Asking pays on average (expected score above 0) from {k_min} hearts up"
        if k_min is not None
        else "Asking never paid on average on this sample"
    )
    given_up = int(ask.exact_given_up.sum())
    reading = (
        (
            f"{given_up} exact counts reached the node budget and are left out of the scores. "
            if given_up
            else ""
        )
        + f"{headline}, with the meegaan model's partner and the fallback after an unanswered "
        "ask (alone 5 when that averages above 0 for the heart count, else pass). "
        + "; ".join(lines)
        + "."
    )
    png = charts.paired_bars(
        [str(k) for k in ask.asker_trumps],
        {
            "P(8 tricks | someone goes along)": (list(ask.p), list(ask.lo), list(ask.hi)),
            "share of deals someone goes along": (
                list(ask.join_share),
                list(ask.join_share),
                list(ask.join_share),
            ),
        },
        folder / "wiezen_ask.png",
        title="vragen (N asks, hearts turned): P(8 tricks together) by the asker's hearts",
        xlabel="asker's hearts (turned suit)",
        ylabel="share",
    )
    minimum = []
    for k, g in part.groupby("asker_trumps"):
        ok = g[(g.p >= 0.5) & (g.deals >= 10)]
        minimum.append(
            f"{k} hearts: from {int(ok.partner_trumps.min())}"
            if len(ok)
            else f"{k} hearts: no partner length"
        )
    heat = charts.heatmap(
        part,
        folder / "wiezen_partner.png",
        x="partner_trumps",
        y="asker_trumps",
        boundary=part.p >= 0.5,
        title="P(8 tricks) with one partner, by both hands' hearts (outlined: 50% or more)",
        xlabel=f"partner's hearts ({MAX_TRUMPS_SHOWN}+ pooled)",
        ylabel="asker's hearts",
    )
    model = t["model"]
    mrows = "; ".join(f"{r.partner_kind}: {ci(r._asdict())}" for r in model.itertuples())
    return [
        Block("When to ask: P(8 tricks) and the ask's expected score", reading, png=png),
        table_block("Asking, by the asker's hearts", ask, folder, "wiezen_ask"),
        Block(
            "When to go along: P(8 tricks) by both hands' hearts",
            "Every other player taken as the partner on every deal, whether or not he would "
            "go along. The fewest partner hearts with which the two take 8 tricks at least half "
            "the time (cells with 10 deals or more), per asker's heart count: "
            + "; ".join(minimum)
            + f". The analysis's meegaan model (>= {JOIN_MIN_TRUMPS} hearts and hearts + side "
            f"aces >= {JOIN_MIN_COUNT}) against the rest: {mrows}.",
            png=heat,
        ),
        table_block("By both hands' hearts", part, folder, "wiezen_partner"),
        table_block(
            "By hearts together and the partner's side aces (2 = two or more)",
            t["strength"],
            folder,
            "wiezen_strength",
        ),
        table_block(
            "By HIGH cards (A K Q J 10) of both hands together, in bands of three",
            t["high"],
            folder,
            "wiezen_high",
        ),
        table_block("The meegaan model's partners", model, folder, "wiezen_model"),
    ]
