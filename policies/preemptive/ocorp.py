"""OCORP and its variants (XLL21 Sec. III-A, IV-A, IV-B and Algorithm 1).

All three keep a multiplier lambda_j per job, updated after each slot by eq. (10) with
the target rate p_j/(Gamma - a_j) of eq. (7) (Algorithm 1 line 7 misprints it as
p_j/(1 - a_j); see the errata register), and serve, each slot, the jobs whose Lagrangian
coefficient w_j(t) - lambda_j(t) (eq. (9), w_j(t) of eq. (5)) is negative:

* :class:`OCORP` (single resource, z = 1): Lemma 1 (eq. (22), corrected) on the pooled
  cores, most negative omega_j = (w_j - lambda_j)/d_j first, then packed largest job
  onto largest machine (IV-A);
* :class:`OCORPPlus`: the switching-cost program (31)-(32) in place of Lemma 1;
* :class:`OCORPM` (cores and memory): Algorithm 1, alternating the x-step (11) and the
  z-step (12), a 0/1 knapsack over memory per machine.

Defaults follow Sec. VI: step mu = t^(k + 0.5) in slot t; Gamma from eq. (27) over the
job set given (the paper's experiment fixes Gamma = 4000: pass ``gamma``);
lambda_j(a_j + 1) = 0 (Algorithm 1 line 2 leaves the initial value open).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from policies.preemptive.placement import fill_in_order, place
from policies.preemptive.policy import Allocation, PreemptivePolicy
from policies.preemptive.state import SlotView
from theory.fractional_flowtime import dual_step, gamma_horizon, long_term_target
from theory.job_sets import JobSet, Machines
from theory.mapreduce import MapReduceJobs

__all__ = ["OCORP", "OCORPPlus", "OCORPM", "OCORPMapReduce"]

Step = float | Callable[[int, float], float]


def default_step(t: int, k: float) -> float:
    """mu = t^(k + 0.5) in slot t (XLL21 VI-1)."""
    return float(t) ** (k + 0.5)


class _Dual(PreemptivePolicy):
    """Shared state: multipliers, Gamma, step size and the dual update (10)."""

    def __init__(self, *, gamma: float | None = None, mu: Step = default_step):
        if gamma is not None and not (np.isfinite(gamma) and gamma > 0):
            raise ValueError(f"gamma must be a positive number, got {gamma!r}")
        if not callable(mu) and not (np.isfinite(mu) and mu > 0):
            raise ValueError(f"mu must be > 0 (or a function of (t, k)), got {mu!r}")
        self.gamma_given, self.mu = gamma, mu

    def reset(self, jobs: JobSet, machines: Machines) -> None:
        self.lam = np.zeros(jobs.n)
        self.gamma = self.gamma_given if self.gamma_given is not None else gamma_horizon(
            jobs.arrival, jobs.processing, jobs.demand[:, 0], machines.capacity[:, 0].sum())
        if np.any(jobs.arrival >= self.gamma):
            raise ValueError(f"Gamma = {self.gamma:g} must exceed every arrival "
                             f"(latest {jobs.arrival.max():g}; eq. (7))")
        self.target = long_term_target(jobs.arrival, jobs.processing, self.gamma)

    def parameters(self) -> dict[str, Any]:
        """Gamma and the step size the run uses, for the result's record (Gamma comes
        from eq. (27) unless given; the default step is XLL21 VI-1's t^(k + 0.5))."""
        gamma = getattr(self, "gamma", self.gamma_given)
        step = ("t^(k+0.5)" if self.mu is default_step else
                float(self.mu) if not callable(self.mu) else repr(self.mu))
        return {"gamma": gamma if gamma is not None else "eq. (27)", "step": step}

    def step(self, t: int, k: float) -> float:
        return float(self.mu(t, k)) if callable(self.mu) else float(self.mu)

    def coefficients(self, view: SlotView) -> np.ndarray:
        """w_j(t) - lambda_j(t), the coefficient of y_j in eq. (9)."""
        return view.weights() - self.lam[view.index]

    def update(self, view: SlotView, cores: np.ndarray) -> None:
        """Eq. (10) with the rates this slot gives (sum_i x_j^i z_j^i, capped by what
        is left of the job)."""
        served = np.minimum(cores, view.remaining_volume) / view.cores
        idx = view.index
        self.lam[idx] = dual_step(self.lam[idx], self.step(view.t, view.k),
                                  self.target[idx], served)


