"""Every reproducible figure of the four papers, by key (``packsched reproduce --list``).

Each paper's figures are defined in its module (:mod:`proofs_checks.figures.pg21`,
``pg18``, ``xll21``, ``fl24``), which lists them in its ``FIGURES``.
"""

from __future__ import annotations

import importlib

from proofs_checks.figures.figure import PaperFigure

__all__ = ["FIGURES", "PAPER_MODULES"]

#: the modules that define the figures, in the order --list shows them
PAPER_MODULES = ("pg21", "pg18", "xll21", "fl24")


def _collect() -> dict[str, PaperFigure]:
    out: dict[str, PaperFigure] = {}
    for name in PAPER_MODULES:
        module = importlib.import_module(f"proofs_checks.figures.{name}")
        for fig in module.FIGURES:
            if fig.key in out:
                raise RuntimeError(f"figure {fig.key} is defined twice")
            if not fig.unavailable and set(fig.scales) != {"quick", "paper"}:
                raise RuntimeError(f"figure {fig.key} must define the scales quick and paper")
            out[fig.key] = fig
    return out


FIGURES: dict[str, PaperFigure] = _collect()
