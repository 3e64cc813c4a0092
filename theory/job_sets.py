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

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from theory.arrays import exact_float_array, unique_ids
from theory.cluster import Cluster
from theory.numbers import MAX_EXACT_INT, short_repr

__all__ = ["JobSet", "Machines", "JOB_FIELDS", "map_job_columns", "require_integers",
           "check_fits", "require_resources"]

#: the fields of a job a column mapping may name (:meth:`JobSet.from_frame`,
#: :func:`theory.readers.job_files.read_jobs`); ``demand`` takes one column per resource
JOB_FIELDS: tuple[str, ...] = ("id", "arrival", "processing", "weight", "demand")
_MEANING = {"id": "the job ids", "arrival": "the arrival times",
            "processing": "the processing times", "weight": "the weights",
            "demand": "the demands"}


def _listed(labels: Sequence[object], limit: int = 300) -> str:
    text = ", ".join(repr(c) for c in labels)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def map_job_columns(columns: Mapping[str, Any] | None, available: Sequence[object],
                    where: str) -> dict[str, Any]:
    """Resolve a column mapping against the column names ``available``.

    ``columns`` maps fields of :data:`JOB_FIELDS` to column names (``demand`` to a list of
    names, one per resource, in order; a single name is one resource). A field left out
    is the column of its own name: ``id`` and ``weight`` when present (else default ids,
    weights 1), ``arrival`` and ``processing`` always, ``demand`` the columns
    ``demand_0``, ``demand_1``, ... (as many as are consecutive in ``available``).

    Parameters
    ----------
    columns : mapping or None
        Field -> column name (``"demand"`` -> a list of names, or one name); None or
        an empty mapping reads every field from the column of its own name.
    available : sequence
        The column names of the table (text, or integers for a header-less table).
    where : str
        The table, for the error messages (``"jobs.csv"``, ``"the frame"``).

    Returns
    -------
    dict
        ``{field: name}`` for every field of :data:`JOB_FIELDS`: ``id`` and ``weight``
        may be None (not in the table), ``demand`` is a list of names.

    Raises
    ------
    ValueError
        Starting with ``where``: ``columns`` is not a mapping, names an unknown field,
        gives a name that is empty or not text, a column ``available`` lacks (the
        columns are listed) or has twice, an empty list of demands or one demand
        column twice; also a required column (``arrival``, ``processing``,
        ``demand_0``) left out of the mapping and missing from the table.

    References
    ----------
    docs/design.md, section Job and cluster files.

    Examples
    --------
    >>> from theory import map_job_columns
    >>> map_job_columns(None, ["arrival", "processing", "demand_0", "demand_1"], "jobs.csv")
    {'id': None, 'arrival': 'arrival', 'processing': 'processing', 'weight': None,
     'demand': ['demand_0', 'demand_1']}
    >>> map_job_columns({"arrival": "submit", "demand": ["cpu"]},
    ...                 ["submit", "processing", "cpu", "weight"], "the frame")
    {'id': None, 'arrival': 'submit', 'processing': 'processing', 'weight': 'weight',
     'demand': ['cpu']}
    >>> map_job_columns({"arrival": "submit"}, ["start", "processing", "demand_0"],
    ...                 "jobs.csv")
    Traceback (most recent call last):
    ...
    ValueError: jobs.csv: no column 'submit' (mapped to 'arrival'); the columns are
    'start', 'processing', 'demand_0'
    """
    if columns is None:
        columns = {}
    if not isinstance(columns, Mapping):
        raise ValueError(f"{where}: columns must map fields ({', '.join(JOB_FIELDS)}) to "
                         f"column names, got {short_repr(columns, 60)}")
    for field in columns:
        if field not in JOB_FIELDS:
            raise ValueError(f"{where}: unknown field {short_repr(field, 40)} in the column "
                             f"mapping; the fields are {', '.join(JOB_FIELDS)}")
    counts: dict[object, int] = {}
    for c in available:
        counts[c] = counts.get(c, 0) + 1

    def column(field: str, name: object, mapped: bool) -> object:
        if isinstance(name, bool) or not isinstance(name, str | numbers.Integral) or \
                name == "":
            raise ValueError(f"{where}: the column mapping gives {field!r} the name "
                             f"{short_repr(name, 40)}; a column name is non-empty text")
        if name not in counts:
            how = (f"mapped to {field!r}" if mapped else
                   f"for {_MEANING[field]}; name their column in the mapping, "
                   f"e.g. {field}=NAME")
            raise ValueError(f"{where}: no column {short_repr(name, 40)} ({how}); the "
                             f"columns are {_listed(list(counts))}")
        if counts[name] > 1:
            raise ValueError(f"{where}: column {short_repr(name, 40)} (for {field!r}) "
                             f"appears {counts[name]} times; column names must be unique")
        return name

    out: dict[str, Any] = {}
    for field in ("id", "arrival", "processing", "weight"):
        if field in columns:
            out[field] = column(field, columns[field], True)
        elif field in ("id", "weight") and field not in counts:
            out[field] = None
        else:
            out[field] = column(field, field, False)
    if "demand" in columns:
        names = columns["demand"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, Sequence) or len(names) == 0:
            raise ValueError(f"{where}: the column mapping gives 'demand' "
                             f"{short_repr(columns['demand'], 40)}; give a list of column "
                             "names, one per resource")
        out["demand"] = [column("demand", c, True) for c in names]
        twice = next((c for k, c in enumerate(names) if c in names[:k]), None)
        if twice is not None:
            raise ValueError(f"{where}: the column mapping names {short_repr(twice, 40)} "
                             "twice among the demands")
    else:
        out["demand"] = [column("demand", "demand_0", False)]
        while f"demand_{len(out['demand'])}" in counts:
            out["demand"].append(column("demand", f"demand_{len(out['demand'])}", False))
    return out


