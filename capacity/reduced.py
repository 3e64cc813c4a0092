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
        """Certified interval of rho_VQS / rho*; the upper end is inf when rho*'s lower
        end is 0 (what a failed check leaves: nothing proven)."""
        hi = (float(self.upper) / self.rho_star_lower if self.rho_star_lower > 0
              else float("inf"))
        return (float(self.lower) / self.rho_star_upper, hi)

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
    """Reduced-set capacity rho_VQS(F, J) (PG21 Lemma 3) and its ratio to ``rho*``.

    The largest workload that mixtures of the 4J - 4 configurations of K_RED^(J)
    (PG21 Def. 6) support when jobs are sorted into the 2J virtual queues of the
    universal partition I (PG21 eq. (18); sizes in (0, 1/2^J] join the last one):

    .. math::

        \\rho_{VQS}(F, J) = \\max\\{\\rho : \\rho P^{(I)} \\le L x,\\
        x \\in \\mathrm{Conv}(K_{RED}^{(J)})\\}

    By Lemma 3 (Thm. 3) it is at least 2/3 of ``rho*`` when every size exceeds
    1/2^J; it is never above ``rho*``, since every K_RED configuration fits the
    upper-rounded sizes of I. ``rho*`` is computed beside it: the certified LP
    (:func:`capacity.rho_star`) for a :class:`theory.Discrete` law, else the last of
    :func:`quantile_brackets` (up to ``levels``, stopping at gap ``rtol``).

    Parameters
    ----------
    dist : SizeDistribution
        The size law, scalar sizes in the units of ``capacity``.
    J : int
        The universal partition's parameter, an integer with 1 < J <= 50
        (:data:`theory.MAX_J`): 2J virtual queues, 4J - 4 configurations.
    servers : int, default 1
        Number L of identical servers.
    capacity : number, default 1
        The server capacity in the sizes' units (PG21 normalises it to 1; the answer
        is the same for ``dist.scaled(1 / capacity)`` on unit servers).
    levels : int, default 8
        The last quantile level for ``rho*`` of a law that is not discrete (ignored,
        and not checked, for a :class:`theory.Discrete`).
    rtol : float, default 1e-4
        The relative gap at which those brackets stop, in [0, 1) (ignored, and not
        checked, for a :class:`theory.Discrete`).
    max_types : int, default MAX_LP_TYPES
        Budget on the job types of the ``rho*`` LPs (and on the cells of X^(levels)).
    max_configurations : int, default MAX_CONFIGURATIONS
        Budget on the configurations :func:`capacity.rho_star` may enumerate (a
        discrete law only; the brackets have no such budget).

    Returns
    -------
    VQSCapacity
        A frozen record: ``value`` (rho_VQS as HiGHS found it, a float), ``lower``
        and ``upper`` (its proven interval, see Notes), ``upper_from`` (``"LP dual"``
        or ``"Lemma 2"``), ``probabilities`` (P^(I), one per queue 0..2J-1),
        ``mixture`` (label and weight of each K_RED configuration used),
        ``rho_star_lower`` and ``rho_star_upper`` (``rho*``'s interval, floats),
        ``J`` and ``servers``; ``ratio_bounds`` is the interval of
        ``rho_VQS / rho*`` those give, ``ratio`` the point estimate ``value`` over
        the midpoint of ``rho*``'s interval, ``as_dict()`` all of it as plain values.

    Raises
    ------
    TypeError
        If ``dist`` is not a size distribution.
    ValueError
        If ``J`` is not an integer above 1 or exceeds 50; ``servers`` is not a
        positive integer; ``capacity`` is not a positive finite number or a size
        exceeds it; the sizes are vectors; or (for a law that is not discrete)
        ``levels`` is not a non-negative integer or ``rtol`` not a finite number in
        [0, 1).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) When a ``rho*`` LP exceeds ``max_types`` or
        ``max_configurations``.
    capacity.LPSolveError
        When HiGHS fails on the K_RED LP or a ``rho*`` LP.

    See Also
    --------
    capacity.rho_star, quantile_brackets, theory.reduced_configurations,
    theory.universal_partition

    Notes
    -----
    The result has no ``certified`` flag. What is proven and what is not:

    - ``lower <= rho_VQS <= upper`` is proven, whatever the solver did: ``lower``
      from the solver's mixture (weights clipped at 0 and scaled to sum to at most
      1), ``upper`` by weak duality from its prices ``y >= 0`` clipped at 0, as
      ``L max_k <y, k> / <y, P>`` over the 4J - 4 listed configurations, or by
      PG21 Lemma 2 (``L / R-bar``) when that is smaller (``upper_from``). The check
      is exact (Fractions) when every P^(I)_j is a Fraction, as for exact laws;
      with float probabilities it runs in floating point and holds up to rounding.
      ``upper`` is ``inf`` when the prices prove nothing (``<y, P> = 0``) and Lemma
      2 does not apply; ``lower`` is 0 when the mixture leaves a queue with
      probability unserved.
    - ``value`` is the solver's float optimum, not itself proven; nothing checks
      that ``upper - lower`` is small.
    - ``rho_star_lower`` and ``rho_star_upper`` are the proven ends of ``rho*``
      (the ``rho*`` LP's certificate, or the last bracket's ``lo`` and ``hi``)
      rounded to the nearest float; whether that LP or bracket was certified is not
      recorded (an end whose check failed shows as 0), and a bracket that stopped
      at ``levels`` may be wider than ``rtol``.
    - ``ratio_bounds`` is computed from these in floating point (proven up to
      rounding); ``ratio`` is an estimate, not a bound.

    References
    ----------
    PG21, Sec. V-A, eq. (18) (universal partition I and its virtual queues);
    Sec. V-B, Def. 6, eq. (19) (the reduced set K_RED^(J)); Sec. V-C, Thm. 3, and
    Sec. VIII-B, Lemma 3 (rho_VQS >= (2/3) ``rho*`` when the sizes exceed 1/2^J);
    Sec. IV-B, Lemma 2 (``rho* <= L / R-bar``).

    Examples
    --------
    Sizes 0.4 and 0.6 (PG21 Fig. 3a): ``rho* = 2``, since 0.4 + 0.6 fills a server.
    In the queues of I they count as 1/2 and 2/3, which never share a server, so
    rho_VQS = 4/3 and the ratio is exactly Lemma 3's 2/3:

    >>> from capacity import rho_vqs
    >>> from theory import Discrete, Uniform
    >>> v = rho_vqs(Discrete(["0.4", "0.6"]), J=3)
    >>> round(v.value, 9), v.upper, v.upper_from
    (1.333333333, Fraction(4, 3), 'LP dual')
    >>> float(v.lower), (v.rho_star_lower, v.rho_star_upper)
    (1.3333333333333333, (2.0, 2.0))
    >>> [round(r, 9) for r in v.ratio_bounds]
    [0.666666667, 0.666666667]
    >>> v.mixture
    [('2^1 e_2', 0.333...), ('e_1 + floor(2^2/3) e_4', 0.666...)]

    A law with a density: ``rho*`` is bracketed over quantile partitions.

    >>> v = rho_vqs(Uniform("1/5", "3/5"), J=3, levels=3)
    >>> round(v.value, 6), [round(r, 4) for r in v.ratio_bounds]
    (2.086957, [0.8348, 0.8609])
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
