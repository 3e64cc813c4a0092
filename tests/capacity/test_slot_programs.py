"""XLL21's per-slot programs (capacity.slot_programs): P3 (eq. (9)), its z = 1 LP (Lemma 1,
eq. (22)), the switching-cost QP (eqs. (31)-(32)) and the transient local LP
(eqs. (38a)-(38d), Lemma 2), against literal greedy references and hand-derived optima."""

import json

import numpy as np
import pytest

from capacity.programs import ProgramError
from capacity.slot_programs import (
    p3_optimum,
    p3_program,
    switching_cost_program,
    transient_local_program,
)

METHODS = ("highs", "cvxpy")
#: the methods, and the QP against the LP, agree to this relative tolerance
AGREE_RTOL = 1e-6


def fractional_knapsack(coeff, d, C, rem=None):
    """Reference for P3 with z = 1 relaxed: minimise sum_j coeff_j y_j s.t.
    sum_j d_j y_j <= C, 0 <= y_j <= min(1, rem_j): jobs with coeff_j < 0 in increasing
    coeff_j / d_j, each as much as fits."""
    cap = np.ones(len(coeff)) if rem is None else np.minimum(1.0, rem)
    left, value = float(C), 0.0
    for j in sorted(range(len(coeff)), key=lambda j: coeff[j] / d[j]):
        if coeff[j] >= 0 or left <= 0:
            break
        y = min(cap[j], left / d[j])
        value += coeff[j] * y
        left -= d[j] * y
    return value


def smallest_volume_first(p, rem, d, C):
    """Reference for (38): maximise sum_j y_j / p_j s.t. sum_j d_j y_j <= C,
    0 <= y_j <= min(1, p_j(t)): increasing p_j d_j (value 1/(p_j d_j) per core)."""
    left, value = float(C), 0.0
    for j in sorted(range(len(p)), key=lambda j: p[j] * d[j]):
        y = min(1.0, rem[j], left / d[j])
        value += y / p[j]
        left -= d[j] * y
    return value


def random_slot(rng, n=6, machines=3):
    coeff = rng.normal(0, 5, n)
    d = rng.integers(1, 6, n).astype(float)
    m = rng.integers(1, 5, n).astype(float)
    C = rng.integers(3, 9, machines).astype(float)
    return coeff, d, m, C


# ------------------------------------------------------------------ P3, z = 1


@pytest.mark.parametrize("method", METHODS)
def test_p3_pooled_lp_is_the_fractional_knapsack(method):
    rng = np.random.default_rng(1)
    for _ in range(15):
        coeff, d, _, C = random_slot(rng)
        rem = rng.uniform(0, 2, len(coeff)) if rng.random() < 0.5 else None
        r = p3_optimum(coeff, d, None, C, None, remaining=rem, use_memory=False,
                       integer=False, method=method)
        want = fractional_knapsack(coeff, d, C.sum(), rem)
        assert r.value == pytest.approx(want, rel=AGREE_RTOL, abs=1e-9)
        y = r.solution["y"]
        assert d @ y <= C.sum() + 1e-7 and np.all(y <= 1 + 1e-9) and np.all(y >= -1e-9)
        assert r.duals is not None and set(r.duals) >= {"capacity"}


def test_p3_lp_duals_by_hand():
    """coeff (-6, -4, -1), 2 cores each, C = 3: job 0 whole, job 1 on the last core
    (omega = coeff/d = -3, -2, -1/2): value -6 - 2 = -8 and one more core is worth
    omega of the marginal job, -2 (shadow price of the capacity row)."""
    for method in METHODS:
        r = p3_optimum([-6, -4, -1], [2, 2, 2], None, [1, 2], None, use_memory=False,
                       integer=False, method=method)
        assert r.value == pytest.approx(-8)
        assert r.solution["y"] == pytest.approx([1, 0.5, 0], abs=1e-7)
        assert float(r.duals["capacity"]) == pytest.approx(-2, rel=AGREE_RTOL)
    # with C = 4 and job 0 capped at half a slot (1 core), job 2 is the marginal job;
    # the "remaining" rows are in cores (sum_i u_j^i <= d_j p_j(t)): one more core of
    # job 0's time is worth -3 - (-1/2)
    r = p3_optimum([-6, -4, -1], [2, 2, 2], None, [2, 2], None, remaining=[0.5, 1, 1],
                   use_memory=False, integer=False)
    assert r.value == pytest.approx(-3 - 4 - 0.5)  # job 0 half, job 1 whole, job 2 half
    assert float(r.duals["capacity"]) == pytest.approx(-0.5)
    assert r.duals["remaining"] == pytest.approx([-2.5, 0, 0], abs=1e-7)


