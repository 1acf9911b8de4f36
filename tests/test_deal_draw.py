"""The cut_only conditional draw (analyser/deal_draw.py): the numba session equals the
deal model's own sequences, the draw never changes the given hand nor deals an impossible
deal, seeds reproduce bytes, and the other hands' suit lengths given this hand's shape are
those of the model's sessions (chi-square)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyser.cards import SUIT_MASK, cards_to_mask
from analyser.deal_draw import cut_only_deals, deal_source, next_deal, session_deals
from analyser.deal_model import PACKETS, deal_sequences
from analyser.errors import RikkenError
from analyser.notation import parse_hand
from analyser.sampler import random_deals, sample_deals
from analyser.seats import seat_of
from analyser.stats import chi_square_homogeneity

HANDS = {
    "6-3-2-2": "♠AHV1098 ♥104 ♦A10 ♣752",
    "5-4-3-1": "♠AH1098 ♥V742 ♦B65 ♣3",
    "4-3-3-3": "♠B62 ♥9742 ♦853 ♣642",
    "7-6-0-0": "♠AHVB1098 ♥AHV432",
}


def _lengths(masks: np.ndarray) -> np.ndarray:
    """int[..., 4]: the suit lengths of each hand mask."""
    masks = np.asarray(masks, np.int64)
    out = np.zeros((*masks.shape, 4), np.int64)
    for s in range(4):
        suit = (masks >> (16 * s)) & SUIT_MASK
        out[..., s] = np.vectorize(lambda x: bin(int(x)).count("1"))(suit)
    return out


def _valid(deals: np.ndarray) -> bool:
    """Four disjoint hands of 13 cards covering the pack."""
    for d in deals:
        union = 0
        for h in d:
            h = int(h)
            if union & h or bin(h).count("1") != 13:
                return False
            union |= h
        if union != _PACK:
            return False
    return True


_PACK = sum(((1 << 13) - 1) << (16 * s) for s in range(4))


def test_session_kernel_is_the_deal_model():
    """next_deal, fed the trumps and cuts deal_sequences draws, gives its deals exactly."""
    seed, length = 5, 6
    seqs = deal_sequences(12, length, seed, "cut_only")
    first = random_deals(12, seed)
    packets = np.array(PACKETS["book"], np.int64)
    for i in range(12):
        rng = random.Random(f"{seed}/{i}")
        deal = first[i].copy()
        for j in range(length):
            assert np.array_equal(deal, seqs[i, j])
            nxt = np.zeros(4, np.int64)
            next_deal(deal, rng.randrange(4), j % 4, rng.randint(1, 51), packets, nxt)
            deal = nxt


@pytest.mark.parametrize("shape", list(HANDS))
@pytest.mark.parametrize("honours", ["swap", "relabel"])
def test_draw_keeps_the_hand_and_deals_whole_packs(shape, honours):
    mask = cards_to_mask(parse_hand(HANDS[shape]))
    for place in (1, 2, 3, 4):
        deals = cut_only_deals(mask, place, 60, 3, honours=honours)
        assert np.all(deals[:, seat_of(place)] == mask)
        assert _valid(deals)
        # every hand keeps a length profile the model can deal; the place's is the hand's
        assert np.array_equal(_lengths(deals[:, seat_of(place)])[0], _lengths(np.array([mask]))[0])


def test_rare_shape_is_drawn_or_refused_in_one_line():
    """A 7-6-0-0 hand: drawn (the model deals two-suiters often) and kept exactly."""
    mask = cards_to_mask(parse_hand(HANDS["7-6-0-0"]))
    deals = cut_only_deals(mask, 1, 10, 1)
    assert np.all(deals[:, seat_of(1)] == mask) and _valid(deals)
    with pytest.raises(RikkenError, match="too rare"):
        cut_only_deals(mask, 1, 1, 1, max_attempts=1)


def test_seeds_reproduce_bytes_and_batches_fit():
    mask = cards_to_mask(parse_hand(HANDS["6-3-2-2"]))
    a = cut_only_deals(mask, 2, 40, 9)
    assert a.tobytes() == cut_only_deals(mask, 2, 40, 9).tobytes()
    assert np.array_equal(a[25:], cut_only_deals(mask, 2, 15, 9, start=25))
    assert not np.array_equal(a, cut_only_deals(mask, 2, 40, 10))


def test_uniform_source_is_the_sampler():
    """--deal-model uniform draws exactly the sampler's deals (outputs unchanged)."""
    hand = parse_hand(HANDS["5-4-3-1"])
    known = [[], [], [], []]
    known[seat_of(3)] = hand
    got = deal_source("uniform", hand, 3, 77)(10, 30)
    assert got.tobytes() == sample_deals(known, 30, 77, start=10).tobytes()
    with pytest.raises(RikkenError, match="turned trump"):
        deal_source("cut_only", hand, 3, 77, turned=True)
    with pytest.raises(RikkenError, match="unknown deal model"):
        deal_source("shuffled", hand, 3, 77)


