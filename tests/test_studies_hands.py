"""The studies' hand generators honour their strata and are reproducible from the seed."""

import numpy as np
import pytest

from analyser.cards import ACE, SUIT_BITS, mask_to_cards
from analyser.guidelines import book_count, hole_count, piek_ok, winner_count
from analyser.studies import hands as gen
from analyser.studies.alone import strong_hands
from analyser.studies.misere import low_hands
from analyser.studies.piek import bucket_of, piek_candidates


def lengths_and_highs(masks):
    hold = np.array([[(int(m) >> (SUIT_BITS * s)) & 0x1FFF for s in range(4)] for m in masks])
    lengths = np.vectorize(lambda h: int(h).bit_count())(hold)
    highs = np.vectorize(lambda h: (int(h) >> 8).bit_count())(hold)
    return lengths, highs


def test_every_hand_has_13_distinct_cards():
    rng = gen.stream(1, 2)
    for masks in (
        gen.trump_stratum_hands(rng, 50, 6, 2),
        gen.two_suiter_hands(rng, 50, 6, 5),
        gen.weighted_hands(rng, 50, 0.5),
        gen.three_ace_hands(rng, 50),
        strong_hands(rng, 50, [6, 9], 0.6),
    ):
        assert all(len(mask_to_cards(int(m))) == 13 for m in masks)


@pytest.mark.parametrize("length, high", [(5, 0), (5, 5), (6, 2), (7, 1), (8, 0), (9, 5)])
def test_trump_stratum(length, high):
    masks = gen.trump_stratum_hands(gen.stream(3, length, high), 200, length, high, trump=0)
    lengths, highs = lengths_and_highs(masks)
    assert (lengths[:, 0] == length).all()
    assert (highs[:, 0] == high).all()
    assert (lengths[:, 1:] < length).all()  # spades is the one longest suit
    # The high cards themselves are spread over the five honours.
    if 0 < high < 5:
        aces = np.array([(int(m) >> ACE) & 1 for m in masks])
        assert 0.05 < aces.mean() < 0.95


def test_trump_stratum_rejects_impossible_cells():
    with pytest.raises(ValueError):
        gen.trump_stratum_hands(gen.stream(1), 1, 9, 0)  # only eight low spades exist


def test_two_suiters_and_three_aces():
    lengths, _ = lengths_and_highs(gen.two_suiter_hands(gen.stream(4), 100, 7, 5, (0, 1)))
    assert (lengths[:, 0] == 7).all() and (lengths[:, 1] == 5).all()
    masks = gen.three_ace_hands(gen.stream(5), 300)
    aces = np.array([sum(int(m) >> (SUIT_BITS * s + ACE) & 1 for s in range(4)) for m in masks])
    assert (aces == 3).all()


def test_weighting_favours_low_cards_and_plants_cards():
    rng = gen.stream(6)
    flat = gen.weighted_hands(rng, 400, 0.0)
    low = gen.weighted_hands(rng, 400, 1.0)
    mean_rank = lambda ms: np.mean([c % 13 for m in ms for c in mask_to_cards(int(m))])  # noqa: E731
    assert mean_rank(low) < mean_rank(flat) - 2
    planted = gen.weighted_hands(rng, 3, 2.0, planted=[[12], [25, 38], []])
    assert 12 in mask_to_cards(int(planted[0]))
    assert {25, 38} <= set(mask_to_cards(int(planted[1])))


def test_seeded_reproducibility():
    a = gen.trump_stratum_hands(gen.stream(7, 6, 2), 20, 6, 2)
    b = gen.trump_stratum_hands(gen.stream(7, 6, 2), 20, 6, 2)
    c = gen.trump_stratum_hands(gen.stream(8, 6, 2), 20, 6, 2)
    assert (a == b).all() and not (a == c).all()
    assert gen.deal_seed(1, 5) == gen.deal_seed(1, 5) != gen.deal_seed(1, 6)
    assert 0 <= gen.deal_seed(2**40, 3) < 2**63


def test_quota_sample_fills_each_bucket_exactly():
    quotas = {k: 5 for k in range(4)}
    masks, keys, drawn = gen.quota_sample(
        11,
        4,
        lambda rng, n: low_hands(rng, n, 0.8),
        lambda m: np.minimum(hole_count.many(m), 3).tolist(),
        quotas,
        batch=512,
    )
    assert sorted(keys) == sorted(k for k in range(4) for _ in range(5))
    assert (np.minimum(hole_count.many(masks), 3) == np.array(keys)).all()
    assert drawn >= len(masks)
    again = gen.quota_sample(
        11,
        4,
        lambda rng, n: low_hands(rng, n, 0.8),
        lambda m: np.minimum(hole_count.many(m), 3).tolist(),
        quotas,
        batch=512,
    )
    assert (again[0] == masks).all()


def test_alone_and_piek_designs_reach_their_buckets():
    masks = strong_hands(gen.stream(12), 4000, [6, 7, 8, 9, 10], 0.6)
    counts = set(book_count.many(masks).tolist())
    assert set(range(6, 14)) <= counts  # every high count is reachable
    cand = piek_candidates(gen.stream(13), 2000, 0.8, 3)
    buckets = set(bucket_of(cand))
    assert {(0, False), (1, True), (1, False), (2, True), (3, False)} <= buckets
    w = winner_count.many(cand)
    assert (piek_ok.many(cand)[w == 0] == False).all()  # noqa: E712
