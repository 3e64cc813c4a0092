"""Capacity of the reduced configuration set K_RED^(J) (PG21 Lemma 3, Def. 6, Thm. 3).

.. math::
    \\rho_{VQS}(F, J) = \\max\\{\\rho : \\rho P^{(I)} \\le L x,\\ x \\in
    \\mathrm{Conv}(K_{RED}^{(J)})\\}

where P^(I) are the probabilities of the universal partition's virtual queues (sizes
in (0, 1/2^J] join VQ_{2J-1}). Lemma 3 / Thm. 3: rho_VQS >= (2/3) rho* when every size
exceeds 1/2^J. The LP has only 4J-4 columns and is certified exactly: the dual bound
is a maximum over the listed configurations.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from capacity._lp_highs import MasterLP
from capacity.brackets import quantile_brackets, require_distribution
from capacity.result import lemma2_cap
from capacity.supportable_workload import rho_star
from theory.bounds import mean_size_bound
from theory.budgets import MAX_CONFIGURATIONS, MAX_LP_TYPES
from theory.configurations import reduced_configurations
from theory.distributions import Discrete, SizeDistribution, unit_sizes
from theory.numbers import Number, server_count
from theory.partitions import type_probabilities, universal_partition

__all__ = ["VQSCapacity", "rho_vqs"]


@dataclass(frozen=True)
class VQSCapacity:
    """rho_VQS with its certified interval, and rho* (exact or bracketed) beside it."""

    J: int
    servers: int
    value: float
    lower: Number
    upper: Number
    probabilities: list[Number]  # P^(I), one per VQ 0..2J-1
    mixture: list[tuple[str, float]]  # (label of the K_RED configuration, weight)
    rho_star_lower: float
    rho_star_upper: float
    upper_from: str = "LP dual"  # or "Lemma 2" (rho_VQS <= rho* <= L / R-bar)

    @property
    def ratio_bounds(self) -> tuple[float, float]:
        """Certified interval of rho_VQS / rho*."""
        return (float(self.lower) / self.rho_star_upper, float(self.upper) / self.rho_star_lower)

    @property
    def ratio(self) -> float:
        return self.value / (0.5 * (self.rho_star_lower + self.rho_star_upper))

    def as_dict(self) -> dict:
        return {
            "rho_vqs": self.value,
            "J": self.J,
            "servers": self.servers,
            "rho_vqs_bounds": [float(self.lower), float(self.upper)],
            "upper_from": self.upper_from,
            "rho_star_bounds": [self.rho_star_lower, self.rho_star_upper],
            "ratio": self.ratio,
            "ratio_bounds": list(self.ratio_bounds),
            "vq_probabilities": [float(p) for p in self.probabilities],
            "mixture": [{"config": lbl, "weight": w} for lbl, w in self.mixture],
        }


def _vqs_lp(P: list[Number], J: int, L: int) -> tuple[float, Number, Number, list]:
    red = reduced_configurations(J)
    K = red.configs
    d = np.array([float(p) for p in P])
    master = MasterLP(d, np.array([float(L)]))
    master.add_columns(0, K)
    sol = master.solve()
    exact = all(isinstance(p, Fraction) for p in P)
    # primal: min_j L sum_k p_k k_j / P_j with class weights normalised to <= 1
    w = [Fraction(v) if exact else float(v) for v in np.maximum(sol.p, 0.0)]
    tot = sum(w)
    if tot > 1:
        w = [v / tot for v in w]
    supply = [sum(int(K[i, j]) * w[i] for i in range(len(K))) * L for j in range(2 * J)]
    lower = min(supply[j] / P[j] for j in range(2 * J) if P[j] > 0)
    # dual: y >= 0 and beta = max over K_RED of <y, k> give rho <= L beta / <y, P>
    y = [Fraction(v) if exact else float(v) for v in np.maximum(sol.y, 0.0)]
    beta = max(sum(int(K[i, j]) * y[j] for j in range(2 * J)) for i in range(len(K)))
    yP = sum(y[j] * P[j] for j in range(2 * J))
    upper = L * beta / yP if yP > 0 else float("inf")
    mixture = [(red.labels[i], float(sol.p[i])) for i in range(len(K)) if sol.p[i] > 1e-13]
    return sol.t, lower, upper, mixture


def rho_vqs(
    dist: SizeDistribution,
    J: int,
    *,
    servers: int = 1,
    capacity: object = 1,
    levels: int = 8,
    rtol: float = 1e-4,
    max_types: int = MAX_LP_TYPES,
    max_configurations: int = MAX_CONFIGURATIONS,
) -> VQSCapacity:
    """Reduced-set capacity rho_VQS(F, J) (PG21 Lemma 3) and its ratio to rho*.

    rho* is exact (certified LP) for a discrete F_R, and a Theorem 1 bracket over
    quantile partitions (up to ``levels``, stopping at gap ``rtol``) otherwise;
    ``max_types`` and ``max_configurations`` are passed to those LPs.

    ``capacity``: the server capacity in the sizes' units (PG21 normalises it to 1;
    the answer is the same for ``dist.scaled(1 / capacity)`` on unit servers).
    """
    server_count(servers)
    require_distribution(dist)
    reduced_configurations(J)  # validates J (1 < J <= MAX_J) before any work
    dist = unit_sizes(dist, capacity)
    I = universal_partition(J)
    P = type_probabilities(dist, I)
    value, lower, upper, mixture = _vqs_lp(P, J, servers)
    upper, capped = lemma2_cap(lower, upper, mean_size_bound(servers, dist))
    if isinstance(dist, Discrete):
        rs = rho_star(dist, servers=servers, max_types=max_types,
                      max_configurations=max_configurations)
        lo, hi = float(rs.lower), float(rs.upper)
    else:
        br = quantile_brackets(dist, levels, servers=servers, rtol=rtol,
                               max_types=max_types)[-1]
        lo, hi = float(br.lo), float(br.hi)
    return VQSCapacity(J, servers, value, lower, upper, P, mixture, lo, hi,
                       "Lemma 2" if capped else "LP dual")
