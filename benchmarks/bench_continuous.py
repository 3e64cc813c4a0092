#!/usr/bin/env python
"""The slotted simulator on continuous size laws (issue 14): the targets grid.

Run from the repository root::

    python benchmarks/bench_continuous.py                       # 60 cases, 1M jobs each
    python benchmarks/bench_continuous.py --policies bfjs,bfj --servers 1000 --repeats 3
    python benchmarks/bench_continuous.py --jobs 100000 --json out.json

Every case is a PG21 Sec. VII-A workload (``policies.pg21_workload``): Poisson arrivals
at traffic intensity alpha (rho = alpha L / R-bar), sizes Uniform(0.1, 0.9) or
Uniform(0.01, 0.19), geometric service with mu = 0.01, unit servers; the horizon holds
``--jobs`` expected arrivals. ``e2e`` is the wall time of ``policies.simulate(...)``
with its invariant check (input preparation, rank compression, kernel, checker);
``kernel`` is ``SimulationResult.seconds``. Medians over ``--repeats``; the kernels
are compiled (or loaded from numba's cache) before any timing.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from benchmarks.timing import summary  # noqa: E402

TARGET_S = 2.0
LAWS = {"wide": ("0.1", "0.9"), "small": ("0.01", "0.19")}
POLICY_NAMES = {"bfjs": "BF-J/S", "vqsbf": "VQS-BF", "fifoff": "FIFO-FF", "bfj": "BF-J",
                "bfs": "BF-S"}
MEAN_SERVICE = 100.0  # mu = 0.01


def workload(law: str, servers: int, intensity: float, jobs: int, seed: int) -> Any:
    import policies as P
    from policies.workload import arrival_rate_for
    from theory.distributions import Uniform

    dist = Uniform(*LAWS[law])
    rate = arrival_rate_for(dist, servers=servers, mean_service=MEAN_SERVICE,
                            intensity=intensity)
    return P.pg21_workload(dist, servers=servers, slots=int(jobs / rate) + 1,
                           mu=1 / MEAN_SERVICE, intensity=intensity, seed=seed)


def policy(name: str) -> Any:
    import policies as P

    return {"bfjs": P.BFJS, "vqsbf": P.VQSBF, "fifoff": P.FIFOFF, "bfj": P.BFJ,
            "bfs": P.BFS}[name]()


def run_case(name: str, law: str, servers: int, intensity: float, jobs: int,
             repeats: int, seed: int) -> dict[str, Any]:
    import policies as P

    w = workload(law, servers, intensity, jobs, seed)
    cluster = P.Cluster.identical(servers)
    e2e, kernel = [], []
    res = None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        res = P.simulate(policy(name), w, cluster, check=True)
        e2e.append(time.perf_counter() - t0)
        kernel.append(res.seconds)
    assert res is not None
    return {"policy": POLICY_NAMES[name], "law": "U({}, {})".format(*LAWS[law]), "servers": servers,
            "intensity": intensity, "jobs": int(w.arrival.shape[0]),
            "slots": int(res.queue_length.shape[0]),
            "max_queue": int(res.queue_length.max()),
            "e2e": summary(e2e), "kernel": summary(kernel),
            "met": summary(e2e)["median_s"] <= TARGET_S}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default=",".join(POLICY_NAMES))
    ap.add_argument("--laws", default="wide,small")
    ap.add_argument("--servers", default="1000,100,5")
    ap.add_argument("--intensities", default="0.45,0.9,1.1")
    ap.add_argument("--jobs", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    names = args.policies.split(",")
    for n in names:
        if n not in POLICY_NAMES:
            ap.error(f"unknown policy {n!r}; choose from {', '.join(POLICY_NAMES)}")
    laws = args.laws.split(",")
    for law in laws:
        if law not in LAWS:
            ap.error(f"unknown law {law!r}; choose from {', '.join(LAWS)}")
    try:
        servers = [int(x) for x in args.servers.split(",")]
        intensities = [float(x) for x in args.intensities.split(",")]
    except ValueError as exc:
        ap.error(f"--servers takes integers and --intensities numbers ({exc})")
    if min(servers) < 1 or not all(0 < a < 10 for a in intensities):
        ap.error("servers must be >= 1 and intensities in (0, 10)")
    if args.jobs < 1 or args.repeats < 1:
        ap.error("--jobs and --repeats must be >= 1")
    for n in names:  # compile (or load) every kernel before timing
        run_case(n, "wide", 5, 0.5, 2_000, 1, args.seed)
    rows = []
    print("| policy | law | servers | intensity | max queue | e2e (s) | kernel (s) | <= 2 s |")
    print("|---|---|---|---|---|---|---|---|")
    for n in names:
        for law in laws:
            for L in servers:
                for a in intensities:
                    r = run_case(n, law, L, a, args.jobs, args.repeats, args.seed)
                    rows.append(r)
                    print(f"| {r['policy']} | {r['law']} | {L} | {a} | {r['max_queue']:,} | "
                          f"{r['e2e']['median_s']:.2f} | {r['kernel']['median_s']:.2f} | "
                          f"{'yes' if r['met'] else 'no'} |", flush=True)
    met = sum(r["met"] for r in rows)
    print(f"{met} of {len(rows)} cases within {TARGET_S:g} s end to end")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)},
                                         "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
