"""The cut-only deal model (analyser.deal_model, R-DEAL-03/04/06) and study 8."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from analyser.cards import N_RANKS, mask_to_cards
from analyser.deal_model import cut, deal_packets, deal_sequences, gather, play_simple
from analyser.errors import RikkenError
from analyser.sampler import random_deals
from analyser.stats import cluster_share
from analyser.studies.deal_model import CRITERIA, qualify, summarise
from analyser.studies.runner import run_study

SIMS = pathlib.Path(__file__).resolve().parent.parent / "sims"


def _hands(deal) -> list[list[int]]:
    return [mask_to_cards(int(m)) for m in deal]


def test_cut_and_packets_follow_the_rules():
    pack = list(range(52))
    assert cut(pack, 5)[:3] == [5, 6, 7] and cut(pack, 5)[-5:] == [0, 1, 2, 3, 4]
    hands = deal_packets(pack, 3, (7, 6))  # the dealer is seat 3: seat 0 gets the top packet
    assert hands[0] == sorted(list(range(0, 7)) + list(range(28, 34)))
    assert hands[3] == sorted(list(range(21, 28)) + list(range(46, 52)))
    wiezen = deal_packets(pack, 3, (4, 4, 5))
    assert wiezen[1] == [4, 5, 6, 7, 20, 21, 22, 23, 37, 38, 39, 40, 41]
    with pytest.raises(RikkenError):
        deal_packets(pack, 0, (7, 7))


def test_simple_play_is_legal_and_gathering_keeps_every_card():
    hands = _hands(random_deals(1, 3)[0])
    tricks = play_simple(hands, 2, 1)
    held = [set(h) for h in hands]
    leader = 1
    for cards, lead_seat, winner in tricks:
        assert lead_seat == leader
        suit = cards[0] // N_RANKS
        for k, c in enumerate(cards):
            seat = (leader + k) % 4
            assert c in held[seat]
            if c // N_RANKS != suit:  # a discard or a ruff only when void (R-PLAY-02)
                assert not any(x // N_RANKS == suit for x in held[seat])
            held[seat].discard(c)
        leader = winner
    pack = gather(tricks, 2)
    assert sorted(pack) == list(range(52))
    # the first pile is the tricks of the seat left of the new dealer, in the order won
    first = [c for cards, _, w in tricks if w == 3 for c in cards]
    assert pack[: len(first)] == first


def test_sequences_are_deals_and_follow_from_the_one_before():
    seqs = deal_sequences(3, 4, 11, "cut_only")
    for seq in seqs:
        for deal in seq:
            cards = [c for h in _hands(deal) for c in h]
            assert sorted(cards) == list(range(52))
    # the first deal is the sampler's; deal 1 is a cut of the gathered tricks of deal 0
    assert np.array_equal(seqs[:, 0], random_deals(3, 11))
    assert np.array_equal(deal_sequences(1, 4, 11, "cut_only", start=2)[0], seqs[2])
    uniform = deal_sequences(2, 3, 11, "uniform")
    assert np.array_equal(uniform.reshape(-1, 4), random_deals(6, 11))
    with pytest.raises(RikkenError, match="deal model"):
        deal_sequences(1, 1, 1, "shuffled")


def test_cluster_share_on_a_hand_made_case():
    p, lo, hi = cluster_share(np.array([1, 3, 2, 2]), np.array([4, 4, 4, 4]))
    assert p == 0.5 and lo < 0.5 < hi
    # identical clusters: no between-cluster variance
    assert cluster_share(np.array([2, 2, 2]), np.array([4, 4, 4])) == (0.5, 0.5, 0.5)


def test_qualify_agrees_with_the_hand_shapes():
    masks = random_deals(50, 5).reshape(-1)
    q = qualify(masks)
    for m, long6, void in zip(masks, q["long_6"], q["void"], strict=True):
        lengths = [bin((int(m) >> (16 * s)) & 0xFFFF).count("1") for s in range(4)]
        assert long6 == (max(lengths) >= 6) and void == (0 in lengths)


def test_the_study_runs_and_the_real_deal_gives_longer_suits(tmp_path):
    from analyser.studies.config import load_study

    text = (SIMS / "deal_model.toml").read_text()
    text = text.replace("sequences = 200", "sequences = 12").replace(
        "chunk_hands = 50", "chunk_hands = 5"
    )
    path = tmp_path / "deal_model.toml"
    path.write_text(text + f'\ndata_dir = "{tmp_path}"\nreport_dir = "{tmp_path}"\n')
    res = run_study(load_study(path), quiet=True)
    assert sorted(res.table["sequence"].unique()) == list(range(12))
    shares = summarise(res.table, res.cfg)["shares"]
    assert list(shares["criterion"]) == list(CRITERIA.values())
    row = shares[shares["criterion"] == CRITERIA["long_6"]].iloc[0]
    assert row["cut_only_p"] > row["uniform_p"]
