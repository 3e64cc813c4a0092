"""``packsched verify``: run the registered checks of the papers' claims (exit 1 if one
is violated) or list them; an unknown claim id or paper key is an error either way."""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from typing import Any

from packsched.errors import EXIT_OK, EXIT_VIOLATED, ComputationError, UsageError
from packsched.output import emit_json, note, stdout_to_stderr
from proofs_checks.evidence_text import comparison_text, note_text, number_text

NAME = "verify"


def add_parser(sub: Any) -> None:
    v = sub.add_parser(
        NAME, help="run the checks of the papers' claims",
        description="Run the registered checks (one per claim). Exit status 1 if any check "
                    "is violated; inconclusive checks do not fail.")
    v.add_argument("--paper", metavar="KEY", help="only this paper (PG21, PG18, XLL21, FL24)")
    v.add_argument("--claim", metavar="ID",
                   help="only this claim id (e.g. PG21.Thm3) and its sub-claims")
    v.add_argument("--quick", action="store_true", help="quick checks in their reduced form")
    v.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="run the checks in N worker processes (default: one per CPU; 1 runs "
                        "them in this process); verdicts do not depend on it")
    v.add_argument("--list", action="store_true",
                   help="list the checks (id, location, statement) without running them")
    v.add_argument("--report", metavar="DIR",
                   help="also write the catalogue as a static HTML report, DIR/index.html")
    v.add_argument("--json", action="store_true",
                   help="print a JSON list of {id, paper, location, statement, method, "
                        "verdict, measured, bound, relation, quantity, params, seed, details, "
                        "seconds} (Fractions as exact \"p/q\" text)")
    v.set_defaults(func=run)


def registry() -> Any:
    try:
        from proofs_checks import registry
    except ImportError as exc:
        raise ComputationError(f"the check catalogue cannot be imported ({type(exc).__name__}: "
                               f"{exc})") from exc
    return registry


#: the table's width, past which a row's quantity text is shortened (never a number)
TABLE_WIDTH = 132


def _shorten(text: str, width: int) -> str:
    """``text`` cut at a word boundary to at most ``width`` characters (at least 20)."""
    width = max(width, 20)
    if len(text) <= width:
        return text
    return text[: width - 3].rsplit(" ", 1)[0] + "..."


def _table(rows: list[dict[str, Any]]) -> list[str]:
    """The text table: claim, verdict, seconds, measured against bound, then the seed
    and what the numbers are; only that last text is shortened (to :data:`TABLE_WIDTH`),
    never a number."""
    width = max([len(r["id"]) for r in rows] + [5])
    comps = [comparison_text(r) for r in rows]
    cw = min(max([len(c) for c in comps] + [17]), 30)
    lines = [f"{'claim':<{width}}  {'verdict':<12} {'seconds':>8}  "
             f"{'measured vs bound':<{cw}}  seed; quantity"]
    for r, comp in zip(rows, comps, strict=True):
        head = f"{r['id']:<{width}}  {r['verdict']:<12} {r['seconds']:>8.2f}  {comp:<{cw}}  "
        if r.get("seed") is not None:
            head += f"seed {number_text(r['seed'])}; "
        lines.append(head + _shorten(note_text(r), TABLE_WIDTH - len(head)))
    return lines


def _list(checks: list[Any], args: argparse.Namespace) -> int:
    rows = [{"id": c.id, "paper": c.paper, "location": c.location,
             "statement": c.statement, "method": c.method, "quick": c.quick}
            for c in checks]
    if args.json:
        emit_json(rows)
        return EXIT_OK
    for r in rows:
        q = "" if r["quick"] else "  [not in --quick]"
        print(f"{r['id']:<22} {r['location']}  ({r['method']}){q}")
        print(f"{'':<22} {r['statement']}")
    print(f"{len(rows)} check(s)")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    from theory.progress import Progress

    reg = registry()
    # before anything is loaded or printed
    jobs = args.jobs if args.jobs is not None else max(1, os.cpu_count() or 1)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    try:
        checks = reg.select_checks(paper=args.paper, claim=args.claim, quick=args.quick)
    except KeyError as exc:
        raise UsageError(exc.args[0] if exc.args else str(exc)) from exc
    except ImportError as exc:
        raise ComputationError(f"the checks cannot be loaded ({exc})") from exc
    if args.list:
        if args.report is not None:
            raise UsageError("--report writes the results of a run; it does not go with --list")
        return _list(checks, args)
    if args.report is not None:  # refused before hours of checks, not after
        from pathlib import Path

        report = Path(args.report)
        if report.exists() and not report.is_dir():
            raise UsageError(f"--report {args.report}: not a folder (the report is written "
                             f"as {args.report}/index.html)")
    if not args.json:
        note(f"running {len(checks)} check(s) ...")
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with stdout_to_stderr(args.json), Progress("verify", total=len(checks), unit="checks") as p:
        for r in reg.iter_results(checks, quick=args.quick, jobs=jobs):
            rows.append(r.as_dict())
            p.update(len(rows), note=f"{rows[-1]['id']} done")
    wall = time.perf_counter() - t0
    counts = Counter(r["verdict"] for r in rows)
    if args.report is not None:
        from proofs_checks.report import write_report

        command = "packsched verify" + "".join(
            f" --{k} {v}" for k, v in (("paper", args.paper), ("claim", args.claim)) if v) \
            + (" --quick" if args.quick else "")
        path = write_report(rows, args.report, run={"command": command, "jobs": jobs,
                                                   "wall seconds": round(wall, 1)})
        note(f"report written to {path}")
    if args.json:
        emit_json(rows)
    else:
        for line in _table(rows):
            print(line.rstrip())
        total = sum(r["seconds"] for r in rows)
        print(f"{len(rows)} check(s): {counts['holds']} holds, {counts['violated']} violated, "
              f"{counts['inconclusive']} inconclusive ({total:.1f} s of checks, "
              f"{wall:.1f} s wall, {jobs} job{'s' if jobs > 1 else ''})")
    return EXIT_VIOLATED if counts["violated"] else EXIT_OK
