"""Shared test setup."""

import os

# A command prints a one-line notice before it compiles the solver (analyser/cli/warmup.py).
# Tests read commands' output, which must not depend on the state of numba's cache; the
# notice has its own tests (tests/test_warmup.py), which clear this.
os.environ.setdefault("RIKKEN_NO_COMPILE_NOTICE", "1")
