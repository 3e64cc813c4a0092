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

Resources: XLL21 reads demand_0 as cores and demand_1 as memory. ``memory=None`` (the
default) models memory whenever the jobs and the machines have a second resource;
``memory=False`` drops it; a third resource is refused, and so is a weight other than 1
(P1 and P2 are unweighted). :func:`p1_optimum` and :func:`p2_optimum` answer within a
time limit with proven bounds (:func:`list_schedule` above, :func:`optimum_lower_bound`
below) when the solver proves nothing.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from capacity.programs import (
    DEFAULT_TIME_LIMIT,
    Deadline,
    LinearProgram,
    ProgramBuilder,
    ProgramResult,
    check_program_memory,
    solve_before,
)
from theory.budgets import MEMORY_BUDGET, check_budget
from theory.fractional_flowtime import (
    check_k,
    check_k_horizon,
    completion_slots,
    fractional_weight,
)
from theory.job_sets import JobSet, Machines, check_fits, require_integers, require_resources

__all__ = [
    "MAX_VARIABLES",
    "list_schedule",
    "offline_horizon",
    "optimum_lower_bound",
    "p1_optimum",
    "p1_program",
    "p2_optimum",
    "p2_program",
]

#: Variables an offline program may have before it refuses (keyword ``max_variables``).
MAX_VARIABLES = 2_000_000
#: The dense index arrays over every slot may hold this many entries per allowed variable.
DENSE_FACTOR = 10


def _check_inputs(jobs: JobSet, machines: Machines, memory: object) -> bool:
    """Validate an XLL21 instance; return whether memory is modelled (``memory=None``:
    when both the jobs and the machines have a second resource)."""
    if not isinstance(jobs, JobSet) or not isinstance(machines, Machines):
        raise ValueError("expected a theory.JobSet and a theory.Machines")
    if memory is not None and not isinstance(memory, bool | np.bool_):
        raise ValueError(f"memory must be True, False or None (model memory when there is "
                         f"a second resource), got {memory!r}")
    require_integers(jobs, machines, what="XLL21's programs")
    if np.any(jobs.weight != 1):
        j = int(np.argmax(jobs.weight != 1))
        raise ValueError(f"XLL21's programs minimise unweighted flowtimes (eq. (4a), (5)); "
                         f"job {jobs.ids[j]!r} has weight {jobs.weight[j]:g} (leave the "
                         f"weight column out, or set every weight to 1)")
    if np.any(jobs.demand[:, 0] < 1):
        j = int(np.argmax(jobs.demand[:, 0] < 1))
        raise ValueError(f"XLL21's programs need d_j >= 1 core; job {jobs.ids[j]!r} demands "
                         f"{jobs.demand[j, 0]:g} (rates are u_j / d_j)")
    use = (min(jobs.resources, machines.resources) >= 2) if memory is None else bool(memory)
    if use and (jobs.resources < 2 or machines.resources < 2):
        raise ValueError("memory=True needs two resources (cores, memory) in the jobs' "
                         f"demands ({jobs.resources}) and the machines' capacities "
                         f"({machines.resources})")
    # memory=False drops demand_1 on request; a column past it is never read
    used = 2 if (use or memory is False) else 1
    require_resources(jobs, machines, used, model="XLL21 (cores demand_0, memory demand_1)",
                      hint="; give both the jobs and the machines a second resource to "
                           "model memory, or pass memory=False to drop it" if used == 1
                      else "; remove the resources after the second")
    check_fits(jobs, machines, resources=2 if use else 1)
    return use