@dataclass(frozen=True, eq=False)
class JobSet:
    """N jobs: ``arrival`` (N,), ``processing`` (N,), ``weight`` (N,), ``demand`` (N, R).

    The finite job set of XLL21 and FL24. Units are the model's: XLL21 reads integer
    slots, cores (``demand[:, 0]``) and memory (``demand[:, 1]``); FL24 reads time
    units and fractions of a machine. Validated on construction; immutable, with
    read-only float64 arrays (an integer above 2^53 or a number beyond the float64
    range is refused, never rounded). ``volume(r)`` is p_j d_jr, ``where(j)`` names job
    ``j`` for a message, and ``n`` and ``resources`` are the sizes.

    Parameters
    ----------
    arrival : array_like, shape (N,)
        Arrival (release) times a_j or r_j, at least 0.
    processing : array_like, shape (N,)
        Processing times p_j, above 0.
    demand : array_like, shape (N, R)
        Demands d_j, one column per resource, each at least 0; every job demands
        something (some entry above 0).
    weight : array_like, shape (N,), optional
        Weights w_j, above 0 (default: all 1).
    ids : sequence, optional
        One distinct id per job, kept as text (default ``"0"``, ``"1"``, ...).
    source : str, default ""
        The file the jobs were read from, for messages.
    lines : array_like of int, shape (N,), optional
        Each job's line in ``source`` (at least 1), for messages.

    Raises
    ------
    ValueError
        No jobs; arrays of the wrong dimension or of unequal lengths; an entry NaN,
        infinite, beyond the float64 range or an integer above 2^53; a negative
        arrival, a processing time or weight at most 0, no resource, a negative demand,
        a job demanding nothing; ids of the wrong number or repeated; ``lines`` not one
        integer at least 1 per job.
    TypeError
        Entries that are text or bools, or ``source`` not text.

    References
    ----------
    XLL21, Sec. II-A (jobs a_j, p_j, d_j, m_j; the volume v_j = p_j d_j); FL24, Sec. 3
    (release r_j, processing p_j, weight w_j, demands d_jl). docs/design.md, section Job
    and cluster files.

    Examples
    --------
    >>> from theory import JobSet
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[1, 2, 3], demand=[[2, 1], [1, 1], [3, 2]])
    >>> jobs.n, jobs.resources, jobs.volume().tolist()
    (3, 2, [2.0, 2.0, 9.0])
    >>> jobs.weight.tolist()
    [1.0, 1.0, 1.0]
    >>> JobSet(arrival=[0], processing=[1], demand=[[1]], ids=["a"], source="jobs.csv",
    ...        lines=[2]).where(0)
    "job 'a' (jobs.csv line 2)"
    >>> JobSet(arrival=[0], processing=[0], demand=[[1]])
    Traceback (most recent call last):
    ...
    ValueError: processing must be > 0 (job 0)
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

    @classmethod
    def from_frame(cls, frame: Any, *, columns: Mapping[str, Any] | None = None,
                   weight: float | None = None, time_unit: float | None = None) -> JobSet:
        """A job set from the rows of a pandas DataFrame (one row per job).

        Units: ``arrival`` and ``processing`` are read in the model's time unit (XLL21:
        slots, integers; FL24: time units, with the smallest processing time 1 in its
        normalisation) and demands in the cluster's capacity units (XLL21: cores and
        memory; FL24: fractions of a machine). A trace in other units is converted by
        ``time_unit`` (times are divided by it: seconds with ``time_unit=60`` become
        minutes); any other scaling (of demands) is the caller's.

        Parameters
        ----------
        frame : pandas.DataFrame
            One row per job. Columns not mapped are ignored.
        columns : mapping, optional
            Field -> column name, for the fields ``"id"``, ``"arrival"``,
            ``"processing"``, ``"weight"`` and ``"demand"`` (a list of column names, one
            per resource, in order). A field left out is read from the column of its
            own name, as in a jobs file (docs/design.md): ``arrival``, ``processing``,
            ``demand_0``, ``demand_1``, ...; ``id`` and ``weight`` when the frame has
            them (else ids ``"0"``, ``"1"``, ... and weights 1).
        weight : float, optional
            One weight for every job, instead of a weight column.
        time_unit : float, optional
            A positive divisor of arrivals and processing times (default 1).

        Returns
        -------
        JobSet
            The jobs in the frame's row order (ids as text).

        Raises
        ------
        ImportError
            pandas is not installed (``pip install 'packsched[frames]'``).
        TypeError
            ``frame`` is not a DataFrame.
        ValueError
            An unknown field or empty name in ``columns``; a column the frame lacks (the
            frame's columns are listed) or has twice; no rows; and, naming the column
            and the first bad row (0-based position, with the index label when the
            index is not the default one): a missing value (NaN/None), a non-numeric
            entry or column, an infinite number, an integer float64 cannot hold
            exactly, a negative arrival, a processing time or weight <= 0, a negative
            demand, a job demanding nothing, an empty or duplicate id; a bad
            ``weight`` or ``time_unit``, or ``weight`` together with a weight column.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"job": ["a", "b"], "submit": [0, 60], "dur": [120, 60],
        ...                    "cpu": [0.5, 0.25], "mem": [0.2, 0.4]})
        >>> jobs = JobSet.from_frame(df, columns={"id": "job", "arrival": "submit",
        ...     "processing": "dur", "demand": ["cpu", "mem"]}, time_unit=60)
        >>> jobs.ids, jobs.arrival.tolist(), jobs.processing.tolist()
        (('a', 'b'), [0.0, 1.0], [2.0, 1.0])
        >>> jobs.demand.tolist(), jobs.weight.tolist()
        ([[0.5, 0.2], [0.25, 0.4]], [1.0, 1.0])
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("JobSet.from_frame needs pandas: pip install "
                              "'packsched[frames]'") from None
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"from_frame needs a pandas DataFrame, got "
                            f"{type(frame).__name__}")
        cols = map_job_columns(columns, list(frame.columns), "the frame")
        n = len(frame)
        if n == 0:
            raise ValueError(f"the frame has no rows (columns {_listed(list(frame.columns))}"
                             "); one row per job is expected")
        unit = 1.0 if time_unit is None else _positive(time_unit, "time_unit")
        default_index = isinstance(frame.index, pd.RangeIndex) and \
            frame.index.start == 0 and frame.index.step == 1

        def row(i: int) -> str:
            return f"row {i}" if default_index else \
                f"row {i} (index {short_repr(frame.index[i], 40)})"

        def bad(col: object, field: str, i: int, what: str) -> ValueError:
            return ValueError(f"the frame: column {short_repr(col, 40)} ({field}), "
                              f"{row(i)}: {what}")

        def values(col: object, field: str) -> np.ndarray:
            return _frame_numbers(frame[col], bad, col, field, pd)

        def first(mask: np.ndarray) -> int:
            return int(np.argmax(mask))

        a = values(cols["arrival"], "arrival")
        if np.any(a < 0):
            i = first(a < 0)
            raise bad(cols["arrival"], "arrival", i, f"{a[i]:g} is negative (arrival times "
                      "are >= 0)")
        p = values(cols["processing"], "processing")
        if np.any(p <= 0):
            i = first(p <= 0)
            raise bad(cols["processing"], "processing", i, f"{p[i]:g} must be > 0 (a "
                      "processing time is positive)")
        if weight is not None:
            if cols["weight"] is not None:
                raise ValueError(f"weight={weight!r} given and the frame has the weight "
                                 f"column {short_repr(cols['weight'], 40)}: give one")
            w = np.full(n, _positive(weight, "weight"))
        elif cols["weight"] is not None:
            w = values(cols["weight"], "weight")
            if np.any(w <= 0):
                i = first(w <= 0)
                raise bad(cols["weight"], "weight", i, f"{w[i]:g} must be > 0 (a weight is "
                          "positive)")
        else:
            w = np.ones(n)
        d = np.empty((n, len(cols["demand"])))
        for k, c in enumerate(cols["demand"]):
            d[:, k] = values(c, "demand")
            if np.any(d[:, k] < 0):
                i = first(d[:, k] < 0)
                raise bad(c, "demand", i, f"{d[i, k]:g} is negative (demands are >= 0)")
        if np.any(d.max(axis=1) <= 0):
            i = first(d.max(axis=1) <= 0)
            raise ValueError(f"the frame: {row(i)} demands nothing (columns "
                             f"{_listed(cols['demand'])} all 0); every job must demand "
                             "some resource")
        ids: tuple[str, ...] = ()
        if cols["id"] is not None:
            ids = _frame_ids(frame[cols["id"]], bad, cols["id"], pd)
        if unit != 1.0:
            with np.errstate(over="ignore", under="ignore"):
                a, p = a / unit, p / unit
            if not (np.all(np.isfinite(a)) and np.all(np.isfinite(p))):
                raise ValueError(f"time_unit {unit:g} makes a time beyond the float range "
                                 f"(largest arrival {np.max(a):g}, processing "
                                 f"{np.max(p):g} after dividing)")
            if np.any(p <= 0):
                i = first(p <= 0)
                raise bad(cols["processing"], "processing", i, f"{p[i] * unit:g} / "
                          f"time_unit {unit:g} is 0 in float64")
        return cls(arrival=a, processing=p, demand=d, weight=w, ids=ids)

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


