"""Offline XLL21 programs on a finite job set: P2 (fractional flowtime) and P1 (l_k flowtime).

Time-indexed over slots t = 1..H (XLL21 II-A: job j is served in slots a_j + 1, ...;
completing in slot c_j it has flowtime c_j - a_j); array column t - 1 holds slot t.
Variables are integer cores u_j(t) (u_j^i(t) per machine with memory), rates
x = u / d_j (eq. (3)). Each program is built once as a
:class:`capacity.programs.LinearProgram` and solved by ``method=`` ("highs", "cvxpy").

Without memory (z = 1, XLL21 Sec. IV) the machines are pooled: any integer u_j(t) with
sum_j u_j(t) <= C = sum_i C_i and u_j(t) <= d_j is split into integer u_j^i(t) by
filling the machines one after another (sum_i u_j^i(t) = u_j(t) <= d_j keeps (4d)), so
pooling loses nothing; this is XLL21's y_j(t) = sum_i x_j^i(t) of IV-A.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from capacity.programs import LinearProgram, ProgramBuilder, ProgramError, ProgramResult, solve
from theory.budgets import check_budget
from theory.fractional_flowtime import (
    check_k,
    check_k_horizon,
    completion_slots,
    fractional_weight,
)
from theory.job_sets import JobSet, Machines, check_fits, require_integers

__all__ = [
    "MAX_VARIABLES",
    "offline_horizon",
    "p1_optimum",
    "p1_program",
    "p2_optimum",
    "p2_program",
]

#: Variables an offline program may have before it refuses (keyword ``max_variables``).
MAX_VARIABLES = 2_000_000


def _check_inputs(jobs: JobSet, machines: Machines, memory: bool) -> None:
    if not isinstance(jobs, JobSet) or not isinstance(machines, Machines):
        raise ValueError("expected a theory.JobSet and a theory.Machines")
    require_integers(jobs, machines, what="XLL21's programs")
    if np.any(jobs.demand[:, 0] < 1):
        j = int(np.argmax(jobs.demand[:, 0] < 1))
        raise ValueError(f"XLL21's programs need d_j >= 1 core; job {jobs.ids[j]!r} demands "
                         f"{jobs.demand[j, 0]:g} (rates are u_j / d_j)")
    if memory:
        if jobs.resources < 2 or machines.resources < 2:
            raise ValueError("memory=True needs two resources (cores, memory) in the jobs' "
                             f"demands ({jobs.resources}) and the machines' capacities "
                             f"({machines.resources})")
        check_fits(jobs, machines, resources=2)
    else:
        check_fits(jobs, machines, resources=1)


def offline_horizon(jobs: JobSet, machines: Machines, *, memory: bool = False) -> int:
    """Slots H after which no optimal schedule of P1 or P2 does any work (XLL21 II).

    With A = max_j a_j, V = sum_j p_j d_j, C = sum_i C_i, P = max_j p_j:

    * without memory (z = 1): H = A + ceil(V / C) + P;
    * with memory: H = A + V + P (safe but loose).

    Proof (z = 1). Take an optimal schedule of P2 (of P1: among the optimal ones, one
    minimising sum_t t sum_j u_j(t)) on any horizon, and a slot t > A in which some job j
    still has work in a later slot s while u_j(t) < d_j and a core is free. Moving one
    core-unit (for the LP: a small amount) of j from s to t keeps (4b)-(4f); it lowers
    the P2 cost by (w_j(s) - w_j(t)) / d_j > 0, as the weight of eq. (5) strictly
    increases in t for k >= 1, and it never raises c_j, so P1 is not raised while
    sum_t t u(t) falls: a contradiction. So every slot t in (A, L], L the last busy
    slot, either is full (processes C core-units) or serves every job with work after t
    at full rate d_j. The job with work in slot L has work after every earlier slot, so
    it runs at full rate in every non-full slot of (A, L]: at most P of them. Full slots
    are at most V / C. Hence L <= A + ceil(V / C) + P.

    With memory, a slot t in (A, L) in which nothing runs could host one core of any job
    with later work on a machine it fits (``check_fits``), by the same exchange; so every
    slot of (A, L] processes at least one core-unit and L <= A + V (+ P, kept as margin).
    The bound is far from tight: the MILP grows with it, pass ``horizon=`` when a
    shorter one is known to be feasible and long enough.
    """
    _check_inputs(jobs, machines, memory)
    A = int(jobs.arrival.max())
    P = int(jobs.processing.max())
    V = int(np.sum(jobs.processing * jobs.demand[:, 0]))
    if memory:
        return A + V + P
    C = int(machines.capacity[:, 0].sum())
    return A + -(-V // C) + P


def _horizon(jobs: JobSet, machines: Machines, memory: bool, horizon: object) -> int:
    if horizon is None:
        return offline_horizon(jobs, machines, memory=memory)
    if isinstance(horizon, bool) or not isinstance(horizon, int | np.integer | float):
        raise ValueError(f"horizon must be a whole number of slots, got {horizon!r}")
    if not (math.isfinite(horizon) and horizon == int(horizon) and horizon >= 1):
        raise ValueError(f"horizon must be a whole number of slots >= 1, got {horizon!r}")
    H = int(horizon)
    need = int(np.max(jobs.arrival + jobs.processing))
    if H < need:
        j = int(np.argmax(jobs.arrival + jobs.processing))
        raise ValueError(f"horizon too short: {H} slots, but job {jobs.ids[j]!r} arriving at "
                         f"{jobs.arrival[j]:g} needs {jobs.processing[j]:g} slots, so at "
                         f"least {need}")
    return H


def _fits_memory(jobs: JobSet, machines: Machines) -> np.ndarray:
    """(N, M): job j's memory fits machine i (z_j^i may be 1)."""
    return np.asarray(jobs.demand[:, 1][:, None] <= machines.capacity[:, 1][None, :])


