"""XLL21's offline programs P1 (eq. (4a)-(4f)) and P2 (Sec. II-C), capacity.flowtime_programs,
and the matrix form behind them (capacity.programs): hand-solved instances, an
independent dynamic program over integer schedules, eq. (6), the horizon, the budgets
and the inputs refused."""

import json
import math
from fractions import Fraction as F
from functools import cache
from itertools import product

import numpy as np
import pytest

from capacity.flowtime_programs import (
    offline_horizon,
    p1_optimum,
    p1_program,
    p2_optimum,
    p2_program,
)
from capacity.programs import ProgramBuilder, ProgramError, solve
from theory.budgets import BudgetExceeded
from theory.fractional_flowtime import fractional_flowtimes
from theory.job_sets import JobSet, Machines

METHODS = ("highs", "cvxpy")
#: the two methods agree to this relative tolerance
AGREE_RTOL = 1e-6
#: exact values (integers, fractions) against float optima
VALUE_RTOL = 1e-9


def jobs_of(a, p, d, m=None):
    dem = np.array(d, dtype=float)[:, None] if m is None else np.c_[d, m]
    return JobSet(a, p, dem)


def random_tiny(rng, n_max=3, p_max=3, d_max=3):
    n = int(rng.integers(1, n_max + 1))
    a = rng.integers(0, 3, n)
    p = rng.integers(1, p_max + 1, n)
    d = rng.integers(1, d_max + 1, n)
    C = int(rng.integers(d.max(), d_max + 3))
    return jobs_of(a, p, d), Machines([[C]])


def dp_optima(a, p, d, C, k, H):
    """(P1, P2) optima over pooled integer schedules on slots 1..H by dynamic programming
    over the remaining volumes: the reference, written apart from the programs. P2 over
    integer schedules is the LP optimum too (transportation matrix)."""
    n = len(a)
    vol = tuple(int(p[j] * d[j]) for j in range(n))

    def w(j, t):
        return (t - a[j]) ** k / p[j] + p[j] ** (k - 1)

    @cache
    def best(t, rem, which):
        if not any(rem):
            return 0.0
        if t > H:
            return math.inf
        ranges = [range(min(d[j], rem[j]) + 1) if t > a[j] else range(1) for j in range(n)]
        out = math.inf
        for u in product(*ranges):
            if sum(u) > C:
                continue
            new = tuple(r - x for r, x in zip(rem, u, strict=True))
            if which == 1:
                cost = sum((t - a[j]) ** k for j in range(n) if rem[j] > 0 and new[j] == 0)
            else:
                cost = sum(w(j, t) * u[j] / d[j] for j in range(n) if u[j])
            out = min(out, cost + best(t + 1, new, which))
        return out

    return best(1, vol, 1), best(1, vol, 2)


# ------------------------------------------------------------------ hand-solved


@pytest.mark.parametrize("k", [1, 2, 2.5])
def test_single_job(k):
    """One job alone: served at full rate from a + 1, P1 = p^k and P2 = eq. (5) at full
    rate, sum_{s=1}^{p} s^k / p + p^k."""
    jobs, machines = jobs_of([2], [3], [2]), Machines([[4]])
    r1 = p1_optimum(jobs, machines, k)
    assert r1.value == pytest.approx(3 ** k, rel=VALUE_RTOL)
    assert r1.extra["completion"].tolist() == [5]
    r2 = p2_optimum(jobs, machines, k)
    assert r2.value == pytest.approx(sum(s ** k for s in (1, 2, 3)) / 3 + 3 ** k, rel=VALUE_RTOL)
    assert r2.solution["y"][0, 2:5].tolist() == [1.0, 1.0, 1.0]


