"""Finite job sets on a finite set of machines (XLL21 Sec. II-A, FL24 Sec. 3).

A :class:`JobSet` holds, per job, an arrival (release) time, a processing time, a
weight and an R-dimensional demand; :class:`Machines` (the package's one
:class:`theory.cluster.Cluster`) holds one capacity vector per machine. XLL21 reads
``demand[:, 0]`` as CPU cores d_j and ``demand[:, 1]`` (when present) as memory m_j,
every field an integer (XLL21 II-A: "All d_j, m_j and p_j are integers"; arrivals are
slot indices); FL24 reads demands as fractions of a machine.

Both classes validate on construction (lengths, finiteness, signs, unique ids) and are
immutable; the arrays are read-only float64. Every entry must be a number float64 holds:
an integer that float64 would round (2^53 + 1) or a number beyond its range (10**400) is
a ``ValueError`` naming the argument and index, never rounded or overflowed. A job set
read from a file may carry each job's line (``source``, ``lines``) so that a later
refusal names it (:meth:`JobSet.where`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.arrays import exact_float_array, unique_ids
from theory.cluster import Cluster

__all__ = ["JobSet", "Machines", "require_integers", "check_fits", "require_resources"]


@dataclass(frozen=True, eq=False)
class JobSet:
    """N jobs: ``arrival`` (N,), ``processing`` (N,), ``weight`` (N,), ``demand`` (N, R).

    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[1, 2, 3], demand=[[2, 1], [1, 1], [3, 2]])
    >>> jobs.n, jobs.resources, jobs.volume().tolist()
    (3, 2, [2.0, 2.0, 9.0])
    """

    arrival: np.ndarray
    processing: np.ndarray
    demand: np.ndarray
    weight: np.ndarray = None  # type: ignore[assignment]  # default: ones
    ids: tuple[str, ...] = ()  # default: "0", "1", ...
    #: the file the jobs were read from, and each job's line in it (for messages)
    source: str = ""
    lines: np.ndarray | None = None

    def __post_init__(self) -> None:
        a = exact_float_array(self.arrival, "arrival", 1)
        n = len(a)
        if n == 0:
            raise ValueError("a job set needs at least one job")
        p = exact_float_array(self.processing, "processing", 1)
        d = exact_float_array(self.demand, "demand", 2)
        w = exact_float_array(np.ones(n) if self.weight is None else self.weight, "weight", 1)
        for name, arr in (("processing", p), ("demand", d), ("weight", w)):
            if arr.shape[0] != n:
                raise ValueError(f"{n} arrivals but {arr.shape[0]} {name} entries")
        if np.any(a < 0):
            raise ValueError(f"arrival must be >= 0 (job {int(np.argmax(a < 0))})")
        if np.any(p <= 0):
            raise ValueError(f"processing must be > 0 (job {int(np.argmax(p <= 0))})")
        if np.any(w <= 0):
            raise ValueError(f"weight must be > 0 (job {int(np.argmax(w <= 0))})")
        if d.shape[1] == 0 or np.any(d < 0):
            raise ValueError("demand must have at least one resource, every entry >= 0")
        if np.any(d.max(axis=1) <= 0):
            raise ValueError(f"job {int(np.argmax(d.max(axis=1) <= 0))} demands nothing")
        if not isinstance(self.source, str):
            raise TypeError(f"source must be a file name (text), got {self.source!r}")
        if self.lines is not None:
            ln = np.asarray(self.lines)
            if ln.shape != (n,) or ln.dtype.kind not in "iu" or (n and ln.min() < 1):
                raise ValueError(f"lines must be one line number >= 1 per job ({n})")
            ln = ln.astype(np.int64)
            ln.setflags(write=False)
            object.__setattr__(self, "lines", ln)
        object.__setattr__(self, "arrival", a)
        object.__setattr__(self, "processing", p)
        object.__setattr__(self, "demand", d)
        object.__setattr__(self, "weight", w)
        object.__setattr__(self, "ids", unique_ids(self.ids or None, n, "job"))

    def where(self, j: int) -> str:
        """Job ``j`` for a message: ``job 'a'``, with ``(jobs.csv line 2)`` when the job
        set knows its file and lines."""
        text = f"job {self.ids[j]!r}"
        if self.lines is not None:
            text += f" ({self.source or 'line'}{' line' if self.source else ''} "\
                    f"{int(self.lines[j])})"
        return text

    @property
    def n(self) -> int:
        return len(self.arrival)

    @property
    def resources(self) -> int:
        return int(self.demand.shape[1])

    def volume(self, resource: int = 0) -> np.ndarray:
        """v_j = p_j d_j in one resource (XLL21 II-A: cores x processing time)."""
        return self.processing * self.demand[:, resource]

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return (f"JobSet({self.n} jobs, {self.resources} resource(s), arrivals "
                f"{self.arrival.min():g}..{self.arrival.max():g})")


#: the machines of a finite job set: one :class:`theory.cluster.Cluster` for every family
Machines = Cluster


def require_integers(jobs: JobSet, machines: Machines | None = None, *,
                     what: str = "XLL21") -> None:
    """XLL21 II-A: arrivals, processing times, demands and capacities are integers."""
    for name, arr in (("arrival", jobs.arrival), ("processing", jobs.processing),
                      ("demand", jobs.demand)):
        bad = np.flatnonzero((arr != np.round(arr)).reshape(len(arr), -1).any(axis=1))
        if bad.size:
            j = int(bad[0])
            raise ValueError(f"{what} needs integer {name}s; job {jobs.ids[j]!r} has "
                             f"{arr[j].tolist()}")
    if machines is not None:
        c = machines.capacity
        bad = np.flatnonzero(np.any(c != np.round(c), axis=1))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"{what} needs integer capacities; machine "
                             f"{machines.ids[i]!r} has {c[i].tolist()}")


def check_fits(jobs: JobSet, machines: Machines, *, resources: int | None = None) -> None:
    """Every job fits on at least one machine in every resource at once (the first
    ``resources`` resources if given), else a ``ValueError`` naming the first job that
    fits none."""
    r = jobs.resources if resources is None else resources
    if jobs.resources < r or machines.resources < r or (
            resources is None and jobs.resources != machines.resources):
        raise ValueError(f"jobs demand {jobs.resources} resource(s) but machines have "
                         f"{machines.resources}")
    dem = jobs.demand[:, :r]
    cap = np.unique(machines.capacity[:, :r], axis=0)  # distinct machine shapes suffice
    within = np.asarray(dem[:, None, :] <= cap[None, :, :])
    fits = np.any(np.all(within, axis=2), axis=1)
    if not fits.all():
        j = int(np.argmin(fits))
        raise ValueError(f"job {jobs.ids[j]!r} with demand {dem[j].tolist()} fits "
                         f"no machine (largest capacities {cap.max(axis=0).tolist()})")


def require_resources(jobs: JobSet, machines: Machines, used: int, *, model: str,
                      hint: str = "") -> None:
    """Refuse resources a model does not read (a column accepted must be modelled).

    ``used`` is how many leading resources the model reads (``demand_0``..); a job set
    or cluster with more is a ``ValueError`` naming the first unread column and what
    ``model`` reads, with ``hint`` (how to drop or model it) appended.
    """
    for what, r, col in (("jobs", jobs.resources, "demand"),
                         ("cluster", machines.resources, "capacity")):
        if r > used:
            raise ValueError(f"the {what} have column {col}_{used} ({r} resources), which "
                             f"{model} does not read{hint}")
