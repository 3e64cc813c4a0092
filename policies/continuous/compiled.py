"""The compiled PG18 engine: RMS (every variant) and Best-Fit in numba.

:func:`simulate_compiled` takes the arguments of
:func:`policies.continuous.simulate_continuous` and gives the same result, trajectory
for trajectory (same start, server and finish of every job, same ticks, dummies and
events), tens of times faster; ``simulate_continuous`` calls it by itself for the
policies :func:`supports_compiled` accepts. Other policies (MaxWeight, a user's
subclass) run on the plain-Python engine.
"""

from __future__ import annotations

import time

import numpy as np

from policies.cluster import Cluster
from policies.continuous import _kernel as K
from policies.continuous import footprint
from policies.continuous.bestfit import BestFit
from policies.continuous.engine import (
    DEFAULT_SAMPLES,
    build_result,
    clock_rate_checked,
    plan_run,
    scheduling_rng,
)
from policies.continuous.policy import ContinuousPolicy
from policies.continuous.result import ContinuousResult
from policies.continuous.rms import RMS
from policies.continuous.state import ContinuousState
from policies.job_types import JobTypes
from policies.workload import Workload
from theory.budgets import MEMORY_BUDGET
from theory.numbers import FEASIBILITY_RTOL

__all__ = ["simulate_compiled", "supports_compiled"]

_SAMPLING = {"uniform": K.SAMPLE_UNIFORM, "random-fit": K.SAMPLE_RANDOM_FIT,
             "best-fit": K.SAMPLE_BEST_FIT}
_ROUTING = {None: K.ROUTE_CENTRAL, "jsq": K.ROUTE_JSQ, "power-of-two": K.ROUTE_PO2}
_ORDER = {"type": K.ORDER_TYPE, "arrival": K.ORDER_ARRIVAL, "largest": K.ORDER_LARGEST}


def supports_compiled(policy: object) -> bool:
    """True for the built-in RMS and Best-Fit policies (exactly these classes: a
    subclass may override a hook the kernel does not call)."""
    return type(policy) in (RMS, BestFit)


def _slots(types: JobTypes, cluster: Cluster, jobs: int, ticks: float) -> tuple[int, int]:
    """Room for the jobs in service: (enough for any run, enough for this run but for
    a tick count beyond a high quantile). Any run: per server, an upper bound of the
    jobs that fit it, sum_j k_j <= R (1 + rtol) / min_j sum_r s_jr / c_r (a job uses at
    least that share of the server's R resources summed), plus one. This run: every job
    in service is a real job or a dummy placed at a tick (a departure or an arrival
    replaces one job by another), so at most ``jobs`` plus the ticks, with the ticks
    taken as mean + 6 standard deviations + 10 of their Poisson count ``ticks``."""
    from policies.footprint import expected_jobs_bound

    caps, counts = np.unique(cluster.capacity, axis=0, return_counts=True)
    share = (types.sizes[None, :, :] / caps[:, None, :]).sum(axis=2).min(axis=1)
    per_class = np.floor(cluster.resources * (1.0 + FEASIBILITY_RTOL) / share) + 1.0
    full = float(per_class @ counts) + cluster.servers + 1
    run = jobs + expected_jobs_bound(ticks, 1.0) + cluster.servers + 1
    return int(min(full, 2.0**62)), int(min(full, run, 2.0**62))


#: the Python type of each policy argument of the kernel (kind, cum_rates, total_rate,
#: f_code, b, floor, fixed_weights, has_fixed, sampling, adaptive, replace_dummies,
#: routing, bf_order): one compiled specialisation whatever types the policy holds
_ARG_TYPES = (int, None, float, int, float, float, None, bool, int, bool, bool, int, int)


def _typed(args: tuple) -> tuple:
    return tuple(a if t is None else t(a) for t, a in zip(_ARG_TYPES, args, strict=True))


