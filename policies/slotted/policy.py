"""What a PG21 slotted policy is: a compiled built-in, or plain Python.

Built-in policies (:mod:`.bestfit`, :mod:`.vqs`, :mod:`.fifo`, :mod:`.maxweight`)
describe themselves to the compiled kernel with a :class:`KernelSpec`. A user's
policy subclasses :class:`SlottedPolicy` and implements :meth:`~SlottedPolicy.schedule`,
which the plain-Python engine calls once per slot, after the slot's arrivals and
before its departures (PG21 Sec. II), with a :class:`~policies.slotted.state.SlotState`.
Both kinds run on the same workloads and produce the same result objects.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from policies.policy import Policy

if TYPE_CHECKING:
    from policies.slotted.state import SlotState

__all__ = ["KernelSpec", "BuiltinPolicy", "SlottedPolicy", "single_types"]


@dataclass(frozen=True, eq=False)
class KernelSpec:
    """Inputs of the compiled kernel for one policy on one workload.

    ``jtype`` maps jobs to virtual queues 0..ntypes-1; ``cfg_k`` is the configuration
    table (rows are configurations over the VQs); ``cfg_main``/``cfg_k1`` describe
    K_RED rows (PG21 Def. 6); ``track_jobs`` asks for the arrival-order index.
    """

    code: int
    jtype: np.ndarray
    ntypes: int
    cfg_k: np.ndarray
    cfg_main: np.ndarray
    cfg_k1: np.ndarray
    track_jobs: bool = False
    stall: float = -1.0  # MaxWeight stalling threshold (< 0: none)


def single_types(code: int, n: int, *, track_jobs: bool = False) -> KernelSpec:
    """A spec for policies that use no virtual queues (one type for all jobs)."""
    return KernelSpec(
        code, np.zeros(n, np.int64), 1, np.zeros((1, 1), np.int64),
        np.full(1, -1, np.int64), np.zeros(1, np.bool_), track_jobs,
    )


class BuiltinPolicy(Policy, ABC):
    """A policy implemented in the compiled kernel only (it has no Python hooks)."""

    family: ClassVar[str] = "pg21-slotted"
    name: str = ""

    @abstractmethod
    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        """Kernel inputs for these job sizes on servers of these capacities."""


class SlottedPolicy(Policy, ABC):
    """A policy written in plain Python for the PG21 slotted model.

    Subclass it and implement :meth:`schedule`; it is called once per slot with the
    live :class:`~policies.slotted.state.SlotState` and places jobs with
    ``state.place(job, server)``. Example (First-Fit in arrival order)::

        class FirstFit(SlottedPolicy):
            name = "my-first-fit"

            def schedule(self, state):
                for j in list(state.queue):
                    for l in range(state.servers):
                        if state.fits(j, l):
                            state.place(j, l)
                            break
    """

    family: ClassVar[str] = "pg21-slotted"
    name: str = "python-policy"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec | None:
        """None: a plain-Python policy runs on the Python loop."""
        return None

    def reset(self, sizes: np.ndarray, capacities: np.ndarray) -> None:  # noqa: B027
        """Called once before a run (override to build per-run data)."""

    @abstractmethod
    def schedule(self, state: SlotState) -> None:
        """Place jobs for the current slot with ``state.place``."""
