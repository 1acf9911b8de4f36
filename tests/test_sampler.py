"""Tests of the seeded deal sampler: structure, reproducibility, validation and uniformity.

The statistical tests use fixed seeds, so they are deterministic; their threshold p > 1e-4 is
strict enough that a correct sampler passes all of them for almost any seed, while a wrong
law (see ``test_hypergeometric_check_rejects_a_wrong_law``) fails clearly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from analyser.cards import (
    CLUBS,
    DIAMONDS,
    EAST,
    HEARTS,
    N_CARDS,
    NORTH,
    SOUTH,
    SPADES,
    SUIT_BITS,
    SUIT_MASK,
    WEST,
    card,
    cards_to_mask,
    owner_to_masks,
)
from analyser.errors import ParseError, RikkenError
from analyser.sampler import (
    _bounded,
    _word,
    deals_to_owner,
    known_owner,
    random_deals,
    random_hands,
    sample_deals,
    with_turned_card,
)

N_STAT = 100_000
P_MIN = 1e-4
FULL_DECK = cards_to_mask(range(N_CARDS))

# South's hand: 4 spades, 3 hearts, 3 diamonds, 3 clubs.
SOUTH_HAND = [
    card(SPADES, 12),
    card(SPADES, 9),
    card(SPADES, 5),
    card(SPADES, 0),
    card(HEARTS, 11),
    card(HEARTS, 7),
    card(HEARTS, 2),
    card(DIAMONDS, 10),
    card(DIAMONDS, 6),
    card(DIAMONDS, 1),
    card(CLUBS, 8),
    card(CLUBS, 4),
    card(CLUBS, 3),
]
KNOWN_SOUTH = [[], [], SOUTH_HAND, []]


def _uneven_known() -> list[list[int]]:
    """North's 13 cards, 5 shown by East and 2 by West: open places 0, 8, 13, 11."""
    north = [card(SPADES, r) for r in range(6)] + [card(HEARTS, r) for r in range(7)]
    east = [card(DIAMONDS, 12), card(DIAMONDS, 11), card(CLUBS, 12), card(SPADES, 12), 20]
    west = [card(CLUBS, 0), card(HEARTS, 12)]
    return [north, east, [], west]


