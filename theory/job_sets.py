"""Finite job sets on a finite set of machines (XLL21 Sec. II-A, FL24 Sec. 3).

A :class:`JobSet` holds, per job, an arrival (release) time, a processing time, a
weight and an R-dimensional demand; :class:`Machines` holds one capacity vector per
machine. XLL21 reads ``demand[:, 0]`` as CPU cores d_j and ``demand[:, 1]`` (when
present) as memory m_j, every field an integer (XLL21 II-A: "All d_j, m_j and p_j are
integers"; arrivals are slot indices); FL24 reads demands as fractions of a machine.

Both classes validate on construction (lengths, finiteness, signs, unique ids) and are
immutable; the arrays are read-only float64. Every entry must be a number float64 holds:
an integer that float64 would round (2^53 + 1) or a number beyond its range (10**400) is
a ``ValueError`` naming the argument and index, never rounded or overflowed. A job set
read from a file may carry each job's line (``source``, ``lines``) so that a later
refusal names it (:meth:`JobSet.where`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from theory.numbers import MAX_EXACT_INT

__all__ = ["JobSet", "Machines", "require_integers", "check_fits", "require_resources"]


def _array(x: object, name: str, ndim: int) -> np.ndarray:
    """``x`` as a read-only float64 array of ``ndim`` dimensions (a 1-D ``demand`` or
    ``capacity`` is one resource). Every entry must be a finite number that float64
    holds: an integer above 2^53 that float64 would round (2^53 + 1) and a number beyond
    its range (``10**400``) are refused naming ``name[index]``, not rounded or overflowed;
    other reals (``0.1``, ``Fraction(1, 3)``) are read as the nearest float64."""
    try:
        raw = np.asarray(x)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a {ndim}-dimensional array of numbers (rows of "
                         f"equal length)") from None
    kind = raw.dtype.kind
    if kind in "fiu":
        a = raw.astype(np.float64)
        # an integer of at least 2^53 may have been rounded (by numpy, reading a list of
        # ints and floats as floats, or here): compare it with the integer given
        given_floats = kind == "f" and isinstance(x, np.ndarray)
        big = np.zeros(0, np.int64) if given_floats else np.flatnonzero(
            (np.abs(a) >= MAX_EXACT_INT).ravel())
        for k in big.tolist():
            v = raw.flat[k] if kind != "f" else _at(x, raw.shape, k)
            if isinstance(v, numbers.Integral) and int(v) != int(a.flat[k]):
                raise ValueError(f"{name}{_index(raw.shape, k)} is {int(v)}, an integer "
                                 f"above 2^53 that float64 cannot hold exactly (it would "
                                 f"read as {int(a.flat[k])}); give numbers float64 holds")
    elif kind == "O":
        a = np.empty(raw.shape, dtype=np.float64)
        for k, v in enumerate(raw.flat):
            a.flat[k] = _entry(v, f"{name}{_index(raw.shape, k)}")
    elif kind == "b":
        raise TypeError(f"{name} must be numbers, not true/false values")
    elif kind in "US":
        raise TypeError(f"{name} must be numbers, not text such as {raw.flat[0].item()!r}")
    else:
        raise TypeError(f"{name} must be an array of real numbers")
    if ndim == 2 and a.ndim == 1:
        a = a[:, None]
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {a.shape}")
    bad = np.flatnonzero(~np.isfinite(a).ravel())
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"{name} must be finite: {name}{_index(a.shape, k)} is "
                         f"{a.flat[k]}")
    a.setflags(write=False)
    return a


def _index(shape: tuple[int, ...], k: int) -> str:
    """``[i]`` or ``[i, r]``: flat position ``k`` of an array of ``shape``."""
    if not shape:
        return ""
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(k, shape)) + "]"


def _at(x: object, shape: tuple[int, ...], k: int) -> object:
    """The entry of the nested sequence ``x`` at flat position ``k`` of ``shape``."""
    v = x
    for i in np.unravel_index(k, shape) if shape else ():
        v = v[int(i)]  # type: ignore[index]
    return v


def _entry(v: object, where: str) -> float:
    """One entry of an object array (Python ints, fractions, decimals) as float64."""
    if isinstance(v, bool | np.bool_):
        raise TypeError(f"{where} must be a number, not {v!r}")
    if isinstance(v, numbers.Integral):
        i = int(v)
        if abs(i) > 2**1023:
            raise ValueError(f"{where} is {_short(i)}, beyond the float64 range (1.8e308)")
        if float(i) != i:
            raise ValueError(f"{where} is {i}, an integer above 2^53 that float64 cannot "
                             f"hold exactly (it would read as {int(float(i))}); give "
                             f"numbers float64 holds")
        return float(i)
    if isinstance(v, numbers.Real | Decimal):
        try:
            f = float(v)
        except OverflowError:
            f = math.inf
        except ValueError:  # a signalling NaN
            f = math.nan
        if math.isinf(f) and not (isinstance(v, float) or (isinstance(v, Decimal)
                                                           and v.is_infinite())):
            raise ValueError(f"{where} is {_short(v)}, beyond the float64 range (1.8e308)")
        if f == 0 and v != 0:
            raise ValueError(f"{where} is {_short(v)}, nonzero but below the float64 range "
                             f"(it would read as 0)")
        return f
    raise TypeError(f"{where} must be a number, got {_short(v)}")


def _short(v: object) -> str:
    text = repr(v) if not isinstance(v, int) else str(v)
    return text if len(text) <= 40 else f"{text[:20]}...{text[-8:]} ({len(text)} characters)"


def _ids(ids: Sequence[object] | None, n: int, what: str) -> tuple[str, ...]:
    out = tuple(str(i) for i in (range(n) if ids is None else ids))
    if len(out) != n:
        raise ValueError(f"{len(out)} ids for {n} {what}")
    seen: set[str] = set()
    for i in out:
        if i in seen:
            raise ValueError(f"{what} id {i!r} appears twice")
        seen.add(i)
    return out


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
        a = _array(self.arrival, "arrival", 1)
        n = len(a)
        if n == 0:
            raise ValueError("a job set needs at least one job")
        p = _array(self.processing, "processing", 1)
        d = _array(self.demand, "demand", 2)
        w = _array(np.ones(n) if self.weight is None else self.weight, "weight", 1)
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
        object.__setattr__(self, "ids", _ids(self.ids or None, n, "job"))

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


@dataclass(frozen=True, eq=False)
class Machines:
    """M machines, ``capacity`` (M, R) (XLL21: column 0 cores C_i, column 1 memory M_i).

    >>> Machines([[64, 128], [16, 32]]).total().tolist()
    [80.0, 160.0]
    """

    capacity: np.ndarray
    ids: tuple[str, ...] = ()  # default: "0", "1", ...

    def __post_init__(self) -> None:
        c = _array(self.capacity, "capacity", 2)
        if c.shape[0] == 0 or c.shape[1] == 0:
            raise ValueError("a cluster needs at least one machine and one resource")
        if np.any(c <= 0):
            raise ValueError(f"capacities must be > 0 (machine {int(np.argmax((c <= 0).any(1)))})")
        object.__setattr__(self, "capacity", c)
        object.__setattr__(self, "ids", _ids(self.ids or None, c.shape[0], "machine"))

    @property
    def m(self) -> int:
        return int(self.capacity.shape[0])

    @property
    def resources(self) -> int:
        return int(self.capacity.shape[1])

    def total(self) -> np.ndarray:
        """Sum of capacities per resource (XLL21's C = sum_i C_i)."""
        return self.capacity.sum(axis=0)

    def __len__(self) -> int:
        return self.m

    def __repr__(self) -> str:
        return f"Machines({self.m} machines, {self.resources} resource(s))"


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
