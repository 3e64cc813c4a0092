"""The package's import graph, read with ``ast`` (for the tests of import cycles).

Edges: imports at module level and inside functions count; those under
``if TYPE_CHECKING:`` do not (they never run). ``from pkg import name`` is an import of
the submodule ``pkg.name`` when there is one, else of the submodule that defines
``name`` in the package's lazy table, else of the package itself.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("theory", "capacity", "policies", "proofs_checks", "packsched")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def modules(packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Module name -> file, for every module of ``packages``."""
    out = {}
    for pkg in packages:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def lazy_table(package: str) -> dict[str, str]:
    """Name -> defining module of a package's lazily exported names."""
    mod = importlib.import_module(package)
    table = getattr(mod, "_EXPORTS", None) or {}
    if package == "theory":
        table = {f"theory.{m}": names for m, names in mod._SUBMODULE_NAMES.items()}
    if table and all(isinstance(v, str) for v in table.values()):  # name -> module
        return dict(table)
    return {name: m for m, names in table.items() for name in names}


def imported(tree: ast.Module, here: str, known: set[str],
             lazy: dict[str, dict[str, str]]) -> set[str]:
    """The modules of ``known`` that ``tree`` (the module ``here``) imports when it runs."""
    found: set[str] = set()
    is_package = here in {m.rsplit(".", 1)[0] for m in known if "." in m}

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for a in node.names:
                sub = f"{module}.{a.name}"
                if sub in known:
                    found.add(sub)
                elif a.name in lazy.get(module, {}):
                    found.add(lazy[module][a.name])
                else:
                    found.add(module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in known} - {here}


def import_graph(packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports when it runs."""
    files = modules(packages)
    known = set(files)
    lazy = {p: lazy_table(p) for p in packages}
    return {m: imported(ast.parse(path.read_text(), str(path)), m, known, lazy)
            for m, path in files.items()}


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in order, the first repeated), None if none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def dfs(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (cycle := dfs(n)) is not None:
                return cycle
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (cycle := dfs(m)) is not None:
            return cycle
    return None
