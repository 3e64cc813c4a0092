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

from theory.numbers import FEASIBILITY_RTOL

__all__ = ["InvariantReport", "check_slotted_run"]


@dataclass(frozen=True)
class InvariantReport:
    ok: bool
    violations: list[str] = field(default_factory=list)
    max_load_ratio: float = 0.0

    def as_dict(self) -> dict:
        return {"ok": self.ok, "violations": list(self.violations),
                "max_load_ratio": self.max_load_ratio}


def check_slotted_run(
    arrival: np.ndarray, size: np.ndarray, duration: np.ndarray, capacities: np.ndarray,
    slots: int, start: np.ndarray, server: np.ndarray, queue_length: np.ndarray,
    queued_resource: np.ndarray | None = None,
) -> InvariantReport:
    """Check a PG21 slotted run (see the module docstring); never raises on violations."""
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
    # queue series rebuilt from the record: arrived by t minus started by t
    arr_by = np.cumsum(np.bincount(arrival[arrived], minlength=slots)[:slots])
    st_by = np.cumsum(np.bincount(start[started], minlength=slots)[:slots])
    if queue_length.shape != (slots,) or np.any(queue_length != arr_by - st_by):
        bad.append("the queue-length series disagrees with the schedule")
    elif queue_length[-1:].sum() != waiting.sum():
        bad.append("final queue != jobs waiting")
    if queued_resource is not None and slots > 0:
        a = np.bincount(arrival[arrived], weights=size[arrived], minlength=slots)[:slots]
        s = np.bincount(start[started], weights=size[started], minlength=slots)[:slots]
        ref = np.cumsum(a - s)
        scale = np.cumsum(a + s) * 1e-12 + 1e-12
        if np.any(np.abs(ref - queued_resource) > scale):
            bad.append("the queued-resource series disagrees with the schedule")
    # capacity: per server, sweep start (+) and end (-) events; ends before starts
    worst = 0.0
    idx = np.flatnonzero(started)
    if idx.size:
        srv = server[idx]
        ends = start[idx] + duration[idx]
        t_ev = np.concatenate([start[idx], ends])
        kind = np.concatenate([np.ones(idx.size, np.int8), np.zeros(idx.size, np.int8)])
        delta = np.concatenate([size[idx], -size[idx]])
        s_ev = np.concatenate([srv, srv])
        order = np.lexsort((kind, t_ev, s_ev))
        s_ev, delta = s_ev[order], delta[order]
        cuts = np.flatnonzero(np.diff(s_ev)) + 1
        for seg_s, seg_d in zip(np.split(s_ev, cuts), np.split(delta, cuts), strict=True):
            cap = capacities[seg_s[0]]
            peak = float(np.max(np.cumsum(seg_d)))
            worst = max(worst, peak / cap)
            tol = FEASIBILITY_RTOL * capacities.max() + 1e-15 * seg_d.size
            if peak > cap + tol:
                bad.append(f"server {int(seg_s[0])} over capacity: load {peak!r} > {cap!r}")
                break
    del n
    return InvariantReport(not bad, bad, worst)
