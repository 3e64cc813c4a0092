#!/usr/bin/env python
"""Benchmarks of FL24's non-preemptive schedulers on the Azure-like workload.

Run from the repository root::

    python benchmarks/bench_fl24.py                                  # full run (~10 min)
    python benchmarks/bench_fl24.py --quick                          # ~1 min
    python benchmarks/bench_fl24.py --out benchmarks/results/fl24-2core.json
    python benchmarks/bench_fl24.py --sections scale --policies mris

Workload: ``theory.readers.azure.azure2017_job_set`` on M = 20 unit machines, R = 2
(cores, memory). Up to the trace's 631,807 usable VMs a size N is the paper's
downsampling (every f-th VM by release, FL24 Sec. 7.1); above it, ``resample=True``
draws N VMs with replacement (flavour, lifetime and 300-s bin together), which is how
the paper's full 4,096,000-job scale is reached from the smaller 2017 trace.

Sections:

``policies``
    Every FL24 policy (``packsched policies`` family fl24-nonpreemptive) at N = 8,000,
    16,000, 32,000 and 64,000 (quick: 8,000 and 16,000) on the default engine, and the
    plain-Python engine (``engine="python"``) at 8,000 as the baseline measured in the
    same run: the ratio Python / default. Target: MRIS at 64,000 in <= 10 s.
``scale``
    MRIS (and ``--scale-policies``) at N = 256,000, 1,024,000 and 4,096,000 (quick:
    256,000), each in a fresh subprocess that reports its peak RSS (``ru_maxrss``).
    Target: MRIS at 4,096,000 in <= 10 min.

Each time is the median of ``--repeats`` calls of ``run_nonpreemptive`` (invariants
re-checked: the whole call), after a warm-up call at N = 2,000 that loads the numba
cache; building the job set is timed apart. The exponent of time in N is a
least-squares fit on log-log over the sizes run.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TRACE_VMS = 631_807  # usable VMs of the packaged trace with the default rules
POLICY_SIZES = (8_000, 16_000, 32_000, 64_000)
QUICK_POLICY_SIZES = (8_000, 16_000)
SCALE_SIZES = (256_000, 1_024_000, 4_096_000)
QUICK_SCALE_SIZES = (256_000,)
BASELINE_SIZE = 8_000


def job_set(n: int) -> Any:
    from theory.readers.azure import azure2017_job_set

    return azure2017_job_set(jobs=n, resample=n > TRACE_VMS)


def time_policy(policy: str, n: int, repeats: int, engine: str = "auto",
                machines: int = 20) -> dict[str, Any]:
    import policies as P
    from theory import Machines

    t0 = time.perf_counter()
    jobs = job_set(n)
    build = time.perf_counter() - t0
    mach = Machines(np.ones((machines, jobs.resources)))
    P.run_nonpreemptive(P.make_policy(policy), job_set(2000), mach, engine=engine)  # warm-up
    walls, cpus, res = [], [], None
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        res = P.run_nonpreemptive(P.make_policy(policy), jobs, mach, engine=engine)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    assert res is not None
    wall = statistics.median(walls)
    row = {"policy": policy, "jobs": n, "machines": machines,
           "sampling": "resampled" if n > TRACE_VMS else "downsampled",
           "engine": res.params["engine"], "seconds": wall, "all_seconds": walls,
           "cpu_seconds": statistics.median(cpus), "build_seconds": build,
           "jobs_per_second": n / wall, "awct": res.awct, "makespan": res.makespan,
           "invariants_ok": res.invariants_ok}
    if not res.invariants_ok:
        row["error"] = f"invariants: {res.invariants}"
    return row


def isolated(policy: str, n: int, repeats: int) -> dict[str, Any]:
    """:func:`time_policy` in a fresh interpreter, with its peak RSS."""
    code = (f"import json, resource, sys; sys.path.insert(0, {str(ROOT)!r}); "
            "from benchmarks.bench_fl24 import time_policy; "
            f"r = time_policy({policy!r}, {n}, {repeats}); "
            "r['peak_rss_mib'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024; "
            "print(json.dumps(r))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT)
    if out.returncode != 0:
        return {"policy": policy, "jobs": n, "error": out.stderr.strip()[-400:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def growth(rows: list[dict[str, Any]], policy: str) -> float | None:
    ok = sorted((r["jobs"], r["seconds"]) for r in rows
                if r["policy"] == policy and "error" not in r and r.get("engine") != "python")
    if len(ok) < 2:
        return None
    x, y = np.log([n for n, _ in ok]), np.log([s for _, s in ok])
    return float(np.polyfit(x, y, 1)[0])


def show(r: dict[str, Any]) -> None:
    if "error" in r:
        print(f"  {r['policy']:12s} N={r['jobs']:>9,}  {r['error'][:100]}", flush=True)
        return
    rss = f"  peak RSS {r['peak_rss_mib']:,.0f} MiB" if "peak_rss_mib" in r else ""
    print(f"  {r['policy']:12s} N={r['jobs']:>9,} {r['engine']:>8s} {r['seconds']:9.3f} s "
          f"{r['jobs_per_second']:>12,.0f} jobs/s  AWCT {r['awct']:<12.6g}{rss}", flush=True)


def main(argv: list[str] | None = None) -> int:
    from policies.registry import policies_of

    every = list(policies_of("fl24-nonpreemptive"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sections", default="policies,scale")
    ap.add_argument("--policies", default=",".join(every))
    ap.add_argument("--scale-policies", default="mris,mris-split,ca-pq,pq-wsjf")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", metavar="PATH")
    args = ap.parse_args(argv)
    sections = args.sections.split(",")
    pols = args.policies.split(",")
    rows: list[dict[str, Any]] = []
    print(f"FL24 schedulers on the Azure-like workload, M = 20, R = 2; python "
          f"{platform.python_version()}, median of {args.repeats}")
    if "policies" in sections:
        sizes = QUICK_POLICY_SIZES if args.quick else POLICY_SIZES
        for pol in pols:
            for n in sizes:
                rows.append(time_policy(pol, n, args.repeats))
                show(rows[-1])
            base = time_policy(pol, BASELINE_SIZE, 1, engine="python")
            rows.append(base)
            show(base)
            fast = next(r for r in rows if r["policy"] == pol and r["jobs"] == BASELINE_SIZE
                        and r["engine"] != "python")
            base["speedup_of_default_engine"] = base["seconds"] / fast["seconds"]
            print(f"    default engine {base['speedup_of_default_engine']:,.0f}x the "
                  f"Python engine at N = {BASELINE_SIZE:,}; same AWCT: "
                  f"{base['awct'] == fast['awct']}")
    if "scale" in sections:
        for pol in args.scale_policies.split(","):
            for n in QUICK_SCALE_SIZES if args.quick else SCALE_SIZES:
                rows.append(isolated(pol, n, 1 if n > 1_500_000 else args.repeats))
                show(rows[-1])
    exps = {p: g for p in dict.fromkeys(r["policy"] for r in rows)
            if (g := growth(rows, p)) is not None}
    for p, g in exps.items():
        print(f"  {p}: time ~ N^{g:.2f}")
    targets = {}
    for label, n, limit in (("mris_64k_s", 64_000, 10.0), ("mris_4096k_s", 4_096_000, 600.0)):
        hit = [r for r in rows if r["policy"] == "mris" and r["jobs"] == n and "error" not in r]
        if hit:
            targets[label] = {"seconds": hit[0]["seconds"], "limit": limit,
                              "met": hit[0]["seconds"] <= limit}
            print(f"  target MRIS at N = {n:,}: {hit[0]['seconds']:.2f} s <= {limit:g} s: "
                  f"{'met' if targets[label]['met'] else 'NOT met'}")
    if args.out:
        Path(args.out).write_text(json.dumps(
            {"machine": {"python": platform.python_version(), "cpus": 2,
                         "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                         / 1024},
             "rows": rows, "growth_exponent": exps, "targets": targets}, indent=1,
            default=lambda o: None if isinstance(o, float) and not math.isfinite(o) else str(o)))
        print(f"wrote {args.out}")
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
