"""Work-conserving Best-Fit, the baseline PG18 shows unstable (Sec. III, Def. 1, Fig. 1b).

Work-conserving greedy (Definition 1): whenever a queued job fits some server's
residual capacity, one is placed. Best-Fit (Sec. III, [4]): an arriving job goes to
the tightest server that fits it, by the multi-resource score of Sec. VI (inner
product of the job's demand and the server's occupied resources, both as fractions
of the server's capacity; ties to the lowest index). When a server frees resources,
queued jobs are placed until none fits; Definition 1 leaves the choice of job open
and it matters: ``order="type"`` (registry ``bf``) scans the per-type queues of
Sec. II in type order, ``"arrival"`` (``bf-fifo``) takes the earliest-arrived job,
``"largest"`` (``bf-largest``) the largest. Between events no queued job fits any
server, so after a departure from server l only l can take a queued job.

Measured on Fig. 1b's system (10 servers of capacity 10, sizes 2 and 5, rates (20.8,
10.4), mean service 1): type order piles up work at about 1.5% of the arrivals (the
instability of Fig. 1b), while arrival order stayed stable over 30,000 time units and
largest first over 4,000. Proposition 1 says no work-conserving rule is good for *every*
profile, not that every rule fails on this one (``tests/policies/continuous/test_continuous.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from policies.continuous import codes
from policies.continuous.formulas import demand_fraction
from policies.continuous.policy import HOOKS, ContinuousKernelSpec, ContinuousPolicy
from policies.policy import overrides

if TYPE_CHECKING:
    from policies.continuous.state import ContinuousState
    from policies.job_types import JobTypes
    from theory.cluster import Cluster

__all__ = ["BestFit", "fill_server"]


ORDERS = ("arrival", "type", "largest")


def fill_server(state: ContinuousState, server: int, order: str = "arrival") -> None:
    """Place queued jobs on ``server`` until none fits: the earliest-arrived first
    (``arrival``), the lowest type index first (``type``), or the largest first
    (``largest``: largest sum of demand fractions)."""
    cap = state.capacity[server]
    size = [demand_fraction(state.sizes[j], cap) for j in range(state.J)]
    while True:
        best, best_key = -1, math.inf
        for j in np.flatnonzero(state.Q[0] > 0):
            if state.fits(server, int(j)):
                key = (state.head_arrival(0, int(j)) if order == "arrival"
                       else float(j) if order == "type" else -size[j])
                if key < best_key:
                    best, best_key = int(j), key
        if best < 0:
            return
        state.start_job(server, best, 0)


class BestFit(ContinuousPolicy):
    """Work-conserving Best-Fit, PG18's unstable baseline: central queues, no clock.

    Definition 1's greedy with Best-Fit placement: an arriving job goes to the fitting
    server of largest score, the inner product of the job's demand and the server's
    occupied resources, both as fractions of the server's capacity (Sec. VI; ties to
    the lowest index). When a server frees resources, queued jobs are placed on it
    until none fits, in the order ``order`` picks (Definition 1 leaves it open; it
    matters, see the module docstring).

    Parameters
    ----------
    order : {'type', 'arrival', 'largest'}, default 'type'
        Which queued job a freed server takes first: the lowest type index (registry
        ``bf``), the earliest arrival (``bf-fifo``) or the largest sum of demand
        fractions (``bf-largest``).
    name : str, default 'bf'
        The policy's name in results.

    Raises
    ------
    ValueError
        An unknown ``order``, or an empty ``name``.

    References
    ----------
    PG18, Sec. III, Definition 1, Proposition 1 and Fig. 1b (Best-Fit can be unstable
    inside the capacity region); Sec. VI (the Best-Fit score); Sec. VII-A.3 (BF in the
    comparisons).

    Examples
    --------
    >>> from policies import BestFit, JobTypes, poisson_type_workload, simulate_continuous
    >>> from theory import Cluster
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> w = poisson_type_workload(types, [4.0, 1.6], 30.0, seed=1)
    >>> for p in (BestFit(), BestFit("arrival", name="bf-fifo")):
    ...     r = simulate_continuous(p, w, cluster, types, engine="python")
    ...     print(r.policy, r.params["order"], r.started, r.final_queue, r.ticks)
    bf type 167 1 0
    bf-fifo arrival 168 0 0
    """

    def __init__(self, order: str = "type", name: str = "bf"):
        if not isinstance(order, str) or order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(map(repr, ORDERS))}, got "
                             f"{order!r}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a non-empty string, got {name!r}")
        self.order, self.name = order, name

    def parameters(self) -> dict[str, str]:
        return {"order": self.order}

    def compiled_spec(self, types: JobTypes, cluster: Cluster) -> ContinuousKernelSpec | None:
        """The kernel's Best-Fit (None for a subclass that redefines a hook)."""
        if overrides(self, BestFit, HOOKS):
            return None
        return ContinuousKernelSpec(codes.KIND_BESTFIT, np.zeros(types.J),
                                    order=codes.ORDER_CODES[self.order])

    def on_arrival(self, state: ContinuousState, job: int, j: int, row: int) -> None:
        if state.Q[0, j] > 1:  # earlier type-j jobs wait: they fit nowhere, nor does this
            return
        fit = state.fitting_servers(j)
        if fit.size:
            state.start_job(int(fit[int(np.argmax(state.best_fit_score(fit, j)))]), j, 0)

    def on_departure(self, state: ContinuousState, server: int, j: int, job: int,
                     row: int) -> None:
        fill_server(state, server, self.order)
