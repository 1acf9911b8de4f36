"""The table's keys: the key the search carries from one trick boundary to the next
(table_keys.key_after_trick) and the owner codes it gathers from the search's first position
(rank_codes, codes_in_play) equal those computed afresh from the hands, an entry's W sets
read back from its masks are the cards its slots fix (w_from_masks), an entry's top-slot word
rejects what its row would (top_word), and a slot's check byte says whether its entry holds a
best move (table.TAG_MOVE)."""

from __future__ import annotations

import numpy as np

from analyser.solver.api import Solver
from analyser.solver.layout import N_CARD, N_COLS, N_SEAT
from analyser.solver.table import B_TAG, C_BND, near_likeness
from analyser.solver.table_keys import (
    codes_in_play,
    key_after_trick,
    length_key,
    rank_codes,
    top_likeness,
    top_mismatch,
    top_slots,
    top_word,
    w_from_masks,
)


def _bit(card: int) -> int:
    return 16 * (card // 13) + card % 13


def _owner_codes(hands) -> tuple[int, int]:
    """The owner codes by their definition: per suit, from the top card in play down, its
    seat in the next two bits of the suit's field (suits 0 and 1 in the first word)."""
    words = [0, 0]
    for s in range(4):
        slot = 0
        for r in range(12, -1, -1):
            b = 16 * s + r
            owner = [q for q in range(4) if (int(hands[q]) >> b) & 1]
            if owner:
                words[s // 2] |= owner[0] << (32 * (s % 2) + 2 * slot)
                slot += 1
    return words[0], words[1]


def _deal(rng: np.random.Generator, n: int) -> np.ndarray:
    deck = rng.permutation(52)[: 4 * n]
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        for c in deck[seat * n : (seat + 1) * n]:
            hands[seat] |= 1 << _bit(int(c))
    return hands


def test_codes_after_a_trick_match_a_fresh_computation():
    rng = np.random.default_rng(20261124)
    for _ in range(400):
        n = int(rng.integers(2, 14))  # cards per hand before the trick
        hands = _deal(rng, n)
        first = hands.copy()
        key = length_key(*hands)
        # one card from each seat, in any seat order (legality does not matter here)
        order = rng.permutation(4)
        node = np.zeros((8, N_COLS), np.int64)
        d0 = int(rng.integers(0, 5))
        for k, seat in enumerate(order):
            h = int(hands[seat])
            bits = [b for b in range(64) if (h >> b) & 1]
            b = bits[int(rng.integers(len(bits)))]
            node[d0 + k, N_CARD] = b
            node[d0 + k, N_SEAT] = seat
            hands[seat] ^= 1 << b
        alive = int(hands[0] | hands[1] | hands[2] | hands[3])
        assert int(key_after_trick(key, node, d0)) == int(length_key(*hands))
        got = codes_in_play(*rank_codes(*first), alive)
        assert tuple(int(x) for x in got) == _owner_codes(hands)


def test_owner_codes_of_any_later_position_come_from_the_first_one():
    """Cards leave play in any number and pattern, not only a trick at a time."""
    rng = np.random.default_rng(20261130)
    for _ in range(400):
        first = _deal(rng, 13)
        hands = first.copy()
        for seat in range(4):
            for b in range(64):
                if (int(hands[seat]) >> b) & 1 and rng.random() < 0.5:
                    hands[seat] ^= 1 << b
        alive = int(hands[0] | hands[1] | hands[2] | hands[3])
        got = codes_in_play(*rank_codes(*first), alive)
        assert tuple(int(x) for x in got) == _owner_codes(hands)


def test_w_sets_read_back_from_an_entry_are_the_cards_its_slots_fix():
    rng = np.random.default_rng(20261131)
    for _ in range(2000):
        alive = 0
        for s in range(4):
            alive |= int(rng.integers(0, 1 << 13)) << (16 * s)
        masks = [0, 0]
        want_top = want_bottom = 0
        for s in range(4):
            cards = [r for r in range(12, -1, -1) if (alive >> (16 * s + r)) & 1]  # top first
            n = len(cards)
            kt = int(rng.integers(0, n + 1))
            kb = int(rng.integers(0, n - kt + 1))
            field = 0
            for i in range(kt):
                field |= 3 << (2 * i)
            for i in range(kb):
                field |= 3 << (2 * (n - 1 - i))
            masks[s // 2] |= field << (32 * (s % 2))
            if kt + kb == n and n:
                # every card fixed: W names the suit's lowest card as its top cut
                want_top |= 1 << (16 * s + cards[-1])
            else:
                if kt:
                    want_top |= 1 << (16 * s + cards[kt - 1])
                if kb:
                    want_bottom |= 1 << (16 * s + cards[n - kb])
        got = w_from_masks(masks[0], masks[1], alive)
        assert (int(got[0]), int(got[1])) == (want_top, want_bottom)


def _pairs(rng: np.random.Generator, p: float) -> int:
    """A random mask of whole 2-bit slots: 13 a suit (a suit's field is 32 bits, two a word)."""
    m = 0
    for field in (0, 32):
        for slot in range(13):
            if rng.random() < p:
                m |= 3 << (field + 2 * slot)
    return m


def test_top_slot_words_decide_what_the_entry_rows_would():
    """A bucket scan reads an entry's row only where its top-slot word agrees with the
    position: the word must reject exactly the entries whose top four slots of some suit have
    other owners, and give their likeness as the full masks would."""
    rng = np.random.default_rng(20261129)
    for _ in range(3000):
        c0, c1 = (_pairs(rng, 1.0) & int(rng.integers(0, 1 << 62)) for _ in range(2))
        m0, m1 = _pairs(rng, 0.3), _pairs(rng, 0.3)
        # an entry's values: mostly this position's owners, some slots changed
        v0 = (c0 ^ _pairs(rng, 0.05) & int(rng.integers(0, 1 << 62))) & m0
        v1 = (c1 ^ _pairs(rng, 0.05) & int(rng.integers(0, 1 << 62))) & m1
        x0, x1 = (c0 ^ v0) & m0, (c1 ^ v1) & m1
        xt = top_mismatch(top_slots(c0, c1), top_word(m0, m1, v0, v1))
        top_differs = ((x0 | x1) & 0x000000FF000000FF) != 0
        assert (xt != 0) == top_differs
        if xt != 0:
            assert top_likeness(xt) == near_likeness(x0, x1)


def test_check_bytes_flag_exactly_the_entries_with_a_best_move():
    """The probe reads TAG_MOVE from the check bytes instead of the move field of each
    candidate's row (C_BND), so the two must agree in every slot, after stores that create
    entries and stores that give an existing entry its first best move, and after a position
    moved its entries to the large table."""
    rng = np.random.default_rng(20261129)
    solver = Solver(escalate_nodes=20_000)
    for k in range(6):
        deck = rng.permutation(52)
        hands = [sorted(int(c) for c in deck[13 * s : 13 * s + 13]) for s in range(4)]
        leader = k % 4
        solver.solve(hands, k % 5, leader, [leader, (leader + 2) % 4], "tricks")
        solver.solve(hands, k % 5, leader, [(leader + 3) % 4], ">=3")
    tt, tb, big_tt, big_tb = solver.tables[:4]
    assert big_tt.shape[0] > tt.shape[0]  # a position escalated
    for t, b in ((tt, tb), (big_tt, big_tb)):
        has_move = (t[:, C_BND] >> 16) != 0
        assert has_move.sum() > 1000
        np.testing.assert_array_equal(b[B_TAG] < 0, has_move)
