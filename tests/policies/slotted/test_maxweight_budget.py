"""MaxWeight refuses, before enumerating, more configurations than its budget."""

import pytest

import policies as P
from theory import Discrete, Uniform
from theory.budgets import BudgetExceeded


def test_levels_30_is_refused_before_the_partition_is_built():
    with pytest.raises(BudgetExceeded, match=r"X\^\(30\).*max_configurations"):
        P.make_policy("maxweight", dist=Uniform("0.1", "0.9"), levels=30)


def test_the_budget_is_a_keyword():
    d = Discrete(["0.4", "0.6"])
    assert P.make_policy("maxweight", dist=d).configurations.shape[0] >= 2
    with pytest.raises(BudgetExceeded, match="max_configurations"):
        P.make_policy("maxweight", dist=d, max_configurations=1)


@pytest.mark.parametrize("levels", [-1, 1.5, True, "2"])
def test_bad_levels(levels):
    with pytest.raises(ValueError, match="levels"):
        P.make_policy("maxweight", dist=Uniform("0.1", "0.9"), levels=levels)
