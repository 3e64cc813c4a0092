"""Check modules; importing this package registers every check."""

from proofs_checks.checks import (  # noqa: F401
    fl24_knapsack,
    fl24_schedules,
    pg18_dynamics,
    pg18_lemmas,
    pg18_region,
    pg21_capacity,
    pg21_cor1,
    pg21_dynamics,
    pg21_lemmas45,
    pg21_open,
    xll21_closed_forms,
    xll21_dynamics,
    xll21_optima,
    xll21_slot_checks,
)
