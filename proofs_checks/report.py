"""The claims catalogue as a static HTML report (``packsched verify --report DIR``).

``write_report(rows, out)`` writes ``out/index.html``, one self-contained page (inline
CSS, no script, no server): a summary of the verdicts; one section per paper, one entry
per claim with its verdict, statement, location in the paper, method, measured against
bound (:mod:`proofs_checks.evidence_text`, the terminal table's text), seed, seconds and
its evidence (``details``) laid out as tables; the errata register, each entry linked to
the check that exhibits it; and the environment the report was made in.
"""

from __future__ import annotations

import html
import platform
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from proofs_checks.evidence_text import comparison_text, note_text, number_text

__all__ = ["write_report", "PAPERS"]

#: the papers in the order the report shows them, with their full references
PAPERS = {
    "PG21": "Psychas & Ghaderi, High-Throughput Bin Packing: Scheduling Jobs With Random "
            "Resource Demands in Clusters, IEEE/ACM ToN 2021",
    "PG18": "Psychas & Ghaderi, Randomized Algorithms for Scheduling Multi-Resource Jobs in "
            "the Cloud, IEEE/ACM ToN 2018",
    "XLL21": "Xu, Liu & Lau, Optimal Job Scheduling With Resource Packing for Heterogeneous "
             "Servers, IEEE/ACM ToN 2021",
    "FL24": "Fan & Liang, Online Non-preemptive Multi-Resource Scheduling for Weighted "
            "Completion Time on Multiple Machines, ICPP 2024",
}

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em;
       line-height: 1.4; color: #222; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
