"""PG18's Google-trace workload (Sec. VII-B): ten one-dimensional job types of size 1/2^p.

PG18 Sec. VII-B: "Tasks in the original dataset have two resource types, CPU and memory,
and are normalized in range [0, 1] ... We therefore round up the resources to the
closest power 1/2^p with p taking values from 0 to 9 and then take the maximum out of
the two. In this way, we map the tasks to 10 different types". Arrivals are the tasks'
submit times multiplied by alpha = 1 / (traffic scaling); servers are unit servers
(1000 in the paper).

Rules of :func:`google2011_typed_workload` (all visible in the code below):

- **Data.** The packaged ``theory/data/google2011_finished_tasks.csv.gz`` (read with
  :mod:`importlib.resources`; see ``google2011_finished_tasks.PROVENANCE.md``): the
  49,782 tasks of ``clusterdata-2011-2`` shards 0-1 (about 2.8 hours of submissions)
  that were submitted in the window and finished in it, first incarnation only. This is
  not the paper's trace: PG18 keeps the first 1 million of about 18 million finished
  *non-production* tasks of 29 days. The packaged table has no priority column, so
  production tasks are not removed. ``path`` names another CSV (plain or gzip) with the
  same columns (``submit_time_us, runtime_s, cpu_request, memory_request``; more are
  ignored), e.g. a longer extract made the same way.
- **Type.** Each request r in [0, 1] is rounded *up* to the smallest power 1/2^p >= r
  with p in 0..9, exactly (binary exponent, no tolerance: 0.25 stays 1/4, 0.2500001
  becomes 1/2); a request below 1/2^9 becomes 1/2^9. The task's type is the larger of
  its two rounded requests (equivalently, the rounded larger request). **A zero
  request** is treated like any request below 1/2^9: it rounds to 1/512. A zero CPU
  request (216 packaged tasks) then never decides the type, since the memory request
  is larger; a task with both requests zero (none packaged) becomes a 1/512 job rather
  than being dropped, because it still ran on a machine and dropping it would change
  the arrival process. A request above 1 or below 0 is an error.
- **Types.** Only the sizes that occur are types (at most ten), largest first
  (p increasing); ``JobTypes.names`` are ``"1/2^p"`` strings such as ``"1/32"``. On the
  packaged table, p = 0 and 1 do not occur: eight types.
- **Arrivals.** Tasks are sorted by submit time (stable: ties keep file order),
  ``max_arrivals`` keeps the first ones (PG18 kept the first 1 million), and arrival =
  (submit - first submit) in seconds times alpha = 1 / ``traffic_scaling``.
- **Service.** Each job's service (``workload.service``) is its own trace runtime in
  seconds, not scaled by alpha (only arrivals are, as in the paper).
  ``types.service[j]`` is exponential with the mean runtime of the type-j tasks kept.
  :func:`policies.simulate_continuous` uses ``workload.service`` for every real job
  and draws from ``types.service`` only for the dummy jobs of RMS (Algorithm 1, Remark 2).
  The laws are not used for real jobs.
- **Horizon.** ``workload.horizon`` is the next float after the last arrival, so a run
  to the default horizon ends just after the last task arrives (jobs still queued or
  in service then are not followed to completion).

:func:`trace_offered_load` gives the offered load sum_i size_i * runtime_i / horizon in
unit servers, the quantity used to choose a server count for a trace this much smaller
than the paper's (PG18's 1000 servers were "appropriate for hosting the jobs" of its
1 million tasks).
"""

from __future__ import annotations

import csv
import functools
import io
import math
import os
from importlib import resources

import numpy as np

from policies.job_types import JobTypes, ServiceTime
from policies.workload import Workload

__all__ = ["MAX_EXPONENT", "DATA_FILE", "type_exponents", "google2011_typed_workload",
           "trace_offered_load"]

#: the paper's ten sizes 1/2^p, p = 0..MAX_EXPONENT
MAX_EXPONENT = 9
#: the packaged table (theory/data)
DATA_FILE = "google2011_finished_tasks.csv.gz"
_COLUMNS = ("submit_time_us", "runtime_s", "cpu_request", "memory_request")