class OCORP(_Dual):
    """OCORP, the single-resource online dual algorithm of XLL21 (Sec. III-A, IV-A).

    Each job j keeps a multiplier lambda_j, 0 from slot a_j + 1 on and updated after
    every slot by eq. (10) with the target rate p_j / (Gamma - a_j) of eq. (7)
    (Algorithm 1 line 7 misprints it as p_j / (1 - a_j), erratum
    ``XLL21.Alg1.line7``). In slot t the jobs with a negative coefficient
    w_j(t) - lambda_j(t) of eq. (9) (w_j of eq. (5)) are served, most negative
    omega_j = (w_j - lambda_j) / d_j first, by Lemma 1 (eq. (22), corrected: erratum
    ``XLL21.Lemma1.eq22``) on the pooled cores, each job capped by its remaining
    volume; the cores are then packed onto the machines, largest job onto largest
    machine (IV-A). A job is served only once its multiplier has grown past its
    weight: OCORP waits on purpose. Cores only (memory is not modelled).

    Parameters
    ----------
    gamma : float or None, default None
        Gamma of eq. (7), above every arrival; None: eq. (27) over the job set run,
        max{max_j max(a_j + 2 p_j, 2 a_j), 4 sum_j p_j d_j / sum_i C_i} (XLL21's
        experiment fixes Gamma = 4000).
    mu : float or callable, default ``default_step``
        The step size of eq. (10): a positive number, or a function ``(t, k) ->
        step``; the default is t^(k + 0.5) in slot t (XLL21 VI-1).

    Raises
    ------
    ValueError
        ``gamma`` not a positive number, or ``mu`` neither a positive number nor
        callable; when a run starts, a Gamma not above every arrival (eq. (7)).

    References
    ----------
    XLL21, Sec. III-A (eqs. (7), (9), (10)), Sec. IV-A (Lemma 1, eq. (22), the
    packing; Theorem 3, eq. (27)) and Sec. VI-1 (the step size).

    Examples
    --------
    >>> from policies.preemptive import OCORP, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 1, 1, 2], processing=[3, 1, 3, 2],
    ...               demand=[[3], [3], [1], [3]])
    >>> p = OCORP()
    >>> r = run_schedule(p, jobs, Machines([[3], [2]]))
    >>> p.gamma  # eq. (27): 4 sum_j p_j d_j / sum_i C_i = 4 x 21 / 5
    16.8
    >>> r.completion.tolist(), int(r.record[3].min())  # nothing is served before slot 5
    ([11.0, 15.0, 9.0, 13.0], 5)
    >>> run_schedule(OCORP(gamma=40.0), jobs, Machines([[3], [2]])).completion.tolist()
    [15.0, 27.0, 13.0, 14.0]
    """

    name = "ocorp"

    def allocate(self, view: SlotView) -> Allocation:
        omega = self.coefficients(view) / view.cores
        neg = np.flatnonzero(omega < 0)
        order = neg[np.lexsort((view.index[neg], omega[neg]))]
        want = np.minimum(view.cores, view.remaining_volume)
        u = fill_in_order(order, want, view.machine_cores.sum())
        self.update(view, u)
        return Allocation(place(u, view.machine_cores))


