"""Job-size distributions F_R (PG21 Sec. II, "Job Model").

A job's resource size R is drawn i.i.d. from a general cdf F_R on (0, 1] (capacity
normalised to one; PG21 Sec. II). This module gives the distributions the papers use:
finite types (PG21 Sec. III-A, PG18 Sec. II; scalar or vector sizes), uniform on an
interval (PG21 Sec. VII-A), a general continuous cdf with its quantile function,
mixtures with atoms (discontinuous cdfs, PG21 Thm. 1 "general distributions") and
empirical distributions (traces, PG21 Sec. VII-B).

Every distribution offers ``mean``, ``cdf`` (P(R <= x)), ``cdf_left`` (P(R < x)),
``quantile`` (the generalised inverse ``inf{x : F(x) >= u}``), ``prob`` of an
interval, ``atoms``, ``support`` and ``sample(n, seed)``. Rational parameters give
rational answers (``fractions.Fraction``) wherever the maths allows.
"""

from __future__ import annotations

import bisect
import math
import re
import warnings
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np

from theory.budgets import MEMORY_BUDGET, BudgetExceeded, check_budget
from theory.numbers import Number, as_list, to_float_checked, to_number, to_numbers, written
from theory.progress import Progress
from theory.seeding import as_rng

__all__ = [
    "SizeDistribution",
    "Discrete",
    "Uniform",
    "Continuous",
    "Mixture",
    "empirical",
    "beta",
    "from_scipy",
    "MAX_SUPPORT_POINTS",
    "from_spec",
    "unit_sizes",
]

#: Tolerance on ``sum(probs) == 1`` for float probabilities (exact for rationals).
PROB_SUM_ATOL = 1e-9
#: Support points a discrete scipy law may have in (0, capacity] (:func:`from_scipy`).
MAX_SUPPORT_POINTS = 100_000
#: Least mass P(0 < X <= capacity) a truncation by :func:`from_scipy` may keep. Below
#: it the law lies almost wholly outside the server (sizes in other units, a mean far
#: from the capacity) and the "law" kept is a far tail no user meant; and it bounds the
#: rounding of the normalisation, eps (F(0) + F(C)) / m <= 2.2e-7 relative for a cdf
#: accurate to rounding (scipy's closed forms and special functions).
MIN_KEPT_MASS = 1e-9


def _sample_count(n: object, dim: int, memory_budget: float, what: str) -> int:
    """The sample size ``n`` checked (a non-negative int) and its memory within budget."""
    if isinstance(n, bool | np.bool_) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"the sample size n must be a non-negative integer, got {n!r}")
    count = f"{int(n):,}" if n <= 10**18 else "more than 10^18"
    # the sizes, the uniforms or indices drawn for them, and one temporary of each
    check_budget(8.0 * (dim + 2) * float(min(int(n), 10**19)),
                 memory_budget, what=f"sampling {count} sizes from {what}",
                 option="memory_budget", unit="bytes")
    return int(n)


class SizeDistribution(ABC):
    """A distribution of scalar job sizes (vector sizes: :class:`Discrete` only).

    The abstract base of :class:`Discrete`, :class:`Uniform`, :class:`Continuous` and
    :class:`Mixture`: the law F_R of a job's size R (PG21 Sec. II), normally as a
    fraction of a unit server. Every distribution offers ``mean``, ``cdf``
    (P(R <= x)), ``cdf_left`` (P(R < x)), ``quantile`` (the generalised inverse
    ``inf{x : F(x) >= u}``), ``prob`` of an interval, ``atoms``, ``support``,
    ``sample(n, seed)`` and ``scaled``. Exact distributions (:attr:`exact`) answer
    with Fractions at rational points.

    The class takes no arguments; subclasses implement the abstract methods.

    References
    ----------
    PG21, Sec. II (Job Model: i.i.d. sizes R with a general cdf F_R on (0, 1], mean
    R-bar); PG18, Sec. II (vector sizes s_j). Seeds: docs/design.md, section
    Randomness and reproducibility; ``memory_budget``: section Budgets.

    Examples
    --------
    >>> from theory import Discrete, SizeDistribution
    >>> d = Discrete(["0.4", "0.6"], ["1/2", "1/2"])
    >>> isinstance(d, SizeDistribution), d.exact
    (True, True)
    >>> d.cdf("0.5"), d.quantile("0.75"), d.support()
    (Fraction(1, 2), Fraction(3, 5), (Fraction(2, 5), Fraction(3, 5)))
    >>> d.prob("0.4", "0.6", lo_closed=True)
    Fraction(1, 1)
    >>> d.sample(4, seed=1).tolist()
    [0.6, 0.6, 0.4, 0.6]
    """

    #: number of resources (1 for the single-resource papers)
    dim: int = 1

    @abstractmethod
    def mean(self) -> Number | np.ndarray:
        """E[R] (R-bar of PG21 Sec. II)."""

    @abstractmethod
    def cdf(self, x: Number) -> Number:
        """F_R(x) = P(R <= x)."""

    @abstractmethod
    def cdf_left(self, x: Number) -> Number:
        """F_R(x-) = P(R < x)."""

    @abstractmethod
    def support(self) -> tuple[Number, Number]:
        """Smallest closed interval [lo, hi] with probability one."""

    @abstractmethod
    def atoms(self) -> list[tuple[Number, Number]]:
        """Points of positive probability, as ``(x, P(R = x))`` sorted by x."""

    @abstractmethod
    def sample(self, n: int, seed: int | np.random.Generator | None = None, *,
               memory_budget: float = MEMORY_BUDGET) -> np.ndarray:
        """``n`` i.i.d. sizes as a float array (shape ``(n,)`` or ``(n, dim)``).

        Refuses (:class:`theory.budgets.BudgetExceeded`) when the arrays would exceed
        ``memory_budget`` bytes.
        """

    @property
    def exact(self) -> bool:
        """True when cdf values at rational points are exact rationals."""
        return False

    @property
    def is_discrete(self) -> bool:
        return False

    def quantile(self, u: Number) -> Number:
        """Generalised inverse ``inf{x : F(x) >= u}`` for ``u`` in [0, 1].

        Generic version: bisection on the cdf (exact distributions override it).
        """
        u = _check_unit(u)
        lo, hi = (float(v) for v in self.support())
        if u <= 0:
            return self.support()[0]
        uf = float(u)
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if float(self.cdf(mid)) >= uf:
                hi = mid
            else:
                lo = mid
            if hi - lo <= 1e-15 * max(1.0, abs(hi)):
                break
        # snap to an atom that the bisection bracketed
        for a, _p in self.atoms():
            if lo <= float(a) <= hi:
                return a
        return hi

    def prob(
        self, lo: Number, hi: Number, *, lo_closed: bool = False, hi_closed: bool = True
    ) -> Number:
        """P(R in the interval from ``lo`` to ``hi``); default the half-open (lo, hi]."""
        upper = self.cdf(hi) if hi_closed else self.cdf_left(hi)
        lower = self.cdf_left(lo) if lo_closed else self.cdf(lo)
        p = upper - lower
        return p if p > 0 else (Fraction(0) if isinstance(p, Fraction) else 0.0)

    def scaled(self, factor: object) -> SizeDistribution:
        """The same law with every size multiplied by ``factor`` > 0, e.g.
        ``Fraction(1, C)`` to express sizes in capacity units as fractions of a unit
        server (PG21 Sec. II normalises capacities to one)."""
        raise TypeError(f"{type(self).__name__} does not define scaled()")

    def _check_scalar(self) -> None:
        if self.dim != 1:
            raise ValueError("this operation needs scalar sizes (dim == 1)")