def offline_horizon(jobs: JobSet, machines: Machines, *, memory: bool | None = None) -> int:
    """Slots H after which no optimal schedule of P1 or P2 does any work (XLL21 II).
    ``memory`` as in :func:`p2_program` (None: modelled when there is a second resource).

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

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: arrival slots a_j, processing times p_j (slots at full rate), demands
        d_j (cores, ``demand[:, 0]``) and m_j (memory, ``demand[:, 1]``), all integers;
        weights 1.
    machines : theory.Machines
        The machines: cores C_i (and memory M_i), integers.
    memory : bool or None, default None
        Model memory (z variables, rows (4c)); None: when both the jobs and the
        machines have a second resource; False drops it.

    Returns
    -------
    int
        The horizon H in slots: programs over slots 1..H keep every optimum.

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and a
        ``theory.Machines`` with integer fields, unit weights and d_j >= 1, a job fits
        no machine, ``memory=True`` lacks a second resource or a third resource is
        given.

    References
    ----------
    XLL21, Sec. II-A and II-B, eqs. (4a)-(4f) and (5) (the exchange argument above is
    this package's).

    Examples
    --------
    Three jobs on one machine of 2 cores: A = 1, V = 6, C = 2, P = 2.

    >>> from capacity import offline_horizon
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> offline_horizon(jobs, Machines([[2]]))
    6
    """
    use = _check_inputs(jobs, machines, memory)
    return _safe_horizon(jobs, machines, use)


def _safe_horizon(jobs: JobSet, machines: Machines, memory: bool) -> int:
    A = int(jobs.arrival.max())
    P = int(jobs.processing.max())
    V = int(np.sum(jobs.processing * jobs.demand[:, 0]))
    if memory:
        return A + V + P
    C = int(machines.capacity[:, 0].sum())
    return A + -(-V // C) + P


def _horizon(jobs: JobSet, machines: Machines, memory: bool, horizon: object) -> int:
    if horizon is None:
        return _safe_horizon(jobs, machines, memory)
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
            max_variables: int, what: str) -> tuple[int, int]:
    """(variables, nonzeros) of P1 (``completion``) or P2 before building it; refuses
    above ``max_variables``. Per slot of a job: u (and z) on each machine its memory
    fits, plus e and W for P1; nonzeros per variable as the rows of :func:`_cores` and
    :func:`p1_program` place them."""
    slots = (H - jobs.arrival).astype(float)  # slots a_j + 1 .. H
    if memory:
        per = _fits_memory(jobs, machines).sum(axis=1).astype(float)
        core_vars, core_nnz = 2 * per, 6 * per  # u, z; 4 + 2 rows
    else:
        core_vars, core_nnz = np.ones(jobs.n), np.full(jobs.n, 2.0)  # capacity, volume
    if completion:  # u in cumulative and after; e in 2 order, complete, after; W in 3
        core_nnz = core_nnz + (2 * per if memory else 2.0) + 4 + 3
        core_vars = core_vars + 2
    need = float(np.sum(slots * core_vars))
    check_budget(need, max_variables, what=f"{what} on {jobs.n} jobs x {H} slots",
                 option="max_variables", unit="variables",
                 hint="fewer jobs or a shorter horizon")
    # the blocks are index arrays over every slot 1..H, however late the jobs arrive
    dense = float(jobs.n) * H * (machines.m if memory else 1)
    check_budget(dense, DENSE_FACTOR * max_variables,
                 what=f"{what} on {jobs.n} jobs x {H} slots (index arrays of N x "
                      f"{'M x ' if memory else ''}H entries)",
                 option="max_variables", unit="entries",
                 hint=f"{DENSE_FACTOR} entries per allowed variable; subtract the earliest "
                      f"arrival from every arrival (flowtimes do not change), or fewer jobs")
    return int(need), int(np.sum(slots * core_nnz))


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
               memory: bool | None = None, horizon: int | None = None,
               max_variables: int = MAX_VARIABLES) -> LinearProgram:
    """P2 of XLL21 Sec. II-C, time-indexed: minimise the fractional flowtime of eq. (5),
    sum_j sum_{t > a_j} w_j(t) u_j(t) / d_j, subject to (4b)-(4f) on slots 1..H.

    Without memory (pooled, see the module docstring): u_j(t) in [0, d_j] for
    t = a_j+1..H, sum_j u_j(t) <= C, sum_t u_j(t) = d_j p_j. ``integer`` (default False)
    makes u integer; the constraint matrix is that of a bipartite transportation problem
    (totally unimodular) and the data are integers, so the LP already has an integer
    optimum and both give the same value. ``memory`` (default None: True when the jobs
    and the machines have a second resource, demand_1 / capacity_1; ``memory=False``
    drops it; a third resource is refused). With memory: per machine
    u_j^i(t) in [0, min(d_j, C_i)], z_j^i(t) binary with u <= min(d_j, C_i) z (WLOG:
    cores without memory do no work in (4e)), sum_j m_j z_j^i(t) <= M_i (4c),
    sum_j u_j^i(t) <= C_i (4b), sum_i u_j^i(t) <= d_j (4d), sum u = d_j p_j (4e); u is
    integer unless ``integer=False`` is given. ``horizon`` defaults to
    :func:`offline_horizon`.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: arrival slots a_j, processing times p_j (slots at full rate), demands
        d_j (cores, ``demand[:, 0]``) and m_j (memory, ``demand[:, 1]``), all integers;
        weights 1.
    machines : theory.Machines
        The machines: cores C_i (and memory M_i), integers.
    k : float, default 2
        The exponent of the l_k norm of flowtimes, a finite number >= 1.
    integer : bool or None, default None
        Integer cores u; None: integer with memory, continuous without (the LP is
        integral there).
    memory : bool or None, default None
        Model memory (z variables, rows (4c)); None: when both the jobs and the
        machines have a second resource; False drops it.
    horizon : int or None, default None
        Slots H of the program, at least max_j (a_j + p_j); None:
        :func:`offline_horizon`.
    max_variables : int, default MAX_VARIABLES
        Refuse a program with more variables (:data:`MAX_VARIABLES` = 2,000,000).

    Returns
    -------
    LinearProgram
        Blocks ``u`` (cores, (N, H) pooled or (N, M, H)) and with memory ``z``; rows
        ``capacity`` and ``volume`` (pooled) or ``cores``, ``memory``, ``rate``,
        ``link``, ``volume``.

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and a
        ``theory.Machines`` with integer fields, unit weights and d_j >= 1, a job fits
        no machine, ``memory=True`` lacks a second resource or a third resource is
        given, ``k`` is not a finite number >= 1, the weights of eq. (5) over the
        horizon exceed 1e15, or ``horizon`` is not a whole number of slots or is
        shorter than max_j (a_j + p_j).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) Above ``max_variables``.

    References
    ----------
    XLL21, Sec. II-C (P2), eq. (5) (the fractional flowtime) and eqs. (4b)-(4f).

    Examples
    --------
    >>> from capacity import p2_program, solve
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> program = p2_program(jobs, Machines([[2]]))
    >>> program
    LinearProgram(P2 (pooled, k=2, H=6): 17 variables (0 integer), 9 rows, 34 nonzeros,
    minimize)
    >>> solve(program).value
    15.0
    """
    kf = check_k(k)
    memory = _check_inputs(jobs, machines, memory)
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


