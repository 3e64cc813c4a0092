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
    """The smallest Lemma 2 bound ``room[r] / load[r]`` over the resources, with its resource.

    PG21 Lemma 2 (Sec. IV-B, ``rho* <= L / R-bar``) in every resource r, for PG18's
    vectors: the servers hold at most ``room[r]`` (= sum_c L_c C_cr) units of resource
    r and one unit of workload brings ``load[r]`` (= R-bar_r, or sum_j d_j s_jr for a
    direction d), so ``rho* <= room[r] / load[r]``.

    Parameters
    ----------
    room : sequence of numbers
        ``room[r]``: the units of resource r all servers hold together (for L
        identical servers of capacity C, ``L * C[r]``).
    load : sequence of numbers
        ``load[r]``: the units of resource r one unit of workload brings (the mean
        size in resource r); same length as ``room``. Resources with
        ``load[r] <= 0`` bound nothing and are skipped.

    Returns
    -------
    tuple of (number, int) or None
        ``(bound, r)``: the smallest ``room[r] / load[r]`` (exact for Fractions) and
        its resource, the first on a tie; None when no load is positive.

    Raises
    ------
    ValueError
        ``room`` and ``load`` have different lengths.

    See Also
    --------
    mean_size_bound : the same bound from a distribution or a mean size.

    References
    ----------
    PG21, Sec. IV-B, Lemma 2 (``rho* <= L / R-bar``); PG18, Sec. II, eqs. (2)-(3)
    (vector sizes and the capacity region).

    Examples
    --------
    Two resources with room 10 and 20; a unit of workload brings 3 and 4:

    >>> from fractions import Fraction
    >>> from theory import lemma2_by_resource
    >>> lemma2_by_resource([Fraction(10), Fraction(20)], [Fraction(3), Fraction(4)])
    (Fraction(10, 3), 0)
    >>> lemma2_by_resource([1, 1], [0, 0]) is None
    True
    """
    best: tuple[Number, int] | None = None
    for r, (held, brought) in enumerate(zip(room, load, strict=True)):
        if brought > 0:
            b = held / brought
            if best is None or b < best[0]:
                best = (b, r)
    return best


