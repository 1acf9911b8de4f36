"""The declarations (PK-04 … PK-09): carte blanche, the point, sequences and sets, compared
between the two hands after the exchange, with repic.

Every comparison runs in numba over bitmasks (8 bits per suit, :mod:`.cards`), so the
exchange advisor can score thousands of candidate hands per second. A hand's features are
summarised in an int64 array of ``F_*`` slots; :func:`score_pair` compares two summaries.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from analyser.games.piket.cards import FACE_RANKS, POINT_VALUES, mask_of
from analyser.games.piket.rules import (
    P_CARTE_BLANCHE,
    P_POINT_PER_CARD,
    P_POINT_TIE_VALUE,
    P_QUATORZE,
    P_REPIC_AT,
    P_REPIC_BONUS,
    P_SEQ,
    P_SET_MIN_RANK,
    P_TRIO,
    PiketRules,
)
from analyser.numba_cache import key_cache_on_sources

# slots of a hand's feature array (features())
F_POINT_LEN = 0
F_POINT_VALUE = 1
F_SEQ_LEN = 2  # the best sequence: length (0 when none of 3 or more) …
F_SEQ_TOP = 3  # … and its top card's rank index
F_SEQ_TOTAL = 4  # the value of all the hand's sequences (PK-06: the best validates them)
F_SET_BEST = 5  # 16 + rank for a quatorze, 8 + rank for a trio, 0 for none
F_SET_TOTAL = 6  # the value of all the hand's quatorzes and trios
N_FEATURES = 7

# slots of a comparison (score_pair), each from the elder's side: +1 elder wins the class,
# -1 younger wins it, 0 nobody (equal claims cancel, or neither holds one)
W_POINT = 0
W_SEQ = 1
W_SET = 2
S_ELDER = 3  # elder's declaration points, carte blanche and repic included
S_YOUNGER = 4
S_REPIC = 5  # +1 elder scored repic, -1 younger did, 0 nobody
N_SCORES = 6

_POINT_VALUES = np.array(POINT_VALUES, np.int64)
_FACE_MASK = sum(1 << (8 * s + r) for s in range(4) for r in FACE_RANKS)


@njit(cache=True)
def _features(mask: np.int64, prm: np.ndarray, pv: np.ndarray, out: np.ndarray) -> None:
    for i in range(N_FEATURES):
        out[i] = 0
    for s in range(4):
        suit = (mask >> (8 * s)) & 0xFF
        n = 0
        val = 0
        for r in range(8):
            if (suit >> r) & 1:
                n += 1
                val += pv[r]
        # PK-05: the longest suit, on equal length the higher summed value (the length tie
        # itself is settled in score_pair by the rules' switch)
        if n > out[F_POINT_LEN] or (n == out[F_POINT_LEN] and val > out[F_POINT_VALUE]):
            out[F_POINT_LEN] = n
            out[F_POINT_VALUE] = val
        # PK-06: the maximal runs of 3 or more; the best is the longest, then the highest
        run = 0
        for r in range(9):
            if r < 8 and (suit >> r) & 1:
                run += 1
                continue
            if run >= 3:
                top = r - 1
                out[F_SEQ_TOTAL] += prm[P_SEQ + run]
                if run > out[F_SEQ_LEN] or (run == out[F_SEQ_LEN] and top > out[F_SEQ_TOP]):
                    out[F_SEQ_LEN] = run
                    out[F_SEQ_TOP] = top
            run = 0
    # PK-07: quatorzes and trios of 10 and up
    for r in range(prm[P_SET_MIN_RANK], 8):
        k = 0
        for s in range(4):
            k += (mask >> (8 * s + r)) & 1
        if k == 4:
            out[F_SET_TOTAL] += prm[P_QUATORZE]
            if 16 + r > out[F_SET_BEST]:
                out[F_SET_BEST] = 16 + r
        elif k == 3:
            out[F_SET_TOTAL] += prm[P_TRIO]
            if 8 + r > out[F_SET_BEST]:
                out[F_SET_BEST] = 8 + r


@njit(cache=True)
def _cmp(a: np.int64, b: np.int64) -> np.int64:
    if a > b:
        return 1
    if a < b:
        return -1
    return 0


@njit(cache=True)
def _score(
    fe: np.ndarray, fy: np.ndarray, cb_e: bool, cb_y: bool, prm: np.ndarray, out: np.ndarray
) -> None:
    # PK-04: carte blanche scores for its holder, whatever the other holds
    se = prm[P_CARTE_BLANCHE] if cb_e else 0
    sy = prm[P_CARTE_BLANCHE] if cb_y else 0
    # PK-05: the longer point wins; on equal length the higher value (standard) or cancel
    w = _cmp(fe[F_POINT_LEN], fy[F_POINT_LEN])
    if w == 0 and prm[P_POINT_TIE_VALUE] == 1:
        w = _cmp(fe[F_POINT_VALUE], fy[F_POINT_VALUE])
    if fe[F_POINT_LEN] == 0 and fy[F_POINT_LEN] == 0:
        w = 0
    out[W_POINT] = w
    if w > 0:
        se += fe[F_POINT_LEN] * prm[P_POINT_PER_CARD]
    elif w < 0:
        sy += fy[F_POINT_LEN] * prm[P_POINT_PER_CARD]
    # PK-06: longer beats shorter, then the higher top; fully equal cancel
    w = _cmp(fe[F_SEQ_LEN] * 8 + fe[F_SEQ_TOP], fy[F_SEQ_LEN] * 8 + fy[F_SEQ_TOP])
    if fe[F_SEQ_LEN] == 0 and fy[F_SEQ_LEN] == 0:
        w = 0
    out[W_SEQ] = w
    if w > 0:
        se += fe[F_SEQ_TOTAL]
    elif w < 0:
        sy += fy[F_SEQ_TOTAL]
    # PK-07: any quatorze beats any trio, the higher beats the lower; the holder of the best
    # scores all his sets (two hands never hold equal sets: a rank has four cards)
    w = _cmp(fe[F_SET_BEST], fy[F_SET_BEST])
    out[W_SET] = w
    if w > 0:
        se += fe[F_SET_TOTAL]
    elif w < 0:
        sy += fy[F_SET_TOTAL]
    # PK-13: repic: 30 from declarations alone while the opponent scored nothing
    out[S_REPIC] = 0
    if se >= prm[P_REPIC_AT] and sy == 0:
        se += prm[P_REPIC_BONUS]
        out[S_REPIC] = 1
    elif sy >= prm[P_REPIC_AT] and se == 0:
        sy += prm[P_REPIC_BONUS]
        out[S_REPIC] = -1
    out[S_ELDER] = se
    out[S_YOUNGER] = sy


@njit(cache=True)
def score_pairs(
    elder: np.ndarray,
    younger: np.ndarray,
    cb_e: np.ndarray,
    cb_y: np.ndarray,
    prm: np.ndarray,
) -> np.ndarray:
    """Declarations of each pair of hands (bitmasks after the exchange; ``cb_*`` carte
    blanche of the dealt hands): an (n, N_SCORES) int64 array of ``W_*``/``S_*`` slots."""
    n = elder.shape[0]
    out = np.zeros((n, N_SCORES), np.int64)
    fe = np.zeros(N_FEATURES, np.int64)
    fy = np.zeros(N_FEATURES, np.int64)
    for i in range(n):
        _features(elder[i], prm, _POINT_VALUES, fe)
        _features(younger[i], prm, _POINT_VALUES, fy)
        _score(fe, fy, cb_e[i], cb_y[i], prm, out[i])
    return out


def carte_blanche(cards) -> bool:
    """PK-04: a dealt hand without K, Q or J."""
    return (mask_of(cards) & _FACE_MASK) == 0


def carte_blanche_masks(masks: np.ndarray) -> np.ndarray:
    """PK-04 for an array of dealt-hand bitmasks."""
    return (np.asarray(masks, np.int64) & _FACE_MASK) == 0


def features(cards, rules: PiketRules) -> dict[str, int]:
    """The declarable features of one hand: point length and value, best sequence (length,
    top rank index), the value of all its sequences, its best set and the value of its sets."""
    out = np.zeros(N_FEATURES, np.int64)
    _features(np.int64(mask_of(cards)), rules.packed(), _POINT_VALUES, out)
    names = ("point_len", "point_value", "seq_len", "seq_top", "seq_total", "set_best")
    return {k: int(v) for k, v in zip((*names, "set_total"), out, strict=True)}


@dataclasses.dataclass(frozen=True)
class Declarations:
    """The declarations between two hands after the exchange: who wins each class (+1
    elder, -1 younger, 0 nobody), each side's points (carte blanche and repic included) and
    who scored repic."""

    point: int
    sequence: int
    sets: int
    elder: int
    younger: int
    repic: int


def score(
    elder_cards,
    younger_cards,
    rules: PiketRules,
    elder_blanche: bool = False,
    younger_blanche: bool = False,
) -> Declarations:
    """Score the declarations of two 12-card hands (piket ids) after the exchange; carte
    blanche belongs to the dealt hands, so it is given, not derived, here."""
    out = score_pairs(
        np.array([mask_of(elder_cards)], np.int64),
        np.array([mask_of(younger_cards)], np.int64),
        np.array([elder_blanche]),
        np.array([younger_blanche]),
        rules.packed(),
    )[0]
    slots = (W_POINT, W_SEQ, W_SET, S_ELDER, S_YOUNGER, S_REPIC)
    return Declarations(*(int(out[k]) for k in slots))


# numba's cache follows the rules' slot numbers and the card encoding (compiled in)
key_cache_on_sources(
    globals(),
    (
        "games/piket/declarations.py",
        "games/piket/rules.py",
        "games/piket/cards.py",
        "numba_cache.py",
    ),
)
