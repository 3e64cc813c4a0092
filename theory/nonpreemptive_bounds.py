"""Closed-form bounds of FL24's non-preemptive model (Sec. 3, 5.1, 6.2).

N jobs (release r_j, processing time p_j, weight w_j, demand d_j in [0, 1]^R) on M
identical machines of capacity 1 per resource; a schedule gives each job a machine and
a start S_j >= r_j, C_j = S_j + p_j, and the jobs running on a machine never demand more
than 1 of any resource.

Units. FL24 normalises every machine's capacity to one per resource (Sec. 3: "we ...
normalize the machine capacity for each resource to one"). Here the machines must be
*identical* (every row of ``Machines.capacity`` equal, as FL24's model requires), with
any capacity vector c: demands are divided by it, d_jl / c_l (:func:`normalised_demand`),
which is FL24's normalisation and changes no schedule's feasibility. Machines that
differ are refused. Without machines, demands are read as fractions of a machine and
must lie in [0, 1].

* :func:`job_volumes`: u_j = sum_l d_jl, v_j = p_j u_j (Sec. 5.1).
* :func:`makespan_lower_bound`: C*_max >= max(V / (R M) (Lemma 6.2), max_j p_j,
  max_j (r_j + p_j)).
* :func:`pq_makespan_bound`: PRIORITY-QUEUE's makespan on jobs released at 0 is at most
  max(2 p_max, 2 V / M) (Lemma 6.3).
* :func:`weighted_completion_lower_bound`: sum_j w_j C_j >= sum_j w_j (r_j + p_j).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.job_sets import JobSet, Machines

__all__ = [
    "MakespanLowerBound",
    "PQMakespanBound",
    "check_identical_machines",
    "job_volumes",
    "makespan_lower_bound",
    "normalised_demand",
    "pq_makespan_bound",
    "weighted_completion_lower_bound",
]

#: A normalised demand may exceed 1 by this much (rounding of d / c) and still fit.
DEMAND_TOL = 1e-9


def _check_jobs(jobs: object) -> JobSet:
    if not isinstance(jobs, JobSet):
        raise ValueError(f"expected a theory.JobSet, got {type(jobs).__name__}")
    return jobs


def check_identical_machines(machines: object) -> np.ndarray:
    """The common capacity vector (R,) of FL24's identical machines (Sec. 3).

    Parameters
    ----------
    machines : Machines
        The cluster; every machine must have the same capacity vector.

    Returns
    -------
    numpy.ndarray
        The capacity of one machine, shape (R,), float64 (the cluster's own units).

    Raises
    ------
    ValueError
        When ``machines`` is not a :class:`Machines`, or two machines' capacities
        differ (both are named).

    References
    ----------
    FL24, Sec. 3 (M identical machines, capacities normalised to one per resource).

    Examples
    --------
    >>> from theory import Machines, check_identical_machines
    >>> check_identical_machines(Machines([[4, 8], [4, 8]]))
    array([4., 8.])
    >>> check_identical_machines(Machines([[4, 8], [2, 8]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: FL24's model has identical machines (Sec. 3), but machine '1' has ...
    """
    if not isinstance(machines, Machines):
        raise ValueError(f"expected a theory.Machines, got {type(machines).__name__}")
    cap = machines.capacity
    differ = np.flatnonzero(np.any(cap != cap[0], axis=1))
    if differ.size:
        i = int(differ[0])
        raise ValueError(
            f"FL24's model has identical machines (Sec. 3), but machine {machines.ids[i]!r} "
            f"has capacity {cap[i].tolist()} and machine {machines.ids[0]!r} "
            f"{cap[0].tolist()}; demands are normalised by the common capacity")
    return cap[0]


def normalised_demand(jobs: JobSet, machines: Machines | None = None) -> np.ndarray:
    """Demands as fractions of a machine, (N, R): d_jl / c_l with c the common capacity.

    ``c`` is the capacity of the identical ``machines``; without machines the demands
    are ``jobs.demand`` itself, read as fractions of one machine. A normalised demand
    above 1 by at most ``DEMAND_TOL`` (1e-9, rounding of the division) is clipped to 1.

    Parameters
    ----------
    jobs : JobSet
        The jobs, demands in the machines' units.
    machines : Machines or None, default None
        FL24's identical machines (None: demands are already fractions of a machine).

    Returns
    -------
    numpy.ndarray
        The normalised demands, shape (N, R), float64, each in [0, 1].

    Raises
    ------
    ValueError
        When ``jobs`` is not a :class:`JobSet`; what :func:`check_identical_machines`
        refuses; a different number of resources in the jobs and the machines; a
        normalised demand above 1 (the job fits no machine; the first one is named).

    References
    ----------
    FL24, Sec. 3 ("normalize the machine capacity for each resource to one", so
    d_jl <= 1).

    Examples
    --------
    >>> from theory import JobSet, Machines, normalised_demand
    >>> jobs = JobSet([0, 1], [2, 3], [[2.0, 4.0], [4.0, 0.0]])
    >>> normalised_demand(jobs, Machines([[4, 8], [4, 8]])).tolist()
    [[0.5, 0.5], [1.0, 0.0]]
    >>> normalised_demand(jobs)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: job '0' demands [2.0, 4.0], more than a machine (no machines given: ...
    """
    jobs = _check_jobs(jobs)
    if machines is None:
        d = jobs.demand
        unit = "a machine (no machines given: demands are fractions of one)"
    else:
        cap = check_identical_machines(machines)
        if machines.resources != jobs.resources:
            raise ValueError(f"jobs demand {jobs.resources} resource(s) but machines have "
                             f"{machines.resources}")
        d = jobs.demand / cap[None, :]
        unit = f"the machine capacity {cap.tolist()}"
    over = np.flatnonzero(np.any(d > 1 + DEMAND_TOL, axis=1))
    if over.size:
        j = int(over[0])
        raise ValueError(f"job {jobs.ids[j]!r} demands {jobs.demand[j].tolist()}, more than "
                         f"{unit} in some resource: it fits no machine")
    return np.minimum(d, 1.0)


def job_volumes(jobs: JobSet, machines: Machines | None = None) -> np.ndarray:
    """v_j = p_j u_j with u_j = sum_l d_jl (FL24 Sec. 5.1), demands normalised.

    The demands are normalised as in :func:`normalised_demand`.

    Parameters
    ----------
    jobs : JobSet
        The jobs (processing times in time units).
    machines : Machines or None, default None
        FL24's identical machines (None: demands are already fractions of a machine).

    Returns
    -------
    numpy.ndarray
        The volumes v_j, shape (N,), in input order, in time units (a machine's
        resources times time).

    Raises
    ------
    ValueError
        What :func:`normalised_demand` refuses.

    References
    ----------
    FL24, Sec. 5.1 (u_j = sum_l d_jl, v_j = p_j u_j).

    Examples
    --------
    >>> from theory import JobSet, job_volumes
    >>> job_volumes(JobSet([0, 1], [2, 3], [[0.5, 0.25], [1.0, 0.0]])).tolist()
    [1.5, 3.0]
    """
    d = normalised_demand(jobs, machines)
    return jobs.processing * d.sum(axis=1)


@dataclass(frozen=True)
class MakespanLowerBound:
    """C*_max >= ``value``: the lower bound on the optimal makespan and its parts.

    Made by :func:`makespan_lower_bound`. ``parts()`` gives the four parts as a dict;
    ``binding`` names a part equal to ``value``. All values are in time units.

    Parameters
    ----------
    value : float
        The bound: the largest of ``volume``, ``longest``, ``release`` (and
        ``resource_volume`` when ``per_resource``).
    volume : float
        V / (R M) (FL24 Lemma 6.2).
    longest : float
        max_j p_j.
    release : float
        max_j (r_j + p_j).
    resource_volume : float
        max_l sum_j p_j d_jl / M, the per-resource form of Lemma 6.2's argument (at
        least ``volume``).
    per_resource : bool, default False
        Whether ``resource_volume`` counts in ``value``.

    References
    ----------
    FL24, Sec. 6.2, Lemma 6.2.

    Examples
    --------
    >>> from theory import JobSet, Machines, MakespanLowerBound, makespan_lower_bound
    >>> b = makespan_lower_bound(JobSet([0, 0, 0], [1, 1, 1], [[1.0, 0.0]] * 3),
    ...                          Machines([[1, 1]]))
    >>> b.value, b.binding, b.resource_volume
    (1.5, 'volume', 3.0)
    >>> MakespanLowerBound(value=2.0, volume=2.0, longest=1.0, release=1.0,
    ...                    resource_volume=2.0).binding
    'volume'
    """

    value: float
    volume: float
    longest: float
    release: float
    resource_volume: float
    per_resource: bool = False

    def parts(self) -> dict[str, float]:
        return {"volume": self.volume, "longest": self.longest, "release": self.release,
                "resource_volume": self.resource_volume}

    @property
    def binding(self) -> str:
        """The name of a part equal to ``value``."""
        names = ["volume", "longest", "release"] + (["resource_volume"]
                                                      if self.per_resource else [])
        return max(names, key=lambda k: self.parts()[k])


def makespan_lower_bound(jobs: JobSet, machines: Machines, *,
                         per_resource: bool = False) -> MakespanLowerBound:
    """Lower bound on the optimal makespan (FL24 Lemma 6.2 and the trivial ones).

    The bound is max(V / (R M), max_j p_j, max_j (r_j + p_j)), V = sum_j v_j
    (:func:`job_volumes`).

    Lemma 6.2: every resource of every machine holds at most 1 x C*_max of p_j d_jl, so
    V <= R M C*_max. Per resource the same argument gives sum_j p_j d_jl <= M C*_max,
    whose maximum over l is at least the average V / (R M); ``per_resource=True`` puts
    it in ``value`` (it is always reported as ``resource_volume``). No job completes
    before r_j + p_j, and max_j (r_j + p_j) >= max_j p_j.

    Parameters
    ----------
    jobs : JobSet
        The jobs (times in time units, demands in the machines' units).
    machines : Machines
        FL24's M identical machines.
    per_resource : bool, default False
        Include the per-resource volume bound in ``value``.

    Returns
    -------
    MakespanLowerBound
        The bound (float64, time units) and its parts.

    Raises
    ------
    ValueError
        What :func:`normalised_demand` refuses (machines not identical, a job that
        fits no machine, a resource-count mismatch, ``jobs`` not a JobSet).

    References
    ----------
    FL24, Sec. 6.2, Lemma 6.2.

    Examples
    --------
    >>> from theory import JobSet, Machines, makespan_lower_bound
    >>> b = makespan_lower_bound(JobSet([0, 0], [2, 2], [[1.0], [1.0]]), Machines([[1.0]]))
    >>> b.value, b.volume, b.binding
    (4.0, 4.0, 'volume')
    >>> jobs = JobSet([0, 0, 0], [1, 1, 1], [[1.0, 0.0]] * 3)
    >>> makespan_lower_bound(jobs, Machines([[1, 1]]), per_resource=True).value
    3.0
    """
    d = normalised_demand(jobs, machines)
    M, R = machines.m, jobs.resources
    p = jobs.processing
    volume = float(np.sum(p * d.sum(axis=1))) / (R * M)
    resource = float(np.max(p @ d)) / M
    longest = float(p.max())
    release = float(np.max(jobs.arrival + p))
    value = max(volume, longest, release, resource if per_resource else 0.0)
    return MakespanLowerBound(value=value, volume=volume, longest=longest, release=release,
                              resource_volume=resource, per_resource=bool(per_resource))


@dataclass(frozen=True)
class PQMakespanBound:
    """FL24 Lemma 6.3's bound on PRIORITY-QUEUE's makespan and its parts.

    Made by :func:`pq_makespan_bound`; all values in time units.

    Parameters
    ----------
    value : float
        max(``longest``, ``volume``).
    longest : float
        2 p_max.
    volume : float
        2 V / M.
    proven : bool
        Whether the bound is proven for this cluster: True only on one machine (the
        lemma's proof fails on two or more; see :func:`pq_makespan_bound`).

    References
    ----------
    FL24, Sec. 6.2, Lemma 6.3.

    Examples
    --------
    >>> from theory import JobSet, Machines, pq_makespan_bound
    >>> b = pq_makespan_bound(JobSet([0, 0], [3, 1], [[0.5], [0.5]]), Machines([[1.0]]))
    >>> b.value, b.longest, b.volume, b.proven
    (6.0, 6.0, 4.0, True)
    """

    value: float
    longest: float
    volume: float
    proven: bool


def pq_makespan_bound(jobs: JobSet, machines: Machines, *,
                      ignore_release: bool = False) -> PQMakespanBound:
    """FL24 Lemma 6.3: PRIORITY-QUEUE schedules jobs released at time 0 within
    max(2 p_max, 2 V / M) (and that is <= 2 R C*_max by Lemma 6.2).

    Erratum: this holds on one machine but not on M >= 2 (``proven`` is ``M == 1``).
    The proof claims that at every t <= C_max / 2 *each* machine i has a resource with
    U_ilt + U_il(t + C_max/2) > 1; but the job running at t + C_max / 2 that did not fit
    machine i at t may run on another machine, leaving machine i idle then. Two unit
    machines, R = 1, all released at 0, jobs (p, d) in PQ order (1, 0.2), (1, 0.6),
    (1, 0.6), (3, 0.55), (3, 0.5), (3, 0.55) (shortest first, as WSJF): PQ runs the first
    two on machine 0, the third on machine 1; at 1 the 0.55 job on machine 0 and the 0.5
    job on machine 1; the last 0.55 job fits neither until 4, so C_max = 7 while
    max(2 p_max, 2 V / M) = max(6, 6.2) = 6.2 (the optimum is 6). On one machine the
    per-machine step is sound (the machine is never idle before C_max, and the job it
    runs at t + C_max / 2 did not fit it at t).

    The lemma is stated for jobs all released at 0 (MRIS hands PQ a batch whose release
    times it treats as 0): other releases are refused unless ``ignore_release=True``,
    which reads every release as 0. Lemma 6.4: the bound is tight (one machine, N jobs
    of length p and demand 1/2 + delta: PQ's makespan N p, 2 V / M = N p (1 + 2 delta)).

    Parameters
    ----------
    jobs : JobSet
        The batch PQ schedules (times in time units, demands in the machines' units).
    machines : Machines
        FL24's M identical machines.
    ignore_release : bool, default False
        Read every release time as 0 instead of refusing jobs released later.

    Returns
    -------
    PQMakespanBound
        max(2 p_max, 2 V / M) in time units, its parts, and ``proven`` (M == 1).

    Raises
    ------
    ValueError
        What :func:`normalised_demand` refuses, and a job released after 0 unless
        ``ignore_release``.

    References
    ----------
    FL24, Sec. 6.2, Lemma 6.3 (the bound) and Lemma 6.4 (tightness).

    Examples
    --------
    >>> from theory import JobSet, Machines, pq_makespan_bound
    >>> pq_makespan_bound(JobSet([0, 0], [3, 1], [[0.5], [0.5]]), Machines([[1.0]])).value
    6.0

    The erratum's instance: two machines, where PQ's makespan is 7.

    >>> jobs = JobSet([0] * 6, [1, 1, 1, 3, 3, 3],
    ...               [[0.2], [0.6], [0.6], [0.55], [0.5], [0.55]])
    >>> pq_makespan_bound(jobs, Machines([[1.0], [1.0]]))
    PQMakespanBound(value=6.2, longest=6.0, volume=6.2, proven=False)
    """
    d = normalised_demand(jobs, machines)
    late = np.flatnonzero(jobs.arrival != 0)
    if late.size and not ignore_release:
        j = int(late[0])
        raise ValueError(f"FL24 Lemma 6.3 bounds PRIORITY-QUEUE on jobs released at 0, but "
                         f"job {jobs.ids[j]!r} is released at {jobs.arrival[j]:g}; pass "
                         f"ignore_release=True to read every release as 0")
    longest = 2.0 * float(jobs.processing.max())
    volume = 2.0 * float(np.sum(jobs.processing * d.sum(axis=1))) / machines.m
    return PQMakespanBound(value=max(longest, volume), longest=longest, volume=volume,
                           proven=machines.m == 1)


def weighted_completion_lower_bound(jobs: JobSet) -> float:
    """sum_j w_j C_j >= sum_j w_j (r_j + p_j): no job completes before r_j + p_j.

    Divide by N for FL24's AWCT. Holds for any schedule, preemptive or not.

    Parameters
    ----------
    jobs : JobSet
        The jobs (release r_j, processing p_j, weight w_j).

    Returns
    -------
    float
        sum_j w_j (r_j + p_j), in weight times time units.

    Raises
    ------
    ValueError
        When ``jobs`` is not a :class:`JobSet`.

    References
    ----------
    FL24, Sec. 3 (C_j = S_j + p_j with S_j >= r_j; the objective (1/N) sum_j w_j C_j).

    Examples
    --------
    >>> from theory import JobSet, weighted_completion_lower_bound
    >>> weighted_completion_lower_bound(JobSet([0, 1], [2, 3], [[1.0], [1.0]], [1, 2]))
    10.0
    """
    jobs = _check_jobs(jobs)
    return float(np.sum(jobs.weight * (jobs.arrival + jobs.processing)))
