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
from policies.continuous.bestfit import BestFit
from policies.continuous.engine import (
    DEFAULT_SAMPLES,
    MAX_TICKS,
    _check_inputs,
    build_result,
    clock_rate_checked,
    scheduling_rng,
)
from policies.continuous.policy import ContinuousPolicy
from policies.continuous.result import ContinuousResult
from policies.continuous.rms import RMS
from policies.continuous.state import ContinuousState
from policies.job_types import JobTypes
from policies.workload import Workload
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


def _slots(types: JobTypes, cluster: Cluster) -> int:
    """Room for the jobs in service: per server, the most jobs that fit it, plus one."""
    from policies.continuous.rms import max_jobs_per_server

    caps, which = np.unique(cluster.capacity, axis=0, return_inverse=True)
    most = np.array([max_jobs_per_server(types.sizes, cap[None, :] * (1.0 + FEASIBILITY_RTOL))
                     for cap in caps])
    return int(most[np.ravel(which)].sum()) + cluster.servers + 1


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
    max_ticks: float = MAX_TICKS,
) -> ContinuousResult:
    """:func:`policies.continuous.simulate_continuous` for RMS and Best-Fit in numba
    (same arguments, same result; see :mod:`policies.continuous._kernel`)."""
    if not supports_compiled(policy):
        raise ValueError(f"the compiled engine runs RMS and Best-Fit only, not "
                         f"{type(policy).__name__} ({getattr(policy, 'name', '?')}); use "
                         f"policies.simulate_continuous")
    T, w0 = _check_inputs(policy, workload, cluster, types, horizon, warmup, samples)
    t0 = time.perf_counter()
    n = int(np.searchsorted(workload.arrival, T, side="left"))
    arrival = np.ascontiguousarray(workload.arrival[:n], dtype=np.float64)
    jt = np.ascontiguousarray(workload.job_type[:n], dtype=np.int64)  # type: ignore[index]
    service = np.ascontiguousarray(workload.service[:n], dtype=np.float64)
    rng = scheduling_rng(seed)
    rows = cluster.servers if policy.distributed else 1
    # the policy binds to an empty state, exactly as in the Python engine
    empty = ContinuousState(types, cluster, jt[:0], service[:0], arrival[:0],
                            distributed=policy.distributed, rng=rng)
    policy.bind(empty)
    rate = clock_rate_checked(policy, empty, T, max_ticks)
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
    (status, start, server, finish, q_samples, acc_q, acc_dummy, acc_busy, ticks,
     dummy_placements, served, events, dlog, open_log, open_seq) = K.run_kernel(*(
        np.ascontiguousarray(types.sizes, dtype=np.float64), capacity,
        capacity * (1.0 + FEASIBILITY_RTOL), arrival, jt, service, code, mean, par,
        float(T), float(w0), int(samples), int(rows), *_typed(args),
        int(_slots(types, cluster)), rng))
    open_log = open_log[np.argsort(open_seq, kind="stable")]  # placement order
    if status == K.OUT_OF_SLOTS:
        raise RuntimeError("compiled engine: more jobs in service than the servers can "
                           "hold (an internal error; run with engine='python')")
    return build_result(
        policy, workload, cluster, types, seed=seed, horizon=T, warmup=w0, samples=samples,
        queue_by_type=q_samples, acc_q=acc_q, acc_dummy=acc_dummy, acc_busy=acc_busy,
        arrival=arrival, job_type=jt, start=start, server=server, finish=finish,
        ticks=ticks, dummy_placements=dummy_placements,
        dummy_log=np.vstack([dlog, open_log]), events=events, served=served, started=t0,
        check=check, engine="compiled")
