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

Objective sum_j w_j sum_{i, t} (t + p_j) x[j, i, t], or C.

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
  term: in an optimal schedule sum_k w_k C_k <= W and C_k >= r_k + p_k. First term:
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
none does.

Sizes that solve: see :func:`completion_optimum`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from capacity.flowtime_programs import MAX_VARIABLES
from capacity.programs import LinearProgram, ProgramBuilder, ProgramError, ProgramResult, solve
from theory.budgets import check_budget
from theory.job_sets import JobSet, Machines
from theory.nonpreemptive_bounds import (
    makespan_lower_bound,
    normalised_demand,
    weighted_completion_lower_bound,
)

__all__ = [
    "COMPLETION_OBJECTIVES",
    "MAX_NONZEROS",
    "canonical_machines",
    "check_schedule",
    "completion_optimum",
    "completion_program",
    "earliest_fit_schedule",
]

COMPLETION_OBJECTIVES = ("weighted-completion", "makespan")
#: Constraint-matrix nonzeros a completion program may have before it refuses.
MAX_NONZEROS = 20_000_000
#: The dense (N, M, H) index arrays may hold this many entries per allowed variable.
DENSE_FACTOR = 10
#: Normalised loads may exceed 1 by this much (rounding of sums of d / c).
LOAD_TOL = 1e-9


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
    return jobs, machines, d


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
    d = normalised_demand(jobs, machines)
    N, M = jobs.n, machines.m
    if order is None:
        order = np.lexsort((np.arange(N), jobs.arrival))
    profiles = [_Profile(jobs.resources) for _ in range(M)]
    start = np.zeros(N)
    machine = np.zeros(N, dtype=np.int64)
    for j in order:
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
    the jobs running at each start time S_k checks every time."""
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
    for k in range(N):
        running = (mach == mach[k]) & (S <= S[k]) & (S[k] < C)
        load = d[running].sum(axis=0)
        if np.any(load > 1 + LOAD_TOL):
            ids = [jobs.ids[j] for j in np.flatnonzero(running)]
            raise ValueError(f"machine {int(mach[k])} is overloaded at time {S[k]:g}: "
                             f"jobs {ids} demand {load.tolist()} (normalised) > 1")


# --------------------------------------------------------------------- program


@dataclass(frozen=True)
class _Plan:
    """Everything the program needs besides its rows: inputs, deadlines, heuristics."""

    jobs: JobSet
    machines: Machines
    d: np.ndarray  # normalised demands (N, R)
    objective: str
    H: int  # horizon: every C_j <= H
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
    nnz = float(np.sum(starts * on * per_x)) + 2 * N * M
    return int(x) + N * M + 1, int(nnz)


def _plan(jobs: object, machines: object, objective: object, horizon: object,
          max_variables: int, max_nonzeros: int) -> _Plan:
    jobs, machines, d = _check_inputs(jobs, machines, objective)
    H_given = _check_horizon(jobs, horizon)
    a, p, w = jobs.arrival, jobs.processing, jobs.weight
    N, M = jobs.n, machines.m
    R_used = np.count_nonzero(d > 0, axis=1)
    what = f"the completion program ({objective}) on {N} jobs x {M} machines"
    # cheap refusal first: even the shortest possible horizon is too many variables
    lb = math.ceil(makespan_lower_bound(jobs, machines, per_resource=True).value - 1e-9)
    floor_need, _ = _count(jobs, machines, np.full(N, lb, dtype=float), R_used)
    check_budget(floor_need, max_variables, what=what, option="max_variables",
                 unit="variables", hint="fewer jobs or shorter processing times")
    # list schedules: feasible, so upper bounds; (weighted completion, makespan) each
    orders = [np.lexsort((np.arange(N), a)), np.lexsort((np.arange(N), a, p / w))]
    scores = []  # (weighted completion, makespan, start, machine)
    for order in orders:
        S, i = earliest_fit_schedule(jobs, machines, order)
        check_schedule(jobs, machines, S, i)
        scores.append((float(np.sum(w * (S + p))), float(np.max(S + p)), S, i))
    end = math.inf if H_given is None else H_given
    within = [s for s in scores if s[1] <= end]  # the schedules that fit the horizon
    heuristic = {"weighted_completion": min(s[0] for s in scores),
                 "makespan": min(s[1] for s in scores)}
    fallback = None
    if not within:  # no known schedule ends by the horizon: nothing to cut with
        D = np.full(N, float(end))
    elif objective == "makespan":
        top = min(within, key=lambda s: s[1])
        D = np.full(N, top[1])
        fallback = (top[2], top[3])
    else:
        top = min(within, key=lambda s: s[0])
        base = w * (a + p)
        slack = (top[0] - (base.sum() - base)) / w
        D = np.minimum(np.floor(slack + 1e-9 * (1 + np.abs(slack))), a.max() + p.sum())
        D = np.maximum(D, a + p)
        fallback = (top[2], top[3])
    if H_given is not None:
        D = np.minimum(D, H_given)
        H = H_given
    else:
        H = int(D.max())
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
    return _Plan(jobs, machines, d, str(objective), H, deadline, heuristic, variables,
                 nonzeros, fallback)


def _build(plan: _Plan) -> LinearProgram:
    jobs, d, H, D = plan.jobs, plan.d, plan.H, plan.deadline
    a = jobs.arrival.astype(np.int64)
    p = jobs.processing.astype(np.int64)
    w = jobs.weight
    N, M, R = jobs.n, plan.machines.m, jobs.resources
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
    # capacity: rows only where the jobs that might run could overload
    may_run = (t[None, :] >= a[:, None]) & (t[None, :] < D[:, None])  # (N, H)
    potential = np.zeros((M, R, H))
    for i in range(M):
        js = np.arange(i, N)
        potential[i] = np.einsum("jl,jh->lh", d[js], may_run[js].astype(float))
    needed = potential > 1 + LOAD_TOL
    cap = B.add_rows("capacity", (M, R, H), upper=1.0, mask=needed)
    for j in range(N):
        for off in range(int(p[j])):  # x[j, i, s] covers slot s + off
            tau = t + off
            ok = tau < H
            r_idx = cap[:, :, tau[ok]]  # (M, R, H')
            cols = x[j][:, None, ok]  # (M, 1, H')
            B.add_terms(r_idx, np.broadcast_to(cols, r_idx.shape),
                        np.broadcast_to(d[j][None, :, None], r_idx.shape))
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
                       method: str = "highs", time_limit: float | None = None,
                       max_variables: int = MAX_VARIABLES,
                       max_nonzeros: int = MAX_NONZEROS) -> ProgramResult:
    """An optimal non-preemptive schedule of FL24's model (Sec. 3) for ``objective``, by
    :func:`completion_program`.

    ``value`` is the schedule's objective (sum_j w_j C_j, not divided by N, or the
    makespan); ``lower`` / ``upper`` bound the optimum: equal to ``value`` when
    ``status="optimal"``; at a ``time_limit`` (``status="time_limit"``) ``upper`` is the
    incumbent and ``lower`` the best of HiGHS's dual bound and the closed forms of
    :mod:`theory.nonpreemptive_bounds` (sum_j w_j (r_j + p_j); the makespan lower bound),
    rounded up when the optimum is known to be an integer (makespan; integer weights).
    Stopped at a limit, the better of HiGHS's incumbent and the list schedule the
    deadlines came from is returned (``extra["source"]``: "solver" or "list schedule").
    ``extra``: ``start``, ``machine``, ``completion`` (per job, input order), ``horizon``
    H, ``deadline`` (per job), ``weighted_completion``, ``makespan`` and ``awct``
    (= weighted completion / N) of the returned schedule, ``heuristic`` (the list
    schedules' values, upper bounds), ``build_seconds``. For ``"makespan"`` the schedule
    is some makespan-optimal one, its weighted completion not minimised.

    The schedule is re-checked by :func:`check_schedule` before it is returned.
    Infeasible (a ``horizon`` too short to pack the jobs), a solver failure, or a limit
    reached with no incumbent: :class:`ProgramError`.

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
    """
    t0 = time.perf_counter()
    plan = _plan(jobs, machines, objective, horizon, max_variables, max_nonzeros)
    program = _build(plan)
    built = time.perf_counter() - t0
    try:
        res = solve(program, method=method, time_limit=time_limit)
    except ProgramError as e:
        if "nfeasible" in str(e):
            raise ProgramError(f"{e}: the horizon of {plan.H} is too short to pack these "
                               f"jobs", e.status) from None
        if "limit" in str(e).lower():
            raise ProgramError(f"{e} (a list schedule scores {plan.heuristic}; raise "
                               f"time_limit)", e.status) from None
        raise
    jobs, machines = plan.jobs, plan.machines
    start, machine = _decode(res, plan)
    try:
        check_schedule(jobs, machines, start, machine, horizon=plan.H)
    except ValueError as e:
        raise ProgramError(f"the solver's schedule fails the independent check: {e}",
                           "invalid_solution") from None
    completion = start + jobs.processing.astype(np.int64)
    wc = float(np.sum(jobs.weight * completion))
    ms = float(completion.max())
    value = wc if plan.objective == "weighted-completion" else ms
    if abs(value - res.value) > 1e-6 * (1 + abs(value)):
        raise ProgramError(f"the solver's objective {res.value:g} differs from its "
                           f"schedule's {value:g}", "invalid_solution")
    if plan.objective == "makespan":
        closed = makespan_lower_bound(jobs, machines, per_resource=True).value
        integral = True
    else:
        closed = weighted_completion_lower_bound(jobs)
        integral = bool(np.all(jobs.weight == np.round(jobs.weight)))
    solution, source = res.solution, "solver"
    if res.status != "optimal" and plan.fallback is not None:
        # stopped at a limit: the list schedule the deadlines came from may be better
        S0, i0 = plan.fallback[0].astype(np.int64), canonical_machines(plan.fallback[1])
        C0 = S0 + jobs.processing.astype(np.int64)
        wc0 = float(np.sum(jobs.weight * C0))
        v0 = wc0 if plan.objective == "weighted-completion" else float(C0.max())
        sol0 = _as_solution(program, plan, S0, i0) if v0 < value else None
        if sol0 is not None:
            check_schedule(jobs, machines, S0, i0, horizon=plan.H)
            start, machine, completion, wc, ms, value = S0, i0, C0, wc0, float(C0.max()), v0
            solution, source = sol0, "list schedule"
    lower = max(res.lower, closed)
    if integral:
        lower = math.ceil(lower - 1e-6)
    lower = min(lower, value)
    status = res.status
    extra: dict[str, Any] = {
        **res.extra, "objective": plan.objective, "start": start, "machine": machine,
        "completion": completion, "horizon": plan.H, "deadline": plan.deadline,
        "weighted_completion": wc, "makespan": ms, "awct": wc / jobs.n,
        "heuristic": dict(plan.heuristic), "build_seconds": built,
        "program": "FL24 time-indexed", "source": source}
    return ProgramResult(status=status, value=value, lower=float(lower), upper=value,
                         solution=solution, duals=None, method=res.method,
                         solver=res.solver, seconds=res.seconds, extra=extra)
