"""The guideline registry, and the vectorised (.many) forms against independent per-hand code."""

import numpy as np
import pandas as pd
import pytest

from analyser.cards import HIGH_MIN_RANK, N_RANKS, cards_to_mask, mask_to_cards, rank_of, suit_of
from analyser.errors import RulesError
from analyser.guidelines import GUIDELINES, features, get_guideline
from analyser.guidelines.alone import side_winners, trump_risks, trump_tricks
from analyser.guidelines.hand import hand_holdings
from analyser.guidelines.misere import (
    cover_miss_probability,
    delta,
    hole_measures,
    holes,
    lead_cost_deterministic,
)
from analyser.guidelines.piek import piek_rest_ok, winners
from analyser.guidelines.registry import CLASSIFIER, KINDS, classifiers
from analyser.guidelines.vocab import ranks_desc
from analyser.notation import parse_hand
from analyser.rules import parse_contract
from analyser.sampler import random_hands

MASKS = random_hands(300, seed=424242)
HANDS = [mask_to_cards(int(m)) for m in MASKS]


def test_registry_entries_are_well_formed():
    assert len(GUIDELINES) >= 30
    for gid, g in GUIDELINES.items():
        assert gid == g.id and gid.startswith("G-")
        assert g.kind in KINDS
        assert "\n" not in g.description and len(g.description) <= 90
        assert set(g.ours) <= set(g.params)
        if g.kind == CLASSIFIER:
            assert parse_contract(g.contract(n=9) if g.required == ("n",) else g.contract())


def test_classifiers_name_their_bids():
    bids = {g.id: g.contract(**({"n": 10} if g.required else {})) for g in classifiers()}
    assert bids["G-RIK-01"] == "rik"
    assert bids["G-ALN-03"] == "alone_10"
    assert bids["G-MIS-02"] == "misere"
    assert bids["G-PIEK-02"] == "piek"
    assert bids["G-OPEN-03"] == "open_misere"
    assert bids["G-PRAAT-02"] == "open_misere_praatje"


def test_advice_polarity():
    bare = get_guideline("G-MIS-04")
    flagged = bare.many(MASKS)
    assert flagged.any() and not flagged.all()
    assert (bare.advice(MASKS) == ~flagged).all()
    rik = get_guideline("G-RIK-01")
    assert (rik.advice(MASKS) == rik.many(MASKS)).all()
    with pytest.raises(RulesError):
        get_guideline("G-ALN-03:count").advice(MASKS)


def test_parameter_checks():
    alone = get_guideline("G-ALN-03")
    assert alone.required == ("n",)
    assert alone.params["max_risk"] == 1 and "max_risk" in alone.ours
    with pytest.raises(RulesError):
        alone.many(MASKS)  # n missing
    with pytest.raises(RulesError):
        alone.many(MASKS, n=9, max_rsk=2)
    with pytest.raises(RulesError):
        get_guideline("G-NOPE-01")
    assert get_guideline("G-ALN-06").required == ("forehand",)


def test_every_entry_many_equals_one_hand_calls():
    args = {"G-ALN-03": {"n": 8}, "G-ALN-06": {"forehand": False}}
    for gid, g in GUIDELINES.items():
        params = args.get(gid, {})
        many = g.many(MASKS[:60], **params)
        assert len(many) == 60, gid
        for m, hand in zip(many, HANDS[:60], strict=True):
            one = g(hand, **params)
            assert one == (m.item() if hasattr(m, "item") else m), gid


def test_features_table():
    df = features(MASKS, params={"G-ALN-03": {"n": 9}})
    assert isinstance(df, pd.DataFrame) and len(df) == len(MASKS)
    assert "G-ALN-03" in df.columns and "G-ALN-06" not in df.columns
    assert df["G-ALN-03:count"].dtype.kind == "i"
    assert df["G-RIK-01"].dtype == bool
    small = features(MASKS[:5], ids=["G-RIK-02", "G-MIS-03:holes"])
    assert list(small.columns) == ["G-RIK-02", "G-MIS-03:holes"]


