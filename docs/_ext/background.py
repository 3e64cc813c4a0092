"""Sphinx extension: the errata register as a page (``background/errata.md``, generated).

Each entry of :data:`proofs_checks.errata.ERRATA`: where the paper prints it, the
statement as printed, the corrected one, the instance that separates them and the check
that exhibits it (``packsched verify --claim ID``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def errata_page() -> str:
    from proofs_checks.errata import ERRATA

    lines = ["# Errata register", "",
             f"{len(ERRATA)} places where a paper's printed statement is wrong. Each entry "
             "gives the statement as printed, the corrected one and an instance that "
             "separates them; the check named beside it exhibits the instance "
             "(`packsched verify --claim ID`, or `packsched errata` for this list in the "
             "terminal).", ""]
    for e in ERRATA:
        lines += [f"## {e.id}", "", f"**Where**: {e.location}", "",
                  f"**Printed**: {e.printed}", "", f"**Corrected**: {e.corrected}", "",
                  f"**Separating instance**: {e.instance}", "",
                  f"**Check**: `packsched verify --claim {e.check}`", ""]
    return "\n".join(lines)


def build_errata(app: Any) -> None:
    path = Path(app.srcdir) / "background" / "errata.md"
    text = errata_page()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", build_errata)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
