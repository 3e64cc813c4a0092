"""The packing baselines of FL24 Sec. 7.2: TETRIS and BF-EXEC, non-preemptive.

TETRIS [11] as FL24 adapts it: when machine i has free resources, every queued job
that fits it now gets the alignment score a_j = <free_i, d_j> (the dot product of the
machine's remaining resources and the job's demand) plus a volume term; the best job is
started and the step repeats until none fits. Equal scores go to the smaller volume,
then the earlier release.

The volume term. FL24 prints the score as a_j + eps v_j and says its effect is "jobs
sorted by SVF, selected by the alignment scores". In TETRIS [11] the second term is a
remaining-work score that grows as the job shrinks, and its weight eps is set so that
the two scores have equal averages over the candidates; FL24's own simulator does that
(1 / v_j with eps = mean a / mean (1 / v), recomputed at every placement). So v_j there
is not the volume, and a term +eps v_j on the volume would prefer large jobs. packsched
scores a_j - eps v_j / max_q v_q: the same preference for small volumes, the term
scaled by the queue's largest volume into [0, eps], next to an alignment in [0, R].
eps = 1 (the default) gives the term the alignment's range for one resource and
reproduces the TETRIS of FL24's comparisons (Sec. 7.5, Fig. 3, 4, 6) in AWCT, though not
job for job: within 0.5% on a 1,000-job, 4-resource, 2-machine instance run on the
authors' simulator, and within 1.1% of that weighting on three Azure-like instances of
that shape (packaged trace, two resources added as in Sec. 7.5.3). eps = 0.1, the
former default, leaves the volume a tie-breaker and was 2-6% worse there, 36% on the
first instance.

BF-EXEC [21]: an arriving job goes to the feasible machine whose remaining resources
have the smallest L2 norm (best fit), else it waits; when a job completes on machine i,
the shortest waiting job that fits i is started there, repeatedly. Arrivals are handled
before completions at equal times ("preference to jobs that have recently arrived").
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from policies.nonpreemptive import codes
from policies.nonpreemptive.policy import HOOKS, NonPreemptivePolicy, OnlineSpec
from policies.nonpreemptive.priority import ordered
from policies.nonpreemptive.state import ScheduleState
from policies.policy import overrides

__all__ = ["Tetris", "BFExec"]


class Tetris(NonPreemptivePolicy):
    """TETRIS as FL24 adapts it (Sec. 7.2): alignment score plus a volume term, no preemption.

    When machine i has free resources, every queued job that fits it now gets the
    score a_j - eps v_j / max_q v_q, with a_j = <free_i, d_j> the alignment of the
    machine's free resources and the job's demand; the best job starts there and the
    step repeats until none fits. Equal scores go to the smaller volume, then the
    earlier release. FL24 prints the term as +eps v_j; the module docstring says why
    packsched subtracts it (small volumes preferred, as FL24 describes) and how the
    default eps = 1 was chosen.

    Parameters
    ----------
    eps : float, default 1.0
        The weight of the volume term against the alignment, finite and >= 0.
    name : str, default 'tetris'
        The policy's name in results.

    Raises
    ------
    ValueError
        ``eps`` negative or not a finite number.

    References
    ----------
    FL24, Sec. 7.2 (the TETRIS benchmark, its reference [11]) and Sec. 4 (TETRIS
    without preemption is a PRIORITY-QUEUE algorithm).

    Examples
    --------
    >>> from policies import Tetris, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 2, 2], processing=[4, 2, 3, 3, 3],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.6, 0.2], [0.2, 0.2], [0.6, 0.2]],
    ...               weight=[2, 1, 2, 2, 1])
    >>> machines = Machines([[1.0, 1.0], [1.0, 1.0]])
    >>> r = run_nonpreemptive(Tetris(), jobs, machines)
    >>> r.start.tolist(), r.machine.tolist(), r.awct
    ([0.0, 0.0, 2.0, 2.0, 4.0], [1, 0, 0, 0, 1], 7.4)
    """

    def __init__(self, eps: float = 1.0, name: str = "tetris"):
        if isinstance(eps, bool) or not isinstance(eps, int | float) or not (
                math.isfinite(eps) and eps >= 0):
            raise ValueError(f"eps must be a non-negative number, got {eps!r}")
        self.eps, self.name = float(eps), name

    def parameters(self) -> dict[str, Any]:
        return {"eps": self.eps}

    def compiled_spec(self, state: ScheduleState) -> OnlineSpec | None:
        """The numba loop's TETRIS: jobs grouped by demand vector, by volume within a
        group, ties in release order (the loop scores one candidate per group)."""
        if overrides(self, Tetris, HOOKS):
            return None
        n = state.N
        index = np.arange(n)
        release = np.lexsort((index, state.arrival))
        _, group, counts = np.unique(state.demand, axis=0, return_inverse=True,
                                     return_counts=True)
        release_pos = np.empty(n, dtype=np.int64)
        release_pos[release] = index
        return OnlineSpec.from_order(
            codes.TETRIS, np.lexsort((release_pos, state.volume, group.ravel())),
            np.repeat(np.cumsum(counts), counts).astype(np.int64), self.eps)

    def decide(self, state: ScheduleState) -> None:
        if not state.queue:
            return
        q0 = np.asarray(state.queue, dtype=np.int64)
        may = state.changed_fits(q0).any(axis=0)  # machines where some job may fit now
        for i in np.flatnonzero(may).tolist():
            while state.queue:
                q = np.asarray(state.queue, dtype=np.int64)
                fit = q[state.fit_matrix(q, machines=[i])[:, 0]]
                if fit.size == 0:
                    break
                free = state.free_now(i)
                vmax = float(state.volume[q].max())
                # a_j summed resource by resource, as the compiled loop does (a BLAS
                # product may round differently, and equal scores are common)
                a = np.zeros(fit.size)
                for r in range(state.R):
                    a += state.demand[fit, r] * free[r]
                score = a - self.eps * state.volume[fit] / vmax
                best = np.lexsort((np.arange(fit.size), state.volume[fit], -score))[0]
                state.place(int(fit[best]), i)


class BFExec(NonPreemptivePolicy):
    """BF-EXEC (FL24 Sec. 7.2): best fit at arrival, shortest waiting job at completion.

    An arriving job goes to the feasible machine whose remaining resources have the
    smallest L2 norm (best fit), else it waits; when a job completes on machine i, the
    shortest waiting job that fits i is started there, repeatedly. Arrivals are
    handled before completions at equal times. The constructor takes no arguments.

    References
    ----------
    FL24, Sec. 7.2 (the BF-EXEC benchmark, its reference [21]).

    Examples
    --------
    >>> from policies import BFExec, run_nonpreemptive
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 2, 2], processing=[4, 2, 3, 3, 3],
    ...               demand=[[0.8, 0.6], [0.6, 0.8], [0.6, 0.2], [0.2, 0.2], [0.6, 0.2]],
    ...               weight=[2, 1, 2, 2, 1])
    >>> machines = Machines([[1.0, 1.0], [1.0, 1.0]])
    >>> r = run_nonpreemptive(BFExec(), jobs, machines)
    >>> r.start.tolist(), r.machine.tolist(), r.awct
    ([0.0, 0.0, 4.0, 2.0, 2.0], [0, 1, 0, 0, 1], 7.8)
    """

    name = "bf-exec"

    def compiled_spec(self, state: ScheduleState) -> OnlineSpec | None:
        """The numba loop's BF-EXEC: the queue by processing time, ties to the lower
        index."""
        if overrides(self, BFExec, HOOKS):
            return None
        return OnlineSpec.from_order(codes.BF_EXEC,
                                     np.lexsort((np.arange(state.N), state.processing)))

    def decide(self, state: ScheduleState) -> None:
        for j in state.arrived_now:
            fit = np.flatnonzero(state.fit_matrix(np.array([j]))[0])
            if fit.size:
                norms = [float(np.linalg.norm(state.free_now(int(i)))) for i in fit]
                state.place(j, int(fit[int(np.argmin(norms))]))
        for i in sorted(set(state.freed_now)):
            if state.queue:
                state.place_in_order(ordered(state.processing, state.queue), machines=[i])
