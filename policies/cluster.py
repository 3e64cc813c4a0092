"""The cluster: servers and their capacities (PG21 Sec. II, PG18 Sec. II, XLL21 Sec. III).

Capacities are vectors, one entry per resource; the single-resource papers are the
length-1 case. Servers may be heterogeneous (PG18 Sec. II, XLL21; PG21 Sec. IX
notes BF-J/S needs no change for heterogeneous servers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from policies.footprint import check_run_memory
from theory.budgets import MEMORY_BUDGET

__all__ = ["Cluster"]


@dataclass(frozen=True, eq=False)
class Cluster:
    """``L`` servers; ``capacity[l, d]`` is server l's capacity in resource d."""

    capacity: np.ndarray

    def __post_init__(self) -> None:
        c = np.array(self.capacity, dtype=np.float64)
        if c.ndim == 1:
            c = c[:, None]
        if c.ndim != 2 or c.shape[0] == 0 or c.shape[1] == 0:
            raise ValueError(
                f"capacities must be a non-empty (servers, resources) array, got {c.shape}")
        if not np.all(np.isfinite(c)) or np.any(c <= 0):
            raise ValueError("server capacities must be positive and finite")
        c.setflags(write=False)
        object.__setattr__(self, "capacity", c)

    @classmethod
    def identical(cls, servers: int, capacity: float | Sequence[float] = 1.0, *,
                  memory_budget: float = MEMORY_BUDGET) -> Cluster:
        """``servers`` servers of the same capacity (scalar or one value per resource)."""
        if isinstance(servers, bool) or not isinstance(servers, int | np.integer) or servers < 1:
            raise ValueError(f"the number of servers must be a positive integer, got {servers!r}")
        if isinstance(capacity, bool | str | bytes) or capacity is None:
            raise ValueError(f"capacity must be a positive number or one per resource, got "
                             f"{capacity!r}")
        try:
            cap = np.atleast_1d(np.asarray(capacity, dtype=np.float64))
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"capacity must be a positive number or one per resource, got "
                             f"{capacity!r}") from None
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