def p1_program(jobs: JobSet, machines: Machines, k: float = 2, *,
               memory: bool | None = None, horizon: int | None = None,
               max_variables: int = MAX_VARIABLES
               ) -> LinearProgram:
    """P1 of XLL21 eq. (4a)-(4f) exactly: minimise sum_j (c_j - a_j)^k as a MILP.

    Integer cores as in :func:`p2_program` (pooled, or per machine with ``memory``, whose
    default None models memory when there is a second resource), plus
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

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: arrival slots a_j, processing times p_j (slots at full rate), demands
        d_j (cores, ``demand[:, 0]``) and m_j (memory, ``demand[:, 1]``), all integers;
        weights 1.
    machines : theory.Machines
        The machines: cores C_i (and memory M_i), integers.
    k : float, default 2
        The exponent k of the objective sum_j (c_j - a_j)^k, a finite number >= 1.
    memory : bool or None, default None
        Model memory (z variables, rows (4c)); None: when both the jobs and the
        machines have a second resource; False drops it.
    horizon : int or None, default None
        Slots H of the program, at least max_j (a_j + p_j); None:
        :func:`offline_horizon`.
    max_variables : int, default MAX_VARIABLES
        Refuse a program with more variables (:data:`MAX_VARIABLES` = 2,000,000).

    Returns
    -------
    LinearProgram
        A MILP with blocks ``u`` (and ``z`` with memory), ``e`` (completion flags) and
        ``W`` (cumulative work); rows as in :func:`p2_program` plus ``order``,
        ``cumulative``, ``complete`` and ``after``.

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and a
        ``theory.Machines`` with integer fields, unit weights and d_j >= 1, a job fits
        no machine, ``memory=True`` lacks a second resource or a third resource is
        given, ``k`` is not a finite number >= 1, the weights over the horizon exceed
        1e15, or ``horizon`` is not a whole number of slots or is shorter than
        max_j (a_j + p_j).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) Above ``max_variables``.

    References
    ----------
    XLL21, Sec. II-B, eqs. (4a)-(4f) (P1).

    Examples
    --------
    >>> from capacity import p1_program, solve
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> program = p1_program(jobs, Machines([[2]]))
    >>> program.is_mip, program.constant   # sum_j (H - a_j)^2 with H = 6
    (True, 97.0)
    >>> solve(program).value   # sum_j (c_j - a_j)^2 at c = (2, 2, 3)
    12.0
    """
    kf = check_k(k)
    memory = _check_inputs(jobs, machines, memory)
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


