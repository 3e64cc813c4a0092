"""capacity.volume_knapsack: the knapsack P1 of MRIS (FL24 Sec. 5.1) and its constraint
approximations (CADP of Lemma 6.1, the greedy of Remark 1, the Lawler-style split) against
an exact brute force, and the checks FL24.Lemma6.1 / FL24.Remark1 (they hold, and they
fail when the solver under them is a plausible wrong one).
"""

from __future__ import annotations

import itertools
import json
import math
import time
from fractions import Fraction

import numpy as np
import pytest

import proofs_checks.checks.fl24_knapsack as chk
from capacity.programs import ProgramError
from capacity.volume_knapsack import (
    VolumeKnapsackResult,
    _dp_kernel,
    _dp_take,
    _exact_floor_ratio,
    solve_volume_knapsack,
)
from theory.budgets import BudgetExceeded

#: weights are float sums; different sets of the same weight may differ in the last bits
WEIGHT_RTOL = 1e-9
#: the volume bounds hold exactly; (1 + eps) * zeta rounds once in floating point
VOLUME_RTOL = 1e-12
METHODS = ("cadp", "greedy", "split", "exact")


def solve(w, v, z, method="cadp", **kw) -> VolumeKnapsackResult:
    return solve_volume_knapsack(w, v, z, method=method, **kw)


