"""The result of a PG18 continuous-time run: sampled series, time averages, per job.

A :class:`~policies.result.RunResult` (the run contract): the slotted family's keys
(``verdict``, ``mean_queue``, ``final_queue``, ``jobs``) plus the PG18 metrics: clock
ticks (the sampling cost of Sec. VII-A.1), dummy placements and the fraction of
resources held by dummy jobs. ``to_frame("steps")`` (default): one row per sample and
type; ``to_frame("jobs")``: one per job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from policies.invariants import InvariantReport
from policies.result import QueueingResult
from policies.stability import StabilityVerdict, judge_stability

__all__ = ["ContinuousResult", "MIN_JUDGED_SAMPLES"]

#: fewest post-warm-up samples the stability detector is asked to judge
MIN_JUDGED_SAMPLES = 40


@dataclass(frozen=True, eq=False, repr=False)
class ContinuousResult(QueueingResult, family="pg18-continuous", frames=("steps", "jobs")):
    """A finished PG18 continuous-time run: sampled queues, time averages, per job.

    Series (sampled every ``sample_interval`` time units from 0): ``sample_time``,
    ``queue`` (total waiting jobs, sum_j Q_j(t)) and ``queue_by_type`` (samples, J).
    Time averages over [warmup, horizon]: ``mean_queue``, ``mean_queue_by_type``,
    ``dummy_fraction`` and ``busy_fraction`` (per resource: resources held by dummy,
    resp. real, jobs over the cluster's total capacity). Per job: ``arrival``,
    ``job_type``, ``start``, ``server``, ``finish`` (nan / -1 when it did not happen).
    ``dummy_log`` rows are (start, end, server, type) of every dummy that ended.

    Built once by :func:`policies.simulate_continuous`, complete with its invariant
    report. Properties: ``jobs``, ``started``, ``final_queue`` (jobs never started),
    ``waiting_times``, ``stability`` (:func:`policies.judge_stability` on the sampled
    total queue after the warm-up, None with fewer than :data:`MIN_JUDGED_SAMPLES`
    samples), ``verdict`` and ``verdict_reason``; :meth:`summary`, :meth:`to_dict` and
    :meth:`to_frame` (``"steps"``: one row per sample and type; ``"jobs"``: one per
    job) follow the run contract.

    Parameters
    ----------
    policy : str
        The policy's name.
    horizon : float
        The run's end time.
    warmup : float
        Start of the window of the time averages and the stability verdict.
    sample_interval : float
        Time between queue samples, horizon / samples.
    sample_time : numpy.ndarray
        The sample times 0, dt, 2 dt, ...
    queue : numpy.ndarray
        Total waiting jobs at each sample time.
    queue_by_type : numpy.ndarray
        Waiting jobs per type at each sample time, shape (samples, J).
    mean_queue : float
        Time average of the total queue over [warmup, horizon].
    mean_queue_by_type : numpy.ndarray
        Time average of each type's queue over [warmup, horizon].
    dummy_fraction : numpy.ndarray
        Per resource, the time-average resources held by dummy jobs over the cluster's
        total capacity.
    busy_fraction : numpy.ndarray
        Likewise for real jobs.
    arrival : numpy.ndarray
        Arrival time of each job (the jobs that arrived before the horizon).
    job_type : numpy.ndarray
        Type of each job.
    start : numpy.ndarray
        Start time of each job (NaN: not started).
    server : numpy.ndarray
        Server of each job (-1: not started).
    finish : numpy.ndarray
        Departure time of each job (NaN: not departed by the horizon).
    ticks : int
        Clock ticks of the policy (its server sampling cost, PG18 Sec. VII-A.1).
    dummy_placements : int
        Dummy jobs placed.
    dummy_log : numpy.ndarray
        Rows (start, end, server, type) of the dummy jobs, shape (dummies, 4); a dummy
        still in service at the horizon ends there.
    arrival_rate : float
        The workload's arrival rate, jobs per time unit (the stability verdict's
        scale).
    events : int
        Arrivals, departures and ticks handled.
    seconds : float
        Wall-clock time of the run.
    invariants : policies.InvariantReport or None, default None
        :func:`policies.check_continuous_run`'s report; None with ``check=False``.
    params : dict, default {}
        The engine and the policy's parameters.
    seed : object, default None
        The seed of the scheduling randomness (``"generator"`` when a Generator was
        given).

    References
    ----------
    PG18, Sec. II (queues Q_j(t), stability (1)) and Sec. VII-A (time-average total
    queue, clock rates); docs/design.md, sections The run contract (Results) and Warm-up
    and the stability verdict.

    Examples
    --------
    >>> from policies import RMS, JobTypes, poisson_type_workload, simulate_continuous
    >>> from theory import Cluster
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> w = poisson_type_workload(types, [4.0, 1.6], 30.0, seed=1)
    >>> r = simulate_continuous(RMS(), w, cluster, types, samples=300, engine="python")
    >>> r
    ContinuousResult(rms, finished, time 30, 168 jobs, inconclusive, mean queue 14.56, ...)
    >>> r.jobs, r.started, r.final_queue, r.warmup, r.sample_interval, r.queue_by_type.shape
    (168, 146, 22, 6.0, 0.1, (300, 2))
    >>> r.mean_queue_by_type.round(3).tolist(), r.busy_fraction.round(4).tolist()
    ([9.067, 5.493], [0.7324])
    >>> r.dummy_log.shape, r.summary()["ticks"], r.verdict_reason
    ((8, 4), 116, None)
    """

    policy: str
    horizon: float
    warmup: float
    sample_interval: float
    sample_time: np.ndarray
    queue: np.ndarray
    queue_by_type: np.ndarray
    mean_queue: float
    mean_queue_by_type: np.ndarray
    dummy_fraction: np.ndarray
    busy_fraction: np.ndarray
    arrival: np.ndarray
    job_type: np.ndarray
    start: np.ndarray
    server: np.ndarray
    finish: np.ndarray
    ticks: int
    dummy_placements: int
    dummy_log: np.ndarray
    arrival_rate: float
    events: int
    seconds: float
    invariants: InvariantReport | None = None
    params: dict[str, Any] = field(default_factory=dict)
    seed: Any = None  # of the scheduling randomness ("generator" when one was given)

    @property
    def jobs(self) -> int:
        return int(self.arrival.shape[0])

    @property
    def started(self) -> int:
        return int(np.count_nonzero(self.server >= 0))

    @property
    def final_queue(self) -> int:
        return int(np.count_nonzero(self.server < 0))

    @property
    def waiting_times(self) -> np.ndarray:
        s = self.server >= 0
        return self.start[s] - self.arrival[s]

    def _judged_from(self) -> int:
        return int(np.searchsorted(self.sample_time, self.warmup, side="left"))

    @cached_property
    def stability(self) -> StabilityVerdict | None:
        """The toolkit's detector (:func:`policies.judge_stability`) on the sampled
        total queue, the arriving jobs per sample interval as the scale."""
        w = self._judged_from()
        if self.queue.size - w < MIN_JUDGED_SAMPLES:
            return None
        rate = self.arrival_rate * self.sample_interval
        return judge_stability(self.queue.astype(float), warmup=w,
                               arrival_work_rate=rate if rate > 0 else None)

    @property
    def verdict_reason(self) -> str | None:
        """Why the run is no evidence either way (the verdict is then inconclusive)."""
        judged = self.queue.size - self._judged_from()
        if judged < MIN_JUDGED_SAMPLES:
            return (f"only {judged} sample(s) after the warm-up; at least "
                    f"{MIN_JUDGED_SAMPLES} are judged")
        if not np.any(self.arrival >= self.warmup):
            return ("no job arrived after the warm-up: no evidence either way (raise the "
                    "arrival rates or the horizon)")
        if not np.any(self.finish >= self.warmup):
            return ("no job left the system after the warm-up (services longer than the "
                    "run): no evidence either way")
        return None

    def family_summary(self) -> dict[str, Any]:
        """The PG18 keys of :meth:`summary`."""
        return {
            **self.queueing_summary(),
            "mean_queue_by_type": self.mean_queue_by_type.tolist(),
            "ticks": self.ticks,
            "ticks_per_time": self.ticks / self.horizon if self.horizon > 0 else None,
            "dummy_placements": self.dummy_placements,
            "dummy_fraction": self.dummy_fraction.tolist(),
            "busy_fraction": self.busy_fraction.tolist(),
            "time": self.horizon,
            "warmup": self.warmup,
            "judged_time": self.horizon - self.warmup,
            "events": self.events,
        }

    def frame_columns(self, kind: str) -> dict[str, Any]:
        """``steps``: time, type, queue (one row per sample and type); ``jobs``: job,
        type, arrival, start, server, finish, wait (NaN / -1: did not happen)."""
        if kind == "steps":
            S, J = self.queue_by_type.shape
            return {"time": np.repeat(self.sample_time, J), "type": np.tile(np.arange(J), S),
                    "queue": self.queue_by_type.ravel()}
        return {"job": np.arange(self.jobs), "type": self.job_type, "arrival": self.arrival,
                "start": self.start, "server": self.server, "finish": self.finish,
                "wait": self.start - self.arrival}

    def headline(self) -> str:
        return (f"time {self.horizon:g}, {self.jobs} jobs, {self.verdict}, mean queue "
                f"{self.mean_queue:.4g}")