def _budget(jobs: JobSet, machines: Machines, H: int, memory: bool, completion: bool,
            max_variables: int, what: str) -> int:
    slots = H - jobs.arrival  # variables per job and machine (slots a_j + 1 .. H)
    per = _fits_memory(jobs, machines).sum(axis=1) * 2 if memory else np.ones(jobs.n)
    need = float(np.sum(slots * per)) + (float(np.sum(slots)) if completion else 0.0)
    check_budget(need, max_variables, what=f"{what} on {jobs.n} jobs x {H} slots",
                 option="max_variables", unit="variables",
                 hint="fewer jobs or a shorter horizon")
    return int(need)


def _cores(B: ProgramBuilder, jobs: JobSet, machines: Machines, H: int, memory: bool,
           integer: bool, cost: np.ndarray | None) -> np.ndarray:
    """Core variables and the rows (4b)-(4f) common to P1 and P2; returns u's index
    array, (N, H) pooled or (N, M, H) per machine. ``cost`` (N, H) per core-unit."""
    a, p, d = jobs.arrival, jobs.processing, jobs.demand[:, 0]
    N, M = jobs.n, machines.m
    t = np.arange(1, H + 1)
    here = np.asarray(t[None, :] > a[:, None])  # (N, H): slot t may serve job j
    busy = np.asarray(here.any(axis=0))  # slots with some job present
    if not memory:
        u = B.add_variables("u", (N, H), upper=d[:, None], cost=0.0 if cost is None else cost,
                            integer=integer, mask=here)
        cap = B.add_rows("capacity", (H,), upper=machines.capacity[:, 0].sum(), mask=busy)
        B.add_terms(cap[None, :], u)
        vol = B.add_rows("volume", (N,), lower=d * p, upper=d * p)
        B.add_terms(vol[:, None], u)
        return u
    Ci, Mi = machines.capacity[:, 0], machines.capacity[:, 1]
    mask = here[:, None, :] & _fits_memory(jobs, machines)[:, :, None]  # (N, M, H)
    big = np.minimum(d[:, None], Ci[None, :])[:, :, None]  # u_j^i(t) <= min(d_j, C_i)
    c3 = 0.0 if cost is None else cost[:, None, :]
    u = B.add_variables("u", (N, M, H), upper=big, cost=c3, integer=integer, mask=mask)
    z = B.add_variables("z", (N, M, H), upper=1.0, integer=True, mask=mask)
    rows = B.add_rows("cores", (M, H), upper=Ci[:, None], mask=busy[None, :])  # (4b)
    B.add_terms(rows[None], u)
    rows = B.add_rows("memory", (M, H), upper=Mi[:, None], mask=busy[None, :])  # (4c)
    B.add_terms(rows[None], z, jobs.demand[:, 1][:, None, None])
    rows = B.add_rows("rate", (N, H), upper=d[:, None], mask=here)  # (4d)
    B.add_terms(rows[:, None, :], u)
    rows = B.add_rows("link", (N, M, H), upper=0.0, mask=mask)  # u <= min(d, C_i) z
    B.add_terms(rows, u)
    B.add_terms(rows, z, -np.broadcast_to(big, (N, M, H)))
    vol = B.add_rows("volume", (N,), lower=d * p, upper=d * p)  # (4e)
    B.add_terms(vol[:, None, None], u)
    return u


