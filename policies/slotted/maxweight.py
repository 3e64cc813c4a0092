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
    """MaxWeight over all feasible configurations of the upper-rounded partition ``X``.

    Jobs are typed by the cells of ``partition`` (Def. 3) with upper-rounded sizes
    (Def. 4). An empty server takes the configuration of maximum weight
    ``<k, Q(t)>`` (Def. 2, eq. (5)) among all feasible configurations of the rounded
    sizes (Def. 1; the maximal ones are enumerated at construction) and keeps it until
    it is empty again; meanwhile it keeps up to k_j jobs of VQ_j in service,
    head-of-line. Servers must be identical.

    Parameters
    ----------
    partition : theory.Partition
        A partition of (0, 1] (sizes relative to the server capacity), e.g.
        :func:`theory.quantile_partition`; :meth:`exact` builds the partition into the
        atoms of a discrete law.
    stall : float or None, optional
        None (default): renew only at empty times. A number in [0, 1): a server whose
        configuration weighs less than (1 - stall) of the current maximum stops taking
        jobs until it is empty (PG21 Sec. IX / [13]; module docstring).
    max_configurations : int, optional
        Budget on the number of configurations enumerated
        (default :data:`theory.budgets.MAX_CONFIGURATIONS`).

    Raises
    ------
    TypeError
        ``partition`` is not a :class:`theory.Partition`.
    ValueError
        ``stall`` outside [0, 1); a partition that does not cover (0, 1]. At run time:
        servers of different capacities.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) More configurations than ``max_configurations``.

    References
    ----------
    PG21, Sec. III, Defs. 1-4, eq. (5) and Thm. 1 (MaxWeight on an upper-rounded
    partition approaches ``rho*`` as the partition is refined); Sec. V-B, eqs. (20)-(21)
    (renewal at empty times).

    Examples
    --------
    The atoms of sizes 0.4 and 0.6: five cells, the singletons {0.4} and {0.6} among
    them, so no rounding loss. A row of :attr:`configurations` counts jobs per cell.

    >>> from fractions import Fraction
    >>> import policies, theory
    >>> sizes = theory.Discrete([Fraction(2, 5), Fraction(3, 5)], [Fraction(1, 2)] * 2)
    >>> p = policies.PartitionMaxWeight.exact(sizes)
    >>> p.partition, p.configurations.shape
    (Partition(atoms, 5 cells), (8, 5))
    >>> p.configurations[2].tolist()  # one job of {0.4}, one of (0.4, 0.6)
    [0, 1, 1, 0, 0]
    >>> q = policies.PartitionMaxWeight(theory.quantile_partition(theory.Uniform(0.1, 0.9), 1,
    ...                                 tight=False))
    >>> len(q.partition), q.configurations.tolist()
    (4, [[0, 0, 0, 1], [0, 2, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0], [3, 0, 0, 0]])
    """

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

    def parameters(self) -> dict[str, object]:
        """The partition's cells (as text), the stall probability and the budget."""
        return {"partition": [str(c) for c in self.partition.cells], "stall": self.stall,
                "max_configurations": self.max_configurations}

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