def _exponent(r: np.ndarray, name: str) -> np.ndarray:
    """Smallest power 1/2^p >= r, as p in 0..MAX_EXPONENT (r = 0 and r < 1/2^9 give 9)."""
    r = np.asarray(r, dtype=np.float64)
    if not np.all(np.isfinite(r)):
        raise ValueError(f"{name} requests must be finite numbers")
    if np.any(r < 0) or np.any(r > 1):
        bad = float(r[(r < 0) | (r > 1)].ravel()[0])
        raise ValueError(f"{name} requests must lie in [0, 1] (normalised to the largest "
                         f"machine), got {bad!r}")
    m, e = np.frexp(r)  # r = m * 2^e with m in [0.5, 1) (m = e = 0 for r = 0)
    p = np.where(m == 0.5, 1 - e, -e)  # exact power 2^(e-1), else round up to 2^e
    p = np.where(r == 0, MAX_EXPONENT, p)
    return np.clip(p, 0, MAX_EXPONENT).astype(np.int64)


def type_exponents(cpu: object, memory: object) -> np.ndarray:
    """The exponent p of each task's type 1/2^p, from its CPU and memory requests.

    Both requests are rounded up to a power 1/2^p (p in 0..9; requests below 1/2^9 and
    zero requests to 1/2^9), exactly, by their binary exponent (0.25 stays 1/4,
    0.2500001 becomes 1/2); the type is the larger of the two, the smaller p.

    Parameters
    ----------
    cpu : array_like
        CPU requests, normalised to the largest machine: numbers in [0, 1] (a scalar is
        one task).
    memory : array_like
        Memory requests, likewise, one per task.

    Returns
    -------
    numpy.ndarray
        int64 exponents p in 0..9, one per task.

    Raises
    ------
    ValueError
        A request that is not finite or lies outside [0, 1]; ``cpu`` and ``memory`` not
        1-D of equal length.

    References
    ----------
    PG18, Sec. VII-B, item 2 ("round up the resources to the closest power 1/2^p with p
    taking values from 0 to 9 and then take the maximum out of the two").

    Examples
    --------
    >>> from policies import type_exponents
    >>> type_exponents([0.3, 0.25, 0.001, 0.0], [0.1, 0.01, 0.0, 0.0]).tolist()
    [1, 2, 9, 9]
    >>> type_exponents([1.5], [0.1])
    Traceback (most recent call last):
    ...
    ValueError: CPU requests must lie in [0, 1] (normalised to the largest machine), got 1.5
    """
    c = _exponent(np.atleast_1d(np.asarray(cpu, dtype=np.float64)), "CPU")
    m = _exponent(np.atleast_1d(np.asarray(memory, dtype=np.float64)), "memory")
    if c.shape != m.shape or c.ndim != 1:
        raise ValueError(f"cpu and memory must be 1-D of equal length, got shapes "
                         f"{c.shape} and {m.shape}")
    return np.minimum(c, m)


def _parse(text: str, where: str) -> dict[str, np.ndarray]:
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [c for c in _COLUMNS if c not in header]
    if missing:
        raise ValueError(f"{where}: header lacks column(s) {missing}; need {list(_COLUMNS)}")
    cols: dict[str, list[float]] = {c: [] for c in _COLUMNS}
    for row in reader:
        for c in _COLUMNS:
            cell = (row.get(c) or "").strip()
            try:
                v = float(cell)
            except ValueError:
                raise ValueError(f"{where}:{reader.line_num}: column {c!r}: {cell!r} is not "
                                 f"a number") from None
            if not math.isfinite(v):
                raise ValueError(f"{where}:{reader.line_num}: column {c!r}: {cell!r} is not "
                                 f"finite")
            if c == "runtime_s" and v <= 0:
                raise ValueError(f"{where}:{reader.line_num}: runtime_s must be positive "
                                 f"(finished tasks only), got {cell!r}")
            cols[c].append(v)
    if not cols["runtime_s"]:
        raise ValueError(f"{where}: no tasks (a header but no data rows)")
    out = {c: np.array(v, dtype=np.float64) for c, v in cols.items()}
    for a in out.values():
        a.setflags(write=False)
    return out


