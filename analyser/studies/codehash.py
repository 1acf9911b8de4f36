"""The code a study's results depend on, as one hash: part of the study's cache key.

A study's table is a function of its parameters and of the code that computes it, so the
cache key (:attr:`~analyser.studies.config.StudyConfig.key`) hashes both. :func:`code_hash`
is the SHA-256 of the source files (their contents, never their modification times; sorted
by path relative to the ``analyser`` package, each with that path) of:

* the study's own module (``analyser/studies/<kind>.py``) and, transitively, every module of
  the ``analyser`` package that it imports, at module level or inside a function, with the
  packages above each one (whose ``__init__`` runs on import): ``studies.common``,
  ``studies.solve``, ``studies.hands``, the guidelines, ``cards``, ``notation`` and so on;
* always, imported or not: the sampler (``sampler.py``) and every ``.py`` file of the rules
  package (``rules/``) and of the solver package (``solver/``).

A study module's report part (its top-level ``report_blocks`` function, ``INTRO`` text and
``METHOD_NOTE``) and its summary (``summarise`` and ``classifiers``, which the runner applies
to the table after solving or loading it), with what only they import, are left out
(:func:`results_source`): the cached table does not depend on them, so editing a chart, a
reading or a fit never re-solves a study.

Imports are read from the source (:mod:`ast`), not from ``sys.modules``, so the hash is the
same in every process and does not depend on what happens to be imported. Only files of the
``analyser`` package count: a new numpy or numba release does not change the hash.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import pathlib
from collections.abc import Iterable

PACKAGE = "analyser"
PACKAGE_DIR = pathlib.Path(__file__).resolve().parents[1]
ALWAYS = ("sampler.py", "rules", "solver")
"""Files and folders (relative to the package) every study's hash covers."""


REPORT_PART = ("report_blocks", "INTRO", "METHOD_NOTE", "summarise", "classifiers")
"""Top-level names of a study module that only read its solved table (the report section and
the summary tables): the table does not depend on them."""


def read_source(path: pathlib.Path) -> bytes:
    """The bytes of one source file (the one place sources are read), without its report
    part (:func:`results_source`)."""
    return results_source(path.read_bytes())


def results_source(source: bytes) -> bytes:
    """``source`` without the top-level definitions named in REPORT_PART and its ``if
    TYPE_CHECKING:`` imports (their lines removed), so neither their text nor their imports
    reach the hash."""
    if not any(name.encode() in source for name in (*REPORT_PART, "TYPE_CHECKING")):
        return source
    tree = ast.parse(source)
    drop: set[int] = set()
    for node in tree.body:
        names = []
        if isinstance(node, ast.FunctionDef):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        type_only = isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
        if type_only or any(n in REPORT_PART for n in names):
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            drop.update(range(first - 1, node.end_lineno))
    lines = source.splitlines(keepends=True)
    return b"".join(line for i, line in enumerate(lines) if i not in drop)


def _module_file(name: str, root: pathlib.Path) -> pathlib.Path | None:
    """The file of module ``name`` (``analyser.x.y``) under ``root``, None if it is not one."""
    parts = name.split(".")[1:]
    base = root.joinpath(*parts)
    if parts and base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


@functools.lru_cache(maxsize=512)
def _imported_names(source: bytes, module: str, is_package: bool) -> frozenset[str]:
    """Dotted names the module imports (anywhere in it) that may be ``analyser`` modules."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per extra dot
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return frozenset(n for n in out if n == PACKAGE or n.startswith(PACKAGE + "."))


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: k + 1]) for k in range(len(parts))]


def code_files(module: str, root: pathlib.Path = PACKAGE_DIR) -> list[pathlib.Path]:
    """The source files :func:`code_hash` covers for study ``module`` (``analyser.studies.x``),
    sorted by their path relative to ``root`` (the ``analyser`` package folder)."""
    root = pathlib.Path(root)
    files: set[pathlib.Path] = set()
    todo = _with_parents(module)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_file(name, root)
        if path is None:
            continue  # a name imported from a module, not a module
        files.add(path)
        names = _imported_names(read_source(path), name, path.name == "__init__.py")
        for n in sorted(names):
            todo.extend(_with_parents(n))
    for rel in ALWAYS:
        path = root / rel
        files.update(path.rglob("*.py") if path.is_dir() else [path])
    files = {f for f in files if "__pycache__" not in f.parts}
    return sorted(files, key=lambda f: f.relative_to(root).as_posix())


def hash_files(files: Iterable[pathlib.Path], root: pathlib.Path = PACKAGE_DIR) -> str:
    """SHA-256 (hex) over ``files``: each one's path relative to ``root`` and its contents."""
    h = hashlib.sha256()
    for f in sorted(files, key=lambda f: f.relative_to(root).as_posix()):
        data = read_source(f)
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def code_hash(module: str, root: pathlib.Path = PACKAGE_DIR) -> str:
    """The hash of the code study ``module`` (``analyser.studies.<kind>``) runs (module
    docstring); ``root`` is the ``analyser`` package folder to read it from."""
    root = pathlib.Path(root)
    return hash_files(code_files(module, root), root)
