"""Every public function and class documents itself the numpydoc way (issue 42, part 1).

"Public" is what the library packages and their family subpackages export in
``__all__``: the names the reference pages list. Each needs a
summary, its Parameters, its Returns (functions that return a value), an Examples
section with at least one ``>>>`` line (run by ``--doctest-modules``) and a References
section: the paper, section and equation, or for infrastructure the design page's
section (``docs/design.md``).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")
from numpydoc.docscrape import NumpyDocString  # noqa: E402

PACKAGES = ("theory", "theory.readers", "capacity", "policies", "policies.slotted",
            "policies.continuous", "policies.preemptive", "policies.nonpreemptive",
            "proofs_checks", "proofs_checks.figures")
REQUIRED = {"GL08": "no docstring", "PR01": "a parameter is not documented",
            "PR02": "a documented parameter does not exist", "RT01": "no Returns section",
            "EX01": "no Examples section"}


def public_objects() -> list[tuple[str, object]]:
    out, seen = [], set()
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                out.append((f"{package}.{name}", obj))
    return out


def problems(obj: object) -> list[str]:
    """What the docstring of ``obj`` lacks, as readable lines (empty when complete)."""
    path = f"{obj.__module__}.{obj.__qualname__}"  # type: ignore[attr-defined]
    report = numpydoc_validate.validate(path)
    found = [f"{code}: {REQUIRED[code]} ({msg})" for code, msg in report["errors"]
             if code in REQUIRED]
    doc = inspect.getdoc(obj) or ""
    examples = "\n".join(NumpyDocString(doc)["Examples"])
    if "Examples" in doc and ">>>" not in examples:
        found.append("the Examples section has no >>> line to run")
    if "References" not in doc:
        found.append("no References section (paper, section, equation; or docs/design.md)")
    return found


@pytest.mark.parametrize("name,obj", public_objects(), ids=[n for n, _ in public_objects()])
def test_public_docstring_is_complete(name, obj):
    missing = problems(obj)
    assert not missing, f"{name}:\n  " + "\n  ".join(missing)


def test_the_check_fails_on_a_bare_docstring():
    def bare(x, y):
        """Add two numbers."""
        return x + y

    bare.__module__ = __name__
    bare.__qualname__ = "bare"
    globals()["bare"] = bare
    try:
        missing = problems(bare)
    finally:
        del globals()["bare"]
    assert any(m.startswith("PR01") for m in missing)
    assert any(m.startswith("EX01") for m in missing)
    assert any("References" in m for m in missing)
