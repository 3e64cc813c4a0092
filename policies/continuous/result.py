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
    """A finished continuous-time run.

    Series (sampled every ``sample_interval`` time units from 0): ``sample_time``,
    ``queue`` (total waiting jobs, sum_j Q_j(t)) and ``queue_by_type`` (samples, J).
    Time averages over [warmup, horizon]: ``mean_queue``, ``mean_queue_by_type``,
    ``dummy_fraction`` and ``busy_fraction`` (per resource: resources held by dummy,
    resp. real, jobs over the cluster's total capacity). Per job: ``arrival``,
    ``job_type``, ``start``, ``server``, ``finish`` (nan / -1 when it did not happen).
    ``dummy_log`` rows are (start, end, server, type) of every dummy that ended.
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
