#!/usr/bin/env python
"""The slotted simulator on continuous size laws (issue 14): the targets grid.

Run from the repository root::

    python benchmarks/bench_continuous.py                       # 60 cases, 1M jobs each
    python benchmarks/bench_continuous.py --policies bfjs,bfj --servers 1000 --repeats 3
    python benchmarks/bench_continuous.py --jobs 100000 --json out.json
    python benchmarks/bench_continuous.py --simpy-jobs 0          # no SimPy comparison

Every case is a PG21 Sec. VII-A workload (``policies.pg21_workload``): Poisson arrivals
at traffic intensity alpha (rho = alpha L / R-bar), sizes Uniform(0.1, 0.9) or
Uniform(0.01, 0.19), geometric service with mu = 0.01, unit servers; the horizon holds
``--jobs`` expected arrivals. ``e2e`` is the wall time of ``policies.simulate(...)``
with its invariant check (input preparation, kernel, checker);
``kernel`` is ``SimulationResult.seconds``. Medians over ``--repeats``; the kernels
are compiled (or loaded from numba's cache) before any timing. ``--split`` also times
each call without the check: ``checker`` = median e2e - median unchecked e2e, ``rest``
= median unchecked e2e - median kernel (inputs, state, result).

SimPy baseline and oracle (``--simpy-jobs N``, default 20,000; 0 disables). For every
case the same case truncated to about min(N, ``--jobs``) jobs (same law, servers,
intensity and seed; horizon ``int(N / rate) + 1`` slots) is run by the hand-written
SimPy model of ``benchmarks/baseline_slotted.py`` (``--simpy-repeats`` times, each
call capped at ``--simpy-cap`` s: a case over the cap is reported as skipped) and by
``policies.simulate`` (median of max(``--repeats``, 3), e2e with the invariant check). The two
must give identical ``queue_length``, ``start`` and ``server`` arrays and
``queued_resource`` within 1e-9; a mismatch is reported on stderr and makes the exit
code 1. Extra columns: ``SimPy (s)`` and ``ours same (s)`` on the truncated case and
their ratio ``SimPy/ours``; ``SimPy jobs/s`` (truncated case) against ``ours jobs/s``
at the full size (``--jobs``) and that ``jobs/s ratio``; ``>= 30x`` judges the
same-case ratio SimPy/ours (issue 14's target).
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

from benchmarks.timing import CaseTimeout, summary, time_limit  # noqa: E402

TARGET_S = 2.0
TARGET_SPEEDUP = 30.0  # over the SimPy model, on the same truncated case
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
             repeats: int, seed: int, split: bool = False) -> dict[str, Any]:
    """Time ``simulate`` with its check; with ``split`` also without it, which gives the
    checker's share (median with - median without) and the rest (inputs, result)."""
    import policies as P

    w = workload(law, servers, intensity, jobs, seed)
    cluster = P.Cluster.identical(servers)
    e2e, kernel, bare = [], [], []
    res = None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        res = P.simulate(policy(name), w, cluster, check=True)
        e2e.append(time.perf_counter() - t0)
        kernel.append(res.seconds)
        if split:  # like the checked calls, while the last result is still held
            gc.collect()
            t0 = time.perf_counter()
            res = P.simulate(policy(name), w, cluster, check=False)
            bare.append(time.perf_counter() - t0)
    assert res is not None
    rec = {"policy": POLICY_NAMES[name], "law": "U({}, {})".format(*LAWS[law]),
           "servers": servers, "intensity": intensity, "jobs": int(w.arrival.shape[0]),
           "slots": res.slots, "max_queue": int(res.queue_length_steps.max()),
           "e2e": summary(e2e), "kernel": summary(kernel),
           "met": summary(e2e)["median_s"] <= TARGET_S}
    if split:
        rec["unchecked"] = summary(bare)
        rec["checker_s"] = rec["e2e"]["median_s"] - rec["unchecked"]["median_s"]
        rec["rest_s"] = rec["unchecked"]["median_s"] - rec["kernel"]["median_s"]
    return rec


def simpy_case(name: str, law: str, servers: int, intensity: float, jobs: int, repeats: int,
               simpy_repeats: int, cap: float, seed: int, full: dict[str, Any]) -> dict[str, Any]:
    """The case truncated to about ``jobs`` jobs, run by the SimPy model and by
    ``policies.simulate``: times, ratios, and whether the trajectories are identical."""
    import numpy as np

    import policies as P
    from benchmarks.baseline_slotted import simulate_simpy

    w = workload(law, servers, intensity, jobs, seed)
    slots = int(w.horizon)
    caps = np.ones(servers)
    out: dict[str, Any] | None = None
    simpy_s: list[float] = []
    note: str | None = None
    for _ in range(simpy_repeats):
        gc.collect()
        try:
            with time_limit(cap):
                t0 = time.perf_counter()
                out = simulate_simpy(name, w.arrival, w.sizes(), w.service, caps, slots)
                simpy_s.append(time.perf_counter() - t0)
        except CaseTimeout:
            out, simpy_s, note = None, [], f"SimPy skipped: over the {cap:g} s cap"
            break
    cluster = P.Cluster.identical(servers)
    ours, res = [], None
    for _ in range(max(repeats, 3)):  # a short run: a few repeats cost little
        gc.collect()
        t0 = time.perf_counter()
        res = P.simulate(policy(name), w, cluster, slots=slots, check=True)
        ours.append(time.perf_counter() - t0)
    assert res is not None
    rec: dict[str, Any] = {"jobs": int(w.arrival.shape[0]), "slots": slots,
                           "max_queue": int(res.queue_length_steps.max()),
                           "simpy": summary(simpy_s), "ours": summary(ours), "note": note}
    ours_full = full["jobs"] / full["e2e"]["median_s"]
    rec["ours_jobs_per_s_full"] = ours_full
    if out is None:
        rec.update(identical=None, ratio=None, simpy_jobs_per_s=None, jobs_per_s_ratio=None,
                   meets_30x=None)
        return rec
    same = {k: bool(np.array_equal(getattr(res, k), out[k]))
            for k in ("queue_length", "start", "server")}
    qr = float(np.max(np.abs(res.queued_resource - out["queued_resource"]), initial=0.0))
    ratio = rec["simpy"]["median_s"] / rec["ours"]["median_s"]
    simpy_rate = rec["jobs"] / rec["simpy"]["median_s"]
    rec.update(identical=all(same.values()) and qr <= 1e-9, identical_arrays=same,
               queued_resource_max_abs_diff=qr, ratio=ratio, simpy_jobs_per_s=simpy_rate,
               jobs_per_s_ratio=ours_full / simpy_rate, meets_30x=ratio >= TARGET_SPEEDUP)
    return rec


