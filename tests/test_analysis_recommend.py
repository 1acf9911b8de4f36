"""The recommendation: a legal opening bid for the seat; the highest bid worth competing to."""

from __future__ import annotations

import pytest

from analyser.analysis.evaluate import analyse_hand
from analyser.analysis.recommend import opening_bids
from analyser.notation import parse_hand
from analyser.rules import MALHEUR, PASS, get_ruleset, parse_contract

HONOURS = parse_hand("♠AHVB ♥AHVB ♦AHV ♣AH")


@pytest.mark.parametrize(
    ("rules", "seat"),
    [("book", 1), ("book", 2), ("book", 4), ("iwwa2024", 1), ("book:malheur=off", 3)],
)
def test_recommended_opening_is_legal(rules, seat):
    from analyser.rules import parse_ruleset

    rs = parse_ruleset(rules)
    a = analyse_hand(HONOURS, seat, rs, deals=4, seed=9)
    legal = opening_bids(rs, seat, 4)
    assert a.recommended_opening is not None
    assert parse_contract(a.recommended_opening) in legal
    for b in a.bids:
        assert b.opening == (b.spec.contract in legal)
    if rs.malheur == "obligatory":  # four aces: malheur or higher, never a pass (R-MAL-01)
        assert rs.rank(a.recommended_opening) >= rs.rank(MALHEUR)
    # Alone bids need an earlier rik, beter rik another player's rik: never opening bids.
    kinds = {b.spec.id for b in a.bids if b.opening}
    assert not any(k.startswith("alone") or k == "beter_rik" for k in kinds)
    assert (
        PASS not in legal
        or a.recommended_opening != "pass"
        or all(b.expected_score < 0 for b in a.bids if b.opening)
    )


def test_highest_competitive_is_the_highest_qualifying_bid():
    a = analyse_hand(HONOURS, 1, get_ruleset("book"), deals=4, seed=9, min_p=0.5)
    ok = [b for b in a.bids if b.expected_score > 0 and b.estimate.p >= 0.5]
    assert a.highest_competitive == max(ok, key=lambda b: (b.spec.rank, b.expected_score)).spec.id
    strict = analyse_hand(HONOURS, 1, get_ruleset("book"), deals=4, seed=9, min_p=1.0)
    ok = [b for b in strict.bids if b.expected_score > 0 and b.estimate.p >= 1.0]
    assert strict.highest_competitive == (
        max(ok, key=lambda b: (b.spec.rank, b.expected_score)).spec.id if ok else None
    )
