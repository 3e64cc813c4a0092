"""Lazy re-exports for package ``__init__`` files (PEP 562).

A package lists, per submodule, the public names it re-exports; a name is imported
from its submodule on first access and then kept in the package namespace. ``import
capacity`` then costs nothing until a name is used, and ``from capacity import
rho_star`` loads only what ``rho_star`` needs (not numba, highspy or scipy when that
does not use them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, table: Mapping[str, tuple[str, ...]], namespace: dict[str, Any],
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``(names, __getattr__, __dir__)`` for ``package`` whose ``table`` maps each
    submodule (full dotted name) to the names it re-exports. ``__getattr__`` also
    imports a submodule not imported yet (``package.name``)."""
    where = {name: mod for mod, names in table.items() for name in names}

    def __getattr__(name: str) -> Any:
        mod = where.get(name)
        if mod is not None:
            value = getattr(importlib.import_module(mod), name)
            namespace[name] = value  # later lookups do not come here
            return value
        if not name.startswith("__"):
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return list(where), __getattr__, __dir__
