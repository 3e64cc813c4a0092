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
    """A finished FL24 schedule: starts, machines, decision times, and its metrics.

    Per job (input order) ``start`` S_j, ``machine``, ``decided`` (the decision time
    at which it was placed; S_j >= decided >= r_j), and the metrics of FL24 Sec. 7:
    AWCT (1/N) sum_j w_j C_j, makespan, queueing delays S_j - r_j. Properties:
    ``completion`` C_j = S_j + p_j, ``weighted_completion``, ``awct``, ``makespan``,
    ``queueing_delay`` and ``flowtime``; :meth:`flowtime_lk`; and the run contract's
    :meth:`summary`, :meth:`to_dict` and :meth:`to_frame` (``"jobs"``). Built by
    :func:`policies.run_nonpreemptive`.

    Parameters
    ----------
    policy : str
        The policy's name.
    jobs : theory.JobSet
        The jobs scheduled.
    machines : theory.Machines
        The machines.
    start : numpy.ndarray
        S_j, each job's start time.
    machine : numpy.ndarray
        Each job's machine (int).
    decided : numpy.ndarray
        The decision time at which each job was placed.
    k : float
        The exponent of :meth:`flowtime_lk`'s norm.
    seconds : float
        Wall-clock time of the run.
    params : dict, default {}
        The policy's parameters and the engine.
    extra : dict, default {}
        What the policy recorded (MRIS: ``iterations``, one record per interval).
    invariants : policies.InvariantReport or None, default None
        :func:`policies.invariants.check_nonpreemptive_run`'s report; None with
        ``check=False``.
    seed : object, default None
        Always None: the policies are deterministic.

    References
    ----------
    FL24, Sec. 3 (C_j = S_j + p_j, the objective (1/N) sum_j w_j C_j) and Sec. 7.5
    (AWCT, makespan, queueing delay, Fig. 5); docs/design.md, section The run contract
    (Results).

    Examples
    --------
    >>> from policies import MRIS, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 2, 2], processing=[4, 2, 3, 3, 3],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.6, 0.2], [0.2, 0.2], [0.6, 0.2]],
    ...               weight=[2, 1, 2, 2, 1])
    >>> machines = Machines([[1.0, 1.0], [1.0, 1.0]])
    >>> r = run_nonpreemptive(MRIS(), jobs, machines)
    >>> r
    NonPreemptiveResult(mris, finished, 5 jobs on 2 machine(s), AWCT 11.6, makespan 10, ...)
    >>> r.completion.tolist(), r.decided.tolist(), r.queueing_delay.tolist()
    ([8.0, 4.0, 7.0, 7.0, 10.0], [4.0, 2.0, 4.0, 4.0, 4.0], [4.0, 2.0, 4.0, 2.0, 5.0])
    >>> r.weighted_completion, r.flowtime_lk(k=1)
    (58.0, 32.0)
    >>> [(it["k"], it["gamma"], it["selected"]) for it in r.extra["iterations"]]
    [(0, 2.0, 1), (1, 4.0, 4)]
    """

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
