"""The result of a PG21 slotted run: time series, per-job and per-server metrics.

A :class:`~policies.result.RunResult` (the run contract): its summary adds the CLI keys
``verdict``, ``mean_queue``, ``mean_queued_resource``, ``final_queue``, ``jobs`` to the
common ones; ``to_frame("steps")`` (default) has one row per slot, ``to_frame("jobs")``
one per job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from policies.invariants import InvariantReport
from policies.result import QueueingResult
from policies.stability import StabilityVerdict, judge_stability
from policies.step_series import StepSeries

__all__ = ["SimulationResult", "MIN_JUDGED_SLOTS"]

#: Shortest post-warm-up window judged for stability (two slots per batch).
MIN_JUDGED_SLOTS = 40


@dataclass(frozen=True, eq=False, repr=False)
class SimulationResult(QueueingResult, family="pg21-slotted", frames=("steps", "jobs")):
    """A finished PG21 run.

    Series (measured after scheduling in each slot): ``queue_length`` (jobs waiting,
    PG21's Q(t+1)), ``queued_resource`` (their total size) and ``busy_resource`` (total
    size in service), one entry per slot, built on first access from the step series
    the run keeps (``*_steps``, :class:`~policies.step_series.StepSeries`: the slots
    where they change; a million jobs on 5 servers span 22 million slots). Per job:
    ``arrival``, ``start`` and ``server`` (-1 if not started). Per server:
    ``occupancy`` (mean load / capacity) and ``half_full_fraction`` (fraction of slots
    with load >= capacity / 2, PG21 Lemma 1). Time averages skip the first ``warmup``
    slots.

    Built by :func:`policies.simulate`, frozen and complete (the invariant report is
    computed before the result is built).

    Parameters
    ----------
    policy : str
        The policy's registry name.
    slots : int
        Number of slots T simulated (0 .. T - 1).
    warmup : int
        Slots skipped by the time averages and the stability verdict.
    queue_length_steps : StepSeries
        Jobs waiting after scheduling, per slot, kept where it changes.
    queued_resource_steps : StepSeries
        Total size of the waiting jobs after scheduling (the X(t) the stability
        verdict judges).
    busy_resource_steps : StepSeries
        Total size in service after scheduling.
    arrival : numpy.ndarray
        (n,) arrival slot of every job that arrived within the horizon.
    start : numpy.ndarray
        (n,) start slot of every job, -1 if not started.
    server : numpy.ndarray
        (n,) server of every job, -1 if not started.
    occupancy : numpy.ndarray
        (L,) mean load over capacity of every server over the whole run.
    half_full_fraction : numpy.ndarray
        (L,) fraction of the slots in which the server's load was at least half its
        capacity (up to the feasibility tolerance).
    work_rate : float
        Work arriving per slot, lambda R-bar of the simulated window (from the law when
        the workload knows it); the stability verdict's scale.
    seconds : float
        Wall-clock time of the simulation loop.
    invariants : InvariantReport or None, optional
        The invariant report (:func:`policies.check_slotted_run`); None for a run
        made with ``check=False``.
    params : dict, optional
        The policy's description (``{"policy": repr(policy)}``).
    departures : int or None, optional
        Jobs that left after the warm-up, within the run (0 makes the run no evidence
        either way, :attr:`verdict_reason`).
    seed : object, optional
        Always None: the policies draw no random numbers (the workload carries its
        seed).

    References
    ----------
    PG21, Sec. II (Q(t), eq. (3)) and Sec. IV-B, Lemma 1 (half-full servers);
    docs/design.md, sections Results and Warm-up and the stability verdict.

    Examples
    --------
    >>> from fractions import Fraction
    >>> import policies, theory
    >>> sizes = theory.Discrete([Fraction(2, 5), Fraction(3, 5)], [Fraction(1, 2)] * 2)
    >>> w = policies.pg21_workload(sizes, servers=2, slots=300, mu=0.2, workload=2.0,
    ...                            seed=1)
    >>> r = policies.simulate(policies.make_policy("bf-js"), w,
    ...                       theory.Cluster.identical(2, 1))
    >>> r.jobs, r.started, r.final_queue, r.warmup, r.queue_length.shape
    (109, 109, 0, 60, (300,))
    >>> r.verdict, r.verdict_reason is None
    ('inconclusive', True)
    >>> r.to_frame("jobs").columns.tolist()
    ['job', 'arrival', 'start', 'server', 'wait']

    A window too short to judge makes the run no evidence either way:

    >>> short = policies.simulate(policies.make_policy("bf-js"), w,
    ...                           theory.Cluster.identical(2, 1), slots=50, warmup=20)
    >>> short.stability is None, short.verdict_reason
    (True, 'only 30 slot(s) after the warm-up of 20; at least 40 are judged')
    """

    policy: str
    slots: int
    warmup: int
    queue_length_steps: StepSeries
    queued_resource_steps: StepSeries
    busy_resource_steps: StepSeries
    arrival: np.ndarray
    start: np.ndarray
    server: np.ndarray
    occupancy: np.ndarray
    half_full_fraction: np.ndarray
    work_rate: float
    seconds: float
    invariants: InvariantReport | None = None
    params: dict[str, Any] = field(default_factory=dict)
    departures: int | None = None  # jobs that left after the warm-up, within the run
    seed: Any = None  # the policies are deterministic: the workload has the seed

    @cached_property
    def queue_length(self) -> np.ndarray:
        """Jobs waiting after scheduling, one entry per slot."""
        return self.queue_length_steps.dense()

    @cached_property
    def queued_resource(self) -> np.ndarray:
        """Total size of the waiting jobs after scheduling, one entry per slot."""
        return self.queued_resource_steps.dense()

    @cached_property
    def busy_resource(self) -> np.ndarray:
        """Total size in service after scheduling, one entry per slot."""
        return self.busy_resource_steps.dense()

    @property
    def jobs(self) -> int:
        """Jobs that arrived within the horizon."""
        return int(np.count_nonzero(self.arrival < self.slots))

    @property
    def started(self) -> int:
        return int(np.count_nonzero(self.start >= 0))

    @property
    def waiting_times(self) -> np.ndarray:
        """Slots between arrival and start, for every started job."""
        s = self.start >= 0
        return self.start[s] - self.arrival[s]

    @property
    def mean_queue(self) -> float:
        return self.queue_length_steps.mean(min(self.warmup, self.slots))

    @property
    def mean_queued_resource(self) -> float:
        return self.queued_resource_steps.mean(min(self.warmup, self.slots))

    @property
    def final_queue(self) -> int:
        return int(self.queue_length_steps.last) if self.slots else 0

    @cached_property
    def stability(self) -> StabilityVerdict | None:
        """The toolkit's stability verdict on the queued resource (policies.stability).

        None when the post-warm-up window is too short to judge (fewer than
        :data:`MIN_JUDGED_SLOTS` slots); :attr:`verdict` is then ``inconclusive``.
        """
        if self.slots - self.warmup < MIN_JUDGED_SLOTS:
            return None
        return judge_stability(
            self.queued_resource_steps, arrival_work_rate=self.work_rate if self.work_rate > 0
            else None, warmup=self.warmup,
        )

    @property
    def verdict_reason(self) -> str | None:
        """Why the run is no evidence either way (the verdict is then ``inconclusive``).

        A queue that stays empty because nothing arrived says nothing about stability.
        """
        judged = self.slots - self.warmup
        if judged < MIN_JUDGED_SLOTS:
            return (f"only {max(judged, 0)} slot(s) after the warm-up of {self.warmup}; "
                    f"at least {MIN_JUDGED_SLOTS} are judged")
        if not np.any((self.arrival >= self.warmup) & (self.arrival < self.slots)):
            return (f"no job arrived in the {judged} slots after the warm-up: no evidence "
                    "either way (raise the arrival rate or the horizon)")
        if self.departures == 0:
            return (f"no job left the system in the {judged} slots after the warm-up "
                    "(services longer than the run): no evidence either way (raise the "
                    "horizon or shorten the service)")
        return None

    def family_summary(self) -> dict[str, Any]:
        """The PG21 keys of :meth:`summary` (the CLI contract)."""
        return {
            **self.queueing_summary(),
            "mean_queued_resource": self.mean_queued_resource,
            "mean_occupancy": float(self.occupancy.mean()),
            "min_half_full_fraction": float(self.half_full_fraction.min()),
            "slots": self.slots,
            "warmup": self.warmup,
        }

    def frame_columns(self, kind: str) -> dict[str, Any]:
        """``steps``: slot, queue_length, queued_resource, busy_resource; ``jobs``: job,
        arrival, start, server (-1: not started), wait (NaN: not started)."""
        if kind == "steps":
            return {"slot": np.arange(self.slots), "queue_length": self.queue_length,
                    "queued_resource": self.queued_resource,
                    "busy_resource": self.busy_resource}
        started = self.start >= 0
        return {"job": np.arange(self.arrival.shape[0]), "arrival": self.arrival,
                "start": self.start, "server": self.server,
                "wait": np.where(started, self.start - self.arrival, np.nan)}

    def headline(self) -> str:
        return (f"{self.slots} slots, {self.jobs} jobs, {self.verdict}, mean queue "
                f"{self.mean_queue:.4g}")
