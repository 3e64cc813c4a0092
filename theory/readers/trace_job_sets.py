"""Finite job sets from the Google 2011 trace, extracted as XLL21 Sec. VI does.

XLL21 VI: "we extract the statistics of processing time and resource demand of 6487 jobs
... Since a job may consist of multiple small tasks in the traces, we randomly select
one task as its representative", on "three types of servers, each having 64, 32 and 16
CPU cores", with time slots of ten seconds. The packaged data
(``theory/data/google2011_finished_tasks.csv.gz``, see its PROVENANCE file) holds the
tasks of ``clusterdata-2011-2`` shards 0-1 (about 2.95 hours) submitted in the window
that finished in it: 49,782 tasks of 1,508 jobs.

Rules (all explicit parameters):

- one task per job, drawn uniformly with ``numpy.random.default_rng(seed)`` from the
  job's finished tasks (jobs in order of first submission, tasks in file order);
- arrival a_j = floor((submit - first submit) / slot) (slot 0 for the first job);
- processing p_j = max(1, ceil(runtime / slot));
- cores d_j = max(1, ceil(cpu_request * cores_per_unit)): the trace normalises requests
  so the largest machine has 1.0, i.e. ``cores_per_unit`` = 64 cores;
- memory m_j = max(1, ceil(memory_request * memory_per_unit)), normalised the same way;
  the paper gives no memory sizes, so machines get memory in proportion to their cores
  (64, 32, 16 units by default): an assumption of this toolkit.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
from importlib import resources

import numpy as np

from theory.job_sets import JobSet, Machines

__all__ = ["google2011_job_set", "google2011_fl24_job_set", "xll21_cluster", "DATA_FILE"]

DATA_FILE = "google2011_finished_tasks.csv.gz"


def _rows() -> list[dict[str, str]]:
    raw = resources.files("theory.data").joinpath(DATA_FILE).read_bytes()
    text = gzip.decompress(raw).decode("ascii")
    return list(csv.DictReader(io.StringIO(text)))


def google2011_job_set(*, seed: int = 0, slot_seconds: float = 10.0,
                       cores_per_unit: int = 64, memory_per_unit: int = 64,
                       max_jobs: int | None = None) -> JobSet:
    """The XLL21 VI job set from the packaged Google 2011 tasks (rules in the module
    docstring); ``max_jobs`` keeps the first jobs by arrival (a reduced trace).

    Parameters
    ----------
    seed : int, default 0
        Seed of the draw of each job's representative task.
    slot_seconds : float, default 10.0
        The slot length (XLL21 Sec. VI: ten seconds).
    cores_per_unit, memory_per_unit : int, default 64
        Cores and memory units of the largest machine (the trace's 1.0).
    max_jobs : int, optional
        Only the first ``max_jobs`` jobs by arrival.

    Returns
    -------
    theory.job_sets.JobSet
        1,508 jobs by default: integer arrival slots, processing slots, cores and memory
        units; ids ``"<job_id>.<task_index>"``.

    Raises
    ------
    ValueError
        A parameter outside its range.

    References
    ----------
    XLL21 Sec. VI (6,487 jobs of a 10-hour window there; this window is 2.95 h);
    ``theory/data/google2011_finished_tasks.PROVENANCE.md``.

    Examples
    --------
    >>> js = google2011_job_set()
    >>> js.n, js.demand[:2].tolist()
    (1508, [[4.0, 2.0], [4.0, 1.0]])
    """
    if not (isinstance(seed, int) and seed >= 0):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not (math.isfinite(slot_seconds) and slot_seconds > 0):
        raise ValueError(f"slot_seconds must be > 0, got {slot_seconds!r}")
    for name, v in (("cores_per_unit", cores_per_unit), ("memory_per_unit", memory_per_unit)):
        if not (isinstance(v, int) and v >= 1):
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if max_jobs is not None and not (isinstance(max_jobs, int) and max_jobs >= 1):
        raise ValueError(f"max_jobs must be a positive integer, got {max_jobs!r}")
    chosen = _chosen(seed)
    submit = np.array([int(t["submit_time_us"]) for _, t in chosen], dtype=np.int64)
    runtime = np.array([float(t["runtime_s"]) for _, t in chosen])
    cpu = np.array([float(t["cpu_request"]) for _, t in chosen])
    mem = np.array([float(t["memory_request"]) for _, t in chosen])
    slot_us = slot_seconds * 1e6
    arrival = np.floor((submit - submit.min()) / slot_us)
    processing = np.maximum(1, np.ceil(runtime / slot_seconds))
    cores = np.maximum(1, np.ceil(cpu * cores_per_unit - 1e-9))
    memory = np.maximum(1, np.ceil(mem * memory_per_unit - 1e-9))
    order = np.argsort(arrival, kind="stable")
    if max_jobs is not None:
        order = order[:max_jobs]
    ids = tuple(f"{chosen[i][0]}.{chosen[i][1]['task_index']}" for i in order)
    return JobSet(arrival[order], processing[order], np.column_stack([cores, memory])[order],
                  ids=ids)


def _chosen(seed: int) -> list[tuple[str, dict[str, str]]]:
    """One task per job, drawn with ``default_rng(seed)`` (jobs in order of first
    submission, tasks in file order): XLL21 Sec. VI's representative."""
    by_job: dict[str, list[dict[str, str]]] = {}
    for r in _rows():
        by_job.setdefault(r["job_id"], []).append(r)
    jobs = sorted(by_job.items(), key=lambda kv: min(int(t["submit_time_us"]) for t in kv[1]))
    rng = np.random.default_rng(seed)
    return [(jid, tasks[int(rng.integers(len(tasks)))]) for jid, tasks in jobs]


def google2011_fl24_job_set(*, seed: int = 0, max_jobs: int | None = None) -> JobSet:
    """The jobs of :func:`google2011_job_set` (the same representative task per job) in
    FL24's units.

    Releases from the first submission and processing times (the task's runtime), both
    in units of the shortest runtime (FL24 Sec. 3: p_j >= 1); demands (cpu, memory)
    as fractions of the largest machine (the trace's normalisation); weights 1.

    Parameters
    ----------
    seed : int, default 0
        Seed of the draw of each job's task (the same draw as
        :func:`google2011_job_set`).
    max_jobs : int, optional
        Only the first ``max_jobs`` jobs by release.

    Returns
    -------
    theory.job_sets.JobSet
        1,508 jobs by default, ids ``"<job_id>.<task_index>"``.

    Raises
    ------
    ValueError
        ``seed`` not a non-negative integer or ``max_jobs`` not a positive integer.

    References
    ----------
    FL24 Sec. 3 (units); XLL21 Sec. VI (one task per job);
    ``theory/data/google2011_finished_tasks.PROVENANCE.md``.

    Examples
    --------
    >>> js = google2011_fl24_job_set(max_jobs=2)
    >>> js.n, float(js.processing.min())
    (2, 1.0)
    """
    from theory.readers._trace_tables import fl24_job_set

    if not (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if max_jobs is not None and not (isinstance(max_jobs, int) and max_jobs >= 1):
        raise ValueError(f"max_jobs must be a positive integer, got {max_jobs!r}")
    chosen = _chosen(seed)
    submit = np.array([int(t["submit_time_us"]) for _, t in chosen], dtype=np.int64)
    order = np.argsort(submit, kind="stable")[:max_jobs]
    pick = [chosen[i] for i in order]
    return fl24_job_set(np.array([int(t["submit_time_us"]) * 1e-6 for _, t in pick]),
                        np.array([float(t["runtime_s"]) for _, t in pick]),
                        np.array([float(t["cpu_request"]) for _, t in pick]),
                        np.array([float(t["memory_request"]) for _, t in pick]),
                        [f"{jid}.{t['task_index']}" for jid, t in pick])


def xll21_cluster(machines_64: int = 1, machines_32: int = 1, machines_16: int = 1, *,
                  memory_per_core: int = 1) -> Machines:
    """Machines of 64, 32 and 16 cores (XLL21 VI) with ``memory_per_core`` units of
    memory per core (the paper gives no memory sizes; see the module docstring). The
    paper does not give the counts either; one of each (112 cores) puts the packaged job
    set at a load of 0.95 (volume / (cores x arrival span)), a busy cluster like the
    paper's, whose makespan (about 4,000 slots) exceeds its arrival span (3,600).

    Parameters
    ----------
    machines_64, machines_32, machines_16 : int, default 1
        How many machines of 64, 32 and 16 cores (not all 0).
    memory_per_core : int, default 1
        Memory units per core.

    Returns
    -------
    theory.job_sets.Machines
        One row (cores, memory) per machine, ids ``m64-0``, ``m32-0``, ...

    Raises
    ------
    ValueError
        A count that is not a non-negative integer, all counts 0, or
        ``memory_per_core`` not a positive integer.

    References
    ----------
    XLL21 Sec. VI ("three types of servers, each having 64, 32 and 16 CPU cores").

    Examples
    --------
    >>> xll21_cluster(2, 0, 1).capacity.tolist()
    [[64.0, 64.0], [64.0, 64.0], [16.0, 16.0]]
    """
    counts = (machines_64, machines_32, machines_16)
    if any(not isinstance(c, int) or c < 0 for c in counts) or sum(counts) == 0:
        raise ValueError(f"machine counts must be non-negative integers, not all 0: {counts}")
    if not (isinstance(memory_per_core, int) and memory_per_core >= 1):
        raise ValueError(f"memory_per_core must be a positive integer, got {memory_per_core!r}")
    rows = [[c, c * memory_per_core] for c, n in zip((64, 32, 16), counts, strict=True)
            for _ in range(n)]
    ids = tuple(f"m{c}-{i}" for c, n in zip((64, 32, 16), counts, strict=True)
                for i in range(n))
    return Machines(np.array(rows, dtype=float), ids=ids)