def p2_program(jobs: JobSet, machines: Machines, k: float = 2, *, integer: bool | None = None,
               memory: bool = False, horizon: int | None = None,
               max_variables: int = MAX_VARIABLES) -> LinearProgram:
    """P2 of XLL21 Sec. II-C, time-indexed: minimise the fractional flowtime of eq. (5),
    sum_j sum_{t > a_j} w_j(t) u_j(t) / d_j, subject to (4b)-(4f) on slots 1..H.

    Without memory (pooled, see the module docstring): u_j(t) in [0, d_j] for
    t = a_j+1..H, sum_j u_j(t) <= C, sum_t u_j(t) = d_j p_j. ``integer`` (default False)
    makes u integer; the constraint matrix is that of a bipartite transportation problem
    (totally unimodular) and the data are integers, so the LP already has an integer
    optimum and both give the same value. With ``memory=True`` (R >= 2): per machine
    u_j^i(t) in [0, min(d_j, C_i)], z_j^i(t) binary with u <= min(d_j, C_i) z (WLOG:
    cores without memory do no work in (4e)), sum_j m_j z_j^i(t) <= M_i (4c),
    sum_j u_j^i(t) <= C_i (4b), sum_i u_j^i(t) <= d_j (4d), sum u = d_j p_j (4e); u is
    integer unless ``integer=False`` is given. ``horizon`` defaults to
    :func:`offline_horizon`.
    """
    kf = check_k(k)
    _check_inputs(jobs, machines, memory)
    H = _horizon(jobs, machines, memory, horizon)
    _budget(jobs, machines, H, memory, False, max_variables, "P2")
    check_k_horizon(kf, H + 1, digits=15, why="exceed the 1e15 a solver's costs can span")
    t = np.arange(1, H + 1)
    w = fractional_weight(t[None, :], jobs.arrival[:, None], jobs.processing[:, None], kf)
    cost = w / jobs.demand[:, 0][:, None]
    as_int = memory if integer is None else bool(integer)
    B = ProgramBuilder(f"P2 ({'memory' if memory else 'pooled'}, k={kf:g}, H={H})")
    _cores(B, jobs, machines, H, memory, as_int, cost)
    return B.build()


def p1_program(jobs: JobSet, machines: Machines, k: float = 2, *, memory: bool = False,
               horizon: int | None = None, max_variables: int = MAX_VARIABLES
               ) -> LinearProgram:
    """P1 of XLL21 eq. (4a)-(4f) exactly: minimise sum_j (c_j - a_j)^k as a MILP.

    Integer cores as in :func:`p2_program` (pooled, or per machine with ``memory``), plus
    binaries e_j(t) = "job j is complete by the end of slot t" for t = a_j+1..H, with
    e_j(a_j) = 0, e_j(t-1) <= e_j(t), e_j(H) = 1, completion
    sum_{s<=t} u_j(s) >= d_j p_j e_j(t) (through cumulative variables W_j(t)), and no work
    after completion, sum_i u_j^i(t) <= d_j (1 - e_j(t-1)) (implied for binary e, as the
    volume row (4e) is an equality; it tightens the LP relaxation). Objective
    sum_j sum_{t=a_j+1}^{H} ((t-a_j)^k - (t-1-a_j)^k) (1 - e_j(t-1)) = sum_j (c_j-a_j)^k;
    its constant part sum_j (H - a_j)^k is the program's ``constant``.

    Size (measured with HiGHS 1.15; random p_j in 1..5, d_j in 1..4, two 8-core
    machines): the load decides. Arrivals spread over N slots (light): 40 jobs x 65
    slots in 0.6 s, 80 x 125 in 3 s, 160 x 240 in 17 s. Arrivals within N/4 slots
    (loaded): 20 jobs x 20 slots in 2-3.5 s; 40 x 35 is not proven in 60 s (gap 2-4%:
    pass ``time_limit`` and read ``lower``). With memory (three machines, memory
    binding, loaded) 10 jobs take 3-18 s and 20 jobs are not proven in 30 s.
    """
    kf = check_k(k)
    _check_inputs(jobs, machines, memory)
    H = _horizon(jobs, machines, memory, horizon)
    _budget(jobs, machines, H, memory, True, max_variables, "P1")
    check_k_horizon(kf, H + 1, digits=15, why="exceed the 1e15 a solver's costs can span")
    a, p, d = jobs.arrival, jobs.processing, jobs.demand[:, 0]
    N = jobs.n
    t = np.arange(1, H + 1)
    here = np.asarray(t[None, :] > a[:, None])
    B = ProgramBuilder(f"P1 ({'memory' if memory else 'pooled'}, k={kf:g}, H={H})")
    u = _cores(B, jobs, machines, H, memory, True, None)
    # e_j(s) for s = a_j+1..H; objective coefficient -((s+1-a_j)^k - (s-a_j)^k), 0 at H
    age = np.maximum(t[None, :] - a[:, None], 0.0)
    delta_next = (age + 1) ** kf - age ** kf
    cost_e = np.where(t[None, :] < H, -delta_next, 0.0)
    e = B.add_variables("e", (N, H), lower=np.where(t == H, 1.0, 0.0)[None, :], upper=1.0,
                        cost=cost_e, integer=True, mask=here)
    # order: e_j(t-1) - e_j(t) <= 0 for t >= a_j + 2
    later = np.asarray(here & (t[None, :] >= a[:, None] + 2))
    rows = B.add_rows("order", (N, H), upper=0.0, mask=later)
    B.add_terms(rows[:, 1:], e[:, :-1], 1.0)
    B.add_terms(rows, e, -1.0)
    # cumulative work W_j(t) = W_j(t-1) + sum_i u_j^i(t), W_j(a_j) = 0
    vol = d * p
    W = B.add_variables("W", (N, H), upper=vol[:, None], mask=here)
    rows = B.add_rows("cumulative", (N, H), lower=0.0, upper=0.0, mask=here)
    B.add_terms(rows, W, 1.0)
    B.add_terms(rows[:, 1:], W[:, :-1], -1.0)
    B.add_terms(rows[:, None, :] if memory else rows, u, -1.0)
    rows = B.add_rows("complete", (N, H), lower=0.0, mask=here)  # W >= d p e
    B.add_terms(rows, W, 1.0)
    B.add_terms(rows, e, -vol[:, None])
    # no work after completion: sum_i u_j^i(t) + d_j e_j(t-1) <= d_j
    rows = B.add_rows("after", (N, H), upper=d[:, None], mask=later)
    B.add_terms(rows[:, None, :] if memory else rows, u, 1.0)
    B.add_terms(rows[:, 1:], e[:, :-1], d[:, None])
    constant = float(np.sum((H - a) ** kf))
    return B.build(constant=constant)


