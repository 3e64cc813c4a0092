"""The event loop of FL24's non-preemptive model (Sec. 3), shared by its policies.

N jobs (release r_j, processing time p_j, weight w_j, demand vector d_j) on M machines.
A policy acts at decision times: every release, every completion of a placed job, and
the wake-up times it asks for (:meth:`NonPreemptivePolicy.next_wakeup`; MRIS wakes at
gamma_k, CA-PQ at the last release). At a decision time t it may place released jobs on
a machine at any start S_j >= t (now, or planned ahead), provided the job fits the
machine's resource-over-time profile during [S_j, S_j + p_j) (:class:`ScheduleState`).
Once placed a job never moves (non-preemptive: it runs once, uninterrupted, for exactly
p_j). The run ends when every job is placed; C_j = S_j + p_j.
"""

from __future__ import annotations

import heapq
import math
import time
from typing import Any

import numpy as np

from policies.nonpreemptive.profile import MachineProfiles
from policies.nonpreemptive.result import NonPreemptiveResult
from policies.nonpreemptive.times import require_resolved
from theory.fractional_flowtime import check_k
from theory.job_sets import JobSet, Machines, check_fits
from theory.progress import Progress

__all__ = ["NonPreemptivePolicy", "ScheduleState", "run_nonpreemptive", "list_schedule",
           "check_instance"]


