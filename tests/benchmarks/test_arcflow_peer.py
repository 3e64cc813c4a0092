"""The arc-flow peer of ``benchmarks/bench_arcflow.py`` computes packsched's bounded z_LP.

``benchmarks/arcflow_lp.py`` builds Valério de Carvalho's arc-flow LP independently of
``capacity``; these tests pin that its exact graph gives the bounded Gilmore-Gomory
bound ``bin_packing_lp(...).extra["z_lp"]`` (and not the unbounded one), that its
paths are exactly the bounded patterns, and that the benchmark's agreement check can
fail.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import benchmarks.bench_arcflow as bench
from benchmarks.arcflow_lp import (
    GraphTooLarge,
    arcflow_lp_bound,
    build_graph,
    graph_patterns,
    item_types,
)
from capacity.supportable_workload import bin_packing_lp

REL = 1e-9


def rel(a: float, b: float) -> float:
    return abs(float(a) - float(b)) / abs(float(b))


def random_instance(rng: np.random.Generator) -> tuple[list[int], int]:
    """Small instances; half of them draw from 1-3 distinct weights, so weights repeat
    and the copy bounds n_j matter."""
    cap = int(rng.integers(4, 40))
    n = int(rng.integers(1, 14))
    if rng.random() < 0.5:
        pool = rng.integers(1, cap + 1, size=int(rng.integers(1, 4)))
        ws = rng.choice(pool, size=n)
    else:
        ws = rng.integers(1, cap + 1, size=n)
    return [int(x) for x in ws], cap


def test_exact_graph_equals_bounded_z_lp_and_not_the_unbounded_one():
    rng = np.random.default_rng(20240613)
    separated = 0
    for _ in range(80):
        ws, cap = random_instance(rng)
        res = bin_packing_lp(ws, cap, unbounded=True)
        z_lp, z_free = float(res.extra["z_lp"]), float(res.extra["z_lp_unbounded"])
        z, info = arcflow_lp_bound(ws, cap)
        assert info["status"] == "Optimal"
        assert rel(z, z_lp) <= REL, (ws, cap, z, z_lp)
        lo, hi = res.extra["z_lp_bounds"]
        assert float(lo) * (1 - REL) <= z <= float(hi) * (1 + REL)
        if rel(z_free, z_lp) > 1e-6:  # the bounds differ: the test tells them apart
            separated += 1
            assert rel(z, z_free) > 1e-6
    assert separated >= 10


@pytest.mark.parametrize("ws, cap, z_bounded, z_unbounded", [
    ([2, 2, 1, 1], 5, Fraction(4, 3), Fraction(6, 5)),
    ([5], 10, Fraction(1), Fraction(1, 2)),
    ([3, 3], 10, Fraction(1), Fraction(2, 3)),
])
def test_known_bounds(ws, cap, z_bounded, z_unbounded):
    res = bin_packing_lp(ws, cap, unbounded=True)
    assert math.isclose(float(res.extra["z_lp"]), z_bounded, rel_tol=REL)
    assert math.isclose(float(res.extra["z_lp_unbounded"]), z_unbounded, rel_tol=REL)
    z, _ = arcflow_lp_bound(ws, cap)
    assert math.isclose(z, z_bounded, rel_tol=REL)
    z_scipy, info = arcflow_lp_bound(ws, cap, solver="scipy")
    assert math.isclose(z_scipy, z_bounded, rel_tol=REL) and info["solver"] == "scipy"
    # the classic (Valerio de Carvalho) graph lies between the two
    z_classic, _ = arcflow_lp_bound(ws, cap, graph="classic")
    assert z_unbounded - 1e-9 <= z_classic <= z_bounded + 1e-9


def test_classic_graph_misses_the_copy_bounds():
    # weight-1 chains from loads 0, 2, 4 join into five copies of weight 1 (n = 2)
    z, _ = arcflow_lp_bound([2, 2, 1, 1], 5, graph="classic")
    assert math.isclose(z, 6 / 5, rel_tol=REL)
    g = build_graph([2, 2, 1, 1], 5, "classic")
    assert (0, 5) in graph_patterns(g)  # types in order (2, 1): five 1s


def bounded_patterns(ws: list[int], cap: int) -> set[tuple[int, ...]]:
    _, w, n = item_types(ws, cap)
    out = set()
    for ks in itertools.product(*[range(int(b) + 1) for b in n]):
        if sum(k * int(x) for k, x in zip(ks, w, strict=True)) <= cap:
            out.add(ks)
    return out


def in_sorted_order(g, pattern: tuple[int, ...]) -> tuple[int, ...]:
    """A pattern of graph ``g`` (its type order) re-indexed by non-increasing weight."""
    order = np.argsort(-g.weights, kind="stable")
    return tuple(pattern[i] for i in order)


@pytest.mark.parametrize("ws, cap", [
    ([2, 2, 1, 1], 5), ([4, 4, 4, 3, 2, 2, 1], 9), ([5, 3, 3, 3, 2], 11),
    ([6, 6, 5, 4, 4, 4, 2, 1, 1], 12), ([7, 7, 7, 7], 20), ([1, 1, 1, 1, 1, 9], 10),
])
def test_exact_graph_paths_are_the_bounded_patterns(ws, cap):
    g = build_graph(ws, cap, "exact")
    got = {in_sorted_order(g, p) for p in graph_patterns(g)}
    assert got == bounded_patterns(ws, cap)
    classic = build_graph(ws, cap, "classic")
    assert bounded_patterns(ws, cap) <= set(graph_patterns(classic))


def test_random_exact_graphs_have_only_bounded_paths():
    rng = np.random.default_rng(7)
    for _ in range(40):
        ws, cap = random_instance(rng)
        if len(ws) > 9:
            ws = ws[:9]
        g = build_graph(ws, cap, "exact")
        got = {in_sorted_order(g, p) for p in graph_patterns(g)}
        assert got == bounded_patterns(ws, cap), (ws, cap)


def test_refusals():
    with pytest.raises(GraphTooLarge):
        build_graph(list(range(1, 60)), 400, "exact", max_arcs=100)
    with pytest.raises(ValueError):
        arcflow_lp_bound([3, 11], 10)
    with pytest.raises(TypeError):
        arcflow_lp_bound([0.5], 1)
    with pytest.raises(ValueError):
        arcflow_lp_bound([1], 1, graph="nope")


def test_compare_bounds_fails_on_a_wrong_bound():
    assert bench.compare_bounds(100.0, Fraction(100))["ok"] is True
    assert bench.compare_bounds(100.00005, 100.0)["ok"] is True  # 5e-7 relative
    bad = bench.compare_bounds(100.001, 100.0)  # 1e-5 relative
    assert bad["ok"] is False and math.isclose(bad["rel_diff"], 1e-5, rel_tol=1e-6)
    assert bench.compare_bounds(None, 100.0)["ok"] is None
    assert bench.compare_bounds(math.inf, 100.0)["ok"] is False


def test_bench_exits_1_when_the_peer_bound_is_wrong(monkeypatch, capsys):
    real = bench.arcflow_lp_bound

    def off_by_1e5(weights, capacity, **kw):
        z, info = real(weights, capacity, **kw)
        return z * (1 + 1e-5), info

    args = ["--quick", "--only", "falkenauer_u120_00", "--methods", "exact", "--repeats", "1"]
    assert bench.main(args) == 0
    monkeypatch.setattr(bench, "arcflow_lp_bound", off_by_1e5)
    assert bench.main(args) == 1
    assert "FAIL falkenauer_u120_00: exact arc-flow == z_lp" in capsys.readouterr().out


def test_ai_like_fills_bins_exactly():
    ws = bench.ai_like(1000, 12, 700)
    assert sum(ws) == 12 * 1000 and min(ws) >= 100
    z, _ = arcflow_lp_bound(ws, 1000)
    assert math.isclose(z, 12, rel_tol=REL)


@pytest.mark.parametrize("argv", [["--repeats", "0"], ["--budget", "-1"], ["--rtol", "-1"],
                                  ["--only", "no_such_case"], ["--methods", "exact,bogus"]])
def test_bad_arguments_exit_2_before_any_work(argv, capsys):
    with pytest.raises(SystemExit) as e:
        bench.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr()
    assert "error:" in err.err and err.out == ""
