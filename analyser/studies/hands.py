"""Seeded hand generators for the population studies.

Uniform random hands rarely fall where a guideline's boundary is (a six-card suit with two
HIGH cards, a hole-free misère hand), so each study draws its hands from a stated design:

* :func:`trump_stratum_hands` — a fixed trump length and number of HIGH cards in it, the rest
  uniform (rik minimum heatmap);
* :func:`two_suiter_hands` — two long suits of given lengths (G-RIK-02 trump choice);
* :func:`weighted_hands` — rank-weighted draws (weight ``exp(-λ·rank)`` per card, so λ = 0 is
  uniform and larger λ favours low cards), optionally with planted cards; combined with
  :func:`quota_sample` (accept candidates into buckets up to a quota) this covers the misère
  and piek regions in a stated way;
* :func:`three_ace_hands` — uniform among hands with exactly three aces (malheur).

Every generator takes a :class:`numpy.random.Generator`; :func:`stream` derives one from the
study seed and a tuple of labels, so a stratum's hands do not depend on the other strata.
:func:`deal_seed` derives the seed of one hand's deals for :func:`analyser.sampler.sample_deals`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

import numpy as np

from analyser.cards import ACE, HIGH_MIN_RANK, N_CARDS, N_RANKS, N_SUITS, SUIT_BITS, card

DEAL_STREAM = 7  # label of the deal-seed stream (distinct from every hand stream)
HIGH_RANKS = np.arange(HIGH_MIN_RANK, N_RANKS)  # A K Q J 10
LOW_RANKS = np.arange(0, HIGH_MIN_RANK)  # 9 .. 2
_BITS = np.array([1 << (SUIT_BITS * (c // N_RANKS) + c % N_RANKS) for c in range(N_CARDS)])
_RANK = np.arange(N_CARDS) % N_RANKS


def stream(seed: int, *labels: int) -> np.random.Generator:
    """A generator determined by the study seed and integer labels (a stratum, a batch)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), *map(int, labels)]))


def deal_seed(seed: int, hand_id: int) -> int:
    """The sampler seed of hand ``hand_id``'s deals: a 63-bit hash of (study seed, hand id)."""
    state = np.random.SeedSequence([int(seed), DEAL_STREAM, int(hand_id)]).generate_state(2)
    return int((int(state[0]) << 32 | int(state[1])) & ((1 << 63) - 1))


def cards_mask(cards: np.ndarray) -> np.ndarray:
    """``int64[n]`` hand masks of ``int[n, k]`` card ints (one row per hand)."""
    return _BITS[np.asarray(cards)].sum(axis=1).astype(np.int64)


def _choose(rng: np.random.Generator, pool: np.ndarray, n: int, k: int) -> np.ndarray:
    """``[n, k]``: k distinct elements of ``pool`` per row, uniformly."""
    if k == 0:
        return np.zeros((n, 0), dtype=np.int64)
    order = np.argsort(rng.random((n, pool.size)), axis=1)[:, :k]
    return pool[order]