def mean_size_bound(L: int, dist_or_mean: SizeDistribution | object,
                    capacity: object = 1) -> Number:
    """Upper bound ``rho* <= L C / R-bar`` (PG21 Lemma 2): L servers hold at most L C units of size.

    For vector sizes (PG18) the bound holds in every resource:
    ``rho* <= min_d L C_d / R-bar_d`` over the resources with a positive mean
    (:func:`lemma2_by_resource`). Exact (a Fraction) when the mean and the capacity are.

    Parameters
    ----------
    L : int
        Number of servers, a positive integer (at most 2^53).
    dist_or_mean : SizeDistribution or number or sequence of numbers
        The size distribution (its :meth:`~SizeDistribution.mean` is used) or the mean
        size R-bar itself, in the units of ``capacity``; a vector mean (one entry per
        resource) for vector sizes.
    capacity : number or sequence of numbers, optional
        Capacity C of one server (default 1, sizes as fractions of a server); a vector
        mean takes one value per resource or a scalar used for every resource; each
        must be positive.

    Returns
    -------
    number
        The bound ``L C / R-bar`` (the smallest over resources for vectors), in units
        of workload (``rho = lambda / mu``).

    Raises
    ------
    ValueError
        ``L`` is not a positive integer; a scalar mean is not positive, or is NaN or
        infinite; a vector mean has no positive entry or a capacity vector of another
        length; a capacity is zero or negative.

    See Also
    --------
    lemma2_by_resource : the bound per resource.
    bfjs_guarantee : half of it, what BF-J/S is proved to support.

    References
    ----------
    PG21, Sec. IV-B, Lemma 2; PG18, Sec. II (vector sizes s_j and capacities).

    Examples
    --------
    PG21 Sec. VII-A.3: five unit servers and sizes uniform on [0.01, 0.19]
    (R-bar = 0.1):

    >>> from theory import Discrete, Uniform, mean_size_bound
    >>> mean_size_bound(5, Uniform("0.01", "0.19"))
    Fraction(50, 1)
    >>> mean_size_bound(1, 0.5)
    2.0
    >>> mean_size_bound(2, Discrete([("0.5", "0.25"), ("0.25", "0.5")]))
    Fraction(16, 3)
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
        caps = [to_number(capacity, name="capacity")]
        room = [L * caps[0]]
        means = [_mean(m)]
    if not all(c > 0 for c in caps):  # a zero or negative capacity bounds nothing
        raise ValueError(f"capacity must be positive in every resource, got {capacity!r}")
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

    Parameters
    ----------
    config : sequence of int
        The configuration k: ``k_j`` jobs of type j per server (non-negative integers).
    probs : sequence of numbers
        Type probabilities P_j, one per entry of ``config``; non-negative, not all zero
        (they need not sum to 1).
    L : int, optional
        Number of servers (default 1).

    Returns
    -------
    number
        ``L min_{P_j > 0} k_j / P_j``, a workload; exact (Fraction) for rational
        probabilities.

    Raises
    ------
    ValueError
        ``L`` is not a positive integer; an entry of ``config`` is not a non-negative
        integer; a probability is not a number or is negative, or all are zero;
        ``config`` and ``probs`` differ in length or are empty.

    References
    ----------
    PG21, Sec. VII-A.2 (Fig. 3b); the rate balance of PG21, Sec. III-A, eq. (4)
    restricted to one configuration.

    Examples
    --------
    Two types with P = (2/3, 1/3), as in Fig. 3b; configuration (2, 1) keeps up with
    any workload up to 3 per server, configuration (2, 0) with none:

    >>> from theory import fixed_configuration_workload
    >>> fixed_configuration_workload([2, 1], ["2/3", "1/3"])
    Fraction(3, 1)
    >>> fixed_configuration_workload([2, 0], ["2/3", "1/3"], L=4)
    Fraction(0, 1)
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

    With Lemma 2 this is at least ``rho*/2``. Sizes are fractions of a unit server.

    Parameters
    ----------
    L : int
        Number of unit-capacity servers, a positive integer (at most 2^53).
    dist_or_mean : SizeDistribution or number
        The size distribution (its mean is used) or the mean size R-bar itself, in
        (0, 1].

    Returns
    -------
    number
        ``L / (2 R-bar)``, a workload; exact (Fraction) for a rational mean.

    Raises
    ------
    ValueError
        ``L`` is not a positive integer; the mean is not positive, or is NaN or
        infinite.

    See Also
    --------
    mean_size_bound : the Lemma 2 upper bound ``L / R-bar`` on ``rho*``.
    theorem2_constants : the constants of the proof.

    References
    ----------
    PG21, Sec. IV-B, Theorem 2 and its proof, eqs. (12)-(17); Lemma 2.

    Examples
    --------
    PG21 Sec. VII-A.3: five servers, sizes uniform on [0.1, 0.9] (R-bar = 1/2):

    >>> from theory import Uniform, bfjs_guarantee
    >>> bfjs_guarantee(5, Uniform("0.1", "0.9"))
    Fraction(5, 1)
    >>> bfjs_guarantee(1, 0.25)
    2.0
    """
    return _check_servers(L) / (2 * _mean(dist_or_mean))


def vqs_fraction(eps: object = 0) -> Fraction | float:
    """Guaranteed fraction of ``rho*`` for VQS and VQS-BF: (1 - eps) 2/3.

    PG21 Thm. 3 (eps = 0, sizes > 1/2^J), Cor. 1 and Thm. 4 (F_R(1/2^J) < eps).

    Parameters
    ----------
    eps : number, optional
        The mass eps > F_R(1/2^J) of small sizes, in [0, 1) (default 0: every size
        exceeds 1/2^J).

    Returns
    -------
    Fraction or float
        ``(1 - eps) * 2/3``, a fraction of ``rho*``: exact (Fraction) for a rational
        ``eps``, a float for a float.

    Raises
    ------
    ValueError
        ``eps`` is not a number in [0, 1).

    See Also
    --------
    choose_J : the J that makes F_R(1/2^J) < eps.

    References
    ----------
    PG21, Sec. V-C, Theorem 3 and Corollary 1 (proof in Sec. VIII-D, eq. (62));
    Sec. VI, Theorem 4 (VQS-BF).

    Examples
    --------
    >>> from theory import vqs_fraction
    >>> vqs_fraction()
    Fraction(2, 3)
    >>> vqs_fraction("0.1")
    Fraction(3, 5)
    """
    e = to_number(eps, name="eps")
    if not 0 <= e < 1:
        raise ValueError(f"eps must be in [0, 1), got {e}")
    return (1 - e) * Fraction(2, 3)


