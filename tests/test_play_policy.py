"""The deal model's play policy as a parameter (analyser/studies/play_policy.py)."""

from __future__ import annotations

import numpy as np

from analyser.cards import cards_to_mask, mask_to_cards
from analyser.deal_model import deal_sequences, play_simple
from analyser.notation import parse_hand
from analyser.sampler import random_deals
from analyser.seats import seat_of
from analyser.studies.play_policy import play_double_dummy, policy, pool_deals


def test_simple_policy_is_the_default():
    a = deal_sequences(3, 4, 8, "cut_only")
    assert np.array_equal(a, deal_sequences(3, 4, 8, "cut_only", play=policy("simple")))


def test_double_dummy_play_plays_every_card_by_the_rules():
    hands = [mask_to_cards(int(m)) for m in random_deals(1, 3)[0]]
    tricks = play_double_dummy(hands, 0, 1)
    assert len(tricks) == 13
    assert sorted(c for cards, _, _ in tricks for c in cards) == list(range(52))
    for cards, _, winner in tricks:
        assert len(cards) == 4 and 0 <= winner < 4
    # the winners lead on; a different policy gathers differently
    assert [t[1] for t in tricks[1:]] == [t[2] for t in tricks[:-1]]
    assert [t[0] for t in tricks] != [t[0] for t in play_simple(hands, 0, 1)]


def test_pool_draw_keeps_the_hand_and_its_shape():
    mask = cards_to_mask(parse_hand("♠AHV1098 ♥104 ♦A10 ♣752"))
    pool = random_deals(2000, 4)
    got = pool_deals(pool, mask, seat_of(1))
    assert len(got) > 10 and np.all(got[:, seat_of(1)] == mask)
    assert all(sum(int(h).bit_count() for h in d) == 52 for d in got)


def test_the_panel_scripts_pool_puts_each_place_at_north():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "sims" / "play_policy_panel.py"
    spec = importlib.util.spec_from_file_location("play_policy_panel", path)
    panel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(panel)
    deals, session = panel.pool("simple", 3)
    seqs = deal_sequences(3, panel.LENGTH, panel.SEED)
    assert deals.shape == (3 * len(panel.USED) * 4, 4)
    assert list(session) == [i for i in range(3) for _ in range(len(panel.USED) * 4)]
    k = 0
    for i in range(3):
        for j in panel.USED:
            for q in range(1, 5):  # place q (from the dealer j % 4) rotated to North
                s = (j + q) % 4
                assert list(deals[k]) == [seqs[i, j, (s + m) % 4] for m in range(4)]
                k += 1
    # the panel: whole hands and bids the script solves
    for _, text, bids in panel.PANEL:
        assert len(parse_hand(text)) == 13 and set(bids) <= {"rik", "alone_8", "misere"}
