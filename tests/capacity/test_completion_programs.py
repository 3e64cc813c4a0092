"""FL24's offline non-preemptive problem as a time-indexed MILP (capacity.completion_programs):
hand-solved instances (Lemma 4.1, Lemma 6.4, symmetry breaking, the horizon), an
independent brute force over semi-active schedules for N <= 5, seeded random instances
(R = 1, 2, 3; M = 1, 2, 3), the time limit, the budgets and the inputs refused.

The sizes that solve in seconds are measured in completion_optimum's docstring.
"""

import math
from itertools import permutations

import numpy as np
import pytest

from capacity.completion_programs import (
    COMPLETION_OBJECTIVES,
    canonical_machines,
    check_schedule,
    completion_optimum,
    completion_program,
    earliest_fit_schedule,
)
from capacity.programs import ProgramError
from theory.budgets import BudgetExceeded
from theory.job_sets import JobSet, Machines
from theory.nonpreemptive_bounds import makespan_lower_bound, weighted_completion_lower_bound

TOL = 1e-9
WC, MS = COMPLETION_OBJECTIVES


def unit(M, R):
    return Machines(np.ones((M, R)))


# ------------------------------------------------------------- independent reference


def feasible(jobs, machines, start, machine):
    """Integer-slot check, written apart from check_schedule: every unit slot of every
    machine, every resource, loads normalised by the (identical) capacity."""
    d = jobs.demand / machines.capacity[0]
    S = np.asarray(start)
    C = S + jobs.processing
    if np.any(S < jobs.arrival) or np.any(S != np.round(S)):
        return False
    for i in range(machines.m):
        for tau in range(int(C.max())):
            run = (np.asarray(machine) == i) & (S <= tau) & (tau < C)
            if np.any(d[run].sum(axis=0) > 1 + TOL):
                return False
    return True


def brute_force(jobs, machines, objective, horizon=math.inf):
    """Optimum over semi-active schedules (each start is the job's release or the
    completion of a job on its machine), generated in non-decreasing start order; empty
    machines are interchangeable, so only the first empty one is tried. With integer
    data an optimal schedule can be taken integer and semi-active (shift jobs left one
    unit at a time while they fit: no completion grows, so a ``horizon`` stays met).
    ``math.inf`` when no schedule ends by ``horizon``."""
    d = jobs.demand / machines.capacity[0]
    a = jobs.arrival.astype(int)
    p = jobs.processing.astype(int)
    w = jobs.weight
    N, M = jobs.n, machines.m
    S = [0] * N
    mach = [-1] * N
    best = [math.inf]

    def fits(j, i, s):
        for tau in range(s, s + p[j]):
            load = d[j].copy()
            for k in range(N):
                if mach[k] == i and S[k] <= tau < S[k] + p[k]:
                    load = load + d[k]
            if np.any(load > 1 + TOL):
                return False
        return True

    def score(done):
        C = [S[k] + p[k] for k in done]
        return max(C, default=0) if objective == MS else sum(w[k] * (S[k] + p[k]) for k in done)

    def bound(done, rest, last):
        if objective == MS:
            return max([score(done)] + [max(a[j], last) + p[j] for j in rest])
        return score(done) + sum(w[j] * (max(a[j], last) + p[j]) for j in rest)

    def rec(done, rest, last):
        if not rest:
            best[0] = min(best[0], score(done))
            return
        if bound(done, rest, last) >= best[0] - TOL:
            return
        used = sorted({mach[k] for k in done})
        cand_m = used + ([len(used)] if len(used) < M else [])
        for j in rest:
            for i in cand_m:
                starts = {a[j]} | {S[k] + p[k] for k in done if mach[k] == i}
                for s in sorted(x for x in starts if x >= max(a[j], last)):
                    if s + p[j] <= horizon and fits(j, i, s):
                        S[j], mach[j] = s, i
                        rec(done + [j], [k for k in rest if k != j], s)
                        mach[j] = -1

    rec([], list(range(N)), 0)
    return best[0]


def random_jobs(rng, n, R, r_max=3, p_max=3, w_max=3):
    d = rng.uniform(0.05, 0.8, (n, R)).round(2)
    d[rng.random((n, R)) < 0.2] = 0.0  # some resources unused
    d[d.max(axis=1) == 0, 0] = 0.5
    return JobSet(rng.integers(0, r_max + 1, n).astype(float),
                  rng.integers(1, p_max + 1, n).astype(float), d,
                  rng.integers(1, w_max + 1, n).astype(float))


