"""The standard (multiplicity-bounded) Gilmore-Gomory bound of bin_packing_lp, its
unbounded sibling, the bounded knapsacks it prices with, and the closed-form L1/L2."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest
from scipy.optimize import linprog

import capacity.supportable_workload as supportable_workload
from capacity import bin_packing_lp, bin_packing_lp_pair, rho_star
from capacity.certificate import certify
from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp
from capacity.knapsack import knapsack_bb, knapsack_dp_bounded, knapsack_exact
from capacity.result import MixtureTerm
from theory.bin_packing_bounds import continuous_bound, martello_toth_l2


def patterns(weights: list[int], copies: list[int] | None, C: int) -> np.ndarray:
    """Every non-zero pattern k (k_j <= copies_j if given) with k.w <= C, by brute force."""
    tops = [C // w if copies is None else min(c, C // w)
            for w, c in zip(weights, copies or [0] * len(weights), strict=True)]
    out = [k for k in itertools.product(*(range(t + 1) for t in tops))
           if any(k) and np.dot(k, weights) <= C]
    return np.array(out, dtype=float)


def reference_z(ws: list[int], C: int, bounded: bool) -> float:
    """min sum x s.t. sum_k k_j x_k >= n_j over the listed patterns (HiGHS via scipy)."""
    cnt = Counter(ws)
    sizes = sorted(cnt)
    n = [cnt[s] for s in sizes]
    K = patterns(sizes, n if bounded else None, C)
    res = linprog(np.ones(len(K)), A_ub=-K.T, b_ub=-np.array(n, dtype=float),
                  bounds=(0, None), method="highs")
    assert res.status == 0
    return float(res.fun)


def instance(rng: np.random.Generator) -> tuple[list[int], int]:
    C = int(rng.integers(20, 60))
    distinct = rng.choice(np.arange(3, C + 1), int(rng.integers(2, 5)), replace=False)
    ws = [int(w) for w in distinct for _ in range(int(rng.integers(1, 4)))]
    return ws, C


@pytest.mark.parametrize("seed", range(12))
def test_bounded_bound_matches_the_enumerated_lp(seed):
    ws, C = instance(np.random.default_rng(seed))
    res = bin_packing_lp(ws, C)
    ex = res.extra
    assert res.certified, res.message
    assert float(ex["z_lp"]) == pytest.approx(reference_z(ws, C, True), rel=1e-9, abs=1e-9)
    assert float(ex["z_lp_unbounded"]) == pytest.approx(reference_z(ws, C, False), rel=1e-9,
                                                        abs=1e-9)
    lo, hi = ex["z_lp_bounds"]
    assert float(lo) * (1 - 1e-12) <= float(ex["z_lp"]) <= float(hi) * (1 + 1e-12)
    assert float(ex["z_lp_unbounded"]) <= float(ex["z_lp"]) * (1 + 1e-12)
    # every LP column respects the multiplicities
    cnt = Counter(ws)
    for term in res.mixture:
        assert all(int(term.config[j]) <= cnt[s] for j, s in enumerate(res.sizes))
    # L2 is dominated by the LP bound (Martello & Toth's L2 is a relaxation of it)
    assert ex["l1"] <= ex["l2"] <= ex["lp_bins"]


def test_a_type_with_few_copies_raises_the_bound():
    # one 50 and five 30s in bins of 100: the unbounded LP uses the pattern 2 x 50
    # (z = 13/6); with one copy of 50 per pattern z = 7/3
    ws, C = [50] + [30] * 5, 100
    ex = bin_packing_lp(ws, C).extra
    assert ex["z_lp"] == pytest.approx(7 / 3, rel=1e-12)
    assert ex["z_lp"] == pytest.approx(reference_z(ws, C, True), rel=1e-12)
    assert ex["z_lp_unbounded"] == pytest.approx(13 / 6, rel=1e-12)
    assert ex["z_lp_unbounded"] == pytest.approx(reference_z(ws, C, False), rel=1e-12)
    # a single item: bounded 1 bin, unbounded a third of one
    one = bin_packing_lp([33], 100).extra
    assert (one["z_lp"], one["z_lp_unbounded"]) == (pytest.approx(1), pytest.approx(1 / 3))


def test_exact_rational_bounds_and_the_unbounded_switch():
    ws = [F(1, 2) + F(1, 100)] * 3 + [F(1, 4)] * 5
    res = bin_packing_lp(ws, 1, unbounded=False)
    assert "z_lp_unbounded" not in res.extra
    lo, hi = res.extra["z_lp_bounds"]
    assert isinstance(lo, F) and lo == hi


def test_a_column_above_the_copy_bound_fails_the_certificate():
    """The bounded LP's primal check refuses a pattern with more copies than the
    instance has, a pattern the unbounded LP would accept."""
    sizes, probs = [F(3, 10), F(1, 5)], [F(1, 11), F(10, 11)]
    bounded = ConfigurationLP.build(sizes, probs, [(1, 1)], max_copies=[1, 10])
    res = solve_configuration_lp(bounded)
    assert res.certified
    too_many = MixtureTerm(0, np.array([2, 2], dtype=np.int64), 1.0)  # two 0.3s
    cert = certify(bounded, [too_many], res.dual)
    assert not cert.certified and "exceeds max_copies" in cert.message
    free = ConfigurationLP.build(sizes, probs, [(1, 1)])
    assert "exceeds" not in certify(free, [too_many], res.dual).message


def test_bad_copy_bounds_are_refused():
    with pytest.raises(ValueError, match="max_copies entry must be a positive integer"):
        ConfigurationLP.build([F(1, 2)], [1], [(1, 1)], max_copies=[0])
    with pytest.raises(ValueError, match="1 types but 2 max_copies"):
        ConfigurationLP.build([F(1, 2)], [1], [(1, 1)], max_copies=[1, 2])
    with pytest.raises(ValueError, match="bounds must be 2 non-negative integers"):
        knapsack_bb(np.array([1.0, 1.0]), np.array([[0.5], [0.5]]), np.array([1.0]),
                    bounds=np.array([1.5, 1.0]))


@pytest.mark.parametrize("seed", range(40))
def test_bounded_knapsacks_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    T, C = int(rng.integers(1, 6)), int(rng.integers(1, 40))
    w, v, b = rng.integers(1, 20, T), rng.random(T), rng.integers(0, 4, T)
    best = max((float(np.dot(k, v)) for k in itertools.product(*(range(x + 1) for x in b))
                if np.dot(k, w) <= C), default=0.0)
    dp = knapsack_dp_bounded(v, w, C, b)
    assert dp.value == pytest.approx(best, abs=1e-12)
    assert dp.config @ w <= C and np.all(dp.config <= b)
    assert dp.config @ v == pytest.approx(best, abs=1e-12)
    assert knapsack_dp_bounded(v, w, C, b, config=False).value == pytest.approx(best, abs=1e-12)
    bb = knapsack_bb(v, w[:, None].astype(float), np.array([float(C)]), bounds=b, rtol=0.0)
    assert bb.proven and bb.value == pytest.approx(best, abs=1e-12) and np.all(bb.config <= b)
    vi = rng.integers(1, 50, T)
    best_i = max(int(np.dot(k, vi)) for k in itertools.product(*(range(x + 1) for x in b))
                 if np.dot(k, w) <= C)
    ex, _k = knapsack_exact([int(x) for x in vi], [[int(x)] for x in w], [C],
                            bounds=[int(x) for x in b])
    assert ex == best_i
    assert knapsack_dp_bounded(vi, w, C, b).value == best_i


def l2_by_definition(ws: list[int], C: int) -> int:
    """L2 as printed: the max over every integer alpha in [0, C/2]."""
    best = 0
    for a in range(C // 2 + 1):
        j1 = [w for w in ws if w > C - a]
        j2 = [w for w in ws if C - a >= w > C / 2]
        j3 = [w for w in ws if C / 2 >= w >= a]
        rest = F(sum(j3) - (len(j2) * C - sum(j2)), C)
        best = max(best, len(j1) + len(j2) + max(0, math.ceil(rest)))
    return best


@pytest.mark.parametrize("seed", range(30))
def test_l2_against_its_definition(seed):
    rng = np.random.default_rng(seed)
    C = int(rng.integers(2, 80))
    ws = [int(x) for x in rng.integers(1, C + 1, int(rng.integers(1, 30)))]
    assert martello_toth_l2(ws, C) == l2_by_definition(ws, C)
    assert martello_toth_l2(ws, C) >= continuous_bound(ws, C) == math.ceil(F(sum(ws), C))
    # rationals (the integer path over a common denominator, or fractions when that
    # is beyond 2^64) and floats agree
    assert martello_toth_l2([F(w, 7) for w in ws], F(C, 7)) == l2_by_definition(ws, C)
    unit = F(1, 3**45)  # a common denominator above 2^64
    assert martello_toth_l2([w * unit for w in ws], C * unit) == l2_by_definition(ws, C)
    assert martello_toth_l2([w / 8 for w in ws], C / 8) == l2_by_definition(ws, C)


def test_l2_beats_l1_where_big_items_cannot_share():
    # three items just above half: L1 = 2, L2 = 3
    assert continuous_bound([51, 51, 51], 100) == 2
    assert martello_toth_l2([51, 51, 51], 100) == 3


def test_l2_refuses_bad_instances():
    with pytest.raises(ValueError, match="not in"):
        martello_toth_l2([120], 100)
    with pytest.raises(ValueError, match="at least one item"):
        martello_toth_l2([], 100)


def test_capacity_beyond_the_dynamic_program_is_certified_by_search():
    """Regression: a capacity above DP_MAX_CAPACITY used to reach the dynamic program in
    the certificate, which raised 'capacity too large' (bounded and unbounded alike)."""
    res = bin_packing_lp([30_000_000] * 2, 100_000_000)
    assert res.certified and res.extra["unbounded_certified"], res.message
    # two copies: one bin (bounded); any pattern may hold three: 2/3 of a bin
    assert res.extra["z_lp"] == pytest.approx(1.0)
    assert res.extra["z_lp_unbounded"] == pytest.approx(2 / 3)
    assert res.extra["l2"] == 1


def test_huge_capacities_finish():
    """Regressions: the branch and bound stepped the last item down one copy at a time
    without counting nodes (a bounded LP with capacity 10^9 hung), and exact_optimum's
    rational search did the same for rho* of sizes 1, 2 in capacity 10^9."""
    res = bin_packing_lp([1] * 2000 + [2] * 2000 + [3] * 100, 10**9, unbounded=False)
    assert res.certified and res.extra["z_lp"] == pytest.approx(1.0)
    from capacity import rho_star

    r = rho_star([1, 2], capacity=10**9)
    assert r.certified and r.value == pytest.approx(2 * 10**9 / 3)


@pytest.mark.parametrize("seed", range(10))
def test_exact_knapsack_with_copy_bounds_against_enumeration(seed):
    """The rational search bounds what is left by the remaining copies too: right
    where the capacity binds and where only the copies do."""
    rng = np.random.default_rng(seed)
    T = 4
    v = [F(int(x), 7) for x in rng.integers(0, 20, T)]
    w = [[int(x)] for x in rng.integers(1, 9, T)]
    most = [int(x) for x in rng.integers(1, 4, T)]
    for cap in (10, 1000):
        best = max(sum(c * x for c, x in zip(k, v, strict=True))
                   for k in itertools.product(*(range(m + 1) for m in most))
                   if sum(c * r[0] for c, r in zip(k, w, strict=True)) <= cap)
        got, k = knapsack_exact(v, w, [cap], threshold=-1, bounds=most)
        assert got == best and k is not None
        assert all(0 <= c <= m for c, m in zip(k, most, strict=True))


def test_bounded_knapsack_edge_inputs():
    v, w = np.array([3, 2, 1]), np.array([3, 2, 1])
    # an unsigned "no bound" must not wrap to -1
    top = np.array([2**64 - 1, 1, 1], dtype=np.uint64)
    assert knapsack_dp_bounded(v, w, 10, top).value == 10
    # size-0 types with a bound: every allowed copy is taken
    r = knapsack_dp_bounded(np.array([3.0, 2.0, 1.0]), np.array([0, 2, 1]), 10,
                            np.array([5, 1, 1]))
    assert r.value == 18.0 and r.config.tolist() == [5, 1, 1]
    with pytest.raises(ValueError, match="no copy bound"):
        knapsack_dp_bounded(np.array([3.0]), np.array([0]), 10,
                            np.array([2**62], dtype=np.int64))
    for bad in ([-1, 2], [1.5, 2], [1]):
        with pytest.raises(ValueError, match="bounds must be 2"):
            knapsack_exact([1, 2], [[1], [1]], [2], bounds=bad)


def test_copy_bounds_above_any_count_and_non_sequences():
    lp = ConfigurationLP.build([F(1, 2), F(1, 3)], [F(1, 2), F(1, 2)], [(1, 1)],
                               max_copies=[10**30, 1])
    assert solve_configuration_lp(lp).value == pytest.approx(2.0)
    with pytest.raises(ValueError, match="sequence of positive integers"):
        ConfigurationLP.build([F(1, 2)], [1], [(1, 1)], max_copies=3)


@pytest.mark.parametrize("seed", range(25))
def test_bounded_knapsack_columns_are_a_chain_of_lighter_optima(seed):
    """max_columns: the optimum first, then the best configuration within a capacity
    below the weight of the previous one: feasible, distinct, each optimal there."""
    rng = np.random.default_rng(100 + seed)
    T, C = int(rng.integers(2, 6)), int(rng.integers(5, 40))
    w, v, b = rng.integers(1, 15, T), rng.random(T), rng.integers(1, 4, T)
    res = knapsack_dp_bounded(v, w, C, b, max_columns=50)
    cols = res.improving
    if res.value == 0:  # nothing fits
        assert cols == [] and not res.config.any()
        return
    assert np.array_equal(cols[0], res.config)
    cap = C
    for k in cols:
        assert k @ w <= cap and np.all(k <= b) and k.any()
        best = max(float(np.dot(q, v)) for q in itertools.product(*(range(x + 1) for x in b))
                   if np.dot(q, w) <= cap)
        assert k @ v == pytest.approx(best, abs=1e-12)
        cap = int(k @ w) - 1
    assert len({k.tobytes() for k in cols}) == len(cols)
    assert len(knapsack_dp_bounded(v, w, C, b).improving) == 1


def larger_instance(rng: np.random.Generator) -> tuple[list[int], int]:
    """A few dozen items, some weights repeated (so copy bounds bind), capacity 1000."""
    C = 1000
    distinct = rng.choice(np.arange(60, 700), int(rng.integers(5, 40)), replace=False)
    ws = [int(w) for w in distinct for _ in range(int(rng.integers(1, 4)))]
    return ws, C


@pytest.mark.parametrize("seed", range(30))
def test_warm_started_bounded_lp_agrees_with_the_cold_one(seed):
    """bin_packing_lp starts the bounded LP from the unbounded one (columns capped at
    the copy bounds, its prices as stability centre): the reference is the same LP
    solved cold, and both are certified."""
    ws, C = larger_instance(np.random.default_rng(seed))
    fast = bin_packing_lp(ws, C)
    cnt = Counter(ws)
    sizes = list(cnt)
    lp = ConfigurationLP.build(sizes, [F(cnt[s], len(ws)) for s in sizes], [(C, 1)],
                               max_copies=[cnt[s] for s in sizes])
    cold = solve_configuration_lp(lp, method="column-generation")
    assert fast.certified and cold.certified
    assert fast.value == pytest.approx(cold.value, rel=1e-9)
    # the certified intervals overlap: both contain the optimum
    assert max(fast.lower, cold.lower) <= min(fast.upper, cold.upper)


def test_a_warm_start_from_another_lp_is_refused():
    sizes, probs = [F(3, 10), F(1, 5)], [F(1, 2), F(1, 2)]
    lp = ConfigurationLP.build(sizes, probs, [(1, 1)], max_copies=[5, 10])
    other = solve_configuration_lp(ConfigurationLP.build([F(3, 10), F(1, 4)], probs, [(1, 1)]),
                                   method="column-generation")
    with pytest.raises(ValueError, match="warm_start solves a different LP"):
        solve_configuration_lp(lp, method="column-generation", warm_start=other)
    # same sizes, a larger capacity: its configurations do not fit here
    big = solve_configuration_lp(ConfigurationLP.build(sizes, probs, [(2, 1)]),
                                 method="column-generation")
    with pytest.raises(ValueError, match="does not fit a server of class 0"):
        solve_configuration_lp(lp, method="column-generation", warm_start=big)


def test_z_lp_lies_inside_its_certified_interval():
    # 3 / t* in floats was 3.0000000000000004 against the exact interval [3, 3]
    ex = bin_packing_lp([10, 12, 13, 11, 14], 23, unbounded=False).extra
    lo, hi = ex["z_lp_bounds"]
    assert lo <= ex["z_lp"] <= hi and ex["z_lp"] == 3.0


def test_an_unbounded_lp_the_caller_has_is_reused_and_checked():
    """rho_star of the weights' distribution (what the CLI reports anyway) replaces the
    unbounded solve inside bin_packing_lp: same bound; one of other weights, other
    probabilities or more servers is refused."""
    from capacity import rho_star
    from theory.distributions import Discrete

    ws = [23, 31, 31, 40, 47, 47, 47, 52, 61, 66, 70, 70]
    counts = Counter(ws)
    dist = Discrete.from_counts(sorted(counts), [counts[w] for w in sorted(counts)])
    free = rho_star(dist, capacity=100)
    ref = bin_packing_lp(ws, 100)
    got = bin_packing_lp(ws, 100, unbounded_lp=free)
    assert got.extra["z_lp"] == ref.extra["z_lp"]
    assert got.extra["z_lp_unbounded"] == ref.extra["z_lp_unbounded"]
    others = [rho_star(Discrete.from_counts(sorted(counts), [1] * len(counts)), capacity=100),
              rho_star(Discrete([w for w in sorted(counts) if w != 23]), capacity=100),
              rho_star(dist, capacity=100, servers=2)]
    for bad in others:
        with pytest.raises(ValueError, match="unbounded_lp solves another LP"):
            bin_packing_lp(ws, 100, unbounded_lp=bad)
    with pytest.raises(TypeError, match="unbounded_lp must be the CapacityResult"):
        bin_packing_lp(ws, 100, unbounded_lp=2.0)


@pytest.mark.parametrize("ws, C", [([6, 4, 7, 3, 5, 5, 10, 2, 8], 10),  # at sum w / C
                                   ([6, 6, 6, 4, 5], 10)])  # above it
def test_the_pair_holds_both_lps_and_the_unbounded_one_is_rho_star(ws, C, monkeypatch):
    monkeypatch.setattr(supportable_workload, "DECOMPOSE_ITEMS", 1)  # the fast path too
    bounded, free = bin_packing_lp_pair(ws, C)
    cnt = Counter(ws)
    sizes = sorted(cnt)
    ref = rho_star(sizes, [F(cnt[s], len(ws)) for s in sizes], capacity=C)
    assert bounded.certified and free.certified
    assert free.value == pytest.approx(ref.value, rel=1e-9)
    assert float(bounded.extra["z_lp"]) == pytest.approx(
        float(bin_packing_lp(ws, C).extra["z_lp"]), rel=1e-12)
    assert float(bounded.value) <= float(free.value) * (1 + 1e-9)  # bounds only lower t


@pytest.mark.parametrize("seed", range(12))
def test_the_unbounded_lp_from_the_bounded_one_is_rho_star(seed):
    """The bounded LP is solved first; its optimum and prices prove the unbounded LP
    when no pattern with more copies than the instance has prices above them, else
    column generation goes on from them. Either way the unbounded LP is rho* of the
    weights to 1e-9, certified."""
    rng = np.random.default_rng(900 + seed)
    C = 100
    # odd seeds: copies bind (three small jobs: one bin, where copies would fill it)
    ws = ([int(w) for w in rng.integers(20, 36, 40)] if seed % 2 == 0
          else [int(w) for w in rng.choice(np.arange(11, 30), 3, replace=False)])
    bounded, free = bin_packing_lp_pair(ws, C)
    cnt = Counter(ws)
    sizes = sorted(cnt)
    ref = rho_star(sizes, [F(cnt[s], len(ws)) for s in sizes], capacity=C)
    assert bounded.certified and free.certified
    assert float(free.lower) == pytest.approx(float(ref.lower), rel=1e-9)
    shortcut = free.message.startswith("the optimum and prices of the LP with copy bounds")
    # whether copies bind, from the references: the bounded LP by enumeration
    whole = solve_configuration_lp(ConfigurationLP.of_instance(ws, C), method="enumerate")
    same = float(whole.lower) == pytest.approx(float(ref.lower), rel=1e-9)
    assert float(bounded.value) == pytest.approx(float(whole.lower), rel=1e-9)
    assert shortcut == same  # taken wherever the LPs agree (here), never elsewhere
    if seed % 2:
        assert not same  # three small jobs: copies bind


def test_the_lp_of_an_instance():
    lp = ConfigurationLP.of_instance([5, 3, 5, 2, 5], 10)
    assert [r[0] for r in lp.rows] == [5, 3, 2]  # first appearance
    assert lp.demand == [F(3, 5), F(1, 5), F(1, 5)] and lp.max_copies == [3, 1, 1]
    assert ConfigurationLP.of_instance([5, 3], 10, copies_bounded=False).max_copies is None
    with pytest.raises(ValueError, match="at least one item"):
        ConfigurationLP.of_instance([], 10)
    with pytest.raises(ValueError, match="exceeds the capacity"):
        ConfigurationLP.of_instance([11], 10)
