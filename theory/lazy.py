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

    _keep_functions_over_submodules(package, where)
    return list(where), __getattr__, __dir__


def _keep_functions_over_submodules(package: str, where: Mapping[str, str]) -> None:
    """A re-exported name that is also a submodule's name (``policies.aggregate`` the
    function, from ``policies/aggregate.py``): when that submodule is first imported,
    the import system binds the package's attribute to the module, and the name would
    stop being the function for everyone afterwards. The package refuses that one
    binding, so the name stays the function (``from policies.aggregate import ...``
    still finds the module in ``sys.modules``)."""
    import sys
    import types

    clashes = {name for name, mod in where.items() if mod == f"{package}.{name}"}
    module = sys.modules.get(package)
    if not clashes or module is None:
        return

    class _Package(types.ModuleType):
        def __setattr__(self, name: str, value: Any) -> None:
            if name in clashes and isinstance(value, types.ModuleType):
                return
            super().__setattr__(name, value)

    module.__class__ = _Package
