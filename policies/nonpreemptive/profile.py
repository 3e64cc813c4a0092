"""Per-machine resource-over-time profiles of a non-preemptive schedule (FL24 Sec. 3).

A machine's profile is the step function ``usage(t)`` (one value per resource) of the
jobs placed on it, past and planned: breakpoints ``T[0] < T[1] < ... < T[n-1]`` with
``usage = U[k]`` on ``[T[k], T[k+1])`` and ``U[n-1]`` (zero once every job ended) after
the last. A job of demand d fits at start s for p time units when
``usage(t) + d <= capacity`` for every t in [s, s + p) (FL24's resource constraint
sum_{j: S_j <= t < C_j} d_jl <= 1), which is what planning ahead and backfilling need
(FL24 Sec. 5.3). Breakpoints before the current time can be dropped (:meth:`prune`):
no decision starts a job in the past.
"""

from __future__ import annotations

import numpy as np

from theory.numbers import FEASIBILITY_RTOL

__all__ = ["MachineProfiles"]


class MachineProfiles:
    """The resource-over-time profiles of M machines with capacities ``capacity`` (M, R).

    Machine i's profile is the step function usage(t) of the jobs placed on it, past
    and planned, kept as sorted breakpoints and the usage after each (the module
    docstring). :meth:`add` holds a demand on [start, start + length); :meth:`fits`
    asks whether a demand fits on a window, within the feasibility tolerance
    :data:`theory.numbers.FEASIBILITY_RTOL` (usage + d <= capacity (1 + rtol) in
    every resource); :meth:`usage_at`, :meth:`breakpoints`, :meth:`next_breakpoint` and
    :meth:`changes_at` read it; :meth:`prune` forgets the past. ``planned`` becomes
    True once a job starts after its machine's profile start.

    Parameters
    ----------
    capacity : numpy.ndarray
        Capacities, shape (M, R): one row per machine, one column per resource.
    start : float, default 0.0
        The time every profile starts at (nothing can be placed before it).
    room : int, default 16
        Initial breakpoints allocated per machine (the arrays grow as needed).

    Raises
    ------
    ValueError
        From the queries and updates: a time before a machine's profile start.

    References
    ----------
    FL24, Sec. 3 (the resource constraint sum_{j: S_j <= t < C_j} d_jl <= 1 at every
    time t) and Sec. 5.3 (planning ahead and backfilling).

    Examples
    --------
    >>> import numpy as np
    >>> from policies.nonpreemptive import MachineProfiles
    >>> pr = MachineProfiles(np.array([[1.0, 1.0], [1.0, 1.0]]))
    >>> pr.add(0, 0.0, 4.0, np.array([0.8, 0.6]))  # a job on [0, 4)
    >>> pr.add(0, 5.0, 2.0, np.array([0.5, 0.5]))  # one planned on [5, 7)
    >>> pr.breakpoints(0).tolist(), pr.usage_at(0, 4.5).tolist(), pr.usage_at(0, 6.0).tolist()
    ([0.0, 4.0, 5.0, 7.0], [0.0, 0.0], [0.5, 0.5])
    >>> d = np.array([0.6, 0.2])
    >>> pr.fits(0, 4.0, 1.0, d), pr.fits(0, 4.0, 2.0, d), pr.next_breakpoint(0.0)
    (True, False, 4.0)
    >>> pr.prune(4.0)
    >>> pr.breakpoints(0).tolist(), pr.planned
    ([4.0, 5.0, 7.0], True)
    """

    def __init__(self, capacity: np.ndarray, *, start: float = 0.0, room: int = 16):
        self.capacity = np.asarray(capacity, dtype=np.float64)
        self.M, self.R = self.capacity.shape
        self._cap_tol = self.capacity * (1.0 + FEASIBILITY_RTOL)
        self._T = [np.full(room, np.inf) for _ in range(self.M)]
        self._U = [np.zeros((room, self.R)) for _ in range(self.M)]
        self._n = [1] * self.M
        for i in range(self.M):
            self._T[i][0] = start
        #: some job was placed to start after its machine's profile start (planned ahead)
        self.planned = False

    # -- queries ----------------------------------------------------------------------

    def breakpoints(self, i: int) -> np.ndarray:
        return self._T[i][: self._n[i]]

    def usage_at(self, i: int, t: float) -> np.ndarray:
        """usage(t) of machine ``i``."""
        k = int(np.searchsorted(self.breakpoints(i), t, side="right")) - 1
        if k < 0:
            raise ValueError(f"time {t} is before machine {i}'s profile ({self._T[i][0]})")
        return self._U[i][k]

    def fits(self, i: int, start: float, length: float, demand: np.ndarray) -> bool:
        """Does a job of ``demand`` fit machine ``i`` on [start, start + length)?"""
        T = self.breakpoints(i)
        k0 = int(np.searchsorted(T, start, side="right")) - 1
        if k0 < 0:
            raise ValueError(f"start {start} is before machine {i}'s profile ({T[0]})")
        k1 = int(np.searchsorted(T, start + length, side="left"))
        seg = self._U[i][k0:max(k1, k0 + 1)]
        return bool(np.all(seg + demand <= self._cap_tol[i]))

    def fits_many(self, i: int, start: float, lengths: np.ndarray,
                  demands: np.ndarray) -> np.ndarray:
        """:meth:`fits` for many jobs at once (same floats: ``max_k U_k + d`` equals
        ``max_k (U_k + d)`` since rounding is monotone)."""
        n = self._n[i]
        T = self._T[i][:n]
        k0 = int(np.searchsorted(T, start, side="right")) - 1
        if k0 < 0:
            raise ValueError(f"start {start} is before machine {i}'s profile ({T[0]})")
        peak = np.maximum.accumulate(self._U[i][k0:n], axis=0)
        k1 = np.searchsorted(T, start + lengths, side="left")
        last = np.maximum(k1, k0 + 1) - 1 - k0
        return np.all(peak[last] + demands <= self._cap_tol[i], axis=1)

    def fits_now(self, machines: list[int], demands: np.ndarray) -> np.ndarray:
        """(jobs, machines) fits from each machine's profile start when nothing is
        planned ahead: usage is then non-increasing in time (a later segment sums a
        subset of an earlier one's demands, in the same order, so it is not larger in
        floating point either) and the window's peak is the first segment's usage."""
        U0 = np.stack([self._U[i][0] for i in machines])
        return np.all(U0[None, :, :] + demands[:, None, :] <= self._cap_tol[machines][None],
                      axis=2)

    def starts(self, machines: list[int]) -> np.ndarray:
        return np.array([self._T[i][0] for i in machines])

    def next_breakpoint(self, t: float) -> float:
        """The first breakpoint after ``t`` on any machine (inf if none)."""
        best = np.inf
        for i in range(self.M):
            T = self.breakpoints(i)
            k = int(np.searchsorted(T, t, side="right"))
            if k < T.size:
                best = min(best, float(T[k]))
        return best

    def changes_at(self, t: float) -> list[int]:
        """Machines with a breakpoint at exactly ``t``."""
        out = []
        for i in range(self.M):
            T = self.breakpoints(i)
            k = int(np.searchsorted(T, t, side="left"))
            if k < T.size and T[k] == t:
                out.append(i)
        return out

    # -- updates ----------------------------------------------------------------------

    def _split(self, i: int, t: float) -> int:
        """Make ``t`` a breakpoint of machine ``i``; returns its index."""
        n = self._n[i]
        T = self._T[i]
        k = int(np.searchsorted(T[:n], t, side="left"))
        if k < n and T[k] == t:
            return k
        if k == 0:
            raise ValueError(f"time {t} is before machine {i}'s profile ({T[0]})")
        if n == T.size:  # grow
            self._T[i] = T = np.concatenate([T, np.full(n, np.inf)])
            self._U[i] = np.concatenate([self._U[i], np.zeros((n, self.R))])
        U = self._U[i]
        T[k + 1:n + 1] = T[k:n].copy()
        U[k + 1:n + 1] = U[k:n].copy()
        T[k] = t
        U[k] = U[k - 1]
        self._n[i] = n + 1
        return k

    def add(self, i: int, start: float, length: float, demand: np.ndarray) -> None:
        """Hold ``demand`` on machine ``i`` during [start, start + length)."""
        if start > self._T[i][0]:
            self.planned = True
        k0 = self._split(i, start)
        k1 = self._split(i, start + length)
        self._U[i][k0:k1] += demand

    def prune(self, t: float) -> None:
        """Forget every breakpoint before ``t`` (keep usage(t) from ``t`` on)."""
        for i in range(self.M):
            n = self._n[i]
            T = self._T[i]
            k = int(np.searchsorted(T[:n], t, side="right")) - 1
            if k > 0:
                U = self._U[i]
                T[: n - k] = T[k:n].copy()
                U[: n - k] = U[k:n].copy()
                T[n - k:n] = np.inf
                self._n[i] = n - k
            if k >= 0:
                T[0] = t
