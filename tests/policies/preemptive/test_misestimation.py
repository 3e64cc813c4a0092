"""XLL21 Sec. VI-D's misestimated demands: d_j (1 + X), X ~ N(0, sigma^2) per job,
rounded up, at least 1, at most the largest machine; sigma^2 = 0 declares the truth."""

from __future__ import annotations

import numpy as np
import pytest

from policies.preemptive import misestimated_demands
from theory.job_sets import JobSet


def _jobs():
    return JobSet([0, 0, 1, 2], [3, 1, 2, 5], [[2, 4], [8, 1], [3, 3], [1, 16]])


def test_no_noise_declares_the_true_demands():
    jobs = _jobs()
    got = misestimated_demands(jobs, 0.0, cap=[64, 64], seed=1)
    assert got.dtype == np.int64 and np.array_equal(got, jobs.demand)


def test_one_factor_per_job_rounded_up_floored_at_one_and_capped():
    jobs = _jobs()
    got = misestimated_demands(jobs, 1.0, cap=[8, 10], seed=3)
    x = np.random.default_rng(3).normal(0.0, 1.0, jobs.n)
    expected = np.minimum(np.maximum(np.ceil(jobs.demand * (1 + x)[:, None]), 1), [8, 10])
    assert np.array_equal(got, expected)
    assert got.min() >= 1 and np.all(got <= [8, 10])
    again = misestimated_demands(jobs, 1.0, cap=[8, 10], seed=3)
    assert np.array_equal(got, again)


@pytest.mark.parametrize("sigma2, cap, words", [
    (-0.1, [8, 8], "sigma2 must be a finite variance"),
    (float("nan"), [8, 8], "sigma2 must be a finite variance"),
    (0.2, [8, 8, 8], "cap must give a capacity"),
    (0.2, [0, 8], "cap must give a capacity"),
])
def test_bad_inputs_are_refused(sigma2, cap, words):
    with pytest.raises(ValueError, match=words):
        misestimated_demands(_jobs(), sigma2, cap=cap, seed=0)
