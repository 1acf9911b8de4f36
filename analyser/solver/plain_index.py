"""Compile the solver without numba's negative-index wraparound.

numba lets a signed integer index count from the end of an array (``a[-1]`` is the last
element), so every array access with a signed index compares it with zero and adds the
length when it is negative. The solver never indexes from the end, and its search makes a
few hundred array accesses per node, all with signed (int64) indices. Compiled without the
wraparound, 150 rik positions (``>=8``, then the exact count, one thread) took 3.55 s instead
of 3.95 s, with the same nodes and answers; ``rikken analyse`` at 1000 deals took 63.8 s
instead of 70.9 s on the benchmark's borderline rik hand and 74.2 s instead of 81.1 s on its
malheur hand (same run, byte-identical results).

numba has no switch for this (Cython's ``wraparound(False)``), so
:func:`compile_without_wraparound` wraps the ``compile`` method of each dispatcher it is given:
while one of them compiles, numba's index hook ``numba.np.arrayobj.fix_integer_index`` is
replaced by one that only casts the index. Everything compiled meanwhile is affected: the
dispatcher, the helpers it calls, and numba's implementations of the numpy functions they
use. The swap is made under numba's global compiler lock, so no concurrent compilation sees
it; but a function first compiled inside the window keeps its plain code for every later
caller. That is why the solver may only use numpy functions that never index from the end
(``np.zeros``, ``np.empty``, ``np.full``, ``np.arange``, ``copy``, ``reshape``, ``view``: numba's
``np.linspace``, for one, writes ``a[-1]``); ``tests/test_solver_plain_index.py`` fails when
the solver's source calls any other. Indices of tuples and lists still wrap (numba handles
them elsewhere); only array indices are plain.

An array index that is negative by mistake now reads or writes outside the array instead of
at its end (both are wrong). To look for one, run the tests with ``NUMBA_BOUNDSCHECK=1`` and a
throwaway ``NUMBA_CACHE_DIR`` (the cache does not record the bounds check, so a normal run must
not load that code): numba's bounds check then raises ``IndexError`` on any negative index.
The same test file checks that the hook still exists and still removes the wraparound, so a
numba release that changes it fails the tests instead of silently making the solver slower.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

from numba.core import types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher
from numba.np import arrayobj

_HOOK = "fix_integer_index"


def _index_as_is(context, builder, idxty, idx, size):
    """numba's index hook without the wraparound: the index cast to the pointer width."""
    return context.cast(builder, idx, idxty, types.uintp if not idxty.signed else types.intp)


def hook_available() -> bool:
    """True if this numba has the index hook this module replaces."""
    return callable(getattr(arrayobj, _HOOK, None))


@contextmanager
def plain_indices():
    """Within this block, numba compiles integer indices without the wraparound."""
    with global_compiler_lock:
        saved = getattr(arrayobj, _HOOK)
        setattr(arrayobj, _HOOK, _index_as_is)
        try:
            yield
        finally:
            setattr(arrayobj, _HOOK, saved)


def _wrap(dispatcher: Dispatcher) -> None:
    original: Callable = dispatcher.compile

    def compile_plain(sig, *args, **kwargs):
        with plain_indices():
            return original(sig, *args, **kwargs)

    dispatcher.compile = compile_plain
    dispatcher.plain_indices = True


def compile_without_wraparound(namespace: dict) -> list[str]:
    """Make every numba dispatcher defined in the module whose ``globals()`` is
    ``namespace`` compile without the wraparound; returns their names. Imported ones are
    left alone (they are still compiled plain when one of these calls them first). Without
    the hook (another numba), nothing changes: the code stays correct, only slower."""
    if not hook_available():
        return []
    module = namespace.get("__name__")
    names = []
    for name, obj in list(namespace.items()):
        if (
            isinstance(obj, Dispatcher)
            and obj.py_func.__module__ == module
            and not getattr(obj, "plain_indices", False)
        ):
            _wrap(obj)
            names.append(name)
    return names
