"""theory.configurations: feasible configurations (PG21 Def. 1, PG18 Sec. II) and the
reduced set K_RED^(J) (PG21 Def. 6, eq. (19)); PG21 Prop. 2's perfect pair."""

import itertools
import re
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.configurations import (
    ReducedSet,
    as_capacity,
    as_size_matrix,
    feasible_configurations,
    is_feasible,
    maximal_configurations,
    reduced_configurations,
)
from theory.partitions import universal_partition

FAST = settings(max_examples=30, deadline=None)

# ------------------------------------------------------------ brute force


def brute_force(sizes, cap):
    """All non-zero k with sum_j k_j s_j <= cap in every resource, by plain enumeration.

    ``sizes``: list of tuples of exact Fractions; ``cap``: tuple of Fractions.
    """
    T, D = len(sizes), len(cap)
    bounds = [min(int(cap[d] // s[d]) for d in range(D) if s[d] > 0) for s in sizes]
    out = set()
    for k in itertools.product(*(range(b + 1) for b in bounds)):
        if any(k) and all(sum(k[j] * sizes[j][d] for j in range(T)) <= cap[d]
                          for d in range(D)):
            out.add(k)
    return out


def brute_force_maximal(feasible, T):
    return {k for k in feasible
            if not any(tuple(k[i] + (i == j) for i in range(T)) in feasible for j in range(T))}


def as_set(arr):
    return {tuple(int(v) for v in row) for row in arr}


@st.composite
def scalar_instances(draw):
    T = draw(st.integers(1, 4))
    sizes = draw(st.lists(st.fractions(F(1, 6), 1, max_denominator=24), min_size=T,
                          max_size=T))
    cap = draw(st.sampled_from([F(1), F(1), F(3, 2), F(5, 4)]))
    return [(s,) for s in sizes], (cap,)


@st.composite
def vector_instances(draw):
    T = draw(st.integers(1, 4))
    sizes = []
    for _ in range(T):
        big = draw(st.fractions(F(1, 5), 1, max_denominator=20))
        other = draw(st.fractions(0, 1, max_denominator=20))
        sizes.append((big, other) if draw(st.booleans()) else (other, big))
    cap = (F(1), draw(st.sampled_from([F(1), F(1, 2) + F(1, 2), F(6, 5)])))
    return sizes, cap


# --------------------------------------------------------------- is_feasible


def test_is_feasible_definition_1_examples():
    sizes = ["0.4", "0.6"]
    assert is_feasible([1, 1], sizes)
    assert is_feasible([2, 0], sizes)
    assert not is_feasible([3, 0], sizes)
    assert not is_feasible([2, 1], sizes)
    assert not is_feasible([0, 2], sizes)
    assert is_feasible([0, 0], sizes)
    assert is_feasible([5, 0], [2, 5], capacity=10)
    assert is_feasible([0, 2], [2, 5], capacity=10)
    assert not is_feasible([3, 1], [2, 5], capacity=10)


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=0, max_value=F(1, 2), max_denominator=10**12)
       .filter(lambda e: 0 < e < F(1, 2)))
def test_prop2_pair_fits_exactly(e):
    """PG21 Prop. 2 / Sec. VIII-C: (1/2 - e) + (1/2 + e) = 1 fits a unit server."""
    sizes = [F(1, 2) - e, F(1, 2) + e]
    assert is_feasible([1, 1], sizes)
    assert is_feasible([1, 1], [str(s) for s in sizes])  # via "p/q" strings
    # ... and the slightest excess does not
    assert not is_feasible([1, 1], [F(1, 2) - e, F(1, 2) + e + F(1, 10**30)])
    assert not is_feasible([0, 2], sizes)
    assert is_feasible([2, 0], sizes)
    if e < F(1, 6):  # then three small jobs do not fit: the paper's (2, 0) and (1, 1)
        assert as_set(maximal_configurations(sizes)) == {(2, 0), (1, 1)}


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-9, max_value=0.49))
def test_prop2_pair_fits_with_float_sizes(e):
    assert is_feasible([1, 1], [0.5 - e, 0.5 + e])
    assert is_feasible([1, 1], [0.5 - e, 0.5 + e], capacity=1.0)
    assert not is_feasible([1, 1], [0.5 - e, 0.5 + e + 1e-6])


