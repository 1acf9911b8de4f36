"""The wiezen analysis (docs/rules.md §7.4): turned card, meegaan model, vragen and troel
figures checked against the solver on the very deals the analysis sampled."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.analysis.evaluate import analyse_hand
from analyser.analysis.families.alone import FAMILY_ALONE
from analyser.analysis.families.registry import bid_specs
from analyser.analysis.families.troel import FAMILY_TROEL
from analyser.analysis.families.vragen import FAMILY_VRAGEN
from analyser.analysis.recommend import opening_bids
from analyser.analysis.wiezen import (
    join_candidates,
    joins,
    meegaan_partner,
    troel_elsewhere,
    turned_known,
)
from analyser.cards import CLUBS, DIAMONDS, EAST, HEARTS, NORTH, SOUTH, SPADES, WEST, card
from analyser.cards import cards_to_mask as mask
from analyser.errors import RikkenError
from analyser.notation import parse_hand
from analyser.rules import TROEL, VRAGEN, get_ruleset
from analyser.sampler import sample_deals
from analyser.seats import Place
from analyser.solver import Solver

WIEZEN = get_ruleset("wiezen")
TURNED = card(HEARTS, 5)  # ♥7
STRONG = parse_hand("♠AHVB ♥HVB10 ♦HV10 ♣HV")
THREE_ACES = parse_hand("♠AHV ♥AH1098 ♦A2 ♣753")


def _hearts(*ranks):
    return [card(HEARTS, r) for r in ranks]


@pytest.mark.parametrize(
    "cards, joined",
    [
        (_hearts(2, 3, 4) + [card(SPADES, 12), card(CLUBS, 12)], True),  # 3 trumps, 2 aces
        (_hearts(2, 3, 4) + [card(SPADES, 12)], False),  # 3 trumps, 1 ace
        (_hearts(2, 3, 4, 5) + [card(DIAMONDS, 12)], True),  # 4 trumps, 1 ace
        (_hearts(2, 3, 4, 12), False),  # 4 trumps, the trump ace is no side ace
        (_hearts(2, 3, 4, 5, 6), True),  # 5 trumps
        (_hearts(2, 3) + [card(s, 12) for s in (SPADES, DIAMONDS, CLUBS)], False),  # 2 trumps
    ],
)
def test_meegaan_model(cards, joined):
    assert joins(np.array([mask(cards)]), HEARTS).tolist() == [joined]


def test_join_candidates_follow_the_auction():
    assert join_candidates(WIEZEN, NORTH) == [EAST, SOUTH, WEST]
    assert join_candidates(WIEZEN, SOUTH) == [WEST]
    assert join_candidates(WIEZEN, WEST) == []  # the dealer speaks last (W-08)
    assert join_candidates(get_ruleset("wiezen", meegaan="next"), NORTH) == [EAST]


def test_the_first_joiner_in_turn_order_is_the_partner():
    yes = mask(_hearts(2, 3, 4, 5, 6))
    no = mask([card(SPADES, 0)])
    deals = np.array(
        [[0, no, yes, yes], [0, yes, yes, no], [0, no, no, no]], dtype=np.int64
    )  # only the hands of E, S, W matter here
    assert meegaan_partner(deals, WIEZEN, NORTH, HEARTS).tolist() == [SOUTH, EAST, -1]
    assert meegaan_partner(deals, WIEZEN, SOUTH, HEARTS).tolist() == [WEST, -1, -1]


def test_troel_elsewhere():
    aces = [card(s, 12) for s in range(4)]
    deals = np.array(
        [[0, mask(aces[:3]), mask(aces[3:]), 0], [0, mask(aces[:2]), mask(aces[2:]), 0]]
    )
    assert troel_elsewhere(deals, NORTH).tolist() == [True, False]
    assert troel_elsewhere(deals, EAST).tolist() == [False, False]


def test_turned_known_places_the_card_with_the_dealer():
    known, suit = turned_known(WIEZEN, STRONG, NORTH, TURNED)
    assert suit == HEARTS and known[WEST] == [TURNED] and known[NORTH] == sorted(STRONG)
    with pytest.raises(RikkenError, match="dealer"):
        turned_known(WIEZEN, STRONG, WEST, TURNED)
    with pytest.raises(RikkenError, match="needs the turned card"):
        turned_known(WIEZEN, STRONG, NORTH, None)
    with pytest.raises(RikkenError, match="no turned trump"):
        turned_known(get_ruleset("book"), STRONG, NORTH, TURNED)


def test_bid_specs_under_wiezen():
    specs = {s.id: s for s in bid_specs(WIEZEN, STRONG, NORTH, HEARTS)}
    assert specs["vragen"].family == FAMILY_VRAGEN and specs["vragen"].strains == (HEARTS,)
    assert specs["alone_5"].family == FAMILY_ALONE and specs["alone_5"].target == 5
    assert specs["abondance_10"].strains == (SPADES, DIAMONDS, CLUBS)
    assert specs["abondance_10_turned"].strains == (HEARTS,)
    assert HEARTS not in specs["solo"].strains and 4 in specs["solo"].strains  # no trump
    # the abondance player leads (W-10): at seat 3 that is South, not the forehand
    south = {s.id: s for s in bid_specs(WIEZEN, STRONG, SOUTH, HEARTS)}
    assert south["abondance_9"].leader == SOUTH and south["alone_5"].leader == NORTH
    troel = bid_specs(WIEZEN, THREE_ACES, NORTH, HEARTS)[0]
    assert troel.family == FAMILY_TROEL and troel.strains == (CLUBS,) and troel.leader is None


def test_opening_bids_of_a_troel_hand_is_the_announcement():
    assert opening_bids(WIEZEN, Place(2), 3) == [TROEL]
    assert VRAGEN in opening_bids(WIEZEN, Place(2), 2)


def _solve(deal, trump, leader, decl, target, called=None, leads=False):
    return Solver().solve(
        list(deal), trump, leader, decl, f">={target}", called, called_leads=leads
    )


def test_vragen_counts_the_joined_deals_and_matches_the_solver():
    n, seed = 12, 9
    a = analyse_hand(STRONG, Place(1), WIEZEN, deals=n, seed=seed, turned=TURNED)
    known, _ = turned_known(WIEZEN, STRONG, NORTH, TURNED)
    deals = sample_deals(known, n, seed)
    assert (deals[:, WEST] >> (16 * HEARTS + 5) & 1).all()  # the ♥7 with the dealer
    partner = meegaan_partner(deals, WIEZEN, NORTH, HEARTS)
    vragen = a.bid("vragen")
    assert vragen.joined.n == n and vragen.joined.made == int((partner >= 0).sum())
    assert vragen.estimate.n == vragen.joined.made
    made = sum(
        _solve(deals[i], HEARTS, NORTH, [NORTH, int(partner[i])], 8)
        for i in range(n)
        if partner[i] >= 0
    )
    assert vragen.estimate.made == made
    alone = a.bid("alone_5")
    assert alone.trump == HEARTS and alone.estimate.n == n
    assert alone.estimate.made == sum(_solve(d, HEARTS, NORTH, [NORTH], 5) for d in deals)
    # the abondance declarer leads; at seat 1 he is the forehand anyway
    ab = a.bid("abondance_9_turned")
    assert ab.estimate.made == sum(_solve(d, HEARTS, NORTH, [NORTH], 9) for d in deals)
    assert a.turned == TURNED


def test_troel_partner_leads_and_matches_the_solver():
    n, seed = 10, 4
    a = analyse_hand(THREE_ACES, Place(2), WIEZEN, deals=n, seed=seed, turned=TURNED)
    me = EAST
    known, _ = turned_known(WIEZEN, THREE_ACES, me, TURNED)
    deals = sample_deals(known, n, seed)
    ace = card(CLUBS, 12)
    troel = a.bid("troel")
    assert troel.called == ace and troel.trump == CLUBS
    made = free = 0
    for d in deals:
        partner = next(s for s in range(4) if d[s] >> (16 * CLUBS + 12) & 1)
        made += _solve(d, CLUBS, partner, [me, partner], 8, ace, leads=True)
        free += _solve(d, CLUBS, partner, [me, partner], 8, ace)
    # the partner leads the ace to trick 1 (W-04): never more than when he may lead anything
    assert troel.estimate.made == made <= free
    assert any("leads it to trick 1" in note for note in troel.notes)
    assert a.recommended_opening in ("troel", "pass")
    assert [b.spec.id for b in a.bids] == ["troel", "open_misere", "solo", "solo_slim"]
