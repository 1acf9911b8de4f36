"""The package's architecture: imports go one way (no cycle of modules or of top-level
packages, every import downward in the layering below) and no module grows past
MAX_LINES lines.

Imports are read from the source with :mod:`ast`, wherever they are (inside functions
too, since those run as soon as the function is called); imports under ``if
TYPE_CHECKING:`` are left out (they never run). A package's ``__init__`` importing its own
submodules is not counted as a cycle (it is how a package gathers its parts).
"""

from __future__ import annotations

import ast
import functools
import pathlib
from collections import defaultdict

PACKAGE_DIR = pathlib.Path(__file__).resolve().parents[1] / "analyser"
PACKAGE = PACKAGE_DIR.name
MAX_LINES = 600

# The layering, lowest first: a unit (a top-level module or package of analyser, by its name
# under analyser; "" is analyser/__init__.py) may import the units of the layers below its
# own. "output" is planned (the rendering of every command's result) and may not exist yet.
# "api" (the Python API: analyse, misere) sits above everything it runs and below the two
# front ends that call it, the web app ("web") and the command line ("cli", whose `rikken
# serve` starts the web app); "batch" (`rikken batch`) runs the API over many hands. The
# package's own __init__ ("") stays in layer 1: it lends the API's names lazily, through
# importlib on first access, so importing the package loads nothing else.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("", "cards", "errors", "files", "progress", "numba_cache", "resources", "seats", "stats"),
    ("sampler", "worlds", "hand_text", "notation", "rules", "deal_model", "deal_draw"),
    ("solver", "guidelines"),
    ("single_dummy",),
    ("games",),
    ("analysis",),
    ("auction",),
    ("output",),
    ("report",),
    ("studies",),
    ("api",),
    ("batch", "web"),
    ("cli",),
)
# the imports allowed between two units of one layer (the rest of a layer is independent)
SAME_LAYER: dict[str, frozenset[str]] = {
    "seats": frozenset({"cards"}),
    "files": frozenset({"errors"}),
    "deal_model": frozenset({"sampler"}),
    "deal_draw": frozenset({"sampler", "deal_model"}),
    "notation": frozenset({"hand_text"}),
}