def choose_J(dist: SizeDistribution, eps: object) -> int:
    """Smallest integer J > 1 with F_R(1/2^J) < eps (PG21 Cor. 1).

    With ``eps = 0`` this is the smallest J with no mass at or below 1/2^J (Thm. 3
    needs sizes > 1/2^J); raises if no such J exists (sizes accumulating at 0).
    J = 2, 3, ..., 63 are tried; the cdf is evaluated at the exact points 1/2^J.

    Parameters
    ----------
    dist : SizeDistribution
        The size distribution F_R, sizes as fractions of a unit server.
    eps : number
        The tolerated mass of small sizes, in [0, 1).

    Returns
    -------
    int
        The smallest J in 2..63 with F_R(1/2^J) < eps (F_R(1/2^J) = 0 when
        ``eps = 0``).

    Raises
    ------
    ValueError
        ``eps`` is not a number in [0, 1); no J <= 63 satisfies the condition.

    See Also
    --------
    vqs_fraction : the fraction (1 - eps) 2/3 of ``rho*`` that J guarantees.
    universal_partition : the partition with 2J cells that VQS uses.

    References
    ----------
    PG21, Sec. V-C, Corollary 1 and Theorem 3 (J > log2(1/u)).

    Examples
    --------
    Sizes uniform on [0.01, 0.19] exceed 1/2^7 = 1/128; for sizes uniform on [0, 1],
    F_R(1/2^J) = 1/2^J drops below 0.01 at J = 7:

    >>> from theory import Uniform, choose_J
    >>> choose_J(Uniform("0.01", "0.19"), 0)
    7
    >>> choose_J(Uniform(0, 1), "0.01")
    7
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

    Parameters
    ----------
    x : number
        A job size, as a fraction of a unit server (positive).
    J : int
        The parameter J > 1 of the universal partition.

    Returns
    -------
    number
        ``1/2^J`` (a Fraction) if ``x <= 1/2^J``, else ``x`` itself (read as a number:
        a Fraction for exact input, a float for a float).

    Raises
    ------
    ValueError
        ``J`` is not an integer above 1; ``x`` is not a positive number.

    See Also
    --------
    universal_partition : the partition I whose last VQ receives the small jobs.

    References
    ----------
    PG21, Sec. V-A, eq. (18) and the paragraph after it.

    Examples
    --------
    >>> from theory import universal_scheduled_size
    >>> universal_scheduled_size("0.01", 3)
    Fraction(1, 8)
    >>> universal_scheduled_size("0.3", 3)
    Fraction(3, 10)
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
    ``LEMMA1_MAX_DIGITS`` (4300) decimal digits, ``ValueError`` is raised instead.

    Parameters
    ----------
    eps1 : number
        The probability bound eps_1 of Lemma 1, in (0, 1).
    L : int
        Number of servers, a positive integer (at most 2^53).
    mu : number
        Per-slot departure probability of a job in service, in (0, 1] (service is
        geometric with mean 1/mu slots).
    K_max : int
        Largest number of jobs in one server (ceil(1/u) for a minimum size u), a
        positive integer.

    Returns
    -------
    int
        The smallest positive integer N_1 with ``(1 - mu^K_max)^N_1 < eps1/L``, exact
        (1 when ``mu = 1``), in slots.

    Raises
    ------
    ValueError
        ``L`` or ``K_max`` is not a positive integer; ``eps1`` is not in (0, 1) or
        ``mu`` not in (0, 1]; N_1 would have more than 4300 digits; (in principle) the
        sign of eq. (10) could not be decided at the highest precision tried.

    See Also
    --------
    theorem2_constants : N_1 with the other constants of the BF-J/S proof.

    References
    ----------
    PG21, Sec. IV-B, Lemma 1, eqs. (10)-(11).

    Examples
    --------
    With mu = 1/2 and at most 2 jobs per server, 1 - mu^K = 3/4 and
    log(0.1)/log(3/4) = 8.004, so N_1 = 9; an integer bound n gives n + 1:

    >>> from theory import lemma1_N1
    >>> lemma1_N1("0.1", 1, "0.5", 2)
    9
    >>> lemma1_N1("1/8", 1, "1/2", 1)      # log(1/8)/log(1/2) = 3 exactly
    4
    >>> lemma1_N1("0.1", 1, "1e-30", 1)    # about ln(10) 10^30
    2302585092994045684017991454684
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
    Computed in floats (N_1 and N_2 are exact integers); :func:`theorem2_n2`,
    :func:`theorem2_margin` and :func:`theorem2_h_infimum` are the exact versions.

    Parameters
    ----------
    eps : float
        The margin eps of Theorem 2 (workloads below (1 - eps) L/(2 R-bar)), in (0, 1).
    L : int
        Number of servers, a positive integer.
    mu : float
        Per-slot departure probability, in (0, 1].
    u : float
        The minimum job size u, in (0, 1] (fraction of a unit server).

    Returns
    -------
    dict of str to float or int
        ``eps1`` = eps/3, ``K_max`` = ceil(1/u), ``N1`` (:func:`lemma1_N1`),
        ``N2`` = ceil(3 L N_1 / eps), ``delta`` = ``h`` = L N_2 eps / 6 (N_1 and N_2 in
        slots).

    Raises
    ------
    ValueError
        ``eps`` not in (0, 1) or ``u`` not in (0, 1]; and as :func:`lemma1_N1` for
        ``L`` and ``mu``.

    References
    ----------
    PG21, Sec. IV-B, proof of Theorem 2, eqs. (13)-(17) and Lemma 1, eq. (10);
    errata register entries PG21.Thm2.eq15 and PG21.Thm2.eq16 (docs/design.md,
    section Errata).

    Examples
    --------
    >>> from theory import theorem2_constants
    >>> c = theorem2_constants(0.3, 1, 0.5, 0.5)
    >>> c["K_max"], c["N1"], c["N2"], c["delta"]
    (2, 9, 90, 4.5)
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

    .. math::

        \\underline{\\rho}^*(X^{(n)}) = \\frac{\\bar{\\rho}^*(X^{(n)})}
        {1 - \\bar{\\rho}^*(X^{(n)}) / (L m)}

    Parameters
    ----------
    rho_upper : number
        The upper-rounded maximum workload of X^(n), a non-negative workload below L m.
    L : int
        Number of unit servers, a positive integer.
    m : int
        The number of cells 2^(n+1) of X^(n), a positive integer.

    Returns
    -------
    number
        The lower-rounded maximum workload; exact (Fraction) for a rational input.

    Raises
    ------
    ValueError
        ``rho_upper`` is negative, not a number, or at least L m; ``L`` or ``m`` is
        not a positive integer.

    See Also
    --------
    quantile_bracket_gap : the width of the bracket, eq. (41).
    quantile_partition : the partitions X^(n).

    References
    ----------
    PG21, Sec. VIII-A (proof of Theorem 1), eq. (40), from eqs. (36)-(39).

    Examples
    --------
    One server, n = 1 (m = 4 cells):

    >>> from theory import lower_from_upper_quantile
    >>> lower_from_upper_quantile("3/2", 1, 4)
    Fraction(12, 5)
    """
    r = _workload(rho_upper, "rho_upper")
    _check_servers(L)
    _check_m(m)
    denom = 1 - r / (L * m)
    if not denom > 0:
        raise ValueError("rho_upper must be below L * m")
    return r / denom


