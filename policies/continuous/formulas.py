"""The scalar formulas of the PG18 event loop, shared by the Python engine and the
compiled kernel so that both follow the same trajectory to the bit.

Written with :mod:`math` on scalars, never NumPy ufuncs on arrays: NumPy's vector
``log1p``/``exp`` may take SIMD paths that differ from the C library in the last bit
(measured: ``np.log1p`` on an array differs from ``math.log1p`` on about 7% of
uniforms on an AVX-512 machine), while numba compiles :mod:`math` to the C library.
:mod:`policies.continuous._kernel` compiles these same functions with ``numba.njit``.
Sums run left to right over the resources, in both engines.
"""

from __future__ import annotations

import math

__all__ = ["F_LOG", "F_LOG_POWER", "weight_f", "rms_weight", "service_draw", "tick_gap",
           "best_fit_score", "demand_fraction"]

#: codes of f in eq. (4): log(1 + x), and log^(1-b)(1 + x)
F_LOG, F_LOG_POWER = 0, 1
_TINY = 2.2250738585072014e-308  # smallest positive normal float: a dummy holds > 0 time


def weight_f(x: float, f_code: int, b: float) -> float:
    """f of PG18 eq. (4): log(1 + x), or log^(1-b)(1 + x) (Theorems 1 and 2)."""
    v = math.log1p(x)
    if f_code == F_LOG_POWER:
        return v ** (1.0 - b)
    return v


def rms_weight(q: float, q_max: float, f_code: int, b: float, floor: float) -> float:
    """w_j = max{f(Q_j), epsilon / (8M) f(Q_max)}, PG18 eq. (4) (and (5) per server);
    ``floor`` is epsilon / (8M). (Self-contained, so numba can compile it alone.)"""
    fq, fmax = math.log1p(q), math.log1p(q_max)
    if f_code == F_LOG_POWER:
        fq, fmax = fq ** (1.0 - b), fmax ** (1.0 - b)
    return max(fq, floor * fmax)


def service_draw(code: int, mean: float, par: float, u: float) -> float:
    """A service time of law ``code`` (:data:`policies.job_types.SERVICE_LAWS`) from one
    uniform u in [0, 1) by inverse transform, at least the smallest positive float."""
    if code == 0:
        d = -mean * math.log1p(-u)
    elif code == 1:
        d = mean
    elif code == 2:
        p = 0.5 * (1.0 + math.sqrt((par - 1.0) / (par + 1.0)))
        if u < p:
            d = -(mean / (2.0 * p)) * math.log1p(-min(u / p, 1.0 - 2.0 ** -53))
        else:
            d = -(mean / (2.0 * (1.0 - p))) * math.log1p(-min((u - p) / (1.0 - p),
                                                              1.0 - 2.0 ** -53))
    else:
        d = mean * (par - 1.0) / par * (1.0 - u) ** (-1.0 / par)
    return max(d, _TINY)


def tick_gap(u: float, rate: float) -> float:
    """Gap to the next tick of a Poisson clock of rate ``rate`` from one uniform."""
    return -math.log1p(-u) / rate


def best_fit_score(demand, load, capacity) -> float:  # noqa: ANN001 (arrays, numba too)
    """PG18 Sec. VI (RMS-BF) and the BF baseline: sum_r (s_r / c_r) (load_r / c_r),
    the job's demand and the server's occupied resources as fractions of capacity."""
    acc = 0.0
    for r in range(demand.shape[0]):
        acc += (demand[r] / capacity[r]) * (load[r] / capacity[r])
    return acc


def demand_fraction(demand, capacity) -> float:  # noqa: ANN001
    """sum_r s_r / c_r: a job's size relative to a server (BF's ``largest`` order)."""
    acc = 0.0
    for r in range(demand.shape[0]):
        acc += demand[r] / capacity[r]
    return acc