def _point(x: Number) -> float:
    """A point where a cdf is evaluated, as a float (beyond float64: +-inf, or 0)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _scale_factor(factor: object) -> Number:
    f = to_number(factor, name="scale factor")
    if not f > 0:
        raise ValueError(f"the scale factor must be positive, got {factor!r}")
    to_float_checked(f, "scale factor")
    return f


def unit_sizes(dist: SizeDistribution, capacity: object) -> SizeDistribution:
    """``dist`` in units of one server of capacity ``capacity``: ``dist.scaled(1 / capacity)``.

    PG21 Sec. II normalises the server capacity to one; this turns sizes given in the
    capacity's units (GB, cores) into fractions of a server. Exact for exact
    distributions and a rational capacity; ``capacity == 1`` returns ``dist`` itself.
    A vector capacity (one entry per resource, PG18 Sec. II) divides vector sizes
    componentwise: every resource of every size becomes a fraction of that resource of
    the server.

    Parameters
    ----------
    dist : SizeDistribution
        Sizes in the units of ``capacity``: scalars, or (a :class:`Discrete` of) vectors
        with one entry per resource of a vector ``capacity``.
    capacity : number or sequence of numbers
        The capacity of one server, a positive scalar within the float64 range, or one
        such number per resource.

    Returns
    -------
    SizeDistribution
        The same law with every size divided by ``capacity``, sizes in (0, 1] (each
        resource in [0, 1] for vectors).

    Raises
    ------
    ValueError
        ``capacity`` is not a positive finite number (in some resource); a size exceeds
        the capacity (in some resource: the message names the size); a scalar
        ``capacity`` with vector sizes, or a vector one whose length differs from theirs.
    TypeError
        ``dist`` does not define ``scaled`` (a custom subclass).

    References
    ----------
    PG21, Sec. II (Cluster Model: capacity normalised to one).

    Examples
    --------
    Sizes of 16 and 32 GB on 64 GB servers:

    >>> from theory import Discrete, unit_sizes
    >>> unit_sizes(Discrete([16, 32]), 64).sizes
    [Fraction(1, 4), Fraction(1, 2)]

    Two resources on a server of capacity (1, 1/2):

    >>> unit_sizes(Discrete([("1/2", "1/4"), ("1/4", "1/2")]), ("1", "1/2")).sizes
    [(Fraction(1, 4), Fraction(1, 1)), (Fraction(1, 2), Fraction(1, 2))]
    """
    if isinstance(capacity, list | tuple | np.ndarray):
        return _unit_vector_sizes(dist, capacity)
    cap = to_number(capacity, name="capacity")
    if not cap > 0:
        raise ValueError(f"capacity must be positive and finite, got {capacity!r}")
    to_float_checked(cap, "capacity")
    out = dist if cap == 1 else dist.scaled(1 / cap)
    hi = out.support()[1]
    if hi > 1:
        raise ValueError(f"sizes up to {dist.support()[1]} exceed the server capacity "
                         f"{capacity}")
    return out


def vector_text(values: Sequence[object]) -> str:
    """``(1, 1/2)``: a size or capacity vector for a message (exact values as p/q)."""
    return "(" + ", ".join(str(v) for v in values) + ")"


def _unit_vector_sizes(dist: SizeDistribution, capacity: Sequence[Any] | np.ndarray
                       ) -> Discrete:
    """Vector sizes divided componentwise by a vector ``capacity`` (exact for rationals),
    refused when a size exceeds the capacity in some resource (:func:`unit_sizes`)."""
    if dist.dim == 1:
        raise ValueError(f"capacity must be one number for scalar sizes, got {capacity!r}")
    caps = [to_number(c, name=f"capacity of resource {r + 1}") for r, c in enumerate(capacity)]
    for r, c in enumerate(caps):
        if not c > 0:
            raise ValueError(f"capacity must be positive and finite in every resource, got "
                             f"{capacity[r]!r} in resource {r + 1}")
        to_float_checked(c, f"capacity of resource {r + 1}")
    if not isinstance(dist, Discrete) or dist.dim != len(caps):
        raise ValueError(f"a capacity of {len(caps)} resources {vector_text(caps)} needs "
                         f"finitely many vector sizes of as many resources, got "
                         f"{type(dist).__name__} sizes of {dist.dim} resources")
    for s in dist.sizes:
        for r, (v, c) in enumerate(zip(s, caps, strict=True)):
            if v > c:
                raise ValueError(f"job size {vector_text(s)} exceeds the capacity "
                                 f"{vector_text(caps)} in resource {r + 1} ({v} > {c})")
    if all(c == 1 for c in caps):
        return dist
    return Discrete([tuple(v / c for v, c in zip(s, caps, strict=True)) for s in dist.sizes],
                    dist.probs)


def _check_unit(u: Number) -> Number:
    u = to_number(u, name="u")
    if not 0 <= u <= 1:
        raise ValueError(f"quantile level must be in [0, 1], got {u}")
    return u


class Discrete(SizeDistribution):
    """Finitely many job types: sizes ``s_j`` (scalar or vector) with probabilities ``P_j``.

    PG21 Sec. III-A / Def. 1 (scalar) and PG18 Sec. II (vector demands ``s_j``).
    Repeated sizes are merged and zero-probability types dropped; :attr:`sizes` lists
    the distinct sizes sorted, :attr:`probs` their probabilities. Rational inputs are
    kept exact (Fractions); if any size is a float, all sizes become floats.

    Parameters
    ----------
    sizes : sequence
        The sizes s_j: positive numbers (scalar sizes) or equal-length vectors of
        non-negative numbers, not all zero (one entry per resource). Numbers may be
        ints, Fractions, floats or decimal/ratio strings (``"0.4"``, ``"1/3"``). Any
        unit; what needs sizes in (0, 1] checks it.
    probs : sequence of numbers, optional
        P_j, one per size: non-negative, summing to 1 (exactly for rationals, within
        1e-9 for floats). Default: equally likely.

    Raises
    ------
    ValueError
        No sizes; scalars mixed with vectors, vectors of different lengths; a size not
        positive (scalar) or negative or all zero (vector), or not a finite number in
        the float64 range; ``probs`` of another length, a negative probability, or
        probabilities not summing to 1.

    See Also
    --------
    empirical : the distribution of observed sizes.
    Discrete.from_counts : types with integer multiplicities.

    References
    ----------
    PG21, Sec. III-A, Definition 1 (finite types r_j with probabilities P_j); PG18,
    Sec. II (vector requirements s_j).

    Examples
    --------
    >>> from theory import Discrete
    >>> d = Discrete(["0.4", "0.6"], ["1/2", "1/2"])
    >>> d.mean()
    Fraction(1, 2)
    >>> d.sizes, d.probs
    ([Fraction(2, 5), Fraction(3, 5)], [Fraction(1, 2), Fraction(1, 2)])

    Vector sizes (two resources):

    >>> v = Discrete([(1, 2), (2, 1)], ["3/4", "1/4"])
    >>> v.dim, v.mean().tolist()
    (2, [Fraction(5, 4), Fraction(7, 4)])
    """

    def __init__(self, sizes: Sequence[object], probs: Sequence[object] | None = None):
        sizes = as_list(sizes, name="sizes", example="['0.4', '0.6']")
        if len(sizes) == 0:
            raise ValueError("a discrete distribution needs at least one size")
        vectors = [_vector_entries(s) for s in sizes]
        if any(v is not None for v in vectors) and not all(v is not None for v in vectors):
            raise ValueError("sizes must be all scalars or all vectors")
        if all(v is not None for v in vectors):
            rows = [_read(v, f"sizes[{i}]") for i, v in enumerate(vectors) if v is not None]
            dims = {len(r) for r in rows}
            if len(dims) != 1 or 0 in dims:
                raise ValueError("vector sizes must all have the same positive length")
            self.dim = dims.pop()
            if any(isinstance(v, float) for r in rows for v in r):
                rows = [[float(v) for v in r] for r in rows]
            keys: list[tuple[Number, ...]] = [tuple(r) for r in rows]
            for r in keys:
                if any(v < 0 for v in r) or all(v == 0 for v in r):
                    raise ValueError(f"size {r} must be non-negative and not all zero")
        else:
            self.dim = 1
            flat = _read(sizes, "sizes")
            for i, v in enumerate(flat):
                if not v > 0:
                    raise ValueError(f"sizes must be positive, got sizes[{i}] = "
                                     f"{written(as_list(sizes)[i])}")
            keys = [(v,) for v in flat]
        if probs is None:
            probs = [Fraction(1, len(keys))] * len(keys)
        probs = as_list(probs, name="probs", example="['1/2', '1/2']")
        if len(probs) != len(keys):
            raise ValueError(f"{len(keys)} sizes but {len(probs)} probabilities")
        ps = to_numbers(probs, name="probability")
        for p in ps:
            if p < 0:
                raise ValueError(f"probabilities must be non-negative, got {p}")
        total = sum(ps)
        if isinstance(total, Fraction):
            if total != 1:
                raise ValueError(f"probabilities sum to {total}, not 1")
        elif abs(total - 1.0) > PROB_SUM_ATOL:
            raise ValueError(f"probabilities sum to {total!r}, not 1")
        merged: dict[tuple[Number, ...], Number] = {}
        for k, p in zip(keys, ps, strict=True):
            if p > 0:
                merged[k] = merged.get(k, 0) + p
        order = sorted(merged)
        self._keys = order
        self._probs: list[Number] = [merged[k] for k in order]
        self._exact = all(isinstance(v, Fraction) for k in order for v in k) and all(
            isinstance(p, Fraction) for p in self._probs
        )

    @classmethod
    def from_counts(cls, sizes: Sequence[object], counts: Sequence[object]) -> Discrete:
        """Types with integer multiplicities (``--counts``): P_j = n_j / sum n.

        Counts must be non-negative integers (ints, integer-valued floats, strings or
        Fractions); non-integer counts and bools raise ``ValueError``.
        """
        sizes = as_list(sizes, name="sizes", example="['0.4', '0.6']")
        counts = as_list(counts, name="counts", example="[3, 1]")
        if len(sizes) != len(counts):
            raise ValueError(f"{len(sizes)} sizes but {len(counts)} counts")
        cs = [_count(c, f"counts[{i}]") for i, c in enumerate(counts)]
        n = sum(cs)
        if n == 0:
            raise ValueError("counts sum to zero")
        return cls(sizes, [Fraction(c, n) for c in cs])

    def scaled(self, factor: object) -> Discrete:
        """The same law with every size multiplied by ``factor`` (exact for rationals).

        ``d.scaled(Fraction(1, C))`` turns sizes in capacity units into fractions of a
        unit server (PG21 Sec. II normalises capacities to one).
        """
        f = _scale_factor(factor)
        keys = [tuple(v * f for v in k) for k in self._keys]
        for k, new in zip(self._keys, keys, strict=True):
            for v, w in zip(k, new, strict=True):
                if v != 0:
                    to_float_checked(w, f"size {v} times the factor {factor}")
                    if w == 0:
                        raise ValueError(f"size {v} times the factor {factor} rounds to 0")
        if self.dim == 1:
            return Discrete([k[0] for k in keys], self._probs)
        return Discrete(keys, self._probs)

    # -- finite-type views -------------------------------------------------
    @property
    def sizes(self) -> list:
        """Distinct sizes, sorted (scalars, or tuples for vector sizes)."""
        return [k[0] for k in self._keys] if self.dim == 1 else list(self._keys)

    @property
    def probs(self) -> list[Number]:
        return list(self._probs)

    @property
    def exact(self) -> bool:
        return self._exact

    @property
    def is_discrete(self) -> bool:
        return True

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"Discrete({len(self)} types, dim={self.dim})"

    def mean(self) -> Number | np.ndarray:
        if self.dim == 1:
            return sum((k[0] * p for k, p in zip(self._keys, self._probs, strict=True)), 0)
        return np.array(
            [sum(k[d] * p for k, p in zip(self._keys, self._probs, strict=True))
             for d in range(self.dim)],
            dtype=object if self._exact else float,
        )

    def cdf(self, x: Number) -> Number:
        self._check_scalar()
        x = to_number(x, name="x")
        return sum((p for k, p in zip(self._keys, self._probs, strict=True) if k[0] <= x),
                   Fraction(0) if self._exact else 0.0)

    def cdf_left(self, x: Number) -> Number:
        self._check_scalar()
        x = to_number(x, name="x")
        return sum((p for k, p in zip(self._keys, self._probs, strict=True) if k[0] < x),
                   Fraction(0) if self._exact else 0.0)

    def quantile(self, u: Number) -> Number:
        self._check_scalar()
        u = _check_unit(u)
        acc: Number = 0
        for k, p in zip(self._keys, self._probs, strict=True):
            acc += p
            if acc >= u or (not isinstance(acc, Fraction) and acc >= float(u) - 1e-15):
                return k[0]
        return self._keys[-1][0]

    def support(self) -> tuple[Number, Number]:
        self._check_scalar()
        return self._keys[0][0], self._keys[-1][0]

    def atoms(self) -> list[tuple[Number, Number]]:
        self._check_scalar()
        return [(k[0], p) for k, p in zip(self._keys, self._probs, strict=True)]

    def sample(self, n: int, seed: int | np.random.Generator | None = None, *,
               memory_budget: float = MEMORY_BUDGET) -> np.ndarray:
        n = _sample_count(n, self.dim, memory_budget, repr(self))
        rng = as_rng(seed)
        p = np.array([float(v) for v in self._probs])
        idx = rng.choice(len(p), size=n, p=p / p.sum())
        table = np.array([[float(v) for v in k] for k in self._keys])
        return table[idx, 0] if self.dim == 1 else table[idx]


def _vector_entries(s: object) -> Sequence[object] | None:
    """The entries of a vector size (list, tuple or array of dimension >= 1), else None."""
    if isinstance(s, np.ndarray):
        return list(s) if s.ndim > 0 else None
    if isinstance(s, list | tuple):
        return s
    return None


def _read(xs: Sequence[object], name: str) -> list[Number]:
    """Sizes read as numbers named ``name[i]``, each within the float64 range."""
    items = as_list(xs, name=name)
    vals = [to_number(x, name=f"{name}[{i}]") for i, x in enumerate(items)]
    for i, v in enumerate(vals):
        if not isinstance(v, float):
            to_float_checked(v, f"{name}[{i}]")
    if any(isinstance(v, float) for v in vals):
        return [float(v) for v in vals]
    return vals


def _count(c: object, name: str = "count") -> int:
    """One multiplicity for :meth:`Discrete.from_counts`: a non-negative integer.

    Integer-valued floats (``2.0``), strings (``"6"``) and Fractions are accepted; anything
    with a fractional part (``2.5``, ``"2.5"``, ``Fraction(5, 2)``), NaN/inf and bools are
    rejected rather than truncated.
    """
    if isinstance(c, bool | np.bool_):
        raise ValueError(f"{name}: counts must be integers, got the bool {c!r}")
    if isinstance(c, float | np.floating) and not float(c).is_integer():
        raise ValueError(f"{name}: counts must be integers, got {c!r}")
    v = to_number(c, name=name)  # floats reaching here are integer-valued
    if isinstance(v, Fraction) and v.denominator != 1:
        raise ValueError(f"{name}: counts must be integers, got {c!r}")
    ci = int(v)
    if ci < 0:
        raise ValueError(f"{name}: counts must be non-negative, got {c!r}")
    return ci


def empirical(samples: Sequence[object] | np.ndarray) -> Discrete:
    """Empirical distribution of observed sizes (e.g. a trace column).

    Scalar samples give a scalar distribution; an ``(n, d)`` array (or a list of
    equal-length tuples) gives vector sizes. Probabilities are exact multiplicities
    ``count / n``. A float array keeps float sizes; a list of Fractions, ints or decimal
    strings keeps exact sizes (one float among them makes all sizes floats).

    Parameters
    ----------
    samples : sequence or numpy.ndarray
        Observed sizes: a 1-D array or list of positive numbers, or a 2-D array (or a
        list of equal-length tuples) of size vectors, one row per job.

    Returns
    -------
    Discrete
        One type per distinct size, with probability (its count) / n as a Fraction.

    Raises
    ------
    ValueError
        No samples; an array of more than two dimensions; a NaN or infinite sample;
        scalars mixed with vectors; a size that :class:`Discrete` refuses (a scalar
        size that is not positive, a vector that is negative or all zero).

    References
    ----------
    PG21, Sec. VII-B (sizes taken from the Google cluster trace); PG21, Sec. II (F_R).

    Examples
    --------
    >>> import numpy as np
    >>> from theory import empirical
    >>> e = empirical(["0.3", "0.1", "0.3"])
    >>> e.sizes, e.probs
    ([Fraction(1, 10), Fraction(3, 10)], [Fraction(1, 3), Fraction(2, 3)])
    >>> v = empirical(np.array([[1, 2], [1, 2], [2, 1]]))
    >>> v.sizes, v.probs
    ([(1.0, 2.0), (2.0, 1.0)], [Fraction(2, 3), Fraction(1, 3)])
    """
    if isinstance(samples, np.ndarray) and samples.dtype.kind in "fiu" and samples.size:
        arr = samples
        if arr.ndim not in (1, 2):
            raise ValueError(f"samples must be a 1-D or 2-D array, got {arr.ndim}-D")
        bad = ~np.isfinite(arr)
        if bad.any():
            i = np.argwhere(bad)[0]
            where = int(i[0]) if arr.ndim == 1 else tuple(int(v) for v in i)
            raise ValueError(f"samples[{where}] is {arr[tuple(i)]}: samples must be finite "
                             "(no NaN or infinite values)")
        if arr.ndim == 1:
            vals, counts = np.unique(arr, return_counts=True)
            return Discrete.from_counts([float(v) for v in vals], counts.tolist())
        vals, counts = np.unique(arr, axis=0, return_counts=True)
        return Discrete.from_counts([tuple(float(x) for x in r) for r in vals],
                                    counts.tolist())
    items = as_list(samples, name="samples", example="[0.3, 0.1, 0.3]")
    if not items:
        raise ValueError("empirical distribution of no samples")
    first = _vector_entries(items[0])
    if first is not None and isinstance(first, list | tuple) and first and \
            isinstance(first[0], list | tuple | np.ndarray):
        raise ValueError("samples must be a 1-D or 2-D array (sizes or size vectors)")
    keyed: list[Number | tuple[Number, ...]] = []
    for i, x in enumerate(items):
        entries = _vector_entries(x)
        if (entries is None) != (first is None):
            raise ValueError(f"samples[{i}]: samples must be all scalars or all vectors")
        if entries is None:
            keyed.append(_sample_value(x, f"samples[{i}]"))
        else:
            keyed.append(tuple(_sample_value(v, f"samples[{i}][{j}]")
                               for j, v in enumerate(entries)))
    if any(isinstance(v, float) for k in keyed for v in (k if isinstance(k, tuple) else (k,))):
        keyed = [tuple(to_float_checked(v, f"samples[{i}]") for v in k)
                 if isinstance(k, tuple) else to_float_checked(k, f"samples[{i}]")
                 for i, k in enumerate(keyed)]
    tally = Counter(keyed)
    order = list(tally)
    return Discrete.from_counts(order, [tally[k] for k in order])


def _sample_value(x: object, name: str) -> Number:
    if isinstance(x, float | np.floating) and not math.isfinite(float(x)):
        raise ValueError(f"{name} is {x}: samples must be finite (no NaN or infinite values)")
    return to_number(x, name=name)


class Uniform(SizeDistribution):
    """Uniform sizes on [a, b], 0 <= a < b (PG21 Sec. VII-A uses [0.01, 0.19], [0.1, 0.9]).

    Like :class:`Discrete`, the class takes sizes in any unit; what needs sizes in
    (0, 1] (:func:`from_spec`, the partitions) checks it. Exact (Fraction answers)
    when both ends are rational; a float end makes both floats.

    Parameters
    ----------
    a : number
        Lower end, at least 0 (int, Fraction, float or decimal/ratio string).
    b : number
        Upper end, above ``a``.

    Raises
    ------
    ValueError
        An end is not a finite number in the float64 range; not ``0 <= a < b``.

    References
    ----------
    PG21, Sec. VII-A.3 (sizes uniform on [0.01, 0.19] and on [0.1, 0.9]).

    Examples
    --------
    >>> from theory import Uniform
    >>> u = Uniform("0.1", "0.9")
    >>> u
    Uniform(1/10, 9/10)
    >>> u.mean(), u.cdf("0.3"), u.quantile("0.25")
    (Fraction(1, 2), Fraction(1, 4), Fraction(3, 10))
    >>> u.sample(3, seed=0).round(4).tolist()
    [0.6096, 0.3158, 0.1328]
    """

    def __init__(self, a: object, b: object):
        lo, hi = to_number(a, name="uniform bound a"), to_number(b, name="uniform bound b")
        lof, hif = to_float_checked(lo, "uniform bound a"), to_float_checked(hi, "uniform bound b")
        if isinstance(lo, float) or isinstance(hi, float):
            lo, hi = lof, hif
        if not 0 <= lo < hi:
            raise ValueError(f"uniform needs 0 <= a < b, got a={a!r}, b={b!r}")
        self.a, self.b = lo, hi

    def __repr__(self) -> str:
        return f"Uniform({self.a}, {self.b})"

    @property
    def exact(self) -> bool:
        return isinstance(self.a, Fraction)

    def _x(self, x: Number) -> Number:
        x = to_number(x, name="x")
        return x if self.exact else _point(x)

    def mean(self) -> Number:
        return (self.a + self.b) / 2

    def cdf(self, x: Number) -> Number:
        x = self._x(x)
        if x <= self.a:
            return Fraction(0) if self.exact and isinstance(x, Fraction) else 0.0
        if x >= self.b:
            return Fraction(1) if self.exact and isinstance(x, Fraction) else 1.0
        return (x - self.a) / (self.b - self.a)

    cdf_left = cdf

    def quantile(self, u: Number) -> Number:
        u = _check_unit(u)
        if not self.exact:
            u = float(u)
        return self.a + u * (self.b - self.a)

    def support(self) -> tuple[Number, Number]:
        return self.a, self.b

    def atoms(self) -> list[tuple[Number, Number]]:
        return []

    def sample(self, n: int, seed: int | np.random.Generator | None = None, *,
               memory_budget: float = MEMORY_BUDGET) -> np.ndarray:
        n = _sample_count(n, 1, memory_budget, repr(self))
        return as_rng(seed).uniform(float(self.a), float(self.b), size=n)

    def scaled(self, factor: object) -> Uniform:
        f = _scale_factor(factor)
        return Uniform(self.a * f, self.b * f)


class Continuous(SizeDistribution):
    """A general continuous size distribution given by its cdf (PG21 Thm. 1).

    Answers are floats. The mean is computed by quadrature of 1 - F; without a
    ``quantile`` the inverse is found by root finding (scipy, imported on first use).
    The cdf (and quantile, if given) are checked on 33 points of the support when the
    object is built.

    Parameters
    ----------
    cdf : callable
        float -> float, continuous and non-decreasing on ``support``, with values in
        [0, 1].
    support : tuple of (float, float)
        (lo, hi) with 0 <= lo < hi, F(lo) = 0 and F(hi) = 1 (within 1e-12).
    quantile : callable, optional
        The inverse cdf, float -> float; computed by root finding if omitted (None).
    name : str, optional
        Label used in reports and in the repr (default ``"continuous"``).

    Raises
    ------
    ValueError
        ``cdf`` or ``quantile`` is not callable, ``name`` not a str; ``support`` not a
        pair with ``0 <= lo < hi``; the cdf is not 0 at lo and 1 at hi, leaves [0, 1],
        decreases, raises or returns a non-number on the check points; the quantile
        does not invert the cdf (within 1e-6) there.

    See Also
    --------
    beta : a Beta law on an interval.
    from_scipy : any scipy.stats law, truncated to (0, capacity].

    References
    ----------
    PG21, Sec. III-B, Theorem 1 (a general F_R) and Sec. VIII-A (the quantile
    partitions built from F_R).

    Examples
    --------
    F(x) = x^2 on [0, 1], with its inverse:

    >>> from theory import Continuous
    >>> c = Continuous(lambda x: x * x, (0.0, 1.0), lambda u: u ** 0.5, name="x^2")
    >>> c
    Continuous(x^2)
    >>> c.cdf(0.5), c.quantile(0.25), round(c.mean(), 12)
    (0.25, 0.5, 0.666666666667)
    """

    def __init__(
        self,
        cdf: Callable[[float], float],
        support: tuple[float, float],
        quantile: Callable[[float], float] | None = None,
        name: str = "continuous",
    ):
        if not callable(cdf):
            raise ValueError(f"cdf must be a function float -> float, got {cdf!r}")
        if quantile is not None and not callable(quantile):
            raise ValueError(f"quantile must be a function float -> float or None, got "
                             f"{quantile!r}")
        if not isinstance(name, str):
            raise ValueError(f"name must be a str, got {name!r}")
        if not isinstance(support, tuple | list | np.ndarray) or len(support) != 2:
            raise ValueError(f"support must be a pair (lo, hi), got {support!r}")
        ends = list(support)
        lo, hi = (to_float_checked(v, "support") for v in ends)
        if not 0 <= lo < hi:
            raise ValueError(f"support must satisfy 0 <= lo < hi, got {support!r}")
        self._cdf, self._q, self._lo, self._hi, self.name = cdf, quantile, lo, hi, name
        self._qvec: Callable[[np.ndarray], np.ndarray] | None = None
        _check_cdf(self)

    def __repr__(self) -> str:
        return f"Continuous({self.name})"

    def mean(self) -> float:
        # E[R] = lo + int_lo^hi (1 - F(x)) dx
        from scipy import integrate  # imported on use: scipy costs ~1 s to import

        val, _err = integrate.quad(lambda x: 1.0 - self._cdf(x), self._lo, self._hi, limit=200)
        return self._lo + val

    def cdf(self, x: Number) -> float:
        x = _point(to_number(x, name="x"))
        if x <= self._lo:
            return 0.0
        if x >= self._hi:
            return 1.0
        return float(min(1.0, max(0.0, self._cdf(x))))

    cdf_left = cdf

    def quantile(self, u: Number) -> float:
        u = float(_check_unit(u))
        if self._q is not None:
            q = float(self._q(u))
            if math.isfinite(q):
                return min(self._hi, max(self._lo, q))
        if u <= 0:
            return self._lo
        if u >= 1:
            return self._hi
        from scipy import optimize

        return float(optimize.brentq(lambda x: self.cdf(x) - u, self._lo, self._hi, xtol=1e-15))

    def support(self) -> tuple[float, float]:
        return self._lo, self._hi

    def atoms(self) -> list[tuple[Number, Number]]:
        return []

    def sample(self, n: int, seed: int | np.random.Generator | None = None, *,
               memory_budget: float = MEMORY_BUDGET) -> np.ndarray:
        n = _sample_count(n, 1, memory_budget, repr(self))
        u = as_rng(seed).random(n)
        if self._qvec is not None:
            out = np.asarray(self._qvec(u), dtype=float)
            for bad in np.flatnonzero(~np.isfinite(out)):
                out[bad] = self.quantile(float(u[bad]))
            return np.clip(out, self._lo, self._hi)
        out = np.empty(n)
        with Progress(f"sampling {n:,} sizes from {self!r}", total=n, unit="sizes") as prog:
            for i, v in enumerate(u):
                out[i] = self.quantile(float(v))
                if i % 1024 == 0:
                    prog.update(i)
        return out


    def scaled(self, factor: object) -> Continuous:
        f = float(_scale_factor(factor))
        cdf, q, qvec = self._cdf, self._q, self._qvec
        out = Continuous(lambda x: cdf(x / f), (self._lo * f, self._hi * f),
                         None if q is None else (lambda u: f * q(u)), f"{self.name}*{f:g}")
        if qvec is not None:
            out._qvec = lambda u: f * qvec(u)
        return out


#: Points (fractions of the support) where a user cdf and quantile are checked.
_CHECK_POINTS = [i / 32 for i in range(33)]


def _call(f: Callable[[float], float], x: float, what: str) -> float:
    """``f(x)`` as a finite float, or ``ValueError`` naming ``what`` and the problem."""
    try:
        y = f(x)
    except Exception as err:  # user code: report what failed, keep the cause
        raise ValueError(f"{what}({x!r}) raised {type(err).__name__}: {err}") from err
    if isinstance(y, bool | np.bool_) or not isinstance(y, int | float | np.number | Fraction):
        raise ValueError(f"{what}({x!r}) returned {y!r}, not a number")
    yf = float(y)
    if not math.isfinite(yf):
        raise ValueError(f"{what}({x!r}) returned {y!r}, not a finite number")
    return yf


def _check_cdf(c: Continuous) -> None:
    """The cdf is 0 at lo, 1 at hi, in [0, 1] and non-decreasing on a grid; the quantile,
    if given, inverts it there (within 1e-6)."""
    lo, hi, tol = c._lo, c._hi, 1e-12
    if abs(_call(c._cdf, lo, "cdf")) > tol or abs(_call(c._cdf, hi, "cdf") - 1) > tol:
        raise ValueError("cdf must be 0 at the lower end of the support and 1 at the upper")
    prev = 0.0
    for t in _CHECK_POINTS:
        x = lo + t * (hi - lo)
        y = _call(c._cdf, x, "cdf")
        if not -tol <= y <= 1 + tol:
            raise ValueError(f"cdf({x!r}) = {y!r} is outside [0, 1]")
        if y < prev - tol:
            raise ValueError(f"cdf must be non-decreasing, but cdf({x!r}) = {y!r} is below "
                             f"an earlier value {prev!r}")
        prev = max(prev, y)
    if c._q is None:
        return
    for u in _CHECK_POINTS[1:-1]:
        x = _call(c._q, u, "quantile")
        if not lo - 1e-9 <= x <= hi + 1e-9 or abs(c.cdf(min(hi, max(lo, x))) - u) > 1e-6:
            raise ValueError(f"quantile({u!r}) = {x!r} does not invert the cdf (cdf of it "
                             f"is {c.cdf(min(hi, max(lo, x)))!r})")


def beta(a: float, b: float, lo: float = 0.0, hi: float = 1.0) -> Continuous:
    """Beta(a, b) sizes scaled to [lo, hi] (a smooth continuous test case).

    The law of ``lo + (hi - lo) X`` for X ~ Beta(a, b), built on ``scipy.stats.beta``
    (cdf and ppf, vectorised sampling). Answers are floats.

    Parameters
    ----------
    a : float
        First shape parameter, positive.
    b : float
        Second shape parameter, positive.
    lo : float, optional
        Lower end of the support (default 0), at least 0.
    hi : float, optional
        Upper end of the support (default 1), above ``lo``.

    Returns
    -------
    Continuous
        The law, named ``"beta(a,b)"``.

    Raises
    ------
    ValueError
        A parameter is not a finite number; ``a`` or ``b`` is not positive; not
        ``0 <= lo < hi``.

    See Also
    --------
    from_scipy : any scipy.stats law.

    References
    ----------
    PG21, Sec. III-B, Theorem 1 (a general continuous F_R); a test case of the
    toolkit, not a law the papers use.

    Examples
    --------
    >>> from theory import beta
    >>> b = beta(2, 5, 0.1, 0.5)
    >>> b, b.support()
    (Continuous(beta(2,5)), (0.1, 0.5))
    >>> round(b.mean(), 12)      # 0.1 + 0.4 * 2/7
    0.214285714286
    """
    af, bf = to_float_checked(a, "beta parameter a"), to_float_checked(b, "beta parameter b")
    if af <= 0 or bf <= 0:
        raise ValueError(f"beta parameters must be positive, got a={a!r}, b={b!r}")
    lof, hif = to_float_checked(lo, "beta lower end"), to_float_checked(hi, "beta upper end")
    if not 0 <= lof < hif:
        raise ValueError(f"beta support must satisfy 0 <= lo < hi, got lo={lo!r}, hi={hi!r}")
    from scipy import stats

    frozen = stats.beta(af, bf, loc=lof, scale=hif - lof)
    cdf, ppf = _quiet(frozen.cdf), _quiet(frozen.ppf)
    c = Continuous(lambda x: float(cdf(x)), (lof, hif), lambda u: float(ppf(u)),
                   name=f"beta({a},{b})")
    c._qvec = ppf
    return c


def _quiet(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``f`` with scipy's RuntimeWarnings silenced: scipy warns (boost root finding) at
    extreme levels such as u = 1e-300; the value is still the best float, and a NaN is
    caught by the caller's checks."""
    def g(v: Any) -> Any:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return f(v)
    return g


