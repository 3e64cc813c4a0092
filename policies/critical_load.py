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
    """The bracket :func:`critical_load` found, with the evidence of every run.

    Loads are fractions of ``rho_star``. ``estimate`` is the bracket's middle and
    ``uncertainty`` its half-width (NaN when an end is missing); ``as_dict()`` gives
    all of it for JSON.

    Parameters
    ----------
    policy : str
        The policy's name.
    lower : float
        The largest load judged stable (NaN if none).
    upper : float
        The smallest load judged unstable (NaN if none).
    rho_star : float
        The reference ``rho*`` the loads are fractions of (:func:`reference_rho_star`
        unless given).
    complete : bool
        True when the bracket is at most the requested tolerance wide.
    runs : list of dict, optional
        One entry per simulation: ``load``, ``slots``, ``verdict``, ``mean_queue``,
        ``relative_drift``, ``relative_drift_ci``, ``invariants_ok``.

    References
    ----------
    PG21, Sec. II (maximum supportable workload ``rho*``); docs/design.md, section
    Warm-up and the stability verdict (``policies.critical_load``).

    Examples
    --------
    >>> from policies import CriticalLoad
    >>> c = CriticalLoad("bf-js", lower=0.8625, upper=1.05, rho_star=2.0, complete=False)
    >>> c.estimate, c.uncertainty
    (0.95625, 0.09375)
    >>> c.as_dict()["lower"]
    0.8625
    """

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
    """rho* for the bisection: exact for discrete laws, else the Thm. 1 upper end.

    A discrete law gets the exact ``rho*`` of the configuration LP
    (:func:`capacity.rho_star`, its upper end). Another law gets the upper end of the
    bracket of the quantile partition X^(levels) (Thm. 1: the lower-rounded LP,
    capped by Lemma 2's L/R-bar), so fractions of it are never overstated.

    Parameters
    ----------
    sizes : theory.SizeDistribution
        The size law, in the units of ``capacity``.
    servers : int
        Number L of identical servers.
    capacity : float, optional
        The server capacity (default 1; a law that is not discrete needs 1). A float
        is read exactly (``Fraction(capacity)``).
    levels : int, optional
        Depth of the quantile partition for a law that is not discrete (default 4).

    Returns
    -------
    float
        ``rho*`` (discrete law) or an upper bound on it.

    Raises
    ------
    ValueError
        A law that is not discrete with a capacity other than 1; inputs the LPs
        refuse (e.g. a size above the capacity).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) The LP's types or configurations exceed their budgets.

    References
    ----------
    PG21, Sec. III-A, eq. (4) (``rho*`` of finite types), Thm. 1 (the brackets of a
    partition) and Sec. IV-B, Lemma 2 (``rho*`` at most L/R-bar).

    Examples
    --------
    PG21 Sec. VII-A.1 (sizes 0.4 and 0.6: ``rho*`` = 2) and Fig. 3b (sizes 2 and 5 on
    capacity 10):

    >>> from fractions import Fraction
    >>> import policies, theory
    >>> policies.reference_rho_star(theory.Discrete([Fraction(2, 5), Fraction(3, 5)],
    ...                                             [Fraction(1, 2)] * 2), servers=1)
    2.0
    >>> policies.reference_rho_star(theory.Discrete([Fraction(2), Fraction(5)],
    ...                                             [Fraction(2, 3), Fraction(1, 3)]),
    ...                             servers=1, capacity=10)
    3.333...
    """
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
    """Bisect the stability threshold of ``policy`` in [lo, hi] (fractions of rho*).

    For a load x, a fresh PG21 workload with rho = x ``rho*`` (:func:`pg21_workload`,
    its own child seed) is simulated on identical servers and judged by
    :func:`judge_stability`; an inconclusive verdict is retried once on a horizon
    ``extend`` times longer. First ``hi`` is judged, then ``lo``; the search goes on
    only when ``hi`` is unstable and ``lo`` stable (otherwise it returns what it
    found, ``complete`` False). Bisection then keeps ``lower`` stable and ``upper``
    unstable until the bracket is at most ``tol`` wide, or a verdict stays
    inconclusive (the search ends with the bracket it has, ``complete`` False).

    Parameters
    ----------
    policy : BuiltinPolicy or SlottedPolicy
        The PG21 policy.
    sizes : theory.SizeDistribution
        The size law, in the units of ``capacity``.
    servers : int, optional
        Number L of identical servers (default 1).
    capacity : float, optional
        Their capacity (default 1).
    mu : float or None, optional
        Geometric service: departure probability per slot (default 0.01).
    deterministic : int or None, optional
        Fixed service of this many slots instead (then ``mu`` is ignored).
    rho_star : float or None, optional
        The reference ``rho*`` (default :func:`reference_rho_star`).
    lo : float, optional
        The lowest load tried, a fraction of ``rho*`` (default 0.3).
    hi : float, optional
        The highest load tried (default 1.05).
    tol : float, optional
        The bracket width at which the bisection stops (default 0.02).
    slots : int, optional
        The horizon of each run (default 200,000).
    extend : int, optional
        The factor by which an inconclusive run's horizon is extended once
        (default 4).
    seed : int or None, optional
        The seed; every run draws from its own child (:func:`policies.spawn_seeds`).

    Returns
    -------
    CriticalLoad
        ``lower``, ``upper`` (fractions of ``rho*``; NaN for a missing end),
        ``rho_star``, ``complete`` and the evidence of every run.

    Raises
    ------
    ValueError
        ``lo`` and ``hi`` not 0 < lo < hi; ``tol`` not positive; a reference ``rho*``
        that is not positive and finite; ``slots`` too short to judge stability
        (fewer than 40 slots after the warm-up); inputs :func:`pg21_workload` or
        :func:`simulate` refuse.

    References
    ----------
    PG21, Sec. II (supportable workload, ``rho*``), Thm. 2 and Thms. 3-4 (the
    fractions 1/2 and 2/3 of ``rho*`` that BF-J/S and VQS, VQS-BF are guaranteed);
    docs/design.md, section Warm-up and the stability verdict.

    Examples
    --------
    BF-J/S on sizes 0.4 and 0.6 and one server (``rho*`` = 2), on short runs: the
    search stops where a verdict stays inconclusive, with the bracket it has.

    >>> from fractions import Fraction
    >>> import policies, theory
    >>> sizes = theory.Discrete([Fraction(2, 5), Fraction(3, 5)], [Fraction(1, 2)] * 2)
    >>> c = policies.critical_load(policies.BFJS(), sizes, mu=0.5, slots=2000, tol=0.1,
    ...                            seed=3)
    >>> c.rho_star, c.lower, c.upper, c.complete
    (2.0, 0.8625, 1.05, False)
    >>> [(r["load"], r["slots"], r["verdict"]) for r in c.runs][:4]
    [(1.05, 2000, 'unstable'), (0.3, 2000, 'stable'), (0.675, 2000, 'inconclusive'),
     (0.675, 8000, 'stable')]
    """
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