def test_two_jobs_that_cannot_share():
    """A (a=0, p=3) and B (a=1, p=1), 2 cores each on one 2-core machine. P1: B preempts
    A in slot 2 (flowtimes 4 and 1: 5 for k=1, 17 for k=2; A first: 3 + 3 = 6 and 18).
    P2 (k=1, cost per core (t - a)/p + 1 over d = 2): A in slots 1, 3, 4 costs
    (4/3 + 2 + 7/3) = 17/3 and B in slot 2 costs 2: 23/3."""
    jobs, machines = jobs_of([0, 1], [3, 1], [2, 2]), Machines([[2]])
    for k, want in ((1, 5), (2, 17)):
        r = p1_optimum(jobs, machines, k)
        assert r.value == pytest.approx(want, rel=VALUE_RTOL)
        assert r.extra["completion"].tolist() == [4, 2]
    r = p2_optimum(jobs, machines, 1)
    assert r.value == pytest.approx(23 / 3, rel=VALUE_RTOL)
    assert r.solution["y"][:, :4].tolist() == [[1, 0, 1, 1], [0, 1, 0, 0]]


# XLL21 Example 1 in integers: three jobs at a = 0, p = 1, 2, 3, 18 cores each, one
# machine of 20 cores (demand 0.9 of a machine). Two jobs never fit together, but the 2
# spare cores serve another job at rate 1/9.
EX1 = (jobs_of([0, 0, 0], [1, 2, 3], [18, 18, 18]), Machines([[20]]))


@pytest.mark.parametrize("method", METHODS)
def test_example1_p1(method):
    """P1: volume 108 > 5 x 20 forces c_3 >= 6; c_2 = 2 needs job 2 at 18 cores in slots
    1 and 2, leaving job 1 4 cores, so c_1 + c_2 >= 4 and (1, 3) is best: SRPT order
    with flowtimes 1, 3, 6, sum 10 for k = 1 and 1 + 9 + 36 = 46 for k = 2."""
    jobs, machines = EX1
    for k, want in ((1, 10), (2, 46)):
        r = p1_optimum(jobs, machines, k, method=method)
        assert r.status == "optimal"
        assert r.value == pytest.approx(want, rel=VALUE_RTOL)
        assert r.lower == r.upper == r.value
        assert r.extra["completion"].tolist() == [1, 3, 6]
        assert r.extra["lk_sum"] == pytest.approx(want)


def test_example1_p2_by_hand():
    """P2, k = 1, as a transportation problem (18 x cost per core c_j(t) = t/p_j + 1,
    slot capacity 20, at most 18 cores per job and slot). The schedule below costs
    377/27; the prices v (jobs) and pi <= 0 (slots) prove no schedule costs less:
    for any such prices, sum_j V_j v_j + 20 sum_t pi_t - 18 sum_{j,t}
    max(0, v_j + pi_t - c_j(t)) is a lower bound (LP weak duality), here also 377/27."""
    jobs, machines = EX1
    H = offline_horizon(jobs, machines, memory=False)
    assert H == 0 + math.ceil(108 / 20) + 3 == 9
    p, V = [1, 2, 3], [18, 36, 54]

    def c(j, t):
        return F(t, p[j]) + 1

    schedule = [[18, 0, 0, 0, 0, 0], [2, 18, 12, 2, 2, 0], [0, 2, 8, 18, 18, 8]]
    assert [sum(r) for r in schedule] == V
    assert all(sum(col) <= 20 for col in zip(*schedule, strict=True))
    primal = sum(c(j, t + 1) * schedule[j][t] for j in range(3) for t in range(6)) / 18
    v = [F(4), F(7, 2), F(3)]
    pi = [F(-2), F(-4, 3), F(-1), F(-1, 2)] + [F(0)] * (H - 4)
    dual = (sum(V[j] * v[j] for j in range(3)) + 20 * sum(pi)
            - 18 * sum(max(F(0), v[j] + pi[t] - c(j, t + 1))
                       for j in range(3) for t in range(H))) / 18
    assert primal == dual == F(377, 27)
    for method in METHODS:
        r = p2_optimum(jobs, machines, 1, method=method)
        assert r.value == pytest.approx(float(F(377, 27)), rel=AGREE_RTOL)
        # eq. (5) on the returned rates gives the same value
        y = r.solution["y"]
        assert fractional_flowtimes(y, jobs.arrival, jobs.processing, 1).sum() == \
            pytest.approx(r.value, rel=AGREE_RTOL)
    # eq. (6): OPT_P2 <= 2 OPT_P1
    assert F(377, 27) <= 2 * 10