def from_scipy(dist: Any, *, capacity: object = 1, name: str | None = None,
               max_points: int = MAX_SUPPORT_POINTS,
               min_mass: float = MIN_KEPT_MASS) -> Continuous | Discrete:
    """A frozen ``scipy.stats`` law as job sizes on (0, 1]: truncated to (0, capacity],
    renormalised, in units of the capacity.

    PG21 Sec. II takes job sizes R in (0, 1], a fraction of one server. A law ``X`` in
    the units of the capacity (GB, cores) becomes the law of ``X / capacity`` given
    ``0 < X <= capacity``: its cdf is
    ``F_T(x) = (F(x C) - F(0)) / (F(C) - F(0))`` for ``C = capacity``. A continuous law
    gives a :class:`Continuous` (the case of PG21 Thm. 1, which holds for any F_R), a
    discrete law a :class:`Discrete` over its support points in (0, C].

    Parameters
    ----------
    dist : a frozen scipy.stats distribution, continuous (``stats.norm(0.5, 0.1)``)
        or discrete (``stats.poisson(3)``, ``stats.rv_discrete(values=...)()``).
    capacity : the capacity C of one server, in the units of ``dist`` (a positive
        number; a rational C keeps integer support points exact as Fractions).
    name : label of a continuous result (``Continuous.name``); by default the scipy
        name and parameters.
    max_points : the most support points in (0, C] a discrete law may have
        (:data:`MAX_SUPPORT_POINTS`); more is refused before any is evaluated.
    min_mass : the least mass ``P(0 < X <= C)`` the truncation may keep, in [0, 1]
        (:data:`MIN_KEPT_MASS` = 1e-9); 0 accepts any positive mass, e.g. a far tail
        meant as such (the numerical checks below still apply).

    Returns
    -------
    Continuous
        for a continuous law: cdf ``F_T``, quantile ``F^-1(F(0) + u (F(C) - F(0))) / C``
        (the frozen law's ``ppf``; its ``sf``/``isf`` when most mass lies above C, for
        accuracy), support ``[max(0, a), min(C, b)] / C`` for the law's support [a, b].
    Discrete
        for a discrete law: the points ``x`` in (0, C] as sizes ``x / C`` with
        probabilities ``pmf(x)`` divided by their sum (floats).

        Either result carries the attribute ``kept_mass``: the mass
        ``m = P(0 < X <= C)`` the truncation kept, a float. It is ``F(C) - F(0)``, or
        ``S(0) - S(C)`` from the survival function when more than half the mass lies at
        or below 0 (each from the tail where the values are small, so the digits are
        kept; from ``logcdf``/``logsf`` where the tail underflows), and for a discrete
        law the sum of the kept pmf.

    Raises
    ------
    ValueError
        ``dist`` is not a frozen scipy.stats distribution (an unfrozen ``stats.norm``
        included); its cdf or pmf is NaN (invalid parameters); the capacity is not a
        positive finite number; the law has no mass in (0, C] (the message gives
        P(0 < X <= C)); ``min_mass`` is not in [0, 1]; the kept mass is below
        ``min_mass``, by default :data:`MIN_KEPT_MASS` = 1e-9 (the law
        lies almost wholly outside the server, e.g. sizes in other units, and what is
        left is a far tail no one meant; the bound also keeps the rounding of the
        normalisation below about 2e-7 relative); the normalisation is numerically
        meaningless: the kept mass is no probability, or it differs between the cdf,
        ``F(C) - F(0)``, and the survival function, ``S(0) - S(C)``, by more than 1e-6
        relative plus 1e-13 (the law's own numbers do not fix the normalisation).
    BudgetExceeded
        a discrete law with more than ``max_points`` support points in (0, C].

    Examples
    --------
    >>> from scipy import stats
    >>> d = from_scipy(stats.norm(5, 1), capacity=10)   # N(5, 1) GB on 10 GB servers
    >>> round(d.cdf(0.5), 12), round(d.mean(), 9)
    (0.5, 0.5)
    >>> b = from_scipy(stats.binom(4, 0.5), capacity=4)  # the point 0 is cut off
    >>> b.sizes
    [Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1, 1)]
    >>> [round(p * 15, 12) for p in b.probs]
    [4.0, 6.0, 4.0, 1.0]
    >>> round(b.kept_mass * 16, 12)  # P(0 < X <= 4) = 15/16
    15.0

    A law that keeps almost none of its mass on the server is refused: lognormal
    sizes around e^3 = 20 have P(X <= 1) = Phi(-30), about 5e-198.

    >>> import math
    >>> from_scipy(stats.lognorm(0.1, scale=math.exp(3)))
    Traceback (most recent call last):
    ...
    ValueError: lognorm(0.1, scale=20.0855) on (0, 1]: ... = 4.9e-198 of the law, below ...

    References
    ----------
    PG21, Sec. II (sizes R in (0, 1], capacity normalised to one) and Sec. III-B,
    Theorem 1 (any F_R).
    """
    from scipy import stats
    from scipy.stats._distn_infrastructure import rv_frozen

    if not isinstance(dist, rv_frozen) or not isinstance(
            getattr(dist, "dist", None), stats.rv_continuous | stats.rv_discrete):
        raise ValueError("dist must be a frozen scipy.stats distribution such as "
                         f"scipy.stats.norm(0.5, 0.1), got {_short(dist)}")
    if name is not None and not isinstance(name, str):
        raise ValueError(f"name must be a str or None, got {name!r}")
    if isinstance(capacity, bool | np.bool_) or isinstance(capacity,
                                                             list | tuple | np.ndarray):
        raise ValueError(f"capacity must be one positive number, got {capacity!r}")
    cap = to_number(capacity, name="capacity")
    capf = to_float_checked(cap, "capacity")
    if not capf > 0:
        raise ValueError(f"capacity must be positive, got {capacity!r}")
    least = to_float_checked(min_mass, "min_mass")
    if not 0 <= least <= 1:
        raise ValueError(f"min_mass must be a probability in [0, 1], got {min_mass!r}")
    label = name if name is not None else _scipy_label(dist)
    where = f"{label} on (0, {written(cap)}]"
    sup_lo, sup_hi = (float(v) for v in dist.support())
    if math.isnan(sup_lo) or math.isnan(sup_hi):
        raise ValueError(f"{label}: the support is NaN (invalid parameters?)")
    if isinstance(dist.dist, stats.rv_discrete):
        return _scipy_discrete(dist, cap, capf, sup_lo, sup_hi, where, max_points, least)
    return _scipy_continuous(dist, capf, sup_lo, sup_hi, label, where, least)


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def _scipy_label(dist: Any) -> str:
    parts = [f"{float(v):g}" if isinstance(v, float | np.floating) else repr(v)
             for v in dist.args]
    parts += [f"{k}={float(v):g}" if isinstance(v, float | np.floating) else f"{k}={v!r}"
              for k, v in dist.kwds.items()]
    return f"{dist.dist.name}({', '.join(parts)})"


