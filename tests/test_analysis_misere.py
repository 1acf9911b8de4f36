"""`rikken misere` analysis: the bounded forced-card search against the old exhaustive one,
node-budget intervals, adaptive sampling and reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.analysis import misere
from analyser.analysis.adaptive import sampling_plan
from analyser.analysis.misere import analyse_misere
from analyser.analysis.misere_line import (
    BUDGET,
    ESCAPE,
    LATER,
    NOW,
    UNEXPLAINED,
    _after,
    _choices,
    _winner,
    forced_cards,
)
from analyser.analysis.positions import PositionStore
from analyser.cards import N_SEATS, card_bit, suit_of
from analyser.errors import RikkenError
from analyser.notation import parse_hand
from analyser.rules import get_ruleset
from analyser.sampler import sample_deals
from analyser.seats import FOREHAND, Place, seat_of
from analyser.solver import GOAL_MISERE, solve_batch

BOOK = get_ruleset("book")
SAFE = parse_hand("♠5432 ♥432 ♦432 ♣432")  # no holes (G-MIS-02): made on every deal
SPADE_ACE_HOLE = parse_hand("♠A ♥5432 ♦5432 ♣5432")
LOW_HOLES = parse_hand("♠9 ♥8532 ♦7432 ♣6432")  # the docs/cli.md example: cheap failures
FORCED_LATE = parse_hand("♠B62 ♥9742 ♦853 ♣642")  # forced late: the old search's slow case


# ------------------------------------------------------------- the old implementation


def _trick_lines(hands, leader):
    """Every way (up to equivalent cards) to play one trick from ``leader``."""
    lines = []

    def rec(pos, played):
        if pos == N_SEATS:
            lines.append(played)
            return
        seat = (leader + pos) % N_SEATS
        led = suit_of(played[0]) if played else None
        for c in _choices(hands, seat, led):
            rec(pos + 1, played + (c,))

    rec(0, ())
    return lines


def _minimax(lines, values, leader, me):
    tree: dict = {}
    for line, v in zip(lines, values, strict=True):
        node = tree
        for c in line[:-1]:
            node = node.setdefault(c, {})
        node[line[-1]] = v

    def rec(node, pos):
        seat = (leader + pos) % N_SEATS
        best = None
        for c, child in node.items():
            v, rest = (child, ()) if pos == N_SEATS - 1 else rec(child, pos + 1)
            if best is None or (v > best[0] if seat == me else v < best[0]):
                best = (v, (c,) + rest)
        return best

    return rec(tree, 0)


def reference_forced_cards(deals, leader, me):
    """The exhaustive search ``forced_cards`` replaced, unchanged but for the
    names: every way to play each trick, each solved without a node budget."""
    n = deals.shape[0]
    out_card = np.full(n, -1, dtype=np.int64)
    out_trick = np.zeros(n, dtype=np.int64)
    state = {i: ([int(x) for x in deals[i]], int(leader)) for i in range(n)}
    trick = 1
    while state:
        per_deal = {}
        queries = []
        for i, (hands, lead) in state.items():
            lines = _trick_lines(hands, lead)
            slots = []
            for line in lines:
                w = _winner(line, lead)
                if w == me:
                    slots.append(("v", NOW))
                    continue
                rest = _after(hands, line)
                if rest[0] == 0:
                    slots.append(("v", ESCAPE))
                    continue
                slots.append(("q", len(queries)))
                queries.append((rest, w))
            per_deal[i] = (lines, slots)
        if queries:
            masks = np.array([q[0] for q in queries], dtype=np.int64)
            lead_a = np.array([q[1] for q in queries], dtype=np.int64)
            res = solve_batch(masks, 4, lead_a, 1 << me, GOAL_MISERE, 0, -1)
        else:
            res = np.zeros(0, dtype=np.int8)
        nxt = {}
        for i, (lines, slots) in per_deal.items():
            values = [v if kind == "v" else (ESCAPE if res[v] else LATER) for kind, v in slots]
            value, line = _minimax(lines, values, state[i][1], me)
            hands, lead = state[i]
            if value == NOW:
                out_card[i] = line[(me - lead) % N_SEATS]
                out_trick[i] = trick
            elif value == LATER:
                nxt[i] = (_after(hands, line), _winner(line, lead))
        state = nxt
        trick += 1
    return out_card, out_trick


# ------------------------------------------------------------------------- helpers


def _failing_deals(hand, place, n, seed):
    """The deals among the first ``n`` of the seed on which the closed misère fails."""
    me = seat_of(Place(place))
    known = [[], [], [], []]
    known[me] = list(hand)
    store = PositionStore(sample_deals(known, n, seed))
    ok = store.null_goal(np.arange(n), GOAL_MISERE, FOREHAND, 1 << me, "t")
    return store.deals[ok == 0], me


def _endings(n, k, seed, me, leader):
    """Random ``k``-card endings (all four hands) in which the misère of ``me`` fails."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        cards = rng.permutation(52)[: 4 * k]
        rows.append([sum(card_bit(int(c)) for c in cards[s * k : (s + 1) * k]) for s in range(4)])
    deals = np.array(rows, dtype=np.int64)
    ok = solve_batch(deals, 4, leader, 1 << me, GOAL_MISERE, 0, -1)
    return deals[ok == 0]


