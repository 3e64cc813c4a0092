"""The compiled profile backend of FL24's non-preemptive model, and the state on it.

:class:`TimelineProfiles` answers what :class:`~policies.nonpreemptive.profile.
MachineProfiles` answers (usage, window fits, next breakpoint, adding a job) with a treap
per machine (:mod:`policies.nonpreemptive._timeline`): O(log n) per operation instead of
O(n), so a schedule of millions of jobs planned ahead stays fast. :class:`TimelineState`
is a :class:`~policies.nonpreemptive.engine.ScheduleState` on it whose
:meth:`~TimelineState.list_schedule` (FL24 Sec. 5.2) runs in numba; MRIS and CA-PQ,
which act only at their wake-up times and only by list scheduling, run on it under
``run_nonpreemptive(engine="auto"|"compiled")``.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

from policies.nonpreemptive import _timeline as T
from policies.nonpreemptive.state import ScheduleState
from theory.job_sets import JobSet, Machines
from theory.numbers import FEASIBILITY_RTOL

__all__ = ["TimelineProfiles", "TimelineState"]


@njit(cache=True)
def _fits_many(root, s, lengths, demands, cap_tol, i, key, val, mx, lz, left, right,
               scratch):  # pragma: no cover - compiled
    out = np.zeros(lengths.shape[0], np.bool_)
    w = scratch[1]
    for q in range(lengths.shape[0]):
        T.window_max(root, s, s + lengths[q], key, val, mx, lz, left, right, scratch[2],
                     scratch[3], w)
        ok = True
        for r in range(demands.shape[1]):
            if not w[r] + demands[q, r] <= cap_tol[i, r]:
                ok = False
                break
        out[q] = ok
    return out


class TimelineProfiles:
    """Profiles of M machines with capacities ``capacity`` (M, R), room for ``jobs``
    placed jobs (two breakpoints each). The history is kept (:meth:`prune` is a no-op)."""

    #: window peaks are always computed (no shortcut for an unplanned future)
    planned = True

    def __init__(self, capacity: np.ndarray, jobs: int, *, start: float = 0.0, seed: int = 0):
        self.capacity = np.asarray(capacity, dtype=np.float64)
        self.M, self.R = self.capacity.shape
        self.cap_tol = self.capacity * (1.0 + FEASIBILITY_RTOL)
        n = 2 * int(jobs) + self.M + 2
        self.start = float(start)
        self.key = np.full(n, np.inf)
        self.key[:self.M] = self.start  # each machine: one segment [start, inf) of usage 0
        self.val = np.zeros((n, self.R))
        self.mx = np.zeros((n, self.R))
        self.lz = np.zeros((n, self.R))
        self.left = np.full(n, T.NIL, dtype=np.int64)
        self.right = np.full(n, T.NIL, dtype=np.int64)
        self.prio = np.random.default_rng(seed).integers(0, 2**62, size=n, dtype=np.int64)
        self.root = np.arange(self.M, dtype=np.int64)
        self.count = np.array([self.M], dtype=np.int64)
        self.path = np.zeros(T.PATH, dtype=np.int64)
        self.scratch = np.zeros((4, self.R))
        #: per machine, the latest start of a job placed on it
        self.last_start = np.full(self.M, -np.inf)

    def _machine(self, i: int) -> int:
        if not 0 <= i < self.M:
            raise IndexError(f"machine {i} out of range [0, {self.M})")
        return i

    def _after_start(self, t: float) -> float:
        if not t >= self.start:
            raise ValueError(f"time {t} is before the profiles' start ({self.start})")
        return float(t)

    def usage_at(self, i: int, t: float) -> np.ndarray:
        t = self._after_start(t)
        out = np.zeros(self.R)
        T.value_at(self.root[self._machine(i)], float(t), self.key, self.val, self.lz,
                   self.left, self.right, self.scratch[2], out)
        return out

    def fits(self, i: int, start: float, length: float, demand: np.ndarray) -> bool:
        """Does a job of ``demand`` fit machine ``i`` on [start, start + length)?"""
        return bool(self.fits_many(i, start, np.array([float(length)]),
                                   np.asarray(demand, dtype=np.float64)[None, :])[0])

    def fits_many(self, i: int, start: float, lengths: np.ndarray,
                  demands: np.ndarray) -> np.ndarray:
        return _fits_many(self.root[self._machine(i)], self._after_start(start),
                          np.ascontiguousarray(lengths, dtype=np.float64),
                          np.ascontiguousarray(demands, dtype=np.float64), self.cap_tol, i,
                          self.key, self.val, self.mx, self.lz, self.left, self.right,
                          self.scratch)

    def starts(self, machines: list[int]) -> np.ndarray:
        return np.full(len(machines), -np.inf)

    def next_breakpoint(self, t: float) -> float:
        """The first breakpoint after ``t`` on any machine (inf if none)."""
        return min(T.successor(self.root[i], float(t), self.key, self.left, self.right)
                   for i in range(self.M))

    def changes_at(self, t: float) -> list[int]:
        """Machines with a breakpoint at exactly ``t``."""
        return [i for i in range(self.M)
                if T.has_key(self.root[i], float(t), self.key, self.left, self.right)]

    def add(self, i: int, start: float, length: float, demand: np.ndarray) -> None:
        """Hold ``demand`` on machine ``i`` during [start, start + length)."""
        if self.count[0] + 2 > self.key.size:
            raise RuntimeError(f"timeline full: room for {(self.key.size - self.M) // 2} "
                               f"jobs")
        T.add(self._machine(i), self._after_start(start), float(start) + float(length),
              np.asarray(demand, dtype=np.float64), self.key, self.val, self.mx, self.lz,
              self.left, self.right, self.prio, self.root, self.count, self.path,
              self.scratch[2])
        self.last_start[i] = max(self.last_start[i], float(start))

    def prune(self, t: float) -> None:
        """Kept for the MachineProfiles interface: the treap keeps its history."""


class TimelineState(ScheduleState):
    """:class:`ScheduleState` on :class:`TimelineProfiles`, list scheduling in numba."""

    def __init__(self, jobs: JobSet, machines: Machines):
        super().__init__(jobs, machines)
        self.profiles = TimelineProfiles(machines.capacity, jobs.n)  # type: ignore[assignment]
        #: keep the completion events (the event loop needs them; the wake-up loop not)
        self.track_completions = True

    def list_schedule(self, order: list[int] | np.ndarray, start: float) -> None:
        """:meth:`ScheduleState.list_schedule` in numba
        (:func:`policies.nonpreemptive._kernel.list_schedule_kernel`)."""
        from policies.nonpreemptive._kernel import list_schedule_kernel

        jobs = np.asarray(order, dtype=np.int64)
        s = float(start)
        if jobs.size == 0:
            return
        if s < self.t or np.any(self.arrival[jobs] > s):
            raise RuntimeError(f"policy error: list scheduling from {s}, before now "
                               f"({self.t}) or before a listed job's release")
        if not np.all(np.isnan(self.decided[jobs])) or np.unique(jobs).size != jobs.size:
            raise RuntimeError("policy error: a listed job is already placed or listed twice")
        pr = self.profiles
        assert isinstance(pr, TimelineProfiles)
        if pr.count[0] + 2 * jobs.size > pr.key.size:
            raise RuntimeError("timeline full")
        status = list_schedule_kernel(
            jobs, s, self.processing, np.ascontiguousarray(self.demand), pr.cap_tol,
            self.start, self.machine, pr.last_start, pr.key, pr.val, pr.mx, pr.lz, pr.left,
            pr.right, pr.prio, pr.root, pr.count, pr.path, pr.scratch)
        if status != 0:
            raise RuntimeError(f"list scheduling stalled: a job of {jobs.size} fits no "
                               f"machine even when empty")
        self.decided[jobs] = self.t
        self.placed += int(jobs.size)
        q = np.asarray(self.queue, dtype=np.int64)
        self.queue = q[np.isnan(self.decided[q])].tolist() if q.size else []
        if self.track_completions:
            self._completions.extend(zip((self.start[jobs] + self.processing[jobs]).tolist(),
                                         self.machine[jobs].tolist(), strict=True))
            heapq.heapify(self._completions)
