"""The search tries a hinted move (the table's best move or the cut-off cache's card) before it
generates the others (most hinted moves cut off): the move it builds for the hinted card must
be the one move generation gives for it, or node counts and answers would change."""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from analyser.solver.first_moves import hinted_run, legal_cards
from analyser.solver.moves import gen_moves
from analyser.solver.state import Moves, Rules, Turn


@njit(cache=False)
def _moves_and_hints(hands, p, pos, lead_suit, alive):
    """gen_moves' runs for seat ``p``, and hinted_run of every card bit 0..63."""
    turn = Turn(0, p, pos, lead_suit, 0, 0, 0, alive)
    side = np.array([1, 0, 1, 0], np.int64)
    rules = Rules(4, side, side, 0, -1, -1, False)
    moves = Moves(np.empty((1, 14), np.int64), np.empty((1, 14), np.int64), np.empty(14, np.int64))
    n = gen_moves(rules, hands, turn, 0, moves)
    legal = legal_cards(hands[p], turn)
    hinted = np.zeros(64, np.int64)
    for b in range(64):
        hinted[b] = hinted_run(hands[p], alive, legal, b)
    return moves.mv[0, :n].copy(), moves.run[0, :n].copy(), legal, hinted


def _position(rng: random.Random):
    """A random position with part of the deck gone and 0..3 cards on the table."""
    cards = [16 * s + r for s in range(4) for r in range(13)]
    rng.shuffle(cards)
    per_hand = rng.randint(1, 12)
    hands = np.zeros(4, np.int64)
    for q in range(4):
        for c in cards[q * per_hand : (q + 1) * per_hand]:
            hands[q] |= 1 << c
    pos = rng.randint(0, 3)
    table = cards[4 * per_hand : 4 * per_hand + pos]
    alive = int(hands[0] | hands[1] | hands[2] | hands[3])
    for c in table:
        alive |= 1 << c
    lead_suit = table[0] >> 4 if pos else -1
    return hands, rng.randint(0, 3), pos, lead_suit, alive


def test_the_hinted_move_is_the_move_generation_gives_for_its_card():
    rng = random.Random(20261130)
    for _ in range(3000):
        hands, p, pos, lead_suit, alive = _position(rng)
        mv, run, legal, hinted = _moves_and_hints(hands, p, pos, lead_suit, alive)
        assert int(np.bitwise_or.reduce(run)) == legal
        for b in range(64):
            if (legal >> b) & 1:
                (i,) = [i for i in range(len(run)) if (run[i] >> b) & 1]
                assert hinted[b] == run[i]
                assert mv[i] == (int(hinted[b]) & -int(hinted[b])).bit_length() - 1
            else:
                assert hinted[b] == 0