# --------------------------------------------------------- same forced cards as before


@pytest.mark.parametrize(("k", "me", "leader"), [(4, 0, 0), (6, 1, 0), (6, 2, 3), (7, 3, 3)])
def test_new_search_equals_the_old_one_on_random_endings(k, me, leader):
    deals = _endings(60, k, 100 * k + me, me, leader)
    assert deals.shape[0] >= 20
    expected = reference_forced_cards(deals, leader, me)
    got = forced_cards(deals, leader, me)
    assert got[0].tolist() == expected[0].tolist()
    assert got[1].tolist() == expected[1].tolist()


@pytest.mark.parametrize(("hand", "place", "seed"), [(LOW_HOLES, 2, 1), (SPADE_ACE_HOLE, 3, 4)])
def test_new_search_equals_the_old_one_on_full_deals(hand, place, seed):
    deals, me = _failing_deals(hand, place, 24, seed)
    assert deals.shape[0] >= 10
    expected = reference_forced_cards(deals, FOREHAND, me)
    stats: dict[str, int] = {}
    got = forced_cards(deals, FOREHAND, me, stats=stats)
    assert got[0].tolist() == expected[0].tolist()
    assert got[1].tolist() == expected[1].tolist()
    assert stats["given_up"] == 0


@pytest.mark.slow
def test_new_search_equals_the_old_one_on_a_hand_forced_late():
    # the old search needs some 1,000 positions per deal here (minutes); the new one ~40
    deals, me = _failing_deals(FORCED_LATE, 2, 8, 1)
    expected = reference_forced_cards(deals, FOREHAND, me)
    got = forced_cards(deals, FOREHAND, me)
    assert got[0].tolist() == expected[0].tolist()
    assert got[1].tolist() == expected[1].tolist()


def test_rounds_and_window_do_not_change_the_answers():
    deals = _endings(40, 6, 7, 1, 0)
    one = forced_cards(deals, 0, 1, window=1)
    wide = forced_cards(deals, 0, 1, window=100)
    assert one[0].tolist() == wide[0].tolist() and one[1].tolist() == wide[1].tolist()


def test_an_escaping_line_is_unexplained():
    # a made misère (North holds the lowest card of every trick) is no failing deal
    hands = np.array([[1 << 0, 1 << 1, 1 << 2, 1 << 3]], dtype=np.int64)  # ♠2 vs ♠3 ♠4 ♠5
    assert solve_batch(hands, 4, 0, 1, GOAL_MISERE, 0, -1)[0] == 1
    cards, tricks = forced_cards(hands, 0, 0)
    assert cards.tolist() == [UNEXPLAINED] and tricks.tolist() == [0]


# ------------------------------------------------------------------------ node budget


def test_a_tiny_budget_gives_unexplained_deals_and_leaves_the_rest_alone():
    deals, me = _failing_deals(LOW_HOLES, 2, 24, 1)
    exact = forced_cards(deals, FOREHAND, me, max_nodes=0)
    stats: dict[str, int] = {}
    cards, tricks = forced_cards(deals, FOREHAND, me, max_nodes=30, stats=stats)
    lost = cards == BUDGET
    assert lost.any() and stats["given_up"] > 0
    assert (tricks[lost] >= 1).all()
    assert cards[~lost].tolist() == exact[0][~lost].tolist()
    assert tricks[~lost].tolist() == exact[1][~lost].tolist()


