"""Run a policy on a workload in the PG21 slotted model (Sec. II).

``simulate(policy, workload, cluster)`` runs built-in policies in the compiled kernel
(:mod:`policies.slotted._kernel`) and user policies (:class:`SlottedPolicy`) in the
plain-Python loop below. Both follow the same slot: (1) arrivals of slot t join the
queue; (2) the policy schedules; (3) the queue is recorded; (4) jobs in their last
service slot leave, in increasing job id, and a server left empty gets load 0.
A job fits a server iff ``size <= capacity - load + eps``, ``eps = FEASIBILITY_RTOL *
max(capacity)``. Both produce a :class:`~policies.slotted.result.SimulationResult` whose
invariants are checked from the schedule.
"""

from __future__ import annotations

import math
import time

import numpy as np

from policies.footprint import check_run_memory
from policies.invariants import check_slotted_run
from policies.policy import require_family
from policies.slotted.policy import BuiltinPolicy, SlottedPolicy
from policies.slotted.result import SimulationResult
from policies.slotted.state import SlotState
from policies.step_series import StepSeries
from policies.workload import Workload
from theory.budgets import MEMORY_BUDGET
from theory.cluster import Cluster
from theory.numbers import FEASIBILITY_RTOL

__all__ = ["simulate"]


def _inputs(workload: Workload, cluster: Cluster, slots: int | None):
    if not isinstance(workload, Workload):
        raise TypeError("workload must be a policies.workload.Workload")
    if not isinstance(cluster, Cluster):
        raise TypeError("cluster must be a theory.Cluster (policies.Cluster)")
    if not workload.slotted:
        raise ValueError("the PG21 model needs integer arrival slots and service slots")
    T = int(workload.horizon) if slots is None else slots
    if isinstance(T, bool) or not isinstance(T, int | np.integer) or T < 1:
        raise ValueError(f"slots must be a positive integer, got {slots!r}")
    if T > workload.horizon:
        raise ValueError(
            f"slots={T} exceeds the workload horizon {workload.horizon:g}; "
            "jobs after the horizon were never drawn"
        )
    k = int(np.searchsorted(workload.arrival, T, side="left"))
    # fresh writable copies: one compiled specialisation whatever the inputs' flags
    cap = np.array(cluster.scalar_capacities(), dtype=np.float64)
    size = np.array(workload.sizes()[:k], dtype=np.float64)
    return (T, cap, np.array(workload.arrival[:k], dtype=np.int64), size,
            np.array(workload.service[:k], dtype=np.int64))


