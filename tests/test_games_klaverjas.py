"""Klaverjas (docs/klaverjas.md): the trump duties of both variants on hand-made tricks,
roem and card points, the solver against the brute-force oracle (tests/oracle_klaverjas.py)
on seeded endings (full deals in the slow suite), the sampling, and the command line."""

from __future__ import annotations

import json
import random

import numpy as np
import oracle_klaverjas as oracle
import pytest
from click.testing import CliRunner

from analyser.cli import main
from analyser.errors import RikkenError
from analyser.games.klaverjas import solver
from analyser.games.klaverjas.analysis import sample_klaverjas_deals, scores
from analyser.games.klaverjas.rules import VARIANTS, get_variant, kj_card

S, H, D, C = 0, 1, 2, 3
RANK = {"7": 0, "8": 1, "9": 2, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
AMS, ROT = VARIANTS["amsterdam"], VARIANTS["rotterdam"]


def k(text: str) -> int:
    """'H9' -> the 32-card int of the nine of hearts."""
    return kj_card("SHDC".index(text[0]), RANK[text[1:]])


def legal(rules, hand: str, trick: str, trump: int = H) -> set[str]:
    """The legal cards of ``hand`` (names) on ``trick`` (names, in play order)."""
    cards = [k(x) for x in hand.split()]
    t = np.zeros(4, np.int64)
    played = [k(x) for x in trick.split()]
    t[: len(played)] = played
    mask = sum(1 << c for c in cards)
    got = solver.legal_mask(mask, t, len(played), trump, rules.partner_frees, rules.tables())
    names = {c: x for c, x in zip(cards, hand.split(), strict=True)}
    return {names[c] for c in cards if (got >> c) & 1}


@pytest.mark.parametrize("rules", [AMS, ROT], ids=["amsterdam", "rotterdam"])
@pytest.mark.parametrize(
    ("hand", "trick", "expected"),
    [
        ("S7 HJ DA", "", {"S7", "HJ", "DA"}),  # the leader: any card
        ("S7 SK HJ", "SA", {"S7", "SK"}),  # follow suit, even holding trumps
        ("HJ HA S7", "H9", {"HJ"}),  # trump led: overtrump (J beats 9)
        ("HA H10 S7", "H9", {"HA", "H10"}),  # trump led, unable: any trump
        ("HJ H8", "H9 H7", {"HJ"}),  # trump led, partner wins: still overtrump
        ("H7 DA", "SA", {"H7"}),  # void: must trump
        ("HA H7 DK", "SA H10", {"HA"}),  # trumped by an opponent: must overtrump
        ("H7 DK", "SA HJ", {"DK"}),  # unable: discard, no undertrump
        ("H7 H8", "SA HJ", {"H7", "H8"}),  # nothing but lower trumps: undertrump
        ("S8 DK", "SA", {"S8"}),
        ("DK C7", "SA", {"DK", "C7"}),  # void and no trumps: any card
    ],
)
def test_trump_duties_common_to_both_variants(rules, hand, trick, expected):
    assert legal(rules, hand, trick) == expected


@pytest.mark.parametrize(
    ("hand", "trick", "amsterdam", "rotterdam"),
    [
        # partner (first card) wins with the ace: Amsterdam free, Rotterdam must trump
        ("H7 DK", "SA S7", {"H7", "DK"}, {"H7"}),
        # partner wins with a trump: Amsterdam free (undertrump too), Rotterdam must
        # overtrump, unable: must discard
        ("H9 DK", "S7 HJ S8", {"H9", "DK"}, {"DK"}),
        ("HA H9", "S7 H10 S8", {"HA", "H9"}, {"HA", "H9"}),  # A and 9 beat the 10
        ("H7 H9", "S7 HJ S8", {"H7", "H9"}, {"H7", "H9"}),  # nothing but lower trumps
        # an opponent wins: the duty applies in both
        ("H7 DK", "SA SK S7", {"H7"}, {"H7"}),
    ],
)
def test_partner_winning_frees_only_in_amsterdam(hand, trick, amsterdam, rotterdam):
    assert legal(AMS, hand, trick) == amsterdam
    assert legal(ROT, hand, trick) == rotterdam


def roem_of(names: str, trump: int = H) -> int:
    t = np.array([k(x) for x in names.split()], np.int64)
    return int(solver.trick_roem(t, trump, AMS.params()))


def test_roem_and_card_points():
    assert roem_of("S7 S8 S9 DA") == 20  # three in sequence
    assert roem_of("S10 SJ SQ SK") == 50  # four in sequence
    assert roem_of("SQ SK SA C7") == 20  # Q K A: sequences in the natural order
    assert roem_of("S9 S10 SQ C7") == 0  # a gap
    assert roem_of("HQ HK D7 C7") == 20  # stuk
    assert roem_of("HJ HQ HK C7") == 40  # three with the stuk
    assert roem_of("H10 HJ HQ HK") == 70  # four with the stuk
    assert roem_of("SJ HJ DJ CJ") == 100  # four equal (jacks too: 100, KJ-05)
    assert roem_of("S7 H7 D7 C7") == 100
    t = np.array([k(x) for x in "HJ H9 SA S10".split()], np.int64)
    assert solver.trick_card_points(t, H, AMS.tables()) == 20 + 14 + 11 + 10
    assert AMS.card_total == 162
    assert solver.winning_position(t, 4, H, AMS.tables()) == 0
    t = np.array([k(x) for x in "S10 SK SA D9".split()], np.int64)
    assert solver.winning_position(t, 4, H, AMS.tables()) == 2
    with pytest.raises(RikkenError, match="unknown klaverjas variant"):
        get_variant("utrecht")


def random_ending(rng: random.Random, tricks: int):
    """Four random hands of ``tricks`` cards, and a random leader, trump, team and history."""
    cards = rng.sample(range(32), 4 * tricks)
    hands = [cards[i * tricks : (i + 1) * tricks] for i in range(4)]
    return hands, rng.randrange(4), rng.randrange(4), rng.randrange(4), rng.randrange(2)


WORKSPACE = solver.workspace()  # one table for every test solve (each solve has its stamp)


def solver_values(hands, leader, won, trump, team, rules):
    """The solver's value of the position and of each lead, and its optimal line."""
    tables, params = rules.tables(), rules.params()
    tt, moves, stats = WORKSPACE
    masks = np.array([sum(1 << c for c in h) for h in hands], np.int64)
    trick = np.zeros(4, np.int64)
    v = solver.solve_value(
        masks, trick, 0, leader, won, trump, team, tables, params, tt, moves, stats
    )
    per_lead = {}
    for c in hands[leader]:
        if (
            not (
                solver.legal_mask(masks[leader], trick, 0, trump, rules.partner_frees, tables) >> c
            )
            & 1
        ):
            continue
        m2 = masks.copy()
        m2[leader] &= ~(1 << c)
        t = np.array([c, 0, 0, 0], np.int64)
        per_lead[c] = int(
            solver.solve_value(m2, t, 1, leader, won, trump, team, tables, params, tt, moves, stats)
        )
    line = np.zeros(solver.R_NODES + 1, np.int64)
    solver.solve_line(masks, leader, won, trump, team, tables, params, tt, moves, stats, line)
    return int(v), per_lead, line


def test_solver_matches_the_oracle_on_endings():
    rng = random.Random(20261127)
    mismatches = []
    for i in range(300):
        tricks = (2, 3, 3, 2, 3, 4, 2, 3, 3, 3)[i % 10]  # 90 of 2 tricks, 180 of 3, 30 of 4
        hands, leader, won, trump, team = random_ending(rng, tricks)
        rules = (AMS, ROT)[i % 2]
        v, per_lead, line = solver_values(hands, leader, won, trump, team, rules)
        want = oracle.value(hands, leader, won, trump, team, rules.partner_frees)
        want_leads = oracle.move_values(hands, leader, won, trump, team, rules.partner_frees)
        if v != want or per_lead != want_leads:
            mismatches.append((i, hands, leader, won, trump, team, v, want))
        # the walked line keeps the value: D = ours - theirs on it
        assert line[solver.R_D] == v and line[solver.R_OWN] - line[solver.R_OPP] == v
    assert mismatches == []


@pytest.mark.slow
def test_solver_matches_the_oracle_on_long_endings():
    rng = random.Random(56)
    for i in range(24):
        tricks = 6 if i % 6 == 5 else 5
        hands, leader, won, trump, team = random_ending(rng, tricks)
        rules = (AMS, ROT)[i % 2]
        v, per_lead, _ = solver_values(hands, leader, won, trump, team, rules)
        assert v == oracle.value(hands, leader, won, trump, team, rules.partner_frees)
        assert per_lead == oracle.move_values(hands, leader, won, trump, team, rules.partner_frees)
        oracle._at_trick_start.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize("which", [0, 1], ids=["amsterdam", "rotterdam"])
def test_solver_matches_the_oracle_on_full_deals(which):
    # the plain-Python oracle takes 6-17 minutes per full deal (0.7-1 million positions)
    rng = random.Random(8)
    for _ in range(which + 1):
        hands, _, _, trump, team = random_ending(rng, 8)
    rules = (AMS, ROT)[which]
    v, per_lead, _ = solver_values(hands, 0, 0, trump, team, rules)
    assert v == oracle.value(hands, 0, 0, trump, team, rules.partner_frees)
    assert per_lead == oracle.move_values(hands, 0, 0, trump, team, rules.partner_frees)
    oracle._at_trick_start.cache_clear()


def test_scores_of_a_line():
    line = np.zeros(solver.R_NODES + 1, np.int64)
    line[[solver.R_D, solver.R_OWN, solver.R_OPP, solver.R_ROEM]] = [40, 111, 71, 20]
    assert scores(line, AMS) == (111, 40)  # not nat: each side its own points
    line[[solver.R_D, solver.R_OWN, solver.R_OPP, solver.R_ROEM]] = [0, 91, 91, 20]
    assert scores(line, AMS) == (0, -182)  # equal is nat: 162 + all roem against


def test_sampled_deals_hold_the_hand_and_the_whole_pack():
    hand = [k(x) for x in "SA SJ S9 HA H10 DK CA C7".split()]
    a = sample_klaverjas_deals(hand, 2, 5, seed=7)
    b = sample_klaverjas_deals(hand, 2, 5, seed=7)
    assert (a == b).all() and (a[:, 2] == sum(1 << c for c in hand)).all()
    for row in a:
        assert sum(bin(int(m)).count("1") for m in row) == 32
        assert int(row[0] | row[1] | row[2] | row[3]) == (1 << 32) - 1
    assert (sample_klaverjas_deals(hand, 2, 5, seed=7, start=3)[0] == a[3]).all()
    assert not (sample_klaverjas_deals(hand, 2, 5, seed=8) == a).all()


HAND = "♠AB9 ♥A10 ♦H ♣A7"


def run(*args: str):
    return CliRunner().invoke(main, ["analyse", *args])


def test_cli_end_to_end():
    result = run(HAND, "--game", "klaverjas", "--deals", "3", "--seed", "2", "--quiet",
                 "--format", "json", "--variant", "rotterdam")  # fmt: skip
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert d["game"] == "klaverjas" and d["variant"] == "rotterdam" and d["deals"] == 3
    assert d["play"] == "double-dummy" and len(d["trumps"]) == 4
    assert d["recommended_trump"] in "SHDC"
    for t in d["trumps"]:
        assert t["ci_low"] <= t["p_not_nat"] <= t["ci_high"]
    table = run(HAND, "--game", "klaverjas", "--deals", "2", "--seed", "2", "--quiet")
    assert table.exit_code == 0 and "P(not nat)" in table.output and "double-dummy" in table.output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["♠AHV1098 ♥104 ♦A10 ♣752", "--game", "klaverjas"], "8 cards"),  # 13 cards
        (["♠AB96 ♥A10 ♦H ♣A"], "not in the 32-card"),  # ♠6
        (["♠AB9 ♥A102 ♦H ♣A"], "not in the 32-card"),  # ♥2
        (["♠AB9 ♥A10 ♦H ♣A7", "--seat", "all"], "one seat"),
        (["♠AB9 ♥A10 ♦H ♣A7", "--seat", "5"], "--seat"),
        (["♠AB9 ♥A10 ♦H ♣A7", "--turned", "♥7"], "--turned"),
        (["♠AB9 ♥A10 ♦H ♣A7", "--format", "csv"], "table or JSON"),
        (["♠AB9 ♥A10 ♦H ♣A"], "8 cards"),  # 7 cards
        (["♠AB9 ♥A10 ♦H ♣A7", "--elder"], "--elder"),
        (["♠AHV1098 ♥104 ♦A10 ♣752", "--variant", "rotterdam"], "--game klaverjas"),
    ],
)
def test_bad_klaverjas_input_is_one_error_line(args, fragment):
    if "--variant" not in args:
        args = [*args, "--game", "klaverjas"] if "--game" not in args else args
    result = run(*args, "--deals", "2", "--quiet")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and fragment in errors[0], result.output


