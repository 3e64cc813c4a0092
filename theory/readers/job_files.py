"""Job and cluster CSV files of finite job sets (docs/design.md, Contracts: job and cluster files).

A *jobs file* holds one :class:`~theory.job_sets.JobSet`, a *cluster file* one
:class:`~theory.job_sets.Machines`:

* jobs: header ``id,arrival,processing,weight,demand_0,...,demand_{R-1}``, one row per
  job; the ``weight`` column may be left out (every weight is then 1);
* cluster: header ``id,capacity_0,...,capacity_{R-1}``, one row per machine;

with R >= 1 and the columns exactly in this order, with exactly these names. Fields may
have surrounding spaces (stripped); blank lines and lines starting with ``#`` are
skipped (so an id cannot start with ``#``); a UTF-8 BOM is dropped; the text may be
gzip-compressed (:func:`theory.readers.traces.read_text_file`).

Numbers are decimal text: ``3``, ``-0.25``, ``1e3``; ``nan``, ``inf``, empty fields,
other text and values outside the float64 range are refused. With ``integers=True``
(XLL21 Sec. II-A: "All d_j, m_j and p_j are integers", arrivals are slot indices) every
arrival, processing time, demand and capacity must be an integer of at most 2**53
(float64 holds those exactly). The reader gives the demands no meaning beyond
validation: XLL21 reads ``demand_0`` as cores and ``demand_1`` as memory, FL24 Sec. 3
reads demands as fractions of a machine.

Every problem is a ``ValueError`` that names the file, and for a problem of one line
starts with ``{file}:{line}:`` (1-based line number in the file) and names the column
and the offending text.
"""

from __future__ import annotations

import csv
import math
import os
import re
from array import array
from collections.abc import Iterator, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from theory.budgets import MEMORY_BUDGET, check_budget
from theory.job_sets import JobSet, Machines, check_fits, map_job_columns, require_integers
from theory.numbers import MAX_EXACT_INT, MAX_TEXT_LENGTH, short_repr
from theory.progress import Progress
from theory.readers.traces import read_text_file

__all__ = [
    "JOB_COLUMNS",
    "CLUSTER_COLUMNS",
    "read_jobs",
    "write_jobs",
    "read_cluster",
    "write_cluster",
    "read_instance",
]

#: Leading columns of a jobs file (``weight`` may be left out); then ``demand_0``, ...
JOB_COLUMNS: tuple[str, ...] = ("id", "arrival", "processing", "weight")
#: Leading column of a cluster file; then ``capacity_0``, ...
CLUSTER_COLUMNS: tuple[str, ...] = ("id",)

PathLike = str | os.PathLike[str]

_JOBS_FORM = "id,arrival,processing,weight,demand_0,...,demand_{R-1}"
_CLUSTER_FORM = "id,capacity_0,...,capacity_{R-1}"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_DIGITS = re.compile(r"[+-]?[0-9]+\Z")
_SPACES = " \t"
_WHO = "XLL21"  # who needs integers (XLL21 Sec. II-A)
_PROGRESS_EVERY = 0xFFFF


# -- reading ---------------------------------------------------------------------------


