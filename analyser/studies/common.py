"""Helpers shared by the study modules: hand rows, pooled make-rates with Wilson intervals."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyser.cards import mask_to_cards
from analyser.notation import format_hand_pbn
from analyser.stats import wilson_interval, with_interval
from analyser.studies.hands import deal_seed


def hand_frame(masks: np.ndarray, seed: int, first_id: int, **columns) -> pd.DataFrame:
    """One row per hand: ``hand_id`` (from ``first_id``), ``mask``, ``hand`` (PBN text),
    ``deal_seed`` (from the study seed and the hand id) and the given stratum columns."""
    masks = np.asarray(masks, dtype=np.int64)
    ids = np.arange(first_id, first_id + masks.size, dtype=np.int64)
    df = pd.DataFrame(
        {
            "hand_id": ids,
            "mask": masks,
            "hand": [format_hand_pbn(mask_to_cards(int(m))) for m in masks],
            "deal_seed": np.array([deal_seed(seed, int(i)) for i in ids], dtype=np.uint64),
        }
    )
    for name, value in columns.items():
        df[name] = value
    return df


def renumber(frames: Sequence[pd.DataFrame], seed: int) -> pd.DataFrame:
    """Concatenate hand frames and give them consecutive ids (and matching deal seeds)."""
    df = pd.concat(list(frames), ignore_index=True)
    df["hand_id"] = np.arange(len(df), dtype=np.int64)
    df["deal_seed"] = np.array([deal_seed(seed, int(i)) for i in df["hand_id"]], dtype=np.uint64)
    return df


def pooled(
    df: pd.DataFrame, by: str | list[str], made: str = "made", deals: str = "deals"
) -> pd.DataFrame:
    """Per group: hands, deals, made, ``p`` = made / deals and its 95 % Wilson interval.

    Deals of one hand are not independent (they share that hand), so the interval is a little
    too narrow when a group has few hands; ``hands`` is reported beside it for that reason."""
    by = [by] if isinstance(by, str) else list(by)
    g = df.groupby(by, observed=True, dropna=False)
    out = g.agg(hands=("hand_id", "nunique"), deals=(deals, "sum"), made=(made, "sum"))
    out = out.reset_index()
    return with_interval(out)


def classifier_score(
    study: str, gid: str, says_bid: np.ndarray, made: np.ndarray, deals: np.ndarray, **extra
) -> list[dict]:
    """Rows scoring a classifier guideline: of the hands it says to bid, the share of deals
    made; of the hands it says to pass, the share that would have made (95 % Wilson)."""
    says_bid = np.asarray(says_bid, dtype=bool)
    rows = []
    for verdict, sel in (("bid", says_bid), ("pass", ~says_bid)):
        m, n = int(np.asarray(made)[sel].sum()), int(np.asarray(deals)[sel].sum())
        lo, hi = wilson_interval(m, n)
        rows.append(
            {
                "study": study,
                "guideline": gid,
                **extra,
                "says": verdict,
                "hands": int(sel.sum()),
                "deals": n,
                "made": m,
                "p": m / n if n else np.nan,
                "lo": lo,
                "hi": hi,
            }
        )
    return rows


def model_cells(df: pd.DataFrame, cell, made: str = "made") -> pd.DataFrame:
    """A study's ``MODEL_CELLS`` table (:mod:`analyser.studies.model_compare`): one row per
    row of ``df`` with its cell label, ``hand_id``, ``made`` (from column ``made``) and
    ``deals``."""
    return pd.DataFrame(
        {
            "cell": np.asarray(cell, dtype=object),
            "hand_id": df["hand_id"].to_numpy(),
            "made": df[made].to_numpy(),
            "deals": df["deals"].to_numpy(),
        }
    )
