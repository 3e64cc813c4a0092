"""A wall-clock limit for a block of a test: a run that hangs fails instead of stalling."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


class TooLong(BaseException):
    """Not an Exception: no ``except Exception`` (the CLI's error line) swallows it."""


@contextlib.contextmanager
def within(seconds: float) -> Iterator[None]:
    """Raise :class:`TooLong` if the block runs longer than ``seconds`` (checked when
    control returns to Python)."""
    def stop(signum: int, frame: object) -> None:
        raise TooLong(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