# --------------------------------------------------------------------------- independent code


def suit_cards(hand, s):
    return sorted(rank_of(c) for c in hand if suit_of(c) == s)


def test_rik_against_the_formula():
    ok, trump = GUIDELINES["G-RIK-01"].many(MASKS), GUIDELINES["G-RIK-02"].many(MASKS)
    for hand, got_ok, got_trump in zip(HANDS, ok, trump, strict=True):
        suits = [suit_cards(hand, s) for s in range(4)]
        good = [
            s
            for s in range(4)
            if len(suits[s]) >= 6 and sum(r >= HIGH_MIN_RANK for r in suits[s]) >= 8 - len(suits[s])
        ]
        assert got_ok == bool(good)
        longest = max(len(x) for x in suits)
        cands = good or [s for s in range(4) if len(suits[s]) == longest]
        best = max(cands, key=lambda s: (len(suits[s]), sorted(suits[s], reverse=True), -s))
        assert got_trump == best


def test_book_count_against_per_suit_functions():
    count = GUIDELINES["G-ALN-03:count"].many(MASKS)
    ok9 = GUIDELINES["G-ALN-03"].many(MASKS, n=9)
    for hand, got, got_ok in zip(HANDS, count, ok9, strict=True):
        h = [int(x) for x in hand_holdings(hand)]
        per_trump = [
            trump_tricks(h[t]) + sum(side_winners(h[x]) for x in range(4) if x != t)
            for t in range(4)
        ]
        t = max(range(4), key=lambda s: (per_trump[s], h[s].bit_count(), ranks_desc(h[s]), -s))
        assert got == per_trump[t]
        assert got_ok == (per_trump[t] >= 9 and trump_risks(h[t]) <= 1)


def test_misere_figures_against_card_level_code():
    table = features(
        MASKS[:120],
        ids=["G-MIS-02", "G-MIS-03:holes", "G-MIS-03:hole_suits", "G-MIS-03:max_delta"],
    )
    for hand, row in zip(HANDS[:120], table.itertuples(index=False), strict=True):
        hs = holes(hand)
        assert row[0] == (not hs)
        assert row[1] == len(hs)
        assert row[2] == len({suit_of(c) for c in hs})
        assert row[3] == max([0] + [delta(hand, y) for y in hand])


def test_piek_ok_against_per_winner_check():
    # piek_ok is rare in random hands (about 1 in 10 000): add hand-made ones of both kinds.
    made = ["A5432.5432.432.2", "A.5432.5432.5432", "KQ8765.432.32.32", "A2.A432.5432.432"]
    hands = HANDS + [parse_hand(t) for t in made]
    masks = np.array([cards_to_mask(h) for h in hands], dtype=np.int64)
    for params in ({}, {"max_holes": 4, "max_delta": 6}):
        got = GUIDELINES["G-PIEK-02"].many(masks, **params)
        for hand, ok in zip(hands, got, strict=True):
            assert ok == any(piek_rest_ok(hand, w, **params) for w in winners(hand))
        assert got.any() and not got.all()


def test_open_misere_against_card_level_code():
    got = GUIDELINES["G-OPEN-03"].many(MASKS[:150])
    for hand, ok in zip(HANDS[:150], got, strict=True):
        measures = hole_measures(hand)
        lead = any(
            lead_cost_deterministic(hand, x) <= 0 and cover_miss_probability(hand, x) <= 0.01
            for x in hand
        )
        expected = (
            len({m.suit for m in measures}) <= 1 and all(m.delta <= 1 for m in measures) and lead
        )
        assert ok == expected


def test_holdings_never_leave_thirteen_bits():
    h = np.stack([hand_holdings(hand) for hand in HANDS])
    assert (h < (1 << N_RANKS)).all()
