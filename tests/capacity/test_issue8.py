"""Regressions of issue 8 in capacity/ and theory's combinatorics: bad input is a
ValueError/TypeError naming the problem, runaway work a BudgetExceeded."""

import pytest

from capacity import CapacityRegion, ServerClass

# -- 1. server classes of CapacityRegion -------------------------------------------

def test_server_class_spellings():
    assert CapacityRegion([(2, 3), (5, 1)], [ServerClass((10, 10))]).servers == 1
    assert CapacityRegion([2, 5], [ServerClass(capacity=10, count=10)]).servers == 10
    assert CapacityRegion([2, 5], [(10, 10)]).servers == 10  # PG18 example, D = 1
    assert CapacityRegion([(2, 3), (5, 1)], [((10, 10), 3)]).servers == 3
    assert CapacityRegion([(2, 3, 1)], [(10, 10, 10)]).servers == 1
    assert CapacityRegion([(2, 3, 1)], [(10, 4)]).servers == 4
    assert CapacityRegion([2, 5], [10, 10]).servers == 2


@pytest.mark.parametrize("servers", [[(10, 10)], [[10, 10]]])
def test_flat_pair_for_two_resources_is_ambiguous(servers):
    with pytest.raises(ValueError, match=r"ambiguous.*ServerClass\(capacity=\(10, 10\), "
                       r"count=1\).*ServerClass\(capacity=10, count=10\)"):
        CapacityRegion([(2, 3), (5, 1)], servers)


@pytest.mark.parametrize("args, word", [
    (((10, 10), 0), "positive integer"), (((10, 10), True), "positive integer"),
    ((0,), "positive, got 0"), ((("1", "-2"),), "positive, got -2"),
    (([],), "flat list"), ((((1, 2), 3),), "flat list"), (("x",), "not a number"),
])
def test_server_class_validates(args, word):
    with pytest.raises(ValueError, match=word):
        ServerClass(*args)


@pytest.mark.parametrize("servers, word", [
    ([(10, 2.5)], "not a positive integer"), ([(10, 10, 3)], "neither"),
    (10, "write"), ("10", "write"), ([ServerClass((1, 2, 3))], "3 resources"),
])
def test_bad_server_entries(servers, word):
    with pytest.raises(ValueError, match=word):
        CapacityRegion([2, 5], servers)