#: A list schedule: (first slot - 1, slots, [(job, machine, cores)]) per stretch.
_Segments = list[tuple[int, int, list[tuple[int, int, int]]]]


def list_schedule(jobs: JobSet, machines: Machines, *, memory: bool | None = None,
                  max_variables: int = MAX_VARIABLES) -> tuple[np.ndarray, np.ndarray]:
    """A feasible integer schedule of (4b)-(4f), the upper bound of P1 and P2 when the
    solver has none: at each slot the present unfinished jobs, in shortest-remaining-time
    order (ceil(remaining core-units / d_j), ties by index), each get
    min(d_j, what is left, the cores free) cores; with ``memory`` (default None: as in
    :func:`p2_program`) a job takes them on the first machine where its memory and a core
    are free, one machine per slot (so sum_i u_j^i(t) <= d_j). The allocation is kept
    until a job arrives or one completes its part of it, so the work is O(events x N),
    not O(slots x N).

    Returns (u, completion): u core-units per slot, (N, L) pooled or (N, M, L) with
    memory, column t - 1 for slot t, L the last busy slot (refused above
    ``max_variables`` x :data:`DENSE_FACTOR` entries); completion c_j per job. L <=
    :func:`offline_horizon`: every slot of (A, L] is full or serves each job there at
    min(d_j, what is left), the argument of its proof; with memory every busy slot serves
    a core-unit (the first job in the order fits some machine alone).

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: arrival slots a_j, processing times p_j (slots at full rate), demands
        d_j (cores, ``demand[:, 0]``) and m_j (memory, ``demand[:, 1]``), all integers;
        weights 1.
    machines : theory.Machines
        The machines: cores C_i (and memory M_i), integers.
    memory : bool or None, default None
        Model memory (z variables, rows (4c)); None: when both the jobs and the
        machines have a second resource; False drops it.
    max_variables : int, default MAX_VARIABLES
        Refuse a schedule whose dense array would hold more than ``max_variables``
        times ``DENSE_FACTOR`` (10) entries.

    Returns
    -------
    u : numpy.ndarray
        Cores per job and slot, (N, L) pooled or (N, M, L) with memory.
    completion : numpy.ndarray
        The completion slot c_j of each job (int64, input order).

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and a
        ``theory.Machines`` with integer fields, unit weights and d_j >= 1, a job fits
        no machine, ``memory=True`` lacks a second resource or a third resource is
        given.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) When the dense array would be too large.

    References
    ----------
    XLL21, Sec. II-B, eqs. (4b)-(4f) (the constraints the schedule keeps).

    Examples
    --------
    >>> from capacity import list_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> u, completion = list_schedule(jobs, Machines([[2]]))
    >>> u.tolist()
    [[0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]]
    >>> completion.tolist()
    [4, 1, 2]
    """
    mem = _check_inputs(jobs, machines, memory)
    segments, completion = _list_segments(jobs, machines, mem)
    L = int(completion.max())
    check_budget(float(jobs.n) * L * (machines.m if mem else 1), DENSE_FACTOR * max_variables,
                 what=f"a list schedule of {jobs.n} jobs over {L} slots",
                 option="max_variables", unit="entries",
                 hint=f"{DENSE_FACTOR} entries per allowed variable")
    return _dense(segments, jobs.n, machines.m, L, mem), completion


