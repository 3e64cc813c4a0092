"""The configuration LP behind rho* and capacity regions: solved, then certified.

PG21 eq. (4) (identical servers) and PG18 eqs. (2)-(3) (heterogeneous servers): the
largest ``t`` with ``t d`` inside ``sum_l Conv(K_l)``. Three parts, kept apart as a
modelling library keeps a problem apart from its solvers:

* the model, :class:`capacity.configuration_model.ConfigurationLP`;
* the solver, :func:`capacity.configuration_solver.solve_uncertified` (enumeration or
  column generation over the HiGHS master), which proves nothing;
* the certificate, :func:`capacity.certificate.certify`, which re-checks the solver's
  mixture and prices against the model alone, and the rule
  :func:`capacity.certification.is_certified` that says what the check certifies.

This module joins them: :func:`solve_configuration_lp` and :func:`result_of_mixture`
return a :class:`capacity.result.CapacityResult`. The model's and solver's public
names are re-exported here, where callers have always imported them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from capacity.certificate import certify, exact_optimum
from capacity.certification import is_certified
from capacity.configuration_model import MAX_JOBS_PER_SERVER, ConfigurationLP, lemma2_bound
from capacity.configuration_solver import (
    METHODS,
    IterationLimit,
    UncertifiedSolution,
    solve_uncertified,
)
from capacity.result import CapacityResult, MixtureTerm
from theory.budgets import MAX_CONFIGURATIONS, MAX_LP_TYPES
from theory.numbers import Number

__all__ = ["ConfigurationLP", "IterationLimit", "METHODS", "solve_configuration_lp",
           "result_of_mixture", "lemma2_bound", "MAX_JOBS_PER_SERVER"]


@dataclass(frozen=True)
class _Proof:
    """What the certificate (or the exact rational optimum) proves of an answer."""

    lower: Number
    upper: Number
    checks_passed: bool
    exact_check: bool
    message: str
    dual: np.ndarray
    dual_bound: list[Number]


def _proof(lp: ConfigurationLP, mixture: list[MixtureTerm], y: np.ndarray) -> _Proof:
    """:func:`capacity.certificate.certify` the mixture and prices ``y`` for ``lp``, and
    try :func:`capacity.certificate.exact_optimum`: an exact optimum inside the proven
    interval is proven by its own exact re-check."""
    cert = certify(lp, mixture, y)
    exact_value = exact_optimum(lp, mixture, y)
    if exact_value is not None and cert.lower <= exact_value <= cert.upper:
        return _Proof(exact_value, exact_value, True, True,
                      "exact rational optimum (rational reconstruction, both bounds equal)",
                      cert.dual, cert.dual_bound)
    return _Proof(cert.lower, cert.upper, cert.checks_passed, cert.exact, cert.message,
                  cert.dual, cert.dual_bound)


def result_of_mixture(lp: ConfigurationLP, mixture: list[MixtureTerm], y: np.ndarray, *,
                      how: str, method: str = "column-generation", iterations: int = 0,
                      seconds: float = 0.0, extra: dict | None = None) -> CapacityResult:
    """``lp``'s answer from a mixture and prices found elsewhere, certified as
    :func:`solve_configuration_lp` certifies its own (``how`` opens the message):
    e.g. the optimum of the same types' LP with copy bounds, whose configurations are
    this LP's too. ``value`` is the mixture's proven lower bound; ``certified`` says
    whether the prices bring the upper bound to it. ``seconds``: time already spent on
    the mixture and prices (the proof's own time is added)."""
    t0 = time.perf_counter()
    proof = _proof(lp, mixture, y)
    seconds += time.perf_counter() - t0
    return CapacityResult(
        value=float(proof.lower), lower=proof.lower, upper=proof.upper,
        certified=is_certified(proof.lower, proof.upper, checks_passed=proof.checks_passed),
        exact_check=proof.exact_check, status="optimal", method=method,
        servers=int(sum(lp.counts)), sizes=[r[0] if lp.D == 1 else tuple(r) for r in lp.rows],
        demand=list(lp.demand), mixture=mixture, dual=proof.dual, dual_bound=proof.dual_bound,
        iterations=iterations, columns=len(mixture), seconds=seconds,
        message=f"{how}: {proof.message}", extra={} if extra is None else extra)


def _stop_message(run: UncertifiedSolution, message: str) -> str:
    """The certificate's ``message`` behind what the solver's stop means for it."""
    if run.at_lemma2:
        message = ("column generation stopped at PG21 Lemma 2's bound (prices proportional "
                   "to the sizes): " + message)
    if run.stopped == "target":
        message = (f"column generation stopped at the target {run.target:.10g}: the interval "
                   f"is proven, the optimum is not; " + message)
    elif run.stopped == "time_limit":
        message = ("column generation stopped at the time limit: the interval is proven, the "
                   "optimum is not; " + message)
    elif run.stopped == "pricing_budget":
        message = ("column generation stopped: the pricing search exceeded its budget, so "
                   "the LP optimum is not proven; " + message)
    return message


def solve_configuration_lp(
    lp: ConfigurationLP,
    *,
    method: str = "auto",
    certify_result: bool = True,
    enumerate_limit: int = 20_000,
    max_iterations: int = 100_000,
    max_types: int = MAX_LP_TYPES,
    max_configurations: int = MAX_CONFIGURATIONS,
    warm_start: CapacityResult | None = None,
    target: float | None = None,
    columns: Sequence[tuple[int, np.ndarray]] | None = None,
) -> CapacityResult:
    """Solve ``max t`` of the configuration LP and certify the answer.

    The solver (:func:`capacity.configuration_solver.solve_uncertified`: enumeration of
    the feasible configurations, or column generation over a HiGHS master priced by
    exact knapsacks) proves nothing; :func:`capacity.certify` then re-checks its
    mixture and prices against ``lp`` alone, and for rational data with few types the
    optimum is recovered as an exact Fraction. When the exact pricing search exceeds
    its budget or the time limit (:func:`capacity.time_limit`) passes, the result
    keeps the interval its certificate proves, a message saying so, and is certified
    only as :func:`capacity.certification.is_certified` allows.

    Parameters
    ----------
    lp : ConfigurationLP
        The model (:meth:`ConfigurationLP.build`).
    method : {"auto", "enumerate", "column-generation"}, default "auto"
        ``"auto"`` enumerates when there are at most 8 types and 12 jobs per server
        (and at most ``enumerate_limit`` configurations), else column generation.
    certify_result : bool, default True
        Re-check the answer; False returns the solver's value with
        ``certified=False`` and the message "certificate not requested".
    enumerate_limit : int, default 20000
        Most configurations ``"auto"`` enumerates before it switches to column
        generation.
    max_iterations : int, default 100000
        Most column-generation rounds.
    max_types : int, default MAX_LP_TYPES
        Budget on the job types of the LP (:mod:`theory.budgets`).
    max_configurations : int, default MAX_CONFIGURATIONS
        Budget on the configurations ``method="enumerate"`` may list.
    warm_start : CapacityResult or None, default None
        A solved LP over the same types and server classes, e.g. the same LP without
        copy bounds (column generation only). Its mixture's configurations, capped at
        the copy bounds, seed the master, and its dual prices are the first stability
        centre. It changes the path, never the optimum or the certificate.
    target : float or None, default None
        Stop column generation as soon as the master's mixture alone supports
        ``t >= target`` (a lower bound is all a caller needs, e.g. a bracket with a
        tolerance). The result's interval is still proven, but it is not the optimum:
        ``certified`` is False, ``status`` is ``"target reached"`` and
        ``extra["stopped_at_target"]`` is True.
    columns : sequence of (int, numpy.ndarray) or None, default None
        More starting configurations, ``(server class, counts per type)``, for column
        generation (e.g. the perfect bins of a failed
        :func:`capacity.perfect_bin_decomposition.lp_at_continuous_bound`); each is
        capped at the copy bounds and must fit. Like ``warm_start``, it changes the
        path only.

    Returns
    -------
    CapacityResult
        ``value`` = ``t*``, the proven interval ``[lower, upper]``, ``certified``, the
        mixture and the dual prices.

    Raises
    ------
    ValueError
        For an unknown ``method``, a budget or iteration count that is not a positive
        integer, a negative ``target``, or a starting column that is malformed or does
        not fit.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) For an LP of more than ``max_types`` job types, and for
        ``method="enumerate"`` when the feasible configurations number more than
        ``max_configurations`` (``"auto"`` then uses column generation instead).
    TypeError
        If ``warm_start`` is not a :class:`CapacityResult`.
    capacity.LPSolveError
        When HiGHS does not solve the master to optimality.
    capacity.configuration_lp.IterationLimit
        After ``max_iterations`` rounds without an optimum.

    References
    ----------
    PG21, Sec. III-A, eq. (4); PG18, Sec. II, eqs. (2)-(3); docs/design.md, section
    Certificates (the check) and section Time limits.

    Examples
    --------
    One server of capacity 10 and two of capacity 6, job sizes 2 and 5 in equal
    proportions: at most ``t = 3`` jobs of each type at once.

    >>> from capacity import ConfigurationLP, solve_configuration_lp
    >>> lp = ConfigurationLP.build([2, 5], [1, 1], [(10, 1), (6, 2)])
    >>> res = solve_configuration_lp(lp)
    >>> res.value, res.lower, res.upper, res.certified
    (3.0, Fraction(3, 1), Fraction(3, 1), True)
    >>> [(t.server_class, t.config.tolist()) for t in res.mixture]
    [(0, [0, 2]), (1, [0, 1]), (1, [3, 0])]
    >>> solve_configuration_lp(lp, method="simplex")
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'simplex'; choose one of auto, enumerate, column-generation
    """
    t0 = time.perf_counter()
    run = solve_uncertified(lp, method=method, enumerate_limit=enumerate_limit,
                            max_iterations=max_iterations, max_types=max_types,
                            max_configurations=max_configurations, warm_start=warm_start,
                            target=target, columns=columns)
    if certify_result:
        proof = _proof(lp, run.mixture, run.prices)
    else:
        proof = _Proof(run.value, run.value, False, False, "certificate not requested",
                       run.master_prices, list(run.class_bounds))
    extra: dict = {}
    if run.at_lemma2:
        extra["stopped_at_lemma2"] = True
    if run.stopped == "target":
        extra["stopped_at_target"] = True
    elif run.stopped == "time_limit":
        # the interval is proven only by a certificate
        extra["stopped_at_time_limit"] = certify_result
    return CapacityResult(
        value=run.value,
        lower=proof.lower,
        upper=proof.upper,
        certified=is_certified(proof.lower, proof.upper, checks_passed=proof.checks_passed,
                               stopped=run.stopped),
        exact_check=proof.exact_check,
        status=("target reached" if run.stopped == "target"
                else "time_limit" if run.stopped == "time_limit" else "optimal"),
        method=run.method,
        servers=int(sum(lp.counts)),
        sizes=[r[0] if lp.D == 1 else tuple(r) for r in lp.rows],
        demand=list(lp.demand),
        mixture=run.mixture,
        dual=proof.dual,
        dual_bound=proof.dual_bound,
        iterations=run.iterations,
        columns=run.columns,
        seconds=time.perf_counter() - t0,
        message=_stop_message(run, proof.message),
        extra=extra,
    )
