"""A wall-clock limit on a whole computation, honoured where its answer stays proven.

``with time_limit(30): res = rho_star(dist)``: column generation stops at its next round
once the limit has passed, and the result keeps what its certificate proves (the
mixture found so far is feasible, so its value is a lower bound; the master's prices
bound the optimum from above) with ``status="time_limit"``; bracket refinements stop
after the level that passed the limit. The limit is a context variable, so nested
limits take the earlier deadline and threads or tasks do not share one.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = ["time_limit", "expired", "remaining"]

_DEADLINE: ContextVar[float | None] = ContextVar("packsched_deadline", default=None)


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Limit the computations inside the block to ``seconds`` of wall-clock time.

    A context manager: ``with time_limit(30): res = rho_star(dist)``. Column generation
    stops at its next round once the limit has passed and returns the interval its
    certificate proves, with ``status="time_limit"``; bracket refinements stop after
    the level that passed the limit; the offline programs give HiGHS the time left.
    The limit is a context variable: nested limits take the earlier deadline, and
    threads or tasks do not share one.

    Parameters
    ----------
    seconds : float or None
        Wall-clock seconds from entering the block, a finite number > 0. ``None``: no
        limit beyond an enclosing one.

    Raises
    ------
    ValueError
        If ``seconds`` is not ``None`` and not a finite number > 0 (a bool, a text, 0,
        a negative number, NaN or infinity).

    See Also
    --------
    expired : whether the active limit has passed.

    References
    ----------
    docs/design.md, section Time limits.

    Examples
    --------
    >>> import time
    >>> from capacity import expired, time_limit
    >>> with time_limit(60):
    ...     expired()
    False
    >>> with time_limit(0.01):
    ...     time.sleep(0.02)
    ...     expired()
    True
    >>> with time_limit(0):
    ...     pass
    Traceback (most recent call last):
    ...
    ValueError: time_limit must be a positive number of seconds, got 0
    """
    if seconds is None:
        yield
        return
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {seconds!r}")
    deadline = time.perf_counter() + float(seconds)
    outer = _DEADLINE.get()
    token = _DEADLINE.set(deadline if outer is None else min(outer, deadline))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left before the active limit (None: no limit)."""
    d = _DEADLINE.get()
    return None if d is None else d - time.perf_counter()


def expired() -> bool:
    """Has the active limit passed?

    The solvers call it between steps (column-generation rounds, bracket levels,
    program building) and stop with what they have proven once it is True.

    Returns
    -------
    bool
        True when a :func:`time_limit` block is active and its deadline (the earliest
        of nested ones) has passed; False inside no block.

    References
    ----------
    docs/design.md, section Time limits.

    Examples
    --------
    >>> from capacity import expired, time_limit
    >>> expired()
    False
    >>> with time_limit(60):
    ...     expired()
    False
    """
    d = _DEADLINE.get()
    return d is not None and time.perf_counter() >= d
