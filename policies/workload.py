"""The workload format shared by every simulator, and generators for it.

A :class:`Workload` is a table of jobs in arrival order: arrival times, demand
vectors, service amounts and weights (docs/design.md, "Simulation"). Each model family
reads the columns it needs:

* PG21 slotted (Sec. II): integer arrival slots, scalar sizes, service in slots. A
  geometric service time with parameter mu (each job in service leaves at the end of
  a slot w.p. mu, independently) is the same law as a pre-drawn Geometric(mu) number
  of slots >= 1, so service is drawn when the workload is made. That makes one
  workload replayable under every policy (common random numbers) and lets
  simulators be compared job by job.
* PG18 continuous time: real arrival times, vector demands, exponential service.
* XLL21: processing volumes; FL24: processing times and weights.

Generators here build PG21 workloads: Poisson, Bernoulli or trace arrivals; sizes
from any :class:`theory.distributions.SizeDistribution` or a trace; geometric,
deterministic (PG21 Fig. 3b) or trace service.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from policies.footprint import check_run_memory, expected_jobs_bound
from theory.budgets import MEMORY_BUDGET
from theory.distributions import SizeDistribution
from theory.job_sets import JobSet
from theory.numbers import FEASIBILITY_RTOL, positive_int
from theory.seeding import as_rng

__all__ = [
    "Workload",
    "PoissonArrivals",
    "BernoulliArrivals",
    "GeometricService",
    "DeterministicService",
    "EmpiricalService",
    "slotted_workload",
    "trace_workload",
    "google2011_workload",
    "arrival_rate_for",
    "pg21_workload",
]


@dataclass(frozen=True, eq=False)
class Workload:
    """Jobs in arrival order (job id = row).

    ``arrival`` (n,) nondecreasing times (integer slots in slotted models);
    ``demand`` (n,) or (n, d) resource demands; ``service`` (n,) service amounts
    (slots, time or volume, by model); ``weight`` (n,) (default ones);
    ``horizon`` the time the workload covers (jobs arrive before it);
    ``arrival_rate`` and ``mean_demand`` the generating law's lambda and R-bar when
    known (used to judge stability; estimated from the jobs otherwise); ``meta``
    a free-form description (seed, law, ...); ``job_type`` (n,) the type index of
    every job in finite-type models (PG18 Sec. II), else ``None``.

    The arrays are copied and made read only.

    Parameters
    ----------
    arrival : numpy.ndarray
        (n,) nondecreasing, non-negative arrival times, each before ``horizon``
        (integer slots in slotted models).
    demand : numpy.ndarray
        (n,) positive scalar sizes, or (n, d) non-negative demand vectors with some
        demand in every row, in the units of the cluster's capacity.
    service : numpy.ndarray
        (n,) positive service amounts: slots (PG21, integers), time (PG18) or volume
        (XLL21, FL24), by model.
    horizon : float
        The time the workload covers (>= 0); every job arrives before it.
    weight : numpy.ndarray, optional
        (n,) non-negative weights (default: ones).
    arrival_rate : float, optional
        The generating law's lambda (jobs per unit time, > 0), when known.
    mean_demand : float or numpy.ndarray, optional
        The generating law's mean demand R-bar (per resource), when known.
    meta : dict, optional
        A free-form description (law, seed, source, ...).
    job_type : numpy.ndarray, optional
        (n,) non-negative integer type of every job (PG18 finite-type models).

    Raises
    ------
    ValueError
        Arrays of different lengths or not finite numbers; arrivals negative,
        decreasing or not before the horizon; a non-positive size (or an all-zero
        demand row); a non-positive service; a negative or non-finite horizon or
        weight; a non-positive ``arrival_rate``; a ``job_type`` that is not one
        non-negative integer per job.

    References
    ----------
    PG21, Sec. II (slotted arrivals, sizes and geometric service); docs/design.md,
    section The run contract (Workload and cluster).

    Examples
    --------
    >>> import numpy as np
    >>> import policies, theory
    >>> w = policies.Workload(np.array([0, 0, 3]), np.array([0.5, 0.6, 0.4]),
    ...                       np.array([2, 1, 4]), horizon=5)
    >>> w.jobs, w.slotted, w.work_rate()
    (3, True, 0.3)

    A finite job set (XLL21, FL24) as a workload, and back:

    >>> jobs = theory.JobSet([0, 0, 1], [2, 1, 1], [[1], [1], [2]])
    >>> w = policies.Workload.from_job_set(jobs)
    >>> w.arrival.tolist(), w.service.tolist(), w.horizon, w.slotted
    ([0, 0, 1], [2, 1, 1], 3.0, True)
    >>> w.to_job_set()
    JobSet(3 jobs, 1 resource(s), arrivals 0..1)
    """

    arrival: np.ndarray
    demand: np.ndarray
    service: np.ndarray
    horizon: float
    weight: np.ndarray | None = None
    arrival_rate: float | None = None
    mean_demand: float | np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    job_type: np.ndarray | None = None

    def __post_init__(self) -> None:
        a = np.asarray(self.arrival)
        dem = np.asarray(self.demand, dtype=np.float64)
        s = np.asarray(self.service)
        n = a.shape[0] if a.ndim == 1 else -1
        if a.ndim != 1:
            raise ValueError("arrival must be a 1-D array")
        if dem.ndim not in (1, 2) or dem.shape[0] != n or s.shape != (n,):
            raise ValueError(
                f"arrival, demand and service must describe the same {n} jobs "
                f"(shapes {a.shape}, {dem.shape}, {s.shape})"
            )
        for name, arr in (("arrival", a), ("demand", dem), ("service", s)):
            if arr.dtype.kind not in "iuf" or not np.all(np.isfinite(arr)):
                raise ValueError(f"{name} must be finite numbers")
        if n and (np.any(np.diff(a) < 0) or a[0] < 0):
            raise ValueError("arrival times must be non-negative and nondecreasing")
        if np.any(dem < 0) or (dem.ndim == 1 and np.any(dem <= 0)):
            raise ValueError("job demands must be positive")
        if dem.ndim == 2 and np.any(dem.sum(axis=1) <= 0):
            raise ValueError("every job must demand some resource")
        if np.any(s <= 0):
            raise ValueError("service amounts must be positive")
        if not (math.isfinite(self.horizon) and self.horizon >= 0):
            raise ValueError(f"horizon must be a non-negative number, got {self.horizon!r}")
        if n and a[-1] >= self.horizon:
            raise ValueError("every job must arrive before the horizon")
        w = np.ones(n) if self.weight is None else np.asarray(self.weight, dtype=np.float64)
        if w.shape != (n,) or not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("weights must be n non-negative finite numbers")
        if self.arrival_rate is not None and not self.arrival_rate > 0:
            raise ValueError(f"arrival_rate must be positive, got {self.arrival_rate!r}")
        if self.job_type is not None:
            jt = np.asarray(self.job_type)
            if jt.shape != (n,) or (n and (jt.dtype.kind not in "iu" or jt.min() < 0)):
                raise ValueError(f"job_type must give a non-negative integer type for each "
                                 f"of the {n} jobs")
            jt = np.array(jt, dtype=np.int64)
            jt.setflags(write=False)
            object.__setattr__(self, "job_type", jt)
        for name, arr in (("arrival", a), ("demand", dem), ("service", s), ("weight", w)):
            arr = np.array(arr, copy=True)
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)

    @property
    def jobs(self) -> int:
        return int(self.arrival.shape[0])

    @property
    def slotted(self) -> bool:
        """True when arrivals and service are whole slots (PG21 Sec. II)."""
        return self.arrival.dtype.kind in "iu" and self.service.dtype.kind in "iu"

    def sizes(self) -> np.ndarray:
        """Scalar sizes of a single-resource workload (errors for vector demands)."""
        if self.demand.ndim == 2:
            if self.demand.shape[1] != 1:
                raise ValueError(
                    f"this model is single-resource but jobs demand {self.demand.shape[1]} "
                    "resources; reduce them first (e.g. max over resources, PG21 VII-B)"
                )
            return self.demand[:, 0]
        return self.demand

    def work_rate(self) -> float:
        """Work arriving per unit time, lambda * R-bar (from the law when known)."""
        if self.arrival_rate is not None and self.mean_demand is not None:
            return float(self.arrival_rate * np.max(np.atleast_1d(self.mean_demand)))
        if self.horizon <= 0 or self.jobs == 0:
            return 0.0
        s = self.demand if self.demand.ndim == 1 else self.demand.max(axis=1)
        return float(s.sum() / self.horizon)

    def with_backlog(self, demand: np.ndarray, service: np.ndarray,
                     job_type: np.ndarray | None = None) -> Workload:
        """The same workload with extra jobs already waiting at time 0 (an initial state).

        Stability must hold from every initial state; a backlog shows an instability
        without waiting for the queue to build up by chance (PG21 VII-A, Fig. 3b). A
        typed workload (PG18) needs the backlog's ``job_type`` too.
        """
        d = np.asarray(demand, dtype=np.float64)
        s = np.asarray(service, dtype=self.service.dtype)
        if d.shape[0] != s.shape[0]:
            raise ValueError("backlog demand and service must have the same length")
        if (self.job_type is None) != (job_type is None):
            raise ValueError("a typed workload needs the backlog's job_type, an untyped one "
                             "takes none")
        k = d.shape[0]
        zero = np.zeros(k, dtype=self.arrival.dtype)
        w = np.concatenate([np.ones(k), self.weight]) if self.weight is not None else None
        jt = None if self.job_type is None else np.concatenate(
            [np.asarray(job_type, dtype=np.int64), self.job_type])
        return Workload(
            np.concatenate([zero, self.arrival]), np.concatenate([d, self.demand]),
            np.concatenate([s, self.service]), self.horizon, w, self.arrival_rate,
            self.mean_demand, dict(self.meta, backlog=k), jt,
        )

    @classmethod
    def from_job_set(cls, jobs: JobSet, horizon: float | None = None) -> Workload:
        """A finite job set (:class:`theory.JobSet`: XLL21, FL24) as a workload: arrival,
        demand, service = processing, weight, jobs in the job set's order (which must be
        by arrival). ``horizon`` (default max_j a_j + p_j + 1, room for every job to run)
        is the time the workload covers. Integer times give a slotted workload (PG21)."""
        if not isinstance(jobs, JobSet):
            raise TypeError(f"jobs must be a theory.JobSet, got {type(jobs).__name__}")
        a, p = jobs.arrival, jobs.processing
        if np.any(np.diff(a) < 0):
            j = int(np.argmax(np.diff(a) < 0)) + 1
            raise ValueError(f"a workload lists jobs by arrival, but {jobs.where(j)} arrives "
                             f"before the job above it: sort the job set by arrival first")
        whole = bool(np.all(a == np.round(a)) and np.all(p == np.round(p)))
        arrival = a.astype(np.int64) if whole else a
        service = p.astype(np.int64) if whole else p
        T = float(np.max(a + p)) + 1.0 if horizon is None else horizon
        demand = jobs.demand[:, 0] if jobs.resources == 1 else jobs.demand
        return cls(arrival, demand, service, T, jobs.weight,
                   meta={"job_set": jobs.source or "in memory", "ids": list(jobs.ids)})

    def to_job_set(self) -> JobSet:
        """The jobs as a finite job set (:class:`theory.JobSet`): arrival, processing =
        service, demand (one column per resource), weight; ids "0", "1", ..."""
        demand = self.demand[:, None] if self.demand.ndim == 1 else self.demand
        return JobSet(self.arrival, self.service, demand,
                      np.ones(self.jobs) if self.weight is None else self.weight)

    def head(self, horizon: float) -> Workload:
        """The jobs arriving before ``horizon`` (a shorter run of the same sample path)."""
        if horizon > self.horizon:
            raise ValueError(f"horizon {horizon} exceeds the workload's {self.horizon}")
        k = int(np.searchsorted(self.arrival, horizon, side="left"))
        return Workload(
            self.arrival[:k], self.demand[:k], self.service[:k], horizon, self.weight[:k]
            if self.weight is not None else None, self.arrival_rate, self.mean_demand,
            dict(self.meta), None if self.job_type is None else self.job_type[:k],
        )


# -- laws ------------------------------------------------------------------------------


def _positive(x: object, name: str) -> float:
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a number, got {x!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} must be positive and finite, got {x!r}")
    return v


@dataclass(frozen=True)
class PoissonArrivals:
    """A(t) ~ Poisson(rate) i.i.d. per slot (PG21 Sec. VII-A).

    Parameters
    ----------
    rate : float
        lambda, the mean number of arrivals per slot (positive, finite).

    Raises
    ------
    ValueError
        ``rate`` not a positive finite number.

    References
    ----------
    PG21, Sec. II (i.i.d. A(t) with mean lambda) and Sec. VII-A (Poisson arrivals).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import PoissonArrivals
    >>> PoissonArrivals(0.5).counts(10, np.random.default_rng(0)).tolist()
    [1, 0, 0, 2, 1, 2, 1, 1, 1, 0]
    """

    rate: float

    def __post_init__(self) -> None:
        _positive(self.rate, "the arrival rate")

    def counts(self, slots: int, rng: np.random.Generator) -> np.ndarray:
        return rng.poisson(self.rate, size=slots)


@dataclass(frozen=True)
class BernoulliArrivals:
    """A(t) ~ Bernoulli(p) i.i.d. per slot: at most one arrival per slot.

    Parameters
    ----------
    p : float
        The probability of an arrival in a slot, in (0, 1]; also the ``rate``.

    Raises
    ------
    ValueError
        ``p`` not a number in (0, 1].

    References
    ----------
    PG21, Sec. II (i.i.d. A(t) with mean lambda and finite variance).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import BernoulliArrivals
    >>> a = BernoulliArrivals(0.5)
    >>> a.rate, a.counts(10, np.random.default_rng(0)).tolist()
    (0.5, [0, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    """

    p: float

    def __post_init__(self) -> None:
        if not 0 < _positive(self.p, "p") <= 1:
            raise ValueError(f"p must be in (0, 1], got {self.p}")

    @property
    def rate(self) -> float:
        return self.p

    def counts(self, slots: int, rng: np.random.Generator) -> np.ndarray:
        return (rng.random(slots) < self.p).astype(np.int64)


@dataclass(frozen=True)
class GeometricService:
    """Each job in service leaves at the end of a slot w.p. ``mu`` (PG21 Sec. II).

    The same law as a Geometric(mu) number of slots >= 1, drawn when the workload is
    made (mean 1/mu slots).

    Parameters
    ----------
    mu : float
        The departure probability per slot, in (0, 1].

    Raises
    ------
    ValueError
        ``mu`` not a number in (0, 1].

    References
    ----------
    PG21, Sec. II (geometric service with mean 1/mu).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import GeometricService
    >>> s = GeometricService(0.25)
    >>> s.mean, s.draw(8, np.random.default_rng(0)).tolist()
    (4.0, [3, 4, 1, 1, 2, 6, 3, 3])
    """

    mu: float

    def __post_init__(self) -> None:
        if not 0 < _positive(self.mu, "mu") <= 1:
            raise ValueError(f"mu must be in (0, 1], got {self.mu}")

    @property
    def mean(self) -> float:
        return 1.0 / self.mu

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.geometric(self.mu, size=n).astype(np.int64)


@dataclass(frozen=True)
class DeterministicService:
    """Every job stays exactly ``slots`` slots (PG21 Sec. VII-A, Fig. 3b).

    Parameters
    ----------
    slots : int
        The service length of every job, in whole slots (>= 1).

    Raises
    ------
    ValueError
        ``slots`` not an integer >= 1.

    References
    ----------
    PG21, Sec. VII-A.2 and Fig. 3b (fixed service of 100 slots).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import DeterministicService
    >>> s = DeterministicService(100)
    >>> s.mean, s.draw(3, np.random.default_rng(0)).tolist()
    (100.0, [100, 100, 100])
    """

    slots: int

    def __post_init__(self) -> None:
        if isinstance(self.slots, bool) or not isinstance(self.slots, int) or self.slots < 1:
            raise ValueError(
                f"deterministic service needs whole slots >= 1, got {self.slots!r}")

    @property
    def mean(self) -> float:
        return float(self.slots)

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return np.full(n, self.slots, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class EmpiricalService:
    """Service slots resampled i.i.d. from observed values (e.g. trace runtimes).

    Parameters
    ----------
    values : numpy.ndarray
        A non-empty one-dimensional integer array of observed service lengths, in
        whole slots (>= 1).

    Raises
    ------
    ValueError
        ``values`` empty, not one-dimensional, not integers, or below 1.

    References
    ----------
    PG21, Sec. VII-B (trace runtimes) and Sec. IX (service laws other than the
    geometric).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import EmpiricalService
    >>> s = EmpiricalService(np.array([1, 5, 5, 9]))
    >>> s.mean, s.draw(6, np.random.default_rng(0)).tolist()
    (5.0, [9, 5, 5, 5, 5, 1])
    """

    values: np.ndarray

    def __post_init__(self) -> None:
        v = np.asarray(self.values)
        if v.ndim != 1 or v.size == 0 or v.dtype.kind not in "iu" or np.any(v < 1):
            raise ValueError("empirical service needs a non-empty array of whole slots >= 1")
        object.__setattr__(self, "values", v.astype(np.int64))

    @property
    def mean(self) -> float:
        return float(self.values.mean())

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.choice(self.values, size=n)


ArrivalLaw = PoissonArrivals | BernoulliArrivals
ServiceLaw = GeometricService | DeterministicService | EmpiricalService


def slotted_workload(
    sizes: SizeDistribution,
    arrivals: ArrivalLaw | Sequence[int] | np.ndarray,
    service: ServiceLaw | Sequence[int] | np.ndarray,
    slots: int,
    *,
    seed: int | np.random.Generator | None = None,
    memory_budget: float = MEMORY_BUDGET,
    servers: int = 0,
) -> Workload:
    """A PG21 workload over ``slots`` slots (Sec. II).

    ``sizes`` is any scalar size distribution (in capacity units: with a capacity-10
    cluster, sizes 2 and 5 as in Fig. 3b); ``arrivals`` a law or the arrival slot of
    every job; ``service`` a law or one service length (slots) per job. Draw order
    is fixed (arrival counts, then sizes, then service), so a seed fixes the jobs.
    The run's memory (:mod:`policies.footprint`, with ``servers`` servers when known) is
    estimated first and refused above ``memory_budget`` bytes.

    Parameters
    ----------
    sizes : theory.SizeDistribution
        The law of the scalar job sizes, in capacity units.
    arrivals : PoissonArrivals, BernoulliArrivals or array_like of int
        The arrival law, or the arrival slot of every job (nondecreasing, in
        [0, slots)).
    service : GeometricService, DeterministicService, EmpiricalService or array_like of int
        The service law, or the service length (slots) of every job.
    slots : int
        The horizon T (positive); jobs arrive in slots 0 .. T - 1.
    seed : int, numpy.random.Generator or None, optional
        Seed of the draws (arrival counts, then sizes, then service).
    memory_budget : float, optional
        Bytes the run may use (default :data:`theory.budgets.MEMORY_BUDGET`).
    servers : int, optional
        Number of servers of the run, for the memory estimate (0: unknown).

    Returns
    -------
    Workload
        The jobs in arrival order (integer slots, float sizes, integer service), with
        the law's ``arrival_rate`` and ``mean_demand`` when the arrivals come from a
        law (None for explicit arrivals) and a description in ``meta``.

    Raises
    ------
    TypeError
        ``sizes`` is not a SizeDistribution.
    ValueError
        ``slots`` not a positive integer; explicit arrivals not one-dimensional
        integer slots in [0, slots), or decreasing; a law of vector sizes; explicit
        service not one whole number of slots per job (or not positive).
    theory.budgets.BudgetExceeded
        (a ``ValueError``) The run's memory estimate exceeds ``memory_budget``.

    References
    ----------
    PG21, Sec. II (the slotted model); docs/design.md, section Randomness and
    reproducibility (the draw order).

    Examples
    --------
    The setting of PG21 Fig. 3b: sizes 2 and 5 (capacity-10 servers), size 2 twice
    as likely, Poisson arrivals at 0.0306 per slot, 100 slots of service.

    >>> from fractions import Fraction
    >>> import policies, theory
    >>> sizes = theory.Discrete([Fraction(2), Fraction(5)], [Fraction(2, 3), Fraction(1, 3)])
    >>> w = policies.slotted_workload(sizes, policies.PoissonArrivals(0.0306),
    ...                               policies.DeterministicService(100), 1000, seed=0)
    >>> w.jobs, w.arrival_rate, w.mean_demand, w.service[:3].tolist()
    (33, 0.0306, 3.0, [100, 100, 100])

    Explicit arrival slots and service lengths (only the sizes are drawn):

    >>> w = policies.slotted_workload(theory.Uniform(0.1, 0.9), [0, 0, 2], [3, 1, 2], 5,
    ...                               seed=0)
    >>> w.arrival.tolist(), w.service.tolist(), w.arrival_rate is None
    ([0, 0, 2], [3, 1, 2], True)
    """
    positive_int(slots, name="slots")
    if not isinstance(sizes, SizeDistribution):
        raise TypeError("sizes must be a theory.distributions.SizeDistribution")
    rng = as_rng(seed)
    rate: float | None = None
    if isinstance(arrivals, PoissonArrivals | BernoulliArrivals):
        rate = arrivals.rate
        jobs = expected_jobs_bound(rate, int(slots))
        check_run_memory(jobs, int(slots), servers, memory_budget=memory_budget,
                         what=f"a run of {int(slots):,} slots with about {rate * slots:.3g} "
                              f"jobs (rate {rate:.3g} per slot)"
                              + (f" on {servers:,} server(s)" if servers else ""))
        arrival = np.repeat(np.arange(slots, dtype=np.int64), arrivals.counts(int(slots), rng))
    else:
        arrival = np.asarray(arrivals)
        if arrival.ndim != 1 or (arrival.size and arrival.dtype.kind not in "iu"):
            raise ValueError("explicit arrivals must be a 1-D array of integer slots")
        arrival = arrival.astype(np.int64)
        if np.any(arrival >= slots):
            raise ValueError("explicit arrivals must lie in [0, slots)")
    n = arrival.shape[0]
    size = np.asarray(sizes.sample(n, rng), dtype=np.float64)
    if size.ndim != 1:
        raise ValueError("the slotted model needs scalar sizes")
    if isinstance(service, GeometricService | DeterministicService | EmpiricalService):
        dur = service.draw(n, rng)
    else:
        dur = np.asarray(service)
        if dur.shape != (n,) or (n and dur.dtype.kind not in "iu"):
            raise ValueError(f"explicit service must give whole slots for each of the {n} jobs")
    mean = sizes.mean()
    return Workload(
        arrival, size, dur.astype(np.int64), float(slots),
        arrival_rate=rate, mean_demand=float(mean) if rate is not None else None,
        meta={"sizes": repr(sizes), "arrivals": repr(arrivals) if rate else "explicit",
              "service": repr(service) if not isinstance(service, np.ndarray | list | tuple)
              else "explicit"},
    )


def trace_workload(
    arrival_time: np.ndarray,
    sizes: np.ndarray,
    service_time: np.ndarray,
    *,
    slot_length: float,
    traffic_scaling: float = 1.0,
) -> Workload:
    """A slotted workload from timed records (PG21 Sec. VII-B).

    Arrival times are multiplied by beta = 1 / ``traffic_scaling`` and binned into
    slots of ``slot_length`` (time units of the inputs); service times become
    ``ceil(service / slot_length)`` slots (at least one).

    The records are sorted by arrival time (stably) and times are counted from the
    earliest arrival; the horizon ends one slot after the last arrival.

    Parameters
    ----------
    arrival_time : numpy.ndarray
        (n,) finite arrival (submission) times, any order.
    sizes : numpy.ndarray
        (n,) job sizes in capacity units.
    service_time : numpy.ndarray
        (n,) finite, non-negative service (run) times, in the unit of
        ``arrival_time``.
    slot_length : float
        The slot length, in the unit of the times (positive).
    traffic_scaling : float, optional
        1/beta: arrival times are divided by it, so 2 makes jobs arrive twice as fast
        (default 1).

    Returns
    -------
    Workload
        A slotted workload (no law: ``arrival_rate`` None), its ``meta`` holding
        ``slot_length`` and ``traffic_scaling``.

    Raises
    ------
    ValueError
        ``slot_length`` or ``traffic_scaling`` not a positive finite number; arrays
        not one-dimensional of equal length; non-finite times; a negative service
        time; sizes the Workload refuses (not positive).

    References
    ----------
    PG21, Sec. VII-B (decisions every 100 ms; arrival times multiplied by beta,
    traffic scaling 1/beta).

    Examples
    --------
    >>> import numpy as np
    >>> from policies import trace_workload
    >>> w = trace_workload(np.array([0.0, 0.05, 0.25, 1.0]), np.array([0.2, 0.5, 0.1, 0.9]),
    ...                    np.array([0.25, 0.0, 1.0, 0.05]), slot_length=0.1)
    >>> w.arrival.tolist(), w.service.tolist(), w.horizon
    ([0, 0, 2, 10], [3, 1, 10, 1], 11.0)
    >>> trace_workload(np.array([0.0, 0.05, 0.25, 1.0]), np.array([0.2, 0.5, 0.1, 0.9]),
    ...                np.array([0.25, 0.0, 1.0, 0.05]), slot_length=0.1,
    ...                traffic_scaling=2.0).arrival.tolist()
    [0, 0, 1, 5]
    """
    t = np.asarray(arrival_time, dtype=np.float64)
    s = np.asarray(sizes, dtype=np.float64)
    d = np.asarray(service_time, dtype=np.float64)
    _positive(slot_length, "slot_length")
    _positive(traffic_scaling, "traffic_scaling")
    if not (t.shape == s.shape == d.shape) or t.ndim != 1:
        raise ValueError("arrival_time, sizes and service_time must be 1-D of equal length")
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(d))):
        raise ValueError("trace times must be finite (drop censored records first)")
    if np.any(d < 0):
        raise ValueError("trace service times must be non-negative")
    order = np.argsort(t, kind="stable")
    t = t[order] - (t.min() if t.size else 0.0)
    slot = np.floor(t / traffic_scaling / slot_length).astype(np.int64)
    dur = np.maximum(1, np.ceil(d[order] / slot_length)).astype(np.int64)
    horizon = float(slot[-1] + 1) if slot.size else 0.0
    return Workload(slot, s[order], dur, horizon,
                    meta={"slot_length": slot_length, "traffic_scaling": traffic_scaling})


def google2011_workload(
    *, slot_seconds: float = 0.1, traffic_scaling: float = 1.0, path: str | None = None
) -> Workload:
    """The packaged Google 2011 tasks as a PG21 workload (Sec. VII-B preprocessing).

    Keeps tasks that finished without interruption (end event FINISH, runtime known),
    size = max(CPU, memory request), decisions every ``slot_seconds`` (paper: 0.1 s).

    Tasks with a size of 0 or above 1, or an unknown submit time, are dropped too.
    The packaged file is a sample of the trace (see ``theory/data/PROVENANCE.md``).

    Parameters
    ----------
    slot_seconds : float, optional
        The slot length in seconds (default 0.1, PG21's 100 ms).
    traffic_scaling : float, optional
        1/beta of PG21 Sec. VII-B: arrival times are divided by it (default 1).
    path : str or None, optional
        A CSV (plain or gzip) with the Google 2011 task columns
        (:func:`theory.readers.traces.load_google2011`); default: the packaged file.

    Returns
    -------
    Workload
        The tasks as a slotted workload (:func:`trace_workload`), in arrival order.

    Raises
    ------
    ValueError
        A malformed file (naming the file and line); a ``slot_seconds`` or
        ``traffic_scaling`` that is not a positive finite number.

    References
    ----------
    PG21, Sec. VII-B (the Google trace preprocessing: completed tasks, the maximum of
    CPU and memory, decisions every 100 ms, traffic scaling).

    Examples
    --------
    >>> from policies import google2011_workload
    >>> w = google2011_workload()
    >>> w.jobs, w.horizon, w.meta
    (56824, 105719.0, {'slot_length': 0.1, 'traffic_scaling': 1.0})
    >>> google2011_workload(slot_seconds=1.0, traffic_scaling=2.0).horizon
    5286.0
    """
    from theory.readers.traces import load_google2011

    cols = load_google2011(path)
    size = np.fmax(cols["cpu_request"], cols["memory_request"])
    keep = (
        (cols["end_event"] == "FINISH") & np.isfinite(cols["runtime_s"]) & (size > 0)
        & np.isfinite(cols["submit_time_us"]) & (size <= 1)
    )
    return trace_workload(
        cols["submit_time_us"][keep] * 1e-6, size[keep], cols["runtime_s"][keep],
        slot_length=slot_seconds, traffic_scaling=traffic_scaling,
    )


def arrival_rate_for(
    sizes: SizeDistribution, *, servers: int, capacity: float = 1.0, mean_service: float,
    workload: float | None = None, intensity: float | None = None,
) -> float:
    """lambda for a workload rho = lambda / mu (PG21 Sec. II) or a traffic intensity.

    ``intensity`` alpha means rho = alpha * L / R-bar with R-bar in capacity units
    (PG21 Sec. VII-A; alpha = 1 is the Lemma 2 bound). Give exactly one of the two.

    Parameters
    ----------
    sizes : theory.SizeDistribution
        The size law, in the units of ``capacity`` (used for an ``intensity``).
    servers : int
        Number L of servers (used for an ``intensity``).
    capacity : float, optional
        The server capacity (default 1).
    mean_service : float
        Mean service time 1/mu, in slots (positive).
    workload : float, optional
        rho = lambda / mu (positive).
    intensity : float, optional
        alpha (positive): rho = alpha L / R-bar.

    Returns
    -------
    float
        lambda, the arrival rate per slot: rho mu, or alpha L mu / R-bar.

    Raises
    ------
    ValueError
        Both or neither of ``workload`` and ``intensity``; a non-positive (or
        non-finite) ``mean_service``, ``workload`` or ``intensity`` (and, with an
        intensity, ``capacity``).

    References
    ----------
    PG21, Sec. II (rho = lambda/mu), Sec. IV-B, Lemma 2 (rho* at most L/R-bar) and
    Sec. VII-A.3 (arrival rate mu L alpha / R-bar).

    Examples
    --------
    >>> import policies, theory
    >>> policies.arrival_rate_for(theory.Uniform(0.1, 0.9), servers=5, mean_service=100,
    ...                           intensity=0.9)
    0.09
    >>> policies.arrival_rate_for(theory.Uniform(0.1, 0.9), servers=5, mean_service=100,
    ...                           workload=4.5)
    0.045
    """
    if (workload is None) == (intensity is None):
        raise ValueError("give exactly one of workload (rho) and intensity (alpha)")
    mu = 1.0 / _positive(mean_service, "the mean service time")
    if workload is not None:
        return _positive(workload, "the workload rho") * mu
    rbar = float(sizes.mean()) / _positive(capacity, "the capacity")
    return _positive(intensity, "the intensity") * servers / rbar * mu


def pg21_laws(
    sizes: SizeDistribution,
    *,
    servers: int,
    capacity: float = 1.0,
    mu: float | None = None,
    deterministic: int | None = None,
    workload: float | None = None,
    intensity: float | None = None,
    arrivals: str = "poisson",
) -> tuple[ArrivalLaw, ServiceLaw]:
    """The arrival and service laws of :func:`pg21_workload`, every input checked and
    nothing drawn (a sweep checks its points with it before running any)."""
    positive_int(servers, name="servers")
    if not isinstance(sizes, SizeDistribution):
        raise TypeError("sizes must be a theory.distributions.SizeDistribution")
    cap = _positive(capacity, "the capacity")
    largest = sizes.support()[1]
    if float(largest) > cap * (1.0 + FEASIBILITY_RTOL):
        raise ValueError(f"a job size {float(largest):g} exceeds the capacity {cap:g} of every "
                         "server: such a job can never be served")
    if (mu is None) == (deterministic is None):
        raise ValueError("give exactly one of mu (geometric service) and deterministic")
    service: ServiceLaw = GeometricService(mu) if mu is not None else DeterministicService(
        deterministic)  # type: ignore[arg-type]
    rate = arrival_rate_for(sizes, servers=servers, capacity=capacity,
                            mean_service=service.mean, workload=workload, intensity=intensity)
    if arrivals == "poisson":
        return PoissonArrivals(rate), service
    if arrivals == "bernoulli":
        if rate > 1:
            raise ValueError(f"Bernoulli arrivals need a rate <= 1 per slot, got {rate}")
        return BernoulliArrivals(rate), service
    raise ValueError(f"arrivals must be 'poisson' or 'bernoulli', got {arrivals!r}")


def pg21_workload(
    sizes: SizeDistribution,
    *,
    servers: int,
    slots: int,
    capacity: float = 1.0,
    mu: float | None = None,
    deterministic: int | None = None,
    workload: float | None = None,
    intensity: float | None = None,
    arrivals: str = "poisson",
    seed: int | np.random.Generator | None = None,
    memory_budget: float = MEMORY_BUDGET,
) -> Workload:
    """The PG21 experiment workload: Poisson (or Bernoulli) arrivals at the rate that
    gives workload ``rho`` or intensity ``alpha``; geometric(``mu``) service, or
    ``deterministic`` slots (Fig. 3b). Sizes in capacity units; a size above
    ``capacity`` (a job no server can ever serve) is an error, and so is a run whose
    memory estimate exceeds ``memory_budget`` bytes (:func:`pg21_laws` checks the rest).

    Parameters
    ----------
    sizes : theory.SizeDistribution
        The law of the scalar job sizes, in the units of ``capacity``.
    servers : int
        Number L of identical servers (positive).
    slots : int
        The horizon T (positive).
    capacity : float, optional
        The server capacity (default 1).
    mu : float, optional
        Geometric service: the departure probability per slot, in (0, 1].
    deterministic : int, optional
        Fixed service of this many slots (give exactly one of ``mu`` and
        ``deterministic``).
    workload : float, optional
        rho = lambda / mu, the mean service time being 1/mu or ``deterministic``.
    intensity : float, optional
        alpha: rho = alpha L / R-bar (give exactly one of ``workload`` and
        ``intensity``; :func:`arrival_rate_for`).
    arrivals : {"poisson", "bernoulli"}, optional
        The arrival law (default Poisson; Bernoulli needs a rate of at most 1).
    seed : int, numpy.random.Generator or None, optional
        Seed of the draws (arrival counts, then sizes, then service).
    memory_budget : float, optional
        Bytes the run may use (default :data:`theory.budgets.MEMORY_BUDGET`).

    Returns
    -------
    Workload
        The jobs, with the law's ``arrival_rate`` and ``mean_demand`` (what the
        stability verdict's scale lambda R-bar is made of).

    Raises
    ------
    TypeError
        ``sizes`` is not a SizeDistribution.
    ValueError
        ``servers`` or ``slots`` not a positive integer; a size above ``capacity``;
        both or neither of ``mu`` and ``deterministic``, or of ``workload`` and
        ``intensity``; an invalid law parameter; Bernoulli arrivals at a rate above 1;
        an unknown ``arrivals``.
    theory.budgets.BudgetExceeded
        (a ``ValueError``) The run's memory estimate exceeds ``memory_budget``.

    References
    ----------
    PG21, Sec. II (the model) and Sec. VII-A (Poisson arrivals, geometric service of
    mean 100 slots, traffic intensity; Fig. 3b's deterministic service).

    Examples
    --------
    PG21 Sec. VII-A.3: five unit servers, sizes uniform on [0.1, 0.9], mu = 0.01,
    intensity 0.9.

    >>> import policies, theory
    >>> w = policies.pg21_workload(theory.Uniform(0.1, 0.9), servers=5, slots=1000,
    ...                            mu=0.01, intensity=0.9, seed=0)
    >>> w.jobs, w.arrival_rate, w.mean_demand
    (83, 0.09, 0.5)
    >>> policies.pg21_workload(theory.Uniform(0.1, 0.9), servers=5, slots=1000, mu=0.01,
    ...                        workload=4.0, intensity=0.9)
    Traceback (most recent call last):
    ...
    ValueError: give exactly one of workload (rho) and intensity (alpha)
    """
    law, service = pg21_laws(sizes, servers=servers, capacity=capacity, mu=mu,
                             deterministic=deterministic, workload=workload,
                             intensity=intensity, arrivals=arrivals)
    return slotted_workload(sizes, law, service, slots, seed=seed,
                            memory_budget=memory_budget, servers=int(servers))
