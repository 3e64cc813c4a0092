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
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
from scipy import integrate, optimize, stats

from theory.numbers import Number, to_number, to_numbers

__all__ = [
    "SizeDistribution",
    "Discrete",
    "Uniform",
    "Continuous",
    "Mixture",
    "empirical",
    "beta",
    "from_spec",
    "as_rng",
]

#: Tolerance on ``sum(probs) == 1`` for float probabilities (exact for rationals).
PROB_SUM_ATOL = 1e-9


def as_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """Normalise ``seed`` (int, Generator or None) to a ``numpy.random.Generator``."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


class SizeDistribution(ABC):
    """A distribution of scalar job sizes (vector sizes: :class:`Discrete` only)."""

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
    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        """``n`` i.i.d. sizes as a float array (shape ``(n,)`` or ``(n, dim)``)."""

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

    def _check_scalar(self) -> None:
        if self.dim != 1:
            raise ValueError("this operation needs scalar sizes (dim == 1)")


def _check_unit(u: Number) -> Number:
    u = to_number(u, name="u")
    if not 0 <= u <= 1:
        raise ValueError(f"quantile level must be in [0, 1], got {u}")
    return u


class Discrete(SizeDistribution):
    """Finitely many job types: sizes ``s_j`` (scalar or vector) with probabilities ``P_j``.

    PG21 Sec. III-A / Def. 1 (scalar) and PG18 Sec. II (vector demands ``s_j``).
    Repeated sizes are merged. Rational inputs are kept exact.

    Examples
    --------
    >>> d = Discrete(["0.4", "0.6"], ["1/2", "1/2"])
    >>> d.mean()
    Fraction(1, 2)
    """

    def __init__(self, sizes: Sequence[object], probs: Sequence[object] | None = None):
        if len(sizes) == 0:
            raise ValueError("a discrete distribution needs at least one size")
        vectors = [_vector_entries(s) for s in sizes]
        if any(v is not None for v in vectors) and not all(v is not None for v in vectors):
            raise ValueError("sizes must be all scalars or all vectors")
        if all(v is not None for v in vectors):
            rows = [to_numbers(v, name="size") for v in vectors if v is not None]
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
            flat = to_numbers(sizes, name="size")
            for v in flat:
                if not v > 0:
                    raise ValueError(f"sizes must be positive, got {v}")
            keys = [(v,) for v in flat]
        if probs is None:
            probs = [Fraction(1, len(keys))] * len(keys)
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
        cs = [_count(c) for c in counts]
        n = sum(cs)
        if n == 0:
            raise ValueError("counts sum to zero")
        return cls(sizes, [Fraction(c, n) for c in cs])

    def scaled(self, factor: object) -> Discrete:
        """The same law with every size multiplied by ``factor`` (exact for rationals).

        ``d.scaled(Fraction(1, C))`` turns sizes in capacity units into fractions of a
        unit server (PG21 Sec. II normalises capacities to one).
        """
        f = to_number(factor, name="factor")
        if not f > 0:
            raise ValueError(f"the scale factor must be positive, got {factor!r}")
        if self.dim == 1:
            return Discrete([k[0] * f for k in self._keys], self._probs)
        return Discrete([tuple(v * f for v in k) for k in self._keys], self._probs)

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

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
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


def _count(c: object) -> int:
    """One multiplicity for :meth:`Discrete.from_counts`: a non-negative integer.

    Integer-valued floats (``2.0``), strings (``"6"``) and Fractions are accepted; anything
    with a fractional part (``2.5``, ``"2.5"``, ``Fraction(5, 2)``), NaN/inf and bools are
    rejected rather than truncated.
    """
    if isinstance(c, bool | np.bool_):
        raise ValueError(f"counts must be integers, got the bool {c!r}")
    if isinstance(c, float | np.floating) and not float(c).is_integer():
        raise ValueError(f"counts must be integers, got {c!r}")
    v = to_number(c, name="count")  # floats reaching here are integer-valued
    if isinstance(v, Fraction) and v.denominator != 1:
        raise ValueError(f"counts must be integers, got {c!r}")
    ci = int(v)
    if ci < 0:
        raise ValueError(f"counts must be non-negative, got {c!r}")
    return ci


def empirical(samples: Sequence[object] | np.ndarray) -> Discrete:
    """Empirical distribution of observed sizes (e.g. a trace column).

    Scalar samples give a scalar distribution; an ``(n, d)`` array gives vector sizes.
    Probabilities are exact multiplicities ``count / n``.
    """
    arr = np.asarray(samples)
    if arr.size == 0:
        raise ValueError("empirical distribution of no samples")
    if arr.dtype == object:
        arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError("samples contain NaN or infinite values")
    if arr.ndim == 1:
        vals, counts = np.unique(arr, return_counts=True)
        return Discrete.from_counts([float(v) for v in vals], counts.tolist())
    if arr.ndim == 2:
        vals, counts = np.unique(arr, axis=0, return_counts=True)
        return Discrete.from_counts([tuple(float(x) for x in r) for r in vals], counts.tolist())
    raise ValueError("samples must be a 1-D or 2-D array")


class Uniform(SizeDistribution):
    """Uniform sizes on [a, b], 0 <= a < b (PG21 Sec. VII-A uses [0.01, 0.19], [0.1, 0.9])."""

    def __init__(self, a: object, b: object):
        lo, hi = to_numbers([a, b], name="uniform bound")
        if not 0 <= lo < hi:
            raise ValueError(f"uniform needs 0 <= a < b, got a={a}, b={b}")
        self.a, self.b = lo, hi

    def __repr__(self) -> str:
        return f"Uniform({self.a}, {self.b})"

    @property
    def exact(self) -> bool:
        return isinstance(self.a, Fraction)

    def _x(self, x: Number) -> Number:
        x = to_number(x, name="x")
        return x if self.exact else float(x)

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

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        return as_rng(seed).uniform(float(self.a), float(self.b), size=n)


class Continuous(SizeDistribution):
    """A general continuous size distribution given by its cdf (PG21 Thm. 1).

    Parameters
    ----------
    cdf : callable, float -> float, continuous and non-decreasing on ``support``.
    support : (lo, hi) with F(lo) = 0 and F(hi) = 1.
    quantile : optional inverse cdf; computed by bisection if omitted.
    name : label used in reports.
    """

    def __init__(
        self,
        cdf: Callable[[float], float],
        support: tuple[float, float],
        quantile: Callable[[float], float] | None = None,
        name: str = "continuous",
    ):
        lo, hi = (float(v) for v in support)
        if not (math.isfinite(lo) and math.isfinite(hi) and 0 <= lo < hi):
            raise ValueError(f"support must satisfy 0 <= lo < hi, got {support}")
        if abs(cdf(lo)) > 1e-12 or abs(cdf(hi) - 1) > 1e-12:
            raise ValueError("cdf must be 0 at the lower end of the support and 1 at the upper")
        self._cdf, self._q, self._lo, self._hi, self.name = cdf, quantile, lo, hi, name

    def __repr__(self) -> str:
        return f"Continuous({self.name})"

    def mean(self) -> float:
        # E[R] = lo + int_lo^hi (1 - F(x)) dx
        val, _err = integrate.quad(lambda x: 1.0 - self._cdf(x), self._lo, self._hi, limit=200)
        return self._lo + val

    def cdf(self, x: Number) -> float:
        x = float(x)
        if x <= self._lo:
            return 0.0
        if x >= self._hi:
            return 1.0
        return float(min(1.0, max(0.0, self._cdf(x))))

    cdf_left = cdf

    def quantile(self, u: Number) -> float:
        u = float(_check_unit(u))
        if self._q is not None:
            return float(min(self._hi, max(self._lo, self._q(u))))
        if u <= 0:
            return self._lo
        if u >= 1:
            return self._hi
        return float(optimize.brentq(lambda x: self.cdf(x) - u, self._lo, self._hi, xtol=1e-15))

    def support(self) -> tuple[float, float]:
        return self._lo, self._hi

    def atoms(self) -> list[tuple[Number, Number]]:
        return []

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        u = as_rng(seed).random(n)
        return np.array([self.quantile(float(v)) for v in u])


def beta(a: float, b: float, lo: float = 0.0, hi: float = 1.0) -> Continuous:
    """Beta(a, b) sizes scaled to [lo, hi] (a smooth continuous test case)."""
    if a <= 0 or b <= 0:
        raise ValueError("beta parameters must be positive")
    frozen = stats.beta(a, b, loc=lo, scale=hi - lo)
    return Continuous(
        lambda x: float(frozen.cdf(x)), (lo, hi), lambda u: float(frozen.ppf(u)),
        name=f"beta({a},{b})",
    )


class Mixture(SizeDistribution):
    """A mixture ``sum_i w_i F_i``; with a :class:`Discrete` part the cdf has jumps (atoms).

    PG21 Thm. 1 covers "any general (continuous or discontinuous)" F_R; mixtures of a
    continuous part and atoms are the natural test of the discontinuous case.
    """

    def __init__(self, components: Sequence[SizeDistribution], weights: Sequence[object]):
        if len(components) == 0 or len(components) != len(weights):
            raise ValueError("a mixture needs as many weights as components (at least one)")
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
        return self._mix([c.mean() for c in self.components])  # type: ignore[misc]

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

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        rng = as_rng(seed)
        w = np.array([float(v) for v in self.weights])
        which = rng.choice(len(w), size=n, p=w / w.sum())
        out = np.empty(n)
        for i, c in enumerate(self.components):
            m = which == i
            if m.any():
                out[m] = c.sample(int(m.sum()), rng)
        return out


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


def from_spec(spec: str) -> SizeDistribution:
    """Build a distribution from a short text spec (the CLI's ``--dist``).

    Grammar::

        uniform:A,B                   Uniform[A, B]
        discrete:S1@P1,S2@P2,...      finite types (``@P`` omitted: equally likely)
        point:S                       all jobs of size S
        beta:A,B[,LO,HI]              Beta(A, B) on [LO, HI] (default [0, 1])
        mixture:W1*SPEC1+W2*SPEC2     mixture of the specs above

    Numbers are read exactly (decimal strings become Fractions).

    >>> from_spec("uniform:0.1,0.9").mean()
    Fraction(1, 2)
    """
    if not isinstance(spec, str) or ":" not in spec:
        raise ValueError(f"distribution spec {spec!r} must look like 'uniform:0.1,0.9'")
    kind, _, body = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "mixture":
        comps, weights = [], []
        for part in body.split("+"):
            w, star, sub = part.partition("*")
            if not star:
                raise ValueError(f"mixture component {part!r} must be 'WEIGHT*SPEC'")
            weights.append(w.strip())
            comps.append(from_spec(sub.strip()))
        return Mixture(comps, weights)
    args = [a.strip() for a in body.split(",") if a.strip()]
    if kind == "uniform":
        if len(args) != 2:
            raise ValueError("uniform needs two numbers: uniform:A,B")
        return Uniform(args[0], args[1])
    if kind == "point":
        if len(args) != 1:
            raise ValueError("point needs one size: point:S")
        return Discrete([args[0]], ["1"])
    if kind == "discrete":
        if not args:
            raise ValueError("discrete needs sizes: discrete:S1@P1,S2@P2")
        sizes, probs = [], []
        for a in args:
            s, at, p = a.partition("@")
            sizes.append(s)
            probs.append(p if at else None)
        if all(p is None for p in probs):
            return Discrete(sizes)
        if any(p is None for p in probs):
            raise ValueError("give a probability for every size or for none")
        return Discrete(sizes, probs)
    if kind == "beta":
        if len(args) not in (2, 4):
            raise ValueError("beta needs beta:A,B or beta:A,B,LO,HI")
        vals = [float(a) for a in args]
        return beta(*vals)
    raise ValueError(f"unknown distribution kind {kind!r} (uniform, discrete, point, beta, "
                     "mixture)")
