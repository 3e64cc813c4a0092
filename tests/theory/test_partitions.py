"""theory.partitions: PG21 Defs. 3-4, eq. (6), the universal partition (18) and the
quantile partitions X^(n) of Sec. VIII-A (extended to atoms)."""

from fractions import Fraction as F

import pytest
from dist_strategies import exact_discretes, exact_mixtures, exact_uniforms, fracs
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.distributions import Discrete, Mixture, Uniform, beta
from theory.partitions import (
    Cell,
    Partition,
    partition_from_cuts,
    quantile_partition,
    type_probabilities,
)
from theory.partitions import (
    universal_partition as universal,
)

FAST = settings(max_examples=30, deadline=None)

# ------------------------------------------------------------------ strategies


any_exact_dist = st.one_of(exact_discretes(max_types=4), exact_uniforms(), exact_mixtures())


def universal_type(x, J):
    """Index of the eq. (18) interval holding x, written independently of the module."""
    if x <= F(1, 2**J):
        return 2 * J - 1
    m = 0
    while x <= F(1, 2 ** (m + 1)):
        m += 1
    # now 1/2^(m+1) < x <= 1/2^m
    return 2 * m if x > F(2, 3) / 2**m else 2 * m + 1


def is_singleton(c):
    return c.lo == c.hi


# ------------------------------------------------------------------ Cell


def test_cell_membership_and_rounding():
    c = Cell(F(1, 3), F(1, 2))
    assert F(1, 2) in c and "0.4" in c and F(1, 3) not in c and 0.6 not in c
    assert c.upper == F(1, 2) and c.lower == F(1, 3)
    assert str(c) == "(1/3, 1/2]"
    s = Cell(F(1, 2), F(1, 2), True, True)
    assert F(1, 2) in s and "0.5" in s and F(1, 2) + F(1, 10**20) not in s
    assert s.upper == s.lower == F(1, 2)
    assert str(s) == "{1/2}"
    o = Cell(0, F(1, 2), False, False)
    assert F(1, 2) not in o and 0 not in o and F(1, 4) in o
    assert str(o) == "(0, 1/2)"
    closed = Cell(F(1, 4), F(1, 2), True, True)
    assert F(1, 4) in closed and str(closed) == "[1/4, 1/2]"


@pytest.mark.parametrize(
    "args",
    [(F(1, 2), F(1, 3)), (F(1, 2), F(1, 2)), (F(1, 2), F(1, 2), True, False),
     (F(1, 2), F(1, 2), False, True)],
)
def test_empty_cells_are_rejected(args):
    with pytest.raises(ValueError, match="empty cell"):
        Cell(*args)


# ----------------------------------------------------------------- Partition


@pytest.mark.parametrize(
    "cells",
    [
        [Cell(0, F(1, 2)), Cell(F(1, 4), 1)],  # overlap
        [Cell(0, F(1, 2)), Cell(0, F(1, 2)), Cell(F(1, 2), 1)],  # duplicate
        [Cell(0, 1), Cell(F(1, 4), F(1, 2))],  # nested
        [Cell(0, F(1, 4)), Cell(F(1, 2), 1)],  # gap
        [Cell(0, F(1, 2), False, False), Cell(F(1, 2), 1)],  # the point 1/2 is missing
        [Cell(0, F(1, 2)), Cell(F(1, 2), 1, True, True)],  # 1/2 counted twice
        [Cell(0, F(1, 2)), Cell(F(1, 2), F(1, 2), True, True), Cell(F(1, 2), 1)],
        [Cell(F(1, 2), F(1, 2), True, True), Cell(F(1, 2), F(1, 2), True, True)],
    ],
)
def test_partition_rejects_overlapping_or_gapped_cells(cells):
    with pytest.raises(ValueError, match="overlap or leave a gap"):
        Partition(cells)


def test_partition_rejects_no_cells():
    with pytest.raises(ValueError):
        Partition([])


def test_partition_keeps_the_given_order_as_type_index():
    cells = [Cell(F(1, 2), 1), Cell(0, F(1, 4)), Cell(F(1, 4), F(1, 2), False, False),
             Cell(F(1, 2), F(1, 2), True, True)]
    p = Partition(cells)
    assert p.type_of(F(3, 4)) == 0
    assert p.type_of(F(1, 8)) == 1
    assert p.type_of(F(1, 3)) == 2
    assert p.type_of(F(1, 2)) == 3
    assert p.upper_sizes == [1, F(1, 4), F(1, 2), F(1, 2)]
    assert p.lower_sizes == [F(1, 2), 0, F(1, 4), F(1, 2)]
    assert (p.lo, p.hi, p.lo_closed, p.hi_closed) == (0, 1, False, True)
    assert len(p) == 4


