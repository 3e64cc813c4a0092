"""Names of the built-in policies (DESIGN.md: lower-case, hyphenated) and a factory."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from policies.slotted import BFJ, BFJS, BFS, FIFOFF, VQS, VQSBF, PartitionMaxWeight
from policies.slotted.policy import BuiltinPolicy
from theory.budgets import MAX_CONFIGURATIONS, check_budget
from theory.distributions import Discrete, SizeDistribution
from theory.numbers import to_number
from theory.partitions import Partition, quantile_partition

__all__ = ["PolicyInfo", "POLICIES", "available_policies", "make_policy"]


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    description: str
    reference: str
    parameters: str
    factory: Callable[..., BuiltinPolicy]


def _vq(cls: type[VQS] | type[VQSBF]) -> Callable[..., BuiltinPolicy]:
    def make(*, J: int | None = None, dist: SizeDistribution | None = None,
             eps: float = 0.01, **_: Any) -> BuiltinPolicy:
        if J is None and dist is not None:
            return cls.for_distribution(dist, eps if not isinstance(dist, Discrete) else 0.0)
        return cls(J=J)
    return make


def _maxweight(*, partition: Partition | None = None, dist: SizeDistribution | None = None,
               levels: int = 2, max_configurations: int = MAX_CONFIGURATIONS,
               **_: Any) -> BuiltinPolicy:
    if partition is not None:
        return PartitionMaxWeight(partition, max_configurations=max_configurations)
    if isinstance(dist, Discrete):
        return PartitionMaxWeight.exact(dist, max_configurations=max_configurations)
    if dist is None:
        raise ValueError("maxweight needs a partition or the size distribution")
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 0:
        raise ValueError(f"levels must be a non-negative integer, got {levels!r}")
    # X^(levels) has 2^(levels+1) cells, each a feasible configuration on its own: refuse
    # before building the partition
    check_budget(2 ** (levels + 1), max_configurations,
                 what=f"maxweight on the quantile partition X^({levels})",
                 option="max_configurations", unit="configurations")
    return PartitionMaxWeight(quantile_partition(dist, levels, tight=False),
                              max_configurations=max_configurations)


POLICIES: dict[str, PolicyInfo] = {p.name: p for p in [
    PolicyInfo("bf-j", "Best-Fit, job's perspective, every slot", "PG21 IV-A", "",
               lambda **_: BFJ()),
    PolicyInfo("bf-s", "Best-Fit, server's perspective, every slot", "PG21 IV-A", "",
               lambda **_: BFS()),
    PolicyInfo("bf-js", "BF-S on servers with a departure, then BF-J on new jobs",
               "PG21 IV-A, Thm. 2", "", lambda **_: BFJS()),
    PolicyInfo("vqs", "virtual queues on the universal partition, K_RED configurations",
               "PG21 V-B, Thm. 3, Cor. 1", "J (default: Cor. 1 with eps=0.01, or the "
               "smallest job)", _vq(VQS)),
    PolicyInfo("vqs-bf", "VQS with largest-fit and BF-S fill", "PG21 VI, Thm. 4",
               "J (as vqs)", _vq(VQSBF)),
    PolicyInfo("fifo-ff", "FIFO with First-Fit, strict head-of-line blocking",
               "PG21 VII-B", "", lambda **_: FIFOFF()),
    PolicyInfo("fifo-ff-skip", "FIFO with First-Fit, skipping jobs that fit nowhere",
               "PG21 VII-B (variant)", "", lambda **_: FIFOFF(skip=True)),
    PolicyInfo("maxweight", "MaxWeight over all configurations of a partition, renewed "
               "when a server empties", "PG21 III, Thm. 1", "partition (default: atoms of a "
               "discrete law, else the quantile partition X^(levels))", _maxweight),
]}


def available_policies() -> list[str]:
    """Registered policy names."""
    return list(POLICIES)


def make_policy(name: str, *, dist: SizeDistribution | None = None, capacity: object = 1,
                **params: Any) -> BuiltinPolicy:
    """The built-in policy called ``name`` (see :data:`POLICIES` for parameters).

    ``dist`` is the size law in the units of ``capacity`` (identical servers); policies
    that derive a partition from it (vqs, vqs-bf, maxweight) see it on a unit server.
    """
    try:
        info = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}") from None
    cap = to_number(capacity, name="capacity")
    if not cap > 0:
        raise ValueError(f"capacity must be positive, got {capacity!r}")
    if dist is not None and cap != 1:
        if not isinstance(dist, Discrete):
            raise ValueError("a continuous size law lives on (0, 1]: use capacity 1")
        dist = dist.scaled(1 / Fraction(cap))
    return info.factory(dist=dist, **params)