def trump_stratum_hands(
    rng: np.random.Generator, n: int, length: int, high: int, trump: int = 0
) -> np.ndarray:
    """``n`` hands with exactly ``length`` cards of ``trump``, ``high`` of them HIGH (A K Q J 10)
    chosen uniformly among the five, the low ones uniformly among 2..9; the other ``13 - length``
    cards uniform from the other suits, redrawn until every side suit is shorter than the trump
    suit (so the studied suit is the hand's one longest suit)."""
    if not 0 <= high <= min(length, len(HIGH_RANKS)) or length - high > len(LOW_RANKS):
        raise ValueError(f"no hand has {length} trumps with {high} HIGH")
    hi = _choose(rng, HIGH_RANKS, n, high) + trump * N_RANKS
    lo = _choose(rng, LOW_RANKS, n, length - high) + trump * N_RANKS
    side_pool = np.array([c for c in range(N_CARDS) if c // N_RANKS != trump])
    side = _choose(rng, side_pool, n, N_RANKS - length)
    while True:
        lengths = np.zeros((n, N_SUITS), dtype=np.int64)
        for s in range(N_SUITS):
            lengths[:, s] = (side // N_RANKS == s).sum(axis=1)
        bad = (lengths >= length).any(axis=1)
        if not bad.any():
            break
        side[bad] = _choose(rng, side_pool, int(bad.sum()), N_RANKS - length)
    return cards_mask(np.concatenate([hi, lo, side], axis=1))


def two_suiter_hands(
    rng: np.random.Generator, n: int, len_a: int, len_b: int, suits: tuple[int, int] = (0, 1)
) -> np.ndarray:
    """``n`` hands with exactly ``len_a`` cards of ``suits[0]`` and ``len_b`` of ``suits[1]``
    (cards uniform within each suit), the rest uniform from the other two suits."""
    a, b = suits
    rest_pool = np.array([c for c in range(N_CARDS) if c // N_RANKS not in (a, b)])
    parts = [
        _choose(rng, np.arange(N_RANKS), n, len_a) + a * N_RANKS,
        _choose(rng, np.arange(N_RANKS), n, len_b) + b * N_RANKS,
        _choose(rng, rest_pool, n, N_RANKS - len_a - len_b),
    ]
    return cards_mask(np.concatenate(parts, axis=1))


def weighted_hands(
    rng: np.random.Generator,
    n: int,
    lam: np.ndarray | float,
    planted: list[list[int]] | None = None,
) -> np.ndarray:
    """``n`` hands drawn card by card without replacement with weight ``exp(-λ·rank)`` (λ per
    hand; rank 0 = deuce), after the ``planted`` cards of each hand (its list, may be empty).

    Uses the Gumbel-top-k form of weighted sampling without replacement: the 13 largest of
    ``log w + Gumbel noise``; planted cards get +inf so they are always kept."""
    lam = np.broadcast_to(np.asarray(lam, dtype=np.float64), (n,))
    score = -lam[:, None] * _RANK[None, :] + rng.gumbel(size=(n, N_CARDS))
    if planted is not None:
        for i, cards in enumerate(planted):
            score[i, list(cards)] = np.inf
    top = np.argpartition(-score, N_RANKS - 1, axis=1)[:, :N_RANKS]
    return cards_mask(top)


def three_ace_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` hands with exactly three aces, uniform among such hands: a missing ace uniform
    among the four, then ten cards uniform from the 48 non-aces."""
    missing = rng.integers(0, N_SUITS, size=n)
    aces = np.array([[card(s, ACE) for s in range(N_SUITS) if s != m] for m in missing])
    others = np.array([c for c in range(N_CARDS) if c % N_RANKS != ACE])
    return cards_mask(np.concatenate([aces, _choose(rng, others, n, N_RANKS - 3)], axis=1))


def quota_sample(
    seed: int,
    label: int,
    draw: Callable[[np.random.Generator, int], np.ndarray],
    bucket: Callable[[np.ndarray], list[Hashable]],
    quotas: Mapping[Hashable, int],
    batch: int = 4096,
    max_batches: int = 200,
) -> tuple[np.ndarray, list[Hashable], int]:
    """Draw candidate hands in seeded batches and accept each into its bucket while the
    bucket's quota is not full (the redeal-style acceptance rule of the misère and piek
    studies). Buckets not in ``quotas`` are rejected.

    Returns (accepted masks in acceptance order, their buckets, candidates drawn). Stops when
    every quota is full or after ``max_batches`` batches (some buckets may then be short; the
    counts in the study table show it)."""
    left = dict(quotas)
    masks: list[int] = []
    keys: list[Hashable] = []
    drawn = 0
    for b in range(max_batches):
        if not any(v > 0 for v in left.values()):
            break
        cand = draw(stream(seed, label, b), batch)
        drawn += cand.size
        for m, k in zip(cand.tolist(), bucket(cand), strict=True):
            if left.get(k, 0) > 0:
                left[k] -= 1
                masks.append(m)
                keys.append(k)
    return np.array(masks, dtype=np.int64), keys, drawn