class OCORPPlus(_Dual):
    """OCORP+ (XLL21 IV-B): OCORP with a switching cost against preemption and migration.

    Each slot solves the per-slot program (32) with switching cost (31), alpha times
    the squared change of every x_j^i from the previous slot, as a convex QP in cvxpy
    (:func:`capacity.slot_programs.switching_cost_program`); its continuous rates are
    rounded down to integer cores (capacity is kept), each job at most its remaining
    volume. The multipliers follow eq. (10) as in :class:`OCORP`. Cores only.

    Parameters
    ----------
    alpha : float, default 10.0
        The weight of the switching cost S(t) in (32); finite and >= 0 (0: no switching
        cost).
    gamma : float or None, default None
        Gamma of eq. (7), above every arrival; None: eq. (27) over the job set run,
        max{max_j max(a_j + 2 p_j, 2 a_j), 4 sum_j p_j d_j / sum_i C_i} (XLL21's
        experiment fixes Gamma = 4000).
    mu : float or callable, default ``default_step``
        The step size of eq. (10): a positive number, or a function ``(t, k) ->
        step``; the default is t^(k + 0.5) in slot t (XLL21 VI-1).

    Raises
    ------
    ValueError
        ``gamma`` not a positive number, or ``mu`` neither a positive number nor
        callable; when a run starts, a Gamma not above every arrival (eq. (7)).
        Also ``alpha`` negative or not finite.
    capacity.programs.ProgramError
        During a run, a per-slot QP without a solution.

    References
    ----------
    XLL21, Sec. IV-B, eqs. (31)-(32) and Theorem 5; Sec. III-A, eq. (10); Sec. VI-B
    (OCORP+ in the evaluation).

    Examples
    --------
    >>> from policies.preemptive import OCORPPlus, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 1, 1], demand=[[2], [2], [1]])
    >>> p = OCORPPlus(alpha=10.0)
    >>> r = run_schedule(p, jobs, Machines([[2], [2]]))
    >>> p.name, p.alpha, r.completion.tolist(), r.migrations.tolist()
    ('ocorp-plus', 10.0, [8.0, 10.0, 8.0], [0, 0, 0])
    """

    name = "ocorp-plus"

    def __init__(self, *, alpha: float = 10.0, gamma: float | None = None,
                 mu: Step = default_step):
        super().__init__(gamma=gamma, mu=mu)
        if not (np.isfinite(alpha) and alpha >= 0):
            raise ValueError(f"alpha must be >= 0, got {alpha!r}")
        self.alpha = float(alpha)

    def parameters(self) -> dict[str, Any]:
        return {**super().parameters(), "alpha": self.alpha}

    def allocate(self, view: SlotView) -> Allocation:
        from capacity.slot_programs import switching_cost_program

        coeff = self.coefficients(view)
        x_prev = view.previous / view.cores[:, None]
        present_before = view.arrival + 2 <= view.t  # eq. (31): j with t >= a_j + 2
        res = switching_cost_program(coeff, view.cores, view.machine_cores, x_prev,
                                     self.alpha, present_before=present_before)
        u = _round_cores(np.asarray(res.solution["x"], dtype=float), view)
        # at most the job's remaining volume, trimmed from its smallest shares
        for j in np.flatnonzero(u.sum(axis=1) > view.remaining_volume):
            extra = int(u[j].sum() - view.remaining_volume[j])
            for i in np.argsort(u[j], kind="stable"):
                cut = min(extra, int(u[j, i]))
                u[j, i] -= cut
                extra -= cut
                if extra == 0:
                    break
        self.update(view, u.sum(axis=1))
        return Allocation(u)


