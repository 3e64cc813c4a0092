"""The memory a slotted run needs, estimated from its inputs before anything is allocated.

One estimate for every entry point (docs/design.md, "Inputs, budgets and errors"): the
workload generators call it before drawing arrivals, :func:`policies.simulate` before the
kernel's arrays. Per job: the workload's arrays, the simulator's copies, the kernel's
per-job state, the record of the queue (a step series: a few entries per job) and the
invariant checker's rebuilt schedule; per slot: the workload's arrival counts and the
one-entry-per-slot series a caller may ask the result for; per server: the kernel's
and the result's per-server arrays.
The constants are upper estimates (see ``tests/policies/test_footprint.py``, which
compares them with a measured run).
"""

from __future__ import annotations

import math

from theory.budgets import MEMORY_BUDGET, check_budget
from theory.cluster import SERVER_BYTES

__all__ = ["JOB_BYTES", "SLOT_BYTES", "SERVER_BYTES", "expected_jobs_bound", "run_bytes",
           "check_run_memory"]

#: bytes per job: workload (3 x 8), simulator copies and results (6 x 8), kernel state
#: (type, queue and list entries, about 12 x 8), the record (2-3 entries of 32 bytes
#: used), invariant checker (about 10 x 8), with a margin (measured: about 250 bytes
#: per job at 360k jobs)
JOB_BYTES = 400
#: bytes per slot: the workload's arrival counts and a temporary, and the three
#: one-entry-per-slot series built when a caller reads them (3 x 8)
SLOT_BYTES = 48


def expected_jobs_bound(rate: float, slots: float) -> float:
    """A high quantile of Poisson(rate * slots): mean + 6 standard deviations + 10."""
    m = float(rate) * float(slots)
    return m + 6.0 * math.sqrt(m) + 10.0


def run_bytes(jobs: float, slots: float, servers: float = 0) -> float:
    """Bytes a slotted run of ``jobs`` jobs, ``slots`` slots and ``servers`` servers needs."""
    return JOB_BYTES * float(jobs) + SLOT_BYTES * float(slots) + SERVER_BYTES * float(servers)


def check_run_memory(jobs: float, slots: float, servers: float = 0, *,
                     memory_budget: float = MEMORY_BUDGET, what: str) -> None:
    """Refuse (:class:`theory.budgets.BudgetExceeded`) a run above ``memory_budget`` bytes."""
    if isinstance(memory_budget, bool) or not isinstance(memory_budget, int | float) \
            or not memory_budget > 0:
        raise ValueError(f"memory_budget must be a positive number of bytes, got "
                         f"{memory_budget!r}")
    check_budget(run_bytes(jobs, slots, servers), memory_budget, what=what,
                 option="memory_budget", unit="bytes")
