"""The auction at the table: call names, replay, the book bidding model, conditioned deals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from test_sampler import chi2_p

from analyser.auction import BookModel, parse_calls, read_auction, readings
from analyser.auction.conditioned import ConditionedDeals, accepts
from analyser.cards import HEARTS, cards_to_mask, masks_to_owner, owner_to_masks
from analyser.errors import RulesError
from analyser.guidelines import alone_ok, misere_ok, open_misere_ok, piek_ok, praatje_ok, rik_ok
from analyser.guidelines.hand import mask_holdings
from analyser.guidelines.rik import rik_ok_suit
from analyser.notation import parse_hand
from analyser.rules import AuctionState, get_ruleset
from analyser.sampler import random_deals, sample_deals
from analyser.seats import FOREHAND, Seat

BOOK = get_ruleset("book")
MODEL = BookModel()


def ids(calls):
    return [c.id for c in calls]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rik pass", ["rik", "pass"]),
        ("Rik pas Beter-Rik", ["rik", "pass", "beter_rik"]),
        ("rik, acht alleen, beter 8 alone", ["rik", "alone_8", "alone_8_beter"]),
        ("rik 9 alone beter", ["rik", "alone_9_beter"]),
        ("misère MISERE misere", ["misere", "misere", "misere"]),
        ("open misère met een praatje", ["open_misere_praatje"]),
        ("pass pass solo beter", ["pass", "pass", "solo_beter"]),
        ("dertien alleen", ["solo"]),
        ("troela", ["malheur"]),
        ("", []),
    ],
)
def test_call_names_dutch_and_english(text, expected):
    assert ids(parse_calls(BOOK, text)) == expected


def test_the_rules_choose_between_readings():
    # "rik beter" + "rik" is one reading, rik + "beter rik" the other: only the second is legal
    assert [ids(r) for r in readings(BOOK, "rik beter rik")] == [
        ["beter_rik", "rik"],
        ["rik", "beter_rik"],
    ]
    calls, turns, state = read_auction(BOOK, "rik beter rik")
    assert ids(calls) == ["rik", "beter_rik"] and state.turn == 2 and len(turns) == 2


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("rik bla", "unknown call 'bla'"),
        ("rik rik", r"call 2 \(rik\) is not legal for seat 2"),
        ("beter rik", r"call 1 \(beter_rik\) is not legal for seat 1"),
        ("pass 8 alone", "not legal"),
        ("pass pass pass pass pass", "the auction is over"),
    ],
)
def test_unknown_and_illegal_calls_are_one_line_errors(text, fragment):
    with pytest.raises(RulesError, match=fragment) as err:
        read_auction(BOOK, text)
    assert "\n" not in str(err.value)


def test_wiezen_auctions_are_refused():
    with pytest.raises(RulesError, match="not supported"):
        parse_calls(get_ruleset("wiezen"), "vragen")


# ------------------------------------------------------------------------- the model


def _call(text_hand: str, auction: str = "") -> str:
    _, _, state = read_auction(BOOK, auction)
    mask = np.array([cards_to_mask(parse_hand(text_hand))], dtype=np.int64)
    return MODEL.calls(BOOK, state, state.turn, mask)[0]


def test_book_model_single_hands():
    rik = "♠A109876 ♥104 ♦102 ♣752"
    assert _call(rik) == "rik"
    assert _call(rik, "rik") == "pass"  # a spade rik over another's rik: no call left
    assert _call("♠AHV1098 ♥104 ♦A10 ♣752", "rik") == "alone_7"  # book count 7
    assert _call("♠32 ♥A109876 ♦102 ♣753", "rik") == "beter_rik"
    assert _call("♠5432 ♥432 ♦432 ♣432") == "misere"  # no holes
    assert _call("♠AH ♥A2 ♦A32 ♣H65432") == "malheur"  # the duty
    assert _call("♠H52 ♥V73 ♦B84 ♣10962") == "pass"


def test_passed_means_no_supported_legal_call():
    """The explicit rule for 'passed': at the forehand's first turn a pass means no rik, no
    misère, no piek, no open misère, no solo, and fewer than 3 aces."""
    masks = random_deals(4000, 3)[:, FOREHAND]
    calls = MODEL.calls(BOOK, AuctionState.start(FOREHAND), FOREHAND, masks)
    passed = masks[calls == "pass"]
    assert 0 < passed.size < masks.size
    assert not rik_ok.many(passed).any()
    assert not misere_ok.many(passed).any()
    assert not piek_ok.many(passed).any()
    assert not open_misere_ok.many(passed).any()
    assert not alone_ok.many(passed, 13).any()
    from analyser.auction import aces_of

    assert (aces_of(passed) < 3).all()
    # and every rik bidder meets the rik minimum
    assert rik_ok.many(masks[calls == "rik"]).all()


# ------------------------------------------------------------------ conditioned deals


def _independent_check(deals: np.ndarray) -> np.ndarray:
    """'rik pass' checked with the guidelines directly, not through the model: seat 1 meets
    the rik minimum (and has < 3 aces, no duty), seat 2 supports no call legal over a rik."""
    from analyser.auction import aces_of

    n1, e2 = deals[:, 0], deals[:, 1]
    hearts = mask_holdings(e2)[:, HEARTS]
    ok1 = rik_ok.many(n1) & (aces_of(n1) < 3)
    bid2 = np.array([rik_ok_suit(int(h)) for h in hearts])
    for n in range(7, 13):
        bid2 |= alone_ok.many(e2, n) | alone_ok.many(e2, n, trump=HEARTS)
    bid2 |= alone_ok.many(e2, 13) | alone_ok.many(e2, 13, trump=HEARTS)
    bid2 |= misere_ok.many(e2) | piek_ok.many(e2) | open_misere_ok.many(e2)
    bid2 |= praatje_ok.many(e2) | (aces_of(e2) >= 3)
    return ok1 & ~bid2


def test_every_accepted_deal_satisfies_every_earlier_call():
    hand = parse_hand("♠AHV1098 ♥104 ♦A10 ♣752")
    seat = Seat(2)
    _, turns, _ = read_auction(BOOK, "rik pass", seat)
    known = [[], [], hand, []]
    cd = ConditionedDeals(BOOK, MODEL, turns, known, seed=7, own_seat=seat)
    deals = cd.take(0, 300)
    assert deals.shape == (300, 4)
    assert (deals[:, 2] == cards_to_mask(hand)).all()
    assert _independent_check(deals).all()
    # the rejected raw deals are exactly those the check rejects
    raw = sample_deals(known, cd.raw, 7)
    assert (accepts(BOOK, MODEL, turns, raw, seat) == _independent_check(raw)).all()
    assert cd.accepted == int(_independent_check(raw).sum())
    assert 0.05 < cd.acceptance < 0.3
    # reproducible, whatever the batches
    again = ConditionedDeals(BOOK, MODEL, turns, known, seed=7, own_seat=seat)
    assert (np.concatenate([again.take(0, 100), again.take(100, 200)]) == deals).all()


def test_own_calls_are_not_tested():
    # seat 1 holds a misère hand but the auction says it bid rik: its own call is a fact
    hand = parse_hand("♠5432 ♥432 ♦432 ♣432")
    _, turns, _ = read_auction(BOOK, "rik pass pass pass", Seat(0))
    deals = sample_deals([hand, [], [], []], 200, 1)
    assert accepts(BOOK, MODEL, turns[:1], deals, Seat(0)).all()


def test_nearly_impossible_auction_is_refused():
    # two aces in my hand leave no seat three of them: a malheur is impossible
    hand = parse_hand("♠AHV1098 ♥104 ♦A10 ♣752")
    _, turns, _ = read_auction(BOOK, "malheur", Seat(1))
    cd = ConditionedDeals(BOOK, MODEL, turns, [[], hand, [], []], seed=1, own_seat=Seat(1))
    with pytest.raises(RulesError, match="nearly impossible") as err:
        cd.take(0, 10)
    assert "\n" not in str(err.value)


def _small_case():
    """A deal with six unknown cards (two each for N, E and W; S known): 90 completions,
    some of which accept 'rik pass' and some not."""
    for seed in range(200):
        deal = random_deals(1, seed)[0]
        owner = masks_to_owner(deal[None])[0].astype(np.int64)
        if not rik_ok.many(deal[:1])[0]:
            continue
        rng = np.random.default_rng(seed)
        free = []
        for s in (0, 1, 3):
            free += list(rng.choice(np.flatnonzero(owner == s), 2, replace=False))
        owner[free] = -1
        completions = []
        for n_cards in itertools.combinations(free, 2):
            rest = [c for c in free if c not in n_cards]
            for e_cards in itertools.combinations(rest, 2):
                o = owner.copy()
                o[list(n_cards)] = 0
                o[list(e_cards)] = 1
                o[[c for c in rest if c not in e_cards]] = 3
                completions.append(owner_to_masks(o.astype(np.int8)))
        completions = np.array(completions)
        _, turns, _ = read_auction(BOOK, "rik pass", Seat(2))
        ok = accepts(BOOK, MODEL, turns, completions, Seat(2))
        if 3 <= ok.sum() <= 80:
            return owner, turns, completions[ok]
    raise AssertionError("no small case found")  # pragma: no cover


def test_conditioned_deals_are_uniform_among_the_accepted_completions():
    owner, turns, accepted = _small_case()
    cd = ConditionedDeals(
        BOOK, MODEL, turns, owner.astype(np.int8), seed=5, own_seat=Seat(2), block=512
    )
    deals = cd.take(0, 200 * len(accepted))
    index = {tuple(d): k for k, d in enumerate(accepted)}
    keys = [index.get(tuple(d)) for d in deals]
    assert None not in keys  # every sampled deal is an accepted completion
    observed = np.bincount(keys, minlength=len(accepted))
    expected = np.full(len(accepted), len(deals) / len(accepted))
    assert chi2_p(observed, expected) > 1e-4
    assert (observed > 0).all()
