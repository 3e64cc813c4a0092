"""Progress lines on stderr for long but allowed work (docs/design.md, "Inputs,
budgets and errors").

A :class:`Progress` stays silent for its first ``delay`` seconds, then writes one line
every ``every`` seconds to stderr (never stdout: ``--json`` output stays clean) and a
last line when the work ends. ``PACKSCHED_PROGRESS=0`` silences every reporter. The
time left is said only with ``eta=True``, for work whose units cost about the same
(lines of a file): extrapolating levels, rounds or checks of very different costs
promised "about 2 s left" for 100 s of work, and no estimate beats a wrong one.

>>> with Progress("enumerating configurations", total=1000) as p:
...     for i in range(1000):
...         p.update(i + 1)
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """Rate-limited progress reporter: ``update(done)`` is cheap enough for inner loops."""

    def __init__(self, label: str, total: float | None = None, *, unit: str = "",
                 delay: float = 2.0, every: float = 5.0, stream: TextIO | None = None,
                 eta: bool = False):
        self.label, self.total, self.unit, self.eta = label, total, unit, eta
        self.delay, self.every = delay, every
        self.stream = stream
        self.enabled = os.environ.get("PACKSCHED_PROGRESS", "1") != "0"
        self.start = time.perf_counter()
        self._next = self.start + delay
        self._said = False
        self.done: float = 0

    def update(self, done: float, note: str = "") -> None:
        """Record ``done`` units of work; prints at most one line per ``every`` seconds."""
        self.done = done
        if not self.enabled:
            return
        now = time.perf_counter()
        if now < self._next:
            return
        self._next = now + self.every
        self._write(now, note)

    def _write(self, now: float, note: str, final: bool = False) -> None:
        elapsed = now - self.start
        unit = f" {self.unit}" if self.unit else ""
        if self.total:
            frac = min(self.done / self.total, 1.0)
            text = f"{_n(self.done)}/{_n(self.total)}{unit} ({100 * frac:.0f}%)"
            if self.eta and 0 < frac < 1 and not final:
                text += f", about {(elapsed / frac - elapsed):.0f} s left"
        else:
            text = f"{_n(self.done)}{unit}"
        state = "done" if final else "running"
        line = f"packsched: {self.label}: {text}, {elapsed:.0f} s {state}"
        if note:
            line += f" ({note})"
        stream = self.stream or sys.stderr
        if stream is not None:  # stderr closed: say nothing (print(file=None) is stdout)
            print(line, file=stream, flush=True)
        self._said = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.enabled and self._said and et is None:
            self._write(time.perf_counter(), "", final=True)


def _n(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:.3g}"