def _no_mass(where: str, mass: float) -> ValueError:
    return ValueError(f"{where}: the law has no mass there, P(0 < X <= capacity) = "
                      f"{mass!r}")


#: Relative (plus absolute) disagreement allowed between the kept mass taken from the
#: cdf, F(C) - F(0), and from the survival function, S(0) - S(C) (:func:`from_scipy`):
#: far above the rounding of either (a few 1e-16 absolute, special functions a few
#: 1e-15), far below an error that would change the normalised law.
_MASS_RTOL, _MASS_ATOL = 1e-6, 1e-13


def _check_kept_mass(where: str, mass: float, least: float) -> None:
    """Refuse a kept mass that is no probability or below ``least``
    (:data:`MIN_KEPT_MASS` unless the caller says otherwise)."""
    if not math.isfinite(mass) or mass > 1 + 1e-9:
        raise ValueError(f"{where}: the normalisation is numerically meaningless: "
                         f"P(0 < X <= capacity) = {mass!r} is not a probability")
    if not mass > 0:
        raise _no_mass(where, max(mass, 0.0))
    if mass < least:
        raise ValueError(f"{where}: the truncation keeps P(0 < X <= capacity) = {mass:.2g} "
                         f"of the law, below the {least:g} from_scipy accepts (the "
                         f"law lies almost wholly outside the server: sizes in other units?)")


