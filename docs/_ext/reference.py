"""Sphinx extension: the API reference, one page per package (``reference/*.md``, generated).

Every function and class in ``__all__`` of the library packages and their family
subpackages is listed under the module that defines it, with an autosummary stub page
rendered from its numpydoc docstring. Generated from ``__all__`` so that a new public
name cannot be missing from the reference.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

PAGES = {
    "theory": ("theory: the papers' model", ["theory", "theory.readers"]),
    "capacity": ("capacity: programs, solvers and certificates", ["capacity"]),
    "policies": ("policies: workloads, simulators and the four families",
                 ["policies", "policies.slotted", "policies.continuous",
                  "policies.preemptive", "policies.nonpreemptive"]),
    "proofs_checks": ("proofs_checks: claims, errata and figures",
                      ["proofs_checks", "proofs_checks.figures"]),
}


def public(packages: list[str], seen: set[int]) -> dict[str, list[str]]:
    """Defining module -> public names (as ``package.name``) not listed before."""
    by_module: dict[str, list[str]] = {}
    for package in packages:
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            by_module.setdefault(obj.__module__, []).append(f"{package}.{name}")
    return by_module


def package_page(title: str, packages: list[str], seen: set[int]) -> str:
    lines = [f"# {title}", ""]
    for module, names in sorted(public(packages, seen).items()):
        doc = inspect.getdoc(importlib.import_module(module)) or ""
        summary = doc.split("\n\n")[0].replace("\n", " ")
        lines += [f"## `{module}`", "", summary, "",
                  "```{eval-rst}", ".. autosummary::", "   :toctree: generated", "",
                  *[f"   {n}" for n in names], "```", ""]
    return "\n".join(lines)


def build_reference(app: Any) -> None:
    folder = Path(app.srcdir) / "reference"
    seen: set[int] = set()
    for page, (title, packages) in PAGES.items():
        text = package_page(title, packages, seen)
        path = folder / f"{page}.md"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", build_reference, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
