"""Helpers shared by the study modules: hand rows, pooled make-rates with Wilson intervals."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyser.cards import mask_to_cards
from analyser.notation import format_hand_pbn
from analyser.stats import cluster_interval
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
    """Per group: hands, deals, made, ``p`` = made / deals and its 95 % interval.

    Deals of one hand are not independent (they share that hand): the interval is the
    cluster interval over the group's hands (:func:`analyser.stats.cluster_interval`), never
    narrower than the Wilson interval of its deals."""
    by = [by] if isinstance(by, str) else list(by)
    g = df.groupby(by, observed=True, dropna=False)
    out = g.agg(hands=("hand_id", "nunique"), deals=(deals, "sum"), made=(made, "sum"))
    out = out.reset_index()
    if out.empty:
        return out.assign(p=np.nan, lo=np.nan, hi=np.nan)
    per_hand = df.groupby([*by, "hand_id"], observed=True, dropna=False)[[made, deals]].sum()
    # the same groups in the same (sorted) order as ``out``, NaN keys included
    ends = per_hand.groupby(level=list(range(len(by))), observed=True, dropna=False).apply(
        lambda h: pd.Series(cluster_interval(h[made], h[deals])[1:], index=["lo", "hi"])
    )
    n = out["deals"].to_numpy()
    out["p"] = np.where(n > 0, out["made"].to_numpy() / np.maximum(n, 1), np.nan)
    out["lo"] = ends["lo"].to_numpy()
    out["hi"] = ends["hi"].to_numpy()
    return out


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
