"""What a PG18 continuous-time policy is: a set of event hooks.

The engine (:func:`policies.continuous.simulate_continuous`) calls, in event order:
``route`` then ``on_arrival`` at a job arrival, ``on_tick`` at a tick of the policy's
clock (a Poisson process of rate :meth:`ContinuousPolicy.clock_rate`, PG18 Algorithm 1
"Clock Instances"), and ``on_departure`` after a job (real or dummy) left its server
(PG18 Algorithm 1 "Job Departure Instances"). A user's policy subclasses
:class:`ContinuousPolicy` and overrides the hooks it needs; the built-ins do the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from policies.continuous.state import ContinuousState

__all__ = ["ContinuousPolicy"]


class ContinuousPolicy:
    """Base class: central queues, no clock, nothing done at any event."""

    #: registry name (lower-case, hyphenated, DESIGN.md)
    name: str = "custom"
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

    def parameters(self) -> dict[str, Any]:
        """The policy's parameters, for the result's record."""
        return {}
