"""Study 1, rik minimum: G-RIK-01 (heatmap), G-RIK-02 (trump choice), G-ACE-02 (called ace).

Hands sit at North, forehand (North leads trick 1, West deals). The rikker fixes trump and
the called card before seeing the other hands, so a hand's make-probability is the share of
its deals in which the rikker and the holder of the called card take at least 8 tricks
double-dummy with that (trump, call) — the partner differs from deal to deal.

Hands (:func:`plan`):

* ``role = "cell"``: for each trump length ``L`` and number of HIGH trumps ``H`` (a cell of
  the heatmap) ``hands_per_cell`` hands from :func:`~analyser.studies.hands.trump_stratum_hands`
  with spades as the studied trump suit (the longest suit of the hand). Played with the book's
  call (G-ACE-02 default policy for spades). The first ``calls_hands_per_cell`` hands of a
  cell that meet G-RIK-01 are also played with every other legal call (G-ACE-01).
* ``role = "two_suiter"``: hands with two long suits (spades and hearts, lengths from
  ``two_suiter_lengths``), each played with either suit as trump (book call for that trump);
  ``book_trump`` marks G-RIK-02's choice.

Result: one row per (hand, trump, call) with ``deals`` and ``made``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import ACE, HIGH_MIN_RANK, N_RANKS, SPADES, mask_to_cards
from analyser.guidelines import call_class, default_call, legal_calls, rik_ok, rik_trump
from analyser.guidelines.hand import mask_holdings
from analyser.progress import Progress
from analyser.rules import RIK_TARGET, parse_ruleset
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, model_cells, pooled, renumber
from analyser.studies.config import StudyConfig, int_in, int_list, int_pairs
from analyser.studies.solve import deals_for_hand, holder_of, solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# the deal model is a study key (docs/deal_model.md): cut_only draws each hand's deals
CUT_ONLY = True
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "trump_lengths": int_list(5, 9),
    "high_min": int_in(0, 5),
    "high_max": int_in(0, 5),
    "hands_per_cell": int_in(1, 1_000_000),
    "calls_hands_per_cell": int_in(0, 1_000_000),
    "two_suiter_lengths": int_pairs(5, 8, 13),
    "two_suiter_hands": int_in(0, 1_000_000),
}


def cells(cfg: StudyConfig) -> list[tuple[int, int]]:
    """The (trump length, HIGH trumps) cells of the heatmap that a hand can have."""
    out = []
    for length in sorted(cfg["trump_lengths"]):
        for high in range(cfg["high_min"], cfg["high_max"] + 1):
            if high <= min(length, 5) and length - high <= HIGH_MIN_RANK:
                out.append((length, high))
    return out


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """Every hand of the study with its stratum (see the module docstring)."""
    seed = cfg["seed"]
    frames = []
    for length, high in cells(cfg):
        masks = gen.trump_stratum_hands(
            gen.stream(seed, 1, length, high), cfg["hands_per_cell"], length, high, SPADES
        )
        frames.append(hand_frame(masks, seed, 0, role="cell", length=length, high=high, len_b=0))
    if cfg["two_suiter_hands"]:
        for a, b in cfg["two_suiter_lengths"]:
            masks = gen.two_suiter_hands(gen.stream(seed, 2, a, b), cfg["two_suiter_hands"], a, b)
            frames.append(hand_frame(masks, seed, 0, role="two_suiter", length=a, high=-1, len_b=b))
    df = renumber(frames, seed)
    df["rik_ok"] = rik_ok.many(df["mask"].to_numpy())
    df["cell_rank"] = df.groupby(["role", "length", "high", "len_b"]).cumcount()
    return df


def _options(cfg: StudyConfig, row) -> list[tuple[int, int, bool, bool]]:
    """(trump, called card, is the book's trump, is the book's call) to play for one hand."""
    ruleset = parse_ruleset(cfg["rules"])
    cards = mask_to_cards(int(row.mask))
    if row.role == "two_suiter":
        book = int(rik_trump(cards))
        return [
            (t, int(default_call(cards, trump=t, ruleset=ruleset)), t == book, True) for t in (0, 1)
        ]
    book_call = int(default_call(cards, trump=SPADES, ruleset=ruleset))
    if row.rik_ok and row.cell_rank < cfg["calls_hands_per_cell"]:
        # cell_rank counts every hand of the cell; the rik_ok filter keeps it cheap.
        calls = legal_calls(cards, SPADES, ruleset)
    else:
        calls = [book_call]
    return [(SPADES, int(c), True, int(c) == book_call) for c in calls]


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """Positions the hands need (for the progress line)."""
    return sum(len(_options(cfg, r)) for r in hands.itertuples()) * cfg["deals_per_hand"]


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Solve one chunk of hands; one result row per (hand, trump, call)."""
    from analyser.solver import GOAL_GE

    n_deals = cfg["deals_per_hand"]
    discard_ok = parse_ruleset(cfg["rules"]).called_card_may_be_discarded
    rows, blocks = [], []
    for r in hands.itertuples():
        deals = deals_for_hand(r.mask, n_deals, int(r.deal_seed), cfg["deal_model"])
        cards = mask_to_cards(int(r.mask))
        for trump, called, book_trump, book_call in _options(cfg, r):
            holder = holder_of(deals, called)
            blocks.append((deals, trump, 1 | (1 << holder), called))
            rows.append(
                {
                    "hand_id": r.hand_id,
                    "role": r.role,
                    "length": r.length,
                    "high": r.high,
                    "len_b": r.len_b,
                    "hand": r.hand,
                    "mask": r.mask,
                    "deal_seed": r.deal_seed,
                    "rik_ok": bool(r.rik_ok),
                    "trump": trump,
                    "called": called,
                    "called_rank": called % N_RANKS,
                    "call_class": call_class(cards, called, trump),
                    "book_trump": book_trump,
                    "book_call": book_call,
                }
            )
    made = solve_positions(
        np.concatenate([b[0] for b in blocks]),
        np.concatenate([np.full(n_deals, b[1]) for b in blocks]),
        0,
        np.concatenate([b[2] for b in blocks]),
        GOAL_GE,
        RIK_TARGET,
        np.concatenate([np.full(n_deals, b[3]) for b in blocks]),
        discard_ok=discard_ok,
        progress=progress,
    ).reshape(len(blocks), n_deals)
    out = pd.DataFrame(rows)
    out["deals"] = n_deals
    out["made"] = made.sum(axis=1).astype(np.int64)
    out["p_make"] = out["made"] / out["deals"]
    hold = mask_holdings(out["mask"].to_numpy())
    trump_hold = hold[np.arange(len(out)), out["trump"].to_numpy()]
    highs = np.vectorize(lambda h: (int(h) >> HIGH_MIN_RANK).bit_count())(hold)
    out["side_high"] = highs.sum(axis=1) - highs[np.arange(len(out)), out["trump"].to_numpy()]
    out["side_aces"] = ((hold >> ACE) & 1).sum(axis=1) - ((trump_hold >> ACE) & 1)
    return out


