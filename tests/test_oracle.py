"""The brute-force oracle (tests/oracle.py) checked against DDS and against hand-solved positions.

Hand positions are written as PBN deals starting at North (spades.hearts.diamonds.clubs).
"""

from __future__ import annotations

import random

import pytest
from dds_ref import (
    dd_table,
    hands_from_deal,
    hands_from_pbn,
    leader_side_tricks,
    leader_side_tricks_many,
    pbn_deal,
    side_tricks,
    to_deal,
)
from oracle import legal_cards, oracle_solve, position_text, random_ending, trick_winner

from analyser.cards import CLUBS, DIAMONDS, HEARTS, NOTRUMP, SPADES, card

N, E, S, W = 0, 1, 2, 3
NT = NOTRUMP


def c(text: str) -> int:
    """A card from e.g. "DA" or "S3" (suit letter, rank character)."""
    return card("SHDC".index(text[0]), "23456789TJQKA".index(text[1]))


def bits(*cards: str) -> int:
    """The oracle's hand representation (bit c = card c) of some cards."""
    return sum(1 << c(x) for x in cards)


# ------------------------------------------------------------------ DDS conventions and oracle


SUIT_PER_SEAT = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_pbn_round_trip_and_endplay_deal():
    rng = random.Random(7)
    for n in (1, 5, 13):
        hands = random_ending(rng, n)
        assert hands_from_pbn(pbn_deal(hands)) == hands
        assert hands_from_deal(to_deal(hands, 2, 3)) == hands
    # A deal string may start at any seat: here E holds the ace, S the king, W the queen.
    assert hands_from_pbn("E:A... K... Q... J...") == [[9], [12], [11], [10]]


def test_dds_table_convention_on_known_deal():
    # Each seat holds a whole suit: N spades, E hearts, S diamonds, W clubs. The declarer's
    # left-hand opponent leads and cashes his suit at no trump, so every NT entry is 0; with
    # spades trump, N ruffs the opening lead and takes all 13, whoever leads to him.
    hands = hands_from_pbn(SUIT_PER_SEAT)
    table = dd_table(hands)
    assert table[NT] == [0, 0, 0, 0]
    assert table[SPADES] == [13, 0, 13, 0]
    assert table[HEARTS] == [0, 13, 0, 13]
    # Same through solve_board: the score is for the side on lead.
    assert leader_side_tricks(hands, SPADES, E) == 0  # E leads a heart, N ruffs
    assert leader_side_tricks(hands, NT, E) == 13  # E cashes thirteen hearts
    assert side_tricks(hands, SPADES, E, N) == 13


def test_dds_ending_convention():
    # 2-card ending at no trump: N AK of spades, E QJ of spades, S and W small hearts. With E on
    # lead EW take nothing (E must lead into the AK); DDS scores the side on lead.
    hands = hands_from_pbn("N:AK... QJ... .32.. .54..")
    assert leader_side_tricks(hands, NT, E) == 0
    assert side_tricks(hands, NT, E, S) == 2
    assert leader_side_tricks(hands, NT, S) == 0  # S leads a heart, W wins, W leads a heart
    assert oracle_solve(hands, NT, S, (N, S)) == 0
    assert oracle_solve(hands, NT, N, (N, S)) == 2


def _random_boards(seed: int, sizes: dict[int, int]):
    rng = random.Random(seed)
    boards = []
    for n, count in sizes.items():
        for _ in range(count):
            hands = random_ending(rng, n, rng.choice([None, 2, 3]))
            boards.append((hands, rng.randrange(5), rng.randrange(4), rng.randrange(2)))
    return boards


def test_oracle_matches_dds_on_random_endings():
    # 300 endings, partners opposite, no called card. The oracle is asked for either the side on
    # lead or the other side, so both conventions are exercised.
    boards = _random_boards(2024, {1: 40, 2: 80, 3: 100, 4: 60, 5: 20})
    dds = leader_side_tricks_many([(h, t, lead) for h, t, lead, _ in boards])
    bad = []
    for (hands, trump, leader, other), lead_side in zip(boards, dds, strict=True):
        side = ((leader + other) % 4, (leader + other + 2) % 4)
        want = len(hands[0]) - lead_side if other else lead_side
        got = oracle_solve(hands, trump, leader, side)
        if got != want:
            bad.append(f"{position_text(hands, trump, leader, side)}: dds {want} oracle {got}")
    assert not bad, "\n".join(bad[:10])


