"""What do the finished chunks of the real-play calibration run say so far?

The calibration run (``rikken study run sims/full/real_play.toml``, Study 13 at its full
size) takes many hours on two cores and may span sessions; each chunk it finishes is saved
under ``data/real_play/cache/real_play-<key>/`` and committed. This script fits the curves
on the chunks finished so far (the same fit as the finished study,
:func:`analyser.studies.real_play_fit.summary`) and writes the calibration file the analysis
reads, ``data/real_play/real_play_calibration.json``, marked ``"complete": false`` with
``chunks_done`` of ``chunks`` and the run's key: until the run finishes, the shipped curves
are this fit, and every figure drawn from them says on how many deals it rests.

Run: ``PYTHONPATH=. python sims/real_play_so_far.py [--key KEY]`` (default: the only run
folder under data/real_play/cache). The finished run writes the complete file itself.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyser.studies.config import load_study  # noqa: E402
from analyser.studies.real_play import P_HIGH, P_LOW, calibration_file, plan  # noqa: E402
from analyser.studies.real_play_fit import finished_parts, summary  # noqa: E402

CONFIG = ROOT / "sims" / "full" / "real_play.toml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--key", help="the run's cache key (folder real_play-KEY)")
    args = ap.parse_args()
    cfg = load_study(CONFIG)
    cache = cfg.data_dir / "cache"
    runs = sorted(cache.glob(f"{cfg.name}-{args.key or '*'}"))
    if len(runs) != 1:
        found = ", ".join(r.name for r in runs) or "none"
        sys.exit(f"real_play_so_far: one run folder expected under {cache}, found {found}")
    df, done = finished_parts(runs[0])
    if df.empty:
        sys.exit(f"real_play_so_far: no finished chunk in {runs[0]}")
    chunks = -(-len(plan(cfg)) // cfg["chunk_hands"])
    run = {"key": runs[0].name.rsplit("-", 1)[1], "complete": done == chunks,
           "chunks_done": done, "chunks": chunks}  # fmt: skip
    tables = summary(df, cfg, (P_LOW, P_HIGH), calibration_file(cfg), run)
    print(f"{done} of {chunks} chunks, {int((df['deal'] >= 0).sum())} played deals")
    print(tables["curves"].to_string(index=False))
    print(f"written: {calibration_file(cfg)}")


if __name__ == "__main__":
    main()
