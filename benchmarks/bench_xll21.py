"""XLL21 speed: the per-slot policies on the extracted Google trace, and the P2 programs.

    python benchmarks/bench_xll21.py                 # full run
    python benchmarks/bench_xll21.py --quick         # reduced sizes
    python benchmarks/bench_xll21.py --sections policies --json out.json

Section ``policies``: every XLL21 policy on the job set of
``theory.readers.trace_job_sets.google2011_job_set`` (1,508 jobs, 10 s slots) on the default
64/32/16-core cluster, single resource (OCORP, baselines) and with memory (OCORP+M);
throughput in job-slots per second (sum over jobs of the slots they are present,
divided by the wall time), medians over repeats, and the ratio to SRPT measured in the
same run. Then growth: OCORP with the trace's jobs replicated 1x, 2x, 4x (jobs), and
with slots of 10, 5 and 2.5 s (slots).

Section ``p2``: the P2 LP relaxation (``capacity.flowtime_programs.p2_optimum``) for
seeded random instances of 50, 100 and 200 jobs on 10 machines with the horizon it
needs, against a plain cvxpy time-indexed formulation of the same LP written the way a
researcher would (one variable matrix, constraints per slot), both solved by HiGHS.
Target: 200 jobs in at most 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from timing import summary  # noqa: E402

from policies.preemptive import (  # noqa: E402
    OCORP,
    OCORPM,
    SRF,
    SRPT,
    SRVF,
    SVF,
    Fair,
    TransientSVF,
    run_schedule,
)
from theory.job_sets import JobSet, Machines  # noqa: E402
from theory.readers.trace_job_sets import google2011_job_set, xll21_cluster  # noqa: E402


def _job_slots(res: Any) -> int:
    end = np.where(res.completion > 0, res.completion, res.slots)
    return int(np.sum(end - res.jobs.arrival))


def _time(make: Any, jobs: JobSet, machines: Machines, repeats: int, **kw: Any) -> dict:
    times, res = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = run_schedule(make(), jobs, machines, **kw)
        times.append(time.perf_counter() - t0)
    assert res is not None and res.invariants_ok and not res.stopped
    s = summary(times)
    s.update(job_slots=_job_slots(res), job_slots_per_s=_job_slots(res) / s["median_s"],
             slots=res.slots, l2_flowtime=res.flowtime_lk(2))
    return s


def replicate(jobs: JobSet, times: int) -> JobSet:
    """The job set ``times`` over, each copy arriving in the same slots (a ``times``x
    denser trace)."""
    return JobSet(np.tile(jobs.arrival, times), np.tile(jobs.processing, times),
                  np.tile(jobs.demand, (times, 1)),
                  ids=tuple(f"{c}:{i}" for c in range(times) for i in jobs.ids))


def bench_policies(quick: bool, repeats: int) -> dict:
    jobs = google2011_job_set(max_jobs=300 if quick else None)
    machines = xll21_cluster()
    out: dict[str, Any] = {"jobs": jobs.n, "machines": machines.m, "cases": {}}
    cases = [("srpt", SRPT, False), ("srvf", SRVF, False), ("svf", SVF, False),
             ("srf", SRF, False), ("fair", Fair, False), ("transient-svf", TransientSVF, False),
             ("ocorp", OCORP, False), ("ocorp-m", OCORPM, True)]
    for name, make, memory in cases:
        out["cases"][name] = _time(make, jobs, machines, repeats, memory=memory)
    base = out["cases"]["srpt"]["median_s"]
    for c in out["cases"].values():
        c["time_vs_srpt"] = c["median_s"] / base
    growth: dict[str, Any] = {"jobs": {}, "slots": {}}
    for times in ([1, 2] if quick else [1, 2, 4]):
        growth["jobs"][times] = _time(OCORP, replicate(jobs, times),
                                      xll21_cluster(times, times, times), repeats,
                                      memory=False)
    for slot in ([10.0, 5.0] if quick else [10.0, 5.0, 2.5]):
        js = google2011_job_set(slot_seconds=slot, max_jobs=300 if quick else None)
        growth["slots"][slot] = _time(OCORP, js, machines, repeats, memory=False)
    out["growth"] = growth
    return out


def random_instance(n: int, machines: int, seed: int) -> tuple[JobSet, Machines]:
    rng = np.random.default_rng(seed)
    a = np.sort(rng.integers(0, 2 * n, n))
    p = rng.integers(1, 10, n)
    d = rng.integers(1, 5, n)
    return JobSet(a, p, d[:, None]), Machines(np.full((machines, 1), 8))


def plain_cvxpy_p2(jobs: JobSet, machines: Machines, k: float, horizon: int) -> float:
    """P2's LP relaxation written directly in cvxpy: u[j, t] cores for every job and slot
    (zero before arrival), capacity per slot, volume per job."""
    import cvxpy as cp

    from theory.fractional_flowtime import fractional_weight

    n, H = jobs.n, horizon
    t = np.arange(1, H + 1)
    W = fractional_weight(t[None, :], jobs.arrival[:, None], jobs.processing[:, None], k)
    d = jobs.demand[:, 0]
    u = cp.Variable((n, H), nonneg=True)
    avail = (t[None, :] > jobs.arrival[:, None]).astype(float)
    cons = [u <= np.outer(d, np.ones(H)) * avail,
            cp.sum(u, axis=0) <= machines.capacity[:, 0].sum(),
            cp.sum(u, axis=1) == d * jobs.processing]
    prob = cp.Problem(cp.Minimize(cp.sum(cp.multiply(W / d[:, None], u))), cons)
    prob.solve(solver=cp.HIGHS)
    if prob.status != "optimal":
        raise RuntimeError(f"plain cvxpy P2: {prob.status}")
    return float(prob.value)


def bench_p2(quick: bool, repeats: int) -> dict:
    from capacity.flowtime_programs import offline_horizon, p2_optimum

    out: dict[str, Any] = {}
    for n in ([50, 100, 200] if quick else [50, 100, 200, 400, 800]):
        jobs, machines = random_instance(n, 10, seed=n)
        H = offline_horizon(jobs, machines, memory=False)
        ours, plain, vals = [], [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            res = p2_optimum(jobs, machines, 2, memory=False)
            ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            v = plain_cvxpy_p2(jobs, machines, 2, H)
            plain.append(time.perf_counter() - t0)
            vals.append((res.value, v))
        agree = all(abs(a - b) <= 1e-6 * max(1.0, abs(b)) for a, b in vals)
        out[n] = {"horizon": H, "packsched": summary(ours), "plain_cvxpy": summary(plain),
                  "speedup": statistics.median(plain) / statistics.median(ours),
                  "values_agree": agree, "value": vals[0][0]}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int)
    ap.add_argument("--sections", default="policies,p2")
    ap.add_argument("--json")
    args = ap.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)
    os.environ.setdefault("PACKSCHED_PROGRESS", "0")
    result: dict[str, Any] = {"machine": platform.platform(), "cpus": os.cpu_count(),
                              "quick": args.quick, "repeats": repeats}
    ok = True
    sections = args.sections.split(",")
    if "policies" in sections:
        pol = result["policies"] = bench_policies(args.quick, repeats)
        print(f"policies on {pol['jobs']} jobs, {pol['machines']} machines "
              f"(median of {repeats})")
        print(f"{'policy':<14} {'seconds':>8} {'vs srpt':>8} {'job-slots/s':>12} "
              f"{'l2 flowtime':>12}")
        for name, c in pol["cases"].items():
            print(f"{name:<14} {c['median_s']:8.3f} {c['time_vs_srpt']:8.2f} "
                  f"{c['job_slots_per_s']:12,.0f} {c['l2_flowtime']:12.1f}")
        for axis, rows in pol["growth"].items():
            for key, c in rows.items():
                print(f"ocorp growth {axis}={key}: {c['median_s']:.3f} s, "
                      f"{c['job_slots']:,} job-slots, {c['job_slots_per_s']:,.0f}/s")
        target = pol["cases"]["ocorp"]["job_slots_per_s"] >= 10_000
        print(f"target OCORP >= 10,000 job-slots/s: {'met' if target else 'MISSED'}")
        ok &= target
    if "p2" in sections:
        p2 = result["p2"] = bench_p2(args.quick, repeats)
        for n, c in p2.items():
            print(f"P2 LP n={n} H={c['horizon']}: packsched {c['packsched']['median_s']:.2f} s"
                  f", plain cvxpy {c['plain_cvxpy']['median_s']:.2f} s "
                  f"(x{c['speedup']:.1f}), values agree: {c['values_agree']}")
            ok &= c["values_agree"]
        if 200 in p2:
            target = p2[200]["packsched"]["median_s"] <= 10
            print(f"target P2 LP 200 jobs <= 10 s: {'met' if target else 'MISSED'}")
            ok &= target
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1, default=str)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
