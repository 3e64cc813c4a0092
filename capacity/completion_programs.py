"""FL24's offline non-preemptive problem as a time-indexed MILP (FL24 Sec. 3).

N jobs (release r_j, processing time p_j, weight w_j, demand d_j) on M identical
machines; each job gets a machine i and a start S_j >= r_j and runs uninterrupted until
C_j = S_j + p_j; on every machine at every time the running jobs demand at most the
capacity of each resource (demands are normalised by the common capacity, FL24's
"capacity one": :func:`theory.nonpreemptive_bounds.normalised_demand`). Objectives:
``"weighted-completion"`` sum_j w_j C_j (FL24's AWCT times N) and ``"makespan"``
max_j C_j. Releases and processing times must be integers (scale time first).

Program (:func:`completion_program`). Binaries x[j, i, t] = "job j starts on machine i
at time t", for integer t in [r_j, D_j - p_j] (D_j the job's deadline, below); array
index [j, i, t]. Rows:

* ``assign`` (N): sum_{i, t} x[j, i, t] = 1;
* ``capacity`` (M, R, H): sum_j d_jl sum_{t in (tau - p_j, tau]} x[j, i, t] <= 1 for
  every machine i, resource l, unit slot [tau, tau + 1) (rows that no choice of x can
  break are left out);
* ``on`` (N, M): y[j, i] = sum_t x[j, i, t] (continuous, "job j is on machine i");
* ``order`` (N, M): y[j, i] <= sum_{k < j} y[k, i - 1] for i >= 1 (symmetry breaking);
* makespan only, ``cmax`` (N): C >= sum_{i, t} (t + p_j) x[j, i, t], C integer.

Objective sum_j w'_j sum_{i, t} (t + p_j) x[j, i, t] with w'_j = w_j / max_k w_k (the
same optimal schedules; no overflow for weights near 1e308), or C.

Why integer start times lose nothing. Let S be any feasible schedule (real starts) and
S'_j = floor(S_j). S'_j >= r_j as r_j is an integer, and C'_j = floor(C_j) <= C_j as p_j
is. If jobs j, k overlap in S' (floor S_k < floor C_j and floor S_j < floor C_k), then
S_k < floor S_k + 1 <= floor C_j <= C_j and likewise S_j < C_k: they overlap in S.
Intervals pairwise overlapping share a point (Helly in one dimension), so any set of
jobs running together on a machine in S' runs together in S and fits. So S' is
feasible, no completion later: an optimal schedule with integer starts exists for both
objectives, and capacity need only be checked on unit slots.

Symmetry breaking (``order``, and x[j, i, .] absent for i > j). Relabel the machines of
any schedule so that the non-empty ones come first, ordered by their lowest-index job
(empty machines last). The machines are identical, so every completion is unchanged.
In the relabelled schedule the lowest-index job on machine i is above that of machine
i - 1, so a job j on machine i >= 1 has some k < j on machine i - 1 (``order``), and by
induction machine i's lowest job is >= i, so j >= i. Every schedule, optimal ones
included, has such a relabelling: the rows keep an optimum.

Deadlines D_j (the horizon). H and the deadlines come from list schedules (release
order and weighted-shortest-processing order, earliest fitting start, a feasible
schedule computed exactly here), so that an optimum survives:

* makespan: D_j = the list schedules' best makespan U. An optimal makespan is <= U, and
  in an optimal schedule every C_j <= C*_max <= U.
* weighted completion: D_j = min(A + P, floor((W - sum_{k != j} w_k (r_k + p_k)) / w_j))
  with A = max_j r_j, P = sum_j p_j, W the list schedules' best sum_k w_k C_k. Second
  term: in an optimal schedule sum_k w_k C_k <= W and C_k >= r_k + p_k; it is computed
  as r_j + p_j + G / w_j with G = W - sum_k w_k (r_k + p_k) = sum_k w_k (S_k - r_k) of
  the list schedule, a sum of terms >= 0, so a weight of 1e-20 beside 1 is not lost to
  cancellation (and rounded up a little: a later deadline only keeps more schedules).
  First term:
  suppose an optimal schedule has instants in [A, C_max) at which no machine runs
  anything, and let [a, b) be a maximal interval of them (A <= a < b <= C_max). No job
  runs across it, so every job either ends by a or starts at b or later; the latter
  (at least the job ending at C_max) are released by A <= a, so moving them all b - a
  earlier keeps every release and, as they still start at a or later, every capacity
  row; it lowers sum_j w_j C_j (w_j > 0): a contradiction. So some job runs at every
  instant of [A, C_max), and C_max - A <= P.

H = max_j D_j. With ``horizon=`` the answer is optimal among the schedules ending by
``horizon``: the deadlines are min(horizon, D_j) with U, W taken over the list
schedules that end by ``horizon`` (the arguments above then hold among those schedules:
the left shift keeps a schedule within the horizon), or all equal to ``horizon`` when
none does. The horizon without ``horizon=`` (``extra["free_horizon"]``) decides whether
an answer within ``horizon`` is the optimum (status "optimal") or only the best within
it ("horizon_limit").

Sizes that solve, the time limit and what an answer claims: see
:func:`completion_optimum`.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from capacity.flowtime_programs import DENSE_FACTOR, MAX_VARIABLES
from capacity.programs import (
    DEFAULT_TIME_LIMIT,
    Deadline,
    LinearProgram,
    ProgramBuilder,
    ProgramError,
    ProgramResult,
    check_program_memory,
    solve_before,
)
from theory.budgets import MEMORY_BUDGET, check_budget
from theory.job_sets import JobSet, Machines
from theory.nonpreemptive_bounds import (
    makespan_lower_bound,
    normalised_demand,
)

__all__ = [
    "COMPLETION_OBJECTIVES",
    "MAX_NONZEROS",
    "canonical_machines",
    "check_schedule",
    "completion_optimum",
    "completion_program",
    "earliest_fit_schedule",
    "weight_grain",
]

COMPLETION_OBJECTIVES = ("weighted-completion", "makespan")
#: Constraint-matrix nonzeros a completion program may have before it refuses.
MAX_NONZEROS = 20_000_000
#: Normalised loads may exceed 1 by this much (rounding of sums of d / c).
LOAD_TOL = 1e-9
#: Coefficients added to the program per step of building (a step checks the clock).
CHUNK = 1_000_000
#: Relative resolution of a HiGHS proof: it prunes within its MIP feasibility tolerance,
#: 1e-6, of the objective, which the program normalises by the largest weight (measured:
#: on weights spanning 1e-15..1, optima missed by up to 1e-6 max_j w_j). A
#: weighted completion whose distinct values may differ by less than this times
#: max_j w_j (:func:`weight_grain`) is reported with status "solver_tolerance".
SOLVER_RESOLUTION = 1e-5


class _OutOfTime(Exception):
    """The time limit passed while planning or building (caught in completion_optimum)."""


# ------------------------------------------------------------------------- inputs


def _check_inputs(jobs: object, machines: object, objective: object
                  ) -> tuple[JobSet, Machines, np.ndarray]:
    if not isinstance(jobs, JobSet) or not isinstance(machines, Machines):
        raise ValueError("expected a theory.JobSet and a theory.Machines")
    if objective not in COMPLETION_OBJECTIVES:
        raise ValueError(f"objective must be one of {COMPLETION_OBJECTIVES}, got "
                         f"{objective!r}")
    for name, arr in (("release time", jobs.arrival), ("processing time", jobs.processing)):
        bad = np.flatnonzero(arr != np.round(arr))
        if bad.size:
            j = int(bad[0])
            raise ValueError(
                f"the time-indexed program needs integer {name}s; job {jobs.ids[j]!r} has "
                f"{arr[j]:g}: scale time first (multiply every release and processing "
                f"time by a common denominator, e.g. 10 for one decimal) and divide the "
                f"answer back")
    d = normalised_demand(jobs, machines)  # identical machines, demands fit
    if objective == "weighted-completion" and not math.isfinite(_weighted(jobs.weight, (
            jobs.arrival + jobs.processing))):
        raise ValueError(f"sum_j w_j C_j overflows a float here (largest weight "
                         f"{jobs.weight.max():g}); divide every weight by a common factor "
                         f"(the optimal schedules stay the same)")
    return jobs, machines, d


def _weighted(w: np.ndarray, C: np.ndarray) -> float:
    """sum_j w_j C_j as a float, inf when it overflows (no warning)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.sum(w * C))


