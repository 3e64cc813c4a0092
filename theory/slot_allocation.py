"""Closed-form per-slot allocations of XLL21: Lemma 1 (eq. (22)) and Lemma 2 (eq. (39)).

Both are fractional knapsacks over one pooled capacity C = sum_i C_i (single resource,
z = 1), so the jobs' rates y_j come from one greedy pass in the order the lemma gives.
Both are implemented as corrected (the errata register has the printed forms and the
instances that separate them):

- eq. (22) as printed lets its first two cases overlap (sum_{n<=j} d_n = C) and its
  second case (sum_{n<=j} d_n >= C) swallows the third, so the job that only partly
  fits would get 0; the case boundary must be sum_{n<j} d_n >= C.
- eq. (39) as printed takes ``max{1, p_j(t)}`` and ``max{gamma_j/d_j, p_j(t)}``, which
  break (38d) y_j <= 1 and (38c) y_j <= p_j(t); the feasible choice is the min.

With integer cores and capacities every rate is a multiple of 1/d_j (u_j = d_j y_j is an
integer), as XLL21 requires, provided the remaining times p_j(t) are multiples of 1/d_j.
"""

from __future__ import annotations

import numpy as np

__all__ = ["lemma1_rates", "lemma2_rates", "pack_largest_first"]


def _vec(x: object, name: str, n: int | None = None) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim != 1 or (n is not None and len(a) != n):
        raise ValueError(f"{name} must be a vector" + (f" of length {n}" if n else ""))
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    return a


def _capacity(total: object) -> float:
    c = float(total)  # type: ignore[arg-type]
    if not np.isfinite(c) or c < 0:
        raise ValueError(f"the total capacity must be finite and >= 0, got {total!r}")
    return c


def lemma1_rates(coeff: object, cores: object, total_cores: object) -> np.ndarray:
    """Optimal y of P3 with z = 1 (XLL21 Lemma 1, eq. (22), corrected; eq. (21) order).

    Minimises sum_j coeff_j y_j subject to sum_j d_j y_j <= C and 0 <= y_j <= 1, where
    coeff_j is the per-slot Lagrangian weight (eq. (9)) and omega_j = coeff_j / d_j.
    Jobs with omega_j < 0 are taken in increasing omega_j (ties: input order), each
    y_j = 1 while it fits, the first that does not fit gets (C - sum_{n<j} d_n)/d_j,
    the rest 0.
    """
    c = _vec(coeff, "coeff")
    d = _vec(cores, "cores", len(c))
    if np.any(d <= 0):
        raise ValueError("cores must be > 0")
    left = _capacity(total_cores)
    y = np.zeros(len(c))
    omega = c / d
    for j in np.argsort(omega, kind="stable"):
        if omega[j] >= 0 or left <= 0:
            break
        y[j] = min(1.0, left / d[j])
        left -= d[j] * y[j]
    return y


def lemma2_rates(processing: object, remaining: object, cores: object,
                 total_cores: object) -> np.ndarray:
    """Optimal y of the transient local program (38) (XLL21 Lemma 2, eq. (39), corrected).

    Maximises sum_j y_j / p_j subject to sum_j d_j y_j <= C, y_j <= p_j(t),
    0 <= y_j <= 1: jobs in increasing volume p_j d_j (ties: input order), with
    gamma_j = C - sum_{n<j} d_n y_n, y_j = min{1, p_j(t)} if gamma_j >= d_j,
    min{gamma_j/d_j, p_j(t)} if 0 < gamma_j < d_j, 0 if gamma_j <= 0.
    Finished jobs (p_j(t) = 0) get 0.
    """
    p = _vec(processing, "processing")
    r = _vec(remaining, "remaining", len(p))
    d = _vec(cores, "cores", len(p))
    if np.any(p <= 0) or np.any(d <= 0) or np.any(r < 0):
        raise ValueError("processing and cores must be > 0, remaining >= 0")
    gamma = _capacity(total_cores)
    y = np.zeros(len(p))
    for j in np.argsort(p * d, kind="stable"):
        if gamma <= 0:
            break
        y[j] = min(1.0, r[j]) if gamma >= d[j] else min(gamma / d[j], r[j])
        gamma -= d[j] * y[j]
    return y


def pack_largest_first(core_rates: object, machine_cores: object) -> np.ndarray:
    """Cores per (job, machine) realising pooled integer cores ``u_j`` (XLL21 IV-A).

    "The scheduler selects the servers from the largest capacity to the smallest one to
    pack jobs. For each server, the scheduler chooses the unassigned jobs with largest
    CPU demands and packs them into the server, as long as the total demand of these
    jobs does not exceed the server capacity." A job that fits no remaining server whole
    is split over the servers' leftover cores (largest leftover first), which is always
    possible when sum_j u_j <= sum_i C_i. Returns integer cores (N, M).
    """
    u = np.rint(_vec(core_rates, "core_rates")).astype(np.int64)
    C = np.rint(_vec(machine_cores, "machine_cores")).astype(np.int64)
    if np.any(u < 0) or np.any(C <= 0):
        raise ValueError("core counts must be >= 0 and machines' cores > 0")
    if u.sum() > C.sum():
        raise ValueError(f"{u.sum()} cores asked of a cluster with {C.sum()}")
    out = np.zeros((len(u), len(C)), dtype=np.int64)
    free = C.copy()
    todo = [int(j) for j in np.argsort(-u, kind="stable") if u[j] > 0]
    for i in np.argsort(-C, kind="stable"):
        rest = []
        for j in todo:
            if u[j] <= free[i]:
                out[j, i] = u[j]
                free[i] -= u[j]
            else:
                rest.append(j)
        todo = rest
    for j in todo:  # split over the leftovers, largest first
        need = u[j]
        for i in np.argsort(-free, kind="stable"):
            take = min(need, free[i])
            out[j, i] += take
            free[i] -= take
            need -= take
            if need == 0:
                break
    return out