@functools.lru_cache(maxsize=4)
def _load(key: tuple[object, ...]) -> dict[str, np.ndarray]:
    if key[0] == "package":
        from theory.readers.traces import decode_text

        raw = resources.files("theory.data").joinpath(DATA_FILE).read_bytes()
        where = f"theory/data/{DATA_FILE}"
        return _parse(decode_text(raw, where), where)
    from theory.readers.traces import read_text_file

    return _parse(read_text_file(str(key[1])), str(key[1]))


def _columns(path: str | os.PathLike[str] | None) -> dict[str, np.ndarray]:
    if path is None:
        return _load(("package",))
    if isinstance(path, bool) or not isinstance(path, str | os.PathLike) or not str(path):
        raise ValueError(f"path must name a CSV file (str or pathlib.Path), got {path!r}")
    try:
        st = os.stat(path)
    except OSError as err:
        raise ValueError(f"{path}: {err.strerror or err}") from None
    return _load(("file", os.fspath(path), st.st_mtime_ns, st.st_size))


def _check_scaling(traffic_scaling: object) -> float:
    if isinstance(traffic_scaling, bool | str | bytes) or traffic_scaling is None:
        raise ValueError(f"traffic_scaling must be a positive finite number, got "
                         f"{traffic_scaling!r}")
    try:
        s = float(traffic_scaling)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"traffic_scaling must be a positive finite number, got "
                         f"{traffic_scaling!r}") from None
    if not (math.isfinite(s) and s > 0):
        raise ValueError(f"traffic_scaling must be a positive finite number, got "
                         f"{traffic_scaling!r}")
    return s