def _tail_difference(log_f: Callable[[Any], Any], hi: float, lo: float) -> float:
    """``P(hi) - P(lo)`` for a tail probability P with ``P(hi) >= P(lo)``, from its
    logarithm ``log_f`` (``logcdf`` or ``logsf``): exact where P underflows."""
    a, b = float(log_f(hi)), float(log_f(lo))
    if not a > -math.inf:
        return 0.0 if a == -math.inf else math.nan
    return math.exp(a) * -math.expm1(min(b - a, 0.0))


def _scipy_continuous(dist: Any, capf: float, sup_lo: float, sup_hi: float, label: str,
                      where: str, least: float) -> Continuous:
    cdf, sf = _quiet(dist.cdf), _quiet(dist.sf)
    f0, fc = float(cdf(0.0)), float(cdf(capf))
    if not (math.isfinite(f0) and math.isfinite(fc)):
        raise ValueError(f"{where}: the cdf is NaN (invalid parameters?): F(0) = {f0!r}, "
                         f"F(capacity) = {fc!r}")
    s0, sc = float(sf(0.0)), float(sf(capf))
    upper = f0 > 0.5  # most mass above 0: survival functions keep the digits
    # the kept mass from the tail that holds the small values; near the float range's
    # end (an underflowing tail) from its logarithm
    mass, other = (s0 - sc, fc - f0) if upper else (fc - f0, s0 - sc)
    if 0 < max(s0 if upper else fc, 0.0) < 1e-290:
        mass = (_tail_difference(_quiet(dist.logsf), 0.0, capf) if upper
                else _tail_difference(_quiet(dist.logcdf), capf, 0.0))
    if not math.isfinite(other) or abs(mass - other) > _MASS_RTOL * abs(mass) + _MASS_ATOL:
        raise ValueError(f"{where}: the normalisation is numerically meaningless: the kept "
                         f"mass is {fc - f0:.6g} by the cdf and {s0 - sc:.6g} by the "
                         f"survival function")
    _check_kept_mass(where, mass, least)
    lo = max(0.0, sup_lo) / capf
    hi = min(capf, sup_hi) / capf
    if not 0 <= lo < hi:
        raise _no_mass(where, mass)
    if upper:
        isf = _quiet(dist.isf)

        def tcdf(x: Any) -> Any:
            return (s0 - sf(np.multiply(x, capf))) / mass

        def qvec(u: Any) -> Any:
            return np.clip(isf(s0 - np.multiply(u, mass)) / capf, lo, hi)
    else:
        ppf = _quiet(dist.ppf)

        def tcdf(x: Any) -> Any:
            return (cdf(np.multiply(x, capf)) - f0) / mass

        def qvec(u: Any) -> Any:
            return np.clip(ppf(f0 + np.multiply(u, mass)) / capf, lo, hi)

    c = Continuous(lambda x: float(tcdf(x)), (lo, hi), lambda u: float(qvec(u)),
                   name=f"{label} | (0, {capf:g}]" if capf != 1 else label)
    c._qvec = qvec
    c.kept_mass = mass  # type: ignore[attr-defined]
    return c


