"""What a PG18 continuous-time policy is: a set of event hooks.

The engine (:func:`policies.continuous.simulate_continuous`) calls, in event order:
``route`` then ``on_arrival`` at a job arrival, ``on_tick`` at a tick of the policy's
clock (a Poisson process of rate :meth:`ContinuousPolicy.clock_rate`, PG18 Algorithm 1
"Clock Instances"), and ``on_departure`` after a job (real or dummy) left its server
(PG18 Algorithm 1 "Job Departure Instances"). A user's policy subclasses
:class:`ContinuousPolicy` and overrides the hooks it needs; the built-ins do the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from policies.policy import Policy

if TYPE_CHECKING:
    from policies.continuous.state import ContinuousState
    from policies.job_types import JobTypes
    from theory.cluster import Cluster

__all__ = ["ContinuousPolicy", "ContinuousKernelSpec", "HOOKS"]

#: the hooks the engine calls: a built-in's subclass that redefines one runs in Python
HOOKS = ("bind", "clock_rate", "route", "on_arrival", "on_tick", "on_departure")


@dataclass(frozen=True, eq=False)
class ContinuousKernelSpec:
    """A policy as the compiled kernel runs it (:mod:`policies.continuous.codes`):
    ``kind`` (RMS or Best-Fit); RMS's cumulative clock rates, weight function
    (``f_code``, ``b``, ``floor`` = epsilon / (8 M), PG18 eq. (4)), fixed weights,
    server sampling, adaptive clocks, dummy replacement and routing; Best-Fit's queue
    order. The clock's total rate is the engine's (``clock_rate``)."""

    kind: int
    cum_rates: np.ndarray
    f_code: int = 0
    b: float = 0.0
    floor: float = 0.0
    fixed_weights: np.ndarray | None = None
    sampling: int = 0
    adaptive: bool = False
    replace_dummies: bool = False
    routing: int = 0
    order: int = 0


class ContinuousPolicy(Policy):
    """Base class: central queues, no clock, nothing done at any event."""

    family: ClassVar[str] = "pg18-continuous"
    #: one queue per type at every server (PG18 Sec. II (ii)) instead of central queues
    distributed: bool = False

    def bind(self, state: ContinuousState) -> None:
        """Called once before the run, with the initial (empty) state."""

    def clock_rate(self, state: ContinuousState) -> float:
        """Total rate of the policy's Poisson clock (0: no clock)."""
        return 0.0

    def route(self, state: ContinuousState, j: int) -> int:
        """The queue row a type-``j`` arrival joins (0 with central queues)."""
        return 0

    def on_arrival(self, state: ContinuousState, job: int, j: int, row: int) -> None:
        """After the job joined queue (row, j)."""

    def on_tick(self, state: ContinuousState) -> None:
        """At a tick of the clock."""

    def on_departure(self, state: ContinuousState, server: int, j: int, job: int,
                     row: int) -> None:
        """After a type-``j`` job (``job`` = -1 for a dummy) left ``server``."""

    def compiled_spec(self, types: JobTypes, cluster: Cluster) -> ContinuousKernelSpec | None:
        """The compiled kernel's description of this policy for ``types`` on ``cluster``
        (asked before :meth:`bind`), or None: the Python engine runs it."""
        return None
