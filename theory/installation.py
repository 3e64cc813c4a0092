"""Refuse, on import, a folder that shadows one of packsched's packages.

packsched installs five top-level packages (``theory``, ``capacity``, ``policies``,
``proofs_checks``, ``packsched``). A folder of the same name in the working directory
comes first on ``sys.path``: ``import policies`` would then get that folder (under an
editable install even when it has no ``__init__.py``), and ``policies.run`` would be
missing. Each package imports this module first; :func:`check_installation` fails
with one line naming the folder and the package it shadows.
"""

from __future__ import annotations

import importlib.util
import os
import sys

__all__ = ["PACKAGES", "check_installation", "shadowing_folder"]

#: the top-level packages of packsched
PACKAGES = ("theory", "capacity", "policies", "proofs_checks", "packsched")
#: the directory that holds them (the package root of this installation)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shadowing_folder(name: str) -> str | None:
    """The folder ``import name`` resolves to when it is not packsched's own, else None."""
    module = sys.modules.get(name)
    if module is not None:
        paths = list(getattr(module, "__path__", []))
    else:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        paths = list(spec.submodule_search_locations or []) if spec else []
    own = os.path.join(ROOT, name)
    if not paths or any(os.path.realpath(p) == os.path.realpath(own) for p in paths):
        return None
    return paths[0]


def check_installation() -> None:
    """An ``ImportError`` (one line) when a folder shadows one of :data:`PACKAGES`."""
    for name in PACKAGES:
        folder = shadowing_folder(name)
        if folder is not None:
            raise ImportError(f"the folder {folder} shadows packsched's package '{name}': "
                              f"rename it, or work in another directory")


check_installation()
