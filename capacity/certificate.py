"""Certificates of configuration-LP answers, re-checked against the model alone.

The data checked are those of :class:`capacity.configuration_model.ConfigurationLP`;
nothing here knows the solver (:mod:`capacity.configuration_solver`) that found the
answer, and :func:`capacity.certification.is_certified` says what a check certifies.

Weak duality for ``max t`` s.t. ``t d <= sum_c n_c sum_k p_ck k``, ``sum_k p_ck <= 1``:

* primal: any mixture of *feasible* configurations with class weights summing to at
  most one proves ``t >= min_j (sum_c n_c sum_k p_ck k_j) / d_j``;
* dual: any prices ``y >= 0`` with ``<y, k> <= beta_c`` for every feasible
  configuration k of class c prove ``t <= sum_c n_c beta_c / <y, d>``.

For rational inputs both are recomputed in exact arithmetic: configurations are
checked with integer sizes, the prices are rounded down to dyadic rationals and the
bound ``beta_c`` is proven by an exact integer knapsack search
(:func:`capacity.knapsack.knapsack_bb` with ``exact=True``). Float inputs are checked
in floats with :data:`theory.numbers.FEASIBILITY_RTOL`. (STYLE anchor 4: don't trust
the solver; check its answer again.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np

from capacity.certification import CERT_RTOL, is_certified
from capacity.configuration_model import ConfigurationLP
from capacity.knapsack import (
    DP_MAX_CAPACITY,
    KnapsackTimeLimit,
    knapsack_bb,
    knapsack_dp,
    knapsack_dp2,
    knapsack_dp_bounded,
    knapsack_dp_cells,
    knapsack_dp_table,
    knapsack_exact,
    split_item_count,
)
from capacity.result import MixtureTerm
from theory.numbers import FEASIBILITY_RTOL, Number

__all__ = ["Certificate", "certify", "exact_optimum", "CERT_RTOL"]

#: Slack added to the float knapsack maximum before it is proven as a price bound.
_BETA_SLACK = 1e-11
#: Most types for which huge-denominator rationals are checked by exact rational search.
_RATIONAL_SEARCH_MAX_TYPES = 20
#: Most jobs of one type per server for which exact_optimum runs its rational search.
_RATIONAL_SEARCH_MAX_ITEMS = 10_000
#: Largest T * capacity for which the dual check uses the exact dynamic program (a few
#: seconds at most: the vectorised table does about 3e9 cells a second).
_DP_WORK = 6_000_000_000


@dataclass(frozen=True)
class Certificate:
    """The interval a mixture and prices prove; ``certified`` as
    :func:`capacity.certification.is_certified` decides from ``checks_passed`` (both
    the primal and the dual check went through).

    What :func:`certify` returns (frozen). Weak duality: the mixture proves
    ``lower <= t*``, the prices prove ``t* <= upper``, both recomputed from the model
    alone, without the solver.

    Parameters
    ----------
    lower : float or Fraction
        The lower bound the primal mixture proves (0 when its check failed).
    upper : float or Fraction
        The upper bound the dual prices prove (``inf`` when their check failed).
    exact : bool
        The bounds were computed in rational arithmetic (Fractions).
    certified : bool
        Both checks passed and ``upper - lower <= CERT_RTOL * max(1, upper)``.
    message : str
        What was checked, or which check failed and why.
    dual : numpy.ndarray
        The prices per type as checked (rounded down to dyadic rationals for exact
        inputs), scaled so that the largest class bound is 1.
    dual_bound : list of float or Fraction
        Per server class, the proven largest price of a feasible configuration, in the
        same scale.
    checks_passed : bool, default False
        Both the primal and the dual check went through, whatever the width of
        ``[lower, upper]``.

    References
    ----------
    docs/design.md, section Certificates; PG21, Sec. III-A, eq. (4) (the LP).

    Examples
    --------
    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from capacity import ConfigurationLP, MixtureTerm, certify
    >>> lp = ConfigurationLP.build(["0.4", "0.6"], ["1/2", "1/2"], [(1, 1)])
    >>> half = Fraction(1, 2)
    >>> mixture = [MixtureTerm(0, np.array([2, 0]), half), MixtureTerm(0, np.array([0, 1]), half)]
    >>> cert = certify(lp, mixture, np.array([0.0, 1.0]))
    >>> cert.lower, cert.upper, cert.checks_passed, cert.certified
    (Fraction(1, 1), Fraction(2, 1), True, False)
    >>> cert.message
    'bounds differ by more than 1e-07 relative'
    """

    lower: Number
    upper: Number
    exact: bool
    certified: bool
    message: str
    dual: np.ndarray  # prices scaled so that the largest class bound is 1
    dual_bound: list[Number]  # beta_c per class, in the same scale
    checks_passed: bool = False


def _primal_lower(lp: ConfigurationLP, mixture: list[MixtureTerm], exact: bool,
                  ints: tuple[np.ndarray, np.ndarray] | None) -> tuple[Number | None, str]:
    W = np.array([[float(v) for v in r] for r in lp.rows])
    for term in mixture:
        k = term.config
        c = term.server_class
        if np.any(k < 0) or term.weight < 0:
            return None, "mixture has a negative entry"
        if not lp.within_copies(k):
            return None, f"mixture configuration {k.tolist()} exceeds max_copies"
        if ints is not None:
            Wi, Ci = ints
            ok = all(sum(int(k[j]) * int(Wi[j, d]) for j in np.flatnonzero(k)) <= int(Ci[c, d])
                     for d in range(lp.D))
        elif exact:
            ok = lp.exact_fits(c, k)
        else:
            load = k.astype(float) @ W
            cap = np.array([float(v) for v in lp.caps[c]])
            ok = bool(np.all(load <= cap * (1 + FEASIBILITY_RTOL)))
        if not ok:
            return None, f"mixture configuration {k.tolist()} is infeasible for class {c}"
    zero: Number = Fraction(0) if exact else 0.0
    wsum: list[Number] = [zero] * len(lp.caps)
    weights: list[Number] = []
    for term in mixture:
        w: Number = Fraction(term.weight) if exact else float(term.weight)  # exact if given
        weights.append(w)
        wsum[term.server_class] += w
    supply: list[Number] = [zero] * lp.T
    for term, w in zip(mixture, weights, strict=True):
        c = term.server_class
        scale = wsum[c] if wsum[c] > 1 else 1
        coef = lp.counts[c] * w / scale
        for j in np.flatnonzero(term.config):
            supply[j] += int(term.config[j]) * coef
    ratios = [supply[j] / lp.demand[j] for j in range(lp.T) if lp.demand[j] > 0]
    return min(ratios), ""


def _max_price(y: np.ndarray, lp: ConfigurationLP, c: int,
               ints: tuple[np.ndarray, np.ndarray] | None, Wf: np.ndarray,
               thr: float) -> float | None:
    """max_k <y, k> over class c (or ``thr`` if nothing exceeds it); None if unproven."""
    most = lp.copy_bounds()
    if ints is not None and lp.D == 1 and _dp_fits(int(ints[1][c, 0]), lp, ints[0][:, 0]):
        if most is not None:
            return float(knapsack_dp_bounded(y, ints[0][:, 0], int(ints[1][c, 0]), most,
                                              config=False).value)
        return float(knapsack_dp(y, ints[0][:, 0], int(ints[1][c, 0])).value)
    if ints is not None and lp.D == 2 and most is None and _dp2_fits(ints[1][c], lp.T):
        return float(knapsack_dp2(y, ints[0], (int(ints[1][c, 0]), int(ints[1][c, 1]))).value)
    if ints is not None:
        res = knapsack_bb(y, ints[0].astype(float), ints[1][c].astype(float), threshold=thr,
                          rtol=0.0, bounds=most)
    else:
        res = knapsack_bb(y, Wf, np.array([float(v) for v in lp.caps[c]]), threshold=thr,
                          bounds=most)
    if res.proven:
        return res.value
    if lp.D == 1:
        return _relaxed_max_price(y, lp, c, ints)
    return None


def _relaxed_max_price(y: np.ndarray, lp: ConfigurationLP, c: int,
                       ints: tuple[np.ndarray, np.ndarray] | None,
                       grid: int = 2**16) -> float:
    """An upper bound on max_k <y, k> for one resource when exact search is too costly
    (it ignores ``max_copies``: a relaxation, so still an upper bound).

    Sizes are rounded *down* onto a grid of ``grid`` units (a relaxation: more fits).
    Types smaller than one unit are bounded fluidly: with the others using g units
    (so at least g/grid of the capacity), they add at most r (1 - g/grid) C, r their
    best value per unit size. The bound is max_g dp[g] + r (grid - g) C / grid.
    """
    if ints is not None:
        Wi, Ci = ints[0][:, 0], int(ints[1][c, 0])
        floored = np.array([(int(w) * grid) // Ci for w in Wi], dtype=np.int64)
        share = Wi.astype(float) / Ci
    else:
        cap = float(lp.caps[c][0])
        share = np.array([float(r[0]) for r in lp.rows]) / cap
        floored = np.floor(share * grid * (1 - 1e-12)).astype(np.int64)
    tiny = floored == 0
    r = float(np.max(np.where(tiny, y / np.maximum(share, 1e-300), 0.0), initial=0.0))
    big = np.flatnonzero(~tiny & (y > 0))
    dp = np.zeros(grid + 1)
    if big.size:
        dp = knapsack_dp_table(y[big], floored[big], grid)
    g = np.arange(grid + 1)
    return float(np.max(dp + r * (grid - g) / grid)) * (1 + 1e-12)


def _dp_fits(C: int, lp: ConfigurationLP, w: np.ndarray) -> bool:
    """The one-resource dynamic program accepts C and its work (split items when
    bounded) is affordable."""
    if C > DP_MAX_CAPACITY:
        return False
    if lp.max_copies is None:
        return knapsack_dp_cells(w, C) <= _DP_WORK
    return C * split_item_count(w, lp.max_copies, C) <= _DP_WORK


def _dp2_fits(C: np.ndarray, T: int) -> bool:
    cells = (int(C[0]) + 1) * (int(C[1]) + 1)
    return cells <= 20_000_000 and cells * T <= _DP_WORK


def _program_decides(Wi: np.ndarray, Ci: np.ndarray, lp: ConfigurationLP) -> bool:
    """A dynamic program finds the best price of a class's configurations."""
    if Wi.shape[1] == 1:
        return _dp_fits(int(Ci[0]), lp, Wi[:, 0])
    return Wi.shape[1] == 2 and lp.max_copies is None and _dp2_fits(Ci, len(Wi))


