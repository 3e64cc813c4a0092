"""``packsched verify``: run the registered checks of the papers' claims (exit 1 if one
is violated) or list them; an unknown claim id or paper key is an error either way."""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from fractions import Fraction
from typing import Any

from packsched.errors import EXIT_OK, EXIT_VIOLATED, ComputationError, UsageError
from packsched.output import emit_json, fmt, note, stdout_to_stderr

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
    v.add_argument("--json", action="store_true",
                   help="print a JSON list of {id, paper, location, statement, method, "
                        "verdict, evidence, seconds}")
    v.set_defaults(func=run)


def registry() -> Any:
    try:
        from proofs_checks import registry
    except ImportError as exc:
        raise ComputationError(f"the check catalogue cannot be imported ({type(exc).__name__}: "
                               f"{exc})") from exc
    return registry


def _short(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int | float | Fraction):
        return fmt(v, 6)
    if isinstance(v, str):
        return v if len(v) <= 30 else v[:27] + "..."
    if isinstance(v, dict):
        return "{" + f"{len(v)} keys" + "}"
    try:
        n = len(v)
    except TypeError:
        return _short(str(v))
    if n <= 3:
        return "[" + ", ".join(_short(x) for x in v) + "]"
    return f"[{n} items]"


def _evidence_line(evidence: dict[str, Any], width: int = 70) -> str:
    if "error" in evidence:
        text = f"error: {evidence['error']}"
    else:
        text = ", ".join(f"{k}={_short(v)}" for k, v in evidence.items() if k != "traceback")
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


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
        return _list(checks, args)
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
    if args.json:
        emit_json(rows)
    else:
        width = max([len(r["id"]) for r in rows] + [5])
        print(f"{'claim':<{width}}  {'verdict':<12} {'seconds':>8}  evidence")
        for r in rows:
            print(f"{r['id']:<{width}}  {r['verdict']:<12} {r['seconds']:>8.2f}  "
                  f"{_evidence_line(r['evidence'])}")
        total = sum(r["seconds"] for r in rows)
        print(f"{len(rows)} check(s): {counts['holds']} holds, {counts['violated']} violated, "
              f"{counts['inconclusive']} inconclusive ({total:.1f} s of checks, "
              f"{wall:.1f} s wall, {jobs} job{'s' if jobs > 1 else ''})")
    return EXIT_VIOLATED if counts["violated"] else EXIT_OK
