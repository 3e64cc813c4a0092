"""Where float64 resolves a non-preemptive schedule's times (docs/design.md, "Numbers and
exactness"; FL24 Sec. 3: job j runs on [S_j, C_j) with C_j = S_j + p_j).

The engine computes times in float64. A start S_j is a release r_j, an earlier job's
completion, or an interval end gamma_k = gamma_0 2^k (MRIS, exact doublings), and
C_j = fl(S_j + p_j), which differs from S_j + p_j by at most half the float spacing at
C_j. Past float resolution this is no longer a schedule of the given jobs: at
S_j = 1e17, where floats are 16 apart, a job of p_j = 1 completes at its start (zero
flowtime, and it overlaps nothing, so two such jobs of demand 0.6 "fit" one machine).

Rule: a job is *resolved* at time t when p_j >= 2^RESOLUTION_BITS spacing(t). Every job
must be resolved at its completion C_j. Then C_j - S_j equals p_j to a relative
2^-(RESOLUTION_BITS + 1) (about 5e-7), and the float schedule is the exact schedule of
the same jobs with processing times within that relative error of the given ones, so
its starts, completions and metrics are within it too (the decisions are those of
that perturbed instance). Resolution is about the ratio of a job's length to the time
it runs at: rescaling every time does not change it, shifting them (measuring from the
first release) does.

Checked before a run at each job's release, the earliest time it can start (MRIS with a
given gamma0 also at gamma_0, before which nothing starts): a refusal naming the job,
its file line when the job set knows it (:meth:`theory.job_sets.JobSet.where`) and the
field; and after the run at each completion (a job may start later than its release),
again refusing rather than returning the schedule.
:func:`policies.invariants.check_nonpreemptive_run` checks the same bound on a finished
schedule in exact arithmetic.
"""

from __future__ import annotations

import numpy as np

from theory.job_sets import JobSet

__all__ = ["RESOLUTION_BITS", "unresolved", "require_resolved"]

#: a job's processing time must be at least 2^RESOLUTION_BITS float spacings at every
#: time it runs (C_j - S_j then equals p_j to a relative 2^-21)
RESOLUTION_BITS = 20


def unresolved(processing: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Booleans: p_j < 2^RESOLUTION_BITS spacing(t_j) (exact: a power-of-two scaling of
    the spacing, compared with p_j)."""
    t = np.abs(np.asarray(at, dtype=np.float64))
    with np.errstate(over="ignore"):
        room = np.ldexp(np.spacing(t), RESOLUTION_BITS)
    return ~(np.asarray(processing, dtype=np.float64) >= room)


def require_resolved(jobs: JobSet, at: np.ndarray | float, what: str,
                     hint: str = "measure the times from the first release") -> None:
    """Refuse (``ValueError`` naming the first job, its line and the field) a job set
    with a job not resolved at ``at`` (one time per job, or one for all), the time
    described by ``what`` ("its release", "its completion", "gamma_0")."""
    t = np.broadcast_to(np.asarray(at, dtype=np.float64), jobs.processing.shape)
    bad = np.flatnonzero(unresolved(jobs.processing, t))
    if not bad.size:
        return
    j = int(bad[0])
    tj = float(t[j])
    gap = float(np.spacing(abs(tj)))
    more = f" ({bad.size - 1} more job(s) likewise)" if bad.size > 1 else ""
    raise ValueError(
        f"{jobs.where(j)}: field 'processing': {float(jobs.processing[j]):.17g} is too "
        f"short for float64 times at {what}, {tj:.17g}, where floats are {gap:.3g} apart: "
        f"S_j + p_j would not hold p_j (a job must last at least 2^{RESOLUTION_BITS} "
        f"float spacings of the times it runs at){more}; {hint}")