def test_oracle_matches_dds_via_solve_board_per_card():
    # solve_board scores every card the leader may lead; the oracle's value is their maximum.
    rng = random.Random(99)
    for _ in range(40):
        n = rng.randint(1, 4)
        hands, trump, leader = random_ending(rng, n, 2), rng.randrange(5), rng.randrange(4)
        assert oracle_solve(hands, trump, leader, (leader, (leader + 2) % 4)) == (
            leader_side_tricks(hands, trump, leader)
        ), position_text(hands, trump, leader, (leader, (leader + 2) % 4))


# ------------------------------------------------------------------ internal consistency


SIDES = [(N,), (E,), (S,), (W,), (N, E), (E, S), (S, W), (W, N), (N, S), (E, W)]


def test_ge_is_the_threshold_of_tricks_and_tricks_are_zero_sum():
    rng = random.Random(11)
    for _ in range(150):
        n = rng.randint(1, 4)
        hands, trump, leader = random_ending(rng, n, rng.choice([None, 2])), rng.randrange(5), 0
        leader = rng.randrange(4)
        side = rng.choice(SIDES)
        called = rng.choice([None, rng.choice(hands[rng.randrange(4)])])
        flag = rng.random() < 0.5
        kw = {"called": called, "called_card_may_be_discarded": flag}
        exact = oracle_solve(hands, trump, leader, side, **kw)
        where = position_text(hands, trump, leader, side, "tricks", called, flag)
        for k in range(1, n + 1):
            assert oracle_solve(hands, trump, leader, side, f">={k}", **kw) == int(exact >= k), (
                where
            )
        rest = tuple(s for s in range(4) if s not in side)
        assert exact + oracle_solve(hands, trump, leader, rest, **kw) == n, where


def test_one_card_piek_is_winning_the_trick():
    # With one card each, taking exactly one trick is taking the trick.
    rng = random.Random(5)
    for _ in range(100):
        hands, trump, leader, seat = random_ending(rng, 1), rng.randrange(5), 0, rng.randrange(4)
        leader = rng.randrange(4)
        assert oracle_solve(hands, trump, leader, seat, "piek") == oracle_solve(
            hands, trump, leader, seat
        )


# ------------------------------------------------------------------ rules of play


def test_trick_winner():
    assert trick_winner([c("S2"), c("SA"), c("H3"), c("SK")], N, NT) == E
    assert trick_winner([c("S2"), c("SA"), c("H3"), c("SK")], W, HEARTS) == E  # W+2 played H3
    # S leads D5, W ruffs with C2, N plays DA, E overruffs with C3 and wins.
    assert trick_winner([c("D5"), c("C2"), c("DA"), c("C3")], S, CLUBS) == E
    assert trick_winner([c("D5"), c("HA"), c("D4"), c("D2")], E, NT) == E  # off-suit ace loses


def test_follow_suit_and_free_discard():
    hand = bits("S2", "SK", "H4")
    assert legal_cards(hand, (c("S5"),), None, True, True) == [c("S2"), c("SK")]
    assert legal_cards(hand, (c("D5"),), None, True, True) == [c("S2"), c("SK"), c("H4")]
    assert legal_cards(hand, (), None, True, True) == [c("S2"), c("SK"), c("H4")]


def test_called_card_obligation_in_legal_cards():
    hand = bits("DA", "D3", "S4")
    da = c("DA")
    # (2) leading the called suit first: only the called card, other suits stay free.
    assert legal_cards(hand, (), da, True, True) == [c("S4"), da]
    # (1) first lead of the called suit by someone else: the called card, not the 3.
    assert legal_cards(hand, (c("D5"),), da, True, True) == [da]
    # Once the suit has been led, nothing is forced any more.
    assert legal_cards(hand, (c("D5"),), da, False, True) == [c("D3"), da]
    assert legal_cards(hand, (), da, False, True) == [c("S4"), c("D3"), da]
    # Void in the led suit: the called card may go (flag on), may not (flag off) ...
    assert legal_cards(hand, (c("H5"),), da, True, True) == [c("S4"), c("D3"), da]
    assert legal_cards(hand, (c("H5"),), da, True, False) == [c("S4"), c("D3")]
    # ... unless it is the holder's last card.
    assert legal_cards(bits("DA"), (c("H5"),), da, True, False) == [da]
    # A player without the called card is not bound.
    assert legal_cards(bits("D3", "D4"), (c("D5"),), da, True, False) == [c("D3"), c("D4")]


