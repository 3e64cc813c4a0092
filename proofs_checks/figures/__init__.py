"""The papers' result figures, reproduced: ``reproduce(key, scale=..., out=...)`` runs a
figure's sweep into a store and writes its CSV, PNG, SVG and headline verdicts
(``packsched reproduce``; the notebooks call the same functions).

>>> from proofs_checks.figures import FIGURES
>>> FIGURES["pg21-fig3a"].title
'PG21 Fig. 3a'
"""

from proofs_checks.figures.figure import Headline, PaperFigure, Run
from proofs_checks.figures.registry import FIGURES
from proofs_checks.figures.reproduce import (
    FigureError,
    FigureRunsFailed,
    Reproduction,
    figure,
    reproduce,
)

__all__ = ["FIGURES", "FigureError", "FigureRunsFailed", "Headline", "PaperFigure",
           "Reproduction", "Run", "figure", "reproduce"]
