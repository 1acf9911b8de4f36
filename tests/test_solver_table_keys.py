"""The table key and owner codes the search carries from one trick boundary to the next
(table.after_trick) equal those computed afresh from the hands (length_key, owner_codes)."""

from __future__ import annotations

import numpy as np

from analyser.solver.table import after_trick, length_key, owner_codes


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
        card = np.zeros(8, np.int64)
        seat_at = np.zeros(8, np.int64)
        d0 = int(rng.integers(0, 5))
        for k, seat in enumerate(order):
            h = int(hands[seat])
            bits = [b for b in range(64) if (h >> b) & 1]
            b = bits[int(rng.integers(len(bits)))]
            card[d0 + k] = b
            seat_at[d0 + k] = seat
            hands[seat] ^= 1 << b
        alive = int(hands[0] | hands[1] | hands[2] | hands[3])
        got = after_trick(key, c0, c1, alive, card, seat_at, d0)
        want = (length_key(*hands), *owner_codes(*hands))
        assert tuple(int(x) for x in got) == tuple(int(x) for x in want)