def _positive(x: object, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or \
            not math.isfinite(float(x)) or float(x) <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {short_repr(x, 40)}")
    return float(x)


def _frame_numbers(s: Any, bad: Any, col: object, field: str, pd: Any) -> np.ndarray:
    """The numbers of one frame column as float64; ``bad(col, field, row, what)`` makes
    the error for the first missing, non-numeric, infinite or inexact entry."""
    missing = np.asarray(s.isna())
    if missing.any():
        i = int(np.argmax(missing))
        raise bad(col, field, i, f"missing value ({short_repr(s.iloc[i], 20)})")
    kind = s.dtype.kind
    if kind in "iu" and isinstance(s.dtype, np.dtype):
        raw = s.to_numpy()
        big = (raw > MAX_EXACT_INT) if kind == "u" else \
            ((raw > MAX_EXACT_INT) | (raw < -MAX_EXACT_INT))
        if big.any():
            i = int(np.argmax(big))
            raise bad(col, field, i, f"{int(raw[i])} is an integer above 2**53, which "
                      "float64 does not hold exactly")
        return raw.astype(np.float64)
    if kind in "iuf":
        out = s.to_numpy(dtype=np.float64)
    elif kind == "O":
        entries = s.to_numpy(dtype=object)
        out = np.empty(len(entries))
        for i, v in enumerate(entries):
            if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real):
                raise bad(col, field, i, f"{short_repr(v, 40)} is not a number")
            try:
                out[i] = float(v)
            except OverflowError:
                raise bad(col, field, i, f"{short_repr(v, 40)} is beyond the float64 "
                          "range") from None
            if isinstance(v, numbers.Integral) and math.isfinite(out[i]) and \
                    int(v) != int(out[i]):
                raise bad(col, field, i, f"{int(v)} is an integer above 2**53, which "
                          "float64 does not hold exactly")
    else:
        raise bad(col, field, 0, f"the column holds {s.dtype} values, not numbers "
                  f"({short_repr(s.iloc[0], 40)}); convert it to numbers in the model's "
                  "units first")
    inf = ~np.isfinite(out)
    if inf.any():
        i = int(np.argmax(inf))
        raise bad(col, field, i, f"{out[i]} is not a finite number")
    return out


