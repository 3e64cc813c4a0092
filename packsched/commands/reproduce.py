"""``packsched reproduce``: a paper's figure through the sweep runner and its store,
written as PNG, SVG and the CSV behind it, with its headline statements decided from
that CSV (:mod:`proofs_checks.figures`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from packsched.arguments import add_executor_arguments
from packsched.errors import EXIT_OK, EXIT_VIOLATED, ComputationError, UsageError
from packsched.output import emit_json, note

NAME = "reproduce"
#: the exit status of an interrupted command (128 + SIGINT), as packsched.cli gives it
EXIT_INTERRUPTED = 130


def add_parser(sub: Any) -> None:

    p = sub.add_parser(
        NAME, help="redraw a figure of the papers (PNG, SVG and the CSV behind it)",
        description="Run a figure's sweep into a store (DIR/FIGURE.SCALE.sqlite, resumed "
                    "after a stop), write DIR/FIGURE.SCALE.png, .svg, .csv and .json, and "
                    "decide the figure's headline statements from the CSV. Exit status 1 "
                    "when a headline is not borne out, 3 when runs failed (the next call "
                    "runs them again), 130 when interrupted (the next call resumes).",
        epilog="examples:\n  packsched reproduce --list\n"
               "  packsched reproduce pg21-fig3a --out figs\n"
               "  packsched reproduce pg21-fig4 --scale paper --executor processes --out figs\n"
               "  packsched reproduce all --out figs",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("figures", nargs="*", metavar="FIGURE",
                   help="figure keys (packsched reproduce --list), or all")
    p.add_argument("--list", action="store_true",
                   help="list every figure: what it shows and its paper-scale cost")
    p.add_argument("--scale", choices=("quick", "paper"), default="quick",
                   help="quick (default: minutes for all, as CI runs them) or paper (the "
                        "papers' settings)")
    p.add_argument("--out", metavar="DIR", help="output folder (created)")
    add_executor_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _listing(figures: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"figure": k, "title": f.title, "shows": f.shows,
             "paper_cost": f.paper_cost or None, "unavailable": f.unavailable}
            for k, f in figures.items()]


def run(args: argparse.Namespace) -> int:
    from policies.sweep_store import SweepInterrupted
    from proofs_checks.figures import FIGURES, FigureError, FigureRunsFailed, figure

    if args.list:
        if args.figures:
            raise UsageError("--list takes no FIGURE")
        rows = _listing(FIGURES)
        if args.json:
            emit_json({"figures": rows})
            return EXIT_OK
        width = max(len(r["figure"]) for r in rows)
        for r in rows:
            tail = (f"not reproducible here: {r['unavailable']}" if r["unavailable"]
                    else f"paper scale: {r['paper_cost']}")
            print(f"{r['figure']:<{width}}  {r['title']}: {r['shows']}\n"
                  f"{'':<{width}}  {tail}")
        return EXIT_OK
    if not args.figures:
        raise UsageError("name a FIGURE (packsched reproduce --list shows them) or all")
    if args.out is None:
        raise UsageError("--out DIR is required: the folder the figure is written to")
    try:
        keys = [k for k, f in FIGURES.items() if not f.unavailable] \
            if args.figures == ["all"] else [figure(k).key for k in args.figures]
        for key in keys:  # refuse a figure that cannot be drawn before anything runs
            if FIGURES[key].unavailable:
                figure_error = f"{key} ({FIGURES[key].title}) cannot be reproduced here: "
                raise FigureError(figure_error + str(FIGURES[key].unavailable))
        from policies.executors import check_executor

        check_executor(args.executor, args.workers, args.scheduler)
        reports = [_one(key, args) for key in keys]
    except FigureError as e:
        raise UsageError(str(e)) from None
    except FigureRunsFailed as e:
        raise ComputationError(str(e)) from None
    except ImportError as e:  # the figures extra is not installed
        raise UsageError(str(e)) from None
    except ConnectionError as e:
        raise UsageError(str(e)) from None
    except SweepInterrupted as e:  # the workers are stopped, the finished runs kept
        note(f"interrupted: {e}; the same command runs the rest")
        return EXIT_INTERRUPTED
    if args.json:
        emit_json({"figures": reports})
    holds = all(r["holds"] for r in reports)
    if not holds:
        note("a headline statement is not borne out by its figure's CSV (listed above)")
    return EXIT_OK if holds else EXIT_VIOLATED


def _one(key: str, args: argparse.Namespace) -> dict[str, Any]:
    from tqdm import tqdm

    from packsched.commands.sweep import progress_off
    from proofs_checks.figures import reproduce

    # on stderr, on a terminal only, and not under PACKSCHED_PROGRESS=0
    bar = tqdm(unit="run", desc=f"reproduce {key}", file=sys.stderr,
               disable=progress_off(), dynamic_ncols=True)

    def progress(done: int, total: int, failed: int) -> None:
        bar.total, bar.n = total, done
        bar.set_postfix_str(f"{failed} failed" if failed else "", refresh=False)
        bar.refresh()

    try:
        r = reproduce(key, scale=args.scale, out=args.out, executor=args.executor,
                      workers=args.workers, scheduler=args.scheduler, progress=progress)
    finally:
        bar.close()
    report = {"figure": key, "title": r.figure.title, "scale": r.scale, "holds": r.holds,
              "headlines": [{"statement": h.statement, "holds": h.holds,
                             "measured": h.measured} for h in r.headlines],
              "runs": r.runs, "seconds": r.seconds,
              "files": {k: str(v) for k, v in r.files.items()}}
    if not args.json:
        print(f"{key}  {r.figure.title} at {r.scale} scale: {r.runs['runs']} run(s), "
              f"{r.runs['done_before']} in the store before; {r.seconds:.1f} s")
        for h in r.headlines:
            print(f"  {'holds' if h.holds else 'FAILS'}  {h.statement} ({h.measured})")
        print(f"  wrote {r.files['png']}, .svg, .csv, .json; store {r.files['store']}")
    return report
