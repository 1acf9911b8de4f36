"""A cached study table or chunk part is used only when it passes verification: its bytes
match the SHA-256 recorded beside it, it decodes with every page checksum verified, and its
values lie in their columns' domains. Fault injection flips bytes of a written table and of a
part: every flip must be detected (one line on stderr) and the rerun must give the true
figures. A stopped `--force` keeps the old table.

The reruns of the many-flip tests solve through a stand-in that returns the parts of a real
run (the solving itself is tested elsewhere; here what matters is that a damaged file is
never used); a few flips are followed by a real rerun.
"""

from __future__ import annotations

import io
import pathlib
import random

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analyser.studies import load_study, run_study
from analyser.studies import malheur as malheur_study
from analyser.studies.cache import (
    StudyCache,
    VerificationError,
    _atomic_write,
    checksum_path,
    read_verified,
)
from analyser.studies.domains import domain_problem

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"
SAMPLED_FLIPS = 200


def tiny_malheur(base: pathlib.Path):
    """A malheur study of 4 hands, 2 deals each, in 2 chunks, writing under ``base``."""
    cfg = load_study(SIMS / "malheur.toml").with_params(deals_per_hand=2, chunk_hands=2, hands=4)
    return type(cfg)(cfg.path, cfg.params, base / "data", base / "reports")


@pytest.fixture(scope="module")
def truth(tmp_path_factory):
    """A real run: its config, finished table, table bytes and the parts it solved."""
    base = tmp_path_factory.mktemp("integrity")
    cfg = tiny_malheur(base)
    parts = []
    real = malheur_study.solve_hands

    def recording(cfg, hands, progress):
        part = real(cfg, hands, progress)
        parts.append(part.copy())
        return part

    mp = pytest.MonkeyPatch()
    mp.setattr(malheur_study, "solve_hands", recording)
    try:
        res = run_study(cfg, quiet=True)
    finally:
        mp.undo()
    cache = StudyCache(cfg)
    return {
        "cfg": cfg,
        "table": res.table,
        "bytes": cache.table_path.read_bytes(),
        "checksum": checksum_path(cache.table_path).read_bytes(),
        "parts": parts,
    }


def replay(monkeypatch, truth) -> list[int]:
    """Solve chunks by handing back the real run's parts; returns the chunks asked for."""
    asked = []
    by_first_hand = {int(p["hand_id"].iloc[0]): p for p in truth["parts"]}

    def solve_hands(cfg, hands, progress):
        first = int(hands["hand_id"].iloc[0])
        asked.append(first)
        return by_first_hand[first].copy()

    monkeypatch.setattr(malheur_study, "solve_hands", solve_hands)
    return asked


def flipped(data: bytes, pos: int, rng: random.Random) -> bytes:
    """``data`` with the byte at ``pos`` changed (XOR with a non-zero byte)."""
    out = bytearray(data)
    out[pos] ^= rng.randrange(1, 256)
    return bytes(out)


def positions(size: int, n: int | None, seed: int) -> list[int]:
    """``n`` seeded positions spread over ``size`` bytes (every position when None)."""
    if n is None or n >= size:
        return list(range(size))
    return sorted(random.Random(seed).sample(range(size), n))


def one_failure_line(stderr: str, path: pathlib.Path) -> bool:
    lines = stderr.strip().splitlines()
    return (
        len(lines) == 1
        and lines[0].startswith("cache: ")
        and lines[0].endswith("; solving it again")
        and path.name in lines[0]
        and "failed verification (" in lines[0]
    )


def restore(truth) -> StudyCache:
    cache = StudyCache(truth["cfg"])
    cache.table_path.write_bytes(truth["bytes"])
    checksum_path(cache.table_path).write_bytes(truth["checksum"])
    return cache


def flip_table(truth, monkeypatch, capsys, where: list[int], seed: int) -> tuple[int, int]:
    """Flip each position of the table in turn; each must be reported and the rerun must
    give the true table. Returns (flips detected, flips made)."""
    rng = random.Random(seed)
    detected = 0
    replay(monkeypatch, truth)
    for pos in where:
        cache = restore(truth)
        cache.table_path.write_bytes(flipped(truth["bytes"], pos, rng))
        capsys.readouterr()
        res = run_study(truth["cfg"], quiet=True)
        err = capsys.readouterr().err
        if not res.from_cache and one_failure_line(err, cache.table_path):
            detected += 1
        pd.testing.assert_frame_equal(res.table, truth["table"])
    restore(truth)
    return detected, len(where)


def test_sampled_flips_of_the_table_are_all_detected(truth, monkeypatch, capsys):
    where = positions(len(truth["bytes"]), SAMPLED_FLIPS, seed=1)
    detected, made = flip_table(truth, monkeypatch, capsys, where, seed=2)
    assert detected == made == SAMPLED_FLIPS, f"{detected} of {made} flips detected"


