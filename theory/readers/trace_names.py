"""The packaged traces by name: what ``--trace NAME`` means, for every command and for
the API.

Grammar (one place; the commands' help quotes :data:`TRACE_GRAMMAR`)::

    NAME[:SELECTOR][:KIND][:first=N]

* ``NAME``: ``google2011`` (Google clusterdata-2011-2, first 2.95 h; PG21 Sec. VII-B,
  XLL21 Sec. VI), ``google2019`` (Google clusterdata-2019, 8 cells, request sizes and
  machine shapes, **no times**), ``alibaba2017`` (Alibaba cluster-trace-v2017 batch
  tasks and machines), ``azure2017`` (Azure Public Dataset V1 VMs; FL24 Sec. 7.1's
  stand-in);
* ``SELECTOR``: the cell of ``google2019`` (``a`` .. ``h``, default ``a``) or the split of
  ``azure2017`` (``both`` = dev + test, the default; ``dev``; ``test``; ``train``;
  ``all`` = the three; train has no lifetimes); the other traces have none;
* ``KIND``: ``max`` (default: max of the CPU and memory fractions, PG21 Sec. VII-B's
  single resource), ``cpu``, ``memory`` or ``vector`` (the pair, for rho*);
* ``first=N``: only the first N jobs in the trace's order (arrival order; file order
  for google2019's instances and for size laws).

Parts are recognised by their value and may be left out (``azure2017:cpu``,
``google2019:c:vector``, ``alibaba2017:first=1000``); each at most once. Anything else is
refused in one line with a did-you-mean.

Units, per trace (``info["unit"]`` of every result says it again): sizes are fractions of
the trace's **unit machine**: Google 2011 and 2019, the largest capacity of each
resource (the traces' own normalisation); Alibaba, the largest machine of its
``server_event`` table (64 cores, memory 1); Azure, an assumed host of 16 cores and 112
GB (the largest flavour: the trace has no machines). Times are seconds; the slotted model
uses slots of 0.1 s (Google 2011, PG21 Sec. VII-B), 1 s (Alibaba, the trace's
resolution) or 300 s (Azure, its bins).

What each trace gives (what it lacks is refused, never invented):

============  ========  ===============================  ==============================
trace         size law  timed jobs (simulate)            job sets (schedule)
============  ========  ===============================  ==============================
google2011    yes       FINISHed tasks (PG21 VII-B)      XLL21 VI's 1,508 jobs
google2019    yes       no times: synthetic arrivals     refused (no times)
alibaba2017   yes       Terminated tasks' instances      one task per job
azure2017     yes       dev/test VMs (train: refused)    dev/test VMs (train: refused)
============  ========  ===============================  ==============================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theory.budgets import MEMORY_BUDGET
from theory.names import did_you_mean
from theory.readers._trace_tables import (
    KINDS,
    TimedJobs,
    fl24_machines,
)

__all__ = ["TRACE_GRAMMAR", "TRACES", "KINDS", "FAMILIES", "TRACE_SLOT_SECONDS", "TraceName",
           "TraceSizes", "TraceJobSet", "TimedJobs", "is_trace_name", "parse_trace_name",
           "trace_size_law", "trace_timed_jobs", "trace_job_set"]

#: the grammar of a trace name, for help texts
TRACE_GRAMMAR = ("google2011[:KIND] | google2019[:CELL a..h][:KIND] | alibaba2017[:KIND] | "
                 "azure2017[:SPLIT both|dev|test|train|all][:KIND], KIND max|cpu|memory|"
                 "vector, and :first=N for the first N jobs")
#: the job-set families of ``schedule``
FAMILIES: tuple[str, ...] = ("xll21-preemptive", "fl24-nonpreemptive")
#: the slot of the slotted model for each trace with times: PG21 Sec. VII-B's 100 ms
#: decisions for Google 2011, the trace's resolution for Alibaba (1 s) and Azure (300 s)
TRACE_SLOT_SECONDS: dict[str, float] = {"google2011": 0.1, "alibaba2017": 1.0,
                                        "azure2017": 300.0}


@dataclass(frozen=True)
class _Trace:
    selectors: tuple[str, ...]
    default: str | None
    selector_name: str
    times: str  # "" when the trace has times, else why not


#: each trace: its selectors (cells, splits) and default, and whether it has times
TRACES: dict[str, _Trace] = {
    "google2011": _Trace((), None, "", ""),
    "google2019": _Trace(tuple("abcdefgh"), "a", "cell",
                         "its 10,000 instances per cell are request sizes taken at the "
                         "trace's start (every time below 70 s), not arrivals, and it has "
                         "no durations"),
    "alibaba2017": _Trace((), None, "", ""),
    "azure2017": _Trace(("both", "dev", "test", "train", "all"), "both", "split", ""),
}
_NO_LIFETIMES = ("train", "all")


@dataclass(frozen=True)
class TraceName:
    """A parsed trace name (:func:`parse_trace_name`).

    Parameters
    ----------
    trace : str
        ``google2011``, ``google2019``, ``alibaba2017`` or ``azure2017``.
    selector : str or None
        The cell (google2019) or split (azure2017), the default filled in; None for the
        other traces.
    kind : str or None
        ``max``, ``cpu``, ``memory`` or ``vector``; None when the name gives none (the
        size laws and timed jobs then use ``max``).
    first : int or None
        Only the first ``first`` jobs.

    References
    ----------
    docs/design.md, "Readers and loaders"; this module's docstring (the grammar).

    Examples
    --------
    >>> n = parse_trace_name("azure2017:cpu")
    >>> n.selector, n.kind, str(n)
    ('both', 'cpu', 'azure2017:both:cpu')
    """

    trace: str
    selector: str | None = None
    kind: str | None = None
    first: int | None = None

    def __str__(self) -> str:
        parts = [self.trace, self.selector, self.kind,
                 None if self.first is None else f"first={self.first}"]
        return ":".join(p for p in parts if p is not None)

    @property
    def size_kind(self) -> str:
        """The kind sizes use: the one given, else ``max``."""
        return self.kind or "max"

    @property
    def lacks_times(self) -> str:
        """Why the trace has no times for this name (empty when it has them)."""
        if TRACES[self.trace].times:
            return TRACES[self.trace].times
        if self.trace == "azure2017" and self.selector in _NO_LIFETIMES:
            return ("the train split's lifetime file, v1.train.c1800000.txt, was too large "
                    "to copy into the shared data")
        return ""


def is_trace_name(text: object) -> bool:
    """Does ``text`` start with a packaged trace's name (``NAME`` or ``NAME:...``)?

    Parameters
    ----------
    text : object
        A ``--trace`` value.

    Returns
    -------
    bool
        True for ``google2019:b``, False for a file name.

    References
    ----------
    docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> is_trace_name("google2019:b"), is_trace_name("sizes.txt")
    (True, False)
    """
    return isinstance(text, str) and text.split(":", 1)[0] in TRACES


def parse_trace_name(text: str) -> TraceName:
    """Parse ``NAME[:SELECTOR][:KIND][:first=N]`` (module docstring).

    Parameters
    ----------
    text : str
        The name, e.g. ``"google2019:c:vector"`` or ``"alibaba2017:first=500"``.

    Returns
    -------
    TraceName
        The parts, the trace's default selector filled in.

    Raises
    ------
    ValueError
        An unknown trace, cell, split or kind, a part given twice, or ``first`` not a
        positive integer: one line, with a did-you-mean where a name is close.

    References
    ----------
    docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> parse_trace_name("google2019:c:vector:first=100")
    TraceName(trace='google2019', selector='c', kind='vector', first=100)
    >>> parse_trace_name("google2011:mem")
    Traceback (most recent call last):
    ...
    ValueError: google2011: kind must be one of max, cpu, memory, vector, got 'mem'; ...
    """
    if not isinstance(text, str):
        raise ValueError(f"a trace name must be text, got {text!r}")
    name, *parts = text.strip().split(":")
    if name not in TRACES:
        raise ValueError(f"unknown trace {name!r}: the packaged traces are "
                         f"{', '.join(TRACES)}{did_you_mean(name, TRACES, n=1)}")
    info = TRACES[name]
    got: dict[str, Any] = {}
    for part in parts:
        key: str
        value: object
        if part.startswith("first="):
            key, value = "first", _first(part[6:], text)
        elif part in KINDS:
            key, value = "kind", part
        elif part in info.selectors:
            key, value = "selector", part
        else:
            raise ValueError(_unknown_part(name, part))
        if key in got:
            raise ValueError(f"{text!r} gives the {key} twice")
        got[key] = value
    return TraceName(name, got.get("selector", info.default), got.get("kind"),
                     got.get("first"))


def _first(value: str, text: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{text!r}: first=N needs a positive integer N, got {value!r}")
    return int(value)


def _unknown_part(name: str, part: str) -> str:
    info = TRACES[name]
    if not info.selectors:
        return (f"{name}: kind must be one of {', '.join(KINDS)}, got {part!r}"
                f"{did_you_mean(part, KINDS)}")
    return (f"{name}: {part!r} is neither a {info.selector_name} "
            f"({', '.join(info.selectors)}) nor a kind ({', '.join(KINDS)})"
            f"{did_you_mean(part, (*info.selectors, *KINDS))}")


def _parsed(name: str | TraceName) -> TraceName:
    return name if isinstance(name, TraceName) else parse_trace_name(name)


# -- size laws (rho-star, simulate with synthetic arrivals) ------------------------------


@dataclass(frozen=True)
class TraceSizes:
    """A trace's size law and what it is.

    Parameters
    ----------
    dist : theory.distributions.Discrete
        The empirical law, sizes as fractions of the unit machine.
    info : dict
        The trace, its kind and unit machine, the rules that chose the jobs.

    References
    ----------
    PG21 Sec. III (rho* of a size law); docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> s = trace_size_law("azure2017:dev:cpu")
    >>> len(s.dist), s.info["unit"][:20]
    (5, 'an assumed host of 1')
    """

    dist: Any
    info: dict[str, Any] = field(default_factory=dict)


def trace_size_law(name: str | TraceName, *, exact: bool = True, finished_only: bool = False,
                   memory_budget: float = MEMORY_BUDGET) -> TraceSizes:
    """The empirical size law of a packaged trace (one type per distinct size).

    Parameters
    ----------
    name : str or TraceName
        A trace name (module docstring); the kind defaults to ``max``.
    exact : bool, default True
        Sizes as Fractions parsed from the decimal text (the exact LPs need them).
    finished_only : bool, default False
        google2011 only: keep the tasks that finished (PG21 VII-B).
    memory_budget : float, default MEMORY_BUDGET
        Bytes the reading may use (google2011).

    Returns
    -------
    TraceSizes
        The :class:`theory.distributions.Discrete` law and its ``info``.

    Raises
    ------
    ValueError
        A malformed name (:func:`parse_trace_name`); ``finished_only`` with another
        trace than google2011.

    References
    ----------
    PG21 Sec. III and Sec. VII-B; the ``theory/data/*.PROVENANCE.md`` files.

    Examples
    --------
    >>> law = trace_size_law("google2019:e:cpu")
    >>> len(law.dist), law.info["cell"]
    (489, 'e')
    """
    n = _parsed(name)
    kind = n.size_kind
    if finished_only and n.trace != "google2011":
        raise ValueError("finished_only applies to the google2011 trace only")
    info: dict[str, Any] = {"source": n.trace, "trace": str(n), "resource": kind}
    if n.first is not None:
        info["first"] = n.first
    if n.trace == "google2011":
        from theory.readers.traces import google2011_sizes, trace_distribution

        info["unit"] = "the largest machine (the trace normalises each request to it)"
        info["finished_only"] = finished_only
        if n.first is None:
            dist = trace_distribution(kind, exact=exact, finished_only=finished_only,
                                      memory_budget=memory_budget)
        else:
            from collections import Counter

            from theory.distributions import Discrete

            sizes = google2011_sizes(kind, exact=exact, finished_only=finished_only,
                                     memory_budget=memory_budget)[:n.first]
            counts = Counter(tuple(s) if kind == "vector" else s for s in sizes)
            order = sorted(counts)
            dist = Discrete.from_counts(order, [counts[s] for s in order])
        return TraceSizes(dist, info)
    if n.trace == "google2019":
        from theory.readers.google2019 import google2019_distribution, google2019_machines

        m = google2019_machines(n.selector or "a")
        c, r, count = m.most_common()
        info.update(cell=n.selector, unit=_google2019_unit(m),
                    most_common_machine={"cpus": c, "ram": r, "machines": count,
                                         "of": m.machines},
                    times="none: request sizes only (the trace has no times)")
        return TraceSizes(google2019_distribution(n.selector or "a", kind, exact=exact,
                                                  first=n.first), info)
    if n.trace == "alibaba2017":
        from theory.readers.alibaba2017 import _unit_info, alibaba2017_distribution

        info.update(_unit_info(), rule="one per instance of every task with requests")
        return TraceSizes(alibaba2017_distribution(kind, exact=exact, first=n.first), info)
    from theory.readers.azure import AZURE_HOST, _host_info, azure2017_distribution

    info.update(split=n.selector, **_host_info(AZURE_HOST), rule="one per VM")
    return TraceSizes(azure2017_distribution(n.selector or "both", kind, exact=exact,
                                             first=n.first), info)


def _google2019_unit(m: Any) -> str:
    c, r = m.largest()
    both = bool(np.any((m.cpus == c) & (m.ram == r)))
    return (f"cell {m.cell}'s largest capacity of each resource (cpus {c:g}, ram {r:g}; "
            f"{'a machine shape of the cell' if both else 'no machine of the cell has both'})")


# -- timed jobs (simulate) ---------------------------------------------------------------


def trace_timed_jobs(name: str | TraceName, *, until_seconds: float | None = None
                     ) -> TimedJobs:
    """The jobs of a trace with arrival and run times, for trace-driven slotted
    simulation (PG21 Sec. VII-B).

    Jobs whose size of the name's kind is 0 are dropped (``info["dropped_zero"]``);
    google2011 keeps, as PG21 VII-B, the tasks that finished with a known runtime and a
    size at most 1 (:func:`policies.google2011_workload`'s rule).

    Parameters
    ----------
    name : str or TraceName
        A trace name with times (not google2019, not azure2017's train or all).
    until_seconds : float, optional
        Only the jobs arriving before this many seconds after the first arrival.

    Returns
    -------
    TimedJobs
        Times in seconds, sizes as fractions of the unit machine, the trace's slot
        length, and ``info`` (rules, unit, kind).

    Raises
    ------
    ValueError
        A malformed name; a trace (or split) without times, saying why and what to use;
        the kind ``vector`` (the slotted model is single-resource).

    References
    ----------
    PG21 Sec. VII-B; the ``theory/data/*.PROVENANCE.md`` files.

    Examples
    --------
    >>> j = trace_timed_jobs("azure2017:dev:first=5")
    >>> j.n, j.slot_seconds, j.info["resource"]
    (5, 300.0, 'max')
    """
    n = _parsed(name)
    kind = n.size_kind
    if n.lacks_times:
        raise ValueError(f"{n.trace} has no arrival or run times ({n.lacks_times}): give "
                         f"it as a size law with synthetic arrivals instead"
                         if n.trace == "google2019" else
                         f"{str(n)} has no run times ({n.lacks_times}): use the split "
                         f"dev, test or both")
    if kind == "vector":
        raise ValueError("the slotted model is single-resource (PG21): give the kind max, "
                         "cpu or memory, not vector")
    if n.trace == "google2011":
        jobs = _google2011_timed(kind, until_seconds)
    elif n.trace == "alibaba2017":
        from theory.readers.alibaba2017 import alibaba2017_timed

        jobs = alibaba2017_timed(until_seconds=until_seconds)
    else:
        from theory.readers.azure import azure2017_timed

        jobs = azure2017_timed(n.selector or "both", until_seconds=until_seconds)
    size = jobs.sizes(kind)
    keep = size > 0
    if n.first is not None:
        keep &= np.cumsum(keep) <= n.first
    info = dict(jobs.info, resource=kind, name=str(n), dropped_zero=int(np.count_nonzero(
        size == 0)), jobs_kept=int(np.count_nonzero(keep)))
    return TimedJobs(jobs.arrival[keep], jobs.service[keep], jobs.cpu[keep],
                     jobs.memory[keep], jobs.slot_seconds, info)


def _google2011_timed(kind: str, until_seconds: float | None) -> TimedJobs:
    from theory.readers.traces import load_google2011

    cols = load_google2011()
    cpu, mem = cols["cpu_request"], cols["memory_request"]
    size = np.fmax(cpu, mem) if kind == "max" else (cpu if kind == "cpu" else mem)
    keep = ((cols["end_event"] == "FINISH") & np.isfinite(cols["runtime_s"])
            & np.isfinite(cols["submit_time_us"]) & np.isfinite(size) & (size <= 1))
    t = cols["submit_time_us"][keep] * 1e-6
    order = np.argsort(t, kind="stable")
    beyond = 0
    if until_seconds is not None:
        if not until_seconds > 0:
            raise ValueError(f"until_seconds must be above 0, got {until_seconds!r}")
        late = t[order] - t[order[0]] >= until_seconds
        beyond = int(np.count_nonzero(late))
        order = order[~late]
    info = {"trace": "google2011",
            "unit": "the largest machine (the trace normalises each request to it)",
            "rule": "the tasks that FINISHed with a known runtime (PG21 VII-B: 'completed "
                    "without interruptions/errors')",
            "arrival": "the task's first SUBMIT (s; 0 = before the trace window)",
            "service": "the runtime, first SCHEDULE to FINISH (s)",
            "slot_seconds": TRACE_SLOT_SECONDS["google2011"], "beyond_until": beyond}
    return TimedJobs(t[order], cols["runtime_s"][keep][order], cpu[keep][order],
                     mem[keep][order], TRACE_SLOT_SECONDS["google2011"], info)


# -- job sets (schedule) -----------------------------------------------------------------


@dataclass(frozen=True)
class TraceJobSet:
    """A finite job set from a trace, a default cluster for it, and what they are.

    Parameters
    ----------
    jobs : theory.job_sets.JobSet
        The jobs in the family's units.
    machines : theory.job_sets.Machines
        The default cluster (XLL21: servers of 64, 32 and 16 cores, one memory unit
        per core; FL24: 20 unit machines of two resources).
    info : dict
        The trace, the rules and the units.

    References
    ----------
    XLL21 Sec. VI; FL24 Sec. 7.1; docs/design.md, "Readers and loaders".

    Examples
    --------
    >>> s = trace_job_set("azure2017:dev:first=10", "fl24-nonpreemptive")
    >>> s.jobs.n, s.machines.m
    (10, 20)
    """

    jobs: Any
    machines: Any
    info: dict[str, Any] = field(default_factory=dict)


def trace_job_set(name: str | TraceName, family: str, *, seed: int = 0) -> TraceJobSet:
    """A job set of a trace in the units of an XLL21 or FL24 policy, with a default
    cluster.

    * google2011: XLL21 Sec. VI's job set (one representative task per job, 1,508 jobs;
      :func:`theory.readers.trace_job_sets.google2011_job_set`), or the same jobs in
      FL24's units (:func:`~theory.readers.trace_job_sets.google2011_fl24_job_set`);
    * alibaba2017: :func:`theory.readers.alibaba2017.alibaba2017_job_set`;
    * azure2017 (dev, test or both): FL24's job set (:func:`theory.readers.azure.
      azure2017_job_set`; the first N VMs by release with ``first=N``), or XLL21 units
      (:func:`theory.readers.azure.azure2017_xll21_job_set`);
    * google2019: refused, it has no times.

    Parameters
    ----------
    name : str or TraceName
        A trace name without a kind (a job set uses both requests).
    family : str
        ``"xll21-preemptive"`` or ``"fl24-nonpreemptive"``.
    seed : int, default 0
        Seed of the representative-task draws (google2011, alibaba2017).

    Returns
    -------
    TraceJobSet
        The jobs, the default cluster and ``info``.

    Raises
    ------
    ValueError
        A malformed name; a kind in the name; a trace or split without times (one line
        saying why and what to use); an unknown family.

    References
    ----------
    XLL21 Sec. VI; FL24 Sec. 3 and Sec. 7.1; the ``theory/data/*.PROVENANCE.md`` files.

    Examples
    --------
    >>> s = trace_job_set("google2011:first=50", "xll21-preemptive")
    >>> s.jobs.n, s.machines.capacity[:, 0].tolist()
    (50, [64.0, 32.0, 16.0])
    """
    n = _parsed(name)
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    if n.kind is not None:
        raise ValueError(f"a job set uses both requests (cpu and memory): leave the kind "
                         f"{n.kind!r} out of {str(n)!r}")
    if n.lacks_times:
        if n.trace == "google2019":
            raise ValueError(f"google2019 has no times ({n.lacks_times}), so it gives no job "
                             f"set: use google2011, alibaba2017 or azure2017 here, or "
                             f"google2019's sizes in rho-star or simulate (synthetic "
                             f"arrivals)")
        raise ValueError(f"{str(n)} has no run times ({n.lacks_times}): use the split dev, "
                         f"test or both")
    xll21 = family == "xll21-preemptive"
    info: dict[str, Any] = {"trace": str(n), "family": family}
    if n.trace == "google2011":
        from theory.readers.trace_job_sets import google2011_fl24_job_set, google2011_job_set

        jobs = (google2011_job_set(seed=seed, max_jobs=n.first) if xll21
                else google2011_fl24_job_set(seed=seed, max_jobs=n.first))
        info.update(unit="the largest machine (64 cores in XLL21's units)",
                    rule="one task per job, drawn with the seed (XLL21 Sec. VI)", seed=seed)
    elif n.trace == "alibaba2017":
        from theory.readers.alibaba2017 import _unit_info, alibaba2017_job_set

        jobs = alibaba2017_job_set(family, seed=seed, first=n.first)
        info.update(_unit_info(), seed=seed,
                    rule="one Terminated task per job, drawn with the seed (XLL21 Sec. VI); "
                         "its run time end - create is an upper bound")
    else:
        from theory.readers.azure import AZURE_HOST, _host_info, azure2017_xll21_job_set

        split = n.selector or "both"
        jobs = (azure2017_xll21_job_set(split, first=n.first) if xll21
                else _azure_fl24(split, n.first))
        info.update(_host_info(AZURE_HOST), split=split,
                    rule="one per VM not censored, in release order; run time the "
                         "midpoint of its lifetime bin")
    if xll21:
        from theory.readers.trace_job_sets import xll21_cluster

        machines = xll21_cluster()
        info.update(time="slots of 10 s (XLL21 Sec. VI)",
                    cluster="default: servers of 64, 32 and 16 cores, one memory unit per "
                            "core (XLL21 Sec. VI; --cluster to change)")
    else:
        machines = fl24_machines()
        info.update(time="units of the shortest processing time (FL24 Sec. 3)",
                    cluster="default: 20 identical unit machines (FL24 Sec. 7.1; --cluster "
                            "to change)")
    info["jobs_count"] = jobs.n
    return TraceJobSet(jobs, machines, info)


def _azure_fl24(split: str, first: int | None) -> Any:
    from theory.readers._trace_tables import fl24_job_set
    from theory.readers.azure import azure2017_job_set

    js = azure2017_job_set(split=split, time_unit="seconds")
    k = js.n if first is None else min(first, js.n)
    return fl24_job_set(js.arrival[:k], js.processing[:k], js.demand[:k, 0],
                        js.demand[:k, 1], list(js.ids[:k]))
