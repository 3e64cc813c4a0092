"""theory.bounds.fixed_configuration_workload (PG21 Sec. VII-A.2)."""

from fractions import Fraction as F

import pytest

from theory.bounds import fixed_configuration_workload


def test_fig3b_configuration_2_1_keeps_up_with_workload_3():
    # (2, 1) serves (0.02, 0.01) per slot at mu = 0.01: workload 3 < 3.06 (Fig. 3b)
    assert fixed_configuration_workload((2, 1), [F(2, 3), F(1, 3)]) == 3
    assert fixed_configuration_workload((2, 1), ["2/3", "1/3"], L=4) == 12


def test_a_missing_type_supports_nothing_and_zero_probabilities_do_not_count():
    assert fixed_configuration_workload((1, 0), [F(1, 2), F(1, 2)]) == 0
    assert fixed_configuration_workload((1, 0), [F(1), F(0)]) == 1


@pytest.mark.parametrize(("config", "probs"), [
    ((1, -1), [0.5, 0.5]), ((1.5, 1), [0.5, 0.5]), ((1,), [0.5, 0.5]), ((1, 1), [0, 0]),
    ((True, 1), [0.5, 0.5]),
])
def test_bad_input(config, probs):
    with pytest.raises(ValueError):
        fixed_configuration_workload(config, probs)