def test_p3_integer_and_lp():
    """Pooled with integer data the LP has an integer optimum (greedy fills whole cores);
    a remaining time that is no multiple of 1/d_j separates them: 0.3 slots of a 2-core
    job is 0.6 cores, none in integers."""
    rng = np.random.default_rng(2)
    for _ in range(10):
        coeff, d, _, C = random_slot(rng)
        lp = p3_optimum(coeff, d, None, C, None, use_memory=False, integer=False).value
        ip = p3_optimum(coeff, d, None, C, None, use_memory=False, integer=True)
        assert ip.value == pytest.approx(lp, rel=AGREE_RTOL, abs=1e-9)
        assert np.allclose(ip.solution["u"], np.round(ip.solution["u"]))
        assert ip.duals is None
    lp = p3_optimum([-4], [2], None, [4], None, remaining=[0.3], use_memory=False,
                    integer=False)
    ip = p3_optimum([-4], [2], None, [4], None, remaining=[0.3], use_memory=False)
    assert (lp.value, ip.value) == (pytest.approx(-1.2), 0)


# ------------------------------------------------------------------ P3 with memory


def test_p3_memory_is_a_knapsack():
    """One machine (10 cores, memory 5), coeff (-10, -6, -6), 2 cores each, memory
    (5, 3, 2): job 0 alone gives -10, jobs 1 and 2 together -12 (the optimum)."""
    for method in METHODS:
        r = p3_optimum([-10, -6, -6], [2, 2, 2], [5, 3, 2], [10], [5], method=method)
        assert r.value == pytest.approx(-12)
        assert r.solution["z"][:, 0].tolist() == [0, 1, 1]
        assert r.solution["x"].shape == (3, 1)
        assert r.solution["y"] == pytest.approx([0, 1, 1])


def test_p3_positive_coefficients_are_never_paid():
    """u <= min(d, C_i) z makes x z = x: a job with coeff > 0 gets nothing."""
    r = p3_optimum([3, -1], [1, 1], [1, 1], [4], [4])
    assert r.value == pytest.approx(-1)
    assert r.solution["y"].tolist() == [0, 1]


def test_p3_memory_orders_with_pooled():
    """Per machine with memory >= pooled integer; equal when memory never binds (integer
    cores split across machines) also with M_i = inf; the methods agree."""
    rng = np.random.default_rng(4)
    for _ in range(8):
        coeff, d, m, C = random_slot(rng)
        rem = rng.uniform(0, 2, len(coeff))
        pooled = p3_optimum(coeff, d, None, C, None, remaining=rem, use_memory=False).value
        roomy = p3_optimum(coeff, d, m, C, np.full(len(C), 1e6), remaining=rem).value
        infinite = p3_optimum(coeff, d, m, C, np.full(len(C), np.inf), remaining=rem).value
        assert roomy == pytest.approx(pooled, rel=AGREE_RTOL, abs=1e-9)
        assert infinite == pytest.approx(pooled, rel=AGREE_RTOL, abs=1e-9)
        Mi = rng.integers(2, 6, len(C)).astype(float)
        vals = [p3_optimum(coeff, d, m, C, Mi, remaining=rem, method=meth)
                for meth in METHODS]
        assert vals[0].value >= pooled - 1e-9
        assert vals[0].value == pytest.approx(vals[1].value, rel=AGREE_RTOL, abs=1e-9)
        x, z = vals[0].solution["x"], vals[0].solution["z"]
        assert np.all(d @ x <= C + 1e-9) and np.all(m @ z <= Mi + 1e-9)
        assert np.all(x.sum(axis=1) <= np.minimum(1, rem) + 1e-9)
        assert np.all(x <= z + 1e-9)


