"""No import cycle among the package's modules: the graph is read with
``ast`` (tests/import_graph.py), function-level imports included, ``TYPE_CHECKING``
blocks left out."""

from __future__ import annotations

import ast

from tests.import_graph import find_cycle, import_graph, imported, reachable


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert {"policies.run", "capacity.certificate", "proofs_checks.registry",
            "packsched.cli", "theory.cluster"} <= set(graph)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_graph_sees_the_imports_that_run():
    """The check above is not vacuous: a cycle is found, a function-level import closes
    one, a relative or lazily exported name resolves to its module, and a TYPE_CHECKING
    import is no edge."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    known = {"p", "p.a", "p.b", "p.c", "p.d", "p.e"}
    tree = ast.parse("from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from p.b import X\n"
                     "def f():\n    from .c import Y\n    import p.d\n"
                     "from p import lazy_name\n")
    assert imported(tree, "p.a", known, {"p": {"lazy_name": "p.e"}}) == {"p.c", "p.d", "p.e"}
    graph = import_graph()
    # the engines reach their family's policy base, never a concrete built-in policy
    assert "policies.continuous.rms" not in reachable(graph, "policies.continuous.engine")
    assert "policies.nonpreemptive.priority" not in reachable(
        graph, "policies.nonpreemptive.engine")
    assert "policies.preemptive.result" not in reachable(graph, "policies.invariants")
