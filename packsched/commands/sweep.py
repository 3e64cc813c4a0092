"""``packsched sweep``: a ``simulate`` or ``schedule`` command line over a grid, into a
store that survives a kill (:mod:`packsched.sweep_runner`, :mod:`policies.sweep_store`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from packsched.arguments import add_executor_arguments, integer
from packsched.errors import EXIT_FAILED, EXIT_OK, UsageError
from packsched.output import emit_json, note

NAME = "sweep"
#: the exit status of an interrupted command (128 + SIGINT), as packsched.cli gives it
EXIT_INTERRUPTED = 130


def add_parser(sub: Any) -> None:
    from packsched.sweep_runner import MAX_POINTS

    p = sub.add_parser(
        NAME, help="run simulate or schedule over a grid into a results store",
        description="Run the command line a TOML spec describes over the product of its "
                    "lists and its replications, writing one row per run into an SQLite "
                    "store as it finishes; run again after a stop, it runs only what has "
                    "no row and the runs that failed. Exit status 3 when the store holds a "
                    "failed run (its error is in the store), 130 when interrupted.")
    p.add_argument("spec", metavar="SPEC.toml", help="the sweep spec")
    p.add_argument("--store", required=True, metavar="PATH",
                   help="the SQLite store (created, or resumed when made from this spec)")
    add_executor_arguments(p)
    p.add_argument("--max-points", type=integer(1), default=MAX_POINTS, metavar="N",
                   help=f"refuse a spec of more runs (default {MAX_POINTS:,})")
    p.add_argument("--json", action="store_true",
                   help="print {runs, done_before, failed_before, ran, failed, store}")
    p.set_defaults(func=run)


def progress_off() -> bool | None:
    """tqdm's ``disable``: True under ``PACKSCHED_PROGRESS=0`` (as every progress reporter
    of the package, :mod:`theory.progress`), else None: a bar on a terminal only."""
    return True if os.environ.get("PACKSCHED_PROGRESS", "1") == "0" else None


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from packsched.sweep_runner import read_spec, run_sweep
    from policies.sweep_store import StoreError, SweepInterrupted

    spec = read_spec(args.spec, max_points=args.max_points)
    # on stderr, and only on a terminal (disable=None): runs done, failures, time left
    bar = tqdm(total=spec.runs, unit="run", desc=f"sweep {args.spec}", file=sys.stderr,
               disable=progress_off(), dynamic_ncols=True)

    def progress(done: int, total: int, failed: int) -> None:
        bar.n = done
        bar.set_postfix_str(f"{failed} failed" if failed else "", refresh=False)
        bar.refresh()

    def notice(line: str) -> None:  # above the bar, not through it
        if sys.stderr is not None:
            bar.write(f"packsched: {line}", file=sys.stderr)

    try:
        out = run_sweep(spec, args.store, executor=args.executor, workers=args.workers,
                        scheduler=args.scheduler, progress=progress, notice=notice)
    except StoreError as e:
        raise UsageError(str(e)) from None
    except ConnectionError as e:
        raise UsageError(str(e)) from None
    except SweepInterrupted as e:  # the workers are stopped, the finished runs kept
        bar.close()
        note(f"interrupted: {e}; the same command runs the rest")
        return EXIT_INTERRUPTED
    finally:
        bar.close()
    if args.json:
        emit_json(out)
    else:
        print(f"{out['runs']} run(s): {out['done_before']} in the store before, "
              f"{out['ran']} run now, {out['failed']} failed; store {out['store']}")
    if out["failed"]:
        note(f"{out['failed']} of {out['runs']} run(s) in the store failed: their errors "
             f"are in the store's error column, and the next call runs them again")
        return EXIT_FAILED
    return EXIT_OK