def _modules() -> dict[str, pathlib.Path]:
    """{dotted module name: file} of every module of the package."""
    out = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = (PACKAGE, *path.relative_to(PACKAGE_DIR).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Dotted names ``module`` imports (and, for ``from x import y``, ``x.y``), outside
    ``if TYPE_CHECKING:`` blocks."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per extra dot
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


@functools.cache
def _module_graph() -> dict[str, frozenset[str]]:
    """{module: the package's modules it imports}, without a package's imports of its own
    submodules."""
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = _imported(tree, name, path.name == "__init__.py")
        graph[name] = frozenset(
            t for t in targets if t in mods and t != name and not t.startswith(name + ".")
        )
    return graph


def _unit(module: str) -> str:
    """The top-level unit of a module: ``analyser.solver.search`` -> ``solver``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _unit_graph(graph: dict[str, frozenset[str]]) -> dict[str, set[str]]:
    units: dict[str, set[str]] = defaultdict(set)
    for m, targets in graph.items():
        units[_unit(m)]
        for t in targets:
            if _unit(t) != _unit(m):
                units[_unit(m)].add(_unit(t))
    return dict(units)


def _cycles(graph) -> list[tuple[list[str], list[str]]]:
    """Each strongly connected group of more than one node (Tarjan's algorithm, iterative),
    sorted, with one cycle through it (a closed path, its first node repeated at the end)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    groups.append(group)
    return [(sorted(g), _path_through(set(g), graph)) for g in groups]


def _path_through(group: set[str], graph) -> list[str]:
    """A closed path inside ``group`` from its first node back to it (breadth first)."""
    start = min(group)
    came: dict[str, str] = {}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph.get(v, set()) & group):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if w not in came:
                came[w] = v
                todo.append(w)
    raise AssertionError(f"no cycle through {sorted(group)}")  # pragma: no cover


def _show(found: tuple[list[str], list[str]]) -> str:
    """A cycle as text, with every node of its strongly connected group when there are more."""
    group, cycle = found
    text = " -> ".join(c or PACKAGE for c in cycle)
    if len(group) > len(cycle) - 1:
        text += f" (one of the cycles among {', '.join(g or PACKAGE for g in group)})"
    return text


def _layer_of() -> dict[str, int]:
    return {unit: k for k, layer in enumerate(LAYERS) for unit in layer}


def test_no_import_cycle_between_modules():
    cycles = _cycles(_module_graph())
    assert not cycles, "import cycles between modules:\n" + "\n".join(map(_show, cycles))


def test_no_import_cycle_between_top_level_packages():
    cycles = _cycles(_unit_graph(_module_graph()))
    assert not cycles, "import cycles between top-level packages:\n" + "\n".join(map(_show, cycles))


def test_no_module_over_the_line_limit():
    too_long = {}
    for path in _modules().values():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            too_long[path.relative_to(PACKAGE_DIR.parent).as_posix()] = n
    assert not too_long, f"modules over {MAX_LINES} lines:\n" + "\n".join(
        f"{path}: {n}" for path, n in sorted(too_long.items())
    )


MAX_SOLVER_PARAMETERS = 8


def _parameter_counts(tree: ast.AST) -> list[tuple[str, int, int, bool]]:
    """(name, positional parameters, all parameters, compiled) of every function in ``tree``;
    ``self``/``cls`` not counted; compiled = decorated with numba's njit."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        positional = [x.arg for x in (*a.posonlyargs, *a.args)]
        if positional[:1] in (["self"], ["cls"]):
            positional = positional[1:]
        every = len(positional) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)
        compiled = any("njit" in ast.unparse(d) for d in node.decorator_list)
        out.append((node.name, len(positional), every, compiled))
    return out


def test_no_solver_function_takes_more_than_eight_parameters():
    # the search state travels as a few structures, not as loose arrays through numba's
    # argument passing: a compiled function takes at most eight parameters, any other at
    # most eight positional ones (the public API's options are keyword-only, named at every
    # call)
    wrong = []
    for name, path in sorted(_modules().items()):
        if not name.startswith(f"{PACKAGE}.solver"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn, positional, every, compiled in _parameter_counts(tree):
            n = every if compiled else positional
            if n > MAX_SOLVER_PARAMETERS:
                wrong.append(f"{name}.{fn}: {n}")
    assert not wrong, "solver functions over the parameter limit:\n" + "\n".join(wrong)


def test_the_parameter_count_sees_compiled_and_keyword_parameters():
    source = (
        "@njit(cache=True)\n"
        "def hot(a, b, c, d, e, f, g, h, i):\n    pass\n"
        "def api(a, b, *, c=1, d=2):\n    pass\n"
        "class S:\n    def m(self, a):\n        pass\n"
    )
    got = {n: (p, e, c) for n, p, e, c in _parameter_counts(ast.parse(source))}
    assert got == {"hot": (9, 9, True), "api": (2, 4, False), "m": (1, 1, False)}


def test_every_unit_has_a_layer():
    layer = _layer_of()
    missing = sorted({_unit(m) for m in _modules()} - set(layer))
    assert not missing, f"top-level modules or packages missing from LAYERS: {missing}"


def test_imports_only_go_down_the_layers():
    layer = _layer_of()
    wrong = []
    for m, targets in sorted(_module_graph().items()):
        src = _unit(m)
        if src not in layer:
            continue  # test_every_unit_has_a_layer names it
        for t in sorted(targets):
            dst = _unit(t)
            if dst == src or dst not in layer:
                continue
            if layer[dst] < layer[src] or dst in SAME_LAYER.get(src, ()):
                continue
            wrong.append(f"{m} imports {t} ({src or PACKAGE} may not use {dst or PACKAGE})")
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


def test_the_layering_table_is_consistent():
    layer = _layer_of()
    assert len(layer) == sum(len(x) for x in LAYERS), "a unit is in two layers"
    for src, allowed in SAME_LAYER.items():
        assert all(layer[src] == layer[dst] for dst in allowed), src


def test_the_checks_see_cycles_and_upward_imports(tmp_path):
    # the helpers on a small hand-made graph: a cycle through a function-level import is
    # found and TYPE_CHECKING imports are not
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from analyser.c import x\n"
        "def f():\n"
        "    from analyser.b import y\n"
    )
    found = _imported(ast.parse(source), "analyser.a", False)
    assert "analyser.b" in found and "analyser.c" not in found
    assert _imported(ast.parse("from .d import e\n"), "analyser.pkg.a", False) >= {
        "analyser.pkg.d",
        "analyser.pkg.d.e",
    }
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [(["a", "b", "c"], ["a", "b", "c", "a"])]
    assert _cycles({"a": {"b"}, "b": set()}) == []
