"""The result of a non-preemptive run (FL24): the schedule and its metrics.

A :class:`~policies.result.RunResult` (the run contract): ``to_frame("jobs")`` has one
row per job (a non-preemptive schedule has no steps of its own).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from policies.invariants import InvariantReport
from policies.result import JobSetResult
from theory.fractional_flowtime import check_k
from theory.job_sets import JobSet, Machines

__all__ = ["NonPreemptiveResult"]


@dataclass(frozen=True, eq=False, repr=False)
class NonPreemptiveResult(JobSetResult, family="fl24-nonpreemptive", frames=("jobs",)):
    """A finished schedule: per job (input order) ``start`` S_j, ``machine``, ``decided``
    (the decision time at which it was placed; S_j >= decided >= r_j), and the metrics
    of FL24 Sec. 7: AWCT (1/N) sum_j w_j C_j, makespan, queueing delays S_j - r_j."""

    policy: str
    jobs: JobSet
    machines: Machines
    start: np.ndarray
    machine: np.ndarray
    decided: np.ndarray
    k: float
    seconds: float
    params: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    invariants: InvariantReport | None = None
    seed: Any = None  # the policies are deterministic

    @property
    def completion(self) -> np.ndarray:
        """C_j = S_j + p_j."""
        return self.start + self.jobs.processing

    @property
    def weighted_completion(self) -> float:
        """sum_j w_j C_j."""
        return float(np.sum(self.jobs.weight * self.completion))

    @property
    def awct(self) -> float:
        """FL24's objective, (1/N) sum_j w_j C_j."""
        return self.weighted_completion / self.jobs.n

    @property
    def makespan(self) -> float:
        return float(np.max(self.completion))

    @property
    def queueing_delay(self) -> np.ndarray:
        """S_j - r_j (FL24 Fig. 5)."""
        return self.start - self.jobs.arrival

    def flowtime_lk(self, k: float | None = None) -> float:
        """(sum_j F_j^k)^(1/k) of the flowtimes F_j = C_j - r_j (``k``: the run's)."""
        kk = self.k if k is None else check_k(k)
        f = self.flowtime
        with np.errstate(over="ignore"):
            total = float(np.sum(f ** kk))
        if math.isfinite(total):
            return float(total ** (1.0 / kk))
        top = float(np.max(f))  # F^k overflows: factor out the largest flowtime
        return top * float(np.sum((f / top) ** kk)) ** (1.0 / kk)

    def family_summary(self) -> dict[str, Any]:
        """The keys of ``packsched schedule`` plus FL24's metrics."""
        d = self.queueing_delay
        return {
            **self.job_set_summary(), "completion": self.completion.tolist(),
            "start": self.start.tolist(), "machine": self.machine.tolist(),
            "flowtime_lk": self.flowtime_lk(),
            "weighted_completion": self.weighted_completion, "awct": self.awct,
            "makespan": self.makespan, "mean_queueing_delay": float(d.mean()),
            "share_not_delayed": float(np.mean(d <= 0)),
            "preemptions": 0, "migrations": 0,
        }

    def frame_columns(self, kind: str) -> dict[str, Any]:
        """``jobs``: id, arrival, processing, weight, machine, decided, start,
        completion, queueing_delay, flowtime."""
        j = self.jobs
        return {"id": j.ids, "arrival": j.arrival, "processing": j.processing,
                "weight": j.weight, "machine": self.machine, "decided": self.decided,
                "start": self.start, "completion": self.completion,
                "queueing_delay": self.queueing_delay, "flowtime": self.flowtime}

    def headline(self) -> str:
        return (f"{self.jobs.n} jobs on {self.machines.m} machine(s), AWCT {self.awct:.6g}, "
                f"makespan {self.makespan:.6g}")
