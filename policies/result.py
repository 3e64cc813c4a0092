"""The result every run returns, whatever its family (docs/design.md, "The run contract").

:class:`RunResult` is the base of :class:`~policies.slotted.result.SimulationResult`
(PG21), :class:`~policies.continuous.result.ContinuousResult` (PG18),
:class:`~policies.preemptive.result.ScheduleResult` (XLL21) and
:class:`~policies.nonpreemptive.result.NonPreemptiveResult` (FL24). Each has:

* ``policy`` (its name), ``family``, ``params`` (the policy's parameters and the
  engine), ``seed`` (of the run's own randomness; ``None`` for a deterministic policy:
  the workload carries its own seed), ``seconds``;
* ``status``: ``"finished"``, or ``"stopped"`` with ``stop_reason`` (a budget ended the
  run before every job completed);
* ``invariants``: an :class:`~policies.invariants.InvariantReport` rebuilt from the
  run's record, or ``None`` when the run was made with ``check=False``;
  ``invariants_ok`` is then ``None`` too (never ``True`` for an unchecked run);
* ``summary()``: the keys above (with ``schema``, :data:`RESULT_SCHEMA`), then the
  family's; ``to_dict()``: the summary, JSON-ready; ``to_frame(kind)``: a tidy pandas
  DataFrame, one row per job (``"jobs"``) or per step of the run (``"steps"``);
* a short ``repr``.

Results are frozen dataclasses, built once, complete: the engines compute the
invariant report before they build the result.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from policies.invariants import InvariantReport
from theory.cluster import Cluster
from theory.job_sets import JobSet
from theory.json_ready import json_ready

__all__ = ["RunResult", "QueueingResult", "JobSetResult", "RESULT_SCHEMA"]

#: version of the JSON shape of :meth:`RunResult.summary` (``schema`` key)
RESULT_SCHEMA = 1


class RunResult:
    """Base of the four families' results (see the module docstring). A family's result
    names its family and frames in its class statement:
    ``class SimulationResult(RunResult, family="pg21-slotted", frames=("steps", "jobs"))``.

    Not built directly: the engines build their family's subclass (a frozen dataclass)
    once, complete, with its invariant report. The constructor takes no arguments
    here; the subclasses' fields are documented with them.

    Attributes
    ----------
    family : str
        The model family, a key of :data:`policies.registry.FAMILIES` (class attribute).
    frames : tuple of str
        The tables :meth:`to_frame` builds, the default first (class attribute).
    stop_reason : str or None
        Why the run stopped before every job completed (None: it did not).

    References
    ----------
    docs/design.md, section The run contract (Results).

    Examples
    --------
    >>> import policies, theory
    >>> jobs = theory.JobSet([0, 0, 1], [2, 1, 1], [[1], [1], [2]])
    >>> r = policies.run("srpt", jobs, theory.Cluster([[2]]))
    >>> isinstance(r, policies.RunResult), r.status, r.invariants_ok
    (True, 'finished', True)
    >>> list(r.summary())[:8]
    ['schema', 'policy', 'family', 'status', 'stop_reason', 'seed', 'seconds', 'invariants_ok']
    >>> r
    ScheduleResult(srpt, finished, 3 jobs, l_2 flowtime 3, makespan 3, invariants ok)
    >>> policies.run("srpt", jobs, theory.Cluster([[2]]), check=False).invariants_ok is None
    True
    """

    #: the model family (a key of :data:`policies.registry.FAMILIES`)
    family: ClassVar[str] = ""
    #: the tables :meth:`to_frame` builds, the default first
    frames: ClassVar[tuple[str, ...]] = ("jobs",)

    def __init_subclass__(cls, family: str = "", frames: tuple[str, ...] = (),
                          **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if family:
            cls.family = family
        if frames:
            cls.frames = tuple(frames)

    # every subclass defines these fields
    policy: str
    params: dict[str, Any]
    seconds: float
    seed: Any
    invariants: InvariantReport | None

    #: why the run stopped before every job completed (None: it did not)
    stop_reason: str | None = None

    @property
    def status(self) -> str:
        """``"finished"``, or ``"stopped"`` when a budget ended the run first."""
        return "finished" if self.stop_reason is None else "stopped"

    @property
    def invariants_ok(self) -> bool | None:
        """Whether the invariants hold; None when they were not checked."""
        return None if self.invariants is None else self.invariants.ok

    def summary(self) -> dict[str, Any]:
        """The common keys, then the family's (:meth:`family_summary`)."""
        common = {
            "schema": RESULT_SCHEMA, "policy": self.policy, "family": self.family,
            "status": self.status, "stop_reason": self.stop_reason, "seed": self.seed,
            "seconds": self.seconds, "invariants_ok": self.invariants_ok,
            "invariants": None if self.invariants is None else self.invariants.as_dict(),
            "params": dict(self.params),
        }
        return {**common, **self.family_summary()}

    def family_summary(self) -> dict[str, Any]:
        """The family's own keys of :meth:`summary`."""
        return {}

    def to_dict(self) -> dict[str, Any]:
        """:meth:`summary`, JSON-ready (:func:`theory.json_ready.json_ready`)."""
        return json_ready(self.summary())

    def to_frame(self, kind: str | None = None):  # noqa: ANN201 - pandas is optional
        """A tidy DataFrame (needs pandas): ``kind`` one of :attr:`frames` (default the
        first), one row per job or per step."""
        kind = self.frames[0] if kind is None else kind
        if kind not in self.frames:
            raise ValueError(f"{type(self).__name__} has the frames "
                             f"{', '.join(map(repr, self.frames))}, not {kind!r}")
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("to_frame needs pandas: pip install pandas") from e
        return pd.DataFrame(self.frame_columns(kind))

    def frame_columns(self, kind: str) -> dict[str, Any]:
        """The columns of the frame ``kind`` (one of :attr:`frames`)."""
        raise NotImplementedError

    def headline(self) -> str:
        """The few numbers :meth:`__repr__` shows."""
        return ""

    def __repr__(self) -> str:
        inv = ("unchecked" if self.invariants is None
               else "ok" if self.invariants.ok else "VIOLATED")
        what = self.headline()
        return (f"{type(self).__name__}({self.policy}, {self.status}"
                f"{', ' + what if what else ''}, invariants {inv})")