class ScheduleState:
    """What a policy sees at decision time ``t`` and how it acts.

    ``queue``: released, unplaced jobs in release order (ties: index). ``arrived_now``:
    the jobs released at ``t``; ``freed_now``: machines where a job completed at ``t``.
    Job data: ``arrival``, ``processing``, ``weight``, ``demand`` (N, R), ``total_demand``
    u_j = sum_l d_jl / c_l and ``volume`` v_j = p_j u_j (FL24 Sec. 5.1, demands as
    fractions of a machine).
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


class NonPreemptivePolicy:
    """Base class: the hooks the engine calls (override ``decide``)."""

    #: registry name
    name: str = "custom"
    #: ``decide`` acts only at the times ``next_wakeup`` names, and only through
    #: :meth:`ScheduleState.list_schedule` (MRIS, CA-PQ): the compiled engine then jumps
    #: from wake-up to wake-up (``queue`` holds every released, unplaced job; the
    #: completions in between are not reported) and list-schedules in numba
    wakeup_driven: bool = False

    def reset(self, state: ScheduleState) -> None:
        """Once, before the first decision time."""

    def next_wakeup(self, state: ScheduleState) -> float:
        """A decision time the policy wants after ``state.t`` (inf: none)."""
        return math.inf

    def decide(self, state: ScheduleState) -> None:
        """Place jobs at decision time ``state.t``."""

    def parameters(self) -> dict[str, Any]:
        return {}

    def extra(self) -> dict[str, Any]:
        """Anything the policy recorded during the run, for the result."""
        return {}


def check_instance(jobs: JobSet, machines: Machines) -> None:
    """FL24 Sec. 3 inputs: a job set and machines with the same resources, each job
    fitting some machine (with unit machines, demands in [0, 1])."""
    if not isinstance(jobs, JobSet):
        raise TypeError(f"jobs must be a theory.JobSet, got {type(jobs).__name__}")
    if not isinstance(machines, Machines):
        raise TypeError(f"machines must be a theory.Machines, got {type(machines).__name__}")
    check_fits(jobs, machines)
    for name, a in (("arrival", jobs.arrival), ("processing", jobs.processing),
                    ("weight", jobs.weight)):
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} must be finite (job {int(np.argmin(np.isfinite(a)))})")


def list_schedule(state: ScheduleState, order: list[int] | np.ndarray, start: float) -> None:
    """PRIORITY-QUEUE list scheduling (FL24 Sec. 5.2) of ``order`` from ``start`` on
    ``state``: :meth:`ScheduleState.list_schedule`."""
    state.list_schedule(order, start)


ENGINES = ("auto", "python", "compiled")

#: ``engine="auto"`` runs a job set of at most this many jobs on the Python loop: it
#: takes about 0.2 ms per job, less than loading the numba loop from its cache (~0.2 s)
#: and far less than compiling it on a fresh machine (~15 s); the schedules are the same.
PYTHON_MAX_JOBS = 500


def run_nonpreemptive(policy: NonPreemptivePolicy, jobs: JobSet, machines: Machines, *,
                      check: bool = True, k: float = 2.0,
                      engine: str = "auto") -> NonPreemptiveResult:
    """Run ``policy`` on a finite job set until every job is placed (FL24 Sec. 3).

    ``engine``: ``"auto"`` runs online PRIORITY-QUEUE, TETRIS and BF-EXEC on the numba
    loop (:func:`policies.nonpreemptive._kernel.online_loop`) and wake-up-driven list
    schedulers (MRIS, CA-PQ) on the compiled profiles
    (:class:`policies.nonpreemptive.timeline.TimelineState`), all giving this loop's
    schedule, and everything else (subclasses included) here, as well as every job set
    of at most :data:`PYTHON_MAX_JOBS` jobs (no compilation for a small run);
    ``"python"`` always here; ``"compiled"`` refuses what has no compiled path.

    ``k``: the exponent of the l_k norm of flowtimes the result reports (a finite number
    >= 1); ``check``: run :func:`policies.invariants.check_nonpreemptive_run`. A job set
    whose times float64 does not resolve (a job shorter than 2^20 float spacings at its
    release, or at its completion in the schedule found) is refused with a
    ``ValueError`` naming the job (:mod:`policies.nonpreemptive.times`)."""
    if not isinstance(policy, NonPreemptivePolicy):
        raise TypeError(f"policy must be a NonPreemptivePolicy (policies.make_policy("
                        f"'mris'), ...), got {type(policy).__name__}")
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if not isinstance(check, bool | np.bool_):
        raise TypeError(f"check must be True or False, got {check!r}")
    k = check_k(k)
    check_instance(jobs, machines)
    require_resolved(jobs, jobs.arrival, "its release")
    t0 = time.perf_counter()
    st = ScheduleState(jobs, machines)
    from policies.nonpreemptive.packing import BFExec, Tetris
    from policies.nonpreemptive.priority import PriorityQueue

    compiled = engine == "compiled" or (engine == "auto" and jobs.n > PYTHON_MAX_JOBS)
    if compiled and type(policy) in (PriorityQueue, Tetris, BFExec):
        return _compiled_online(policy, st, t0, check, k)
    if compiled and policy.wakeup_driven:
        return _run_wakeups(policy, jobs, machines, t0, check, k)
    if engine == "compiled":
        raise ValueError(f"the compiled engine runs online PRIORITY-QUEUE (pq-*), TETRIS, "
                         f"BF-EXEC and the wake-up-driven list schedulers (mris*, ca-pq), "
                         f"not {policy.name}")
    order = np.lexsort((np.arange(jobs.n), jobs.arrival))
    policy.reset(st)
    nxt = 0  # next job to release, in ``order``
    st.t = -math.inf
    progress = Progress(f"schedule {policy.name}", jobs.n, unit="jobs placed")
    while st.placed < jobs.n:
        progress.update(st.placed)
        wake = policy.next_wakeup(st)
        t_arr = float(jobs.arrival[order[nxt]]) if nxt < jobs.n else math.inf
        t_done = st._completions[0][0] if st._completions else math.inf
        t = min(t_arr, t_done, wake)
        if not math.isfinite(t):
            raise RuntimeError(f"{policy.name} stalled: {jobs.n - st.placed} job(s) were "
                               f"never placed and no event is left")
        st.t = t
        st.arrived_now = []
        while nxt < jobs.n and jobs.arrival[order[nxt]] <= t:
            j = int(order[nxt])
            st.queue.append(j)
            st.arrived_now.append(j)
            nxt += 1
        st.freed_now = []
        while st._completions and st._completions[0][0] <= t:
            st.freed_now.append(heapq.heappop(st._completions)[1])
        st.profiles.prune(t)
        policy.decide(st)
    return _result(policy, st, t0, check, k, st.start, st.machine, st.decided, "python")


def _run_wakeups(policy: NonPreemptivePolicy, jobs: JobSet, machines: Machines, t0: float,
                 check: bool, k: float) -> NonPreemptiveResult:
    """The event loop for a ``wakeup_driven`` policy on the compiled timeline: only its
    wake-up times are decision times (the same decisions as the full loop, where every
    other event leaves such a policy idle)."""
    from policies.nonpreemptive.timeline import TimelineState

    st = TimelineState(jobs, machines)
    st.track_completions = False
    order = np.lexsort((np.arange(jobs.n), jobs.arrival))
    released = jobs.arrival[order]
    policy.reset(st)
    st.t = -math.inf
    nxt = 0
    progress = Progress(f"schedule {policy.name}", jobs.n, unit="jobs placed")
    while st.placed < jobs.n:
        progress.update(st.placed)
        t = policy.next_wakeup(st)
        if not math.isfinite(t) or t < st.t:
            raise RuntimeError(f"{policy.name} stalled: {jobs.n - st.placed} job(s) were "
                               f"never placed and it wakes up at {t} (now {st.t})")
        st.t = t
        k_rel = int(np.searchsorted(released, t, side="right"))
        st.arrived_now = order[nxt:k_rel].tolist()
        nxt = k_rel
        q = order[:k_rel]
        st.queue = q[np.isnan(st.decided[q])].tolist()
        st.freed_now = []
        policy.decide(st)
    return _result(policy, st, t0, check, k, st.start, st.machine, st.decided, "compiled")


def _compiled_online(policy: NonPreemptivePolicy, st: ScheduleState, t0: float,
                     check: bool, k: float) -> NonPreemptiveResult:
    from policies.nonpreemptive import _kernel as K
    from policies.nonpreemptive.packing import Tetris
    from policies.nonpreemptive.priority import PriorityQueue
    from theory.numbers import FEASIBILITY_RTOL

    policy.reset(st)
    n = st.N
    index = np.arange(n)
    release = np.lexsort((index, st.arrival)).astype(np.int64)
    group_end = np.full(n, n, dtype=np.int64)
    if isinstance(policy, PriorityQueue):
        kind, by_rank = K.PQ, np.lexsort((index, policy._key))
    elif isinstance(policy, Tetris):
        _, group, counts = np.unique(st.demand, axis=0, return_inverse=True,
                                     return_counts=True)
        release_pos = np.empty(n, dtype=np.int64)
        release_pos[release] = index
        kind, by_rank = K.TETRIS, np.lexsort((release_pos, st.volume, group.ravel()))
        group_end = np.repeat(np.cumsum(counts), counts).astype(np.int64)
    else:
        kind, by_rank = K.BF_EXEC, np.lexsort((index, st.processing))
    rank = np.empty(n, dtype=np.int64)
    rank[by_rank] = index
    cap = st.machines.capacity
    start, machine, status = K.online_loop(
        kind, release, st.arrival, st.processing, np.ascontiguousarray(st.demand), st.volume,
        rank, group_end, cap, cap * (1.0 + FEASIBILITY_RTOL),
        float(getattr(policy, "eps", 0.0)))
    if status != 0:
        raise RuntimeError(f"{policy.name} stalled: some job was never placed")
    return _result(policy, st, t0, check, k, start, machine, start.copy(), "compiled")


def _result(policy: NonPreemptivePolicy, st: ScheduleState, t0: float, check: bool, k: float,
            start: np.ndarray, machine: np.ndarray, decided: np.ndarray,
            engine: str) -> NonPreemptiveResult:
    # a start may be later than the release: every job must be resolved where it ran
    require_resolved(st.jobs, start + st.jobs.processing, "its completion",
                     hint=f"{policy.name} runs it that late; measure the times from the "
                          f"first release")
    res = NonPreemptiveResult(
        policy=policy.name, jobs=st.jobs, machines=st.machines, start=start,
        machine=machine, decided=decided, k=float(k),
        seconds=time.perf_counter() - t0,
        params={**policy.parameters(), "engine": engine}, extra=policy.extra())
    if check:
        from policies.invariants import check_nonpreemptive_run

        object.__setattr__(res, "invariants", check_nonpreemptive_run(res))
    return res