def quantile_bracket_gap(rho_lower: object, L: int, m: int) -> Number:
    """PG21 eq. (41): lower-rounded minus upper-rounded ``rho*`` = rho_low^2 / (L m + rho_low).

    ``m = 2^(n+1)`` must be a positive integer and ``rho_lower`` a non-negative workload.
    Like eq. (40), valid for a continuous F_R and the paper's X^(n).

    Parameters
    ----------
    rho_lower : number
        The lower-rounded maximum workload of X^(n), non-negative.
    L : int
        Number of unit servers, a positive integer.
    m : int
        The number of cells 2^(n+1) of X^(n), a positive integer.

    Returns
    -------
    number
        The gap ``rho_lower^2 / (L m + rho_lower)``, a workload; exact (Fraction) for
        a rational input.

    Raises
    ------
    ValueError
        ``rho_lower`` is negative or not a number; ``L`` or ``m`` is not a positive
        integer.

    See Also
    --------
    lower_from_upper_quantile : eq. (40).

    References
    ----------
    PG21, Sec. VIII-A (proof of Theorem 1), eq. (41).

    Examples
    --------
    The bracket of :func:`lower_from_upper_quantile`'s example, [3/2, 12/5], has
    width 9/10:

    >>> from fractions import Fraction
    >>> from theory import quantile_bracket_gap
    >>> quantile_bracket_gap(Fraction(12, 5), 1, 4)
    Fraction(9, 10)
    """
    r = _workload(rho_lower, "rho_lower")
    _check_servers(L)
    _check_m(m)
    return r * r / (L * m + r)


