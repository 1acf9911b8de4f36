"""The book's fixed choices: G-MAL-07 partner trump (vectorised) and G-RIK-02 trump order."""

from __future__ import annotations

import numpy as np

from analyser.analysis.choice import malheur_partner_trump, trump_preference
from analyser.cards import mask_to_cards, masks_to_owner
from analyser.guidelines.malheur import malheur_trump
from analyser.notation import parse_hand
from analyser.rules import malheur_partner_cards
from analyser.sampler import sample_deals


def _check(hand_text: str, allowed=(0, 1, 2, 3)):
    hand = parse_hand(hand_text)
    deals = sample_deals([hand, [], [], []], 300, 17)
    pc = malheur_partner_cards(hand)[0]
    partner = masks_to_owner(deals)[:, pc].astype(np.int64)
    fast = malheur_partner_trump(deals, partner, hand, tuple(allowed))
    aces = [c for c in hand if c % 13 == 12]
    for i in range(deals.shape[0]):
        ph = mask_to_cards(int(deals[i, partner[i]]))
        assert fast[i] == malheur_trump(ph, malheur_aces=aces, allowed=allowed)


def test_malheur_trump_matches_the_guideline_three_aces():
    _check("♠A32 ♥A54 ♦A765 ♣H32")


def test_malheur_trump_matches_the_guideline_four_aces_and_v04():
    _check("♠A32 ♥A54 ♦A765 ♣A32")
    _check("♠A32 ♥A54 ♦A765 ♣H32", allowed=(0, 1, 2))


def test_trump_preference_length_then_honours():
    hand = parse_hand("♠HV1087 ♥AHV92 ♦3 ♣54")
    assert trump_preference(hand, 1) > trump_preference(hand, 0)  # equal length, better top
    hand = parse_hand("♠876543 ♥AHV92 ♦3 ♣5")
    assert trump_preference(hand, 0) > trump_preference(hand, 1)  # longer wins