def _name(path: PathLike) -> str:
    return str(Path(path))


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of the non-blank, non-comment lines; ``\\n`` or ``\\r\\n`` ends."""
    start, n, lineno = 0, len(text), 0
    while start < n:
        end = text.find("\n", start)
        if end < 0:
            end = n
        lineno += 1
        line = text[start:end]
        start = end + 1
        if line.endswith("\r"):
            line = line[:-1]
        body = line.lstrip(_SPACES)
        if body and not body.startswith("#"):
            yield lineno, line


def _fields(line: str, where: str) -> list[str]:
    if '"' in line:
        try:
            row = next(csv.reader([line], strict=True))
        except csv.Error as err:
            raise ValueError(f"{where}: not valid CSV ({err})") from None
    else:
        row = line.split(",")
    return [f.strip(_SPACES) for f in row]


def _header(rows: Iterator[tuple[int, str]], name: str, fixed: tuple[str, ...],
            optional: str | None, prefix: str, form: str, what: str,
            text: str) -> tuple[int, bool, int]:
    """Check the header; return (its line number, whether ``optional`` is there, R)."""
    first = next(rows, None)
    if first is None:
        why = ("empty file (no text)" if not text or text.isspace() else
               "no header (only comments and blank lines)")
        raise ValueError(f"{name}: {why}; a {what} file starts with the header {form!r}")
    lineno, line = first
    got = _fields(line, f"{name}:{lineno}")
    has_opt = optional is not None and len(got) > len(fixed) and got[len(fixed)] == optional
    lead = [*fixed, optional] if has_opt else list(fixed)
    r = len(got) - len(lead)
    want = [*lead, *(f"{prefix}{k}" for k in range(max(r, 1)))]
    if got == want:
        return lineno, has_opt, r
    i = next((k for k, (g, w) in enumerate(zip(got, want, strict=False)) if g != w),
             min(len(got), len(want)))
    if i >= len(got):
        detail = f"no column {want[i]!r}"
    else:
        detail = f"column {i + 1} is {short_repr(got[i], 40)} where {want[i]!r} belongs"
    opt = f" (the {optional!r} column may be left out)" if optional else ""
    raise ValueError(f"{name}:{lineno}: header {short_repr(','.join(got), 200)} is wrong: "
                     f"{detail}; the header of a {what} file must be {form!r}{opt}, with "
                     "R >= 1 and exactly these names in this order")


class _Fields:
    """Parses the fields of one file, naming the file, the line and the column."""

    def __init__(self, name: str, integers: bool, what: str):
        self.name, self.integers, self.what = name, integers, what

    def number(self, text: str, col: str, where: str, integer: bool, noun: str) -> float:
        if not text:
            raise ValueError(f"{where}: field {col!r} is empty")
        if len(text) > MAX_TEXT_LENGTH:
            raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is longer than "
                             f"{MAX_TEXT_LENGTH} characters, not a number")
        if not _NUMBER.match(text):
            if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
                raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is not a finite "
                                 "number")
            raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is not a number "
                             "(write a decimal such as 3, 0.25 or 1e3)")
        v = float(text)
        if math.isinf(v):
            raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is not a finite "
                             "float64 number (beyond the float64 range, 1.8e308)")
        if v == 0 and re.search("[1-9]", re.split("[eE]", text)[0]):
            raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is nonzero but below "
                             "the float64 range (it would read as 0)")
        if integer and self.integers:
            if not _is_integer(text, v):
                raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is not an "
                                 f"integer ({_WHO} needs integer {noun})")
            if abs(v) >= MAX_EXACT_INT and abs(Decimal(text)) > MAX_EXACT_INT:
                raise ValueError(f"{where}: field {col!r}: {short_repr(text, 40)} is an integer "
                                 f"above 2**53, which float64 does not hold exactly")
        return v

    def ident(self, text: str, where: str, lineno: int, seen: set[str], ids: list[str],
              lines: array) -> None:
        if not text:
            raise ValueError(f"{where}: field 'id' is empty")
        if text in seen:
            first = lines[ids.index(text)]
            raise ValueError(f"{where}: {self.what} id {short_repr(text, 40)} already used on line "
                             f"{first} (field 'id'; ids must be unique)")
        seen.add(text)
        ids.append(text)
        lines.append(lineno)


def _is_integer(text: str, v: float) -> bool:
    if not v.is_integer():
        return False
    if _DIGITS.match(text):
        return True
    d = Decimal(text)  # exact: '2.0000000000000001' is not an integer though its float is
    return d == d.to_integral_value()


def _too_short(row: list[str], width: int, where: str) -> None:
    if len(row) != width:
        raise ValueError(f"{where}: {len(row)} field{'s' * (len(row) != 1)}, the header "
                         f"has {width}")


def _mapped_header(rows: Iterator[tuple[int, str]], name: str, columns: Mapping[str, Any],
                   text: str) -> tuple[int, dict[str, Any], list[str]]:
    """Header of a jobs file read with a column mapping: (its line, {field: position}
    with ``demand`` a list and ``id``/``weight`` possibly None, the column names)."""
    first = next(rows, None)
    if first is None:
        why = ("empty file (no text)" if not text or text.isspace() else
               "no header (only comments and blank lines)")
        raise ValueError(f"{name}: {why}; a jobs file starts with a header of column names")
    lineno, line = first
    got = _fields(line, f"{name}:{lineno}")
    cols = map_job_columns(columns, got, f"{name}:{lineno}")
    pos: dict[str, Any] = {f: (None if c is None else got.index(c))
                           for f, c in cols.items() if f != "demand"}
    pos["demand"] = [got.index(c) for c in cols["demand"]]
    return lineno, pos, got


def _read_jobs(path: PathLike, integers: bool, memory_budget: float,
               columns: Mapping[str, Any] | None = None) -> tuple[JobSet, array]:
    text = read_text_file(path, memory_budget=memory_budget)
    name = _name(path)
    rows = _lines(text)
    if columns is None:
        head, has_weight, r = _header(rows, name, JOB_COLUMNS[:3], "weight", "demand_",
                                      _JOBS_FORM, "jobs", text)
        width = 3 + has_weight + r
        pos: dict[str, Any] = {"id": 0, "arrival": 1, "processing": 2,
                               "weight": 3 if has_weight else None,
                               "demand": list(range(width - r, width))}
        names = [*JOB_COLUMNS[:3], *(["weight"] if has_weight else []),
                 *(f"demand_{k}" for k in range(r))]
        nothing = "demand_0" if r == 1 else f"demand_0..demand_{r - 1}"
    else:
        head, pos, names = _mapped_header(rows, name, columns, text)
        width = len(names)
        r = len(pos["demand"])
        nothing = ", ".join(names[k] for k in pos["demand"])
    i_id, i_a, i_p, i_w = pos["id"], pos["arrival"], pos["processing"], pos["weight"]
    demand_cols = [(names[k], k) for k in pos["demand"]]
    f = _Fields(name, integers, "job")
    arrival, processing, weight, demand = array("d"), array("d"), array("d"), array("d")
    ids: list[str] = []
    lines = array("q")
    seen: set[str] = set()
    with Progress(f"reading {name}", total=text.count("\n") + 1, unit="lines") as prog:
        for lineno, line in rows:
            if not lineno & _PROGRESS_EVERY:
                prog.update(lineno)
            where = f"{name}:{lineno}"
            row = _fields(line, where)
            _too_short(row, width, where)
            if i_id is None:
                lines.append(lineno)
            else:
                f.ident(row[i_id], where, lineno, seen, ids, lines)
            a = f.number(row[i_a], names[i_a], where, True, "arrival times (slot indices)")
            if a < 0:
                raise ValueError(f"{where}: field {names[i_a]!r}: {short_repr(row[i_a], 40)} "
                                 "is negative (arrival times are >= 0)")
            p = f.number(row[i_p], names[i_p], where, True, "processing times")
            if p <= 0:
                raise ValueError(f"{where}: field {names[i_p]!r}: {short_repr(row[i_p], 40)} "
                                 "must be > 0 (a processing time is positive)")
            w = 1.0
            if i_w is not None:
                w = f.number(row[i_w], names[i_w], where, False, "weights")
                if w <= 0:
                    raise ValueError(f"{where}: field {names[i_w]!r}: "
                                     f"{short_repr(row[i_w], 40)} must be > 0 (a weight is "
                                     "positive)")
            some = False
            for col, k in demand_cols:
                t = row[k]
                d = f.number(t, col, where, True, "demands")
                if d < 0:
                    raise ValueError(f"{where}: field {col!r}: {short_repr(t, 40)} is negative "
                                     "(demands are >= 0)")
                some = some or d > 0
                demand.append(d)
            if not some:
                who = "" if i_id is None else f" for job {short_repr(row[i_id], 40)}"
                raise ValueError(f"{where}: the job demands nothing ({nothing} all 0{who}); "
                                 "every job must demand some resource")
            arrival.append(a)
            processing.append(p)
            weight.append(w)
    if not lines:
        raise ValueError(f"{name}: a header (line {head}) but no jobs; one row per job is "
                         f"expected after it")
    jobs = JobSet(arrival=np.frombuffer(arrival), processing=np.frombuffer(processing),
                  demand=np.frombuffer(demand).reshape(len(lines), r),
                  weight=np.frombuffer(weight), ids=tuple(ids), source=name,
                  lines=np.frombuffer(lines, dtype=np.int64))
    return jobs, lines


def read_jobs(path: PathLike, *, integers: bool = False,
              memory_budget: float = MEMORY_BUDGET,
              columns: Mapping[str, Any] | None = None) -> JobSet:
    """Read a jobs file (docs/design.md, Contracts: job and cluster files).

    Header ``id,arrival,processing,weight,demand_0,...,demand_{R-1}`` (``weight`` may be
    left out: every weight is 1), one row per job. Blank lines and lines starting with
    ``#`` are skipped; a UTF-8 BOM is dropped. ``integers=True`` requires integer
    arrivals, processing times and demands (XLL21 Sec. II-A); without it demands may be
    fractions of a machine (FL24 Sec. 3).

    Raises ``ValueError`` naming the file and (for one line) ``{file}:{line}:``, the
    column and the text: a wrong header, a row with the wrong number of fields, an empty
    field, a field that is not a finite decimal number in the float64 range, a negative
    arrival, a processing time or weight <= 0, a negative demand, a job demanding
    nothing, a duplicate id (naming both lines), a non-integer with ``integers=True``,
    no jobs. :class:`theory.budgets.BudgetExceeded` above ``memory_budget``.

    ``columns`` reads a trace's own CSV as it is: a mapping of the fields ``id``,
    ``arrival``, ``processing``, ``weight`` and ``demand`` (a list of column names, one
    per resource, in order) to the header's column names, as
    :meth:`theory.job_sets.JobSet.from_frame` takes it. The header may then have any
    columns in any order; columns not mapped are ignored (each row must still have as
    many fields as the header), a field not mapped is the column of its own name
    (``id`` and ``weight`` may be absent: ids ``"0"``, ``"1"``, ..., weights 1), and
    messages name the file's columns. Arrivals and processing times are in the model's
    time unit, demands in the cluster's capacity units: a trace in other units must be
    converted first. An unknown field, an empty name, a column the header lacks (the
    header's columns are listed) or has twice is a ``ValueError`` starting
    ``{file}:{line}:``.

    Parameters
    ----------
    path : str or os.PathLike
        The jobs file (UTF-8 text, plain or gzip).
    integers : bool, default False
        Require integer arrivals, processing times and demands of at most 2^53 (XLL21:
        slots and cores); weights may still be any positive number.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading may use (8 GiB by default); a larger file is refused before
        it is read.
    columns : mapping, optional
        Field -> column name of the file's own header (see above); None reads the
        fixed header.

    Returns
    -------
    JobSet
        The jobs in file order, with ``source`` the file name and ``lines`` each job's
        line (for later messages); weights 1 without a weight column.

    Raises
    ------
    ValueError
        Naming the file and (for one line) ``{file}:{line}:``, the column and the text:
        the file is missing, a directory, not UTF-8 or not valid gzip; a wrong header
        or column mapping; a row with the wrong number of fields; an empty field; a
        field that is not a finite decimal number in the float64 range; a negative
        arrival; a processing time or weight at most 0; a negative demand; a job
        demanding nothing; a duplicate id (naming both lines); a non-integer or an
        integer above 2^53 with ``integers=True``; no jobs.
    BudgetExceeded
        When the file needs more than ``memory_budget`` bytes to read.

    References
    ----------
    docs/design.md, section Job and cluster files; XLL21, Sec. II-A (integer a_j, p_j,
    d_j, m_j); FL24, Sec. 3 (demands as fractions of a machine).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from theory import read_jobs
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name) / "jobs.csv"
    >>> _ = path.write_text("id,arrival,processing,demand_0\\na,0,2,0.5\\nb,1,1,0.25\\n")
    >>> jobs = read_jobs(path)
    >>> jobs.ids, jobs.demand.tolist(), jobs.weight.tolist()
    (('a', 'b'), [[0.5], [0.25]], [1.0, 1.0])
    >>> _ = path.write_text("job,submit,dur,cpu\\nx,0,60,2\\n")
    >>> read_jobs(path, columns={"id": "job", "arrival": "submit", "processing": "dur",
    ...                          "demand": ["cpu"]}).processing.tolist()
    [60.0]
    >>> _ = path.write_text("id,arrival,processing,demand_0\\na,0,0,0.5\\n")
    >>> read_jobs(path)
    Traceback (most recent call last):
    ...
    ValueError: ...jobs.csv:2: field 'processing': '0' must be > 0 (a processing time is
    positive)
    >>> tmp.cleanup()
    """
    return _read_jobs(path, integers, memory_budget, columns)[0]


def read_cluster(path: PathLike, *, integers: bool = False,
                 memory_budget: float = MEMORY_BUDGET) -> Machines:
    """Read a cluster file (docs/design.md, Contracts: job and cluster files).

    Header ``id,capacity_0,...,capacity_{R-1}``, one row per machine (XLL21 Sec. II-A:
    ``capacity_0`` cores C_i, ``capacity_1`` memory M_i). Blank lines and lines starting
    with ``#`` are skipped; a UTF-8 BOM is dropped. ``integers=True`` requires integer
    capacities (XLL21 Sec. II-A).

    Raises ``ValueError`` as :func:`read_jobs` does, for a capacity <= 0 and a file
    without machines among others.

    Parameters
    ----------
    path : str or os.PathLike
        The cluster file (UTF-8 text, plain or gzip).
    integers : bool, default False
        Require integer capacities of at most 2^53 (XLL21: cores and memory).
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading may use (8 GiB by default).

    Returns
    -------
    Machines
        One capacity vector per machine, in file order, with the file's ids.

    Raises
    ------
    ValueError
        Naming the file and (for one line) ``{file}:{line}:``, the column and the text:
        the file is missing, a directory, not UTF-8 or not valid gzip; a wrong header;
        a row with the wrong number of fields; an empty field; a field that is not a
        finite decimal number in the float64 range; a capacity at most 0; a duplicate
        id; a non-integer or an integer above 2^53 with ``integers=True``; no machines.
    BudgetExceeded
        When the file needs more than ``memory_budget`` bytes to read.

    References
    ----------
    docs/design.md, section Job and cluster files; XLL21, Sec. II-A (machine i has
    C_i cores and M_i memory).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from theory import read_cluster
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name) / "cluster.csv"
    >>> _ = path.write_text("id,capacity_0,capacity_1\\nm0,4,8\\nm1,4,8\\n")
    >>> machines = read_cluster(path, integers=True)
    >>> machines.ids, machines.capacity.tolist()
    (('m0', 'm1'), [[4.0, 8.0], [4.0, 8.0]])
    >>> _ = path.write_text("id,capacity_0\\nm0,0\\n")
    >>> read_cluster(path)
    Traceback (most recent call last):
    ...
    ValueError: ...cluster.csv:2: field 'capacity_0': '0' must be > 0 (a capacity is
    positive)
    >>> tmp.cleanup()
    """
    text = read_text_file(path, memory_budget=memory_budget)
    name = _name(path)
    rows = _lines(text)
    head, _, r = _header(rows, name, CLUSTER_COLUMNS, None, "capacity_", _CLUSTER_FORM,
                         "cluster", text)
    cols = [f"capacity_{k}" for k in range(r)]
    f = _Fields(name, integers, "machine")
    capacity = array("d")
    ids: list[str] = []
    lines = array("q")
    seen: set[str] = set()
    with Progress(f"reading {name}", total=text.count("\n") + 1, unit="lines") as prog:
        for lineno, line in rows:
            if not lineno & _PROGRESS_EVERY:
                prog.update(lineno)
            where = f"{name}:{lineno}"
            row = _fields(line, where)
            _too_short(row, 1 + r, where)
            f.ident(row[0], where, lineno, seen, ids, lines)
            for col, t in zip(cols, row[1:], strict=True):
                c = f.number(t, col, where, True, "capacities")
                if c <= 0:
                    raise ValueError(f"{where}: field {col!r}: {short_repr(t, 40)} must be > 0 "
                                     "(a capacity is positive)")
                capacity.append(c)
    if not ids:
        raise ValueError(f"{name}: a header (line {head}) but no machines; one row per "
                         "machine is expected after it")
    return Machines(np.frombuffer(capacity).reshape(len(ids), r), ids=tuple(ids))


def _first_unfit(jobs: JobSet, cap: np.ndarray) -> int | None:
    """Index of the first job that fits no capacity vector in ``cap`` (chunked)."""
    step = max(1, 1 << 22 // max(1, cap.size))
    for lo in range(0, jobs.n, step):
        dem = jobs.demand[lo:lo + step]
        fits = np.all(dem[:, None, :] <= cap[None, :, :], axis=2).any(axis=1)
        if not fits.all():
            return lo + int(np.argmin(fits))
    return None


def read_instance(jobs_path: PathLike, cluster_path: PathLike, *, integers: bool = False,
                  memory_budget: float = MEMORY_BUDGET,
                  columns: Mapping[str, Any] | None = None) -> tuple[JobSet, Machines]:
    """Read a jobs file and a cluster file and check they make one instance.

    Both are read as :func:`read_jobs` and :func:`read_cluster` do (docs/design.md, Contracts:
    job and cluster files); then the two must have the same number R of resources (an
    error names both files), every job must fit some machine in every resource at once
    (:func:`theory.job_sets.check_fits`; an error starts ``{jobs file}:{line}:`` and
    names the job), and with ``integers=True`` everything is integer (XLL21 Sec. II-A,
    :func:`theory.job_sets.require_integers`). ``columns`` maps the jobs file's columns
    as in :func:`read_jobs`.

    Parameters
    ----------
    jobs_path : str or os.PathLike
        The jobs file.
    cluster_path : str or os.PathLike
        The cluster file.
    integers : bool, default False
        Require integer arrivals, processing times, demands and capacities (XLL21).
    memory_budget : float, default MEMORY_BUDGET
        Bytes each file's reading, and the fit check, may use (8 GiB by default).
    columns : mapping, optional
        Field -> column name of the jobs file's own header, as in :func:`read_jobs`.

    Returns
    -------
    tuple of (JobSet, Machines)
        The jobs and the machines, in file order.

    Raises
    ------
    ValueError
        What :func:`read_jobs` and :func:`read_cluster` refuse; the two files with
        different numbers of resources (both are named); a job that fits no machine
        (its file line is named); with ``integers=True``, a non-integer value.
    BudgetExceeded
        When a file, or the check that every job fits, needs more than
        ``memory_budget`` bytes.

    References
    ----------
    docs/design.md, section Job and cluster files; XLL21, Sec. II-A (a machine runs jobs
    whose total demand does not exceed its capacity; integer d_j, m_j, p_j).

    Examples
    --------
    The packaged instance of XLL21's Example 1 (``theory/data``):

    >>> from importlib.resources import files
    >>> from theory import read_instance
    >>> data = files("theory") / "data"
    >>> jobs, machines = read_instance(data / "xll21_example1_jobs.csv",
    ...                                data / "xll21_example1_cluster.csv", integers=True)
    >>> jobs.ids, jobs.processing.tolist(), jobs.demand.tolist()
    (('j1', 'j2', 'j3'), [1.0, 2.0, 3.0], [[18.0, 1.0], [18.0, 1.0], [18.0, 1.0]])
    >>> machines.capacity.tolist()
    [[20.0, 4.0]]
    """
    jobs, lines = _read_jobs(jobs_path, integers, memory_budget, columns)
    machines = read_cluster(cluster_path, integers=integers, memory_budget=memory_budget)
    jname, cname = _name(jobs_path), _name(cluster_path)
    if jobs.resources != machines.resources:
        raise ValueError(f"{jname} has {jobs.resources} demand column(s) but {cname} has "
                         f"{machines.resources} capacity column(s): the jobs and the cluster "
                         "must have the same resources")
    # Machines with equal capacities are interchangeable for the check; distinct vectors
    # keep check_fits' (jobs x machines x resources) comparison small.
    distinct = np.unique(machines.capacity, axis=0)
    check_budget(jobs.n * distinct.shape[0] * jobs.resources * 2, memory_budget,
                 what=f"checking that the {jobs.n:,} jobs of {jname} fit the "
                      f"{distinct.shape[0]:,} kinds of machine of {cname}",
                 option="memory_budget", unit="bytes")
    try:
        check_fits(jobs, Machines(distinct))
    except ValueError as err:
        j = _first_unfit(jobs, distinct)
        line = "" if j is None else f"; the job is on line {lines[j]} of {jname}"
        raise ValueError(f"{jname}: {err}, in {cname}{line}") from None
    if integers:
        try:
            require_integers(jobs, machines)
        except ValueError as err:
            raise ValueError(f"{jname}, {cname}: {err}") from None
    return jobs, machines


# -- writing ---------------------------------------------------------------------------


def _format(x: float) -> str:
    """Text that reads back as exactly ``x``: integers as integers, else ``repr``."""
    if x.is_integer() and abs(x) <= MAX_EXACT_INT and math.copysign(1.0, x) > 0:
        return str(int(x))
    return repr(x)


def _id_problem(s: str) -> str | None:
    if not s:
        return "is empty"
    if any(c in s for c in ',"\n\r'):
        return "contains a comma, a quote or a line break"
    if s != s.strip(_SPACES):
        return "has surrounding spaces or tabs (the reader strips them)"
    if s.startswith("#"):
        return "starts with '#' (the reader skips such a line as a comment)"
    if "\0" in s:
        return "contains a NUL character"
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode (a lone surrogate)"
    return None


def _write(rows: Iterator[str], header: str, path: PathLike) -> Path:
    if isinstance(path, bool) or not isinstance(path, str | os.PathLike):
        raise ValueError(f"path must be a file name (str or pathlib.Path), got {path!r}")
    p = Path(path)
    try:
        with open(p, "w", encoding="utf-8", newline="\n") as out:
            out.write(header + "\n")
            for row in rows:
                out.write(row + "\n")
    except OSError as err:
        raise ValueError(f"{p}: cannot write ({err.strerror or err})") from None
    return p


def _check_ids(ids: tuple[str, ...], path: PathLike, what: str) -> None:
    for i in ids:
        problem = _id_problem(i)
        if problem:
            raise ValueError(f"{_name(path)}: {what} id {short_repr(i, 40)} cannot be written: "
                             f"it {problem}; ids must be non-empty and must not contain "
                             "commas, quotes or line breaks")


def write_jobs(jobs: JobSet, path: PathLike) -> Path:
    """Write ``jobs`` as a jobs file (docs/design.md, Contracts: job and cluster files).

    Always with the ``weight`` column; numbers are written so that :func:`read_jobs`
    reads back exactly the same values and ids (integers as integers, e.g. XLL21
    Sec. II-A slots and cores; other floats, e.g. FL24 Sec. 3 fractions, with ``repr``).
    An id that would not read back (empty, with a comma, a quote, a line break,
    surrounding spaces, a leading ``#``) is a ``ValueError`` before anything is written.
    An existing file is overwritten.

    Parameters
    ----------
    jobs : JobSet
        The jobs to write.
    path : str or os.PathLike
        The file to write (UTF-8, ``\\n`` line ends).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        When ``jobs`` is not a :class:`JobSet`, an id would not read back, ``path`` is
        not a file name, or the file cannot be written (the reason is given).

    References
    ----------
    docs/design.md, section Job and cluster files (``write_jobs`` always writes
    ``weight``; numbers read back exactly).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from theory import JobSet, read_jobs, write_jobs
    >>> tmp = tempfile.TemporaryDirectory()
    >>> jobs = JobSet(arrival=[0, 1], processing=[2, 0.5], demand=[[1, 0.25], [2, 0.1]],
    ...               ids=["a", "b"])
    >>> path = write_jobs(jobs, pathlib.Path(tmp.name) / "jobs.csv")
    >>> print(path.read_text(), end="")
    id,arrival,processing,weight,demand_0,demand_1
    a,0,2,1,1,0.25
    b,1,0.5,1,2,0.1
    >>> read_jobs(path).demand.tolist() == jobs.demand.tolist()
    True
    >>> tmp.cleanup()
    """
    if not isinstance(jobs, JobSet):
        raise ValueError(f"write_jobs needs a JobSet, got {type(jobs).__name__}")
    _check_ids(jobs.ids, path, "job")
    header = ",".join([*JOB_COLUMNS, *(f"demand_{k}" for k in range(jobs.resources))])
    cols = (jobs.arrival.tolist(), jobs.processing.tolist(), jobs.weight.tolist())

    def rows() -> Iterator[str]:
        for j, i in enumerate(jobs.ids):
            nums = [c[j] for c in cols] + jobs.demand[j].tolist()
            yield ",".join([i, *map(_format, nums)])

    return _write(rows(), header, path)


def write_cluster(machines: Machines, path: PathLike) -> Path:
    """Write ``machines`` as a cluster file (docs/design.md, Contracts: job and cluster files).

    Numbers and ids as :func:`write_jobs` writes them; returns the path. An existing
    file is overwritten.

    Parameters
    ----------
    machines : Machines
        The cluster to write.
    path : str or os.PathLike
        The file to write (UTF-8, ``\\n`` line ends).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        When ``machines`` is not a :class:`Machines`, an id would not read back (empty,
        with a comma, a quote, a line break, surrounding spaces, a leading ``#``),
        ``path`` is not a file name, or the file cannot be written.

    References
    ----------
    docs/design.md, section Job and cluster files.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from theory import Machines, read_cluster, write_cluster
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = write_cluster(Machines([[20, 4], [10, 2.5]]), pathlib.Path(tmp.name) / "c.csv")
    >>> print(path.read_text(), end="")
    id,capacity_0,capacity_1
    0,20,4
    1,10,2.5
    >>> read_cluster(path).capacity.tolist()
    [[20.0, 4.0], [10.0, 2.5]]
    >>> tmp.cleanup()
    """
    if not isinstance(machines, Machines):
        raise ValueError(f"write_cluster needs Machines, got {type(machines).__name__}")
    _check_ids(machines.ids, path, "machine")
    header = ",".join([*CLUSTER_COLUMNS,
                       *(f"capacity_{k}" for k in range(machines.resources))])

    def rows() -> Iterator[str]:
        for i, cap in zip(machines.ids, machines.capacity.tolist(), strict=True):
            yield ",".join([i, *map(_format, cap)])

    return _write(rows(), header, path)
