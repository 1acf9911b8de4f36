"""Seeded, reproducible sampling of deals consistent with known cards.

Deals are drawn uniformly among all completions of the known cards (every seat ends with 13
cards) and returned as ``int64[n, 4]`` hand bitmasks in the layout of :mod:`analyser.cards`.

Reproducibility is by construction, not by RNG state: deal ``i`` depends only on
``(seed, known cards, i)``. Its random numbers are the 64-bit words ``i * 2**15 + t``
(t = 0, 1, ...) of the SplitMix64 sequence whose initial state is the seed's key (the first
SplitMix64 output from state ``seed``), each word split into two 32-bit draws, high half first.
So the same deal ``i`` comes out whatever batch it is asked in, on any machine and any thread
layout; neither numpy's nor numba's RNG is involved.

A deal is a partial Fisher-Yates shuffle of the unknown cards (in ascending card order) with
bounded integers from Lemire's multiply-shift method with rejection, which is exactly uniform.
The shuffled prefix is cut into the open places of the seats in a fixed order (ascending seat
number, except that the seat with the most open places, the highest such seat on a tie, comes
last and just takes the remaining cards). A uniform ordered prefix makes every completion
equally likely. With no known cards the first 13 cards go to North, so
``random_hands(n, seed)[i] == random_deals(n, seed)[i, NORTH]``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit, prange

from analyser.cards import (
    N_CARDS,
    N_RANKS,
    N_SEATS,
    SEAT_LETTERS,
    card_bit,
    masks_to_owner,
    owner_to_masks,
)
from analyser.errors import ParseError
from analyser.numba_cache import key_cache_on_sources

# SplitMix64 constants (Steele, Lea & Flood 2014; Stafford's "Mix13" finaliser).
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)

# Each deal owns a block of 2**15 words = 2**16 draws of the sequence. A deal needs at most
# 39 bounded draws plus rejections (each draw is rejected with probability < 52 / 2**32), so in
# practice a block is never exhausted.
_DEAL_WORDS_LOG2 = np.uint64(15)
MAX_DEALS = 1 << 48  # deal indices stay below this so word indices fit in 63 bits
MAX_SEED = (1 << 64) - 1

_PARALLEL_CHUNK = 8192  # deals per parallel work item: big enough to amortise the scratch buffer

_ALL_BITS = np.array([card_bit(c) for c in range(N_CARDS)], dtype=np.int64)


@njit(cache=True, inline="always")
def _mix64(z):
    """SplitMix64's output function: a bijective avalanche mix of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _seed_key(seed):
    """The stream key of a seed: the first SplitMix64 output of state ``seed``.

    Mixing the seed first keeps nearby seeds (0, 1, 2, ...) from giving shifted copies of one
    stream.
    """
    return _mix64(np.uint64(seed) + _GAMMA)


@njit(cache=True, inline="always")
def _word(key, index):
    """Word ``index`` (0-based) of the SplitMix64 sequence whose initial state is ``key``."""
    return _mix64(key + _GAMMA * (index + np.uint64(1)))


@njit(cache=True, inline="always")
def _bounded(x, r):
    """Lemire's multiply-shift: map a 32-bit draw ``x`` to ``(accepted, value in [0, r))``.

    ``x * r >> 32`` lies in ``[0, r)``; rejecting the draws whose low product word is below
    ``2**32 mod r`` leaves exactly ``floor(2**32 / r)`` accepted draws per value, so accepted
    values are exactly uniform. The modulo is only computed in the rare case ``low < r``.
    """
    prod = x * r
    low = prod & _MASK32
    accepted = low >= r or low >= (_TWO32 - r) % r
    return accepted, prod >> np.uint64(32)


