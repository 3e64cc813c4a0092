"""What a plain-Python PG21 policy sees and does in one slot (PG21 Sec. II)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["SlotState"]


class SlotState:
    """What a plain-Python policy sees and does in one slot (PG21 Sec. II).

    Read: ``t``, ``servers``, ``capacity[l]``, ``load[l]``, ``residual(l)``,
    ``size[j]``, ``arrival[j]``, ``queue`` (waiting job ids in arrival order),
    ``new_jobs`` (ids that arrived this slot), ``departed`` (servers with a departure
    at the end of the previous slot, increasing), ``jobs_on(l)``, ``fits(j, l)``.
    Act: ``place(j, l)``.

    The engine builds one per run and updates it every slot; a policy only reads it
    and calls :meth:`place`.

    Parameters
    ----------
    size : numpy.ndarray
        (n,) job sizes, in the units of ``capacity``.
    arrival : numpy.ndarray
        (n,) arrival slot of every job.
    capacity : numpy.ndarray
        (L,) server capacities.
    eps : float
        The feasibility tolerance: job j fits server l iff
        ``size[j] <= capacity[l] - load[l] + eps`` (the engine passes
        ``FEASIBILITY_RTOL * max(capacity)``).

    References
    ----------
    PG21, Sec. II (the slot and eq. (1), the capacity constraint); docs/design.md,
    section The four families (PG21 row, ``state.py``).

    Examples
    --------
    A policy that shows what it sees, on one unit server: in slot 0 job 0 (0.6) is
    placed and job 1 (0.5) no longer fits; job 0 leaves at the end of slot 0.

    >>> import numpy as np
    >>> import policies, theory
    >>> class Show(policies.SlottedPolicy):
    ...     name = "show"
    ...
    ...     def schedule(self, state):
    ...         print(state.t, list(state.queue), state.new_jobs, state.departed)
    ...         for j in list(state.queue):
    ...             if state.fits(j, 0):
    ...                 state.place(j, 0)
    ...         print("  load", state.load, "on", sorted(state.jobs_on(0)))
    >>> w = policies.Workload(np.array([0, 0]), np.array([0.6, 0.5]), np.array([1, 1]),
    ...                       horizon=2)
    >>> r = policies.simulate(Show(), w, theory.Cluster.identical(1, 1))
    0 [0, 1] [0, 1] []
      load [0.6] on [0]
    1 [1] [] [0]
      load [0.5] on [1]

    :meth:`place` refuses a job that is not waiting (or does not fit):

    >>> st = policies.SlotState(np.array([0.5]), np.array([0]), np.array([1.0]), 1e-9)
    >>> st.residual(0), st.fits(0, 0)
    (1.0, True)
    >>> st.place(0, 0)
    Traceback (most recent call last):
    ...
    ValueError: job 0 is not waiting in slot 0
    """

    def __init__(self, size: np.ndarray, arrival: np.ndarray, capacity: np.ndarray,
                 eps: float):
        self.size = size
        self.arrival = arrival
        self.capacity = capacity
        self.eps = eps
        self.servers = int(capacity.shape[0])
        self.load = [0.0] * self.servers
        self.t = 0
        self._queue: dict[int, None] = {}
        self._on: list[set[int]] = [set() for _ in range(self.servers)]
        self.new_jobs: list[int] = []
        self.departed: list[int] = []
        self._placed: list[tuple[int, int]] = []

    @property
    def queue(self) -> Iterator[int]:
        """Waiting job ids in arrival order (iterate over ``list(state.queue)`` to place)."""
        return iter(self._queue)

    def queue_size(self) -> int:
        return len(self._queue)

    def residual(self, l: int) -> float:
        return float(self.capacity[l]) - self.load[l]

    def fits(self, j: int, l: int) -> bool:
        return bool(self.size[j] <= self.capacity[l] - self.load[l] + self.eps)

    def jobs_on(self, l: int) -> frozenset[int]:
        return frozenset(self._on[l])

    def place(self, j: int, l: int) -> None:
        """Start waiting job ``j`` on server ``l`` now (errors if not waiting or not fitting)."""
        if j not in self._queue:
            raise ValueError(f"job {j} is not waiting in slot {self.t}")
        if not 0 <= l < self.servers:
            raise ValueError(f"no server {l}")
        if not self.fits(j, l):
            raise ValueError(f"job {j} (size {self.size[j]}) does not fit server {l} "
                             f"(residual {self.residual(l)})")
        del self._queue[j]
        self.load[l] += float(self.size[j])
        self._on[l].add(j)
        self._placed.append((j, l))
