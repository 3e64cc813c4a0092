"""Reproduce a paper's figure: its runs into a sweep store, the CSV behind it, the
PNG and SVG drawn from that CSV, and its headline statements decided from it.

``reproduce("pg21-fig4", scale="quick", out="figs")`` writes into ``figs/``:

* ``pg21-fig4.quick.sqlite``: the sweep store (:mod:`policies.sweep_store`), one row
  per (point, replication) with its seed, committed as each run finishes; run again
  with the same figure, scale and ``out``, only what has no row runs (a stopped
  reproduction resumes, a finished one redraws without running);
* ``pg21-fig4.quick.csv``: the data behind the figure;
* ``pg21-fig4.quick.png`` and ``pg21-fig4.quick.svg``: drawn from the CSV alone;
* ``pg21-fig4.quick.json``: the headline statements with their verdicts, the
  parameters, the scale, the package version and the seconds.

Every file carries the scale, as the store does: the quick and paper figures of one
``out`` are kept side by side.

The runs go through the one executor of the package (:mod:`policies.executors`):
``serial``, ``processes`` or ``dask``, with the same rows whatever the executor.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proofs_checks.figures.figure import SCALES, Headline, PaperFigure, Run
from theory.names import did_you_mean

__all__ = ["FigureError", "FigureRunsFailed", "Reproduction", "figure", "reproduce",
           "run_figure_point"]


class FigureError(ValueError):
    """An unknown figure or scale, a figure that cannot be reproduced here, or a store of
    other runs in the output folder.

    A ``ValueError``: the CLI (``packsched reproduce``) reports it with status 2. Raised
    with one argument, the message.

    References
    ----------
    docs/design.md, section Reproducing the figures, and section Errors.

    Examples
    --------
    >>> from proofs_checks.figures import FigureError, figure
    >>> try:
    ...     figure("pg21-fig9")
    ... except FigureError as err:
    ...     print(isinstance(err, ValueError), err)
    True no figure 'pg21-fig9'; did you mean pg21-fig5 or pg21-fig4 or pg21-fig3b?
    """


class FigureRunsFailed(RuntimeError):
    """Runs of a figure failed (their errors are in the store); the others are kept.

    A ``RuntimeError`` raised by :func:`reproduce` with one argument, the message: how
    many runs failed, the first one's error, and the store that keeps them; the next
    call runs the failed ones again.

    References
    ----------
    docs/design.md, section Reproducing the figures (step 1: failed runs are kept with
    their error and run again on the next call).

    Examples
    --------
    >>> from proofs_checks.figures import FigureRunsFailed
    >>> err = FigureRunsFailed("1 of 6 run(s) of pg21-fig4 failed, the first: ...")
    >>> isinstance(err, RuntimeError), str(err)[:28]
    (True, '1 of 6 run(s) of pg21-fig4 f')
    """


def _figures() -> dict[str, PaperFigure]:
    from proofs_checks.figures.registry import FIGURES

    return FIGURES


def figure(key: str) -> PaperFigure:
    """The registered figure named ``key`` (``pg21-fig4``; case and ``.``/``_`` for
    ``-`` do not matter).

    Parameters
    ----------
    key : str
        The figure's key, as ``packsched reproduce --list`` shows it; surrounding
        spaces, case and ``.`` or ``_`` for ``-`` are ignored.

    Returns
    -------
    PaperFigure
        The registered figure (the same object as ``FIGURES[...]``).

    Raises
    ------
    FigureError
        When ``key`` is not a string, or no figure has that key (the nearest keys are
        suggested).

    References
    ----------
    docs/design.md, section Reproducing the figures (``registry.py`` collects the
    figures by key).

    Examples
    --------
    >>> from proofs_checks.figures import FIGURES, figure
    >>> figure("PG21_Fig3a") is FIGURES["pg21-fig3a"]
    True
    >>> figure("pg21-fg4")
    Traceback (most recent call last):
    ...
    proofs_checks.figures.reproduce.FigureError: no figure 'pg21-fg4'; did you mean
    pg21-fig4 or pg21-fig5 or pg18-fig4?
    """
    figures = _figures()
    if not isinstance(key, str):
        raise FigureError(f"a figure is named by a string such as 'pg21-fig4', got {key!r}")
    name = key.strip().lower().replace(".", "-").replace("_", "-")
    if name in figures:
        return figures[name]
    hint = did_you_mean(name, figures) or "; packsched reproduce --list shows them"
    raise FigureError(f"no figure {key!r}{hint}")


@dataclass(frozen=True)
class Reproduction:
    """What :func:`reproduce` made: the figure, scale and parameters, the CSV's frame,
    the headline statements decided from it, the files written and the run counts.

    ``holds`` is True when every headline is borne out; ``markdown()`` gives the
    verdicts as Markdown; a notebook displays the PNG and the verdicts. Frozen.

    Parameters
    ----------
    figure : PaperFigure
        The figure reproduced.
    scale : str
        ``"quick"`` or ``"paper"``.
    params : dict
        The scale's parameters the runs used.
    table : pandas.DataFrame
        The CSV behind the figure, as read back from the file.
    headlines : list of Headline
        The headline statements, decided from ``table``.
    files : dict of str to pathlib.Path
        ``"csv"``, ``"png"``, ``"svg"``, ``"json"`` and ``"store"`` (the sweep store)
        -> the files written (``KEY.SCALE.csv`` ... ``KEY.SCALE.sqlite``).
    runs : dict of str to int
        The run counts: ``runs``, ``done_before`` (found in the store), ``ran`` and
        ``failed``.
    seconds : float
        Wall-clock seconds of the call.
    image : matplotlib.figure.Figure, optional
        The drawn figure (None when not kept).

    References
    ----------
    docs/design.md, section Reproducing the figures.

    Examples
    --------
    Built by hand here (a real one comes from :func:`reproduce`):

    >>> from proofs_checks.figures import FIGURES, Headline, Reproduction
    >>> rep = Reproduction(FIGURES["pg18-fig7"], "quick", {}, None,
    ...                    [Headline("the trace is bursty", True, "busiest window x5.9")],
    ...                    {}, {"runs": 1, "done_before": 0, "ran": 1, "failed": 0}, 0.8)
    >>> rep.holds
    True
    >>> print(rep.markdown().splitlines()[2])
    - holds: the trace is bursty (busiest window x5.9)
    """

    figure: PaperFigure
    scale: str
    params: dict[str, Any]
    table: Any
    headlines: list[Headline]
    files: dict[str, Path]
    runs: dict[str, int]
    seconds: float
    image: Any = field(repr=False, default=None)

    @property
    def holds(self) -> bool:
        """Every headline statement is borne out by the CSV."""
        return all(h.holds for h in self.headlines)

    def markdown(self) -> str:
        """The headline statements with their verdicts and numbers, and where the
        figure differs from the paper's setting, as Markdown (for a notebook)."""
        lines = [f"**{self.figure.title}** at scale {self.scale}: {self.figure.shows}", ""]
        lines += [f"- {'holds' if h.holds else '**does not hold**'}: {h.statement} "
                  f"({h.measured})" for h in self.headlines]
        if self.figure.differs:
            lines += ["", f"Differs from the paper: {self.figure.differs}"]
        return "\n".join(lines)

    def _ipython_display_(self) -> None:  # a notebook shows the figure and its verdicts
        from IPython.display import Image, Markdown, display

        display(Image(filename=str(self.files["png"])))
        display(Markdown(self.markdown()))


