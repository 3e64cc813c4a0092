"""VQS and VQS-BF: virtual queues on the universal partition (PG21 Sec. V-B, VI).

Jobs are typed by the universal partition I of eq. (18) (sizes in (0, 1/2^J] join
VQ_{2J-1}); every server holds an *active configuration* from K_RED^(J) (Def. 6),
renewed only when the server is empty, to the max-weight one argmax <k, Q(t)>
(eq. (20); Q counts jobs per VQ; ties go to the first row in the order of eq. (19)).
The renewal uses the VQ lengths of the slot in which the server is found empty,
after that slot's arrivals.

* VQS (V-B step 2): if k_1 = 1, 2/3 of the capacity is reserved for one VQ_1 job,
  scheduled head-of-line when the server holds none; the other VQ_j of k is served
  head-of-line (in the remaining capacity) until its head does not fit.
  Guarantee: 2/3 rho* when sizes exceed 1/2^J (Thm. 3); (1 - eps) 2/3 rho* when
  F_R(1/2^J) < eps (Cor. 1).
* VQS-BF (Sec. VI): (i) if k_1 = 1, the largest VQ_1 job that fits; (ii) the largest
  fitting VQ_j jobs until the server holds k_j of them; (iii) BF-S over the whole
  queue. Same guarantee (Thm. 4).

Servers must be identical (the partition is relative to the capacity; PG21 Sec. IX).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from policies.slotted import _kernel as K
from policies.slotted.policy import BuiltinPolicy, KernelSpec
from theory.bounds import choose_J
from theory.configurations import reduced_configurations
from theory.distributions import Discrete, SizeDistribution
from theory.numbers import FEASIBILITY_RTOL, to_number
from theory.partitions import universal_partition

__all__ = ["VQS", "VQSBF", "observed_J", "MAX_J"]

#: Largest J the policies accept (sizes below 2^-MAX_J all share VQ_{2J-1}).
MAX_J = 40


def observed_J(sizes: np.ndarray, capacity: float) -> int:
    """Smallest J > 1 with every size above capacity / 2^J (Thm. 3), capped at MAX_J."""
    if sizes.size == 0:
        return 2
    u = float(np.min(sizes)) / capacity
    J = 2
    while J < MAX_J and u <= 2.0**-J:
        J += 1
    return J


def _identical_capacity(capacities: np.ndarray, name: str) -> float:
    if not np.all(capacities == capacities[0]):
        raise ValueError(
            f"{name} needs identical servers: its universal partition is relative to the "
            "server capacity (PG21 Sec. IX)"
        )
    return float(capacities[0])


@dataclass(frozen=True)
class _VirtualQueueScheduler(BuiltinPolicy):
    J: int | None = None
    _code = -1

    def __post_init__(self) -> None:
        if self.J is not None and (
            isinstance(self.J, bool) or not isinstance(self.J, int) or not 2 <= self.J <= MAX_J
        ):
            raise ValueError(f"J must be an integer in [2, {MAX_J}] (PG21 eq. 18), got {self.J!r}")

    @classmethod
    def for_distribution(cls, dist: SizeDistribution, eps: float = 0.0,
                         capacity: object = 1):  # noqa: ANN206
        """J per PG21 Cor. 1: the smallest J with F_R(1/2^J) < eps (eps=0: Thm. 3).

        ``capacity``: the server capacity when ``dist`` gives sizes in its units
        (then ``dist`` must be a :class:`~theory.distributions.Discrete`).
        """
        cap = to_number(capacity, name="capacity")
        if cap != 1:
            if not isinstance(dist, Discrete):
                raise ValueError("a continuous size law lives on (0, 1]: use capacity 1")
            dist = dist.scaled(1 / Fraction(cap))
        return cls(J=min(choose_J(dist, eps), MAX_J))

    def kernel_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        cap = _identical_capacity(capacities, self.name)
        if np.any(sizes > cap * (1 + 1e-9)):
            raise ValueError("a job is larger than the server capacity")
        J = self.J if self.J is not None else observed_J(sizes, cap)
        jtype = universal_partition(J).classify(np.minimum(sizes, cap), cap, FEASIBILITY_RTOL)
        red = reduced_configurations(J)
        cfg = red.configs.astype(np.int64)
        k1 = cfg[:, 1] == 1
        main = np.full(cfg.shape[0], -1, np.int64)
        for c, row in enumerate(cfg):
            others = [j for j in np.flatnonzero(row) if j != 1]
            if others:
                main[c] = others[0]
        return KernelSpec(self._code, jtype, 2 * J, cfg, main, k1)


@dataclass(frozen=True)
class VQS(_VirtualQueueScheduler):
    """VQS (PG21 V-B). ``J``: universal-partition depth; None = from the smallest job."""

    name = "vqs"
    _code = K.VQS


@dataclass(frozen=True)
class VQSBF(_VirtualQueueScheduler):
    """VQS-BF (PG21 Sec. VI). ``J`` as for :class:`VQS`."""

    name = "vqs-bf"
    _code = K.VQSBF
