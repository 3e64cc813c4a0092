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
