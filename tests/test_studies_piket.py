"""Study 11, piket: the table against the declarations and the solver on the same deals,
and its report section."""

from __future__ import annotations

import pathlib

import numpy as np

from analyser.games.piket.cards import cards_of, mask_of
from analyser.games.piket.declarations import carte_blanche, score
from analyser.games.piket.exchange import heuristic_discard
from analyser.games.piket.rules import get_rules
from analyser.games.piket.solver import pic_counter, solve_batch
from analyser.studies import load_study, run_study
from analyser.studies.piket import _deal
from analyser.studies.registry import study_module

SIMS = pathlib.Path(__file__).resolve().parent.parent / "sims"


def test_piket_study_rows_match_the_declarations_and_the_solver(tmp_path):
    path = tmp_path / "piket.toml"
    path.write_text(
        f'extends = "{SIMS / "piket.toml"}"\nname = "p"\ndeals = 8\nchunk_hands = 5\n'
        f'data_dir = "{tmp_path}"\nreport_dir = "{tmp_path}"\n'
    )
    res = run_study(load_study(path), quiet=True)
    df = res.table.sort_values("hand_id").reset_index(drop=True)
    assert list(df["hand_id"]) == list(range(8))
    r = get_rules()
    for i in (0, 5, 7):
        e, y, talon = _deal(res.cfg["seed"], i)
        ce, cy = cards_of(e), cards_of(y)
        fe = [c for c in ce if c not in heuristic_discard(ce, 5)] + talon[:5]
        fy = [c for c in cy if c not in heuristic_discard(cy, 3)] + talon[5:8]
        d = score(fe, fy, r, carte_blanche(ce), carte_blanche(cy))
        play = solve_batch(
            np.array([mask_of(fe)]), np.array([mask_of(fy)]), r,
            np.array([pic_counter(d.elder, d.younger, r)]),
        )[0]  # fmt: skip
        row = df.iloc[i]
        assert (row.decl_elder, row.decl_younger, row.play) == (d.elder, d.younger, play)
        assert row.total == d.elder - d.younger + play
    parts = res.tables["parts"].set_index("part")
    assert parts.loc["total", "mean"] == df["total"].mean()
    blocks = study_module("piket").report_blocks(res, tmp_path / "rep")
    assert blocks[0].png is not None and "elder" in blocks[0].reading
