"""``packsched errata``: the places where a paper's printed statement is wrong."""

from __future__ import annotations

import argparse
import json
from typing import Any

from packsched.errors import EXIT_OK, ComputationError
from packsched.output import emit_json, plain

NAME = "errata"


def add_parser(sub: Any) -> None:
    e = sub.add_parser(NAME, help="print the errata register",
                       description="Where a paper's literal statement is wrong: the statement, "
                                   "the corrected one and a separating instance.")
    e.add_argument("--json", action="store_true", help="print a JSON list")
    e.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from proofs_checks.errata import ERRATA
    except ImportError as exc:
        raise ComputationError(f"the errata register cannot be imported ({exc})") from exc
    rows = [plain(e) for e in ERRATA]
    if args.json:
        emit_json(rows)
        return EXIT_OK
    for i, r in enumerate(rows, 1):
        head = r.get("id") or r.get("claim") or f"erratum {i}"
        print(f"[{i}] {head}")
        for k, v in r.items():
            if v is None or (k == "id" and v == head):
                continue
            print(f"    {k}: {json.dumps(v) if isinstance(v, dict | list) else v}")
    print(f"{len(rows)} erratum/errata in the register")
    return EXIT_OK
