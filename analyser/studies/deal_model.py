"""Study 8, the deal model: how often hands qualify for each bid when the cards are dealt as
Rikken is really dealt (R-DEAL-03/04: no shuffle, gathered tricks, one cut, packets; the
``cut_only`` model of analyser.deal_model) against uniform deals (R-DEAL-06).

Plan: ``sequences`` sequences of ``sequence_length`` consecutive deals under each model (the
first deal of a cut_only sequence is uniform; the rest follow from the play, the gathering and
the cut). Every hand of every deal is tested with the book's coded guidelines: rik minimum
(G-RIK-01), alone 7, 8 and 9 (G-ALN-03), misère (G-MIS-04..06), open misère (G-OPEN-03), piek
(G-PIEK-02), three or more aces (malheur / troel), and its longest suit is recorded. Hands of
one sequence are not independent, so the intervals are cluster intervals over sequences.
No solver: the study measures how often each question arises, not whether the bids make.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import N_SEATS
from analyser.guidelines import alone_ok, misere_ok, open_misere_ok, piek_ok, rik_ok
from analyser.progress import Progress
from analyser.stats import Z95, cluster_share
from analyser.studies.config import StudyConfig, int_in

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = "it compares the two deal models itself (the hands dealt, no solver)"
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "sequences": int_in(2, 1_000_000),
    "sequence_length": int_in(1, 10_000),
}

MODELS = ("uniform", "cut_only")
CRITERIA = {
    "rik_ok": "rik minimum (G-RIK-01)",
    "alone_7": "alone 7 (G-ALN-03)",
    "alone_8": "alone 8 (G-ALN-03)",
    "alone_9": "alone 9 (G-ALN-03)",
    "misere_ok": "misère (G-MIS-04..06)",
    "open_misere_ok": "open misère (G-OPEN-03)",
    "piek_ok": "piek (G-PIEK-02)",
    "aces_3": "3-4 aces (malheur, troel)",
    "long_6": "a suit of 6 or more",
    "void": "a void",
}
MAX_LENGTH_SHOWN = 9  # suit-length table: longest suit 4 .. 9+


def _family(cfg: StudyConfig) -> str:
    from analyser.rules import parse_ruleset

    return "wiezen" if parse_ruleset(cfg["rules"]).family.name == "wiezen" else "book"


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """One row per sequence index (the same indices for both models)."""
    return pd.DataFrame({"sequence": np.arange(cfg["sequences"], dtype=np.int64)})


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """Deals dealt: each sequence under both models."""
    return len(hands) * cfg["sequence_length"] * len(MODELS)


def _lengths(masks: np.ndarray) -> np.ndarray:
    """int[n, 4]: the suit lengths of each hand mask."""
    out = np.zeros((masks.size, 4), np.int64)
    for s in range(4):
        suit = (masks >> (16 * s)) & 0xFFFF
        out[:, s] = [bin(int(x)).count("1") for x in suit]
    return out


def qualify(masks: np.ndarray) -> dict[str, np.ndarray]:
    """Per hand mask, each criterion of CRITERIA, and the longest suit ('longest')."""
    lengths = _lengths(masks)
    aces = sum(((masks >> (16 * s + 12)) & 1) for s in range(4))
    return {
        "rik_ok": rik_ok.many(masks),
        "alone_7": alone_ok.many(masks, 7),
        "alone_8": alone_ok.many(masks, 8),
        "alone_9": alone_ok.many(masks, 9),
        "misere_ok": misere_ok.many(masks),
        "open_misere_ok": open_misere_ok.many(masks),
        "piek_ok": piek_ok.many(masks),
        "aces_3": aces >= 3,
        "long_6": lengths.max(axis=1) >= 6,
        "void": (lengths == 0).any(axis=1),
        "longest": lengths.max(axis=1),
    }


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per (model, sequence): the hands dealt, how many meet each criterion, and the
    longest-suit counts."""
    from analyser.deal_model import deal_sequences

    start = int(hands["sequence"].iloc[0])
    n = len(hands)
    length = cfg["sequence_length"]
    rows = []
    for model in MODELS:
        seqs = deal_sequences(n, length, cfg["seed"], model, _family(cfg), start=start)
        for i in range(n):
            q = qualify(seqs[i].reshape(-1))
            row = {"model": model, "sequence": start + i, "hands": length * N_SEATS}
            for key in CRITERIA:
                row[key] = int(np.sum(q[key]))
            longest = np.minimum(q["longest"], MAX_LENGTH_SHOWN)
            for k in range(4, MAX_LENGTH_SHOWN + 1):
                row[f"longest_{k}"] = int(np.sum(longest == k))
            rows.append(row)
            if progress is not None:
                progress.advance(length)
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """Per criterion: the share of hands under each model with its interval, and the
    difference (cut_only - uniform, independent sequences) with its interval; the
    longest-suit distribution per model."""
    rows = []
    for key, label in CRITERIA.items():
        row: dict = {"criterion": label}
        est = {}
        for model in MODELS:
            g = df[df.model == model]
            p, lo, hi = cluster_share(g[key].to_numpy(), g["hands"].to_numpy())
            est[model] = (p, (hi - lo) / (2 * Z95))
            row[f"{model}_p"], row[f"{model}_lo"], row[f"{model}_hi"] = p, lo, hi
        diff = est["cut_only"][0] - est["uniform"][0]
        se = math.hypot(est["cut_only"][1], est["uniform"][1])
        row["diff"], row["diff_lo"], row["diff_hi"] = diff, diff - Z95 * se, diff + Z95 * se
        row["changes"] = bool(row["diff_lo"] > 0 or row["diff_hi"] < 0)
        rows.append(row)
    shares = pd.DataFrame(rows)
    lengths = []
    for model in MODELS:
        g = df[df.model == model]
        total = g["hands"].sum()
        for k in range(4, MAX_LENGTH_SHOWN + 1):
            label = f"{k}+" if k == MAX_LENGTH_SHOWN else str(k)
            p, lo, hi = cluster_share(g[f"longest_{k}"].to_numpy(), g["hands"].to_numpy())
            lengths.append({"model": model, "longest": label, "p": p, "lo": lo, "hi": hi,
                            "hands": int(total)})  # fmt: skip
    return {"shares": shares, "longest": pd.DataFrame(lengths)}


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """No classifier: the study counts hands, it does not solve them."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 8. Rikken is dealt without shuffling (R-DEAL-03/04): the tricks are "
    "gathered, the pack is cut once and dealt in packets of seven and six. The cut-only model "
    "(R-DEAL-06) plays each deal out by a simple stated policy, gathers the tricks as the "
    "rules' default says, cuts uniformly and deals in packets; its first deal is uniform. "
    "Every hand of every deal is tested with the book's coded guidelines, under both models."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, pct, table_block

    shares, longest = res.tables["shares"], res.tables["longest"]
    labels = [str(c).split(" (")[0] for c in shares["criterion"]]
    series = {
        model.replace("_", " "): (
            shares[f"{model}_p"].tolist(),
            shares[f"{model}_lo"].tolist(),
            shares[f"{model}_hi"].tolist(),
        )
        for model in ("uniform", "cut_only")
    }
    png = charts.paired_bars(
        labels,
        series,
        folder / "deal_model.png",
        title="Hands that qualify: uniform deals against the real deal (cut only)",
        xlabel="",
        ylabel="share of hands",
    )
    changed = shares[shares["changes"]]
    parts = [
        f"{r.criterion}: {pct(r.uniform_p)} uniform, {pct(r.cut_only_p)} cut only "
        f"({100 * r['diff']:+.1f} points, 95% CI {100 * r.diff_lo:+.1f} to "
        f"{100 * r.diff_hi:+.1f})"
        for _, r in changed.iterrows()
    ]
    hands = int(res.table[res.table.model == "uniform"]["hands"].sum())
    reading = (
        (
            "Under the real deal these change beyond their intervals: " + "; ".join(parts) + "."
            if parts
            else "No share changes beyond its interval under the real deal."
        )
        + f" {hands} hands a model, in sequences of {res.cfg['sequence_length']} deals "
        "(cluster intervals over sequences). A guideline whose question arises more often "
        "under the real deal is asked more often at the table; whether its make-probabilities "
        "move too is not measured here (the bids are not solved under the cut-only model). "
        "The play that gathers the tricks is a stated simple policy (analyser.deal_model)."
    )
    return [
        Block("How often each question arises", reading, png=png),
        table_block("Shares of hands by deal model", shares, folder, "deal_model_shares"),
        table_block("Longest suit by deal model", longest, folder, "deal_model_longest"),
    ]
