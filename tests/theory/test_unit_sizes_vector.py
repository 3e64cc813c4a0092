"""theory.distributions.unit_sizes with a vector capacity: componentwise, exact."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from theory.distributions import Discrete, unit_sizes


def test_componentwise_and_exact():
    d = Discrete([("15", "8"), ("17.1", "6.5")], ["1/3", "2/3"])
    u = unit_sizes(d, ("64", "32"))
    assert u.sizes == [(F(15, 64), F(1, 4)), (F(171, 640), F(13, 64))]
    assert u.probs == d.probs and u.exact


def test_unit_capacity_returns_the_law_itself():
    d = Discrete([("1/2", "1/4")])
    assert unit_sizes(d, (1, 1)) is d


def test_floats_stay_floats():
    u = unit_sizes(Discrete([(0.5, 0.25)]), (2, 0.5))
    assert u.sizes == [(0.25, 0.5)]


@pytest.mark.parametrize("sizes, cap, fragment", [
    ([("1/2", "3/4")], ("1", "1/2"), "job size (1/2, 3/4) exceeds the capacity (1, 1/2) "
                                      "in resource 2"),
    ([("1/2", "1/4")], ("1", "0"), "positive and finite in every resource"),
    ([("1/2", "1/4")], ("1", "1", "1"), "a capacity of 3 resources"),
    (["1/2"], ("1", "1"), "one number for scalar sizes"),
])
def test_refusals(sizes, cap, fragment):
    with pytest.raises(ValueError) as e:
        unit_sizes(Discrete(sizes), cap)
    assert fragment in str(e.value)