def test_partition_with_singletons_accepts_valid_layout():
    p = Partition([Cell(0, F(1, 2), False, False), Cell(F(1, 2), F(1, 2), True, True),
                   Cell(F(1, 2), 1, False, True)])
    assert [p.type_of(x) for x in ("0.25", "0.5", "0.75", 1)] == [0, 1, 2, 2]


def test_type_of_outside_raises():
    p = partition_from_cuts(["0.25", "0.5", "1"])
    for x in ("0.25", "0.1", "1.5", 0, -1):
        with pytest.raises(ValueError, match="outside"):
            p.type_of(x)


def test_partition_from_cuts():
    p = partition_from_cuts([0, "1/3", "0.5", 1])
    assert [str(c) for c in p.cells] == ["(0, 1/3]", "(1/3, 1/2]", "(1/2, 1]"]
    assert p.upper_sizes == [F(1, 3), F(1, 2), 1]
    assert p.lower_sizes == [0, F(1, 3), F(1, 2)]
    with pytest.raises(ValueError, match="at least two"):
        partition_from_cuts([1])
    with pytest.raises(ValueError, match="strictly increasing"):
        partition_from_cuts([0, "0.5", "0.5", 1])
    with pytest.raises(ValueError, match="strictly increasing"):
        partition_from_cuts([0, 1, "0.5"])
    with pytest.raises(ValueError, match="cut point"):
        partition_from_cuts([0, "half", 1])


# ----------------------------------------------------------------- refines


@FAST
@given(st.sets(fracs(F(1, 64), F(63, 64)), max_size=8), st.sets(fracs(F(1, 64), F(63, 64)),
                                                                 min_size=1, max_size=4))
def test_refines_matches_cut_inclusion(base, extra):
    coarse = partition_from_cuts(sorted({F(0), F(1)} | base))
    fine = partition_from_cuts(sorted({F(0), F(1)} | base | extra))
    assert fine.refines(coarse)
    assert coarse.refines(coarse)
    assert coarse.refines(fine) == (extra <= base)


def test_refines_with_singletons_and_open_ends():
    half = F(1, 2)
    split = Partition([Cell(0, half, False, False), Cell(half, half, True, True),
                       Cell(half, 1)])
    plain = partition_from_cuts([0, half, 1])
    assert split.refines(plain)  # (0,1/2) and {1/2} both lie in (0,1/2]
    assert not plain.refines(split)  # (0,1/2] is in neither (0,1/2) nor {1/2}
    whole = Partition([Cell(0, 1)])
    assert split.refines(whole) and plain.refines(whole)
    assert not whole.refines(plain)
    assert Partition([Cell(0, 1, True, True)]).refines(whole) is False  # 0 is not in (0, 1]


def test_universal_partitions_are_nested_in_J():
    for J in range(2, 9):
        assert universal(J + 1).refines(universal(J))
        assert not universal(J).refines(universal(J + 1))


# ------------------------------------------------------- universal partition


@pytest.mark.parametrize("J", range(2, 13))
def test_universal_partition_is_eq_18(J):
    p = universal(J)
    assert len(p) == 2 * J
    for m in range(J):
        top = F(1, 2**m)
        even, odd = p.cells[2 * m], p.cells[2 * m + 1]
        # I_2m = (2/3 * 2^-m, 2^-m]
        assert (even.lo, even.hi, even.lo_closed, even.hi_closed) == (F(2, 3) * top, top,
                                                                     False, True)
        # I_2m+1 = (1/2 * 2^-m, 2/3 * 2^-m], the last one absorbing (0, 1/2^J]
        lo = F(1, 2) * top if m < J - 1 else F(0)
        assert (odd.lo, odd.hi, odd.lo_closed, odd.hi_closed) == (lo, F(2, 3) * top,
                                                                  False, True)
        assert all(type(v) is F for v in (even.lo, even.hi, odd.lo, odd.hi))
    assert (p.lo, p.hi, p.lo_closed, p.hi_closed) == (0, 1, False, True)
    # the last cell is eq. (18)'s I_{2J-1} joined with (0, 1/2^J]
    last = p.cells[-1]
    assert F(1, 2**J) in last and F(1, 2**J) + F(1, 10**30) in last
    assert F(1, 10**30) in last
    # upper-rounded sizes (Def. 4) are the right ends of eq. (18)
    assert p.upper_sizes == [x for m in range(J) for x in (F(1, 2**m), F(2, 3) / 2**m)]