def test_memory_that_binds():
    """Two one-slot jobs of 1 core and 3 memory on a machine of 2 cores and 4 memory:
    pooled they run together (P1 = 1 + 1, P2 = 2 + 2 with weight 1/1 + 1 = 2 in slot 1),
    with memory one waits a slot (P1 = 1 + 2 = 3, P2 = 2 + 3 = 5)."""
    jobs, machines = jobs_of([0, 0], [1, 1], [1, 1], m=[3, 3]), Machines([[2, 4]])
    assert p1_optimum(jobs, machines, 1, memory=False).value == pytest.approx(2)
    assert p2_optimum(jobs, machines, 1, integer=True, memory=False).value == pytest.approx(4)
    for method in METHODS:
        r1 = p1_optimum(jobs, machines, 1, memory=True, method=method)
        assert r1.value == pytest.approx(3)
        assert sorted(r1.extra["completion"].tolist()) == [1, 2]
        r2 = p2_optimum(jobs, machines, 1, memory=True, method=method)
        assert r2.value == pytest.approx(5)
        assert r2.solution["z"].shape == (2, 1, r2.extra["horizon"])


def test_memory_keeps_jobs_off_machines_they_do_not_fit():
    """Two one-slot jobs of 4 cores and memory 5: only machine 1 (4 cores, memory 6)
    holds one, machine 0 (8 cores, memory 4) none, so they take turns: flowtimes 1 and
    2. Pooled (memory ignored) both run in slot 1."""
    jobs = jobs_of([0, 0], [1, 1], [4, 4], m=[5, 5])
    machines = Machines([[8, 4], [4, 6]])
    r = p1_optimum(jobs, machines, 1, memory=True)
    assert r.value == pytest.approx(3)
    assert r.solution["u"][:, 0].sum() == 0
    assert (r.extra["program"], sorted(r.extra["completion"].tolist())) == ("P1", [1, 2])
    assert p1_optimum(jobs, machines, 1, memory=False).value == pytest.approx(2)


# ------------------------------------------------------------------ references


def test_against_dynamic_program():
    """P1 (MILP) and P2 (LP and integer) equal the exact optima over integer schedules."""
    rng = np.random.default_rng(11)
    for _ in range(8):
        jobs, machines = random_tiny(rng, n_max=3, p_max=2, d_max=2)
        k = float(rng.choice([1.0, 2.0, 1.5]))
        H = offline_horizon(jobs, machines, memory=False)
        a = jobs.arrival.astype(int).tolist()
        p = jobs.processing.astype(int).tolist()
        d = jobs.demand[:, 0].astype(int).tolist()
        P1, P2 = dp_optima(a, p, d, int(machines.capacity[0, 0]), k, H)
        assert p1_optimum(jobs, machines, k).value == pytest.approx(P1, rel=VALUE_RTOL)
        assert p2_optimum(jobs, machines, k).value == pytest.approx(P2, rel=AGREE_RTOL)
        assert p2_optimum(jobs, machines, k, integer=True).value == \
            pytest.approx(P2, rel=AGREE_RTOL)


def test_eq6_p2_at_most_twice_p1():
    """XLL21 eq. (6): OPT_P2 <= 2 OPT_P1, on 30 random tiny instances."""
    rng = np.random.default_rng(6)
    for _ in range(30):
        jobs, machines = random_tiny(rng)
        k = float(rng.choice([1.0, 2.0, 3.0]))
        p1 = p1_optimum(jobs, machines, k).value
        p2 = p2_optimum(jobs, machines, k).value
        assert p2 <= 2 * p1 * (1 + 1e-9)


