"""Errors of the CLI and how every library error becomes one line on stderr.

Exit status (docs/design.md, "Inputs, budgets and errors"): 0 success; 1 ``verify`` found a
violated claim; 2 an error in the input or the usage (a bad flag, number, file, a budget
refused); 3 the computation failed (a solver failure, a violated invariant, an internal
error). Every error is one line, ``packsched: error: ...``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["EXIT_OK", "EXIT_VIOLATED", "EXIT_USAGE", "EXIT_FAILED", "UsageError",
           "ComputationError", "BUDGET_FLAGS", "report"]

EXIT_OK, EXIT_VIOLATED, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3

#: library budget keyword -> the CLI flag that raises it
BUDGET_FLAGS = {
    "memory_budget": "--max-memory",
    "max_configurations": "--max-configurations",
    "max_types": "--max-types",
    "max_variables": "--max-variables",
    "max_dp_cells": "--max-dp-cells",
    "max_ticks": "--max-ticks",
    "max_slots": "--max-slots",
    "max_nonzeros": "--max-nonzeros",
}


class UsageError(Exception):
    """An error in the user's input: printed as ``packsched: error: ...``, exit 2."""


class ComputationError(Exception):
    """The library could not compute an answer (not the user's fault): exit 3."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) or "(no message)"


def _message(exc: BaseException) -> tuple[str, int]:
    from theory.budgets import BudgetExceeded

    if isinstance(exc, BudgetExceeded):
        flag = BUDGET_FLAGS.get(exc.option)
        return exc.render(flag if flag else f"the keyword {exc.option}= of the Python API"), \
            EXIT_USAGE
    if isinstance(exc, UnicodeDecodeError):  # a ValueError too, but say it in words
        return f"not UTF-8 text ({exc.reason} at byte {exc.start})", EXIT_USAGE
    if isinstance(exc, UsageError | ValueError | argparse.ArgumentTypeError):
        return str(exc), EXIT_USAGE
    if isinstance(exc, OSError):
        if exc.filename is not None:
            return f"{exc.filename}: {exc.strerror or exc}", EXIT_USAGE
        return f"{exc.strerror or exc}", EXIT_USAGE
    if isinstance(exc, ComputationError):
        return str(exc), EXIT_FAILED
    from capacity import LPSolveError, ProgramError

    if isinstance(exc, LPSolveError | ProgramError):
        return f"the solver failed: {exc}", EXIT_FAILED
    if isinstance(exc, MemoryError):
        return ("ran out of memory (an estimate before the allocation should have refused "
                "this: please report it with the command line)"), EXIT_FAILED
    return (f"internal error ({type(exc).__name__}: {exc}); this is a bug, please report "
            "it with the command line"), EXIT_FAILED


def report(exc: BaseException) -> int:
    """Print ``packsched: error: ...`` for ``exc`` on one line (nowhere when stderr is
    closed: never on stdout); return the exit status."""
    msg, status = _message(exc)
    if sys.stderr is not None:
        print(f"packsched: error: {_one_line(msg)}", file=sys.stderr)
    return status


def require_invariants(res: Any, who: str) -> None:
    """A :class:`ComputationError` naming the first violations when the run ``res`` (a
    :class:`policies.result.RunResult`) broke an invariant."""
    if res.invariants is not None and not res.invariants.ok:
        raise ComputationError(f"{who} broke an invariant: "
                               + "; ".join(res.invariants.violations[:3]))