def _check_horizon(jobs: JobSet, horizon: object) -> int | None:
    if horizon is None:
        return None
    if isinstance(horizon, bool) or not isinstance(horizon, int | np.integer | float):
        raise ValueError(f"horizon must be a whole number of time units, got {horizon!r}")
    if not (math.isfinite(horizon) and horizon == int(horizon) and horizon >= 1):
        raise ValueError(f"horizon must be a whole number of time units >= 1, got "
                         f"{horizon!r}")
    H = int(horizon)
    end = jobs.arrival + jobs.processing
    if H < end.max():
        j = int(np.argmax(end))
        raise ValueError(f"horizon too short: {H}, but job {jobs.ids[j]!r} released at "
                         f"{jobs.arrival[j]:g} runs for {jobs.processing[j]:g}, so at least "
                         f"{end.max():g}")
    return H


# ------------------------------------------------------------- list scheduling


class _Profile:
    """One machine's normalised load over time, a step function: ``loads[k]`` on
    [times[k], times[k + 1]), the last step (load 0) running to infinity."""

    def __init__(self, R: int):
        self.times: list[float] = [0.0]
        self.loads: list[np.ndarray] = [np.zeros(R)]

    def _split(self, x: float) -> int:
        """Index of the step starting at ``x`` (made if needed)."""
        k = int(np.searchsorted(self.times, x, side="right")) - 1
        if self.times[k] != x:
            self.times.insert(k + 1, x)
            self.loads.insert(k + 1, self.loads[k].copy())
            k += 1
        return k

    def earliest(self, r: float, p: float, d: np.ndarray) -> float:
        """Earliest s >= r with load + d <= 1 on [s, s + p)."""
        k = int(np.searchsorted(self.times, r, side="right")) - 1
        s = r
        while True:
            kk = k
            while kk < len(self.times) and self.times[kk] < s + p:
                if np.any(self.loads[kk] + d > 1 + LOAD_TOL):
                    break
                kk += 1
            else:
                return s
            s, k = self.times[kk + 1], kk + 1  # the last step has load 0: d fits there

    def add(self, s: float, p: float, d: np.ndarray) -> None:
        a, b = self._split(s), self._split(s + p)
        for k in range(a, b):
            self.loads[k] = self.loads[k] + d


