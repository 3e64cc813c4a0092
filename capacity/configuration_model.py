"""The configuration LP as a model: its data and what it maximises, no solver.

PG21 eq. (4) (identical servers: rho* = max rho s.t. rho P in L Conv(K)) and PG18
eqs. (2)-(3) (heterogeneous servers): the largest ``t`` with

    t d <= sum_c n_c sum_k p_ck k,   sum_k p_ck <= 1,   p >= 0,

over the feasible configurations k of each server class c (sizes ``rows``, capacities
``caps``, server counts ``counts``, a demand direction ``d``, optional copy bounds).
:mod:`capacity.configuration_solver` solves it, :mod:`capacity.certificate` checks an
answer against this data alone, and :mod:`capacity.configuration_lp` does both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from theory.bounds import lemma2_by_resource
from theory.configurations import as_capacity, as_size_matrix
from theory.numbers import (
    Number,
    fits,
    positive_int,
    server_count,
    to_float_checked,
    to_numbers,
)

__all__ = ["ConfigurationLP", "MAX_JOBS_PER_SERVER", "lemma2_bound"]

#: Largest integer capacity (after scaling rationals to integers) priced in exact
#: integer arithmetic; beyond it pricing uses floats with the feasibility tolerance.
_EXACT_FLOAT_LIMIT = 2**50
_INT64_LIMIT = 2**62
#: Most jobs of one type a server may hold: configuration counts, knapsacks and the
#: float LP stay accurate up to here (a size of 1e-15 breaks them).
MAX_JOBS_PER_SERVER = 2**36


@dataclass
class ConfigurationLP:
    """A configuration-LP instance: types, server classes and a demand direction.

    The LP is ``max t`` s.t. ``t d <= sum_c n_c sum_k p_ck k``, ``sum_k p_ck <= 1``,
    ``p >= 0`` over the feasible configurations k of each class c. Build it with
    :meth:`build` (which validates and converts: ``sizes``, one row per job type with
    one entry per resource; ``classes``, one ``(capacity vector, server count)`` per
    class of identical servers; ``demand``; ``max_copies``) or :meth:`of_instance`
    (a bin-packing instance, whose types are bounded by their multiplicity: the
    Gilmore-Gomory LP bound). The constructor takes the converted fields as they are.

    Parameters
    ----------
    rows : list of list
        Sizes, one row per job type, one entry per resource: all Fractions (exact
        data) or all floats.
    caps : list of list
        Capacities, one row per server class, one entry per resource, in the units of
        ``rows``.
    counts : list of int
        Number of identical servers n_c in each class.
    demand : list
        The non-negative direction ``d``, one entry per type (the probabilities P for
        ``rho*``, a workload vector for a capacity region).
    max_copies : list of int or None, default None
        Most jobs of each type one configuration may hold (None: as many as fit).

    Raises
    ------
    ValueError
        From :meth:`build`: no server class, a demand of the wrong length, negative
        or all zero, a type with positive demand that fits no server, more than 2^36
        jobs of one type per server, or malformed ``max_copies``.

    References
    ----------
    PG21, Sec. III-A, eq. (4) (identical servers); PG18, Sec. II, eqs. (2)-(3)
    (heterogeneous server classes).

    Examples
    --------
    >>> from capacity import ConfigurationLP
    >>> lp = ConfigurationLP.build(["0.4", "0.6"], ["1/2", "1/2"], [(1, 1)])
    >>> lp.rows, lp.caps, lp.counts
    ([[Fraction(2, 5)], [Fraction(3, 5)]], [[Fraction(1, 1)]], [1])
    >>> lp.T, lp.D, lp.exact
    (2, 1, True)
    >>> ConfigurationLP.of_instance(["0.5", "0.5", "0.3"], 1).max_copies
    [2, 1]
    >>> ConfigurationLP.build(["1.5"], ["1"], [(1, 1)])
    Traceback (most recent call last):
    ...
    ValueError: job type 0 of size 1.5 exceeds the capacity of every server (1)
    """

    rows: list[list[Number]]
    caps: list[list[Number]]
    counts: list[int]
    demand: list[Number]
    max_copies: list[int] | None = None

    @classmethod
    def build(
        cls,
        sizes: Sequence[object],
        demand: Sequence[object],
        classes: Sequence[tuple[object, int]],
        max_copies: Sequence[object] | None = None,
    ) -> ConfigurationLP:
        rows = as_size_matrix(sizes)
        D = len(rows[0])
        if not classes:
            raise ValueError("no servers given")
        caps, counts = [], []
        for cap, n in classes:
            caps.append(as_capacity(cap, D))
            counts.append(server_count(n, name="server count"))
        dem = to_numbers(demand, name="demand")
        if len(dem) != len(rows):
            raise ValueError(f"{len(rows)} types but {len(dem)} demand entries")
        if any(v < 0 for v in dem):
            raise ValueError("demand (probabilities / workloads) must be non-negative")
        if not any(v > 0 for v in dem):
            raise ValueError("demand is zero for every type")
        _check_jobs_per_server(rows, caps)
        exact = all(isinstance(v, Fraction) for r in rows for v in r) and all(
            isinstance(v, Fraction) for c in caps for v in c)
        if not exact:
            rows = [[to_float_checked(v, "size") for v in r] for r in rows]
            caps = [[to_float_checked(v, "capacity") for v in c] for c in caps]
        for j, r in enumerate(rows):
            if dem[j] > 0 and not any(all(fits(r[d], c[d]) for d in range(D)) for c in caps):
                raise ValueError(
                    f"job type {j} of size {_fmt(r)} exceeds the capacity of every server "
                    f"({', '.join(_fmt(c) for c in caps)})")
        most = None
        if max_copies is not None:
            if isinstance(max_copies, str | bytes) or not hasattr(max_copies, "__len__"):
                raise ValueError(f"max_copies must be a sequence of positive integers, got "
                                 f"{type(max_copies).__name__}")
            # a bound above what any server holds changes nothing: clip (int64-safe)
            most = [min(positive_int(m, name="max_copies entry"), _INT64_LIMIT)
                    for m in max_copies]
            if len(most) != len(rows):
                raise ValueError(f"{len(rows)} types but {len(most)} max_copies entries")
        return cls(rows, caps, counts, dem, most)

    @classmethod
    def of_instance(cls, weights: Sequence[object], capacity: object, *,
                    copies_bounded: bool = True) -> ConfigurationLP:
        """The LP of a bin-packing instance: its weights' empirical distribution (types in
        order of first appearance) on one server of ``capacity``, each weight at most as
        often per pattern as the instance has it if ``copies_bounded``."""
        counts: dict[object, int] = {}
        for w in weights:
            counts[w] = counts.get(w, 0) + 1
        if not counts:
            raise ValueError("a bin-packing instance needs at least one item")
        n = len(weights)
        sizes = list(counts)
        return cls.build(sizes, [Fraction(counts[s], n) for s in sizes], [(capacity, 1)],
                         max_copies=[counts[s] for s in sizes] if copies_bounded else None)

    # -- numeric views ------------------------------------------------------
    @property
    def T(self) -> int:
        return len(self.rows)

    @property
    def D(self) -> int:
        return len(self.rows[0])

    @property
    def exact(self) -> bool:
        return all(isinstance(v, Fraction) for r in self.rows for v in r) and all(
            isinstance(v, Fraction) for c in self.caps for v in c)

    def integer_scaling(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Sizes and capacities as integers (per-resource common denominator), if exact."""
        if not self.exact:
            return None
        scale = []
        for d in range(self.D):
            den = 1
            for v in [r[d] for r in self.rows] + [c[d] for c in self.caps]:
                den = math.lcm(den, v.denominator)  # type: ignore[union-attr]
            scale.append(den)
        Wi = [[int(r[d] * scale[d]) for d in range(self.D)] for r in self.rows]
        Ci = [[int(c[d] * scale[d]) for d in range(self.D)] for c in self.caps]
        if max(max(c) for c in Ci) >= _INT64_LIMIT:
            return None
        return np.array(Wi, dtype=np.int64), np.array(Ci, dtype=np.int64)

    def pricing_data(self) -> tuple[np.ndarray, np.ndarray, bool]:
        """(sizes, capacities, integral) used by the float pricing oracle."""
        sc = self.integer_scaling()
        if sc is not None and sc[1].max() < _EXACT_FLOAT_LIMIT:
            return sc[0].astype(float), sc[1].astype(float), True
        W = np.array([[float(v) for v in r] for r in self.rows])
        C = np.array([[float(v) for v in c] for c in self.caps])
        return W, C, False

    def max_items(self) -> int:
        """Most jobs of one type a feasible configuration can hold (bounds enumeration's
        depth)."""
        best = 0
        for cap in self.caps:
            for j, r in enumerate(self.rows):
                q = min((int(cap[d] // r[d]) for d in range(self.D) if r[d] > 0), default=0)
                best = max(best, q if self.max_copies is None else min(q, self.max_copies[j]))
        return best

    def copy_bounds(self) -> np.ndarray | None:
        """``max_copies`` as int64 (None when unbounded)."""
        return None if self.max_copies is None else np.array(self.max_copies, dtype=np.int64)

    def within_copies(self, k: np.ndarray) -> bool:
        return self.max_copies is None or bool(np.all(k <= self.copy_bounds()))

    def exact_fits(self, c: int, k: np.ndarray) -> bool:
        """Configuration k fits a class-c server: exactly for rational data, within
        the feasibility tolerance for floats."""
        nz = np.flatnonzero(k)
        return all(fits(sum((int(k[j]) * self.rows[j][d] for j in nz), Fraction(0)),
                        self.caps[c][d]) for d in range(self.D))

    def fits_class(self) -> np.ndarray:
        """(C, T) bool: type j fits alone in a server of class c."""
        return np.array([[all(fits(r[d], c[d]) for d in range(self.D)) for r in self.rows]
                         for c in self.caps])


def _check_jobs_per_server(rows: list[list[Number]], caps: list[list[Number]]) -> None:
    """Refuse types of which one server would hold more than MAX_JOBS_PER_SERVER jobs."""
    for cap in caps:
        for r in rows:
            q = min((Fraction(cap[d]) / Fraction(r[d]) for d in range(len(r)) if r[d] > 0),
                    default=Fraction(0))
            if q > MAX_JOBS_PER_SERVER:
                raise ValueError(
                    f"a server of capacity {_fmt(cap)} would hold about {_big(q)} jobs "
                    f"of size {_fmt(r)}; the configuration LPs handle at most 2^36 "
                    f"(about {MAX_JOBS_PER_SERVER:.3g}) jobs of one type per server "
                    "(measure sizes and capacity in a larger unit)")


def _big(q: Fraction) -> str:
    n = int(q)
    return f"{float(q):.3g}" if n < 10**300 else f"10^{len(str(n)) - 1}"


def _num(x: Number) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        f = float(x)
        return repr(f) if Fraction(f) == x else f"{f:.6g}"
    if isinstance(x, Fraction) and abs(x.numerator) >= 10**15:
        return _big(x) if abs(x) >= 10**300 else f"{float(x):.6g}"
    return str(x)


def _fmt(v: Sequence[Number]) -> str:
    s = ", ".join(_num(x) for x in v)
    return s if len(v) == 1 else f"({s})"


def lemma2_bound(lp: ConfigurationLP) -> tuple[Number, int] | None:
    """PG21 Lemma 2 for this LP (:func:`theory.bounds.lemma2_by_resource`): t <= sum_c
    n_c C_cr / sum_j d_j s_jr in every resource r (a configuration's sizes sum to at
    most its capacity); the smallest such bound (a Fraction for exact inputs) and its
    resource, None when no resource has demand."""
    room = [sum((lp.counts[c] * lp.caps[c][r] for c in range(len(lp.caps))), Fraction(0))
            for r in range(lp.D)]
    load = [sum((lp.demand[j] * lp.rows[j][r] for j in range(lp.T)), Fraction(0))
            for r in range(lp.D)]
    return lemma2_by_resource(room, load)