def detect_every_flip(path: pathlib.Path, load, capsys, seed: int) -> tuple[int, int]:
    """Flip every byte of ``path`` in turn and load it: (flips detected, flips made)."""
    data = path.read_bytes()
    rng = random.Random(seed)
    detected = 0
    for pos in range(len(data)):
        path.write_bytes(flipped(data, pos, rng))
        capsys.readouterr()
        if load() is None and one_failure_line(capsys.readouterr().err, path):
            detected += 1
    path.write_bytes(data)
    return detected, len(data)


@pytest.mark.slow
def test_every_flip_of_the_table_and_of_a_part_is_detected(truth, monkeypatch, capsys, tmp_path):
    # loading only: the sampled tests above rerun the study after each flip
    cache = restore(truth)
    detected, made = detect_every_flip(cache.table_path, cache.load, capsys, seed=3)
    assert detected == made == len(truth["bytes"]), f"table: {detected} of {made} detected"
    _, cache = interrupted_after_first_part(truth, monkeypatch, tmp_path)
    detected, made = detect_every_flip(
        cache.part_path(0), lambda: cache.load_part(0), capsys, seed=9
    )
    assert detected == made > 0, f"part: {detected} of {made} detected"


def test_every_flip_of_the_checksum_file_is_detected(truth, capsys):
    rng = random.Random(4)
    cache = restore(truth)
    side = checksum_path(cache.table_path)
    for pos in range(len(truth["checksum"])):
        side.write_bytes(flipped(truth["checksum"], pos, rng))
        capsys.readouterr()
        assert cache.load() is None, pos
        assert one_failure_line(capsys.readouterr().err, cache.table_path), pos
    restore(truth)
    assert cache.load() is not None


def test_a_flipped_table_is_solved_again_for_real(truth, capsys):
    rng = random.Random(5)
    for pos in positions(len(truth["bytes"]), 3, seed=6):
        cache = restore(truth)
        cache.table_path.write_bytes(flipped(truth["bytes"], pos, rng))
        res = run_study(truth["cfg"], quiet=True)
        assert not res.from_cache and res.positions > 0
        assert one_failure_line(capsys.readouterr().err, cache.table_path)
        pd.testing.assert_frame_equal(res.table, truth["table"])
        assert cache.table_path.read_bytes() == truth["bytes"]  # the repaired table is cached
    assert run_study(truth["cfg"], quiet=True).from_cache


def interrupted_after_first_part(truth, monkeypatch, base: pathlib.Path):
    """A run of the tiny study under ``base`` stopped in its second chunk: part 0 is on disk."""
    cfg = tiny_malheur(base)
    asked = replay(monkeypatch, truth)
    solve = malheur_study.solve_hands

    def stops(cfg, hands, progress):
        if asked:
            raise KeyboardInterrupt
        return solve(cfg, hands, progress)

    monkeypatch.setattr(malheur_study, "solve_hands", stops)
    with pytest.raises(KeyboardInterrupt):
        run_study(cfg, quiet=True)
    cache = StudyCache(cfg)
    assert cache.part_path(0).exists() and not cache.part_path(1).exists()
    return cfg, cache


def test_sampled_flips_of_a_part_are_all_detected(truth, monkeypatch, capsys, tmp_path):
    cfg, cache = interrupted_after_first_part(truth, monkeypatch, tmp_path)
    part = cache.part_path(0)
    data = part.read_bytes()
    side = checksum_path(part).read_bytes()
    rng = random.Random(7)
    where = positions(len(data), SAMPLED_FLIPS, seed=8)
    detected = 0
    for pos in where:
        part.write_bytes(flipped(data, pos, rng))
        capsys.readouterr()
        if cache.load_part(0) is None and one_failure_line(capsys.readouterr().err, part):
            detected += 1
    assert detected == len(where) == SAMPLED_FLIPS, f"{detected} of {len(where)} detected"
    # the rerun solves the damaged part again and the finished table is the true one
    part.write_bytes(flipped(data, where[0], rng))
    checksum_path(part).write_bytes(side)
    asked = replay(monkeypatch, truth)
    res = run_study(cfg, quiet=True)
    assert one_failure_line(capsys.readouterr().err, part)
    assert res.parts_reused == 0 and len(asked) == 2
    pd.testing.assert_frame_equal(res.table, truth["table"])


def test_a_part_without_its_checksum_is_solved_again(truth, monkeypatch, capsys, tmp_path):
    cfg, cache = interrupted_after_first_part(truth, monkeypatch, tmp_path)
    checksum_path(cache.part_path(0)).unlink()
    asked = replay(monkeypatch, truth)
    res = run_study(cfg, quiet=True)
    err = capsys.readouterr().err
    assert "failed verification (no checksum recorded)" in err
    assert res.parts_reused == 0 and len(asked) == 2


