"""The offline programs at their limits: XLL21's programs read every resource
they accept (capacity.flowtime_programs), the time limit bounds building as well as
solving, the answer at a limit carries proven bounds (a list schedule, closed forms), and
FL24's program survives extreme weights and says when its solver cannot resolve them
(capacity.completion_programs)."""

import inspect
import itertools
import math
import time
from fractions import Fraction

import numpy as np
import pytest

from capacity.completion_programs import (
    check_schedule,
    completion_optimum,
    completion_program,
    weight_grain,
)
from capacity.flowtime_programs import (
    list_schedule,
    offline_horizon,
    optimum_lower_bound,
    p1_optimum,
    p1_program,
    p2_optimum,
)
from capacity.programs import DEFAULT_TIME_LIMIT
from tests.wall_clock import within
from theory.budgets import BudgetExceeded
from theory.fractional_flowtime import fractional_weight_sum
from theory.job_sets import JobSet, Machines

ONE = Machines([[1.0]])


def xll21(a, p, d, m=None, w=None):
    dem = np.array(d, dtype=float)[:, None] if m is None else np.c_[d, m]
    return JobSet(a, p, dem, w)


# ------------------------------------------------------------ XLL21 resources

def test_a_third_resource_is_refused_whatever_memory_says():
    jobs = JobSet([0, 0], [2, 2], [[1, 1, 3], [1, 1, 3]])
    machines = Machines([[4, 4, 4]])
    for memory in (None, True, False):
        for opt in (p1_optimum, p2_optimum):
            with pytest.raises(ValueError, match="demand_2.*XLL21"):
                opt(jobs, machines, 1, memory=memory)


def test_memory_is_modelled_by_default():
    """Two 1-core jobs of memory 3, a machine of 2 cores and memory 4: with memory one
    waits (P1 = 3, P2 = 5); memory=False pools the cores (2, 4)."""
    jobs, machines = xll21([0, 0], [1, 1], [1, 1], m=[3, 3]), Machines([[2, 4]])
    r1, r2 = p1_optimum(jobs, machines, 1), p2_optimum(jobs, machines, 1)
    assert (r1.value, r2.value, r1.extra["memory"]) == (3, 5, True)
    assert p1_optimum(jobs, machines, 1, memory=False).value == 2
    assert p2_optimum(jobs, machines, 1, memory=False, integer=True).value == 4
    assert offline_horizon(jobs, machines) == offline_horizon(jobs, machines, memory=True)
    # a second resource on one side only: refused unless memory=False drops it
    one_sided = Machines([[2]])
    with pytest.raises(ValueError, match="demand_1.*memory=False"):
        p1_optimum(jobs, one_sided, 1)
    assert p1_optimum(jobs, one_sided, 1, memory=False).value == 2
    with pytest.raises(ValueError, match="memory must be"):
        p1_optimum(jobs, machines, 1, memory="yes")


def test_weights_are_refused():
    with pytest.raises(ValueError, match="unweighted.*'1' has weight 5"):
        p1_optimum(xll21([0, 1], [3, 2], [1, 1], w=[1, 5]), Machines([[1]]), 1)


def test_the_budget_counts_every_variable_and_the_index_arrays():
    """P1 has u, e and W per slot: the estimate counted two of the three. A job arriving
    at slot 10^5 has a few variables but index arrays over all 10^5 slots."""
    jobs, machines = xll21([0, 1, 2], [1, 2, 3], [2, 1, 3]), Machines([[3]])
    n = p1_program(jobs, machines, 2).num_variables
    with pytest.raises(BudgetExceeded, match="variables"):
        p1_program(jobs, machines, 2, max_variables=n - 1)
    assert p1_program(jobs, machines, 2, max_variables=n).num_variables == n
    late = xll21([100_000], [1], [1])
    with pytest.raises(BudgetExceeded, match="N x H"):
        p1_optimum(late, Machines([[1]]), 1, max_variables=1000)


# ------------------------------------------------------- XLL21 bounds and limits