def prop2_rho_star(L: int = 1) -> Fraction:
    """``rho*`` = 2 L for sizes 1/2 -+ e equally likely (PG21 Sec. VIII-C): pairs fit exactly.

    Configuration (1, 1) (one job of each size) fills a server, so any
    ``rho < 2 L`` is supportable and no larger one is.

    Parameters
    ----------
    L : int, optional
        Number of unit servers (default 1, the paper's single server).

    Returns
    -------
    Fraction
        ``2 L``, exactly.

    Raises
    ------
    ValueError
        ``L`` is not a positive integer.

    See Also
    --------
    prop2_upper_rounded_limit : what upper-rounded partitions reach, (2/3) ``rho*``.

    References
    ----------
    PG21, Sec. V-C, Proposition 2; its proof in Sec. VIII-C.

    Examples
    --------
    >>> from theory import prop2_rho_star
    >>> prop2_rho_star(), prop2_rho_star(3)
    (Fraction(2, 1), Fraction(6, 1))
    """
    return Fraction(2 * _check_servers(L))


def prop2_upper_rounded_limit(L: int = 1) -> Fraction:
    """Best workload under any upper-rounded partition in PG21 Prop. 2: (2/3) rho* = 4L/3.

    From eq. (61) with maximal configurations (2, 0) and (0, 1): p_1 = 1/3, p_2 = 2/3
    (the paper prints p_2 = 1/3; see the errata register).

    Parameters
    ----------
    L : int, optional
        Number of unit servers (default 1, the paper's single server).

    Returns
    -------
    Fraction
        ``4 L / 3``, exactly.

    Raises
    ------
    ValueError
        ``L`` is not a positive integer.

    See Also
    --------
    prop2_mixture_weights : the workload that given weights (p_1, p_2) support.
    prop2_rho_star : the optimum ``2 L``.

    References
    ----------
    PG21, Sec. V-C, Proposition 2; Sec. VIII-C, eq. (61); errata register entry
    PG21.Prop2.eq61 (docs/design.md, section Errata).

    Examples
    --------
    >>> from theory import prop2_upper_rounded_limit
    >>> prop2_upper_rounded_limit(), prop2_upper_rounded_limit(3)
    (Fraction(4, 3), Fraction(4, 1))
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
    meet (61)'s constraint p1 + p2 = 1 (without it, a sum above 1 is still refused).

    Parameters
    ----------
    p1 : int or Fraction or str
        Weight of configuration (2, 0), exact (a float is refused).
    p2 : int or Fraction or str
        Weight of configuration (0, 1), exact.
    require_distribution : bool, optional
        Keyword only. True (default): the weights must sum to 1 as in eq. (61); False:
        any sum up to 1 is accepted.

    Returns
    -------
    Fraction or None
        ``min(4 p1, 2 p2)``, exactly; None for negative weights, a sum above 1, or (with
        ``require_distribution``) a sum other than 1.

    Raises
    ------
    TypeError
        A weight is not an int, a Fraction or a decimal string (a float, a bool).
    ValueError
        A string weight is not a number.

    See Also
    --------
    prop2_upper_rounded_limit : the best value, at p1 = 1/3, p2 = 2/3.

    References
    ----------
    PG21, Sec. VIII-C (proof of Proposition 2), eq. (61); errata register entry
    PG21.Prop2.eq61 (docs/design.md, section Errata).

    Examples
    --------
    The weights that maximise the workload, and those the paper prints:

    >>> from theory import prop2_mixture_weights
    >>> prop2_mixture_weights("1/3", "2/3")
    Fraction(4, 3)
    >>> prop2_mixture_weights("1/3", "1/3") is None      # p1 + p2 != 1
    True
    >>> prop2_mixture_weights("1/3", "1/3", require_distribution=False)
    Fraction(2, 3)
    """
    a, b = _exact(p1, "p1"), _exact(p2, "p2")
    if a < 0 or b < 0 or a + b > 1 or (require_distribution and a + b != 1):
        return None
    return min(4 * a, 2 * b)


