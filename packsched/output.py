"""How the CLI prints: one JSON document on stdout, notes and warnings on stderr.

NaN and infinities become ``null``; Fractions and numpy scalars become floats.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from theory.json_ready import json_ready

__all__ = ["PROG", "plain", "emit_json", "warn", "note", "stdout_to_stderr", "exact_text",
           "fmt", "inputs_checked"]

PROG = "packsched"


def plain(x: Any) -> Any:
    """JSON-ready copy (:func:`theory.json_ready.json_ready`, the package's one
    converter)."""
    return json_ready(x)


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


def inputs_checked(args: Any) -> int:
    """End a ``--dry-run``: every input was checked and the policy built, nothing ran."""
    if args.json:
        emit_json({"dry_run": True, "policy": args.policy, "inputs": "ok"})
    else:
        print(f"inputs ok: {args.policy} would run (--dry-run: nothing was run)")
    return 0
