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

from analyser.cards import SUIT_BITS
from analyser.guidelines import book_count
from analyser.guidelines.misere import big_hole_suits, hole_count, hole_suits, max_delta
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


# what each hand feature is, in words (the curve's notes and the report name them so)
FEATURE_LABELS = {
    "hcp": "high-card points",
    "longest": "longest suit",
    "aces": "aces",
    "holes": "holes (G-MIS-03)",
    "hole_suits": "suits with a hole",
    "max_delta": "largest hole δ (G-MIS-03)",
    "big_hole_suits": "suits with a big hole (G-MIS-06)",
}


def hand_features(masks: np.ndarray) -> dict[str, np.ndarray]:
    """Hand features a real-play curve may use beside the double-dummy P(make), per hand
    mask (:data:`FEATURE_LABELS`): high-card points (A 4, K 3, Q 2, J 1), the longest suit's
    length, the aces, and the misère guidelines' hole measures (a hole: a card with more
    outstanding cards below it than own ones, δ its excess)."""
    masks = np.asarray(masks, dtype=np.int64)
    # per suit its 13 rank bits (rank 0 = the two), from the mask's SUIT_BITS-wide fields
    shifts = (np.arange(4) * SUIT_BITS)[:, None] + np.arange(13)[None, :]
    bits = (masks[:, None, None] >> shifts[None, :, :]) & 1
    points = np.zeros(13)
    points[9:] = (1, 2, 3, 4)  # J Q K A
    return {
        "hcp": (bits * points).sum(axis=(1, 2)).astype(float),
        "longest": bits.sum(axis=2).max(axis=1).astype(float),
        "aces": bits[:, :, 12].sum(axis=1).astype(float),
        "holes": np.asarray(hole_count.many(masks), dtype=float),
        "hole_suits": np.asarray(hole_suits.many(masks), dtype=float),
        "max_delta": np.asarray(max_delta.many(masks), dtype=float),
        "big_hole_suits": np.asarray(big_hole_suits.many(masks), dtype=float),
    }


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