def test_p3_program_form():
    prog = p3_program([-1, -2], [1, 2], [5, 1], [4, 4], [3, 4])
    assert prog.is_mip
    assert prog.variables["u"][0].tolist() == [-1, -1]  # memory 5 fits no machine
    prog = p3_program([-1, -2], [1, 2], [5, 1], [4, 4], [3, np.inf])
    assert prog.variables["u"][0].tolist() == [-1, 0]
    assert prog.rows["memory"].tolist()[1] == -1  # no memory row for M_i = inf
    assert "P3" in repr(prog)


# ------------------------------------------------------------------ switching cost


def test_switching_alpha_zero_is_the_p3_lp():
    rng = np.random.default_rng(7)
    for _ in range(8):
        coeff, d, _, C = random_slot(rng)
        x_prev = rng.uniform(0, 0.3, (len(coeff), len(C)))
        qp = switching_cost_program(coeff, d, C, x_prev, 0.0)
        lp = p3_optimum(coeff, d, None, C, None, use_memory=False, integer=False)
        assert qp.value == pytest.approx(lp.value, rel=AGREE_RTOL, abs=1e-6)
        assert qp.status == "optimal" and qp.duals is None
        x = qp.solution["x"]
        assert np.all(d @ x <= C + 1e-6) and np.all(x.sum(axis=1) <= 1 + 1e-6)


def test_switching_large_alpha_stays_at_x_prev():
    """The objective is separable, coeff_j x + alpha (x - x_prev)^2 per entry, minimised
    at x_prev - coeff_j / (2 alpha); when that point is strictly inside every constraint
    it is the optimum, so x -> x_prev as alpha grows. Job 2 was not present at t - 1
    (eq. (31): t < a_j + 2): no switching cost, it takes its full rate."""
    coeff = np.array([-1.0, 2.0, -3.0])
    d = np.array([1.0, 2.0, 1.0])
    C = np.array([10.0, 10.0])
    x_prev = np.array([[0.3, 0.2], [0.25, 0.25], [0.9, 0.9]])  # row 2 is ignored
    present = np.array([True, True, False])
    for alpha in (10.0, 1e3):
        r = switching_cost_program(coeff, d, C, x_prev, alpha, present_before=present)
        x = r.solution["x"]
        want = x_prev[:2] - coeff[:2, None] / (2 * alpha)
        assert x[:2] == pytest.approx(want, abs=1e-6)
        assert x[2].sum() == pytest.approx(1, abs=1e-6)
        assert r.extra["switching_cost"] == pytest.approx(
            np.sum((want - x_prev[:2]) ** 2), abs=1e-6)
        flow = coeff @ x.sum(axis=1)
        assert r.value == pytest.approx(flow + alpha * r.extra["switching_cost"])


def test_switching_huge_coefficients():
    """The multipliers of eq. (10) grow like t^(k + 1/2): coefficients of 1e9 must still
    solve (the objective is scaled internally), with the LP's answer at alpha = 0 and the
    interior formula x_prev - coeff/(2 alpha) when alpha is larger still."""
    rng = np.random.default_rng(12)
    coeff, d, _, C = random_slot(rng)
    coeff = coeff * 1e9
    x_prev = np.full((len(coeff), len(C)), 0.1)
    qp = switching_cost_program(coeff, d, C, x_prev, 0.0)
    lp = p3_optimum(coeff, d, None, C, None, use_memory=False, integer=False)
    assert qp.value == pytest.approx(lp.value, rel=AGREE_RTOL)
    small = np.array([-1e9, 2e9])
    x_prev = np.array([[0.4, 0.3], [0.2, 0.2]])
    r = switching_cost_program(small, [1, 1], [10, 10], x_prev, 1e11)
    assert r.solution["x"] == pytest.approx(x_prev - small[:, None] / 2e11, abs=1e-6)


def test_switching_empty_slot():
    r = switching_cost_program([], [], [4, 2], np.zeros((0, 2)), 1.0)
    assert r.value == 0 and r.solution["x"].shape == (0, 2)
    json.dumps(r.as_dict())


# ------------------------------------------------------------------ transient (38)


