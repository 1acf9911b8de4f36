"""`rikken batch` (analyser.batch): the same figures as `rikken analyse --format csv` on the
same seed, every input form, Parquet, resuming after a stop, and its refusals."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest
from click.testing import CliRunner

from analyser import batch
from analyser.cli import main

RIK = "♠AHV1098 ♥104 ♦A10 ♣752"
HONOURS = "♠AHVB ♥AHVB ♦AHV ♣AH"
OPTS = ["--deals", "6", "--seed", "3", "--quiet"]
DEAL = "N:AKQT98.T4.AT.752 J76.AK98.KQ9.AK4 543.QJ765.J4.QJ3 2.32.876532.T986"


def run(*args: str):
    return CliRunner().invoke(main, ["batch", *args])


def single(hand: str, *args: str) -> list[dict[str, str]]:
    """The rows of `rikken analyse HAND --format csv` with the batch's options."""
    out = CliRunner().invoke(main, ["analyse", hand, *args, *OPTS, "--format", "csv"])
    assert out.exit_code == 0, out.output
    return list(csv.DictReader(io.StringIO(out.stdout)))


def figures(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The rows without the batch's own columns."""
    return [{k: v for k, v in r.items() if k not in ("hand", "item")} for r in rows]


def read(path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_batch_rows_equal_the_single_hand_command_on_the_same_seed(tmp_path):
    src = tmp_path / "hands.txt"
    src.write_text(f"# club evening\n{RIK}\n\n{HONOURS}; 3; iwwa2024\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    result = run(str(src), "--out", str(out), *OPTS)
    assert result.exit_code == 0, result.output
    rows = read(out)
    assert list(rows[0])[:3] == ["hand", "seat", "bid"] and list(rows[0]) == batch.columns()
    first = [r for r in rows if r["item"] == "1"]
    second = [r for r in rows if r["item"] == "2"]
    assert {r["hand"] for r in first} == {RIK}
    assert figures(first) == single(RIK)
    assert figures(second) == single(HONOURS, "--seat", "3", "--rules", "iwwa2024")
    # the summary: one line per hand with its best opening bid
    assert "best opening" in result.stdout and len(result.stdout.strip().splitlines()) == 3


def test_play_double_dummy_gives_the_double_dummy_rows(tmp_path):
    src = tmp_path / "hands.txt"
    src.write_text(f"{RIK}\n", encoding="utf-8")
    result = run(str(src), *OPTS, "--play", "double-dummy")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout.split("\n\n")[0])))
    assert figures(rows) == single(RIK, "--play", "double-dummy")
    assert {r["estimate"] for r in rows} == {"double-dummy"}
    assert all(r["p_make"] == r["p_make_dd"] for r in rows)


def test_without_out_the_csv_goes_to_stdout(tmp_path):
    src = tmp_path / "hands.txt"
    src.write_text(HONOURS + "\n", encoding="utf-8")
    result = run(str(src), *OPTS)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert figures(rows) == single(HONOURS)
    assert "best opening" in result.stderr


def test_a_csv_input_and_a_parquet_output(tmp_path):
    src = tmp_path / "hands.csv"
    src.write_text(f'hand,seat,rules\n"{RIK}",2,\n"{HONOURS}",,book:malheur=optional\n')
    out = tmp_path / "out.parquet"
    result = run(str(src), "--out", str(out), *OPTS)
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(out)
    assert list(frame.columns) == batch.columns()
    rows = frame.to_dict("records")
    assert figures([r for r in rows if r["item"] == "1"]) == single(RIK, "--seat", "2")
    assert figures([r for r in rows if r["item"] == "2"]) == single(
        HONOURS, "--rules", "book:malheur=optional"
    )


def test_a_pbn_deal_gives_each_hand_at_its_seat(tmp_path):
    src = tmp_path / "boards.pbn"
    src.write_text(f'[Event "club"]\n[Board "1"]\n[Dealer "W"]\n[Deal "{DEAL}"]\n')
    items = batch.read_items(src)
    # dealer West: North sits left of him (seat 1), East 2, South 3, West 4
    assert [i.seat for i in items] == ["1", "2", "3", "4"]
    assert items[0].hand == "♠AKQT98 ♥T4 ♦AT ♣752"
    assert [i.source for i in items][-1].endswith("W")
    out = tmp_path / "out.csv"
    result = run(str(src), "--out", str(out), *OPTS)
    assert result.exit_code == 0, result.output
    rows = read(out)
    assert figures([r for r in rows if r["item"] == "3"]) == single(items[2].hand, "--seat", "3")


def test_a_stopped_batch_resumes_where_it_stopped(tmp_path, monkeypatch):
    src = tmp_path / "hands.txt"
    src.write_text(f"{RIK}\n{HONOURS}\n{RIK}; 4\n", encoding="utf-8")
    whole = tmp_path / "whole.csv"
    assert run(str(src), "--out", str(whole), *OPTS).exit_code == 0

    out = tmp_path / "out.csv"
    real = batch.analyse_item

    def stop_at_second(item, number, options):
        if number == 2:
            raise KeyboardInterrupt
        return real(item, number, options)

    monkeypatch.setattr(batch, "analyse_item", stop_at_second)
    stopped = run(str(src), "--out", str(out), *OPTS)
    assert stopped.exit_code == 130 and "1 of 3 hands done" in stopped.stderr
    assert {r["item"] for r in read(out)} == {"1"}
    monkeypatch.setattr(batch, "analyse_item", real)
    # the seed is taken from the file when none is given
    resumed = run(str(src), "--out", str(out), "--deals", "6", "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert out.read_text() == whole.read_text()
    other_seed = run(str(src), "--out", str(out), "--deals", "6", "--seed", "9")
    assert other_seed.exit_code == 2 and "--seed 3" in other_seed.stderr


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("hands.txt", "", "no hands found"),
        ("hands.txt", f"{RIK}; 1; book; extra\n", "hands.txt:1: more than 3 columns"),
        ("hands.txt", "♠AHV\n", "hands.txt:1:"),
        ("hands.txt", f"{RIK}; 7\n", "'7' is not a seat"),
        ("hands.csv", "cards\nx\n", "needs a 'hand' column"),
        ("hands.csv", "hand,colour\nx,y\n", "unknown column 'colour'"),
        ("b.pbn", f'[Deal "{DEAL}"]\n', "no [Dealer"),
    ],
)
def test_bad_input_is_one_line_with_where(tmp_path, name, text, message):
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    result = run(str(src), *OPTS)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output


def test_out_must_be_csv_or_parquet_and_a_foreign_file_is_not_resumed(tmp_path):
    src = tmp_path / "hands.txt"
    src.write_text(HONOURS + "\n", encoding="utf-8")
    bad = run(str(src), "--out", str(tmp_path / "x.xlsx"), *OPTS)
    assert bad.exit_code == 2 and ".csv or .parquet" in bad.stderr
    foreign = tmp_path / "other.csv"
    foreign.write_text("a,b\n1,2\n")
    result = run(str(src), "--out", str(foreign), *OPTS)
    assert result.exit_code == 2 and "not the output of rikken batch" in result.stderr
    missing = run(str(tmp_path / "nope.txt"), *OPTS)
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