def assert_answer(res, jobs, machines, objective):
    """The returned schedule is feasible by the reference check and scores ``value``."""
    S, i = res.extra["start"], res.extra["machine"]
    assert feasible(jobs, machines, S, i)
    C = S + jobs.processing
    assert np.array_equal(res.extra["completion"], C)
    wc = float(np.sum(jobs.weight * C))
    assert res.extra["weighted_completion"] == pytest.approx(wc)
    assert res.extra["awct"] == pytest.approx(wc / jobs.n)
    assert res.extra["makespan"] == C.max()
    assert res.value == pytest.approx(wc if objective == WC else C.max())
    assert res.lower <= res.value + 1e-9 and res.upper == res.value
    assert C.max() <= res.extra["horizon"]


# -------------------------------------------------------------------- hand-solved


def lemma41(n=4, p=4, eps=1):
    """FL24 Lemma 4.1's instance, times integer: one big job at 0 (demand 1, length p),
    n - 1 unit jobs at eps of demand 1 / (n - 1) in every resource."""
    return JobSet([0] + [eps] * (n - 1), [p] + [1] * (n - 1),
                  [[1.0, 1.0]] + [[1 / (n - 1)] * 2] * (n - 1))


def test_lemma41_the_optimum_delays_the_big_job():
    jobs = lemma41()
    res = completion_optimum(jobs, unit(1, 2))
    assert res.status == "optimal"
    # (N - 1)(1 + eps) + 1 + eps + p = 3 * 2 + 2 + 4
    assert res.value == 12 and res.lower == 12
    assert res.extra["start"].tolist() == [2, 1, 1, 1]
    assert res.extra["awct"] == 3.0
    assert_answer(res, jobs, unit(1, 2), WC)
    # PQ's schedule (big job first: p + (N - 1)(p + 1) = 19) is feasible but worse
    assert feasible(jobs, unit(1, 2), [0, 4, 4, 4], [0, 0, 0, 0])
    assert res.value < 4 + 3 * 5
    # the makespan optimum does not delay it: 5 either way round
    ms = completion_optimum(jobs, unit(1, 2), objective=MS)
    assert ms.value == 5 and ms.status == "optimal"
    assert_answer(ms, jobs, unit(1, 2), MS)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_lemma41_scaled_closed_form(n):
    """Times x100 (eps = 0.01 -> 1, p = N -> 100 N): the proof's optimum, exactly."""
    jobs = JobSet([0] + [1] * (n - 1), [100 * n] + [100] * (n - 1),
                  [[1.0]] + [[1 / (n - 1)]] * (n - 1))
    res = completion_optimum(jobs, unit(1, 1))
    assert res.status == "optimal"
    assert res.value == (n - 1) * 101 + 101 + 100 * n


@pytest.mark.parametrize("R", [1, 3])
def test_lemma64_family_one_machine(R):
    """Lemma 6.4's tight family: N jobs of length p and demand 1/2 + delta on one
    machine run one at a time: makespan N p, sum C_j = p N (N + 1) / 2."""
    n, p, delta = 4, 3, 0.1
    dem = np.zeros((n, R))
    dem[:, 0] = 0.5 + delta
    jobs = JobSet(np.zeros(n), np.full(n, p), dem)
    ms = completion_optimum(jobs, unit(1, R), objective=MS)
    assert ms.value == n * p and ms.status == "optimal"
    wc = completion_optimum(jobs, unit(1, R))
    assert wc.value == p * n * (n + 1) / 2
    assert sorted(wc.extra["start"].tolist()) == [0, 3, 6, 9]
    # at delta = 0 two fit together: makespan N p / 2
    dem[:, 0] = 0.5
    half = completion_optimum(JobSet(np.zeros(n), np.full(n, p), dem), unit(1, R),
                              objective=MS)
    assert half.value == n * p / 2


def test_two_machines_symmetry_breaking_keeps_the_optimum():
    """Job 0 arrives last; the optimum puts it after one of jobs 1, 2 on either machine.
    The program forces job 0 onto machine 0: the optimum must survive relabelling."""
    jobs = JobSet([2, 0, 0], [1, 3, 3], [[1.0], [1.0], [1.0]])
    res = completion_optimum(jobs, unit(2, 1))
    assert res.value == 3 + 3 + 4 and res.status == "optimal"
    assert res.extra["machine"][0] == 0
    assert_answer(res, jobs, unit(2, 1), WC)
    # every job on its own machine: job 2 must be allowed on machine 2
    jobs3 = JobSet([0, 0, 0], [2, 2, 2], [[0.6], [0.6], [0.6]])
    res3 = completion_optimum(jobs3, unit(3, 1), objective=MS)
    assert res3.value == 2 and sorted(res3.extra["machine"].tolist()) == [0, 1, 2]


