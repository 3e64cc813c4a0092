"""packsched: executable, checkable theory of scheduling jobs with resource packing.

The package itself holds only the command line (:mod:`packsched.cli`). For
convenience it re-exports the main entry points of the library, imported lazily so
that ``packsched --help`` stays fast::

    from packsched import rho_star, rho_vqs, quantile_brackets, from_spec

The code lives in ``theory`` (model, distributions, bounds), ``capacity`` (solvers),
``policies`` (simulators) and ``proofs_checks`` (the claims catalogue).
"""

from __future__ import annotations

try:  # first: a folder named like one of packsched's packages is refused by name
    import theory.installation  # noqa: F401
except ModuleNotFoundError as e:
    raise ImportError(f"the folder {e.path or 'theory'} shadows packsched's package 'theory': "
                      f"rename it, or work in another directory") from None

import importlib
from typing import Any

#: public name -> module it comes from
_EXPORTS = {
    "rho_star": "capacity",
    "bin_packing_lp": "capacity",
    "CapacityResult": "capacity",
    "quantile_brackets": "capacity.brackets",
    "rho_vqs": "capacity.reduced",
    "from_spec": "theory.distributions",
    "Discrete": "theory.distributions",
    "run_checks": "proofs_checks.registry",
}

__all__ = ["__version__", *_EXPORTS]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("packsched")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0+unknown"


def __getattr__(name: str) -> Any:
    # ``__version__`` is read from the installed metadata on first use (importing
    # importlib.metadata costs more than the whole CLI parser)
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'packsched' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
