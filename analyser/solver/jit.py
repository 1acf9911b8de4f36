"""How the solver's modules are compiled: one call at the end of each module.

:func:`finish_module` makes every numba function the module defines

* compile without numba's negative-index wraparound (analyser/solver/plain_index.py), and
* keep its on-disk cache keyed on the sources of the whole solver (analyser/numba_cache.py):
  the search inlines helpers from every module below, so an edit to any of them must
  recompile it, which numba's own per-file stamp does not do.

COMPILED_MODULES lists the modules that define numba functions; a test checks that no other
solver module does, so a new module cannot be left out of the key.
"""

from __future__ import annotations

import os

from analyser.numba_cache import key_cache_on_sources
from analyser.solver.plain_index import compile_without_wraparound

COMPILED_MODULES = (
    "bits",
    "layout",
    "position",
    "table_keys",
    "table",
    "partition",
    "quick_runs",
    "quick_cross",
    "quick_tricks",
    "later_tricks",
    "cuts",
    "moves",
    "first_moves",
    "misere_proof",
    "joined_moves",
    "joined_cuts",
    "joined_table",
    "joined_misere",
    "trick_start",
    "search",
    "driver",
    "play",
)
# what the compiled code depends on: the modules themselves and how they are compiled
SOLVER_SOURCES = tuple(f"solver/{m}.py" for m in COMPILED_MODULES) + (
    "solver/state.py",
    "solver/plain_index.py",
    "solver/jit.py",
    "numba_cache.py",
)


# The solver's profile per concern (layout.S_PROFILE) is compiled in only in a process started
# with RIKKEN_SOLVER_PROFILE=1 (tests/bench/bench_solver_profile.py starts one, with a cache
# folder of its own). Everywhere else numba sees a constant False and drops its hooks: read at
# run time, they cost 2.7% of the instructions of the bench's exact counts (10 deals under
# callgrind, the same nodes). The cache stamp names the build, so neither loads the other's code.
PROFILE_SWITCH = "RIKKEN_SOLVER_PROFILE"
PROFILE_BUILD = os.environ.get(PROFILE_SWITCH) == "1"


def profile_build_env(cache_dir: str) -> dict[str, str]:
    """The environment of a subprocess that runs the profile build, with ``cache_dir`` as its
    numba cache folder (apart from the other build's, whose entries it would replace)."""
    return {**os.environ, PROFILE_SWITCH: "1", "NUMBA_CACHE_DIR": cache_dir}


def finish_module(namespace: dict) -> None:
    """Compile the numba functions of the module whose ``globals()`` is ``namespace`` without
    the wraparound, and key their cache on SOLVER_SOURCES."""
    compile_without_wraparound(namespace)
    key_cache_on_sources(namespace, SOLVER_SOURCES, salt="profile" if PROFILE_BUILD else "")
