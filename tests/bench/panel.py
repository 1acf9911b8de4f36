"""The benchmark's panel of hands: the hands players ask about, drawn with a fixed seed.

Seven hands in each of six kinds (42 in all), each drawn uniformly from the 13-card hands that
fit its kind, with a seat 1..4 drawn beside it:

* ``two-suiter``: two suits of 5+ cards each (11+ together) and a void;
* ``long suit``: one suit of 7-9 cards, no other suit of 5+;
* ``misere``: no ace, no king, at most 4 HIGH cards (10 and up), no suit of 6+;
* ``aces``: 3 or 4 aces;
* ``rik``: 2 aces at most, a 5-6 card suit with 3+ HIGH cards in it, 13+ HIGH-card points
  (A 4, K 3, Q 2, J 1);
* ``weak``: at most 7 HIGH-card points and no suit of 6+.

``python tests/bench/panel.py`` prints the panel.
"""

from __future__ import annotations

import random

SEED = 20261125
PER_KIND = 7
KINDS = ("two-suiter", "long suit", "misere", "aces", "rik", "weak")
POINTS = {12: 4, 11: 3, 10: 2, 9: 1}  # ace, king, queen, jack (rank indices)


def _lengths(hand: list[int]) -> list[int]:
    return [sum(1 for c in hand if c // 13 == s) for s in range(4)]


def _points(hand: list[int]) -> int:
    return sum(POINTS.get(c % 13, 0) for c in hand)


def _aces(hand: list[int]) -> int:
    return sum(1 for c in hand if c % 13 == 12)


def fits(kind: str, hand: list[int]) -> bool:
    """True if ``hand`` (13 card ints) belongs to ``kind``."""
    ln = sorted(_lengths(hand), reverse=True)
    if kind == "two-suiter":
        return ln[1] >= 5 and ln[0] + ln[1] >= 11 and ln[3] == 0
    if kind == "long suit":
        return 7 <= ln[0] <= 9 and ln[1] < 5
    if kind == "misere":
        high = sum(1 for c in hand if c % 13 >= 8)
        return not any(c % 13 >= 11 for c in hand) and high <= 4 and ln[0] <= 5
    if kind == "aces":
        return _aces(hand) >= 3
    if kind == "rik":
        if _aces(hand) > 2 or _points(hand) < 13:
            return False
        for s, n in enumerate(_lengths(hand)):
            if 5 <= n <= 6 and sum(1 for c in hand if c // 13 == s and c % 13 >= 8) >= 3:
                return True
        return False
    if kind == "weak":
        return _points(hand) <= 7 and ln[0] <= 5
    raise ValueError(kind)


def panel(seed: int = SEED) -> list[tuple[str, list[int], int]]:
    """(kind, hand as sorted card ints, seat 1..4) for every hand of the panel."""
    rng = random.Random(seed)
    out = []
    for kind in KINDS:
        got = 0
        while got < PER_KIND:
            hand = sorted(rng.sample(range(52), 13))
            if fits(kind, hand):
                out.append((kind, hand, rng.randint(1, 4)))
                got += 1
    return out


if __name__ == "__main__":
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent.parent))
    from analyser.notation import format_hand

    for kind, hand, seat in panel():
        print(f"{kind:<11} seat {seat}  {format_hand(hand)}")
