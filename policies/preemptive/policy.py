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
    """Integer cores (n, M) and, when memory is modelled, the memory indicator (n, M)
    (default: memory held wherever cores are given)."""

    cores: np.ndarray
    memory: np.ndarray | None = None


class PreemptivePolicy(Policy):
    """Base class of XLL21-family policies: ``reset(jobs, machines)`` once, then
    ``allocate(view)`` each slot. No compiled path: every policy runs in Python (the
    built-ins are vectorised)."""

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
