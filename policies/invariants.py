"""Invariant checks on a finished run (docs/design.md, "Simulation").

Checked from the run's record (start slot and server of every job), independently of
the simulator's internal state:

* no job started before it arrived, or after the horizon;
* no server over capacity at any time (loads rebuilt per server from the record);
* every job accounted for: arrived = waiting + in service + finished, and the
  recorded queue length equals the number of arrived, not yet started jobs in every
  slot (so the queue series is consistent with the schedule);
* non-preemptive jobs never moved: one start and one server per job (by construction
  of the record; the preemptive XLL21 family checks migrations separately).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from policies.step_series import StepSeries
from theory.numbers import FEASIBILITY_RTOL

__all__ = ["InvariantReport", "check_slotted_run", "check_preemptive_run",
           "check_continuous_run", "check_nonpreemptive_run"]


@dataclass(frozen=True)
class InvariantReport:
    """What the invariant checker found in a run's record, in every family.

    Built by the checkers (:func:`check_slotted_run`, :func:`check_continuous_run`,
    ``check_preemptive_run``, ``check_nonpreemptive_run``) and kept by every result as
    ``result.invariants``.

    Parameters
    ----------
    ok : bool
        True when no invariant is violated.
    violations : list of str, optional
        The violations found, each a sentence (the checkers report at most ten).
    max_load_ratio : float or None, optional
        The peak load over capacity of any server where the family measures it
        (NaN when the record was too broken to measure it); None otherwise.
    checked : str, optional
        What was checked, where the checker says so (XLL21: the equations); else "".

    References
    ----------
    docs/design.md, section Invariants.

    Examples
    --------
    >>> from policies import InvariantReport
    >>> r = InvariantReport(False, ["server 0 over capacity: load 1.1 > 1.0"], 1.1)
    >>> r.ok, r.violations
    (False, ['server 0 over capacity: load 1.1 > 1.0'])
    >>> r.as_dict()
    {'ok': False, 'violations': ['server 0 over capacity: load 1.1 > 1.0'],
     'max_load_ratio': 1.1, 'checked': ''}
    """

    ok: bool
    violations: list[str] = field(default_factory=list)
    max_load_ratio: float | None = None
    checked: str = ""

    def as_dict(self) -> dict:
        return {"ok": self.ok, "violations": list(self.violations),
                "max_load_ratio": self.max_load_ratio, "checked": self.checked}


def _steps(x: np.ndarray | StepSeries) -> StepSeries | None:
    """``x`` as a step series (None if it is not one-dimensional)."""
    if isinstance(x, StepSeries):
        return x
    x = np.asarray(x)
    return StepSeries.from_dense(x) if x.ndim == 1 else None


def _stable_order(slot: np.ndarray, server: np.ndarray | None = None) -> np.ndarray:
    """Indices ordered by (server, slot), ties in index order: one in-place sort of int64
    keys packing (server, slot, index) when they fit in 63 bits (a stable argsort costs
    about six times that), a lexsort otherwise."""
    m = slot.shape[0]
    if m == 0:
        return np.zeros(0, np.int64)
    low = max(1, (m - 1).bit_length())
    span = int(slot.max()) + 1
    groups = 1 if server is None else int(server.max()) + 1
    if int(slot.min()) < 0 or groups * span >= 1 << (63 - low):
        return (np.argsort(slot, kind="stable") if server is None
                else np.lexsort((slot, server)))
    key = np.asarray(slot, dtype=np.int64).copy()
    if server is not None:
        key += np.asarray(server, dtype=np.int64) * span
    key <<= low
    key |= np.arange(m, dtype=np.int64)
    key.sort()
    key &= (1 << low) - 1
    return key


def check_slotted_run(
    arrival: np.ndarray, size: np.ndarray, duration: np.ndarray, capacities: np.ndarray,
    slots: int, start: np.ndarray, server: np.ndarray, queue_length: np.ndarray | StepSeries,
    queued_resource: np.ndarray | StepSeries | None = None,
) -> InvariantReport:
    """Check a PG21 slotted run from its record; never raises on violations.

    Rebuilt from the record, independently of the engine's state: no job started
    before it arrived, without arriving, or after the horizon; started jobs and server
    assignments agree; every arrived job is waiting, in service or finished; the
    recorded queue length (and queued resource, when given) equals the arrived, not
    yet started jobs (their total size) at every slot; no server's load exceeds its
    capacity at any slot, beyond the engine's tolerance ``FEASIBILITY_RTOL`` of the
    largest capacity (loads rebuilt per server from the start slots and durations,
    ends before starts).

    Parameters
    ----------
    arrival : numpy.ndarray
        (n,) integer arrival slot of every job.
    size : numpy.ndarray
        (n,) job sizes, in the units of ``capacities``.
    duration : numpy.ndarray
        (n,) service length of every job in slots (>= 1): a job started at slot s holds
        its server in slots s .. s + duration - 1.
    capacities : numpy.ndarray
        (L,) server capacities.
    slots : int
        The horizon T: slots 0 .. T - 1 were simulated.
    start : numpy.ndarray
        (n,) start slot of every job, -1 for a job not started.
    server : numpy.ndarray
        (n,) server of every job, -1 for a job not started.
    queue_length : numpy.ndarray or StepSeries
        The recorded number of waiting jobs after scheduling, one entry per slot (or a
        :class:`~policies.step_series.StepSeries` of length ``slots``).
    queued_resource : numpy.ndarray or StepSeries, optional
        The recorded total size of the waiting jobs, in the same form; not checked
        when None.

    Returns
    -------
    InvariantReport
        ``ok``, at most a few ``violations`` (sentences) and ``max_load_ratio``, the
        peak load over capacity of any server (NaN when starts and servers disagree).

    References
    ----------
    PG21, Sec. II, eq. (1) (no server over capacity) and eq. (3) (the queue
    evolution); docs/design.md, section Invariants.

    Examples
    --------
    One server of capacity 1; job 1 arrives in slot 1 but fits only when job 0 (two
    slots of service) has left.

    >>> import numpy as np
    >>> from policies import check_slotted_run
    >>> arrival, size, duration = np.array([0, 1]), np.array([0.6, 0.5]), np.array([2, 1])
    >>> cap = np.array([1.0])
    >>> check_slotted_run(arrival, size, duration, cap, 4, np.array([0, 2]),
    ...                   np.array([0, 0]), np.array([0, 1, 0, 0]))
    InvariantReport(ok=True, violations=[], max_load_ratio=0.6, checked='')

    A record that starts job 1 in slot 1 overfills the server:

    >>> r = check_slotted_run(arrival, size, duration, cap, 4, np.array([0, 1]),
    ...                       np.array([0, 0]), np.array([0, 0, 0, 0]))
    >>> r.ok, r.violations, r.max_load_ratio
    (False, ['server 0 over capacity: load 1.1 > 1.0'], 1.1)
    """
    bad: list[str] = []
    n = arrival.shape[0]
    L = capacities.shape[0]
    arrived = arrival < slots
    started = start >= 0
    if np.any(started & ~arrived):
        bad.append("a job started without arriving")
    if np.any(started & (start < arrival)):
        bad.append("a job started before it arrived")
    if np.any(start >= slots):
        bad.append("a job started after the horizon")
    if np.any(started != (server >= 0)) or np.any(server >= L):
        bad.append("started jobs and server assignments disagree")
        return InvariantReport(False, bad, float("nan"))
    finished = started & (start + duration <= slots)
    in_service = started & ~finished
    waiting = arrived & ~started
    if int(arrived.sum()) != int(waiting.sum() + in_service.sum() + finished.sum()):
        bad.append("arrived != waiting + in service + finished")
    # queue series rebuilt from the record: arrived by t minus started by t, compared
    # with the recorded series at every slot where either may move (an arrival, a start
    # or a record), in one compiled merge: O(n log n + records), no per-slot arrays (a
    # million jobs on 5 servers span 22 million slots)
    from policies import _invariant_sweeps as sweeps  # numba: imported when a check runs

    in_window = started & (start < slots)
    ql = _steps(queue_length)
    qr = None if queued_resource is None else _steps(queued_resource)
    if ql is None or len(ql) != slots or (queued_resource is not None
                                          and (qr is None or len(qr) != slots)):
        bad.append("the queue-length series disagrees with the schedule (its length)")
    elif slots > 0:
        a_t, a_s = arrival[arrived], size[arrived]
        if a_t.size > 1 and np.any(a_t[1:] < a_t[:-1]):
            o = _stable_order(a_t)
            a_t, a_s = a_t[o], a_s[o]
        s_t = start[in_window]
        o = _stable_order(s_t)
        rec_at = np.ascontiguousarray(ql.at, dtype=np.int64)
        if qr is not None and not np.array_equal(qr.at, ql.at):
            both = np.union1d(ql.at, qr.at)  # a caller's own series, recorded apart
            ql = StepSeries(both, ql.value_at(both), ql.length)
            qr = StepSeries(both, qr.value_at(both), qr.length)
            rec_at = both.astype(np.int64)
        q_ok, r_ok, _ = sweeps.queue_sweep(
            np.ascontiguousarray(a_t, dtype=np.int64), np.ascontiguousarray(a_s, np.float64),
            np.ascontiguousarray(s_t[o], dtype=np.int64),
            np.ascontiguousarray(size[in_window][o], np.float64), rec_at,
            np.ascontiguousarray(ql.values, np.float64),
            np.ascontiguousarray(qr.values if qr is not None else np.zeros(0), np.float64),
            qr is not None)
        if not q_ok:
            bad.append("the queue-length series disagrees with the schedule")
        elif ql.last != waiting.sum():
            bad.append("final queue != jobs waiting")
        if not r_ok:
            bad.append("the queued-resource series disagrees with the schedule")
    # capacity: per server, sweep start (+) and end (-) events; ends before starts
    worst = 0.0
    idx = np.flatnonzero(started)
    if idx.size:
        srv = np.ascontiguousarray(server[idx], dtype=np.int64)
        beg = np.ascontiguousarray(start[idx], dtype=np.int64)
        end = beg + np.asarray(duration[idx], dtype=np.int64)
        peaks, counts = sweeps.capacity_peaks(
            srv, beg, end, np.ascontiguousarray(size[idx], np.float64),
            _stable_order(beg, srv), _stable_order(end, srv), L)
        cap = np.asarray(capacities, np.float64)
        worst = float(np.max(peaks / cap))
        over = np.flatnonzero(peaks > cap + FEASIBILITY_RTOL * cap.max() + 2e-15 * counts)
        if over.size:
            i = int(over[0])
            bad.append(f"server {i} over capacity: load {float(peaks[i])!r} > {float(cap[i])!r}")
    del n
    return InvariantReport(not bad, bad, worst)


#: what :func:`check_preemptive_run` checks (XLL21 equation numbers)
PREEMPTIVE_CHECKED = ("cores (4b), demand (2), arrival and completion windows, volume (1)")


def check_preemptive_run(res: Any) -> InvariantReport:
    """Invariants of an XLL21-family run (:class:`policies.preemptive.ScheduleResult`),
    rebuilt from its record of (job, machine, cores, slot):

    * no machine given more than C_i cores in a slot (eq. (4b)); no job more than d_j
      (eq. (2)); cores are non-negative integers;
    * nothing served in a slot <= a_j, or after the job's completion slot c_j;
    * a job with a predecessor (``after``) is served only after it completed;
    * a finished job's served cores sum to at least d_j p_j, and to less before c_j (it
      completes in the first slot its volume is done, eq. (1)); an unfinished job has
      less than d_j p_j.

    (Memory, eq. (4c), is checked slot by slot when the allocation is applied.)
    """
    jobs, C = res.jobs, res.machines.capacity[:, 0]
    job, machine, cores, slot = res.record
    bad: list[str] = []
    if cores.size and cores.min() < 0:
        bad.append("negative cores")
    T, M, N = res.slots, res.machines.m, jobs.n
    if slot.size and (slot.min() < 1 or slot.max() > T or machine.min() < 0
                      or machine.max() >= M or job.min() < 0 or job.max() >= N):
        return InvariantReport(False, ["record outside slots 1..T, the machines or the "
                                       "jobs"], checked=PREEMPTIVE_CHECKED)
    # sparse over the (slot, machine) pairs served: a run may skip long empty spells
    cell, at = np.unique(slot * M + machine, return_inverse=True)
    per_cell = np.zeros(cell.size)
    np.add.at(per_cell, at, cores)
    over = np.flatnonzero(per_cell > C[cell % M])
    if over.size:
        t, i = divmod(int(cell[over[0]]), M)
        bad.append(f"slot {t}: machine {i} holds {per_cell[over[0]]:g} cores of {C[i]:g}")
    key = slot * N + job
    uniq, inv = np.unique(key, return_inverse=True)
    per_job_slot = np.zeros(uniq.size)
    np.add.at(per_job_slot, inv, cores)
    d = jobs.demand[:, 0]
    d_told = d if res.declared is None else res.declared[:, 0]
    jj = uniq % N
    if np.any(per_job_slot > d_told[jj]):
        r = int(np.argmax(per_job_slot - d_told[jj]))
        bad.append(f"slot {uniq[r] // N}: job {jj[r]} given {per_job_slot[r]:g} cores, "
                   f"demand {d_told[jj[r]]:g}")
    useful = np.minimum(per_job_slot, d[jj])  # a job uses at most d_j cores (eq. (2))
    early = slot <= jobs.arrival[job]
    if np.any(early):
        r = int(np.argmax(early))
        bad.append(f"job {job[r]} served in slot {slot[r]}, it arrived at "
                   f"{jobs.arrival[job[r]]:g}")
    fin = np.isfinite(res.completion)
    late = fin[job] & (slot > res.completion[job])
    if np.any(late):
        r = int(np.argmax(late))
        bad.append(f"job {job[r]} served in slot {slot[r]} after completing in "
                   f"{int(res.completion[job[r]])}")
    if res.after is not None:
        pr = res.after[job]
        has = pr >= 0
        done_at = np.where(fin[pr], res.completion[pr], T + 1)
        early_succ = has & (slot <= done_at)
        if np.any(early_succ):
            r = int(np.argmax(early_succ))
            bad.append(f"job {job[r]} served in slot {slot[r]} before its predecessor "
                       f"{pr[r]} completed")
    need = jobs.processing * d
    total = np.zeros(N)
    np.add.at(total, jj, useful)
    before = np.zeros(N)
    slot_of = uniq // N
    np.add.at(before, jj, np.where(slot_of < res.completion[jj], useful, 0))
    short = fin & (total < need)
    if np.any(short):
        bad.append(f"job {int(np.argmax(short))} marked complete with "
                   f"{total[np.argmax(short)]:g} of {need[np.argmax(short)]:g} core-slots")
    slow = fin & (before >= need)
    if np.any(slow):
        bad.append(f"job {int(np.argmax(slow))} had its volume before its completion slot")
    if np.any(~fin & (total >= need)):
        bad.append(f"job {int(np.argmax(~fin & (total >= need)))} has its volume but no "
                   f"completion")
    if res.stopped != bool(np.any(~fin)):
        bad.append(f"status {res.status!r} with {int(np.sum(~fin))} job(s) unfinished")
    return InvariantReport(not bad, bad[:10], checked=PREEMPTIVE_CHECKED)


def _capacity_sweep(intervals: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                    capacity: np.ndarray) -> tuple[list[str], float]:
    """Peak load of every server and resource from (start, end, server, demand rows)
    intervals; ends before starts at equal times."""
    st = np.concatenate([x[0] for x in intervals])
    en = np.concatenate([x[1] for x in intervals])
    srv = np.concatenate([x[2] for x in intervals]).astype(np.int64)
    dem = np.concatenate([x[3] for x in intervals])
    if st.size == 0:
        return [], 0.0
    t_ev = np.concatenate([st, en])
    kind = np.concatenate([np.ones(st.size, np.int8), np.zeros(st.size, np.int8)])
    s_ev = np.concatenate([srv, srv])
    delta = np.concatenate([dem, -dem])
    order = np.lexsort((kind, t_ev, s_ev))
    s_ev, delta = s_ev[order], delta[order]
    cuts = np.flatnonzero(np.diff(s_ev)) + 1
    worst = 0.0
    for seg_s, seg_d in zip(np.split(s_ev, cuts), np.split(delta, cuts), strict=True):
        cap = capacity[seg_s[0]]
        peak = np.max(np.cumsum(seg_d, axis=0), axis=0)
        worst = max(worst, float(np.max(peak / cap)))
        tol = FEASIBILITY_RTOL * cap + 1e-12 * cap * seg_d.shape[0]
        if np.any(peak > cap + tol):
            return [f"server {int(seg_s[0])} over capacity: peak load {peak.tolist()} > "
                    f"{cap.tolist()}"], worst
    return [], worst


def check_continuous_run(res: Any, types: Any, cluster: Any, service: np.ndarray,
                         *, served: int) -> InvariantReport:
    """Check a PG18 continuous-time run from its record; never raises on violations.

    No job started before it arrived or after the horizon; real jobs held their server
    exactly their service time; no server over capacity in any resource at any time,
    real and dummy jobs together; the sampled queue equals arrived minus started; every
    job accounted for; the engine's count of served jobs equals the real jobs started
    (dummy jobs are never counted as served work).

    Parameters
    ----------
    res : ContinuousResult
        The finished run (:func:`policies.simulate_continuous`), whose record is
        checked: arrival, start, server, finish and type of every job, the sampled
        queue and the log of dummy jobs.
    types : JobTypes
        The job types of the run (their demand vectors).
    cluster : theory.Cluster
        The servers the run used (their capacity in every resource).
    service : numpy.ndarray
        The service time of every job of the record (the workload's ``service``, in
        the run's time unit).
    served : int
        The number of jobs the engine counted as served (started real jobs).

    Returns
    -------
    InvariantReport
        ``ok``, the ``violations`` and ``max_load_ratio``, the peak load over capacity
        in any server and resource (NaN when starts and servers disagree).

    References
    ----------
    PG18, Sec. II (the queueing dynamics and non-preemptive service); docs/design.md,
    section Invariants.

    Examples
    --------
    >>> import policies, theory
    >>> types = policies.JobTypes([[2], [5]], mu=[1, 1])
    >>> w = policies.poisson_type_workload(types, [0.5, 0.5], 20.0, seed=0)
    >>> cl = theory.Cluster.identical(2, 10)
    >>> r = policies.simulate_continuous(policies.make_policy("bf"), w, cl, types,
    ...                                  samples=50, engine="python")
    >>> started = int((r.server >= 0).sum())
    >>> policies.check_continuous_run(r, types, cl, w.service, served=started).ok
    True
    >>> policies.check_continuous_run(r, types, cl, w.service, served=0).violations
    ['the engine counted 0 served jobs but 22 real jobs started
      (dummy jobs counted as served work?)']
    """
    bad: list[str] = []
    T = res.horizon
    arrival, start, server = res.arrival, res.start, res.server
    finish, jt = res.finish, res.job_type
    cap = cluster.capacity
    sizes = types.sizes
    started = server >= 0
    if np.any(np.isnan(start) == started):
        bad.append("start times and server assignments disagree")
        return InvariantReport(False, bad, float("nan"))
    if np.any(start[started] < arrival[started]):
        bad.append("a job started before it arrived")
    if np.any(start[started] >= T):
        bad.append("a job started after the horizon")
    done = ~np.isnan(finish)
    if np.any(done & ~started):
        bad.append("a job finished without starting")
    expect = start[done] + service[done]
    if np.any(np.abs(finish[done] - expect) > 1e-9 * np.maximum(1.0, np.abs(expect))):
        bad.append("a job did not hold its server for exactly its service time")
    if np.any(started & ~done & (start + service < T * (1 - 1e-12))):
        bad.append("a job due before the horizon never finished")
    if served != int(started.sum()):
        bad.append(f"the engine counted {served} served jobs but {int(started.sum())} real "
                   "jobs started (dummy jobs counted as served work?)")
    waiting, in_service = int((~started).sum()), int((started & ~done).sum())
    if arrival.size != waiting + in_service + int(done.sum()):
        bad.append("arrived != waiting + in service + finished")
    g = res.sample_time
    arr_by = np.searchsorted(arrival, g, side="right")
    st_by = np.searchsorted(np.sort(start[started]), g, side="right")
    if np.any(res.queue != arr_by - st_by):
        bad.append("the sampled queue disagrees with the record (arrived - started)")
    real = np.flatnonzero(started)
    dl = res.dummy_log
    d_srv, d_typ = dl[:, 2].astype(np.int64), dl[:, 3].astype(np.int64)
    more, worst = _capacity_sweep(
        [(start[real], np.where(done[real], finish[real], T), server[real], sizes[jt[real]]),
         (dl[:, 0], dl[:, 1], d_srv, sizes[d_typ])], cap)
    bad += more
    return InvariantReport(not bad, bad, worst)


def check_nonpreemptive_run(res: Any) -> InvariantReport:
    """FL24 Sec. 3, from the schedule alone (``policies.nonpreemptive`` result), never
    sharing the engine's rounding (docs/design.md, "Numbers and exactness"):

    * every job placed exactly once on a real machine;
    * r_j <= decided_j <= S_j (placed at a decision time after its release, never started
      in the past of that decision): comparisons of the recorded floats, exact;
    * job j holds its machine on [S_j, C_j), C_j = fl(S_j + p_j) the float the engine
      adds, and C_j - S_j equals p_j to a relative 2^-21 (the engine's time resolution,
      :mod:`policies.nonpreemptive.times`): the rounding error of S_j + p_j is computed
      exactly (Knuth's error-free TwoSum), so a job past float resolution (S_j = 1e17,
      p_j = 1: C_j = S_j) is caught;
    * no machine over capacity in any resource at any time (ends before starts at equal
      times): the exact sum of the running jobs' demands is at most capacity
      (1 + FEASIBILITY_RTOL), the engine's documented tolerance, plus n 2^-52 of it with
      n jobs running (the engine's own float summation error); decided in integers on
      the demands rounded down and up to a binary grid, and in fractions where those
      two bounds disagree (:func:`_exact_capacity`).
    """
    from policies.nonpreemptive.times import RESOLUTION_BITS

    jobs, machines = res.jobs, res.machines
    start: np.ndarray = np.asarray(res.start, dtype=np.float64)
    machine: np.ndarray = np.asarray(res.machine)
    decided: np.ndarray = np.asarray(res.decided, dtype=np.float64)
    bad: list[str] = []
    unplaced = np.flatnonzero(~np.isfinite(start) | (machine < 0) | (machine >= machines.m))
    if unplaced.size:
        bad.append(f"{unplaced.size} job(s) not placed on a machine, e.g. job "
                   f"{int(unplaced[0])}")
        return InvariantReport(False, bad)
    early = np.flatnonzero(~(decided >= jobs.arrival) | ~(start >= decided))
    if early.size:
        j = int(early[0])
        bad.append(f"job {j} released at {float(jobs.arrival[j])!r} was decided at "
                   f"{float(decided[j])!r} and starts at {float(start[j])!r} (need r_j <= "
                   f"decision <= S_j)")
    p = jobs.processing
    with np.errstate(over="ignore", invalid="ignore"):
        comp = start + p  # C_j as the engine adds it
        back = comp - start  # TwoSum: start + p = comp + err exactly
        err = (start - (comp - back)) + (p - back)
        held = np.abs(err) <= np.ldexp(p, -(RESOLUTION_BITS + 1))
    off = np.flatnonzero(~held | ~np.isfinite(comp))
    if off.size:
        j = int(off[0])
        bad.append(f"job {j} holds its machine on [S_j, C_j) = [{float(start[j])!r}, "
                   f"{float(comp[j])!r}), not for its processing time {float(p[j])!r} "
                   f"(float64 does not resolve S_j + p_j there; {off.size} job(s))")
    over, worst = _exact_capacity(start, comp, np.asarray(machine, dtype=np.int64),
                                  jobs.demand, machines.capacity)
    return InvariantReport(not (bad or over), bad + over, worst)


def _exact_capacity(start: np.ndarray, end: np.ndarray, machine: np.ndarray,
                    demand: np.ndarray, capacity: np.ndarray) -> tuple[list[str], float]:
    """Exact capacity check of the intervals [start, end) on their machines (see
    :func:`check_nonpreemptive_run`); returns (violations, peak load / capacity).

    Loads are taken after the last event of each machine and time (ends first at equal
    times): the jobs with S_j <= t < C_j. Per resource the demands are rounded down and
    up to integer multiples of 2^-K (K puts twice the largest load at 2^59; a float
    running sum, whose drift is bounded, gives that load), and the running jobs' sums of
    the two are int64 cumulative sums, exact: lo <= 2^K load <= hi. A load is over the
    limit when lo is above it, within when hi is not, beyond a 2^-48 relative band that
    covers the float rounding of the limit and of lo and hi; inside that band (a load
    within about 1e-14 of the limit) the running jobs' demands are summed as
    fractions."""
    from fractions import Fraction

    keep = np.flatnonzero(end > start)  # an empty interval holds nothing
    start, end, machine, demand = start[keep], end[keep], machine[keep], demand[keep]
    n, R = demand.shape
    if n == 0:
        return [], 0.0
    limit = capacity * (1.0 + FEASIBILITY_RTOL)  # the float the engine compares with
    t_ev = np.concatenate([start, end])
    kind = np.concatenate([np.ones(n, np.int8), np.zeros(n, np.int8)])  # ends first
    m_ev = np.concatenate([machine, machine])
    order = np.lexsort((kind, t_ev, m_ev))
    t_at, m_at = t_ev[order], m_ev[order]
    job = np.concatenate([np.arange(n), np.arange(n)])[order]
    sign = np.where(kind[order] == 1, 1, -1).astype(np.int64)
    last = np.ones(2 * n, dtype=bool)  # the last event of its machine and time
    last[:-1] = (m_at[1:] != m_at[:-1]) | (t_at[1:] != t_at[:-1])
    at = np.flatnonzero(last)
    running = np.cumsum(sign)[at]  # each machine's block returns to 0 at its end
    mach_at, time_at = m_at[at], t_at[at]
    band = 2.0 ** -48
    worst = 0.0
    for r in range(R):
        d = demand[:, r]
        est = float(np.max(np.cumsum(sign * d[job])))
        drift = 8 * n * 2.0 ** -53 * float(np.sum(d))  # bounds |float - exact| partial sums
        top = 2 * max(est + drift, float(np.max(limit[:, r])), 1e-300)
        K = 59 - math.ceil(math.log2(top))
        scaled = np.ldexp(d, K)  # exact, unless below the normal range (then hi >= 1)
        lo = np.cumsum(sign * np.floor(scaled).astype(np.int64)[job])[at].astype(np.float64)
        hi = np.cumsum(sign * np.where(d > 0, np.maximum(np.ceil(scaled), 1), 0)
                       .astype(np.int64)[job])[at].astype(np.float64)
        # the limit with the engine's summation slack, n 2^-52 of it for n running jobs
        T = np.ldexp(limit[mach_at, r], K) * (1.0 + running * 2.0 ** -52)
        worst = max(worst, float(np.max(np.ldexp(lo, -K) / capacity[mach_at, r])))
        sure = np.flatnonzero(lo > T * (1 + band) + 1)
        if not sure.size:
            for e in np.flatnonzero(~(hi <= T * (1 - band) - 1)).tolist():
                on = _running_at(start, end, machine, int(mach_at[e]), float(time_at[e]))
                exact = sum((Fraction(x) for x in d[on].tolist()), Fraction(0))
                allowed = Fraction(float(limit[mach_at[e], r])) * (1 + Fraction(on.size,
                                                                                2**52))
                if exact > allowed:
                    sure = np.array([e])
                    break
        if sure.size:
            e = int(sure[0])
            i, t = int(mach_at[e]), float(time_at[e])
            on = _running_at(start, end, machine, i, t)
            return [f"server {i} over capacity in resource {r} at time {t!r}: load "
                    f"{math.fsum(d[on].tolist())!r} > {float(capacity[i, r])!r} "
                    f"({on.size} jobs running)"], worst
    return [], worst


def _running_at(start: np.ndarray, end: np.ndarray, machine: np.ndarray, i: int,
                t: float) -> np.ndarray:
    """The jobs running on machine ``i`` at time ``t``: S_j <= t < C_j."""
    return np.flatnonzero((machine == i) & (start <= t) & (end > t))