# --------------------------------------------------------------------------- summaries


def heatmap(df: pd.DataFrame) -> pd.DataFrame:
    """P(make) per (trump length, HIGH trumps) cell, the book's call, with the G-RIK-01
    verdict of the cell."""
    book = df[(df.role == "cell") & df.book_call]
    out = pooled(book, ["length", "high"])
    out["g_rik_01"] = np.where(
        (out["length"] >= 6) & (out["high"] >= np.maximum(0, RIK_TARGET - out["length"])),
        "rik",
        "pass",
    )
    return out


def trump_choice(df: pd.DataFrame) -> pd.DataFrame:
    """G-RIK-02 on two-suiters: P(make) with the book's trump and with the other long suit,
    per length pair, plus per-hand comparisons (which trump makes more often)."""
    two = df[df.role == "two_suiter"]
    if two.empty:
        return pd.DataFrame()
    wide = two.pivot_table(
        index=["hand_id", "length", "len_b"], columns="book_trump", values="made"
    ).reset_index()
    wide = wide.rename(columns={True: "made_book", False: "made_other"})
    deals = int(two["deals"].iloc[0])
    rows = []
    for (a, b), g in wide.groupby(["length", "len_b"]):
        rows.append(
            {
                "lengths": f"{a}-{b}",
                "hands": len(g),
                "deals": deals * len(g),
                "made_book": int(g.made_book.sum()),
                "made_other": int(g.made_other.sum()),
                "book_better": int((g.made_book > g.made_other).sum()),
                "equal": int((g.made_book == g.made_other).sum()),
                "other_better": int((g.made_book < g.made_other).sum()),
            }
        )
    out = pd.DataFrame(rows)
    out["p_book"] = out.made_book / out.deals
    out["p_other"] = out.made_other / out.deals
    return out


