"""The result of an XLL21-family run: per-job metrics, series over slots, the record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theory.fractional_flowtime import lk_norm
from theory.job_sets import JobSet, Machines

__all__ = ["ScheduleResult"]


@dataclass(frozen=True, eq=False)
class ScheduleResult:
    """One run of a preemptive policy on a finite job set (XLL21 II-A, Sec. VI metrics).

    ``status`` is ``"finished"`` when every job completed, else ``"stopped"`` with
    ``stop_reason``. Per job (input order): ``completion`` c_j (NaN: the job has no
    completion, the run stopped first), ``flowtime``
    f_j = c_j - a_j, ``fractional`` (eq. (5)), ``waiting`` f_j - p_j, ``preemptions``
    (served in a slot, unfinished and not served in the next) and ``migrations`` (a
    service slot on another set of machines than the previous one). Series over slots
    1..T: ``unfinished_work`` (core-slots of arrived jobs left after the slot),
    ``flowtime_lk_series`` (l_k norm of the flowtimes of the jobs completed so far,
    XLL21 Fig. 2). ``record`` = (job, machine, cores, slot) of every allocation.

    Objectives of a stopped run are not known: :meth:`summary` reports them as null
    and gives ``*_lower`` bounds instead (an unfinished job completes in slot
    max(T + 1, a_j + p_j) or later, and its fractional flowtime only grows).
    """

    policy: str
    k: float
    memory: bool
    jobs: JobSet
    machines: Machines
    completion: np.ndarray
    fractional: np.ndarray
    preemptions: np.ndarray
    migrations: np.ndarray
    record: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    unfinished_work: np.ndarray
    seconds: float
    slots: int
    stop_reason: str | None
    after: np.ndarray | None = None
    declared: np.ndarray | None = None
    invariants: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def build(cls, **kw: Any) -> ScheduleResult:
        from policies.invariants import check_preemptive_run

        res = cls(**kw)
        object.__setattr__(res, "invariants", check_preemptive_run(res))
        return res

    @property
    def stopped(self) -> bool:
        return self.stop_reason is not None

    @property
    def status(self) -> str:
        """``"finished"`` (every job completed) or ``"stopped"`` (see ``stop_reason``)."""
        return "stopped" if self.stopped else "finished"

    @property
    def finished(self) -> np.ndarray:
        return np.isfinite(self.completion)

    @property
    def flowtime(self) -> np.ndarray:
        """f_j = c_j - a_j (NaN for a job still unfinished when the run stopped)."""
        return self.completion - self.jobs.arrival

    @property
    def waiting(self) -> np.ndarray:
        """f_j - p_j (XLL21 Fig. 4)."""
        return self.flowtime - self.jobs.processing

    @property
    def makespan(self) -> int | None:
        """max_j c_j, or None when the run stopped with jobs unfinished."""
        return None if self.stopped else int(self.completion.max())

    @property
    def invariants_ok(self) -> bool:
        return bool(self.invariants.get("ok", False))

    def _completion_bound(self) -> np.ndarray:
        """c_j, and max(T + 1, a_j + p_j) (a lower bound) for the jobs unfinished after
        slot T: served from slot a_j + 1, a job needs at least p_j slots (eq. (2))."""
        later = np.maximum(self.slots + 1, self.jobs.arrival + self.jobs.processing)
        return np.where(self.finished, self.completion, later)

    def flowtime_lk(self, k: float | None = None) -> float | None:
        """(sum_j f_j^k)^(1/k); None when the run stopped with jobs unfinished."""
        return None if self.stopped else lk_norm(self.flowtime, self.k if k is None else k)

    def flowtime_lk_lower(self, k: float | None = None) -> float:
        """A lower bound on the l_k flowtime: unfinished jobs complete at T + 1 or later
        (the value itself when the run finished)."""
        return lk_norm(self._completion_bound() - self.jobs.arrival,
                       self.k if k is None else k)

    def fractional_lk(self) -> float | None:
        """(sum_j fractional_j)^(1/k): eq. (5) approximates f_j^k job by job; None when
        the run stopped (an unfinished job's fractional flowtime is still growing)."""
        return None if self.stopped else float(np.sum(self.fractional) ** (1 / self.k))

    def flowtime_lk_series(self) -> np.ndarray:
        """l_k norm of the flowtimes of the jobs completed by each slot 1..T."""
        fin = self.finished
        f = self.flowtime[fin]
        top = float(f.max(initial=1.0))
        acc = np.zeros(self.slots + 1)
        # scaled by the largest flowtime: no overflow
        np.add.at(acc, self.completion[fin].astype(np.int64), (f / top) ** self.k)
        return top * np.cumsum(acc)[1:] ** (1 / self.k)

    def rates(self) -> np.ndarray:
        """Dense y_j(t) = sum_i u_j^i(t) / d_j, shape (N, T) (for small runs)."""
        job, _machine, cores, slot = self.record
        y = np.zeros((self.jobs.n, self.slots))
        np.add.at(y, (job, slot - 1), cores)
        return y / self.jobs.demand[:, [0]]

    def jobs_frame(self):  # noqa: ANN201 - pandas is optional
        """Per-job tidy DataFrame (needs pandas): id, arrival, processing, cores,
        completion, flowtime, fractional, waiting, preemptions, migrations."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("jobs_frame needs pandas: pip install pandas") from e
        return pd.DataFrame({
            "id": self.jobs.ids, "arrival": self.jobs.arrival,
            "processing": self.jobs.processing, "cores": self.jobs.demand[:, 0],
            "completion": self.completion, "flowtime": self.flowtime,
            "fractional": self.fractional, "waiting": self.waiting,
            "preemptions": self.preemptions, "migrations": self.migrations})

    def slots_frame(self):  # noqa: ANN201 - pandas is optional
        """Per-slot tidy DataFrame (needs pandas): slot, unfinished_work, flowtime_lk."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("slots_frame needs pandas: pip install pandas") from e
        return pd.DataFrame({"slot": np.arange(1, self.slots + 1),
                             "unfinished_work": self.unfinished_work[:self.slots],
                             "flowtime_lk": self.flowtime_lk_series()})

    def summary(self) -> dict[str, Any]:
        """DESIGN.md's keys for ``packsched schedule``; objectives over unfinished jobs
        are None, with their ``*_lower`` bounds beside them."""
        w = self.jobs.weight
        bound = self._completion_bound()
        return {
            "policy": self.policy, "jobs": self.jobs.n, "machines": self.machines.m,
            "k": self.k, "memory": self.memory,
            "status": self.status, "stop_reason": self.stop_reason,
            "finished": int(self.finished.sum()),
            "unfinished": int((~self.finished).sum()),
            "completion": [int(c) if np.isfinite(c) else None for c in self.completion],
            "flowtime_lk": self.flowtime_lk(),
            "flowtime_lk_lower": self.flowtime_lk_lower(),
            "fractional_flowtime_lk": self.fractional_lk(),
            "fractional_flowtime_lk_lower": float(np.sum(self.fractional) ** (1 / self.k)),
            "weighted_completion": None if self.stopped else float(np.sum(w * bound)),
            "weighted_completion_lower": float(np.sum(w * bound)),
            "makespan": self.makespan,
            "makespan_lower": int(bound.max()),
            "preemptions": int(self.preemptions.sum()),
            "migrations": int(self.migrations.sum()),
            "invariants_ok": self.invariants_ok, "invariants": self.invariants,
            "slots": self.slots, "seconds": self.seconds,
        }

    def __repr__(self) -> str:
        what = (f"l_{self.k:g} flowtime {self.flowtime_lk():.6g}, makespan {self.makespan}"
                if not self.stopped else
                f"STOPPED after {self.slots} slots, {int((~self.finished).sum())} job(s) "
                f"unfinished")
        return (f"ScheduleResult({self.policy}, {self.jobs.n} jobs, {what}, "
                f"invariants {'ok' if self.invariants_ok else 'VIOLATED'})")
