"""Closed-form bounds and constants stated in PG21, each with its reference.

These are formulas, not solvers: the LPs that compute rho* live in :mod:`capacity`.
"""

from __future__ import annotations

import math
from fractions import Fraction

from theory.distributions import SizeDistribution
from theory.numbers import Number, to_number

__all__ = [
    "mean_size_bound",
    "bfjs_guarantee",
    "vqs_fraction",
    "choose_J",
    "universal_scheduled_size",
    "lemma1_N1",
    "theorem2_constants",
    "lower_from_upper_quantile",
    "quantile_bracket_gap",
    "prop2_rho_star",
    "prop2_upper_rounded_limit",
]


def _check_servers(L: int) -> int:
    if not isinstance(L, int) or L < 1:
        raise ValueError(f"number of servers must be a positive integer, got {L!r}")
    return L


def _mean(dist_or_mean: SizeDistribution | object) -> Number:
    m = dist_or_mean.mean() if isinstance(dist_or_mean, SizeDistribution) else dist_or_mean
    m = to_number(m, name="mean size")
    if not m > 0:
        raise ValueError(f"mean size must be positive, got {m}")
    return m


def mean_size_bound(L: int, dist_or_mean: SizeDistribution | object) -> Number:
    """rho* <= L / R-bar (PG21 Lemma 2): servers cannot hold more than L units of size."""
    return _check_servers(L) / _mean(dist_or_mean)


def bfjs_guarantee(L: int, dist_or_mean: SizeDistribution | object) -> Number:
    """BF-J/S is stable for every rho < L / (2 R-bar) (PG21 Thm. 2, proof eqs. (12)-(17)).

    With Lemma 2 this is at least rho*/2.
    """
    return _check_servers(L) / (2 * _mean(dist_or_mean))


def vqs_fraction(eps: object = 0) -> Fraction | float:
    """Guaranteed fraction of rho* for VQS and VQS-BF: (1 - eps) * 2/3.

    PG21 Thm. 3 (eps = 0, sizes > 1/2^J), Cor. 1 and Thm. 4 (F_R(1/2^J) < eps).
    """
    e = to_number(eps, name="eps")
    if not 0 <= e < 1:
        raise ValueError(f"eps must be in [0, 1), got {e}")
    return (1 - e) * Fraction(2, 3)


def choose_J(dist: SizeDistribution, eps: object) -> int:
    """Smallest integer J > 1 with F_R(1/2^J) < eps (PG21 Cor. 1).

    With ``eps = 0`` this is the smallest J with no mass at or below 1/2^J (Thm. 3
    needs sizes > 1/2^J); raises if no such J exists (sizes accumulating at 0).
    """
    e = to_number(eps, name="eps")
    if not 0 <= e < 1:
        raise ValueError(f"eps must be in [0, 1), got {e}")
    for J in range(2, 64):
        F = dist.cdf(Fraction(1, 2**J))
        if (F < e) if e > 0 else (F == 0):
            return J
    raise ValueError("no J <= 63 satisfies the condition; the distribution has mass near 0")


def universal_scheduled_size(x: object, J: int) -> Number:
    """Size VQS uses for a job of size x: sizes in (0, 1/2^J] are rounded up to 1/2^J.

    PG21 Sec. V-A (last paragraph before V-B).
    """
    v = to_number(x, name="size")
    t = Fraction(1, 2**J)
    return t if v <= t else v


def lemma1_N1(eps1: float, L: int, mu: float, K_max: int) -> int:
    """Smallest integer N_1 with N_1 > log(eps1/L) / log(1 - mu^K_max) (PG21 eq. (10))."""
    _check_servers(L)
    if not (0 < eps1 < 1 and 0 < mu <= 1 and K_max >= 1):
        raise ValueError("need 0 < eps1 < 1, 0 < mu <= 1, K_max >= 1")
    if mu == 1:
        return 1
    bound = math.log(eps1 / L) / math.log1p(-(mu**K_max))
    return math.floor(bound) + 1


def theorem2_constants(eps: float, L: int, mu: float, u: float) -> dict[str, float]:
    """The constants of the BF-J/S proof, PG21 eqs. (15)-(17).

    ``eps1 = eps/3``, ``N_2 = ceil(3 L N_1 / eps)``, ``delta = L N_2 eps / 3``,
    with ``K_max = ceil(1/u)`` and N_1 from eq. (17).
    """
    if not (0 < eps < 1 and 0 < u <= 1):
        raise ValueError("need 0 < eps < 1 and 0 < u <= 1")
    K_max = math.ceil(1 / u)
    N1 = lemma1_N1(eps / 3, L, mu, K_max)
    N2 = math.ceil(3 * L * N1 / eps)
    return {"eps1": eps / 3, "K_max": K_max, "N1": N1, "N2": N2, "delta": L * N2 * eps / 3}


def lower_from_upper_quantile(rho_upper: object, L: int, m: int) -> Number:
    """PG21 eq. (40): lower-rounded rho* of X^(n) from the upper-rounded one, m = 2^(n+1).

    Valid for a continuous F_R and the paper's X^(n) (outer cut points 0 and 1).
    """
    r = to_number(rho_upper, name="rho_upper")
    _check_servers(L)
    denom = 1 - r / (L * m)
    if not denom > 0:
        raise ValueError("rho_upper must be below L * m")
    return r / denom


def quantile_bracket_gap(rho_lower: object, L: int, m: int) -> Number:
    """PG21 eq. (41): lower-rounded minus upper-rounded rho* = rho_low^2 / (L m + rho_low)."""
    r = to_number(rho_lower, name="rho_lower")
    _check_servers(L)
    return r * r / (L * m + r)


def prop2_rho_star(L: int = 1) -> Fraction:
    """rho* = 2 L for sizes 1/2 -+ e equally likely (PG21 Sec. VIII-C): pairs fit exactly."""
    return Fraction(2 * _check_servers(L))


def prop2_upper_rounded_limit(L: int = 1) -> Fraction:
    """Best workload under any upper-rounded partition in PG21 Prop. 2: (2/3) rho* = 4L/3.

    From eq. (61) with maximal configurations (2, 0) and (0, 1): p_1 = 1/3, p_2 = 2/3
    (the paper prints p_2 = 1/3; see the errata register).
    """
    return Fraction(4 * _check_servers(L), 3)