def _rates(res: ProgramResult, jobs: JobSet, memory: bool) -> np.ndarray:
    u = res.solution["u"]
    if memory:
        u = u.sum(axis=1)
    return u / jobs.demand[:, 0][:, None]


def _optimum(build: Any, jobs: JobSet, machines: Machines, k: float, memory: bool,
             horizon: int | None, method: str, time_limit: float | None,
             what: str) -> ProgramResult:
    t0 = time.perf_counter()
    program = build()
    built = time.perf_counter() - t0
    H = _horizon(jobs, machines, memory, horizon)
    try:
        res = solve(program, method=method, time_limit=time_limit)
    except ProgramError as e:
        if "nfeasible" in str(e):
            raise ProgramError(f"{e}: the horizon of {H} slots is too short for these jobs",
                               e.status) from None
        raise
    y = _rates(res, jobs, memory)
    c = completion_slots(y, jobs.processing, tol=1e-6)
    flow = c - jobs.arrival
    solution = {**res.solution, "y": y}
    extra = {**res.extra, "horizon": H, "completion": c, "flowtime": flow,
             "lk_sum": float(np.sum(flow ** check_k(k))), "build_seconds": built,
             "program": what}
    return ProgramResult(status=res.status, value=res.value, lower=res.lower,
                         upper=res.upper, solution=solution, duals=res.duals,
                         method=res.method, solver=res.solver, seconds=res.seconds,
                         extra=extra)


def p2_optimum(jobs: JobSet, machines: Machines, k: float = 2, *,
               integer: bool | None = None, memory: bool = False,
               horizon: int | None = None, method: str = "highs",
               time_limit: float | None = None,
               max_variables: int = MAX_VARIABLES) -> ProgramResult:
    """OPT*_P2 (XLL21 Sec. II-C) by :func:`p2_program`: ``solution["y"]`` (N, H) rates
    y_j(t) = sum_i u_j^i(t) / d_j, ``extra["completion"]`` the slots c_j (input order),
    ``extra["horizon"]`` H, ``extra["lk_sum"]`` sum_j (c_j - a_j)^k of this schedule."""
    return _optimum(lambda: p2_program(jobs, machines, k, integer=integer, memory=memory,
                                       horizon=horizon, max_variables=max_variables),
                    jobs, machines, k, memory, horizon, method, time_limit, "P2")


def p1_optimum(jobs: JobSet, machines: Machines, k: float = 2, *, memory: bool = False,
               horizon: int | None = None, method: str = "highs",
               time_limit: float | None = None,
               max_variables: int = MAX_VARIABLES) -> ProgramResult:
    """OPT*_P1 (XLL21 eq. (4a)) by :func:`p1_program`, same fields as
    :func:`p2_optimum`. At a ``time_limit`` the incumbent comes back with
    ``status="time_limit"`` and HiGHS's dual bound as ``lower``."""
    return _optimum(lambda: p1_program(jobs, machines, k, memory=memory, horizon=horizon,
                                       max_variables=max_variables),
                    jobs, machines, k, memory, horizon, method, time_limit, "P1")
