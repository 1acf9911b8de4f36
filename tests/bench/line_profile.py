"""Where the solver's time goes, by source line: perf's samples mapped onto the numba code.

`python tests/bench/line_profile.py [--mode exact|>=7] [--lines N]` solves the solver
benchmark's 100 deals under `perf record -e cpu-clock` (a software clock: these machines
offer no hardware counters), with numba compiling the solver with line tables
(`NUMBA_DEBUGINFO=1`) into a cache folder of its own (data/cache/numba-lines; the first run
compiles for about two minutes). It prints the share of the solver's samples per function
(inlined helpers are counted apart from the search that inlines them) and per source line.

How the addresses are mapped: numba's cache file of a compiled function holds its object
code (an ELF object, line table included). The solver process writes out, when it is done,
its executable memory that belongs to no file (where numba's code runs); each such region
that begins with an object's code section is that object, loaded at the region's first
byte. `objdump -d -l` then gives each instruction's source line, and each sample's address
its instruction. Needs `perf` and `objdump` (binutils).

`--callgrind` counts instructions instead of sampling time: the deals run under valgrind's
callgrind (`--deals N`, 20 by default: about 80 times slower than native), and each line gets
the instructions executed there, exactly and the same on every run. These machines sample
with a software clock whose samples land near, not on, the instruction that took the time (a
load's stall was charged to the lines after it, by 8.8%, where removing the load changed
nothing); instruction counts do not depend on the load or the clock. valgrind's processor
lacks the host's newer instructions, so that run compiles the solver for a plain AVX2
processor (haswell), in a cache folder of its own.
"""

from __future__ import annotations

import argparse
import ast
import collections
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CACHE = ROOT / "data" / "cache" / "numba-lines"
# valgrind runs the code of an AVX2 processor: numba must compile for one (its cache is keyed on
# the processor's name and features, so the host's build would be compiled again under valgrind)
GENERIC_CPU = {
    "NUMBA_CPU_NAME": "haswell",
    "NUMBA_CPU_FEATURES": "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+f16c,+fma,+lzcnt,+movbe,"
    "+popcnt,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave",
}


def child(mode: str, out: pathlib.Path | None, n_deals: int = 100) -> None:
    """Solve the bench's first ``n_deals`` deals, then write each anonymous executable region
    of this process (numba's code) to ``out``; without ``out``, solve one deal (to fill
    numba's cache)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    from bench_solver import SEED, make_deals

    from analyser.solver import Solver

    solver = Solver()
    goal = "tricks" if mode == "exact" else ">=7"
    for hands, trump, leader in make_deals(n_deals if out else 1, SEED):
        solver.solve(hands, trump, leader, [leader, (leader + 2) % 4], goal)
    if out is None:
        return
    maps = pathlib.Path("/proc/self/maps").read_text()
    with open("/proc/self/mem", "rb") as mem:
        for line in maps.splitlines():
            fields = line.split()
            if "x" in fields[1] and len(fields) < 6:
                lo, hi = (int(x, 16) for x in fields[0].split("-"))
                mem.seek(lo)
                (out / f"{lo:x}.bin").write_bytes(mem.read(hi - lo))


def elf_objects(cache: pathlib.Path, scratch: pathlib.Path) -> list[pathlib.Path]:
    """The ELF objects inside numba's cache files under ``cache``, written to ``scratch``."""
    found = []
    for k, nbc in enumerate(sorted(cache.rglob("*.nbc"))):
        data = nbc.read_bytes()
        at = data.find(b"\x7fELF")
        while at >= 0:
            shoff = struct.unpack_from("<Q", data, at + 0x28)[0]
            shentsize, shnum = struct.unpack_from("<HH", data, at + 0x3A)
            end = at + shoff + shentsize * shnum
            path = scratch / f"{k}-{at}.o"
            path.write_bytes(data[at:end])
            found.append(path)
            at = data.find(b"\x7fELF", end)
    return found


def code_section(obj: pathlib.Path, scratch: pathlib.Path) -> bytes:
    """The object's code: its .ltext section (large code model), else .text."""
    for name in (".ltext", ".text"):
        out = scratch / "section.bin"
        subprocess.run(
            ["objcopy", "-O", "binary", f"--only-section={name}", str(obj), str(out)],
            check=True,
            capture_output=True,
        )
        code = out.read_bytes()
        if code:
            return code
    return b""


