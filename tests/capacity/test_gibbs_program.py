"""capacity.gibbs_program: PG18 Lemma 2's program (12) in cvxpy against its closed form
log-sum-exp (eq. (13)), its objective (10), its input checks and its refusals."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
from scipy.special import logsumexp, softmax

from capacity.gibbs_program import (
    EXP_CONE_SOLVERS,
    gibbs_closed_form,
    gibbs_objective,
    solve_gibbs_program,
)
from capacity.programs import ProgramError


def _instance(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random weights W on n states and a random normalised log reference."""
    rng = np.random.default_rng(seed)
    W = rng.uniform(0.0, 10.0, n)
    lr = 3.0 * rng.normal(size=n)
    return W, lr - logsumexp(lr)


@pytest.mark.parametrize(("seed", "n"), [(1, 20), (2, 100), (3, 300)])
def test_optimum_is_the_closed_form_and_p_is_the_gibbs_law(seed, n):
    """max F = logsumexp(W + log phi^0) to 1e-6 relative; argmax within TV 1e-4 of
    softmax(W + log phi^0) (eq. (13))."""
    W, lr = _instance(seed, n)
    closed = gibbs_closed_form(W, lr)
    assert closed == pytest.approx(float(logsumexp(W + lr)), rel=1e-15)
    res = solve_gibbs_program(W, lr)
    assert res.status == "optimal" and "CLARABEL" in res.solver
    assert abs(res.value - closed) <= 1e-6 * max(1.0, abs(closed))
    assert abs(res.value_at_p - closed) <= 1e-6 * max(1.0, abs(closed))
    assert res.tv_distance(softmax(W + lr)) <= 1e-4
    assert res.p.shape == (n,) and res.p.min() >= 0 and res.p.sum() == pytest.approx(1.0)
    assert res.as_dict()["states"] == n


def test_tiny_reference_probabilities_cost_no_accuracy():
    """phi^0 = (1e-40, 1 - 1e-40) with W = (100, 0): the optimum puts mass e^100 1e-40 / Z
    on state 0 (about 0.9996), found from the log reference."""
    lr = np.array([math.log(1e-40), math.log1p(-1e-40)])
    W = np.array([100.0, 0.0])
    res = solve_gibbs_program(W, lr)
    want = softmax(W + lr)
    assert 0.999 < want[0] < 1.0
    assert res.tv_distance(want) <= 1e-4
    assert res.value == pytest.approx(gibbs_closed_form(W, lr), rel=1e-6)


def test_objective_by_hand_and_below_the_optimum_elsewhere():
    """F(p) = E_p W - KL(p || phi^0): on two states, F(delta_0) = -log 2 for W = (0, 1) and
    phi^0 uniform; F at the Gibbs law is the closed form, and lower at point masses,
    uniform and phi^0 itself."""
    half = np.log([0.5, 0.5])
    assert gibbs_objective([1.0, 0.0], [0.0, 1.0], half) == pytest.approx(-math.log(2))
    assert gibbs_objective([0.0, 1.0], [0.0, 1.0], half) == pytest.approx(1 - math.log(2))
    assert gibbs_closed_form([0.0, 1.0], half) == pytest.approx(math.log((1 + math.e) / 2))
    W, lr = _instance(5, 40)
    best = gibbs_closed_form(W, lr)
    assert gibbs_objective(softmax(W + lr), W, lr) == pytest.approx(best, abs=1e-12)
    others = [np.full(40, 1 / 40), np.exp(lr)] + [np.eye(40)[i] for i in range(40)]
    for q in others:
        assert gibbs_objective(q, W, lr) < best - 1e-6
    # at the point mass on the max-weight state F = max W + log phi^0(k*) (Cor. 1's proof)
    k = int(np.argmax(W))
    assert gibbs_objective(np.eye(40)[k], W, lr) == pytest.approx(W[k] + lr[k])


W3 = np.array([1.0, 2.0, 3.0])
REF3 = np.log(np.full(3, 1 / 3))


