"""``packsched policies``: the built-in policy names for ``--policy``."""

from __future__ import annotations

import argparse
from typing import Any

from packsched.errors import EXIT_OK
from packsched.output import emit_json

NAME = "policies"


def add_parser(sub: Any) -> None:
    p = sub.add_parser(NAME, help="list the registered scheduling policies",
                       description="List the built-in policies (names for --policy).")
    p.add_argument("--json", action="store_true",
                   help='print {"policies": [names], "details": [...]}')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from policies.registry import POLICIES

    rows = [{"name": i.name, "family": i.family, "description": i.description,
             "reference": i.reference, "parameters": i.parameters} for i in POLICIES.values()]
    if args.json:
        emit_json({"policies": [r["name"] for r in rows], "details": rows})
    else:
        # every column starts at the same offset: padded to its widest entry
        name_w = max((len(r["name"]) for r in rows), default=0)
        family_w = max((len(r["family"]) for r in rows), default=0)
        for r in rows:
            print(f"{r['name']:<{name_w}}  {r['family']:<{family_w}}  {r['description']} "
                  f"({r['reference']})")
    return EXIT_OK
