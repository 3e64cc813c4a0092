"""What an FL24 policy sees at a decision time and how it acts (FL24 Sec. 3): the
released jobs, the machines' resource-over-time profiles, and placements."""

from __future__ import annotations

import heapq
import math

import numpy as np

from policies.nonpreemptive.profile import MachineProfiles
from theory.job_sets import JobSet, Machines

__all__ = ["ScheduleState"]


class ScheduleState:
    """What an FL24 policy sees at decision time ``t``, and how it places jobs.

    ``queue``: released, unplaced jobs in release order (ties: index). ``arrived_now``:
    the jobs released at ``t``; ``freed_now``: machines where a job completed at ``t``.
    Job data: ``arrival``, ``processing``, ``weight``, ``demand`` (N, R), ``total_demand``
    u_j = sum_l d_jl / c_l and ``volume`` v_j = p_j u_j (FL24 Sec. 5.1, demands as
    fractions of a machine, c_l the largest capacity in resource l).

    Actions: :meth:`place` (a job on a machine, now or planned ahead, never before its
    release or the current time, only where it fits its whole duration),
    :meth:`place_in_order` (PQ's scan) and :meth:`list_schedule` (PQ list scheduling
    with backfilling, FL24 Sec. 5.2). Queries: :meth:`fits`, :meth:`first_fit`,
    :meth:`fit_matrix`, :meth:`usage_at`, :meth:`free_now`. The schedule so far is in
    ``start``, ``machine`` and ``decided`` (NaN or -1 for unplaced jobs); the profiles
    are a :class:`MachineProfiles`. The engine builds the state and sets ``t``,
    ``queue``, ``arrived_now`` and ``freed_now`` before each decision.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: release r_j, processing time p_j, weight w_j, demands d_j.
    machines : theory.Machines
        The machines' capacities.

    Raises
    ------
    RuntimeError
        From :meth:`place`, on a policy error: a job placed twice, before now or its
        release, or where it does not fit.

    References
    ----------
    FL24, Sec. 3 (the model: S_j >= r_j, C_j = S_j + p_j, the resource constraint)
    and Sec. 5.1 (u_j and v_j); docs/design.md, section Simulation (The four families).

    Examples
    --------
    The engine builds the state; here one by hand at time 0:

    >>> from policies.nonpreemptive import ScheduleState
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[4, 2, 1],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.2, 0.4]])
    >>> st = ScheduleState(jobs, Machines([[1.0, 1.0], [1.0, 1.0]]))
    >>> st.total_demand.round(6).tolist(), st.volume.round(6).tolist()
    ([1.4, 1.4, 0.6], [5.6, 2.8, 0.6])
    >>> st.queue = [0, 1]
    >>> st.place(0, 0)  # job 0 on machine 0 from now
    >>> st.fits(1, 0), st.first_fit(1), st.free_now(0).round(6).tolist()
    (False, 1, [0.2, 0.4])
    >>> st.place(1, 0, start=4.0)  # planned ahead, after job 0
    >>> st.start.tolist(), st.machine.tolist(), st.queue
    ([0.0, 4.0, nan], [0, 0, -1], [])
    """

    def __init__(self, jobs: JobSet, machines: Machines):
        self.jobs, self.machines = jobs, machines
        self.arrival, self.processing = jobs.arrival, jobs.processing
        self.weight, self.demand = jobs.weight, jobs.demand
        self.N, self.M, self.R = jobs.n, machines.m, jobs.resources
        unit = machines.capacity.max(axis=0)
        self.total_demand = np.sum(jobs.demand / unit, axis=1)
        self.volume = self.processing * self.total_demand
        self.profiles = MachineProfiles(machines.capacity, start=0.0)
        self.t = 0.0
        self.queue: list[int] = []
        self.arrived_now: list[int] = []
        self.freed_now: list[int] = []
        self.start = np.full(self.N, np.nan)
        self.machine = np.full(self.N, -1, dtype=np.int64)
        self.decided = np.full(self.N, np.nan)
        self.placed = 0
        self._completions: list[tuple[float, int]] = []  # (completion, machine)

    def fits(self, j: int, i: int, start: float | None = None) -> bool:
        """Does job ``j`` fit machine ``i`` from ``start`` (default now) for p_j?"""
        s = self.t if start is None else start
        return self.profiles.fits(i, s, float(self.processing[j]), self.demand[j])

    def usage_at(self, i: int, t: float) -> np.ndarray:
        """Machine ``i``'s usage at time ``t`` (past and planned jobs)."""
        return self.profiles.usage_at(i, t)

    def first_fit(self, j: int, start: float | None = None,
                  machines: list[int] | range | None = None) -> int:
        """The lowest-index machine job ``j`` fits from ``start`` (default now), or -1."""
        for i in range(self.M) if machines is None else machines:
            if self.fits(j, i, start):
                return i
        return -1

    def fit_matrix(self, jobs: np.ndarray, start: float | None = None,
                   machines: list[int] | range | None = None) -> np.ndarray:
        """(len(jobs), len(machines)) booleans: job fits machine from ``start``."""
        s = self.t if start is None else start
        ms = list(range(self.M) if machines is None else machines)
        if not ms:
            return np.zeros((len(jobs), 0), dtype=bool)
        P, D = self.processing[jobs], self.demand[jobs]
        pr = self.profiles
        if not pr.planned and np.all(pr.starts(ms) == s):
            return pr.fits_now(ms, D)
        return np.column_stack([pr.fits_many(i, s, P, D) for i in ms])

    def changed_fits(self, jobs: np.ndarray) -> np.ndarray:
        """The fit matrix (jobs x all machines) now, for an online policy whose queued
        jobs fit no machine before this event: those can only fit where a job completed
        (nothing else frees resources without planned jobs); new arrivals may fit
        anywhere. Same answers as :meth:`fit_matrix`, computed only where they can be
        True."""
        F = np.zeros((jobs.size, self.M), dtype=bool)
        freed = sorted(set(self.freed_now))
        if freed:
            F[:, freed] = self.fit_matrix(jobs, machines=freed)
        new = np.isin(jobs, self.arrived_now)
        if new.any():
            F[new] = self.fit_matrix(jobs[new])
        return F

    def place_in_order(self, order: list[int] | np.ndarray, start: float | None = None,
                       machines: list[int] | range | None = None,
                       fits: np.ndarray | None = None) -> list[int]:
        """PQ's scan (FL24 Sec. 4, 5.2): each job of ``order`` in turn goes to the
        lowest-index machine (of ``machines``) it fits from ``start`` (default now);
        returns the jobs that fit nowhere, in order. ``fits``: the fit matrix of
        ``order`` on ``machines`` if the caller has it."""
        s = self.t if start is None else float(start)
        jobs = np.asarray(order, dtype=np.int64)
        ms = list(range(self.M) if machines is None else machines)
        if jobs.size == 0 or not ms:
            return jobs.tolist()
        F = self.fit_matrix(jobs, s, ms) if fits is None else fits
        placed = np.zeros(jobs.size, dtype=bool)
        a = 0
        while a < jobs.size:
            rows = np.flatnonzero(F[a:].any(axis=1))
            if rows.size == 0:
                break
            a += int(rows[0])
            c = int(np.argmax(F[a]))
            self.place(int(jobs[a]), ms[c], s)
            placed[a] = True
            a += 1
            if a < jobs.size:
                F[a:, c] = self.fit_matrix(jobs[a:], s, [ms[c]])[:, 0]
        return jobs[~placed].tolist()

    def list_schedule(self, order: list[int] | np.ndarray, start: float) -> None:
        """PRIORITY-QUEUE as FL24 Sec. 5.2 uses it (offline, every listed job available):
        at ``start`` and then at every breakpoint of the profiles, scan the list in order
        and place each job that fits some machine there for its whole duration
        (lowest-index machine first), until the list is empty. Jobs may start in the gaps
        of earlier plans (backfilling). Only machines with a breakpoint at a time can take
        a job that did not fit before (usage on a window only changes when its left end
        crosses one)."""
        pending = [int(j) for j in order]
        t = float(start)
        machines: list[int] | None = None  # all at the first time
        while pending:
            pending = self.place_in_order(pending, t, machines)
            if pending:
                t_next = self.profiles.next_breakpoint(t)
                if not math.isfinite(t_next):
                    raise RuntimeError(f"list scheduling stalled at {t}: job {pending[0]} "
                                       f"fits no machine even when empty")
                t = t_next
                machines = self.profiles.changes_at(t)

    def free_now(self, i: int) -> np.ndarray:
        """Machine ``i``'s free resources at the current time."""
        return self.machines.capacity[i] - self.usage_at(i, self.t)

    def place(self, j: int, i: int, start: float | None = None) -> None:
        """Start job ``j`` on machine ``i`` at ``start`` >= now (default now)."""
        s = self.t if start is None else float(start)
        if not math.isnan(self.decided[j]):
            raise RuntimeError(f"policy error: job {j} is placed twice")
        if s < self.t or s < self.arrival[j]:
            raise RuntimeError(f"policy error: job {j} placed at {s} before now ({self.t}) "
                               f"or its release ({self.arrival[j]})")
        if not self.fits(j, i, s):
            raise RuntimeError(f"policy error: job {j} does not fit machine {i} at {s}")
        self.profiles.add(i, s, float(self.processing[j]), self.demand[j])
        self.start[j], self.machine[j], self.decided[j] = s, i, self.t
        self.queue.remove(j)
        self.placed += 1
        heapq.heappush(self._completions, (s + float(self.processing[j]), i))