@pytest.mark.parametrize(("kwargs", "match"), [
    (dict(W=W3, log_reference=np.zeros(3)), "normalised log-distribution"),
    (dict(W=W3, log_reference=np.log([0.5, 0.25, 0.2])), "normalised"),
    (dict(W=[1.0, np.nan, 3.0], log_reference=REF3), "W must be finite"),
    (dict(W=W3, log_reference=[0.0, -np.inf, -np.inf]), "full support"),
    (dict(W=W3, log_reference=np.log([0.5, 0.5])), r"shape \(3,\)"),
    (dict(W=[], log_reference=[]), "non-empty"),
    (dict(W=np.ones((3, 1)), log_reference=REF3), "non-empty vector"),
    (dict(W=W3, log_reference=REF3, solver="NOSUCHSOLVER"), "no exponential cone"),
    (dict(W=W3, log_reference=REF3, solver="OSQP"), "no exponential cone"),
])
def test_bad_inputs_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        solve_gibbs_program(**kwargs)


def test_objective_and_closed_form_check_their_inputs():
    with pytest.raises(ValueError, match="normalised"):
        gibbs_closed_form(W3, np.zeros(3))
    with pytest.raises(ValueError, match="distribution"):
        gibbs_objective([0.5, 0.6, 0.0], W3, REF3)
    with pytest.raises(ValueError, match="distribution"):
        gibbs_objective([1.5, -0.5, 0.0], W3, REF3)
    with pytest.raises(ValueError, match="distribution"):
        gibbs_objective([0.5, 0.5], W3, REF3)


def test_an_uninstalled_exp_cone_solver_is_refused():
    missing = [s for s in EXP_CONE_SOLVERS if s not in cp.installed_solvers()]
    if not missing:
        pytest.skip("every exponential-cone solver is installed")
    with pytest.raises(ValueError, match="not installed"):
        solve_gibbs_program(W3, REF3, solver=missing[0])


def test_no_exp_cone_solver_installed_raises_program_error(monkeypatch):
    monkeypatch.setattr(cp, "installed_solvers", lambda: ["OSQP", "HIGHS"])
    with pytest.raises(ProgramError) as e:
        solve_gibbs_program(W3, REF3)
    assert e.value.status == "no_solver"


@pytest.mark.parametrize(("solver", "options", "status"), [
    ("CLARABEL", {"max_iter": 1}, "user_limit"),
    ("SCS", {"max_iters": 1}, "optimal_inaccurate"),
])
def test_an_iteration_limit_is_refused(solver, options, status):
    W, lr = _instance(1, 20)
    with pytest.raises(ProgramError, match="no accurate solution") as e:
        solve_gibbs_program(W, lr, solver=solver, solver_options=options)
    assert e.value.status == status


def test_infeasible_status_and_solver_errors_are_refused(monkeypatch):
    def infeasible(self, *args, **kwargs):
        self._status = cp.INFEASIBLE

    monkeypatch.setattr(cp.Problem, "solve", infeasible)
    with pytest.raises(ProgramError) as e:
        solve_gibbs_program(W3, REF3)
    assert e.value.status == "infeasible"

    def crash(self, *args, **kwargs):
        raise cp.error.SolverError("boom")

    monkeypatch.setattr(cp.Problem, "solve", crash)
    with pytest.raises(ProgramError, match="boom") as e:
        solve_gibbs_program(W3, REF3)
    assert e.value.status == "solver_error"


def test_an_answer_off_the_simplex_is_refused(monkeypatch):
    """A solver claiming 'optimal' for p summing to 2 is not believed."""
    def off_simplex(self, *args, **kwargs):
        (p,) = self.variables()
        p.value = np.full(p.shape, 2.0 / p.shape[0])
        self._status = cp.OPTIMAL

    monkeypatch.setattr(cp.Problem, "solve", off_simplex)
    with pytest.raises(ProgramError, match="leaves the simplex") as e:
        solve_gibbs_program(W3, REF3)
    assert e.value.status == "infeasible_answer"


def test_tv_distance_checks_the_shape():
    res = solve_gibbs_program(W3, REF3)
    assert res.tv_distance(softmax(W3 + REF3)) <= 1e-4
    assert res.tv_distance(np.array([1.0, 0.0, 0.0])) > 0.5
    with pytest.raises(ValueError, match="shape"):
        res.tv_distance([0.5, 0.5])
