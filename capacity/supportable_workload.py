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
    """Maximum supportable workload rho* = lambda/mu for finite job types (PG21 eq. (4)).

    Parameters
    ----------
    sizes : job sizes (scalars, or vectors for several resources), or a
        :class:`theory.distributions.Discrete` (then ``probs`` must be omitted).
    probs : type probabilities P_j (sum to one). Default: equally likely.
    servers : number L of identical servers.
    capacity : server capacity (scalar or vector); sizes are in the same units.
    method : ``"auto"``, ``"enumerate"`` or ``"column-generation"``.
    max_types, max_configurations : budgets (:mod:`theory.budgets`) on the job types
        of the LP and on the configurations ``method="enumerate"`` may list.
    warm_start : a solved LP over the same types and servers (e.g. ``bin_packing_lp``
        of these sizes, or rho* at a coarser partition) to start column generation
        from; it changes the path, never the answer.

    Returns
    -------
    CapacityResult with ``value`` = rho*, the optimal ``mixture`` of configurations,
    the ``dual`` prices (no feasible configuration prices above 1) and the certified
    interval ``lower <= rho* <= upper``; ``upper`` is capped by PG21 Lemma 2
    (``extra["lemma2_bound"]``, ``extra["upper_from"]``).

    Examples
    --------
    >>> rho_star(["0.4", "0.6"], ["1/2", "1/2"]).value   # PG21 Fig. 3a: (1, 1) fits
    2.0
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

    ``unbounded_lp``: that LP over all patterns if the caller has solved it already
    (``rho_star`` of the weights' empirical distribution at this capacity); refused
    when its types or probabilities differ.
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
    (:mod:`capacity.perfect_bin_decomposition`)."""
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