def _params(fig: PaperFigure, scale: str) -> dict[str, Any]:
    if scale not in SCALES:
        raise FigureError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    if fig.unavailable:
        raise FigureError(f"{fig.key} ({fig.title}) cannot be reproduced here: "
                          f"{fig.unavailable}")
    return dict(fig.scales[scale])


def run_figure_point(payload: tuple[str, str, dict[str, Any], int | None]) -> dict[str, Any]:
    """One run of a figure, in a worker: ``exit`` 0 and the JSON result, or ``exit`` 3
    and the error's last line (the traceback's last frame named)."""
    from theory.json_ready import json_ready

    key, scale, point, seed = payload
    fig = figure(key)
    t0 = time.perf_counter()
    try:
        result = json_ready(fig.compute(point, dict(fig.scales[scale]), seed), exact=False)
        return {"exit": 0, "status": "finished", "summary": json.dumps(result),
                "error": None, "seconds": time.perf_counter() - t0}
    except Exception as exc:  # noqa: BLE001 - recorded in the store, reported by reproduce
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return {"exit": 3, "status": "failed", "summary": None,
                "seconds": time.perf_counter() - t0,
                "error": f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:"
                         f"{where.lineno})"}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("packsched")
    except PackageNotFoundError:  # pragma: no cover - a source tree without metadata
        return "0.0.0+unknown"


