"""What an XLL21 preemptive policy is (XLL21 Sec. II-A): a per-slot allocation of
integer cores, and of memory when modelled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from policies.policy import Policy

if TYPE_CHECKING:
    from policies.preemptive.state import SlotView
    from theory.job_sets import JobSet, Machines

__all__ = ["Allocation", "PreemptivePolicy"]


@dataclass(frozen=True)
class Allocation:
    """A policy's decision for one slot: integer cores per job and machine, and memory.

    Row r is the r-th present job of the :class:`~policies.preemptive.SlotView` (in
    ``view.index`` order), column i machine i. The engine
    (:func:`~policies.preemptive.run_schedule`) checks it before applying it: cores
    are non-negative integers (eq. (4f)), at most C_i per machine (eq. (4b)) and at
    most d_j per job (eqs. (2), (4d)); memory indicators are 0 or 1, cores only where
    the job's memory is held, and, when memory is modelled, at most M_i per machine
    (eq. (4c)). A violation stops the run with a ``ValueError`` naming the policy, the
    slot and the equation.

    Parameters
    ----------
    cores : numpy.ndarray
        u_j^i(t), integer cores, shape (n, M): n present jobs, M machines.
    memory : numpy.ndarray or None, default None
        z_j^i(t) in {0, 1}, shape (n, M); None: memory held wherever cores are given.

    References
    ----------
    XLL21, Sec. II-A (u_j^i(t), z_j^i(t), eqs. (1)-(2)) and Sec. II-B, eqs. (4b)-(4f).

    Examples
    --------
    >>> import numpy as np
    >>> from policies.preemptive import Allocation, PreemptivePolicy, run_schedule
    >>> from theory import JobSet, Machines
    >>> a = Allocation(np.array([[3, 0], [0, 1]]))
    >>> a.cores.sum(axis=0).tolist(), a.memory is None
    ([3, 1], True)

    An allocation over a machine's cores is refused:

    >>> class Greedy(PreemptivePolicy):
    ...     name = "greedy"
    ...     def allocate(self, view):
    ...         return Allocation(np.full((view.n, 2), 3))
    >>> run_schedule(Greedy(), JobSet([0, 1], [3, 1], [[3], [3]]), Machines([[3], [2]]))
    Traceback (most recent call last):
    ...
    ValueError: greedy, slot 1: machine 1 given 3 cores of 2 (eq. (4b))
    """

    cores: np.ndarray
    memory: np.ndarray | None = None


class PreemptivePolicy(Policy):
    """Base of XLL21 preemptive policies: ``reset`` once, then ``allocate`` each slot.

    The engine (:func:`~policies.preemptive.run_schedule`) calls
    ``reset(jobs, machines)`` once before slot 1, then, in each slot t with a job
    present, ``allocate(view)`` with the :class:`~policies.preemptive.SlotView` of the
    present jobs; the policy returns an :class:`Allocation`, which the engine checks
    against XLL21 eq. (4) and applies (eq. (1)). A subclass overrides ``allocate`` (the
    base raises ``NotImplementedError``) and sets ``name``; ``uses_memory = True`` for
    a policy that allocates memory (z of eq. (4c)) besides cores. No compiled path:
    every policy runs in Python (the built-ins are vectorised).

    The constructor takes no arguments; subclasses define their own.

    Attributes
    ----------
    family : str
        ``'xll21-preemptive'`` (class attribute).
    name : str
        The policy's name in results.
    uses_memory : bool
        Whether the policy allocates memory; False here.

    References
    ----------
    XLL21, Sec. II-A (slotted model, preemption and migration allowed) and Sec. II-B
    (P1, eq. (4)); docs/design.md, section Simulation (The four families).

    Examples
    --------
    First come, first served: each present job in arrival order takes its demand (at
    most its remaining volume) from the machines in index order.

    >>> import numpy as np
    >>> from policies.preemptive import Allocation, PreemptivePolicy, run_schedule
    >>> from theory import JobSet, Machines
    >>> class FirstCome(PreemptivePolicy):
    ...     name = "first-come"
    ...     def allocate(self, view):
    ...         free = view.machine_cores.astype(int)
    ...         cores = np.zeros((view.n, free.size), dtype=int)
    ...         for r in np.argsort(view.arrival, kind="stable"):
    ...             need = int(min(view.cores[r], view.remaining_volume[r]))
    ...             for i in range(free.size):
    ...                 take = min(need, free[i])
    ...                 cores[r, i], free[i], need = take, free[i] - take, need - take
    ...         return Allocation(cores)
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> r = run_schedule(FirstCome(), jobs, Machines([[3], [2]]))
    >>> r.completion.tolist(), r.migrations.tolist(), r.invariants_ok
    ([3.0, 3.0, 5.0, 5.0], [0, 0, 1, 0], True)
    """

    family: ClassVar[str] = "xll21-preemptive"
    name = "policy"
    #: allocates memory (z of XLL21 eq. (4c)) besides cores
    uses_memory = False

    def reset(self, jobs: JobSet, machines: Machines) -> None:
        """Called once before slot 1."""

    def allocate(self, view: SlotView) -> Allocation:
        raise NotImplementedError

    def compiled_spec(self) -> None:
        """None: the slot loop calls :meth:`allocate` (XLL21 has no compiled path)."""
        return None
