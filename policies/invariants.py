"""Invariant checks on a finished run (DESIGN.md, "Simulation").

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

from dataclasses import dataclass, field

import numpy as np

from policies.step_series import StepSeries
from theory.numbers import FEASIBILITY_RTOL

__all__ = ["InvariantReport", "check_slotted_run", "check_preemptive_run",
           "check_continuous_run", "check_nonpreemptive_run"]


@dataclass(frozen=True)
class InvariantReport:
    ok: bool
    violations: list[str] = field(default_factory=list)
    max_load_ratio: float = 0.0

    def as_dict(self) -> dict:
        return {"ok": self.ok, "violations": list(self.violations),
                "max_load_ratio": self.max_load_ratio}


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
    """Check a PG21 slotted run (see the module docstring); never raises on violations.

    The series are one entry per slot or :class:`~policies.step_series.StepSeries`."""
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


def check_preemptive_run(res: object) -> dict:
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
    from policies.preemptive.result import ScheduleResult

    assert isinstance(res, ScheduleResult)
    jobs, C = res.jobs, res.machines.capacity[:, 0]
    job, machine, cores, slot = res.record
    bad: list[str] = []
    if cores.size and cores.min() < 0:
        bad.append("negative cores")
    T, M, N = res.slots, res.machines.m, jobs.n
    if slot.size and (slot.min() < 1 or slot.max() > T or machine.min() < 0
                      or machine.max() >= M or job.min() < 0 or job.max() >= N):
        return {"ok": False, "violations": ["record outside slots 1..T, the machines or "
                                            "the jobs"]}
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
    return {"ok": not bad, "violations": bad[:10], "checked": "cores (4b), demand (2), "
            "arrival and completion windows, volume (1)"}


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


def check_continuous_run(res: object, types: object, cluster: object, service: np.ndarray,
                         *, served: int) -> InvariantReport:
    """Check a PG18 continuous-time run from its record (never raises on violations):
    no job started before it arrived or after the horizon; real jobs held their server
    exactly their service time; no server over capacity in any resource at any time,
    real and dummy jobs together; the sampled queue equals arrived minus started; every
    job accounted for; the engine's count of served jobs equals the real jobs started
    (dummy jobs are never counted as served work)."""
    bad: list[str] = []
    T = res.horizon  # type: ignore[attr-defined]
    arrival, start, server = res.arrival, res.start, res.server  # type: ignore[attr-defined]
    finish, jt = res.finish, res.job_type  # type: ignore[attr-defined]
    cap = cluster.capacity  # type: ignore[attr-defined]
    sizes = types.sizes  # type: ignore[attr-defined]
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
    g = res.sample_time  # type: ignore[attr-defined]
    arr_by = np.searchsorted(arrival, g, side="right")
    st_by = np.searchsorted(np.sort(start[started]), g, side="right")
    if np.any(res.queue != arr_by - st_by):  # type: ignore[attr-defined]
        bad.append("the sampled queue disagrees with the record (arrived - started)")
    real = np.flatnonzero(started)
    dl = res.dummy_log  # type: ignore[attr-defined]
    d_srv, d_typ = dl[:, 2].astype(np.int64), dl[:, 3].astype(np.int64)
    more, worst = _capacity_sweep(
        [(start[real], np.where(done[real], finish[real], T), server[real], sizes[jt[real]]),
         (dl[:, 0], dl[:, 1], d_srv, sizes[d_typ])], cap)
    bad += more
    return InvariantReport(not bad, bad, worst)


def check_nonpreemptive_run(res: object) -> InvariantReport:
    """FL24 Sec. 3, from the schedule alone (``policies.nonpreemptive`` result): every
    job placed exactly once on a real machine; r_j <= decided_j <= S_j (placed at a
    decision time after its release, never started in the past of that decision); the
    run is the stored C_j = S_j + p_j (one uninterrupted piece per job); no machine over
    capacity in any resource at any time (ends before starts at equal times)."""
    jobs, machines = res.jobs, res.machines  # type: ignore[attr-defined]
    start: np.ndarray = np.asarray(res.start, dtype=np.float64)  # type: ignore[attr-defined]
    machine: np.ndarray = np.asarray(res.machine)  # type: ignore[attr-defined]
    decided: np.ndarray = np.asarray(res.decided,  # type: ignore[attr-defined]
                                     dtype=np.float64)
    bad: list[str] = []
    unplaced = np.flatnonzero(~np.isfinite(start) | (machine < 0) | (machine >= machines.m))
    if unplaced.size:
        bad.append(f"{unplaced.size} job(s) not placed on a machine, e.g. job "
                   f"{int(unplaced[0])}")
        return InvariantReport(False, bad)
    tol = 1e-12 * max(1.0, float(np.max(np.abs(start))))
    early = np.flatnonzero((decided < jobs.arrival - tol) | (start < decided - tol))
    if early.size:
        j = int(early[0])
        bad.append(f"job {j} released at {jobs.arrival[j]} was decided at {decided[j]} and "
                   f"starts at {start[j]} (need r_j <= decision <= S_j)")
    comp: np.ndarray = np.asarray(res.completion,  # type: ignore[attr-defined]
                                  dtype=np.float64)
    # C_j is the float S_j + p_j: C_j - S_j may differ from p_j by rounding at C_j's
    # magnitude (a relative test on p_j fails for a short job starting late)
    if np.any(np.abs((comp - start) - jobs.processing) > 4 * np.spacing(np.abs(comp))):
        bad.append("a completion time differs from S_j + p_j")
    over, worst = _capacity_sweep([(start, start + jobs.processing, machine, jobs.demand)],
                                  machines.capacity)
    return InvariantReport(not (bad or over), bad + over, worst)
