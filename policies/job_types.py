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

    PG18 assumes exponential service (Sec. II); Sec. IX notes that its results hold for
    general laws, since the chain of Definition 2 is reversible and its stationary law
    depends on the mean service times only. Every law is drawn by inverse transform
    from a single uniform (:meth:`from_uniform`), so a simulator draws the service of a
    dummy job (Algorithm 1) with a fixed number of draws:

    * ``exponential``: ``-mean * log(1 - u)`` (PG18 Sec. II);
    * ``deterministic``: ``mean`` (the uniform is drawn and ignored; PG18 Prop. 1);
    * ``hyperexponential``: two exponential phases with balanced means and squared
      coefficient of variation ``scv`` in (1, :data:`MAX_SCV`] (default 4): phase 1
      w.p. p = (1 + sqrt((scv-1)/(scv+1)))/2 with mean mean/(2p), else mean/(2(1-p));
      u < p picks phase 1 and u/p (or (u-p)/(1-p)) is the phase's uniform;
    * ``pareto``: shape ``alpha`` > 1 (default 2.5) and scale x_m = mean (alpha-1)/alpha,
      ``x_m (1 - u)^(-1/alpha)`` (heavy tail; infinite variance for alpha <= 2).

    ``scv`` belongs to the hyperexponential law and ``alpha`` to the Pareto law only;
    giving one to another law is an error (it would be ignored). After construction
    ``mean``, ``scv`` and ``alpha`` are floats (the default filled in for the law's own
    parameter, None for the other).

    Parameters
    ----------
    law : {'exponential', 'deterministic', 'hyperexponential', 'pareto'}
        The law (a key of :data:`SERVICE_LAWS`); default ``'exponential'``.
    mean : float, default 1.0
        The mean service time, in the model's time units; positive and finite.
    scv : float or None, default None
        Squared coefficient of variation of the hyperexponential law, in
        (1, :data:`MAX_SCV`]; None gives 4. Only for ``law='hyperexponential'``.
    alpha : float or None, default None
        Shape of the Pareto law, above 1 (a finite mean); None gives 2.5. Only for
        ``law='pareto'``.

    Raises
    ------
    ValueError
        An unknown ``law``; a ``mean`` that is not a positive finite number; ``scv`` or
        ``alpha`` given to a law that does not use it; ``scv`` outside (1, 1e6] or
        ``alpha`` not above 1 (or either not a finite number).

    References
    ----------
    PG18, Sec. II (exponential service of mean 1/mu_j) and Sec. IX (general service
    laws, insensitivity of the chain of Definition 2).

    Examples
    --------
    >>> from policies import ServiceTime
    >>> ServiceTime("exponential", 2.0).from_uniform(0.5)  # -2 log(1 - 0.5)
    1.3862943611198906
    >>> h = ServiceTime("hyperexponential", 1.0)
    >>> h.scv, h.from_uniform([0.1, 0.9]).round(4).tolist()
    (4.0, [0.0674, 0.5305])
    >>> p = ServiceTime("pareto", 1.0)
    >>> p.alpha, p.from_uniform(0.0)  # the scale x_m = mean (alpha - 1) / alpha
    (2.5, 0.6)
    >>> ServiceTime("deterministic", 3.0, scv=2.0)
    Traceback (most recent call last):
    ...
    ValueError: scv is a parameter of the hyperexponential law only; the deterministic ...
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

    PG18 Sec. II: type j demands the vector s_j = (s_j^1, ..., s_j^n) of the n
    resources and is served for a time of mean 1/mu_j. ``service`` is one
    :class:`ServiceTime` for all types, one per type, or ``None`` with ``mu`` (one rate
    per type, or one for all) for exponential service of mean 1/mu_j.

    After construction ``sizes`` is a read-only (J, n) float array, ``service`` a tuple
    of J laws and ``mu`` the array of rates 1/mean; ``J``, ``resources`` and
    ``mean_service`` read them. :meth:`check_cluster` refuses a cluster on which some
    type fits no server.

    Parameters
    ----------
    sizes : array_like, shape (J, n) or (J,)
        Demand vectors, one row per type and one number per resource (a 1-D list is one
        resource), in the servers' capacity units; finite, non-negative, and positive in
        some resource for every type.
    mu : float or array_like or None, default None
        Rates of exponential service, one per type or one for all (positive, finite,
        1/mu a finite float). None with ``service`` None: rate 1.
    service : ServiceTime or sequence of ServiceTime or None, default None
        The service laws instead of ``mu``: one for all types or one per type.
    names : sequence of str or None, default None
        One name per type, for messages and tables.

    Raises
    ------
    ValueError
        ``sizes`` not a non-empty table of finite non-negative numbers, or a type
        demanding nothing; both ``mu`` and ``service`` given; a rate that is not
        positive and finite (or too small for 1/mu to be finite); ``service`` not one
        law or a list of one per type; ``names`` not one per type.

    References
    ----------
    PG18, Sec. II (job types, demand vectors s_j, service of mean 1/mu_j) and Sec. IX
    (general service laws).

    Examples
    --------
    >>> from policies import JobTypes, ServiceTime
    >>> T = JobTypes([[2], [5]], mu=[1, 1])
    >>> T.J, T.resources, T.mean_service.tolist()
    (2, 1, [1.0, 1.0])
    >>> T2 = JobTypes([[8, 15], [6.5, 17.1]], service=ServiceTime("deterministic", 2.0),
    ...               names=["a", "b"])
    >>> T2.sizes.shape, T2.mu.tolist(), [s.law for s in T2.service], T2.names
    ((2, 2), [0.5, 0.5], ['deterministic', 'deterministic'], ('a', 'b'))
    >>> JobTypes([[2], [5]], mu=1, service=ServiceTime())
    Traceback (most recent call last):
    ...
    ValueError: give mu (exponential service) or service laws, not both
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

    Parameters
    ----------
    types : JobTypes
        The job types: demands and service laws.
    rates : float or array_like
        Arrival rates lambda_j, one per type or one for all, in jobs per time unit;
        positive and finite.
    horizon : float
        Arrivals fall in [0, horizon); positive and finite.
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None, default None
        The workload's randomness (:func:`theory.seeding.as_rng`; a Generator is used as
        it is).
    memory_budget : float, default :data:`theory.budgets.MEMORY_BUDGET`
        Bytes the run of these jobs may use.
    servers : int, default 0
        Servers of that run, for the estimate (0: not counted).

    Returns
    -------
    Workload
        The jobs in arrival order: ``arrival``, ``demand`` (the type's sizes),
        ``service``, ``job_type``, ``horizon``, ``arrival_rate`` = sum_j lambda_j and
        ``meta`` (model ``"pg18"``, the rates, the number of types).

    Raises
    ------
    TypeError
        ``types`` is not a :class:`JobTypes`.
    ValueError
        A rate or the horizon that is not positive and finite; rates of the wrong
        length; ``servers`` not an integer >= 0; ``memory_budget`` not positive; rates
        x horizon beyond the float range.
    theory.budgets.BudgetExceeded
        The estimated memory of the run is above ``memory_budget``.

    References
    ----------
    PG18, Sec. II (Poisson arrivals of rate lambda_j per type); docs/design.md, section
    Randomness and reproducibility (the draw order).

    Examples
    --------
    >>> from policies import JobTypes, poisson_type_workload
    >>> types = JobTypes([[2], [5]], mu=1)
    >>> w = poisson_type_workload(types, [2.0, 1.0], 5.0, seed=1)
    >>> w.jobs, w.arrival_rate, w.horizon
    (13, 3.0, 5.0)
    >>> w.job_type[:6].tolist(), w.demand[:6].ravel().tolist()
    ([0, 1, 0, 0, 1, 1], [2.0, 5.0, 2.0, 2.0, 5.0, 5.0])
    >>> w.arrival[:3].round(2).tolist(), w.service[:3].round(2).tolist()
    ([0.14, 0.67, 1.02], [0.98, 1.5, 0.95])
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
    :meth:`capacity.CapacityRegion.boundary_point` for the boundary in V's direction
    (erratum ``PG18.SecVIIA.V``).
    The maximal configurations are enumerated: more than ``max_configurations``
    (default :data:`theory.budgets.MAX_CONFIGURATIONS`) per server class is refused
    (:class:`theory.budgets.BudgetExceeded`).

    Parameters
    ----------
    types : JobTypes
        The job types (their demand vectors).
    cluster : theory.Cluster
        The servers; identical servers share one enumeration.
    max_configurations : int or None, default None
        Most maximal configurations enumerated per server class (None:
        :data:`theory.budgets.MAX_CONFIGURATIONS`).

    Returns
    -------
    numpy.ndarray
        V, shape (J,): jobs of each type, summed over the servers of each server's
        average maximal configuration.

    Raises
    ------
    TypeError
        ``types`` is not a :class:`JobTypes`, or ``cluster`` not a cluster.
    ValueError
        The types and servers have different numbers of resources; a type fits no
        server; ``max_configurations`` not a positive integer.
    theory.budgets.BudgetExceeded
        A server class has more than ``max_configurations`` maximal configurations.

    References
    ----------
    PG18, Sec. VII-A (lambda = zeta V, V = sum_l V^l, V^l the average of server l's
    maximal configurations); Sec. II (feasible configurations K_l).

    Examples
    --------
    Sizes 2 and 5 in capacity 10 have the maximal configurations (5, 0), (2, 1) and
    (0, 2), whose average is (7/3, 1); two servers double it:

    >>> from policies import JobTypes, mean_maximal_point
    >>> from theory import Cluster
    >>> mean_maximal_point(JobTypes([[2], [5]]), Cluster.identical(2, 10)).tolist()
    [4.666666666666667, 2.0]
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

    Parameters
    ----------
    types : JobTypes
        The job types: demands and mean service times 1/mu_j.
    cluster : theory.Cluster
        The servers.
    intensity : float
        The traffic intensity zeta, positive and finite.
    reference : {'boundary', 'paper'}, default 'boundary'
        The point scaled by zeta: V scaled onto the boundary of the capacity region
        (``'boundary'``) or V as PG18 prints it (``'paper'``).
    max_configurations : int or None, default None
        Most configurations enumerated per server class (None:
        :data:`theory.budgets.MAX_CONFIGURATIONS`).

    Returns
    -------
    numpy.ndarray
        The arrival rates lambda_j, shape (J,), in jobs per time unit.

    Raises
    ------
    TypeError
        ``types`` is not a :class:`JobTypes`, or ``cluster`` not a cluster.
    ValueError
        ``intensity`` not positive and finite; an unknown ``reference``; a type that
        fits no server; rates beyond the float range.
    theory.budgets.BudgetExceeded
        Too many configurations for ``max_configurations``.
    capacity.programs.ProgramError
        The LP's boundary point was not certified.

    References
    ----------
    PG18, Sec. VII-A (arrival rates lambda = zeta V, traffic intensity zeta, unit mean
    service); Sec. II, eqs. (2)-(3) (the capacity region C).

    Examples
    --------
    For sizes 2 and 5 on two servers of capacity 10, V = (14/3, 2) lies inside C: the
    boundary in its direction is 30/29 V.

    >>> from policies import JobTypes, rates_for_intensity
    >>> from theory import Cluster
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> rates_for_intensity(types, cluster, 0.9, reference="paper").tolist()
    [4.2, 1.8]
    >>> rates_for_intensity(types, cluster, 0.9).round(6).tolist()  # 0.9 x 30/29 x V
    [4.344828, 1.862069]
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
