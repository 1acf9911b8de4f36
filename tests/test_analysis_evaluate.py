"""Hand analysis: paired deals, the fixed trump/ace choice, certain answers, --precision."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.analysis.evaluate import analyse_hand, evaluate_bids
from analyser.analysis.families import sample
from analyser.analysis.families.alone import FAMILY_ALONE
from analyser.analysis.families.null import FAMILY_NULL
from analyser.analysis.families.registry import bid_specs
from analyser.analysis.families.rik import FAMILY_RIK
from analyser.analysis.misere import analyse_misere
from analyser.analysis.misere_line import forced_cards
from analyser.analysis.positions import PositionStore
from analyser.cards import HEARTS, SPADES, card, masks_to_owner
from analyser.notation import parse_hand
from analyser.rules import declarer_score, get_ruleset, parse_ruleset
from analyser.sampler import sample_deals
from analyser.seats import seat_of
from analyser.solver import GOAL_GE, GOAL_MISERE, solve_batch

BOOK = get_ruleset("book")
# HONOURS holds 4 aces: under book it must bid malheur or higher (R-MAL-01); with malheur
# optional it may bid everything, rik included
WHAT_IF = parse_ruleset("book:malheur=optional")
HONOURS = parse_hand("♠AHVB ♥AHVB ♦AHV ♣AH")  # cheap to solve: every answer is clear
ALL_SPADES = parse_hand("♠AHVB1098765432")
SAFE_MISERE = parse_hand("♠5432 ♥432 ♦432 ♣432")  # no holes in any suit (G-MIS-02)
SPADE_ACE_HOLE = parse_hand("♠A ♥5432 ♦5432 ♣5432")  # one hole: the bare ace


def _known(hand, seat):
    known = [[], [], [], []]
    known[seat_of(seat)] = list(hand)
    return known


def _subset(hand, seat, families, ruleset=BOOK):
    return [s for s in bid_specs(ruleset, hand, seat_of(seat)) if s.family in families]


def test_seats_relative_to_dealer_at_west():
    assert [seat_of(k) for k in (1, 2, 3, 4)] == [0, 1, 2, 3]


def test_rik_choice_is_fixed_per_hand_and_paired_with_the_sample():
    n, seed = 6, 21
    a = analyse_hand(HONOURS, 1, WHAT_IF, deals=n, seed=seed)
    rik = a.bid("rik")
    assert a.n_deals == n and all(b.estimate.n == n for b in a.bids)
    # One (trump, called card) for the whole sample, the best make-count among the candidates.
    assert rik.trump is not None and rik.called is not None
    assert all(alt.estimate.made <= rik.estimate.made for alt in rik.alternatives)
    # Same deals: re-solve the chosen rik directly on sample_deals(seed).
    deals = sample_deals(_known(HONOURS, 1), n, seed)
    partner = masks_to_owner(deals)[:, rik.called].astype(np.int64)
    direct = solve_batch(deals, rik.trump, 0, 1 | (1 << partner), GOAL_GE, 8, rik.called)
    assert int(direct.sum()) == rik.estimate.made
    # The distribution and the expected score agree with the make count and the scoring.
    hist = rik.tricks_hist
    assert sum(hist) == n and sum(hist[8:]) == rik.estimate.made
    mean_score = sum(k * declarer_score(WHAT_IF, "rik", t) for t, k in enumerate(hist)) / n
    assert rik.expected_score == pytest.approx(mean_score)
    # The forehand never bids beter rik (R-BID-07); at another seat it is hearts by definition.
    assert a.not_offered == ["beter_rik"] and "beter_rik" not in [b.spec.id for b in a.bids]
    assert len([n for n in a.notes if "forehand" in n and "R-BID-07" in n]) == 1
    second = analyse_hand(HONOURS, 2, WHAT_IF, deals=2, seed=seed)
    assert second.bid("beter_rik").trump == HEARTS and "beter_rik" not in second.not_offered


def test_a_three_ace_hand_is_offered_only_malheur_and_higher_under_book():
    hand = parse_hand("♠A32 ♥A54 ♦A765 ♣H32")
    a = analyse_hand(hand, 2, BOOK, deals=3, seed=5)
    floor = BOOK.rank("malheur")
    assert a.bids and all(b.spec.rank >= floor for b in a.bids)
    assert "malheur" in [b.spec.id for b in a.bids]
    below = [c.id for c in BOOK.contracts if BOOK.rank(c) < floor]
    assert a.not_offered == below and "rik" in below and "misere" in below
    # one note gives the reason and names every bid left out; the forehand's note on beter
    # rik is not given at seat 2
    (note,) = [n for n in a.notes if "R-MAL-01" in n]
    assert "book:malheur=optional" in note and all(i in note for i in a.not_offered)
    assert not any("forehand" in n for n in a.notes)
    # the recommendations name only bids the hand can make: malheur or higher (no pass)
    assert BOOK.rank(a.recommended_opening) >= floor
    assert a.highest_competitive is None or BOOK.rank(a.highest_competitive) >= floor
    # at seat 1 the same single reason (beter rik is below malheur anyway)
    first = analyse_hand(hand, 1, BOOK, deals=2, seed=5)
    assert first.not_offered == below and len([n for n in first.notes if "R-MAL-01" in n]) == 1
    assert not any("forehand" in n for n in first.notes)
    # with malheur optional the same hand may rik, and nothing is left out
    what_if = analyse_hand(hand, 2, WHAT_IF, deals=3, seed=5)
    assert "rik" in [b.spec.id for b in what_if.bids] and what_if.not_offered == []
    # the figures of the bids both runs evaluate come from the same deals
    assert what_if.bid("malheur").estimate == a.bid("malheur").estimate


def test_thirteen_spades_solo_is_certain():
    n = 12
    specs = _subset(ALL_SPADES, 1, {FAMILY_ALONE, FAMILY_NULL})
    store = PositionStore(sample_deals(_known(ALL_SPADES, 1), n, 5))
    bids = {b.spec.id: b for b in evaluate_bids(specs, store, ALL_SPADES, 0, BOOK)}
    solo = bids["solo"]
    assert solo.trump == SPADES and solo.estimate.made == n
    assert solo.expected_score == 45.0 and solo.tricks_hist[13] == n
    for level in range(7, 13):
        assert bids[f"alone_{level}"].estimate.made == n
    assert bids["misere"].estimate.made == 0
    assert any("not counted" in note for note in bids["solo"].notes)


def test_hole_free_misere_not_on_lead_is_certain():
    n = 40
    a = analyse_misere(SAFE_MISERE, 2, BOOK, deals=n, seed=3)  # East: North leads
    assert a.estimates["misere"].made == n and a.failures == 0
    assert a.expected["misere"] == 9.0
    assert all(h.safe for h in a.holes)
    specs = _subset(SAFE_MISERE, 2, {FAMILY_NULL})
    store = PositionStore(sample_deals(_known(SAFE_MISERE, 2), n, 3))
    bids = {b.spec.id: b for b in evaluate_bids(specs, store, SAFE_MISERE, 1, BOOK)}
    assert bids["misere"].estimate.made == n


def test_misere_failures_are_explained_by_the_hole():
    n = 30
    a = analyse_misere(SPADE_ACE_HOLE, 2, BOOK, deals=n, seed=8)
    assert a.failures > 0 and a.unexplained == 0
    assert sum(a.forced.values()) == a.failures
    assert set(a.forced) <= set(SPADE_ACE_HOLE)
    assert a.forced.get(card(SPADES, 12), 0) == a.failures  # always caught with the bare ace
    safe = {h.suit: h.safe for h in a.holes}
    assert safe == {0: False, 1: True, 2: True, 3: True}


def test_forced_card_on_a_tiny_ending():
    # Trick 1 of a 1-card ending: North (declarer) must win with his only card.
    hands = np.array([[1 << 12, 1 << 0, 1 << 1, 1 << 2]], dtype=np.int64)  # ♠A vs ♠2 ♠3 ♠4
    assert solve_batch(hands, 4, 1, 1, GOAL_MISERE, 0, -1)[0] == 0
    cards, tricks = forced_cards(hands, 1, 0)
    assert cards.tolist() == [card(SPADES, 12)] and tricks.tolist() == [1]


def test_adaptive_sampling_stops_each_question_once_settled():
    # malheur and the open forms are certain: 20 deals leave a half-width of 0.08, 50 deals
    # 0.036; solo (about 2 in 3) needs a few hundred
    a = analyse_hand(HONOURS, 1, BOOK, seed=4)
    certain = [b for b in a.bids if b.spec.family != "alone"]
    assert certain and all(b.estimate.n == 50 for b in certain)
    assert all(b.estimate.p in (0.0, 1.0) for b in certain)
    solo = a.bid("solo")
    assert 50 < solo.estimate.n == a.n_deals <= 1000 and solo.estimate.half_width <= 0.05
    assert a.stop_reason.startswith("adaptive")
    loose = analyse_hand(HONOURS, 1, BOOK, seed=4, precision=0.49)
    assert loose.n_deals == 20
    # the maximum caps the sample; the figures are those of the same fixed sample
    capped = analyse_hand(HONOURS, 1, BOOK, seed=4, precision=0.01, max_deals=12)
    fixed = analyse_hand(HONOURS, 1, BOOK, deals=12, seed=4)
    assert capped.n_deals == 12
    for x, y in zip(capped.bids, fixed.bids, strict=True):
        assert (x.spec.id, x.estimate, x.trump, x.called) == (
            y.spec.id,
            y.estimate,
            y.trump,
            y.called,
        )
        assert x.tricks_hist == y.tricks_hist


def test_a_settled_question_keeps_its_deals_while_an_open_one_takes_more():
    hand = parse_hand("♠HV1087 ♥A92 ♦V3 ♣H54")  # a borderline rik: P(rik) near 0.85
    a = analyse_hand(hand, 1, BOOK, seed=1, precision=0.1, max_deals=200)
    rik, misere = a.bid("rik"), a.bid("misere")
    assert misere.estimate.made == 0 and misere.estimate.n == 20  # hopeless: settled at once
    assert rik.estimate.n > misere.estimate.n and a.n_deals == rik.estimate.n
    # paired: the misère figure is that of the same first deals
    fixed = analyse_hand(hand, 1, BOOK, deals=misere.estimate.n, seed=1)
    assert fixed.bid("misere").estimate == misere.estimate


def test_a_forced_budget_gives_ranges_that_hold_the_exact_answers():
    hand = parse_hand("♠HV1087 ♥A92 ♦V3 ♣H54")
    exact = analyse_hand(hand, 2, BOOK, deals=16, seed=3)
    bounded = analyse_hand(hand, 2, BOOK, deals=16, seed=3, max_nodes=400)
    assert sum(bounded.given_up.values()) > 0 and sum(exact.given_up.values()) == 0
    assert any("node budget" in n for n in bounded.notes)
    unknown = 0
    for x, y in zip(bounded.bids, exact.bids, strict=True):
        e, f = x.estimate, y.estimate
        unknown += e.unknown
        assert e.made <= f.made <= e.made + e.unknown, x.spec.id
        low, high = e.interval
        assert low <= f.interval[0] + 1e-12 and f.interval[1] <= high + 1e-12
        # every deal counted (16 < 60): the score's range holds the exact mean
        assert x.expected_score_ci[0] <= y.expected_score <= x.expected_score_ci[1], x.spec.id
    assert unknown > 0


def test_the_expected_score_interval_from_a_subsample_covers_the_full_sample(monkeypatch):
    hand = parse_hand("♠AHV1098 ♥104 ♦A10 ♣752")  # a strong rik: 8 to 13 tricks
    specs = _subset(hand, 1, {FAMILY_RIK})
    deals = sample_deals(_known(hand, 1), 150, 7)
    full = evaluate_bids(specs, PositionStore(deals), hand, 0, BOOK)[0]
    assert full.tricks_hist_deals == 60 and full.expected_score_ci[0] < full.expected_score
    monkeypatch.setattr(sample, "EXACT_PREFIX", 10**6)
    everything = evaluate_bids(specs, PositionStore(deals), hand, 0, BOOK)[0]
    assert sum(everything.tricks_hist) == 150
    mean = sum(k * full.spec.scores[t] for t, k in enumerate(everything.tricks_hist)) / 150
    assert everything.expected_score == pytest.approx(mean)
    low, high = full.expected_score_ci
    assert low <= mean <= high
    assert full.estimate == everything.estimate  # the probability never uses the subsample


def test_bad_arguments_are_user_errors():
    from analyser.errors import RikkenError

    with pytest.raises(RikkenError):
        analyse_hand(HONOURS, 1, BOOK, deals=0)
    with pytest.raises(RikkenError):
        analyse_hand(HONOURS, 1, BOOK, deals=10, precision=0.7)


# On these seeded samples the misère hand never takes 7 tricks alone, and neither rik nor
# beter rik makes on any deal: every such bid fails on every deal, no trick counts are made,
# and the expected score is the bound "every deal one trick short of the target".
@pytest.mark.parametrize(
    ("family", "tag", "n", "seed", "short"),
    [(FAMILY_ALONE, "alone/solo", 12, 5, 6), (FAMILY_RIK, "rik", 8, 10, 7)],
)
def test_a_bid_that_never_makes_gets_no_trick_counts(family, tag, n, seed, short):
    specs = _subset(SAFE_MISERE, 1, {family})
    store = PositionStore(sample_deals(_known(SAFE_MISERE, 1), n, seed))
    bids = evaluate_bids(specs, store, SAFE_MISERE, 0, BOOK)
    assert len(bids) == len(specs) > 0
    for b in bids:
        assert b.estimate.made == 0 and b.estimate.n == n and b.tricks_hist is None
        assert b.expected_score == pytest.approx(b.spec.scores[short])
        assert b.expected_score < 0
        assert any("upper bound" in note for note in b.notes) and b.score_is_bound
    assert store.kind_solved[(tag, ">=K")] > 0
    assert store.kind_solved[(tag, "exact")] == 0


def test_store_asks_many_calls_at_once_like_one_by_one():
    """Every call of a trump in one at_least question (rows grouped by deal for the shared
    table, repeated questions solved once) gives the answers of one question per call."""
    hand = parse_hand("♠HV1087 ♥A92 ♦V3 ♣H54")
    n = 24
    deals = sample_deals(_known(hand, 1), n, 11)
    owner = masks_to_owner(deals).astype(np.int64)
    calls = [card(SPADES, 12), card(2, 12), card(3, 12)]  # the aces the hand lacks
    rows_idx, rows_decl, rows_called = [], [], []
    for c in calls + [calls[0]]:  # the first call twice: the same questions again
        rows_idx.append(np.arange(n))
        rows_decl.append(1 | (1 << owner[:, c]))
        rows_called.append(np.full(n, c))
    idx, decl, called = (np.concatenate(x) for x in (rows_idx, rows_decl, rows_called))
    together = PositionStore(deals)
    got = together.at_least(idx, HEARTS, 0, decl, called, 8, "t")
    assert together.solved["t"] == 3 * n  # the repeated call was not solved again
    apart = PositionStore(deals)
    want = np.concatenate(
        [
            apart.at_least(np.arange(n), HEARTS, 0, d, c, 8, "a")
            for d, c in zip(rows_decl, calls + [calls[0]], strict=True)
        ]
    )
    assert np.array_equal(got, want)
    assert 0 < int(got.sum()) < got.size  # both answers occur