def _random_xll21(rng, n, memory):
    a = np.sort(rng.integers(0, n // 2 + 1, n))
    p = rng.integers(1, 5, n)
    d = rng.integers(1, 4, n)
    if memory:
        return xll21(a, p, d, m=rng.integers(1, 5, n)), Machines([[4, 5], [3, 6]])
    return xll21(a, p, d), Machines([[3], [4]])


@pytest.mark.parametrize("memory", [False, True])
def test_list_schedule_is_feasible(memory):
    """Every row of (4b)-(4f) checked here, apart from the program, and L within the
    horizon every optimum fits in."""
    rng = np.random.default_rng(39)
    for _ in range(10):
        jobs, machines = _random_xll21(rng, int(rng.integers(1, 12)), memory)
        u, c = list_schedule(jobs, machines)
        a, p, d = jobs.arrival, jobs.processing, jobs.demand[:, 0]
        L = u.shape[-1]
        per_job = u.sum(axis=1) if memory else u  # (N, L)
        assert np.all(u == np.round(u)) and np.all(u >= 0)
        assert np.array_equal(per_job.sum(axis=1), d * p)  # (4e)
        assert np.all(per_job <= d[:, None])  # (4d)
        t = np.arange(1, L + 1)
        assert not np.any(per_job[t[None, :] <= a[:, None]])  # served after arrival
        done = np.cumsum(per_job, axis=1) >= (d * p)[:, None]
        assert np.array_equal(done.argmax(axis=1) + 1, c) and c.max() == L
        if memory:
            assert np.all(u.sum(axis=0) <= machines.capacity[:, 0][:, None])  # (4b)
            on = u > 0
            mem = np.einsum("j,jit->it", jobs.demand[:, 1], on.astype(float))
            assert np.all(mem <= machines.capacity[:, 1][:, None])  # (4c)
            assert np.all(on.sum(axis=1) <= 1)  # one machine per job and slot
        else:
            assert np.all(u.sum(axis=0) <= machines.capacity[:, 0].sum())
        assert L <= offline_horizon(jobs, machines)


def test_closed_form_lower_bounds():
    jobs = xll21([0, 3, 1], [1, 4, 2], [1, 2, 1])
    assert optimum_lower_bound(jobs, 2, program="P1") == 1 + 16 + 4
    exact = sum(fractional_weight_sum(0, int(p), 1, 3) for p in (1, 4, 2))
    assert optimum_lower_bound(jobs, 3, program="P2") == pytest.approx(float(exact))
    for k in (1, 2):
        assert optimum_lower_bound(jobs, k, program="P1") <= p1_optimum(
            jobs, Machines([[2]]), k).value
        assert optimum_lower_bound(jobs, k, program="P2") <= p2_optimum(
            jobs, Machines([[2]]), k).value + 1e-9
    with pytest.raises(ValueError, match="program"):
        optimum_lower_bound(jobs, 2, program="P3")


def test_default_time_limit_is_one_constant():
    for f in (p1_optimum, p2_optimum, completion_optimum):
        assert inspect.signature(f).parameters["time_limit"].default == DEFAULT_TIME_LIMIT
    jobs = xll21([0], [1], [1])
    for bad in (0, -1, math.nan, "5", True):
        with pytest.raises(ValueError, match="time_limit"):
            p1_optimum(jobs, Machines([[1]]), time_limit=bad)
        with pytest.raises(ValueError, match="time_limit"):
            completion_optimum(JobSet([0], [1], [[0.5]]), ONE, time_limit=bad)


@pytest.mark.parametrize("opt", [p1_optimum, p2_optimum])
def test_a_limit_before_building_answers_with_bounds(opt):
    """200 jobs: P1 of about 440,000 nonzeros, P2 of 80,000, more than 0.05 s to build
    and load. They used to be built anyway (P1: 0.5 s past the limit, then no incumbent:
    ProgramError)."""
    rng = np.random.default_rng(0)
    n = 200
    jobs = xll21(np.sort(rng.integers(0, n, n)), rng.integers(1, 6, n),
                 rng.integers(1, 5, n))
    t0 = time.perf_counter()
    r = opt(jobs, Machines([[8], [8]]), 2, time_limit=0.05)
    assert time.perf_counter() - t0 < 0.05 + 2  # the list schedule, on a loaded machine
    assert r.status == "time_limit" and "not built" in r.extra["stopped"]
    assert r.extra["source"] == "list schedule" and r.value == r.upper
    assert r.lower == optimum_lower_bound(jobs, 2, program="P1" if opt is p1_optimum
                                          else "P2")
    u, c = list_schedule(jobs, Machines([[8], [8]]))
    assert np.array_equal(r.extra["completion"], c)
    if opt is p1_optimum:
        assert r.value == np.sum((c - jobs.arrival) ** 2)


def test_a_short_horizon_is_optimal_only_within_it():
    """X, Y, Z: 18 ending in slot 6; within 5 slots 19 (tests/capacity/
    test_flowtime_programs.py): an upper bound, not the optimum."""
    jobs, machines = xll21([0, 2, 2], [1, 1, 3], [3, 3, 3]), Machines([[4]])
    short = p1_optimum(jobs, machines, 2, horizon=5)
    assert (short.value, short.status) == (19, "horizon_limit")
    assert short.lower <= 18 <= short.upper
    full = p1_optimum(jobs, machines, 2, horizon=offline_horizon(jobs, machines))
    assert (full.value, full.status, full.lower) == (18, "optimal", 18)


# --------------------------------------------------------------- FL24 limits

def test_a_long_job_builds_in_its_size_not_p_times_h():
    """One job of 10^6 time units: the capacity rows were built with a loop over p_j of
    (N, H) arrays, O(p H) = 10^12 steps; now O(nonzeros)."""
    jobs = JobSet([0, 0], [1_000_000, 1], [[0.6], [0.6]])
    with within(30):
        r = completion_optimum(jobs, ONE, time_limit=20)
    assert (r.status, r.value) == ("optimal", 1 + 1_000_001)


def test_the_time_limit_covers_building():
    """Two jobs of 3000 units, 18 million nonzeros: 12 s of building past a 1 s limit,
    then ProgramError. Now the list schedule (9000) and the closed form (6000)."""
    jobs = JobSet([0, 0], [3000, 3000], [[0.6], [0.6]])
    t0 = time.perf_counter()
    r = completion_optimum(jobs, ONE, time_limit=1)
    assert time.perf_counter() - t0 < 1 + 2
    assert (r.status, r.value, r.upper, r.lower) == ("time_limit", 9000, 9000, 6000)
    assert r.extra["source"] == "list schedule" and "not built" in r.extra["stopped"]
    check_schedule(jobs, ONE, r.extra["start"], r.extra["machine"])


def test_nothing_known_is_nan_not_a_number():
    r = completion_optimum(JobSet([0, 1], [2, 2], [[0.6], [0.6]]), ONE, time_limit=1e-9)
    assert r.status == "time_limit"
    assert math.isnan(r.value) or r.extra["source"] == "list schedule"
    assert r.lower == 1 * 2 + 1 * 3 and r.lower <= r.upper


def test_program_memory_and_nonzero_budgets():
    """The order rows have N^2 M / 2 nonzeros: the estimate counted 2 N M of them."""
    rng = np.random.default_rng(3)
    n = 30
    jobs = JobSet(np.zeros(n), np.ones(n), rng.uniform(0.05, 0.2, (n, 1)))
    three = Machines(np.ones((3, 1)))
    nnz = completion_program(jobs, three).A.nnz
    with pytest.raises(BudgetExceeded, match="nonzeros"):
        completion_program(jobs, three, max_nonzeros=nnz - 1)
    with pytest.raises(BudgetExceeded, match="memory_budget") as info:
        completion_optimum(jobs, three, memory_budget=10_000)
    assert info.value.option == "memory_budget"
    with pytest.raises(ValueError, match="memory_budget"):
        completion_optimum(jobs, three, memory_budget="8G")


def _serial_optimum(jobs: JobSet) -> float:
    """One machine, every pair too big to share it: a permutation, each job as early as
    its release and the previous one allow."""
    best = math.inf
    for perm in itertools.permutations(range(jobs.n)):
        t = total = 0.0
        for j in perm:
            t = max(t, jobs.arrival[j]) + jobs.processing[j]
            total += jobs.weight[j] * t
        best = min(best, total)
    return best


def test_tiny_and_huge_weights():
    """w = 1e-20 beside 1 failed with 'horizon too short' (the deadline of a came out 3,
    from a difference that cancelled); 1e300 with HiGHS status Unknown; 1e308 with a NaN
    conversion."""
    def jobs(w):
        return JobSet([0, 1, 0], [3, 2, 1], [[0.6], [0.6], [0.3]], [w, 1, 1])

    r = completion_optimum(jobs(1e-20), ONE)
    assert r.value == 4 and r.extra["start"].tolist() == [3, 1, 0]
    assert r.extra["deadline"][0] >= 6
    big = completion_optimum(jobs(1e300), ONE)
    assert big.value == pytest.approx(3e300) and big.extra["start"][0] == 0
    assert big.lower <= big.value == big.upper
    with pytest.raises(ValueError, match="overflows"):
        completion_optimum(jobs(1e308), ONE)
    ms = completion_optimum(jobs(1e308), ONE, objective="makespan")
    assert ms.value == 5 and math.isinf(ms.extra["weighted_completion"])


def test_weights_finer_than_the_solver_are_not_called_optimal():
    """HiGHS stops within ~1e-6 of its objective (normalised by the largest weight):
    with weights 1e-9..1 it returned non-optimal schedules as 'optimal' (the first of
    these: 3.000000069 for 3.000000062)."""
    rng = np.random.default_rng(5)
    statuses = set()
    for _ in range(8):
        n = 5
        jobs = JobSet(rng.integers(0, 3, n).astype(float), rng.integers(1, 4, n).astype(float),
                      np.full((n, 1), 0.6), 10.0 ** rng.integers(-9, 1, n))
        best = _serial_optimum(jobs)
        r = completion_optimum(jobs, ONE)
        statuses.add(r.status)
        assert r.lower <= best * (1 + 1e-15) and best <= r.upper * (1 + 1e-15)
        if r.status == "optimal":
            assert r.value == pytest.approx(best, rel=1e-15)
    assert "solver_tolerance" in statuses
    # resolvable weights stay proven
    jobs = JobSet([0, 1, 0], [3, 2, 1], [[0.6], [0.6], [0.6]], [0.5, 2.5, 1])
    r = completion_optimum(jobs, ONE)
    assert r.status == "optimal" and r.lower == r.value == _serial_optimum(jobs)


def test_weight_grain():
    assert weight_grain([1, 2, 7]) == 1
    assert weight_grain([0.1, 0.25]) == 0.05
    assert weight_grain([1e-20, 1]) == 1e-20
    assert weight_grain([5e-324]) == float(Fraction(5, 10**324))  # the smallest float


def test_check_schedule_agrees_with_the_all_pairs_check():
    """The sweep (heap of running jobs) against the definition: at each start, the jobs
    running on that machine."""
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(60):
        n, M = int(rng.integers(1, 9)), int(rng.integers(1, 3))
        jobs = JobSet(np.zeros(n), rng.integers(1, 4, n).astype(float),
                      rng.choice([0.2, 0.3, 0.5, 0.7], (n, 2)))
        S = rng.integers(0, 5, n).astype(float)
        mach = rng.integers(0, M, n)
        C = S + jobs.processing
        bad = any(np.any(jobs.demand[(mach == mach[k]) & (S <= S[k]) & (S[k] < C)]
                         .sum(axis=0) > 1 + 1e-9) for k in range(n))
        try:
            check_schedule(jobs, Machines(np.ones((M, 2))), S, mach)
            ok = True
        except ValueError as e:
            assert "overloaded" in str(e)
            ok = False
        assert ok != bad
        seen.add(ok)
    assert seen == {True, False}
