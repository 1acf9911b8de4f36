"""Quick tricks (quick_tricks.quick_tricks) are a lower bound of the leader's side's tricks.

The count settles search nodes, so it must never exceed what best defence allows. DDS gives
the true value of random endings (partners opposite); one fixed ending pins the plan in which
the leader cashes his winners, crosses to his partner's top cards, and the partner throws the
low cards of his own long suit (and cashes one round fewer) to keep up with the leader."""

from __future__ import annotations

import random

import numpy as np
from dds_ref import hands_from_pbn, leader_side_tricks, leader_side_tricks_many
from oracle import oracle_solve, random_ending

from analyser.cards import NOTRUMP, SOUTH, SPADES, cards_to_mask
from analyser.solver.quick_cross import finesse_rounds
from analyser.solver.quick_runs import Duty, caps_after_draw, ruff_caps, suit_runs
from analyser.solver.quick_tricks import qt_ceiling, quick_tricks


def _quick(hands, trump: int, leader: int) -> int:
    """quick_tricks for the side of ``leader`` (partners opposite, no called card)."""
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([1 if (p - leader) % 2 == 0 else 0 for p in range(4)], np.int64)
    return int(quick_tricks(masks, leader, trump, side, -1, -1, 0)[0])


def _assert_within_dds(boards, counts) -> None:
    """No count exceeds DDS's tricks for the leader's side on its board, and the bound is
    not vacuous: it reaches the true value on more than a fifth of the boards."""
    dds = leader_side_tricks_many(boards)
    over = [(b, q, d) for b, q, d in zip(boards, counts, dds, strict=True) if q > d]
    assert not over, over[:3]
    assert sum(q == d for q, d in zip(counts, dds, strict=True)) > len(boards) // 5


def test_partner_throws_spare_low_cards_of_the_suit_he_cashes_later():
    # South cashes the top trump and four clubs; North throws DT3 and his low hearts, keeping
    # HA HK; South's H3 then crosses to them. Seven tricks of seven, though North could not
    # keep all five hearts and both diamonds through South's five rounds.
    hands = hands_from_pbn("N:.AKQ84.T3. .62.864.J7 8.3.K.AK42 .JT975.A9.")
    assert leader_side_tricks(hands, SPADES, SOUTH) == 7
    assert _quick(hands, SPADES, SOUTH) == 7


def test_quick_tricks_never_exceed_dds_on_random_endings():
    rng = random.Random(20261122)
    boards, counts = [], []
    while len(boards) < 1500:
        size = rng.choice((5, 6, 7, 8))
        hands = random_ending(rng, size, rng.choice((3, 4)))
        trump = rng.choice((SPADES, 1, 2, 3, NOTRUMP))
        leader = rng.randrange(4)
        q = _quick(hands, trump, leader)
        if q >= 2:  # a count of 0 or 1 is rarely wrong; keep the endings where it claims more
            boards.append((hands, trump, leader))
            counts.append(q)
    _assert_within_dds(boards, counts)


