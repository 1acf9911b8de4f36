"""declarable_contracts against every auction legal_bids allows.

The oracle walks all auction states (memoised on everything but the history) from a fresh
auction, every seat bidding or passing in every legal way, for every way the other three
seats can hold the remaining aces, and collects what the seat under test may bid on its
turns. declarable_contracts must give exactly that for the seat's place in the auction (the
forehand is seat 0), and the union over the places when no place is given. Under wiezen the
auction opens after the troel announcement the aces call for (W-03).
"""

from __future__ import annotations

import itertools

import pytest

from analyser.cards import N_SEATS
from analyser.errors import RulesError
from analyser.rules import (
    AuctionState,
    declarable_contracts,
    legal_bids,
    parse_ruleset,
    troel_announcement,
)


def _biddable(ruleset, seat: int, aces: int) -> set:
    """Every bid ``seat`` (holding ``aces`` aces) may make, or announce, in some auction;
    forehand = 0."""
    found = set()
    others = [q for q in range(N_SEATS) if q != seat]
    for dist in itertools.product(range(5), repeat=3):
        if sum(dist) + aces != 4:
            continue
        held = [0] * N_SEATS
        held[seat] = aces
        for q, a in zip(others, dist, strict=True):
            held[q] = a
        seen = set()
        announcement = troel_announcement(ruleset, held)
        if announcement is not None and announcement[0] == seat:
            found.add(announcement[1])  # declared before the auction (W-03)
        stack = [AuctionState.start(0, announcement)]
        while stack:
            st = stack.pop()
            key = (
                st.turn,
                st.current,
                st.declarers,
                st.passed,
                st.rik_bidders,
                st.spoken,
                st.passes_since_bid,
            )
            if st.finished or key in seen:
                continue
            seen.add(key)
            bids = legal_bids(ruleset, st, st.turn, held[st.turn])
            if st.turn == seat:
                found.update(b for b in bids if not b.is_pass)
            stack.extend(st.apply(ruleset, b, held[st.turn]) for b in bids)
    return found


def _check(spec: str, aces: int, seats=range(N_SEATS)) -> None:
    """declarable_contracts per place in the auction equals what the auctions allow there,
    and without a place it is the union over the four (checked when ``seats`` is all)."""
    rs = parse_ruleset(spec)
    union = set()
    for seat in seats:
        found = _biddable(rs, seat, aces)
        declared = declarable_contracts(rs, aces, seat)
        assert set(declared) == found, seat
        assert declared == [c for c in rs.contracts if c in found]  # ladder order
        union |= found
    if len(seats) == N_SEATS:
        assert set(declarable_contracts(rs, aces)) == union


@pytest.mark.parametrize("aces", [3, 4])
@pytest.mark.parametrize("spec", ["book", "book:malheur_may_overbid=false"])
def test_obligatory_malheur_leaves_nothing_below_malheur(spec, aces):
    # with 3 aces the forehand and seat 2 by default (the suite's time budget); every seat
    # and their union in the slow run below
    _check(spec, aces, seats=(0, 1) if aces == 3 else range(N_SEATS))
    rs = parse_ruleset(spec)
    floor = rs.rank("malheur")
    assert all(rs.rank(c) >= floor for c in declarable_contracts(rs, aces))


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["book", "book:malheur_may_overbid=false"])
def test_obligatory_malheur_with_three_aces_at_every_seat(spec):
    _check(spec, 3)


def test_optional_malheur_lets_a_three_ace_hand_rik():
    _check("book:malheur=optional", 3, seats=(1,))  # every seat: the slow run below
    assert "rik" in [c.id for c in declarable_contracts(parse_ruleset("book:malheur=optional"), 3)]


@pytest.mark.parametrize(
    "spec, aces", [("book:solo_needs_rik=on", 3), ("iwwa2024:malheur=obligatory", 4)]
)
def test_an_obliged_forehand_never_gets_the_rik_a_solo_needs(spec, aces):
    _check(spec, aces)
    assert "solo" not in [c.id for c in declarable_contracts(parse_ruleset(spec), aces, 0)]
    assert "solo" in [c.id for c in declarable_contracts(parse_ruleset(spec), aces, 1)]


@pytest.mark.parametrize("aces", [3, 4])
def test_wiezen_troel_and_what_ranks_above(aces):
    """W-03, W-06: troel (3 aces) or troela (4), then only what ranks above them."""
    _check("wiezen", aces)


@pytest.mark.slow  # the default run checks declarable_contracts directly (below)
def test_the_forehand_can_never_bid_beter_rik_by_every_auction():
    _check("book", 2, seats=(0,))


def test_the_forehand_can_never_bid_beter_rik():
    rs = parse_ruleset("book")
    assert "beter_rik" not in [c.id for c in declarable_contracts(rs, 0, 0)]
    assert all("beter_rik" in [c.id for c in declarable_contracts(rs, 0, k)] for k in (1, 2, 3))


def test_fewer_aces_may_bid_everything_but_malheur():
    rs = parse_ruleset("book")
    assert [c.id for c in declarable_contracts(rs, 2)] == [
        c.id for c in rs.contracts if c.id != "malheur"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("aces", [0, 1, 2, 3, 4])
@pytest.mark.parametrize(
    "spec",
    [
        "book",
        "book:malheur=optional",
        "iwwa2024",
        "book:all_pass=forced_bid",
        "book:solo_needs_rik=on",
        "wiezen",
        "wiezen:meegaan=next",
        "wiezen:troel=off",
    ],
)
def test_every_ace_count_and_rule_set(spec, aces):
    _check(spec, aces)


@pytest.mark.parametrize("bad", [-1, 5, True, 2.0])
def test_bad_ace_counts_and_places_are_rules_errors(bad):
    with pytest.raises(RulesError):
        declarable_contracts(parse_ruleset("book"), bad)
    with pytest.raises(RulesError):
        declarable_contracts(parse_ruleset("book"), 0, bad if bad != 5 else 4)
