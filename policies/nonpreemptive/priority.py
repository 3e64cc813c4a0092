"""PRIORITY-QUEUE (FL24 Sec. 4) with the sorts of Sec. 7.3, and COLLECT-ALL-PQ (7.2).

PQ: at every event t (a release or a completion), order the released, unplaced jobs by
the sort key (non-decreasing, ties to the lower index) and, from the head, start every
job that fits some machine now (the lowest-index machine it fits). Sort keys:
(W)SVF v_j (/ w_j), (W)SJF p_j (/ w_j), (W)SDF u_j (/ w_j), ERF r_j, with
u_j = sum_l d_jl and v_j = p_j u_j.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from policies.nonpreemptive import codes
from policies.nonpreemptive.policy import HOOKS, NonPreemptivePolicy, OnlineSpec
from policies.nonpreemptive.state import ScheduleState
from policies.policy import overrides

__all__ = ["SORTS", "sort_key", "PriorityQueue", "CollectAllPQ"]

#: FL24 Sec. 7.3 sorting heuristics
SORTS = ("svf", "wsvf", "sjf", "wsjf", "sdf", "wsdf", "erf")


def sort_key(state: ScheduleState, sort: str) -> np.ndarray:
    """The value FL24 Sec. 7.3 sorts jobs by (non-decreasing), one per job."""
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
    base = {"svf": state.volume, "sjf": state.processing, "sdf": state.total_demand,
            "erf": state.arrival}[sort.removeprefix("w")]
    return base / state.weight if sort.startswith("w") else base


def ordered(key: np.ndarray, jobs: list[int] | np.ndarray) -> np.ndarray:
    """``jobs`` by non-decreasing key, ties to the lower index."""
    a = np.asarray(jobs, dtype=np.int64)
    return a[np.lexsort((a, key[a]))]


class PriorityQueue(NonPreemptivePolicy):
    """PRIORITY-QUEUE, online (FL24 Sec. 4): every event, start what fits now.

    At every event (a release or a completion) the released, unplaced jobs are ordered
    by the sort key (non-decreasing, ties to the lower index) and, from the head,
    every job that fits some machine now is started on the lowest-index machine it
    fits. Lemma 4.1: its competitive ratio for AWCT is Omega(N).

    Parameters
    ----------
    sort : {'wsjf', 'svf', 'wsvf', 'sjf', 'sdf', 'wsdf', 'erf'}, default 'wsjf'
        The key (:data:`SORTS`, FL24 Sec. 7.3): volume v_j, processing time p_j or
        total demand u_j, each divided by w_j in the ``w`` variants; ``erf`` the
        release r_j.
    name : str or None, default None
        The policy's name in results; None: ``'pq-'`` + ``sort``.

    Raises
    ------
    ValueError
        An unknown ``sort``.

    References
    ----------
    FL24, Sec. 4 (PRIORITY-QUEUE, Lemma 4.1) and Sec. 7.3 (the sorting heuristics).

    Examples
    --------
    >>> from policies import PriorityQueue, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 2, 2], processing=[4, 2, 3, 3, 3],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.6, 0.2], [0.2, 0.2], [0.6, 0.2]],
    ...               weight=[2, 1, 2, 2, 1])
    >>> machines = Machines([[1.0, 1.0], [1.0, 1.0]])
    >>> for p in (PriorityQueue(), PriorityQueue("svf"), PriorityQueue("erf")):
    ...     r = run_nonpreemptive(p, jobs, machines)
    ...     print(r.policy, r.start.tolist(), r.awct)
    pq-wsjf [0.0, 3.0, 0.0, 2.0, 4.0] 7.2
    pq-svf [3.0, 0.0, 0.0, 2.0, 2.0] 7.4
    pq-erf [0.0, 0.0, 2.0, 2.0, 4.0] 7.4
    """

    def __init__(self, sort: str = "wsjf", name: str | None = None):
        if sort not in SORTS:
            raise ValueError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
        self.sort = sort
        self.name = name or f"pq-{sort}"

    def parameters(self) -> dict[str, Any]:
        return {"sort": self.sort}

    def reset(self, state: ScheduleState) -> None:
        self._key = sort_key(state, self.sort)

    def compiled_spec(self, state: ScheduleState) -> OnlineSpec | None:
        """The numba loop's PQ: jobs ranked by the sort key, ties to the lower index."""
        if overrides(self, PriorityQueue, HOOKS):
            return None
        key = sort_key(state, self.sort)
        return OnlineSpec.from_order(codes.PQ, np.lexsort((np.arange(state.N), key)))

    def decide(self, state: ScheduleState) -> None:
        if state.queue and (state.freed_now or state.arrived_now):
            order = ordered(self._key, state.queue)
            state.place_in_order(order, fits=state.changed_fits(order))


class CollectAllPQ(NonPreemptivePolicy):
    """COLLECT-ALL-PRIORITY-QUEUE (FL24 Sec. 7.2): wait for every job, then list-schedule.

    Told the last release time, it waits for every job and then list-schedules them
    all from there (PQ, WSJF by default; :meth:`ScheduleState.list_schedule`).

    Parameters
    ----------
    sort : {'wsjf', 'svf', 'wsvf', 'sjf', 'sdf', 'wsdf', 'erf'}, default 'wsjf'
        The list's order (:data:`SORTS`).
    name : str, default 'ca-pq'
        The policy's name in results.

    Raises
    ------
    ValueError
        An unknown ``sort``.

    References
    ----------
    FL24, Sec. 7.2 (the COLLECT-ALL-PQ benchmark) and Sec. 5.2 (PQ list scheduling).

    Examples
    --------
    FL24 Lemma 4.1's instance with N = 4: online PQ starts the long job at once and
    the small ones wait for it; collecting every job first puts the small ones first.

    >>> from policies import CollectAllPQ, PriorityQueue, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0.5, 0.5, 0.5], processing=[4, 1, 1, 1],
    ...               demand=[[1.0], [1 / 3], [1 / 3], [1 / 3]])
    >>> for p in (PriorityQueue(), CollectAllPQ()):
    ...     r = run_nonpreemptive(p, jobs, Machines([[1.0]]))
    ...     print(r.policy, r.start.tolist(), r.awct)
    pq-wsjf [0.0, 4.0, 4.0, 4.0] 4.75
    ca-pq [1.5, 0.5, 0.5, 0.5] 2.5
    """

    wakeup_driven = True

    def __init__(self, sort: str = "wsjf", name: str = "ca-pq"):
        if sort not in SORTS:
            raise ValueError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
        self.sort, self.name = sort, name

    def parameters(self) -> dict[str, Any]:
        return {"sort": self.sort}

    def reset(self, state: ScheduleState) -> None:
        self._key = sort_key(state, self.sort)
        self._last = float(state.arrival.max())

    def next_wakeup(self, state: ScheduleState) -> float:
        return self._last if state.t < self._last else math.inf

    def decide(self, state: ScheduleState) -> None:
        if state.t >= self._last and len(state.queue):
            state.list_schedule(ordered(self._key, state.queue), state.t)