def line_table(obj: pathlib.Path) -> dict[int, tuple[str, int]]:
    """Each instruction offset of ``obj``'s code and its source (file name, line)."""
    text = subprocess.run(
        ["objdump", "-d", "-l", "--no-show-raw-insn", str(obj)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines, where = {}, None
    for row in text.splitlines():
        m = re.match(r"^(/\S+\.py):(\d+)", row)
        if m:
            where = (pathlib.Path(m.group(1)).name, int(m.group(2)))
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s", row)
        if m and where:
            lines[int(m.group(1), 16)] = where
    return lines


def callgrind_costs(path: pathlib.Path, event: str) -> collections.Counter:
    """``event`` (Ir: instructions, Bcm: mispredicted conditional branches) per code address,
    from a callgrind output file written with ``--dump-instr=yes --dump-line=no`` (self cost
    only: a call's inclusive cost, the cost line after ``calls=``, is skipped)."""
    costs: collections.Counter = collections.Counter()
    column = 0
    addr = 0
    after_call = False
    for row in path.read_text().splitlines():
        if row.startswith("events:"):
            column = row.split()[1:].index(event)
            continue
        if not row or not (row[0] in "+-*" or row.startswith("0x")):
            after_call = after_call or row.startswith("calls=")
            continue
        pos, *values = row.split()
        if pos[0] in "+-":
            step = int(pos[1:], 16 if pos[1:].startswith("0x") else 10)
            addr += step if pos[0] == "+" else -step
        elif pos != "*":
            addr = int(pos, 16)
        if after_call:
            after_call = False
            continue
        # trailing zero costs are left out of a line
        if column < len(values):
            costs[addr] += int(values[column])
    return costs


def function_of(source: str, line: int, cache: dict) -> str:
    """The innermost function of analyser/solver/``source`` around ``line``."""
    if source not in cache:
        path = ROOT / "analyser" / "solver" / source
        tree = ast.parse(path.read_text()) if path.exists() else ast.Module(body=[])
        cache[source] = [
            (n.lineno, n.end_lineno, n.name)
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef)
        ]
    around = [(a, name) for a, b, name in cache[source] if a <= line <= b]
    return f"{source}:{max(around)[1] if around else '?'}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=["exact", ">=7"], default="exact")
    ap.add_argument("--lines", type=int, default=30, help="how many source lines to print")
    ap.add_argument(
        "--callgrind",
        action="store_true",
        help="count instructions under valgrind's callgrind instead of sampling time",
    )
    ap.add_argument(
        "--event",
        choices=["Ir", "Bcm"],
        default="Ir",
        help="with --callgrind: instructions (Ir) or mispredicted branches (Bcm, valgrind's "
        "model of a branch predictor)",
    )
    ap.add_argument("--deals", type=int, default=None, help="solve the first N deals only")
    ap.add_argument("--child", type=pathlib.Path, help=argparse.SUPPRESS)
    ap.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    n_deals = args.deals if args.deals is not None else (20 if args.callgrind else 100)
    if not 1 <= n_deals <= 100:
        print("error: --deals must be between 1 and 100", file=sys.stderr)
        return 2
    if args.child or args.warm:
        child(args.mode, args.child, n_deals)
        return 0
    for tool in ("valgrind" if args.callgrind else "perf", "objdump", "objcopy"):
        if shutil.which(tool) is None:
            print(f"error: {tool} is not installed", file=sys.stderr)
            return 2
    cache = CACHE.with_name(CACHE.name + "-haswell") if args.callgrind else CACHE
    cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "NUMBA_DEBUGINFO": "1", "NUMBA_CACHE_DIR": str(cache)}
    if args.callgrind:
        env.update(GENERIC_CPU)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = pathlib.Path(tmp)
        # compile (or load) first, so the samples are of the solving only
        print(f"numba cache with line tables: {cache} (compiles on first use)", flush=True)
        subprocess.run([sys.executable, __file__, "--warm"], env=env, check=True)
        data = scratch / ("callgrind.out" if args.callgrind else "perf.data")
        run = [sys.executable, __file__, "--mode", args.mode, "--deals", str(n_deals)]
        run += ["--child", str(scratch)]
        if args.callgrind:
            print(f"solving the bench's first {n_deals} deals under callgrind ...", flush=True)
            tool = ["valgrind", "-q", "--tool=callgrind", "--dump-instr=yes", "--dump-line=no"]
            tool += ["--branch-sim=yes"] if args.event == "Bcm" else []
            tool += [f"--callgrind-out-file={data}"]
        else:
            print(f"solving the bench's first {n_deals} deals under perf ...", flush=True)
            tool = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "5000", "-o", str(data)]
            tool += ["--"]
        recorded = subprocess.run(tool + run, env=env)
        if recorded.returncode != 0 or not data.exists():
            # e.g. kernel.perf_event_paranoid forbids sampling for this user
            print(f"error: {tool[0]} failed (see its message above)", file=sys.stderr)
            return 2
        if args.callgrind:
            samples = callgrind_costs(data, args.event)
        else:
            ips = subprocess.run(
                ["perf", "script", "-i", str(data), "-F", "ip"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            samples = collections.Counter(int(x, 16) for x in ips)
        regions = {int(p.stem, 16): p.read_bytes() for p in scratch.glob("*.bin")}
        by_line, by_func, funcs = collections.Counter(), collections.Counter(), {}
        for obj in elf_objects(cache, scratch):
            code = code_section(obj, scratch)
            if len(code) < 4096:
                continue
            for base in list(regions):
                # the same bytes but where the loader patched in addresses
                pairs = zip(code[:4096], regions[base][:4096], strict=False)
                if sum(x == y for x, y in pairs) < 4000:
                    continue
                del regions[base]
                table = line_table(obj)
                for ip, n in samples.items():
                    where = table.get(ip - base)
                    if where:
                        by_line[where] += n
                        by_func[function_of(*where, funcs)] += n
        total = sum(by_line.values())
        if total == 0:
            print("error: no sample fell in the solver's code", file=sys.stderr)
            return 1
        unit = "samples"
        if args.callgrind:
            unit = "instructions" if args.event == "Ir" else "mispredicted branches"
        everything = sum(samples.values())
        print(f"{total:,} {unit} in the solver's code ({everything:,} in all)\n")
        for name, n in by_func.most_common(25):
            print(f"  {100 * n / total:5.1f}%  {name}")
        print()
        for (source, line), n in by_line.most_common(args.lines):
            print(f"  {100 * n / total:5.1f}%  {source}:{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