def reproduce(key: str, *, scale: str = "quick", out: str | Path = "figures",
              executor: str = "serial", workers: int | None = None,
              scheduler: str | None = None,
              progress: Callable[[int, int, int], None] | None = None) -> Reproduction:
    """Run, tabulate, draw and check figure ``key`` at ``scale`` into ``out``.

    Writes, in ``out``: ``KEY.SCALE.sqlite`` (the sweep store, one row per run with its
    seed: a stopped reproduction resumes, a finished one redraws without running),
    ``KEY.SCALE.csv`` (the data behind the figure), ``KEY.SCALE.png`` and
    ``KEY.SCALE.svg`` (drawn from the CSV alone) and ``KEY.SCALE.json`` (the headline
    verdicts, the parameters, the scale, the package version and the seconds); the two
    scales' files never replace each other. The runs are seeded from
    ``SeedSequence(params["seed"]).spawn`` in grid order, so every executor gives the
    same rows. A figure at quick scale takes from about a second to minutes.

    Parameters
    ----------
    key : str
        The figure (``"pg21-fig4"``), as :func:`figure` reads it.
    scale : str, default "quick"
        ``"quick"`` (what CI runs) or ``"paper"`` (the paper's setting as far as the
        package can run it).
    out : str or pathlib.Path, default "figures"
        The output folder (created if missing).
    executor : str, default "serial"
        ``"serial"``, ``"processes"`` or ``"dask"`` (:mod:`policies.executors`).
    workers : int, optional
        Worker processes of the ``processes`` or ``dask`` executor.
    scheduler : str, optional
        The address of a dask scheduler (``tcp://host:8786``; ``dask`` executor only).
    progress : callable, optional
        Called as ``progress(done, total, failed)`` as runs finish.

    Returns
    -------
    Reproduction
        The figure, its table, headline verdicts, files and run counts.

    Raises
    ------
    FigureError
        For an unknown figure or scale, a figure that cannot be reproduced here
        (``unavailable``), a scale with no run, or a store of other runs in ``out``.
        Nothing is written for an unknown figure or scale.
    FigureRunsFailed
        When runs failed (their errors are in the store; the rest are kept, and the next
        call runs only the failed ones).
    policies.sweep_store.SweepInterrupted
        (a ``KeyboardInterrupt``) On an interrupt during the runs, once the workers are
        stopped; every finished run is in the store, and the next call runs the rest.
    ImportError
        Without matplotlib and pandas (``pip install 'packsched[figures]'``).
    ValueError
        What ``policies.executors.check_executor`` refuses (an unknown executor, bad
        ``workers`` or ``scheduler``).

    References
    ----------
    docs/design.md, section Reproducing the figures.

    Examples
    --------
    Refusals cost nothing (a real figure runs for seconds or more, so it is not run
    here):

    >>> import tempfile
    >>> from proofs_checks.figures import reproduce
    >>> with tempfile.TemporaryDirectory() as out:
    ...     reproduce("pg21-fig4", scale="huge", out=out)
    Traceback (most recent call last):
    ...
    proofs_checks.figures.reproduce.FigureError: scale must be one of quick, paper, got
    'huge'
    >>> with tempfile.TemporaryDirectory() as out:
    ...     reproduce("xll21-fig12", out=out)
    Traceback (most recent call last):
    ...
    proofs_checks.figures.reproduce.FigureError: xll21-fig12 (XLL21 Fig. 12) cannot be
    reproduced here: the paper does not say how it made map and reduce phases ...
    """
    import hashlib

    try:
        import pandas  # noqa: F401
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(f"reproducing a figure needs matplotlib and pandas ({e}): pip "
                          f"install 'packsched[figures]'") from None

    from policies.executors import check_executor
    from policies.sweep_store import StoredTask, StoreError, SweepStore, run_into_store
    from theory.seeding import spawn_seeds

    t0 = time.perf_counter()
    fig = figure(key)
    params = _params(fig, scale)
    check_executor(executor, workers, scheduler)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    points = fig.points(params)
    reps = fig.replications(params)
    if not points or reps < 1:
        raise FigureError(f"{fig.key} at scale {scale} has no run")
    spec = {"figure": fig.key, "scale": scale, "params": params, "points": points,
            "replications": reps}
    text = json.dumps(spec, sort_keys=True, indent=1)
    children = spawn_seeds(params.get("seed", 0), len(points) * reps) if fig.seeded else []
    tasks = []
    for i, point in enumerate(points):
        for r in range(reps):
            seed = int(children[i * reps + r].generate_state(1)[0]) if fig.seeded else None
            tasks.append(StoredTask(i, r, seed, point, (fig.key, scale, point, seed)))
    version = _version()
    store_path = out / f"{fig.key}.{scale}.sqlite"
    try:
        store = SweepStore(store_path, spec_text=text,
                           spec_sha256=hashlib.sha256(text.encode()).hexdigest(),
                           version=version)
    except StoreError as e:
        raise FigureError(f"{e} (it was made with other parameters of {fig.key}: remove "
                          f"it, or give another --out)") from None
    try:
        store.drop_failed()  # a run that failed before runs again
        counts = run_into_store(store, tasks, run_figure_point, version=version,
                                executor=executor, workers=workers, scheduler=scheduler,
                                progress=progress)
        runs = store.rows()
    finally:
        store.close()
    failed = [r for r in runs if r["status"] == "failed"]
    if failed:
        raise FigureRunsFailed(f"{len(failed)} of {len(runs)} run(s) of {fig.key} failed, "
                               f"the first: {failed[0]['error']} (their errors are in "
                               f"{store_path}; the next call runs them again)")
    import pandas as pd

    frame = fig.table([Run(points[r["point"]], r["replication"], r["seed"], r["summary"])
                       for r in runs], params)
    files = {kind: out / f"{fig.key}.{scale}.{kind}" for kind in ("csv", "png", "svg", "json")}
    frame.to_csv(files["csv"], index=False)
    table = pd.read_csv(files["csv"])  # the picture and the verdicts read the CSV only
    image = Figure(figsize=(8, 4.8), layout="constrained")
    fig.draw(table, params, image)
    image.savefig(files["png"], dpi=120, metadata={"Software": None})
    image.savefig(files["svg"], metadata={"Date": None})
    headlines = fig.check(table, params)
    seconds = time.perf_counter() - t0
    files["json"].write_text(json.dumps({
        "figure": fig.key, "title": fig.title, "shows": fig.shows, "scale": scale,
        "params": params, "version": version, "seconds": seconds, "runs": counts,
        "holds": all(h.holds for h in headlines),
        "headlines": [{"statement": h.statement, "holds": h.holds, "measured": h.measured}
                      for h in headlines],
        "differs": fig.differs, "paper_cost": fig.paper_cost}, indent=1) + "\n")
    return Reproduction(fig, scale, params, table, headlines, {**files, "store": store_path},
                        counts, seconds, image)

