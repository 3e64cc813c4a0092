"""Structured evidence (issue 40, item 6): every check returns the numbers that decide its
verdict (``measured`` against ``bound`` by ``relation``), its parameters and its seed; and
the catalogue's modules import without a cycle."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.claims import RELATIONS, Verdict
from proofs_checks.registry import CheckResult, all_checks, iter_results
from tests.import_graph import find_cycle, import_graph
from theory.json_ready import json_ready

#: slack on the relation of a check that holds: the checks compare floats with rounding
#: slack (1e-12 to 1e-9 relative) that their bounds do not carry
RTOL = 1e-9


@pytest.fixture(scope="module")
def quick_results() -> list[CheckResult]:
    """The quick catalogue, once for the module (about 20-50 s on two workers)."""
    checks = [c for c in all_checks() if c.quick]
    return list(iter_results(checks, quick=True, jobs=2))


def test_every_quick_check_gives_measured_against_bound_or_says_why_not(quick_results):
    assert len(quick_results) == len([c for c in all_checks() if c.quick]) >= 61
    for r in quick_results:
        assert "error" not in r.details, (r.id, r.details.get("error"))
        if r.bound is None:
            assert r.relation is None and isinstance(r.details.get("no_bound"), str), r.id
            assert 10 < len(r.details["no_bound"]) and "\n" not in r.details["no_bound"]
        else:
            assert r.measured is not None and r.relation in RELATIONS, r.id
            assert r.quantity, r.id
        assert isinstance(r.params, dict) and isinstance(r.details, dict)


def test_a_check_that_holds_has_its_measured_value_within_its_bound(quick_results):
    for r in quick_results:
        if r.verdict != "holds" or r.bound is None:
            continue
        v = Verdict(r.verdict, measured=r.measured, bound=r.bound, relation=r.relation,
                    details=r.details)
        assert v.relation_holds(RTOL), (r.id, r.measured, r.relation, r.bound)


def test_seeds_are_integers_and_results_serialise_exactly(quick_results):
    def ints(seed: object) -> bool:
        if isinstance(seed, dict):
            return all(ints(v) for v in seed.values())
        if isinstance(seed, tuple):
            return all(ints(v) for v in seed)
        return isinstance(seed, int) and not isinstance(seed, bool)

    for r in quick_results:
        assert r.seed is None or ints(r.seed), (r.id, r.seed)
        d = r.as_dict()
        text = json.dumps(d, allow_nan=False)  # JSON-ready without a default
        assert json.loads(text) == d
        if isinstance(r.seed, int):
            assert d["seed"] == r.seed and f'"seed": {r.seed}' in text


# ------------------------------------------------------------------------- the Verdict
def test_a_verdict_without_a_bound_must_say_why():
    with pytest.raises(ValueError, match="no_bound"):
        Verdict("holds")
    with pytest.raises(ValueError, match="no_bound"):
        Verdict("holds", relation="<=", details={"no_bound": "an existence claim"})
    v = Verdict("holds", details={"no_bound": "an existence claim"})
    assert v.relation_holds() is None


def test_a_bound_needs_a_measured_value_and_a_relation():
    with pytest.raises(ValueError, match="relation"):
        Verdict("holds", measured=1, bound=2)
    with pytest.raises(ValueError, match="relation"):
        Verdict("holds", measured=1, bound=2, relation="~")
    with pytest.raises(ValueError, match="relation"):
        Verdict("holds", bound=2, relation="<=")
    with pytest.raises(ValueError, match="does not fit"):
        Verdict("holds", measured=1, bound=2, relation="in")
    with pytest.raises(ValueError, match="length"):
        Verdict("holds", measured=(1, 2), bound=(1, 2, 3), relation="<=")
    with pytest.raises(TypeError, match="number"):
        Verdict("holds", measured="0.5", bound=1, relation="<=")
    with pytest.raises(TypeError, match="number"):
        Verdict("holds", measured=True, bound=1, relation="<=")


def test_numbers_and_seeds_are_normalised():
    v = Verdict("holds", measured=np.float64(0.25), bound=[np.int64(1), Fraction(1, 2)],
                relation="in", seed=np.int64(20240812), details={})
    assert type(v.measured) is float and v.bound == (1, Fraction(1, 2))
    assert type(v.bound[0]) is int and type(v.seed) is int
    assert Verdict("holds", measured=1, bound=1, relation="==",
                   seed={"workload": [1, 2], "policy": 3}).seed == {"workload": (1, 2),
                                                                    "policy": 3}
    with pytest.raises(TypeError, match="seed"):
        Verdict("holds", measured=1, bound=1, relation="==", seed=2.02408e7)


@pytest.mark.parametrize(("measured", "relation", "bound", "holds"), [
    (0.4999, "<=", 0.5, True), (0.5, "<", 0.5, False), (2, "==", 2, True),
    (Fraction(2, 3), ">=", Fraction(2, 3), True), (7, ">", 6.2, True), (1, "!=", 1, False),
    (0.93, "in", (0.9, 0.95), True), (0.96, "in", (0.9, 0.95), False),
    ((0.9, 0.95), "contains", 0.93, True), ((0.9, 0.95), "overlaps", (0.94, 1.0), True),
    ((0.9, 0.95), "overlaps", (0.96, 1.0), False), ((1, 2), "<=", (1, 3), True),
    ((1, 4), "<=", 3, False), ((-math.inf, 0.5), "overlaps", (0.4, 0.6), True),
])
def test_relation_holds(measured, relation, bound, holds):
    v = Verdict("holds", measured=measured, bound=bound, relation=relation)
    assert v.relation_holds() is holds


def test_relation_slack_is_relative_to_the_bound():
    v = Verdict("holds", measured=2 / 3, bound=Fraction(2, 3), relation="==")
    assert v.relation_holds() is False and v.relation_holds(1e-12) is True


def test_as_dict_keeps_fractions_exact_and_ints_as_ints():
    assert json_ready({"a": Fraction(10, 3), "b": Fraction(4, 2), "c": 20240812,
                       "d": (np.float64(0.5), math.inf), 3: np.int64(7)}, exact=True) == {
        "a": "10/3", "b": 2, "c": 20240812, "d": [0.5, "inf"], "3": 7}


# -------------------------------------------------------------------- no import cycle
def test_no_import_cycle_among_proofs_checks_modules():
    """The declarations import nothing from proofs_checks; the registry loads the check
    modules (a function-level import, an edge too) and they import only the
    declarations: no cycle (the graph of tests/import_graph.py, read with ``ast``)."""
    graph = import_graph(("proofs_checks",))
    assert graph["proofs_checks.claims"] == set()
    assert "proofs_checks.checks" in graph["proofs_checks.registry"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])
    checks = [m for m in graph if m.startswith("proofs_checks.checks.")]
    assert len(checks) >= 14
    for m in checks:
        assert "proofs_checks.claims" in graph[m] and "proofs_checks.registry" not in graph[m]