@pytest.mark.parametrize("J", [2, 3, 7])
def test_universal_type_of_at_the_boundaries(J):
    p = universal(J)
    for m in range(J):
        top = F(1, 2**m)
        assert p.type_of(top) == 2 * m  # right-closed
        assert p.type_of(F(2, 3) * top) == 2 * m + 1
        assert p.type_of(F(2, 3) * top + F(1, 10**12)) == 2 * m
        if m < J - 1:
            assert p.type_of(F(1, 2) * top + F(1, 10**12)) == 2 * m + 1
    assert p.type_of(F(1, 2**J)) == 2 * J - 1
    assert p.type_of(F(1, 2**J) / 1000) == 2 * J - 1
    assert p.type_of(1e-300) == 2 * J - 1
    for bad in (0, -F(1, 2), F(3, 2)):
        with pytest.raises(ValueError):
            p.type_of(bad)


@FAST
@given(st.integers(2, 12), st.fractions(min_value=0, max_value=1, max_denominator=10**5)
       .filter(lambda x: x > 0))
def test_universal_type_of_matches_eq_18(J, x):
    assert universal(J).type_of(x) == universal_type(x, J)


@pytest.mark.parametrize("J", [1, 0, -3, 2.0, "3", None])
def test_universal_partition_validation(J):
    with pytest.raises(ValueError, match="J > 1"):
        universal(J)


def test_type_probabilities_of_universal_partition_for_uniform_0_1():
    J = 5
    probs = type_probabilities(Uniform(0, 1), universal(J))
    for m in range(J - 1):
        assert probs[2 * m] == F(1, 3) / 2**m  # |I_2m| = 2^-m / 3
        assert probs[2 * m + 1] == F(1, 6) / 2**m
    assert probs[-1] == F(2, 3) / 2 ** (J - 1)
    assert sum(probs) == 1 and all(type(p) is F for p in probs)


# -------------------------------------------------------- quantile partitions


@FAST
@given(exact_uniforms(), st.integers(0, 5), st.booleans())
def test_quantile_partition_uniform_has_equal_exact_cells(u, n, tight):
    m = 2 ** (n + 1)
    p = quantile_partition(u, n, tight=tight)
    assert len(p) == m
    probs = type_probabilities(u, p)
    assert probs == [F(1, m)] * m
    assert all(type(x) is F for x in probs)
    # the cut points are the quantiles a + i/m (b - a)
    inner = [c.hi for c in p.cells[:-1]]
    assert inner == [u.a + F(i, m) * (u.b - u.a) for i in range(1, m)]
    assert all(not c.lo_closed and c.hi_closed for c in p.cells)
    if tight:
        assert (p.lo, p.hi) == (u.a, u.b)
    else:  # the paper's X^(n): xi_0 = 0 and xi_m = 1 (Sec. VIII-A)
        assert (p.lo, p.hi) == (0, 1)
        assert p.lower_sizes[0] == 0 and p.upper_sizes[-1] == 1


def test_quantile_partition_examples():
    u = Uniform("0.1", "0.9")
    assert [str(c) for c in quantile_partition(u, 1, tight=False).cells] == [
        "(0, 3/10]", "(3/10, 1/2]", "(1/2, 7/10]", "(7/10, 1]"]
    assert [str(c) for c in quantile_partition(u, 1).cells] == [
        "(1/10, 3/10]", "(3/10, 1/2]", "(1/2, 7/10]", "(7/10, 9/10]"]
    d = Discrete(["0.3", "0.6"])
    assert [str(c) for c in quantile_partition(d, 0).cells] == ["{3/10}", "(3/10, 3/5)", "{3/5}"]
    assert [str(c) for c in quantile_partition(d, 0, tight=False).cells] == [
        "(0, 3/10)", "{3/10}", "(3/10, 3/5)", "{3/5}", "(3/5, 1]"]
    one = Discrete(["1"])
    assert [str(c) for c in quantile_partition(one, 2, tight=False).cells] == ["(0, 1)", "{1}"]


@settings(max_examples=30, deadline=None)
@given(any_exact_dist, st.integers(0, 3), st.booleans())
def test_quantile_partitions_refine_as_n_grows(d, n, tight):
    coarse = quantile_partition(d, n, tight=tight)
    fine = quantile_partition(d, n + 1, tight=tight)
    assert fine.refines(coarse)
    assert len(fine) >= len(coarse)


@settings(max_examples=30, deadline=None)
@given(any_exact_dist, st.integers(0, 4), st.booleans())
def test_quantile_partition_isolates_atoms_and_balances_the_rest(d, n, tight):
    m = 2 ** (n + 1)
    p = quantile_partition(d, n, tight=tight)
    probs = type_probabilities(d, p)
    tol = 1e-12 if isinstance(d, Mixture) else 0
    assert abs(sum(probs) - 1) <= tol
    assert all(x >= 0 for x in probs)
    atoms = dict(d.atoms())
    singletons = {c.lo: probs[j] for j, c in enumerate(p.cells) if is_singleton(c)}
    # every atom is a singleton cell holding exactly the atom's mass
    assert set(singletons) == set(atoms)
    for a, mass in atoms.items():
        assert singletons[a] == mass
        assert p.type_of(a) == p.cells.index(Cell(a, a, True, True))
    # no other cell holds more than 1/2^(n+1): the point of X^(n) (Sec. VIII-A)
    for c, x in zip(p.cells, probs, strict=True):
        if not is_singleton(c):
            assert x <= F(1, m) + tol, (str(c), x)
            assert not any(c.lo < a < c.hi for a in atoms)


