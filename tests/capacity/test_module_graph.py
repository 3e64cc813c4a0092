"""The capacity package's import graph: the configuration LP's model, solver and
certificate kept apart (tests/import_graph.py reads the graph; no cycle anywhere is
tests/test_import_graph.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import capacity
from tests.import_graph import import_graph, reachable

PACKAGE = Path(capacity.__file__).parent


@pytest.mark.parametrize("module, never", [
    # the certificate checks an answer against the model alone
    ("capacity.certificate", {"capacity.configuration_solver", "capacity.configuration_lp",
                              "capacity._lp_highs"}),
    # the solver proves nothing itself
    ("capacity.configuration_solver", {"capacity.certificate", "capacity.configuration_lp"}),
    # the model is data: it needs neither
    ("capacity.configuration_model", {"capacity.configuration_solver",
                                      "capacity.certificate", "capacity.configuration_lp",
                                      "capacity._lp_highs"}),
])
def test_model_solver_and_certificate_stay_apart(module, never):
    graph = import_graph(("capacity",))
    assert module in graph
    assert not (reachable(graph, module) & never), reachable(graph, module) & never


def test_certificate_imports_nothing_from_the_solver():
    tree = ast.parse((PACKAGE / "certificate.py").read_text())
    names = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert names  # the walk saw the imports, TYPE_CHECKING ones included
    for node in names:
        modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                   else [node.module or ""])
        assert not any("configuration_solver" in m or "configuration_lp" in m
                       for m in modules), ast.unparse(node)
