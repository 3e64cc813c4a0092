"""Partition MaxWeight: the scheduler behind PG21 Thm. 1.

Sizes are typed by a partition X of (0, 1] (Def. 3) into upper-rounded virtual
queues (Def. 4, r_j = sup X_j). When a server is empty it takes the max-weight
configuration argmax <k, Q(t)> (Def. 2, eq. (5)) over *all* feasible configurations
of the rounded sizes (Def. 1), and keeps it until it is empty again (renewal at
empty times, as for VQS, eq. (20)-(21), following [8], [11]); meanwhile it keeps up
to k_j jobs of VQ_j in service, head-of-line. Every rounded configuration fits, so
the actual jobs fit.

``stall`` (default None: the literal renewal at empty times) adds the stalling of
PG21 Sec. IX / [13]: a server whose configuration weighs less than (1 - stall) of the
current maximum stops taking jobs until it is empty, so stale configurations are
dropped. Without it a server can hold a configuration forever while the queues of its
types never empty (as BF-J/S in Fig. 3b), and the scheduler can be unstable below
rho*(X); the check PG21.Thm1.dynamic measures both. As X is refined (e.g.
:func:`theory.partitions.quantile_partition`) the supportable workload of the
upper-rounded system increases to rho* (Thm. 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from policies.slotted import codes as K
from policies.slotted.policy import BuiltinPolicy, KernelSpec
from policies.slotted.vqs import _identical_capacity
from theory.budgets import MAX_CONFIGURATIONS
from theory.configurations import maximal_configurations
from theory.distributions import Discrete
from theory.numbers import FEASIBILITY_RTOL
from theory.partitions import Cell, Partition

__all__ = ["PartitionMaxWeight"]


@dataclass(frozen=True, eq=False)
class PartitionMaxWeight(BuiltinPolicy):
    """MaxWeight over all feasible configurations of the upper-rounded partition ``X``."""

    partition: Partition
    stall: float | None = None
    max_configurations: int = MAX_CONFIGURATIONS
    name = "maxweight"
    _configs: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.partition, Partition):
            raise TypeError("partition must be a theory.partitions.Partition")
        p = self.partition
        if self.stall is not None and not 0 <= self.stall < 1:
            raise ValueError(f"stall must be in [0, 1) or None, got {self.stall!r}")
        if p.lo != 0 or p.lo_closed or p.hi != 1 or not p.hi_closed:
            raise ValueError("the partition must cover (0, 1] (PG21 Def. 3)")
        # the enumeration refuses past the budget (theory.budgets.BudgetExceeded)
        cfg = maximal_configurations(p.upper_sizes, 1,
                                     max_configurations=self.max_configurations)
        object.__setattr__(self, "_configs", np.asarray(cfg, dtype=np.int64))

    @classmethod
    def exact(cls, dist: Discrete, stall: float | None = None,
              max_configurations: int = MAX_CONFIGURATIONS) -> PartitionMaxWeight:
        """Singleton cells at the atoms of a discrete distribution (no rounding loss)."""
        cuts = sorted({s for s in dist.sizes})
        cells: list[Cell] = []
        lo = 0
        for s in cuts:
            if s > lo:
                cells.append(Cell(lo, s, False, False))
            cells.append(Cell(s, s, True, True))
            lo = s
        if lo < 1:
            cells.append(Cell(lo, 1, False, True))
        return cls(Partition(cells, name="atoms"), stall, max_configurations)

    @property
    def configurations(self) -> np.ndarray:
        return self._configs

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        cap = _identical_capacity(capacities, self.name)
        jtype = self.partition.classify(sizes, cap, FEASIBILITY_RTOL)
        C = self._configs.shape[0]
        return KernelSpec(K.MAXWEIGHT, jtype, len(self.partition), self._configs,
                          np.full(C, -1, np.int64), np.zeros(C, np.bool_),
                          stall=-1.0 if self.stall is None else float(self.stall))
