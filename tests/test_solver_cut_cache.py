"""The cut-off card cache (analyser/solver/moves.py: cut_key, cut_hint, cut_record).

Its key describes only the local situation of the seat to play, so situations that agree on
that description share a slot; its cards only order moves, so no card it holds - even one left
by a search for the other side or another deal - may change an answer (checked against the
brute-force oracle with a cache that is never cleared).
"""

from __future__ import annotations

import random

import numpy as np
from oracle import oracle_solve_many, random_ending

from analyser.cards import N_RANKS, cards_to_mask
from analyser.solver.layout import CUT_BITS, CUT_CACHE, FAM_E, FAM_T, KILLER_SIZE, N_STATS, NT
from analyser.solver.moves import cut_hint, cut_key, cut_record, cut_slots
from analyser.solver.search import search
from analyser.solver.state import Memory, Root, Rules, Turn
from analyser.solver.table import new_table, next_generation

S, H, D, C = range(4)


def card(suit: int, rank: str) -> int:
    """A card int (13 * suit + rank) from a rank letter."""
    return N_RANKS * suit + "23456789TJQKA".index(rank)


def bit(suit: int, rank: str) -> int:
    """The solver's bit index of a card (16 * suit + rank)."""
    return 16 * suit + "23456789TJQKA".index(rank)


def masks(*hands: list[int]) -> np.ndarray:
    return np.array([cards_to_mask(h) for h in hands], np.int64)


def key(hands, p, pos, lead_suit, on_table, wseat, wbit, trump):
    """cut_key with ``alive`` = the cards in hands plus ``on_table`` (bits)."""
    alive = int(np.bitwise_or.reduce(hands))
    for b in on_table:
        alive |= 1 << b
    turn = Turn(0, p, pos, lead_suit, wseat, wbit, 0, alive)
    return cut_key(hands, turn, trump, 1 << CUT_BITS)


# North led the spade king, East (seat 1) is to follow; the rest of the deal varies below.
WEST = [card(S, "A"), card(H, "2"), card(D, "5")]
SOUTH = [card(S, "3"), card(H, "K"), card(C, "2")]


def test_following_suit_keys_on_the_suit_led_and_the_winner_only():
    east = [card(S, "Q"), card(H, "4"), card(C, "9")]
    north = [card(H, "A"), card(D, "K"), card(C, "A")]  # after leading the spade king
    table = [bit(S, "K")]
    k1 = key(masks(north, east, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), H)
    # other cards outside spades, in East's hand and the others': the same situation
    east2 = [card(S, "Q"), card(D, "4"), card(D, "9")]
    north2 = [card(H, "4"), card(C, "K"), card(C, "A")]
    k2 = key(masks(north2, east2, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), H)
    assert k1 == k2
    # another spade still in play, another winning card, the king played by another seat or
    # another seat to follow: other situations
    west3 = [card(S, "5"), card(H, "2"), card(D, "5")]
    assert key(masks(north, east, SOUTH, west3), 1, 1, S, table, 0, bit(S, "K"), H) != k1
    assert key(masks(north, east, SOUTH, WEST), 1, 1, S, [bit(S, "J")], 0, bit(S, "J"), H) != k1
    assert key(masks(north, east, SOUTH, WEST), 1, 1, S, table, 2, bit(S, "K"), H) != k1
    assert key(masks(north, east, SOUTH, WEST), 3, 1, S, table, 0, bit(S, "K"), H) != k1


def test_a_void_player_keys_on_his_hand_and_the_winner():
    north = [card(H, "A"), card(D, "K"), card(C, "A")]
    east = [card(H, "4"), card(D, "9"), card(C, "9")]  # void in spades
    table = [bit(S, "K")]
    for trump in (H, NT):
        k1 = key(masks(north, east, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), trump)
        # the other hands do not matter, his own hand does
        north2 = [card(H, "3"), card(D, "Q"), card(C, "J")]
        assert key(masks(north2, east, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), trump) == k1
        east2 = [card(H, "5"), card(D, "9"), card(C, "9")]
        assert key(masks(north, east2, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), trump) != k1
    # who is winning counts; with trumps also the winning card (a ruff may overruff it), but
    # under no trump a discard never wins, so the card does not
    for trump in (H, NT):
        partner = key(masks(north, east, SOUTH, WEST), 1, 1, S, table, 3, bit(S, "K"), trump)
        assert partner != key(
            masks(north, east, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), trump
        )
    ace = [bit(S, "A")]
    with_ace = key(masks(north, east, SOUTH, WEST), 1, 1, S, ace, 0, bit(S, "A"), H)
    with_king = key(masks(north, east, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), H)
    assert with_ace != with_king
    with_ace = key(masks(north, east, SOUTH, WEST), 1, 1, S, ace, 0, bit(S, "A"), NT)
    with_king = key(masks(north, east, SOUTH, WEST), 1, 1, S, table, 0, bit(S, "K"), NT)
    assert with_ace == with_king