def _list_segments(jobs: JobSet, machines: Machines, mem: bool
                   ) -> tuple[_Segments, np.ndarray]:
    a = jobs.arrival.astype(np.int64)
    d = jobs.demand[:, 0].astype(np.int64)
    rem = d * jobs.processing.astype(np.int64)
    cores = machines.capacity[:, 0].astype(np.int64)
    need, room = jobs.demand[:, -1], machines.capacity[:, -1]  # memory, when mem
    segments: _Segments = []
    completion = np.zeros(jobs.n, dtype=np.int64)
    t = 0  # slots done; the next one is t + 1
    while np.any(rem > 0):
        present = np.flatnonzero((a <= t) & (rem > 0))
        if present.size == 0:
            t = int(a[rem > 0].min())
            continue
        order = present[np.lexsort((present, -(-rem[present] // d[present])))]
        alloc: list[tuple[int, int, int]] = []
        if not mem:
            free = int(cores.sum())
            for j in order:
                u = int(min(d[j], rem[j], free))
                if u == 0:
                    break
                alloc.append((int(j), 0, u))
                free -= u
        else:
            free_c, free_m = cores.copy(), room.astype(float)
            for j in order:
                for i in range(machines.m):
                    if free_c[i] >= 1 and need[j] <= free_m[i]:
                        u = int(min(d[j], rem[j], free_c[i]))
                        alloc.append((int(j), i, u))
                        free_c[i] -= u
                        free_m[i] -= need[j]
                        break
        dt = min(int(rem[j] // u) for j, _, u in alloc)
        later = a[(a > t) & (rem > 0)]
        if later.size:
            dt = min(dt, int(later.min()) - t)
        segments.append((t, dt, alloc))
        for j, _, u in alloc:
            rem[j] -= u * dt
            if rem[j] == 0:
                completion[j] = t + dt
        t += dt
    return segments, completion


def _dense(segments: _Segments, N: int, M: int, H: int, mem: bool) -> np.ndarray:
    u = np.zeros((N, M, H) if mem else (N, H))
    for t0, dt, alloc in segments:
        for j, i, cores in alloc:
            if mem:
                u[j, i, t0:t0 + dt] = cores
            else:
                u[j, t0:t0 + dt] = cores
    return u


def _segments_objective(segments: _Segments, completion: np.ndarray, jobs: JobSet,
                        k: float, what: str) -> float:
    """P1's or P2's objective of a list schedule, without its dense arrays."""
    a, p, d = jobs.arrival, jobs.processing, jobs.demand[:, 0]
    if what == "P1":
        return float(np.sum((completion - a) ** k))
    total = 0.0
    for t0, dt, alloc in segments:
        t = np.arange(t0 + 1, t0 + dt + 1, dtype=float)
        for j, _, cores in alloc:
            total += float(np.sum(fractional_weight(t, a[j], p[j], k))) * cores / d[j]
    return total


def optimum_lower_bound(jobs: JobSet, k: float = 2, *, program: str = "P1") -> float:
    """Closed-form lower bound on OPT_P1 or OPT_P2 (XLL21 Sec. II): a job is served at
    most d_j cores (rate 1) per slot from a_j + 1 on, so f_j >= p_j and OPT_P1 >=
    sum_j p_j^k; the weights of eq. (5) increase in t, so its fractional flowtime is at
    least that of full rate in slots a_j + 1..a_j + p_j, (1^k + ... + p_j^k) / p_j +
    p_j^k, and OPT_P2 >= the sum of those.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs (only the processing times p_j are read).
    k : float, default 2
        The exponent of the l_k norm, a finite number >= 1.
    program : {"P1", "P2"}, default "P1"
        Which optimum to bound.

    Returns
    -------
    float
        sum_j p_j^k (P1), or sum_j ((1^k + ... + p_j^k) / p_j + p_j^k) (P2).

    Raises
    ------
    ValueError
        If ``k`` is not a finite number >= 1, ``program`` is not "P1" or "P2", or
        ``jobs`` is not a ``theory.JobSet``.

    References
    ----------
    XLL21, Sec. II-B, eq. (4a) and Sec. II-C, eq. (5).

    Examples
    --------
    >>> from capacity import optimum_lower_bound
    >>> from theory import JobSet
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> optimum_lower_bound(jobs)   # 2^2 + 1 + 1
    6.0
    >>> print(optimum_lower_bound(jobs, program="P2"))   # (1 + 4) / 2 + 4 + 2 + 2
    10.5
    """
    kf = check_k(k)
    if program not in ("P1", "P2"):
        raise ValueError(f"program must be 'P1' or 'P2', got {program!r}")
    if not isinstance(jobs, JobSet):
        raise ValueError("expected a theory.JobSet")
    p = jobs.processing
    if program == "P1":
        return float(np.sum(p ** kf))
    total = 0.0
    for q, count in zip(*np.unique(p, return_counts=True), strict=True):
        s = np.arange(1, int(q) + 1, dtype=float)
        total += count * (float(np.sum(s ** kf)) / q + q ** kf)
    return float(total)


def _rates(u: np.ndarray, jobs: JobSet, memory: bool) -> np.ndarray:
    return (u.sum(axis=1) if memory else u) / jobs.demand[:, 0][:, None]


def _optimum(what: str, jobs: JobSet, machines: Machines, k: float, memory: bool | None,
             horizon: int | None, method: str, time_limit: float | None,
             max_variables: int, memory_budget: float,
             integer: bool | None = None) -> ProgramResult:
    """Build and solve P1 or P2 within ``time_limit`` (building included); the bounds
    that hold when the solver gives no proven optimum (see :func:`p2_optimum`)."""
    clock = Deadline(time_limit)
    kf = check_k(k)
    mem = _check_inputs(jobs, machines, memory)
    H = _horizon(jobs, machines, mem, horizon)
    safe = _safe_horizon(jobs, machines, mem)
    _, nonzeros = _budget(jobs, machines, H, mem, what == "P1", max_variables, what)
    check_program_memory(nonzeros, memory_budget, what)
    check_k_horizon(kf, H + 1, digits=15, why="exceed the 1e15 a solver's costs can span")
    closed = optimum_lower_bound(jobs, kf, program=what)
    extra: dict[str, Any] = {"horizon": H, "safe_horizon": safe, "memory": mem,
                             "program": what, "closed_lower": closed}
    res = None
    stopped = clock.too_short_for(nonzeros)
    if stopped is None:
        if what == "P1":
            program = p1_program(jobs, machines, kf, memory=mem, horizon=H,
                                 max_variables=max_variables)
        else:
            program = p2_program(jobs, machines, kf, integer=integer, memory=mem,
                                 horizon=H, max_variables=max_variables)
        extra["build_seconds"] = clock.elapsed()
        if clock.expired():
            stopped = "the time limit passed while building the program"
    if stopped is None:
        res = solve_before(program, clock, method=method, infeasible=f"the horizon of {H} "
                           f"slots is too short for these jobs")
        if res is None:
            stopped = "the solver found no schedule within the time limit"
    lower, source = closed, "solver"
    if res is not None:
        y = _rates(res.solution["u"], jobs, mem)
        c = completion_slots(y, jobs.processing, tol=1e-6)
        solution: dict[str, np.ndarray] = {**res.solution, "y": y}
        value, status, solver = res.value, res.status, res.solver
        extra.update(res.extra, solve_seconds=res.seconds)
        if H >= safe:  # the program's optimum is P's: its dual bound holds
            lower = max(res.lower, closed)
    else:
        value, status, solver, solution, c = math.nan, "time_limit", "none", {}, None
        extra["stopped"] = stopped
    upper = value
    if status != "optimal":
        segments, c0 = _list_segments(jobs, machines, mem)
        v0 = _segments_objective(segments, c0, jobs, kf, what)
        upper = v0 if math.isnan(upper) else min(upper, v0)
        if c0.max() <= H and (math.isnan(value) or v0 < value):
            u0 = _dense(segments, jobs.n, machines.m, H, mem)
            solution = {"u": u0, "y": _rates(u0, jobs, mem)}
            if mem:
                solution["z"] = (u0 > 0).astype(float)
            value, c, source = v0, c0, "list schedule"
        if math.isnan(value):
            source = "none"
    elif H < safe:
        # optimal among the schedules ending by H only; a longer one may be better
        status, lower = "horizon_limit", closed
    else:
        lower = value
    extra["source"] = source
    if c is not None:
        flow = c - jobs.arrival
        extra.update(completion=c, flowtime=flow, lk_sum=float(np.sum(flow ** kf)))
    return ProgramResult(status=status, value=value, lower=float(min(lower, upper)),
                         upper=float(upper), solution=solution,
                         duals=None if res is None else res.duals, method=method,
                         solver=solver, seconds=clock.elapsed(), extra=extra)


def p2_optimum(jobs: JobSet, machines: Machines, k: float = 2, *,
               integer: bool | None = None, memory: bool | None = None,
               horizon: int | None = None, method: str = "highs",
               time_limit: float | None = DEFAULT_TIME_LIMIT,
               max_variables: int = MAX_VARIABLES,
               memory_budget: float = MEMORY_BUDGET) -> ProgramResult:
    """OPT*_P2 (XLL21 Sec. II-C) by :func:`p2_program`: ``solution["y"]`` (N, H) rates
    y_j(t) = sum_i u_j^i(t) / d_j, ``extra["completion"]`` the slots c_j (input order),
    ``extra["horizon"]`` H, ``extra["lk_sum"]`` sum_j (c_j - a_j)^k of this schedule,
    ``extra["memory"]`` whether memory was modelled.

    The whole call, building included, takes at most ``time_limit`` seconds (default
    :data:`capacity.programs.DEFAULT_TIME_LIMIT`, None for none): a program whose
    building would not fit is not built. ``lower`` and ``upper`` bound the optimum over
    every schedule, and ``status`` says what ``value`` is:

    * "optimal": proven, ``lower == upper == value``;
    * "time_limit" (or another solver limit): the best schedule known, the solver's
      incumbent or :func:`list_schedule`'s (``extra["source"]``; NaN when none ends by
      the horizon; ``extra["stopped"]`` says when the limit came), ``lower`` the best
      of the solver's dual bound and :func:`optimum_lower_bound`;
    * "horizon_limit": ``horizon`` is below :func:`offline_horizon`
      (``extra["safe_horizon"]``), so ``value`` is optimal among the schedules ending by
      it only: an upper bound, with :func:`optimum_lower_bound` as ``lower``.

    ``seconds`` covers the whole call (``extra["build_seconds"]``,
    ``extra["solve_seconds"]``). ``memory_budget`` bounds the bytes of the program
    (:data:`capacity.programs.BYTES_PER_NONZERO`).

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: arrival slots a_j, processing times p_j (slots at full rate), demands
        d_j (cores, ``demand[:, 0]``) and m_j (memory, ``demand[:, 1]``), all integers;
        weights 1.
    machines : theory.Machines
        The machines: cores C_i (and memory M_i), integers.
    k : float, default 2
        The exponent of eq. (5), a finite number >= 1.
    integer : bool or None, default None
        Integer cores, as in :func:`p2_program`.
    memory : bool or None, default None
        Model memory (z variables, rows (4c)); None: when both the jobs and the
        machines have a second resource; False drops it.
    horizon : int or None, default None
        Slots H of the program, at least max_j (a_j + p_j); None:
        :func:`offline_horizon`. A shorter horizon than that gives status
        "horizon_limit".
    method : {"highs", "cvxpy"}, default "highs"
        The solver (:func:`capacity.solve`).
    time_limit : float or None, default DEFAULT_TIME_LIMIT
        Seconds for the whole call, building included (60; None: no limit).
    max_variables : int, default MAX_VARIABLES
        Refuse a program with more variables (:data:`MAX_VARIABLES` = 2,000,000).
    memory_budget : float, default MEMORY_BUDGET
        Refuse a program whose building needs more bytes (8 GiB).

    Returns
    -------
    ProgramResult
        ``value`` = the fractional flowtime of the schedule returned, ``lower`` and
        ``upper``, ``status``, ``solution`` (``u``, ``y``, with memory ``z``) and the
        ``extra`` entries above.

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and a
        ``theory.Machines`` with integer fields, unit weights and d_j >= 1, a job fits
        no machine, ``memory=True`` lacks a second resource or a third resource is
        given, ``k`` is not a finite number >= 1, the weights over the horizon exceed
        1e15, ``horizon`` is not a whole number of slots or is shorter than
        max_j (a_j + p_j), or ``time_limit`` is not a number > 0.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) Above ``max_variables`` or ``memory_budget``.
    capacity.ProgramError
        When the program is infeasible (a ``horizon`` too short to serve the jobs) or
        the solver fails.

    References
    ----------
    XLL21, Sec. II-C (P2, eq. (5)), and eq. (6), OPT_P2 <= 2 OPT_P1.

    Examples
    --------
    >>> from capacity import p2_optimum
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> res = p2_optimum(jobs, Machines([[2]]))
    >>> res.status, res.value, res.lower, res.upper
    ('optimal', 15.0, 15.0, 15.0)
    >>> res.extra["completion"].tolist(), res.extra["lk_sum"]
    ([2, 2, 3], 12.0)
    """
    return _optimum("P2", jobs, machines, k, memory, horizon, method, time_limit,
                    max_variables, memory_budget, integer)


def p1_optimum(jobs: JobSet, machines: Machines, k: float = 2, *,
               memory: bool | None = None, horizon: int | None = None,
               method: str = "highs", time_limit: float | None = DEFAULT_TIME_LIMIT,
               max_variables: int = MAX_VARIABLES,
               memory_budget: float = MEMORY_BUDGET) -> ProgramResult:
    """OPT*_P1 (XLL21 eq. (4a)) by :func:`p1_program`; fields, time limit and statuses as
    in :func:`p2_optimum`. At a ``time_limit`` HiGHS's incumbent (or the list schedule,
    if better) comes back with ``status="time_limit"`` and the dual bound as ``lower``.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: arrival slots a_j, processing times p_j (slots at full rate), demands
        d_j (cores, ``demand[:, 0]``) and m_j (memory, ``demand[:, 1]``), all integers;
        weights 1.
    machines : theory.Machines
        The machines: cores C_i (and memory M_i), integers.
    k : float, default 2
        The exponent k of sum_j (c_j - a_j)^k, a finite number >= 1.
    memory : bool or None, default None
        Model memory (z variables, rows (4c)); None: when both the jobs and the
        machines have a second resource; False drops it.
    horizon : int or None, default None
        Slots H of the program, at least max_j (a_j + p_j); None:
        :func:`offline_horizon`. A shorter horizon than that gives status
        "horizon_limit".
    method : {"highs", "cvxpy"}, default "highs"
        The solver (:func:`capacity.solve`).
    time_limit : float or None, default DEFAULT_TIME_LIMIT
        Seconds for the whole call, building included (60; None: no limit).
    max_variables : int, default MAX_VARIABLES
        Refuse a program with more variables (:data:`MAX_VARIABLES` = 2,000,000).
    memory_budget : float, default MEMORY_BUDGET
        Refuse a program whose building needs more bytes (8 GiB).

    Returns
    -------
    ProgramResult
        ``value`` = sum_j (c_j - a_j)^k of the schedule returned, ``lower``, ``upper``,
        ``status``, ``solution`` (the blocks of :func:`p1_program` and ``y``) and the
        ``extra`` entries of :func:`p2_optimum`.

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and a
        ``theory.Machines`` with integer fields, unit weights and d_j >= 1, a job fits
        no machine, ``memory=True`` lacks a second resource or a third resource is
        given, ``k`` is not a finite number >= 1, the weights over the horizon exceed
        1e15, ``horizon`` is not a whole number of slots or is shorter than
        max_j (a_j + p_j), or ``time_limit`` is not a number > 0.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) Above ``max_variables`` or ``memory_budget``.
    capacity.ProgramError
        When the program is infeasible (a ``horizon`` too short to serve the jobs) or
        the solver fails.

    References
    ----------
    XLL21, Sec. II-B, eqs. (4a)-(4f) (P1).

    Examples
    --------
    Three jobs on one machine of 2 cores: running jobs 0 and 1 side by side (one core
    each) and then job 2 gives flowtimes 2, 2, 2.

    >>> from capacity import p1_optimum
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[1], [2], [2]])
    >>> res = p1_optimum(jobs, Machines([[2]]))
    >>> res.status, res.value, res.lower
    ('optimal', 12.0, 12.0)
    >>> res.extra["completion"].tolist(), res.extra["flowtime"].tolist()
    ([2, 2, 3], [2.0, 2.0, 2.0])
    """
    return _optimum("P1", jobs, machines, k, memory, horizon, method, time_limit,
                    max_variables, memory_budget)