def simulate(
    policy: BuiltinPolicy | SlottedPolicy,
    workload: Workload,
    cluster: Cluster,
    *,
    slots: int | None = None,
    warmup: int | None = None,
    check: bool = True,
    memory_budget: float = MEMORY_BUDGET,
) -> SimulationResult:
    """Simulate ``policy`` on ``workload`` over ``slots`` slots (default: its horizon).

    Each slot t: (1) the arrivals of slot t join the queue; (2) the policy schedules;
    (3) the queue is recorded; (4) jobs in their last service slot leave, in
    increasing job id, and a server left empty gets load 0 exactly. A job fits a server
    iff ``size <= capacity - load + eps``, ``eps = FEASIBILITY_RTOL * max(capacity)``.
    Built-in policies (:class:`BuiltinPolicy`) run in the compiled kernel, a
    :class:`SlottedPolicy` in a plain-Python loop; both give the same result type. The
    simulation draws no random numbers: the service lengths come with the workload,
    so one workload replays under every policy.

    Parameters
    ----------
    policy : BuiltinPolicy or SlottedPolicy
        A PG21 slotted policy (``policies.make_policy("bf-js")``, a built-in class, or
        a :class:`SlottedPolicy` subclass).
    workload : Workload
        A slotted workload (integer arrival slots and service slots, scalar sizes in
        the units of the cluster's capacity), e.g. from :func:`policies.pg21_workload`.
    cluster : theory.Cluster
        The servers (single resource; capacities may differ, except for VQS, VQS-BF
        and MaxWeight, which need identical servers).
    slots : int, optional
        Number of slots T to simulate (default: the workload's horizon); the jobs
        arriving in slots 0 .. T - 1 take part.
    warmup : int, optional
        Slots excluded from the time averages and the stability verdict (default
        ``slots // 5``); in [0, slots).
    check : bool, optional
        Rebuild the invariants from the schedule (:func:`policies.check_slotted_run`);
        with False, ``result.invariants`` is None.
    memory_budget : float, optional
        Bytes the run may use, estimated before anything is allocated
        (:mod:`policies.footprint`; default :data:`theory.budgets.MEMORY_BUDGET`).

    Returns
    -------
    SimulationResult
        The run: queue series, per-job start slots and servers, per-server
        occupancy, the stability verdict and the invariant report.

    Raises
    ------
    TypeError
        ``policy`` is not a PG21 slotted policy (or has neither a compiled path nor a
        ``schedule`` hook), ``workload`` is not a Workload, ``cluster`` is not a
        Cluster.
    ValueError
        A workload that is not slotted (non-integer arrivals or service) or has vector
        demands; ``slots`` not a positive integer or beyond the workload's horizon;
        ``warmup`` outside [0, slots); a job larger than every server; VQS, VQS-BF or
        MaxWeight on servers of different capacities.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) The run's memory estimate exceeds ``memory_budget``.

    References
    ----------
    PG21, Sec. II (slotted model, eq. (1) capacity, eq. (3) queue evolution, geometric
    service); docs/design.md, section The four families (PG21 row).

    Examples
    --------
    Sizes 0.4 and 0.6, equally likely, on one server (PG21 Sec. VII-A.1, where
    rho* = 2): at workload rho = 3 = 1.5 rho* BF-J/S cannot keep up.

    >>> from fractions import Fraction
    >>> import policies, theory
    >>> sizes = theory.Discrete([Fraction(2, 5), Fraction(3, 5)], [Fraction(1, 2)] * 2)
    >>> w = policies.pg21_workload(sizes, servers=1, slots=400, mu=0.2, workload=3.0,
    ...                            seed=0)
    >>> r = policies.simulate(policies.make_policy("bf-js"), w,
    ...                       theory.Cluster.identical(1, 1))
    >>> r.jobs, r.started, r.final_queue, r.verdict, r.invariants_ok
    (268, 159, 109, 'unstable', True)
    """
    require_family(policy, "pg21-slotted", "policies.make_policy('bf-js') or a "
                   "policies.SlottedPolicy subclass")
    T, cap, arrival, size, dur = _inputs(workload, cluster, slots)
    W = T // 5 if warmup is None else warmup
    if isinstance(W, bool) or not isinstance(W, int | np.integer) or not 0 <= W < T:
        raise ValueError(f"warmup must be an integer in [0, slots), got {warmup!r}")
    check_run_memory(size.shape[0], T, cap.shape[0], memory_budget=memory_budget,
                     what=f"simulating {T:,} slots, {size.shape[0]:,} jobs and "
                          f"{cap.shape[0]:,} servers")
    if size.size and size.max() > cap.max() * (1.0 + FEASIBILITY_RTOL):
        j = int(np.argmax(size))
        raise ValueError(f"job {j} of size {size[j]:g} exceeds the capacity {cap.max():g} of "
                         "every server: it can never be served")
    eps = FEASIBILITY_RTOL * float(cap.max())
    n, L = size.shape[0], cap.shape[0]
    start = np.full(n, -1, np.int64)
    server = np.full(n, -1, np.int64)
    half = np.zeros(L, np.int64)
    area = np.zeros(L)
    spec = policy.compiled_spec(size, cap)
    if spec is not None:
        from policies.slotted import _kernel as K  # numba: imported when a run needs it

        # compile (or load from numba's cache) this policy's loop before the clock starts
        K.compile_policy(spec.code)
    elif not isinstance(policy, SlottedPolicy):
        raise TypeError(f"{policy.name} has neither a compiled path nor a schedule hook: "
                        f"subclass policies.SlottedPolicy")
    t0 = time.perf_counter()
    if spec is not None:
        # the record is kept where it changes: at most one entry per simulated slot, and
        # at most 4 n + 2 simulated slots (see _kernel.run); np.empty leaves the unused
        # tail untouched
        m = min(T, 4 * n + 2)
        at, qlen = np.empty(m, np.int64), np.empty(m, np.int64)
        qres, busy = np.empty(m), np.empty(m)
        k = K.run(spec.code, arrival, size, dur, cap, T, eps, spec.jtype.astype(np.int64),
                  spec.ntypes, spec.cfg_k, spec.cfg_main, spec.cfg_k1, spec.track_jobs,
                  spec.stall, start, server, at, qlen, qres, busy, half, area)
        if k > m:
            raise RuntimeError(f"internal error: {k} records of the queue for {m} entries")
        at = at[:k]
        steps = [StepSeries(at, x[:k], T) for x in (qlen, qres, busy)]
    else:
        assert isinstance(policy, SlottedPolicy)
        dense = np.zeros(T, np.int64), np.zeros(T), np.zeros(T)
        _run_python(policy, arrival, size, dur, cap, T, eps, start, server, *dense, half, area)
        steps = [StepSeries.from_dense(x) for x in dense]
    seconds = time.perf_counter() - t0
    report = (check_slotted_run(arrival, size, dur, cap, T, start, server, steps[0], steps[1])
              if check else None)
    rate = workload.head(T).work_rate()  # the simulated window's arrivals, not the horizon's
    return SimulationResult(
        policy=policy.name, slots=T, warmup=int(W), queue_length_steps=steps[0],
        queued_resource_steps=steps[1], busy_resource_steps=steps[2], arrival=arrival,
        start=start, server=server,
        occupancy=area / (T * cap), half_full_fraction=half / T, work_rate=rate,
        seconds=seconds, invariants=report, params={"policy": repr(policy)},
        departures=int(np.count_nonzero((start >= 0) & (start + dur >= W) & (start + dur < T))),
    )


def _run_python(policy: SlottedPolicy, arrival, size, dur, cap, T, eps, start, server, qlen,
                qres, busy, half, area) -> None:
    st = SlotState(size, arrival, cap, eps)
    policy.reset(size, cap)
    ends: dict[int, list[int]] = {}
    n = arrival.shape[0]
    nxt = 0
    in_service = 0.0
    for t in range(T):
        st.t = t
        st.new_jobs = []
        while nxt < n and arrival[nxt] == t:
            st._queue[nxt] = None
            st.new_jobs.append(nxt)
            nxt += 1
        policy.schedule(st)
        for j, l in st._placed:
            start[j], server[j] = t, l
            in_service += float(size[j])
            e = t + int(dur[j]) - 1
            if e < T:
                ends.setdefault(e, []).append(j)
        st._placed = []
        qlen[t] = len(st._queue)
        qres[t] = math.fsum(float(size[j]) for j in st._queue)
        busy[t] = math.fsum(st.load)
        for l in range(st.servers):
            area[l] += st.load[l]
            if st.load[l] >= cap[l] / 2.0 - eps:
                half[l] += 1
        dep: set[int] = set()
        for j in sorted(ends.pop(t, [])):
            l = int(server[j])
            st.load[l] -= float(size[j])
            st._on[l].discard(j)
            if not st._on[l]:
                st.load[l] = 0.0
            dep.add(l)
        st.departed = sorted(dep)