@njit(cache=True)
def _shuffle_prefix(buf, m, key, deal):
    """Partial Fisher-Yates: put a uniform random ordered ``m``-subset of ``buf`` in ``buf[:m]``.

    The random draws are those of deal ``deal`` (a uint64) under stream ``key``.
    """
    k = buf.size
    key = np.uint64(key)  # mixing int64 and uint64 would silently promote to float64
    base = np.uint64(deal) << _DEAL_WORDS_LOG2
    t = np.uint64(0)  # index of the next 32-bit draw within this deal's block
    word = np.uint64(0)
    for j in range(m):
        r = np.uint64(k - j)
        while True:
            if (t & np.uint64(1)) == np.uint64(0):
                word = _word(key, base + (t >> np.uint64(1)))
                x = word >> np.uint64(32)
            else:
                x = word & _MASK32
            t += np.uint64(1)
            accepted, value = _bounded(x, r)
            if accepted:
                break
        i = j + np.int64(value)
        tmp = buf[j]
        buf[j] = buf[i]
        buf[i] = tmp


@njit(cache=True)
def _fill_deals(out, key, start, lo, hi, fixed, pool, counts, order):
    """Write deals ``start + lo .. start + hi - 1`` into rows ``lo .. hi - 1`` of ``out``.

    ``fixed``: int64[4] known masks; ``pool``: int64[k] bits of the unknown cards, ascending;
    ``order``: seats in filling order; ``counts``: open places of ``order[0..2]`` (the last
    seat of ``order`` takes whatever remains).
    """
    k = pool.size
    m = counts[0] + counts[1] + counts[2]
    pool_mask = np.int64(0)
    for j in range(k):
        pool_mask |= pool[j]
    buf = np.empty(k, dtype=np.int64)
    for d in range(lo, hi):
        # Restart from the same pool order so a deal never depends on the ones before it.
        for j in range(k):
            buf[j] = pool[j]
        _shuffle_prefix(buf, m, key, np.uint64(start + d))
        pos = 0
        rest = pool_mask
        for a in range(3):
            hand = np.int64(0)
            for _ in range(counts[a]):
                hand |= buf[pos]
                pos += 1
            out[d, order[a]] = fixed[order[a]] | hand
            rest ^= hand
        out[d, order[3]] = fixed[order[3]] | rest


@njit(cache=True, parallel=True)
def _fill_deals_parallel(out, key, start, fixed, pool, counts, order):
    """:func:`_fill_deals` over all rows of ``out``, in chunks spread over numba's threads."""
    n = out.shape[0]
    n_chunks = (n + _PARALLEL_CHUNK - 1) // _PARALLEL_CHUNK
    for c in prange(n_chunks):
        lo = c * _PARALLEL_CHUNK
        hi = min(n, lo + _PARALLEL_CHUNK)
        _fill_deals(out, key, start, lo, hi, fixed, pool, counts, order)


@njit(cache=True)
def _fill_hands(out, key, start, all_bits):
    """Write random 13-card hands for deals ``start .. start + len(out) - 1`` into ``out``."""
    buf = np.empty(all_bits.size, dtype=np.int64)
    for d in range(out.size):
        for j in range(all_bits.size):
            buf[j] = all_bits[j]
        _shuffle_prefix(buf, 13, key, np.uint64(start + d))
        hand = np.int64(0)
        for j in range(13):
            hand |= buf[j]
        out[d] = hand


# ---------------------------------------------------------------------------------------------
# Python boundary: validation and set-up


def _as_int(value, what: str) -> int:
    """``value`` as a Python int, or ParseError naming ``what``."""
    if isinstance(value, bool | np.bool_):
        raise ParseError(f"{what} must be an integer, not a boolean", str(value))
    try:
        return operator.index(value)
    except TypeError:
        raise ParseError(f"{what} must be an integer", repr(value)) from None


def _owner_from_array(arr: np.ndarray) -> np.ndarray:
    """Validate an owner array (seat per card, -1 = unknown) and return it as int8[52]."""
    if arr.dtype.kind not in "iu":
        raise ParseError("an owner array must hold integer seats (-1 = unknown)", str(arr.dtype))
    bad = np.flatnonzero((arr < -1) | (arr >= N_SEATS))
    if bad.size:
        c = int(bad[0])
        raise ParseError(
            f"card {c} has seat {int(arr[c])}; seats are 0..3 (N, E, S, W) or -1 for unknown",
            f"card {c}",
        )
    return arr.astype(np.int8)


