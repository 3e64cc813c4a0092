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
    """FIFO with First-Fit placement (PG21 VII-B); ``skip`` relaxes head-of-line blocking.

    Every slot, the queue in arrival order: the first job goes to the first server
    (lowest index) with room for it.

    Parameters
    ----------
    skip : bool, optional
        False (default, the paper's FIFO): a head-of-line job that fits nowhere blocks
        every job behind it. True (registered as ``fifo-ff-skip``): it is passed over
        and the next job in arrival order is tried.

    References
    ----------
    PG21, Sec. VII-B (the FIFO-FF baseline after Hadoop's FIFO scheduler).

    Examples
    --------
    One unit server and jobs 0.7, 0.5, 0.3 arriving together: strict FIFO blocks 0.3
    behind 0.5; with ``skip`` it starts.

    >>> import numpy as np
    >>> import policies, theory
    >>> w = policies.Workload(np.array([0, 0, 0]), np.array([0.7, 0.5, 0.3]),
    ...                       np.array([5, 5, 5]), horizon=3)
    >>> one = theory.Cluster.identical(1, 1)
    >>> policies.simulate(policies.FIFOFF(), w, one).start.tolist()
    [0, -1, -1]
    >>> policies.simulate(policies.FIFOFF(skip=True), w, one).start.tolist()
    [0, -1, 0]
    """

    skip: bool = False
    name = "fifo-ff"

    def __post_init__(self) -> None:
        # the registry name, so results of the skipping variant are not labelled fifo-ff
        object.__setattr__(self, "name", "fifo-ff-skip" if self.skip else "fifo-ff")

    def parameters(self) -> dict[str, object]:
        return {"skip": self.skip}

    def compiled_spec(self, sizes: np.ndarray, capacities: np.ndarray) -> KernelSpec:
        if self.skip:
            return single_types(K.FIFOFF_SKIP, sizes.shape[0], track_jobs=True)
        return single_types(K.FIFOFF, sizes.shape[0])
