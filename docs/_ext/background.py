"""Sphinx extension: the errata register as a page (``background/errata.md``, generated).

A table of every entry of :data:`proofs_checks.errata.ERRATA`, then the entries grouped
by paper, each under a target (:func:`erratum_label`) the paper pages link to: where the
paper prints it, the statement as printed, the corrected one, the instance that
separates them and the check that exhibits it (``packsched verify --claim ID``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The papers in the order of the site, with the background page of each.
PAPERS = {"PG21": "pg21.md", "PG18": "pg18.md", "XLL21": "xll21.md", "FL24": "fl24.md"}

#: Characters that Markdown or MyST would read as markup in the register's plain text.
MARKUP = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|$"})


def erratum_label(erratum_id: str) -> str:
    """The page target of an erratum: ``PG21.Prop2.eq61`` -> ``erratum-pg21-prop2-eq61``.

    A background page links the entry with the MyST role
    ``{ref}`PG21.Prop2.eq61 <erratum-pg21-prop2-eq61>```.
    """
    return "erratum-" + erratum_id.lower().replace(".", "-")


def paper_of(erratum_id: str) -> str:
    return erratum_id.split(".", 1)[0]


def errata_page() -> str:
    from proofs_checks.errata import ERRATA

    unknown = sorted({paper_of(e.id) for e in ERRATA} - set(PAPERS))
    if unknown:
        raise ValueError(f"errata of papers without a background page: {unknown}")
    by_paper = {p: [e for e in ERRATA if paper_of(e.id) == p] for p in PAPERS}
    counts = ", ".join(f"{p} {len(es)}" for p, es in by_paper.items() if es)
    lines = ["# Errata register", "",
             f"{len(ERRATA)} places where a paper's printed statement is wrong ({counts}). "
             "Each entry gives the statement as printed, the corrected one and an instance "
             "that separates them; the check named with it exhibits the instance "
             "(`packsched verify --claim ID`, or `packsched errata` for this list in the "
             "terminal). Every paper's background page says which of its statements "
             "packsched implements as corrected.", "",
             "| erratum | where | check |", "|---|---|---|"]
    # by paper, in the register's order within a paper
    lines += [f"| {{ref}}`{e.id} <{erratum_label(e.id)}>` | {e.location.translate(MARKUP)} "
              f"| `{e.check}` |"
              for entries in by_paper.values() for e in entries]
    lines.append("")
    for paper, entries in by_paper.items():
        if not entries:
            continue
        lines += [f"## {paper}", "",
                  f"{len(entries)} {'entry' if len(entries) == 1 else 'entries'}; the "
                  f"paper's model and results: [{paper}]({PAPERS[paper]}).", ""]
        for e in entries:
            lines += [f"({erratum_label(e.id)})=", f"### {e.id}", "",
                      "Where", f": {e.location.translate(MARKUP)}", "",
                      "Printed", f": {e.printed.translate(MARKUP)}", "",
                      "Corrected", f": {e.corrected.translate(MARKUP)}", "",
                      "Separating instance", f": {e.instance.translate(MARKUP)}", "",
                      "Check", f": `packsched verify --claim {e.check}`", ""]
    return "\n".join(lines)


def build_errata(app: Any) -> None:
    path = Path(app.srcdir) / "background" / "errata.md"
    text = errata_page()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", build_errata)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
