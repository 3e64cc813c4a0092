"""What an FL24 non-preemptive policy is: hooks the event loop calls at decision times
(FL24 Sec. 3), and, for the online policies the numba loop implements, its description
of the policy (:class:`OnlineSpec`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from policies.policy import Policy

if TYPE_CHECKING:
    from policies.nonpreemptive.state import ScheduleState

__all__ = ["NonPreemptivePolicy", "OnlineSpec", "HOOKS"]

#: the hooks the event loop calls: a built-in's subclass that redefines one runs in Python
HOOKS = ("reset", "next_wakeup", "decide")


@dataclass(frozen=True, eq=False)
class OnlineSpec:
    """An online policy as the numba loop runs it (:mod:`policies.nonpreemptive.codes`):
    ``kind``, each job's ``rank`` in the policy's order, ``group_end`` (TETRIS: the end
    of the job's demand group in that order; else N) and ``eps`` (TETRIS's)."""

    kind: int
    rank: np.ndarray
    group_end: np.ndarray
    eps: float = 0.0

    @classmethod
    def from_order(cls, kind: int, by_rank: np.ndarray, group_end: np.ndarray | None = None,
                   eps: float = 0.0) -> OnlineSpec:
        """The spec of jobs listed best first in ``by_rank``."""
        n = by_rank.shape[0]
        rank = np.empty(n, dtype=np.int64)
        rank[by_rank] = np.arange(n)
        end = np.full(n, n, dtype=np.int64) if group_end is None else group_end
        return cls(kind, rank, end, float(eps))


class NonPreemptivePolicy(Policy):
    """Base of FL24 non-preemptive policies: the hooks the event loop calls.

    The engine (:func:`policies.run_nonpreemptive`) calls :meth:`reset` once, then, at
    every decision time (a release, a completion of a placed job, or a time
    :meth:`next_wakeup` asks for), :meth:`decide` with the :class:`ScheduleState`,
    through which the policy places released jobs, now or planned ahead. A subclass
    overrides ``decide`` (and the others as it needs) and sets ``name``;
    :meth:`compiled_spec` returns None, so a user's policy runs on the Python loop,
    and :meth:`extra` returns what it recorded for the result. ``wakeup_driven``
    policies (MRIS, CA-PQ) act only at their wake-up times and only through
    :meth:`ScheduleState.list_schedule`.

    The constructor takes no arguments; subclasses define their own.

    Attributes
    ----------
    family : str
        ``'fl24-nonpreemptive'`` (class attribute).
    wakeup_driven : bool
        Acts only at the wake-up times, by list scheduling; False here.

    References
    ----------
    FL24, Sec. 3 (the model: jobs may be collected and their decisions deferred; once
    started a job runs for p_j) and Sec. 4 (the PRIORITY-QUEUE class); docs/design.md,
    section Simulation (The four families).

    Examples
    --------
    Heaviest weight first, each job on the lowest-index machine it fits now:

    >>> from policies import NonPreemptivePolicy, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 2, 2], processing=[4, 2, 3, 3, 3],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.6, 0.2], [0.2, 0.2], [0.6, 0.2]],
    ...               weight=[2, 1, 2, 2, 1])
    >>> machines = Machines([[1.0, 1.0], [1.0, 1.0]])
    >>> class HeaviestFirst(NonPreemptivePolicy):
    ...     name = "heaviest-first"
    ...     def decide(self, state):
    ...         order = sorted(state.queue, key=lambda j: (-state.weight[j], j))
    ...         state.place_in_order(order)
    >>> r = run_nonpreemptive(HeaviestFirst(), jobs, machines)
    >>> r.start.tolist(), r.machine.tolist(), r.awct, r.params
    ([0.0, 3.0, 0.0, 2.0, 4.0], [0, 1, 1, 0, 0], 7.2, {'engine': 'python'})
    """

    family: ClassVar[str] = "fl24-nonpreemptive"
    #: ``decide`` acts only at the times ``next_wakeup`` names, and only through
    #: :meth:`ScheduleState.list_schedule` (MRIS, CA-PQ): the compiled engine then jumps
    #: from wake-up to wake-up (``queue`` holds every released, unplaced job; the
    #: completions in between are not reported) and list-schedules in numba
    wakeup_driven: bool = False

    def reset(self, state: ScheduleState) -> None:
        """Once, before the first decision time."""

    def next_wakeup(self, state: ScheduleState) -> float:
        """A decision time the policy wants after ``state.t`` (inf: none).

        The engine first asks before any decision, when ``state.t`` is ``-inf``: a
        policy that computes its wake-ups from ``state.t`` (e.g. the next multiple of a
        period) must handle that case, typically by returning its first wake-up."""
        return math.inf

    def decide(self, state: ScheduleState) -> None:
        """Place jobs at decision time ``state.t``."""

    def compiled_spec(self, state: ScheduleState) -> OnlineSpec | None:
        """The numba online loop's description of this policy on ``state``'s jobs
        (:func:`policies.nonpreemptive._kernel.online_loop`), or None: the event loop
        calls the hooks."""
        return None

    def extra(self) -> dict[str, Any]:
        """Anything the policy recorded during the run, for the result."""
        return {}
