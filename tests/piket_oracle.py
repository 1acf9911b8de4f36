"""A plain minimax for two-handed piket trick play (docs/piket.md PK-10 … PK-13), without
pruning, without a table and without equivalent cards: every legal card of every trick is
tried. Written from the rules, apart from the solver, to check it (tests/test_games_piket.py).

A position: the cards each side still holds (lists of piket ids, suit * 8 + rank index,
7 … A = 0 … 7), who leads, elder's tricks so far, and elder's pic counter (his running total
while younger has scored nothing and pic is still to come; None when it no longer can).
The value is elder's points minus younger's from here on, pic bonus included.
"""

from __future__ import annotations

TRICKS = 12
SCORING_RANK = 3  # the 10
PIC_AT, PIC_BONUS = 30, 30


def _score(events: list[tuple[str, int]], pic: int | None) -> tuple[int, int | None]:
    """Apply the points in the order they fall; returns (elder minus younger, pic counter)."""
    total = 0
    for who, pts in events:
        if pts == 0:
            continue
        if who == "elder":
            total += pts
            if pic is not None:
                pic += pts
                if pic >= PIC_AT:
                    total += PIC_BONUS
                    pic = None
        else:
            total -= pts
            pic = None
    return total, pic


def value(elder: list[int], younger: list[int], leader: str, etr: int, pic: int | None) -> int:
    """The exact value of the rest of the play, by trying every legal card."""
    if not elder:
        ytr = TRICKS - etr
        if etr == TRICKS:
            events = [("elder", 40)]
        elif ytr == TRICKS:
            events = [("younger", 40)]
        elif etr > ytr:
            events = [("elder", 10)]
        elif ytr > etr:
            events = [("younger", 10)]
        else:
            events = []
        return _score(events, pic)[0]
    hands = {"elder": elder, "younger": younger}
    follower = "younger" if leader == "elder" else "elder"
    best = None
    for c1 in hands[leader]:
        same = [c for c in hands[follower] if c // 8 == c1 // 8]
        inner = None
        for c2 in same or hands[follower]:
            events = [(leader, 1 if c1 % 8 >= SCORING_RANK else 0)]
            follower_wins = c2 // 8 == c1 // 8 and c2 % 8 > c1 % 8
            winner = follower if follower_wins else leader
            if follower_wins:
                events.append((follower, 1 if c2 % 8 >= SCORING_RANK else 0))
            if len(elder) == 1:
                events.append((winner, 1))
            pts, p2 = _score(events, pic)
            rest = {leader: [c for c in hands[leader] if c != c1],
                    follower: [c for c in hands[follower] if c != c2]}  # fmt: skip
            v = pts + value(rest["elder"], rest["younger"], winner, etr + (winner == "elder"), p2)
            if inner is None or (v < inner if follower == "younger" else v > inner):
                inner = v
        if best is None or (inner > best if leader == "elder" else inner < best):
            best = inner
    return best
