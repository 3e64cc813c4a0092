"""Benchmarks of FL24's non-preemptive schedulers on the Azure-like workload.

Times MRIS and the baselines (PQ-WSJF, TETRIS, BF-EXEC, CA-PQ) on M = 20 machines as the
number of jobs N grows (FL24 Sec. 7.1 downsampling of ``theory.azure_job_sets``), reports
seconds (median of ``--repeats``), jobs per second, AWCT, and the growth exponent of time
in N (least squares on log-log). Targets of issue 11: MRIS at 64,000 jobs in <= 10 s and
at 4,096,000 in <= 10 min.

    python benchmarks/bench_fl24.py                       # N = 2k, 4k, 8k, 16k
    python benchmarks/bench_fl24.py --jobs 2000,64000 --policies mris,mris-split
    python benchmarks/bench_fl24.py --out benchmarks/results/fl24-2core.json
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_POLICIES = "mris,mris-split,pq-wsjf,tetris,bf-exec,ca-pq"


def run(policy: str, n: int, machines: int, repeats: int) -> dict[str, Any]:
    import policies as P
    from theory import Machines
    from theory.azure_job_sets import azure2017_job_set

    jobs = azure2017_job_set(jobs=n)
    mach = Machines(np.ones((machines, jobs.resources)))
    walls, res = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = P.run_nonpreemptive(P.make_policy(policy), jobs, mach)
        walls.append(time.perf_counter() - t0)
    assert res is not None and res.invariants_ok, res
    wall = statistics.median(walls)
    return {"policy": policy, "jobs": n, "machines": machines, "seconds": wall,
            "all_seconds": walls, "jobs_per_second": n / wall, "awct": res.awct,
            "makespan": res.makespan}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", default="2000,4000,8000,16000")
    ap.add_argument("--policies", default=DEFAULT_POLICIES)
    ap.add_argument("--machines", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--out", metavar="PATH")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.jobs.split(",")]
    rows = []
    print(f"FL24 schedulers on the Azure-like workload, M = {args.machines}; python "
          f"{platform.python_version()}")
    for pol in args.policies.split(","):
        for n in sizes:
            try:
                r = run(pol, n, args.machines, args.repeats)
            except Exception as e:  # a refusal (budget) is a result too
                r = {"policy": pol, "jobs": n, "error": f"{type(e).__name__}: {e}"}
            rows.append(r)
            if "error" in r:
                print(f"  {pol:12s} N={n:>9,}  {r['error'][:90]}", flush=True)
            else:
                print(f"  {pol:12s} N={n:>9,}  {r['seconds']:8.2f} s  "
                      f"{r['jobs_per_second']:>10,.0f} jobs/s  AWCT {r['awct']:.6g}",
                      flush=True)
    growth = {}
    for pol in args.policies.split(","):
        ok = [r for r in rows if r["policy"] == pol and "error" not in r]
        if len(ok) >= 2:
            x = np.log([r["jobs"] for r in ok])
            y = np.log([r["seconds"] for r in ok])
            growth[pol] = float(np.polyfit(x, y, 1)[0])
            print(f"  {pol}: time ~ N^{growth[pol]:.2f}")
    if args.out:
        Path(args.out).write_text(json.dumps({"rows": rows, "growth_exponent": growth},
                                             indent=1, default=lambda o: str(o)
                                             if not isinstance(o, float) or math.isfinite(o)
                                             else None))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