def test_quantile_partition_mixture_with_atom_inside_continuous_part():
    m = Mixture([Uniform("0.1", "0.3"), Discrete(["0.2", "0.7"])], ["1/2", "1/2"])
    p = quantile_partition(m, 2)
    assert Cell(F(1, 5), F(1, 5), True, True) in p.cells
    assert Cell(F(7, 10), F(7, 10), True, True) in p.cells
    probs = type_probabilities(m, p)
    assert probs[p.type_of("0.2")] == F(1, 4)
    assert probs[p.type_of("0.7")] == F(1, 4)
    assert sum(probs) == pytest.approx(1, abs=1e-12)
    assert p.type_of("0.15") != p.type_of("0.25")


def test_quantile_partition_beta_cells_are_balanced():
    b = beta(2, 5)
    for n in (0, 2, 4):
        p = quantile_partition(b, n, tight=False)
        m = 2 ** (n + 1)
        assert len(p) == m
        assert type_probabilities(b, p) == pytest.approx([1 / m] * m, abs=1e-9)


@pytest.mark.parametrize(
    "dist, n, pattern",
    [
        (Uniform(0, 1), -1, "non-negative integer"),
        (Uniform(0, 1), 1.0, "non-negative integer"),
        (Uniform(0, 1), "2", "non-negative integer"),
        (Discrete([("0.1", "0.2")]), 1, "scalar"),
        (Uniform("0.5", "2"), 1, r"\(0, 1\]"),
        (Discrete(["0.5", "1.5"]), 0, r"\(0, 1\]"),
    ],
)
def test_quantile_partition_validation(dist, n, pattern):
    with pytest.raises(ValueError, match=pattern):
        quantile_partition(dist, n)


# ------------------------------------------------------------ type_probabilities


def test_type_probabilities_eq_6_examples():
    d = Discrete(["0.25", "0.5", "0.75"], ["1/2", "1/4", "1/4"])
    p = partition_from_cuts([0, "0.5", 1])
    assert type_probabilities(d, p) == [F(3, 4), F(1, 4)]
    u = Uniform("0.1", "0.9")
    assert type_probabilities(u, partition_from_cuts([0, "0.3", 1])) == [F(1, 4), F(3, 4)]


def test_type_probabilities_raise_when_support_is_missed():
    with pytest.raises(ValueError, match="does not cover"):
        type_probabilities(Uniform(0, 1), partition_from_cuts([0, "1/2"]))
    with pytest.raises(ValueError, match="does not cover"):
        type_probabilities(Uniform("0.1", "0.9"), partition_from_cuts(["0.2", 1]))
    # missing only an atom: the open cell (0, 1/2) does not hold the mass at 1/2
    d = Discrete(["0.25", "0.5"])
    with pytest.raises(ValueError, match="does not cover"):
        type_probabilities(d, Partition([Cell(0, F(1, 2), False, False)]))
    assert type_probabilities(d, Partition([Cell(0, F(1, 2))])) == [1]
    assert type_probabilities(d, partition_from_cuts([0, "0.25", "0.5"])) == [F(1, 2)] * 2


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(any_exact_dist, st.integers(0, 6), st.booleans())
def test_quantile_partitions_refine_exhaustive(d, n, tight):
    assert quantile_partition(d, n + 1, tight=tight).refines(quantile_partition(d, n, tight=tight))


def test_quantile_partition_of_exact_mixture_is_exact():
    # this mixture is Uniform(0, 1) with a kink at 1/3: the median is exactly 1/3
    m = Mixture([Uniform(0, "1/3"), Uniform("1/3", 1)], ["1/2", "1/2"])
    p = quantile_partition(m, 0)
    assert [c.hi for c in p.cells] == [F(1, 3), 1]
    assert type_probabilities(m, p) == [F(1, 2), F(1, 2)]


def test_grid_partition_cells_and_refinement():
    from theory.partitions import grid_partition

    X = grid_partition(10, F(1, 100), F(19, 100))
    assert [c.hi for c in X.cells][:2] == [F(1, 10), F(2, 10)]
    assert X.cells[0].lo == 0 and X.cells[-1].hi == F(2, 10)
    assert grid_partition(20, F(1, 100), F(19, 100)).refines(X)
    with pytest.raises(ValueError):
        grid_partition(0)
    with pytest.raises(ValueError):
        grid_partition(10, F(1, 2), F(1, 4))