def _owner_from_lists(hands: Sequence[Iterable[int]]) -> np.ndarray:
    """Owner array from four card lists (one per seat, N E S W); rejects clashes."""
    owner = np.full(N_CARDS, -1, dtype=np.int8)
    for seat, cards in enumerate(hands):
        if isinstance(cards, str) or not isinstance(cards, Iterable):
            raise ParseError(
                "known cards per seat must be a list of card ints", f"seat {SEAT_LETTERS[seat]}"
            )
        for raw in cards:
            c = _as_int(raw, "a card")
            if not 0 <= c < N_CARDS:
                raise ParseError(
                    f"card {c} is out of range (cards are 0..51)", f"seat {SEAT_LETTERS[seat]}"
                )
            if owner[c] == seat:
                raise ParseError(f"card {c} is listed twice", f"seat {SEAT_LETTERS[seat]}")
            if owner[c] >= 0:
                raise ParseError(
                    f"card {c} is fixed to two seats, "
                    f"{SEAT_LETTERS[owner[c]]} and {SEAT_LETTERS[seat]}",
                    f"card {c}",
                )
            owner[c] = seat
    return owner


def known_owner(known) -> np.ndarray:
    """Validate known cards and return them as an owner array ``int8[52]`` (-1 = unknown).

    ``known`` is ``None`` (nothing known), an owner array / sequence of 52 seats (-1 = unknown),
    or a sequence of four card lists, one per seat in the order N, E, S, W. Raises
    :class:`ParseError` for out-of-range cards or seats, a card fixed to two seats, or more
    than 13 cards known for a seat.
    """
    if known is None:
        return np.full(N_CARDS, -1, dtype=np.int8)
    if isinstance(known, np.ndarray) and known.ndim == 1 and known.size == N_CARDS:
        owner = _owner_from_array(known)
    elif isinstance(known, np.ndarray) and known.ndim == 2 and known.shape[0] == N_SEATS:
        owner = _owner_from_lists(list(known))
    elif isinstance(known, np.ndarray) and known.ndim == 1 and known.size == N_SEATS:
        raise ParseError(
            "known cards must be an owner array of 52 seats or four card lists, not hand masks; "
            "convert masks with analyser.cards.masks_to_owner"
        )
    elif isinstance(known, Sequence) and not isinstance(known, str) and len(known) == N_CARDS:
        try:
            arr = np.array([_as_int(v, "a seat") for v in known], dtype=np.int64)
        except ParseError as err:
            raise ParseError(f"an owner array must hold integer seats: {err}") from None
        owner = _owner_from_array(arr)
    elif isinstance(known, Sequence) and not isinstance(known, str) and len(known) == N_SEATS:
        owner = _owner_from_lists(known)
    else:
        raise ParseError(
            "known cards must be None, an owner array of 52 seats (-1 = unknown) "
            "or four card lists (N, E, S, W)"
        )
    counts = np.bincount(owner[owner >= 0], minlength=N_SEATS)
    for seat in range(N_SEATS):
        if counts[seat] > N_RANKS:
            raise ParseError(
                f"{int(counts[seat])} cards are known for seat {SEAT_LETTERS[seat]}; "
                f"a hand has {N_RANKS}",
                f"seat {SEAT_LETTERS[seat]}",
            )
    return owner


def with_turned_card(known, turned: int, dealer: int) -> np.ndarray:
    """The owner array of ``known`` (any form :func:`known_owner` takes) with the turned card
    fixed at seat ``dealer`` (0..3).

    wiezen (docs/rules.md W-01): the dealer's 13th card is dealt face up and stays in his
    hand, so every player knows where it is. Sampling from this owner array keeps the deal
    uniform among the completions in which the dealer holds it. Raises :class:`ParseError`
    when the card is known to lie at another seat, or when the dealer would hold 14 cards.
    """
    owner = known_owner(known).copy()
    c = _as_int(turned, "the turned card")
    d = _as_int(dealer, "the dealer's seat")
    if not 0 <= c < N_CARDS:
        raise ParseError(f"the turned card {c} is out of range (cards are 0..51)")
    if not 0 <= d < N_SEATS:
        raise ParseError(f"the dealer's seat must be 0..3 (N, E, S, W), got {d}")
    if 0 <= owner[c] != d:
        raise ParseError(
            f"the turned card is in the hand of seat {SEAT_LETTERS[owner[c]]}, "
            f"not the dealer's ({SEAT_LETTERS[d]}): the dealer keeps his turned card"
        )
    owner[c] = d
    return known_owner(owner)  # rejects a 14th card for the dealer