def _scipy_discrete(dist: Any, cap: Number, capf: float, sup_lo: float, sup_hi: float,
                    where: str, max_points: int, least: float) -> Discrete:
    if isinstance(max_points, bool) or not isinstance(max_points, int | np.integer) or \
            max_points < 1:
        raise ValueError(f"max_points must be a positive integer, got {max_points!r}")
    xk = getattr(dist.dist, "xk", None)  # rv_discrete(values=(xk, pk)): listed points
    if xk is not None:
        shift = sup_lo - float(np.min(xk))  # the frozen loc
        pts = np.asarray(xk, dtype=float) + shift
        pts = pts[(pts > 0) & (pts <= capf)]
        check_budget(len(pts), max_points, what=f"the support of {where}",
                     option="max_points", unit="points")
    else:
        # an integer lattice shifted by loc: any quantile is one of its points
        x0 = float(_quiet(dist.ppf)(0.5))
        if not math.isfinite(x0):
            raise ValueError(f"{where}: the quantile is NaN (invalid parameters?)")
        # points x0 + k in (0, C] and in [sup_lo, sup_hi] (a point off the lattice by
        # rounding is kept: its pmf decides)
        kmin = math.floor(-x0) + 1
        if math.isfinite(sup_lo):
            kmin = max(kmin, math.ceil(sup_lo - x0 - 1e-9))
        kmax = math.floor(min(sup_hi, capf) - x0 + 1e-9)
        check_budget(max(0, kmax - kmin + 1), max_points, what=f"the support of {where}",
                     option="max_points", unit="points")
        pts = x0 + np.arange(kmin, kmax + 1, dtype=float) if kmax >= kmin else np.zeros(0)
        pts = pts[(pts > 0) & (pts <= capf)]
    pmf = np.asarray(_quiet(dist.pmf)(pts), dtype=float) if len(pts) else np.zeros(0)
    if np.isnan(pmf).any():
        raise ValueError(f"{where}: the pmf is NaN (invalid parameters?)")
    mass = float(pmf.sum())
    _check_kept_mass(where, mass, least)
    keep = pmf > 0
    exact = isinstance(cap, Fraction)
    sizes: list[Number] = [Fraction(int(x)) / cap if exact and float(x).is_integer()
                           else float(x) / capf for x in pts[keep]]
    out = Discrete(sizes, [float(p) / mass for p in pmf[keep]])
    out.kept_mass = mass  # type: ignore[attr-defined]
    return out