def google2011_typed_workload(
    *,
    traffic_scaling: float = 1.0,
    max_arrivals: int | None = None,
    path: str | os.PathLike[str] | None = None,
) -> tuple[JobTypes, Workload]:
    """``(types, workload)`` of PG18 Sec. VII-B from the Google 2011 tasks (rules in the
    module docstring): one-dimensional types of size 1/2^p, arrivals = submit times
    times alpha = 1 / ``traffic_scaling``, service = each task's runtime.

    ``max_arrivals`` keeps the first tasks by submit time; ``path`` reads another CSV
    with the packaged file's columns instead of the packaged table.

    The packaged table is not PG18's trace: 49,782 tasks of about 2.8 hours, production
    tasks included, against the paper's first 1 million non-production tasks of 29
    days (the module docstring gives every rule).

    Parameters
    ----------
    traffic_scaling : float, default 1.0
        1 / alpha: arrival times are the submit times (seconds from the first) divided
        by it; positive and finite. Service times are not scaled.
    max_arrivals : int or None, default None
        Keep the first tasks by submit time (None: all).
    path : str or os.PathLike or None, default None
        A CSV file (plain or gzip) with columns ``submit_time_us``, ``runtime_s``,
        ``cpu_request`` and ``memory_request``; None reads the packaged table.

    Returns
    -------
    types : JobTypes
        One-resource types of size 1/2^p for the p that occur, largest first, named
        ``"1/2^p"`` (``"1/32"``), each with exponential service of the mean runtime of
        its tasks (used for RMS's dummy jobs only).
    workload : Workload
        The tasks in submit order: arrival times, sizes, their own runtimes as service,
        ``job_type`` and a ``horizon`` just after the last arrival.

    Raises
    ------
    ValueError
        ``traffic_scaling`` not positive and finite; ``max_arrivals`` not a positive
        integer; ``path`` not a readable CSV with those columns, a cell that is not a
        finite number, a runtime that is not positive, no data rows; a request outside
        [0, 1].

    References
    ----------
    PG18, Sec. VII-B (the Google trace: types 1/2^p, arrival times multiplied by alpha,
    traffic scaling 1/alpha).

    Examples
    --------
    >>> from policies import google2011_typed_workload, trace_offered_load
    >>> types, w = google2011_typed_workload(max_arrivals=200)
    >>> types.names, w.jobs, round(w.horizon, 3)
    (('1/8', '1/16', '1/32', '1/64', '1/128', '1/512'), 200, 153.909)
    >>> _, faster = google2011_typed_workload(traffic_scaling=2.0, max_arrivals=200)
    >>> round(faster.horizon, 3), round(trace_offered_load(faster) / trace_offered_load(w), 6)
    (76.955, 2.0)
    """
    scaling = _check_scaling(traffic_scaling)
    if max_arrivals is not None and (isinstance(max_arrivals, bool)
                                     or not isinstance(max_arrivals, int | np.integer)
                                     or max_arrivals < 1):
        raise ValueError(f"max_arrivals must be a positive integer or None, got "
                         f"{max_arrivals!r}")
    cols = _columns(path)
    order = np.argsort(cols["submit_time_us"], kind="stable")
    if max_arrivals is not None:
        order = order[:int(max_arrivals)]
    submit = cols["submit_time_us"][order]
    runtime = cols["runtime_s"][order]
    p = type_exponents(cols["cpu_request"][order], cols["memory_request"][order])
    present = np.unique(p)  # increasing p: largest size first
    job_type = np.searchsorted(present, p).astype(np.int64)
    means = [float(runtime[job_type == j].mean()) for j in range(present.size)]
    types = JobTypes([[2.0 ** -int(q)] for q in present],
                     service=[ServiceTime("exponential", m) for m in means],
                     names=tuple(f"1/{2 ** int(q)}" for q in present))
    alpha = 1.0 / scaling
    arrival = (submit - submit[0]) * 1e-6 * alpha
    last = float(arrival[-1])
    horizon = float(np.nextafter(last, math.inf))
    span = last if last > 0 else None
    return types, Workload(
        arrival, types.sizes[job_type], runtime, horizon,
        arrival_rate=arrival.size / span if span else None,
        meta={"model": "pg18-google2011", "source": str(path) if path else DATA_FILE,
              "traffic_scaling": scaling, "alpha": alpha, "tasks": int(arrival.size),
              "exponents": present.tolist()},
        job_type=job_type,
    )


def trace_offered_load(workload: Workload) -> float:
    """Offered load in unit servers: sum_i size_i * service_i / horizon (one resource).

    The work of every job counts in full even when it runs past the horizon, so this
    is the long-run load the arrivals bring, the quantity a server count is matched to.

    Parameters
    ----------
    workload : Workload
        One-resource jobs (sizes in units of one server, service in time units), e.g.
        from :func:`google2011_typed_workload`.

    Returns
    -------
    float
        sum_i size_i service_i / horizon: the servers of capacity 1 the jobs keep busy on
        average.

    Raises
    ------
    TypeError
        ``workload`` is not a :class:`Workload`.
    ValueError
        The jobs demand more than one resource, or the horizon is not positive.

    References
    ----------
    PG18, Sec. VII-B, item 3 (a fixed number of unit servers "appropriate for hosting the
    jobs" of the trace).

    Examples
    --------
    >>> from policies import Workload, trace_offered_load
    >>> w = Workload([0.0, 1.0], [[0.5], [0.25]], [4.0, 2.0], 10.0)
    >>> trace_offered_load(w)  # (0.5 x 4 + 0.25 x 2) / 10
    0.25
    """
    if not isinstance(workload, Workload):
        raise TypeError("workload must be a policies.Workload")
    d = workload.demand
    if d.ndim == 2:
        if d.shape[1] != 1:
            raise ValueError(f"one resource expected, the jobs demand {d.shape[1]}")
        d = d[:, 0]
    if not workload.horizon > 0:
        raise ValueError("the workload's horizon must be positive")
    return float(np.sum(d * workload.service) / workload.horizon)  # not BLAS: see StepSeries.mean