def test_three_machines_order_rows_against_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(3):
        jobs = random_jobs(rng, 5, 2)
        m = unit(3, 2)
        for obj in COMPLETION_OBJECTIVES:
            res = completion_optimum(jobs, m, objective=obj)
            assert res.value == pytest.approx(brute_force(jobs, m, obj))
            used = res.extra["machine"]
            firsts = [np.flatnonzero(used == i).min() for i in sorted(set(used.tolist()))]
            assert firsts == sorted(firsts) and sorted(set(used.tolist())) == list(
                range(len(firsts)))


def test_weighted_completion_optimum_ends_after_the_makespan_optimum():
    """A long light job and two heavy short ones: the makespan optimum runs them
    alongside (4), the weighted optimum runs the heavy ones first and ends at 5. So a
    horizon taken from the makespan would cut the weighted optimum."""
    jobs = JobSet([0, 0, 0], [4, 1, 1], [[0.5], [0.5], [0.5]], [1, 100, 100])
    m = unit(1, 1)
    ms = completion_optimum(jobs, m, objective=MS)
    assert ms.value == 4
    wc = completion_optimum(jobs, m)
    assert wc.value == 205 and wc.extra["makespan"] == 5
    cut = completion_optimum(jobs, m, horizon=4)
    assert cut.value == 304  # optimal only among schedules ending by 4
    assert brute_force(jobs, m, WC) == 205
    assert brute_force(jobs, m, WC, horizon=4) == 304


def test_capacity_normalisation_changes_nothing():
    rng = np.random.default_rng(11)
    jobs = random_jobs(rng, 5, 2)
    cap = np.array([4.0, 16.0])
    scaled = JobSet(jobs.arrival, jobs.processing, jobs.demand * cap, jobs.weight)
    for obj in COMPLETION_OBJECTIVES:
        a = completion_optimum(jobs, unit(2, 2), objective=obj)
        b = completion_optimum(scaled, Machines([cap, cap]), objective=obj)
        assert a.value == pytest.approx(b.value)


# ------------------------------------------------------------ against brute force


@pytest.mark.parametrize("R", [1, 2, 3])
@pytest.mark.parametrize("M", [1, 2])
def test_random_against_brute_force(R, M):
    rng = np.random.default_rng(100 * R + M)
    m = unit(M, R)
    for _ in range(4):
        jobs = random_jobs(rng, int(rng.integers(2, 6)), R)
        for obj in COMPLETION_OBJECTIVES:
            res = completion_optimum(jobs, m, objective=obj)
            assert res.status == "optimal"
            assert res.value == pytest.approx(brute_force(jobs, m, obj), abs=1e-9)
            assert_answer(res, jobs, m, obj)
            lb = (makespan_lower_bound(jobs, m, per_resource=True).value if obj == MS
                  else weighted_completion_lower_bound(jobs))
            assert lb <= res.value + 1e-9
            assert res.value <= res.extra["heuristic"][obj.replace("-", "_")] + 1e-9


def test_random_with_a_horizon_against_brute_force():
    """With ``horizon=`` the optimum among schedules ending by it (or ProgramError)."""
    rng = np.random.default_rng(77)
    seen = set()
    for _ in range(40):
        R, M = int(rng.integers(1, 4)), int(rng.integers(1, 3))
        jobs = random_jobs(rng, int(rng.integers(3, 6)), R, r_max=2, p_max=3, w_max=5)
        m = unit(M, R)
        H = int((jobs.arrival + jobs.processing).max() + rng.integers(0, 3))
        for obj in COMPLETION_OBJECTIVES:
            ref = brute_force(jobs, m, obj, horizon=H)
            if ref == math.inf:
                with pytest.raises(ProgramError, match="too short"):
                    completion_optimum(jobs, m, objective=obj, horizon=H)
                seen.add("infeasible")
                continue
            res = completion_optimum(jobs, m, objective=obj, horizon=H)
            assert res.value == pytest.approx(ref, abs=1e-9)
            assert res.extra["makespan"] <= H and res.extra["horizon"] == H
            seen.add("feasible")
    assert seen == {"infeasible", "feasible"}  # both cases came up


