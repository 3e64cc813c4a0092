"""What an XLL21 policy sees in a slot (XLL21 Sec. II-A): the present jobs, their
remaining work, the machines and the previous slot's allocation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.fractional_flowtime import fractional_weight

__all__ = ["SlotView"]


@dataclass(frozen=True)
class SlotView:
    """What an XLL21 policy sees in slot ``t``: present jobs, machines, last allocation.

    The present jobs (``index`` into the job set: arrived, a_j < t, and unfinished)
    with their parameters and remaining processing time p_j(t) (volume left / d_j), the
    machines, and the cores each present job held on each machine in slot t - 1. Every
    per-job array has one entry per present job, in ``index`` order; ``n`` counts them
    and :meth:`weights` gives the eq. (5) weights. The engine builds one per slot.

    Parameters
    ----------
    t : int
        The slot, 1, 2, ...
    index : numpy.ndarray
        The present jobs' indices into the job set, increasing, shape (n,).
    arrival : numpy.ndarray
        a_j, in slots.
    processing : numpy.ndarray
        p_j, in slots.
    cores : numpy.ndarray
        d_j, the cores the job demands (the declared demand under misestimation).
    memory : numpy.ndarray
        m_j (zeros when memory is not modelled).
    remaining : numpy.ndarray
        p_j(t) = remaining volume / d_j.
    remaining_volume : numpy.ndarray
        Integer core-slots left.
    machine_cores : numpy.ndarray
        C_i, shape (M,).
    machine_memory : numpy.ndarray
        M_i (inf when memory is not modelled).
    previous : numpy.ndarray
        Cores each present job held on each machine in slot t - 1, shape (n, M).
    k : float
        The exponent of the l_k flowtime norm.

    References
    ----------
    XLL21, Sec. II-A (the slotted model, a job served from slot a_j + 1) and Sec. II-C,
    eq. (5) (the weights).

    Examples
    --------
    The engine builds the view; here one by hand, two jobs in slot 3:

    >>> import numpy as np
    >>> from policies.preemptive import SlotView
    >>> v = SlotView(t=3, index=np.array([0, 2]), arrival=np.array([0.0, 1.0]),
    ...              processing=np.array([3.0, 3.0]), cores=np.array([3.0, 1.0]),
    ...              memory=np.zeros(2), remaining=np.array([1.0, 2.0]),
    ...              remaining_volume=np.array([3, 2]), machine_cores=np.array([3.0, 2.0]),
    ...              machine_memory=np.full(2, np.inf), previous=np.array([[3, 0], [0, 1]]),
    ...              k=2.0)
    >>> v.n, v.weights().round(6).tolist()  # (t - a_j)^2 / p_j + p_j
    (2, [6.0, 4.333333])
    """

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