def theorem2_n2(eps: object, L: int, N1: int) -> int:
    """N_2 = ceil(3 L N_1 / eps) of PG21 eq. (15), exactly.

    Parameters
    ----------
    eps : int or Fraction or str
        The margin eps of Theorem 2, exact, in (0, 1).
    L : int
        Number of servers, a positive integer.
    N1 : int
        N_1 of Lemma 1 (:func:`lemma1_N1`), a positive integer.

    Returns
    -------
    int
        N_2 = ceil(3 L N_1 / eps), a number of slots.

    Raises
    ------
    TypeError
        ``eps`` is not exact (a float, a bool).
    ValueError
        ``eps`` is not in (0, 1) (or a string that is not a number); ``L`` or ``N1`` is
        not a positive integer.

    References
    ----------
    PG21, Sec. IV-B, proof of Theorem 2, eqs. (15) and (17).

    Examples
    --------
    >>> from theory import theorem2_n2
    >>> theorem2_n2("3/10", 1, 7)
    70
    """
    e = _exact_eps(eps)
    q = 3 * positive_int(L, name="L") * positive_int(N1, name="N1") / e
    return -(-q.numerator // q.denominator)


def theorem2_margin(eps: object, delta_divisor: int, L: int | None = None,
                    N1: int | None = None) -> Fraction:
    """(1 - eps_1)(1 - L N_1/N_2) - 2 delta/(L N_2) - (1 - eps), exactly, for eps_1 = eps/3,
    N_2 = ceil(3 L N_1/eps) and delta = L N_2 eps/delta_divisor (PG21 Sec. IV-B, the
    condition below eq. (14) with the constants of eq. (15)). Positive means the condition
    holds. Without L and N_1: the worst case L N_1/N_2 = eps/3 (3 L N_1/eps an integer).

    Parameters
    ----------
    eps : int or Fraction or str
        The margin eps of Theorem 2, exact, in (0, 1).
    delta_divisor : int
        The divisor in delta = L N_2 eps / ``delta_divisor``: 3 as printed in eq. (15),
        6 as corrected. A positive integer.
    L : int, optional
        Number of servers; give it with ``N1``, or neither for the worst case.
    N1 : int, optional
        N_1 of Lemma 1; give it with ``L``, or neither.

    Returns
    -------
    Fraction
        The margin of the condition, exactly; positive when it holds.

    Raises
    ------
    TypeError
        ``eps`` is not exact (a float, a bool).
    ValueError
        ``eps`` is not in (0, 1); ``delta_divisor``, ``L`` or ``N1`` is not a positive
        integer; only one of ``L`` and ``N1`` is given.

    See Also
    --------
    theorem2_constants : the constants in floats, with delta = L N_2 eps / 6.

    References
    ----------
    PG21, Sec. IV-B, proof of Theorem 2, the condition below eq. (14) and eq. (15);
    errata register entry PG21.Thm2.eq15 (docs/design.md, section Errata).

    Examples
    --------
    With eps = 3/10 the printed delta (divisor 3) fails in the worst case and the
    corrected one (divisor 6) holds:

    >>> from theory import theorem2_margin
    >>> theorem2_margin("3/10", 3), theorem2_margin("3/10", 6)
    (Fraction(-9, 100), Fraction(1, 100))
    >>> theorem2_margin("3/10", 6, L=1, N1=7)
    Fraction(1, 100)
    """
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
    eq. (16) is justified by (13) only if it is at most this.

    Parameters
    ----------
    eps : int or Fraction or str
        The margin eps of Theorem 2, exact, in (0, 1).
    L : int
        Number of servers, a positive integer.
    N1 : int
        N_1 of Lemma 1, a positive integer.

    Returns
    -------
    Fraction
        The infimum of h_13, exactly (in units of resource size per N_2 slots).

    Raises
    ------
    TypeError
        ``eps`` is not exact (a float, a bool).
    ValueError
        ``eps`` is not in (0, 1); ``L`` or ``N1`` is not a positive integer.

    See Also
    --------
    theorem2_margin : the same condition, normalised.

    References
    ----------
    PG21, Sec. IV-B, proof of Theorem 2, eqs. (13), (15) and (16); errata register
    entry PG21.Thm2.eq16 (docs/design.md, section Errata).

    Examples
    --------
    With eps = 3/10, L = 1 and N_1 = 7 (N_2 = 70) the infimum is 3.85: the corrected
    h = L N_2 eps/6 = 3.5 lies below it, the printed L N_2 eps/3 = 7 does not:

    >>> from theory import theorem2_h_infimum
    >>> theorem2_h_infimum("3/10", 1, 7)
    Fraction(77, 20)
    """
    e = _exact_eps(eps)
    n2 = theorem2_n2(e, L, N1)
    return Fraction(L * n2, 2) * ((1 - e / 3) * (1 - Fraction(L * N1, n2)) - (1 - e))


def prop1_eq28_odd_bound(u_prime: object, m: int, *, printed: bool = False) -> Fraction:
    """Lower bound on Q_{2m+1} that PG21 Sec. V-C (proof of Prop. 1, Case 2.2.2) uses to
    reach eq. (29) with the configuration e_1 + 2^(m-1) e_{2m+1}: U'/2^(m-1) as eq. (28)
    states, or U'/(3 2^(m-1)) as printed between (28) and (29) (erratum PG21.Prop1.eq28).

    Parameters
    ----------
    u_prime : int or Fraction or str
        U' = U - Q_1 - Q_2 of Case 2.2.2, exact.
    m : int
        The index m of the inequality on Q_{2m+1}, a positive integer.
    printed : bool, optional
        Keyword only. False (default): the bound of eq. (28); True: the one printed
        between (28) and (29).

    Returns
    -------
    Fraction
        ``U'/2^(m-1)``, or ``U'/(3 2^(m-1))`` with ``printed``, exactly.

    Raises
    ------
    TypeError
        ``u_prime`` is not exact (a float, a bool).
    ValueError
        ``m`` is not a positive integer.

    References
    ----------
    PG21, Sec. V-C, proof of Proposition 1, Case 2.2.2, eqs. (28)-(29); errata register
    entry PG21.Prop1.eq28 (docs/design.md, section Errata).

    Examples
    --------
    >>> from theory import prop1_eq28_odd_bound
    >>> prop1_eq28_odd_bound(1, 3), prop1_eq28_odd_bound(1, 3, printed=True)
    (Fraction(1, 4), Fraction(1, 12))
    """
    u = _exact(u_prime, "u_prime")
    mm = positive_int(m, name="m")
    return u / (3 * 2 ** (mm - 1)) if printed else u / 2 ** (mm - 1)