class QueueingResult(RunResult):
    """A run of a queueing model (PG21, PG18): a stability verdict and queue metrics.

    Subclasses give (as fields or properties) ``stability`` (the detector's
    :class:`~policies.stability.StabilityVerdict`, None when the window is too short),
    ``verdict_reason`` (why the run is no evidence either way), ``mean_queue``,
    ``final_queue``, ``jobs``, ``started`` and ``waiting_times``.
    """

    @property
    def verdict(self) -> str:
        """``stable``, ``unstable`` or ``inconclusive`` (also when ``verdict_reason``)."""
        run: Any = self
        st = run.stability
        return "inconclusive" if st is None or run.verdict_reason else st.verdict

    def queueing_summary(self) -> dict[str, Any]:
        """The keys the queueing families share in :meth:`summary`."""
        run: Any = self
        w, st = run.waiting_times, run.stability
        return {
            "verdict": self.verdict, "verdict_reason": run.verdict_reason,
            "mean_queue": run.mean_queue, "final_queue": run.final_queue,
            "jobs": run.jobs, "started": run.started,
            "mean_wait": float(w.mean()) if w.size else None,
            "stability": None if st is None else st.as_dict(),
        }


class JobSetResult(RunResult):
    """A schedule of a finite job set (XLL21, FL24): per job ``completion`` (a field or
    a property), and the ``jobs`` and ``machines`` it was made for."""

    jobs: JobSet
    machines: Cluster
    k: float

    @property
    def flowtime(self) -> np.ndarray:
        """f_j = c_j - a_j (NaN for a job unfinished when the run stopped)."""
        run: Any = self
        return run.completion - self.jobs.arrival

    def job_set_summary(self) -> dict[str, Any]:
        """The keys the finite-job-set families share in :meth:`summary`."""
        return {"jobs": self.jobs.n, "machines": self.machines.m, "k": self.k}