# ---------------------------------------------------------------------------------------------
# Statistics helpers (no scipy): chi-square survival function via the incomplete gamma function


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x): series below a + 1, continued fraction above."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        # P(a, x) = x^a e^-x / Gamma(a + 1) * sum_k x^k / ((a + 1) ... (a + k))
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Q(a, x) by the modified Lentz evaluation of its continued fraction.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_sf(stat: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= ``stat``)."""
    return _gamma_q(df / 2, stat / 2)


def chi2_p(observed, expected) -> float:
    """Pearson chi-square p-value of counts against expected counts (same total)."""
    observed = np.asarray(observed, dtype=float)
    expected = np.asarray(expected, dtype=float)
    assert abs(observed.sum() - expected.sum()) < 1e-6 * expected.sum()
    stat = float(((observed - expected) ** 2 / expected).sum())
    return chi2_sf(stat, observed.size - 1)


def hypergeom_pmf(total: int, good: int, draws: int) -> np.ndarray:
    """P(k good among ``draws`` drawn from ``total`` with ``good`` good), k = 0..draws."""
    return np.array(
        [math.comb(good, k) * math.comb(total - good, draws - k) for k in range(draws + 1)],
        dtype=float,
    ) / math.comb(total, draws)


def merge_small_bins(observed, expected, minimum: float = 5.0):
    """Merge tail bins until every expected count is at least ``minimum``."""
    obs, exp = list(map(float, observed)), list(map(float, expected))
    while len(exp) > 1 and exp[0] < minimum:
        o, e = obs.pop(0), exp.pop(0)
        obs[0] += o
        exp[0] += e
    while len(exp) > 1 and exp[-1] < minimum:
        o, e = obs.pop(), exp.pop()
        obs[-1] += o
        exp[-1] += e
    return np.array(obs), np.array(exp)


def suit_lengths(masks: np.ndarray, suit: int) -> np.ndarray:
    """Suit length per hand mask."""
    return np.bitwise_count((masks >> (SUIT_BITS * suit)) & SUIT_MASK).astype(np.int64)


def hypergeom_p(lengths: np.ndarray, offset: int, total: int, good: int, draws: int) -> float:
    """Chi-square p-value of ``lengths - offset`` against the hypergeometric law."""
    extra = lengths - offset
    assert extra.min() >= 0 and extra.max() <= draws
    observed = np.bincount(extra, minlength=draws + 1)
    expected = hypergeom_pmf(total, good, draws) * lengths.size
    return chi2_p(*merge_small_bins(observed, expected))


def seat_counts(deals: np.ndarray) -> np.ndarray:
    """``int[52, 4]``: how often each card lands at each seat."""
    owner = deals_to_owner(deals)
    return np.stack([(owner == s).sum(axis=0) for s in range(4)], axis=1)


# ---------------------------------------------------------------------------------------------
# The statistics helpers themselves


@pytest.mark.parametrize("x", [0.1, 0.7, 1.0, 3.84, 9.0, 25.0, 60.0])
def test_chi2_sf_matches_closed_forms(x):
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
    # Even df: Q = e^(-x/2) * sum_{k < df/2} (x/2)^k / k!
    for df in (4, 10, 40):
        closed = math.exp(-x / 2) * sum((x / 2) ** k / math.factorial(k) for k in range(df // 2))
        assert chi2_sf(x, df) == pytest.approx(closed, rel=1e-9)


def test_merge_small_bins_merges_tails_only():
    obs, exp = merge_small_bins([1, 2, 30, 40, 3], [1.0, 3.0, 30.0, 40.0, 2.0])
    assert obs.tolist() == [33.0, 43.0] and exp.tolist() == [34.0, 42.0]


def test_hypergeom_pmf_sums_to_one_and_matches_a_known_value():
    pmf = hypergeom_pmf(39, 9, 13)
    assert pmf.sum() == pytest.approx(1.0, rel=1e-12)
    # P(a 13-card hand holds exactly 4 cards of a given suit) = 0.2386 (bridge tables).
    assert hypergeom_pmf(52, 13, 13)[4] == pytest.approx(0.2386, abs=5e-5)


# ---------------------------------------------------------------------------------------------
# The generator and the bounded draw


def test_word_stream_is_splitmix64():
    # Published SplitMix64 outputs for initial state 1234567.
    expected = [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    got = [int(_word(np.uint64(1234567), np.uint64(i))) for i in range(5)]
    assert got == expected


@pytest.mark.parametrize("r", [1, 2, 3, 13, 39, 52])
def test_bounded_draw_values_and_rejections(r):
    rr = np.uint64(r)
    reject_below = (2**32 - r) % r
    for x in [0, 1, 2, 12345, 2**31, 2**32 - 2, 2**32 - 1]:
        accepted, value = _bounded(np.uint64(x), rr)
        assert int(value) == (x * r) >> 32
        assert bool(accepted) == (((x * r) & 0xFFFFFFFF) >= reject_below)


@njit(cache=True)
def _accepted_per_value(r):
    """Count, over every 32-bit draw, the accepted draws per value of ``_bounded``."""
    counts = np.zeros(r, dtype=np.int64)
    rr = np.uint64(r)
    for x in range(1 << 32):
        accepted, value = _bounded(np.uint64(x), rr)
        if accepted:
            counts[np.int64(value)] += 1
    return counts


@pytest.mark.parametrize(
    "r", [52, pytest.param(3, marks=pytest.mark.slow), pytest.param(39, marks=pytest.mark.slow)]
)
def test_bounded_draw_is_exactly_uniform(r):
    # Exhaustive over all 2**32 draws (about 1 s each): every value is hit equally often.
    counts = _accepted_per_value(r)
    assert (counts == (1 << 32) // r).all()


# ---------------------------------------------------------------------------------------------
# A pure-Python reading of the documented definition, to pin the stream across machines

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _reference_deal(owner: np.ndarray, seed: int, index: int) -> list[int]:
    key = _mix((seed + _GAMMA) & _M64)
    pool = [c for c in range(N_CARDS) if owner[c] < 0]
    open_places = [13 - int((owner == s).sum()) for s in range(4)]
    last = max(range(4), key=lambda s: (open_places[s], s))
    order = [s for s in range(4) if s != last] + [last]
    m = sum(open_places[s] for s in order[:3])

    def draws():
        t = 0
        while True:
            word = _mix((key + _GAMMA * ((index << 15) + t + 1)) & _M64)
            yield word >> 32
            yield word & 0xFFFFFFFF
            t += 1

    stream = draws()
    buf = list(pool)
    for j in range(m):
        r = len(buf) - j
        while True:
            prod = next(stream) * r
            if prod & 0xFFFFFFFF >= (2**32 - r) % r:
                break
        i = j + (prod >> 32)
        buf[j], buf[i] = buf[i], buf[j]
    hands = [[c for c in range(N_CARDS) if owner[c] == s] for s in range(4)]
    pos = 0
    for s in order[:3]:
        hands[s] += buf[pos : pos + open_places[s]]
        pos += open_places[s]
    hands[last] += buf[pos:]
    return [cards_to_mask(h) for h in hands]


@pytest.mark.parametrize("known", [None, KNOWN_SOUTH, _uneven_known()])
def test_sampler_matches_reference_definition(known):
    owner = known_owner(known)
    deals = sample_deals(known, 12, seed=97, start=1000)
    for row in range(12):
        assert deals[row].tolist() == _reference_deal(owner, 97, 1000 + row)


def test_first_deal_is_pinned():
    # Changing the stream silently changes every stored study; this pin makes it deliberate.
    assert random_deals(1, seed=2024)[0].tolist() == _reference_deal(known_owner(None), 2024, 0)
    assert random_deals(1, seed=2024)[0].tolist() == [
        1154048538403473832,
        466404105171108353,
        613057060667397140,
        72087010608939074,
    ]


# ---------------------------------------------------------------------------------------------
# Structure and reproducibility


def _assert_partitions(deals: np.ndarray) -> None:
    assert deals.dtype == np.int64 and deals.shape[1] == 4
    assert (np.bitwise_count(deals) == 13).all()
    union = deals[:, 0] | deals[:, 1] | deals[:, 2] | deals[:, 3]
    assert (union == FULL_DECK).all()
    assert (deals.sum(axis=1) == FULL_DECK).all()  # disjoint, as the bits add without carries


@pytest.mark.parametrize("known", [None, KNOWN_SOUTH, _uneven_known()])
def test_deals_are_partitions_keeping_known_cards(known):
    deals = sample_deals(known, 20_000, seed=5)
    _assert_partitions(deals)
    fixed = owner_to_masks(known_owner(known))
    assert ((deals & fixed) == fixed).all()


def test_all_cards_known_gives_that_deal():
    owner = np.arange(N_CARDS) % 4
    deals = sample_deals(owner, 3, seed=1)
    assert (deals == owner_to_masks(owner)).all()


def test_same_seed_same_deals_and_different_seed_differs():
    a = sample_deals(KNOWN_SOUTH, 5000, seed=123)
    b = sample_deals(KNOWN_SOUTH, 5000, seed=123)
    c = sample_deals(KNOWN_SOUTH, 5000, seed=124)
    assert np.array_equal(a, b)
    assert (a != c).any(axis=1).mean() > 0.99


def test_batches_and_parallel_fit_together():
    whole = sample_deals(KNOWN_SOUTH, 30_000, seed=8)
    for start, n in [(0, 1), (17, 983), (8191, 2), (12_345, 17_655)]:
        assert np.array_equal(sample_deals(KNOWN_SOUTH, n, seed=8, start=start), whole[start:][:n])
    assert np.array_equal(sample_deals(KNOWN_SOUTH, 30_000, seed=8, parallel=True), whole)
    assert np.array_equal(sample_deals(KNOWN_SOUTH, 5, seed=8, start=7, parallel=True), whole[7:12])
    assert sample_deals(KNOWN_SOUTH, 0, seed=8).shape == (0, 4)


def test_known_forms_agree():
    owner = known_owner(KNOWN_SOUTH)
    as_list = owner.tolist()
    as_tuple = tuple(np.array(h) for h in KNOWN_SOUTH)
    ref = sample_deals(KNOWN_SOUTH, 100, seed=3)
    for form in (owner, owner.astype(np.int64), as_list, as_tuple):
        assert np.array_equal(sample_deals(form, 100, seed=3), ref)


def test_random_hands_are_norths_random_deal_hands():
    hands = random_hands(2000, seed=11, start=50)
    assert hands.shape == (2000,)
    assert (np.bitwise_count(hands) == 13).all()
    assert np.array_equal(hands, random_deals(2000, seed=11, start=50)[:, NORTH])


def test_deals_to_owner_round_trip():
    deals = sample_deals(_uneven_known(), 500, seed=4)
    owner = deals_to_owner(deals)
    assert owner.dtype == np.int8 and owner.shape == (500, 52)
    assert np.array_equal(owner_to_masks(owner), deals)
    with pytest.raises(ValueError):
        deals_to_owner(deals[:, :3])


# ---------------------------------------------------------------------------------------------
# Validation


@pytest.mark.parametrize(
    "known, message",
    [
        ([[0, 1], [1], [], []], "fixed to two seats"),
        ([[0, 0], [], [], []], "listed twice"),
        ([list(range(14)), [], [], []], "14 cards are known for seat N"),
        ([[52], [], [], []], "out of range"),
        ([[-1], [], [], []], "out of range"),
        ([["AS"], [], [], []], "must be an integer"),
        ([[True], [], [], []], "not a boolean"),
        ([[0], [], []], "four card lists"),
        ([1, 2, 3, 4], "list of card ints"),
        ("N", "four card lists"),
        (np.full(52, 4), "seats are 0..3"),
        (np.full(52, -2), "seats are 0..3"),
        (np.full(52, 0.0), "integer seats"),
        ([0] * 51 + ["x"], "integer seats"),
        (np.zeros(4, dtype=np.int64), "not hand masks"),
        (np.r_[np.zeros(14, dtype=np.int8), np.full(38, -1, dtype=np.int8)], "seat N"),
    ],
)
def test_invalid_known_cards_raise_parse_error(known, message):
    with pytest.raises(ParseError, match=message):
        sample_deals(known, 10, seed=1)


@pytest.mark.parametrize(
    "n, seed, start, message",
    [
        (-1, 1, 0, "number of deals"),
        (1.5, 1, 0, "number of deals"),
        (10, -1, 0, "seed"),
        (10, 2**64, 0, "seed"),
        (10, "7", 0, "seed"),
        (10, 1, -3, "start index"),
        (10, 1, 2**48 - 5, "2\\*\\*48"),
    ],
)
def test_invalid_run_parameters_raise(n, seed, start, message):
    with pytest.raises(RikkenError, match=message):
        sample_deals(KNOWN_SOUTH, n, seed, start)
    with pytest.raises(RikkenError, match=message):
        random_hands(n, seed, start)


def test_extreme_seeds_are_accepted():
    for seed in (0, 2**63, 2**64 - 1):
        _assert_partitions(random_deals(100, seed))


# ---------------------------------------------------------------------------------------------
# Uniformity


@pytest.fixture(scope="module")
def south_deals() -> np.ndarray:
    return sample_deals(KNOWN_SOUTH, N_STAT, seed=20240601)


@pytest.fixture(scope="module")
def uneven_deals() -> np.ndarray:
    return sample_deals(_uneven_known(), N_STAT, seed=77)


def test_unknown_cards_spread_evenly_over_open_seats(south_deals):
    counts = seat_counts(south_deals)
    open_seats = [NORTH, EAST, WEST]
    for c in range(N_CARDS):
        if c in SOUTH_HAND:
            assert counts[c, SOUTH] == N_STAT
            continue
        assert counts[c, SOUTH] == 0
        p = chi2_p(counts[c, open_seats], np.full(3, N_STAT / 3))
        assert p > P_MIN, f"card {c}: {counts[c]} (p = {p:.2e})"


def test_unknown_cards_follow_open_places_when_uneven(uneven_deals):
    owner = known_owner(_uneven_known())
    open_places = np.array([13 - (owner == s).sum() for s in range(4)])
    assert open_places.tolist() == [0, 8, 13, 11]
    counts = seat_counts(uneven_deals)
    unknown = np.flatnonzero(owner < 0)
    assert (counts[unknown, NORTH] == 0).all()
    seats = [EAST, SOUTH, WEST]
    expected = N_STAT * open_places[seats] / open_places.sum()
    for c in unknown:
        p = chi2_p(counts[c, seats], expected)
        assert p > P_MIN, f"card {c}: {counts[c]} (p = {p:.2e})"


def test_pairs_of_unknown_cards_share_seats_at_the_right_rate(south_deals):
    owner = deals_to_owner(south_deals)
    a, b = card(SPADES, 11), card(CLUBS, 12)  # king of spades, ace of clubs: both unknown
    seats = [NORTH, EAST, WEST]
    index = {s: i for i, s in enumerate(seats)}
    joint = np.zeros((3, 3))
    for i, j in zip(owner[:, a], owner[:, b], strict=True):
        joint[index[i], index[j]] += 1
    same, other = 13 * 12 / (39 * 38), 13 * 13 / (39 * 38)
    expected = np.where(np.eye(3, dtype=bool), same, other) * N_STAT
    assert chi2_p(joint.ravel(), expected.ravel()) > P_MIN


@pytest.mark.parametrize("suit", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_opponent_suit_lengths_are_hypergeometric(south_deals, suit):
    unknown_in_suit = 13 - sum(1 for c in SOUTH_HAND if c // 13 == suit)
    for seat in (NORTH, EAST, WEST):
        lengths = suit_lengths(south_deals[:, seat], suit)
        p = hypergeom_p(lengths, 0, 39, unknown_in_suit, 13)
        assert p > P_MIN, f"seat {seat}, suit {suit}: p = {p:.2e}"


@pytest.mark.parametrize("suit", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_suit_lengths_are_hypergeometric_when_uneven(uneven_deals, suit):
    owner = known_owner(_uneven_known())
    unknown_in_suit = int(((owner < 0) & (np.arange(N_CARDS) // 13 == suit)).sum())
    for seat in (EAST, SOUTH, WEST):
        known_here = int(((owner == seat) & (np.arange(N_CARDS) // 13 == suit)).sum())
        draws = 13 - int((owner == seat).sum())
        lengths = suit_lengths(uneven_deals[:, seat], suit)
        p = hypergeom_p(lengths, known_here, 32, unknown_in_suit, draws)
        assert p > P_MIN, f"seat {seat}, suit {suit}: p = {p:.2e}"


def test_hypergeometric_check_rejects_a_wrong_law(south_deals):
    # West really has 9 unknown spades to share with North and East; pretend there were 8.
    lengths = np.minimum(suit_lengths(south_deals[:, WEST], SPADES), 8)
    assert hypergeom_p(lengths, 0, 39, 8, 13) < P_MIN


def test_random_deals_are_uniform():
    deals = random_deals(N_STAT, seed=31337)
    counts = seat_counts(deals)
    for c in range(N_CARDS):
        assert chi2_p(counts[c], np.full(4, N_STAT / 4)) > P_MIN, f"card {c}: {counts[c]}"
    for seat in range(4):
        for suit in range(4):
            lengths = suit_lengths(deals[:, seat], suit)
            assert hypergeom_p(lengths, 0, 52, 13, 13) > P_MIN, (seat, suit)


def test_random_hands_are_uniform():
    hands = random_hands(N_STAT, seed=4242)
    for c in range(N_CARDS):
        held = int(((hands >> (SUIT_BITS * (c // 13) + c % 13)) & 1).sum())
        assert chi2_p([held, N_STAT - held], [N_STAT / 4, 3 * N_STAT / 4]) > P_MIN, c
    for suit in range(4):
        assert hypergeom_p(suit_lengths(hands, suit), 0, 52, 13, 13) > P_MIN, suit


def test_card_spread_check_detects_a_naive_shuffle():
    # The classic wrong shuffle (swap each place with any place) is measurably non-uniform.
    rng = np.random.default_rng(1)
    pool = np.array([c for c in range(N_CARDS) if c not in SOUTH_HAND])
    rows = np.arange(N_STAT)
    buf = np.tile(pool, (N_STAT, 1))
    for j in range(pool.size):
        i = rng.integers(0, pool.size, N_STAT)
        buf[rows, j], buf[rows, i] = buf[rows, i], buf[rows, j].copy()
    seat_of_place = np.repeat([NORTH, EAST, WEST], 13)
    failures = 0
    for c in pool:
        seats = seat_of_place[np.argmax(buf == c, axis=1)]
        counts = np.bincount(seats, minlength=4)[[NORTH, EAST, WEST]]
        failures += chi2_p(counts, np.full(3, N_STAT / 3)) < P_MIN
    assert failures >= 10


# ---------------------------------------------------------------------------------------------
# The turned card (wiezen W-01): the dealer's face-up 13th card stays in his hand

TURNED = card(HEARTS, 5)  # ♥7, not in South's hand


@pytest.fixture(scope="module")
def turned_deals() -> np.ndarray:
    """South's hand known, the turned ♥7 with the dealer (West)."""
    return sample_deals(with_turned_card(KNOWN_SOUTH, TURNED, WEST), 30_000, seed=2828)


