"""capacity.CapacityRegion: the supportable-workload region C of PG18 eq. (2) and its
interior C^o of eq. (3), for identical, heterogeneous and multi-resource servers.

Known instances (STYLE anchor 5): PG18 Sec. III (10 servers of capacity 10, sizes 2 and
5: rho = (20.8, 10.4) is in C^o; (200/9, 100/9) is the boundary point in direction
(2, 1)) and PG18 Table I (three EC2 instance types on (90 GB, 90 units, 5000 GB)
servers). Heterogeneous classes are checked against an enumeration LP written here with
``scipy.optimize.linprog``.
"""

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from capacity import CapacityRegion
from theory.instances import EC2_TABLE_I

FAST = settings(max_examples=25, deadline=None)
METHODS = ("enumerate", "column-generation")

PG18 = ([2, 5], [(10, 10)])
EC2_TYPES = list(EC2_TABLE_I.types.values())
EC2_SERVER = tuple(EC2_TABLE_I.capacity())

# ------------------------------------------------------------------ reference LP


def all_configs(sizes, cap):
    """Every feasible configuration by brute force (types that do not fit get 0)."""
    rows = [[F(v) for v in (s if isinstance(s, tuple | list) else (s,))] for s in sizes]
    cap = [F(c) for c in (cap if isinstance(cap, tuple | list) else (cap,))]
    bounds = [min(int(cap[d] // r[d]) for d in range(len(cap)) if r[d] > 0) for r in rows]
    out = []
    for k in itertools.product(*(range(b + 1) for b in bounds)):
        if any(k) and all(sum(k[j] * rows[j][d] for j in range(len(rows))) <= cap[d]
                          for d in range(len(cap))):
            out.append(k)
    return out


def reference_scaling(sizes, classes, direction):
    """max t s.t. t d <= sum_c n_c sum_k p_ck k, sum_k p_ck <= 1 (PG18 eq. (2))."""
    cols, owner = [], []
    for c, (cap, _n) in enumerate(classes):
        for k in all_configs(sizes, cap):
            cols.append(k)
            owner.append(c)
    T, N, C = len(sizes), len(cols), len(classes)
    cost = np.zeros(N + 1)
    cost[-1] = -1.0  # maximise t
    A, b = [], []
    for j in range(T):  # t d_j - sum n_c p_ck k_j <= 0
        row = np.zeros(N + 1)
        row[-1] = float(direction[j])
        for i, (k, c) in enumerate(zip(cols, owner, strict=True)):
            row[i] = -classes[c][1] * k[j]
        A.append(row)
        b.append(0.0)
    for c in range(C):
        row = np.zeros(N + 1)
        row[[i for i in range(N) if owner[i] == c]] = 1.0
        A.append(row)
        b.append(1.0)
    res = linprog(cost, A_ub=np.array(A), b_ub=np.array(b), bounds=[(0, None)] * (N + 1),
                  method="highs")
    assert res.status == 0
    return -res.fun


# ------------------------------------------------------------------ PG18 Sec. III example


def test_pg18_workload_is_supportable():
    R = CapacityRegion(*PG18)
    assert R.servers == 10
    assert R.contains([20.8, 10.4])
    assert R.contains([20.8, 10.4], interior=True)
    assert R.contains(["20.8", "10.4"], interior=True)


@pytest.mark.parametrize("method", METHODS)
def test_pg18_boundary_point_in_direction_2_1(method):
    R = CapacityRegion(*PG18)
    res = R.max_scaling([2, 1], method=method)
    assert res.certified and res.exact_check
    assert res.lower <= F(100, 9) <= res.upper
    assert np.allclose(R.boundary_point([2, 1]), [200 / 9, 100 / 9], rtol=1e-12)


@pytest.mark.parametrize("point", [
    [F(200, 9), F(100, 9)], ["200/9", "100/9"], [200 / 9, 100 / 9]], ids=["F", "str", "float"])
def test_pg18_boundary_point_is_in_C_but_not_interior(point):
    R = CapacityRegion(*PG18)
    assert R.contains(point)
    assert not R.contains(point, interior=True)


def test_pg18_points_just_outside_and_inside():
    R = CapacityRegion(*PG18)
    out = [F(200, 9) * F(1001, 1000), F(100, 9) * F(1001, 1000)]
    inn = [F(200, 9) * F(999, 1000), F(100, 9) * F(999, 1000)]
    assert not R.contains(out) and not R.contains(out, interior=True)
    assert R.contains(inn) and R.contains(inn, interior=True)
    # vertices of C: 10 (5, 0) and 10 (0, 2); 10 (2, 1) is strictly inside
    assert R.contains([50, 0]) and not R.contains([50, 0], interior=True)
    assert R.contains([0, 20]) and not R.contains([0, 20], interior=True)
    assert R.contains([20, 10], interior=True)
    assert not R.contains([51, 0])
    assert R.contains([0, 0]) and R.contains([0, 0], interior=True)


def test_server_list_equals_class_pairs():
    a = CapacityRegion([2, 5], [10] * 10).max_scaling([2, 1]).value
    b = CapacityRegion(*PG18).max_scaling([2, 1]).value
    c = CapacityRegion([2, 5], [(10, 4), (10, 6)]).max_scaling([2, 1]).value
    assert a == pytest.approx(b, rel=1e-12) and c == pytest.approx(b, rel=1e-12)


def test_exact_boundary_points_are_in_C():
    """Every point 10 (t (5,0) + (1-t) (0,2)) is on the boundary of C, so in C but not in
    C^o. Regression: contains() used to compare a float lower bound of 1 - 1e-16 with 1
    and report e.g. (50/3, 40/3) outside C."""
    R = CapacityRegion(*PG18)
    bad = []
    for t in [F(1, 3), F(1, 4), F(3, 4), F(1, 6), F(2, 7), F(4, 9)]:
        p = [50 * t, 20 * (1 - t)]
        if not R.contains(p) or R.contains(p, interior=True):
            bad.append(t)
    assert bad == []


def test_float_boundary_points_are_in_C_but_not_interior():
    """Float points exactly on the boundary: in C, not in C^o, within the tolerance.
    Regression: (18.75, 12.5) used to be outside C and (15.0, 14.0) inside C^o."""
    R = CapacityRegion(*PG18)
    for p in ([18.75, 12.5], [15.0, 14.0], [40.0, 4.0]):
        assert R.contains(p), p
        assert not R.contains(p, interior=True), p


# ------------------------------------------------------------------ heterogeneous servers


@st.composite
def heterogeneous(draw):
    T = draw(st.integers(1, 3))
    caps = draw(st.lists(st.integers(8, 16), min_size=2, max_size=2, unique=True))
    counts = draw(st.lists(st.integers(1, 3), min_size=2, max_size=2))
    sizes = draw(st.lists(st.integers(1, min(caps)), min_size=T, max_size=T, unique=True))
    direction = draw(st.lists(st.integers(0, 5), min_size=T, max_size=T).filter(any))
    return sizes, list(zip(caps, counts, strict=True)), direction


@pytest.mark.parametrize("method", METHODS)
@FAST
@given(heterogeneous())
def test_heterogeneous_matches_reference_lp(method, inst):
    sizes, classes, direction = inst
    R = CapacityRegion(sizes, classes)
    res = R.max_scaling(direction, method=method)
    ref = reference_scaling(sizes, classes, direction)
    assert res.certified, res.message
    assert res.value == pytest.approx(ref, rel=1e-9)
    assert res.lower <= F(ref).limit_denominator(10**9) * (1 + F(1, 10**8))
    point = [F(v) * F(ref).limit_denominator(10**6) for v in direction]
    assert R.contains([p * F(999, 1000) for p in point], interior=True)
    assert not R.contains([p * F(1001, 1000) for p in point])


def test_heterogeneous_by_hand():
    """One server of capacity 10 and one of 7, sizes 3 and 4, direction (1, 1).

    Primal: the 7-server holds (1, 1); the 10-server mixes (2, 1) and (0, 2) with weights
    2/3 and 1/3, supplying (4/3, 4/3); in total (7/3, 7/3). Dual: y = (1/3, 2/3) with
    <y, d> = 1 prices the 10-server's configurations (3,0), (2,1), (0,2) at 1, 4/3, 4/3
    and the 7-server's (2,0), (1,1), (0,1) at 2/3, 1, 2/3: t <= 4/3 + 1 = 7/3."""
    R = CapacityRegion([3, 4], [(10, 1), (7, 1)])
    res = R.max_scaling([1, 1])
    assert res.certified and res.lower <= F(7, 3) <= res.upper
    assert reference_scaling([3, 4], [(10, 1), (7, 1)], [1, 1]) == pytest.approx(7 / 3)
    assert R.servers == 2


def test_type_fitting_only_some_classes_enumerate():
    """Regression: enumeration used to raise for a type that fits only some classes."""
    R = CapacityRegion([2, 15], [(10, 1), (20, 1)])
    assert R.max_scaling([1, 1], method="enumerate").value == pytest.approx(1.0)


def test_type_fitting_only_some_classes_column_generation():
    R = CapacityRegion([2, 15], [(10, 1), (20, 1)])
    ref = reference_scaling([2, 15], [(10, 1), (20, 1)], [1, 1])
    res = R.max_scaling([1, 1], method="column-generation")
    assert res.certified and res.value == pytest.approx(ref, rel=1e-9)
    assert R.max_scaling([1, 1]).value == pytest.approx(ref, rel=1e-9)


# ------------------------------------------------------------------ EC2, PG18 Table I


def test_ec2_maximal_configurations():
    R = CapacityRegion(EC2_TYPES, [(EC2_SERVER, 1)])
    K = {tuple(int(v) for v in k) for k in R.maximal_configurations()}
    feas = set(all_configs(EC2_TYPES, EC2_SERVER))
    assert K <= feas
    # maximal: no job of any type can be added
    for k in K:
        for j in range(3):
            assert tuple(k[i] + (i == j) for i in range(3)) not in feas
    # pairwise non-dominated
    for a, b in itertools.permutations(K, 2):
        assert not all(x <= y for x, y in zip(a, b, strict=True))
    # complete: every feasible configuration is dominated by a maximal one
    for f in feas:
        assert any(all(x <= y for x, y in zip(f, k, strict=True)) for k in K)
    assert len(K) == 6


def test_ec2_average_of_maximal_configurations_is_on_the_boundary():
    """PG18 Sec. VII-A: V (average of the maximal configurations) lies on the boundary."""
    R = CapacityRegion(EC2_TYPES, [(EC2_SERVER, 1)])
    K = R.maximal_configurations()
    V = [F(int(s), len(K)) for s in K.sum(axis=0)]
    res = R.max_scaling(V)
    assert res.certified and res.exact_check
    assert res.lower <= 1 <= res.upper
    assert R.contains([v * F(99, 100) for v in V], interior=True)
    assert not R.contains([v * F(101, 100) for v in V])


def test_ec2_two_classes_of_servers():
    big = (180, 180, 10000)
    R = CapacityRegion(EC2_TYPES, [(EC2_SERVER, 2), (big, 1)])
    d = [1, 2, 1]
    assert R.max_scaling(d).value == pytest.approx(
        reference_scaling(EC2_TYPES, [(EC2_SERVER, 2), (big, 1)], d), rel=1e-9)


# ------------------------------------------------------------------ 2-D boundaries


def assert_convex_monotone_boundary(B):
    x, y = B[:, 0], B[:, 1]
    assert np.all(np.diff(x) <= 1e-9 * max(1.0, x.max()))  # leaves axis 1 ...
    assert np.all(np.diff(y) >= -1e-9 * max(1.0, y.max()))  # ... towards axis 2
    assert y[0] == 0 and x[-1] == 0
    # convex region: walking the boundary counter-clockwise only turns left
    for a, b, c in zip(B, B[1:], B[2:], strict=False):
        u, v = b - a, c - b
        assert u[0] * v[1] - u[1] * v[0] >= -1e-9 * max(1.0, np.abs(B).max()) ** 2


@pytest.mark.parametrize(("sizes", "servers"), [
    PG18,
    ([0.4, 0.6], [(1, 1)]),
    ([3, 4], [(10, 1), (7, 1)]),
    ([EC2_TYPES[0], EC2_TYPES[2]], [(EC2_SERVER, 1)]),
    ([EC2_TYPES[0], EC2_TYPES[1]], [(EC2_SERVER, 3)]),
], ids=["pg18", "fig3a", "hetero", "ec2-std-cpu", "ec2-std-mem"])
def test_boundary_2d_is_monotone_and_convex(sizes, servers):
    R = CapacityRegion(sizes, servers)
    B = R.boundary_2d(13)
    assert B.shape == (13, 2)
    assert_convex_monotone_boundary(B)
    for p in B[1:-1]:
        assert R.contains(list(p * (1 - 1e-6)))
        assert not R.contains(list(p * (1 + 1e-6)))


def test_boundary_2d_pg18_endpoints():
    B = CapacityRegion(*PG18).boundary_2d(5)
    assert np.allclose(B[0], [50, 0]) and np.allclose(B[-1], [0, 20])


def test_boundary_2d_needs_two_types():
    with pytest.raises(ValueError, match="two"):
        CapacityRegion([1, 2, 3], [(10, 1)]).boundary_2d()