def test_float_sizes_use_the_tolerance():
    assert is_feasible([1, 1, 1], [0.7, 0.1, 0.2])  # 1.0000000000000002
    assert is_feasible([10], [0.1])
    assert is_feasible([1, 1], [0.1, 0.2], capacity=0.3)
    assert not is_feasible([1, 1], [0.1, 0.2], capacity=0.2999)


def test_is_feasible_vector_capacities():
    sizes = [("1/2", "1/4"), ("1/2", "3/4")]
    assert is_feasible([1, 1], sizes, capacity=[1, 1])
    assert not is_feasible([1, 1], sizes, capacity=[1, "99/100"])
    assert not is_feasible([1, 1], sizes, capacity=["99/100", 1])
    assert is_feasible([2, 0], sizes, capacity=1)  # scalar capacity is repeated
    assert not is_feasible([0, 2], sizes)
    # heterogeneous units: 16 cores and 64 GB
    assert is_feasible([2, 1], [(4, 16), (8, 32)], capacity=[16, 64])
    assert not is_feasible([3, 1], [(4, 16), (8, 32)], capacity=[16, 64])
    # a type using only the second resource
    assert is_feasible([7, 1], [(0, "1/8"), ("1/2", "1/8")])


@pytest.mark.parametrize(
    "k, sizes, cap, pattern",
    [
        ([1], ["0.4", "0.6"], 1, "1 entries for 2 types"),
        ([1, -1], ["0.4", "0.6"], 1, "non-negative integers"),
        ([1.5, 0], ["0.4", "0.6"], 1, "non-negative integers"),
        ([1, 0], [], 1, "no job types"),
        ([1, 0], ["0.4", "-0.6"], 1, "non-negative"),
        ([1, 0], ["0.4", 0], 1, "positive entry"),
        ([1, 0], ["0.4", float("nan")], 1, "finite"),
        ([1, 0], [("0.4", "0.1"), ("0.6",)], 1, "same number of resources"),
        ([1, 0], ["0.4", "0.6"], 0, "positive"),
        ([1, 0], ["0.4", "0.6"], -1, "positive"),
        ([1, 0], ["0.4", "0.6"], [1, 1], "2 resources, sizes have 1"),
        ([1, 0], ["0.4", "0.6"], "lots", "not a number"),
        ([1, 0], ["0.4", "0.6"], True, "bool"),
    ],
)
def test_is_feasible_validation(k, sizes, cap, pattern):
    with pytest.raises(ValueError, match=pattern):
        is_feasible(k, sizes, cap)


def test_as_size_matrix_and_capacity():
    assert as_size_matrix(["0.5", F(1, 3)]) == [[F(1, 2)], [F(1, 3)]]
    assert as_size_matrix([(1, "0.5"), np.array([0.25, 0.0])]) == [[1.0, 0.5], [0.25, 0.0]]
    assert as_capacity(1, 3) == [1, 1, 1]
    assert as_capacity(["1", 2], 2) == [1, 2]
    assert all(type(c) is F for c in as_capacity(["1", 2], 2))


# ---------------------------------------------------- feasible_configurations


def test_feasible_configurations_small_example():
    got = as_set(feasible_configurations([2, 5], capacity=10))
    assert got == {(a, b) for a in range(6) for b in range(3) if (a or b) and 2 * a + 5 * b <= 10}
    assert as_set(maximal_configurations([2, 5], capacity=10)) == {(5, 0), (2, 1), (0, 2)}


