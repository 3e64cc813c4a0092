"""Check modules; importing this package registers every check."""

from proofs_checks.checks import pg18_region, pg21_capacity, pg21_dynamics  # noqa: F401
