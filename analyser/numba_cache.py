"""numba's on-disk cache, keyed on every source file the compiled code depends on.

numba (``cache=True``) stamps a function's cache entry with its own source file only. A function
that calls, or inlines, a compiled function from another module, or reads a constant from one,
keeps loading its old machine code after that other module is edited: a known numba
limitation. The solver is spread over a dozen modules whose functions are inlined into the
search, so an edit to a bound in ``quick_tricks.py`` would silently leave the cached search as
it was.

:func:`key_cache_on_sources` gives each dispatcher of a module a cache whose stamp is the hash
of a list of source files (the whole solver, say), so an edit to any of them makes every one
of those functions compile again on its next call. The cache files stay where numba puts them
(``__pycache__``, or ``NUMBA_CACHE_DIR``); an entry written under another stamp is replaced.
This uses numba's cache classes (``numba.core.caching``), which are not a public API:
``tests/test_numba_cache.py`` fails if a numba release changes them.
"""

from __future__ import annotations

import functools
import hashlib
import pathlib
from collections.abc import Iterable

from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)
from numba.core.dispatcher import Dispatcher

PACKAGE_DIR = pathlib.Path(__file__).resolve().parent


@functools.cache
def sources_hash(paths: tuple[str, ...], base: pathlib.Path = PACKAGE_DIR) -> str:
    """SHA-256 of the files ``paths`` (relative to ``base``, the package directory by
    default), in sorted order, each with its name: the stamp of every cache keyed on them.
    Computed once per process."""
    h = hashlib.sha256()
    for rel in sorted(paths):
        h.update(rel.encode() + b"\0")
        h.update((base / rel).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _keyed_cache_class(
    paths: tuple[str, ...], base: pathlib.Path, salt: str = ""
) -> type[FunctionCache]:
    """A FunctionCache whose locators stamp entries with ``sources_hash(paths, base)`` (and
    ``salt``, when given)."""
    stamp = ("sources", sources_hash(paths, base) + salt)

    def get_source_stamp(self):
        return stamp

    # numba's own locators, in its order of preference, with the stamp replaced
    locators = [
        type(f"Keyed{base.__name__}", (base,), {"get_source_stamp": get_source_stamp})
        for base in (UserProvidedCacheLocator, InTreeCacheLocator, UserWideCacheLocator)
    ]
    impl = type("KeyedCacheImpl", (CompileResultCacheImpl,), {"_locator_classes": locators})
    return type("KeyedFunctionCache", (FunctionCache,), {"_impl_class": impl})


def key_cache_on_sources(
    namespace: dict, paths: Iterable[str], base: pathlib.Path = PACKAGE_DIR, salt: str = ""
) -> list[str]:
    """Key the on-disk cache of every caching numba dispatcher defined in the module whose
    ``globals()`` is ``namespace`` on the files ``paths`` (relative to ``base``, by default
    the package directory: e.g. ``"solver/search.py"``). Call it at the end of the module,
    before any of its functions is compiled. Returns the names of the dispatchers it
    changed."""
    paths = tuple(sorted(set(paths)))
    cache_class = _keyed_cache_class(paths, pathlib.Path(base), salt)
    module = namespace.get("__name__")
    names = []
    for name, obj in list(namespace.items()):
        if not isinstance(obj, Dispatcher) or obj.py_func.__module__ != module:
            continue
        if not isinstance(obj._cache, FunctionCache):
            continue  # compiled without cache=True
        obj._cache = cache_class(obj.py_func)
        names.append(name)
    return names


def cache_stamp(dispatcher: Dispatcher):
    """The stamp the dispatcher's cache entries carry (for tests and diagnostics)."""
    return dispatcher._cache._impl.locator.get_source_stamp()


def has_cached_code(dispatcher: Dispatcher) -> bool:
    """Whether numba's on-disk cache holds compiled code of ``dispatcher`` under its current
    stamp (an index file with an entry): when it does not, the next call compiles. Cheap: it
    reads the small index file, not the machine code."""
    cache = dispatcher._cache
    if not isinstance(cache, FunctionCache):
        return False
    try:
        return bool(cache._cache_file._load_index())
    except Exception:  # an unreadable or foreign index: numba compiles and overwrites it
        return False


def cache_dir(dispatcher: Dispatcher) -> pathlib.Path | None:
    """The folder numba keeps ``dispatcher``'s cache in (None without ``cache=True``)."""
    cache = dispatcher._cache
    return pathlib.Path(cache._cache_path) if isinstance(cache, FunctionCache) else None
