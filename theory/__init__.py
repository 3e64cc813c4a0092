"""The papers' model: distributions, partitions, configurations and closed-form bounds.

Pure and small; exact (``fractions.Fraction``) wherever the inputs are rational.
``theory`` never imports ``capacity`` or ``policies``.

Every public name of the submodules below is available here (``from theory import
Discrete``). They are imported on first use (PEP 562), so that ``import theory`` does
not load what a caller does not need (scipy, the packaged traces).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import theory.installation  # noqa: F401  (first: refuses a folder shadowing a package)
from theory.lazy import lazy_exports

if TYPE_CHECKING:  # the names, for type checkers and readers
    from theory.bounds import *  # noqa: F401,F403
    from theory.budgets import *  # noqa: F401,F403
    from theory.cluster import *  # noqa: F401,F403
    from theory.configurations import *  # noqa: F401,F403
    from theory.distributions import *  # noqa: F401,F403
    from theory.job_sets import *  # noqa: F401,F403
    from theory.nonpreemptive_bounds import *  # noqa: F401,F403
    from theory.numbers import *  # noqa: F401,F403
    from theory.partitions import *  # noqa: F401,F403
    from theory.readers.job_files import *  # noqa: F401,F403
    from theory.readers.traces import *  # noqa: F401,F403
    from theory.seeding import *  # noqa: F401,F403

#: submodule (dotted below ``theory``: ``"readers.traces"``) -> the public names (its
#: ``__all__``) re-exported here; a test checks that this table matches the submodules
_SUBMODULE_NAMES: dict[str, tuple[str, ...]] = {
    "bounds": ("lemma2_by_resource", "mean_size_bound", "fixed_configuration_workload",
        "bfjs_guarantee", "vqs_fraction", "choose_J", "universal_scheduled_size", "lemma1_N1",
        "theorem2_constants", "theorem2_n2", "theorem2_margin", "theorem2_h_infimum",
        "prop1_eq28_odd_bound", "prop2_mixture_weights", "lower_from_upper_quantile",
        "quantile_bracket_gap", "prop2_rho_star", "prop2_upper_rounded_limit"),
    "budgets": ("BudgetExceeded", "MEMORY_BUDGET", "MAX_CONFIGURATIONS", "MAX_LP_TYPES",
        "check_budget", "format_bytes"),
    "cluster": ("Cluster", "SERVER_BYTES"),
    "configurations": ("as_size_matrix", "as_capacity", "is_feasible", "iter_configurations",
        "feasible_configurations", "maximal_configurations", "MAX_J", "ReducedSet",
        "reduced_configurations"),
    "distributions": ("SizeDistribution", "Discrete", "Uniform", "Continuous", "Mixture",
        "empirical", "beta", "from_scipy", "MAX_SUPPORT_POINTS", "from_spec", "unit_sizes"),
    "job_sets": ("JobSet", "Machines", "JOB_FIELDS", "map_job_columns", "require_integers",
                 "check_fits",
                 "require_resources"),
    "nonpreemptive_bounds": ("MakespanLowerBound", "PQMakespanBound",
        "check_identical_machines", "job_volumes", "makespan_lower_bound", "normalised_demand",
        "pq_makespan_bound", "weighted_completion_lower_bound"),
    "numbers": ("FEASIBILITY_RTOL", "FLOAT_MAX", "FLOAT_TINY", "MAX_EXACT_INT",
        "MAX_TEXT_LENGTH", "Number", "to_number", "written", "to_numbers", "to_float_checked",
        "real_float",
        "as_list", "all_exact", "fits", "common_denominator", "as_float", "positive_int",
        "server_count", "short_repr"),
    "partitions": ("Cell", "Partition", "partition_from_cuts", "universal_partition",
        "quantile_partition", "type_probabilities", "grid_partition"),
    "seeding": ("as_rng", "scheduling_rng", "spawn_seeds"),
    "readers.job_files": ("JOB_COLUMNS", "CLUSTER_COLUMNS", "read_jobs", "write_jobs",
        "read_cluster", "write_cluster", "read_instance"),
    "readers.traces": ("GOOGLE2011_COLUMNS", "TEXT_MEMORY_FACTOR", "load_google2011",
        "google2011_sizes", "trace_distribution", "read_size_file", "read_text_file"),
}

__all__, __getattr__, __dir__ = lazy_exports(
    "theory", {f"theory.{mod}": names for mod, names in _SUBMODULE_NAMES.items()}, globals())
