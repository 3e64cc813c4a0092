"""Instances the papers share, typed out once.

:data:`EC2_TABLE_I` is PG18 Table I, "Three representative instances in Amazon EC2"
(Sec. VII): the memory, CPU and storage of three job (VM) types, with the servers that
PG18 Sec. VII-A puts them on, "90 GB memory, 90 CPU Units and 5000 GB storage" (the
server type of its ref. [19]).

The numbers are kept as the paper prints them, in decimal text, so that an exact
reader gets 17.1 = 171/10 (``sizes(exact=True)``) and a simulator gets plain numbers
(``sizes()``: ``[[15, 8, 1690], [17.1, 6.5, 420], [7, 20, 1690]]``).

:func:`patience_instance` is FL24 Sec. 7.5.4's "exercising patience" instance (Fig. 7):
one long job that takes the whole machine at time 0, then many small jobs just after it,
the situation of FL24 Sec. 4 (Lemma 4.1) in which a policy that starts whatever fits pays
for committing the machine. The paper gives the long job's length (14) and the number of
jobs (2,500) but neither the small jobs' distributions nor a seed; those are the
library's, drawn with :data:`PATIENCE_SEED` unless a seed is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from theory.job_sets import JobSet

__all__ = ["InstanceTable", "EC2_TABLE_I", "patience_instance", "PATIENCE_SEED"]

#: the seed :func:`patience_instance` draws its small jobs with unless given one (the
#: instance of the check ``FL24.Patience`` and of the figure ``fl24-fig7``)
PATIENCE_SEED = 0


def _read(texts: tuple[str, ...], exact: bool) -> list[Fraction | int | float]:
    """Fractions if ``exact``; else numbers as printed: an int when whole (``"15"``),
    else a float (``"17.1"``)."""
    if exact:
        return [Fraction(t) for t in texts]
    return [int(t) if t.isdigit() else float(t) for t in texts]


@dataclass(frozen=True)
class InstanceTable:
    """Job types of a paper's table and the server they run on.

    ``types`` maps each type's name to its sizes, one decimal text per resource;
    ``server`` is the server's capacity per resource; ``resources`` names the resources
    and their units; ``source`` says where the paper gives them.
    """

    source: str
    resources: tuple[str, ...]
    types: Mapping[str, tuple[str, ...]]
    server: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The type names, in the table's order."""
        return tuple(self.types)

    def sizes(self, *, exact: bool = False) -> list[list[Fraction | int | float]]:
        """One row of sizes per type: Fractions if ``exact``, else numbers as printed."""
        return [_read(row, exact) for row in self.types.values()]

    def capacity(self, *, exact: bool = False) -> list[Fraction | int | float]:
        """The server capacity per resource: Fractions if ``exact``, else as printed."""
        return _read(self.server, exact)

    @property
    def sizes_text(self) -> str:
        """The sizes as the CLI's ``--sizes`` takes vectors: ``15,8,1690;17.1,6.5,420;...``."""
        return ";".join(",".join(row) for row in self.types.values())

    @property
    def capacity_text(self) -> str:
        """The server capacity as the CLI's ``--capacity`` takes it: ``90,90,5000``."""
        return ",".join(self.server)


#: PG18 Table I (Sec. VII), three EC2 instance types (memory GB, CPU units, storage GB),
#: on PG18 Sec. VII-A's servers of 90 GB memory, 90 CPU units and 5000 GB storage
EC2_TABLE_I = InstanceTable(
    source="PG18 Table I (Sec. VII); servers of Sec. VII-A",
    resources=("memory (GB)", "CPU (units)", "storage (GB)"),
    types=MappingProxyType({
        "Standard Extra Large": ("15", "8", "1690"),
        "High-Memory Extra Large": ("17.1", "6.5", "420"),
        "High-CPU Extra Large": ("7", "20", "1690"),
    }),
    server=("90", "90", "5000"),
)


def patience_instance(n: int, seed: int = PATIENCE_SEED, R: int = 2) -> JobSet:
    """FL24 Sec. 7.5.4 (Fig. 7), "exercising patience": one machine; at time 0 a job of
    length 14 taking the whole machine (demand 1 in each of the ``R`` resources), then
    ``n - 1`` small jobs, released shortly after it, with small random demands.

    The paper states the long job's length and N = 2,500 jobs, not how the small jobs are
    drawn; here, with ``np.random.default_rng(seed)``: releases uniform in (0.01, 0.5)
    (sorted), lengths uniform in (0.1, 1), demands uniform in (0.001, 0.02) per resource,
    unit weights. A policy that starts what fits (PQ, TETRIS, BF-EXEC; FL24 Sec. 4,
    Lemma 4.1) starts the long job at 0 and makes every small job wait behind it; MRIS
    (Algorithm 1) considers only jobs with p_j <= gamma_k, so it runs the small ones
    first.

    >>> jobs = patience_instance(5)
    >>> jobs.n, jobs.resources, float(jobs.processing[0]), jobs.demand[0].tolist()
    (5, 2, 14.0, [1.0, 1.0])
    >>> bool(jobs.arrival[0] == 0 and (jobs.arrival[1:] > 0.01).all())
    True
    """
    import numpy as np  # here, so that reading EC2_TABLE_I stays free of numpy

    from theory.job_sets import JobSet

    for name, v in (("n", n), ("R", R)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    rng = np.random.default_rng(seed)
    arrival = np.concatenate([[0.0], np.sort(rng.uniform(0.01, 0.5, n - 1))])
    processing = np.concatenate([[14.0], rng.uniform(0.1, 1.0, n - 1)])
    demand = np.vstack([np.ones((1, R)), rng.uniform(0.001, 0.02, (n - 1, R))])
    return JobSet(arrival, processing, demand)
