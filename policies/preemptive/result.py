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

    Per job (input order): ``completion`` c_j (0 if unfinished), ``flowtime``
    f_j = c_j - a_j, ``fractional`` (eq. (5)), ``waiting`` f_j - p_j, ``preemptions``
    (served in a slot, unfinished and not served in the next) and ``migrations`` (a
    service slot on another set of machines than the previous one). Series over slots
    1..T: ``unfinished_work`` (core-slots of arrived jobs left after the slot),
    ``flowtime_lk_series`` (l_k norm of the flowtimes of the jobs completed so far,
    XLL21 Fig. 2). ``record`` = (job, machine, cores, slot) of every allocation.
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
    stopped: bool
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
    def finished(self) -> np.ndarray:
        return self.completion > 0

    @property
    def flowtime(self) -> np.ndarray:
        """f_j = c_j - a_j (NaN for a job still unfinished when the run stopped)."""
        f = (self.completion - self.jobs.arrival).astype(float)
        f[~self.finished] = np.nan
        return f

    @property
    def waiting(self) -> np.ndarray:
        """f_j - p_j (XLL21 Fig. 4)."""
        return self.flowtime - self.jobs.processing

    @property
    def makespan(self) -> int:
        return int(self.completion.max())

    @property
    def invariants_ok(self) -> bool:
        return bool(self.invariants.get("ok", False))

    def flowtime_lk(self, k: float | None = None) -> float:
        """(sum_j f_j^k)^(1/k) over finished jobs."""
        return lk_norm(self.flowtime[self.finished], self.k if k is None else k)

    def fractional_lk(self) -> float:
        """(sum_j fractional_j)^(1/k): eq. (5) approximates f_j^k job by job."""
        return float(np.sum(self.fractional) ** (1 / self.k))

    def flowtime_lk_series(self) -> np.ndarray:
        """l_k norm of the flowtimes of the jobs completed by each slot 1..T."""
        fin = self.finished
        f = self.flowtime[fin]
        top = float(f.max(initial=1.0))
        acc = np.zeros(self.slots + 1)
        np.add.at(acc, self.completion[fin], (f / top) ** self.k)  # scaled: no overflow
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
        """DESIGN.md's keys for ``packsched schedule``."""
        w = self.jobs.weight
        return {
            "policy": self.policy, "jobs": self.jobs.n, "machines": self.machines.m,
            "k": self.k, "memory": self.memory,
            "completion": self.completion.tolist(),
            "flowtime_lk": self.flowtime_lk(),
            "fractional_flowtime_lk": self.fractional_lk(),
            "weighted_completion": float(np.sum(w * self.completion)),
            "makespan": self.makespan,
            "preemptions": int(self.preemptions.sum()),
            "migrations": int(self.migrations.sum()),
            "unfinished": int((~self.finished).sum()),
            "invariants_ok": self.invariants_ok, "invariants": self.invariants,
            "slots": self.slots, "seconds": self.seconds,
        }

    def __repr__(self) -> str:
        return (f"ScheduleResult({self.policy}, {self.jobs.n} jobs, l_{self.k:g} flowtime "
                f"{self.flowtime_lk():.6g}, makespan {self.makespan}, "
                f"invariants {'ok' if self.invariants_ok else 'VIOLATED'})")
