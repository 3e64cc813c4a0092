"""The readers (and writers) of data files: everything in :mod:`theory` that opens a file
or reads the packaged data.

* :mod:`theory.readers.traces`: the packaged Google 2011 task table (PG21 Sec. VII-B)
  and user size files; :func:`~theory.readers.traces.read_text_file`, the bounded UTF-8
  (plain or gzip) text reader the other readers use.
* :mod:`theory.readers.job_files`: job and cluster CSV files of finite job sets
  (docs/design.md, Contracts: job and cluster files).
* :mod:`theory.readers.bpplib`: BPPLIB bin-packing instances (bpp and csp layouts).
* :mod:`theory.readers.azure`: FL24's Azure-like workload from the packaged Azure 2017
  VM trace (FL24 Sec. 7.1).
* :mod:`theory.readers.trace_job_sets`: XLL21's job set from the packaged Google 2011
  finished tasks (XLL21 Sec. VI).

The packaged files stay in ``theory/data`` (package data of ``theory``) and are read
with :mod:`importlib.resources`, never by a path computed from ``__file__``. The public
names of ``traces`` and ``job_files`` are also re-exported by :mod:`theory`
(``from theory import read_jobs``). Nothing is imported here: ``import theory.readers``
costs nothing until a reader is used.

The public loaders are also available here (``from theory.readers import
trace_size_law``; :data:`__all__`), imported on first use (PEP 562):

* :mod:`theory.readers.trace_names`: the registry of ``--trace NAME`` (grammar, units,
  what each trace gives) and its three uses, :func:`trace_size_law`,
  :func:`trace_timed_jobs` and :func:`trace_job_set`;
* :mod:`theory.readers.google2019`: Google 2019 machine shapes and request sizes;
* :mod:`theory.readers.alibaba2017`: Alibaba 2017 batch tasks and machines;
* the loaders of :mod:`~theory.readers.traces`, :mod:`~theory.readers.azure`,
  :mod:`~theory.readers.trace_job_sets`, :mod:`~theory.readers.bpplib` and
  :mod:`~theory.readers.job_files`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from theory.lazy import lazy_exports

if TYPE_CHECKING:  # the names, for type checkers and readers
    from theory.readers.alibaba2017 import (
        Alibaba2017Machines,
        Alibaba2017Tasks,
        alibaba2017_distribution,
        alibaba2017_job_set,
        alibaba2017_machines,
        alibaba2017_tasks,
        alibaba2017_timed,
    )
    from theory.readers.azure import (
        AzureVMs,
        azure2017_distribution,
        azure2017_job_set,
        azure2017_timed,
        azure2017_vms,
        azure2017_xll21_job_set,
    )
    from theory.readers.bpplib import read_bpplib
    from theory.readers.google2019 import (
        Google2019Machines,
        Google2019Requests,
        google2019_distribution,
        google2019_machines,
        google2019_requests,
        google2019_sizes,
    )
    from theory.readers.job_files import read_cluster, read_instance, read_jobs
    from theory.readers.trace_job_sets import (
        google2011_fl24_job_set,
        google2011_job_set,
        xll21_cluster,
    )
    from theory.readers.trace_names import (
        TRACE_GRAMMAR,
        TimedJobs,
        TraceJobSet,
        TraceName,
        TraceSizes,
        is_trace_name,
        parse_trace_name,
        trace_job_set,
        trace_size_law,
        trace_timed_jobs,
    )
    from theory.readers.traces import google2011_sizes, load_google2011, trace_distribution

#: submodule -> the public loaders it gives this package
_EXPORTS: dict[str, tuple[str, ...]] = {
    "theory.readers.trace_names": ("TRACE_GRAMMAR", "TraceName", "TraceSizes", "TraceJobSet",
                                   "TimedJobs", "is_trace_name", "parse_trace_name",
                                   "trace_size_law", "trace_timed_jobs", "trace_job_set"),
    "theory.readers.traces": ("load_google2011", "google2011_sizes", "trace_distribution"),
    "theory.readers.google2019": ("Google2019Requests", "Google2019Machines",
                                  "google2019_requests", "google2019_machines",
                                  "google2019_sizes", "google2019_distribution"),
    "theory.readers.alibaba2017": ("Alibaba2017Tasks", "Alibaba2017Machines",
                                   "alibaba2017_tasks", "alibaba2017_machines",
                                   "alibaba2017_distribution", "alibaba2017_timed",
                                   "alibaba2017_job_set"),
    "theory.readers.azure": ("AzureVMs", "azure2017_vms", "azure2017_distribution",
                             "azure2017_timed", "azure2017_job_set",
                             "azure2017_xll21_job_set"),
    "theory.readers.trace_job_sets": ("google2011_job_set", "google2011_fl24_job_set",
                                      "xll21_cluster"),
    "theory.readers.bpplib": ("read_bpplib",),
    "theory.readers.job_files": ("read_jobs", "read_cluster", "read_instance"),
}

_names, __getattr__, __dir__ = lazy_exports("theory.readers", _EXPORTS, globals())

__all__ = [
    "TRACE_GRAMMAR", "TraceName", "TraceSizes", "TraceJobSet", "TimedJobs", "is_trace_name",
    "parse_trace_name", "trace_size_law", "trace_timed_jobs", "trace_job_set",
    "load_google2011", "google2011_sizes", "trace_distribution",
    "Google2019Requests", "Google2019Machines", "google2019_requests", "google2019_machines",
    "google2019_sizes", "google2019_distribution",
    "Alibaba2017Tasks", "Alibaba2017Machines", "alibaba2017_tasks", "alibaba2017_machines",
    "alibaba2017_distribution", "alibaba2017_timed", "alibaba2017_job_set",
    "AzureVMs", "azure2017_vms", "azure2017_distribution", "azure2017_timed",
    "azure2017_job_set", "azure2017_xll21_job_set",
    "google2011_job_set", "google2011_fl24_job_set", "xll21_cluster",
    "read_bpplib", "read_jobs", "read_cluster", "read_instance",
]
