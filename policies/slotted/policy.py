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
    """A policy implemented in the compiled kernel only (it has no Python hooks).

    The base of the PG21 built-ins (:class:`BFJ`, :class:`BFS`, :class:`BFJS`,
    :class:`VQS`, :class:`VQSBF`, :class:`FIFOFF`, :class:`PartitionMaxWeight`): each
    describes itself to the kernel with :meth:`compiled_spec`, a ``KernelSpec`` (the
    kernel's policy code, the virtual queue of every job, the configuration table).
    The constructor takes no arguments here; the built-ins define their own. To write
    a policy in Python, subclass :class:`SlottedPolicy` instead.

    References
    ----------
    docs/design.md, sections The four families (PG21 row) and The run contract
    (Policies); the policies are those of PG21, Secs. III-VII.

    Examples
    --------
    >>> import numpy as np
    >>> import policies
    >>> p = policies.make_policy("vqs", J=2)
    >>> isinstance(p, policies.BuiltinPolicy), p.family
    (True, 'pg21-slotted')

    Sizes 0.5, 0.6 and 0.2 on unit servers fall in I_2, I_1 and, at most 1/2^J, the
    last virtual queue VQ_3 (PG21 eq. (18)); K_RED for J = 2 has 4J - 4 = 4 rows:

    >>> spec = p.compiled_spec(np.array([0.5, 0.6, 0.2]), np.array([1.0, 1.0]))
    >>> spec.ntypes, spec.jtype.tolist(), spec.cfg_k.tolist()
    (4, [2, 1, 3], [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3], [0, 1, 0, 1]])
    """

    family: ClassVar[str] = "pg21-slotted"
    name: str = ""

    @abstractmethod
    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        """Kernel inputs for these job sizes on servers of these capacities."""


class SlottedPolicy(Policy, ABC):
    """A policy written in plain Python for the PG21 slotted model.

    Subclass it and implement :meth:`schedule`; it is called once per slot with the
    live :class:`~policies.slotted.state.SlotState` and places jobs with
    ``state.place(job, server)``. :func:`policies.simulate` runs it on the Python loop
    (its :meth:`compiled_spec` is None) and checks the invariants of its schedule like
    any other's. The constructor takes no arguments; a subclass may define its own.

    Attributes
    ----------
    name : str
        The policy's name in results (class attribute; default ``"python-policy"``).

    References
    ----------
    PG21, Sec. II (the slot: arrivals, scheduling, departures); docs/design.md,
    section The four families (PG21 row: the plain-Python loop).

    Examples
    --------
    First-Fit in arrival order:

    >>> import numpy as np
    >>> import policies, theory
    >>> class FirstFit(policies.SlottedPolicy):
    ...     name = "my-first-fit"
    ...
    ...     def schedule(self, state):
    ...         for j in list(state.queue):
    ...             for l in range(state.servers):
    ...                 if state.fits(j, l):
    ...                     state.place(j, l)
    ...                     break
    >>> w = policies.Workload(np.array([0, 0, 0]), np.array([0.5, 0.6, 0.4]),
    ...                       np.array([5, 5, 5]), horizon=3)
    >>> r = policies.simulate(FirstFit(), w, theory.Cluster.identical(2, 1))
    >>> r.policy, r.server.tolist(), r.invariants_ok
    ('my-first-fit', [0, 1, 0], True)
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
