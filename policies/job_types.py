"""Finite job types with vector demands and their service-time laws (PG18 Sec. II, IX).

A :class:`JobTypes` is the list of types j = 1..J: demand vector s_j (one entry per
resource) and a service-time law of mean 1/mu_j. PG18 assumes exponential service
(Sec. II) and notes the results hold for general laws (Sec. IX, insensitivity of the
reversible chain of Definition 2); every law here is drawn from one uniform by its
inverse distribution function, so the simulators can draw the service of a dummy job
(Algorithm 1) from the scheduling stream with a fixed number of draws.

:func:`poisson_type_workload` draws the jobs of a run: Poisson arrivals of rate
lambda_j per type, service from the type's law, in a fixed draw order (see there).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from policies.footprint import expected_jobs_bound
from policies.workload import Workload
from theory.arrays import number_array
from theory.budgets import MEMORY_BUDGET
from theory.cluster import Cluster
from theory.numbers import FEASIBILITY_RTOL, real_float, short_repr
from theory.seeding import as_rng

__all__ = ["ServiceTime", "JobTypes", "poisson_type_workload", "SERVICE_LAWS",
           "mean_maximal_point", "rates_for_intensity", "describe_types"]

#: law name -> code used by the compiled simulators
SERVICE_LAWS = {"exponential": 0, "deterministic": 1, "hyperexponential": 2, "pareto": 3}
#: defaults of the hyperexponential scv and the Pareto shape
DEFAULT_SCV, DEFAULT_ALPHA = 4.0, 2.5
#: largest hyperexponential scv: phase 2 has probability 1 - p, about 1/(2 scv), which
#: float64 keeps to a relative 2e-16 (2 scv); at 1e6 the law's scv is exact to about
#: 1e-9, while near 1e16 1 - p rounds to 0 and the law is no longer defined
MAX_SCV = 1e6


def _shown(x: object) -> str:
    """``x`` for a message (:func:`theory.numbers.short_repr`; a numpy float as a float)."""
    return short_repr(float(x) if isinstance(x, np.floating) else x, 40)


def _finite_positive(x: object, name: str) -> float:
    v = real_float(x, name, "a positive number")
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} must be positive and finite, got {_shown(x)}")
    return v


@dataclass(frozen=True)
class ServiceTime:
    """A service-time law with mean ``mean``, drawn from one uniform u in [0, 1).

    * ``exponential``: ``-mean * log(1 - u)`` (PG18 Sec. II);
    * ``deterministic``: ``mean`` (the uniform is drawn and ignored; PG18 Prop. 1);
    * ``hyperexponential``: two exponential phases with balanced means and squared
      coefficient of variation ``scv`` in (1, :data:`MAX_SCV`] (default 4): phase 1
      w.p. p = (1 + sqrt((scv-1)/(scv+1)))/2 with mean mean/(2p), else mean/(2(1-p));
      u < p picks phase 1 and u/p (or (u-p)/(1-p)) is the phase's uniform;
    * ``pareto``: shape ``alpha`` > 1 (default 2.5) and scale x_m = mean (alpha-1)/alpha,
      ``x_m (1 - u)^(-1/alpha)`` (heavy tail; infinite variance for alpha <= 2).

    ``scv`` belongs to the hyperexponential law and ``alpha`` to the Pareto law only;
    giving one to another law is an error (it would be ignored).
    """

    law: str = "exponential"
    mean: float = 1.0
    scv: float | None = None  # hyperexponential only
    alpha: float | None = None  # pareto only

    def __post_init__(self) -> None:
        if not isinstance(self.law, str) or self.law not in SERVICE_LAWS:
            raise ValueError(f"law must be one of {', '.join(SERVICE_LAWS)}, got "
                             f"{self.law!r}")
        object.__setattr__(self, "mean", _finite_positive(self.mean, "mean"))
        for key, law, default in (("scv", "hyperexponential", DEFAULT_SCV),
                                  ("alpha", "pareto", DEFAULT_ALPHA)):
            value = getattr(self, key)
            if self.law != law:
                if value is not None:
                    raise ValueError(f"{key} is a parameter of the {law} law only; the "
                                     f"{self.law} law does not use it")
                continue
            allowed = f"(1, {MAX_SCV:g}]" if key == "scv" else "(1, inf) (a finite mean)"
            v = default if value is None else real_float(value, key, f"a number in {allowed}")
            high = MAX_SCV if key == "scv" else math.inf
            if not (1.0 < v <= high and math.isfinite(v)):
                raise ValueError(f"{key} of a {law} law must lie in {allowed}, got "
                                 f"{_shown(value)}")
            object.__setattr__(self, key, v)

    @property
    def code(self) -> int:
        return SERVICE_LAWS[self.law]

    @property
    def parameter(self) -> float:
        """The law's second parameter as the compiled simulators take it."""
        if self.law == "hyperexponential":
            return float(self.scv)  # type: ignore[arg-type]
        if self.law == "pareto":
            return float(self.alpha)  # type: ignore[arg-type]
        return 0.0

    def from_uniform(self, u: np.ndarray | float) -> np.ndarray | float:
        """Inverse-transform draws for uniforms ``u`` in [0, 1)."""
        return service_from_uniform(self.code, self.mean, self.parameter, u)