class OCORPM(_Dual):
    """OCORP+M, XLL21 Algorithm 1: OCORP with cores and memory.

    z^0 = 1; then alternately the x-step (11), the pooled Lemma 1 allocation restricted
    to the machines where z_j^i = 1 (greedy in omega order, largest free machine first),
    and the z-step (12), per machine the 0/1 knapsack max sum_j pi_j x_j^i z_j^i subject
    to sum_j m_j z_j^i <= M_i (pi_j = lambda_j - w_j), until (x, z) repeats (the paper:
    within two iterations; at most ``max_rounds``). The multipliers follow eq. (10) as
    in :class:`OCORP`. Memory is modelled when the jobs have a second resource.

    Parameters
    ----------
    gamma : float or None, default None
        Gamma of eq. (7), above every arrival; None: eq. (27) over the job set run,
        max{max_j max(a_j + 2 p_j, 2 a_j), 4 sum_j p_j d_j / sum_i C_i} (XLL21's
        experiment fixes Gamma = 4000).
    mu : float or callable, default ``default_step``
        The step size of eq. (10): a positive number, or a function ``(t, k) ->
        step``; the default is t^(k + 0.5) in slot t (XLL21 VI-1).
    max_rounds : int, default 10
        Most alternations of the x- and z-steps per slot.

    Raises
    ------
    ValueError
        ``gamma`` not a positive number, or ``mu`` neither a positive number nor
        callable; when a run starts, a Gamma not above every arrival (eq. (7)).

    References
    ----------
    XLL21, Sec. III-A and III-B, Algorithm 1 (eqs. (11)-(12)), Theorems 1-2; Sec. VI-C
    (OCORP+M in the evaluation).

    Examples
    --------
    Jobs 0 and 1 hold memory 3 and 2 of a machine's 4, so they never share a machine:

    >>> from policies.preemptive import OCORPM, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 1], processing=[2, 2, 1],
    ...               demand=[[2, 3], [1, 2], [2, 2]])
    >>> r = run_schedule(OCORPM(), jobs, Machines([[2, 4], [2, 4]]))
    >>> r.memory, r.completion.tolist(), r.invariants_ok
    (True, [9.0, 9.0, 13.0], True)
    >>> job, machine, cores, slot = r.record
    >>> machine[slot == 6].tolist(), job[slot == 6].tolist()
    ([1, 0], [0, 1])
    """

    name = "ocorp-m"
    uses_memory = True

    def __init__(self, *, gamma: float | None = None, mu: Step = default_step,
                 max_rounds: int = 10):
        super().__init__(gamma=gamma, mu=mu)
        self.max_rounds = int(max_rounds)

    def parameters(self) -> dict[str, Any]:
        return {**super().parameters(), "max_rounds": self.max_rounds}

    def allocate(self, view: SlotView) -> Allocation:
        coeff = self.coefficients(view)
        n, M = view.n, len(view.machine_cores)
        pi = -coeff
        z = np.ones((n, M), dtype=np.int64)
        z[view.memory[:, None] > view.machine_memory[None, :]] = 0
        want = np.minimum(view.cores, view.remaining_volume)
        omega = coeff / view.cores
        neg = np.flatnonzero(omega < 0)
        order = neg[np.lexsort((view.index[neg], omega[neg]))]
        seen: set[bytes] = set()
        x = np.zeros((n, M), dtype=np.int64)
        z_new = np.zeros_like(z)
        for _ in range(self.max_rounds):
            x = _x_step(order, want, z, view.machine_cores)
            z_new = np.zeros_like(z)
            for i in range(M):
                cand = np.flatnonzero(x[:, i] > 0)
                if cand.size == 0:
                    continue
                vals = pi[cand] * x[cand, i] / view.cores[cand]
                if np.isinf(view.machine_memory[i]):
                    chosen = cand
                else:
                    from capacity.knapsack import knapsack_01  # numba: on use

                    chosen = cand[knapsack_01(vals, view.memory[cand],
                                              int(view.machine_memory[i]))]
                z_new[chosen, i] = 1
            key = x.tobytes() + z_new.tobytes()
            if key in seen:
                break
            seen.add(key)
            z = np.where(z_new == 1, 1, np.where(x > 0, 0, z))  # drop machines refused
        u = np.where(z_new == 1, x, 0)  # the last z-step's choice is memory-feasible
        self.update(view, u.sum(axis=1))
        return Allocation(u, (u > 0).astype(np.int64))


def _round_cores(x: np.ndarray, view: SlotView) -> np.ndarray:
    """Whole cores from continuous rates: d_j x_j^i rounded down (with a tolerance for
    the solver's accuracy), then each machine's leftover cores to the jobs with the
    largest rounded-off parts there, within d_j and the job's remaining volume (the
    capacities (4b) and demands (4d) stay met)."""
    want = x * view.cores[:, None]
    u = np.floor(want + 1e-4).astype(np.int64)
    limit = np.minimum(view.cores, view.remaining_volume).astype(np.int64)
    rest = want - u
    for i in range(u.shape[1]):
        free = int(view.machine_cores[i] - u[:, i].sum())
        for j in np.argsort(-rest[:, i], kind="stable"):
            if free <= 0 or rest[j, i] <= 1e-6:
                break
            if u[j].sum() < limit[j]:
                u[j, i] += 1
                free -= 1
    return u


