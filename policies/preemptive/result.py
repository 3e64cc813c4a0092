"""The result of an XLL21-family run: per-job metrics, series over slots, the record.

A :class:`~policies.result.RunResult` (the run contract): ``to_frame("jobs")`` (default)
has one row per job, ``to_frame("steps")`` one per slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from policies.invariants import InvariantReport, check_preemptive_run
from policies.result import JobSetResult
from theory.fractional_flowtime import lk_norm
from theory.job_sets import JobSet, Machines

__all__ = ["ScheduleResult"]


@dataclass(frozen=True, eq=False, repr=False)
class ScheduleResult(JobSetResult, family="xll21-preemptive", frames=("jobs", "steps")):
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

    Built by :func:`policies.preemptive.run_schedule` (through :meth:`build`, which
    adds the invariant report). Methods: :meth:`flowtime_lk` and
    :meth:`flowtime_lk_lower`, :meth:`fractional_lk`, :meth:`flowtime_lk_series`,
    :meth:`fractional_lk_series`, :meth:`rates` (y_j(t), dense), and the run
    contract's :meth:`summary`, :meth:`to_dict` and :meth:`to_frame`; properties
    ``flowtime``, ``waiting``, ``finished``, ``stopped`` and ``makespan``.

    Parameters
    ----------
    policy : str
        The policy's name.
    k : float
        The exponent of the l_k norm (and of the weights (5)).
    memory : bool
        Whether memory was modelled.
    jobs : theory.JobSet
        The jobs scheduled.
    machines : theory.Machines
        The machines.
    completion : numpy.ndarray
        c_j, the slot in which job j completed (NaN: unfinished when the run stopped).
    fractional : numpy.ndarray
        Each job's fractional flowtime, eq. (5), accumulated over the slots run.
    preemptions : numpy.ndarray
        Per job, slots in which it was served, unfinished, and not served in the next.
    migrations : numpy.ndarray
        Per job, service slots on another set of machines than its previous one.
    record : tuple of numpy.ndarray
        (job, machine, cores, slot) of every allocation of cores.
    unfinished_work : numpy.ndarray
        Core-slots of arrived jobs left after each slot 1..T.
    seconds : float
        Wall-clock time of the run.
    slots : int
        T, the last slot run.
    stop_reason : str or None
        Why the run stopped with jobs unfinished (None: every job completed).
    after : numpy.ndarray or None, default None
        The precedence ``after`` of the run (-1: none), or None.
    declared : numpy.ndarray or None, default None
        The declared demands under misestimation, or None.
    invariants : policies.InvariantReport or None, default None
        :func:`policies.invariants.check_preemptive_run`'s report; None with
        ``check=False``.
    params : dict, default {}
        The policy's parameters and the engine.
    seed : object, default None
        Always None: the policies are deterministic.

    References
    ----------
    XLL21, Sec. II-A (c_j, f_j = c_j - a_j, eq. (1)), Sec. II-B (the l_k norm of
    flowtimes, eq. (4a)), Sec. II-C (eq. (5)) and Sec. VI (metrics: preemptions,
    migrations, Fig. 2's l_k series); docs/design.md, section The run contract
    (Results).

    Examples
    --------
    >>> from policies.preemptive import SRPT, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> r = run_schedule(SRPT(), jobs, Machines([[3], [2]]))
    >>> r
    ScheduleResult(srpt, finished, 4 jobs, l_2 flowtime 7.14143, makespan 6, invariants ok)
    >>> r.flowtime.tolist(), r.waiting.tolist(), r.migrations.tolist()
    ([4.0, 1.0, 5.0, 3.0], [1.0, 0.0, 2.0, 1.0], [3, 0, 1, 1])
    >>> round(r.flowtime_lk(), 6), round(r.fractional_lk(), 6)  # sqrt(51), eq. (5)
    (7.141428, 7.106335)
    >>> s = run_schedule(SRPT(), jobs, Machines([[3], [2]]), max_slots=3)
    >>> s.status, s.flowtime_lk(), round(s.flowtime_lk_lower(), 6), s.makespan
    ('stopped', None, 5.477226, None)
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
    invariants: InvariantReport | None = None
    params: dict[str, Any] = field(default_factory=dict)
    seed: Any = None  # the policies are deterministic

    @classmethod
    def build(cls, *, check: bool = True, **kw: Any) -> ScheduleResult:
        """The result of a run, with its invariants checked from the record
        (:func:`policies.invariants.check_preemptive_run`) unless ``check`` is False."""
        res = cls(**kw)
        return replace(res, invariants=check_preemptive_run(res)) if check else res

    @property
    def stopped(self) -> bool:
        return self.stop_reason is not None

    @property
    def finished(self) -> np.ndarray:
        return np.isfinite(self.completion)

    @property
    def waiting(self) -> np.ndarray:
        """f_j - p_j (XLL21 Fig. 4)."""
        return self.flowtime - self.jobs.processing

    @property
    def makespan(self) -> int | None:
        """max_j c_j, or None when the run stopped with jobs unfinished."""
        return None if self.stopped else int(self.completion.max())

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

    def fractional_lk_series(self) -> np.ndarray:
        """(sum_j of eq. (5) over slots 1..t)^(1/k) for every slot t = 1..T: the
        fractional flowtime accumulated by each slot (XLL21 Fig. 2's fractional curve),
        from the record with the rates the jobs progressed at (at most 1, never past p_j,
        as the run counts them); its last value is :meth:`fractional_lk` of a finished
        run."""
        from theory.fractional_flowtime import per_slot_cost

        p = self.jobs.processing.astype(float)
        done = np.minimum(np.cumsum(np.minimum(self.rates(), 1.0), axis=1), p[:, None])
        y = np.diff(done, axis=1, prepend=0.0)
        cost = per_slot_cost(y, self.jobs.arrival, p, self.k)
        return np.cumsum(cost) ** (1 / self.k)

    def rates(self) -> np.ndarray:
        """Dense y_j(t) = sum_i u_j^i(t) / d_j, shape (N, T) (for small runs)."""
        job, _machine, cores, slot = self.record
        y = np.zeros((self.jobs.n, self.slots))
        np.add.at(y, (job, slot - 1), cores)
        return y / self.jobs.demand[:, [0]]

    def frame_columns(self, kind: str) -> dict[str, Any]:
        """``jobs``: id, arrival, processing, cores, completion, flowtime, fractional,
        waiting, preemptions, migrations; ``steps``: slot, unfinished_work, flowtime_lk
        (of the jobs completed by then)."""
        if kind == "steps":
            return {"slot": np.arange(1, self.slots + 1),
                    "unfinished_work": self.unfinished_work[:self.slots],
                    "flowtime_lk": self.flowtime_lk_series()}
        return {"id": self.jobs.ids, "arrival": self.jobs.arrival,
                "processing": self.jobs.processing, "cores": self.jobs.demand[:, 0],
                "completion": self.completion, "flowtime": self.flowtime,
                "fractional": self.fractional, "waiting": self.waiting,
                "preemptions": self.preemptions, "migrations": self.migrations}

    def family_summary(self) -> dict[str, Any]:
        """The keys of ``packsched schedule``; objectives over unfinished jobs are None,
        with their ``*_lower`` bounds beside them."""
        w = self.jobs.weight
        bound = self._completion_bound()
        return {
            **self.job_set_summary(), "memory": self.memory,
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
            "slots": self.slots,
        }

    def headline(self) -> str:
        if self.stopped:
            return (f"{self.jobs.n} jobs, after {self.slots} slots "
                    f"{int((~self.finished).sum())} unfinished")
        return (f"{self.jobs.n} jobs, l_{self.k:g} flowtime {self.flowtime_lk():.6g}, "
                f"makespan {self.makespan}")