def _check_run(n, seed, start) -> tuple[int, np.uint64, int]:
    """Validate ``(n, seed, start)``; return them with the seed turned into its stream key."""
    n = _as_int(n, "the number of deals")
    seed = _as_int(seed, "the seed")
    start = _as_int(start, "the start index")
    if n < 0:
        raise ParseError(f"the number of deals must be >= 0, got {n}")
    if start < 0:
        raise ParseError(f"the start index must be >= 0, got {start}")
    if start + n > MAX_DEALS:
        raise ParseError(f"deal indices must stay below 2**48, got up to {start + n - 1}")
    if not 0 <= seed <= MAX_SEED:
        raise ParseError(f"the seed must be in 0..2**64-1, got {seed}")
    # numba boxes a uint64 result as a Python int; re-wrap it so kernels type it as uint64.
    return n, np.uint64(_seed_key(np.uint64(seed))), start


def _deal_plan(owner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kernel inputs for an owner array: fixed masks, unknown pool, open counts, seat order."""
    fixed = owner_to_masks(owner)
    pool = np.ascontiguousarray(_ALL_BITS[owner < 0])
    open_places = N_RANKS - np.bincount(owner[owner >= 0], minlength=N_SEATS)
    # The last seat needs no draws, so give it the most open places (fewest draws overall).
    last = N_SEATS - 1 - int(np.argmax(open_places[::-1]))
    order = np.array([s for s in range(N_SEATS) if s != last] + [last], dtype=np.int64)
    counts = np.array([open_places[s] for s in order[:3]], dtype=np.int64)
    return fixed, pool, counts, order


def sample_deals(known, n: int, seed: int, start: int = 0, *, parallel: bool = False) -> np.ndarray:
    """Deals ``start .. start + n - 1`` drawn uniformly among completions of ``known``.

    Returns ``int64[n, 4]`` hand masks (N, E, S, W). Deal ``i`` depends only on ``seed``, the
    known cards and ``i``, so batches with different ``start`` fit together exactly and
    ``parallel=True`` (numba threads) gives the same array as the serial version. See
    :func:`known_owner` for the accepted forms of ``known``.
    """
    owner = known_owner(known)
    n, key, start = _check_run(n, seed, start)
    fixed, pool, counts, order = _deal_plan(owner)
    out = np.empty((n, N_SEATS), dtype=np.int64)
    if parallel:
        _fill_deals_parallel(out, key, start, fixed, pool, counts, order)
    else:
        _fill_deals(out, key, start, 0, n, fixed, pool, counts, order)
    return out


def random_deals(n: int, seed: int, start: int = 0, *, parallel: bool = False) -> np.ndarray:
    """Deals ``start .. start + n - 1`` with no known cards, as ``int64[n, 4]`` hand masks."""
    return sample_deals(None, n, seed, start, parallel=parallel)


def random_hands(n: int, seed: int, start: int = 0) -> np.ndarray:
    """Random 13-card hands ``start .. start + n - 1`` as ``int64[n]`` masks.

    Hand ``i`` is North's hand in ``random_deals(.., seed)[i]``, at a third of the cost.
    """
    n, key, start = _check_run(n, seed, start)
    out = np.empty(n, dtype=np.int64)
    _fill_hands(out, key, start, _ALL_BITS)
    return out


def deals_to_owner(deals: np.ndarray) -> np.ndarray:
    """Convert ``int64[n, 4]`` deal masks to owner arrays ``int8[n, 52]``."""
    deals = np.asarray(deals, dtype=np.int64)
    if deals.ndim != 2 or deals.shape[1] != N_SEATS:
        raise ValueError(f"deals must have shape (n, 4), got {deals.shape}")
    return masks_to_owner(deals)


# numba's cache follows cards.py too (its constants are compiled in): analyser/numba_cache.py
SAMPLER_SOURCES = ("sampler.py", "cards.py", "numba_cache.py")
key_cache_on_sources(globals(), SAMPLER_SOURCES)
