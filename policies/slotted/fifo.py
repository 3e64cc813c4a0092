"""FIFO-FF, the Hadoop-FIFO baseline of PG21 Sec. VII-B.

The first job in the queue goes to the first server (lowest index) with room for it
(First-Fit). With ``skip=False`` (the paper's FIFO, the default) a head-of-line job
that fits nowhere blocks everything behind it; with ``skip=True`` it is passed over
and the next job in arrival order is tried.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.slotted import codes as K
from policies.slotted.policy import BuiltinPolicy, KernelSpec, single_types

__all__ = ["FIFOFF"]


@dataclass(frozen=True)
class FIFOFF(BuiltinPolicy):
    """FIFO with First-Fit placement (PG21 VII-B); ``skip`` relaxes head-of-line blocking."""

    skip: bool = False
    name = "fifo-ff"

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        if self.skip:
            return single_types(K.FIFOFF_SKIP, sizes.shape[0], track_jobs=True)
        return single_types(K.FIFOFF, sizes.shape[0])
