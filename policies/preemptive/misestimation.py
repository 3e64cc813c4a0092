"""Misestimated resource demands (XLL21 Sec. VI-D, Fig. 11): what a job declares when
its owner's estimate is off by a random factor; the policy allocates by the declared
demand, the job progresses by its true one (:func:`policies.preemptive.run_schedule`'s
``declared=``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["misestimated_demands"]


def misestimated_demands(jobs: Any, sigma2: float, *, cap: Any,
                         seed: int | np.random.Generator | None = None) -> np.ndarray:
    """XLL21 Sec. VI-D: each job j declares d_j (1 + X_j) of every resource (cores, and
    memory in the 2D case), X_j ~ N(0, ``sigma2``), rounded up to an integer; the paper
    sets a negative estimate to 1 (core or GB), and here a zero one too (a job declaring
    nothing would never be allocated). Choices the paper does not state: one draw per
    job, shared by its resources (the text writes d_j (1 + X) and m_j (1 + X)), and at
    most ``cap`` (the largest machine's capacity per resource) so every job still fits
    somewhere. Returns the (N, R) integer array for ``declared=``.

    Parameters
    ----------
    jobs : theory.JobSet
        The jobs, with their true integer demands (cores, and memory in the 2D case).
    sigma2 : float
        The variance of X_j, finite and >= 0 (0: every job declares its true demand).
    cap : float or array_like
        The largest declaration per resource, one number or one per resource, each
        at least 1 (the largest machine's capacity).
    seed : int, numpy.random.Generator or None, default None
        The draws' randomness (:func:`theory.seeding.as_rng`).

    Returns
    -------
    numpy.ndarray
        int64 declared demands, shape (N, R): ceil(d_j (1 + X_j)) per resource, values
        at most 0 raised to 1, then capped at ``cap``.

    Raises
    ------
    ValueError
        ``sigma2`` not a finite number >= 0; ``cap`` not one number or one per resource,
        or below 1.

    References
    ----------
    XLL21, Sec. VI-D and Fig. 11 (the impact of demand misestimations).

    Examples
    --------
    >>> from policies.preemptive import SRPT, misestimated_demands, run_schedule
    >>> from theory import JobSet, Machines
    >>> jobs = JobSet(arrival=[0, 0, 0, 0], processing=[2, 2, 1, 3],
    ...               demand=[[2, 4], [4, 8], [1, 2], [3, 4]])
    >>> declared = misestimated_demands(jobs, 0.5, cap=[4, 8], seed=0)
    >>> declared.tolist()
    [[3, 5], [4, 8], [2, 3], [4, 5]]
    >>> machines = Machines([[4, 8], [4, 8]])
    >>> run_schedule(SRPT(), jobs, machines, declared=declared).completion.tolist()
    [2.0, 3.0, 1.0, 5.0]
    >>> run_schedule(SRPT(), jobs, machines).completion.tolist()  # true demands
    [2.0, 3.0, 1.0, 4.0]
    """
    from theory.seeding import as_rng

    if not isinstance(sigma2, int | float) or isinstance(sigma2, bool) \
            or not math.isfinite(sigma2) or sigma2 < 0:
        raise ValueError(f"sigma2 must be a finite variance >= 0, got {sigma2!r}")
    limit = np.asarray(cap, dtype=float)
    if limit.shape not in ((), (jobs.resources,)) or not np.all(limit >= 1):
        raise ValueError(f"cap must give a capacity >= 1 for each of the {jobs.resources} "
                         f"resources, got {cap!r}")
    x = as_rng(seed).normal(0.0, math.sqrt(sigma2), jobs.n)
    est = np.ceil(jobs.demand * (1 + x)[:, None])
    return np.minimum(np.where(est > 0, est, 1), limit).astype(np.int64)
