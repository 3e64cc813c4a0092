"""What an XLL21 policy sees in a slot (XLL21 Sec. II-A): the present jobs, their
remaining work, the machines and the previous slot's allocation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.fractional_flowtime import fractional_weight

__all__ = ["SlotView"]


@dataclass(frozen=True)
class SlotView:
    """What a policy sees in slot ``t``: the present jobs (``index`` into the job set)
    with their parameters and remaining processing time p_j(t) (volume left / d_j), the
    machines, and the cores each present job held on each machine in slot t - 1."""

    t: int
    index: np.ndarray  # (n,) job indices, increasing
    arrival: np.ndarray  # (n,)
    processing: np.ndarray  # (n,) p_j
    cores: np.ndarray  # (n,) d_j
    memory: np.ndarray  # (n,) m_j (zeros when memory is not modelled)
    remaining: np.ndarray  # (n,) p_j(t) = remaining volume / d_j
    remaining_volume: np.ndarray  # (n,) integer core-slots left
    machine_cores: np.ndarray  # (M,) C_i
    machine_memory: np.ndarray  # (M,) M_i (inf when memory is not modelled)
    previous: np.ndarray  # (n, M) cores held in slot t - 1
    k: float

    @property
    def n(self) -> int:
        return len(self.index)

    def weights(self) -> np.ndarray:
        """Eq. (5) weights (t - a_j)^k/p_j + p_j^(k-1) of the present jobs at slot t."""
        return fractional_weight(self.t, self.arrival, self.processing, self.k)

