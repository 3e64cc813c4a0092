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
from fractions import Fraction
from typing import cast

import numpy as np

from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp
from capacity.result import CapacityResult
from theory.configurations import as_capacity, as_size_matrix, maximal_configurations
from theory.numbers import positive_int, to_numbers

__all__ = ["CapacityRegion"]


class CapacityRegion:
    """The supportable-workload region C of PG18 eq. (2).

    Parameters
    ----------
    sizes : demand vector s_j of every job type (scalars for one resource).
    servers : either a list of capacity vectors (one per server) or a list of
        ``(capacity, count)`` pairs.

    Examples
    --------
    >>> R = CapacityRegion([2, 5], [(10, 10)])      # PG18 Sec. III example
    >>> R.contains([20.8, 10.4])
    True
    """

    def __init__(self, sizes: Sequence[object], servers: Sequence[object]):
        self.sizes = as_size_matrix(sizes)
        D = len(self.sizes[0])
        if len(servers) == 0:
            raise ValueError("a region needs at least one server")
        pairs: list[tuple[tuple, int]] = []
        if all(isinstance(s, tuple) and len(s) == 2 and isinstance(s[1], int | np.integer)
               and not isinstance(s[1], bool) for s in servers):
            # checked just above: every entry is a (capacity, count) pair
            counted = cast("Sequence[tuple[object, int | np.integer]]", servers)
            pairs = [(tuple(as_capacity(c, D)), int(n)) for c, n in counted]
        else:
            cnt = Counter(tuple(as_capacity(s, D)) for s in servers)
            pairs = list(cnt.items())
        merged: Counter = Counter()
        for cap, n in pairs:
            merged[cap] += positive_int(n, name="server count")
        self.classes = [(list(c), n) for c, n in merged.items()]

    @property
    def servers(self) -> int:
        return sum(n for _c, n in self.classes)

    def max_scaling(self, direction: Sequence[object], *, method: str = "auto") -> CapacityResult:
        """Largest t with t * direction in C (the boundary point is t * direction)."""
        d = to_numbers(direction, name="direction")
        if len(d) != len(self.sizes):
            raise ValueError(f"direction has {len(d)} entries for {len(self.sizes)} types")
        lp = ConfigurationLP.build(self.sizes, d, self.classes)
        return solve_configuration_lp(lp, method=method)

    def contains(self, workload: Sequence[object], *, interior: bool = False) -> bool:
        """Is ``workload`` in C (or, with ``interior=True``, in C^o of eq. (3))?

        Decided from the certified interval of the largest scaling t* (``workload`` is in
        C iff t* >= 1, in C^o iff t* > 1). Exact rational inputs are decided exactly
        (the optimum is recovered as a rational); float inputs within a relative
        tolerance of 1e-9 on t*, so boundary points count as in C, not in C^o.
        """
        w = to_numbers(workload, name="workload")
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

    def maximal_configurations(self, server_class: int = 0) -> np.ndarray:
        """Maximal feasible configurations of one server class (PG18 Sec. VII)."""
        return maximal_configurations(self.sizes, self.classes[server_class][0])
