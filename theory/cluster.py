"""The cluster: servers (machines) and their capacities, one description for every
family (PG21 Sec. II, PG18 Sec. II, XLL21 Sec. II-A, FL24 Sec. 3).

Capacities are vectors, one entry per resource; the single-resource papers are the
length-1 case. Servers may be heterogeneous (PG18 Sec. II, XLL21; PG21 Sec. IX notes
BF-J/S needs no change for heterogeneous servers). XLL21 reads ``capacity[:, 0]`` as
cores C_i and ``capacity[:, 1]`` as memory M_i; FL24 reads capacities as machine
sizes. ``theory.Machines`` is this class under the name the finite-job-set papers use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from theory.arrays import exact_float_array, number_array, unique_ids
from theory.budgets import MEMORY_BUDGET, check_budget
from theory.numbers import positive_int

__all__ = ["Cluster", "SERVER_BYTES"]

#: bytes per server of a run: kernel residuals, orders and trees, occupancy and half-full
#: counts (the per-server term of :func:`policies.footprint.run_bytes`)
SERVER_BYTES = 400


@dataclass(frozen=True, eq=False)
class Cluster:
    """A cluster of ``L`` servers: ``capacity[l, d]`` is server l's capacity in resource d.

    One description for every family: PG21's identical unit servers (one resource),
    PG18's heterogeneous multi-resource servers, XLL21's machines (cores, memory) and
    FL24's machines. A frozen dataclass; the capacities are stored as a read-only
    float64 array of shape (servers, resources). :attr:`servers` (also :attr:`m`),
    :attr:`resources`, :attr:`homogeneous`, :meth:`total` and
    :meth:`scalar_capacities` describe it; :meth:`identical` builds L equal servers.

    Parameters
    ----------
    capacity : array_like
        Capacities, shape (servers, resources); a 1-D ``capacity`` is one resource
        (one entry per server). Positive finite numbers, read as float64 (an integer
        that float64 would round, above 2^53, is refused).
    ids : tuple of str, optional
        Names of the servers, one per server and distinct (default ``"0"``, ``"1"``,
        ...).

    Raises
    ------
    ValueError
        ``capacity`` is not a 1-D or 2-D table of numbers (text, bools, ragged rows);
        it is empty, or has an entry that is not positive and finite, or that float64
        would round (the message names the entry); ``ids`` of the wrong length or with
        a repeated name.

    References
    ----------
    PG21, Sec. II (Cluster Model); PG18, Sec. II (Cloud Cluster); XLL21, Sec. II-A;
    FL24, Sec. 3; docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from theory import Cluster
    >>> c = Cluster([[64, 128], [16, 32]], ids=("big", "small"))
    >>> c.servers, c.resources, c.homogeneous
    (2, 2, False)
    >>> c.total().tolist()
    [80.0, 160.0]
    >>> Cluster.identical(3, 1.0)
    Cluster.identical(3, [1.0])
    """

    capacity: np.ndarray
    ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        try:
            c = exact_float_array(self.capacity, "capacity", 2)
        except TypeError:  # a bool or a text: a ValueError naming the entry
            number_array(self.capacity, "capacity", "a (servers, resources) table of "
                         "positive numbers")
            raise
        if c.shape[0] == 0 or c.shape[1] == 0:
            raise ValueError(f"a cluster needs at least one server and one resource: "
                             f"capacity must be a non-empty (servers, resources) table, got "
                             f"shape {c.shape}")
        if np.any(c <= 0):
            i, r = (int(x[0]) for x in np.nonzero(c <= 0))
            raise ValueError(f"capacity must be positive and finite, got {float(c[i, r])!r} "
                             f"(server {i}, resource {r})")
        object.__setattr__(self, "capacity", c)
        object.__setattr__(self, "ids", unique_ids(self.ids or None, c.shape[0], "server"))

    @classmethod
    def identical(cls, servers: int, capacity: float | Sequence[float] = 1.0, *,
                  memory_budget: float = MEMORY_BUDGET) -> Cluster:
        """``servers`` servers of the same capacity (scalar or one value per resource)."""
        positive_int(servers, name="the number of servers")
        if capacity is None:
            raise ValueError("capacity must be a positive number or one per resource, got "
                             "None")
        cap = np.atleast_1d(number_array(capacity, "capacity",
                                         "a positive number or one per resource"))
        if cap.ndim != 1 or cap.size == 0:
            raise ValueError(f"capacity must be a number or a flat list, got shape {cap.shape}")
        if isinstance(memory_budget, bool) or not isinstance(memory_budget, int | float) \
                or not memory_budget > 0:
            raise ValueError(f"memory_budget must be a positive number of bytes, got "
                             f"{memory_budget!r}")
        check_budget(SERVER_BYTES * float(servers), memory_budget,
                     what=f"a cluster of {int(servers):,} servers", option="memory_budget",
                     unit="bytes")
        return cls(np.tile(cap, (int(servers), 1)))

    @property
    def servers(self) -> int:
        return int(self.capacity.shape[0])

    @property
    def m(self) -> int:
        """The number of machines (XLL21's and FL24's M): :attr:`servers`."""
        return self.servers

    @property
    def resources(self) -> int:
        return int(self.capacity.shape[1])

    @property
    def homogeneous(self) -> bool:
        return bool(np.all(self.capacity == self.capacity[0]))

    def total(self) -> np.ndarray:
        """Sum of capacities per resource (XLL21's C = sum_i C_i)."""
        return self.capacity.sum(axis=0)

    def scalar_capacities(self) -> np.ndarray:
        """Capacities of a single-resource cluster as a 1-D array (errors otherwise)."""
        if self.resources != 1:
            raise ValueError(
                f"this model is single-resource (PG21 Sec. II) but the cluster has "
                f"{self.resources} resources"
            )
        return self.capacity[:, 0]

    def __len__(self) -> int:
        return self.servers

    def __repr__(self) -> str:
        if self.homogeneous:
            return f"Cluster.identical({self.servers}, {self.capacity[0].tolist()})"
        return f"Cluster({self.capacity.tolist()})"
