"""The largest load a policy keeps stable, as a fraction of rho*, by bisection.

For loads x (fraction of a reference rho*), a fresh PG21 workload with rho = x rho*
is simulated and judged by :func:`policies.stability.judge_stability`. Bisection
keeps ``lower`` = the largest load judged stable and ``upper`` = the smallest judged
unstable; an inconclusive verdict is retried once on a horizon ``extend`` times
longer and, if still inconclusive, ends the search with the bracket it has. The
answer is therefore a bracket [lower, upper] with the evidence of every run; its
half-width is the uncertainty (plus the detector's own finite-horizon error, which
the runs' relative drifts show).

The reference rho* is exact for discrete laws (:func:`capacity.rho_star`); for other
laws it is the upper end of the Thm. 1 bracket (capped by Lemma 2), so reported
fractions are conservative (never overstated).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from policies.slotted.engine import simulate
from policies.slotted.policy import BuiltinPolicy, SlottedPolicy
from policies.workload import pg21_workload
from theory.cluster import Cluster
from theory.distributions import Discrete, SizeDistribution
from theory.seeding import spawn_seeds

__all__ = ["CriticalLoad", "critical_load", "reference_rho_star"]


@dataclass(frozen=True)
class CriticalLoad:
    policy: str
    lower: float  # largest fraction of rho* judged stable (nan if none)
    upper: float  # smallest fraction judged unstable (nan if none)
    rho_star: float
    complete: bool  # True when the bracket is at most the requested tolerance
    runs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def estimate(self) -> float:
        return 0.5 * (self.lower + self.upper)

    @property
    def uncertainty(self) -> float:
        return 0.5 * (self.upper - self.lower)

    def as_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "lower": self.lower, "upper": self.upper,
                "estimate": self.estimate, "uncertainty": self.uncertainty,
                "rho_star": self.rho_star, "complete": self.complete, "runs": self.runs}


def reference_rho_star(sizes: SizeDistribution, servers: int, capacity: float = 1.0,
                       levels: int = 4) -> float:
    """rho* for the bisection: exact for discrete laws, else the Thm. 1 upper end."""
    if isinstance(sizes, Discrete):
        from capacity.supportable_workload import rho_star

        cap = Fraction(capacity) if isinstance(capacity, float) else capacity
        return float(rho_star(sizes, servers=servers, capacity=cap).upper)
    if capacity != 1:
        raise ValueError("continuous size laws are on (0, 1]: use capacity 1")
    from capacity.brackets import quantile_brackets

    return float(quantile_brackets(sizes, levels, servers=servers)[-1].hi)


def critical_load(
    policy: BuiltinPolicy | SlottedPolicy,
    sizes: SizeDistribution,
    *,
    servers: int = 1,
    capacity: float = 1.0,
    mu: float | None = 0.01,
    deterministic: int | None = None,
    rho_star: float | None = None,
    lo: float = 0.3,
    hi: float = 1.05,
    tol: float = 0.02,
    slots: int = 200_000,
    extend: int = 4,
    seed: int | None = None,
) -> CriticalLoad:
    """Bisect the stability threshold of ``policy`` in [lo, hi] (fractions of rho*)."""
    if not 0 < lo < hi:
        raise ValueError(f"need 0 < lo < hi, got lo={lo}, hi={hi}")
    if not tol > 0:
        raise ValueError(f"tol must be positive, got {tol}")
    if deterministic is not None:
        mu = None
    ref = reference_rho_star(sizes, servers, capacity) if rho_star is None else float(rho_star)
    if not (np.isfinite(ref) and ref > 0):
        raise ValueError(f"rho* must be positive and finite, got {ref}")
    cluster = Cluster.identical(servers, capacity)
    seeds = iter(spawn_seeds(seed, 10_000))
    runs: list[dict[str, Any]] = []

    def judge(x: float) -> str:
        horizon = slots
        for attempt in range(2):
            w = pg21_workload(sizes, servers=servers, slots=horizon, capacity=capacity, mu=mu,
                              deterministic=deterministic, workload=x * ref,
                              seed=np.random.default_rng(next(seeds)))
            r = simulate(policy, w, cluster)
            st = r.stability
            if st is None:
                raise ValueError(f"slots={horizon} is too short to judge stability")
            runs.append({"load": x, "slots": horizon, "verdict": st.verdict,
                         "mean_queue": r.mean_queue, "relative_drift": st.relative_drift,
                         "relative_drift_ci": list(st.relative_drift_ci),
                         "invariants_ok": r.invariants_ok})
            if st.verdict != "inconclusive" or attempt == 1:
                return st.verdict
            horizon *= extend
        return "inconclusive"

    lower, upper = float("nan"), float("nan")
    v_hi = judge(hi)
    if v_hi == "stable":
        return CriticalLoad(policy.name, hi, float("nan"), ref, False, runs)
    v_lo = judge(lo)
    if v_lo != "stable":
        return CriticalLoad(policy.name, float("nan"), lo if v_lo == "unstable" else
                            float("nan"), ref, False, runs)
    a, b = lo, hi
    complete = v_hi == "unstable"
    if not complete:
        return CriticalLoad(policy.name, a, float("nan"), ref, False, runs)
    while b - a > tol * (1 + 1e-9):
        m = 0.5 * (a + b)
        v = judge(m)
        if v == "stable":
            a = m
        elif v == "unstable":
            b = m
        else:
            complete = False
            break
    lower, upper = a, b
    return CriticalLoad(policy.name, lower, upper, ref,
                        complete and b - a <= tol * (1 + 1e-9), runs)
