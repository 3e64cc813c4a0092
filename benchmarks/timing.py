"""Timing helpers shared by the benchmark scripts: a wall-time cap and repeat summaries."""

from __future__ import annotations

import contextlib
import signal
import statistics
from collections.abc import Iterator
from typing import Any

__all__ = ["CaseTimeout", "time_limit", "summary"]


class CaseTimeout(Exception):
    """Raised (from SIGALRM) when one timed call exceeds its wall-time cap."""


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (checked when control returns to Python)."""
    if not seconds or seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"exceeded the {seconds:.0f} s cap")

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def summary(times: list[float]) -> dict[str, Any]:
    """Median, min, max and every value of repeated timings (seconds)."""
    return {
        "median_s": statistics.median(times) if times else None,
        "min_s": min(times) if times else None,
        "max_s": max(times) if times else None,
        "repeats": len(times),
        "all_s": times,
    }
