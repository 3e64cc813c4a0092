"""XLL21's objective and the quantities of its analysis (theory.fractional_flowtime)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from theory.fractional_flowtime import (
    completion_slots,
    dynamic_fit,
    dynamic_regret,
    flowtimes,
    fractional_flowtimes,
    fractional_weight,
    fractional_weight_sum,
    gamma_horizon,
    lk_norm,
    service_gaps,
    thm2_ratio,
)

#: XLL21 Table I: Fair's rates of the three jobs of Example 1 in slots 1..6
TABLE_I = np.array([[1 / 3, 1 / 3, 1 / 3, 0, 0, 0],
                    [1 / 3, 1 / 3, 1 / 3, 1 / 2, 1 / 2, 0],
                    [1 / 3, 1 / 3, 1 / 3, 1 / 2, 1 / 2, 1]])


def test_example1_values_from_table1():
    frac = fractional_flowtimes(TABLE_I, [0, 0, 0], [1, 2, 3], k=1)
    assert frac == pytest.approx([3, 5.25, 7 + 1 / 6])
    assert flowtimes(TABLE_I, [0, 0, 0], [1, 2, 3]).tolist() == [3, 5, 6]
    assert frac.sum() / 14 == pytest.approx(1.1, abs=0.002)  # "approximation ratio 1.1"


def test_weight_is_zero_before_arrival_and_grows():
    w = fractional_weight(np.arange(0, 6), 2, 3, 2)
    assert w[:3].tolist() == [0, 0, 0]
    assert w[3] == pytest.approx(1 / 3 + 3) and np.all(np.diff(w[3:]) > 0)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_uninterrupted_job_closed_form_and_factor_two(k):
    for p in range(1, 8):
        v = fractional_weight_sum(0, p, 1, k)
        assert v == Fraction(sum(s**k for s in range(1, p + 1)), p) + p**k
        assert v <= 2 * p**k  # eq. (6) per job: started at once, f = p


def test_service_before_arrival_is_refused():
    with pytest.raises(ValueError, match="before the slot after its arrival"):
        fractional_flowtimes([[1, 0]], [1], [1], 1)


def test_incomplete_job_is_named():
    with pytest.raises(ValueError, match="job 1 is not complete"):
        completion_slots([[1, 0], [0.5, 0]], [1, 2])


def test_lk_norm_and_k():
    assert lk_norm([3, 4], 2) == pytest.approx(5)
    for k in (0.5, float("nan"), "2", True):
        with pytest.raises(ValueError, match="k must be"):
            lk_norm([1], k)  # type: ignore[arg-type]


def test_gamma_eq27_both_branches():
    # arrivals dominate: max(a + 2p, 2a) = max(10 + 2, 20) = 20
    assert gamma_horizon([10], [1], [1], 100) == 20
    # volume dominates: 4 * (5 * 4) / 2 = 40
    assert gamma_horizon([0], [5], [4], 2) == 40


def test_dynamic_fit_is_zero_when_everything_is_done_at_gamma():
    y = np.array([[1, 1, 0, 0], [0, 0, 1, 1]], dtype=float)
    assert dynamic_fit(y, [0, 0], [2, 2], gamma=4) == pytest.approx(0)
    # at T = 2 (first two slots) job 0 is ahead, job 1 behind: (2/4*2 - 2) + (2/4*2 - 0)
    assert dynamic_fit(y[:, :2], [0, 0], [2, 2], gamma=4) == pytest.approx(0)
    with pytest.raises(ValueError, match="Gamma must exceed"):
        dynamic_fit(y, [0, 5], [2, 2], gamma=4)


def test_regret_of_a_schedule_against_itself_is_zero_and_later_is_worse():
    y = np.array([[1, 0], [0, 1]], dtype=float)
    late = np.array([[0, 1], [0, 1]], dtype=float)
    assert dynamic_regret(y, y, [0, 0], [1, 1], 2) == 0
    assert dynamic_regret(late, y, [0, 0], [1, 1], 2) > 0


def test_thm2_ratio():
    # min over machines of (M_i - m_max)/(C_i + 2 d_min) * d_min/m_max
    assert thm2_ratio([2, 3], [1, 2], [10, 6], [8, 4]) == pytest.approx(min(6 / 14, 2 / 10) * 1)


def test_service_gaps():
    y = np.array([[0, 1, 0, 0, 1, 0], [1, 1, 1, 0, 0, 0]], dtype=float)
    assert service_gaps(y, [0, 0], [5, 3]).tolist() == [2, 0]


def test_weights_that_would_overflow_are_refused_with_the_largest_k():
    from theory.fractional_flowtime import check_k_horizon

    check_k_horizon(2, 10**6)
    with pytest.raises(ValueError, match=r"k <= 250"):
        check_k_horizon(300, 10)
    with pytest.raises(ValueError, match="overflow"):
        fractional_weight(10**5, 0, 1, 60)
    assert lk_norm([1e200, 1e200], 3) == pytest.approx(1e200 * 2 ** (1 / 3))  # no overflow
