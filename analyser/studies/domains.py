"""What values a study table may hold: the checks a cached table or chunk part passes
before it is used (after its checksum, :mod:`analyser.studies.cache`).

The checks are by column name, for the columns the studies share, and hold for every study
that writes the column (a column a table does not have is not checked):

* counts are never negative: ``deals``, ``undecided``, ``hands``, ``accepted``,
  ``sampled``, and the indices ``hand_id``, ``sequence``, and the card ``mask``; the index
  ``deal`` is -1 at the least (a hand's row without a played deal: Study 13's hands outside
  its double-dummy range);
* ``made`` lies in [0, ``deals``] and ``accepted`` in [0, ``sampled``];
* a per-deal answer ``made_*`` / ``*_made`` is -1 (not decided, or the trump not allowed),
  0 or 1, unless it is a count (``made`` itself);
* probabilities (``p``, ``p_*``) and the 0/1 shares ``alone_made`` lie in [0, 1] (or are
  empty); ``mean_tricks`` in [0, 13];
* on the finished table, ``study``, ``study_key`` and ``version`` are the configuration's.

A table that breaks one is reported and solved again, never used.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.studies.config import StudyConfig

NON_NEGATIVE = (
    "deals",
    "undecided",
    "hands",
    "accepted",
    "sampled",
    "hand_id",
    "sequence",
    "mask",
)
NO_DEAL = -1  # the ``deal`` of a hand's row that plays no deal
UNIT_INTERVAL_NAMES = ("p", "alone_made")
PER_DEAL_ANSWER = (-1, 0, 1)
MAX_TRICKS = 13


def _numeric(df: pd.DataFrame, col: str) -> np.ndarray | None:
    values = df[col]
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        return None
    return values.to_numpy(dtype=float, na_value=np.nan)


def _is_per_deal_answer(col: str) -> bool:
    return col != "made" and (col.startswith("made_") or col.endswith("_made"))


def domain_problem(df: pd.DataFrame, cfg: StudyConfig | None = None) -> str | None:
    """The first value of ``df`` outside its column's domain, in words (None when every
    value is in range). ``cfg``: the configuration of a finished table, whose identity
    columns are checked too."""
    for col in df.columns:
        v = _numeric(df, col)
        if v is None:
            continue
        if col in NON_NEGATIVE and (v < 0).any():
            return f"column {col} has a negative value"
        if col == "deal" and (v < NO_DEAL).any():
            return f"column {col} has a value below {NO_DEAL}"
        if (col in UNIT_INTERVAL_NAMES or col.startswith("p_")) and (
            (v < 0) | (v > 1)
        ).any():  # NaN compares false: an empty share is allowed
            return f"column {col} has a probability outside [0, 1]"
        if _is_per_deal_answer(col) and (
            pd.api.types.is_integer_dtype(df[col]) and not np.isin(v, PER_DEAL_ANSWER).all()
        ):
            return f"column {col} has an answer other than -1, 0 or 1"
        if col == "mean_tricks" and ((v < 0) | (v > MAX_TRICKS)).any():
            return f"column {col} is outside [0, {MAX_TRICKS}]"
    for count, total in (("made", "deals"), ("accepted", "sampled")):
        if count in df and pd.api.types.is_numeric_dtype(df[count]):
            made = df[count].to_numpy(dtype=float, na_value=np.nan)
            if (made < 0).any():
                return f"column {count} has a negative value"
            if total in df and (made > df[total].to_numpy(dtype=float, na_value=np.nan)).any():
                return f"column {count} exceeds {total}"
    if cfg is not None:
        for col, want in (("study", cfg.name), ("study_key", cfg.key), ("version", cfg.version)):
            if col in df and not (df[col] == want).all():
                return f"column {col} is not {want!r} on every row"
    return None