def test_job_order_does_not_change_the_optimum():
    """Symmetry breaking depends on the job indices; the optimum must not."""
    rng = np.random.default_rng(5)
    jobs = random_jobs(rng, 5, 2)
    m = unit(2, 2)
    ref = {obj: completion_optimum(jobs, m, objective=obj).value
           for obj in COMPLETION_OBJECTIVES}
    for perm in list(permutations(range(5)))[::17]:
        q = list(perm)
        pj = JobSet(jobs.arrival[q], jobs.processing[q], jobs.demand[q], jobs.weight[q])
        for obj in COMPLETION_OBJECTIVES:
            assert completion_optimum(pj, m, objective=obj).value == pytest.approx(ref[obj])


def test_list_schedule_is_feasible_and_within_the_horizon_bound():
    rng = np.random.default_rng(8)
    for _ in range(20):
        R, M = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        jobs = random_jobs(rng, int(rng.integers(1, 12)), R, r_max=6, p_max=5)
        S, i = earliest_fit_schedule(jobs, unit(M, R))
        assert feasible(jobs, unit(M, R), S, i)
        check_schedule(jobs, unit(M, R), S, i)
        assert np.max(S + jobs.processing) <= jobs.arrival.max() + jobs.processing.sum()


# ------------------------------------------------------------------- the program


def test_program_blocks_and_masks():
    jobs = JobSet([0, 1, 0], [2, 1, 3], [[0.5, 0.2], [0.6, 0.6], [0.3, 0.9]])
    prog = completion_program(jobs, unit(2, 2))
    x = prog.variables["x"]
    assert x.shape[:2] == (3, 2)
    assert np.all(x[0, 1] == -1)  # job 0 only on machine 0
    assert np.any(x[1, 1] >= 0) and np.any(x[2, 1] >= 0)
    assert np.all(x[1, :, :1] == -1)  # job 1 released at 1
    assert prog.is_mip and "capacity" in prog.rows and "order" in prog.rows
    ms = completion_program(jobs, unit(2, 2), objective=MS)
    assert "cmax" in ms.variables and "cmax" in ms.rows
    # a horizon given: the x block spans it
    long = completion_program(jobs, unit(1, 2), horizon=30)
    assert long.variables["x"].shape == (3, 1, 30)


def test_check_schedule_catches_each_fault():
    jobs = JobSet([0, 1], [2, 2], [[0.6], [0.6]])
    m = unit(2, 1)
    check_schedule(jobs, m, [0, 1], [0, 1])
    check_schedule(jobs, m, [0, 2], [0, 0])
    with pytest.raises(ValueError, match="overloaded"):
        check_schedule(jobs, m, [0, 1], [0, 0])
    with pytest.raises(ValueError, match="before its release"):
        check_schedule(jobs, m, [0, 0], [0, 1])
    with pytest.raises(ValueError, match="machine indices"):
        check_schedule(jobs, m, [0, 1], [0, 2])
    with pytest.raises(ValueError, match="after the horizon"):
        check_schedule(jobs, m, [0, 1], [0, 1], horizon=2)
    with pytest.raises(ValueError, match="entries"):
        check_schedule(jobs, m, [0], [0])
    # real start times: the check is exact at every time, not only on a grid
    check_schedule(JobSet([0, 0], [1.5, 1], [[0.6], [0.6]]), unit(1, 1), [0, 1.5], [0, 0])
    with pytest.raises(ValueError, match="overloaded"):
        check_schedule(JobSet([0, 0], [1.5, 1], [[0.6], [0.6]]), unit(1, 1), [0, 1.4],
                       [0, 0])


# ------------------------------------------------------- time limit and budgets


def test_time_limit_returns_bounds_or_refuses():
    rng = np.random.default_rng(20002)
    jobs = JobSet(rng.integers(0, 6, 20).astype(float), rng.integers(1, 5, 20).astype(float),
                  rng.uniform(0.05, 0.7, (20, 2)).round(3), np.ones(20))
    try:
        res = completion_optimum(jobs, unit(2, 2), time_limit=0.3)
    except ProgramError as e:  # no incumbent by the limit
        assert "limit" in str(e).lower()
        return
    assert res.status == "time_limit"
    assert res.lower <= res.upper == res.value
    assert res.lower >= weighted_completion_lower_bound(jobs)
    assert_answer(res, jobs, unit(2, 2), WC)
    # never worse than the list schedule the deadlines came from
    assert res.extra["source"] in ("solver", "list schedule")
    assert res.value <= res.extra["heuristic"]["weighted_completion"]
    # the returned solution is the schedule's, in the program's blocks
    x = res.solution["x"]
    assert x.sum() == jobs.n
    assert all(x[j, res.extra["machine"][j], res.extra["start"][j]] == 1 for j in range(20))


