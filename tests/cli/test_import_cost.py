"""A one-shot CLI call pays only for what it uses.

Each case runs in a fresh interpreter (this process has long imported everything) and
lists the heavy modules it loaded; no timing, so the tests hold on a busy machine.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: what a small CLI call must not load: numba (0.3 s, plus ~0.5 s for its first cached
#: kernel), scipy (scipy.stats ~1 s), the solvers and the plotting/data stacks
HEAVY = ("numba", "scipy", "highspy", "sympy", "cvxpy", "networkx", "matplotlib", "pandas",
         "hypothesis", "llvmlite")

_PROBE = """
import json, sys
{code}
loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))
print(json.dumps(loaded), file=sys.stderr)
"""


def _heavy_modules(code: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", _PROBE.format(code=code, heavy=HEAVY)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stderr.strip().splitlines()[-1])


def _cli(*argv: str) -> str:
    return ("from packsched.cli import main\n"
            f"code = main({list(argv)!r})\n"
            "assert code == 0, code")


@pytest.mark.parametrize("code", [
    "import packsched.cli",
    "import packsched; packsched.__version__",
    "import theory, capacity, policies",
    "from theory import Discrete, Uniform, universal_partition, read_jobs",
    "from capacity import CapacityResult, MixtureTerm",
    "import policies; policies.Workload; policies.Cluster; policies.available_policies()",
    _cli("--version"),
    _cli("rho-star", "--help"),
    _cli("policies", "--json"),
    _cli("errata", "--json"),
], ids=["cli", "version", "packages", "theory-names", "capacity-results", "policies-names",
        "--version", "rho-star-help", "policies", "errata"])
def test_light_paths_import_nothing_heavy(code):
    assert _heavy_modules(code) == []


def test_small_rho_star_imports_only_its_lp_solver():
    """rho* of two sizes: the LP needs highspy; nothing from scipy.stats, sympy or
    cvxpy (the numba knapsack of the certificate is the remaining cost: see
    ``test_small_rho_star_needs_no_numba``)."""
    loaded = _heavy_modules(_cli("rho-star", "--sizes", "0.4,0.6", "--probs", "0.5,0.5",
                                 "--json"))
    assert "highspy" in loaded
    assert not {"sympy", "cvxpy", "networkx", "matplotlib", "pandas"} & set(loaded)
    probe = _PROBE.format(code=_cli("rho-star", "--sizes", "0.4,0.6", "--json"),
                          heavy=HEAVY) + "assert 'scipy.stats' not in sys.modules\n"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr


def test_small_rho_star_needs_no_numba():
    loaded = _heavy_modules(_cli("rho-star", "--sizes", "0.4,0.6", "--probs", "0.5,0.5",
                                 "--json"))
    assert loaded == ["highspy"]


# -- the lazy re-export tables stay complete ---------------------------------------------


@pytest.mark.parametrize("package", ["theory", "capacity", "policies"])
def test_every_listed_name_resolves(package):
    import importlib

    pkg = importlib.import_module(package)
    names = set(pkg.__all__) | set(getattr(pkg, "_names", []))
    for name in sorted(names):
        assert getattr(pkg, name) is not None, name
    assert set(pkg.__all__) <= set(dir(pkg))
    with pytest.raises(AttributeError, match="no attribute"):
        pkg.no_such_name  # noqa: B018


def test_theory_table_matches_its_submodules():
    """``theory`` re-exports exactly each submodule's ``__all__`` (as the star imports
    it replaced did)."""
    import importlib

    import theory

    for mod, names in theory._SUBMODULE_NAMES.items():
        assert tuple(importlib.import_module(f"theory.{mod}").__all__) == names, mod
    ns: dict[str, object] = {}
    exec("from theory import *", ns)
    assert set(ns) - {"__builtins__"} == set(theory.__all__)


def test_submodules_are_attributes():
    import theory

    assert theory.rms_chain.__name__ == "theory.rms_chain"  # not imported by the package
