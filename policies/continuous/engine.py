"""The event loop of the PG18 continuous-time model (plain Python, any policy).

Exact in continuous time: the next event is the earliest of the next arrival (from
the workload), the next departure (a heap of the jobs in service, real and dummy)
and the next tick of the policy's clock (Poisson of rate ``policy.clock_rate``; the
gap is ``-log(1 - u) / r`` with u drawn when the previous tick is handled, the first
one at the start). Ties at equal times go departures, then arrivals, then ticks.
Deterministic for a seed: every random number of the run comes from one
``numpy.random.Generator`` (see :func:`theory.seeding.scheduling_rng`) in event order.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from policies.continuous import codes, footprint
from policies.continuous.policy import ContinuousKernelSpec, ContinuousPolicy
from policies.continuous.result import ContinuousResult
from policies.continuous.state import ContinuousState
from policies.invariants import check_continuous_run
from policies.job_types import JobTypes
from policies.policy import require_family
from policies.workload import Workload
from theory.budgets import MEMORY_BUDGET, check_budget
from theory.cluster import Cluster
from theory.numbers import FEASIBILITY_RTOL, real_float
from theory.progress import Progress
from theory.seeding import scheduling_rng

__all__ = ["simulate_continuous", "build_result", "DEFAULT_SAMPLES",
           "ENGINES", "MAX_TICKS", "clock_rate_checked", "RunPlan", "plan_run"]

#: samples of the queue series per run (the stability detector judges them)
DEFAULT_SAMPLES = 4000
#: the engines :func:`simulate_continuous` can use
ENGINES = ("auto", "python", "compiled")
#: clock ticks a run may expect before it is refused (about 3 minutes compiled)
MAX_TICKS = 1_000_000_000


def clock_rate_checked(policy: ContinuousPolicy, state: ContinuousState, horizon: float,
                       max_ticks: float | None) -> float:
    """The policy's total clock rate, refused when not finite and non-negative or when
    rate x horizon expected ticks exceed ``max_ticks`` (before the run starts; ``None``:
    :data:`MAX_TICKS`). A policy without a clock (rate 0: Best-Fit, MaxWeight) makes no
    ticks, so a ``max_ticks`` given for it is refused rather than ignored."""
    rate = float(policy.clock_rate(state))
    if not (math.isfinite(rate) and rate >= 0):
        raise ValueError(f"the clock rate must be finite and non-negative, got {rate!r}")
    if rate == 0 and max_ticks is not None:
        raise ValueError(f"max_ticks bounds the clock ticks of policies with clocks (RMS "
                         f"and its variants); {policy.name} has no clock and makes no ticks: "
                         f"leave max_ticks out")
    check_budget(rate * horizon, MAX_TICKS if max_ticks is None else max_ticks,
                 what=f"{policy.name} with clocks of total rate "
                 f"{rate:g} over time {horizon:g}", option="max_ticks", unit="clock ticks",
                 hint="or lower the clock rates or the time")
    return rate


def _max_ticks(x: object) -> float | None:
    if x is None:
        return None
    v = real_float(x, "max_ticks", "a positive number of clock ticks")
    if not v > 0:
        raise ValueError(f"max_ticks must be a positive number of clock ticks, got {x!r}")
    return v


@dataclass(frozen=True)
class RunPlan:
    """What :func:`plan_run` checked: the horizon, warm-up and samples of the run, its
    jobs (arrivals before the horizon), budgets, and the bytes known before it starts
    (:mod:`policies.continuous.footprint`)."""

    horizon: float
    warmup: float
    samples: int
    jobs: int
    check: bool
    max_ticks: float | None
    memory_budget: float
    rows: int
    static_bytes: float

    def what(self, policy: ContinuousPolicy, cluster: Cluster) -> str:
        return (f"simulating {policy.name} on {cluster.servers:,} server(s) over time "
                f"{self.horizon:g} ({self.jobs:,} jobs, {self.samples:,} queue samples)")


def plan_run(policy: object, workload: object, cluster: object, types: object,
             horizon: object, warmup: object, samples: object, check: object,
             max_ticks: object, memory_budget: object) -> RunPlan:
    """Every argument of :func:`simulate_continuous` checked, and the run's memory
    (jobs, samples, queues, servers) refused above ``memory_budget`` before anything is
    allocated."""
    require_family(policy, "pg18-continuous", "policies.make_policy('rms') or a "
                   "policies.ContinuousPolicy subclass")
    assert isinstance(policy, ContinuousPolicy)
    if not isinstance(workload, Workload):
        raise TypeError("workload must be a policies.Workload (policies.poisson_type_workload)")
    if not isinstance(types, JobTypes):
        raise TypeError("types must be a policies.JobTypes")
    types.check_cluster(cluster)  # type: ignore[arg-type]
    assert isinstance(cluster, Cluster)
    if workload.job_type is None:
        raise ValueError("the workload has no job types (make it with "
                         "policies.poisson_type_workload or give job_type)")
    T = workload.horizon if horizon is None else real_float(horizon, "horizon",
                                                        "a positive finite time")
    if not (math.isfinite(T) and T > 0):
        raise ValueError(f"horizon must be a positive finite time, got {horizon!r}")
    if T > workload.horizon:
        raise ValueError(f"horizon {T:g} exceeds the workload's {workload.horizon:g}")
    w = T / 5 if warmup is None else real_float(warmup, "warmup", f"a time in [0, {T:g})")
    if not (math.isfinite(w) and 0 <= w < T):
        raise ValueError(f"warmup must lie in [0, horizon) = [0, {T:g}), got {warmup!r}")
    if isinstance(samples, bool | np.bool_) or not isinstance(samples, int | np.integer) \
            or samples < 2:
        raise ValueError(f"samples must be an integer >= 2, got {samples!r}")
    if not isinstance(check, bool | np.bool_):
        raise ValueError(f"check must be True or False, got {check!r}")
    ticks = _max_ticks(max_ticks)
    budget = footprint.check_memory_budget(memory_budget)
    n = int(np.searchsorted(workload.arrival, T, side="left"))
    rows = cluster.servers if policy.distributed else 1
    need = footprint.run_bytes(jobs=n, samples=float(samples), types=types.J,
                               resources=types.resources, servers=cluster.servers, rows=rows)
    plan = RunPlan(T, w, int(samples), n, bool(check), ticks, budget, rows, need)
    footprint.check_memory(need, budget, what=plan.what(policy, cluster))
    if workload.jobs and int(workload.job_type.max()) >= types.J:
        raise ValueError(f"the workload has a job of type {int(workload.job_type.max())} "
                         f"but only {types.J} types are defined")
    if workload.jobs and not np.allclose(workload.demand.reshape(workload.jobs, -1),
                                         types.sizes[workload.job_type]):
        raise ValueError("the workload's demands disagree with the job types' sizes")
    return plan


def simulate_continuous(
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
    engine: str = "auto",
    max_ticks: float | None = None,
    memory_budget: float = MEMORY_BUDGET,
) -> ContinuousResult:
    """Run ``policy`` on ``workload`` (PG18 Sec. II model) until ``horizon``.

    ``types`` gives the demand vectors and service laws (the service of dummy jobs is
    drawn from them; real jobs bring theirs in the workload). The queue is sampled
    ``samples`` times at equal spacing; time averages and the stability verdict use
    [``warmup``, ``horizon``] (default warm-up: a fifth of the horizon). With
    ``check`` the invariants are re-checked from the record. ``engine``: ``"auto"``
    runs a policy whose ``compiled_spec`` describes it (the built-in RMS and Best-Fit,
    not a subclass that redefines a hook) on the numba kernel
    (:mod:`policies.continuous._kernel`, the same trajectory) and everything else in
    plain Python; ``"python"`` always in Python; ``"compiled"`` refuses a policy
    without a compiled path.

    Budgets (:class:`theory.budgets.BudgetExceeded`, before the run starts):
    ``max_ticks`` (default :data:`MAX_TICKS`) bounds the expected clock ticks, rate x
    horizon, of a policy with clocks; a policy without a clock refuses it.
    ``memory_budget`` bounds the bytes of the run (:mod:`policies.continuous.footprint`:
    jobs, samples, queues, the compiled engine's records); the dummy jobs, known only as
    the run goes, stop it when their record would pass the budget.

    Parameters
    ----------
    policy : ContinuousPolicy
        The policy (a PG18-family policy: :func:`policies.make_policy` ``('rms')``, a
        built-in class, or a user's subclass).
    workload : Workload
        The jobs, with ``job_type`` (from :func:`policies.poisson_type_workload` or
        :func:`policies.google2011_typed_workload`); their demands must equal the
        types' sizes.
    cluster : theory.Cluster
        The servers; every type must fit one.
    types : JobTypes
        The job types: demand vectors, and the service laws of dummy jobs.
    horizon : float or None, default None
        End of the run, at most the workload's horizon (None: the workload's); jobs
        arriving from then on are not simulated.
    warmup : float or None, default None
        Start of the window of the time averages and the verdict, in [0, horizon)
        (None: horizon / 5).
    seed : int, numpy.random.Generator or None, default 0
        Seed of the scheduling stream, :func:`theory.seeding.scheduling_rng` (a
        Generator is used as it is).
    samples : int, default :data:`DEFAULT_SAMPLES`
        Queue samples at equal spacing over [0, horizon), at least 2.
    check : bool, default True
        Re-check the invariants from the record
        (:func:`policies.check_continuous_run`).
    engine : {'auto', 'python', 'compiled'}, default 'auto'
        Which event loop runs the policy (same trajectory in both).
    max_ticks : float or None, default None
        Most expected clock ticks, rate x horizon (None: :data:`MAX_TICKS`); refused for
        a policy without a clock.
    memory_budget : float, default :data:`theory.budgets.MEMORY_BUDGET`
        Bytes the run may use.

    Returns
    -------
    ContinuousResult
        The sampled queues, time averages, per-job record, ticks and dummy jobs, with
        the invariant report (None when ``check`` is False).

    Raises
    ------
    TypeError
        ``policy`` is not a PG18-family policy; ``workload`` is not a
        :class:`Workload`, ``types`` not a :class:`JobTypes` or ``cluster`` not a
        cluster.
    ValueError
        An unknown ``engine``, or ``'compiled'`` for a policy without a compiled path;
        a ``horizon`` that is not positive and finite or exceeds the workload's; a
        ``warmup`` outside [0, horizon); ``samples`` not an integer >= 2; ``check`` not
        a bool; ``max_ticks`` not positive, or given for a policy without a clock; a
        workload without job types, with a type beyond ``types`` or with demands
        other than the types' sizes; a type that fits no server; a policy option that
        does not match the types (RMS's ``clock_rates`` or ``weights``).
    theory.budgets.BudgetExceeded
        The expected clock ticks exceed ``max_ticks``, or the run's memory (with the
        dummy jobs as they come) exceeds ``memory_budget``.
    RuntimeError
        A user's policy placed a job where it does not fit, or from an empty queue.

    References
    ----------
    PG18, Sec. II (the continuous-time model) and Sec. IV, Algorithms 1 and 2 (the
    events a policy acts on); docs/design.md, sections Simulation (The four families)
    and Randomness and reproducibility.

    Examples
    --------
    >>> from policies import RMS, JobTypes, poisson_type_workload, simulate_continuous
    >>> from theory import Cluster
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> w = poisson_type_workload(types, [4.0, 1.6], 30.0, seed=1)
    >>> a = simulate_continuous(RMS(), w, cluster, types, seed=3, engine="python")
    >>> b = simulate_continuous(RMS(), w, cluster, types, seed=3, engine="python")
    >>> a.started, a.ticks, a.mean_queue == b.mean_queue  # a seed fixes the run
    (147, 128, True)
    >>> c = simulate_continuous(RMS(), w, cluster, types, horizon=10.0, engine="python")
    >>> c.jobs, c.started
    (56, 40)
    >>> simulate_continuous(RMS(), w, cluster, types, max_ticks=50, engine="python")
    Traceback (most recent call last):
    ...
    theory.budgets.BudgetExceeded: rms with clocks of total rate 4 over time 30 would need 120 ...
    """
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    plan = plan_run(policy, workload, cluster, types, horizon, warmup, samples, check,
                    max_ticks, memory_budget)
    spec = None if engine == "python" else policy.compiled_spec(types, cluster)
    if spec is not None:
        return _run_compiled(policy, spec, workload, cluster, types, plan, seed)
    if engine == "compiled":
        raise ValueError(f"the compiled engine runs the built-in RMS and Best-Fit policies "
                         f"only (those with a compiled_spec), not {policy.name}: use the "
                         f"engine 'python' (or 'auto', which picks it)")
    T, w0, samples = plan.horizon, plan.warmup, plan.samples
    t0 = time.perf_counter()
    n = plan.jobs
    arrival = np.asarray(workload.arrival[:n], dtype=np.float64)
    jt = workload.job_type[:n]  # type: ignore[index]
    rng = scheduling_rng(seed)
    st = ContinuousState(types, cluster, jt, workload.service[:n], arrival,
                         distributed=policy.distributed, rng=rng)
    policy.bind(st)
    rate = clock_rate_checked(policy, st, T, plan.max_ticks)
    most_dummies = footprint.dummy_allowance(plan.memory_budget, plan.static_bytes,
                                             types.resources)
    dt = T / samples
    grid = np.arange(samples) * dt
    q_samples = np.zeros((samples, st.J), dtype=np.int64)
    acc_q = np.zeros(st.J)
    acc_dummy = np.zeros(cluster.resources)
    acc_busy = np.zeros(cluster.resources)
    next_tick = st.t + (-math.log1p(-rng.random()) / rate) if rate > 0 else math.inf
    i, k, events, prev = 0, 0, 0, 0.0

    def advance(to: float) -> None:
        nonlocal k
        lo = max(prev, w0)
        if to > lo:
            acc_q[:] += st.queue_total * (to - lo)
            acc_dummy[:] += st.dummy_load * (to - lo)
            acc_busy[:] += (st.load.sum(axis=0) - st.dummy_load) * (to - lo)
        while k < samples and grid[k] < to:
            q_samples[k] = st.queue_total
            k += 1

    progress = Progress(f"simulate {policy.name}", T, unit="time")
    while True:
        if events % 4096 == 0:
            progress.update(st.t)
        if st.dummy_placements > most_dummies:
            raise footprint.dummy_budget_error(policy.name, T, most_dummies,
                                               plan.static_bytes, plan.memory_budget,
                                               types.resources)
        td = st.next_departure()
        ta = arrival[i] if i < n else math.inf
        t = min(td, ta, next_tick)
        if t >= T:
            break
        advance(t)
        st.t = prev = t
        events += 1
        if td <= ta and td <= next_tick:
            server, j, job, row = st.pop_departure()
            policy.on_departure(st, server, j, job, row)
        elif ta <= next_tick:
            j = int(jt[i])
            row = policy.route(st, j)
            st.enqueue(i, row)
            policy.on_arrival(st, i, j, row)
            i += 1
        else:
            st.ticks += 1
            policy.on_tick(st)
            next_tick = t + (-math.log1p(-rng.random()) / rate)
    advance(T)
    progress.update(T)
    open_dummies = [(start, T, srv, j) for rec, start in st._dummy_start.items()
                    for (srv, j, _job) in [st._records[rec]]]
    dummy_log = np.array(st.dummy_log + open_dummies, dtype=np.float64).reshape(-1, 4)
    return build_result(
        policy, workload, cluster, types, seed=seed, horizon=T, warmup=w0, samples=samples,
        queue_by_type=q_samples, acc_q=acc_q, acc_dummy=acc_dummy, acc_busy=acc_busy,
        arrival=arrival, job_type=np.asarray(jt), start=st.start, server=st.server,
        finish=st.finish, ticks=st.ticks, dummy_placements=st.dummy_placements,
        dummy_log=dummy_log, events=events, served=st.served, started=t0, check=plan.check,
        engine="python")


def _run_compiled(policy: ContinuousPolicy, spec: ContinuousKernelSpec, workload: Workload,
                  cluster: Cluster, types: JobTypes, plan: RunPlan,
                  seed: int | np.random.Generator | None) -> ContinuousResult:
    """The run on the numba kernel (:mod:`policies.continuous._kernel`): the Python
    loop's trajectory, with ``spec`` in place of the policy's hooks."""
    from policies.continuous import _kernel as K  # numba: imported when a run needs it

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
    fixed = spec.fixed_weights
    args = (spec.kind, np.asarray(spec.cum_rates, dtype=np.float64), rate, spec.f_code,
            spec.b, spec.floor,
            np.asarray(np.zeros(types.J) if fixed is None else fixed, np.float64),
            fixed is not None, spec.sampling, spec.adaptive, spec.replace_dummies,
            spec.routing, spec.order)
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
        if status != codes.OUT_OF_SLOTS or slots >= full:
            break
        # more ticks than their high quantile: run again, from the same random state,
        # with room for any run
        slots = full
        used = plan.static_bytes + footprint.SLOT_BYTES * slots
        footprint.check_memory(used, plan.memory_budget, what=plan.what(policy, cluster)
                               + f" with {slots:,} records of jobs in service")
        rng.bit_generator.state = before
    if status == codes.TOO_MANY_DUMMIES:
        raise footprint.dummy_budget_error(policy.name, T, most_dummies, used,
                                           plan.memory_budget, types.resources)
    if status == codes.OUT_OF_SLOTS:
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


def build_result(policy: ContinuousPolicy, workload: Workload, cluster: Cluster,
                 types: JobTypes, *, seed: int | np.random.Generator | None, horizon: float,
                 warmup: float, samples: int, queue_by_type: np.ndarray,
                 acc_q: np.ndarray, acc_dummy: np.ndarray, acc_busy: np.ndarray,
                 arrival: np.ndarray, job_type: np.ndarray, start: np.ndarray,
                 server: np.ndarray, finish: np.ndarray, ticks: int, dummy_placements: int,
                 dummy_log: np.ndarray, events: int, served: int, started: float,
                 check: bool, engine: str) -> ContinuousResult:
    """The :class:`ContinuousResult` of a finished run (both engines): time averages
    from the accumulated integrals over [warmup, horizon], and the invariants
    re-checked from the record when ``check``; ``engine`` names the engine in
    ``params``."""
    T, w0 = horizon, warmup
    span = T - w0
    cap_total = cluster.capacity.sum(axis=0)
    params = {"engine": engine, **policy.parameters()}
    n = arrival.shape[0]
    res = ContinuousResult(
        policy=policy.name, horizon=T, warmup=w0, sample_interval=T / samples,
        sample_time=np.arange(samples) * (T / samples),
        queue=queue_by_type.sum(axis=1), queue_by_type=queue_by_type,
        mean_queue=float(acc_q.sum() / span), mean_queue_by_type=acc_q / span,
        dummy_fraction=acc_dummy / span / cap_total, busy_fraction=acc_busy / span / cap_total,
        arrival=arrival, job_type=job_type, start=start, server=server, finish=finish,
        ticks=int(ticks), dummy_placements=int(dummy_placements), dummy_log=dummy_log,
        arrival_rate=float(workload.arrival_rate or n / T), events=int(events),
        seconds=time.perf_counter() - started, params=params,
        seed=seed if not isinstance(seed, np.random.Generator) else "generator")
    if not check:
        return res
    # the checker reads the record of the result it reports on: the result is built
    # again with its report, never changed
    return replace(res, invariants=check_continuous_run(res, types, cluster,
                                                        workload.service[:n], served=served))
