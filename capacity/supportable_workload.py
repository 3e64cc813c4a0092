"""rho*, the maximum supportable workload for finitely many job types (PG21 eq. (4)).

.. math::
    \\rho^* = \\sup\\{\\rho : \\rho P < \\sum_{\\ell} x^\\ell,\\ x^\\ell \\in
    \\mathrm{Conv}(\\bar K)\\}

for L identical servers of capacity C. A bin-packing instance is the special case of
one server and the empirical distribution of its weights: its Gilmore-Gomory LP bound
is z_LP = n / rho*.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp
from capacity.result import CapacityResult, cap_by_lemma2
from theory.bounds import mean_size_bound
from theory.budgets import MAX_CONFIGURATIONS, MAX_LP_TYPES
from theory.distributions import Discrete, SizeDistribution
from theory.numbers import as_list, server_count, to_number, to_numbers

__all__ = ["rho_star", "bin_packing_lp"]


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
                                 max_types=max_types, max_configurations=max_configurations)
    bound = mean_size_bound(L, dist, lp.caps[0][0] if dist.dim == 1 else lp.caps[0])
    return cap_by_lemma2(res, bound)


def bin_packing_lp(weights: Sequence[object], capacity: object, *,
                   method: str = "column-generation", max_types: int = MAX_LP_TYPES,
                   max_configurations: int = MAX_CONFIGURATIONS) -> CapacityResult:
    """Gilmore-Gomory LP bound z_LP of a bin-packing instance (fractional bins).

    Solved as rho* of the empirical weight distribution on one server:
    ``z_LP = n / rho*``. ``extra`` holds ``z_lp``, its certified interval
    ``z_lp_bounds``, ``items``, ``distinct_weights``, the continuous bound
    ``l1 = ceil(sum w / C)`` and ``lp_bins = ceil(z_lp)`` (a lower bound on the optimum).
    """
    ws = to_numbers(weights, name="weights")
    if len(ws) == 0:
        raise ValueError("a bin-packing instance needs at least one item")
    cap = to_number(capacity, name="capacity")
    counts = Counter(ws)
    sizes = list(counts)
    n = len(ws)
    res = rho_star(sizes, [Fraction(counts[s], n) for s in sizes], capacity=capacity,
                   method=method, max_types=max_types, max_configurations=max_configurations)
    z = n / res.value
    lo = n / res.upper if float(res.upper) > 0 else math.inf
    hi = n / res.lower if float(res.lower) > 0 else math.inf
    total = sum(Fraction(w) for w in ws)
    res.extra.update({
        "z_lp": z,
        "z_lp_bounds": [lo, hi],
        "items": n,
        "distinct_weights": len(sizes),
        "l1": math.ceil(total / Fraction(cap)),
        "lp_bins": math.ceil(float(lo) - 1e-9),
    })
    return res