def test_relaxations_are_ordered():
    """LP <= integer <= memory MILP; the first two are equal (the pooled P2 matrix is a
    transportation matrix), and memory that never binds changes nothing."""
    rng = np.random.default_rng(3)
    for _ in range(5):
        jobs, _ = random_tiny(rng, n_max=3, p_max=2, d_max=3)
        m = rng.integers(1, 4, jobs.n)
        jobs2 = jobs_of(jobs.arrival, jobs.processing, jobs.demand[:, 0], m=m)
        roomy = Machines([[3, 100], [2, 100]])
        tight = Machines([[3, 3], [2, 3]])
        H = offline_horizon(jobs2, roomy, memory=False) + 2  # long enough for both
        lp = p2_optimum(jobs2, roomy, 2, integer=False, horizon=H).value
        ip = p2_optimum(jobs2, roomy, 2, integer=True, horizon=H).value
        mem = p2_optimum(jobs2, roomy, 2, memory=True, horizon=H).value
        assert lp == pytest.approx(ip, rel=AGREE_RTOL)
        assert mem == pytest.approx(ip, rel=AGREE_RTOL)
        assert p2_optimum(jobs2, tight, 2, memory=True).value >= ip * (1 - AGREE_RTOL)
        p1 = p1_optimum(jobs2, roomy, 2, horizon=H).value
        assert p1_optimum(jobs2, roomy, 2, memory=True, horizon=H).value == pytest.approx(p1)


@pytest.mark.parametrize("which", ["p2-lp", "p2-int", "p1", "p1-memory"])
def test_methods_agree(which):
    rng = np.random.default_rng(5)
    for _ in range(3):
        jobs, machines = random_tiny(rng)
        if which == "p1-memory":
            jobs = jobs_of(jobs.arrival, jobs.processing, jobs.demand[:, 0],
                           m=rng.integers(1, 3, jobs.n))
            machines = Machines([[machines.capacity[0, 0], 3]])
        vals = []
        for method in METHODS:
            if which.startswith("p2"):
                r = p2_optimum(jobs, machines, 2, integer=which == "p2-int", method=method)
            else:
                r = p1_optimum(jobs, machines, 2, memory=which == "p1-memory", method=method,
                               horizon=offline_horizon(jobs, machines) + 3)
            assert r.method == method
            vals.append(r.value)
        assert vals[0] == pytest.approx(vals[1], rel=AGREE_RTOL)


def test_p2_lp_duals():
    """The P2 LP's slot prices are shadow prices (both methods): the optimum V(b) is
    convex in a row's bound b, so each dual lies between the one-sided slopes of V (equal
    where the LP is not degenerate). Checked for every slot of the two-job instance."""
    jobs, machines = jobs_of([0, 1], [3, 1], [2, 2]), Machines([[2]])
    prog = p2_program(jobs, machines, 1)
    base = solve(prog).value
    rows = prog.rows["capacity"]
    h = 1e-3

    def value_with(r, delta):
        up = prog.row_upper.copy()
        up[r] += delta
        return solve(type(prog)(prog.c, prog.A, prog.row_lower, up, prog.col_lower,
                                prog.col_upper, prog.integrality, prog.variables, prog.rows,
                                prog.constant, prog.sense)).value

    duals = {m: solve(prog, method=m).duals for m in METHODS}
    for s, r in enumerate(rows):
        left = (base - value_with(r, -h)) / h
        right = (value_with(r, h) - base) / h
        for method in METHODS:
            y = duals[method]["capacity"][s]
            assert left - 1e-5 <= y <= right + 1e-5, (method, s, left, y, right)
    # slot 2: one more core lets A leave slot 4 for slot 2, saving (4/3 - 2/3) / 2 per core
    assert (value_with(rows[1], h) - base) / h == pytest.approx(-1 / 3)


# ------------------------------------------------------------------ the horizon


def test_horizon_formula_and_longer_horizons_change_nothing():
    rng = np.random.default_rng(8)
    for _ in range(6):
        jobs, machines = random_tiny(rng)
        a, p, d = jobs.arrival, jobs.processing, jobs.demand[:, 0]
        C = machines.capacity[:, 0].sum()
        H = offline_horizon(jobs, machines, memory=False)
        assert H == a.max() + math.ceil((p * d).sum() / C) + p.max()
        for opt in (p1_optimum, p2_optimum):
            r = opt(jobs, machines, 2)
            longer = opt(jobs, machines, 2, horizon=H + 6)
            assert longer.value == pytest.approx(r.value, rel=AGREE_RTOL)
            assert r.extra["completion"].max() <= H
            assert np.all(longer.solution["y"][:, H:] < 1e-6)
    jobs = jobs_of([1, 4], [2, 3], [1, 2], m=[1, 1])
    assert offline_horizon(jobs, Machines([[2, 2]]), memory=True) == 4 + (2 + 6) + 3