def simulate_compiled(
    policy: ContinuousPolicy,
    workload: Workload,
    cluster: Cluster,
    types: JobTypes,
    *,
    horizon: float | None = None,
    warmup: float | None = None,
    seed: int | np.random.Generator | None = 0,
    samples: int = DEFAULT_SAMPLES,
    check: bool = True,
    max_ticks: float | None = None,
    memory_budget: float = MEMORY_BUDGET,
) -> ContinuousResult:
    """:func:`policies.continuous.simulate_continuous` for RMS and Best-Fit in numba
    (same arguments, same result; see :mod:`policies.continuous._kernel`)."""
    if not supports_compiled(policy):
        raise ValueError(f"the compiled engine runs the built-in RMS and Best-Fit "
                         f"policies only, not {getattr(policy, 'name', 'this policy')}: use "
                         f"the engine 'python' (or 'auto', which picks it)")
    plan = plan_run(policy, workload, cluster, types, horizon, warmup, samples, check,
                    max_ticks, memory_budget)
    T, w0, samples = plan.horizon, plan.warmup, plan.samples
    t0 = time.perf_counter()
    n = plan.jobs
    arrival = np.ascontiguousarray(workload.arrival[:n], dtype=np.float64)
    jt = np.ascontiguousarray(workload.job_type[:n], dtype=np.int64)  # type: ignore[index]
    service = np.ascontiguousarray(workload.service[:n], dtype=np.float64)
    rng = scheduling_rng(seed)
    # the policy binds to an empty state, exactly as in the Python engine
    empty = ContinuousState(types, cluster, jt[:0], service[:0], arrival[:0],
                            distributed=policy.distributed, rng=rng)
    policy.bind(empty)
    rate = clock_rate_checked(policy, empty, T, plan.max_ticks)
    full, slots = _slots(types, cluster, n, rate * T)
    used = plan.static_bytes + footprint.SLOT_BYTES * slots
    footprint.check_memory(used, plan.memory_budget, what=plan.what(policy, cluster)
                           + f" with {slots:,} records of jobs in service")
    code, mean, par = types.law_arrays()
    if isinstance(policy, RMS):
        fixed = policy.fixed_weights is not None
        args = (K.KIND_RMS, np.asarray(policy._cum, dtype=np.float64), rate,
                policy.f_code, policy.b, policy.epsilon / (8.0 * policy.M),
                np.asarray(policy.fixed_weights if fixed else np.zeros(types.J), np.float64),
                fixed, _SAMPLING[policy.sampling], policy.adaptive, policy.replace_dummies,
                _ROUTING[policy.routing], K.ORDER_TYPE)
    else:
        args = (K.KIND_BESTFIT, np.zeros(types.J), 0.0, 0, 0.0, 0.0, np.zeros(types.J),
                False, K.SAMPLE_UNIFORM, False, False, K.ROUTE_CENTRAL,
                _ORDER[policy.order])  # type: ignore[attr-defined]
    capacity = np.ascontiguousarray(cluster.capacity, dtype=np.float64)
    before = rng.bit_generator.state
    while True:
        most_dummies = footprint.dummy_allowance(plan.memory_budget, used, types.resources)
        (status, start, server, finish, q_samples, acc_q, acc_dummy, acc_busy, ticks,
         dummy_placements, served, events, dlog, open_log, open_seq) = K.run_kernel(*(
            np.ascontiguousarray(types.sizes, dtype=np.float64), capacity,
            capacity * (1.0 + FEASIBILITY_RTOL), arrival, jt, service, code, mean, par,
            float(T), float(w0), int(samples), int(plan.rows), *_typed(args), int(slots),
            int(most_dummies), rng))
        if status != K.OUT_OF_SLOTS or slots >= full:
            break
        # more ticks than their high quantile: run again, from the same random state,
        # with room for any run
        slots = full
        used = plan.static_bytes + footprint.SLOT_BYTES * slots
        footprint.check_memory(used, plan.memory_budget, what=plan.what(policy, cluster)
                               + f" with {slots:,} records of jobs in service")
        rng.bit_generator.state = before
    if status == K.TOO_MANY_DUMMIES:
        raise footprint.dummy_budget_error(policy.name, T, most_dummies, used,
                                           plan.memory_budget, types.resources)
    if status == K.OUT_OF_SLOTS:
        raise RuntimeError("compiled engine: more jobs in service than the servers can "
                           "hold (an internal error; run with engine='python')")
    open_log = open_log[np.argsort(open_seq, kind="stable")]  # placement order
    return build_result(
        policy, workload, cluster, types, seed=seed, horizon=T, warmup=w0, samples=samples,
        queue_by_type=q_samples, acc_q=acc_q, acc_dummy=acc_dummy, acc_busy=acc_busy,
        arrival=arrival, job_type=jt, start=start, server=server, finish=finish,
        ticks=ticks, dummy_placements=dummy_placements,
        dummy_log=np.vstack([dlog, open_log]), events=events, served=served, started=t0,
        check=plan.check, engine="compiled")
