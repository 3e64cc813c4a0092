"""Column generation's faster paths must reach the reference optimum: the disjoint-first
choice of each round's columns, and exact pricing on a chain of grids for sizes given
to a few significant digits (capacities far above the plain table's)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import capacity.configuration_solver as solver
from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp


def test_disjoint_columns_come_first():
    """Best first, but a column sharing a type with a better kept one waits: with a
    limit of two, the second-best (sharing type 1) gives way to the third (type 3)."""
    a = np.array([1, 1, 0, 0])
    b = np.array([0, 2, 1, 0])
    c = np.array([0, 0, 0, 3])
    assert [k.tolist() for k in solver._disjoint_first([a, b, c], 2)] == [a.tolist(),
                                                                         c.tolist()]
    assert [k.tolist() for k in solver._disjoint_first([a, b, c], 5)] == [
        a.tolist(), c.tolist(), b.tolist()]
    assert solver._disjoint_first([], 3) == []
    assert len(solver._disjoint_first([a], 0)) == 0


def bin_packing_instance(seed: int) -> ConfigurationLP:
    rng = np.random.default_rng(seed)
    C = int(rng.integers(200, 2000))
    w = np.unique(rng.integers(C // 10, C // 2, int(rng.integers(20, 60))))
    probs = [F(int(x)) for x in rng.integers(1, 5, len(w))]
    return ConfigurationLP.build([F(int(x), C) for x in w], probs, [(1, 1)])


@pytest.mark.parametrize("seed", range(12))
def test_disjoint_first_agrees_with_the_plain_choice(seed, monkeypatch):
    """The same LP with each round's columns taken best first (the reference path)
    and chosen disjoint first among every type's best column in every round (not only
    after degenerate re-solves): both certified, equal to 1e-9."""
    lp = bin_packing_instance(seed)
    chosen = []

    def always(self, cols, limit):
        chosen.append(len(cols))
        return solver._disjoint_first(cols, limit)

    with monkeypatch.context() as m:
        m.setattr(solver._Pricer, "candidates", lambda self, limit: len(self.W))
        m.setattr(solver._Pricer, "choose", always)
        fast = solve_configuration_lp(lp, method="column-generation")
    assert chosen
    monkeypatch.setattr(solver, "_disjoint_first", lambda cols, limit: cols[:limit])
    ref = solve_configuration_lp(lp, method="column-generation")
    assert fast.certified and ref.certified
    assert float(fast.value) == pytest.approx(float(ref.value), rel=1e-9)


def test_sizes_to_four_significant_digits_are_priced_exactly():
    """A size with seven decimals makes the capacity 10^7 units (far above the plain
    table's 2^17); the coarser sizes sit on a grid of 1,000 units, so the exact table
    is cheap, column generation prices exactly (and smooths its prices), and the
    answer is the enumerated optimum."""
    sizes = [F("0.1234"), F("0.2345"), F("0.3456"), F("0.4567"), F("0.1111111")]
    lp = ConfigurationLP.build(sizes, [F(1), F(2), F(3), F(1), F(2)], [(1, 1)])
    W, C, integral = lp.pricing_data()
    assert integral and C[0, 0] == 10**7
    pricer = solver._Pricer(W, C[0], integral)
    assert pricer.grid_exact
    ref = solve_configuration_lp(lp, method="enumerate")
    cg = solve_configuration_lp(lp, method="column-generation")
    assert cg.certified and cg.lower == ref.lower
    assert float(cg.value) == pytest.approx(float(ref.value), rel=1e-9)


def test_smoothing_weight_follows_the_subgradient():
    """Less smoothing when the bound falls towards the master's prices, more otherwise;
    the weight stays in [0, 1)."""
    down, up = np.array([-1.0, 0.0]), np.array([1.0, 0.0])
    towards = np.array([1.0, 0.0])
    assert solver._next_weight(0.5, down, towards) == pytest.approx(0.4)
    assert solver._next_weight(0.05, down, towards) == 0.0
    assert solver._next_weight(0.5, up, towards) == pytest.approx(0.55)
    w = 0.5
    for _ in range(200):
        w = solver._next_weight(w, up, towards)
    assert 0.99 < w < 1.0


@pytest.mark.parametrize("seed", range(12))
def test_adaptive_smoothing_agrees_with_the_fixed_weight(seed, monkeypatch):
    """Exact pricing with Wentges smoothing: the weight adapted every round (the
    default for long configurations) and held at 1/2 reach the same certified optimum,
    to 1e-9."""
    lp = bin_packing_instance(seed)
    calls = []
    rule = solver._next_weight

    def spy(weight, subgradient, towards):
        calls.append(weight)
        return rule(weight, subgradient, towards)

    with monkeypatch.context() as m:
        m.setattr(solver._Pricer, "adapts_smoothing", True)  # short columns do not adapt
        m.setattr(solver, "_next_weight", spy)
        adaptive = solve_configuration_lp(lp, method="column-generation")
    monkeypatch.setattr(solver, "_ADAPTIVE", False)
    fixed = solve_configuration_lp(lp, method="column-generation")
    assert adaptive.certified and fixed.certified
    assert float(adaptive.value) == pytest.approx(float(fixed.value), rel=1e-9)
    if adaptive.iterations > 3:
        assert calls


@pytest.mark.parametrize("seed", range(16))
def test_full_columns_agree_with_the_best_within_capacity(seed, monkeypatch):
    """Columns that fill the capacity exactly first (the default) and the best columns
    within the capacity (the reference path) reach the same certified optimum, to
    1e-9, with and without copy bounds; the first path does offer full columns."""
    base = bin_packing_instance(seed)
    bounds = None if seed % 2 else [1 + (j % 3) for j in range(base.T)]
    lp = ConfigurationLP.build([r[0] for r in base.rows], base.demand, [(1, 1)],
                               max_copies=bounds)
    W, C, _ = lp.pricing_data()
    full = []
    real = solver.knapsack_dp

    def spy(*args, **kw):
        res = real(*args, **kw)
        if kw.get("full_columns"):
            full.extend(int(k @ W[:, 0]) == int(C[0, 0]) for k in res.improving)
        return res

    with monkeypatch.context() as m:
        m.setattr(solver, "knapsack_dp", spy)
        fast = solve_configuration_lp(lp, method="column-generation")
    assert any(full)
    monkeypatch.setattr(solver, "_FULL_COLUMNS", False)
    ref = solve_configuration_lp(lp, method="column-generation")
    assert fast.certified and ref.certified
    assert float(fast.value) == pytest.approx(float(ref.value), rel=1e-9)


def small_sizes_instance(seed: int) -> ConfigurationLP:
    """Sizes a small fraction of the capacity: configurations of many jobs."""
    rng = np.random.default_rng(seed)
    C = int(rng.integers(300, 3000))
    w = np.unique(rng.integers(max(1, C // 60), C // 5, int(rng.integers(30, 90))))
    probs = [F(int(x)) for x in rng.integers(1, 5, len(w))]
    return ConfigurationLP.build([F(int(x), C) for x in w], probs, [(1, 2)])


def test_few_columns_for_long_configurations_on_a_small_table():
    """Long configurations on a small exact table: at least _FEW_COLUMNS a round, one
    per _CELLS_PER_COLUMN cells; short ones, or a table large enough, keep the usual
    number."""
    lp = small_sizes_instance(0)
    W, C, integral = lp.pricing_data()
    pricer = solver._Pricer(W, C[0], integral)
    assert not pricer.short_columns and pricer.table_cells is not None
    usual = solver._columns_per_round(lp.T)
    assert solver._columns_per_round(lp.T, [pricer]) == min(usual, solver._FEW_COLUMNS)
    short = bin_packing_instance(0)
    W2, C2, integral2 = short.pricing_data()
    assert solver._columns_per_round(short.T, [solver._Pricer(W2, C2[0], integral2)]) == \
        solver._columns_per_round(short.T)


@pytest.mark.parametrize("seed", range(10))
def test_few_columns_a_round_agree_with_the_usual_number(seed, monkeypatch):
    """Long configurations solved with few columns a round (the fast path) and with the
    usual number (the reference): both certified, equal to 1e-9."""
    lp = small_sizes_instance(seed)
    W, C, integral = lp.pricing_data()
    usual = solver._columns_per_round(lp.T)
    # the two paths differ: the rule cuts this LP's columns a round
    assert solver._columns_per_round(lp.T, [solver._Pricer(W, C[0], integral)]) < usual
    fast = solve_configuration_lp(lp, method="column-generation")
    monkeypatch.setattr(solver, "_columns_per_round", lambda T, pricers=(): usual)
    ref = solve_configuration_lp(lp, method="column-generation")
    assert fast.certified and ref.certified
    assert float(fast.value) == pytest.approx(float(ref.value), rel=1e-9)


def bounded_bin_packing_instance(seed: int) -> ConfigurationLP:
    """A Scholl_3-shaped bin-packing instance (weights 20-35 % of C, most of them
    distinct): short configurations, copy bounds, a degenerate master."""
    rng = np.random.default_rng(seed)
    C = 100_000
    ws = [int(x) for x in rng.integers(20_000, 35_001, int(rng.integers(150, 300)))]
    return ConfigurationLP.of_instance(ws, C)


@pytest.mark.parametrize("seed", range(10))
def test_small_pool_for_short_configurations_agrees_with_the_large_one(seed, monkeypatch):
    """Short configurations keep a small column pool (the fast path; columns are
    removed in every instance) and the large one (the reference): both certified,
    equal to 1e-9."""
    lp = bounded_bin_packing_instance(seed)
    removed = []
    remove = solver.MasterLP.remove_columns

    def counting(self, which):
        removed.append(len(which))
        remove(self, which)

    with monkeypatch.context() as m:
        m.setattr(solver.MasterLP, "remove_columns", counting)
        fast = solve_configuration_lp(lp, method="column-generation")
    assert sum(removed) > 0
    monkeypatch.setattr(solver, "_SHORT_POOL", (solver._POOL_FACTOR, solver._POOL_AGE))
    ref = solve_configuration_lp(lp, method="column-generation")
    assert fast.certified and ref.certified
    assert float(fast.value) == pytest.approx(float(ref.value), rel=1e-9)
