"""The solver compiles without numba's negative-index wraparound (analyser/solver/plain_index.py).

These tests fail when a numba release changes the hook the module replaces: the solver would
still be right, but slower, and nobody would notice otherwise.
"""

import importlib
import inspect
import re

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher
from numba.np import arrayobj

from analyser.solver.jit import COMPILED_MODULES
from analyser.solver.plain_index import compile_without_wraparound, hook_available

SOLVER_MODULES = [importlib.import_module(f"analyser.solver.{m}") for m in COMPILED_MODULES]

# numpy names the solver may use: numba's versions of these never index from the end, so
# they stay right when first compiled without the wraparound (plain_index.py)
NUMPY_ALLOWED = {"arange", "empty", "full", "zeros", "int8", "int64", "uint64"}
# (numba's reshape indexes the new shape only with the axis numbers 0, 1, ...)
METHODS_ALLOWED = {"copy", "reshape", "view"}


def _read(a, i, j):
    return a[i, j]


def _selects(dispatcher) -> int:
    """Number of LLVM select instructions in the compiled code (one per wrapped index)."""
    return sum(ir.count(" select ") for ir in dispatcher.inspect_llvm().values())


def _elsewhere():
    """A dispatcher whose function belongs to another module."""
    namespace = {"__name__": "another_module"}
    exec("def f(a):\n    return a[0]\n", namespace)
    return njit(namespace["f"])


def test_numba_has_the_hook():
    assert hook_available()


def test_an_access_loses_its_wraparound_and_keeps_its_value():
    usual = njit(_read)
    plain = njit(_read)
    imported = _elsewhere()
    namespace = {"__name__": __name__, "plain": plain, "other": 3, "imported": imported}
    assert compile_without_wraparound(namespace) == ["plain"]
    assert not getattr(imported, "plain_indices", False)  # defined elsewhere: left alone
    a = np.arange(12).reshape(3, 4)
    for i in range(3):
        for j in range(4):
            assert plain(a, i, j) == usual(a, i, j) == a[i, j]
    # numba wraps both signed indices (a compare and a select each); the plain copy has none
    assert _selects(usual) >= 2
    assert _selects(plain) == 0


def test_the_hook_is_restored_after_compiling():
    hook = arrayobj.fix_integer_index
    plain = njit(_read)
    compile_without_wraparound({"__name__": __name__, "plain": plain})
    plain(np.zeros((2, 2)), 1, 1)
    assert arrayobj.fix_integer_index is hook
    # a function compiled afterwards still wraps: -1 is the last element
    assert njit(_read)(np.arange(6).reshape(2, 3), -1, -1) == 5


def test_every_solver_function_compiles_plain():
    compiled = 0
    for module in SOLVER_MODULES:
        dispatchers = [v for v in vars(module).values() if isinstance(v, Dispatcher)]
        own = [d for d in dispatchers if d.py_func.__module__ == module.__name__]
        assert all(getattr(d, "plain_indices", False) for d in own), module.__name__
        compiled += len(own)
    assert compiled >= 60  # the search and its helpers: none escaped the list


def test_the_solver_uses_only_numpy_functions_safe_without_wraparound():
    for module in SOLVER_MODULES:
        source = inspect.getsource(module)
        used = set(re.findall(r"\bnp\.([a-zA-Z_0-9]+)", source))
        assert used <= NUMPY_ALLOWED, used - NUMPY_ALLOWED
        methods = set(re.findall(r"\)\.([a-z_]+)\(", source)) | set(
            re.findall(r"\]\.([a-z_]+)\(", source)
        )
        assert methods <= METHODS_ALLOWED, methods - METHODS_ALLOWED