def test_a_tiny_budget_gives_ranges_that_contain_the_exact_answer():
    exact = analyse_misere(FORCED_LATE, Place(2), BOOK, deals=12, seed=3, explain=0, max_nodes=0)
    tiny = analyse_misere(FORCED_LATE, Place(2), BOOK, deals=12, seed=3, explain=4, max_nodes=300)
    assert tiny.given_up["make"] > 0
    assert sum(e.unknown for e in tiny.estimates.values()) > 0
    for cid, e in tiny.estimates.items():
        x = exact.estimates[cid]
        assert x.unknown == 0 and e.n == x.n
        assert e.made <= x.made <= e.made + e.unknown
        low, high = e.interval
        assert low <= x.interval[0] and x.interval[1] <= high
        lo, hi = tiny.expected_range[cid]
        assert lo <= exact.expected[cid] <= hi
        lo, hi = tiny.expected_ci[cid]
        assert lo <= exact.expected[cid] <= hi and lo <= tiny.expected[cid] <= hi
    # the failure analysis says what it could not explain
    assert tiny.analysed == min(tiny.failures, 4)
    assert tiny.explained + tiny.unexplained_budget + tiny.unexplained == tiny.analysed
    assert sum(tiny.forced.values()) == tiny.explained


# ------------------------------------------------------------------- sampling, caps


def test_a_safe_misere_stops_at_the_first_step():
    a = analyse_misere(SAFE, Place(2), BOOK, seed=5)  # adaptive by default
    assert a.plan.adaptive and a.n_deals == 50
    assert a.estimates["misere"].made == 50 and a.failures == 0
    assert a.stop_reason.startswith("precision reached after 50 deals")


def test_an_adaptive_sample_is_a_prefix_of_the_seed_stream(monkeypatch):
    monkeypatch.setattr(misere.SamplePlan, "first", lambda self: 6)
    adaptive = analyse_misere(LOW_HOLES, Place(2), BOOK, seed=9, max_deals=10, explain=3)
    fixed = analyse_misere(LOW_HOLES, Place(2), BOOK, deals=adaptive.n_deals, seed=9, explain=3)
    assert adaptive.n_deals == 10 and adaptive.stop_reason.startswith("maximum of 10")
    assert adaptive.estimates == fixed.estimates
    assert adaptive.forced == fixed.forced and adaptive.forced_trick == fixed.forced_trick


def test_the_failure_analysis_explains_the_first_deals_only():
    a = analyse_misere(LOW_HOLES, Place(2), BOOK, deals=20, seed=1, explain=5)
    assert a.failures > 5 and a.analysed == 5 and a.explain_limit == 5
    assert sum(a.forced.values()) == a.explained == 5
    deals, me = _failing_deals(LOW_HOLES, 2, 20, 1)
    cards, _ = forced_cards(deals[:5], FOREHAND, me)
    counts: dict[int, int] = {}
    for c in cards.tolist():
        counts[c] = counts.get(c, 0) + 1
    assert a.forced == dict(sorted(counts.items()))
    none = analyse_misere(LOW_HOLES, Place(2), BOOK, deals=20, seed=1, explain=0)
    assert none.analysed == 0 and none.forced == {} and none.failures == a.failures


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"deals": 0, "precision": None, "max_deals": None}, "at least 1"),
        ({"deals": 10, "precision": None, "max_deals": 20}, "--max-deals"),
        ({"deals": None, "precision": 0.6, "max_deals": None}, "--precision"),
        ({"deals": None, "precision": None, "max_deals": 0}, "--max-deals"),
    ],
)
def test_bad_sampling_options_are_errors(kwargs, fragment):
    with pytest.raises(RikkenError, match=fragment):
        sampling_plan(**kwargs)


def test_sampling_options_make_the_plan():
    assert sampling_plan(30, None, None).deals == 30
    plan = sampling_plan(30, 0.1, None)
    assert plan.adaptive and plan.max_deals == 30 and plan.precision == 0.1
    plan = sampling_plan(None, None, None)
    assert plan.adaptive and plan.max_deals == 1000 and plan.precision == 0.05
