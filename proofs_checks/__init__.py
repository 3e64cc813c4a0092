"""One registered check per claim of the papers, the errata register and reports.

``proofs_checks`` uses ``theory``, ``capacity`` and (later) ``policies``.
"""

from proofs_checks.errata import ERRATA, Erratum
from proofs_checks.registry import (
    VERDICTS,
    Check,
    CheckResult,
    Verdict,
    all_checks,
    get_check,
    iter_results,
    register,
    run_check,
    run_checks,
)

__all__ = ["ERRATA", "VERDICTS", "Check", "CheckResult", "Erratum", "Verdict", "all_checks",
           "get_check", "iter_results", "register", "run_check", "run_checks"]
