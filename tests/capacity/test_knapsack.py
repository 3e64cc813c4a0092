"""capacity.knapsack: the exact max-weight configuration (pricing problem of PG21 eq. (4)
and PG18 eqs. (2)-(3)) against brute-force enumeration of the feasible configurations
(PG21 Def. 1, :func:`theory.configurations.feasible_configurations`).

Covers branch and bound in float and exact (int64) modes, 1-D and 2-D, the dynamic
program, ``threshold`` / ``improving`` semantics, and agreement of the numba kernels with
their pure-Python ``.py_func`` (STYLE anchor 15).
"""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from capacity.knapsack import (
    _DP_FUSE_MIN,
    UNBOUNDED,
    KnapsackResult,
    _bb_kernel,
    _dp2_table,
    _dp_offsets,
    _dp_tables,
    _dp_tables_trace,
    _DPTables,
    _grid_chain,
    _prepare,
    knapsack_bb,
    knapsack_dp,
    knapsack_dp2,
    knapsack_dp_cells,
    knapsack_dp_table,
    max_weight_configuration,
)
from theory.configurations import feasible_configurations, is_feasible
from theory.numbers import FEASIBILITY_RTOL

FAST = settings(max_examples=40, deadline=None)
#: float optima agree to this relative tolerance (STYLE anchor 12)
VALUE_RTOL = 1e-9

# ------------------------------------------------------------------ brute force


def brute_max(values, sizes, capacity):
    """max <values, k> over all feasible configurations (zero configuration included)."""
    K = feasible_configurations(sizes, capacity)
    if len(K) == 0:
        return 0, np.zeros(len(values), dtype=np.int64)
    scores = [sum(int(k[j]) * values[j] for j in range(len(values))) for k in K]
    i = max(range(len(K)), key=lambda i: scores[i])
    zero = 0 * values[0]
    return (scores[i], K[i]) if scores[i] > zero else (zero, np.zeros(len(values), np.int64))


def fits_float(k, sizes, cap):
    W = np.atleast_2d(np.asarray(sizes, dtype=float))
    if W.shape[0] != len(k):
        W = W.T
    load = np.asarray(k, dtype=float) @ W
    return bool(np.all(load <= np.atleast_1d(cap) * (1 + FEASIBILITY_RTOL)))


def fits_int(k, sizes, cap):
    W = np.asarray(sizes, dtype=object).reshape(len(k), -1)
    load = [sum(int(k[j]) * int(W[j, d]) for j in range(len(k))) for d in range(W.shape[1])]
    return all(load[d] <= int(np.atleast_1d(cap)[d]) for d in range(W.shape[1]))


# ------------------------------------------------------------------ strategies

float_sizes_1d = st.lists(st.floats(0.06, 1.0), min_size=1, max_size=4)
float_values = st.floats(-2.0, 10.0, allow_nan=False)
int_sizes_1d = st.lists(st.integers(1, 12), min_size=1, max_size=5)
int_values = st.integers(-5, 60)


@st.composite
def float_instance_1d(draw):
    s = draw(float_sizes_1d)
    v = draw(st.lists(float_values, min_size=len(s), max_size=len(s)))
    return np.array(v), np.array(s), np.array([1.0])


@st.composite
def int_instance_1d(draw):
    s = draw(int_sizes_1d)
    cap = draw(st.integers(max(s), 30))
    v = draw(st.lists(int_values, min_size=len(s), max_size=len(s)))
    return np.array(v, dtype=np.int64), np.array(s, dtype=np.int64), np.array([cap])


@st.composite
def int_instance_2d(draw):
    T = draw(st.integers(1, 4))
    cap = np.array([draw(st.integers(8, 20)), draw(st.integers(8, 20))], dtype=np.int64)
    rows = []
    for _ in range(T):
        a = draw(st.integers(0, int(cap[0])))
        b = draw(st.integers(0 if a > 0 else 1, int(cap[1])))
        rows.append([a, b])
    v = draw(st.lists(int_values, min_size=T, max_size=T))
    return np.array(v, dtype=np.int64), np.array(rows, dtype=np.int64), cap


# ------------------------------------------------------------------ branch and bound, float