def test_feasible_configurations_output_format():
    arr = feasible_configurations(["0.4", "0.6"])
    assert arr.dtype == np.int64 and arr.ndim == 2 and arr.shape[1] == 2
    assert len(as_set(arr)) == len(arr)  # no duplicates
    assert as_set(arr) == {(1, 0), (2, 0), (0, 1), (1, 1)}
    assert (0, 0) not in as_set(arr)


@FAST
@given(scalar_instances())
def test_feasible_configurations_match_brute_force_scalar(inst):
    sizes, cap = inst
    expected = brute_force(sizes, cap)
    got = feasible_configurations([s[0] for s in sizes], cap[0])
    assert as_set(got) == expected and len(got) == len(expected)
    maximal = as_set(feasible_configurations([s[0] for s in sizes], cap[0], maximal=True))
    assert maximal == brute_force_maximal(expected, len(sizes))


@FAST
@given(vector_instances())
def test_feasible_configurations_match_brute_force_2d(inst):
    sizes, cap = inst
    expected = brute_force(sizes, cap)
    got = feasible_configurations(sizes, list(cap))
    assert as_set(got) == expected and len(got) == len(expected)
    assert as_set(maximal_configurations(sizes, list(cap))) == brute_force_maximal(
        expected, len(sizes))


@FAST
@given(st.lists(st.integers(3, 20), min_size=1, max_size=4))
def test_float_sizes_on_a_grid_match_the_exact_answer(twentieths):
    """Float sizes k/20: the tolerant float test must agree with exact arithmetic."""
    exact = [(F(t, 20),) for t in twentieths]
    floats = [t / 20 for t in twentieths]
    assert as_set(feasible_configurations(floats, 1.0)) == brute_force(exact, (F(1),))


@FAST
@given(st.one_of(scalar_instances(), vector_instances()))
def test_maximal_configurations_dominate_and_are_not_extendable(inst):
    sizes, cap = inst
    T = len(sizes)
    feas = as_set(feasible_configurations(sizes, list(cap)))
    maximal = as_set(maximal_configurations(sizes, list(cap)))
    assert maximal and maximal <= feas
    for k in maximal:
        for j in range(T):
            bigger = list(k)
            bigger[j] += 1
            assert not is_feasible(bigger, sizes, list(cap))
    for k in feas:
        assert any(all(a <= b for a, b in zip(k, m, strict=True)) for m in maximal)


def test_feasible_configurations_rejects_types_that_never_fit():
    with pytest.raises(ValueError, match="does not fit"):
        feasible_configurations(["0.5", "1.5"])
    with pytest.raises(ValueError, match="does not fit"):
        feasible_configurations([("0.5", "0.5"), ("0.5", "2")], capacity=[1, 1])


def test_feasible_configurations_limit():
    n = len(feasible_configurations(["0.1", "0.15", "0.2"]))
    assert len(feasible_configurations(["0.1", "0.15", "0.2"], max_configurations=n)) == n
    with pytest.raises(ValueError, match="more than"):
        feasible_configurations(["0.1", "0.15", "0.2"], max_configurations=n - 1)


# ------------------------------------------------------------------- K_RED


