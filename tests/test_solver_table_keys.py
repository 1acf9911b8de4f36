"""The table's keys: the key and owner codes the search carries from one trick boundary to
the next (table_keys.after_trick) equal those computed afresh from the hands (length_key,
owner_codes), an entry's top-slot word rejects what its row would (top_word), and a slot's
check byte says whether its entry holds a best move (table.TAG_MOVE)."""

from __future__ import annotations

import numpy as np

from analyser.solver.api import Solver
from analyser.solver.layout import N_CARD, N_COLS, N_SEAT
from analyser.solver.table import B_TAG, C_BND, near_likeness
from analyser.solver.table_keys import (
    after_trick,
    length_key,
    owner_codes,
    top_likeness,
    top_mismatch,
    top_slots,
    top_word,
)


def _bit(card: int) -> int:
    return 16 * (card // 13) + card % 13


def test_codes_after_a_trick_match_a_fresh_computation():
    rng = np.random.default_rng(20261124)
    for _ in range(400):
        n = int(rng.integers(2, 14))  # cards per hand before the trick
        deck = rng.permutation(52)[: 4 * n]
        hands = np.zeros(4, np.int64)
        for seat in range(4):
            for c in deck[seat * n : (seat + 1) * n]:
                hands[seat] |= 1 << _bit(int(c))
        before = hands.copy()
        key, c0, c1 = length_key(*before), *owner_codes(*before)
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
        got = after_trick(key, c0, c1, alive, node, d0)
        want = (length_key(*hands), *owner_codes(*hands))
        assert tuple(int(x) for x in got) == tuple(int(x) for x in want)


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
