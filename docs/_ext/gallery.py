"""Sphinx extension: the gallery of the papers' figures.

At ``builder-inited`` every figure that ``packsched reproduce --list`` offers is
reproduced at quick scale with :func:`proofs_checks.figures.reproduce` into
``PACKSCHED_FIGURES_OUT`` (default ``docs/_build/figures``). Its SQLite store is the
cache: a second build redraws without running. One page per figure is written to
``docs/gallery/`` (generated, not committed): the image, what it shows, the paper's
claims as headlines with their verdicts and numbers, where the setting differs, and the
command that redraws it at paper scale. A headline that does not hold fails the build.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

PAPER_ORDER = ("PG21", "PG18", "XLL21", "FL24")


def figures_out(srcdir: Path) -> Path:
    kept = os.environ.get("PACKSCHED_FIGURES_OUT")
    return Path(kept) if kept else srcdir / "_build" / "figures"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def figure_page(rep: Any, image: str) -> str:
    fig = rep.figure
    lines = [f"# {fig.title}", "", f"{fig.shows}", "",
             f"```{{image}} {image}", f":alt: {fig.title}, reproduced at quick scale",
             ":width: 100%", "```", "",
             "## The paper's claims, decided from this figure's CSV", "",
             "| verdict | statement | measured |", "|---|---|---|"]
    for h in rep.headlines:
        lines.append(f"| {'holds' if h.holds else 'does not hold'} | {_cell(h.statement)} "
                     f"| {_cell(h.measured)} |")
    lines += ["", "## Redraw it", "",
              "At the quick scale shown here (seconds):", "",
              "```bash", f"packsched reproduce {fig.key} --scale quick --out figures", "```",
              "", f"At the paper's scale ({fig.paper_cost or 'see --list'}):", "",
              "```bash",
              f"packsched reproduce {fig.key} --scale paper --out figures "
              "--executor processes", "```", ""]
    if fig.differs:
        lines += ["## Where the setting differs from the paper", "", fig.differs, ""]
    params = ", ".join(f"``{k}`` = {v!r}" for k, v in rep.params.items())
    lines += ["## Quick-scale parameters", "", params, ""]
    return "\n".join(lines)


def build_gallery(app: Any) -> None:
    from proofs_checks.figures import FIGURES, figure, reproduce

    src = Path(app.srcdir)
    out = figures_out(src)
    pages = src / "gallery"
    images = pages / "images"
    images.mkdir(parents=True, exist_ok=True)
    entries: dict[str, list[tuple[str, str, str]]] = {p: [] for p in PAPER_ORDER}
    unavailable = []
    for key in FIGURES:
        fig = figure(key)
        if fig.unavailable:
            unavailable.append((fig.title, fig.unavailable))
            continue
        rep = reproduce(key, scale="quick", out=out)
        if not rep.holds:
            failed = "; ".join(h.statement for h in rep.headlines if not h.holds)
            raise RuntimeError(f"gallery: {key} at quick scale: a headline does not hold: "
                               f"{failed}")
        shutil.copyfile(rep.files["png"], images / f"{key}.png")
        _write_if_changed(pages / f"{key}.md", figure_page(rep, f"images/{key}.png"))
        entries.setdefault(fig.paper, []).append((key, fig.title, fig.shows))
    _write_if_changed(pages / "index.md", gallery_index(entries, unavailable))


def gallery_index(entries: dict[str, list[tuple[str, str, str]]],
                  unavailable: list[tuple[str, str]]) -> str:
    """The gallery's front page: per paper, a grid of cards (thumbnail, title, what the
    figure shows), each linking to the figure's page."""
    lines = ["# Gallery", "",
             "Every figure `packsched reproduce --list` offers, reproduced at quick scale when "
             "this site was built. Each page gives the paper's claims the figure shows, "
             "decided from the figure's own CSV, and the command that redraws it at the "
             "paper's scale.", ""]
    keys = []
    for paper, figs in entries.items():
        if not figs:
            continue
        lines += [f"## {paper}", "", "::::{grid} 1 2 3 3", ":gutter: 2", ""]
        for key, title, shows in figs:
            keys.append(key)
            lines += [f":::{{grid-item-card}} {title}", f":link: {key}", ":link-type: doc",
                      f":img-top: images/{key}.png", f":img-alt: {title}", "",
                      _cell(shows), ":::", ""]
        lines += ["::::", ""]
    for title, why in unavailable:
        lines += [f"Not in the gallery: {title}. {why}", ""]
    lines += ["```{toctree}", ":hidden:", "", *keys, "```", ""]
    return "\n".join(lines)


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:  # unchanged pages are not rebuilt
        path.write_text(text)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", build_gallery)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
