"""The memory a PG18 continuous-time run needs, estimated before anything is allocated.

docs/design.md, "Inputs, budgets and errors": one estimate for the workload generator
(:func:`policies.poisson_type_workload`, before it draws) and both engines
(:func:`policies.simulate_continuous`, before the state and the kernel's arrays). What
grows with the input:

* per job: the workload's arrays (one demand row of R resources), the engine's start,
  server and finish and its queue links, the result, and the invariant checker's sweep
  over every job's interval (one demand row each, sorted and summed);
* per queue sample: one count per type (J) and the sampled series;
* per (queue row, type): the FIFO queue and the dummy stack of the Python state (built
  for the compiled engine's ``bind`` too; one row, or one per server with the
  distributed queues of PG18 Algorithm 2);
* per server: loads and per-type counts;
* per slot of the compiled engine's records of jobs in service;
* per dummy job (PG18 Algorithm 1): its row in the dummy log and in the checker's sweep.

The dummies are the one count not known before the run; the engines stop a run whose
dummy log would pass the budget (:func:`dummy_allowance`). The constants are upper
estimates of measured runs (``tests/policies/continuous/test_continuous_limits.py`` compares them
with a run's peak memory).
"""

from __future__ import annotations

import math

from theory.budgets import BudgetExceeded, check_budget, format_bytes
from theory.numbers import real_float

__all__ = ["JOB_BYTES", "JOB_RESOURCE_BYTES", "SAMPLE_BYTES", "SAMPLE_TYPE_BYTES",
           "CELL_BYTES", "SERVER_BYTES", "SLOT_BYTES", "DUMMY_BYTES", "run_bytes",
           "check_memory", "check_memory_budget", "dummy_allowance", "dummy_budget_error"]

#: bytes per job, plus JOB_RESOURCE_BYTES per resource (measured, workload, run, result,
#: checker and summary: about 200 + 62 R, e.g. 270 at R = 1, 684 at R = 8)
JOB_BYTES, JOB_RESOURCE_BYTES = 360, 72
#: bytes per queue sample, plus SAMPLE_TYPE_BYTES per type (measured: 57 at J = 2, 280
#: at J = 30)
SAMPLE_BYTES, SAMPLE_TYPE_BYTES = 80, 16
#: bytes per (queue row, type): a deque and a list in the Python state and the queue
#: arrays of both engines (measured: about 890)
CELL_BYTES = 1100
#: bytes per server, plus 8 per resource and 48 per type (loads, counts, dummies)
SERVER_BYTES = 64
#: bytes per record slot of the compiled engine (12 arrays of 8 bytes, one of 1)
SLOT_BYTES = 112
#: bytes per dummy job, plus JOB_RESOURCE_BYTES per resource (log row, a tuple in the
#: Python engine, the checker's sweep; measured: about 190 compiled, 320 in Python)
DUMMY_BYTES = 400


def run_bytes(*, jobs: float, samples: float, types: int, resources: int, servers: int,
              rows: int, slots: float = 0, dummies: float = 0) -> float:
    """Bytes of a run of ``jobs`` jobs and ``samples`` queue samples on ``servers``
    servers with ``rows`` queue rows (1, or the servers with distributed queues)."""
    per_job = JOB_BYTES + JOB_RESOURCE_BYTES * resources
    per_dummy = DUMMY_BYTES + JOB_RESOURCE_BYTES * resources
    return (per_job * float(jobs)
            + (SAMPLE_BYTES + SAMPLE_TYPE_BYTES * types) * float(samples)
            + CELL_BYTES * float(rows) * types
            + (SERVER_BYTES + 8 * resources + 48 * types) * float(servers)
            + SLOT_BYTES * float(slots) + per_dummy * float(dummies))


def check_memory_budget(memory_budget: object) -> float:
    """``memory_budget`` as a float: a positive number of bytes (inf: no budget)."""
    v = real_float(memory_budget, "memory_budget", "a positive number of bytes")
    if not v > 0:
        raise ValueError(f"memory_budget must be a positive number of bytes, got "
                         f"{memory_budget!r}")
    return v


def check_memory(need: float, memory_budget: float, *, what: str) -> None:
    """Refuse (:class:`theory.budgets.BudgetExceeded`, option ``memory_budget``) when
    ``need`` bytes exceed the budget."""
    check_budget(need, memory_budget, what=what, option="memory_budget", unit="bytes")


def dummy_allowance(memory_budget: float, used: float, resources: int) -> int:
    """The dummy jobs a run may record in the budget left after ``used`` bytes."""
    left = memory_budget - used
    if not math.isfinite(left):
        return 2**62
    return max(0, min(2**62, int(left // (DUMMY_BYTES + JOB_RESOURCE_BYTES * resources))))


def dummy_budget_error(name: str, horizon: float, allowance: int, used: float,
                       memory_budget: float, resources: int) -> BudgetExceeded:
    """The refusal of a run whose dummy jobs passed :func:`dummy_allowance`."""
    need = used + (allowance + 1) * (DUMMY_BYTES + JOB_RESOURCE_BYTES * resources)
    return BudgetExceeded(
        f"{name} over time {horizon:g} placed more than {allowance:,} dummy jobs (PG18 "
        f"Algorithm 1); recording them", f"more than {format_bytes(need)}",
        format_bytes(memory_budget), "memory_budget",
        "the dummy jobs are known only as the run goes; a shorter time places fewer")
