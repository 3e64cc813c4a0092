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
    """BF-J, best fit from the job's perspective (PG21 IV-A).

    Every slot, the queued jobs in arrival order: each goes to the server with the
    least residual capacity that can hold it (ties: lowest index), else it stays
    queued. The constructor takes no arguments.

    References
    ----------
    PG21, Sec. IV-A (BF-J).

    Examples
    --------
    Three jobs arrive in slot 0 on two unit servers: 0.5 opens server 0, 0.6 does not
    fit there and opens server 1, and 0.4 goes to the tighter server 1 (residual 0.4).

    >>> import numpy as np
    >>> import policies, theory
    >>> w = policies.Workload(np.array([0, 0, 0]), np.array([0.5, 0.6, 0.4]),
    ...                       np.array([5, 5, 5]), horizon=3)
    >>> r = policies.simulate(policies.BFJ(), w, theory.Cluster.identical(2, 1))
    >>> r.server.tolist()
    [0, 1, 1]
    >>> policies.make_policy("bf-j") == policies.BFJ()
    True
    """

    name = "bf-j"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        return single_types(K.BFJ, sizes.shape[0], track_jobs=True)


@dataclass(frozen=True)
class BFS(BuiltinPolicy):
    """BF-S, best fit from the server's perspective (PG21 IV-A).

    Every slot, the servers in index order: each repeatedly takes the largest queued
    job that fits (ties: earliest arrival) until none fits. The constructor takes no
    arguments.

    References
    ----------
    PG21, Sec. IV-A (BF-S).

    Examples
    --------
    The jobs of :class:`BFJ`'s example: server 0 takes 0.6, then 0.4, and is full;
    server 1 takes 0.5.

    >>> import numpy as np
    >>> import policies, theory
    >>> w = policies.Workload(np.array([0, 0, 0]), np.array([0.5, 0.6, 0.4]),
    ...                       np.array([5, 5, 5]), horizon=3)
    >>> r = policies.simulate(policies.BFS(), w, theory.Cluster.identical(2, 1))
    >>> r.server.tolist()
    [1, 0, 0]
    """

    name = "bf-s"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        return single_types(K.BFS, sizes.shape[0])


@dataclass(frozen=True)
class BFJS(BuiltinPolicy):
    """BF-J/S (PG21 IV-A): BF-S on servers with a departure, then BF-J on new jobs.

    Every slot: (1) BF-S over the servers that had a departure in the previous slot;
    (2) BF-J over the jobs that arrived in this slot and are still queued. With
    geometric service and job sizes at least some u > 0 it supports every workload
    below L / (2 R-bar), hence at least half of ``rho*`` (Thm. 2, with Lemma 2). The
    constructor takes no arguments.

    References
    ----------
    PG21, Sec. IV-A (BF-J/S) and Sec. IV-B, Thm. 2 (half of ``rho*``).

    Examples
    --------
    In slot 0 nothing has departed, so BF-J/S places the new jobs as BF-J does:

    >>> import numpy as np
    >>> import policies, theory
    >>> w = policies.Workload(np.array([0, 0, 0]), np.array([0.5, 0.6, 0.4]),
    ...                       np.array([5, 5, 5]), horizon=3)
    >>> r = policies.simulate(policies.BFJS(), w, theory.Cluster.identical(2, 1))
    >>> r.server.tolist(), r.start.tolist()
    ([0, 1, 1], [0, 0, 0])
    >>> policies.BFJS().name, policies.BFJS().family
    ('bf-js', 'pg21-slotted')
    """

    name = "bf-js"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        return single_types(K.BFJS, sizes.shape[0])