def brute_opt(w, v, z) -> float:
    """max weight over all subsets whose volume is <= z, volumes summed exactly (the
    binary values of the floats, as integers over a common power-of-two denominator)."""
    V = [Fraction(float(x)) for x in v]
    Z = Fraction(float(z))
    D = max([q.denominator for q in V] + [Z.denominator])
    sums, wts = [0], [0.0]
    for Vj, wj in zip(V, w, strict=True):
        k = Vj.numerator * (D // Vj.denominator)
        sums += [s + k for s in sums]
        wts += [x + float(wj) for x in wts]
    ZD = Z * D
    return max(x for s, x in zip(sums, wts, strict=True) if s <= ZD)


def exact_volume(v, sel) -> Fraction:
    return sum((Fraction(float(v[j])) for j in sel), Fraction(0))


# ------------------------------------------------------------------------ hand cases
def test_cadp_hand_cases():
    # two items of volume zeta: only one fits the rounded capacity
    r = solve([1, 1], [1.0, 1.0], 1.0)
    assert r.selected.tolist() == [0] and r.volume == 1.0 and r.volume_bound == 1.1
    assert r.details["K"] == pytest.approx(0.05) and r.details["rounded_capacity"] == 19
    # K = 0.1 * 5 / 3: v_hat = (11, 17, 23) (0.1 is a little above 1/10), capacity 29
    r = solve([3, 4, 5], [2, 3, 4], 5)
    assert r.selected.tolist() == [0, 1] and r.weight == 7
    # the slack is used: 0.52 + 0.52 > 1, but with K = 1/16 both round to 8 of 16 levels
    r = solve([1, 1], [0.52, 0.52], 1.0, eps=0.125)
    assert r.selected.tolist() == [0, 1] and r.volume == pytest.approx(1.04)
    assert r.weight == 2 > brute_opt([1, 1], [0.52, 0.52], 1.0)


def test_cadp_rounds_small_items_to_zero_and_drops_oversized_ones():
    # K = 0.5 * 1 / 4 = 1/8: 0.1 -> 0 (always taken); 5.0 -> 40 > 8 (dropped)
    r = solve([1, 1, 1, 9], [0.1, 0.1, 0.5, 5.0], 1.0, eps=0.5)
    assert r.details["rounded_to_zero"] == 2 and r.details["dropped"] == 1
    assert r.selected.tolist() == [0, 1, 2] and r.volume <= 1.5


@pytest.mark.parametrize("seed", range(8))
def test_cadp_with_equal_weights_solves_the_rounded_program(seed):
    """Equal weights take the smallest rounded volumes instead of the table: the count is
    the rounded program's optimum (brute force), and the DP (weights made unequal by
    less than one item's worth) finds the same count."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 11))
    v = np.round(rng.uniform(0.05, 1.0, n), 2)
    zeta, eps = float(rng.uniform(0.3, 2.0)), float(rng.choice([0.1, 0.3, 0.7]))
    r = solve(np.full(n, 2.0), v, zeta, eps=eps)
    assert r.details["equal_weights"] and r.details["dp_cells"] == 0
    K = Fraction(eps) * Fraction(zeta) / n
    cap = math.floor(Fraction(zeta) / K)
    vh = _exact_floor_ratio(v, 1 / K, cap)
    best = max(len(S) for k in range(n + 1) for S in itertools.combinations(range(n), k)
               if sum(int(vh[j]) for j in S) <= cap)
    assert r.selected.size == best
    assert r.volume <= (1 + eps) * zeta and r.weight >= brute_opt(np.full(n, 2.0), v, zeta)
    dp = solve(2.0 + rng.uniform(0, 1e-3, n), v, zeta, eps=eps)
    assert "equal_weights" not in dp.details and dp.selected.size == best


def test_greedy_hand_cases():
    # density order 0, 1 (1.33), 2, 3 (0.96): 0 and 1 fit, 2 overflows and is taken
    w, v = [0.5, 0.5, 0.6, 0.6], [0.375, 0.375, 0.625, 0.625]
    r = solve(w, v, 1.0, "greedy")
    assert r.selected.tolist() == [0, 1, 2] and r.weight == pytest.approx(1.6)
    assert r.volume == 1.375 and r.volume_bound == 2.0
    assert r.details["overflow_item"] == 2 and r.details["fitting"] == 2
    assert brute_opt(w, v, 1.0) == pytest.approx(1.1)
    # an item above the capacity is never taken, however dense
    r = solve([100, 1], [2.0, 0.5], 1.0, "greedy")
    assert r.selected.tolist() == [1] and r.details["left_out_above_capacity"] == 1
    # ties by lower index; everything fits -> everything taken
    assert solve([1, 1, 1], [1, 1, 1], 1.5, "greedy").selected.tolist() == [0, 1]
    assert solve([1, 2], [1, 1], 5, "greedy").selected.tolist() == [0, 1]


def test_greedy_uses_exact_sums():
    # 0.1 + 0.2 > 0.3 for the binary values as well: the second item overflows
    r = solve([1, 1, 1], [0.1, 0.2, 0.3], 0.3, "greedy")
    assert r.details["fitting"] == 1 and r.selected.tolist() == [0, 1]
    # 0.25 + 0.5 + 0.25 fills 1.0 exactly: all three fit, nothing overflows
    r = solve([3, 4, 2], [0.25, 0.5, 0.25], 1.0, "greedy")
    assert r.details["fitting"] == 3 and r.details["overflow_item"] is None
    # 2^-60 + 1.0 rounds to 1.0 in floating point but exceeds 1.0: the second overflows
    r = solve([1, 1], [1.0, 2.0**-60], 1.0, "greedy")
    assert r.details["fitting"] == 1 and r.details["overflow_item"] == 0
    for m in ("cadp", "split", "exact"):
        r = solve([1, 1], [1.0, 2.0**-60], 1.0, m, eps=0.5)
        assert r.weight >= 1 and exact_volume([1.0, 2.0**-60], r.selected) <= Fraction(1.5)
    assert solve([1, 1], [1.0, 2.0**-60], 1.0, "exact").selected.size == 1


def test_split_hand_case():
    # eps = 0.5: large means v > 0.25; L = 4, K = 1/16, v_hat = (9, 4), C = 16.
    # Level 13: both large (weight 9), small budget 3/16: one fits, one overflows.
    w, v = [6, 3, 1, 1, 1], [0.6, 0.3, 0.1, 0.1, 0.1]
    r = solve(w, v, 1.0, "split", eps=0.5)
    assert r.details["n_large"] == 2 and r.details["rounded_capacity"] == 16
    assert r.details["level"] == 13 and r.details["small_taken"] == 2
    assert r.selected.tolist() == [0, 1, 2, 3] and r.weight == 11
    assert r.volume == pytest.approx(1.1) and brute_opt(w, v, 1.0) == 10


def test_split_without_large_items_is_the_greedy():
    """MRIS: v_j <= zeta / M; with M >= 2 / eps no item is large."""
    rng = np.random.default_rng(3)
    M, eps = 20, 0.1
    for _ in range(20):
        n = int(rng.integers(1, 80))
        w, v = rng.random(n) + 0.01, rng.random(n) + 0.01
        zeta = M * float(v.max()) * rng.uniform(1, 3)
        s = solve(w, v, zeta, "split", eps=eps)
        g = solve(w, v, zeta, "greedy")
        assert s.details["n_large"] == 0
        assert s.selected.tolist() == g.selected.tolist()
        assert s.volume <= zeta * (1 + 1 / M)


def test_exact_hand_cases():
    r = solve([3, 4, 5], [2, 3, 4], 5, "exact")
    assert r.selected.tolist() == [0, 1] and r.details["solver"] == "dp"
    r = solve([3, 4, 5], [0.25, 0.375, 0.5], 0.625, "exact")
    assert r.selected.tolist() == [0, 1] and r.details["solver"] == "highs"
    assert r.volume_bound == 0.625


def test_exact_rejects_sets_over_the_capacity_within_solver_tolerance():
    # 0.5 + (0.5 + 1e-12) is inside HiGHS's feasibility tolerance but above 1.0
    r = solve([1.0, 1.0], [0.5, 0.5 + 1e-12], 1.0, "exact")
    assert r.selected.size == 1 and exact_volume([0.5, 0.5 + 1e-12], r.selected) <= 1
    r = solve([1.0, 1.0, 1.0], [0.1, 0.2, 0.3], 0.3, "exact")
    assert r.weight == 1.0  # 0.1 + 0.2 > 0.3 for the binary values


def test_exact_milp_status_is_checked():
    with pytest.raises(ProgramError):
        solve(np.random.default_rng(0).random(400) + 1, np.random.default_rng(1).random(400)
              + 0.5, 40.3, "exact", time_limit=1e-9)


def test_empty_input_gives_an_empty_selection():
    for m in METHODS:
        r = solve([], [], 1.0, m)
        assert r.selected.size == 0 and r.selected.dtype == np.int64
        assert r.weight == 0.0 and r.volume == 0.0


def test_result_object():
    r = solve([3, 4, 5], [2.0, 3.0, 4.0], 5.0, "split", eps=0.2)
    d = json.loads(json.dumps(r.as_dict()))
    assert d["selected"] == r.selected.tolist() and d["method"] == "split"
    assert d["volume_bound"] == pytest.approx(6.0) and d["eps"] == 0.2
    with pytest.raises(AttributeError):
        r.weight = 0.0  # type: ignore[misc]
    assert solve([1], [1], 1, "greedy").volume_bound == 2.0
    assert solve([1], [1], 1, "exact").volume_bound == 1.0


# ------------------------------------------------------------------- random instances
def _random_instance(rng, n_max):
    n = int(rng.integers(1, n_max + 1))
    w = rng.random(n) + 0.01
    kind = rng.integers(4)
    if kind == 0:  # continuous volumes
        v = rng.random(n) + 1e-3
    elif kind == 1:  # few distinct volumes: ties
        v = rng.integers(1, 4, n) / 3.0
    elif kind == 2:  # some items near or above the capacity
        v = rng.random(n) * 2 + 0.01
    else:  # small integers
        v = rng.integers(1, 20, n).astype(float)
    if rng.random() < 0.4:  # a subset fills the capacity exactly (in floating point)
        zeta = float(np.sum(v[rng.random(n) < 0.5])) or float(v[0])
    else:
        zeta = float(v.sum() * rng.uniform(0.1, 0.9))
    return w, v, zeta


@pytest.mark.parametrize("seed", range(4))
def test_guarantees_on_random_instances(seed):
    """60 instances per seed (240 in all): cadp and split reach OPT within (1 + eps) zeta,
    greedy within 2 zeta, exact equals the exact brute force for n <= 10 and the
    volume bounds hold in exact arithmetic."""
    rng = np.random.default_rng(100 + seed)
    for t in range(60):
        w, v, z = _random_instance(rng, 10 if t % 3 else 40)
        eps = float(rng.choice([0.5, 0.2, 0.1, 0.05]))
        ex = solve(w, v, z, "exact")
        assert exact_volume(v, ex.selected) <= Fraction(z)
        opt = ex.weight
        if len(w) <= 10:
            assert opt == pytest.approx(brute_opt(w, v, z), rel=WEIGHT_RTOL, abs=1e-12)
        for m, bound in (("cadp", Fraction(1 + eps) * Fraction(z)),
                         ("split", Fraction(1 + eps) * Fraction(z)),
                         ("greedy", 2 * Fraction(z))):
            r = solve(w, v, z, m, eps=eps)
            note = f"{m} seed {seed} instance {t}: n={len(w)} eps={eps}"
            assert r.weight >= opt * (1 - WEIGHT_RTOL), note
            assert exact_volume(v, r.selected) <= bound, note
            assert r.volume <= r.volume_bound * (1 + VOLUME_RTOL), note
            assert np.all(np.diff(r.selected) > 0), note


def test_exact_against_brute_force_up_to_12_items():
    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(8, 13))
        w = rng.random(n) + 0.01
        v = rng.random(n) + 0.01 if rng.random() < 0.5 else rng.integers(1, 9, n) * 1.0
        z = float(v.sum() * rng.uniform(0.2, 0.7))
        r = solve(w, v, z, "exact")
        assert r.weight == pytest.approx(brute_opt(w, v, z), rel=WEIGHT_RTOL)


def test_greedy_overflow_item_is_needed_and_used():
    """Without the overflow item the greedy falls below OPT on random instances; with it
    the volume often exceeds (1 + eps) zeta (the extra room is used)."""
    rng = np.random.default_rng(11)
    short, above = 0, 0
    for _ in range(200):
        w, v, z = _random_instance(rng, 10)
        g = solve(w, v, z, "greedy")
        opt = brute_opt(w, v, z)
        if g.details["overflow_item"] is not None:
            without = g.weight - w[g.details["overflow_item"]]
            short += without < opt * (1 - WEIGHT_RTOL)
        above += g.volume > 1.1 * z
    assert short > 10 and above > 10


# ------------------------------------------------------------------ printed scaling
@pytest.mark.parametrize("n", [2, 3, 10, 50])
def test_printed_scaling_takes_every_item_on_the_separating_instance(n):
    zeta, eps = 2.5, 0.1
    w, v = np.ones(n), np.full(n, zeta)
    printed = solve(w, v, zeta, eps=eps, scaling="printed")
    assert printed.details["rounded_capacity"] == 0
    assert printed.details["rounded_to_zero"] == n
    assert printed.selected.tolist() == list(range(n))
    assert printed.volume == n * zeta > (1 + eps) * zeta
    assert printed.volume_bound == pytest.approx(zeta * (1 + n * n / eps))
    proof = solve(w, v, zeta, eps=eps)
    assert proof.selected.size == 1 and proof.volume == zeta


# ------------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize("args, kw, match", [
    (([1, 2], [1], 1), {}, "differ in length"),
    (([1, np.nan], [1, 1], 1), {}, "finite"),
    (([1, 1], [1, np.inf], 1), {}, "finite"),
    (([1, 0], [1, 1], 1), {}, "weights must be > 0"),
    (([1, -1], [1, 1], 1), {}, "weights must be > 0"),
    (([1, 1], [1, 0], 1), {}, "volumes must be > 0"),
    (([1], [1], 0), {}, "capacity must be > 0"),
    (([1], [1], -2.0), {}, "capacity must be > 0"),
    (([1], [1], np.nan), {}, "capacity must be finite"),
    (([1], [1], True), {}, "capacity must be a real number"),
    (([1], [1], "1"), {}, "capacity must be a real number"),
    (([[1]], [[1]], 1), {}, "1-D"),
    ((["a"], [1], 1), {}, "numbers"),
    (([1], [1], 1), {"eps": 0}, "eps must lie in"),
    (([1], [1], 1), {"eps": 1}, "eps must lie in"),
    (([1], [1], 1), {"eps": 1.5}, "eps must lie in"),
    (([1], [1], 1), {"eps": float("nan")}, "eps must be finite"),
    (([1], [1], 1), {"method": "dp"}, "unknown method"),
    (([1], [1], 1), {"scaling": "paper"}, "unknown scaling"),
    (([1], [1], 1), {"method": "greedy", "scaling": "printed"}, "method='cadp' only"),
    (([1], [1], 1), {"max_dp_cells": 0}, "max_dp_cells"),
    (([1], [1], 1), {"time_limit": -1.0}, "time_limit"),
])
def test_bad_inputs(args, kw, match):
    with pytest.raises(ValueError, match=match):
        solve_volume_knapsack(*args, **kw)


# ---------------------------------------------------------------------------- budget
def test_budget_refusal():
    rng = np.random.default_rng(5)
    w, v = rng.random(200) + 0.1, rng.random(200) + 0.1
    with pytest.raises(BudgetExceeded) as e:
        solve(w, v, float(v.sum()) / 2, eps=0.1, max_dp_cells=100_000)
    assert e.value.option == "max_dp_cells" and "max_dp_cells=" in str(e.value)
    # a rounded capacity far above the budget: refused before the floors are allocated
    with pytest.raises(BudgetExceeded, match="max_dp_cells"):
        solve([1.0, 2.0], [1.0, 1.0], 1.0, eps=1e-12)
    # equal weights need no table: the same eps runs
    assert solve([1.0, 1.0], [1.0, 1.0], 1.0, eps=1e-12).details["dp_cells"] == 0
    with pytest.raises(BudgetExceeded, match="max_dp_cells"):
        solve(w, v, float(v.sum()), "split", eps=0.01, max_dp_cells=1000)
    # raising the budget lets it run
    r = solve(w, v, float(v.sum()) / 2, eps=0.1, max_dp_cells=10**7)
    assert r.details["dp_cells"] <= 10**7


# ------------------------------------------------------------------ exact helpers
def test_exact_floor_ratio_near_integers():
    # 0.3 / 0.1 is 2.9999999999999996 in floating point; the exact floor of the binary
    # values is 2 as well (0.3 < 3 * 0.1 in binary), and 3 * 2^-k stays 3
    inv = 1 / Fraction(0.1)
    got = _exact_floor_ratio(np.array([0.3, 0.2, 0.7, 1e300]), inv, 100)
    want = [min(math.floor(Fraction(x) * inv), 101) for x in (0.3, 0.2, 0.7, 1e300)]
    assert got.tolist() == want
    inv = Fraction(2**30)
    vals = np.array([3 * 2.0**-30, 2.0**-31, 5.0])
    assert _exact_floor_ratio(vals, inv, 2**40).tolist() == [3, 0, 5 * 2**30]


def test_dp_kernel_matches_py_func():
    """The compiled DP and its pure-Python source agree (STYLE anchor 15)."""
    rng = np.random.default_rng(9)
    for _ in range(10):
        n, cap = int(rng.integers(1, 12)), int(rng.integers(1, 150))
        s = np.sort(rng.integers(1, 40, n)).astype(np.int64)
        w = rng.random(n)
        outs = []
        for kern, take in ((_dp_kernel, _dp_take), (_dp_kernel.py_func, _dp_take.py_func)):
            dp = np.zeros(cap + 1)
            bits = np.zeros((n, (cap >> 6) + 1), dtype=np.uint64)
            tops = np.zeros(n, dtype=np.int64)
            top = kern(s, w, dp, bits, tops, 0, 0, n)
            outs.append((dp.copy(), bits.copy(), top, take(s, bits, tops, top)))
        assert np.array_equal(outs[0][0], outs[1][0]) and outs[0][2] == outs[1][2]
        assert np.array_equal(outs[0][1], outs[1][1])
        assert np.array_equal(outs[0][3], outs[1][3])
        # and the DP optimum is the brute-force one over the integer sizes
        best = max((sum(w[list(c)]) for k in range(n + 1)
                    for c in itertools.combinations(range(n), k)
                    if sum(s[list(c)]) <= cap), default=0.0)
        assert outs[0][0][outs[0][2]] == pytest.approx(best)
        assert w[outs[0][3]].sum() == pytest.approx(best) and s[outs[0][3]].sum() <= cap


# ------------------------------------------------------------------------ the checks
def test_the_checks_hold_quickly():
    for f in (chk.check_lemma61, chk.check_remark1):
        f(True)  # compiled kernels loaded
        t0 = time.perf_counter()
        v = f(True)
        assert v.verdict == "holds", v.details
        assert time.perf_counter() - t0 < 3.0


def test_lemma61_fails_with_the_printed_scaling(monkeypatch):
    real = chk.solve_volume_knapsack

    def printed(w, v, z, **kw):
        if kw.get("method") == "cadp":
            kw["scaling"] = "printed"
        return real(w, v, z, **kw)

    monkeypatch.setattr(chk, "solve_volume_knapsack", printed)
    v = chk.check_lemma61(True)
    assert v.verdict == "violated"
    assert v.details["cadp_proof_scaling"]["eps=0.1"]["worst_volume_over_zeta"] > 1.1


def test_lemma61_fails_when_sizes_are_rounded_up(monkeypatch):
    """Rounding up keeps the volume but loses weight: OPT is not always reached."""
    real = chk.solve_volume_knapsack

    def ceil_cadp(w, v, z, *, method="cadp", eps=0.1, scaling="proof"):
        if method != "cadp" or scaling != "proof":
            return real(w, v, z, method=method, eps=eps, scaling=scaling)
        w, v = np.asarray(w, dtype=float), np.asarray(v, dtype=float)
        K = Fraction(eps) * Fraction(z) / len(w)
        up = [math.ceil(Fraction(float(x)) / K) for x in v]
        cap = math.floor(Fraction(z) / K)
        sel = real(w, np.array(up, dtype=float), cap, method="exact").selected
        return VolumeKnapsackResult(sel, float(w[sel].sum()), float(v[sel].sum()), z,
                                    "cadp", eps, (1 + eps) * z, 0.0)

    monkeypatch.setattr(chk, "solve_volume_knapsack", ceil_cadp)
    v = chk.check_lemma61(True)
    assert v.verdict == "violated"
    assert min(e["min_weight_ratio_to_opt"] for e in v.details["cadp_proof_scaling"].values()
               ) < 1 - 1e-6


def test_remark1_fails_without_the_overflow_item(monkeypatch):
    real = chk.solve_volume_knapsack

    def no_overflow(w, v, z, **kw):
        r = real(w, v, z, **kw)
        k = r.details.get("overflow_item")
        if kw.get("method") != "greedy" or k is None:
            return r
        keep = r.selected[r.selected != k]
        w, v = np.asarray(w, dtype=float), np.asarray(v, dtype=float)
        return type(r)(keep, float(w[keep].sum()), float(v[keep].sum()), r.capacity,
                       r.method, r.eps, r.volume_bound, r.seconds, r.scaling, r.details)

    monkeypatch.setattr(chk, "solve_volume_knapsack", no_overflow)
    v = chk.check_remark1(True)
    assert v.verdict == "violated"
    assert v.details["min_weight_ratio_to_opt"] < 1
    assert v.details["needs_room_instance"]["volume_over_zeta"] == 1.0


def test_remark1_fails_for_the_literal_better_of(monkeypatch):
    def literal(w, v, z, **kw):
        w, v = np.asarray(w, dtype=float), np.asarray(v, dtype=float)
        idx = np.flatnonzero(v <= z)
        order = idx[np.lexsort((idx, -(w[idx] / v[idx])))]
        k = int(np.searchsorted(np.cumsum(v[order]), z, side="right"))
        sel = order[:k] if k == order.size or w[order[:k]].sum() >= w[order[k]] \
            else order[k:k + 1]
        sel = np.sort(sel)
        return VolumeKnapsackResult(sel, float(w[sel].sum()), float(v[sel].sum()), z,
                                    "greedy", 0.1, 2 * z, 0.0)

    monkeypatch.setattr(chk, "solve_volume_knapsack", literal)
    assert chk.check_remark1(True).verdict == "violated"
