"""Best-Fit policies BF-J, BF-S and BF-J/S (PG21 Sec. IV-A).

* BF-J: jobs in arrival order; each goes to the server with the least residual
  capacity that can hold it (ties: lowest index), else it stays queued. Every slot.
* BF-S: servers in index order; each repeatedly takes the largest queued job that
  fits (ties: earliest arrival) until none fits. Every slot.
* BF-J/S: (1) BF-S only over the servers that had a departure in the previous slot;
  (2) BF-J only over the jobs that arrived in this slot and are still queued.
  Achieves at least L/(2 R-bar) >= rho*/2 (Thm. 2) with geometric service.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.slotted import codes as K
from policies.slotted.policy import BuiltinPolicy, KernelSpec, single_types

__all__ = ["BFJ", "BFS", "BFJS"]


@dataclass(frozen=True)
class BFJ(BuiltinPolicy):
    """BF-J, best fit from the job's perspective (PG21 IV-A)."""

    name = "bf-j"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        return single_types(K.BFJ, sizes.shape[0], track_jobs=True)


@dataclass(frozen=True)
class BFS(BuiltinPolicy):
    """BF-S, best fit from the server's perspective (PG21 IV-A)."""

    name = "bf-s"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        return single_types(K.BFS, sizes.shape[0])


@dataclass(frozen=True)
class BFJS(BuiltinPolicy):
    """BF-J/S (PG21 IV-A): BF-S on servers with a departure, then BF-J on new jobs."""

    name = "bf-js"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        return single_types(K.BFJS, sizes.shape[0])
