"""The worlds sampler (analyser.worlds): deals consistent with one player's knowledge during
the play, uniform among them, reproducible; checked exhaustively on small cases."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import factorial

import numpy as np
import pytest
from test_sampler import chi2_p

from analyser.cards import N_RANKS, cards_to_mask, mask_to_cards
from analyser.worlds import (
    KnowledgeError,
    count_worlds,
    knowledge_after,
    sample_worlds,
    trick_winner,
)


def _random_play(rng: random.Random, hands, leader: int, trump: int, n_cards: int):
    """``n_cards`` random legal cards played from ``hands`` (lists, changed in place)."""
    played, trick, seat = [], [], leader
    for _ in range(n_cards):
        hand = hands[seat]
        follow = [c for c in hand if trick and c // N_RANKS == trick[0][1] // N_RANKS]
        c = rng.choice(follow or hand)
        hand.remove(c)
        played.append(c)
        trick.append((seat, c))
        if len(trick) == 4:
            seat = trick_winner(trick, trump)
            trick = []
        else:
            seat = (seat + 1) % 4
    return played


def _game(seed: int, n_cards: int, me: int = 0):
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    deal = [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)]
    hands = [list(h) for h in deal]
    leader, trump = rng.randrange(4), rng.randrange(5)
    played = _random_play(rng, hands, leader, trump, n_cards)
    k = knowledge_after(me, deal[me], trump, leader, played)
    return deal, hands, played, k


def _unconstrained(k) -> int:
    room = k.room()
    out = factorial(sum(room))
    for r in room:
        out //= factorial(r)
    return out


def _brute_force(k) -> list[tuple[int, ...]]:
    """Every assignment of the hidden cards to seats that agrees with ``k``."""
    hidden = k.hidden()
    room = k.room()
    slots = [s for s in range(4) for _ in range(room[s])]
    out = set()
    for perm in set(itertools.permutations(slots)):
        if all(not k.void[s, c // N_RANKS] for c, s in zip(hidden, perm, strict=True)):
            out.add(perm)
    return sorted(out)


@pytest.mark.parametrize("seed", range(6))
def test_worlds_agree_with_the_knowledge(seed):
    deal, hands, played, k = _game(seed, 4 * (seed + 3) + seed % 3)
    worlds = sample_worlds(k, 50, seed)
    for w in worlds:
        held = [set(mask_to_cards(int(m))) for m in w]
        assert held[0] == set(hands[0])  # my own cards
        assert sum(len(h) for h in held) + len(played) == 52
        assert not set().union(*held) & set(played)
        for s in range(4):
            assert len(held[s]) == len(hands[s])
            for c in held[s]:
                assert not k.void[s, c // N_RANKS]
    # the true deal is one of the worlds
    assert count_worlds(k) >= 1


def test_worlds_are_exactly_uniform_on_a_small_case():
    # late in the play (2 cards each left), with a seat shown out: the worlds are few enough
    # to list and to sample each about 60 times
    for seed in range(200):
        _, _, _, k = _game(seed, 44)
        if count_worlds(k) < _unconstrained(k) and count_worlds(k) >= 6:
            break
    every = _brute_force(k)
    assert count_worlds(k) == len(every)
    hidden = k.hidden()
    n = 60 * len(every)
    seen = Counter()
    for w in sample_worlds(k, n, 7):
        seen[
            tuple(
                next(s for s in range(4) if int(w[s]) >> (16 * (c // 13) + c % 13) & 1)
                for c in hidden
            )
        ] += 1
    assert set(seen) <= set(every)
    observed = np.array([seen[a] for a in every], float)
    assert chi2_p(observed, np.full(len(every), n / len(every))) > 1e-3


def test_counts_match_brute_force_on_random_positions():
    for seed in range(30):
        _, _, _, k = _game(100 + seed, 40 + seed % 4)
        assert count_worlds(k) == len(_brute_force(k))


def test_worlds_are_reproducible_and_independent_of_the_batch():
    _, _, _, k = _game(3, 17)
    whole = sample_worlds(k, 10, 99)
    assert np.array_equal(sample_worlds(k, 5, 99, start=3), whole[3:8])
    assert not np.array_equal(sample_worlds(k, 10, 100), whole)


def test_contradictions_are_refused():
    me = list(range(7)) + list(range(13, 19))  # ♠2-8 ♥2-7
    with pytest.raises(KnowledgeError, match="13 different"):
        knowledge_after(0, me[:12], 4, 0, [])
    with pytest.raises(KnowledgeError, match="another seat"):
        knowledge_after(0, me, 4, 1, [0])  # seat 1 plays my card
    with pytest.raises(KnowledgeError, match="twice"):
        knowledge_after(0, me, 4, 0, [0, 26, 27, 28, 0])
    # seat 1 shows out of spades (♦2 on ♠2), then plays ♠K
    with pytest.raises(KnowledgeError, match="showed out"):
        knowledge_after(0, me, 4, 0, [0, 26, 27, 28, 1, 11])
    # seat 1 is known to hold ♠A but shows out of spades
    with pytest.raises(KnowledgeError, match="holds"):
        knowledge_after(0, me, 4, 0, [0, 26, 27, 28], known={12: 1})


def test_knowledge_keeps_public_cards_with_their_holder():
    deal, _, _, _ = _game(5, 0)
    k = knowledge_after(0, deal[0], 4, 0, [], known={c: 2 for c in deal[2]})
    assert count_worlds(k) == factorial(26) // factorial(13) ** 2
    for w in sample_worlds(k, 20, 1):
        assert int(w[2]) == cards_to_mask(deal[2])
        assert int(w[0]) == cards_to_mask(deal[0])


def test_a_seat_that_follows_the_called_suit_without_the_called_card_does_not_hold_it():
    me = list(range(13, 26))  # all hearts
    ace = 12  # ♠A called: its holder must play it on the first spade lead (R-PLAY-05)
    k = knowledge_after(0, me, 4, 1, [0], called=ace)  # seat 1 leads ♠2
    seen = {next(s for s in range(4) if int(w[s]) >> 12 & 1) for w in sample_worlds(k, 60, 3)}
    assert seen == {2, 3}
    k = knowledge_after(0, me, 4, 1, [0, 1], called=ace)  # seat 2 follows with ♠3
    assert all(int(w[3]) >> 12 & 1 for w in sample_worlds(k, 20, 3))
    with pytest.raises(KnowledgeError, match="did not play it"):
        knowledge_after(0, me, 4, 1, [0, 1], called=ace, known={ace: 2})


def test_a_called_card_discarded_earlier_frees_its_holder_on_the_suits_first_lead():
    me = list(range(26, 39))  # all diamonds
    ace = 12  # ♠A called; its holder may discard it on another suit's lead (the default)
    # seat 1 leads ♥2, seat 2 discards ♠A, seat 3 wins with ♥3, I play ♦2; seat 3 then
    # makes the first spade lead and seat 2 follows with ♠4: no contradiction, the card is gone
    k = knowledge_after(0, me, 4, 1, [13, ace, 14, 26, 0, 27, 1, 2], called=ace)
    assert count_worlds(k) > 0
    for w in sample_worlds(k, 10, 5):
        assert not any(int(w[s]) >> ace & 1 for s in range(4))


def test_all_worlds_lists_every_layout_once_when_few_remain():
    import random

    from analyser.worlds import all_worlds, count_worlds, knowledge_after, trick_winner

    rng = random.Random(3)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sorted(deck[13 * i : 13 * i + 13]) for i in range(4)]
    held = [list(h) for h in hands]
    played, seat, trick = [], 0, []
    for _ in range(40):  # ten tricks, each seat playing its lowest legal card
        h = held[seat]
        follow = [c for c in h if trick and c // 13 == trick[0][1] // 13]
        c = min(follow or h)
        h.remove(c)
        played.append(c)
        trick.append((seat, c))
        if len(trick) == 4:
            seat, trick = trick_winner(trick, 4), []
        else:
            seat = (seat + 1) % 4
    k = knowledge_after(seat, hands[seat], 4, 0, played)
    n = count_worlds(k)
    worlds = all_worlds(k, n)
    assert all_worlds(k, n - 1) is None
    rows = {tuple(int(x) for x in w) for w in worlds}
    assert len(rows) == len(worlds) == n
    mine = sum(1 << (16 * (c // 13) + c % 13) for c in held[seat])
    for w in rows:
        assert w[seat] == mine
        assert sum(bin(x).count("1") for x in w) == 12
        assert w[0] | w[1] | w[2] | w[3] == sum(
            1 << (16 * (c // 13) + c % 13) for h in held for c in h
        )
