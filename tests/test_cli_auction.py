"""`rikken analyse HAND --seat S --auction ...`: the decision at the table."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyser.auction import BookModel, read_auction
from analyser.auction.conditioned import ConditionedDeals
from analyser.cards import masks_to_owner, suit_of
from analyser.cli import main
from analyser.guidelines import default_call, rik_trump
from analyser.notation import parse_hand
from analyser.rules import get_ruleset, legal_bids
from analyser.solver import solve

SAFE = "♠5432 ♥432 ♦432 ♣432"  # misère without a hole: certain when not on lead
HONOURS = "♠AHVB ♥AHVB ♦AHV ♣AH"  # four aces, every suit topped


def run(*args: str):
    return CliRunner().invoke(main, ["analyse", *args])


def _json(hand, *args):
    result = run(hand, "--format", "json", "--quiet", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--seat", "3", "--auction", "rik bla"], "unknown call 'bla'"),
        (["--seat", "3", "--auction", "rik rik"], "not legal"),
        (["--seat", "2", "--auction", "beter rik"], "not legal"),
        (["--seat", "2", "--auction", "rik pass"], "seat 3's turn, not seat 2's"),
        (["--seat", "all", "--auction", "rik"], "--seat 1..4"),
        (["--seat", "2", "--auction", "rik", "--rules", "wiezen", "--turned", "H7"], "wiezen"),
    ],
)
def test_bad_auction_is_one_error_line_and_exit_code_2(args, fragment):
    result = run(SAFE, "--deals", "2", *args)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and fragment in errors[0], result.output
    assert "Traceback" not in result.output


def test_json_fields_and_the_certain_misere_stays_certain():
    d = _json(SAFE, "--seat", "2", "--auction", "rik", "--deals", "6", "--seed", "4")
    assert d["auction"] == ["rik"] and d["model"] == "book"
    assert 0 < d["acceptance"] < 1
    rs = get_ruleset("book")
    _, _, state = read_auction(rs, "rik")
    legal = [c.id for c in legal_bids(rs, state, 1, 0)]
    assert [v["call"] for v in d["decision"]] == legal  # pass included, ladder order
    assert {b["contract"] for b in d["bids"]} <= set(legal) - {"pass"}
    for v in d["decision"]:
        assert v["ci_low"] <= v["expected_score"] <= v["ci_high"]
    misere = next(b for b in d["bids"] if b["contract"] == "misere")
    assert misere["p_make"] == 1.0  # no hole and not on lead: certain, also after a rik
    assert next(v for v in d["decision"] if v["call"] == "misere")["expected_score"] == 9.0
    best = max(d["decision"], key=lambda v: v["expected_score"])
    assert d["best_call"] == best["call"] != "pass"


def test_the_malheur_duty_and_a_certain_failure():
    # four aces: seat 2 must bid malheur or higher after a pass (R-MAL-01); an open misère
    # with these top cards fails on every deal, with or without the auction
    d = _json(HONOURS, "--seat", "2", "--auction", "pas", "--deals", "4", "--seed", "2")
    calls = [v["call"] for v in d["decision"]]
    assert "pass" not in calls and calls[0] == "malheur"
    open_misere = next(b for b in d["bids"] if b["contract"] == "open_misere")
    assert open_misere["p_make"] == 0.0 and open_misere["expected_score"] == -18.0


def _rik_score_for(me: int, rikker: int, partner: int, tricks: int) -> int:
    """docs/rules.md §6 for a rik: v = t - 7 made (10 with 13 tricks), -(8 - t) failed;
    the two partners get v each, the defenders -v."""
    v = (10 if tricks == 13 else tricks - 7) if tricks >= 8 else -(8 - tricks)
    return v if me in (rikker, partner) else -v


def test_pass_scores_the_standing_rik_as_documented():
    """The pass row is this seat's mean score when seat 1's rik plays: trump G-RIK-02, call
    G-ACE-02 from the rikker's hand, the holder of the called card his partner, on the deals
    the auction accepts (recomputed here with the solver directly)."""
    hand_text = "♠AHV1098 ♥104 ♦A10 ♣752"
    n, seed = 10, 9
    d = _json(
        hand_text, "--seat", "3", "--auction", "rik pas", "--deals", str(n), "--seed", str(seed)
    )
    rs = get_ruleset("book")
    hand = parse_hand(hand_text)
    _, turns, _ = read_auction(rs, "rik pas", 2, 2)
    deals = ConditionedDeals(rs, BookModel(), turns, [[], [], hand, []], seed, 2).take(0, n)
    owner = masks_to_owner(deals)
    scores, made = [], 0
    for i, deal in enumerate(deals):
        trump = int(rik_trump.many(deal[:1])[0])
        rikker_cards = [c for c in range(52) if owner[i, c] == 0]
        called = default_call(rikker_cards, trump=trump, ruleset=rs)
        assert suit_of(called) != trump
        partner = int(owner[i, called])
        t = solve(list(deal), trump, 0, [0, partner], "tricks", called)
        made += t >= 8
        scores.append(_rik_score_for(2, 0, partner, t))
    row = next(v for v in d["decision"] if v["call"] == "pass")
    assert row["plays"] == "rik by seat 1" and row["deals"] == n
    assert row["expected_score"] == pytest.approx(np.mean(scores), abs=1e-4)
    assert row["p_make"] == pytest.approx(made / n, abs=1e-4)