def test_canonical_machines():
    assert canonical_machines([2, 0, 2, 1, 0]).tolist() == [0, 1, 0, 2, 1]
    assert canonical_machines([0, 0, 1]).tolist() == [0, 0, 1]


def test_budget_refuses_before_building():
    n = 5000
    jobs = JobSet(np.zeros(n), np.full(n, 10.0), np.full((n, 1), 0.5))
    with pytest.raises(BudgetExceeded, match="max_variables"):
        completion_optimum(jobs, unit(2, 1))  # the cheap estimate refuses at once
    small = JobSet([0, 0, 0], [3, 3, 3], [[0.6], [0.6], [0.6]])
    with pytest.raises(BudgetExceeded, match="max_variables="):
        completion_program(small, unit(1, 1), max_variables=10)
    with pytest.raises(BudgetExceeded, match="max_nonzeros="):
        completion_program(small, unit(1, 1), max_nonzeros=10)
    assert completion_program(small, unit(1, 1), max_variables=100).num_variables <= 100
    # few variables but a long horizon: the dense (N, M, H) index arrays are counted too
    late = JobSet(np.r_[0.0, np.full(99, 5000.0)], np.r_[5000.0, np.ones(99)],
                  np.full((100, 1), 0.001))
    with pytest.raises(BudgetExceeded, match="N x M x H"):
        completion_program(late, unit(4, 1), max_variables=100_000)


# ------------------------------------------------------------------- bad inputs


def test_refuses_non_integer_times():
    with pytest.raises(ValueError, match="integer release times.*scale time"):
        completion_optimum(JobSet([0.5], [1], [[0.5]]), unit(1, 1))
    with pytest.raises(ValueError, match="integer processing times.*scale time"):
        completion_program(JobSet([0], [1.25], [[0.5]]), unit(1, 1))


def test_refuses_bad_jobs_and_machines():
    with pytest.raises(ValueError, match="fits no machine"):
        completion_optimum(JobSet([0], [1], [[1.2]]), unit(1, 1))
    with pytest.raises(ValueError, match="identical machines"):
        completion_optimum(JobSet([0], [1], [[0.5]]), Machines([[1.0], [2.0]]))
    with pytest.raises(ValueError, match="resource"):
        completion_optimum(JobSet([0], [1], [[0.5]]), unit(1, 2))
    with pytest.raises(ValueError, match="objective"):
        completion_optimum(JobSet([0], [1], [[0.5]]), unit(1, 1), objective="awct")
    with pytest.raises(ValueError, match="JobSet"):
        completion_optimum([[0, 1, 0.5]], unit(1, 1))
    with pytest.raises(ValueError, match="at least one job"):  # empty: JobSet refuses
        JobSet([], [], np.zeros((0, 1)))


def test_horizon_checks():
    jobs = JobSet([0, 2], [2, 3], [[1.0], [1.0]])
    with pytest.raises(ValueError, match="horizon too short.*at least 5"):
        completion_optimum(jobs, unit(1, 1), horizon=4)
    for bad in (0, 2.5, "10", True, math.inf):
        with pytest.raises(ValueError, match="horizon"):
            completion_program(jobs, unit(1, 1), horizon=bad)
    # long enough for each job, too short to pack both: infeasible, said so
    both = JobSet([0, 0], [2, 2], [[1.0], [1.0]])
    with pytest.raises(ProgramError, match="horizon of 3 is too short"):
        completion_optimum(both, unit(1, 1), horizon=3)
    # a longer horizon than the default changes no optimum
    for obj in COMPLETION_OBJECTIVES:
        a = completion_optimum(jobs, unit(1, 1), objective=obj)
        b = completion_optimum(jobs, unit(1, 1), objective=obj, horizon=20)
        assert a.value == b.value and b.extra["horizon"] == 20


def test_cvxpy_method_agrees():
    jobs = lemma41()
    for obj, want in ((WC, 12), (MS, 5)):
        res = completion_optimum(jobs, unit(1, 2), objective=obj, method="cvxpy")
        assert res.value == want and res.method == "cvxpy"


def test_result_is_json_ready():
    res = completion_optimum(lemma41(), unit(1, 2))
    out = res.as_dict()
    assert out["extra"]["start"] == [2, 1, 1, 1]
    assert out["status"] == "optimal"