def _exact_max_price(V: np.ndarray, Wi: np.ndarray, Ci: np.ndarray,
                     lp: ConfigurationLP) -> int | None:
    """max V.k over the configurations of a class, exactly in integers, when a dynamic
    program decides it; None otherwise."""
    if not _program_decides(Wi, Ci, lp):
        return None
    most = lp.copy_bounds()
    if Wi.shape[1] == 1:
        if most is not None:
            return int(knapsack_dp_bounded(V, Wi[:, 0], int(Ci[0]), most,
                                           config=False).value)
        return int(knapsack_dp(V, Wi[:, 0], int(Ci[0])).value)
    return int(knapsack_dp2(V, Wi, (int(Ci[0]), int(Ci[1]))).value)


def _exact_price_bound_holds(V: np.ndarray, Wi: np.ndarray, Ci: np.ndarray, B: int,
                             lp: ConfigurationLP) -> bool:
    """No feasible configuration has integer price V.k above B (exact integers)."""
    top = _exact_max_price(V, Wi, Ci, lp)
    if top is not None:
        return top <= B
    res = knapsack_bb(V, Wi, Ci, threshold=B, exact=True, bounds=lp.copy_bounds())
    return bool(res.proven and not res.config.any())


def _prices_by_programs(lp: ConfigurationLP, ints: tuple[np.ndarray, np.ndarray],
                        y: np.ndarray, lower: Number
                        ) -> tuple[list[Number], Number, np.ndarray] | None:
    """The dual bound in one exact program per class: prices ``y`` (max 1) floored to
    multiples of 2^-E, and each class's best configuration at those prices computed in
    integers. ``(betas, y.d, prices)`` exactly; None when some class needs the search
    or a job has size 0 in a resource (no a-priori limit on the jobs a configuration
    holds, which E needs).

    Under copy bounds (one resource), the unbounded program comes first: its maximum
    bounds the bounded one, and when that bound already meets ``lower`` within
    CERT_RTOL, the costlier 0/1 program is not run."""
    Wi, Ci = ints
    if not lp.caps or np.any(Wi <= 0) or not all(
            _program_decides(Wi, Ci[c], lp) for c in range(len(lp.caps))):
        return None
    # a-priori bounds on any configuration's price (y <= 1): the most jobs it holds,
    # and the sum over types of y_j times the most jobs j it holds (within the copy
    # bounds); with E below, every price sum the programs form stays <= 2^60
    per_type = np.array([[min(int(Ci[c, d]) // int(Wi[j, d]) for d in range(lp.D))
                          for j in range(lp.T)] for c in range(len(lp.caps))])
    most = lp.copy_bounds()
    if most is not None:
        per_type = np.minimum(per_type, most)
    jobs = max(min(int(Ci[c, d]) // int(Wi[:, d].min()) for d in range(lp.D))
               for c in range(len(lp.caps)))
    price_cap = min(float(jobs), float((per_type.astype(float) @ y).max()) * (1 + 1e-12))
    E = 60 - math.ceil(math.log2(max(price_cap, 1.0)))
    V = np.floor(np.ldexp(y, E)).astype(np.int64)
    yd = sum((Fraction(int(V[j]), 2**E) * lp.demand[j] for j in range(lp.T)
              if lp.demand[j] > 0), Fraction(0))
    prices = np.ldexp(V.astype(float), -E)
    if lp.max_copies is not None and lp.D == 1 and yd > 0 and all(
            int(Ci[c, 0]) <= DP_MAX_CAPACITY
            and knapsack_dp_cells(Wi[:, 0], int(Ci[c, 0])) <= _DP_WORK
            for c in range(len(lp.caps))):
        free: list[Number] = [Fraction(int(knapsack_dp(V, Wi[:, 0], int(Ci[c, 0])).value), 2**E)
                              for c in range(len(lp.caps))]
        upper = sum((lp.counts[c] * free[c] for c in range(len(lp.caps))), Fraction(0)) / yd
        if float(upper) - float(lower) <= CERT_RTOL * max(1.0, float(upper)):
            return free, yd, prices
    betas: list[Number] = []
    for c in range(len(lp.caps)):
        top = _exact_max_price(V, Wi, Ci[c], lp)
        assert top is not None
        betas.append(Fraction(top, 2**E))
    return betas, yd, prices


def certify(lp: ConfigurationLP, mixture: list[MixtureTerm], y: np.ndarray) -> Certificate:
    """Check a primal mixture and dual prices; return the interval they prove.

    Primal: every configuration of ``mixture`` must fit its class (exactly, with
    integer sizes, for rational data) and respect the copy bounds; with class weights
    summing to at most one it proves ``t >= min_j supply_j / d_j``. Dual: prices
    ``y >= 0`` (negative entries count as 0) with ``<y, k> <= beta_c`` for every
    feasible configuration k of class c prove ``t <= sum_c n_c beta_c / <y, d>``;
    ``beta_c`` is found by an exact knapsack (integer dynamic program or branch and
    bound) on prices rounded down to dyadic rationals for rational data, in floats
    with ``FEASIBILITY_RTOL`` otherwise. Nothing here knows the solver.

    Parameters
    ----------
    lp : ConfigurationLP
        The model: sizes, server classes, demand direction, optional copy bounds.
    mixture : list of MixtureTerm
        Configurations with their weights (floats or Fractions; Fractions keep the
        lower bound exact).
    y : numpy.ndarray
        Dual prices, one per job type (any positive scale).

    Returns
    -------
    Certificate
        The proven interval ``[lower, upper]``, whether it certifies the optimum, and
        the prices and class bounds as checked.

    Raises
    ------
    ValueError
        If a price or a mixture weight is NaN or infinite.

    Notes
    -----
    A failed check does not raise: the primal side then proves 0, the dual side
    ``inf``, and ``message`` says which check failed (an infeasible configuration, a
    negative entry, copy bounds, a pricing search over its budget).

    References
    ----------
    docs/design.md, section Certificates; PG21, Sec. III-A, eq. (4); PG18, Sec. II,
    eqs. (2)-(3).

    Examples
    --------
    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from capacity import ConfigurationLP, MixtureTerm, certify
    >>> lp = ConfigurationLP.build(["0.4", "0.6"], ["1/2", "1/2"], [(1, 1)])
    >>> cert = certify(lp, [MixtureTerm(0, np.array([1, 1]), Fraction(1))],
    ...                np.array([0.0, 1.0]))
    >>> cert.lower, cert.upper, cert.certified, cert.exact
    (Fraction(2, 1), Fraction(2, 1), True, True)

    A configuration that does not fit proves nothing:

    >>> bad = certify(lp, [MixtureTerm(0, np.array([0, 2]), Fraction(1))],
    ...               np.array([0.0, 1.0]))
    >>> bad.lower, bad.certified
    (Fraction(0, 1), False)
    >>> print(bad.message)
    primal check failed: mixture configuration [0, 2] is infeasible for class 0
    """
    y = np.asarray(y, dtype=float)
    if not np.all(np.isfinite(y)):
        raise ValueError("dual prices must be finite numbers (got NaN or infinity)")
    if any(not math.isfinite(float(t.weight)) for t in mixture):
        raise ValueError("mixture weights must be finite numbers (got NaN or infinity)")
    exact = lp.exact and all(isinstance(v, Fraction) for v in lp.demand)
    ints = lp.integer_scaling() if exact else None
    if exact and ints is None and lp.T > _RATIONAL_SEARCH_MAX_TYPES:
        exact = False  # denominators too large for integers, too many types for Fractions
    msgs = []
    lower, pmsg = _primal_lower(lp, mixture, exact, ints)
    if lower is None:
        msgs.append("primal check failed: " + pmsg)
        lower = Fraction(0) if exact else 0.0

    y = np.maximum(np.asarray(y, dtype=float), 0.0)
    if y.max(initial=0.0) > 0:
        y = y / y.max()  # the bound is invariant under scaling; avoid tiny numbers
    upper: Number
    betas: list[Number]
    yd: Number
    by_programs = (_prices_by_programs(lp, ints, y, lower) if exact and ints is not None
                   else None)
    dual_ok = True
    betas_f = []
    if by_programs is None:
        Wf = np.array([[float(v) for v in r] for r in lp.rows])
        # the largest price of a configuration is attained by the mixture's columns at
        # an optimum: search only for configurations above that (with a small slack)
        expect = [max([float(t.config @ y) for t in mixture if t.server_class == c] or [0.0])
                  for c in range(len(lp.caps))]
        for c in range(len(lp.caps)):
            b = _max_price(y, lp, c, ints, Wf, expect[c] * (1 + _BETA_SLACK))
            if b is None:
                dual_ok = False
                msgs.append(f"dual check incomplete for class {c} (search budget)")
                b = expect[c]
            betas_f.append(max(b, expect[c]) * (1 + _BETA_SLACK))
    if by_programs is not None:
        betas, yd, y_report = by_programs
    elif exact and ints is None:
        # huge denominators: exact search in rational arithmetic on the prices as given
        ye = [Fraction(float(v)) for v in y]
        betas = []
        try:
            for c in range(len(lp.caps)):
                b_exact, _k = knapsack_exact(ye, lp.rows, lp.caps[c], threshold=0,
                                             bounds=lp.max_copies)
                betas.append(b_exact)
            dual_ok = True
            msgs = [m for m in msgs if not m.startswith("dual check incomplete")]
        except KnapsackTimeLimit:  # no proven price bound: the upper end is not proven
            betas = list(betas_f)
            dual_ok = False
            msgs.append("exact dual check stopped at the time limit")
        yd = sum((ye[j] * lp.demand[j] for j in range(lp.T) if lp.demand[j] > 0), Fraction(0))
        y_report = y
    elif exact and ints is not None and dual_ok:
        # prices are scaled to max 1, so V <= 2^E and every price sum <= 2^60
        E = 60 - math.ceil(math.log2(max(max(betas_f), 1.0)))
        V = np.floor(np.ldexp(y, E)).astype(np.int64)
        betas = []
        for c in range(len(lp.caps)):
            B = int(math.floor(math.ldexp(betas_f[c], E)))
            if not _exact_price_bound_holds(V, ints[0], ints[1][c], B, lp):
                dual_ok = False
                msgs.append(f"exact dual check failed for class {c}")
            betas.append(Fraction(B, 2**E))
        yd = sum((Fraction(int(V[j]), 2**E) * lp.demand[j] for j in range(lp.T)
                  if lp.demand[j] > 0), Fraction(0))
        y_report = np.ldexp(V.astype(float), -E)
    else:
        betas = list(betas_f)
        yd = float(np.dot(y, [float(v) for v in lp.demand]))
        y_report = y
    if not dual_ok or yd <= 0:
        upper = math.inf
        if yd <= 0:
            msgs.append("dual prices give no bound (zero on the demand)")
    else:
        upper = sum((lp.counts[c] * betas[c] for c in range(len(lp.caps))),
                    Fraction(0) if exact else 0.0) / yd
    top_beta = max(float(b) for b in betas) if betas else 1.0
    top_beta = top_beta if top_beta > 0 else 1.0
    dual = y_report / top_beta
    bound = [b / top_beta if isinstance(b, float) else b / Fraction(top_beta) for b in betas]
    checks_passed = msgs == []
    ok = is_certified(lower, upper, checks_passed=checks_passed)
    if ok:
        msgs.append("certified in exact rational arithmetic" if exact
                    else f"certified in floating point (feasibility rtol {FEASIBILITY_RTOL})")
    elif not msgs:
        msgs.append(f"bounds differ by more than {CERT_RTOL:g} relative")
    return Certificate(lower, upper, exact, ok, "; ".join(msgs), dual, bound, checks_passed)


def exact_optimum(lp: ConfigurationLP, mixture: list[MixtureTerm], y: np.ndarray,
                  max_types: int = 12,
                  max_denominator: int = 10**9) -> Fraction | None:
    """The LP optimum as an exact rational, when rational reconstruction proves it.

    The float weights and prices are snapped to nearby rationals
    (``Fraction.limit_denominator``) and both bounds are recomputed exactly; if they
    coincide, that common value is the optimum (weak duality). Only for rational inputs
    with at most ``max_types`` types; returns None otherwise.
    """
    if not (lp.exact and all(isinstance(v, Fraction) for v in lp.demand)) or lp.T > max_types:
        return None
    if lp.max_items() > _RATIONAL_SEARCH_MAX_ITEMS:
        return None  # the pure-Python search would step through that many counts
    snapped = [MixtureTerm(t.server_class, t.config,
                           Fraction(t.weight).limit_denominator(max_denominator))
               for t in mixture]
    lower, _msg = _primal_lower(lp, snapped, True, lp.integer_scaling())
    if lower is None:
        return None
    ye = [Fraction(float(v)).limit_denominator(max_denominator) for v in np.maximum(y, 0)]
    yd = sum((ye[j] * lp.demand[j] for j in range(lp.T)), Fraction(0))
    if yd <= 0:
        return None
    total = Fraction(0)
    for c in range(len(lp.caps)):
        try:
            b, _k = knapsack_exact(ye, lp.rows, lp.caps[c], threshold=0,
                                   bounds=lp.max_copies)
        except KnapsackTimeLimit:  # not reconstructed in time: nothing claimed
            return None
        total += lp.counts[c] * b
    upper = total / yd
    # exact=True above: rational weights, demands and counts, so lower is a Fraction
    return cast(Fraction, lower) if lower == upper else None
