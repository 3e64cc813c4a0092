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
    """PRIORITY-QUEUE, online (FL24 Sec. 4): every event, start what fits now."""

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
    """COLLECT-ALL-PRIORITY-QUEUE (FL24 Sec. 7.2): told the last release time, it waits
    for every job and then list-schedules them all from there (PQ, WSJF by default)."""

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