def test_an_undamaged_part_is_reused(truth, monkeypatch, tmp_path):
    cfg, _ = interrupted_after_first_part(truth, monkeypatch, tmp_path)
    asked = replay(monkeypatch, truth)
    res = run_study(cfg, quiet=True)
    assert res.parts_reused == 1 and len(asked) == 1
    pd.testing.assert_frame_equal(res.table, truth["table"])


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("made_heuristic", 2, "other than -1, 0 or 1"),
        ("deals", -1, "negative"),
        ("hand_id", -3, "negative"),
        ("study_key", "000000000000", "study_key"),
    ],
)
def test_a_table_with_values_out_of_range_is_not_used(truth, capsys, column, value, words):
    cache = restore(truth)
    bad = truth["table"].copy()
    bad.loc[1, column] = value
    _atomic_write(bad, cache.table_path, cache.meta())  # a checksum that matches
    capsys.readouterr()
    assert cache.load() is None
    err = capsys.readouterr().err
    assert one_failure_line(err, cache.table_path) and words in err, err
    restore(truth)


def test_domains_of_the_shared_columns():
    ok = pd.DataFrame({"made": [0, 3], "deals": [3, 3], "p_make": [0.0, 1.0], "p": [np.nan, 1]})
    assert domain_problem(ok) is None
    assert "exceeds deals" in domain_problem(ok.assign(made=[0, 4]))
    assert "outside [0, 1]" in domain_problem(ok.assign(p_make=[0.0, 1.5]))
    assert "outside [0, 1]" in domain_problem(ok.assign(p=[-0.1, 0.5]))
    assert domain_problem(pd.DataFrame({"accepted": [2], "sampled": [1]})) is not None
    assert domain_problem(pd.DataFrame({"mean_tricks": [13.5]})) is not None


def test_page_checksums_are_written_and_checked(tmp_path):
    # a damaged data page whose file checksum was (wrongly) recomputed is still refused:
    # pyarrow checks each page's CRC on reading
    path = tmp_path / "t.parquet"
    df = pd.DataFrame({"deals": np.arange(4000, dtype=np.int64)})
    table = pa.Table.from_pandas(df, preserve_index=False)
    sink = io.BytesIO()
    pq.write_table(table, sink, write_page_checksum=True, compression="none")
    data = bytearray(sink.getvalue())
    data[len(data) // 2] ^= 0x40  # inside the one column's values
    _atomic_write(df, path)
    path.write_bytes(bytes(data))
    import hashlib

    checksum_path(path).write_text(f"{hashlib.sha256(data).hexdigest()}  {path.name}\n")
    with pytest.raises(VerificationError, match="cannot be decoded"):
        read_verified(path)


def test_a_stopped_force_run_keeps_the_old_table(truth, monkeypatch):
    cache = restore(truth)
    replay(monkeypatch, truth)
    calls = []

    def stops_in_second_chunk(cfg, hands, progress):
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return truth["parts"][0].copy()

    monkeypatch.setattr(malheur_study, "solve_hands", stops_in_second_chunk)
    with pytest.raises(KeyboardInterrupt):
        run_study(truth["cfg"], force=True, quiet=True)
    assert len(calls) == 2  # the forced run solved again, not loading the table
    assert cache.table_path.read_bytes() == truth["bytes"]
    assert checksum_path(cache.table_path).read_bytes() == truth["checksum"]
    assert cache.part_path(0).exists()  # what the forced run finished is kept too
    pd.testing.assert_frame_equal(cache.load(), truth["table"])
    replay(monkeypatch, truth)
    res = run_study(truth["cfg"], force=True, quiet=True)
    assert not res.from_cache
    pd.testing.assert_frame_equal(res.table, truth["table"])
    assert not cache.parts_dir.exists()


def test_a_table_that_cannot_be_written_is_kept_elsewhere(truth, monkeypatch, tmp_path):
    from analyser.errors import RikkenError
    from analyser.studies import cache as cache_module

    cfg = tiny_malheur(tmp_path)
    replay(monkeypatch, truth)
    real = cache_module.write_bytes_atomic

    def full_disk(path, data):
        if pathlib.Path(path).name == f"{cfg.name}.parquet":
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(cache_module, "write_bytes_atomic", full_disk)
    with pytest.raises(RikkenError, match="the finished table is kept in ") as info:
        run_study(cfg, quiet=True)
    kept = pathlib.Path(str(info.value).rsplit(" kept in ", 1)[1])
    try:
        pd.testing.assert_frame_equal(pd.read_parquet(kept), truth["table"])
    finally:
        kept.unlink()
    assert StudyCache(cfg).part_path(1).exists()  # the parts stay: a rerun resumes


def test_a_part_that_cannot_be_saved_does_not_stop_the_run(truth, monkeypatch, capsys, tmp_path):
    from analyser.studies import cache as cache_module

    cfg = tiny_malheur(tmp_path)
    replay(monkeypatch, truth)
    real = cache_module._atomic_write

    def full_disk(df, path, meta=None):
        if path.name.startswith("part-"):
            raise OSError(28, "No space left on device")
        return real(df, path, meta)

    monkeypatch.setattr(cache_module, "_atomic_write", full_disk)
    res = run_study(cfg, quiet=True)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("could not save" in line for line in lines), lines
    pd.testing.assert_frame_equal(res.table, truth["table"])
    assert StudyCache(cfg).load() is not None