@FAST
@given(float_instance_1d())
def test_bb_float_1d_matches_brute_force(inst):
    v, s, cap = inst
    res = knapsack_bb(v, s, cap)
    best, _k = brute_max([float(x) for x in v], [float(x) for x in s], 1.0)
    assert res.proven
    assert res.value == pytest.approx(best, rel=VALUE_RTOL, abs=1e-12)
    assert fits_float(res.config, s[:, None], cap)
    assert float(res.config @ v) == pytest.approx(res.value, rel=VALUE_RTOL, abs=1e-12)


@FAST
@given(int_instance_2d(), st.sampled_from([1, 7]))
def test_bb_float_2d_matches_brute_force(inst, scale):
    """2-D sizes given as floats (integer grid divided by ``scale``)."""
    v, W, cap = inst
    Wf, capf, vf = W / scale, cap / scale, v.astype(float)
    res = knapsack_bb(vf, Wf, capf)
    sizes = [tuple(float(x) for x in r) for r in Wf]
    best, _k = brute_max([float(x) for x in vf], sizes, [float(c) for c in capf])
    assert res.proven
    assert res.value == pytest.approx(best, rel=VALUE_RTOL, abs=1e-12)
    assert fits_float(res.config, Wf, capf)


# ------------------------------------------------------------------ branch and bound, exact


@FAST
@given(int_instance_1d())
def test_bb_exact_1d_matches_brute_force(inst):
    v, s, cap = inst
    res = knapsack_bb(v, s, cap, exact=True)
    best, _k = brute_max([int(x) for x in v], [int(x) for x in s], int(cap[0]))
    assert res.proven
    assert res.value == best
    assert int(res.config @ v) == res.value
    assert fits_int(res.config, s, cap)


@FAST
@given(int_instance_2d())
def test_bb_exact_2d_matches_brute_force(inst):
    v, W, cap = inst
    res = knapsack_bb(v, W, cap, exact=True)
    sizes = [tuple(int(x) for x in r) for r in W]
    best, _k = brute_max([int(x) for x in v], sizes, [int(c) for c in cap])
    assert res.proven
    assert res.value == best
    assert int(res.config @ v) == best
    assert fits_int(res.config, W, cap)


def test_bb_exact_perfect_fit_is_found():
    """PG21 Prop. 2 in integers: (1/2 - e) + (1/2 + e) = 1 exactly, e = 1/1000."""
    v = np.array([10, 11], dtype=np.int64)
    res = knapsack_bb(v, np.array([499, 501]), np.array([1000]), exact=True)
    assert res.value == 21 and res.config.tolist() == [1, 1]


def test_bb_exact_value_is_an_int_when_something_is_found():
    res = knapsack_bb(np.array([3, 4]), np.array([2, 3]), np.array([7]), exact=True)
    assert isinstance(res.value, int) and res.value == 10


def test_bb_exact_threshold_is_returned_exactly_when_no_value_is_positive():
    """Regression: knapsack_bb used to return float(threshold) here (2**53 + 1 rounded)."""
    thr = 2**53 + 1
    res = knapsack_bb(np.array([0, -1]), np.array([2, 3]), np.array([7]), threshold=thr,
                      exact=True)
    assert not res.config.any()
    assert isinstance(res.value, int) and res.value == thr


def test_bb_exact_rejects_float_data():
    with pytest.raises(ValueError, match="integer"):
        knapsack_bb(np.array([1.0]), np.array([1]), np.array([2]), exact=True)


# ------------------------------------------------------------------ dynamic program


@FAST
@given(int_instance_1d(), st.booleans())
def test_dp_matches_brute_force(inst, float_values_):
    v, s, cap = inst
    vv = v.astype(float) / 3 if float_values_ else v
    res = knapsack_dp(vv, s, int(cap[0]))
    best, _k = brute_max([x for x in vv.tolist()], [int(x) for x in s], int(cap[0]))
    assert res.proven
    assert res.value == pytest.approx(best, rel=VALUE_RTOL, abs=1e-12)
    assert fits_int(res.config, s, cap)
    assert float(res.config @ vv) == pytest.approx(res.value, rel=VALUE_RTOL, abs=1e-12)


@FAST
@given(int_instance_1d())
def test_dp_and_bb_agree(inst):
    v, s, cap = inst
    assert knapsack_dp(v, s, int(cap[0])).value == knapsack_bb(v, s, cap, exact=True).value


