"""A check's evidence as text, the same in the terminal table (``packsched verify``) and
the HTML report (:mod:`proofs_checks.report`): integers as integers, floats to six
significant digits, Fractions as p/q, sequences in parentheses; a number is never cut."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["number_text", "comparison_text", "note_text"]


def number_text(v: Any) -> str:
    """A number of the evidence (Fractions may arrive as ``"p/q"`` text from JSON rows)."""
    if isinstance(v, bool) or v is None or isinstance(v, int | Fraction):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, list | tuple):
        return "(" + ", ".join(number_text(x) for x in v) + ")"
    if isinstance(v, dict):
        return ", ".join(f"{k}={number_text(x)}" for k, x in v.items())
    return str(v)


def _interval(v: Any) -> str:
    return "[" + ", ".join(number_text(x) for x in v) + "]" if isinstance(v, list | tuple) \
        else number_text(v)


def comparison_text(row: dict[str, Any]) -> str:
    """``measured <relation> bound`` of a result row, e.g. ``0.4999 <= 0.5``, ``2 == 2``,
    ``0.93 in [0.9, 0.95]``; ``(no bound)`` or ``(error)`` without one."""
    if "error" in (row.get("details") or {}):
        return "(error)"
    rel, bound = row.get("relation"), row.get("bound")
    if bound is None or rel is None:
        return "(no bound)"
    m = row.get("measured")
    lhs = _interval(m) if rel in ("contains", "overlaps") else number_text(m)
    rhs = _interval(bound) if rel in ("in", "overlaps") else number_text(bound)
    return f"{lhs} {rel} {rhs}"


def note_text(row: dict[str, Any]) -> str:
    """What the numbers are (the quantity), the reason there is no bound, or the error."""
    details = row.get("details") or {}
    if "error" in details:
        return f"error: {details['error']}"
    text = row.get("quantity") or ""
    if row.get("bound") is None and details.get("no_bound"):
        text = details["no_bound"]
    return " ".join(str(text).split())
