"""The cluster: servers and their capacities (PG21 Sec. II, PG18 Sec. II, XLL21 Sec. III).

Capacities are vectors, one entry per resource; the single-resource papers are the
length-1 case. Servers may be heterogeneous (PG18 Sec. II, XLL21; PG21 Sec. IX
notes BF-J/S needs no change for heterogeneous servers).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from policies.footprint import check_run_memory
from theory.budgets import MEMORY_BUDGET

__all__ = ["Cluster", "number_array"]


def number_array(x: object, name: str, what: str) -> np.ndarray:
    """``x`` as a new float64 array, every entry a real number: no bool, text, None or
    nested list of another length (the capacities here, the demands and rates of
    :mod:`policies.job_types`). ``what`` says what is allowed, for the message."""
    if isinstance(x, np.ndarray) and x.dtype.kind in "iuf":
        return np.array(x, dtype=np.float64)
    if isinstance(x, str | bytes):
        raise ValueError(f"{name} must be {what}, got the text {x!r}")
    try:
        obj = np.asarray(x, dtype=object)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {what}") from None
    for v in obj.flat:
        if isinstance(v, list | tuple | np.ndarray):
            raise ValueError(f"{name} must be {what}, with rows of equal length")
        if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real):
            shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
            raise ValueError(f"{name} must be {what}, got the entry {shown}")
    try:
        return obj.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be {what}; an entry is beyond the float range") \
            from None


@dataclass(frozen=True, eq=False)
class Cluster:
    """``L`` servers; ``capacity[l, d]`` is server l's capacity in resource d."""

    capacity: np.ndarray

    def __post_init__(self) -> None:
        c = number_array(self.capacity, "capacity",
                         "a (servers, resources) table of positive numbers")
        if c.ndim == 1:
            c = c[:, None]
        if c.ndim != 2 or c.shape[0] == 0 or c.shape[1] == 0:
            raise ValueError(
                f"capacity must be a non-empty (servers, resources) table, got shape {c.shape}")
        if not np.all(np.isfinite(c)) or np.any(c <= 0):
            bad = float(c[~(np.isfinite(c) & (c > 0))][0])
            raise ValueError(f"capacity must be positive and finite, got {bad!r}")
        c.setflags(write=False)
        object.__setattr__(self, "capacity", c)

    @classmethod
    def identical(cls, servers: int, capacity: float | Sequence[float] = 1.0, *,
                  memory_budget: float = MEMORY_BUDGET) -> Cluster:
        """``servers`` servers of the same capacity (scalar or one value per resource)."""
        if isinstance(servers, bool) or not isinstance(servers, int | np.integer) or servers < 1:
            raise ValueError(f"the number of servers must be a positive integer, got {servers!r}")
        if capacity is None:
            raise ValueError("capacity must be a positive number or one per resource, got "
                             "None")
        cap = np.atleast_1d(number_array(capacity, "capacity",
                                         "a positive number or one per resource"))
        if cap.ndim != 1 or cap.size == 0:
            raise ValueError(f"capacity must be a number or a flat list, got shape {cap.shape}")
        check_run_memory(0, 0, int(servers), memory_budget=memory_budget,
                         what=f"a cluster of {int(servers):,} servers")
        return cls(np.tile(cap, (int(servers), 1)))

    @property
    def servers(self) -> int:
        return int(self.capacity.shape[0])

    @property
    def resources(self) -> int:
        return int(self.capacity.shape[1])

    @property
    def homogeneous(self) -> bool:
        return bool(np.all(self.capacity == self.capacity[0]))

    def scalar_capacities(self) -> np.ndarray:
        """Capacities of a single-resource cluster as a 1-D array (errors otherwise)."""
        if self.resources != 1:
            raise ValueError(
                f"this model is single-resource (PG21 Sec. II) but the cluster has "
                f"{self.resources} resources"
            )
        return self.capacity[:, 0]

    def __repr__(self) -> str:
        if self.homogeneous:
            return f"Cluster.identical({self.servers}, {self.capacity[0].tolist()})"
        return f"Cluster({self.capacity.tolist()})"