def test_turned_card_is_always_in_the_dealers_hand(turned_deals):
    assert ((turned_deals[:, WEST] >> (SUIT_BITS * HEARTS + 5)) & 1 == 1).all()
    _assert_partitions(turned_deals)
    assert (turned_deals[:, SOUTH] == cards_to_mask(SOUTH_HAND)).all()
    # without the turned card the dealer gets it only a third of the time
    free = sample_deals(KNOWN_SOUTH, 3000, seed=2828)
    share = ((free[:, WEST] >> (SUIT_BITS * HEARTS + 5)) & 1).mean()
    assert 0.28 < share < 0.39


def test_turned_card_keeps_the_other_cards_uniform(turned_deals):
    """The other 38 unknown cards fill the open places 13 (N), 13 (E) and 12 (W) uniformly."""
    n = turned_deals.shape[0]
    counts = seat_counts(turned_deals)
    seats = [NORTH, EAST, WEST]
    expected = n * np.array([13, 13, 12]) / 38
    for c in range(N_CARDS):
        if c in SOUTH_HAND or c == TURNED:
            continue
        p = chi2_p(counts[c, seats], expected)
        assert p > P_MIN, f"card {c}: {counts[c]} (p = {p:.2e})"
    # the dealer's hearts: the turned one plus a hypergeometric share of the other 9 unknown
    lengths = suit_lengths(turned_deals[:, WEST], HEARTS)
    assert hypergeom_p(lengths, 1, 38, 9, 12) > P_MIN


def test_turned_card_with_the_dealers_own_hand():
    hand = [card(HEARTS, 5)] + [card(SPADES, r) for r in range(12)]
    deals = sample_deals(with_turned_card([[], [], [], hand], TURNED, WEST), 50, seed=3)
    assert (deals[:, WEST] == cards_to_mask(hand)).all()


@pytest.mark.parametrize(
    "known, turned, dealer, message",
    [
        (KNOWN_SOUTH, card(SPADES, 12), WEST, "not the dealer's"),
        ([[], [], [], [card(SPADES, r) for r in range(13)]], TURNED, WEST, "seat W"),
        (KNOWN_SOUTH, 52, WEST, "out of range"),
        (KNOWN_SOUTH, TURNED, 4, "dealer's seat"),
    ],
)
def test_turned_card_errors(known, turned, dealer, message):
    with pytest.raises(ParseError, match=message):
        with_turned_card(known, turned, dealer)
