"""A figure reproduced at the papers' scale: its wall time here and the time per run, so a
reader can size a cluster for the whole set (issue 41: PG21 Fig. 4 at the paper's
horizon). The runs' seconds come from the figure's store; the projection divides their
sum by the workers a cluster would give (chunked tasks make Dask's per-run cost small
next to runs of seconds).

    python benchmarks/bench_reproduce.py pg21-fig4 --scale paper --executor processes \
        --workers 2 --json benchmarks/results/reproduce-pg21-fig4-paper.json
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("figure", nargs="?", default="pg21-fig4")
    ap.add_argument("--scale", choices=("quick", "paper"), default="paper")
    ap.add_argument("--executor", default="processes")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="keep the figure and its store here (default: a temp dir)")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args(argv)
    from proofs_checks.figures import reproduce

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        t0 = time.perf_counter()
        r = reproduce(args.figure, scale=args.scale, out=out, executor=args.executor,
                      workers=None if args.executor == "serial" else args.workers)
        wall = time.perf_counter() - t0
        db = sqlite3.connect(r.files["store"])
        seconds = [s for (s,) in db.execute("SELECT seconds FROM runs")]
        db.close()
    total = sum(seconds)
    res = {"figure": args.figure, "scale": args.scale, "executor": args.executor,
           "workers": args.workers, "runs": len(seconds), "ran_now": r.runs["ran"],
           "wall_s": wall, "run_seconds_total": total,
           "run_seconds_median": statistics.median(seconds), "run_seconds_max": max(seconds),
           "parallel_efficiency": total / (wall * args.workers) if r.runs["ran"] else None,
           # W workers cannot beat the longest run
           "projected_wall_s": {str(w): max(total / w, max(seconds)) for w in (1, 2, 8, 32)},
           "headlines": [{"statement": h.statement, "holds": h.holds, "measured": h.measured}
                         for h in r.headlines], "params": r.params}
    print(f"{args.figure} at {args.scale} scale, {args.executor} x {args.workers}: "
          f"{len(seconds)} runs in {wall:.1f} s wall; per run median "
          f"{res['run_seconds_median']:.2f} s, max {res['run_seconds_max']:.2f} s, "
          f"total {total:.1f} s of run time")
    print("projected wall on W workers (run time / W, at least the longest run): " + ", ".join(
        f"{w}: {v:.0f} s" for w, v in res["projected_wall_s"].items()))
    for h in r.headlines:
        print(f"  {'holds' if h.holds else 'FAILS'}  {h.statement} ({h.measured})")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1) + "\n")
    return 0 if r.holds else 1


if __name__ == "__main__":
    raise SystemExit(main())
