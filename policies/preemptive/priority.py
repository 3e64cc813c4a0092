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
    """Base of XLL21's priority baselines: jobs in increasing ``key`` take their cores.

    Each slot, jobs in increasing ``key(view)`` (ties: job index) get their demand d_j
    (at most their remaining volume) while cores are left (XLL21 VI-2). Without memory
    the cores are pooled and packed largest job onto largest machine (XLL21 IV-A);
    with memory each job takes cores machine by machine, most free cores first, where
    its memory m_j still fits. A subclass defines ``key`` (one number per present job)
    and ``name``.

    The constructor takes no arguments.

    References
    ----------
    XLL21, Sec. VI-2 (the baselines SRPT, SRVF, SVF and SRF) and Sec. IV-A (packing
    onto machines, largest first).

    Examples
    --------
    The four baselines, and a user's rule (largest eq. (5) weight first), on four jobs
    and machines of 3 and 2 cores:

    >>> from policies.preemptive import SRF, SRPT, SRVF, SVF, PriorityPolicy, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> class HeaviestFirst(PriorityPolicy):
    ...     name = "heaviest-first"
    ...     def key(self, view):
    ...         return -view.weights()
    >>> for p in (SRPT(), SRVF(), SVF(), SRF(), HeaviestFirst()):
    ...     r = run_schedule(p, jobs, Machines([[3], [2]]))
    ...     print(f"{p.name:15s}", r.completion.tolist(), round(r.flowtime_lk(), 4))
    srpt            [4.0, 2.0, 6.0, 5.0] 7.1414
    srvf            [4.0, 2.0, 4.0, 5.0] 5.9161
    svf             [5.0, 2.0, 4.0, 4.0] 6.245
    srf             [3.0, 4.0, 4.0, 5.0] 6.0
    heaviest-first  [3.0, 3.0, 5.0, 5.0] 6.1644
    """

    uses_memory = True

    def key(self, view: SlotView) -> np.ndarray:
        raise NotImplementedError

    def allocate(self, view: SlotView) -> Allocation:
        order = np.lexsort((view.index, self.key(view)))
        want = np.minimum(view.cores, view.remaining_volume)
        return _allocate(view, order, want)


class SRPT(PriorityPolicy):
    """Shortest remaining processing time p_j(t) first.

    A :class:`PriorityPolicy` whose key is the remaining processing time p_j(t) =
    remaining volume / d_j: each slot the present jobs in that order (ties: job index)
    take their demand, at most their remaining volume, while cores are left. The
    constructor takes no arguments.

    References
    ----------
    XLL21, Sec. VI-2 (SRPT, one of the four baselines).

    Examples
    --------
    >>> from policies.preemptive import SRPT, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> run_schedule(SRPT(), jobs, Machines([[3], [2]])).completion.tolist()
    [4.0, 2.0, 6.0, 5.0]
    """

    name = "srpt"

    def key(self, view: SlotView) -> np.ndarray:
        return view.remaining


class SRVF(PriorityPolicy):
    """Smallest residual volume d_j p_j(t) first.

    A :class:`PriorityPolicy` whose key is the remaining volume d_j p_j(t), in
    core-slots: each slot the present jobs in that order (ties: job index) take their
    demand, at most their remaining volume, while cores are left. The constructor takes
    no arguments.

    References
    ----------
    XLL21, Sec. VI-2 (SRVF, one of the four baselines).

    Examples
    --------
    >>> from policies.preemptive import SRVF, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> run_schedule(SRVF(), jobs, Machines([[3], [2]])).completion.tolist()
    [4.0, 2.0, 4.0, 5.0]
    """

    name = "srvf"

    def key(self, view: SlotView) -> np.ndarray:
        return view.remaining_volume.astype(float)


class SVF(PriorityPolicy):
    """Smallest volume v_j = p_j d_j first.

    A :class:`PriorityPolicy` whose key is the volume v_j = p_j d_j (fixed over the
    run): each slot the present jobs in that order (ties: job index) take their demand,
    at most their remaining volume, while cores are left. The constructor takes no
    arguments.

    References
    ----------
    XLL21, Sec. VI-2 (SVF, one of the four baselines).

    Examples
    --------
    >>> from policies.preemptive import SVF, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> run_schedule(SVF(), jobs, Machines([[3], [2]])).completion.tolist()
    [5.0, 2.0, 4.0, 4.0]
    """

    name = "svf"

    def key(self, view: SlotView) -> np.ndarray:
        return view.processing * view.cores


