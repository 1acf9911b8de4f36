"""Estimated real play: a double-dummy make-probability mapped through the single-dummy
calibration of Study 9 (:mod:`analyser.studies.single_dummy`).

The study plays a panel of hands per contract family both double-dummy (DD) and single-dummy
(SD, PIMC players) on the same deals and records per family ``a = P(SD make | DD make)``
and ``b = P(SD make | DD fail)`` with 95 % Wilson intervals in
``data/single_dummy_calibration.json``. A DD probability ``P`` then maps to the estimated
real-play ``P·a + (1-P)·b`` (:func:`analyser.analysis.calibration.real_play`).

:func:`load` reads that file (None when it is missing or unreadable: ``rikken analyse``
then shows nothing extra); :func:`family_of` names the calibrated family of a rikken
contract (None for the contracts the study does not cover: alone 10-12, open piek, the
praatje forms, every wiezen contract); :func:`in_panel` says whether a hand is of the kind
the study calibrated that family on — the estimate is only given for those. The map and the
panel filter are :mod:`analyser.analysis.calibration`'s.
"""

from __future__ import annotations

import functools
import json
import math
import pathlib
from dataclasses import dataclass

from analyser.analysis import calibration
from analyser.resources import shipped_file
from analyser.rules.contracts import RIKKEN, Contract, ContractFamily

# the checkout's data/ folder, or its copy inside an installed wheel (analyser/resources.py)
DEFAULT_PATH = shipped_file("data", "single_dummy_calibration.json")


@dataclass(frozen=True)
class Calibration:
    """The study's calibration: per family key its row (``a``, ``a_lo`` … ``b_hi``, counts),
    and where it came from."""

    families: dict[str, dict]
    samples: int
    deals: int
    seed: int
    path: pathlib.Path

    def estimate(self, family: str, p_dd: float) -> tuple[float, float, float] | None:
        """``(p, lo, hi)`` estimated real play for a DD probability, None if not covered."""
        row = self.families.get(family)
        if row is None or p_dd is None or math.isnan(p_dd):
            return None
        nan = {k: (math.nan if v is None else v) for k, v in row.items()}
        return calibration.real_play(p_dd, nan)

    def estimate_range(
        self, family: str, p_dd: float, low: float, high: float
    ) -> tuple[float, float, float] | None:
        """``(p, lo, hi)`` for a DD estimate ``p_dd`` with its interval ``low``..``high``: the
        point maps ``p_dd``; the range is the widest of the calibration's ranges at both ends
        of the DD interval (each end of the range is linear in P, so its extremes over the
        interval lie at its ends), so it carries both uncertainties."""
        mid = self.estimate(family, p_dd)
        if mid is None:
            return None
        ends = [self.estimate(family, x) for x in (low, high)]
        return mid[0], min(e[1] for e in ends), max(e[2] for e in ends)

    def family_deals(self, family: str) -> int:
        row = self.families.get(family) or {}
        return int(row.get("dd_made", 0)) + int(row.get("dd_failed", 0))


def load(path: str | pathlib.Path | None = None) -> Calibration | None:
    """The calibration file (default :data:`DEFAULT_PATH`), None if absent or unreadable."""
    return _load(str(path or DEFAULT_PATH))


@functools.cache
def _load(path: str) -> Calibration | None:
    p = pathlib.Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
        families = {str(k): dict(v) for k, v in doc["families"].items()}
        need = ("a", "a_lo", "a_hi", "b", "b_lo", "b_hi")
        if not all(k in row for row in families.values() for k in need):
            return None
        return Calibration(families, int(doc["samples"]), int(doc["deals"]), int(doc["seed"]), p)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def in_panel(family: str, hand) -> bool:
    """Whether ``hand`` (card ints) is of the kind Study 9 calibrated ``family`` on (its
    panel's filter, :func:`analyser.analysis.calibration.qualifies`: a rik hand meeting
    G-RIK-01, a misère hand without red flags, ...). Outside it the calibration says nothing:
    a hopeless misère hand's double-dummy failures are not the near misses of the panel."""
    import numpy as np

    from analyser.cards import cards_to_mask

    mask = np.array([cards_to_mask([int(c) for c in hand])], dtype=np.int64)
    return bool(calibration.qualifies(family, mask)[0])


def family_of(contract: Contract, family: ContractFamily = RIKKEN) -> str | None:
    """The study family covering ``contract`` (rikken rule sets only), else None."""
    if family is not RIKKEN:
        return None
    kind = contract.kind
    if kind == "rik":
        return "beter_rik" if contract.beter else "rik"
    if kind == "alone" and contract.n in calibration.ALONE_LEVELS:
        return "alone"
    if kind == "solo":
        return "solo"
    if kind in ("misere", "open_misere", "piek", "malheur"):
        return kind
    return None