@FAST
@given(int_instance_1d(), st.integers(0, 80))
def test_dp_per_type_columns(inst, thr):
    """``improving`` of the DP: for each type the best configuration containing it,
    only if worth more than the threshold; every one feasible; no duplicates."""
    v, s, cap = inst
    C = int(cap[0])
    res = knapsack_dp(v, s, C, per_type_threshold=thr, max_columns=100)
    K = feasible_configurations([int(x) for x in s], C)
    keys = [k.tobytes() for k in res.improving]
    assert len(keys) == len(set(keys))
    for k in res.improving:
        assert fits_int(k, s, cap)
        assert int(k @ v) > thr
    # every type whose best containing configuration beats thr is represented
    for j in range(len(v)):
        with_j = [int(k @ v) for k in K if k[j] > 0]
        if v[j] > 0 and with_j and max(with_j) > thr:
            assert any(k[j] > 0 and int(k @ v) == max(with_j) for k in res.improving), j


@FAST
@given(int_instance_2d(), st.booleans(), st.integers(0, 80))
def test_dp2_matches_brute_force(inst, float_values_, thr):
    """Two resources (types with a zero in one resource included): the optimum, and
    the best configuration through each type that beats ``thr``."""
    v, W, cap = inst
    vv = v.astype(float) / 3 if float_values_ else v
    res = knapsack_dp2(vv, W, (int(cap[0]), int(cap[1])), per_type_threshold=thr / 3,
                       max_columns=100)
    rows = [[int(a), int(b)] for a, b in W]
    best, _k = brute_max(vv.tolist(), rows, [int(c) for c in cap])
    assert res.value == pytest.approx(best, rel=VALUE_RTOL, abs=1e-12)
    assert fits_int(res.config, W, cap)
    assert float(res.config @ vv) == pytest.approx(res.value, rel=VALUE_RTOL, abs=1e-12)
    K = feasible_configurations(rows, [int(c) for c in cap])
    for k in res.improving:
        assert fits_int(k, W, cap) and float(k @ vv) > thr / 3
    for j in range(len(v)):
        with_j = [float(k @ vv) for k in K if k[j] > 0]
        if vv[j] > 0 and with_j and max(with_j) > thr / 3:
            assert any(k[j] > 0 and float(k @ vv) == pytest.approx(max(with_j), rel=1e-12)
                       for k in res.improving), j


