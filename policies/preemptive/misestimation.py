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
    somewhere. Returns the (N, R) integer array for ``declared=``."""
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
