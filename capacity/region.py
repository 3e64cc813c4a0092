"""Capacity regions of heterogeneous multi-resource servers (PG18 eqs. (2)-(3)).

.. math::
    C = \\{x : x = \\sum_\\ell x^\\ell,\\ x^\\ell \\in \\mathrm{Conv}(K_\\ell)\\},\\qquad
    C^o = \\{\\rho : \\exists x \\in C,\\ \\rho < x\\}.

Servers with the same capacity vector form one class. Membership of a workload
vector, the largest scaling of a direction and the boundary of a two-type region are
all the configuration LP of :mod:`capacity.configuration_lp`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp
from capacity.result import CapacityResult
from theory.budgets import MAX_CONFIGURATIONS, MAX_LP_TYPES
from theory.configurations import as_capacity, as_size_matrix, maximal_configurations
from theory.numbers import as_list, server_count, short_repr, to_float_checked, to_numbers, written

__all__ = ["CapacityRegion", "ServerClass"]


_SPELLINGS = ("ServerClass(capacity=(10, 10), count=1) for one two-resource server, or "
              "ServerClass(capacity=10, count=10) for ten servers of capacity 10 in "
              "every resource")


def _is_seq(x: object) -> bool:
    return isinstance(x, list | tuple) or (isinstance(x, np.ndarray) and x.ndim > 0)



@dataclass(frozen=True)
class ServerClass:
    """``count`` identical servers of capacity ``capacity`` (a scalar for one resource,
    or one entry per resource), one class of PG18 eq. (2).

    Frozen; a capacity given as a list is stored as a tuple. Servers of one class share
    the set of feasible configurations K_l of PG18 eq. (2).

    Parameters
    ----------
    capacity : number or sequence of numbers
        The capacity of each server: one positive number (one resource), or a flat
        list with one positive number per resource, in the units of the job sizes.
        Fractions, ints and decimal or ratio strings are exact.
    count : int, default 1
        How many such servers, a positive integer.

    Raises
    ------
    ValueError
        If ``capacity`` is empty, nested, not a number or not positive, or ``count``
        is not a positive integer.

    References
    ----------
    PG18, Sec. II, eq. (2) (the sets K_l of the servers).

    Examples
    --------
    >>> from capacity import ServerClass
    >>> ServerClass((10, 10)).count
    1
    >>> ServerClass(capacity=[10, 10], count=3)
    ServerClass(capacity=(10, 10), count=3)
    >>> ServerClass(capacity=0)
    Traceback (most recent call last):
    ...
    ValueError: ServerClass capacity must be positive, got 0
    """

    capacity: object
    count: int = 1

    def __post_init__(self) -> None:
        cap = self.capacity
        if _is_seq(cap):
            vals = list(cap)  # type: ignore[call-overload]
            if not vals or any(_is_seq(v) for v in vals):
                raise ValueError("ServerClass capacity must be a number or a flat list of "
                                 f"numbers (one per resource), got {short_repr(cap)}")
            object.__setattr__(self, "capacity", tuple(vals))
        else:
            vals = [cap]
        for v, n in zip(vals, to_numbers(vals, name="ServerClass capacity"), strict=True):
            if not n > 0:
                raise ValueError(f"ServerClass capacity must be positive, got {written(v)}")
        object.__setattr__(self, "count", server_count(self.count, name="ServerClass count"))


def _server_class(s: object, D: int) -> ServerClass:
    """One entry of ``servers``: a ServerClass, a bare capacity, or an unambiguous pair."""
    if isinstance(s, ServerClass):
        return s
    if not _is_seq(s):
        return ServerClass(s)
    items = list(s)  # type: ignore[call-overload]
    flat = not any(_is_seq(v) for v in items)
    if flat and len(items) == D and D != 2:
        return ServerClass(tuple(items))
    if len(items) == 2 and (_is_seq(items[0]) or D != 2) and not _is_seq(items[1]):
        cap, n = items
        if isinstance(n, bool | np.bool_) or not isinstance(n, int | np.integer):
            raise ValueError(f"server entry {short_repr(s)}: read as a (capacity, count) pair, "
                             f"but the count {written(n)} is not a positive integer; write "
                             f"ServerClass(capacity=..., count=...)")
        return ServerClass(cap, int(n))
    if flat and len(items) == 2 and D == 2:
        raise ValueError(f"server entry {short_repr(s)} is ambiguous for two resources: write "
                         + _SPELLINGS)
    raise ValueError(f"server entry {short_repr(s)} is neither a capacity with {D} "
                     f"resource{'s' if D > 1 else ''} nor a (capacity, count) pair; write "
                     f"ServerClass(capacity=..., count=...)")


class CapacityRegion:
    """The supportable-workload region C of PG18 eq. (2).

    Servers with the same capacity vector are merged into one class (``classes``, a
    list of ``(capacity vector, count)``). Membership, the largest scaling of a
    direction and the boundary are the configuration LP of
    :func:`capacity.solve_configuration_lp`, each answer certified.

    Parameters
    ----------
    sizes : sequence
        The demand vector s_j of every job type: numbers for one resource, or one
        sequence per type with one entry per resource, in the units of the capacities.
    servers : sequence
        A list of :class:`ServerClass` entries, of bare capacities (one server
        each: a scalar, or one entry per resource), or of unambiguous
        ``(capacity, count)`` pairs: ``(10, 10)`` for one resource is 10 servers of
        capacity 10, ``((10, 10), 3)`` for two resources is three servers (10, 10).
        A flat pair of two numbers for two resources is refused as ambiguous.

    Raises
    ------
    ValueError
        If ``sizes`` is empty or malformed, ``servers`` is empty, or an entry of
        ``servers`` is neither a capacity nor a ``(capacity, count)`` pair, is an
        ambiguous flat pair for two resources, or has a count that is not a positive
        integer.

    References
    ----------
    PG18, Sec. II, eqs. (2)-(3); the example is the 10-server system of PG18, Sec. III
    (Fig. 1b), whose workload (20.8, 10.4) lies in the interior of C.

    Examples
    --------
    >>> from capacity import CapacityRegion, ServerClass
    >>> R = CapacityRegion([2, 5], [ServerClass(capacity=10, count=10)])  # PG18 Sec. III
    >>> R.contains([20.8, 10.4])
    True
    >>> CapacityRegion([(2, 3), (5, 1)], [ServerClass((10, 10))]).servers
    1
    """

    def __init__(self, sizes: Sequence[object], servers: Sequence[object]):
        self.sizes = as_size_matrix(as_list(sizes, name="sizes", example="[2, 5]"))
        D = len(self.sizes[0])
        entries = as_list(servers, name="servers", example="[ServerClass(capacity=10, count=10)]",
                          of="server classes")
        if len(entries) == 0:
            raise ValueError("a region needs at least one server")
        merged: Counter = Counter()
        for s in entries:
            sc = _server_class(s, D)
            merged[tuple(as_capacity(sc.capacity, D))] += sc.count
        self.classes = [(list(c), n) for c, n in merged.items()]

    @property
    def servers(self) -> int:
        return sum(n for _c, n in self.classes)

    def max_scaling(self, direction: Sequence[object], *, method: str = "auto",
                    max_types: int = MAX_LP_TYPES,
                    max_configurations: int = MAX_CONFIGURATIONS) -> CapacityResult:
        """Largest t with t * direction in C (the boundary point is t * direction);
        the budgets are those of :func:`capacity.solve_configuration_lp`."""
        d = to_numbers(direction, name="direction")
        for i, v in enumerate(d):
            to_float_checked(v, f"direction[{i}]")
        if len(d) != len(self.sizes):
            raise ValueError(f"direction has {len(d)} entries for {len(self.sizes)} types")
        lp = ConfigurationLP.build(self.sizes, d, self.classes)
        return solve_configuration_lp(lp, method=method, max_types=max_types,
                                      max_configurations=max_configurations)

    def contains(self, workload: Sequence[object], *, interior: bool = False) -> bool:
        """Is ``workload`` in C (or, with ``interior=True``, in C^o of eq. (3))?

        Decided from the certified interval of the largest scaling t* (``workload`` is in
        C iff t* >= 1, in C^o iff t* > 1). Exact rational inputs are decided exactly
        (the optimum is recovered as a rational); float inputs within a relative
        tolerance of 1e-9 on t*, so boundary points count as in C, not in C^o.
        """
        w = to_numbers(workload, name="workload")
        for i, v in enumerate(w):
            to_float_checked(v, f"workload[{i}]")
        if any(v < 0 for v in w):
            raise ValueError("workloads must be non-negative")
        if not any(v > 0 for v in w):
            return True
        res = self.max_scaling(w)
        lo, hi = res.lower, res.upper
        exact = isinstance(lo, Fraction) and isinstance(hi, Fraction)
        if exact and lo == hi:
            return lo > 1 if interior else lo >= 1
        if not res.certified:
            raise RuntimeError(f"membership undecided: {res.message}")
        tol = 1e-9
        if interior:
            return float(lo) > 1 + tol
        return float(hi) >= 1 - tol

    def boundary_point(self, direction: Sequence[object]) -> list[float]:
        """The point of the boundary of C in the given direction."""
        res = self.max_scaling(direction)
        return [res.value * float(v) for v in to_numbers(direction)]

    def boundary_2d(self, points: int = 33) -> np.ndarray:
        """Boundary of a two-type region, ``points`` directions from axis 1 to axis 2."""
        if len(self.sizes) != 2:
            raise ValueError("boundary_2d needs exactly two job types")
        if points < 2:
            raise ValueError("need at least two points")
        out = []
        for th in np.linspace(0.0, np.pi / 2, points):
            d = [float(np.cos(th)), float(np.sin(th))]
            d = [0.0 if abs(v) < 1e-15 else v for v in d]
            out.append(self.boundary_point(d))
        return np.array(out)

    def maximal_configurations(self, server_class: int = 0, *,
                               max_configurations: int = MAX_CONFIGURATIONS) -> np.ndarray:
        """Maximal feasible configurations of one server class (PG18 Sec. VII)."""
        if isinstance(server_class, bool) or not isinstance(server_class, int) or not (
                0 <= server_class < len(self.classes)):
            raise ValueError(f"server_class must be an index 0..{len(self.classes) - 1}, "
                             f"got {short_repr(server_class)}")
        return maximal_configurations(self.sizes, self.classes[server_class][0],
                                      max_configurations=max_configurations)