class SRF(PriorityPolicy):
    """Smallest resource (core) demand d_j first.

    A :class:`PriorityPolicy` whose key is the core demand d_j: each slot the present
    jobs in that order (ties: job index) take their demand, at most their remaining
    volume, while cores are left. The constructor takes no arguments.

    References
    ----------
    XLL21, Sec. VI-2 (SRF, one of the four baselines).

    Examples
    --------
    >>> from policies.preemptive import SRF, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> run_schedule(SRF(), jobs, Machines([[3], [2]])).completion.tolist()
    [3.0, 4.0, 4.0, 5.0]
    """

    name = "srf"

    def key(self, view: SlotView) -> np.ndarray:
        return view.cores


class Fair(PreemptivePolicy):
    """The Fair scheduler of XLL21 Example 1 (Table I): equal rates for the present jobs.

    Every present job gets the same rate r = min(1/n, C / sum_j d_j) (round robin over
    the n jobs, Im et al. [18]), i.e. floor(d_j r) cores (at most its remaining
    volume). Cores left over go one at a time to the jobs that got none, least served
    first, so integer cores still share time. The constructor takes no arguments.

    References
    ----------
    XLL21, Sec. II-C, Example 1 and Table I (CPU allocation rates under the Fair
    scheduler).

    Examples
    --------
    XLL21 Example 1: three jobs at time 0 with p_j = 1, 2, 3, each demanding the whole
    machine. The rates are those of Table I, the flowtimes 3, 5, 6, and the fractional
    flowtimes (eq. (5), k = 1) 3, 5.25 and 7 1/6, as the paper states (its printed sum
    for job 3 has a wrong last term: erratum ``XLL21.Example1.job3``):

    >>> from policies.preemptive import Fair, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0], processing=[1, 2, 3], demand=[[6], [6], [6]])
    >>> r = run_schedule(Fair(), jobs, Machines([[6]]), k=1)
    >>> for job in r.rates().round(4).tolist():
    ...     print(job)
    [0.3333, 0.3333, 0.3333, 0.0, 0.0, 0.0]
    [0.3333, 0.3333, 0.3333, 0.5, 0.5, 0.0]
    [0.3333, 0.3333, 0.3333, 0.5, 0.5, 1.0]
    >>> r.flowtime.tolist(), r.fractional.round(4).tolist()
    ([3.0, 5.0, 6.0], [3.0, 5.25, 7.1667])
    """

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
    """The transient SVF scheme of XLL21 IV-C: Lemma 2's rates, smallest volume first.

    Each slot the rates of Lemma 2 (eq. (39), corrected: smallest volume p_j d_j
    first, y_j = min{1, p_j(t)} or min{gamma_j/d_j, p_j(t)}), packed onto the machines
    as in the online algorithm. Optimal for (38) in every slot; Thm. 6 and Cor. 2
    concern the transient case a_j = 0 (Thm. 6's optimality over the horizon does not
    follow: erratum ``XLL21.Thm6``). Eq. (39) as printed has max where min is meant
    (erratum ``XLL21.Lemma2.eq39``). The constructor takes no arguments.

    References
    ----------
    XLL21, Sec. IV-C, eq. (38), Lemma 2 and eq. (39), Theorem 6, Corollary 2, Remark 3.

    Examples
    --------
    Three jobs at time 0 on two machines of 3 cores: the smallest volume (job 1, 3
    core-slots) runs at rate 1, then job 0 (volume 6, 2 cores) at rate 1, and job 2
    gets the one core left, rate 1/3:

    >>> from policies.preemptive import TransientSVF, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0], processing=[3, 1, 2], demand=[[2], [3], [3]])
    >>> r = run_schedule(TransientSVF(), jobs, Machines([[3], [3]]))
    >>> r.completion.tolist(), r.rates().round(3).tolist()
    ([3.0, 1.0, 3.0], [[1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [0.333, 1.0, 0.667]])
    """

    name = "transient-svf"

    def allocate(self, view: SlotView) -> Allocation:
        y = lemma2_rates(view.processing, view.remaining, view.cores,
                         view.machine_cores.sum())
        u = np.rint(y * view.cores).astype(np.int64)
        return Allocation(place(u, view.machine_cores))
