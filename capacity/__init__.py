"""Solvers: configuration LPs (rho*, capacity regions, partition brackets, reduced sets)
and exact knapsacks, each answer with a certificate.

``capacity`` imports ``theory``; nothing here imports ``policies``.

The names below are imported from their submodules on first use (PEP 562), so that
``from capacity import rho_star`` does not load the solvers it does not call (numba,
scipy, cvxpy).
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
    from capacity._lp_highs import LPSolveError
    from capacity.brackets import Bracket, grid_bracket, partition_bracket, quantile_brackets
    from capacity.certificate import CERT_RTOL, Certificate, certify
    from capacity.completion_programs import (
        COMPLETION_OBJECTIVES,
        check_schedule,
        completion_optimum,
        completion_program,
        weight_grain,
    )
    from capacity.configuration_lp import METHODS, ConfigurationLP, solve_configuration_lp
    from capacity.deadline import expired, time_limit
    from capacity.flowtime_programs import (
        MAX_VARIABLES,
        list_schedule,
        offline_horizon,
        optimum_lower_bound,
        p1_optimum,
        p1_program,
        p2_optimum,
        p2_program,
    )
    from capacity.knapsack import (
        KnapsackResult,
        knapsack_bb,
        knapsack_dp,
        max_weight_configuration,
    )
    from capacity.programs import (
        DEFAULT_TIME_LIMIT,
        PROGRAM_METHODS,
        LinearProgram,
        ProgramBuilder,
        ProgramError,
        ProgramResult,
        solve,
    )
    from capacity.reduced import rho_vqs
    from capacity.region import CapacityRegion, ServerClass
    from capacity.result import CapacityResult, MixtureTerm
    from capacity.slot_programs import (
        p3_optimum,
        p3_program,
        switching_cost_program,
        transient_local_program,
    )
    from capacity.supportable_workload import bin_packing_lp, bin_packing_lp_pair, rho_star
    from capacity.volume_knapsack import VolumeKnapsackResult, solve_volume_knapsack

_EXPORTS: dict[str, tuple[str, ...]] = {
    "capacity._lp_highs": ("LPSolveError",),
    "capacity.brackets": ("Bracket", "grid_bracket", "partition_bracket", "quantile_brackets"),
    "capacity.certificate": ("CERT_RTOL", "Certificate", "certify"),
    "capacity.completion_programs": ("COMPLETION_OBJECTIVES", "check_schedule",
                                     "completion_optimum", "completion_program",
                                     "weight_grain"),
    "capacity.configuration_lp": ("METHODS", "ConfigurationLP", "solve_configuration_lp"),
    "capacity.flowtime_programs": ("MAX_VARIABLES", "list_schedule", "offline_horizon",
                                   "optimum_lower_bound", "p1_optimum", "p1_program",
                                   "p2_optimum", "p2_program"),
    "capacity.knapsack": ("KnapsackResult", "knapsack_bb", "knapsack_dp",
                          "max_weight_configuration"),
    "capacity.programs": ("DEFAULT_TIME_LIMIT", "PROGRAM_METHODS", "LinearProgram",
                          "ProgramBuilder", "ProgramError", "ProgramResult", "solve"),
    "capacity.reduced": ("rho_vqs",),
    "capacity.region": ("CapacityRegion", "ServerClass"),
    "capacity.result": ("CapacityResult", "MixtureTerm"),
    "capacity.slot_programs": ("p3_optimum", "p3_program", "switching_cost_program",
                               "transient_local_program"),
    "capacity.supportable_workload": ("bin_packing_lp", "bin_packing_lp_pair", "rho_star"),
    "capacity.volume_knapsack": ("VolumeKnapsackResult", "solve_volume_knapsack"),
    "capacity.deadline": ("expired", "time_limit"),
}

_names, __getattr__, __dir__ = lazy_exports("capacity", _EXPORTS, globals())

__all__ = [
    "CERT_RTOL", "METHODS", "CapacityRegion", "CapacityResult", "Certificate",
    "ConfigurationLP", "KnapsackResult", "LPSolveError", "MixtureTerm", "ServerClass",
    "bin_packing_lp", "bin_packing_lp_pair",
    "certify", "knapsack_bb", "knapsack_dp", "max_weight_configuration", "rho_star",
    "solve_configuration_lp", "expired", "time_limit",
    # XLL21 programs (capacity.programs, flowtime_programs, slot_programs)
    "DEFAULT_TIME_LIMIT", "LinearProgram", "MAX_VARIABLES", "PROGRAM_METHODS",
    "ProgramBuilder", "ProgramError", "ProgramResult", "list_schedule", "offline_horizon",
    "optimum_lower_bound", "p1_optimum", "p1_program", "p2_optimum", "p2_program",
    "p3_optimum", "p3_program", "solve", "switching_cost_program", "transient_local_program",
    # FL24 (capacity.completion_programs, volume_knapsack)
    "COMPLETION_OBJECTIVES", "check_schedule", "completion_optimum", "completion_program",
    "weight_grain", "VolumeKnapsackResult", "solve_volume_knapsack",
    # PG21 Thm. 1 brackets and the reduced set K_RED (capacity.brackets, reduced)
    "Bracket", "grid_bracket", "partition_bracket", "quantile_brackets", "rho_vqs",
]
