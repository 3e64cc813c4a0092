"""Per-slot series held at the slots where they may change (step functions of the slot).

A slotted run records its queue after scheduling in every slot (PG21 Sec. II, Q(t+1)),
but in most slots nothing happens: at 5 servers and mu = 0.01 (PG21 Sec. VII-A) a
million jobs span 22 million slots and the series move in fewer than three of them per
job. :class:`StepSeries` keeps the slots ``at`` where a new value is recorded and the
values; the value at slot t is the last one recorded at or before t. ``dense()`` gives
the one-entry-per-slot array when it is wanted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["StepSeries"]


@dataclass(frozen=True, eq=False)
class StepSeries:
    """A series over slots ``0..length-1``: ``values[i]`` holds on ``at[i] <= t < at[i+1]``.

    ``at`` is strictly increasing and starts at 0 (empty only when ``length`` is 0); two
    consecutive values may be equal (a record need not be a change).

    Parameters
    ----------
    at : numpy.ndarray
        One-dimensional integer array of the record slots: strictly increasing, from 0,
        each below ``length``.
    values : numpy.ndarray
        The value recorded at each slot of ``at`` (same shape).
    length : int
        Number of slots the series covers (>= 0).

    Raises
    ------
    ValueError
        ``length`` not a non-negative integer; ``at`` not a one-dimensional integer
        array; ``values`` not of the shape of ``at``; records for a series of length 0;
        a first record not at slot 0, a record at or beyond ``length``, or record
        slots not strictly increasing.

    References
    ----------
    PG21, Sec. II (Q(t), recorded after scheduling in every slot); docs/design.md,
    section Layout (``policies/step_series.py``).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import StepSeries
    >>> s = StepSeries.from_dense(np.array([0, 0, 2, 2, 2, 1, 1, 1]))
    >>> s
    StepSeries(at=array([0, 2, 5]), values=array([0, 2, 1]), length=8)
    >>> s.dense().tolist(), s.value_at([0, 3, 7]).tolist()
    ([0, 0, 2, 2, 2, 1, 1, 1], [0, 2, 1])
    >>> s.mean(), s.mean(2), s.integral([4, 8]).tolist()
    (1.125, 1.5, [4.0, 9.0])
    >>> StepSeries(np.array([1]), np.array([3]), 4)
    Traceback (most recent call last):
    ...
    ValueError: the first record must be at slot 0
    """

    at: np.ndarray
    values: np.ndarray
    length: int

    def __post_init__(self) -> None:
        at, v, n = self.at, self.values, self.length
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise ValueError(f"length must be a non-negative integer, got {n!r}")
        if not isinstance(at, np.ndarray) or at.ndim != 1 or at.dtype.kind not in "iu":
            raise ValueError("at must be a one-dimensional integer array of slots")
        if not isinstance(v, np.ndarray) or v.shape != at.shape:
            raise ValueError(f"values must be an array of the shape of at {at.shape}, got "
                             f"{getattr(v, 'shape', type(v).__name__)}")
        if n == 0:
            if at.size:
                raise ValueError("a series of length 0 has no records")
            return
        if at.size == 0 or at[0] != 0:
            raise ValueError("the first record must be at slot 0")
        if at[-1] >= n:
            raise ValueError(f"a record at slot {int(at[-1])} is outside 0..{n - 1}")
        if at.size > 1 and not np.all(at[1:] > at[:-1]):
            raise ValueError("record slots must be strictly increasing")

    @classmethod
    def from_dense(cls, x: np.ndarray) -> StepSeries:
        """The series of a one-entry-per-slot array, recorded where it changes."""
        x = np.asarray(x)
        if x.ndim != 1:
            raise ValueError(f"a series is one-dimensional, got shape {x.shape}")
        at = np.flatnonzero(x[1:] != x[:-1]) + 1 if x.size else np.zeros(0, np.int64)
        if x.size:
            at = np.concatenate([np.zeros(1, np.int64), at.astype(np.int64)])
        return cls(at, x[at], int(x.size))

    def __len__(self) -> int:
        return int(self.length)

    @property
    def durations(self) -> np.ndarray:
        """Slots each record holds for."""
        return np.diff(self.at, append=self.length)

    def dense(self) -> np.ndarray:
        """One entry per slot (``length`` entries)."""
        return np.repeat(self.values, self.durations)

    def value_at(self, t: np.ndarray | int) -> np.ndarray:
        """The values at slots ``t`` (each in ``0..length-1``)."""
        t = np.asarray(t)
        if t.size and (t.min() < 0 or t.max() >= self.length):
            raise IndexError(f"slots must lie in 0..{self.length - 1}")
        return self.values[np.searchsorted(self.at, t, side="right") - 1]

    def changes(self) -> np.ndarray:
        """The slots t >= 1 whose value differs from slot t - 1's."""
        v = self.values
        return self.at[1:][v[1:] != v[:-1]]

    def integral(self, t: np.ndarray | int) -> np.ndarray:
        """Sums of the values over slots ``0..t-1``, for each ``t`` in ``0..length``."""
        t = np.asarray(t)
        if t.size and (t.min() < 0 or t.max() > self.length):
            raise IndexError(f"bounds must lie in 0..{self.length}")
        if self.length == 0:
            return np.zeros(t.shape)
        cum = np.concatenate([[0.0], np.cumsum(self.values * self.durations)])
        i = np.searchsorted(self.at, t, side="right") - 1  # >= 0: at[0] == 0 <= t
        return cum[i] + self.values[i] * (t - self.at[i])

    def mean(self, start: int = 0) -> float:
        """Mean over slots ``start..length-1`` (0.0 if there are none)."""
        if not 0 <= start <= self.length:
            raise ValueError(f"start must lie in 0..{self.length}, got {start!r}")
        if start == self.length:
            return 0.0
        lo = np.maximum(self.at, start)
        hi = np.append(self.at[1:], self.length)
        w = np.maximum(hi - lo, 0)
        # numpy's pairwise sum, not a BLAS dot: a threaded dot rounds by its thread
        # count, and a run must give the same number in any process
        return float(np.sum(self.values.astype(np.float64) * w) / (self.length - start))

    def max(self) -> float | int:
        return self.values.max().item()

    def min(self) -> float | int:
        return self.values.min().item()

    @property
    def last(self) -> float | int:
        """The value at the last slot."""
        return self.values[-1].item()
