"""FL24: the result figures (being filled in)."""

from __future__ import annotations

from proofs_checks.figures.figure import PaperFigure

FIGURES: list[PaperFigure] = []