# ------------------------------------------------------------------ hand-solved positions


def test_misere_all_low_cards():
    # N holds the lowest spade and the lowest heart and everyone can follow both suits:
    # N never wins a trick, whatever anybody does. Misère made, piek failed (0 tricks).
    hands = hands_from_pbn("N:2.2.. A.A.. K.K.. Q.Q..")
    assert oracle_solve(hands, NT, N, N) == 0
    assert oracle_solve(hands, NT, N, N, "misere") == 1
    assert oracle_solve(hands, NT, N, N, "piek") == 0


def test_misere_and_piek_need_the_right_discard():
    # N: SA C2. E leads a heart (E has only hearts); S and W follow, N is void.
    # Misère: N must throw the SA now, else W (winning with H6) leads S5 and the SA must win.
    # Piek: N keeps the SA, throws C2, and wins exactly the spade trick.
    hands = hands_from_pbn("N:A...2 .43.. 3.5.. 5.6..")
    assert oracle_solve(hands, NT, E, N, "misere") == 1
    assert oracle_solve(hands, NT, E, N, "piek") == 1
    assert oracle_solve(hands, NT, E, N) == 1


def test_misere_fails_with_a_forced_winner():
    # N: SA H2, everyone else one spade and one heart, all lower. Whenever spades are led N
    # must follow with the ace (and he cannot avoid leading it either): one trick, exactly.
    hands = hands_from_pbn("N:A.2.. 3.3.. 4.4.. 5.5..")
    assert oracle_solve(hands, NT, E, N, "misere") == 0
    assert oracle_solve(hands, NT, E, N, "piek") == 1
    # Two aces: both win, so piek fails too (a second trick is as bad as none).
    hands = hands_from_pbn("N:A.A.. 3.3.. 4.4.. 5.5..")
    assert oracle_solve(hands, NT, E, N) == 2
    assert oracle_solve(hands, NT, E, N, "piek") == 0
    assert oracle_solve(hands, NT, E, N, "misere") == 0


def test_misere_with_trump_forced_ruff():
    # Hearts trump. N: H2 C2; E: D3 C3; S: D5 D4; W: D7 D6; E leads. Every trick but a club one
    # is a diamond trick, and N's H2 must go on one of them (a club lead takes his C2, a diamond
    # lead leaves him void): the only trump, it wins. At no trump the H2 is a harmless discard.
    hands = hands_from_pbn("N:.2..2 ..3.3 ..54. ..76.")
    assert oracle_solve(hands, HEARTS, E, N, "misere") == 0
    assert oracle_solve(hands, NT, E, N, "misere") == 1


def test_adjacent_and_opposite_partners():
    # One card each, N leads S2, E SA, S SK, W SQ: E wins. Every side holding E takes it,
    # including the adjacent pairs NE and ES; the side W+N (adjacent across the wrap) does not.
    hands = hands_from_pbn("N:2... A... K... Q...")
    results = {side: oracle_solve(hands, NT, N, side) for side in SIDES}
    assert results == {side: int(E in side) for side in SIDES}


def test_lone_declarer_against_three():
    # N: SA SK; E: SQ HA; S: SJ HK; W: HQ HJ; W leads a heart, N is void.
    # Alone, N loses trick 1 to the HA but then E (or S) must lead a spade into the AK: 1 trick.
    # With E as partner (adjacent), E's HA takes trick 1 too: 2. With S opposite: still 1.
    hands = hands_from_pbn("N:AK... Q.A.. J.K.. .QJ..")
    assert oracle_solve(hands, NT, W, N) == 1
    assert oracle_solve(hands, NT, W, (N, E)) == 2
    assert oracle_solve(hands, NT, W, (N, S)) == 1
    assert oracle_solve(hands, NT, W, (E, S, W)) == 1