.claim { border: 1px solid #ddd; border-radius: 6px; padding: 0.6em 1em; margin: 1em 0; }
.claim h3 { margin: 0 0 0.3em 0; font-size: 1.05em; }
.verdict { font-weight: bold; padding: 0.1em 0.5em; border-radius: 4px; }
.holds { background: #d9f2d9; } .violated { background: #f8d0d0; }
.inconclusive { background: #f8efc8; }
.meta { color: #555; font-size: 0.92em; }
code, .num { font-family: ui-monospace, monospace; }
table { border-collapse: collapse; margin: 0.4em 0; font-size: 0.92em; }
td, th { border: 1px solid #ddd; padding: 0.2em 0.5em; vertical-align: top;
         text-align: left; }
th { background: #f4f4f4; }
details summary { cursor: pointer; color: #336; }
"""

#: rows of a list of records shown in the report before it says how many were left out
_MAX_ROWS = 200


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _anchor(claim_id: str) -> str:
    return "claim-" + "".join(c if c.isalnum() else "-" for c in claim_id)


def _value(v: Any, depth: int = 0) -> str:
    """Evidence as HTML: a dict as a key/value table, a list of dicts as a table with a
    column per key, anything else as its number text."""
    if isinstance(v, dict) and v and depth < 4:
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_value(x, depth + 1)}</td></tr>"
                       for k, x in v.items())
        return f"<table>{rows}</table>"
    if isinstance(v, list | tuple) and v and all(isinstance(x, dict) for x in v) \
            and depth < 4:
        keys: list[str] = []
        for x in v:
            keys += [k for k in x if k not in keys]
        head = "".join(f"<th>{_e(k)}</th>" for k in keys)
        body = "".join("<tr>" + "".join(f"<td>{_value(x.get(k, ''), depth + 1)}</td>"
                                        for k in keys) + "</tr>" for x in v[:_MAX_ROWS])
        more = (f"<p class='meta'>{len(v) - _MAX_ROWS} more rows in "
                f"<code>verify --json</code></p>" if len(v) > _MAX_ROWS else "")
        return f"<table><tr>{head}</tr>{body}</table>{more}"
    return f"<span class='num'>{_e(number_text(v))}</span>"


def _claim(row: dict[str, Any]) -> str:
    verdict = str(row["verdict"])
    seed = "" if row.get("seed") is None else f"; seed <code>{_e(number_text(row['seed']))}</code>"
    details = row.get("details") or {}
    evidence = (f"<details><summary>evidence</summary>{_value(details)}</details>"
                if details else "")
    params = (f"<details><summary>parameters</summary>{_value(row['params'])}</details>"
              if row.get("params") else "")
    return (f"<div class='claim' id='{_anchor(str(row['id']))}'>"
            f"<h3><a href='#{_anchor(str(row['id']))}'>{_e(row['id'])}</a> "
            f"<span class='verdict {_e(verdict)}'>{_e(verdict)}</span></h3>"
            f"<p>{_e(row['statement'])}</p>"
            f"<p class='meta'>{_e(row['location'])}; method: {_e(row['method'])}; "
            f"{float(row['seconds']):.2f} s{seed}</p>"
            f"<p>measured against bound: <code>{_e(comparison_text(row))}</code>"
            f"<br><span class='meta'>{_e(note_text(row))}</span></p>"
            f"{evidence}{params}</div>")


def _errata(errata: Sequence[Any], ids: set[str]) -> str:
    items = []
    for e in errata:
        check = (f"<a href='#{_anchor(e.check)}'>{_e(e.check)}</a>" if e.check in ids
                 else f"<code>{_e(e.check)}</code>")
        items.append(f"<div class='claim' id='erratum-{_anchor(e.id)}'><h3>{_e(e.id)}</h3>"
                     f"<p class='meta'>{_e(e.location)}; exhibited by {check}</p>"
                     f"<table><tr><th>printed</th><td>{_e(e.printed)}</td></tr>"
                     f"<tr><th>corrected</th><td>{_e(e.corrected)}</td></tr>"
                     f"<tr><th>separating instance</th><td>{_e(e.instance)}</td></tr>"
                     f"</table></div>")
    return "".join(items)


def _environment(extra: dict[str, Any]) -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    env: dict[str, Any] = {"python": sys.version.split()[0], "platform": platform.platform(),
                           "machine": platform.machine()}
    for name in ("packsched", "numpy", "scipy", "numba", "highspy", "cvxpy", "sympy"):
        try:
            env[name] = version(name)
        except PackageNotFoundError:
            env[name] = "not installed"
    env.update(extra)
    return env


def write_report(rows: Sequence[dict[str, Any]], out: str | Path, *,
                 errata: Sequence[Any] | None = None,
                 run: dict[str, Any] | None = None) -> Path:
    """Write ``out/index.html`` from the result rows of ``verify`` (``CheckResult.as_dict``)
    and return its path. ``errata``: the register (default
    :data:`proofs_checks.errata.ERRATA`); ``run``: facts of the run shown with the
    environment (the command, ``--quick``, jobs, wall seconds)."""
    from proofs_checks.errata import ERRATA

    register = list(ERRATA if errata is None else errata)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    counts = Counter(str(r["verdict"]) for r in rows)
    papers = [p for p in PAPERS if any(r["paper"] == p for r in rows)]
    papers += sorted({str(r["paper"]) for r in rows} - set(papers))
    ids = {str(r["id"]) for r in rows}
    toc = "".join(f"<li><a href='#paper-{_e(p)}'>{_e(p)}</a> "
                  f"({sum(r['paper'] == p for r in rows)} claims)</li>" for p in papers)
    sections = []
    for p in papers:
        mine = [r for r in rows if r["paper"] == p]
        sections.append(f"<h2 id='paper-{_e(p)}'>{_e(p)}</h2>"
                        f"<p class='meta'>{_e(PAPERS.get(p, ''))}</p>"
                        + "".join(_claim(r) for r in mine))
    summary = ", ".join(f"{counts[v]} {v}" for v in ("holds", "violated", "inconclusive"))
    env = _environment({"made": time.strftime("%Y-%m-%d %H:%M:%S %Z"), **(run or {})})
    page = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>packsched: the papers' claims, checked</title><style>{_CSS}</style></head>"
        "<body><h1>The papers' claims, checked</h1>"
        f"<p>{len(rows)} claims: {_e(summary)}. Each claim is checked by a registered "
        "check that can fail (<code>packsched verify --claim ID</code> reruns one).</p>"
        f"<ul>{toc}<li><a href='#errata'>Errata register</a> ({len(register)} entries)</li>"
        "<li><a href='#environment'>Environment</a></li></ul>"
        + "".join(sections)
        + "<h2 id='errata'>Errata register</h2><p>Where a paper's printed statement is "
        "wrong: the statement as printed, the corrected one, and an instance that "
        "separates them.</p>" + _errata(register, ids)
        + f"<h2 id='environment'>Environment</h2>{_value(env)}</body></html>\n")
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
