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
from packsched.output import emit_json, note, stdout_to_stderr

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


def _num(v: Any) -> str:
    """A number of the evidence as the table shows it: integers as integers, floats to six
    significant digits, Fractions (``"p/q"`` in the JSON rows) as p/q, sequences in
    parentheses; never cut."""
    if isinstance(v, bool) or v is None or isinstance(v, int | Fraction):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, list | tuple):
        return "(" + ", ".join(_num(x) for x in v) + ")"
    if isinstance(v, dict):
        return ", ".join(f"{k}={_num(x)}" for k, x in v.items())
    return str(v)


def _interval(v: Any) -> str:
    return "[" + ", ".join(_num(x) for x in v) + "]" if isinstance(v, list | tuple) else _num(v)


def _comparison(row: dict[str, Any]) -> str:
    """``measured <relation> bound`` of a result row, e.g. ``0.4999 <= 0.5``, ``2 == 2``,
    ``0.93 in [0.9, 0.95]``; ``(no bound)`` or ``(error)`` without one."""
    if "error" in (row.get("details") or {}):
        return "(error)"
    rel, bound = row.get("relation"), row.get("bound")
    if bound is None or rel is None:
        return "(no bound)"
    m = row.get("measured")
    lhs = _interval(m) if rel in ("contains", "overlaps") else _num(m)
    rhs = _interval(bound) if rel in ("in", "overlaps") else _num(bound)
    return f"{lhs} {rel} {rhs}"


def _note(row: dict[str, Any]) -> str:
    """What the numbers are (the quantity), the reason there is no bound, or the error."""
    details = row.get("details") or {}
    if "error" in details:
        return f"error: {details['error']}"
    text = row.get("quantity") or ""
    if row.get("bound") is None and details.get("no_bound"):
        text = details["no_bound"]
    return " ".join(str(text).split())


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
    comps = [_comparison(r) for r in rows]
    cw = min(max([len(c) for c in comps] + [17]), 30)
    lines = [f"{'claim':<{width}}  {'verdict':<12} {'seconds':>8}  "
             f"{'measured vs bound':<{cw}}  seed; quantity"]
    for r, comp in zip(rows, comps, strict=True):
        head = f"{r['id']:<{width}}  {r['verdict']:<12} {r['seconds']:>8.2f}  {comp:<{cw}}  "
        if r.get("seed") is not None:
            head += f"seed {_num(r['seed'])}; "
        lines.append(head + _shorten(_note(r), TABLE_WIDTH - len(head)))
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
        for line in _table(rows):
            print(line.rstrip())
        total = sum(r["seconds"] for r in rows)
        print(f"{len(rows)} check(s): {counts['holds']} holds, {counts['violated']} violated, "
              f"{counts['inconclusive']} inconclusive ({total:.1f} s of checks, "
              f"{wall:.1f} s wall, {jobs} job{'s' if jobs > 1 else ''})")
    return EXIT_VIOLATED if counts["violated"] else EXIT_OK
