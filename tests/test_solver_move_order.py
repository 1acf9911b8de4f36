"""Move ordering decides how soon a search cuts off, never its answer: positions where an
ordering rule is known to matter, each with a bound on its trick-start nodes."""

from __future__ import annotations

from analyser.solver import Solver
from analyser.solver.layout import S_TRICK_NODES


def _answer_and_nodes(hands, trump: int, leader: int, goal: str) -> tuple[int, int]:
    """North-South's answer to ``goal`` on a fresh solver, and the trick-start nodes it took."""
    solver = Solver()
    answer = solver.solve(hands, trump, leader, [0, 2], goal)
    return answer, int(solver.stats[S_TRICK_NODES])


def test_a_follower_wins_with_his_own_card_before_his_partner_ruffs():
    # Hearts trumps, North to lead; North-South need 2 of the 5 tricks and cannot get them.
    # North: CA CT C3 DJ D7, East: CQ C4 DQ D5 HT, South: C7 D9 D4 ST S9, West: DT D8 D6 D2
    # H7. After North's C3, East's CQ takes the trick whatever South plays and refutes; his
    # C4 does not (West's ruff with his only trump, or South's C7, gives North-South their
    # second trick). With the low card tried first (both were predicted to win, the C4 by
    # West's ruff) the position took 118 trick-start nodes, 112 of them after the C3; DDS
    # needs 6 (tests/bench/dds_diff.py on bench deal #99).
    hands = [[51, 47, 40, 35, 31], [49, 41, 36, 29, 21], [44, 33, 28, 8, 7], [34, 32, 30, 26, 18]]
    answer, nodes = _answer_and_nodes(hands, 1, 0, ">=2")
    assert answer == 0
    assert nodes <= 30


def test_a_lead_into_the_partners_ruff_comes_after_a_lead_that_wins_alone():
    # Hearts trumps, East to lead; North-South need 3 of the 6 tricks and cannot get them.
    # North: CA CT C3 DJ D7 HQ, East: CQ C4 C2 DQ D5 HT, South: C7 D9 D4 H3 ST S9, West: DT
    # D8 D6 D2 H7 H5. East's DQ or HT refutes; a club, which West would ruff, does not. With
    # the three club leads ordered first the position took 108 trick-start nodes, now 87;
    # DDS needs 17 (tests/bench/dds_diff.py on bench deal #99).
    hands = [
        [51, 47, 40, 35, 31, 23],
        [49, 41, 39, 36, 29, 21],
        [44, 33, 28, 14, 8, 7],
        [34, 32, 30, 26, 18, 16],
    ]
    answer, nodes = _answer_and_nodes(hands, 1, 1, ">=3")
    assert answer == 0
    assert nodes <= 95


def _cards(text: str) -> list[int]:
    """'CA CQ ...' as card ints (suit S H D C = 0..3, rank 2..A = 0..12)."""
    return ["SHDC".index(c[0]) * 13 + "23456789TJQKA".index(c[1]) for c in text.split()]


def test_a_lead_under_the_last_hands_high_card_comes_after_the_others():
    # No trump, North to lead; North-South need 7 tricks and take them. North's CA, cashed
    # under West's CK (West plays last to North's lead and holds three clubs), was the first
    # lead tried and fails, and proving that took most of the 21,873 trick-start nodes the
    # position needed; the diamond and heart leads win (DDS needs 2,131 nodes; bench deal #63,
    # tests/bench/dds_diff.py). Now 4,096.
    hands = [
        _cards("CA CQ CT C7 DA D2 HA HT H2 SJ S7 S3 S2"),
        _cards("C6 C4 C3 DQ D6 D5 D4 HQ H8 H7 SA ST S4"),
        _cards("CJ C8 C5 DK DT D7 H9 H6 SQ S9 S8 S6 S5"),
        _cards("CK C9 C2 DJ D9 D8 D3 HK HJ H5 H4 H3 SK"),
    ]
    answer, nodes = _answer_and_nodes(hands, 4, 0, ">=7")
    assert answer == 1
    assert nodes <= 8000