def _x_step(order: np.ndarray, want: np.ndarray, allowed: np.ndarray,
            machine_cores: np.ndarray) -> np.ndarray:
    """Eq. (11) with z fixed: jobs in omega order take cores on the machines allowed to
    them, largest free machine first."""
    x = np.zeros(allowed.shape, dtype=np.int64)
    free = machine_cores.astype(np.int64).copy()
    for j in order:
        need = int(want[j])
        for i in np.argsort(-free, kind="stable"):
            if need == 0 or free[i] == 0:
                break
            if allowed[j, i]:
                take = min(need, int(free[i]))
                x[j, i] = take
                free[i] -= take
                need -= take
    return x


class OCORPMapReduce(OCORP):
    """OCORP for MapReduce jobs (XLL21 Sec. V): dummy map and reduce jobs, P5's weights.

    OCORP on the dummy map and reduce jobs of XLL21 Sec. V: P5's weights, the targets
    of eq. (44) and Gamma below it; run it on ``jobs.dummy_jobs()`` with their
    ``after`` (the reduce job waits for its map job, eq. (43)). The network-latency
    placement of eq. (45) needs per-machine input locations the trace does not have:
    tasks are packed as in OCORP.

    Parameters
    ----------
    jobs : theory.mapreduce.MapReduceJobs
        The MapReduce jobs the policy schedules (their dummy jobs are the run's job
        set).
    gamma : float or None, default None
        Gamma of eq. (44), above every arrival; None: the value XLL21 V gives below
        eq. (44), max{max_j max(a_j + 2 p_j, 2 a_j), 4 sum_j sum_z n_j^z p_j^z d_j^z /
        sum_i C_i} with p_j = p_j^m + p_j^r (:meth:`MapReduceJobs.gamma`).
    mu : float or callable, default ``default_step``
        The step size of eq. (10): a positive number, or a function ``(t, k) ->
        step``; the default is t^(k + 0.5) in slot t (XLL21 VI-1).

    Raises
    ------
    TypeError
        ``jobs`` is not a :class:`theory.mapreduce.MapReduceJobs`.
    ValueError
        ``gamma`` not a positive number, or ``mu`` neither a positive number nor
        callable; when a run starts, a job set other than the 2N dummy jobs, or a
        Gamma not above every arrival (eq. (44)).

    References
    ----------
    XLL21, Sec. V (P5, eqs. (40)-(45)) and Sec. VI-E (MapReduce-like jobs).

    Examples
    --------
    >>> from policies.preemptive import OCORPMapReduce, run_schedule
    >>> from theory import Machines
    >>> from theory.mapreduce import MapReduceJobs
    >>> mr = MapReduceJobs(arrival=[0, 1], map_tasks=[2, 1], map_cores=[1, 2],
    ...                    map_time=[2, 1], reduce_tasks=[1, 1], reduce_cores=[2, 1],
    ...                    reduce_time=[1, 2])
    >>> jobs, after = mr.dummy_jobs()
    >>> jobs.demand[:, 0].tolist(), after.tolist()
    ([2.0, 2.0, 2.0, 1.0], [-1, 0, -1, 2])
    >>> r = run_schedule(OCORPMapReduce(mr), jobs, Machines([[2], [2]]), after=after)
    >>> r.completion.tolist(), r.invariants_ok
    ([9.0, 11.0, 6.0, 10.0], True)
    """

    name = "ocorp-mapreduce"

    def __init__(self, jobs: MapReduceJobs, *, gamma: float | None = None,
                 mu: Step = default_step):
        super().__init__(gamma=gamma, mu=mu)
        if not isinstance(jobs, MapReduceJobs):
            raise TypeError("OCORPMapReduce needs the MapReduceJobs it schedules")
        self.mr = jobs

    def reset(self, jobs: JobSet, machines: Machines) -> None:
        if jobs.n != 2 * self.mr.n:
            raise ValueError(f"run on the {2 * self.mr.n} dummy jobs of the MapReduce "
                             f"jobs (MapReduceJobs.dummy_jobs()), got {jobs.n} jobs")
        self.lam = np.zeros(jobs.n)
        self.gamma = (self.gamma_given if self.gamma_given is not None
                      else self.mr.gamma(machines.capacity[:, 0].sum()))
        self.target = self.mr.targets(self.gamma)

    def coefficients(self, view: SlotView) -> np.ndarray:
        return self.mr.weights(view.t, view.k)[view.index] - self.lam[view.index]