def _random_layouts(rng: random.Random, n: int):
    """``n`` random endings with every side layout (1 vs 3, adjacent, opposite), trumps or
    not, a random leader, and sometimes a pending called card held by the leader's side."""
    for _ in range(n):
        size = rng.choice((3, 5, 7, 9, 13))
        hands = random_ending(rng, size, rng.choice((2, 3, 4)))
        masks = np.array([cards_to_mask(h) for h in hands], np.int64)
        trump = rng.choice((SPADES, 1, 2, 3, NOTRUMP))
        leader = rng.randrange(4)
        decl = rng.choice((1, 3, 5, 9, 6, 10, 12))
        side = np.array([(decl >> p) & 1 for p in range(4)], np.int64)
        called_bit, holder, pend = -1, -1, 0
        if rng.random() < 0.3:
            holder = rng.randrange(4)
            c = rng.choice(hands[holder])
            called_bit, pend = 16 * (c // 13) + c % 13, 1
        yield masks, trump, leader, side, called_bit, holder, pend, size


def test_quick_tricks_ceiling_bounds_the_count():
    # qt_ceiling gates quick_tricks in the search: a ceiling below the count would only cost
    # cut-offs, but it is meant to be an upper bound, and the gate's worth depends on it
    rng = random.Random(20261124)
    tight = 0
    for masks, trump, leader, side, cb, holder, pend, _ in _random_layouts(rng, 4000):
        q = int(quick_tricks(masks, leader, trump, side, cb, holder, pend)[0])
        ceiling = int(qt_ceiling(masks, leader, trump, side))
        assert q <= ceiling, (masks.tolist(), trump, leader, side.tolist(), q, ceiling)
        tight += q == ceiling and q > 0
    assert tight > 1000  # the ceiling is reached, not vacuous


def test_ceiling_without_a_way_to_the_partner_counts_the_leaders_runs_only():
    # North's four top hearts count for nothing: South, on lead, holds no heart, and North
    # neither tops a suit South can lead to him nor could ruff one (no trumps). The count
    # is South's three spades, and so is the ceiling (it was 7 before it knew about entries).
    hands = hands_from_pbn("N:.AKQJ.. 5432... AKQ..2. ..AKQJ.")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([1, 0, 1, 0], np.int64)
    assert int(quick_tricks(masks, SOUTH, NOTRUMP, side, -1, -1, 0)[0]) == 3
    assert int(qt_ceiling(masks, SOUTH, NOTRUMP, side)) == 3
    # give South a low heart, an entry to North's hearts: the ceiling counts them again
    hands = hands_from_pbn("N:.AKQJ.. 5432... AKQ.2.. ..AKQJ.")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    assert int(qt_ceiling(masks, SOUTH, NOTRUMP, side)) == 7


def test_ceiling_caps_a_side_suit_an_opponent_could_ruff():
    # East, with a trump, is void in clubs: no plan cashes South's clubs, whose ceiling is
    # then the one trick a ruff by North could make of a club lead
    hands = hands_from_pbn("N:2... 3.5432.. ...AKQJ .AKQJ..")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([1, 0, 1, 0], np.int64)
    assert int(qt_ceiling(masks, SOUTH, SPADES, side)) == 1


def test_ceiling_counts_one_ruff_for_the_suits_the_opponents_top_or_could_ruff():
    # diamonds trump, West leads for East-West. North, with trumps, is void in spades and
    # hearts (East's SA and HJ capped to nothing) and tops clubs: each of the three suits
    # could only be the one ruff of a plan, so the ceiling is 1, which is the count (it
    # counted a trick for each of them before)
    hands = hands_from_pbn("N:..JT8.A9 AT2.J.Q. J87..K.6 ..9765.T")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([0, 1, 0, 1], np.int64)
    assert int(quick_tricks(masks, 3, 2, side, -1, -1, 0)[0]) == 1
    assert int(qt_ceiling(masks, 3, 2, side)) == 1


def test_ceiling_lets_the_leaders_trump_rounds_draw_trumps_below_his_top():
    # hearts trump, West leads for East-West. His HK-9-7 draw North's H82 and South's HT in
    # three rounds (the T falls under the king, the 8 under the 9), so drawn_plan cashes his
    # DK uncapped: 4 tricks. The ceiling let only his trumps above every opponent's (the
    # king) draw, and said 3
    hands = hands_from_pbn("N:.82..AKJ .6.7.654 54.T.QJ. .K97.K8.")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([0, 1, 0, 1], np.int64)
    assert int(quick_tricks(masks, 3, 1, side, -1, -1, 0)[0]) == 4
    assert int(qt_ceiling(masks, 3, 1, side)) >= 4


def test_quick_tricks_with_a_decisive_count_settles_as_the_full_count():
    # with ``decisive`` the partner's plans are skipped when they cannot reach it: whether
    # the count reaches ``decisive`` must not change, and the count never exceeds the full one
    rng = random.Random(20261125)
    reached = skipped = 0
    for masks, trump, leader, side, cb, holder, pend, size in _random_layouts(rng, 4000):
        full = int(quick_tricks(masks, leader, trump, side, cb, holder, pend)[0])
        decisive = rng.randrange(1, size + 1)
        q = int(quick_tricks(masks, leader, trump, side, cb, holder, pend, decisive)[0])
        assert (q >= decisive) == (full >= decisive)
        assert q <= full
        reached += full >= decisive
        skipped += q < full
    assert reached > 500 and skipped > 0


def test_at_no_trump_a_decisive_count_the_leaders_runs_reach_skips_the_partner():
    # North cashes SA SK and crosses with the H2 to South's HA: 3 tricks. Asked only whether
    # the count reaches 2, the leader's spades answer it and the crossing is not counted
    hands = hands_from_pbn("N:AK.2.. QJT... .AKQ.. ..AKQ.")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([1, 0, 1, 0], np.int64)
    assert int(quick_tricks(masks, 0, NOTRUMP, side, -1, -1, 0)[0]) == 3
    assert int(quick_tricks(masks, 0, NOTRUMP, side, -1, -1, 0, 2)[0]) == 2
    assert int(quick_tricks(masks, 0, NOTRUMP, side, -1, -1, 0, 3)[0]) == 3


def test_leader_cashes_his_winners_of_the_entry_suit_before_crossing():
    # East leads at no trump. His DQ beats North's and South's diamonds, so he cashes it while
    # West follows low; then he crosses with the D5 to West's DK, and West runs DT D8 (North's
    # DJ has fallen) and his hearts, the only ones left. Crossing with the D5 at once, East's
    # DQ would overtake West's next diamond and strand the rest.
    hands = hands_from_pbn("N:73..J7.AT853 KJ8..Q5.QJ42 AQT9542...K7 6.54.KT86.96")
    q = _quick(hands, NOTRUMP, 1)
    assert q == 6
    assert leader_side_tricks(hands, NOTRUMP, 1) >= q


def test_trumps_drawn_before_the_partner_runs_a_side_suit():
    # Hearts are trumps and East leads. His H9 draws North's only trump; then the D5 crosses
    # to West's DK and West cashes DT D8: North, void in diamonds by then, has no trump left
    # to ruff them. Without the trump lead first, North's H8 caps West's run at one round.
    hands = hands_from_pbn("N:.8.7.AT85 .9.5.QJ42 9542...K7 .7.KT8.96")
    assert _quick(hands, 1, 1) == 4
    assert leader_side_tricks(hands, 1, 1) == 4


def test_quick_tricks_after_a_draw_never_exceed_dds():
    # endings where the leader's run of trumps draws a defender's trumps and so lifts a ruff
    # cap: the plans after the draw (drawn_plan, and crossing to the partner after trumps)
    # may count no more than the leader's side takes
    rng = random.Random(20261130)
    boards, counts = [], []
    while len(boards) < 600:
        size = rng.choice((5, 6, 7, 8))
        hands = random_ending(rng, size, rng.choice((3, 4)))
        trump = rng.randrange(4)
        leader = rng.randrange(4)
        masks = np.array([cards_to_mask(h) for h in hands], np.int64)
        side = np.array([1 if (p - leader) % 2 == 0 else 0 for p in range(4)], np.int64)
        caps = ruff_caps(masks, trump, side, 1)
        runs = suit_runs(masks, 0, leader, side, caps, -1, Duty(-1, -1, -1))
        rt = (runs[0] >> (4 * trump)) & 15
        if rt == 0 or caps_after_draw(masks, trump, side, 1, rt) == caps:
            continue
        boards.append((hands, trump, leader))
        counts.append(_quick(hands, trump, leader))
    _assert_within_dds(boards, counts)


def test_partner_wins_two_rounds_over_the_second_card_of_the_opponent_before_him():
    # North leads at no trump: four clubs from the top (East's CJ falls), then a heart to
    # South's HA HQ. East, who plays before South, holds the HK: he plays it and South wins
    # with the ace and then the queen, or he holds it back and South wins with the queen and
    # then the ace. Six tricks; counting South's ace alone gave five.
    hands = hands_from_pbn("N:42.543.96.Q976 KQ95.KJ96.A4.J 86.AQT7.K8753. AJT73.82.QJT2.")
    assert _quick(hands, NOTRUMP, 0) == 6
    assert leader_side_tricks(hands, NOTRUMP, 0) >= 6


def test_partner_on_the_leaders_right_finesses_against_either_opponent():
    # Partners side by side: West plays last to North's lead, so East's HK lies before
    # West's HA HQ. West wins two hearts and his two spades: four tricks of four
    hands = hands_from_pbn("N:.3.2.32 .K5.3.4 .64.4.5 AK.AQ..")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([1, 0, 0, 1], np.int64)
    assert int(quick_tricks(masks, 0, NOTRUMP, side, -1, -1, 0)[0]) == 4
    assert oracle_solve(hands, NOTRUMP, 0, [0, 3], "tricks") == 4
    # the same cards with the partner on North's left (East's seat) and the HK behind him:
    # the partner plays before the opponent with the king, so his queen is not sure
    hands = hands_from_pbn("N:.3.2.32 AK.AQ.. .64.4.5 .K5.3.4")
    masks = np.array([cards_to_mask(h) for h in hands], np.int64)
    side = np.array([1, 1, 0, 0], np.int64)
    assert finesse_rounds(masks, 0, 1, 1, 13)[0] == 0
    assert int(quick_tricks(masks, 0, NOTRUMP, side, -1, -1, 0)[0]) == 3
    assert oracle_solve(hands, NOTRUMP, 0, [0, 1], "tricks") == 3


def _finesse_layouts(rng: random.Random, n: int, sizes, sides):
    """``n`` random endings (hands, trump, leader, partner) in which the leader's partner
    holds the top and third card of a suit the leader holds, the second with an opponent
    who plays before the partner (finesse_rounds applies)."""
    out = []
    while len(out) < n:
        hands = random_ending(rng, rng.choice(sizes), rng.choice((2, 3, 4)))
        trump = rng.choice((SPADES, 1, 2, 3, NOTRUMP, NOTRUMP))
        leader = rng.randrange(4)
        pp = (leader + rng.choice(sides)) % 4
        masks = np.array([cards_to_mask(h) for h in hands], np.int64)
        side = np.zeros(4, np.int64)
        side[[leader, pp]] = 1
        caps = ruff_caps(masks, trump, side, 1)
        if any(
            finesse_rounds(masks, leader, pp, e, (caps >> (4 * e)) & 15)[0] > 1 for e in range(4)
        ):
            out.append((hands, trump, leader, pp))
    return out


def test_finesse_counts_never_exceed_dds():
    # partners opposite: DDS gives the true value
    rng = random.Random(20261201)
    boards, counts = [], []
    for hands, trump, leader, _ in _finesse_layouts(rng, 600, (4, 6, 8, 10), (2,)):
        boards.append((hands, trump, leader))
        counts.append(_quick(hands, trump, leader))
    _assert_within_dds(boards, counts)


def test_finesse_counts_for_partners_side_by_side_never_exceed_the_oracle():
    # partners side by side (rik): the partner on the leader's right plays after both
    # opponents; DDS knows only partners opposite, so the exhaustive oracle on short endings
    rng = random.Random(20261202)
    tight = 0
    for hands, trump, leader, pp in _finesse_layouts(rng, 150, (3, 4), (1, 3)):
        masks = np.array([cards_to_mask(h) for h in hands], np.int64)
        side = np.zeros(4, np.int64)
        side[[leader, pp]] = 1
        q = int(quick_tricks(masks, leader, trump, side, -1, -1, 0)[0])
        true = oracle_solve(hands, trump, leader, [leader, pp], "tricks")
        assert q <= true, (hands, trump, leader, pp, q, true)
        tight += q == true
    assert tight > 50
