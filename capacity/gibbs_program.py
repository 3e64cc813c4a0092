"""PG18 Lemma 2 (Sec. V, eqs. (10)-(12)): the Gibbs variational problem in cvxpy.

Over distributions p on the configurations K,

.. math::
    \\max_{p \\in \\Xi_K} F(p) = \\sum_k p_k W(k) - D_{KL}(p \\| \\phi^0),
    \\qquad W(k) = \\sum_{j,l} w_j k_j^l,

is solved by ``phi^w`` of eq. (9) (Lemma 2, eq. (13)), with optimum
``F(phi^w) = log Z^w - log Z^0`` (:func:`gibbs_closed_form`). The program is written as
``sum_k p_k (W(k) + log phi^0(k)) + sum_k entr(p_k)`` (``-D_KL(p || phi^0)`` expanded; the
log reference, not phi^0 itself, enters the objective, so reference probabilities of
1e-40 cost no accuracy), an exponential-cone program. Anything but an ``optimal``
status raises :class:`capacity.programs.ProgramError`, as the repo's other programs do.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import logsumexp

from capacity.programs import ProgramError

__all__ = ["EXP_CONE_SOLVERS", "SOLVER_DEFAULTS", "GibbsResult", "gibbs_objective",
           "gibbs_closed_form", "solve_gibbs_program"]

#: cvxpy solvers with exponential cones, in the order tried when none is named.
EXP_CONE_SOLVERS = ("CLARABEL", "SCS", "ECOS", "MOSEK")
#: The returned p may leave the simplex by at most this (then it is projected back).
SIMPLEX_TOL = 1e-6
#: Default solver settings: the optimal p is accurate only to about the square root of
#: the duality gap (F is strongly concave), so the gap tolerances are tightened from
#: Clarabel's 1e-8; at 1e-10 Clarabel sometimes stops "inaccurate" (refused below).
SOLVER_DEFAULTS: dict[str, dict[str, Any]] = {
    "CLARABEL": {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9},
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
}


@dataclass(frozen=True)
class GibbsResult:
    """Answer of :func:`solve_gibbs_program`: ``value`` is the solver's optimum of F,
    ``p`` the optimal distribution (clipped at 0 and renormalised), ``value_at_p`` F at
    that ``p`` recomputed in float64."""

    status: str
    value: float
    p: np.ndarray
    solver: str
    value_at_p: float
    seconds: float

    def tv_distance(self, q: object) -> float:
        """Total variation ``1/2 sum |p - q|`` to another distribution on the same K."""
        qa = np.asarray(q, dtype=float)
        if qa.shape != self.p.shape:
            raise ValueError(f"q must have shape {self.p.shape}, got {qa.shape}")
        return 0.5 * float(np.abs(self.p - qa).sum())

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "value": self.value, "value_at_p": self.value_at_p,
                "solver": self.solver, "seconds": self.seconds, "states": int(self.p.size)}


def _inputs(W: object, log_reference: object) -> tuple[np.ndarray, np.ndarray]:
    w = np.asarray(W, dtype=float)
    lr = np.asarray(log_reference, dtype=float)
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"W must be a non-empty vector (one weight per state), got shape "
                         f"{w.shape}")
    if lr.shape != w.shape:
        raise ValueError(f"log_reference must have shape {w.shape}, got {lr.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("W must be finite")
    if not np.all(np.isfinite(lr)):
        raise ValueError("log_reference must be finite (a reference measure with full "
                         "support on the states)")
    if abs(float(logsumexp(lr))) > 1e-9:
        raise ValueError(f"log_reference must be a normalised log-distribution (its "
                         f"logsumexp is {float(logsumexp(lr)):.3g}, not 0)")
    return w, lr


def gibbs_objective(p: object, W: object, log_reference: object) -> float:
    """``F(p) = E_p[W] - D_KL(p || phi^0)`` of PG18 eq. (10) (0 log 0 = 0)."""
    w, lr = _inputs(W, log_reference)
    pa = np.asarray(p, dtype=float)
    if pa.shape != w.shape or np.any(pa < 0) or not np.isclose(pa.sum(), 1.0, atol=1e-9):
        raise ValueError("p must be a distribution on the same states as W")
    nz = pa > 0
    return float(pa @ w - np.sum(pa[nz] * (np.log(pa[nz]) - lr[nz])))


def gibbs_closed_form(W: object, log_reference: object) -> float:
    """``max F = F(phi^w) = log Z^w - log Z^0`` (PG18 Lemma 2 with (9) and (11)): with
    ``log_reference = log phi^0`` normalised, ``logsumexp(W + log phi^0)``."""
    w, lr = _inputs(W, log_reference)
    return float(logsumexp(w + lr))


def _pick_solver(solver: str | None) -> str:
    import cvxpy as cp

    installed = set(cp.installed_solvers())
    if solver is not None:
        name = str(solver).upper()
        if name not in EXP_CONE_SOLVERS:
            raise ValueError(f"solver {solver!r} has no exponential cone; use one of "
                             f"{EXP_CONE_SOLVERS}")
        if name not in installed:
            raise ValueError(f"solver {name} is not installed (cvxpy has "
                             f"{sorted(installed)})")
        return name
    for name in EXP_CONE_SOLVERS:
        if name in installed:
            return name
    raise ProgramError(f"no cvxpy solver with exponential cones is installed (need one of "
                       f"{EXP_CONE_SOLVERS}, cvxpy has {sorted(installed)})", "no_solver")


def solve_gibbs_program(W: object, log_reference: object, *, solver: str | None = None,
                        solver_options: dict[str, Any] | None = None) -> GibbsResult:
    """Solve PG18 (12): ``max_p sum_k p_k W(k) - D_KL(p || phi^0)`` over the simplex.

    ``W``: the weights ``W(k)`` of the states; ``log_reference``: ``log phi^0(k)`` (eq.
    (11), e.g. :func:`theory.rms_chain.log_phi0`), normalised. ``solver``: a cvxpy
    solver with exponential cones (default: the first installed of
    :data:`EXP_CONE_SOLVERS`), run with :data:`SOLVER_DEFAULTS` updated by
    ``solver_options``. Raises :class:`ProgramError` unless the status is
    ``optimal`` (an ``optimal_inaccurate`` answer is refused too) or if the answer
    leaves the simplex by more than :data:`SIMPLEX_TOL`.
    """
    import cvxpy as cp

    w, lr = _inputs(W, log_reference)
    name = _pick_solver(solver)
    t0 = time.perf_counter()
    p = cp.Variable(w.size, nonneg=True)
    prob = cp.Problem(cp.Maximize((w + lr) @ p + cp.sum(cp.entr(p))), [cp.sum(p) == 1])
    opts = {**SOLVER_DEFAULTS.get(name, {}), **(solver_options or {})}
    try:
        with warnings.catch_warnings():
            # cvxpy warns "Solution may be inaccurate"; the status is refused below
            warnings.filterwarnings("ignore", message="Solution may be inaccurate",
                                    category=UserWarning)
            prob.solve(solver=name, **opts)
    except cp.error.SolverError as e:
        raise ProgramError(f"Gibbs program (PG18 (12)): solver {name} failed: {e}",
                           "solver_error") from None
    label = f"cvxpy {cp.__version__} / {name}"
    if prob.status != cp.OPTIMAL or p.value is None:
        raise ProgramError(f"Gibbs program (PG18 (12)): no accurate solution (cvxpy status "
                           f"{prob.status}, {label})", str(prob.status))
    pv = np.asarray(p.value, dtype=float).ravel()
    off = max(float(-pv.min()), abs(float(pv.sum()) - 1.0))
    if not np.all(np.isfinite(pv)) or off > SIMPLEX_TOL:
        raise ProgramError(f"Gibbs program (PG18 (12)): the solution leaves the simplex by "
                           f"{off:.3g} (> {SIMPLEX_TOL:g}; {label})", "infeasible_answer")
    pv = np.clip(pv, 0.0, None)
    pv /= pv.sum()
    return GibbsResult(status="optimal", value=float(prob.value), p=pv, solver=label,
                       value_at_p=gibbs_objective(pv, w, lr),
                       seconds=time.perf_counter() - t0)
