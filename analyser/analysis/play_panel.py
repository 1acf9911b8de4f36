"""Which hands and bids the real-play calibration covers.

Study 13 (:mod:`analyser.studies.real_play`) plays, per contract family, hands of the
family's *design* (not filtered by the book's guideline): every hand for rik, beter rik,
misère, open misère, piek and malheur; alone 7..9 is a hand whose book count is 7..9, solo one
of 12 or more. :func:`in_design` is that definition (the study draws its panel with it and the
analysis refuses a curve to a hand outside it); :func:`family_of` names the family of a
rikken contract (None for contracts the study does not play: alone 10..12, open piek, the
praatje forms, every wiezen contract).
"""

from __future__ import annotations

import numpy as np

from analyser.guidelines import book_count
from analyser.rules.contracts import RIKKEN, Contract, ContractFamily

ALONE_COUNTS = range(7, 10)  # alone 7..9: a hand whose book count is 7..9, bid at that count
SOLO_COUNT = 12  # solo: a hand whose book count is 12 or more


def in_design(family: str, masks: np.ndarray) -> np.ndarray:
    """Per hand mask, whether it is of the family's design (module docstring)."""
    masks = np.asarray(masks, dtype=np.int64)
    if family == "alone":
        count = np.asarray(book_count.many(masks))
        return (count >= ALONE_COUNTS.start) & (count < ALONE_COUNTS.stop)
    if family == "solo":
        return np.asarray(book_count.many(masks)) >= SOLO_COUNT
    return np.ones(masks.size, dtype=bool)


def family_of(contract: Contract, family: ContractFamily = RIKKEN) -> str | None:
    """The calibrated family of ``contract`` (rikken rule sets only), else None."""
    if family is not RIKKEN:
        return None
    kind = contract.kind
    if kind == "rik":
        return "beter_rik" if contract.beter else "rik"
    if kind == "alone" and contract.n in ALONE_COUNTS:
        return "alone"
    if kind in ("solo", "misere", "open_misere", "piek", "malheur"):
        return kind
    return None