def test_study_rows_match_the_solver(tmp_path):
    from analyser.studies import load_study, run_study
    from analyser.studies.klaverjas import maker_trump, uniform_deals
    from analyser.studies.registry import study_module

    sims = __import__("pathlib").Path(__file__).resolve().parent.parent / "sims"
    path = tmp_path / "k.toml"
    path.write_text(
        f'extends = "{sims / "klaverjas.toml"}"\nname = "k"\ndeals = 6\nchunk_hands = 4\n'
        f'data_dir = "{tmp_path}"\nreport_dir = "{tmp_path}"\n'
    )
    res = run_study(load_study(path), quiet=True)
    df = res.table.sort_values("hand_id").reset_index(drop=True)
    assert list(df["hand_id"]) == list(range(6))
    deals = uniform_deals(6, res.cfg["seed"])
    for i in (0, 5):
        trump = maker_trump(int(deals[i, 0]), AMS.trump_points)
        assert df.loc[i, "trump"] == trump
        tt, moves, stats = WORKSPACE
        trick = np.zeros(4, np.int64)
        v = solver.solve_value(
            deals[i], trick, 0, 0, 0, trump, 0, AMS.tables(), AMS.params(), tt, moves, stats
        )
        assert df.loc[i, "made"] == int(v > 0)
    blocks = study_module("klaverjas").report_blocks(res, tmp_path / "rep")
    assert blocks[0].png is not None and "nat" in blocks[0].reading