def test_horizon_too_short_is_refused_not_answered():
    """Two 2-core jobs of 2 slots on one 2-core machine cannot share: the last busy slot
    is 4 in every schedule. Horizon 3 passes the cheap check (3 >= a + p = 2) and the
    programs are infeasible; horizon 1 fails the cheap check."""
    jobs, machines = jobs_of([0, 0], [2, 2], [2, 2]), Machines([[2]])
    assert p1_optimum(jobs, machines, 1).extra["completion"].max() == 4
    for method in METHODS:
        for opt in (p1_optimum, p2_optimum):
            with pytest.raises(ProgramError, match="horizon of 3 slots is too short"):
                opt(jobs, machines, 1, horizon=3, method=method)
    with pytest.raises(ValueError, match="horizon too short"):
        p2_optimum(jobs, machines, 1, horizon=1)
    with pytest.raises(ValueError, match="horizon too short"):
        p1_program(jobs, machines, 1, horizon=1)


def test_horizon_one_short_changes_the_answer():
    """X (a=0, p=1), Y (a=2, p=1), Z (a=2, p=3), 3 cores each, one 4-core machine. The P1
    optimum (k=2) ends in slot 6: X in slot 1, Y in slot 3, Z in slots 3..6 (flowtimes
    1, 1, 4: 18). To end by slot 5, Y and Z must share slots 3..5 (12 core-units in 12),
    so Y cannot finish in slot 3: the best is 1 + 9 + 9 = 19, a different answer."""
    jobs, machines = jobs_of([0, 2, 2], [1, 1, 3], [3, 3, 3]), Machines([[4]])
    r = p1_optimum(jobs, machines, 2)
    assert r.value == pytest.approx(18)
    assert r.extra["completion"].tolist() == [1, 3, 6]
    short = p1_optimum(jobs, machines, 2, horizon=5)
    assert short.value == pytest.approx(19)
    assert short.extra["completion"].tolist() == [1, 5, 5]


# ------------------------------------------------------------------ the programs


def test_p1_program_form():
    """Objective: sum_j sum_t ((t-a_j)^k - (t-1-a_j)^k)(1 - e_j(t-1)) with the constant
    sum_j (H - a_j)^k; e_j(H) fixed at 1; no variable before a job's arrival."""
    jobs, machines = jobs_of([0, 2], [1, 2], [1, 1]), Machines([[1]])
    prog = p1_program(jobs, machines, 2, horizon=6)
    assert prog.constant == 6 ** 2 + 4 ** 2
    e = prog.variables["e"]
    assert e[1, :2].tolist() == [-1, -1] and (e[1, 2:] >= 0).all()
    assert prog.col_lower[e[0, 5]] == prog.col_upper[e[0, 5]] == 1
    # e_0(1) pays -((2)^2 - 1^2) = -3
    assert prog.c[e[0, 0]] == -3
    assert prog.is_mip and prog.sense == "minimize"
    assert "P1" in repr(prog)


def test_result_fields_and_json():
    jobs, machines = EX1
    r = p2_optimum(jobs, machines, 2)
    H = r.extra["horizon"]
    assert r.solution["y"].shape == (3, H) and r.solution["u"].shape == (3, H)
    assert set(r.duals) == {"capacity", "volume"}
    d = r.as_dict()
    json.dumps(d)
    assert d["status"] == "optimal" and d["extra"]["completion"][2] == 6
    assert "ProgramResult(status='optimal'" in repr(r)
    r1 = p1_optimum(jobs, machines, 2)
    assert r1.duals is None
    json.dumps(r1.as_dict())


