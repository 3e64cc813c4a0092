"""One entry point for the four model families (docs/design.md, "The run contract").

:func:`run` dispatches on the policy's ``family`` the way ``scipy.optimize.linprog``
dispatches on ``method=`` (the table :data:`FAMILY_ENGINES`): to :func:`policies.simulate` (PG21),
:func:`policies.simulate_continuous` (PG18), :func:`policies.preemptive.run_schedule`
(XLL21) or :func:`policies.run_nonpreemptive` (FL24). Those four stay, as the families'
documented engines; ``run`` adds one calling convention and one result contract
(:class:`policies.result.RunResult`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from policies.policy import Policy
from policies.result import RunResult
from policies.workload import Workload
from theory.cluster import Cluster
from theory.job_sets import JobSet

__all__ = ["run", "FamilyEngine", "FAMILY_ENGINES"]


@dataclass(frozen=True)
class FamilyEngine:
    """A family's engine for :func:`run`: the function (imported when first used), the
    input it takes (``"workload"``, a typed ``"typed workload"`` or a ``"job set"``) and
    whether its policies draw random numbers (a seed is refused otherwise)."""

    module: str
    function: str
    takes: str
    seeded: bool = False

    def load(self) -> Callable[..., RunResult]:
        return getattr(importlib.import_module(self.module), self.function)


#: family -> its engine
FAMILY_ENGINES: dict[str, FamilyEngine] = {
    "pg21-slotted": FamilyEngine("policies.slotted.engine", "simulate", "workload"),
    "pg18-continuous": FamilyEngine("policies.continuous.engine", "simulate_continuous",
                                    "typed workload", seeded=True),
    "xll21-preemptive": FamilyEngine("policies.preemptive.engine", "run_schedule",
                                     "job set"),
    "fl24-nonpreemptive": FamilyEngine("policies.nonpreemptive.engine", "run_nonpreemptive",
                                       "job set"),
}


def run(policy: Policy | str, workload: Workload | JobSet, cluster: Cluster, *,
        seed: int | None = None, check: bool = True, **options: Any) -> RunResult:
    """Run ``policy`` on ``workload`` and ``cluster``, whatever its model family.

    Dispatches on ``policy.family`` through :data:`FAMILY_ENGINES` to the family's
    engine (:func:`policies.simulate`, :func:`policies.simulate_continuous`,
    :func:`policies.preemptive.run_schedule`, :func:`policies.run_nonpreemptive`),
    converting the workload to the input that engine takes.

    Parameters
    ----------
    policy : Policy or str
        A policy object (``policies.make_policy(name, ...)``, a built-in class or your
        subclass of a family's base), or a registered name taking no parameters.
    workload : Workload or theory.JobSet
        A :class:`policies.Workload` (a law-generated stream) or a
        :class:`theory.JobSet` (a finite job set); each family takes either, converted by
        :meth:`Workload.from_job_set` / :meth:`Workload.to_job_set` (PG18 needs a
        typed workload, :func:`policies.poisson_type_workload`).
    cluster : theory.Cluster
        The servers: identical, heterogeneous or vector-capacity (``theory.Machines``
        is the same class).
    seed : int or None, optional
        Seed of the run's own randomness: PG18's clocks and sampling (None means 0).
        The other families' policies are deterministic and refuse a seed (the workload
        carries the seed of its arrivals).
    check : bool, optional
        Rebuild the invariants from the run's record (``result.invariants``); with
        False, ``result.invariants`` is None.
    **options
        The family engine's keywords: ``slots``, ``warmup``, ``memory_budget`` (PG21);
        ``types`` (required), ``horizon``, ``warmup``, ``samples``, ``engine``,
        ``max_ticks``, ``memory_budget`` (PG18); ``k``, ``memory``, ``max_slots``,
        ``after``, ``declared``, ``memory_budget`` (XLL21); ``k``, ``engine`` (FL24).

    Returns
    -------
    RunResult
        The family's result (:class:`policies.result.RunResult`): ``status``,
        ``invariants``, ``summary()``, ``to_frame(kind)``, ``to_dict()``.

    Raises
    ------
    TypeError
        ``policy`` is not a policy of a known family, ``workload`` is not a Workload
        or JobSet, ``cluster`` is not a Cluster, a PG18 run lacks ``types=``, or a
        keyword the family's engine does not take.
    ValueError
        A ``seed`` for a deterministic family; a PG18 run on a workload without job
        types; an unknown policy name; inputs the family's engine refuses (each engine
        validates its own).

    References
    ----------
    docs/design.md, section The run contract (Entry point); the dispatch on a method
    follows ``scipy.optimize.linprog``.

    Examples
    --------
    >>> import policies, theory
    >>> jobs = theory.JobSet([0, 0, 1], [2, 1, 1], [[1], [1], [2]])
    >>> r = policies.run("srpt", jobs, theory.Cluster([[2]]))
    >>> r.family, r.status, r.invariants.ok, r.summary()["flowtime_lk"]
    ('xll21-preemptive', 'finished', True, 3.0)
    >>> policies.run("srpt", jobs, theory.Cluster([[2]]), seed=1)
    Traceback (most recent call last):
    ...
    ValueError: srpt is deterministic (xll21-preemptive): a seed would change nothing ...
    """
    if isinstance(policy, str):
        from policies.registry import make_policy

        policy = make_policy(policy)
    if not isinstance(policy, Policy) or policy.family not in FAMILY_ENGINES:
        raise TypeError(f"policy must be a policy of one of the families "
                        f"{', '.join(FAMILY_ENGINES)} (policies.make_policy(name)), got "
                        f"{type(policy).__name__}")
    if not isinstance(workload, Workload | JobSet):
        raise TypeError(f"workload must be a policies.Workload or a theory.JobSet, got "
                        f"{type(workload).__name__}")
    if not isinstance(cluster, Cluster):
        raise TypeError(f"cluster must be a theory.Cluster, got {type(cluster).__name__}")
    engine = FAMILY_ENGINES[policy.family]
    if not engine.seeded and seed is not None:
        raise ValueError(f"{policy.name} is deterministic ({policy.family}): a seed would "
                         f"change nothing (a workload carries the seed of its arrivals)")
    if engine.takes == "job set":
        jobs = workload if isinstance(workload, JobSet) else workload.to_job_set()
        return engine.load()(policy, jobs, cluster, check=check, **options)
    if engine.takes == "workload":
        w = workload if isinstance(workload, Workload) else Workload.from_job_set(workload)
        return engine.load()(policy, w, cluster, check=check, **options)
    if isinstance(workload, JobSet) or workload.job_type is None:
        raise ValueError("a PG18 run needs a workload with job types "
                         "(policies.poisson_type_workload)")
    if "types" not in options:
        raise TypeError("a PG18 run needs types=policies.JobTypes(...): the demand "
                        "vectors and service laws of the job types (PG18 Sec. II)")
    rest = dict(options)
    types = rest.pop("types")
    return engine.load()(policy, workload, cluster, types, seed=0 if seed is None else seed,
                         check=check, **rest)
