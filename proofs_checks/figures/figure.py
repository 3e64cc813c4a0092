"""What a reproducible figure of a paper is: its runs, the table behind it, its drawing
and the headline statement the table must bear out.

A :class:`PaperFigure` is run by :func:`proofs_checks.figures.reproduce`: its
:meth:`~PaperFigure.points` at a scale, each replicated and seeded from
``SeedSequence(params["seed"]).spawn`` (as a sweep is), are computed on an executor by
:meth:`~PaperFigure.compute` into a sweep store; :meth:`~PaperFigure.table` turns the
stored results into the CSV; :meth:`~PaperFigure.draw` and :meth:`~PaperFigure.check`
read that CSV back, so the picture and the asserted headline are the data of the CSV
and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["PaperFigure", "Headline", "Run"]

#: the scales every figure offers
SCALES = ("quick", "paper")


@dataclass(frozen=True)
class Headline:
    """One statement a figure shows, whether its CSV bears it out, and the numbers that
    decide it (``measured``, one line)."""

    statement: str
    holds: bool
    measured: str


@dataclass(frozen=True)
class Run:
    """One stored run handed to :meth:`PaperFigure.table`: its point, replication, seed
    and the JSON result :meth:`PaperFigure.compute` returned."""

    point: dict[str, Any]
    replication: int
    seed: int | None
    result: dict[str, Any]


class PaperFigure:
    """A result figure of a paper (subclass and fill in the class attributes and
    methods; register the class in :mod:`proofs_checks.figures.registry`).

    Class attributes: ``key`` (the CLI name, ``pg21-fig4``), ``paper`` (PG21, PG18,
    XLL21, FL24), ``number`` (``Fig. 4a/4b``), ``shows`` (what it shows, one line),
    ``scales`` (``"quick"`` and ``"paper"``: JSON-ready parameters, ``seed`` and
    ``replications`` among them), ``paper_cost`` (the paper scale's cost here, measured
    or estimated, say which), ``differs`` (where the paper scale still differs from the
    paper's setting, or ``""``) and ``unavailable`` (why the figure cannot be reproduced
    here and what the nearest analogue is; then nothing runs).
    """

    key: ClassVar[str]
    paper: ClassVar[str]
    number: ClassVar[str]
    shows: ClassVar[str]
    scales: ClassVar[dict[str, dict[str, Any]]] = {}
    paper_cost: ClassVar[str] = ""
    differs: ClassVar[str] = ""
    unavailable: ClassVar[str | None] = None
    #: False for a figure whose runs draw no random numbers (they get no seed)
    seeded: ClassVar[bool] = True

    def points(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The runs' points at these parameters (JSON-ready dictionaries)."""
        return [{}]

    def compute(self, point: dict[str, Any], params: dict[str, Any],
                seed: int | None) -> dict[str, Any]:
        """One run, in a worker: a JSON-ready dictionary (no arrays, no objects)."""
        raise NotImplementedError

    def table(self, runs: list[Run], params: dict[str, Any]) -> Any:
        """The CSV behind the figure, a pandas DataFrame, from every run's result."""
        raise NotImplementedError

    def draw(self, table: Any, params: dict[str, Any], fig: Any) -> None:
        """Draw the figure from the CSV's frame on a matplotlib ``Figure``."""
        raise NotImplementedError

    def check(self, table: Any, params: dict[str, Any]) -> list[Headline]:
        """The figure's headline statements, each decided from the CSV's frame."""
        raise NotImplementedError

    def replications(self, params: dict[str, Any]) -> int:
        return int(params.get("replications", 1))

    @property
    def title(self) -> str:
        return f"{self.paper} {self.number}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}: {self.title}>"