class Mixture(SizeDistribution):
    """A mixture ``sum_i w_i F_i``; with a :class:`Discrete` part the cdf has jumps (atoms).

    PG21 Thm. 1 covers "any general (continuous or discontinuous)" F_R; mixtures of a
    continuous part and atoms are the natural test of the discontinuous case. Exact when
    every component is exact and the weights are rational.

    Parameters
    ----------
    components : sequence of SizeDistribution
        The laws F_i, scalar sizes (``dim == 1``); at least one.
    weights : sequence of numbers
        w_i, one per component: non-negative, summing to 1 (exactly for rationals,
        within 1e-9 for floats).

    Raises
    ------
    ValueError
        No components, or a number of weights different from the number of
        components; a component that is not a :class:`SizeDistribution` or has vector
        sizes; a negative weight; weights not summing to 1.

    References
    ----------
    PG21, Sec. III-B, Theorem 1 ("any general (continuous or discontinuous)" F_R) and
    Sec. VIII-A (general distributions).

    Examples
    --------
    Half the jobs uniform on [0, 1/2], half of size 3/4 (an atom):

    >>> from theory import Discrete, Mixture, Uniform
    >>> m = Mixture([Uniform("0", "1/2"), Discrete(["3/4"])], ["1/2", "1/2"])
    >>> m.mean(), m.atoms()
    (Fraction(1, 2), [(Fraction(3, 4), Fraction(1, 2))])
    >>> m.cdf_left("3/4"), m.cdf("3/4"), m.quantile("0.6")
    (Fraction(1, 2), Fraction(1, 1), Fraction(3, 4))
    """

    def __init__(self, components: Sequence[SizeDistribution], weights: Sequence[object]):
        components = as_list(components, name="components", of="distributions",
                             example="[Uniform('0.1', '0.9')]")
        weights = as_list(weights, name="weights", example="['1/2', '1/2']")
        if len(components) == 0 or len(components) != len(weights):
            raise ValueError("a mixture needs as many weights as components (at least one)")
        for i, c in enumerate(components):
            if not isinstance(c, SizeDistribution):
                raise ValueError(f"components[{i}] must be a size distribution (Discrete, "
                                 f"Uniform, Continuous, Mixture), got {c!r}")
        ws = to_numbers(weights, name="mixture weight")
        if any(w < 0 for w in ws):
            raise ValueError("mixture weights must be non-negative")
        total = sum(ws)
        if isinstance(total, Fraction) and total != 1 or abs(float(total) - 1) > PROB_SUM_ATOL:
            raise ValueError(f"mixture weights sum to {total}, not 1")
        if any(c.dim != 1 for c in components):
            raise ValueError("mixtures need scalar sizes")
        self.components = list(components)
        self.weights = ws

    def __repr__(self) -> str:
        return "Mixture(" + ", ".join(f"{w}*{c!r}" for w, c in zip(self.weights, self.components,
                                                                strict=True)) + ")"

    @property
    def exact(self) -> bool:
        return all(c.exact for c in self.components) and all(
            isinstance(w, Fraction) for w in self.weights)

    def _mix(self, vals: list[Number]) -> Number:
        if self.exact and all(isinstance(v, Fraction) for v in vals):
            return sum((w * v for w, v in zip(self.weights, vals, strict=True)), Fraction(0))
        return float(sum(float(w) * float(v) for w, v in zip(self.weights, vals, strict=True)))

    def mean(self) -> Number:
        return self._mix([c.mean() for c in self.components])

    def cdf(self, x: Number) -> Number:
        return self._mix([c.cdf(x) for c in self.components])

    def cdf_left(self, x: Number) -> Number:
        return self._mix([c.cdf_left(x) for c in self.components])

    def quantile(self, u: Number) -> Number:
        """Generalised inverse ``inf{x : F(x) >= u}``, exact for exact piecewise-linear mixtures.

        When every component is exact and is a :class:`Discrete`, a :class:`Uniform` or
        such a mixture itself (and the weights are Fractions), F is a step-plus-linear
        function: between consecutive breakpoints (atoms and uniform ends) it is linear,
        with jumps only at atoms. The quantile is then found exactly: locate the first
        breakpoint ``b`` with ``F(b) >= u``; if ``F(b-) < u`` the inverse is the atom ``b``,
        otherwise F crosses ``u`` on the linear piece before ``b`` and the crossing point
        is solved for in rationals. ``u`` given as a float is read as the exact binary
        rational it denotes. Other mixtures use the generic bisection.
        """
        pts = _linear_breakpoints(self) if self.exact else None
        if pts is None:
            return super().quantile(u)
        uq = _check_unit(u)
        uf = uq if isinstance(uq, Fraction) else Fraction(uq)
        if uf <= 0:
            return self.support()[0]
        # first breakpoint with F(b) >= u (F(max breakpoint) = 1 >= u, so one exists)
        i = bisect.bisect_left(pts, True, key=lambda b: self.cdf(b) >= uf)
        b = pts[i]
        left = self.cdf_left(b)
        if i == 0 or left < uf:
            # an atom at b (or b is the lowest breakpoint, below which F = 0 < u)
            return b
        # F is linear on (a, b) from F(a) < u up to F(b-) >= u: solve F(x) = u there
        a = pts[i - 1]
        fa = self.cdf(a)
        return a + (uf - fa) * (b - a) / (left - fa)

    def support(self) -> tuple[Number, Number]:
        parts = [c.support() for c, w in zip(self.components, self.weights, strict=True) if w > 0]
        return min(p[0] for p in parts), max(p[1] for p in parts)

    def atoms(self) -> list[tuple[Number, Number]]:
        acc: dict[Number, Number] = {}
        for c, w in zip(self.components, self.weights, strict=True):
            for x, p in c.atoms():
                acc[x] = acc.get(x, 0) + w * p
        return sorted((x, p) for x, p in acc.items() if p > 0)

    def sample(self, n: int, seed: int | np.random.Generator | None = None, *,
               memory_budget: float = MEMORY_BUDGET) -> np.ndarray:
        n = _sample_count(n, 1, memory_budget, "a mixture")
        rng = as_rng(seed)
        w = np.array([float(v) for v in self.weights])
        which = rng.choice(len(w), size=n, p=w / w.sum())
        out = np.empty(n)
        for i, c in enumerate(self.components):
            m = which == i
            if m.any():
                out[m] = c.sample(int(m.sum()), rng, memory_budget=memory_budget)
        return out

    def scaled(self, factor: object) -> Mixture:
        return Mixture([c.scaled(factor) for c in self.components], self.weights)


def _linear_breakpoints(dist: SizeDistribution) -> list[Fraction] | None:
    """Sorted points between which the cdf of ``dist`` is linear, or None if it is not.

    Defined for exact :class:`Discrete` (scalar), exact :class:`Uniform` and mixtures of
    those: the breakpoints are the atoms and the ends of the uniform pieces. The lowest
    breakpoint is at most the lower end of the support (F vanishes below it).
    """
    pts: set[Fraction] = set()
    if isinstance(dist, Discrete) and dist.dim == 1 and dist.exact:
        pts.update(x for x, _p in dist.atoms() if isinstance(x, Fraction))
    elif isinstance(dist, Uniform) and isinstance(dist.a, Fraction) and isinstance(dist.b,
                                                                                   Fraction):
        pts.update([dist.a, dist.b])
    elif isinstance(dist, Mixture) and dist.exact:
        for c in dist.components:
            sub = _linear_breakpoints(c)
            if sub is None:
                return None
            pts.update(sub)
    else:
        return None
    return sorted(pts)


#: A '+' that starts the next mixture component ("...+W*"), not the sign of an exponent.
_COMPONENT_SPLIT = re.compile(r"\+(?=[^+*:]*\*)")


