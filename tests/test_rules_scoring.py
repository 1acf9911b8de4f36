"""Scoring (docs/rules.md §6 and defaults, iwwa I-09, all-pass games): zero-sum and spot values."""

import itertools

import pytest

from analyser.errors import RulesError
from analyser.rules import (
    BETER_RIK,
    MALHEUR,
    MISERE,
    OPEN_MISERE,
    OPEN_PIEK_PRAATJE,
    PASS,
    PIEK,
    RIK,
    SOLO,
    SOLO_BETER,
    all_pass_games,
    alone,
    declarer_score,
    get_ruleset,
    made,
    parse_ruleset,
    per_opponent,
    score,
    score_one_of_five,
    score_schoppen_mie,
)

SPECS = [
    "book",
    "book:fail_mode=base_only",
    "book:min_alone=9,malheur=optional",
    "iwwa2024",
    "iwwa2024:fail_mode=base_only",
    "iwwa2024:malheur=obligatory",
]


def seating(c):
    """Declarers and partner for a contract played by North (partner South where needed)."""
    return (0,), (2 if c.is_partnership else None)


def reference_per_opp(c, t, base_only=False):
    """docs/rules.md §6 pseudo-code, written independently of the package."""
    units = {"misere": 3, "piek": 3, "open_misere": 6, "open_piek": 6}
    units |= {"open_misere_praatje": 9, "open_piek_praatje": 9}
    if c.kind in ("rik", "malheur"):
        base = 2 if c.kind == "malheur" else 1
        if t >= 8:
            return base + 9 if t == 13 else base + t - 8
        return -base if base_only else -(base + 7 - t)
    if c.kind == "alone":
        if t >= c.n:
            return 1 + t - c.n
        return -1 if base_only else -(c.n - t)
    unit = (16 if c.beter else 15) if c.kind == "solo" else units[c.kind]
    return unit if made(c, t) else -unit


@pytest.mark.parametrize("spec", SPECS)
def test_zero_sum_and_made_consistency_for_every_contract_and_trick_count(spec):
    rs = parse_ruleset(spec)
    base_only = rs.fail_mode == "base_only"
    checked = 0
    for c in rs.contracts:
        decl, partner = seating(c)
        for t in range(14):
            pts = score(rs, c, t, decl, partner)
            assert sum(pts) == 0, (c, t, pts)
            v = per_opponent(rs, c, t)
            assert v == reference_per_opp(c, t, base_only), (c, t)
            assert (v > 0) == made(c, t) and v != 0
            assert declarer_score(rs, c, t) == pts[0]
            assert (pts[0] > 0) == made(c, t)
            opponents = [s for s in range(4) if s not in (0, partner)]
            assert all(pts[s] == -v for s in opponents)
            if c.is_partnership:
                payer_alone = rs.failed_rik_payer == "rikker" and c.kind == "rik" and v < 0
                assert (pts[0], pts[2]) == ((2 * v, 0) if payer_alone else (v, v))
            else:
                assert pts[0] == 3 * v
            checked += 1
    assert checked == 14 * len(rs.contracts)


def test_spot_values_book():
    rs = get_ruleset()
    assert score(rs, RIK, 8, (0,), 2) == (1, -1, 1, -1)
    assert per_opponent(rs, RIK, 13) == 10
    assert per_opponent(rs, BETER_RIK, 12) == 5
    assert per_opponent(rs, MALHEUR, 13) == 11
    assert per_opponent(rs, MALHEUR, 9) == 3
    assert score(rs, alone(9), 10, (1,)) == (-2, 6, -2, -2)
    assert score(rs, alone(9, True), 10, (1,)) == (-2, 6, -2, -2)  # no beter extra
    assert per_opponent(rs, alone(7), 13) == 7  # overtricks only, no bonus
    assert score(rs, MISERE, 0, (3,)) == (-3, -3, -3, 9)
    assert score(rs, MISERE, 1, (3,)) == (3, 3, 3, -9)
    assert score(rs, OPEN_MISERE, 0, (3,)) == (-6, -6, -6, 18)
    assert score(rs, OPEN_PIEK_PRAATJE, 1, (0,)) == (27, -9, -9, -9)
    assert score(rs, PIEK, 0, (0,)) == (-9, 3, 3, 3)  # 0 tricks also fails piek
    assert score(rs, SOLO, 13, (2,)) == (-15, -15, 45, -15)
    assert score(rs, SOLO_BETER, 13, (2,)) == (-16, -16, 48, -16)
    assert score(rs, SOLO, 12, (2,)) == (15, 15, -45, 15)  # solo with 12 fails, v = 15
    # Failed contracts: base + (undertricks - 1).
    assert score(rs, RIK, 6, (0,), 1) == (-2, -2, 2, 2)
    assert per_opponent(rs, RIK, 7) == -1
    assert per_opponent(rs, MALHEUR, 5) == -4
    assert per_opponent(rs, alone(10), 7) == -3
    base_only = get_ruleset("book", fail_mode="base_only")
    assert per_opponent(base_only, RIK, 2) == -1
    assert per_opponent(base_only, alone(10), 7) == -1