def test_called_ace_must_crash_partners_king():
    # Rule (1). N: SA SK DK; E: DQ DT C5; S: DA D2 C2; W: DJ D9 C3. NT, E leads, NS declare,
    # the DA (held by S) is called. Free, S ducks the first diamond under N's singleton DK and
    # later wins a diamond with the ace, N also cashes the spades: 2 tricks (E first leads C5).
    # With the obligation S must drop the DA on the first diamond, crashing the DK; S is then on
    # lead with D2/C2 and never reaches N's spades: 1 trick.
    hands = hands_from_pbn("N:AK..K. ..QT.5 ..A2.2 ..J9.3")
    assert oracle_solve(hands, NT, E, (N, S)) == 2
    assert oracle_solve(hands, NT, E, (N, S), called=c("DA")) == 1
    assert (
        oracle_solve(hands, NT, E, (N, S), called=c("DA"), called_card_may_be_discarded=False) == 1
    )


def test_holder_leading_the_called_suit_must_lead_the_called_card():
    # Rule (2). N: SA DK; E: DT D9; S: DA D2; W: DQ DJ. NT, S leads, NS declare, DA called.
    # Free, S leads D2 to the singleton DK and N cashes the SA (the DA falls on it): 2 tricks.
    # With the obligation S (who holds only diamonds) must lead the DA, crashing the DK; his D2
    # then loses to W's DQ: 1 trick.
    hands = hands_from_pbn("N:A..K. ..T9. ..A2. ..QJ.")
    assert oracle_solve(hands, NT, S, (N, S)) == 2
    assert oracle_solve(hands, NT, S, (N, S), called=c("DA")) == 1


def test_discarding_the_called_card_may_be_allowed_or_not():
    # N: SA S3; E: S4 H2; S: S5 D4; W: SJ HT. NT, E leads, N and E (adjacent) declare, the
    # called card is N's S3. No called card: E leads S4, N wins the SA and cashes the S3: 2.
    # Called S3: a spade lead would force the S3 under W's jack, so E leads H2 instead; W wins
    # with the HT and N, void in hearts, throws the S3 (allowed) keeping the SA for W's spade
    # return: 1. If the called card may not be discarded, N must throw the SA and takes nothing.
    hands = hands_from_pbn("N:A3... 4.2.. 5.4.. J.T..")
    s3 = c("S3")
    assert oracle_solve(hands, NT, E, (N, E)) == 2
    assert oracle_solve(hands, NT, E, (N, E), called=s3) == 1
    assert oracle_solve(hands, NT, E, (N, E), called=s3, called_card_may_be_discarded=False) == 0


def test_called_card_held_by_a_defender():
    # The obligation binds whoever holds the card. N: HK H8; E: HJ H5; S: S3 H3; W: S9 H6.
    # NT, N leads, NS declare. Free, E covers whichever heart N leads second with the HJ: 1.
    # With the HJ called, E must drop it under N's HK at once, and the H8 wins trick 2: 2.
    hands = hands_from_pbn("N:.K8.. .J5.. 3.3.. 9.6..")
    assert oracle_solve(hands, NT, N, (N, S)) == 1
    assert oracle_solve(hands, NT, N, (N, S), called=c("HJ")) == 2


def test_bad_input_is_rejected():
    with pytest.raises(ValueError):
        oracle_solve([[0], [1], [2]], NT, N, N)
    with pytest.raises(ValueError):
        oracle_solve([[0], [1], [2], [3, 4]], NT, N, N)
    with pytest.raises(ValueError):
        oracle_solve([[0], [1], [2], [2]], NT, N, N)
    with pytest.raises(ValueError):
        oracle_solve([[0], [1], [2], [3]], NT, N, N, "slam")


def test_constants_used_in_positions():
    assert (c("SA"), c("H2"), c("D2"), c("CA")) == (card(SPADES, 12), 13, 26, card(CLUBS, 12))
    assert c("DA") // 13 == DIAMONDS