def test_time_limit_returns_incumbent_with_dual_bound():
    """A loaded 40-job P1 is not proven in 0.3 s: the incumbent comes back with HiGHS's
    dual bound (or, if none was found yet, ProgramError naming the limit)."""
    rng = np.random.default_rng(0)
    n = 40
    jobs = jobs_of(np.sort(rng.integers(0, 10, n)), rng.integers(1, 6, n),
                   rng.integers(1, 5, n))
    try:
        r = p1_optimum(jobs, Machines([[8], [8]]), 2, time_limit=0.3)
    except ProgramError as e:
        assert "limit" in str(e) or "Time" in str(e)
        return
    assert r.status in ("time_limit", "optimal")
    assert r.lower <= r.value == r.upper
    if r.status == "time_limit":
        assert r.lower < r.upper


def test_program_errors():
    """Infeasible and unbounded programs raise with the solver's status, never a zero."""
    B = ProgramBuilder("infeasible")
    x = B.add_variables("x", (2,), upper=1.0, cost=1.0)
    row = B.add_rows("sum", (), lower=3.0)
    B.add_terms(row, x)
    prog = B.build()
    for method in METHODS:
        with pytest.raises(ProgramError, match="(?i)infeasible"):
            solve(prog, method=method)
    B = ProgramBuilder("unbounded")
    B.add_variables("x", (1,), lower=-np.inf, cost=1.0)
    for method in METHODS:
        with pytest.raises(ProgramError, match="(?i)unbounded"):
            solve(B.build(), method=method)
    with pytest.raises(ValueError, match="method"):
        solve(prog, method="glpk")
    with pytest.raises(ValueError, match="time_limit"):
        solve(prog, time_limit=-1)


# ------------------------------------------------------------------ budgets, inputs


def test_budget_refuses_before_building():
    jobs, machines = EX1
    for build in (p1_program, p2_program, p2_optimum, p1_optimum):
        with pytest.raises(BudgetExceeded, match="max_variables") as info:
            build(jobs, machines, 2, max_variables=10)
        assert info.value.option == "max_variables"
    # a horizon of 10^12 slots is refused by the estimate, not by an allocation
    with pytest.raises(BudgetExceeded, match="variables"):
        p2_program(jobs, machines, 2, horizon=10**12)


@pytest.mark.parametrize("k", [0.5, float("nan"), float("inf"), "2", True])
def test_bad_k(k):
    jobs, machines = EX1
    with pytest.raises(ValueError, match="k must be"):
        p2_program(jobs, machines, k)
    with pytest.raises(ValueError, match="k must be"):
        p1_optimum(jobs, machines, k)


def test_bad_inputs():
    machines = Machines([[4]])
    with pytest.raises(ValueError, match="integer processing"):
        p2_program(JobSet([0], [1.5], [[2]]), machines, 2)
    with pytest.raises(ValueError, match="integer arrival"):
        p1_program(JobSet([0.5], [1], [[2]]), machines, 2)
    with pytest.raises(ValueError, match="fits no machine"):
        p2_program(jobs_of([0], [1], [5]), machines, 2)
    with pytest.raises(ValueError, match="d_j >= 1 core"):
        p2_program(jobs_of([0], [1], [0], m=[1]), Machines([[4, 4]]), 2, memory=True)
    with pytest.raises(ValueError, match="integer capacities"):
        p2_program(jobs_of([0], [1], [1]), Machines([[2.5]]), 2)
    with pytest.raises(ValueError, match="two resources"):
        p2_program(jobs_of([0], [1], [1]), machines, 2, memory=True)
    with pytest.raises(ValueError, match="fits no machine"):
        p1_program(jobs_of([0], [1], [1], m=[9]), Machines([[4, 8]]), 2, memory=True)
    for bad in (2.5, 0, -3, "10", True):
        with pytest.raises(ValueError, match="horizon"):
            p2_program(jobs_of([0], [1], [1]), machines, 2, horizon=bad)
    with pytest.raises(ValueError, match="JobSet"):
        p2_program([[0, 1, 1]], machines, 2)


def test_optimum_lower_bound_is_a_plain_float_for_both_programs():
    from capacity import optimum_lower_bound
    from theory import JobSet

    jobs = JobSet([0, 1], [2, 3], [[1], [1]])
    assert {type(optimum_lower_bound(jobs, 2, program=p)) for p in ("P1", "P2")} == {float}
