"""Partition.classify (vectorised typing of float sizes) against the exact type_of.

rtol = 0: classify(x) == type_of(x) for every float (compared exactly, boundaries
included). rtol > 0: floats within rtol * scale of a cell limit are read as that limit.
``scale``: limits multiplied by the capacity in exact arithmetic.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.distributions import Uniform
from theory.numbers import FEASIBILITY_RTOL
from theory.partitions import (
    Cell,
    Partition,
    grid_partition,
    partition_from_cuts,
    quantile_partition,
    universal_partition,
)

F = Fraction


def neighbours(v: float) -> list[float]:
    return [float(np.nextafter(v, -np.inf)), v, float(np.nextafter(v, np.inf))]


@st.composite
def partitions(draw):
    """Random partitions of (0, 1]: rational cuts; each interior cut goes to the cell on
    its left, on its right, or becomes a singleton cell; cells listed in random order."""
    dens = draw(st.integers(2, 60))
    nums = draw(st.lists(st.integers(1, dens - 1), min_size=0, max_size=6, unique=True))
    cuts = [F(0)] + sorted({F(n, dens) for n in nums}) + [F(1)]
    cells: list[Cell] = []
    lo_closed = False
    for a, b in zip(cuts, cuts[1:], strict=False):
        if b == 1:
            cells.append(Cell(a, b, lo_closed, True))
            break
        how = draw(st.sampled_from(["left", "right", "single"]))
        cells.append(Cell(a, b, lo_closed, how == "left"))
        if how == "single":
            cells.append(Cell(b, b, True, True))
        lo_closed = how == "right"
    perm = draw(st.permutations(range(len(cells))))
    return Partition([cells[i] for i in perm])


def limits(p: Partition) -> list[Fraction]:
    return sorted({F(v) for c in p.cells for v in (c.lo, c.hi)})


@settings(deadline=None, max_examples=30)
@given(p=partitions(), xs=st.lists(st.floats(min_value=5e-324, max_value=1.0), min_size=1,
                                   max_size=40))
def test_exact_agrees_with_type_of_on_random_floats(p, xs):
    got = p.classify(np.array(xs))
    assert got.tolist() == [p.type_of(x) for x in xs]


@settings(deadline=None, max_examples=30)
@given(p=partitions())
def test_exact_agrees_with_type_of_at_limits(p):
    """Floats of the cell limits and their float neighbours (the hard cases)."""
    vals = [v for lim in limits(p) for v in neighbours(float(lim)) if 0 < v <= 1]
    got = p.classify(np.array(vals))
    assert got.tolist() == [p.type_of(v) for v in vals]


@settings(deadline=None, max_examples=30)
@given(p=partitions(), fr=st.lists(st.fractions(min_value=F(1, 1000), max_value=1,
                                                  max_denominator=1000), min_size=1,
                                   max_size=30))
def test_fractions_as_floats(p, fr):
    xs = [float(f) for f in fr]
    assert p.classify(np.array(xs), rtol=0.0).tolist() == [p.type_of(x) for x in xs]


@settings(deadline=None, max_examples=30)
@given(p=partitions(), fr=st.lists(st.fractions(min_value=F(1, 1000), max_value=1,
                                                  max_denominator=1000), min_size=1,
                                   max_size=30))
def test_rtol_reads_fraction_floats_as_the_fraction(p, fr):
    """With rtol = 1e-9 the float of a simple fraction is typed like the fraction itself
    (denominators <= 1000 keep distinct fractions far apart)."""
    xs = np.array([float(f) for f in fr])
    assert p.classify(xs, rtol=1e-9).tolist() == [p.type_of(f) for f in fr]


@settings(deadline=None, max_examples=30)
@given(p=partitions(), scale=st.sampled_from([1, 3, 10, F(1, 3), F(7, 2), 0.1, 64]),
       us=st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=30))
def test_scale_is_exact(p, scale, us):
    """classify(x, scale) is the type of the exact x / scale."""
    xs = np.array([u * float(scale) for u in us])
    xs = xs[(xs > 0) & (xs <= float(scale))]
    s = F(scale)
    want = [p.type_of(F(float(x)) / s) for x in xs]
    assert p.classify(xs, scale).tolist() == want
    # limits times the scale, and their neighbours
    vals = [v for lim in limits(p) for v in neighbours(float(lim * s))]
    vals = [v for v in vals if 0 < F(v) / s <= 1]
    assert p.classify(np.array(vals), scale).tolist() == [p.type_of(F(v) / s) for v in vals]


def test_singleton_cell_with_rtol():
    """0.2 is read as 1/5 with rtol = 1e-9; exactly, the float 0.2 is just above 1/5."""
    p = Partition([Cell(0, F(1, 5), False, False), Cell(F(1, 5), F(1, 5), True, True),
                   Cell(F(1, 5), 1, False, True)])
    assert p.classify([0.2], rtol=1e-9).tolist() == [1]
    assert p.classify([0.2 + 1e-12, 0.2 - 1e-12], rtol=1e-9).tolist() == [1, 1]
    assert p.classify([0.2 + 1e-6, 0.2 - 1e-6], rtol=1e-9).tolist() == [2, 0]
    assert p.classify([0.2], rtol=0.0).tolist() == [p.type_of(0.2)] == [2]
    assert p.type_of(F(1, 5)) == 1
    # in capacity units: size 2 of a capacity-10 server
    assert p.classify([2.0, 2.0 + 1e-9, 2.5, 1.0], scale=10, rtol=1e-9).tolist() == [1, 1, 2, 0]


def test_scale_ten_sizes_2_5_10():
    p = partition_from_cuts([0, "1/5", "1/2", 1])
    assert p.classify([2, 5, 10], scale=10).tolist() == [0, 1, 2]
    assert p.classify([2.0, 5.0, 10.0], scale=10, rtol=FEASIBILITY_RTOL).tolist() == [0, 1, 2]
    assert p.classify([2.0000001, 4.9999999, 9.9999], scale=10).tolist() == [1, 1, 2]
    # Fig. 3b sizes on the universal partition, J = 3: 2/10 in (1/6, 1/4], 5/10 in (1/3, 1/2]
    u = universal_partition(3)
    got = u.classify([2.0, 5.0], scale=10, rtol=FEASIBILITY_RTOL).tolist()
    assert got == [u.type_of(F(1, 5)), u.type_of(F(1, 2))] == [4, 2]


def test_cells_in_any_order():
    p = Partition([Cell(F(1, 2), 1), Cell(0, F(1, 2))])
    assert p.classify([0.25, 0.5, 0.75, 1.0]).tolist() == [1, 1, 0, 0]


@pytest.mark.parametrize("rtol", [0.0, 1e-9])
@pytest.mark.parametrize("bad", [0.0, -0.5, 1.5, 1.0 + 1e-6, np.nan, np.inf, -np.inf])
def test_out_of_range_raises(rtol, bad):
    p = partition_from_cuts([0, "1/2", 1])
    with pytest.raises(ValueError, match="outside the partition"):
        p.classify(np.array([0.3, bad]), rtol=rtol)


def test_out_of_range_with_scale():
    p = partition_from_cuts([0, "1/2", 1])
    with pytest.raises(ValueError, match="outside the partition"):
        p.classify([10.5], scale=10)
    with pytest.raises(ValueError, match="outside the partition"):
        p.classify([1.0 + 1e-7], scale=1, rtol=1e-9)
    # within the tolerance of the top limit: read as 1
    assert p.classify([1.0 + 1e-12], rtol=1e-9).tolist() == [1]


def test_closed_lower_end():
    p = Partition([Cell(F(1, 4), F(1, 2), True, True), Cell(F(1, 2), 1, False, True)])
    assert p.classify([0.25, 0.5, 0.75]).tolist() == [0, 0, 1]
    with pytest.raises(ValueError, match="outside"):
        p.classify([float(np.nextafter(0.25, 0))])


@pytest.mark.parametrize("scale", [0, -1, "0"])
def test_bad_scale(scale):
    with pytest.raises(ValueError, match="scale"):
        partition_from_cuts([0, 1]).classify([0.5], scale=scale)


def test_shapes_preserved():
    p = universal_partition(2)
    x = np.array([[0.9, 0.6], [0.4, 0.1]])
    got = p.classify(x)
    assert got.shape == (2, 2) and got.dtype == np.int64
    assert got.tolist() == [[0, 1], [2, 3]]
    assert p.classify(np.zeros(0)).shape == (0,)
    assert p.classify(np.zeros(0), rtol=1e-9).shape == (0,)


@pytest.mark.parametrize("part", [universal_partition(5), grid_partition(7),
                                  quantile_partition(Uniform("0.1", "0.9"), 3)])
def test_library_partitions(part):
    rng = np.random.default_rng(0)
    x = rng.uniform(0.1, 0.9, 500) if part.lo > 0 else rng.random(500)
    x = x[(x > 0)]
    if part.lo > 0:
        x = x[x > float(part.lo)]
    assert part.classify(x).tolist() == [part.type_of(v) for v in x]


@pytest.mark.parametrize("x", [1e-10, 1e-12])
def test_tiny_sizes_near_open_zero_with_rtol(x):
    p = universal_partition(2)
    assert p.classify([x]).tolist() == [p.type_of(x)] == [3]
    assert p.classify([x], rtol=FEASIBILITY_RTOL).tolist() == [3]