def from_spec(spec: str) -> SizeDistribution:
    """Build a distribution from a short text spec (the CLI's ``--dist``).

    Grammar (sizes are fractions of one server, in (0, 1])::

        uniform:A,B                   Uniform[A, B], 0 <= A < B <= 1
        discrete:S1@P1,S2@P2,...      finite types (``@P`` omitted everywhere: equally likely)
        point:S                       all jobs of size S
        beta:A,B[,LO,HI]              Beta(A, B) on [LO, HI] (default [0, 1])
        lognormal:MU,SIGMA            LogNormal(MU, SIGMA^2) (log R ~ N(MU, SIGMA^2)),
                                      SIGMA > 0, conditioned on (0, 1]
        gamma:K,THETA                 Gamma with shape K > 0 and scale THETA > 0,
                                      conditioned on (0, 1]
        empirical:FILE                the sizes listed in FILE, each equally likely
                                      (one size per line, in (0, 1]; the format of
                                      :func:`theory.readers.text_files.read_size_file`)
        mixture:W1*SPEC1+W2*SPEC2     mixture of the specs above (not of mixtures)

    ``lognormal`` and ``gamma`` are truncated to (0, 1] and renormalised
    (:func:`from_scipy`). Numbers are read exactly (decimal strings become Fractions);
    ``FILE`` is the rest of the spec, commas and colons included. Anything else (an
    empty field, a missing probability after ``@``, SIGMA <= 0, K <= 0, a missing
    file, an unknown kind) raises ``ValueError`` naming the part of the spec that is
    wrong.

    Parameters
    ----------
    spec : str
        ``KIND:ARGS`` as in the grammar above; sizes as fractions of one server.

    Returns
    -------
    SizeDistribution
        :class:`Uniform` (uniform), :class:`Discrete` (discrete, point, empirical),
        :class:`Continuous` (beta, lognormal, gamma) or :class:`Mixture`.

    Raises
    ------
    ValueError
        ``spec`` is not a str with a colon; an unknown kind; a wrong number of fields,
        an empty field, a field that is not a number; a size outside (0, 1]; a
        probability given for some sizes only; a nested mixture; an invalid parameter
        (SIGMA <= 0, K <= 0, ...); a missing or unreadable FILE (the message names it).
    BudgetExceeded
        ``empirical:FILE`` with a file larger than the reader's memory budget (a
        ``ValueError``).

    References
    ----------
    docs/design.md, sections Layout and Validation (the CLI's ``--dist``); the laws
    of PG21, Sec. VII-A (uniform, discrete) and Sec. VII-B (empirical).

    Examples
    --------
    >>> from theory import from_spec
    >>> from_spec("uniform:0.1,0.9").mean()
    Fraction(1, 2)
    >>> from_spec("discrete:0.4@0.5,0.6@0.5").probs
    [Fraction(1, 2), Fraction(1, 2)]
    >>> from_spec("mixture:0.5*uniform:0,0.5+0.5*point:0.75").mean()
    Fraction(1, 2)
    """
    if not isinstance(spec, str) or ":" not in spec:
        raise ValueError(f"distribution spec {spec!r} must look like 'uniform:0.1,0.9'")
    return _from_spec(spec, nested=False)


_KINDS_TEXT = "uniform, discrete, point, beta, lognormal, gamma, empirical, mixture"


def _from_spec(spec: str, nested: bool) -> SizeDistribution:
    kind, colon, body = spec.partition(":")
    kind = kind.strip().lower()
    if not colon:
        raise ValueError(f"distribution spec {spec!r} must look like 'uniform:0.1,0.9'")
    if kind == "mixture":
        if nested:
            raise ValueError(f"{spec!r}: a mixture component cannot itself be a mixture")
        comps, weights = [], []
        for part in _COMPONENT_SPLIT.split(body):
            w, star, sub = part.partition("*")
            if not star:
                raise ValueError(f"mixture component {part!r} must be 'WEIGHT*SPEC'")
            if not w.strip():
                raise ValueError(f"mixture component {part!r} has no weight before '*'")
            weights.append(w.strip())
            comps.append(_from_spec(sub.strip(), nested=True))
        return Mixture(comps, weights)
    if kind == "empirical":
        return _empirical_file(body.strip(), spec)
    args = [a.strip() for a in body.split(",")] if body.strip() else []
    if any(not a for a in args):
        raise ValueError(f"{spec!r}: empty field between commas")
    if kind == "uniform":
        if len(args) != 2:
            raise ValueError(f"uniform needs two numbers: uniform:A,B (got {spec!r})")
        u = Uniform(args[0], args[1])
        if u.b > 1:
            raise ValueError(f"{spec!r}: uniform needs 0 <= a < b <= 1 (a spec gives sizes as "
                             "fractions of one server, in (0, 1])")
        return u
    if kind == "point":
        if len(args) != 1:
            raise ValueError(f"point needs one size: point:S (got {spec!r})")
        return _unit_sizes(Discrete([args[0]], ["1"]), spec)
    if kind == "discrete":
        if not args:
            raise ValueError(f"discrete needs sizes: discrete:S1@P1,S2@P2 (got {spec!r})")
        sizes, probs = [], []
        for a in args:
            s, at, p = (t.strip() for t in a.partition("@"))
            if not s:
                raise ValueError(f"{spec!r}: no size before '@' in {a!r}")
            if at and not p:
                raise ValueError(f"{spec!r}: no probability after '@' in {a!r}")
            sizes.append(s)
            probs.append(p if at else None)
        if all(p is None for p in probs):
            return _unit_sizes(Discrete(sizes), spec)
        if any(p is None for p in probs):
            raise ValueError("give a probability for every size or for none")
        return _unit_sizes(Discrete(sizes, probs), spec)
    if kind == "beta":
        if len(args) not in (2, 4):
            raise ValueError(f"beta needs beta:A,B or beta:A,B,LO,HI (got {spec!r})")
        names = ["beta parameter A", "beta parameter B", "beta LO", "beta HI"]
        b = beta(*(to_float_checked(a, n) for a, n in zip(args, names, strict=False)))
        if b.support()[1] > 1:
            raise ValueError(f"{spec!r}: beta needs 0 <= LO < HI <= 1 (a spec gives sizes as "
                             "fractions of one server, in (0, 1])")
        return b
    if kind in ("lognormal", "gamma"):
        return _scipy_spec(kind, args, spec)
    raise ValueError(f"unknown distribution kind {kind!r} ({_KINDS_TEXT})")


def _scipy_spec(kind: str, args: list[str], spec: str) -> Continuous:
    """``lognormal:MU,SIGMA`` or ``gamma:K,THETA`` truncated to (0, 1] (:func:`from_scipy`)."""
    from scipy import stats

    names = ("MU", "SIGMA") if kind == "lognormal" else ("K", "THETA")
    if len(args) != 2:
        raise ValueError(f"{kind} needs two numbers: {kind}:{','.join(names)} (got {spec!r})")
    vals = []
    for a, n in zip(args, names, strict=True):
        try:
            vals.append(to_float_checked(a, f"{kind} {n}"))
        except ValueError as err:
            raise ValueError(f"{spec!r}: {err}") from None
    for v, n, a in zip(vals, names, args, strict=True):
        if n != "MU" and not v > 0:
            raise ValueError(f"{spec!r}: {kind} {n} must be positive, got {a}")
    if kind == "lognormal":
        mu, sigma = vals
        scale = math.exp(mu) if mu < 709 else math.inf
        if not 0 < scale < math.inf:
            raise ValueError(f"{spec!r}: lognormal MU = {args[0]} is out of range (exp(MU) "
                             "is not a positive float)")
        frozen = stats.lognorm(sigma, scale=scale)
    else:
        frozen = stats.gamma(vals[0], scale=vals[1])
    try:
        return cast(Continuous, from_scipy(frozen, name=f"{kind}({args[0]},{args[1]})"))
    except BudgetExceeded:
        raise
    except ValueError as err:
        raise ValueError(f"{spec!r}: {err}") from None


def _empirical_file(path: str, spec: str) -> Discrete:
    """``empirical:FILE``: the sizes of FILE (read exactly), each line one job."""
    from theory.readers.text_files import read_size_file

    if not path:
        raise ValueError(f"empirical needs a file: empirical:FILE (got {spec!r})")
    try:
        sizes = read_size_file(path)
    except BudgetExceeded:
        raise
    except ValueError as err:
        raise ValueError(f"{spec!r}: {err}") from None
    if any(isinstance(v, tuple) for v in sizes):
        raise ValueError(f"{spec!r}: {path} gives vector sizes; --dist takes one size per "
                         "line (--trace FILE reads vectors)")
    zeros = sum(1 for v in sizes if v == 0)
    if zeros:
        raise ValueError(f"{spec!r}: {zeros} of the {len(sizes)} sizes in {path} are zero "
                         "(a spec gives sizes as fractions of one server, in (0, 1]; "
                         "--trace FILE drops zero sizes)")
    return _unit_sizes(empirical(sizes), spec)


def _unit_sizes(d: Discrete, spec: str) -> Discrete:
    if d.sizes[-1] > 1:
        raise ValueError(f"{spec!r}: size {d.sizes[-1]} is above 1 (a spec gives sizes as "
                         "fractions of one server, in (0, 1])")
    return d
