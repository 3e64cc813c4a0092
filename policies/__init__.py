"""Simulators and the papers' scheduling policies.

:func:`run` runs a policy of any family on a workload and a cluster and returns a
:class:`RunResult` (docs/design.md, "The run contract"). Shared core: :class:`Policy`
(what every policy is), :class:`Workload` (a law-generated stream; a finite job set is a
:class:`theory.JobSet`), :class:`Cluster` (server capacities, heterogeneous and vector
allowed), :class:`InvariantReport`, :func:`spawn_seeds`, :func:`judge_stability` (the
stability verdict), :func:`sweep` and :func:`critical_load`.

Families, each with its engine, policies and result: :mod:`policies.slotted` (PG21
slotted single-resource model, :func:`simulate`), :mod:`policies.continuous` (PG18
continuous-time multi-resource model with job types, :class:`JobTypes`,
:func:`poisson_type_workload`, :func:`simulate_continuous`), :mod:`policies.preemptive`
(XLL21 slotted preemptive scheduling of finite job sets, ``run_schedule``) and
:mod:`policies.nonpreemptive` (FL24 non-preemptive scheduling, :func:`run_nonpreemptive`).

The names are imported from their submodules on first use (PEP 562): ``import policies``
costs nothing until a name is used, and each family loads only its own code.
"""

from __future__ import annotations

try:  # first: a folder named like one of packsched's packages is refused by name
    import theory.installation  # noqa: F401
except ModuleNotFoundError as e:
    raise ImportError(f"the folder {e.path or 'theory'} shadows packsched's package 'theory': "
                      f"rename it, or work in another directory") from None

from typing import TYPE_CHECKING

from theory.lazy import lazy_exports

if TYPE_CHECKING:  # the names, for type checkers and readers
    from policies.aggregate import aggregate, pooled_verdict
    from policies.continuous import (
        RMS,
        BestFit,
        ContinuousPolicy,
        ContinuousResult,
        MaxWeightServers,
        simulate_continuous,
    )
    from policies.critical_load import CriticalLoad, critical_load, reference_rho_star
    from policies.invariants import InvariantReport, check_continuous_run, check_slotted_run
    from policies.job_types import (
        JobTypes,
        ServiceTime,
        mean_maximal_point,
        poisson_type_workload,
        rates_for_intensity,
    )
    from policies.nonpreemptive import (
        MRIS,
        BFExec,
        CollectAllPQ,
        NonPreemptivePolicy,
        NonPreemptiveResult,
        PriorityQueue,
        Tetris,
        run_nonpreemptive,
    )
    from policies.policy import Policy
    from policies.registry import (
        POLICIES,
        available_policies,
        make_policy,
        policies_of,
        slotted_parameters,
    )
    from policies.result import RunResult
    from policies.run import run
    from policies.slotted import (
        BFJ,
        BFJS,
        BFS,
        FIFOFF,
        VQS,
        VQSBF,
        BuiltinPolicy,
        PartitionMaxWeight,
        SlotState,
        SlottedPolicy,
        simulate,
    )
    from policies.slotted.result import SimulationResult
    from policies.stability import StabilityVerdict, judge_stability
    from policies.step_series import StepSeries
    from policies.sweep import sweep
    from policies.sweep_store import load_results
    from policies.trace_types import google2011_typed_workload, trace_offered_load, type_exponents
    from policies.workload import (
        BernoulliArrivals,
        DeterministicService,
        EmpiricalService,
        GeometricService,
        PoissonArrivals,
        Workload,
        arrival_rate_for,
        google2011_workload,
        pg21_workload,
        slotted_workload,
        trace_workload,
    )
    from theory.cluster import Cluster
    from theory.seeding import spawn_seeds

_EXPORTS: dict[str, tuple[str, ...]] = {
    "theory.cluster": ("Cluster",),
    "theory.seeding": ("spawn_seeds",),
    "policies.continuous": ("RMS", "BestFit", "ContinuousPolicy", "ContinuousResult",
        "MaxWeightServers", "simulate_continuous"),
    "policies.aggregate": ("aggregate", "pooled_verdict"),
    "policies.critical_load": ("CriticalLoad", "critical_load", "reference_rho_star"),
    "policies.invariants": ("InvariantReport", "check_continuous_run", "check_slotted_run"),
    "policies.job_types": ("JobTypes", "ServiceTime", "mean_maximal_point",
        "poisson_type_workload", "rates_for_intensity"),
    "policies.slotted.result": ("SimulationResult",),
    "policies.nonpreemptive": ("MRIS", "BFExec", "CollectAllPQ", "NonPreemptivePolicy",
        "NonPreemptiveResult", "PriorityQueue", "Tetris", "run_nonpreemptive"),
    "policies.policy": ("Policy",),
    "policies.result": ("RunResult",),
    "policies.run": ("run",),
    "policies.registry": ("POLICIES", "available_policies", "make_policy", "policies_of",
        "slotted_parameters"),
    "policies.slotted": ("BFJ", "BFJS", "BFS", "FIFOFF", "VQS", "VQSBF", "BuiltinPolicy",
        "PartitionMaxWeight", "SlotState", "SlottedPolicy", "simulate"),
    "policies.stability": ("StabilityVerdict", "judge_stability"),
    "policies.step_series": ("StepSeries",),
    "policies.sweep": ("sweep",),
    "policies.sweep_store": ("load_results",),
    "policies.trace_types": ("google2011_typed_workload", "trace_offered_load",
        "type_exponents"),
    "policies.workload": ("BernoulliArrivals", "DeterministicService", "EmpiricalService",
        "GeometricService", "PoissonArrivals", "Workload", "arrival_rate_for",
        "google2011_workload", "pg21_workload", "slotted_workload", "trace_workload"),
}

_names, __getattr__, __dir__ = lazy_exports("policies", _EXPORTS, globals())

__all__ = [
    "run", "Policy", "RunResult", "load_results", "aggregate", "pooled_verdict",
    "Cluster", "InvariantReport", "check_slotted_run", "SimulationResult", "spawn_seeds",
    "BFJ", "BFS", "BFJS", "VQS", "VQSBF", "FIFOFF", "PartitionMaxWeight", "BuiltinPolicy",
    "SlottedPolicy", "SlotState", "simulate", "StabilityVerdict", "judge_stability", "StepSeries",
    "Workload", "PoissonArrivals", "BernoulliArrivals", "GeometricService",
    "DeterministicService", "EmpiricalService", "slotted_workload", "trace_workload",
    "google2011_workload", "POLICIES", "available_policies", "make_policy", "policies_of",
    "slotted_parameters",
    "CriticalLoad", "critical_load", "reference_rho_star", "sweep", "pg21_workload",
    "arrival_rate_for", "RMS", "BestFit", "ContinuousPolicy", "ContinuousResult",
    "MaxWeightServers", "simulate_continuous", "check_continuous_run", "JobTypes",
    "ServiceTime", "mean_maximal_point", "poisson_type_workload", "rates_for_intensity",
    "MRIS", "BFExec", "CollectAllPQ", "NonPreemptivePolicy", "NonPreemptiveResult",
    "PriorityQueue", "Tetris", "run_nonpreemptive", "google2011_typed_workload",
    "trace_offered_load", "type_exponents",
]
