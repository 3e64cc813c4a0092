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
    """Base of PG18 continuous-time policies: central queues, no clock, no action.

    The engine (:func:`policies.simulate_continuous`) calls the hooks in event order:
    :meth:`bind` once with the empty state; at an arrival :meth:`route` (the queue row
    the job joins) then :meth:`on_arrival`; at a tick of the policy's Poisson clock of
    total rate :meth:`clock_rate` (PG18 Algorithm 1, "Clock Instances")
    :meth:`on_tick`; after a real or dummy job left its server :meth:`on_departure`
    ("Job Departure Instances"). A policy subclasses this class, overrides the hooks
    it needs and acts only through the :class:`ContinuousState` it is given, drawing
    every random number from :meth:`ContinuousState.random`. :meth:`compiled_spec`
    returns None, so a user's policy runs on the plain-Python engine; the built-ins
    :class:`policies.RMS` and :class:`policies.BestFit` describe themselves to the
    compiled kernel.

    The constructor takes no arguments; subclasses define their own.

    Attributes
    ----------
    family : str
        ``'pg18-continuous'`` (class attribute).
    distributed : bool
        One queue per type at every server (PG18 Sec. II (ii)) instead of central
        queues; False here.

    References
    ----------
    PG18, Sec. II (the model, central and distributed queueing) and Sec. IV-A,
    Algorithm 1 (its three kinds of instants); docs/design.md, section Simulation (The
    four families).

    Examples
    --------
    A work-conserving First-Fit written as a policy: an arriving job that no earlier
    job of its type waits before starts on the first server it fits; a server that
    frees resources takes queued jobs in type order.

    >>> from policies import ContinuousPolicy, JobTypes, poisson_type_workload
    >>> from policies import simulate_continuous
    >>> from theory import Cluster
    >>> class FirstFit(ContinuousPolicy):
    ...     name = "first-fit"
    ...     def on_arrival(self, state, job, j, row):
    ...         fit = state.fitting_servers(j)
    ...         if state.Q[0, j] == 1 and fit.size:
    ...             state.start_job(int(fit[0]), j)
    ...     def on_departure(self, state, server, j, job, row):
    ...         for jj in range(state.J):
    ...             while state.Q[0, jj] > 0 and state.fits(server, jj):
    ...                 state.start_job(server, jj)
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> w = poisson_type_workload(types, [4.0, 1.6], 30.0, seed=1)
    >>> r = simulate_continuous(FirstFit(), w, cluster, types)
    >>> r.policy, r.params, r.started, r.final_queue, r.invariants_ok
    ('first-fit', {'engine': 'python'}, 168, 0, True)
    """

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
