"""Compatibility shim: the BF-J/S baseline now lives in ``baseline_slotted.py``.

``benchmarks/baseline_slotted.py`` holds the hand-written SimPy (and plain-loop) models
of all five PG21 slotted policies, with their contract; this module re-exports the
BF-J/S entry points under their old names.
"""

from __future__ import annotations

try:  # imported as benchmarks.baseline_bfjs (repository root on sys.path)
    from benchmarks.baseline_slotted import (
        random_instance,
        simulate_bfjs_plain,
        simulate_bfjs_simpy,
    )
except ModuleNotFoundError:  # imported as baseline_bfjs (benchmarks/ on sys.path)
    from baseline_slotted import (  # type: ignore[no-redef]
        random_instance,
        simulate_bfjs_plain,
        simulate_bfjs_simpy,
    )

__all__ = ["simulate_bfjs_simpy", "simulate_bfjs_plain", "random_instance"]