def test_dp2_kernel_matches_py_func():
    rng = np.random.default_rng(7)
    for C0, C1 in ((12, 30), (0, 9), (25, 0)):
        W = np.stack([rng.integers(0, C0 // 3 + 1, 9), rng.integers(0, C1 // 3 + 1, 9)], 1)
        W = W[W.max(axis=1) > 0].astype(np.int64)
        v = rng.random(len(W))
        dp, choice = _dp2_table(v, W, C0, C1)
        dp_py, choice_py = _dp2_table.py_func(v, W, C0, C1)
        assert np.array_equal(dp, dp_py) and np.array_equal(choice, choice_py)


def test_dp_rejects_float_sizes():
    with pytest.raises(ValueError, match="integer"):
        knapsack_dp(np.array([1.0]), np.array([0.5]), 1)


# ------------------------------------------------------------------ threshold / improving


@FAST
@given(int_instance_1d(), st.booleans())
def test_threshold_returns_no_config_when_none_exceeds_it(inst, exact):
    v, s, cap = inst
    best, _k = brute_max([int(x) for x in v], [int(x) for x in s], int(cap[0]))
    for thr in (best, best + 3):
        if exact:
            res = knapsack_bb(v, s, cap, threshold=thr, exact=True)
        else:
            res = knapsack_bb(v.astype(float), s.astype(float), cap.astype(float),
                              threshold=float(thr), rtol=0.0)
        assert res.proven
        assert not res.config.any()
        assert res.improving == []
        assert res.value == thr


@FAST
@given(int_instance_1d(), st.booleans())
def test_threshold_just_below_optimum_finds_it(inst, exact):
    v, s, cap = inst
    best, _k = brute_max([int(x) for x in v], [int(x) for x in s], int(cap[0]))
    if best <= 0:
        return
    if exact:
        res = knapsack_bb(v, s, cap, threshold=best - 1, exact=True)
    else:
        res = knapsack_bb(v.astype(float), s.astype(float), cap.astype(float),
                          threshold=best - 1e-6, rtol=0.0)
    assert res.value == best
    assert int(res.config @ v) == best


@FAST
@given(float_instance_1d(), st.floats(0.0, 5.0), st.integers(1, 8))
def test_improving_configs_are_feasible_and_above_threshold(inst, thr, keep):
    v, s, cap = inst
    res = knapsack_bb(v, s, cap, threshold=thr, max_keep=keep)
    assert len(res.improving) <= keep
    vals = [float(k @ v) for k in res.improving]
    for k, val in zip(res.improving, vals, strict=True):
        assert fits_float(k, s[:, None], cap)
        assert val > thr
    assert vals == sorted(vals)  # best last
    if res.improving:
        assert np.array_equal(res.improving[-1], res.config)
        assert res.value == pytest.approx(vals[-1], rel=VALUE_RTOL)
    else:
        assert not res.config.any()


@FAST
@given(int_instance_2d(), st.integers(0, 60))
def test_improving_exact_2d(inst, thr):
    v, W, cap = inst
    res = knapsack_bb(v, W, cap, threshold=thr, exact=True)
    for k in res.improving:
        assert fits_int(k, W, cap)
        assert int(k @ v) > thr


def test_node_budget_reports_unproven():
    rng = np.random.default_rng(5)
    v = rng.uniform(1, 2, 12)
    s = rng.uniform(0.05, 0.2, 12)
    res = knapsack_bb(v, s, np.array([1.0]), node_limit=3)
    assert not res.proven
    # whatever it returns is still a feasible configuration worth its value
    assert fits_float(res.config, s[:, None], [1.0])
    full = knapsack_bb(v, s, np.array([1.0]))
    assert full.proven and full.value >= res.value - 1e-12


def test_max_weight_configuration_pg21_fig3b():
    """Capacity 10, sizes 2 and 5: with weights (1, 3) the best is (0, 2), worth 6."""
    res = max_weight_configuration([1.0, 3.0], [2.0, 5.0], 10.0)
    assert isinstance(res, KnapsackResult)
    assert res.config.tolist() == [0, 2] and res.value == pytest.approx(6.0)


def test_shape_mismatch_is_rejected():
    with pytest.raises(ValueError, match="shape"):
        knapsack_bb(np.array([1.0, 2.0]), np.array([0.5]), np.array([1.0]))


# ------------------------------------------------------------------ kernels vs py_func


def _kernel_args(v, W, cap, threshold, exact):
    if exact:
        best0, delta = np.int64(threshold), -1e-12 * max(1.0, abs(float(threshold)))
    else:
        cap = cap.astype(float) * (1 + FEASIBILITY_RTOL)
        best0, delta = float(threshold), 1e-12 * max(1.0, abs(float(threshold)))
    idx, vs, Ws, ratio = _prepare(v, W, cap)
    most = np.full(len(idx), UNBOUNDED, dtype=np.int64)
    return idx, (vs, Ws, cap, most, ratio, best0, delta, 100_000, 4)


@settings(max_examples=15, deadline=None)
@given(int_instance_2d(), st.booleans(), st.integers(0, 20))
def test_bb_kernel_matches_py_func(inst, exact, thr):
    v, W, cap = inst
    if not exact:
        v, W, cap = v.astype(float) / 2, W.astype(float) / 3, cap.astype(float) / 3
    idx, args = _kernel_args(v, W, cap, thr, exact)
    if idx.size == 0:
        return
    fast = _bb_kernel(*args)
    slow = _bb_kernel.py_func(*args)
    assert float(fast[0]) == float(slow[0])
    assert np.array_equal(fast[1], slow[1])
    assert tuple(int(x) for x in fast[2:5]) == tuple(int(x) for x in slow[2:5])
    n = int(fast[6])
    assert n == int(slow[6])
    assert np.array_equal(fast[5][:n], slow[5][:n])


def _traced(kernel, tab, off, t, caps, exact):
    """Counts per item of the configurations ``kernel`` traces at ``caps``, from both of
    its outputs (counts, and the item of each job), which must agree."""
    K = np.zeros((caps.size, t.T), dtype=np.int64)
    kernel(tab, off, t.v, t.w, t.units, t.starts, caps, exact, K, False)
    J = np.full((caps.size, max(1, int(caps.max()) // int(t.w.min()))), -1, dtype=np.int64)
    kernel(tab, off, t.v, t.w, t.units, t.starts, caps, exact, J, True)
    for k, jobs in zip(K, J, strict=True):
        assert np.array_equal(np.bincount(jobs[jobs >= 0], minlength=t.T), k)
    return K


@settings(max_examples=15, deadline=None)
@given(int_instance_1d(), st.sampled_from(["int", "float", "exact-fill"]))
def test_dp_kernels_match_py_func(inst, mode):
    v, s, cap = inst
    keep = (v > 0) & (s <= cap[0])
    if not keep.any():
        return
    vk = np.ascontiguousarray((v[keep] / 7.0) if mode != "int" else v[keep])
    wk = np.ascontiguousarray(s[keep].astype(np.int64))
    C = int(cap[0])
    exact = mode == "exact-fill"
    t = _DPTables(vk, wk, C, exact_fill=exact)
    off = _dp_offsets(t.units, C)
    args = (t.v, t.w, t.units, t.starts, t.v.dtype.type(-1e300 if exact else 0))
    tab_f, off_f = _dp_tables(*args, np.empty(off[-1], t.v.dtype), off, _DP_FUSE_MIN)
    tab_s, off_s = _dp_tables.py_func(*args, np.empty(off[-1], t.v.dtype), off, _DP_FUSE_MIN)
    assert np.array_equal(tab_f, tab_s) and np.array_equal(off_f, off_s)
    assert np.array_equal(tab_s, t.tab)
    # every item in one shared sweep, or each alone: the same tables (up to rounding)
    for fuse_min in (1, C + 1):
        tab_x, _ = _dp_tables.py_func(*args, np.empty(off[-1], t.v.dtype), off, fuse_min)
        assert np.allclose(tab_x, tab_s, rtol=1e-12, atol=0)
    g = int(t.units[-1])
    for c in (C, C // 2, 0):
        caps = np.array([c], dtype=np.int64)
        k = t.trace(caps)[0]
        if not exact:
            assert np.array_equal(k[t.order], _traced(_dp_tables_trace.py_func, tab_s, off_s,
                                                      t, caps, False)[0])
        # the traced configuration fits capacity c and is worth the table's value there
        best = t.value(c)
        # one cell is read without the running maximum; an array through it
        assert best == t.value(np.array([c]))[0]
        assert k[t.order] @ t.w <= c and abs(k[t.order] @ t.v - best) <= 1e-9 * max(1.0, abs(best))
        if exact and np.isfinite(t.exact_value(caps)[0]):
            cells = caps // g * g
            kf = _traced(_dp_tables_trace, tab_f, off_f, t, cells, True)[0]
            assert np.array_equal(kf, _traced(_dp_tables_trace.py_func, tab_s, off_s, t,
                                              cells, True)[0])
            assert kf @ t.w == c and abs(kf @ t.v - t.exact_value(caps)[0]) <= 1e-9 * best


@FAST
@given(int_instance_1d(), st.floats(0.0, 3.0))
def test_full_columns_fill_the_capacity_and_are_the_best_such(inst, thr):
    """``full_columns``: the same optimum; when some configuration that fills C exactly
    beats the threshold, every column returned fills C exactly and the best of them is
    the best such configuration (brute force); otherwise the usual columns."""
    v, s, cap = inst
    C = int(cap[0])
    vv = v / 3.0
    plain = knapsack_dp(vv, s, C, per_type_threshold=thr, max_columns=50)
    res = knapsack_dp(vv, s, C, per_type_threshold=thr, max_columns=50, full_columns=True)
    assert res.value == pytest.approx(plain.value, rel=VALUE_RTOL, abs=1e-12)
    assert int(res.config @ s) <= C
    assert float(res.config @ vv) == pytest.approx(res.value, rel=VALUE_RTOL, abs=1e-12)
    K = feasible_configurations([int(x) for x in s], C)
    usable = K[:, vv <= 0].sum(axis=1) == 0  # the table holds types of positive value
    full = K[usable & (K @ s == C)]
    worth = full @ vv
    if worth.size and worth.max() > thr:
        assert res.improving
        assert all(int(k @ s) == C and float(k @ vv) > thr for k in res.improving)
        assert float(res.improving[0] @ vv) == pytest.approx(worth.max(), rel=VALUE_RTOL)
    else:
        assert [k.tolist() for k in res.improving] == [k.tolist() for k in plain.improving]


@st.composite
def factored_instance(draw):
    """Sizes that are multiples of assorted factors of the capacity, as sizes read off
    a trace to a few significant digits are: the dynamic program's grid chain."""
    unit = draw(st.sampled_from([1, 2, 3]))
    C = unit * draw(st.sampled_from([12, 20, 30, 36, 60]))
    T = draw(st.integers(1, 6))
    sizes, values = [], []
    for _ in range(T):
        f = draw(st.sampled_from([d for d in range(1, C + 1) if C % d == 0]))
        sizes.append(f * draw(st.integers(1, max(1, C // f))))
        values.append(draw(st.integers(0, 40)))
    return np.array(values, dtype=np.int64), np.array(sizes, dtype=np.int64), C


@FAST
@given(factored_instance(), st.booleans())
def test_dp_on_a_grid_chain_matches_brute_force(inst, floats):
    """Types on coarser grids (their sizes share factors with C) give the same optimum
    and table as the plain program, and the chain's units divide each other, C and the
    sizes of their types."""
    v, s, C = inst
    # brute force lists every configuration: keep their count small (six types of
    # size 1 in C = 36 are 5 million)
    assume(math.prod(C // int(x) + 1 for x in s) <= 200_000)
    vv = v / 3.0 if floats else v
    res = knapsack_dp(vv, s, C, per_type_threshold=0, max_columns=10)
    best, _k = brute_max(vv.tolist(), s.tolist(), C)
    assert res.value == pytest.approx(best, rel=VALUE_RTOL, abs=1e-12)
    assert int(res.config @ s) <= C
    assert float(res.config @ vv) == pytest.approx(res.value, rel=VALUE_RTOL, abs=1e-12)
    for k in res.improving:
        assert int(k @ s) <= C and float(k @ vv) > 0
    keep = (v > 0) & (s <= C)
    if keep.any():
        units, level = _grid_chain(s[keep], C)
        assert all(units[i] % units[i + 1] == 0 for i in range(len(units) - 1))
        assert all(C % int(g) == 0 for g in units)
        assert np.all(s[keep] % units[level] == 0)
        table = knapsack_dp_table(vv[keep], s[keep], C)
        K = feasible_configurations(s[keep].tolist(), C)
        weight, worth = K @ s[keep], K @ vv[keep]
        for c in range(C + 1):
            sub = max(worth[weight <= c], default=0)
            assert table[c] == pytest.approx(sub, rel=VALUE_RTOL, abs=1e-12)


def test_grid_chain_of_trace_like_sizes():
    """Sizes to four significant digits (capacity 10^7 units): most types sit on coarse
    grids, and the work falls far below T C."""
    sizes = np.array([9_551_000, 5_000_000, 3_828_000, 1_234_000, 567_800, 98_760, 12_340,
                      7_772, 1_554, 3_109], dtype=np.int64)
    C = 10**7
    units, level = _grid_chain(sizes, C)
    assert len(units) > 2 and units[-1] == 1
    assert np.all(sizes % units[level] == 0)
    assert knapsack_dp_cells(sizes, C) < len(sizes) * C / 2
    # each type on the coarsest unit of the chain that divides its size
    for j, lv in enumerate(level):
        assert all(sizes[j] % units[i] != 0 for i in range(lv))


def test_exact_mode_agrees_with_fractions_brute_force():
    """Rational sizes scaled to integers: the exact kernel equals Fraction enumeration."""
    sizes = [F(1, 3), F(2, 7), F(1, 2), F(3, 11)]
    den = 3 * 7 * 2 * 11
    W = np.array([int(s * den) for s in sizes])
    v = np.array([7, 6, 10, 5], dtype=np.int64)
    res = knapsack_bb(v, W, np.array([den]), exact=True)
    best, _k = brute_max([7, 6, 10, 5], sizes, 1)
    assert res.value == best
    assert is_feasible(res.config.tolist(), sizes, 1)


@pytest.mark.parametrize("sizes, cap, values, match", [
    (np.array([0.5]), 2, np.array([1.0]), "non-negative integers"),
    (np.array([-1]), 2, np.array([1.0]), "non-negative integers"),
    (np.array([1]), 0, np.array([1.0]), "positive integer"),
    (np.array([1]), 2.5, np.array([1.0]), "positive integer"),
    (np.array([3]), 2, np.array([1.0]), "sizes in 1..2"),
    (np.array([1]), 2, np.array([np.nan]), "positive finite value"),
    (np.array([1]), 2, np.array([-1.0]), "positive finite value"),
    (np.array([1]), 10**12, np.array([1.0]), "too large"),
])
def test_dp_table_and_cells_refuse_bad_input(sizes, cap, values, match):
    """One clear ValueError, before any table is allocated (10^12 cells would be 8 TB)."""
    with pytest.raises(ValueError, match=match):
        knapsack_dp_table(values, sizes, cap)
    if match in ("non-negative integers", "positive integer"):
        with pytest.raises(ValueError, match=match):
            knapsack_dp_cells(sizes, cap)


def _naive_tables(v: np.ndarray, w: np.ndarray, C: int) -> tuple[np.ndarray, np.ndarray]:
    """Best value exactly at and within every capacity 0..C, cell by cell."""
    exact = np.full(C + 1, -np.inf)
    exact[0] = 0.0
    for x in range(1, C + 1):
        for vi, wi in zip(v, w, strict=True):
            if wi <= x and exact[x - wi] + vi > exact[x]:
                exact[x] = exact[x - wi] + vi
    return exact, np.maximum.accumulate(np.where(np.isfinite(exact), exact, 0.0))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fuse_min", [1, _DP_FUSE_MIN, 10**9])
def test_dp_tables_sweeps_match_a_cell_by_cell_table(seed, fuse_min, monkeypatch):
    """Items sharing a sweep (blocks shorter than each of them) or sweeping alone give
    the cell-by-cell unbounded knapsack, exact-fill and within, on chains of grids
    whose levels mix long and short items."""
    import capacity.knapsack as kn

    rng = np.random.default_rng(seed)
    C = 6_000
    w = np.concatenate([rng.integers(64, 2_000, 6) * 3, rng.integers(1, 64, 3) * 3,
                        rng.integers(1, 900, 3)]).astype(np.int64)
    v = w * (1 + 0.05 * rng.standard_normal(w.size)) / C
    monkeypatch.setattr(kn, "_DP_FUSE_MIN", fuse_min)
    exact, within = _naive_tables(v, w, C)
    t = _DPTables(v, w, C, exact_fill=True)
    reach = np.isfinite(exact)
    got = np.array([t.exact_value(np.array([c]))[0] for c in range(C + 1)])
    assert np.array_equal(np.isfinite(got), reach)
    assert np.allclose(got[reach], exact[reach], rtol=1e-12, atol=0)
    assert np.allclose(t.full(), within, rtol=1e-12, atol=1e-15)
    assert np.allclose(_DPTables(v, w, C).full(), within, rtol=1e-12, atol=1e-15)


def test_bounded_program_reuses_a_choice_buffer_and_ignores_one_too_small():
    from capacity.knapsack import knapsack_dp_bounded, split_item_count

    rng = np.random.default_rng(3)
    w = rng.integers(5, 60, 40).astype(np.int64)
    y = w * (1 + 0.1 * rng.random(40)) / 100
    b = rng.integers(1, 4, 40).astype(np.int64)
    ref = knapsack_dp_bounded(y, w, 200, b, max_columns=5)
    need = split_item_count(w, b, 200) * 201
    big = np.full(need + 7, 255, dtype=np.uint8)
    for buf in (big, big, np.zeros(need - 1, dtype=np.uint8)):  # stale contents, twice
        got = knapsack_dp_bounded(y, w, 200, b, max_columns=5, choice_buffer=buf)
        assert got.value == ref.value
        assert [k.tolist() for k in got.improving] == [k.tolist() for k in ref.improving]
    assert np.any(big[:need] != 255)  # the table was written into the buffer
    for bad in (np.zeros(need, dtype=np.int64), np.zeros((2, need), dtype=np.uint8),
                [0] * need):
        with pytest.raises(ValueError, match="flat uint8"):
            knapsack_dp_bounded(y, w, 200, b, choice_buffer=bad)
