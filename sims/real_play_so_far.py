"""What do the finished chunks of the real-play calibration runs say so far?

The calibration (Study 13 at its full size) is four runs: ``sims/full/real_play.toml``,
``sims/full/real_play_more.toml`` (more hands for the families the first cannot bring to
their targets), ``sims/full/real_play_edges.toml`` (strata where the bands were widest) and
``sims/full/real_play_top_up.toml`` (the same strata again, with another seed).
Each takes hours on two cores and may span sessions; each chunk a run finishes is saved
under ``data/real_play/cache/<name>-<key>/`` and committed, and a run that finishes writes
its table, ``data/real_play/<name>.parquet``, in place of that folder. The first two were
stopped part of the way (:data:`STOPPED`): their families are interleaved, so their finished
chunks are a proportional part of their panels. This script fits the curves on what all runs
finished so far (the same fit as the finished study,
:func:`analyser.studies.real_play_fit.summary`; a hand is a cluster of its own run) and
writes the calibration file the analysis reads, ``data/real_play/real_play_calibration.json``:
``"complete"`` is true only when every run has finished or was stopped; ``runs`` gives each
run's study, key, seed, chunks done of its chunks and whether it was stopped, and ``key``
joins the runs' keys. Until then, the shipped curves are this fit, and every figure drawn from
them says on how many deals it rests. A run that finishes writes a file of its own data
alone: run this script again after it.

Run: ``PYTHONPATH=. python sims/real_play_so_far.py``
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from analyser.studies.cache import StudyCache, VerificationError, read_verified  # noqa: E402
from analyser.studies.config import load_study  # noqa: E402
from analyser.studies.real_play import P_HIGH, P_LOW, calibration_file, plan  # noqa: E402
from analyser.studies.real_play_fit import finished_parts, summary  # noqa: E402

RUNS = tuple(
    ROOT / "sims" / "full" / f"{name}.toml"
    for name in ("real_play", "real_play_more", "real_play_edges", "real_play_top_up")
)
# runs stopped before their end (they keep the chunks they finished): their remaining play
# went to the strata of real_play_edges, which narrow the widest bands for a third of the cost
STOPPED = {"real_play", "real_play_more"}
# hand ids restart at 0 in every run; a run's ids are shifted by this much times its index so
# that each hand stays a cluster of its own
RUN_OFFSET = 10_000_000


def finished_run(cfg, chunks: int) -> tuple[pd.DataFrame, int, str]:
    """What a run has finished: its played rows, its chunks done and its key. A finished run
    left its table (``<data_dir>/<name>.parquet``, every chunk; the study removes the cache
    folder once the table is written); a run in progress or stopped left its cache folder.
    The table is read whatever code key the checkout has now (a run keeps the code it started
    with), but only if it passes verification and is this study's."""
    found = sorted((cfg.data_dir / "cache").glob(f"{cfg.name}-*"))
    if len(found) > 1:
        names = ", ".join(r.name for r in found)
        sys.exit(f"real_play_so_far: one run folder expected for {cfg.name}, found {names}")
    if found:
        df, done = finished_parts(found[0])
        return df, done, found[0].name.rsplit("-", 1)[1]
    table = StudyCache(cfg).table_path  # where the study writes its finished table
    if not table.exists():
        return pd.DataFrame(), 0, cfg.key
    try:
        df, meta = read_verified(table)
    except VerificationError as exc:
        sys.exit(f"real_play_so_far: {table}: {exc}")
    if not meta or meta.get("study") != cfg.name:
        sys.exit(f"real_play_so_far: {table} is not the table of the study {cfg.name}")
    return df, chunks, meta["key"]


def main() -> None:
    frames, runs = [], []
    for i, path in enumerate(RUNS):
        cfg = load_study(path)
        chunks = -(-len(plan(cfg)) // cfg["chunk_hands"])
        df, done, key = finished_run(cfg, chunks)
        if not df.empty:
            frames.append(df.assign(hand_id=df["hand_id"] + i * RUN_OFFSET))
        runs.append({"study": cfg.name, "key": key, "seed": cfg["seed"],
                     "chunks_done": done, "chunks": chunks,
                     "stopped": cfg.name in STOPPED})  # fmt: skip
        print(f"{cfg.name}: {done} of {chunks} chunks" + (" (stopped)" * (cfg.name in STOPPED)))
    if not frames:
        sys.exit("real_play_so_far: no finished chunk in any run")
    df = pd.concat(frames, ignore_index=True)
    first = load_study(RUNS[0])
    run = {
        "key": "+".join(r["key"] for r in runs),
        "complete": all(r["chunks_done"] == r["chunks"] or r["stopped"] for r in runs),
        "chunks_done": sum(r["chunks_done"] for r in runs),
        "chunks": sum(r["chunks"] for r in runs),
        "runs": runs,
    }
    tables = summary(df, first, (P_LOW, P_HIGH), calibration_file(first), run)
    print(f"{int((df['deal'] >= 0).sum())} played deals")
    print(tables["curves"].to_string(index=False))
    print(f"written: {calibration_file(first)}")


if __name__ == "__main__":
    main()
