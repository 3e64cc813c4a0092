"""Reproduce a paper's figure: its runs into a sweep store, the CSV behind it, the
PNG and SVG drawn from that CSV, and its headline statements decided from it.

``reproduce("pg21-fig4", scale="quick", out="figs")`` writes into ``figs/``:

* ``pg21-fig4.quick.sqlite``: the sweep store (:mod:`policies.sweep_store`), one row
  per (point, replication) with its seed, committed as each run finishes; run again
  with the same figure, scale and ``out``, only what has no row runs (a stopped
  reproduction resumes, a finished one redraws without running);
* ``pg21-fig4.csv``: the data behind the figure;
* ``pg21-fig4.png`` and ``pg21-fig4.svg``: drawn from the CSV alone;
* ``pg21-fig4.json``: the headline statements with their verdicts, the parameters,
  the scale, the package version and the seconds.

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
    other runs in the output folder."""


class FigureRunsFailed(RuntimeError):
    """Runs of a figure failed (their errors are in the store); the others are kept."""


def _figures() -> dict[str, PaperFigure]:
    from proofs_checks.figures.registry import FIGURES

    return FIGURES


def figure(key: str) -> PaperFigure:
    """The registered figure named ``key`` (``pg21-fig4``; case and ``.``/``_`` for
    ``-`` do not matter)."""
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
    the headline statements decided from it, the files written and the run counts."""

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
    """Run, tabulate, draw and check figure ``key`` at ``scale`` into ``out`` (see the
    module). Raises :class:`FigureError` for an unknown figure or scale, a figure that
    cannot be reproduced here or a store of other runs in ``out``, and
    :class:`FigureRunsFailed` when runs failed (their errors are in the store; the rest
    are kept, and the next call runs only the failed ones)."""
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
    files = {kind: out / f"{fig.key}.{kind}" for kind in ("csv", "png", "svg", "json")}
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