def test_a_lead_under_the_leaders_own_top_card_comes_after_the_others():
    # No trump, East to lead; North-South need 5 of the 10 tricks and cannot get them. East
    # holds CA CJ C4: the C4 and the CJ (underleading his own ace) fail to refute, a spade
    # honour or the H3 refutes. With the two club leads tried before the spades the position
    # took 19,763 trick-start nodes (DDS: 6,551; deal #87 of seed 9001, tests/bench/dds_diff.py
    # --seed 9001); now 15,748.
    hands = [
        _cards("CK C9 C5 C3 C2 HA HJ SA S9 S2"),
        _cards("CA CJ C4 D8 H3 SQ SJ ST S8 S5"),
        _cards("C7 DJ DT D7 D4 D2 SK S6 S4 S3"),
        _cards("CQ CT C8 C6 DA D5 HK H4 H2 S7"),
    ]
    answer, nodes = _answer_and_nodes(hands, 4, 1, ">=5")
    assert answer == 0
    assert nodes <= 17000


def test_the_third_hand_covers_a_card_the_fourth_hand_beats_before_playing_low():
    # Diamonds trumps, South to lead; North-South need 4 of the 7 tricks and take them.
    # North: SA S8 S7 S3 D9 D5 D4, East: DJ D8 D7 D3 D2 CA CJ, South: SK SQ S5 H9 DA DQ D6,
    # West: ST S9 HA HK HJ H4 DT. With the third hand's lowest card tried first where a higher
    # one beats the second hand's card (and the fourth hand beats both) the position took
    # 229 trick-start nodes; covering first (moves.COVER_BONUS) takes 114.
    hands = [
        _cards("SA S8 S7 S3 D9 D5 D4"),
        _cards("DJ D8 D7 D3 D2 CA CJ"),
        _cards("SK SQ S5 H9 DA DQ D6"),
        _cards("ST S9 HA HK HJ H4 DT"),
    ]
    answer, nodes = _answer_and_nodes(hands, 2, 2, ">=4")
    assert answer == 1
    assert nodes <= 150


def test_a_ruff_that_an_opponent_overruffs_comes_before_a_discard():
    # Diamonds trumps, South to lead; North-South need 5 of the 7 tricks and cannot get them.
    # North: S7 S2 HA HK DT D7 D5, East: DA DQ D3 CT C9 C7 C3, South: S4 H8 DJ D9 D8 CK CJ,
    # West: S9 HT H9 H3 D6 D4 D2. A ruff that a later opponent overruffs counted as a wasted
    # trump and came after every discard: the position took 324 trick-start nodes; with the
    # forcing ruff weighed up (moves.FORCING_RUFF_BONUS) it takes 57.
    hands = [
        _cards("S7 S2 HA HK DT D7 D5"),
        _cards("DA DQ D3 CT C9 C7 C3"),
        _cards("S4 H8 DJ D9 D8 CK CJ"),
        _cards("S9 HT H9 H3 D6 D4 D2"),
    ]
    answer, nodes = _answer_and_nodes(hands, 2, 2, ">=5")
    assert answer == 0
    assert nodes <= 100


def test_a_discard_from_a_guarded_second_card_comes_after_the_others():
    # Hearts trumps, East to lead; North-South need 1 of the 7 tricks and take it.
    # North: S6 S2 DJ D7 D6 C4 C3, East: SQ S5 S4 HA D2 C9 C7, South: HQ DA CK CJ C8 C6 C5,
    # West: DK DQ D9 D8 CA CQ C2. A discard from a doubleton headed by the suit's second card
    # in play (a king under the ace, guarded by a small card) came with the other discards:
    # the position took 167 trick-start nodes; weighed down (moves.GUARD_DISCARD_PENALTY) 39.
    hands = [
        _cards("S6 S2 DJ D7 D6 C4 C3"),
        _cards("SQ S5 S4 HA D2 C9 C7"),
        _cards("HQ DA CK CJ C8 C6 C5"),
        _cards("DK DQ D9 D8 CA CQ C2"),
    ]
    answer, nodes = _answer_and_nodes(hands, 1, 1, ">=1")
    assert answer == 1
    assert nodes <= 80