def _others_lengths(deals: np.ndarray, place: int) -> list[tuple]:
    """Per deal: the suit lengths of the three other places, in place order after ``place``."""
    out = []
    for d in deals:
        row = []
        for q in (1, 2, 3):
            h = int(d[seat_of((place + q - 1) % 4 + 1)])
            row += [bin((h >> (16 * s)) & SUIT_MASK).count("1") for s in range(4)]
        out.append(tuple(row))
    return out


def _shape_test(
    hand_text: str, place: int, n_draw: int, n_sessions: int, seed: int, model: str = "cut_only"
):
    """Chi-square p-values (cells with fewer than five expected pooled): the other three
    hands' longest suits jointly, their voids jointly, and each suit's split among them
    (jointly over the three hands), drawn against the sessions of
    the model whose hand at ``place`` has exactly the hand's suit lengths."""
    mask = cards_to_mask(parse_hand(hand_text))
    target = _lengths(np.array([mask]))[0]
    ref = session_deals(n_sessions, seed)
    keep = np.all(_lengths(ref[:, seat_of(place)]) == target, axis=1)
    ref = ref[keep]
    drawn = deal_source(model, parse_hand(hand_text), place, seed + 1)(0, n_draw)
    a, b = _others_lengths(ref, place), _others_lengths(drawn, place)
    pvalues = {}
    views = {
        # joint over the three hands: each one's longest suit, and each one's voids
        "longest": lambda r: tuple(min(max(r[4 * q : 4 * q + 4]), 7) for q in range(3)),
        "voids": lambda r: tuple(min(r[4 * q : 4 * q + 4].count(0), 2) for q in range(3)),
    }
    for s in range(4):
        views[f"suit {s}"] = lambda r, s=s: (r[s], r[4 + s], r[8 + s])
    for name, view in views.items():
        ca = [view(r) for r in a]
        cb = [view(r) for r in b]
        cells = sorted(set(ca) | set(cb))
        table = np.array([[ca.count(c) for c in cells], [cb.count(c) for c in cells]], float)
        expected = table.sum(axis=0) * min(table.sum(axis=1)) / table.sum()
        small = expected < 5
        table = np.column_stack([table[:, ~small], table[:, small].sum(axis=1)])
        pvalues[name] = chi_square_homogeneity(table)[2]
    return pvalues, len(ref)


def test_other_hands_lengths_match_the_model():
    """A 5-4-3-1 hand at seat 1: the draw's other hands against the model's sessions with
    that hand's exact lengths (no suit renaming there, so the suit-symmetry approximation
    is tested too). Six tests at 0.002 each: a false alarm once in a hundred runs at most,
    and seeded, so never by chance."""
    pvalues, n_ref = _shape_test(HANDS["5-4-3-1"], 1, 1500, 250_000, 11)
    assert n_ref > 500
    assert min(pvalues.values()) > 0.002, pvalues


def test_shape_test_tells_uniform_deals_apart():
    """The same test rejects uniform deals given the hand: it has the power to fail."""
    pvalues, _ = _shape_test(HANDS["5-4-3-1"], 1, 1500, 250_000, 11, model="uniform")
    assert pvalues["longest"] < 1e-6 and pvalues["voids"] < 1e-6, pvalues


@pytest.mark.slow
@pytest.mark.parametrize("place", [1, 2, 4])
def test_other_hands_lengths_match_the_model_large(place):
    pvalues, n_ref = _shape_test(HANDS["5-4-3-1"], place, 6000, 1_500_000, 20 + place)
    assert n_ref > 3000
    assert min(pvalues.values()) > 0.002, pvalues