def test_a_leader_keys_on_his_hand():
    north = [card(S, "K"), card(H, "A"), card(D, "K")]
    east = [card(S, "Q"), card(H, "4"), card(C, "9")]
    k1 = key(masks(north, east, SOUTH, WEST), 0, 0, -1, [], 0, 0, H)
    east2 = [card(S, "7"), card(H, "4"), card(C, "9")]
    assert key(masks(north, east2, SOUTH, WEST), 0, 0, -1, [], 0, 0, H) == k1
    north2 = [card(S, "K"), card(H, "A"), card(D, "Q")]
    assert key(masks(north2, east, SOUTH, WEST), 0, 0, -1, [], 0, 0, H) != k1
    # the same cards in another seat's hand, on lead: another situation
    assert key(masks(east, north, SOUTH, WEST), 1, 0, -1, [], 1, 0, H) != k1


def test_slots_fit_the_killer_array():
    assert cut_slots(13) == 1 << CUT_BITS
    assert KILLER_SIZE == CUT_CACHE + cut_slots(13)
    assert [cut_slots(n) for n in range(1, 14)] == sorted(cut_slots(n) for n in range(1, 14))
    assert cut_slots(7) <= 1 << 11  # small endings clear a small region


def test_slots_and_checks():
    rng = random.Random(3)
    killer = np.zeros(KILLER_SIZE, np.int64)
    seen = set()
    for _ in range(200):
        hands = masks(*random_ending(rng, 5))
        p = rng.randrange(4)
        slot, check = key(hands, p, 0, -1, [], p, 0, rng.randrange(5))
        assert 0 <= slot < 1 << CUT_BITS and 0 <= check < 1 << 32
        seen.add((slot, check))
        assert cut_hint(killer, slot, check) in (-1, *range(64))
        b = rng.randrange(52)
        cut_record(killer, slot, check, b)
        assert cut_hint(killer, slot, check) == b
        assert cut_hint(killer, slot, check ^ 1) == -1  # another situation in the same slot
    assert len(seen) == 200
    assert killer[:CUT_CACHE].sum() == 0  # the history and lead killers are left alone


def test_stale_cut_cards_never_change_an_answer():
    # One killer array for every search, never cleared: the cache holds the cards of other
    # endings, of the other side's goals and of other targets on the same ending. Each
    # ending is asked every >=K for both sides (trick goals), or misère and piek.
    rng = random.Random(404)
    endings = []
    for i in range(48):
        n = 3 + i % 2
        hands = random_ending(rng, n, rng.choice((2, 3)))
        trump, leader = rng.randrange(5), rng.randrange(4)
        if i % 4 == 3:
            endings.append((hands, NT, leader, (rng.randrange(4),), "misere"))
            endings.append((hands, NT, leader, endings[-1][3], "piek"))
        else:
            side = rng.choice(((0,), (1, 2), (0, 2), (3, 0)))
            endings.append((hands, trump, leader, side, "tricks"))
    answers = oracle_solve_many([(h, t, ld, s, g, None, True) for h, t, ld, s, g in endings])
    tt, tb = new_table(12)
    killer = np.zeros(KILLER_SIZE, np.int64)
    stats = np.zeros(N_STATS, np.int64)
    gen = 0

    def ask(hands, trump, leader, side, fam, goal, beta):
        nonlocal gen
        gen = next_generation(tb, gen)
        side_arr = np.array([int(q in side) for q in range(4)], np.int64)
        rules = Rules(trump, side_arr, side_arr, goal, -1, -1, True)
        root = Root(masks(*hands), leader, 0, np.zeros(3, np.int64), 0, -1)
        return search(rules, root, fam, beta, Memory(tt, tb, gen, killer, stats, 0), 0)

    bad = []
    for (hands, trump, leader, side, goal), want in zip(endings, answers, strict=True):
        n = len(hands[0])
        if goal == "tricks":
            others = tuple(q for q in range(4) if q not in side)
            for k in range(1, n + 1):
                if (ask(hands, trump, leader, side, FAM_T, 0, k) >= k) != (want >= k):
                    bad.append((hands, trump, leader, side, f">={k}", want))
                if (ask(hands, trump, leader, others, FAM_T, 0, k) >= k) != (n - want >= k):
                    bad.append((hands, trump, leader, others, f">={k}", n - want))
        else:
            got = ask(hands, trump, leader, side, FAM_E, 0 if goal == "misere" else 1, 1)
            if got != want:
                bad.append((hands, trump, leader, side, goal, want))
    assert not bad, bad[:5]
    # the cache was in use (3- and 4-card endings share their 128 or 256 slots)
    assert np.count_nonzero(killer[CUT_CACHE : CUT_CACHE + cut_slots(4)]) >= 100
