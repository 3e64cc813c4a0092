"""XLL21's objective: l_k flowtime, fractional flowtime and the quantities of its analysis.

Timing (XLL21 II-A): a job arriving at a_j is served from slot a_j + 1 on; if it
completes in slot c_j its flowtime is f_j = c_j - a_j. A schedule is given by the
rates ``y[j, t]`` (sum over machines of x_j^i(t) z_j^i(t)) for slots t = 1..T, column
t - 1 holding slot t.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = [
    "check_k",
    "check_k_horizon",
    "fractional_weight",
    "fractional_weight_sum",
    "fractional_flowtimes",
    "flowtimes",
    "completion_slots",
    "lk_norm",
    "volumes",
    "gamma_horizon",
    "dynamic_fit",
    "per_slot_cost",
    "dynamic_regret",
    "thm2_ratio",
    "service_gaps",
    "long_term_target",
    "dual_step",
]


def check_k(k: object) -> float:
    """The exponent k of the l_k norm: a finite real k >= 1 (XLL21 II-B)."""
    if isinstance(k, bool) or not isinstance(k, int | float | np.integer | np.floating):
        raise ValueError(f"k must be a number >= 1, got {k!r}")
    kf = float(k)
    if not math.isfinite(kf) or kf < 1:
        raise ValueError(f"k must be a finite number >= 1, got {k!r}")
    return kf


def check_k_horizon(k: float, horizon: float, *, digits: float = 250,
                    why: str = "overflow float64") -> None:
    """The weights (t - a_j)^k of eq. (5) over ``horizon`` slots stay below 10^digits
    (default 1e250: inside float64 with room for sums), else a ``ValueError`` with the
    largest k that does."""
    kf = check_k(k)
    h = max(float(horizon), 2.0)
    if kf * math.log10(h) > digits:
        raise ValueError(f"k = {kf:g} over a horizon of {h:g} slots makes the weights "
                         f"(t - a_j)^k of eq. (5) {why}; k <= "
                         f"{math.floor(digits / math.log10(h))} here")


def fractional_weight(t: object, arrival: object, processing: object, k: float) -> np.ndarray:
    """Weight of the rate of a job in slot t, XLL21 eq. (5): (t - a_j)^k / p_j + p_j^(k-1).

    Broadcasts over ``t``, ``arrival`` and ``processing``; slots t <= a_j get weight 0
    (the job is not yet there).
    """
    kf = check_k(k)
    tt = np.asarray(t, dtype=float)
    a = np.asarray(arrival, dtype=float)
    p = np.asarray(processing, dtype=float)
    if np.any(p <= 0):
        raise ValueError("processing times must be > 0")
    age = tt - a
    check_k_horizon(kf, max(float(np.max(age, initial=1.0)), float(np.max(p, initial=1.0))))
    return np.where(age > 0, np.maximum(age, 0.0) ** kf / p + p ** (kf - 1), 0.0)


def fractional_weight_sum(arrival: int, processing: int, start: int, k: int) -> Fraction:
    """Fractional flowtime of a job served at full rate from slot ``start`` to
    ``start + p - 1`` (exact integers): sum_t ((t - a)^k / p + p^(k-1)) over those slots.

    Eq. (5) for an uninterrupted job. With start = a + 1 it equals
    (1^k + ... + p^k) / p + p^k, the value the symbolic check confirms.
    """
    p = processing
    return sum((Fraction((t - arrival) ** k, p) + Fraction(p ** (k - 1))
                for t in range(start, start + p)), Fraction(0))


def _rates(y: object) -> np.ndarray:
    r = np.asarray(y, dtype=float)
    if r.ndim != 2:
        raise ValueError(f"rates must be an (N, T) array, got shape {r.shape}")
    if not np.all(np.isfinite(r)) or np.any(r < -1e-12):
        raise ValueError("rates must be finite and >= 0")
    return r


def completion_slots(y: object, processing: object, *, tol: float = 1e-9) -> np.ndarray:
    """c_j: the slot in which the cumulative rate of job j first reaches p_j (eq. (3));
    ``ValueError`` for a job never completed within the T slots given."""
    r = _rates(y)
    p = np.asarray(processing, dtype=float)
    cum = np.cumsum(r, axis=1)
    done = cum >= p[:, None] * (1 - tol) - tol
    if not done[:, -1].all():
        j = int(np.argmin(done[:, -1]))
        raise ValueError(f"job {j} is not complete after {r.shape[1]} slots "
                         f"({cum[j, -1]:g} of {p[j]:g} processed)")
    return done.argmax(axis=1) + 1


def flowtimes(y: object, arrival: object, processing: object) -> np.ndarray:
    """f_j = c_j - a_j (XLL21 II-A)."""
    return completion_slots(y, processing) - np.asarray(arrival, dtype=float)


def fractional_flowtimes(y: object, arrival: object, processing: object, k: float
                         ) -> np.ndarray:
    """Per-job fractional flowtime, eq. (5): sum_t ((t-a_j)^k/p_j + p_j^(k-1)) y_j(t)."""
    r = _rates(y)
    a = np.asarray(arrival, dtype=float)[:, None]
    p = np.asarray(processing, dtype=float)[:, None]
    t = np.arange(1, r.shape[1] + 1, dtype=float)[None, :]
    if np.any(r[(t <= a) & (r > 0)]):
        raise ValueError("a job is served before the slot after its arrival")
    return (fractional_weight(t, a, p, k) * r).sum(axis=1)


def lk_norm(values: object, k: float) -> float:
    """(sum_j v_j^k)^(1/k), the l_k norm of a flowtime vector (XLL21 II-B)."""
    kf = check_k(k)
    v = np.asarray(values, dtype=float)
    if np.any(v < 0):
        raise ValueError("the l_k norm is taken of non-negative values")
    top = float(v.max(initial=0.0))
    if top == 0:
        return 0.0
    return float(top * np.sum((v / top) ** kf) ** (1 / kf))  # scaled: no overflow


def volumes(processing: object, cores: object) -> np.ndarray:
    """v_j = p_j d_j (XLL21 II-A)."""
    return np.asarray(processing, dtype=float) * np.asarray(cores, dtype=float)


def gamma_horizon(arrival: object, processing: object, cores: object,
                  total_cores: float) -> float:
    """Gamma of XLL21 eq. (27): max{ max_j max(a_j + 2 p_j, 2 a_j), 4 sum_j p_j d_j / C }."""
    a = np.asarray(arrival, dtype=float)
    p = np.asarray(processing, dtype=float)
    if total_cores <= 0:
        raise ValueError("the total number of cores must be > 0")
    return float(max(np.max(np.maximum(a + 2 * p, 2 * a)),
                     4 * volumes(p, cores).sum() / total_cores))


def dynamic_fit(y: object, arrival: object, processing: object, gamma: float) -> float:
    """Fit_T^d of XLL21 eq. (26): sum_j ((T - a_j)/(Gamma - a_j) p_j - sum_{t > a_j} y_j(t))
    over the jobs arrived by T = number of columns of ``y``."""
    r = _rates(y)
    T = r.shape[1]
    a = np.asarray(arrival, dtype=float)
    p = np.asarray(processing, dtype=float)
    if np.any(gamma <= a):
        raise ValueError("Gamma must exceed every arrival (eq. (7) divides by Gamma - a_j)")
    here = a < T
    served = r.sum(axis=1)
    return float(np.sum(((T - a) / (gamma - a) * p - served)[here]))


def per_slot_cost(y: object, arrival: object, processing: object, k: float) -> np.ndarray:
    """f_t(y(t)) of XLL21 eq. (24) for every slot t = 1..T."""
    r = _rates(y)
    t = np.arange(1, r.shape[1] + 1, dtype=float)[None, :]
    w = fractional_weight(t, np.asarray(arrival, float)[:, None],
                          np.asarray(processing, float)[:, None], k)
    return (w * r).sum(axis=0)


def dynamic_regret(y: object, y_star: object, arrival: object, processing: object,
                   k: float) -> float:
    """Reg_T^d of XLL21 eq. (23): sum_t f_t(y(t)) - sum_t f_t(y*(t)), y* of eq. (25)."""
    return float(per_slot_cost(y, arrival, processing, k).sum()
                 - per_slot_cost(y_star, arrival, processing, k).sum())


def thm2_ratio(cores: object, memory: object, machine_cores: object,
               machine_memory: object) -> float:
    """XLL21 Thm. 2: min_i (M_i - m_max)/(C_i + 2 d_min) * d_min / m_max."""
    d = np.asarray(cores, dtype=float)
    m = np.asarray(memory, dtype=float)
    C = np.asarray(machine_cores, dtype=float)
    M = np.asarray(machine_memory, dtype=float)
    m_max, d_min = float(m.max()), float(d.min())
    if m_max <= 0 or d_min <= 0:
        raise ValueError("Thm. 2 needs m_max > 0 and d_min > 0")
    return float(np.min((M - m_max) / (C + 2 * d_min)) * d_min / m_max)


def service_gaps(y: object, arrival: object, completion: object) -> np.ndarray:
    """Per job, the longest run of slots with rate 0 while it was present and unfinished
    (slots a_j + 1 .. c_j): the measured T-tilde of XLL21 Cor. 1."""
    r = _rates(y)
    a = np.asarray(arrival, dtype=int)
    c = np.asarray(completion, dtype=int)
    out = np.zeros(len(a), dtype=int)
    for j in range(len(a)):
        served = r[j, a[j]:c[j]] > 0  # columns a_j .. c_j - 1 are slots a_j + 1 .. c_j
        longest = run = 0
        for s in served:
            run = 0 if s else run + 1
            longest = max(longest, run)
        out[j] = longest
    return out


def long_term_target(arrival: object, processing: object, gamma: float) -> np.ndarray:
    """p_j / (Gamma - a_j): the per-slot rate of the soft constraint g_j of XLL21 eq. (7).

    (Algorithm 1 line 7 prints p_j/(1 - a_j), negative for every a_j >= 2 and undefined
    at a_j = 1; see the errata register.)
    """
    a = np.asarray(arrival, dtype=float)
    if np.any(gamma <= a):
        raise ValueError(f"Gamma = {gamma:g} must exceed every arrival (eq. (7))")
    return np.asarray(processing, dtype=float) / (gamma - a)


def dual_step(lam: object, mu: float, target: object, served: object) -> np.ndarray:
    """lambda_j(t+1) = max{0, lambda_j(t) + mu (target_j - served_j)}, XLL21 eq. (10),
    with target_j of eq. (7) and served_j = sum_i x_j^i(t) z_j^i(t)."""
    if not np.isfinite(mu) or mu <= 0:
        raise ValueError(f"the step size mu must be > 0, got {mu!r}")
    return np.maximum(0.0, np.asarray(lam, dtype=float)
                      + mu * (np.asarray(target, dtype=float) - np.asarray(served, float)))
