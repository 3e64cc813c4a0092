"""One registered check per claim of the papers, the errata register and reports.

``proofs_checks`` uses ``theory``, ``capacity`` and (later) ``policies``.
"""

try:  # first: a folder named like one of packsched's packages is refused by name
    import theory.installation  # noqa: F401
except ModuleNotFoundError as e:
    raise ImportError(f"the folder {e.path or 'theory'} shadows packsched's package 'theory': "
                      f"rename it, or work in another directory") from None

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
