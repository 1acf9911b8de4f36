"""Study 10, whist: the table against the solver on the same deals, and its report section."""

from __future__ import annotations

import pathlib

from analyser.cards import mask_to_cards
from analyser.games.whist import get_form
from analyser.sampler import random_deals
from analyser.solver import solve
from analyser.studies import load_study, run_study
from analyser.studies.registry import study_module

SIMS = pathlib.Path(__file__).resolve().parent.parent / "sims"


def test_whist_study_rows_match_the_solver_and_the_form(tmp_path):
    path = tmp_path / "whist.toml"
    path.write_text(
        f'extends = "{SIMS / "whist.toml"}"\nname = "w"\ndeals = 12\nchunk_hands = 5\n'
        f'data_dir = "{tmp_path}"\nreport_dir = "{tmp_path}"\n'
    )
    res = run_study(load_study(path), quiet=True)
    df = res.table.sort_values("hand_id").reset_index(drop=True)
    assert list(df["hand_id"]) == list(range(12))
    deals = random_deals(12, res.cfg["seed"])
    five = get_form("5")
    for i in (0, 7, 11):
        row = df.iloc[i]
        hands = [mask_to_cards(int(m)) for m in deals[i]]
        assert int(row.tricks) == solve(hands, int(row.trump), 0, [0, 2], "tricks")
        assert row.points == five.points(int(row.tricks), int(row.ns_honours))
        assert row.made == int(row.points >= 5)
    blocks = study_module("whist").report_blocks(res, tmp_path / "rep")
    assert blocks[0].png is not None and "love-all" in blocks[0].reading