def _frame_ids(s: Any, bad: Any, col: object, pd: Any) -> tuple[str, ...]:
    """One text id per row: none missing, empty or repeated."""
    ids: list[str] = []
    seen: dict[str, int] = {}
    for i, v in enumerate(s.to_numpy(dtype=object)):
        if v is None or (not isinstance(v, str) and bool(pd.isna(v))):
            raise bad(col, "id", i, f"missing id ({short_repr(v, 20)})")
        text = str(v)
        if not text:
            raise bad(col, "id", i, "empty id")
        if text in seen:
            raise bad(col, "id", i, f"id {short_repr(text, 40)} already used in row "
                      f"{seen[text]}; ids must be unique")
        seen[text] = i
        ids.append(text)
    return tuple(ids)


#: the machines of a finite job set: one :class:`theory.cluster.Cluster` for every family
Machines = Cluster


def require_integers(jobs: JobSet, machines: Machines | None = None, *,
                     what: str = "XLL21") -> None:
    """XLL21 II-A: arrivals, processing times, demands and capacities are integers.

    Weights are not checked (any positive weight is allowed).

    Parameters
    ----------
    jobs : JobSet
        The jobs (arrivals in slots, processing times in slots, demands in cores and
        memory units).
    machines : Machines or None, default None
        The cluster, whose capacities are checked too (None: jobs only).
    what : str, default "XLL21"
        The model that needs integers, for the error message.

    Raises
    ------
    ValueError
        Naming the first job (by id) with a fractional arrival, processing time or
        demand, or the first machine with a fractional capacity.

    References
    ----------
    XLL21, Sec. II-A ("All d_j, m_j and p_j are integers"; time is slotted).

    Examples
    --------
    >>> from theory import JobSet, Machines, require_integers
    >>> require_integers(JobSet(arrival=[0, 1], processing=[2, 3], demand=[[1], [2]]),
    ...                  Machines([[4]]))
    >>> require_integers(JobSet(arrival=[0.5], processing=[1], demand=[[1]]))
    Traceback (most recent call last):
    ...
    ValueError: XLL21 needs integer arrivals; job '0' has 0.5
    """
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
    """Every job fits on at least one machine, in every resource at once.

    Only the first ``resources`` resources are compared if given; a job that fits on no
    machine could never run, so it is refused before any schedule. The comparison is
    ``demand <= capacity`` in float64, without tolerance.

    Parameters
    ----------
    jobs : JobSet
        The jobs.
    machines : Machines
        The cluster, in the same units as the demands.
    resources : int or None, default None
        Compare only the first ``resources`` resources (None: all, and then the jobs
        and the machines must have the same number).

    Raises
    ------
    ValueError
        When the numbers of resources do not match (or fall below ``resources``), or
        naming the first job that fits no machine, with its demand and the largest
        capacities.

    References
    ----------
    XLL21, Sec. II-A (a machine runs jobs as long as their total demand does not exceed
    its capacity); FL24, Sec. 3 (demands as fractions of a machine). docs/design.md,
    section Validation.

    Examples
    --------
    >>> from theory import JobSet, Machines, check_fits
    >>> machines = Machines([[4, 2], [2, 2]])
    >>> check_fits(JobSet(arrival=[0], processing=[1], demand=[[3, 2]]), machines)
    >>> check_fits(JobSet(arrival=[0], processing=[1], demand=[[5, 1]]), machines)
    Traceback (most recent call last):
    ...
    ValueError: job '0' with demand [5.0, 1.0] fits no machine (largest capacities [4.0, 2.0])
    """
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

    Parameters
    ----------
    jobs : JobSet
        The jobs.
    machines : Machines
        The cluster.
    used : int
        How many leading resources the model reads.
    model : str
        The model, for the message (``"XLL21"``).
    hint : str, default ""
        Text appended to the message, e.g. ``"; add --memory"``.

    Raises
    ------
    ValueError
        When the jobs or the machines have more than ``used`` resources.

    References
    ----------
    XLL21, Sec. II-A (two resources: cores and memory). docs/design.md, section Job
    and cluster files (a third resource is refused).

    Examples
    --------
    >>> from theory import JobSet, Machines, require_resources
    >>> jobs = JobSet(arrival=[0], processing=[1], demand=[[2, 1]])
    >>> require_resources(jobs, Machines([[4, 2]]), 2, model="XLL21")
    >>> require_resources(jobs, Machines([[4, 2]]), 1, model="XLL21 without --memory",
    ...                   hint="; add --memory")
    Traceback (most recent call last):
    ...
    ValueError: the jobs have column demand_1 (2 resources), which XLL21 without
    --memory does not read; add --memory
    """
    for what, r, col in (("jobs", jobs.resources, "demand"),
                         ("cluster", machines.resources, "capacity")):
        if r > used:
            raise ValueError(f"the {what} have column {col}_{used} ({r} resources), which "
                             f"{model} does not read{hint}")