def test_transient_by_hand():
    """p = (3, 1, 2, 5), p(t) = (3, 1/2, 2, 5), d = (2, 3, 1, 4), C = 5. Volumes 6, 3, 2,
    20: job 2 (1 core), job 1 (1.5 cores for its half slot), job 0 (2 cores), job 3 the
    last 0.5 core (y = 1/8): value 1/2 + 1/2 + 1/3 + 1/40. One more core is worth
    1/(p_3 d_3) = 1/20; more time for job 1 is worth 1/p_1 - d_1/20 = 0.85."""
    p, rem, d = [3, 1, 2, 5], [3, 0.5, 2, 5], [2, 3, 1, 4]
    for method in METHODS:
        r = transient_local_program(p, rem, d, 5, method=method)
        assert r.value == pytest.approx(1 / 2 + 1 / 2 + 1 / 3 + 1 / 40)
        assert r.solution["y"] == pytest.approx([1, 0.5, 1, 0.125], abs=1e-7)
        assert float(r.duals["capacity"]) == pytest.approx(0.05, rel=AGREE_RTOL)
        assert r.duals["remaining"] == pytest.approx([0, 0.85, 0, 0], abs=1e-7)


def test_transient_is_smallest_volume_first():
    rng = np.random.default_rng(9)
    for _ in range(10):
        n = 7
        p = rng.integers(1, 9, n).astype(float)
        rem = np.minimum(p, rng.uniform(0, 3, n))
        d = rng.integers(1, 6, n).astype(float)
        C = float(rng.integers(1, 15))
        r = transient_local_program(p, rem, d, C)
        assert r.value == pytest.approx(smallest_volume_first(p, rem, d, C), rel=AGREE_RTOL)


# ------------------------------------------------------------------ inputs


def test_bad_inputs():
    ok = dict(coeff=[-1.0, -2.0], cores=[1, 2], memory=[1, 1], machine_cores=[4],
              machine_memory=[4])

    def p3(**kw):
        args = {**ok, **kw}
        return p3_program(args["coeff"], args["cores"], args["memory"],
                          args["machine_cores"], args["machine_memory"],
                          remaining=args.get("remaining"))

    with pytest.raises(ValueError, match="coeff must be a vector"):
        p3(coeff=[[-1.0, -2.0]])
    with pytest.raises(ValueError, match="cores must be a vector of length 2"):
        p3(cores=[1, 2, 3])
    with pytest.raises(ValueError, match="cores must be > 0"):
        p3(cores=[0, 2])
    with pytest.raises(ValueError, match="whole numbers"):
        p3(cores=[1.5, 2])
    with pytest.raises(ValueError, match="memory must be >= 0"):
        p3(memory=[-1, 1])
    with pytest.raises(ValueError, match="machine_memory must be > 0"):
        p3(machine_memory=[0])
    with pytest.raises(ValueError, match="remaining must be >= 0"):
        p3(remaining=[-0.5, 1])
    with pytest.raises(ValueError, match="coeff must be finite"):
        p3(coeff=[np.nan, 1])
    with pytest.raises(ValueError, match="numbers"):
        p3(coeff=["a", "b"])
    x0 = np.zeros((2, 1))
    for alpha in (-1, float("nan"), float("inf"), True, "1"):
        with pytest.raises(ValueError, match="alpha"):
            switching_cost_program([-1, -2], [1, 2], [4], x0, alpha)
    with pytest.raises(ValueError, match=r"x_prev must have shape \(2, 1\)"):
        switching_cost_program([-1, -2], [1, 2], [4], np.zeros((2, 2)), 1.0)
    with pytest.raises(ValueError, match="x_prev must be finite"):
        switching_cost_program([-1, -2], [1, 2], [4], -np.ones((2, 1)), 1.0)
    with pytest.raises(ValueError, match="present_before"):
        switching_cost_program([-1, -2], [1, 2], [4], x0, 1.0, present_before=[1, 0])
    with pytest.raises(ValueError, match="coeff must be a vector"):
        switching_cost_program(np.zeros((2, 1)), [1, 2], [4], x0, 1.0)
    with pytest.raises(ValueError, match="total_cores"):
        transient_local_program([1], [1], [1], -2)
    with pytest.raises(ValueError, match="processing must be > 0"):
        transient_local_program([0], [1], [1], 2)
    with pytest.raises(ValueError, match="method"):
        p3_optimum([-1], [1], [1], [1], [1], method="gurobi")


def test_solver_failure_is_an_error():
    """An unknown cvxpy solver is a ProgramError, not a zero allocation."""
    with pytest.raises(ProgramError, match="solver"):
        switching_cost_program([-1], [1], [4], np.zeros((1, 1)), 1.0, solver="NO_SUCH")