def earliest_fit_schedule(jobs: JobSet, machines: Machines, order: np.ndarray | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """A feasible non-preemptive schedule: jobs taken in ``order`` (default: release
    order, ties by index), each placed at its earliest start >= r_j at which it fits
    some machine for p_j (lowest-index machine on ties), earlier placements kept (so a
    job may start before one placed earlier). Returns (start, machine), input order.

    Each job starts by max(r_j, the makespan so far) at the latest (machine 0 is empty
    from then on), so the makespan is <= max_j r_j + sum_j p_j. With integer releases and
    processing times every start is an integer."""
    return _earliest_fit(jobs, machines, order, None)


def _earliest_fit(jobs: JobSet, machines: Machines, order: np.ndarray | None,
                  clock: Deadline | None) -> tuple[np.ndarray, np.ndarray]:
    d = normalised_demand(jobs, machines)
    N, M = jobs.n, machines.m
    if order is None:
        order = np.lexsort((np.arange(N), jobs.arrival))
    profiles = [_Profile(jobs.resources) for _ in range(M)]
    start = np.zeros(N)
    machine = np.zeros(N, dtype=np.int64)
    for j in order:
        if clock is not None and clock.expired():
            raise _OutOfTime
        r, p = float(jobs.arrival[j]), float(jobs.processing[j])
        best, where = math.inf, 0
        for i, prof in enumerate(profiles):
            s = prof.earliest(r, p, d[j])
            if s < best:
                best, where = s, i
        profiles[where].add(best, p, d[j])
        start[j], machine[j] = best, where
    return start, machine


# ------------------------------------------------------------------ checking


def check_schedule(jobs: JobSet, machines: Machines, start: object, machine: object, *,
                   horizon: float | None = None) -> None:
    """Raise ``ValueError`` unless (``start``, ``machine``) is a feasible non-preemptive
    schedule (FL24 Sec. 3): S_j >= r_j, machine indices in range, C_j <= ``horizon`` if
    given, and on every machine the running jobs' normalised demands sum to <= 1 (up to
    ``LOAD_TOL``) per resource at every time. Loads only rise at start times, so checking
    the jobs running at each start time S_k checks every time.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: integer releases r_j and processing times p_j, weights w_j > 0,
        demands d_j in the machines' units (one per resource).
    machines : theory.Machines
        M identical machines (the demands are normalised by their capacity).
    start : array_like, shape (N,)
        Start times S_j (input order).
    machine : array_like of int, shape (N,)
        Machine index of each job, in 0..M-1.
    horizon : float or None, default None
        Latest allowed completion (None: no limit).

    Raises
    ------
    ValueError
        If ``start`` or ``machine`` has the wrong length, a start is not finite or is
        before its release, a machine index is out of range, a job completes after
        ``horizon``, or a machine is overloaded; also for jobs and machines that
        ``theory.normalised_demand`` refuses.

    References
    ----------
    FL24, Sec. 3 (the non-preemptive multi-resource model).

    Examples
    --------
    >>> from capacity import check_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1],
    ...               demand=[[0.6], [0.5], [0.5]], weight=[1, 2, 1])
    >>> machines = Machines.identical(1, 1.0)
    >>> check_schedule(jobs, machines, [2, 0, 1], [0, 0, 0])   # feasible: no output
    >>> check_schedule(jobs, machines, [0, 0, 2], [0, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: machine 0 is overloaded at time 0: jobs ['0', '1'] demand [1.1] (normalised) > 1
    """
    d = normalised_demand(jobs, machines)
    S = np.asarray(start, dtype=float)
    mach = np.asarray(machine)
    N = jobs.n
    if S.shape != (N,) or mach.shape != (N,):
        raise ValueError(f"start and machine need {N} entries, got {S.shape}, {mach.shape}")
    if not np.all(np.isfinite(S)):
        raise ValueError("start times must be finite")
    if not np.all((mach == np.round(mach)) & (mach >= 0) & (mach < machines.m)):
        raise ValueError(f"machine indices must be integers in 0..{machines.m - 1}")
    early = np.flatnonzero(S < jobs.arrival)
    if early.size:
        j = int(early[0])
        raise ValueError(f"job {jobs.ids[j]!r} starts at {S[j]:g} before its release "
                         f"{jobs.arrival[j]:g}")
    C = S + jobs.processing
    if horizon is not None and C.max() > horizon:
        j = int(np.argmax(C))
        raise ValueError(f"job {jobs.ids[j]!r} completes at {C[j]:g}, after the horizon "
                         f"{horizon:g}")
    # per machine in start order, the running set kept in a heap by completion; the
    # load is summed afresh (as the docstring says) only when the running total is near 1
    near = 1 + LOAD_TOL - 1e-6
    for i in np.unique(mach):
        on = np.flatnonzero(mach == i)
        running: list[tuple[float, int]] = []
        load = np.zeros(d.shape[1])
        for k in on[np.lexsort((on, S[on]))]:
            while running and running[0][0] <= S[k]:
                load -= d[heapq.heappop(running)[1]]
            heapq.heappush(running, (float(C[k]), int(k)))
            load += d[k]
            if np.any(load > near):
                ids = [j for _, j in running]
                exact = d[ids].sum(axis=0)
                if np.any(exact > 1 + LOAD_TOL):
                    raise ValueError(f"machine {int(i)} is overloaded at time {S[k]:g}: "
                                     f"jobs {[jobs.ids[j] for j in sorted(ids)]} demand "
                                     f"{exact.tolist()} (normalised) > 1")
                load = exact


# --------------------------------------------------------------------- program


@dataclass(frozen=True)
class _Plan:
    """Everything the program needs besides its rows: inputs, deadlines, heuristics."""

    jobs: JobSet
    machines: Machines
    d: np.ndarray  # normalised demands (N, R)
    w: np.ndarray  # weights / max weight (the same optimal schedules, no overflow)
    objective: str
    H: int  # horizon: every C_j <= H
    H_free: int  # the horizon without ``horizon=``: every optimum fits in it
    deadline: np.ndarray  # (N,) integer D_j <= H
    heuristic: dict[str, float]  # list schedules' best weighted completion / makespan
    variables: int
    nonzeros: int
    fallback: tuple[np.ndarray, np.ndarray] | None  # best list schedule within H


def _count(jobs: JobSet, machines: Machines, deadline: np.ndarray, R_used: np.ndarray
           ) -> tuple[int, int]:
    """(variables, nonzeros) of the program with these deadlines, before building it."""
    N, M = jobs.n, machines.m
    starts = np.maximum(deadline - jobs.processing - jobs.arrival + 1, 0)
    on = np.minimum(np.arange(N) + 1, M)  # machines 0..min(j, M - 1)
    x = float(np.sum(starts * on))
    per_x = 2 + R_used * jobs.processing + 1  # assign, on, capacity rows, objective row
    # ``order`` row (j, i), i >= 1, j >= i: y[j, i] and y[k, i - 1] for k = i - 1..j - 1
    n = np.maximum(N - np.arange(1, M), 0).astype(float)
    order = float(np.sum(n * (n + 1) / 2 + n))
    nnz = float(np.sum(starts * on * per_x)) + N * M + order
    return int(x) + N * M + 1, int(min(nnz, 2.0**62))


def _deadlines(plan_w: np.ndarray, jobs: JobSet, objective: str,
               top: tuple[float, float, np.ndarray, np.ndarray]) -> np.ndarray:
    """D_j of the module docstring from the list schedule ``top`` (real-valued)."""
    a, p = jobs.arrival, jobs.processing
    if objective == "makespan":
        return np.full(jobs.n, top[1])
    # W - sum_{k != j} w_k (r_k + p_k) = w_j (r_j + p_j) + G with G = sum_k w_k (C_k - r_k
    # - p_k): a sum of terms >= 0, so no cancellation (a weight of 1e-20 next to 1 stays
    # visible), then D_j = r_j + p_j + G / w_j, capped by A + P
    G = float(np.sum(plan_w * (top[2] - a)))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        slack = np.where(plan_w > 0, G / plan_w, np.inf)
    slack = np.where(np.isnan(slack), np.inf, slack)
    D = np.floor(a + p + slack * (1 + 1e-9) + 1e-9)
    return np.maximum(np.minimum(D, a.max() + p.sum()), a + p)


def _plan(jobs: object, machines: object, objective: object, horizon: object,
          max_variables: int, max_nonzeros: int, clock: Deadline | None = None) -> _Plan:
    jobs, machines, d = _check_inputs(jobs, machines, objective)
    H_given = _check_horizon(jobs, horizon)
    a, p = jobs.arrival, jobs.processing
    w = jobs.weight / jobs.weight.max()
    N, M = jobs.n, machines.m
    R_used = np.count_nonzero(d > 0, axis=1)
    what = f"the completion program ({objective}) on {N} jobs x {M} machines"
    # cheap refusal first: even the shortest possible horizon is too many variables
    lb = math.ceil(makespan_lower_bound(jobs, machines, per_resource=True).value - 1e-9)
    floor_need, floor_nnz = _count(jobs, machines, np.full(N, lb, dtype=float), R_used)
    check_budget(floor_need, max_variables, what=what, option="max_variables",
                 unit="variables", hint="fewer jobs or shorter processing times")
    check_budget(floor_nnz, max_nonzeros, what=what, option="max_nonzeros",
                 unit="nonzeros", hint="fewer jobs, machines or shorter processing times")
    # list schedules: feasible, so upper bounds; (weighted completion, makespan) each
    with np.errstate(under="ignore"):
        density = jobs.weight / p
    orders = [np.lexsort((np.arange(N), a)), np.lexsort((np.arange(N), a, -density))]
    scores = []  # (weighted completion with w, makespan, start, machine)
    for order in orders:
        S, i = _earliest_fit(jobs, machines, order, clock)
        check_schedule(jobs, machines, S, i)
        scores.append((float(np.sum(w * (S + p))), float(np.max(S + p)), S, i))
    heuristic = {"weighted_completion": min(_weighted(jobs.weight, s[2] + p) for s in scores),
                 "makespan": min(s[1] for s in scores)}
    key = 1 if objective == "makespan" else 0
    D_free = _deadlines(w, jobs, str(objective), min(scores, key=lambda s: s[key]))
    H_free = int(D_free.max())
    end = math.inf if H_given is None else H_given
    within = [s for s in scores if s[1] <= end]  # the schedules that fit the horizon
    fallback = None
    if not within:  # no known schedule ends by the horizon: nothing to cut with
        D = np.full(N, float(end))
    else:
        top = min(within, key=lambda s: s[key])
        D = _deadlines(w, jobs, str(objective), top)
        fallback = (top[2], top[3])
    if H_given is not None:
        D = np.minimum(D, H_given)
        H = H_given
    else:
        H = H_free
    deadline = D.astype(np.int64)
    variables, nonzeros = _count(jobs, machines, deadline.astype(float), R_used)
    check_budget(variables, max_variables, what=f"{what}, horizon {H}",
                 option="max_variables", unit="variables",
                 hint="fewer jobs, shorter processing times or a shorter horizon")
    # the blocks are index arrays over (N, M, H) however many entries the deadlines keep
    check_budget(N * M * H, DENSE_FACTOR * max_variables,
                 what=f"{what}, horizon {H} (index arrays of N x M x H entries)",
                 option="max_variables", unit="entries",
                 hint=f"{DENSE_FACTOR} entries per allowed variable; fewer jobs or a "
                      f"shorter horizon")
    check_budget(nonzeros, max_nonzeros, what=f"{what}, horizon {H}",
                 option="max_nonzeros", unit="nonzeros",
                 hint="fewer jobs, shorter processing times or a shorter horizon")
    return _Plan(jobs, machines, d, w, str(objective), H, H_free, deadline, heuristic,
                 variables, nonzeros, fallback)


def _build(plan: _Plan, clock: Deadline | None = None) -> LinearProgram:
    """The program of ``plan``; O(nonzeros + N M H) work in steps of at most
    :data:`CHUNK` coefficients, each after a look at ``clock`` (:class:`_OutOfTime`)."""
    jobs, d, H, D = plan.jobs, plan.d, plan.H, plan.deadline
    a = jobs.arrival.astype(np.int64)
    p = jobs.processing.astype(np.int64)
    w = plan.w
    N, M, R = jobs.n, plan.machines.m, jobs.resources

    def tick() -> None:
        if clock is not None and clock.expired():
            raise _OutOfTime

    t = np.arange(H)
    can_start = (t[None, :] >= a[:, None]) & (t[None, :] <= (D - p)[:, None])  # (N, H)
    allowed = np.arange(M)[None, :] <= np.arange(N)[:, None]  # (N, M): machine i <= j
    mask = can_start[:, None, :] & allowed[:, :, None]  # (N, M, H)
    completion = (t[None, :] + p[:, None]).astype(float)  # (N, H)
    B = ProgramBuilder(f"FL24 completion ({plan.objective}, N={N}, M={M}, H={H})")
    cost = (w[:, None] * completion)[:, None, :] if plan.objective != "makespan" else 0.0
    x = B.add_variables("x", (N, M, H), upper=1.0, cost=cost, integer=True, mask=mask)
    rows = B.add_rows("assign", (N,), lower=1.0, upper=1.0)
    B.add_terms(rows[:, None, None], x)
    tick()
    # capacity: rows only where the jobs that might run could overload
    may_run = (t[None, :] >= a[:, None]) & (t[None, :] < D[:, None])  # (N, H)
    potential = np.zeros((M, R, H))
    for i in range(M):
        js = np.arange(i, N)
        potential[i] = np.einsum("jl,jh->lh", d[js], may_run[js].astype(float))
        tick()
    needed = potential > 1 + LOAD_TOL
    cap = B.add_rows("capacity", (M, R, H), upper=1.0, mask=needed)
    for j in range(N):
        # x[j, i, s] (s = a_j..D_j - p_j) covers slots s..s + p_j - 1 < D_j <= H
        s = np.arange(a[j], D[j] - p[j] + 1)
        ls = np.flatnonzero(d[j] > 0)
        cols = x[j][:, s]  # (M, S)
        per_offset = max(1, M * len(ls) * len(s))
        step = max(1, CHUNK // per_offset)
        for off0 in range(0, int(p[j]), step):
            tick()
            off = np.arange(off0, min(off0 + step, int(p[j])))
            tau = s[:, None] + off[None, :]  # (S, O)
            r_idx = cap[:, ls][:, :, tau]  # (M, L, S, O)
            B.add_terms(r_idx, cols[:, None, :, None],
                        d[j, ls][None, :, None, None])
    tick()
    # y[j, i] = sum_t x[j, i, t]; order: y[j, i] <= sum_{k < j} y[k, i - 1]
    y = B.add_variables("y", (N, M), upper=1.0, mask=allowed)
    rows = B.add_rows("on", (N, M), lower=0.0, upper=0.0, mask=allowed)
    B.add_terms(rows[:, :, None], x, 1.0)
    B.add_terms(rows, y, -1.0)
    if M > 1:
        later = allowed.copy()
        later[:, 0] = False
        rows = B.add_rows("order", (N, M), upper=0.0, mask=later)
        B.add_terms(rows, y, 1.0)
        for i in range(1, M):
            tick()
            for j in range(i, N):
                B.add_terms(rows[j, i], y[:j, i - 1], -1.0)
    if plan.objective == "makespan":
        lb = makespan_lower_bound(jobs, plan.machines, per_resource=True).value
        low = min(math.ceil(lb - 1e-9), H)  # above H: infeasible, HiGHS will say so
        cmax = B.add_variables("cmax", (1,), lower=low, upper=float(H),
                               cost=1.0, integer=True)
        rows = B.add_rows("cmax", (N,), lower=0.0)
        B.add_terms(rows[:, None], cmax[None, :], 1.0)
        B.add_terms(rows[:, None, None], x, -completion[:, None, :])
    tick()
    return B.build()


def completion_program(jobs: JobSet, machines: Machines, *,
                       objective: str = "weighted-completion", horizon: int | None = None,
                       max_variables: int = MAX_VARIABLES,
                       max_nonzeros: int = MAX_NONZEROS) -> LinearProgram:
    """The time-indexed MILP of the module docstring for ``objective``
    ("weighted-completion" or "makespan") on integer releases and processing times.

    Blocks: ``x`` (N, M, H) start binaries, ``y`` (N, M) machine choice, ``cmax`` (1,)
    for the makespan; rows ``assign``, ``capacity`` (M, R, H), ``on``, ``order``,
    ``cmax``. Deadlines and the horizon H as in the module docstring (``horizon=``
    overrides H). Refuses (:class:`theory.budgets.BudgetExceeded`) before building when
    the variables exceed ``max_variables`` or the nonzeros ``max_nonzeros``.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: integer releases r_j and processing times p_j, weights w_j > 0,
        demands d_j in the machines' units (one per resource).
    machines : theory.Machines
        M identical machines (the demands are normalised by their capacity).
    objective : {"weighted-completion", "makespan"}, default "weighted-completion"
        Minimise sum_j w_j C_j or max_j C_j.
    horizon : int or None, default None
        The latest completion allowed (None: the horizon every optimum fits in).
    max_variables : int, default MAX_VARIABLES
        Refuse a program with more variables (2,000,000).
    max_nonzeros : int, default MAX_NONZEROS
        Refuse a program with more constraint-matrix nonzeros (20,000,000).

    Returns
    -------
    LinearProgram
        The time-indexed MILP (costs w_j / max_k w_k).

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and identical
        ``theory.Machines`` with the same resources, a job fits no machine, a release
        or processing time is not an integer, ``objective`` is unknown, sum_j w_j C_j
        overflows a float, or ``horizon`` is not a whole number or is shorter than
        max_j (r_j + p_j).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) Above ``max_variables`` or ``max_nonzeros``.

    References
    ----------
    FL24, Sec. 3 (the model and its objectives); the time-indexed formulation and its
    proofs are this package's (module docstring).

    Examples
    --------
    >>> from capacity import completion_program
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1],
    ...               demand=[[0.6], [0.5], [0.5]], weight=[1, 2, 1])
    >>> machines = Machines.identical(1, 1.0)
    >>> program = completion_program(jobs, machines)
    >>> program
    LinearProgram(FL24 completion (weighted-completion, N=3, M=1, H=4): 11 variables
    (8 integer), 10 rows, 30 nonzeros, minimize)
    >>> list(program.variables), list(program.rows)
    (['x', 'y'], ['assign', 'capacity', 'on'])
    """
    return _build(_plan(jobs, machines, objective, horizon, max_variables, max_nonzeros))


def canonical_machines(machine: object) -> np.ndarray:
    """Relabel machines so that the used ones are 0, 1, ... in the order of their
    lowest-index job (the symmetry breaking of :func:`completion_program`)."""
    mach = np.asarray(machine, dtype=np.int64)
    firsts = sorted((int(np.flatnonzero(mach == i)[0]), int(i)) for i in np.unique(mach))
    new = {old: k for k, (_, old) in enumerate(firsts)}
    return np.array([new[int(i)] for i in mach], dtype=np.int64)


def _as_solution(program: LinearProgram, plan: _Plan, start: np.ndarray,
                 machine: np.ndarray) -> dict[str, np.ndarray] | None:
    """The program's variables for a schedule (None if it lies outside the program,
    which the deadlines rule out for the list schedule they come from)."""
    x = np.zeros(program.num_variables)
    idx = program.variables["x"]
    for j in range(plan.jobs.n):
        k = idx[j, machine[j], start[j]] if start[j] < idx.shape[2] else -1
        if k < 0:
            return None
        x[k] = 1.0
    y = program.variables["y"]
    for j in range(plan.jobs.n):
        x[y[j, machine[j]]] = 1.0
    if "cmax" in program.variables:
        x[program.variables["cmax"][0]] = float(np.max(start + plan.jobs.processing))
    if program.violation(x) > 1e-9:
        return None
    return program.unpack(x)


def _decode(res: ProgramResult, plan: _Plan) -> tuple[np.ndarray, np.ndarray]:
    x = res.solution["x"]
    N = plan.jobs.n
    start = np.zeros(N, dtype=np.int64)
    machine = np.zeros(N, dtype=np.int64)
    for j in range(N):
        on = np.argwhere(x[j] > 0.5)
        if len(on) != 1:
            raise ProgramError(f"the solution starts job {plan.jobs.ids[j]!r} {len(on)} "
                               f"times (expected once)", "invalid_solution")
        machine[j], start[j] = int(on[0, 0]), int(on[0, 1])
    return start, machine


def completion_optimum(jobs: JobSet, machines: Machines, *,
                       objective: str = "weighted-completion", horizon: int | None = None,
                       method: str = "highs",
                       time_limit: float | None = DEFAULT_TIME_LIMIT,
                       max_variables: int = MAX_VARIABLES,
                       max_nonzeros: int = MAX_NONZEROS,
                       memory_budget: float = MEMORY_BUDGET) -> ProgramResult:
    """An optimal non-preemptive schedule of FL24's model (Sec. 3) for ``objective``, by
    :func:`completion_program`, within ``time_limit`` seconds (default
    :data:`capacity.programs.DEFAULT_TIME_LIMIT`, None for none), planning and building
    included (the clock is read between steps).

    ``value`` is the schedule's objective (sum_j w_j C_j, not divided by N, or the
    makespan); ``lower`` / ``upper`` bound the optimum over every schedule. ``status``:

    * "optimal": proven, ``lower == upper == value``;
    * "time_limit" (or another solver limit): ``value`` and ``upper`` are the better of
      HiGHS's incumbent and the list schedule the deadlines came from
      (``extra["source"]``: "solver" or "list schedule"; value NaN and ``upper`` the
      list schedules' best when no schedule within the horizon is known), ``lower`` the
      best of HiGHS's dual bound and the closed forms of
      :mod:`theory.nonpreemptive_bounds` (sum_j w_j (r_j + p_j); the makespan lower
      bound), rounded up when the optimum is known to be an integer (makespan; integer
      weights);
    * "horizon_limit": ``horizon`` is below the horizon every optimum fits in
      (``extra["free_horizon"]``), so ``value`` is optimal among the schedules ending by
      ``horizon`` only: an upper bound, with the closed form as ``lower``.

    ``extra``: ``start``, ``machine``, ``completion`` (per job, input order), ``horizon``
    H, ``deadline`` (per job), ``weighted_completion``, ``makespan`` and ``awct``
    (= weighted completion / N) of the returned schedule, ``heuristic`` (the list
    schedules' values, upper bounds), ``build_seconds``, ``solve_seconds``; ``seconds``
    covers the whole call. For ``"makespan"`` the schedule is some makespan-optimal one,
    its weighted completion not minimised. The program's costs use w_j / max_k w_k (the
    same optimal schedules), so weights of 1e-20 or 1e300 solve like weights near 1; a
    sum_j w_j C_j beyond the float range is refused (ValueError).

    The schedule is re-checked by :func:`check_schedule` before it is returned.
    Infeasible (a ``horizon`` too short to pack the jobs) or a solver failure:
    :class:`ProgramError`.

    Size (measured with HiGHS 1.15 on two shared cores; M = 2, R = 2, p_j in 1..4,
    r_j in 0..5, demands uniform in [0.05, 0.7], unit weights; seconds to a proven
    optimum over 5 seeds; the horizon H came out 8-57)::

        N    weighted completion             makespan
        8    median 0.01, max 0.06           median 0.01, max 0.06
        10   median 0.02, max 0.06           median 0.01, max 0.01
        12   median 0.13, max 1.7            median 0.12, max 0.4
        15   median 0.6,  max 0.9            median 0.04, max 0.08
        20   median 8,    max 32             median 1.5,  max 2.9
        25   median 33, 1 of 5 not in 60     median 9, 2 of 5 not in 60 (gap 8-10%)
        30   -                               none in 60 (gap 6-12%)

    The time goes into branching (the LP relaxation packs fractionally), not the
    horizon: a 20-job instance given its optimal makespan as ``horizon`` (4x fewer
    variables) took 26 s instead of 37 s. Past about 15 jobs pass ``time_limit`` and
    read ``lower``.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs: integer releases r_j and processing times p_j, weights w_j > 0,
        demands d_j in the machines' units (one per resource).
    machines : theory.Machines
        M identical machines (the demands are normalised by their capacity).
    objective : {"weighted-completion", "makespan"}, default "weighted-completion"
        Minimise sum_j w_j C_j or max_j C_j.
    horizon : int or None, default None
        The latest completion allowed (None: the horizon every optimum fits in; a
        shorter one gives status "horizon_limit").
    method : {"highs", "cvxpy"}, default "highs"
        The solver (:func:`capacity.solve`).
    time_limit : float or None, default DEFAULT_TIME_LIMIT
        Seconds for the whole call (60; None: no limit).
    max_variables : int, default MAX_VARIABLES
        Refuse a program with more variables (2,000,000).
    max_nonzeros : int, default MAX_NONZEROS
        Refuse a program with more constraint-matrix nonzeros (20,000,000).
    memory_budget : float, default MEMORY_BUDGET
        Refuse a program whose building needs more bytes (8 GiB).

    Returns
    -------
    ProgramResult
        ``value``, ``lower``, ``upper``, ``status`` and the ``extra`` entries above.

    Raises
    ------
    ValueError
        If ``jobs`` and ``machines`` are not a ``theory.JobSet`` and identical
        ``theory.Machines`` with the same resources, a job fits no machine, a release
        or processing time is not an integer, ``objective`` is unknown, sum_j w_j C_j
        overflows a float, or ``horizon`` is not a whole number or is shorter than
        max_j (r_j + p_j).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) Above ``max_variables``, ``max_nonzeros`` or ``memory_budget``.
    capacity.ProgramError
        When the program is infeasible (a ``horizon`` too short to pack the jobs), the
        solver fails, or its schedule fails the independent check.

    References
    ----------
    FL24, Sec. 3 (the offline problem whose optimum MRIS is compared with); the
    time-indexed MILP is this package's (module docstring).

    Examples
    --------
    One machine of capacity 1; jobs 0 and 1 cannot run together (0.6 + 0.5 > 1),
    jobs 1 and 2 can:

    >>> from capacity import completion_optimum
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1],
    ...               demand=[[0.6], [0.5], [0.5]], weight=[1, 2, 1])
    >>> machines = Machines.identical(1, 1.0)
    >>> res = completion_optimum(jobs, machines)
    >>> res.status, res.value, res.lower
    ('optimal', 8.0, 8.0)
    >>> res.extra["start"].tolist(), res.extra["completion"].tolist()
    ([2, 0, 1], [4, 1, 2])
    >>> completion_optimum(jobs, machines, objective="makespan").value
    3.0
    """
    clock = Deadline(time_limit)
    jobs, machines, _ = _check_inputs(jobs, machines, objective)
    if objective == "makespan":
        closed = makespan_lower_bound(jobs, machines, per_resource=True).value
        integral = True
    else:
        closed = _weighted(jobs.weight, jobs.arrival + jobs.processing)
        integral = bool(np.all(jobs.weight == np.round(jobs.weight)))
    try:
        plan = _plan(jobs, machines, objective, horizon, max_variables, max_nonzeros, clock)
    except _OutOfTime:
        return _unsolved(jobs, None, None, closed, integral, clock,
                         "the time limit passed during the list schedules", str(objective))
    check_program_memory(plan.nonzeros, memory_budget, "the completion program")
    stopped = clock.too_short_for(plan.nonzeros)
    if stopped is not None:
        return _unsolved(jobs, plan, None, closed, integral, clock, stopped)
    try:
        program = _build(plan, clock)
    except _OutOfTime:
        return _unsolved(jobs, plan, None, closed, integral, clock,
                         "the time limit passed while building the program")
    built = clock.elapsed()
    if clock.expired():
        return _unsolved(jobs, plan, program, closed, integral, clock,
                         "the time limit passed while building the program")
    res = solve_before(program, clock, method=method, infeasible=f"the horizon of "
                       f"{plan.H} is too short to pack these jobs")
    if res is None:
        return _unsolved(jobs, plan, program, closed, integral, clock,
                         "the solver found no schedule within the time limit")
    start, machine = _decode(res, plan)
    try:
        check_schedule(jobs, machines, start, machine, horizon=plan.H)
    except ValueError as e:
        raise ProgramError(f"the solver's schedule fails the independent check: {e}",
                           "invalid_solution") from None
    scaled = float(np.sum(plan.w * (start + jobs.processing)))
    if plan.objective == "makespan":
        scaled = float(np.max(start + jobs.processing))
    if abs(scaled - res.value) > 1e-6 * (1 + abs(scaled)):
        raise ProgramError(f"the solver's objective {res.value:g} differs from its "
                           f"schedule's {scaled:g}", "invalid_solution")
    solution, source = res.solution, "solver"
    # HiGHS proves to within SOLVER_RESOLUTION of the objective it sees (w / max w)
    scale = 1.0 if plan.objective == "makespan" else float(jobs.weight.max())
    slack = SOLVER_RESOLUTION * scale
    resolved = plan.objective == "makespan" or weight_grain(jobs.weight) >= slack
    status = res.status
    if plan.H < plan.H_free:  # the program's bounds hold for its horizon only
        lower = closed
        if status == "optimal":
            status = "horizon_limit"  # optimal among schedules ending by the horizon only
    elif status == "optimal" and resolved:
        lower = math.inf  # proven: the value itself (_answer takes the minimum)
    else:
        if status == "optimal":
            status = "solver_tolerance"  # weights finer than the solver resolves
        lower = max(res.lower * scale - slack, closed)
    if res.status != "optimal" and plan.fallback is not None:
        # stopped at a limit: the list schedule the deadlines came from may be better
        S0, i0 = plan.fallback[0].astype(np.int64), canonical_machines(plan.fallback[1])
        if _score(jobs, plan.objective, S0) < _score(jobs, plan.objective, start):
            sol0 = _as_solution(program, plan, S0, i0)
            if sol0 is not None:
                check_schedule(jobs, machines, S0, i0, horizon=plan.H)
                start, machine, solution, source = S0, i0, sol0, "list schedule"
    extra = {**res.extra, "solve_seconds": res.seconds, "build_seconds": built}
    return _answer(jobs, plan, start, machine, solution, source, status, lower, integral,
                   clock, res.method, res.solver, extra)


def weight_grain(weights: object) -> float:
    """The largest q with every weight a whole multiple of q, read in decimal (the
    shortest text of each float: 0.1 -> 1/10, 1e-20 -> 1e-20); 1 for integer weights.
    sum_j w_j C_j of two schedules then differ by 0 or at least q.

    :func:`completion_optimum` compares it with the resolution of the solver's proof
    (``SOLVER_RESOLUTION`` times max_j w_j): weights finer than that give status
    "solver_tolerance" instead of "optimal".

    Parameters
    ----------
    weights : array_like
        The job weights (finite floats).

    Returns
    -------
    float
        The grain q = 1 / (common denominator of the weights' decimal texts).

    Raises
    ------
    ValueError
        If a weight is NaN or infinite (it has no decimal text).

    References
    ----------
    FL24, Sec. 3 (the weighted completion objective with integer completion times);
    docs/design.md, section Programs.

    Examples
    --------
    >>> from capacity import weight_grain
    >>> weight_grain([1, 2]), weight_grain([0.5, 0.25]), weight_grain([0.1, 0.3])
    (1.0, 0.25, 0.1)
    """
    w = np.unique(np.asarray(weights, dtype=float))
    den = 1
    for x in w:
        den = math.lcm(den, Fraction(repr(float(x))).denominator)
    return float(Fraction(1, den))


def _score(jobs: JobSet, objective: str, start: np.ndarray) -> float:
    C = start + jobs.processing
    return _weighted(jobs.weight, C) if objective != "makespan" else float(C.max())


def _answer(jobs: JobSet, plan: _Plan, start: np.ndarray, machine: np.ndarray,
            solution: dict[str, np.ndarray], source: str, status: str, lower: float,
            integral: bool, clock: Deadline, method: str, solver: str,
            extra: dict[str, Any]) -> ProgramResult:
    completion = start.astype(np.int64) + jobs.processing.astype(np.int64)
    wc = _weighted(jobs.weight, completion)
    ms = float(completion.max())
    value = wc if plan.objective == "weighted-completion" else ms
    if not math.isfinite(value):
        raise ValueError(f"sum_j w_j C_j overflows a float here (largest weight "
                         f"{jobs.weight.max():g}); divide every weight by a common "
                         f"factor (the optimal schedules stay the same)")
    lower = min(lower, value)
    if integral:
        lower = math.ceil(lower - 1e-6)
    extra = {
        **extra, "objective": plan.objective, "start": start, "machine": machine,
        "completion": completion, "horizon": plan.H, "free_horizon": plan.H_free,
        "deadline": plan.deadline, "weighted_completion": wc, "makespan": ms,
        "awct": wc / jobs.n, "heuristic": dict(plan.heuristic),
        "program": "FL24 time-indexed", "source": source}
    return ProgramResult(status=status, value=value, lower=float(lower), upper=value,
                         solution=solution, duals=None, method=method, solver=solver,
                         seconds=clock.elapsed(), extra=extra)


def _unsolved(jobs: JobSet, plan: _Plan | None, program: LinearProgram | None,
              closed: float, integral: bool, clock: Deadline, stopped: str,
              objective: str | None = None) -> ProgramResult:
    """The answer when the limit came before the solver had a schedule (``stopped``
    says when): the list schedule within the horizon, if the plan got that far, and
    the closed-form bound."""
    if plan is not None and plan.fallback is not None:
        S0, i0 = plan.fallback[0].astype(np.int64), canonical_machines(plan.fallback[1])
        sol = {} if program is None else (_as_solution(program, plan, S0, i0) or {})
        check_schedule(jobs, plan.machines, S0, i0, horizon=plan.H)
        return _answer(jobs, plan, S0, i0, sol, "list schedule", "time_limit", closed,
                       integral, clock, "none", "none", {"stopped": stopped})
    upper = math.inf
    extra: dict[str, Any] = {"objective": objective, "source": "none", "stopped": stopped}
    if plan is not None:
        key = "makespan" if plan.objective == "makespan" else "weighted_completion"
        upper = plan.heuristic[key]
        extra.update(objective=plan.objective, horizon=plan.H, free_horizon=plan.H_free,
                     heuristic=dict(plan.heuristic))
    lower = math.ceil(closed - 1e-6) if integral else closed
    return ProgramResult(status="time_limit", value=math.nan, lower=float(min(lower, upper)),
                         upper=float(upper), solution={}, duals=None, method="none",
                         solver="none", seconds=clock.elapsed(), extra=extra)
