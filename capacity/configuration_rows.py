"""Configurations of a few jobs among many types, stored as the types of their jobs.

A configuration k of PG21 Section 3 (k_j jobs of type j on one server) is a vector of
length T; when it holds a handful of jobs among thousands of types (rho* of 10,000
sizes in (0.2, 0.7): at most 4 jobs), a dense row is almost all zeros, and a pricing
round of 20,000 candidate rows was 1.6 GB. Here row r lists the type of each of its
jobs, sorted, padded with T; a dense vector is made only when a row is read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

__all__ = ["ConfigurationRows"]


class ConfigurationRows(Sequence[np.ndarray]):
    """Configurations over ``T`` types: ``jobs[r]`` holds the type of every job of
    configuration r (a type once per job) and ``T`` (or -1) as padding.

    A :class:`~collections.abc.Sequence` of dense int64 vectors: ``rows[i]`` is one,
    ``rows[idx]`` (a slice or an index array) is again a ``ConfigurationRows``."""

    def __init__(self, jobs: np.ndarray, T: int):
        raw = np.asarray(jobs)
        if raw.size and raw.dtype.kind not in "iu":
            raise ValueError(f"job types must be integers, got {raw.dtype}")
        J = np.array(raw, dtype=np.int64, ndmin=2, copy=True)
        if J.ndim != 2:
            raise ValueError(f"jobs must be a 2-D array, got shape {J.shape}")
        if T < 0 or J.size and (J.min() < -1 or J.max() > T):
            raise ValueError(f"job types must lie in 0..{T - 1} (padding -1 or {T})")
        J[J < 0] = T
        J.sort(axis=1)  # canonical: equal configurations have equal rows
        self.jobs = J
        self.T = int(T)

    @classmethod
    def _sorted(cls, jobs: np.ndarray, T: int) -> ConfigurationRows:
        out = cls.__new__(cls)
        out.jobs, out.T = jobs, T
        return out

    def __len__(self) -> int:
        return self.jobs.shape[0]

    def __getitem__(self, i):
        if isinstance(i, (int, np.integer)):
            return np.bincount(self.jobs[i], minlength=self.T + 1)[:self.T]
        return ConfigurationRows._sorted(self.jobs[i], self.T)

    def __iter__(self) -> Iterator[np.ndarray]:
        for r in range(len(self)):
            yield self[r]

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        n, L = self.jobs.shape
        flat = np.bincount((np.arange(n)[:, None] * (self.T + 1) + self.jobs).ravel(),
                           minlength=n * (self.T + 1))
        out = flat.reshape(n, self.T + 1)[:, :self.T]
        return out.astype(dtype or np.int64, copy=True)

    def values(self, y: np.ndarray) -> np.ndarray:
        """``<y, k>`` of every row."""
        return np.append(np.asarray(y, dtype=float), 0.0)[self.jobs].sum(axis=1)

    def types(self, r: int) -> np.ndarray:
        """The distinct types of row ``r``, ascending."""
        row = self.jobs[r]
        row = row[row < self.T]
        return row[np.r_[True, row[1:] != row[:-1]]] if row.size else row

    def distinct(self) -> ConfigurationRows:
        """The first occurrence of each configuration, in order."""
        if len(self) <= 1:
            return self
        _, first = np.unique(self.jobs, axis=0, return_index=True)
        return self[np.sort(first)]

    def sparse(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(starts, types, counts): row r's distinct types ``types[starts[r]:starts[r +
        1]]`` (ascending) with their job counts."""
        J = self.jobs
        run = J < self.T
        run[:, 1:] &= J[:, 1:] != J[:, :-1]
        flat_run = run.ravel()
        types = J.ravel()[flat_run]
        valid = (J < self.T).ravel()
        counts = np.bincount(np.cumsum(flat_run)[valid] - 1, minlength=types.size)
        starts = np.concatenate([[0], np.cumsum(run.sum(axis=1))])
        return starts, types, counts
