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
    """OCORP, the single-resource algorithm (XLL21 IV-A): Lemma 1 on pooled cores, each
    job capped by its remaining volume, packed largest first."""

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
    """OCORP+ (XLL21 IV-B): the per-slot program (32) with switching cost (31), alpha
    times the squared change of every x_j^i from the previous slot, solved as a convex
    QP; its continuous rates are rounded down to integer cores (capacity is kept)."""

    name = "ocorp-plus"

    def __init__(self, *, alpha: float = 10.0, gamma: float | None = None,
                 mu: Step = default_step):
        super().__init__(gamma=gamma, mu=mu)
        if not (np.isfinite(alpha) and alpha >= 0):
            raise ValueError(f"alpha must be >= 0, got {alpha!r}")
        self.alpha = float(alpha)

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
    """OCORP+M, XLL21 Algorithm 1 (cores and memory).

    z^0 = 1; then alternately the x-step (11), the pooled Lemma 1 allocation restricted
    to the machines where z_j^i = 1 (greedy in omega order, largest free machine first),
    and the z-step (12), per machine the 0/1 knapsack max sum_j pi_j x_j^i z_j^i subject
    to sum_j m_j z_j^i <= M_i (pi_j = lambda_j - w_j), until (x, z) repeats (the paper:
    within two iterations; at most ``max_rounds``).
    """

    name = "ocorp-m"
    uses_memory = True

    def __init__(self, *, gamma: float | None = None, mu: Step = default_step,
                 max_rounds: int = 10):
        super().__init__(gamma=gamma, mu=mu)
        self.max_rounds = int(max_rounds)

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
    """OCORP on the dummy map and reduce jobs of XLL21 Sec. V: P5's weights, the
    targets of eq. (44) and Gamma below it; run it on ``jobs.dummy_jobs()`` with their
    ``after``. The network-latency placement of eq. (45) needs per-machine input
    locations the trace does not have: tasks are packed as in OCORP."""

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