def test_iwwa_failed_rik_rikker_alone_pays():
    rs = get_ruleset("iwwa2024")
    assert score(rs, RIK, 6, (0,), 1) == (-4, 0, 2, 2)
    assert score(rs, BETER_RIK, 7, (3,), 1) == (1, 0, 1, -2)
    assert score(rs, RIK, 9, (0,), 1) == (2, 2, -2, -2)  # made: both win as in the book
    assert declarer_score(rs, RIK, 6) == -4


def test_per_seat_trick_counts():
    rs = get_ruleset()
    # rik by North with South as partner: 5 + 4 = 9 tricks.
    assert score(rs, RIK, (5, 2, 4, 2), (0,), 2) == (2, -2, 2, -2)
    assert score(rs, alone(8), (1, 8, 2, 2), (1,)) == (-1, 3, -1, -1)


def brute_settlement(c, tricks, declarers):
    """Each declarer settles 3/6/9 with each other seat (independent reference)."""
    unit = {"misere": 3, "piek": 3, "open_misere": 6}[c.kind]
    out = [0, 0, 0, 0]
    for d in declarers:
        v = unit if made(c, tricks[d]) else -unit
        for s in range(4):
            out[s] += 3 * v if s == d else -v
    return tuple(out)


@pytest.mark.parametrize("spec", ["book", "iwwa2024"])
@pytest.mark.parametrize("contract", [MISERE, PIEK, OPEN_MISERE])
@pytest.mark.parametrize("declarers", [(0, 2), (1, 3), (0, 1, 3), (3, 2, 1, 0)])
def test_several_declarers_zero_sum_mixed_outcomes(spec, contract, declarers):
    rs = parse_ruleset(spec)
    outcomes = set()
    for tricks in itertools.product(range(4), repeat=4):
        pts = score(rs, contract, tricks, declarers)
        assert sum(pts) == 0
        assert pts == brute_settlement(contract, tricks, declarers)
        outcomes.add(tuple(made(contract, tricks[d]) for d in declarers))
    assert len(outcomes) == 2 ** len(declarers)  # every mix of made and failed was covered


def test_three_misere_declarers_one_makes():
    rs = get_ruleset()
    # N makes (0 tricks): +9 own, +3 from each failure. E, S fail: -9 own, -3 to N, +3 from the
    # other failure. W defends: -3 to N, +3 from each failure.
    assert score(rs, MISERE, (0, 2, 1, 10), (0, 1, 2)) == (15, -9, -9, 3)


def test_score_input_errors():
    rs = get_ruleset()
    with pytest.raises(RulesError, match="partner"):
        score(rs, RIK, 8, (0,))
    with pytest.raises(RulesError, match="partner"):
        score(rs, RIK, 8, (0,), 0)
    with pytest.raises(RulesError, match="no partner"):
        score(rs, SOLO, 13, (0,), 1)
    with pytest.raises(RulesError, match="4-sequence"):
        score(rs, MISERE, 0, (0, 1))
    with pytest.raises(RulesError, match="twice"):
        score(rs, MISERE, (0, 0, 0, 0), (0, 0))
    with pytest.raises(RulesError, match="13"):
        score(rs, MISERE, (5, 5, 5, 0), (0,))
    with pytest.raises(RulesError):
        score(rs, alone(9), 14, (0,))
    with pytest.raises(RulesError, match="not played"):
        score(get_ruleset("iwwa2024"), MALHEUR, 9, (0,), 1)
    assert score(rs, PASS, 0) == (0, 0, 0, 0)


def test_all_pass_games():
    book, iwwa = get_ruleset(), get_ruleset("iwwa2024")
    assert all_pass_games(book) == ()
    assert all_pass_games(get_ruleset("book", all_pass="schoppen_mie")) == ("schoppen_mie",)
    assert all_pass_games(iwwa) == ("schoppen_mie", "one_of_five")
    v09 = get_ruleset("book", all_pass="schoppen_mie")
    assert score_schoppen_mie(v09, 2) == (5, 5, -15, 5)
    assert score_schoppen_mie(iwwa, 2, 2) == (10, 10, -30, 10)  # -30 at most
    assert score_schoppen_mie(iwwa, 2, 0) == (-10, 10, -10, 10)
    assert score_one_of_five(iwwa, (1, 5, 3, 4)) == (20, 20, -20, -20)
    assert score_one_of_five(iwwa, (2, 3, 4, 4)) == (0, 0, 0, 0)
    assert score_one_of_five(iwwa, (1, 1, 1, 10)) == (10, 10, 10, -30)
    with pytest.raises(RulesError):
        score_schoppen_mie(book, 0)
    with pytest.raises(RulesError):
        score_schoppen_mie(iwwa, 0)  # the last-trick taker is needed
    with pytest.raises(RulesError):
        score_one_of_five(iwwa, (1, 1, 1, 1))