def eq19(J):
    """The rows of PG21 eq. (19), written out here, as label-kind -> set of rows."""
    def e(j, c=1):
        v = [0] * (2 * J)
        v[j] = c
        return v

    def add(a, b):
        return tuple(x + y for x, y in zip(a, b, strict=True))

    zero = [0] * (2 * J)
    return (
        [add(e(2 * m, 2**m), zero) for m in range(J)]
        + [add(e(2 * m + 1, 3 * 2 ** (m - 1)), zero) for m in range(1, J)]
        + [add(e(1), e(2 * m, 2**m // 3)) for m in range(2, J)]
        + [add(e(1), e(2 * m + 1, 2 ** (m - 1))) for m in range(1, J)]
    )


def label_to_row(label, J):
    """Evaluate a label like 'e_1 + floor(2^3/3) e_6' into a configuration vector."""
    row = [0] * (2 * J)
    for term in label.split(" + "):
        mt = re.fullmatch(r"(?:(.+) )?e_(\d+)", term.strip())
        assert mt, f"unparseable label term {term!r} in {label!r}"
        coef_txt, idx = mt.group(1), int(mt.group(2))
        coef = 1
        if coef_txt:
            expr = coef_txt.replace("^", "**")
            expr = re.sub(r"floor\((.+)/(\d+)\)", r"((\1)//\2)", expr)
            assert re.fullmatch(r"[\d\s*/()+-]+", expr), expr
            coef = eval(expr)  # digits and operators only (checked above)
        row[idx] += coef
    return tuple(row)


@pytest.mark.parametrize("J", range(2, 13))
def test_k_red_matches_definition_6(J):
    red = reduced_configurations(J)
    assert isinstance(red, ReducedSet) and red.J == J
    assert len(red) == 4 * J - 4
    assert red.configs.shape == (4 * J - 4, 2 * J)
    assert np.issubdtype(red.configs.dtype, np.integer)
    rows = [tuple(int(v) for v in r) for r in red.configs]
    assert len(set(rows)) == len(rows)  # distinct
    assert sorted(rows) == sorted(eq19(J))
    # each label describes its own row
    assert len(red.labels) == len(rows)
    for label, row in zip(red.labels, rows, strict=True):
        assert label_to_row(label, J) == row, label
    # PG21 below eq. (19): jobs of one VQ only, or of VQ_1 and one other VQ
    for r in rows:
        support = [j for j, v in enumerate(r) if v]
        assert len(support) == 1 or (len(support) == 2 and 1 in support and r[1] == 1)


@pytest.mark.parametrize("J", range(2, 13))
def test_k_red_is_feasible_for_upper_rounded_universal_sizes(J):
    sizes = universal_partition(J).upper_sizes
    assert all(type(s) is F for s in sizes)
    for r in reduced_configurations(J).configs:
        k = [int(v) for v in r]
        assert is_feasible(k, sizes)
        load = sum(kj * s for kj, s in zip(k, sizes, strict=True))
        assert load <= 1
        # the single-VQ rows and the e_1 + 2^(m-1) e_{2m+1} rows fill the server exactly
        if k[1] == 0 or any(k[2 * m + 1] for m in range(1, J)):
            assert load == 1


@pytest.mark.parametrize("J", [2, 3])
def test_k_red_is_a_subset_of_all_feasible_configurations(J):
    sizes = universal_partition(J).upper_sizes
    feas = as_set(feasible_configurations(sizes))
    red = as_set(reduced_configurations(J).configs)
    assert red <= feas
    assert len(feas) > len(red)  # a genuine reduction


@pytest.mark.parametrize("J", [1, 0, 2.0, "4", None])
def test_k_red_validation(J):
    with pytest.raises(ValueError, match="J > 1"):
        reduced_configurations(J)


def test_prop2_upper_rounding_loses_the_pair():
    """PG21 Sec. VIII-C: rounding 1/2 - e up to 1/2 and 1/2 + e up to a cell end above it
    leaves (2, 0) and (0, 1) as the maximal configurations; (1, 1) is lost."""
    e = F(1, 10)
    assert as_set(maximal_configurations([F(1, 2) - e, F(1, 2) + e])) == {(2, 0), (1, 1)}
    assert as_set(maximal_configurations([F(1, 2), F(1, 2) + e + F(1, 100)])) == {(2, 0),
                                                                                  (0, 1)}


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(scalar_instances(), vector_instances()))
def test_feasible_configurations_brute_force_exhaustive(inst):
    sizes, cap = inst
    expected = brute_force(sizes, cap)
    assert as_set(feasible_configurations(sizes, list(cap))) == expected
    assert as_set(maximal_configurations(sizes, list(cap))) == brute_force_maximal(
        expected, len(sizes))
