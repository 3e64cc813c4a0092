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
from dataclasses import replace

import numpy as np

from policies.invariants import check_nonpreemptive_run
from policies.nonpreemptive.policy import NonPreemptivePolicy, OnlineSpec
from policies.nonpreemptive.result import NonPreemptiveResult
from policies.nonpreemptive.state import ScheduleState
from policies.nonpreemptive.times import require_resolved
from policies.policy import require_family
from theory.fractional_flowtime import check_k
from theory.job_sets import JobSet, Machines, check_fits
from theory.progress import Progress

__all__ = ["run_nonpreemptive", "list_schedule", "check_instance"]


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
    """PRIORITY-QUEUE list scheduling (FL24 Sec. 5.2) of ``order`` from ``start``.

    :meth:`ScheduleState.list_schedule` on ``state``: at ``start`` and then at every
    breakpoint of the profiles, the list is scanned in order and each job that fits
    some machine for its whole duration is placed there (lowest-index machine first),
    until the list is empty. Jobs may start in the gaps of earlier plans
    (backfilling), as MRIS's line 6 needs. The jobs must be queued (released, not
    placed) and released by ``start``.

    Parameters
    ----------
    state : ScheduleState
        The schedule so far; the placements are added to it.
    order : list of int or numpy.ndarray
        The jobs, in priority order.
    start : float
        The earliest start time, at least ``state.t``.

    Raises
    ------
    RuntimeError
        A job that fits no machine even when empty, that is already placed, or that
        is released after ``start`` (or ``start`` before ``state.t``).
    ValueError
        A job that is not in ``state.queue``.

    References
    ----------
    FL24, Sec. 5.2 (PRIORITY-QUEUE for makespan) and Sec. 5.3, Algorithm 1, line 6
    (with backfilling).

    Examples
    --------
    Two jobs planned on one machine, then a third listed later starts in the gap
    before the second:

    >>> from policies.nonpreemptive import ScheduleState, list_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0], processing=[4, 2, 3], demand=[[0.6], [0.6], [0.4]])
    >>> st = ScheduleState(jobs, Machines([[1.0]]))
    >>> st.queue = [0, 1, 2]
    >>> list_schedule(st, [0, 1], 0.0)
    >>> st.start.tolist()
    [0.0, 4.0, nan]
    >>> list_schedule(st, [2], 1.0)  # backfilled into [1, 4), beside job 0
    >>> st.start.tolist()
    [0.0, 4.0, 1.0]
    """
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
    ``ValueError`` naming the job (:mod:`policies.nonpreemptive.times`).

    Parameters
    ----------
    policy : NonPreemptivePolicy
        The policy (:func:`policies.make_policy` ``('mris')``, a built-in class or a
        user's subclass).
    jobs : theory.JobSet
        The jobs: release r_j, processing time p_j, weight w_j and demands d_j (finite;
        each job fits some machine).
    machines : theory.Machines
        The machines, with the jobs' resources.
    check : bool, default True
        Re-check the schedule's invariants.
    k : float, default 2.0
        The exponent of the l_k norm of flowtimes in the result, a finite number >= 1.
    engine : {'auto', 'python', 'compiled'}, default 'auto'
        Which loop runs the policy (the schedules are the same).

    Returns
    -------
    NonPreemptiveResult
        The schedule (starts, machines, decision times), its metrics (AWCT, makespan,
        queueing delays) and the invariant report.

    Raises
    ------
    TypeError
        ``policy`` not an FL24-family policy, ``jobs`` not a JobSet, ``machines`` not a
        Machines, or ``check`` not a bool.
    ValueError
        An unknown ``engine``, or ``'compiled'`` for a policy without a compiled path;
        ``k`` not a finite number >= 1; a job that fits no machine or has a non-finite
        release, processing time or weight; times float64 does not resolve; a policy's
        own refusal (MRIS on machines that are not identical).
    theory.budgets.BudgetExceeded
        MRIS's knapsack beyond its table budget (``max_dp_cells``).
    RuntimeError
        A policy that stalls (jobs never placed) or places a job where it may not.

    References
    ----------
    FL24, Sec. 3 (the model and the objective, AWCT) and Sec. 7.1-7.2 (the evaluation
    and its benchmarks); docs/design.md, sections Simulation (The four families) and
    Numbers and exactness (Times of a finite schedule).

    Examples
    --------
    >>> from policies import PriorityQueue, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 2, 2], processing=[4, 2, 3, 3, 3],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.6, 0.2], [0.2, 0.2], [0.6, 0.2]],
    ...               weight=[2, 1, 2, 2, 1])
    >>> machines = Machines([[1.0, 1.0], [1.0, 1.0]])
    >>> r = run_nonpreemptive(PriorityQueue(), jobs, machines)
    >>> r.start.tolist(), r.machine.tolist(), r.awct, r.makespan
    ([0.0, 3.0, 0.0, 2.0, 4.0], [1, 0, 0, 0, 1], 7.2, 7.0)
    >>> r.params, r.invariants_ok
    ({'sort': 'wsjf', 'engine': 'python'}, True)
    """
    require_family(policy, "fl24-nonpreemptive", "policies.make_policy('mris') or a "
                   "policies.NonPreemptivePolicy subclass")
    assert isinstance(policy, NonPreemptivePolicy)
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if not isinstance(check, bool | np.bool_):
        raise TypeError(f"check must be True or False, got {check!r}")
    k = check_k(k)
    check_instance(jobs, machines)
    require_resolved(jobs, jobs.arrival, "its release")
    t0 = time.perf_counter()
    st = ScheduleState(jobs, machines)
    compiled = engine == "compiled" or (engine == "auto" and jobs.n > PYTHON_MAX_JOBS)
    spec = policy.compiled_spec(st) if compiled else None
    if spec is not None:
        return _compiled_online(policy, spec, st, t0, check, k)
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


def _compiled_online(policy: NonPreemptivePolicy, spec: OnlineSpec, st: ScheduleState,
                     t0: float, check: bool, k: float) -> NonPreemptiveResult:
    """The run on the numba online loop, with ``spec`` in place of the policy's hooks."""
    from policies.nonpreemptive import _kernel as K
    from theory.numbers import FEASIBILITY_RTOL

    policy.reset(st)
    release = np.lexsort((np.arange(st.N), st.arrival)).astype(np.int64)
    cap = st.machines.capacity
    start, machine, status = K.online_loop(
        spec.kind, release, st.arrival, st.processing, np.ascontiguousarray(st.demand),
        st.volume, spec.rank, spec.group_end, cap, cap * (1.0 + FEASIBILITY_RTOL), spec.eps)
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
    # the checker reads the schedule of the result it reports on: the result is built
    # again with its report, never changed
    return replace(res, invariants=check_nonpreemptive_run(res)) if check else res
