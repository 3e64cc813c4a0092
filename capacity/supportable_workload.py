"""rho*, the maximum supportable workload for finitely many job types (PG21 eq. (4)).

.. math::
    \\rho^* = \\sup\\{\\rho : \\rho P < \\sum_{\\ell} x^\\ell,\\ x^\\ell \\in
    \\mathrm{Conv}(\\bar K)\\}

for L identical servers of capacity C. A bin-packing instance is the special case of
one server and the empirical distribution of its weights, with each weight's copies
per pattern bounded by its multiplicity: its Gilmore-Gomory LP bound is z_LP = n / t*
(without the bounds, n / rho*, which can only be smaller).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import numpy as np

from capacity.configuration_lp import ConfigurationLP, result_of_mixture, solve_configuration_lp
from capacity.perfect_bin_decomposition import lp_at_continuous_bound
from capacity.result import CapacityResult, cap_by_lemma2
from theory.bin_packing_bounds import continuous_bound, martello_toth_l2
from theory.bounds import mean_size_bound
from theory.budgets import MAX_CONFIGURATIONS, MAX_LP_TYPES
from theory.distributions import Discrete, SizeDistribution
from theory.numbers import Number, as_list, server_count, to_numbers

__all__ = ["rho_star", "bin_packing_lp", "bin_packing_lp_pair", "fractional_bins"]

#: Fewest items for which bin_packing_lp tries perfect bins and a residual LP first:
#: below, the whole LP takes well under a second and a failed attempt would double it.
DECOMPOSE_ITEMS = 300


def rho_star(
    sizes: Sequence[object] | Discrete,
    probs: Sequence[object] | None = None,
    *,
    servers: int = 1,
    capacity: object = 1,
    method: str = "auto",
    certify: bool = True,
    max_types: int = MAX_LP_TYPES,
    max_configurations: int = MAX_CONFIGURATIONS,
    warm_start: CapacityResult | None = None,
) -> CapacityResult:
    """Maximum supportable workload ``rho* = lambda/mu`` for finite job types (PG21 eq. (4)).

    The configuration LP of L identical servers of capacity ``capacity``:
    ``rho* = max rho`` such that ``rho P`` lies in L times the convex hull of the
    feasible configurations. Solved by :func:`solve_configuration_lp`, certified
    (exact rational arithmetic for Fraction, int or decimal-string inputs), with the
    upper end capped by PG21 Lemma 2, ``rho* <= L C / R-bar``.

    Parameters
    ----------
    sizes : sequence or Discrete
        Job sizes (numbers, or vectors for several resources, in the units of
        ``capacity``), or a :class:`theory.distributions.Discrete` (then ``probs`` must
        be omitted). Fractions, ints and decimal or ratio strings are exact.
    probs : sequence or None, default None
        Type probabilities P_j (summing to one). Default: equally likely.
    servers : int, default 1
        Number L of identical servers.
    capacity : number or sequence, default 1
        Server capacity (a number, or one entry per resource); sizes are in the same
        units.
    method : {"auto", "enumerate", "column-generation"}, default "auto"
        As in :func:`solve_configuration_lp`.
    certify : bool, default True
        Re-check the answer (the certificate). False skips the check: ``certified``
        is then False, whatever the value.
    max_types, max_configurations : int
        Budgets (:mod:`theory.budgets`) on the job types of the LP and on the
        configurations ``method="enumerate"`` may list.
    warm_start : CapacityResult or None, default None
        A solved LP over the same types and servers (e.g. ``bin_packing_lp`` of these
        sizes, or ``rho*`` at a coarser partition) to start column generation from; it
        changes the path, never the answer.

    Returns
    -------
    CapacityResult
        ``value`` = ``rho*`` (jobs in service per server-time unit: the workload
        ``lambda/mu``), the optimal ``mixture`` of configurations, the ``dual`` prices
        (no feasible configuration prices above 1) and the certified interval
        ``lower <= rho* <= upper`` (Fractions for exact inputs); ``upper`` is capped by
        PG21 Lemma 2 (``extra["lemma2_bound"]``, ``extra["upper_from"]``).

    Raises
    ------
    ValueError
        If ``probs`` is given with a ``Discrete``; the sizes or probabilities are
        invalid (empty, NaN, negative, not summing to one, lengths that differ); a
        size exceeds ``capacity``; ``servers`` is not a positive integer; or a budget
        is exceeded (:class:`theory.budgets.BudgetExceeded`).
    TypeError
        If ``sizes`` is a continuous distribution (use
        :func:`capacity.brackets.quantile_brackets`).
    capacity.LPSolveError
        When HiGHS fails on the master LP.

    See Also
    --------
    solve_configuration_lp, CapacityRegion, bin_packing_lp

    References
    ----------
    PG21, Sec. III-A, eq. (4) (``rho*`` of a finite-type system) and Sec. IV-B,
    Lemma 2 (``rho* <= L / R-bar`` at unit capacity); the first example is PG21,
    Sec. VII-A.1 (Fig. 3a): sizes 0.4 and 0.6, the configuration (1, 1) supports
    ``rho* = 2``.

    Examples
    --------
    >>> from capacity import rho_star
    >>> from theory import Discrete
    >>> rho_star(["0.4", "0.6"], ["1/2", "1/2"]).value   # PG21 Fig. 3a: (1, 1) fits
    2.0
    >>> res = rho_star(Discrete(["1/3", "1/2", "2/3"], ["1/2", "1/4", "1/4"]), servers=2)
    >>> res.certified, res.exact_check, res.lower, res.upper
    (True, True, Fraction(48, 11), Fraction(48, 11))
    >>> res.extra["lemma2_bound"]   # L / R-bar: every server can be packed full
    Fraction(48, 11)

    Float sizes are checked in floating point, within a relative 1e-9:

    >>> res = rho_star([0.4, 0.6], [0.5, 0.5])
    >>> res.certified, res.exact_check, round(res.value, 9)
    (True, False, 2.0)
    """
    L = server_count(servers)
    if isinstance(sizes, Discrete):
        if probs is not None:
            raise ValueError("give probabilities either in the distribution or in probs")
        dist = sizes
    elif isinstance(sizes, SizeDistribution):
        raise TypeError(f"rho_star needs finitely many job types: a Discrete, got "
                        f"{type(sizes).__name__} (use capacity.brackets.quantile_brackets)")
    else:
        dist = Discrete(as_list(sizes, name="sizes"),
                        None if probs is None else as_list(probs, name="probs"))
    lp = ConfigurationLP.build(dist.sizes, dist.probs, [(capacity, L)])
    res = solve_configuration_lp(lp, method=method, certify_result=certify,
                                 max_types=max_types, max_configurations=max_configurations,
                                 warm_start=warm_start)
    bound = mean_size_bound(L, dist, lp.caps[0][0] if dist.dim == 1 else lp.caps[0])
    return cap_by_lemma2(res, bound)


def bin_packing_lp(weights: Sequence[object], capacity: object, *,
                   method: str = "column-generation", unbounded: bool = True,
                   max_types: int = MAX_LP_TYPES,
                   max_configurations: int = MAX_CONFIGURATIONS,
                   unbounded_lp: CapacityResult | None = None) -> CapacityResult:
    """Gilmore-Gomory LP bound z_LP of a bin-packing instance (fractional bins).

    The standard bound (Gilmore & Gomory 1961; the one the bin-packing literature and
    VPSolver report): ``min sum_k x_k`` s.t. ``sum_k k_j x_k >= n_j``, over patterns
    that hold at most ``n_j`` copies of weight j (its multiplicity in the instance).
    Solved as the configuration LP of the empirical weight distribution on one server
    with those copy bounds: ``z_LP = n / t*``; the returned result is that LP.

    ``extra`` holds ``z_lp`` and its certified interval ``z_lp_bounds``; with
    ``unbounded=True`` also ``z_lp_unbounded`` (and ``z_lp_unbounded_bounds``): the
    same LP over all patterns, ``n / rho*`` of the weight distribution, which is the
    right quantity for rho* (PG21 eq. (4)) and is never above ``z_lp`` (it is solved
    either way); ``items``, ``distinct_weights``, the closed-form bounds
    ``l1 = ceil(sum w / C)`` and ``l2`` (Martello & Toth 1990,
    :mod:`theory.bin_packing_bounds`), and ``lp_bins = ceil(z_lp)``, a lower bound on
    the optimum (like ``l2``). :func:`bin_packing_lp_pair` returns both LPs whole.

    Parameters
    ----------
    weights : sequence of numbers
        The item weights (sizes), in the units of ``capacity``; Fractions, ints and
        decimal or ratio strings are exact.
    capacity : number
        The bin capacity.
    method : {"column-generation", "enumerate", "auto"}, default "column-generation"
        As in :func:`solve_configuration_lp`.
    unbounded : bool, default True
        Also report the LP over all patterns in ``extra`` (``z_lp_unbounded``).
    max_types, max_configurations : int
        Budgets (:mod:`theory.budgets`) on the distinct weights and on the patterns
        ``method="enumerate"`` may list.
    unbounded_lp : CapacityResult or None, default None
        That LP over all patterns if the caller has solved it already (``rho_star`` of
        the weights' empirical distribution at this capacity); refused when its types
        or probabilities differ.

    Returns
    -------
    CapacityResult
        The LP with copy bounds on one server: ``value`` = ``t*`` (items per bin in the
        LP's units, ``z_lp = n / t*``), certified as :func:`rho_star` is, and the
        ``extra`` keys above.

    Raises
    ------
    ValueError
        If there is no item, a weight is invalid or exceeds ``capacity``, a budget is
        exceeded, or ``unbounded_lp`` solves another LP.
    TypeError
        If ``unbounded_lp`` is not a :class:`CapacityResult`.

    References
    ----------
    Gilmore and Gomory, Oper. Res. 9 (1961) (the LP bound); Martello and Toth,
    *Knapsack Problems*, 1990, ch. 8 (``l1``, ``l2``); PG21, Sec. III-A, eq. (4)
    (the LP over all patterns is ``rho*`` of one server).

    Examples
    --------
    Six items of weights 4, 4, 3, 3, 3, 2 in bins of 10: the patterns (4, 4, 2) and
    (3, 3, 3) pack them in two bins, and so does the LP with copy bounds; the LP over
    all patterns also uses (3, 3, 2, 2), which holds the one item of weight 2 twice,
    and reaches the continuous bound 19/10.

    >>> from capacity import bin_packing_lp
    >>> res = bin_packing_lp([4, 4, 3, 3, 3, 2], 10)
    >>> res.certified, res.extra["z_lp"], res.extra["z_lp_bounds"]
    (True, 2.0, [Fraction(2, 1), Fraction(2, 1)])
    >>> res.extra["z_lp_unbounded_bounds"], res.extra["l1"], res.extra["lp_bins"]
    ([Fraction(19, 10), Fraction(19, 10)], 2, 2)
    """
    res, free = bin_packing_lp_pair(weights, capacity, method=method, max_types=max_types,
                                    max_configurations=max_configurations,
                                    unbounded_lp=unbounded_lp)
    if unbounded:
        zu, bounds_u = fractional_bins(res.extra["items"], free)
        res = replace(res, extra={**res.extra, "z_lp_unbounded": zu,
                                  "z_lp_unbounded_bounds": list(bounds_u),
                                  "unbounded_certified": free.certified})
    return res


def bin_packing_lp_pair(weights: Sequence[object], capacity: object, *,
                        method: str = "column-generation",
                        max_types: int = MAX_LP_TYPES,
                        max_configurations: int = MAX_CONFIGURATIONS,
                        unbounded_lp: CapacityResult | None = None
                        ) -> tuple[CapacityResult, CapacityResult]:
    """Both LPs of a bin-packing instance: ``(bounded, unbounded)``, the first as
    :func:`bin_packing_lp` returns it (``unbounded=False``), the second the LP over all
    patterns, which is ``rho_star`` of the weights' empirical distribution on one
    server of this capacity (PG21 eq. (4)).

    The bounded LP is solved first and starts the unbounded one (or the other way round
    when ``unbounded_lp`` is given), unless the LP sits at the continuous bound
    sum w / C: then both are proven at once on a residual LP beside perfect bins
    (:mod:`capacity.perfect_bin_decomposition`).

    Parameters
    ----------
    weights : sequence of numbers
        The item weights (sizes), in the units of ``capacity``; Fractions, ints and
        decimal or ratio strings are exact.
    capacity : number
        The bin capacity.
    method : {"column-generation", "enumerate", "auto"}, default "column-generation"
        As in :func:`solve_configuration_lp`.
    max_types, max_configurations : int
        Budgets (:mod:`theory.budgets`) on the distinct weights and on the patterns
        ``method="enumerate"`` may list.
    unbounded_lp : CapacityResult or None, default None
        The LP over all patterns if already solved (see :func:`bin_packing_lp`).

    Returns
    -------
    bounded : CapacityResult
        The LP with copy bounds, with the ``extra`` keys of :func:`bin_packing_lp`
        (without ``z_lp_unbounded``).
    unbounded : CapacityResult
        The LP over all patterns: :func:`rho_star` of the weights' empirical
        distribution on one server of this capacity (``n / value`` fractional bins).

    Raises
    ------
    ValueError
        If there is no item, a weight is invalid or exceeds ``capacity``, a budget is
        exceeded, or ``unbounded_lp`` solves another LP.
    TypeError
        If ``unbounded_lp`` is not a :class:`CapacityResult`.

    References
    ----------
    Gilmore and Gomory, Oper. Res. 9 (1961); PG21, Sec. III-A, eq. (4).

    Examples
    --------
    >>> from capacity import bin_packing_lp_pair
    >>> bounded, free = bin_packing_lp_pair([4, 4, 3, 3, 3, 2], 10)
    >>> bounded.lower, free.lower   # items per bin; 6 items
    (Fraction(3, 1), Fraction(60, 19))
    >>> 6 / free.lower   # fractional bins of the LP over all patterns
    Fraction(19, 10)
    """
    ws = to_numbers(weights, name="weights")
    if len(ws) == 0:
        raise ValueError("a bin-packing instance needs at least one item")
    lp = ConfigurationLP.of_instance(ws, capacity)
    sizes = [r[0] for r in lp.rows]
    probs = list(lp.demand)
    n = len(ws)
    if unbounded_lp is not None:
        if not isinstance(unbounded_lp, CapacityResult):
            raise TypeError(f"unbounded_lp must be the CapacityResult of rho_star, got "
                            f"{type(unbounded_lp).__name__}")
        given = dict(zip(unbounded_lp.sizes, unbounded_lp.demand, strict=True))
        if unbounded_lp.servers != 1 or given != dict(zip(sizes, probs, strict=True)):
            raise ValueError("unbounded_lp solves another LP: it must be rho_star of these "
                             "weights' distribution on one server of this capacity")
    l1, l2 = continuous_bound(ws, capacity), martello_toth_l2(ws, capacity)
    bound = mean_size_bound(1, Discrete(sizes, probs), lp.caps[0][0])
    # an LP at the continuous bound sum w / C is proven on a small residual LP with
    # perfect bins fixed; L2 above L1 says it is above that bound
    fast = None
    # a failed attempt's patterns, over lp's types (both from ConfigurationLP.of_instance)
    found: list[np.ndarray] = []
    if method == "column-generation" and unbounded_lp is None and n >= DECOMPOSE_ITEMS \
            and l2 <= l1 and all(
            isinstance(w, Fraction) and w.denominator == 1 and w > 0
            for w in [*ws, lp.caps[0][0]]):
        fast = lp_at_continuous_bound([int(w) for w in ws], int(lp.caps[0][0]),
                                      patterns=found)
    if fast is not None and fast[0].certified and fast[1].certified:
        res, free = fast[0], cap_by_lemma2(fast[1], bound)
    elif unbounded_lp is not None:
        free = unbounded_lp
        res = solve_configuration_lp(lp, method=method, max_types=max_types,
                                     max_configurations=max_configurations,
                                     warm_start=free if free.method == "column-generation"
                                     else None)
    else:
        # the bounded LP first: its patterns are patterns of the LP over all of them,
        # so its optimum and prices often prove that LP at once (Scholl_3-shaped 1,000
        # items), and start it otherwise; the other order took 12 bounded rounds there
        res = solve_configuration_lp(lp, method=method, max_types=max_types,
                                     max_configurations=max_configurations,
                                     columns=[(0, k) for k in found] or None)
        lp_free = ConfigurationLP.build(sizes, probs, [(capacity, 1)])
        free = result_of_mixture(lp_free, res.mixture, np.asarray(res.dual, dtype=float),
                                 how="the optimum and prices of the LP with copy bounds",
                                 method=res.method)
        if free.certified:
            free = cap_by_lemma2(free, bound)
        else:
            free = rho_star(sizes, probs, capacity=capacity, method=method,
                            max_types=max_types, max_configurations=max_configurations,
                            warm_start=res if res.method == "column-generation" else None)
    # Lemma 2 holds for the bounded LP too: a pattern's weights sum to at most C
    res = cap_by_lemma2(res, bound)
    z, (lo, hi) = fractional_bins(n, res)
    res = replace(res, extra={
        **res.extra,
        "z_lp": z,
        "z_lp_bounds": [lo, hi],
        "items": n,
        "distinct_weights": len(sizes),
        "l1": l1,
        "l2": l2,
        "lp_bins": math.ceil(float(lo) - 1e-9),
        "copies_bounded": True,
    })
    return res, free


def fractional_bins(n: int, res: CapacityResult) -> tuple[Number, tuple[Number, Number]]:
    """Fractional bins n / t of n items for an LP answer t (``rho_star`` or
    ``bin_packing_lp``), with the interval its certified bounds give."""
    lo = n / res.upper if float(res.upper) > 0 else math.inf
    hi = n / res.lower if float(res.lower) > 0 else math.inf
    # the float quotient may sit an ulp outside the exact interval: keep it inside
    return min(max(n / res.value, float(lo)), float(hi)), (lo, hi)