def service_from_uniform(code: int, mean: float, par: float,
                         u: np.ndarray | float) -> np.ndarray | float:
    """The law ``code`` (see :data:`SERVICE_LAWS`) at uniform ``u``; also the compiled
    simulators' formula (kept in one place, mirrored in the kernels)."""
    uu = np.asarray(u, dtype=np.float64)
    if code == 0:
        out = -mean * np.log1p(-uu)
    elif code == 1:
        out = np.full(uu.shape, mean)
    elif code == 2:
        p = 0.5 * (1.0 + math.sqrt((par - 1.0) / (par + 1.0)))
        first = uu < p
        v = np.where(first, uu / p, (uu - p) / (1.0 - p))
        m = np.where(first, mean / (2.0 * p), mean / (2.0 * (1.0 - p)))
        out = -m * np.log1p(-np.minimum(v, np.nextafter(1.0, 0.0)))
    else:
        xm = mean * (par - 1.0) / par
        out = xm * np.power(1.0 - uu, -1.0 / par)
    return float(out) if np.ndim(u) == 0 else out


def _demand_matrix(sizes: object) -> np.ndarray:
    s = number_array(sizes, "sizes", "a list of demand vectors (one row per job type, one "
                     "number per resource)")
    if s.ndim == 1:
        s = s[:, None]
    if s.ndim != 2 or s.shape[0] == 0 or s.shape[1] == 0:
        raise ValueError(f"sizes must be a non-empty (types, resources) table, got shape "
                         f"{s.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("sizes: job demands must be finite numbers (no NaN or inf)")
    if np.any(s < 0):
        j = int(np.argwhere(s < 0)[0, 0])
        raise ValueError(f"sizes: type {j}'s demands must be non-negative, got "
                         f"{s[j].tolist()}")
    if np.any(s.sum(axis=1) <= 0):
        j = int(np.argwhere(s.sum(axis=1) <= 0)[0, 0])
        raise ValueError(f"sizes: type {j} demands no resource at all (a job needs a "
                         f"positive demand in some resource)")
    return s


@dataclass(frozen=True, eq=False)
class JobTypes:
    """J job types: demands ``sizes[j]`` (one entry per resource) and service laws.

    ``service`` is one :class:`ServiceTime` for all types, one per type, or ``None``
    with ``mu`` (one rate per type, or one for all) for exponential service of mean
    1/mu_j (PG18 Sec. II).

    >>> T = JobTypes([[2], [5]], mu=[1, 1])
    >>> T.J, T.resources, T.mean_service.tolist()
    (2, 1, [1.0, 1.0])
    """

    sizes: Any
    mu: Any = None
    service: Any = None
    names: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        s = _demand_matrix(self.sizes)
        J = s.shape[0]
        s.setflags(write=False)
        object.__setattr__(self, "sizes", s)
        laws: list[ServiceTime]
        if self.service is not None and self.mu is not None:
            raise ValueError("give mu (exponential service) or service laws, not both")
        if self.service is None:
            mu = 1.0 if self.mu is None else self.mu
            rates = _per_type(mu, J, "mu")
            if np.any(rates < 1.0 / np.finfo(float).max):
                raise ValueError(f"mu must be at least {1.0 / np.finfo(float).max:.3g} (its "
                                 f"mean service time 1/mu must be a finite number), got "
                                 f"{float(rates.min())!r}")
            laws = [ServiceTime("exponential", 1.0 / r) for r in rates]
        elif isinstance(self.service, ServiceTime):
            laws = [self.service] * J
        else:
            if not isinstance(self.service, list | tuple):
                raise ValueError(f"service must be a ServiceTime or a list of one per type "
                                 f"({J}), got {_shown(self.service)}")
            laws = list(self.service)
            if len(laws) != J or not all(isinstance(x, ServiceTime) for x in laws):
                raise ValueError(f"service must be a ServiceTime or a list of one per type "
                                 f"({J}), got {len(laws)} entries")
        object.__setattr__(self, "service", tuple(laws))
        object.__setattr__(self, "mu", np.array([1.0 / x.mean for x in laws]))
        if self.names is not None:
            if not isinstance(self.names, list | tuple | np.ndarray):
                raise ValueError(f"names must be a list of {J} names, one per type, got "
                                 f"{_shown(self.names)}")
            nm = tuple(str(x) for x in self.names)
            if len(nm) != J:
                raise ValueError(f"names must name each of the {J} types, got {len(nm)}")
            object.__setattr__(self, "names", nm)

    @property
    def J(self) -> int:
        return int(self.sizes.shape[0])

    @property
    def resources(self) -> int:
        return int(self.sizes.shape[1])

    @property
    def mean_service(self) -> np.ndarray:
        return np.array([x.mean for x in self.service])

    def law_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(code, mean, parameter) per type for the compiled simulators."""
        laws = self.service
        return (np.array([x.code for x in laws], dtype=np.int64),
                np.array([x.mean for x in laws]),
                np.array([x.parameter for x in laws]))

    def check_cluster(self, cluster: Cluster) -> None:
        """Every type must fit some server (PG18 Sec. II assumes every server fits every
        type; a type that fits none could never be served)."""
        if not isinstance(cluster, Cluster):
            raise TypeError("cluster must be a policies.Cluster")
        if cluster.resources != self.resources:
            raise ValueError(f"the job types demand {self.resources} resource(s) but the "
                             f"servers have {cluster.resources}")
        cap = cluster.capacity * (1.0 + FEASIBILITY_RTOL)
        fits = np.all(self.sizes[:, None, :] <= cap[None, :, :], axis=2)  # (J, L)
        for j in np.flatnonzero(~fits.any(axis=1)):
            raise ValueError(f"type {self._name(int(j))} with demand {self.sizes[j].tolist()} "
                             f"fits no server (largest capacities "
                             f"{cluster.capacity.max(axis=0).tolist()}): it could never be "
                             f"served")

    def _name(self, j: int) -> str:
        return f"{j} ({self.names[j]})" if self.names else str(j)


def _per_type(x: object, J: int, name: str) -> np.ndarray:
    """One positive finite value per type (a scalar is repeated)."""
    if isinstance(x, str | bytes):
        raise ValueError(f"{name} must be numbers, got the string {x!r}")
    try:
        arr = np.atleast_1d(np.asarray(x, dtype=object))
    except (TypeError, ValueError):
        arr = np.empty(0, dtype=object)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a positive number or a list of one per type ({J})")
    vals = [_finite_positive(v, f"{name}[{i}]" if arr.size > 1 else name)
            for i, v in enumerate(arr)]
    if len(vals) == 1:
        vals = vals * J
    if len(vals) != J:
        raise ValueError(f"{name} has {len(vals)} entries for {J} job types")
    return np.array(vals, dtype=np.float64)


def check_poisson_type_inputs(
    types: JobTypes,
    rates: Sequence[float] | np.ndarray | float,
    horizon: float,
    *,
    memory_budget: float = MEMORY_BUDGET,
    servers: int = 0,
) -> tuple[np.ndarray, float]:
    """The rates per type and the horizon of :func:`poisson_type_workload`, every input
    and the memory estimate checked, nothing drawn (a sweep checks its points so)."""
    from policies.continuous import footprint

    if not isinstance(types, JobTypes):
        raise TypeError("types must be a policies.JobTypes")
    lam = _per_type(rates, types.J, "rates")
    T = _finite_positive(horizon, "horizon")
    budget = footprint.check_memory_budget(memory_budget)
    if isinstance(servers, bool) or not isinstance(servers, int | np.integer) or servers < 0:
        raise ValueError(f"servers must be a non-negative integer (0: not counted), got "
                         f"{_shown(servers)}")
    with np.errstate(over="ignore"):
        total = float(lam.sum())
    if not math.isfinite(total * T):
        raise ValueError(f"rates x horizon = {total:g} x {T:g} expected arrivals is beyond "
                         f"the float range")
    jobs = expected_jobs_bound(total, T)
    footprint.check_memory(
        footprint.run_bytes(jobs=jobs, samples=0, types=types.J, resources=types.resources,
                            servers=int(servers), rows=1), budget,
        what=f"about {total * T:.3g} arrivals (total rate {total:.3g} over {T:g} time "
             f"units)")
    return lam, T


def poisson_type_workload(
    types: JobTypes,
    rates: Sequence[float] | np.ndarray | float,
    horizon: float,
    *,
    seed: int | np.random.SeedSequence | np.random.Generator | None = None,
    memory_budget: float = MEMORY_BUDGET,
    servers: int = 0,
) -> Workload:
    """Poisson arrivals of rate ``rates[j]`` per type over [0, ``horizon``) (PG18 Sec. II).

    Draw order (fixed, so a seed fixes the jobs): the total number of arrivals
    N ~ Poisson(lambda * horizon), their times (sorted uniforms), their types
    (categorical lambda_j / lambda), then one uniform per job for its service time
    (inverse transform of the type's law).

    The memory of the run these jobs make on ``servers`` servers
    (:mod:`policies.continuous.footprint`) is estimated first, from a high quantile of
    N, and refused above ``memory_budget`` bytes (:class:`theory.budgets.BudgetExceeded`).
    """
    lam, T = check_poisson_type_inputs(types, rates, horizon, memory_budget=memory_budget,
                                       servers=servers)
    total = float(lam.sum())
    rng = as_rng(seed if not isinstance(seed, np.random.SeedSequence)
                 else np.random.default_rng(seed))
    n = int(rng.poisson(total * T))
    arrival = np.sort(rng.random(n) * T)
    jt = np.searchsorted(np.cumsum(lam) / total, rng.random(n), side="right")
    jt = np.minimum(jt, types.J - 1).astype(np.int64)
    u = rng.random(n)
    service = np.empty(n)
    for j, law in enumerate(types.service):
        m = jt == j
        service[m] = law.from_uniform(u[m])
    service = np.maximum(service, np.finfo(float).tiny)
    return Workload(
        arrival, types.sizes[jt], service, T, arrival_rate=total,
        meta={"model": "pg18", "rates": lam.tolist(), "types": types.J},
        job_type=jt,
    )


def describe_types(types: JobTypes) -> dict[str, Any]:
    """A JSON-ready description of the job types."""
    return {"sizes": types.sizes.tolist(), "mean_service": types.mean_service.tolist(),
            "service": [x.law for x in types.service],
            "names": list(types.names) if types.names else None}


def mean_maximal_point(types: JobTypes, cluster: Cluster, *,
                       max_configurations: int | None = None) -> np.ndarray:
    """V = sum_l V^l, V^l the average of server l's maximal configurations (PG18
    Sec. VII-A), the reference point of the paper's traffic intensities.

    PG18 calls V a point of the boundary of C; it is one only when no average of
    maximal configurations lies inside C (for sizes 2 and 5 in capacity 10 it does
    not: ``capacity.CapacityRegion(...).max_scaling(V)`` is 30/29). Use
    :meth:`capacity.CapacityRegion.boundary_point` for the boundary in V's direction.
    The maximal configurations are enumerated: more than ``max_configurations``
    (default :data:`theory.budgets.MAX_CONFIGURATIONS`) per server class is refused
    (:class:`theory.budgets.BudgetExceeded`).
    """
    from theory.budgets import BudgetExceeded
    from theory.configurations import maximal_configurations

    if not isinstance(types, JobTypes):
        raise TypeError("types must be a policies.JobTypes")
    types.check_cluster(cluster)
    limit = _max_configurations(max_configurations)
    classes, counts = np.unique(cluster.capacity, axis=0, return_counts=True)
    V = np.zeros(types.J)
    for cap, count in zip(classes, counts, strict=True):
        try:
            K = np.asarray(maximal_configurations(types.sizes.tolist(), cap.tolist(),
                                                  max_configurations=limit), dtype=float)
        except BudgetExceeded as e:
            # V is an average over every maximal configuration: no column generation
            # avoids the enumeration; the other remedy is to give the rates themselves
            raise BudgetExceeded(e.what, e.need, e.budget, "max_configurations",
                                 "V of PG18 Sec. VII-A averages every maximal "
                                 "configuration; or give the arrival rates instead of a "
                                 "traffic intensity") from None
        V += count * K.mean(axis=0)
    return V


def _max_configurations(x: object) -> int:
    from theory.budgets import MAX_CONFIGURATIONS

    if x is None:
        return MAX_CONFIGURATIONS
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer) or x < 1:
        raise ValueError(f"max_configurations must be a positive integer, got {_shown(x)}")
    return int(x)


def rates_for_intensity(types: JobTypes, cluster: Cluster, intensity: float, *,
                        reference: str = "boundary",
                        max_configurations: int | None = None) -> np.ndarray:
    """Arrival rates lambda_j = zeta * V_j * mu_j for traffic intensity ``intensity``
    zeta (PG18 Sec. VII-A: lambda = zeta V with unit mean service).

    ``reference="paper"`` takes V of :func:`mean_maximal_point` as printed;
    ``"boundary"`` (default) scales it onto the boundary of C first (the largest t with
    t V in C, an LP), so that zeta < 1 is inside the region and zeta > 1 outside.
    ``max_configurations`` bounds the enumeration of :func:`mean_maximal_point` (and the
    LP's configurations).
    """
    from capacity.programs import ProgramError
    from capacity.region import CapacityRegion, ServerClass

    if not isinstance(types, JobTypes):
        raise TypeError("types must be a policies.JobTypes")
    zeta = _finite_positive(intensity, "intensity")
    if reference not in ("boundary", "paper"):
        raise ValueError(f"reference must be 'boundary' or 'paper', got {_shown(reference)}")
    limit = _max_configurations(max_configurations)
    V = mean_maximal_point(types, cluster, max_configurations=limit)
    if reference == "boundary":
        classes, counts = np.unique(cluster.capacity, axis=0, return_counts=True)
        R = CapacityRegion(types.sizes.tolist(), [ServerClass(tuple(c.tolist()), int(n))
                                                  for c, n in zip(classes, counts,
                                                                  strict=True)])
        res = R.max_scaling(V.tolist(), max_configurations=limit)
        if not res.certified:
            raise ProgramError(f"the boundary of the capacity region in V's direction was "
                               f"not certified: {res.message}")
        V = V * float(res.value)
    rates = zeta * V / types.mean_service
    if not np.all(np.isfinite(rates)):
        raise ValueError(f"intensity {zeta:g} gives arrival rates beyond the float range")
    return rates
