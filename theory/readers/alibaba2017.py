"""Alibaba cluster-trace-v2017: the batch task table and the machine table.

The packaged files (``theory/data/alibaba2017_batch_task.csv.gz``, 80,553 tasks, and
``alibaba2017_server_event.csv.gz``, 1,352 machine events; source and counts in
``alibaba2017.PROVENANCE.md``) are the whole ``batch_task`` and ``server_event`` tables.
Alibaba states no licence for the trace; it asks users to cite it (see the PROVENANCE
file).

A task is ``number_of_instances`` identical instances, each requesting ``plan_cpu``
(hundredths of a core) and ``plan_mem`` (memory normalised so that the largest machine
has 1). Units here:

* **sizes** are fractions of the **unit machine**, the largest capacity of each resource
  in ``server_event``: 64 cores and normalised memory 1 (12 of the 1,313 machines; the
  other 1,301 have 64 cores and memory 0.69, :meth:`Alibaba2017Machines.most_common`).
  An instance's size is ``(plan_cpu / 100 / 64, plan_mem / 1)``;
* **times** are seconds from the trace's start. ``task_create_time`` is the arrival
  of all the task's instances; the trace gives no instance's run time, only the task's
  last state change ``task_end_time``, so ``end - create`` of a ``Terminated`` task is
  an **upper bound** on each instance's run time (instances may run one after another)
  and is used as such, said so in every result.

Rules (each stated again in the ``info`` of what the functions return):

* size laws (:func:`alibaba2017_distribution`): every task with both requests (the
  9,017 ``Waiting`` tasks without one are dropped), each instance one job;
* timed jobs (:func:`alibaba2017_timed`, for slotted simulation): the ``Terminated``
  tasks with both requests, created inside the trace (``create > 0``) and ending at
  least a second later (``end > create``): 66,815 tasks, 10,134,817 instances, each
  instance a job arriving at ``create`` with run time ``end - create``;
* job sets (:func:`alibaba2017_job_set`): XLL21 Sec. VI's rule, one task drawn per job
  (``numpy.random.default_rng(seed)``, tasks of a job in file order) from those tasks,
  11,622 jobs; the task's one instance is the job.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from theory.budgets import MEMORY_BUDGET
from theory.distributions import Discrete
from theory.names import did_you_mean
from theory.readers._trace_tables import (
    TimedJobs,
    check_kind,
    exact,
    fl24_job_set,
    float_column,
    int_column,
    read_columns,
    size_law,
    source_text,
    xll21_job_set,
)
from theory.readers.text_files import PathLike

__all__ = ["ALIBABA2017_STATUSES", "Alibaba2017Tasks", "Alibaba2017Machines",
           "alibaba2017_tasks", "alibaba2017_machines", "alibaba2017_distribution",
           "alibaba2017_timed", "alibaba2017_job_set"]

#: the task states of ``batch_task``
ALIBABA2017_STATUSES: tuple[str, ...] = ("Terminated", "Waiting", "Running", "Failed")
_TASK_COLUMNS = ("task_create_time", "task_end_time", "job_id", "task_id",
                 "number_of_instances", "status",
                 "number_of_cpus_requested_per_instance_in_the_task",
                 "normalized_memory_requested_per_instance_in_the_task")
_SERVER_COLUMNS = ("timestamp", "machine_id", "event_type", "event_detail", "cpus",
                   "normalized_memory", "normalized_disk")
#: plan_cpu is written in hundredths of a core
_CPU_UNIT = 100
_CITE = "Alibaba cluster-trace-v2017"


@dataclass(frozen=True)
class Alibaba2017Tasks:
    """The ``batch_task`` table, in file order.

    Parameters
    ----------
    create_s, end_s : numpy.ndarray
        ``task_create_time`` and ``task_end_time`` (seconds from the trace's start; 0
        or below: before the trace).
    job_id, task_id : numpy.ndarray
        The task's job and its id.
    instances : numpy.ndarray
        ``number_of_instances``: identical instances of the task.
    status : numpy.ndarray
        ``Terminated``, ``Waiting``, ``Running`` or ``Failed``.
    plan_cpu, plan_mem : numpy.ndarray
        Per-instance requests: hundredths of a core, and memory normalised to the
        largest machine; NaN where the table leaves them empty.
    plan_cpu_text, plan_mem_text : tuple of str
        The same cells as written, for exact sizes.
    where : str
        The file read.

    References
    ----------
    ``theory/data/alibaba2017.PROVENANCE.md``; docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> t = alibaba2017_tasks()
    >>> t.n, int(t.instances.sum())
    (80553, 11909321)
    """

    create_s: np.ndarray
    end_s: np.ndarray
    job_id: np.ndarray
    task_id: np.ndarray
    instances: np.ndarray
    status: np.ndarray
    plan_cpu: np.ndarray
    plan_mem: np.ndarray
    plan_cpu_text: tuple[str, ...]
    plan_mem_text: tuple[str, ...]
    where: str

    @property
    def n(self) -> int:
        """The number of tasks."""
        return int(self.create_s.size)


@dataclass(frozen=True)
class Alibaba2017Machines:
    """The machines of ``server_event`` (its ``add`` events, one per machine).

    Parameters
    ----------
    machine_id : numpy.ndarray
        The machine.
    cores : numpy.ndarray
        CPU cores (64 for every machine).
    memory, disk : numpy.ndarray
        Normalised memory and disk (the largest machine has 1).
    memory_text : tuple of str
        The memory cells as written, for the exact unit.
    errors : int
        ``softerror`` events (machines reported faulty; not used).
    where : str
        The file read.

    References
    ----------
    ``theory/data/alibaba2017.PROVENANCE.md``.

    Examples
    --------
    >>> m = alibaba2017_machines()
    >>> m.n, m.unit(), m.most_common()
    (1313, (64.0, 1.0), (64.0, 0.6899697150104833, 736))
    """

    machine_id: np.ndarray
    cores: np.ndarray
    memory: np.ndarray
    disk: np.ndarray
    memory_text: tuple[str, ...]
    errors: int
    where: str

    @property
    def n(self) -> int:
        """The number of machines."""
        return int(self.cores.size)

    def unit(self) -> tuple[float, float]:
        """The unit machine: the largest cores and memory of any machine.

        Returns
        -------
        tuple
            ``(cores, normalised memory)``, ``(64.0, 1.0)`` for the packaged table.
        """
        return float(self.cores.max()), float(self.memory.max())

    def most_common(self) -> tuple[float, float, int]:
        """The (cores, memory) shape the most machines have.

        Returns
        -------
        tuple
            ``(cores, memory, machines)`` (the smallest shape on ties).
        """
        shapes, counts = np.unique(np.column_stack([self.cores, self.memory]), axis=0,
                                   return_counts=True)
        k = int(np.argmax(counts))
        return float(shapes[k, 0]), float(shapes[k, 1]), int(counts[k])


@functools.lru_cache(maxsize=1)
def _packaged_tasks() -> Alibaba2017Tasks:
    return _parse_tasks(None, MEMORY_BUDGET)


def _parse_tasks(path: PathLike | None, budget: float) -> Alibaba2017Tasks:
    text, where = source_text("alibaba2017_batch_task.csv.gz", path, budget)
    cols = read_columns(text, where, _TASK_COLUMNS)
    status = cols.text["status"]
    bad = next((j for j, s in enumerate(status) if s not in ALIBABA2017_STATUSES), None)
    if bad is not None:
        raise ValueError(f"{cols.at(bad)}: status {status[bad]!r} is not one of "
                         f"{', '.join(ALIBABA2017_STATUSES)}"
                         f"{did_you_mean(status[bad], ALIBABA2017_STATUSES)}")
    cpu_name, mem_name = _TASK_COLUMNS[6], _TASK_COLUMNS[7]
    cpu = float_column(cols, cpu_name, empty=True)
    mem = float_column(cols, mem_name, empty=True)
    one = np.flatnonzero(np.isnan(cpu) != np.isnan(mem))
    if one.size:
        raise ValueError(f"{cols.at(int(one[0]))}: one request given without the other")
    out = Alibaba2017Tasks(
        int_column(cols, "task_create_time"), int_column(cols, "task_end_time"),
        int_column(cols, "job_id"), int_column(cols, "task_id"),
        int_column(cols, "number_of_instances", low=1), np.array(status), cpu, mem,
        cols.text[cpu_name], cols.text[mem_name], where)
    for a in (out.create_s, out.end_s, out.job_id, out.task_id, out.instances, out.status):
        a.setflags(write=False)
    return out


def alibaba2017_tasks(*, path: PathLike | None = None,
                      memory_budget: float = MEMORY_BUDGET) -> Alibaba2017Tasks:
    """The ``batch_task`` table of the Alibaba 2017 trace.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A file in the same format (the packaged header, names stripped of spaces;
        plain or gzip) instead of the packaged one.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading of ``path`` may use.

    Returns
    -------
    Alibaba2017Tasks
        Every row, in file order (the packaged table is read once per process).

    Raises
    ------
    ValueError
        A row with the wrong number of fields, an unknown status, a time or count that
        is not an integer, a request that is not a number or negative, or one request
        without the other: the message names the file and line.

    References
    ----------
    ``theory/data/alibaba2017.PROVENANCE.md`` (columns and counts); cite the trace as
    "Alibaba cluster-trace-v2017".

    Examples
    --------
    >>> t = alibaba2017_tasks()
    >>> int((t.status == "Terminated").sum()), int(np.isnan(t.plan_cpu).sum())
    (67013, 9017)
    """
    if path is None:
        return _packaged_tasks()
    return _parse_tasks(path, memory_budget)


@functools.lru_cache(maxsize=1)
def alibaba2017_machines() -> Alibaba2017Machines:
    """The machines of the Alibaba 2017 trace (``server_event``'s ``add`` events).

    Returns
    -------
    Alibaba2017Machines
        One row per machine; the unit machine of the sizes is :meth:`~Alibaba2017Machines.
        unit`.

    Raises
    ------
    ValueError
        A malformed row (named by file and line), or a machine added twice.

    References
    ----------
    ``theory/data/alibaba2017.PROVENANCE.md``.

    Examples
    --------
    >>> alibaba2017_machines().errors
    39
    """
    text, where = source_text("alibaba2017_server_event.csv.gz", None)
    cols = read_columns(text, where, _SERVER_COLUMNS, header=False)
    kind = cols.text["event_type"]
    add = np.array([k == "add" for k in kind])
    ids = int_column(cols, "machine_id", low=0)
    if len(set(ids[add].tolist())) != int(add.sum()):
        raise ValueError(f"{where}: a machine is added twice")
    return Alibaba2017Machines(
        ids[add], float_column(cols, "cpus")[add], float_column(cols, "normalized_memory")[add],
        float_column(cols, "normalized_disk")[add],
        tuple(t for t, a in zip(cols.text["normalized_memory"], add, strict=True) if a),
        int(sum(k == "softerror" for k in kind)), where)


def _unit(exact_values: bool) -> tuple[Any, Any]:
    """Cores and memory of the unit machine (exact from the text when asked)."""
    m = alibaba2017_machines()
    cores, memory = m.unit()
    if not exact_values:
        return cores, memory
    k = int(np.argmax(m.memory))
    return Fraction(int(cores)), exact(m.memory_text[k])


def _unit_info() -> dict[str, Any]:
    m = alibaba2017_machines()
    cores, memory = m.unit()
    c, mem, count = m.most_common()
    return {"unit": f"the largest machine of server_event: {cores:g} cores, normalised "
                    f"memory {memory:g}",
            "most_common_machine": {"cores": c, "memory": mem, "machines": count,
                                    "of": m.n, "as_fraction_of_unit": [c / cores,
                                                                       mem / memory]},
            "cite": _CITE}


def alibaba2017_distribution(kind: str = "max", *, exact: bool = True,
                             first: int | None = None, path: PathLike | None = None
                             ) -> Discrete:
    """The per-instance size law of the Alibaba 2017 batch tasks, as fractions of the
    unit machine (64 cores, memory 1).

    Every task with both requests counts ``number_of_instances`` times (its instances
    are identical jobs); a task without requests is dropped.

    Parameters
    ----------
    kind : str, default "max"
        ``max`` (of the CPU and memory fractions), ``cpu``, ``memory`` or ``vector``.
    exact : bool, default True
        Fractions from the decimal text (``plan_cpu / 6400`` exactly), else floats.
    first : int, optional
        Only the first ``first`` tasks with requests, in file order.
    path : str or os.PathLike, optional
        A task table in the packaged format.

    Returns
    -------
    theory.distributions.Discrete
        One type per distinct size, probability (instances of that size) / (all
        instances).

    Raises
    ------
    ValueError
        An unknown kind (with a did-you-mean); ``first`` not a positive integer; a
        malformed table.

    References
    ----------
    PG21 Sec. III (rho* of a size law); ``theory/data/alibaba2017.PROVENANCE.md``
    ("How to use it", (a)).

    Examples
    --------
    >>> d = alibaba2017_distribution("cpu")
    >>> d.sizes[:3], d.probs[0]
    ([Fraction(1, 160), Fraction(1, 128), Fraction(11, 1280)], Fraction(34595, 11059704))
    """
    kind = check_kind(kind, "alibaba2017")
    t = alibaba2017_tasks(path=path)
    rows = np.flatnonzero(~np.isnan(t.plan_cpu))
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int | np.integer) or first < 1:
            raise ValueError(f"first must be a positive integer, got {first!r}")
        rows = rows[:first]
    cores, memory = _unit(exact)
    if exact:
        cache: dict[tuple[str, str], tuple[Fraction, Fraction]] = {}
        for j in rows.tolist():
            key = (t.plan_cpu_text[j], t.plan_mem_text[j])
            if key not in cache:
                cache[key] = (_exact_cpu(key[0]) / cores, _exact_mem(key[1]) / memory)
        pairs: Any = (cache[(t.plan_cpu_text[j], t.plan_mem_text[j])] for j in rows.tolist())
    else:
        pairs = zip((t.plan_cpu[rows] / _CPU_UNIT / cores).tolist(),
                    (t.plan_mem[rows] / memory).tolist(), strict=True)
    return size_law(pairs, kind, f"{t.where} ({kind})", t.instances[rows].tolist())


def _exact_cpu(text: str) -> Fraction:
    return exact(text) / _CPU_UNIT


def _exact_mem(text: str) -> Fraction:
    return exact(text)


def _usable(t: Alibaba2017Tasks) -> tuple[np.ndarray, dict[str, int]]:
    """Rows of the Terminated tasks with requests, created inside the trace and ending
    at least a second later, and how many tasks each rule dropped."""
    term = t.status == "Terminated"
    req = ~np.isnan(t.plan_cpu)
    inside = t.create_s > 0
    ends = t.end_s > t.create_s
    dropped = {"not Terminated": int((~term).sum()),
               "Terminated without a request": int((term & ~req).sum()),
               "created before the trace (create <= 0)": int((term & req & ~inside).sum()),
               "end not after create": int((term & req & inside & ~ends).sum())}
    return np.flatnonzero(term & req & inside & ends), dropped


def alibaba2017_timed(*, until_seconds: float | None = None, first: int | None = None,
                      path: PathLike | None = None) -> TimedJobs:
    """The instances of the Alibaba 2017 batch tasks as timed jobs, for trace-driven
    slotted simulation (PG21 Sec. VII-B's preprocessing, applied to this trace).

    Each instance of a ``Terminated`` task with requests, created inside the trace and
    ending at least a second later, is a job arriving at the task's ``create`` time with
    run time ``end - create`` (an upper bound: the trace has no per-instance times), and
    size (cpu, memory) as fractions of the unit machine. Jobs are in arrival order (file
    order on ties); the slot is 1 s (the trace's resolution).

    Parameters
    ----------
    until_seconds : float, optional
        Only the jobs arriving before this many seconds after the first arrival (a run
        that simulates less than the whole trace need not build its rest).
    first : int, optional
        Only the first ``first`` jobs (instances) in arrival order.
    path : str or os.PathLike, optional
        A task table in the packaged format.

    Returns
    -------
    TimedJobs
        Arrival and run times in seconds, sizes, ``slot_seconds`` 1, and an ``info``
        dict stating these rules and the tasks each dropped.

    Raises
    ------
    ValueError
        ``until_seconds`` not above 0 or ``first`` not a positive integer; no job
        left; a malformed table.

    References
    ----------
    PG21 Sec. VII-B; ``theory/data/alibaba2017.PROVENANCE.md`` ("How to use it", (b)).

    Examples
    --------
    The instances that arrive in the trace's first minute:

    >>> j = alibaba2017_timed(until_seconds=60)
    >>> j.n, float(j.arrival[0]), j.slot_seconds
    (274, 5.0, 1.0)
    """
    t = alibaba2017_tasks(path=path)
    rows, dropped = _usable(t)
    if rows.size == 0:
        raise ValueError(f"{t.where}: no Terminated task with requests and times")
    rows = rows[np.argsort(t.create_s[rows], kind="stable")]
    t0 = int(t.create_s[rows[0]])
    beyond = 0
    if until_seconds is not None:
        if not until_seconds > 0:
            raise ValueError(f"until_seconds must be above 0, got {until_seconds!r}")
        late = t.create_s[rows] - t0 >= until_seconds
        beyond = int(t.instances[rows[late]].sum())
        rows = rows[~late]
    jobs = np.repeat(rows, t.instances[rows])
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int | np.integer) or first < 1:
            raise ValueError(f"first must be a positive integer, got {first!r}")
        jobs = jobs[:first]
    cores, memory = _unit(False)
    info = {"trace": "alibaba2017", **_unit_info(),
            "rule": "one per instance of the Terminated tasks with requests, created "
                    "inside the trace and ending at least 1 s later",
            "tasks": int(rows.size), "instances": int(jobs.size), "dropped_tasks": dropped,
            "beyond_until": beyond,
            "arrival": "the task's task_create_time (s)",
            "service": "task_end_time - task_create_time (s): an upper bound on each "
                       "instance's run time (the trace has no per-instance times)",
            "slot_seconds": 1.0}
    return TimedJobs(t.create_s[jobs].astype(float), (t.end_s - t.create_s)[jobs].astype(float),
                     t.plan_cpu[jobs] / _CPU_UNIT / cores, t.plan_mem[jobs] / memory, 1.0,
                     info)


def alibaba2017_job_set(family: str = "fl24-nonpreemptive", *, seed: int = 0,
                        first: int | None = None, path: PathLike | None = None) -> Any:
    """A finite job set from the Alibaba 2017 trace in the units of XLL21 or FL24.

    One task per Alibaba job, drawn uniformly with ``numpy.random.default_rng(seed)``
    from the job's usable tasks (``Terminated``, with requests, created inside the
    trace, ending at least a second later; jobs in order of first creation), as XLL21
    Sec. VI picks "one task as its representative"; the task's one instance is the job,
    its run time ``end - create`` (an upper bound). Then:

    * ``"xll21-preemptive"``: 10-s slots, cores ``max(1, ceil(plan_cpu / 100))`` and
      memory ``max(1, ceil(64 plan_mem))`` units (64 per unit machine, the largest
      machine having 64 cores: the rules of :func:`theory.readers.trace_job_sets.
      google2011_job_set`);
    * ``"fl24-nonpreemptive"``: times in units of the shortest run time, demands
      (cpu, memory) as fractions of the unit machine, weights 1.

    Parameters
    ----------
    family : str, default "fl24-nonpreemptive"
        ``"xll21-preemptive"`` or ``"fl24-nonpreemptive"``.
    seed : int, default 0
        Seed of the draw of each job's task.
    first : int, optional
        Only the first ``first`` jobs by arrival.
    path : str or os.PathLike, optional
        A task table in the packaged format.

    Returns
    -------
    theory.job_sets.JobSet
        The jobs, ids ``"<job_id>.<task_id>"``.

    Raises
    ------
    ValueError
        An unknown family; ``seed`` not a non-negative integer; ``first`` not a
        positive integer; a malformed table.

    References
    ----------
    XLL21 Sec. VI (one task per job, 10-s slots); FL24 Sec. 3 (units);
    ``theory/data/alibaba2017.PROVENANCE.md``.

    Examples
    --------
    >>> js = alibaba2017_job_set("xll21-preemptive", first=3)
    >>> js.n, js.demand.tolist()
    (3, [[1.0, 2.0], [1.0, 1.0], [1.0, 1.0]])
    """
    if family not in ("xll21-preemptive", "fl24-nonpreemptive"):
        raise ValueError(f"family must be 'xll21-preemptive' or 'fl24-nonpreemptive', got "
                         f"{family!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    t = alibaba2017_tasks(path=path)
    rows, _ = _usable(t)
    by_job: dict[int, list[int]] = {}
    for j in rows.tolist():
        by_job.setdefault(int(t.job_id[j]), []).append(j)
    jobs = sorted(by_job.values(), key=lambda ts: min(int(t.create_s[k]) for k in ts))
    rng = np.random.default_rng(seed)
    chosen = np.array([ts[int(rng.integers(len(ts)))] for ts in jobs], dtype=np.int64)
    chosen = chosen[np.argsort(t.create_s[chosen], kind="stable")]
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int | np.integer) or first < 1:
            raise ValueError(f"first must be a positive integer, got {first!r}")
        chosen = chosen[:first]
    cores, memory = _unit(False)
    arrival = t.create_s[chosen].astype(float)
    runtime = (t.end_s - t.create_s)[chosen].astype(float)
    cpu = t.plan_cpu[chosen] / _CPU_UNIT / cores
    mem = t.plan_mem[chosen] / memory
    ids = [f"{t.job_id[k]}.{t.task_id[k]}" for k in chosen.tolist()]
    if family == "xll21-preemptive":
        return xll21_job_set(arrival, runtime, cpu, mem, ids, cores_per_unit=int(cores),
                             memory_per_unit=int(cores))
    return fl24_job_set(arrival, runtime, cpu, mem, ids)
