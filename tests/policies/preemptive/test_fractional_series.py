"""ScheduleResult.fractional_lk_series: the fractional flowtime (XLL21 eq. (5)) accumulated
by each slot, the fractional curve of XLL21 Fig. 2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.preemptive import OCORP, OCORPM, SRPT, SVF, Fair, run_schedule
from theory.fractional_flowtime import fractional_weight
from theory.job_sets import JobSet, Machines

#: XLL21 Example 1 in integers: demand 0.9 of a machine = 18 of 20 cores
EXAMPLE1 = JobSet([0, 0, 0], [1, 2, 3], [[18, 1], [18, 1], [18, 1]])


def test_example1_by_hand():
    # Fair shares the machine: each job at rate 1/3 in slots 1-3, then jobs 2 and 3 at
    # 1/2 in slots 4-5, then job 3 alone in slot 6 (XLL21 Table I); k = 1
    r = run_schedule(Fair(), EXAMPLE1, Machines([[20, 4]]), k=1)
    y = np.array([[1 / 3] * 3 + [0, 0, 0], [1 / 3] * 3 + [1 / 2] * 2 + [0],
                  [1 / 3] * 3 + [1 / 2] * 2 + [1]])
    t = np.arange(1, 7)
    cost = (fractional_weight(t[None, :], np.zeros((3, 1)), np.array([[1], [2], [3]]), 1)
            * y).sum(axis=0)
    assert r.fractional_lk_series() == pytest.approx(np.cumsum(cost))
    assert r.fractional_lk_series()[-1] == pytest.approx(r.fractional_lk())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([OCORP, OCORPM, SRPT, SVF]),
       st.sampled_from([1, 2, 3]))
def test_ends_at_fractional_lk_and_never_falls(seed, policy, k):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 8))
    jobs = JobSet(np.sort(rng.integers(0, 6, n)), rng.integers(1, 6, n),
                  np.column_stack([rng.integers(1, 5, n), rng.integers(1, 4, n)]))
    r = run_schedule(policy(), jobs, Machines([[6, 4], [4, 3]]), k=k,
                     memory=policy.uses_memory)
    s = r.fractional_lk_series()
    assert s.shape == (r.slots,)
    assert np.all(np.diff(s) >= -1e-9)
    assert s[-1] == pytest.approx(r.fractional_lk())


def test_misdeclared_demands_count_only_the_progress():
    # told 8 cores, the job gets 8 and uses its 4: rate 1, not 2; told 2, rate 1/2, and
    # the last slot's extra core counts only the half slot of work left
    jobs = JobSet([0], [4], [[4]])
    for declared in ([[8]], [[2]]):
        r = run_schedule(SRPT(), jobs, Machines([[8]]), k=2, declared=np.array(declared))
        assert r.fractional_lk_series()[-1] == pytest.approx(r.fractional_lk())
