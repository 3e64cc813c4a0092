"""How the CLI prints: one JSON document on stdout, notes and warnings on stderr.

NaN and infinities become ``null``; Fractions and numpy scalars become floats.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

__all__ = ["PROG", "plain", "emit_json", "warn", "note", "stdout_to_stderr", "exact_text",
           "fmt"]

PROG = "packsched"


def plain(x: Any) -> Any:
    """JSON-ready copy: Fractions and numpy scalars to floats, NaN/inf to None."""
    import numpy as np

    if x is None or isinstance(x, bool | str | int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, Fraction):
        try:
            return plain(float(x))
        except OverflowError:
            return None
    if isinstance(x, np.generic):
        return plain(x.item())
    if isinstance(x, np.ndarray):
        return plain(x.tolist())
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        return [plain(v) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return plain(dataclasses.asdict(x))
    if hasattr(x, "as_dict"):
        return plain(x.as_dict())
    return str(x)


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(plain(obj), allow_nan=False) + "\n")
    sys.stdout.flush()


def warn(msg: str) -> None:
    note(f"warning: {msg}")


def note(msg: str) -> None:
    """A line on stderr; dropped when stderr is closed (``print(file=None)`` would write
    it on stdout, into the JSON)."""
    if sys.stderr is not None:
        print(f"{PROG}: {msg}", file=sys.stderr)


@contextlib.contextmanager
def stdout_to_stderr(active: bool) -> Iterator[None]:
    """Under ``--json`` anything the library prints goes to stderr, not into the JSON."""
    if not active:
        yield
        return
    with contextlib.redirect_stdout(sys.stderr if sys.stderr is not None else io.StringIO()):
        yield


def exact_text(x: Any) -> str | None:
    """Exact text of a rational, else None."""
    return str(x) if isinstance(x, Fraction) else None


def fmt(x: Any, digits: int = 10) -> str:
    """A number for the text report: small fractions as p/q, the rest to ``digits``."""
    if isinstance(x, Fraction):
        if x.denominator == 1 or (x.denominator <= 1000 and abs(x.numerator) <= 10**6):
            return str(x)
        try:
            x = float(x)
        except OverflowError:
            return f"{x.numerator}/{x.denominator}" if len(str(x)) < 40 else "(huge)"
    if isinstance(x, tuple | list):
        return "(" + ", ".join(fmt(v, digits) for v in x) + ")"
    try:
        v = float(x)
    except (TypeError, ValueError, OverflowError):
        return str(x)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.{digits}g}"
