"""XLL21's baselines (Sec. VI-2: SRPT, SRVF, SVF, SRF), Fair (Sec. II-C, Table I) and
the transient SVF scheme (Sec. IV-C, Lemma 2)."""

from __future__ import annotations

import numpy as np

from policies.preemptive.placement import fill_in_order, place, place_with_memory
from policies.preemptive.policy import Allocation, PreemptivePolicy
from policies.preemptive.state import SlotView
from theory.slot_allocation import lemma2_rates

__all__ = ["PriorityPolicy", "SRPT", "SRVF", "SVF", "SRF", "Fair", "TransientSVF"]


def _allocate(view: SlotView, order: np.ndarray, want: np.ndarray) -> Allocation:
    """Cores for jobs in ``order`` (each up to ``want``): pooled and packed largest
    first without memory, placed machine by machine where memory is modelled."""
    if np.all(np.isinf(view.machine_memory)):
        u = fill_in_order(order, want, view.machine_cores.sum())
        return Allocation(place(u, view.machine_cores))
    u2, z = place_with_memory(order, want, view.cores, view.memory, view.machine_cores,
                              view.machine_memory)
    return Allocation(u2, z)


class PriorityPolicy(PreemptivePolicy):
    """Each slot, jobs in increasing ``key`` (ties: job index) get their demand d_j
    (at most their remaining volume) while cores are left (XLL21 VI-2)."""

    uses_memory = True

    def key(self, view: SlotView) -> np.ndarray:
        raise NotImplementedError

    def allocate(self, view: SlotView) -> Allocation:
        order = np.lexsort((view.index, self.key(view)))
        want = np.minimum(view.cores, view.remaining_volume)
        return _allocate(view, order, want)


class SRPT(PriorityPolicy):
    """Shortest remaining processing time p_j(t) first."""

    name = "srpt"

    def key(self, view: SlotView) -> np.ndarray:
        return view.remaining


class SRVF(PriorityPolicy):
    """Smallest residual volume d_j p_j(t) first."""

    name = "srvf"

    def key(self, view: SlotView) -> np.ndarray:
        return view.remaining_volume.astype(float)


class SVF(PriorityPolicy):
    """Smallest volume v_j = p_j d_j first."""

    name = "svf"

    def key(self, view: SlotView) -> np.ndarray:
        return view.processing * view.cores


class SRF(PriorityPolicy):
    """Smallest resource (core) demand d_j first."""

    name = "srf"

    def key(self, view: SlotView) -> np.ndarray:
        return view.cores


class Fair(PreemptivePolicy):
    """The Fair scheduler of XLL21 Example 1 (Table I): every present job gets the same
    rate r = min(1/n, C / sum_j d_j) (round robin over the n jobs, Im et al. [18]), i.e.
    floor(d_j r) cores (at most its remaining volume). Cores left over go one at a time
    to the jobs that got none, least served first, so integer cores still share time."""

    name = "fair"
    uses_memory = True

    def reset(self, jobs: object, machines: object) -> None:
        self._served: dict[int, int] = {}

    def allocate(self, view: SlotView) -> Allocation:
        C = view.machine_cores.sum()
        r = min(1.0 / view.n, C / view.cores.sum())
        cap = np.minimum(view.cores, view.remaining_volume)
        u = np.minimum(np.floor(view.cores * r + 1e-9).astype(np.int64), cap)
        left = int(C - u.sum())
        starved = np.flatnonzero(u == 0)
        if left > 0 and starved.size:
            got = np.array([self._served.get(int(view.index[j]), 0) for j in starved])
            for j in starved[np.lexsort((view.index[starved], got))]:
                if left <= 0:
                    break
                u[j] = min(int(cap[j]), left)
                left -= int(u[j])
        for j in np.flatnonzero(u):
            key = int(view.index[j])
            self._served[key] = self._served.get(key, 0) + int(u[j])
        order = np.arange(view.n)
        return _allocate(view, order, u)


class TransientSVF(PreemptivePolicy):
    """XLL21 IV-C: each slot the rates of Lemma 2 (eq. (39), corrected: smallest volume
    p_j d_j first, y_j = min{1, p_j(t)} or min{gamma_j/d_j, p_j(t)}), packed onto the
    machines as in the online algorithm. Optimal for (38) in every slot; Thm. 6 and
    Cor. 2 concern the transient case a_j = 0."""

    name = "transient-svf"

    def allocate(self, view: SlotView) -> Allocation:
        y = lemma2_rates(view.processing, view.remaining, view.cores,
                         view.machine_cores.sum())
        u = np.rint(y * view.cores).astype(np.int64)
        return Allocation(place(u, view.machine_cores))
