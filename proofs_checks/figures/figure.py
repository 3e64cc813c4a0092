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
    decide it (``measured``, one line).

    Made by a figure's :meth:`PaperFigure.check` from the CSV's frame alone; frozen.

    Parameters
    ----------
    statement : str
        What the paper's figure shows, in words (with the threshold it is decided by).
    holds : bool
        Whether the CSV bears the statement out.
    measured : str
        The numbers that decide it, one line.

    References
    ----------
    docs/design.md, section Reproducing the figures.

    Examples
    --------
    >>> from proofs_checks.figures import Headline
    >>> h = Headline("BF-J/S keeps the queue stable at alpha = 0.9", True,
    ...              "average queue 12.5 at 10^6 slots")
    >>> h.holds, h.measured
    (True, 'average queue 12.5 at 10^6 slots')
    """

    statement: str
    holds: bool
    measured: str


@dataclass(frozen=True)
class Run:
    """One stored run handed to :meth:`PaperFigure.table`: its point, replication, seed
    and the JSON result :meth:`PaperFigure.compute` returned.

    :func:`~proofs_checks.figures.reproduce` reads the runs back from the sweep store
    and hands them to ``table`` in store order; frozen.

    Parameters
    ----------
    point : dict
        The run's point, one of :meth:`PaperFigure.points` (JSON-ready).
    replication : int
        The replication's index, from 0.
    seed : int or None
        The run's seed, drawn from ``SeedSequence(params["seed"]).spawn`` in grid
        order (None for a figure whose runs draw no random numbers).
    result : dict
        What :meth:`PaperFigure.compute` returned, read back from the store's JSON.

    References
    ----------
    docs/design.md, section Reproducing the figures (step 1, the runs).

    Examples
    --------
    >>> from proofs_checks.figures import Run
    >>> run = Run(point={"alpha": 0.85}, replication=0, seed=123,
    ...           result={"mean_queue": 4.5})
    >>> run.point["alpha"], run.result["mean_queue"]
    (0.85, 4.5)
    """

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

    Methods to fill in: ``points(params)`` (the runs' points), ``compute(point, params,
    seed)`` (one run, in a worker, a JSON-ready dict), ``table(runs, params)`` (the CSV
    as a pandas DataFrame), ``draw(table, params, fig)`` (on a matplotlib ``Figure``)
    and ``check(table, params)`` (the :class:`Headline` list). ``draw`` and ``check``
    see only the frame read back from the CSV. ``title`` is ``"{paper} {number}"``.
    A subclass takes no constructor arguments: the registry holds one instance of
    each.

    Attributes
    ----------
    key : str
        The CLI name (``pg21-fig4``).
    paper : str
        The paper's key: PG21, PG18, XLL21 or FL24.
    number : str
        The figure's number in the paper (``Fig. 4a/4b``).
    shows : str
        What the figure shows, one line.
    scales : dict
        ``"quick"`` and ``"paper"`` -> JSON-ready parameters, ``seed`` and
        ``replications`` among them.
    paper_cost : str
        The paper scale's cost here, measured or estimated (it says which).
    differs : str
        Where the paper scale still differs from the paper's setting (``""``: it does
        not).
    unavailable : str or None
        Why the figure cannot be reproduced here and the nearest analogue (None: it
        can).
    seeded : bool
        False for a figure whose runs draw no random numbers (they get no seed).

    References
    ----------
    docs/design.md, section Reproducing the figures. The figures are those of PG21
    Sec. VII, PG18 Sec. III (Fig. 1b) and Sec. VII, XLL21 Sec. VI and FL24 Sec. 7.

    Examples
    --------
    >>> from proofs_checks.figures import FIGURES
    >>> fig = FIGURES["pg21-fig4"]
    >>> fig
    <Fig4 pg21-fig4: PG21 Fig. 4a/4b>
    >>> fig.title, fig.paper, fig.seeded
    ('PG21 Fig. 4a/4b', 'PG21', True)
    >>> fig.scales["quick"]["alphas"], fig.replications(fig.scales["quick"])
    ([0.85, 0.92, 0.99], 2)
    >>> fig.points(fig.scales["quick"])[:2]
    [{'panel': '4a', 'alpha': 0.85}, {'panel': '4a', 'alpha': 0.92}]
    >>> FIGURES["xll21-fig12"].unavailable is not None
    True
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
