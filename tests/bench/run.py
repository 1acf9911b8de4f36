"""`make bench`: run every benchmark section and print its figures.

Speed targets are checked here, never in unit tests: each section measures against a
reference in the same run and prints the ratio, because these machines are shared and noisy.
Run one section with `python tests/bench/run.py sampler` (names: the bench_*.py modules).

Before the first section, warm.py fills numba's on-disk cache in a subprocess, so no timed
section pays for compilation.
"""

from __future__ import annotations

import importlib
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))


def sections() -> list[str]:
    """Benchmark section names, in a fixed order (file names bench_<name>.py)."""
    order = ["sampler", "solver", "analyse"]
    found = sorted(p.stem[len("bench_") :] for p in HERE.glob("bench_*.py"))
    return [s for s in order if s in found] + [s for s in found if s not in order]


def warm_cache() -> None:
    """Run warm.py in a subprocess and say how long it took (long: numba compiled)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, str(HERE / "warm.py")], check=True, capture_output=True)
    print(
        f"numba cache warmed in a subprocess: {time.perf_counter() - t0:.1f} s "
        "(compiles on a fresh clone; the timed sections only load the cache)\n",
        flush=True,
    )


def main(argv: list[str]) -> int:
    wanted = argv or sections()
    warm_cache()
    for name in wanted:
        module = importlib.import_module(f"bench_{name}")
        print(f"== {name} ==", flush=True)
        t0 = time.perf_counter()
        module.main()
        print(f"   ({name}: {time.perf_counter() - t0:.1f} s wall)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