def _fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


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
    ap.add_argument("--simpy-jobs", type=int, default=20_000,
                    help="jobs of the truncated case run by the SimPy model (0: none)")
    ap.add_argument("--simpy-repeats", type=int, default=1)
    ap.add_argument("--simpy-cap", type=float, default=300.0,
                    help="skip a SimPy run after this many seconds")
    ap.add_argument("--split", action="store_true",
                    help="also time each case without the invariant check: adds the "
                         "checker's share and the rest (inputs, result) of e2e")
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
    if args.simpy_jobs < 0 or args.simpy_repeats < 1 or not args.simpy_cap > 0:
        ap.error("--simpy-jobs must be >= 0, --simpy-repeats >= 1 and --simpy-cap > 0")
    simpy_jobs = min(args.simpy_jobs, args.jobs)
    for n in names:  # compile (or load) every kernel before timing
        run_case(n, "wide", 5, 0.5, 2_000, 1, args.seed)
    rows = []
    head = "| policy | law | servers | intensity | max queue | e2e (s) | kernel (s) | <= 2 s |"
    rule = "|---|---|---|---|---|---|---|---|"
    if args.split:
        head += " checker (s) | rest (s) |"
        rule += "---|---|"
    if simpy_jobs:
        head += (" SimPy jobs | SimPy (s) | ours same (s) | SimPy/ours | SimPy jobs/s | "
                 "ours jobs/s (full) | jobs/s ratio | >= 30x | identical |")
        rule += "---|---|---|---|---|---|---|---|---|"
    print(head)
    print(rule)
    mismatches = []
    for n in names:
        for law in laws:
            for L in servers:
                for a in intensities:
                    r = run_case(n, law, L, a, args.jobs, args.repeats, args.seed, args.split)
                    line = (f"| {r['policy']} | {r['law']} | {L} | {a} | {r['max_queue']:,} | "
                            f"{r['e2e']['median_s']:.2f} | {r['kernel']['median_s']:.2f} | "
                            f"{'yes' if r['met'] else 'no'} |")
                    if args.split:
                        line += f" {r['checker_s']:.2f} | {r['rest_s']:.2f} |"
                    if simpy_jobs:
                        b = simpy_case(n, law, L, a, simpy_jobs, args.repeats,
                                       args.simpy_repeats, args.simpy_cap, args.seed, r)
                        r["simpy"] = b
                        ident = {None: "skipped", True: "yes", False: "**NO**"}[b["identical"]]
                        met30 = {None: "-", True: "yes", False: "no"}[b["meets_30x"]]
                        line += (f" {b['jobs']:,} | {_fmt(b['simpy']['median_s'], '.2f')} | "
                                 f"{b['ours']['median_s']:.4f} | {_fmt(b['ratio'], ',.0f')} | "
                                 f"{_fmt(b['simpy_jobs_per_s'], ',.0f')} | "
                                 f"{b['ours_jobs_per_s_full']:,.0f} | "
                                 f"{_fmt(b['jobs_per_s_ratio'], ',.0f')} | {met30} | {ident} |")
                        if b["identical"] is False:
                            what = f"{r['policy']} {r['law']} L={L} intensity={a}"
                            mismatches.append(what)
                            print(f"TRAJECTORY MISMATCH between the SimPy model and "
                                  f"policies.simulate: {what}: {b['identical_arrays']}, "
                                  f"queued_resource max diff "
                                  f"{b['queued_resource_max_abs_diff']:.3g}",
                                  file=sys.stderr, flush=True)
                        elif b["note"]:
                            print(f"note: {r['policy']} {r['law']} L={L} intensity={a}: "
                                  f"{b['note']}", file=sys.stderr, flush=True)
                    rows.append(r)
                    print(line, flush=True)
    met = sum(r["met"] for r in rows)
    print(f"{met} of {len(rows)} cases within {TARGET_S:g} s end to end")
    if simpy_jobs:
        compared = [r["simpy"] for r in rows if r["simpy"]["identical"] is not None]
        fast = sum(bool(b["meets_30x"]) for b in compared)
        print(f"{fast} of {len(compared)} compared cases at least {TARGET_SPEEDUP:g}x faster "
              f"than the SimPy model on the same {simpy_jobs:,}-job case; "
              f"{len(rows) - len(compared)} skipped")
        if mismatches:
            print(f"FAILED: {len(mismatches)} trajectories differ from the SimPy model: "
                  + "; ".join(mismatches))
        else:
            print(f"all {len(compared)} compared trajectories identical to the SimPy model")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)},
                                         "rows": rows}, indent=1))
    return 1 if simpy_jobs and mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
