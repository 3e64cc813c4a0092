"""Closed-form bounds and constants stated in PG21, each with its reference.

These are formulas, not solvers: the LPs that compute rho* live in :mod:`capacity`.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import numpy as np

from theory.distributions import SizeDistribution
from theory.numbers import Number, positive_int, server_count, to_number, to_numbers

__all__ = [
    "lemma2_by_resource",
    "mean_size_bound",
    "fixed_configuration_workload",
    "bfjs_guarantee",
    "vqs_fraction",
    "choose_J",
    "universal_scheduled_size",
    "lemma1_N1",
    "theorem2_constants",
    "theorem2_n2",
    "theorem2_margin",
    "theorem2_h_infimum",
    "prop1_eq28_odd_bound",
    "prop2_mixture_weights",
    "lower_from_upper_quantile",
    "quantile_bracket_gap",
    "prop2_rho_star",
    "prop2_upper_rounded_limit",
]


def _check_servers(L: int) -> int:
    return server_count(L, name="number of servers")


def _check_m(m: int) -> int:
    """m = 2^(n+1), the number of cells of the quantile partition X^(n) (PG21 Sec. VIII-A)."""
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise ValueError(f"m (= 2^(n+1), the number of cells) must be a positive integer, "
                         f"got {m!r}")
    return m


def _workload(rho: object, name: str) -> Number:
    """A workload rho >= 0 (the papers' rho = lambda / mu, PG21 Sec. II)."""
    r = to_number(rho, name=name)
    if r < 0:
        raise ValueError(f"{name} must be a non-negative workload, got {r}")
    return r


def _mean(dist_or_mean: SizeDistribution | object) -> Number:
    m = dist_or_mean.mean() if isinstance(dist_or_mean, SizeDistribution) else dist_or_mean
    m = to_number(m, name="mean size")
    if not m > 0:
        raise ValueError(f"mean size must be positive, got {m}")
    return m


def lemma2_by_resource(room: Sequence[Number], load: Sequence[Number]
                       ) -> tuple[Number, int] | None:
    """PG21 Lemma 2 (Sec. IV-B, rho* <= L / R-bar) in every resource r, for PG18's
    vectors: the servers hold at most ``room[r]`` (= sum_c L_c C_cr) units of resource
    r and one unit of workload brings ``load[r]`` (= R-bar_r, or sum_j d_j s_jr for a
    direction d), so rho* <= room[r] / load[r]. The smallest such bound (exact for
    Fractions) and its resource, the first on a tie; None when no load is positive."""
    best: tuple[Number, int] | None = None
    for r, (held, brought) in enumerate(zip(room, load, strict=True)):
        if brought > 0:
            b = held / brought
            if best is None or b < best[0]:
                best = (b, r)
    return best


def mean_size_bound(L: int, dist_or_mean: SizeDistribution | object,
                    capacity: object = 1) -> Number:
    """rho* <= L C / R-bar (PG21 Lemma 2): servers cannot hold more than L C units of size.

    For vector sizes (PG18) the bound holds in every resource:
    rho* <= min_d L C_d / R-bar_d over the resources with a positive mean
    (:func:`lemma2_by_resource`).
    """
    L = _check_servers(L)
    m = dist_or_mean.mean() if isinstance(dist_or_mean, SizeDistribution) else dist_or_mean
    if isinstance(m, np.ndarray | list | tuple):
        means = [to_number(v, name="mean size") for v in m]
        caps = ([to_number(c, name="capacity") for c in capacity]
                if isinstance(capacity, list | tuple | np.ndarray) else
                [to_number(capacity, name="capacity")] * len(means))
        if len(caps) != len(means) or not any(v > 0 for v in means):
            raise ValueError("vector mean needs a positive entry and a matching capacity")
        room = [L * c for c in caps]
    else:
        room = [L * to_number(capacity, name="capacity")]
        means = [_mean(m)]
    bound = lemma2_by_resource(room, means)
    assert bound is not None  # a positive mean was required above
    return bound[0]


def fixed_configuration_workload(config: Sequence[object], probs: Sequence[object],
                                 L: int = 1) -> Number:
    """Largest workload that L servers all frozen in configuration ``config`` keep up with.

    Type j arrives at rate rho P_j mu and is served at rate L k_j mu, so the servers keep
    up with every type iff rho <= L min_{P_j > 0} k_j / P_j (0 if some type with P_j > 0
    is missing from ``config``). PG21 Sec. VII-A.2 uses it for Fig. 3b: configuration
    (2, 1) serves (0.02, 0.01) < the arrivals (0.0204, 0.0102).
    """
    _check_servers(L)
    ks = []
    for k in config:
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 0:
            raise ValueError(f"configuration entries must be non-negative integers, got {k!r}")
        ks.append(int(k))
    ps = to_numbers(probs, name="probability")
    if len(ks) != len(ps) or not ks:
        raise ValueError("config and probs must have the same non-zero length")
    if any(p < 0 for p in ps) or not any(p > 0 for p in ps):
        raise ValueError("probabilities must be non-negative and not all zero")
    return L * min(Fraction(k) / p if isinstance(p, Fraction) else k / p
                   for k, p in zip(ks, ps, strict=True) if p > 0)


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

    PG21 Sec. V-A (last paragraph before V-B). ``J`` is validated as for the universal
    partition (an integer J > 1, eq. (18)) and ``x`` must be a positive size.
    """
    if isinstance(J, bool) or not isinstance(J, int) or J < 2:
        raise ValueError(f"the universal partition needs an integer J > 1 (eq. 18), got {J!r}")
    v = to_number(x, name="size")
    if not v > 0:
        raise ValueError(f"job sizes must be positive, got {v}")
    t = Fraction(1, 2**J)
    return t if v <= t else v


#: :func:`lemma1_N1` raises ``ValueError`` rather than compute an N_1 with more decimal
#: digits than this (Python's default limit for converting an int to text).
LEMMA1_MAX_DIGITS = 4300


def _wide_context(prec: int) -> decimal.Context:
    """A decimal context with ``prec`` digits and the widest exponent range (mu^K may lie
    far below the float range); overflow and underflow raise instead of rounding."""
    return decimal.Context(prec=prec, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX,
                           traps=[decimal.InvalidOperation, decimal.DivisionByZero,
                                  decimal.Overflow, decimal.Underflow])


def _log1m_series(z: Decimal) -> Decimal:
    """-ln(1 - z) = z + z^2/2 + z^3/3 + ... for 0 <= z <= 1/16, in the current context.

    The terms are positive and shrink at least 16-fold, so the sum keeps full relative
    precision even when z is far below the context precision (no cancellation in 1 - z).
    """
    total = term = z
    tiny = z.scaleb(-(decimal.getcontext().prec + 2))
    k = 1
    while True:
        k += 1
        term *= z
        add = term / k
        if add <= tiny:
            return total
        total += add


def _neg_log1m(z: Fraction) -> Decimal:
    """-ln(1 - z) for a rational 0 < z < 1, to the relative precision of the context."""
    if z <= Fraction(1, 16):
        return _log1m_series(Decimal(z.numerator) / Decimal(z.denominator))
    y = 1 - z  # y < 15/16, so |ln y| > 0.06: ln(y) directly has full relative precision
    return -(Decimal(y.numerator) / Decimal(y.denominator)).ln()


def _one_minus_exp_neg(s: Decimal) -> Decimal:
    """1 - e^(-s) for s > 0, in the current context (a series for small s: no cancellation)."""
    if s >= Decimal("0.0625"):
        return 1 - (-s).exp()
    total = term = s
    tiny = s.scaleb(-(decimal.getcontext().prec + 2))
    k = 1
    while abs(term) > tiny:
        k += 1
        term = -term * s / k
        total += term
    return total


class _Eq10:
    """The two sides of PG21 eq. (10) as c = -ln(1 - mu^K) > 0 and d = -ln(eps1/L) > 0.

    N > log(eps1/L) / log(1 - mu^K) = d / c  <=>  N c > d  <=>  (1 - mu^K)^N < eps1/L
    (both logs are negative, so dividing by log(1 - mu^K) flips the inequality).
    """

    def __init__(self, t: Fraction, mu: Fraction, K: int):
        self.t, self.mu, self.K = t, mu, K  # 0 < t < 1, 0 < mu < 1, K >= 1
        self._cache: dict[int, tuple[Decimal, Decimal]] = {}

    def logs(self, digits: int) -> tuple[Decimal, Decimal]:
        """(c, d) with relative error far below 10^-digits.

        c = -ln(1 - e^-s) is computed from s = -K ln(mu) = -ln(mu^K), never from a float
        mu^K: by the log series when mu^K = e^-s <= e^-3, else as the log of 1 - e^-s
        (a series itself for small s). The relative error of s is amplified by s in e^-s,
        hence the extra guard digits.
        """
        digits = -(-digits // 32) * 32  # share cached values between nearby precisions
        if digits not in self._cache:
            guard = 15 + max(0, math.ceil(math.log10(max(1.0, self._s_float()))))
            with decimal.localcontext(_wide_context(digits + guard)):
                s = self.K * _neg_log1m(1 - self.mu)
                if s >= 3:  # mu^K <= e^-3 < 1/16
                    c = _log1m_series((-s).exp())
                else:  # 1 - mu^K = 1 - e^-s < 0.951, so |ln(1 - mu^K)| > 0.05
                    c = -_one_minus_exp_neg(s).ln()
                d = _neg_log1m(1 - self.t)
            self._cache[digits] = (c, d)
        return self._cache[digits]

    def _s_float(self) -> float:
        """s = -ln(mu^K) in floats (for magnitudes only; mu^K itself may underflow)."""
        return self.K * (math.log(self.mu.denominator) - math.log(self.mu.numerator))

    def log10_bound(self) -> float:
        """log10(d / c) to within a small absolute error, without over- or underflow."""
        ln_x = -self._s_float()
        with decimal.localcontext(_wide_context(30)):
            log10_d = float(_neg_log1m(1 - self.t).log10())
        if ln_x < -10:  # c = x (1 + x/2 + ...) with x = mu^K < 5e-5
            log10_c = ln_x / math.log(10)
        else:
            with decimal.localcontext(_wide_context(30)):
                log10_c = float(self.logs(20)[0].log10())
        return log10_d - log10_c

    def holds(self, N: int) -> bool:
        """Decide eq. (10) for N exactly: (1 - mu^K)^N < t."""
        dm, dt = self.mu.denominator, self.t.denominator
        # 1 - mu^K has denominator dm^K in lowest terms, so (1 - mu^K)^N = t needs
        # den(t) = dm^(K N), impossible once K N (bits(dm) - 1) > bits(den t). Whenever
        # equality is possible (or the powers are small anyway) compare exact rationals.
        if self.K * N * dm.bit_length() <= max(20_000, 2 * dt.bit_length()):
            return (1 - self.mu**self.K) ** N < self.t
        # Otherwise N c != d: refine the precision until the sign of N c - d is certain.
        digits = len(str(N)) + 20
        while True:
            c, d = self.logs(digits)
            with decimal.localcontext(_wide_context(digits + len(str(N)) + 20)):
                lhs = N * c
                tol = (lhs + d).scaleb(-digits)
                if lhs - d > tol:
                    return True
                if d - lhs > tol:
                    return False
            if digits > 8 * LEMMA1_MAX_DIGITS:
                raise ValueError("eq. (10) could not be decided numerically")
            digits *= 2


def lemma1_N1(eps1: object, L: int, mu: object, K_max: int) -> int:
    """Smallest integer N_1 with N_1 > log(eps1/L) / log(1 - mu^K_max) (PG21 eq. (10)).

    The inequality is strict and decided exactly through its equivalent
    ``(1 - mu^K_max)^N_1 < eps1/L``: with exact rationals (floats are read as the binary
    rationals they denote) wherever the bound can be an integer, and otherwise with
    high-precision logarithms refined until the sign is certain. An estimate of the
    bound is corrected by +-1 until N_1 is minimal, so an integer bound n gives n + 1.

    Tiny ``mu**K_max`` (even below the float range) is handled: N_1 is then the exact,
    huge integer (about log(L/eps1) / mu^K_max). If N_1 would have more than
    :data:`LEMMA1_MAX_DIGITS` decimal digits, ``ValueError`` is raised instead.
    """
    _check_servers(L)
    if isinstance(K_max, bool) or not isinstance(K_max, int):
        raise ValueError(f"K_max must be a positive integer, got {K_max!r}")
    e = to_number(eps1, name="eps1")
    m = to_number(mu, name="mu")
    if not (0 < e < 1 and 0 < m <= 1 and K_max >= 1):
        raise ValueError("need 0 < eps1 < 1, 0 < mu <= 1, K_max >= 1")
    if m == 1:
        return 1  # 1 - mu^K = 0 < eps1/L: every job leaves within one slot
    eq10 = _Eq10(Fraction(e) / L, Fraction(m), K_max)
    log10_bound = eq10.log10_bound()
    if log10_bound >= LEMMA1_MAX_DIGITS:
        raise ValueError(f"N_1 of eq. (10) is about 10^{log10_bound:.6g}, more than "
                         f"{LEMMA1_MAX_DIGITS} digits: mu^K_max (about 10^"
                         f"{-eq10._s_float() / math.log(10):.6g}) is too small")
    digits = max(1, math.floor(log10_bound) + 2)
    c, d = eq10.logs(digits + 20)
    with decimal.localcontext(_wide_context(digits + 40)):
        estimate = int((d / c).to_integral_value(rounding=decimal.ROUND_FLOOR))
    N1 = max(1, estimate + 1)
    while not eq10.holds(N1):
        N1 += 1
    while N1 > 1 and eq10.holds(N1 - 1):
        N1 -= 1
    return N1


def theorem2_constants(eps: float, L: int, mu: float, u: float) -> dict[str, float]:
    """The constants of the BF-J/S proof, PG21 eqs. (15)-(17), as corrected.

    ``eps1 = eps/3``, ``N_2 = ceil(3 L N_1 / eps)``, ``delta = h = L N_2 eps / 6``, with
    ``K_max = ceil(1/u)`` and N_1 from eq. (17). The paper prints L N_2 eps / 3 for delta
    (eq. (15)) and h (eq. (16)); with it the drift condition below eq. (14) fails
    (errata PG21.Thm2.eq15 and PG21.Thm2.eq16, checked by PG21.Thm2.constants).
    """
    if not (0 < eps < 1 and 0 < u <= 1):
        raise ValueError("need 0 < eps < 1 and 0 < u <= 1")
    K_max = math.ceil(1 / u)
    N1 = lemma1_N1(eps / 3, L, mu, K_max)
    N2 = math.ceil(3 * L * N1 / eps)
    delta = L * N2 * eps / 6
    return {"eps1": eps / 3, "K_max": K_max, "N1": N1, "N2": N2, "delta": delta, "h": delta}


def lower_from_upper_quantile(rho_upper: object, L: int, m: int) -> Number:
    """PG21 eq. (40): lower-rounded rho* of X^(n) from the upper-rounded one, m = 2^(n+1).

    Valid for a continuous F_R and the paper's X^(n) (outer cut points 0 and 1).
    ``m`` must be a positive integer and ``rho_upper`` a non-negative workload below L m.
    """
    r = _workload(rho_upper, "rho_upper")
    _check_servers(L)
    _check_m(m)
    denom = 1 - r / (L * m)
    if not denom > 0:
        raise ValueError("rho_upper must be below L * m")
    return r / denom


def quantile_bracket_gap(rho_lower: object, L: int, m: int) -> Number:
    """PG21 eq. (41): lower-rounded minus upper-rounded rho* = rho_low^2 / (L m + rho_low).

    ``m = 2^(n+1)`` must be a positive integer and ``rho_lower`` a non-negative workload.
    """
    r = _workload(rho_lower, "rho_lower")
    _check_servers(L)
    _check_m(m)
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


# -- exact closed forms of PG21's proofs (the errata register's checks use them) ------


def _exact(x: object, name: str) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, int | Fraction | str):
        raise TypeError(f"{name} must be an int, Fraction or decimal string (exact), "
                        f"got {type(x).__name__}")
    return Fraction(x)


def _exact_eps(eps: object) -> Fraction:
    e = _exact(eps, "eps")
    if not 0 < e < 1:
        raise ValueError(f"eps must be in (0, 1), got {e}")
    return e


def prop2_mixture_weights(p1: object, p2: object, *,
                          require_distribution: bool = True) -> Fraction | None:
    """Workload rho that weights (p1, p2) on configurations (2, 0) and (0, 1) support for
    the demand rho (1/2, 1/2) of PG21 eq. (61), exactly: min(4 p1, 2 p2).

    None if the weights are negative or, with ``require_distribution``, if they do not
    meet (61)'s constraint p1 + p2 = 1 (without it, a sum above 1 is still refused)."""
    a, b = _exact(p1, "p1"), _exact(p2, "p2")
    if a < 0 or b < 0 or a + b > 1 or (require_distribution and a + b != 1):
        return None
    return min(4 * a, 2 * b)


def theorem2_n2(eps: object, L: int, N1: int) -> int:
    """N_2 = ceil(3 L N_1 / eps) of PG21 eq. (15), exactly."""
    e = _exact_eps(eps)
    q = 3 * positive_int(L, name="L") * positive_int(N1, name="N1") / e
    return -(-q.numerator // q.denominator)


def theorem2_margin(eps: object, delta_divisor: int, L: int | None = None,
                    N1: int | None = None) -> Fraction:
    """(1 - eps_1)(1 - L N_1/N_2) - 2 delta/(L N_2) - (1 - eps), exactly, for eps_1 = eps/3,
    N_2 = ceil(3 L N_1/eps) and delta = L N_2 eps/delta_divisor (PG21 Sec. IV-B, the
    condition below eq. (14) with the constants of eq. (15)). Positive means the condition
    holds. Without L and N_1: the worst case L N_1/N_2 = eps/3 (3 L N_1/eps an integer)."""
    e = _exact_eps(eps)
    d = positive_int(delta_divisor, name="delta_divisor")
    if (L is None) != (N1 is None):
        raise ValueError("give both L and N1, or neither (worst case)")
    x = e / 3 if L is None or N1 is None else Fraction(L * N1, theorem2_n2(e, L, N1))
    return (1 - e / 3) * (1 - x) - 2 * e / d - (1 - e)


def theorem2_h_infimum(eps: object, L: int, N1: int) -> Fraction:
    """Infimum over rho < (1 - eps) L/(2 R-bar) of the drift bound of PG21 eq. (13),
    h_13 = (1 - eps_1)(N_2 - L N_1) L/2 - N_2 rho R-bar, with the constants of eq. (15):
    (L N_2/2) [(1 - eps/3)(1 - L N_1/N_2) - (1 - eps)], exactly (not attained). The h of
    eq. (16) is justified by (13) only if it is at most this."""
    e = _exact_eps(eps)
    n2 = theorem2_n2(e, L, N1)
    return Fraction(L * n2, 2) * ((1 - e / 3) * (1 - Fraction(L * N1, n2)) - (1 - e))


def prop1_eq28_odd_bound(u_prime: object, m: int, *, printed: bool = False) -> Fraction:
    """Lower bound on Q_{2m+1} that PG21 Sec. V-C (proof of Prop. 1, Case 2.2.2) uses to
    reach eq. (29) with the configuration e_1 + 2^(m-1) e_{2m+1}: U'/2^(m-1) as eq. (28)
    states, or U'/(3 2^(m-1)) as printed between (28) and (29) (erratum PG21.Prop1.eq28)."""
    u = _exact(u_prime, "u_prime")
    mm = positive_int(m, name="m")
    return u / (3 * 2 ** (mm - 1)) if printed else u / 2 ** (mm - 1)