def call_classes(df: pd.DataFrame) -> pd.DataFrame:
    """G-ACE-02: P(make) per call class, over hands played with every legal call, and the
    mean difference to the book's call on the same hands and deals."""
    multi = df[(df.role == "cell")].groupby("hand_id").filter(lambda g: len(g) > 1)
    if multi.empty:
        return pd.DataFrame()
    book = multi[multi.book_call].set_index("hand_id")["p_make"]
    multi = multi.assign(diff_vs_book=multi["p_make"] - multi["hand_id"].map(book))
    out = pooled(multi, "call_class")
    diff = multi.groupby("call_class")["diff_vs_book"].mean().rename("mean_diff_vs_book")
    best = multi.loc[multi.groupby("hand_id")["p_make"].idxmax()]
    wins = best.groupby("call_class").size().rename("best_call_hands")
    out = out.join(diff, on="call_class").join(wins, on="call_class").fillna({"best_call_hands": 0})
    order = {c: i for i, c in enumerate(["A", "B", "C", "guess", "void"])}
    return out.sort_values("call_class", key=lambda s: s.map(order)).reset_index(drop=True)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report."""
    return {"heatmap": heatmap(df), "trump_choice": trump_choice(df), "calls": call_classes(df)}


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """G-RIK-01 scored as a classifier on the heatmap hands (book trump spades, book call)."""
    from analyser.studies.verdicts import classifier_score

    book = df[(df.role == "cell") & df.book_call]
    return classifier_score(
        cfg.name,
        "G-RIK-01",
        book["rik_ok"].to_numpy(),
        book["made"].to_numpy(),
        book["deals"].to_numpy(),
        contract="rik (>= 8 with the called-ace holder)",
        seat="N forehand",
    )


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 1. Hands are stratified by trump length (spades, the hand's longest "
    "suit) and the number of HIGH cards (A K Q J 10) in it; the other cards are uniform, "
    "redrawn until every side suit is shorter than the trump suit. Each hand is played with "
    "spades as trump and the book's called ace (G-ACE-02); the partner is whoever holds it on "
    "each deal. Make = rikker and partner take at least 8 tricks."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, ci, pct, pool, table_block
    from analyser.stats import with_interval

    t = res.tables
    hm = t["heatmap"]
    blocks = []
    inside, outside = hm[hm.g_rik_01 == "rik"], hm[hm.g_rik_01 == "pass"]
    a, b = pool(inside), pool(outside)
    parts = [
        f"Hands the book accepts (G-RIK-01) made 8 tricks with their partner in {ci(a)}; hands "
        f"it rejects in {ci(b)}."
    ]
    if not inside.empty:
        w = inside.loc[inside.p.idxmin()]
        parts.append(
            f"The weakest accepted cell is {int(w.length)} trumps with {int(w.high)} HIGH "
            f"({pct(w.p)}, {int(w.hands)} hands)."
        )
    if not outside.empty:
        s = outside.loc[outside.p.idxmax()]
        parts.append(
            f"The strongest rejected cell is {int(s.length)} trumps with {int(s.high)} HIGH "
            f"({pct(s.p)})."
        )
    cross = []
    for length, g in hm.groupby("length"):
        ok = g[g.p >= 0.5]
        if not ok.empty:
            cross.append(f"{length} trumps: {int(ok.high.min())} HIGH")
    if cross:
        parts.append(
            "Fewest HIGH trumps with P(make) ≥ 50% per trump length: " + "; ".join(cross) + "."
        )
    if not outside.empty and b["p"] >= 0.5:
        parts.append(
            "For a player: double-dummy, most hands below the book's minimum still make, so the "
            "minimum is on the safe side — but the double-dummy partner is found at once, which "
            "a real rikker cannot count on; treat cells near 50% as a pass."
        )
    elif not inside.empty and a["p"] >= 0.5:
        parts.append(
            "For a player: the minimum separates makeable from unmakeable riks well; stay "
            "inside the outlined region."
        )
    png = charts.heatmap(
        hm,
        folder / "rik_heatmap.png",
        x="length",
        y="high",
        boundary=hm.g_rik_01 == "rik",
        title="P(rik makes 8) by trump length and HIGH trumps (book's call)",
        xlabel="trump length (cards in the rik suit)",
        ylabel="HIGH cards (A K Q J 10) in trumps",
    )
    blocks.append(Block("G-RIK-01: rik minimum heatmap", " ".join(parts), png=png))
    blocks.append(table_block("G-RIK-01 cells", hm, folder, "rik_heatmap"))

    tc = t["trump_choice"]
    if not tc.empty:
        tot_b = tc.made_book.sum() / tc.deals.sum()
        tot_o = tc.made_other.sum() / tc.deals.sum()
        bb, eq, ob = int(tc.book_better.sum()), int(tc.equal.sum()), int(tc.other_better.sum())
        reading = (
            f"On two-suiters, the G-RIK-02 trump (the longer suit, equal length the better "
            f"honours) made {pct(tot_b)} of {int(tc.deals.sum())} deals, the other long suit "
            f"{pct(tot_o)}. Per hand the book's suit did better on {bb}, equally on {eq} and "
            f"worse on {ob} of {bb + eq + ob} hands. "
            + (
                "For a player: follow the book and pick the longer suit."
                if tot_b >= tot_o
                else "For a player: here the other suit did better; the book's rule is not "
                "confirmed by this sample."
            )
        )
        rows = []
        for r in tc.itertuples():
            rows.append(
                {
                    "lengths": r.lengths,
                    "which": "G-RIK-02 trump",
                    "made": r.made_book,
                    "deals": r.deals,
                }
            )
            rows.append(
                {
                    "lengths": r.lengths,
                    "which": "other long suit",
                    "made": r.made_other,
                    "deals": r.deals,
                }
            )
        pts = with_interval(pd.DataFrame(rows))
        png = charts.points(
            pts,
            folder / "rik_trump_choice.png",
            x="lengths",
            hue="which",
            title="G-RIK-02: P(rik makes 8), book's trump vs the other long suit",
            xlabel="lengths of the two long suits (spades-hearts)",
        )
        blocks.append(Block("G-RIK-02: trump choice", reading, png=png))
        blocks.append(table_block("G-RIK-02 per length pair", tc, folder, "rik_trump_choice"))

    calls = t["calls"]
    if not calls.empty:
        order = calls.sort_values("p", ascending=False).call_class.tolist()
        book_order = [c for c in ["A", "B", "C", "void"] if c in set(calls.call_class)]
        ps = dict(zip(calls.call_class, calls.p, strict=True))
        holds = all(ps[x] >= ps[y] for x, y in zip(book_order, book_order[1:], strict=False))
        reading = (
            "Over hands played with every legal call: "
            + "; ".join(f"class {r.call_class} {ci(r._asdict())}" for r in calls.itertuples())
            + f". Observed order by P(make): {' > '.join(order)}. The book's preference "
            f"{' ≥ '.join(book_order)} {'holds' if holds else 'does not hold'} in this sample. "
            "'mean_diff_vs_book' in the table is the average change in a hand's P(make) when "
            "calling that class instead of the book's call."
        )
        png = charts.points(
            calls,
            folder / "rik_calls.png",
            x="call_class",
            title="G-ACE-02: P(rik makes 8) by class of the called ace",
            xlabel="class of the called card (A singleton, B K-x, C long suit, guess, void)",
        )
        blocks.append(Block("G-ACE-02: which ace to call", reading, png=png))
        blocks.append(table_block("G-ACE-02 per class", calls, folder, "rik_calls"))
    return blocks


# --------------------------------------------------------------------------- deal models

MODEL_VERDICT = (0.5, "rik", "pass")


def MODEL_CELLS(df: pd.DataFrame) -> pd.DataFrame:  # noqa: N802 (the study protocol's name)
    """The cells compared between deal models: the heatmap's cells with the book's call
    (trump length, HIGH trumps) and the two-suiters with the book's and the other trump."""
    cell = df[(df["role"] == "cell") & df["book_call"]]
    two = df[df["role"] == "two_suiter"]
    labels = [f"{a} trumps, {h} HIGH" for a, h in zip(cell["length"], cell["high"], strict=True)]
    labels2 = [
        f"{a}-{b} two-suiter, {'book' if t else 'other'} trump"
        for a, b, t in zip(two["length"], two["len_b"], two["book_trump"], strict=True)
    ]
    return pd.concat([model_cells(cell, labels), model_cells(two, labels2)], ignore_index=True)
