#!/usr/bin/env python
"""Slotted simulator: time per job against queue length and servers, and memory (issue 14).

Run from the repository root::

    python benchmarks/bench_sim_growth.py                       # all three sections
    python benchmarks/bench_sim_growth.py --quick --plot /tmp/growth.png
    python benchmarks/bench_sim_growth.py --sections memory --json sim_memory.json
    python benchmarks/bench_sim_growth.py --sections growth-servers --policies bfjs,bfj

Every case runs ``policies.simulate(policy, w, cluster, check=True)`` on unit servers with
geometric service (mu = 0.01) and PG21 Sec. VII-A Poisson arrivals (as in
``benchmarks/bench_continuous.py``). ``kernel`` is ``SimulationResult.seconds``, ``e2e``
the wall time of the ``simulate`` call (inputs, kernel, invariant
checker); medians over ``--repeats``; every policy is compiled (or loaded from numba's
cache) before any timing.

Sections (``--sections``):

* ``growth-queue``: time per job against the queue length. Q jobs (sizes
  Uniform(0.1, 0.9), geometric service) wait at slot 0, then about ``--queue-jobs``
  jobs arrive (Poisson) on 100 servers. With ``--queue-intensity auto`` (default) the
  arrival rate is each policy's own throughput at that backlog, measured by a pilot run
  (the same backlog, arrivals at intensity 1, jobs started per slot after the first 500
  slots), so the queue stays near Q: a queue below Q packs worse and grows back, one
  above packs better and drains. A number fixes the intensity instead. The x axis is the
  realised mean queue length over the run. "Per job" is per *arriving* job (the backlog
  excluded); ``setup`` is the kernel time of the same input cut to its first slot (the
  backlog's insertion), and ``ns/job excl. setup`` takes it out.
* ``growth-servers``: time per job against the number of servers L at intensity 0.9, both
  laws (Uniform(0.1, 0.9) and Uniform(0.01, 0.19)), about ``--server-jobs`` jobs: the
  arrival rate is proportional to L, so small L means many more slots (hence ns/slot).
* ``memory``: peak RSS of one BF-J/S run (Uniform(0.1, 0.9), intensity 0.9, 1,000
  servers) in a fresh Python process: the baseline RSS after imports, warm-up and the
  workload build; simulate's peak (the high-water mark VmHWM is reset just before the
  call through ``/proc/self/clear_refs``, when Linux allows it, so that a larger peak
  while building the workload does not hide it) and its increment over the baseline;
  the process's peak (VmHWM since its start); ``ru_maxrss`` after the run (JSON; on
  Linux it also holds the parent's peak, handed to a child at ``exec``, so it can
  overstate a small child). Also the workload's own arrays, ``policies.footprint``'s
  estimate, e2e wall and CPU time and kernel time. Targets: 1M jobs within 1 GiB, 10M
  jobs within 8 GiB and 20 s (process peak RSS; time end to end). A run refused by
  ``simulate``'s ``memory_budget`` is reported and rerun with twice the estimate passed
  explicitly, saying so.

For each growth series (policy, or policy and law) the log-log slope of kernel ns per job
against the x axis is a least-squares fit of log(t/job) on log(x): about 0 means growth
logarithmic or better; the table also gives t/job at the largest x over the smallest
against log(x_max)/log(x_min), the growth a logarithm would allow.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _p in (str(ROOT), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from benchmarks.arguments import int_list  # noqa: E402
from benchmarks.bench_continuous import LAWS, MEAN_SERVICE, POLICY_NAMES, policy  # noqa: E402
from benchmarks.timing import summary  # noqa: E402

SECTIONS = ("growth-queue", "growth-servers", "memory")
GiB = 2**30

QUEUE_TARGETS = (10**2, 10**3, 10**4, 10**5, 10**6)
QUEUE_TARGETS_QUICK = (10**2, 10**4)
QUEUE_JOBS, QUEUE_JOBS_QUICK = 200_000, 20_000
QUEUE_SERVERS = 100
QUEUE_LAW = "wide"
PILOT_TRANSIENT = 500  # slots before a pilot's throughput is counted (5 mean services)

SERVER_COUNTS = (5, 20, 100, 1000, 10000)
SERVER_COUNTS_QUICK = (5, 100)
SERVER_JOBS, SERVER_JOBS_QUICK = 500_000, 20_000
SERVER_INTENSITY = 0.9

MEMORY_JOBS = (1_000_000, 10_000_000)
MEMORY_JOBS_QUICK = (100_000,)
MEMORY_SERVERS = 1000
MEMORY_INTENSITY = 0.9
#: (peak RSS bytes, end-to-end seconds or None) by job count; other sizes: no target
MEMORY_TARGETS: dict[int, tuple[float, float | None]] = {
    1_000_000: (1 * GiB, None), 10_000_000: (8 * GiB, 20.0)}


# -- fits ------------------------------------------------------------------------------


def loglog_slope(x: Any, y: Any) -> float | None:
    """Least-squares slope of log(y) on log(x); ``None`` without two distinct positive x."""
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    ok = (xa > 0) & (ya > 0) & np.isfinite(xa) & np.isfinite(ya)
    lx, ly = np.log(xa[ok]), np.log(ya[ok])
    if lx.size < 2 or np.ptp(lx) == 0:
        return None
    lx = lx - lx.mean()
    return float(np.dot(lx, ly - ly.mean()) / np.dot(lx, lx))


def growth_ratio(x: Any, y: Any) -> dict[str, float | None]:
    """y at the largest x over y at the smallest, and log(x_max)/log(x_min) (what a
    logarithmic growth would give; ``None`` when x_min <= 1)."""
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    if xa.size < 2:
        return {"ratio": None, "log_ratio": None}
    lo, hi = int(np.argmin(xa)), int(np.argmax(xa))
    ratio = float(ya[hi] / ya[lo]) if ya[lo] > 0 else None
    log_ratio = float(math.log(xa[hi]) / math.log(xa[lo])) if xa[lo] > 1 else None
    return {"ratio": ratio, "log_ratio": log_ratio}


def fit_series(rows: list[dict[str, Any]], key: tuple[str, ...], x: str) -> list[dict[str, Any]]:
    """One fit per series (rows sharing ``key``): slopes of kernel, e2e and (when present)
    setup-free ns per job against ``x``, and the max/min ratio against the log ratio."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in key), []).append(r)
    fits = []
    for k, rs in groups.items():
        xs = [r[x] for r in rs]
        fit: dict[str, Any] = dict(zip(key, k, strict=True))
        fit.update(points=len(rs), x=x,
                   slope_kernel=loglog_slope(xs, [r["kernel_ns_per_job"] for r in rs]),
                   slope_e2e=loglog_slope(xs, [r["e2e_ns_per_job"] for r in rs]))
        if all("steady_ns_per_job" in r for r in rs):
            fit["slope_steady"] = loglog_slope(xs, [r["steady_ns_per_job"] for r in rs])
        fit.update(growth_ratio(xs, [r["kernel_ns_per_job"] for r in rs]))
        fits.append(fit)
    return fits


# -- cases -----------------------------------------------------------------------------


def _dist(law: str) -> Any:
    from theory.distributions import Uniform

    return Uniform(*LAWS[law])


def law_workload(law: str, servers: int, intensity: float, jobs: int, seed: int,
                 memory_budget: float | None = None) -> Any:
    """``bench_continuous.workload`` (PG21 VII-A, horizon holding ``jobs`` expected
    arrivals) with an optional ``memory_budget`` for the generator's estimate."""
    import policies as P
    from policies.workload import arrival_rate_for

    dist = _dist(law)
    rate = arrival_rate_for(dist, servers=servers, mean_service=MEAN_SERVICE,
                            intensity=intensity)
    extra = {} if memory_budget is None else {"memory_budget": memory_budget}
    return P.pg21_workload(dist, servers=servers, slots=int(jobs / rate) + 1,
                           mu=1 / MEAN_SERVICE, intensity=intensity, seed=seed, **extra)


def _rate(law: str, servers: int, intensity: float) -> float:
    from policies.workload import arrival_rate_for

    return arrival_rate_for(_dist(law), servers=servers, mean_service=MEAN_SERVICE,
                            intensity=intensity)


def backlog_workload(q: int, intensity: float, slots: int, seed: int) -> Any:
    """Q jobs waiting at slot 0 (sizes and service as the arrivals') and Poisson arrivals
    at ``intensity`` on ``QUEUE_SERVERS`` servers over ``slots`` slots."""
    import policies as P

    rng = np.random.default_rng([seed, q])
    demand = np.asarray(_dist(QUEUE_LAW).sample(q, rng), dtype=np.float64)
    service = rng.geometric(1 / MEAN_SERVICE, size=q).astype(np.int64)
    w = P.pg21_workload(_dist(QUEUE_LAW), servers=QUEUE_SERVERS, slots=slots,
                        mu=1 / MEAN_SERVICE, intensity=intensity, seed=seed)
    return w.with_backlog(demand, service)


def _timed(name: str, w: Any, servers: int, repeats: int, **kw: Any) -> tuple[Any, list, list]:
    import policies as P

    cluster = P.Cluster.identical(servers)
    e2e, kernel, res = [], [], None
    for _ in range(repeats):
        res = None
        gc.collect()
        t0 = time.perf_counter()
        res = P.simulate(policy(name), w, cluster, check=True, **kw)
        e2e.append(time.perf_counter() - t0)
        kernel.append(res.seconds)
    return res, e2e, kernel


def calibrate(name: str, q: int, slots: int, seed: int) -> dict[str, Any]:
    """The policy's throughput (jobs started per slot) with backlog Q under arrivals at
    intensity 1, after ``PILOT_TRANSIENT`` slots; as an intensity."""
    import policies as P

    total = PILOT_TRANSIENT + max(1000, slots // 2)
    w = backlog_workload(q, 1.0, total, seed)
    res = P.simulate(policy(name), w, P.Cluster.identical(QUEUE_SERVERS), check=False)
    started = int(np.count_nonzero((res.start >= PILOT_TRANSIENT) & (res.start < total)))
    rate1 = _rate(QUEUE_LAW, QUEUE_SERVERS, 1.0)
    throughput = started / (total - PILOT_TRANSIENT)
    return {"pilot_slots": total, "throughput": throughput,
            "intensity": throughput / rate1 if started else 1.0}


def queue_case(name: str, q: int, jobs: int, intensity: float | None, repeats: int,
               seed: int) -> dict[str, Any]:
    rate1 = _rate(QUEUE_LAW, QUEUE_SERVERS, 1.0)
    slots = int(jobs / rate1) + 1  # at intensity ~1; the same horizon for every policy
    pilot = calibrate(name, q, slots, seed) if intensity is None else None
    a = pilot["intensity"] if pilot else intensity
    assert a is not None
    slots = int(jobs / (a * rate1)) + 1
    w = backlog_workload(q, a, slots, seed)
    res, e2e, kernel = _timed(name, w, QUEUE_SERVERS, repeats)
    _, _, setup = _timed(name, w, QUEUE_SERVERS, repeats, slots=1)
    arrived = w.jobs - q
    k, e, s = (float(np.median(v)) for v in (kernel, e2e, setup))
    ql = res.queue_length
    return {"section": "growth-queue", "policy": POLICY_NAMES[name],
            "law": "U({}, {})".format(*LAWS[QUEUE_LAW]), "servers": QUEUE_SERVERS,
            "target_queue": q, "backlog": q, "jobs": arrived, "total_jobs": w.jobs,
            "slots": slots, "intensity": a, "pilot": pilot,
            "mean_queue": float(ql.mean()), "min_queue": int(ql.min()),
            "max_queue": int(ql.max()), "end_queue": int(ql[-1]),
            "e2e": summary(e2e), "kernel": summary(kernel), "setup": summary(setup),
            "kernel_ns_per_job": 1e9 * k / arrived, "e2e_ns_per_job": 1e9 * e / arrived,
            "steady_ns_per_job": 1e9 * max(k - s, 0.0) / arrived,
            "kernel_ns_per_slot": 1e9 * k / slots}


def servers_case(name: str, law: str, servers: int, jobs: int, repeats: int,
                 seed: int) -> dict[str, Any]:
    w = law_workload(law, servers, SERVER_INTENSITY, jobs, seed)
    res, e2e, kernel = _timed(name, w, servers, repeats)
    k, e = float(np.median(kernel)), float(np.median(e2e))
    ql = res.queue_length
    return {"section": "growth-servers", "policy": POLICY_NAMES[name],
            "law": "U({}, {})".format(*LAWS[law]), "servers": servers,
            "intensity": SERVER_INTENSITY, "jobs": w.jobs, "slots": int(ql.shape[0]),
            "mean_queue": float(ql.mean()), "max_queue": int(ql.max()),
            "e2e": summary(e2e), "kernel": summary(kernel),
            "kernel_ns_per_job": 1e9 * k / w.jobs, "e2e_ns_per_job": 1e9 * e / w.jobs,
            "kernel_ns_per_slot": 1e9 * k / ql.shape[0]}


def warm_up(names: list[str]) -> None:
    """Compile (or load) every policy's kernel and the checker before any timing."""
    for n in names:
        _timed(n, law_workload("wide", 5, 0.5, 2_000, 1), 5, 1)
        _timed(n, backlog_workload(50, 1.0, 200, 1), QUEUE_SERVERS, 1)


# -- memory (in a fresh process) -------------------------------------------------------


def _proc_status() -> dict[str, int]:
    """VmRSS and VmHWM in bytes (empty off Linux)."""
    out = {}
    try:
        with open("/proc/self/status") as f:
            for line in f:
                key = line.split(":")[0]
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(line.split()[1]) * 1024
    except OSError:
        pass
    return out


def _maxrss() -> int:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(r) if sys.platform == "darwin" else int(r) * 1024


def _reset_hwm() -> bool:
    """Reset the process's peak RSS (Linux >= 4.0: ``echo 5 > /proc/self/clear_refs``)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    st = _proc_status()
    return "VmHWM" in st and st["VmHWM"] <= st["VmRSS"] * 1.05 + 2**20


def memory_child(jobs: int, servers: int, seed: int) -> dict[str, Any]:
    """One BF-J/S run measured from inside the (fresh) process; the row as a dict.

    Peaks are VmHWM, this process's own high-water RSS: ``ru_maxrss`` also counts the
    parent's peak, which Linux hands to a child at ``exec`` (``ru_maxrss`` at the
    child's start is reported as ``inherited_maxrss_bytes``).
    """
    inherited = _maxrss()
    import policies as P
    from policies.footprint import run_bytes
    from theory.budgets import BudgetExceeded

    t_imp = time.perf_counter()
    cluster = P.Cluster.identical(servers)
    P.simulate(P.BFJS(), law_workload("wide", 5, 0.5, 2_000, 1), P.Cluster.identical(5),
               check=True)  # compile or load the kernel and the checker
    note = []
    try:
        w = law_workload("wide", servers, MEMORY_INTENSITY, jobs, seed)
        gen_budget = None
    except BudgetExceeded as exc:
        gen_budget = 2 * run_bytes(1.1 * jobs, jobs, servers)
        note.append(f"the workload generator refused ({exc}); rebuilt with "
                    f"memory_budget={gen_budget:.3g}")
        w = law_workload("wide", servers, MEMORY_INTENSITY, jobs, seed, gen_budget)
    t_build = time.perf_counter() - t_imp
    wl_bytes = sum(int(a.nbytes) for a in (w.arrival, w.demand, w.service, w.weight))
    gc.collect()
    base = _proc_status()
    estimate = run_bytes(w.jobs, int(w.horizon), servers)
    budget: float | None = None
    reset = _reset_hwm()
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        res = P.simulate(P.BFJS(), w, cluster, check=True)
    except BudgetExceeded as exc:
        budget = 2 * estimate
        note.append(f"simulate's memory_budget refused ({exc}); rerun with "
                    f"memory_budget={budget:.3g} bytes passed explicitly")
        reset = _reset_hwm()
        c0, t0 = time.process_time(), time.perf_counter()
        res = P.simulate(P.BFJS(), w, cluster, check=True, memory_budget=budget)
    e2e, cpu = time.perf_counter() - t0, time.process_time() - c0
    after = _proc_status()
    res_bytes = sum(int(getattr(res, k).nbytes) for k in
                    ("queue_length", "queued_resource", "busy_resource", "arrival", "start",
                     "server", "occupancy", "half_full_fraction"))
    base_rss = base.get("VmRSS")
    # with the reset, VmHWM after the call is simulate's peak; without, the process's
    run_peak = after.get("VmHWM") if reset else None
    hwms = [x for x in (base.get("VmHWM"), after.get("VmHWM")) if x is not None]
    peak = max(hwms) if hwms else _maxrss()
    top = run_peak if run_peak is not None else peak
    return {"section": "memory", "policy": "BF-J/S", "law": "U({}, {})".format(*LAWS["wide"]),
            "servers": servers, "intensity": MEMORY_INTENSITY, "jobs": w.jobs,
            "slots": int(w.horizon), "build_s": t_build, "workload_bytes": wl_bytes,
            "result_bytes": res_bytes, "estimate_bytes": estimate,
            "baseline_rss_bytes": base_rss, "baseline_hwm_bytes": base.get("VmHWM"),
            "hwm_reset": reset, "simulate_peak_rss_bytes": run_peak,
            "peak_rss_bytes": peak,
            "increment_bytes": None if base_rss is None else top - base_rss,
            "ru_maxrss_bytes": _maxrss(), "inherited_maxrss_bytes": inherited,
            "e2e_s": e2e, "e2e_cpu_s": cpu, "kernel_s": res.seconds,
            "memory_budget": budget, "generator_budget": gen_budget,
            "checked": res.invariants is not None, "note": "; ".join(note) or None}


_CHILD = ("import json, sys; sys.path.insert(0, {root!r}); "
          "from benchmarks.bench_sim_growth import memory_child; "
          "print('ROW ' + json.dumps(memory_child({jobs}, {servers}, {seed})))")


def memory_case(jobs: int, servers: int, seed: int) -> dict[str, Any]:
    """``memory_child`` in a fresh interpreter; the row, with the targets judged."""
    code = _CHILD.format(root=str(ROOT), jobs=jobs, servers=servers, seed=seed)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=ROOT, check=False)
    rows = [ln[4:] for ln in p.stdout.splitlines() if ln.startswith("ROW ")]
    if p.returncode != 0 or not rows:
        return {"section": "memory", "jobs": jobs, "servers": servers, "failed": True,
                "returncode": p.returncode, "stderr": p.stderr[-4000:]}
    r = json.loads(rows[-1])
    target = MEMORY_TARGETS.get(jobs)
    r["target_bytes"] = target[0] if target else None
    r["target_s"] = target[1] if target else None
    r["memory_met"] = None if target is None else r["peak_rss_bytes"] <= target[0]
    r["time_met"] = None if not target or target[1] is None else r["e2e_s"] <= target[1]
    return r


# -- output ----------------------------------------------------------------------------


def _f(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def _mib(x: float | None) -> str:
    return "-" if x is None else f"{x / 2**20:,.0f}"


def queue_table(rows: list[dict[str, Any]], fits: list[dict[str, Any]]) -> str:
    out = ["| policy | target Q | intensity | mean queue | max queue | arriving jobs | slots | "
           "kernel (s) | e2e (s) | setup (s) | kernel ns/job | e2e ns/job | "
           "ns/job excl. setup |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['policy']} | {r['target_queue']:,} | {r['intensity']:.3f} | "
                   f"{r['mean_queue']:,.0f} | {r['max_queue']:,} | {r['jobs']:,} | "
                   f"{r['slots']:,} | {r['kernel']['median_s']:.3f} | "
                   f"{r['e2e']['median_s']:.3f} | {r['setup']['median_s']:.3f} | "
                   f"{r['kernel_ns_per_job']:,.0f} | {r['e2e_ns_per_job']:,.0f} | "
                   f"{r['steady_ns_per_job']:,.0f} |")
    out += ["", "| policy | points | slope kernel | slope e2e | slope excl. setup | "
            "t/job ratio max/min queue | log ratio |", "|---|---|---|---|---|---|---|"]
    for f in fits:
        out.append(f"| {f['policy']} | {f['points']} | {_f(f['slope_kernel'], '.2f')} | "
                   f"{_f(f['slope_e2e'], '.2f')} | {_f(f.get('slope_steady'), '.2f')} | "
                   f"{_f(f['ratio'], '.2f')} | {_f(f['log_ratio'], '.2f')} |")
    return "\n".join(out)


def servers_table(rows: list[dict[str, Any]], fits: list[dict[str, Any]]) -> str:
    out = ["| policy | law | servers | jobs | slots | mean queue | kernel (s) | e2e (s) | "
           "kernel ns/job | e2e ns/job | kernel ns/slot |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['policy']} | {r['law']} | {r['servers']:,} | {r['jobs']:,} | "
                   f"{r['slots']:,} | {r['mean_queue']:,.1f} | {r['kernel']['median_s']:.3f} | "
                   f"{r['e2e']['median_s']:.3f} | {r['kernel_ns_per_job']:,.0f} | "
                   f"{r['e2e_ns_per_job']:,.0f} | {r['kernel_ns_per_slot']:,.0f} |")
    out += ["", "| policy | law | points | slope kernel | slope e2e | "
            "t/job ratio max/min servers | log ratio |", "|---|---|---|---|---|---|---|"]
    for f in fits:
        out.append(f"| {f['policy']} | {f['law']} | {f['points']} | "
                   f"{_f(f['slope_kernel'], '.2f')} | {_f(f['slope_e2e'], '.2f')} | "
                   f"{_f(f['ratio'], '.2f')} | {_f(f['log_ratio'], '.2f')} |")
    return "\n".join(out)


def memory_table(rows: list[dict[str, Any]]) -> str:
    out = ["| jobs | servers | slots | workload (MiB) | baseline RSS (MiB) | "
           "simulate peak RSS (MiB) | increment (MiB) | process peak RSS (MiB) | "
           "ru_maxrss (MiB) | estimate (MiB) | target (GiB) | memory met | e2e (s) | e2e CPU (s) | "
           "kernel (s) | target (s) | time met |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    yn = {None: "-", True: "yes", False: "**no**"}
    for r in rows:
        if r.get("failed"):
            out.append(f"| {r['jobs']:,} | {r['servers']:,} | FAILED (exit "
                       f"{r['returncode']}) |" + " - |" * 14)
            continue
        tgt = r["target_bytes"]
        out.append(f"| {r['jobs']:,} | {r['servers']:,} | {r['slots']:,} | "
                   f"{_mib(r['workload_bytes'])} | {_mib(r['baseline_rss_bytes'])} | "
                   f"{_mib(r['simulate_peak_rss_bytes'])} | {_mib(r['increment_bytes'])} | "
                   f"{_mib(r['peak_rss_bytes'])} | {_mib(r['ru_maxrss_bytes'])} | "
                   f"{_mib(r['estimate_bytes'])} | "
                   f"{_f(None if tgt is None else tgt / GiB, 'g')} | {yn[r['memory_met']]} | "
                   f"{r['e2e_s']:.2f} | {r['e2e_cpu_s']:.2f} | {r['kernel_s']:.2f} | "
                   f"{_f(r['target_s'], 'g')} | {yn[r['time_met']]} |")
    return "\n".join(out)


def plot(queue_rows: list[dict[str, Any]], server_rows: list[dict[str, Any]],
         path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    names = list(POLICY_NAMES.values())
    colors = {n: f"C{i}" for i, n in enumerate(names)}
    for p in names:
        rs = sorted((r for r in queue_rows if r["policy"] == p), key=lambda r: r["mean_queue"])
        if rs:
            x = [max(r["mean_queue"], 1.0) for r in rs]
            ax1.plot(x, [r["steady_ns_per_job"] for r in rs], "-o", color=colors[p], label=p)
            ax1.plot(x, [r["kernel_ns_per_job"] for r in rs], ":", color=colors[p], alpha=0.5)
    for law, style in zip(LAWS, ("-o", "--s"), strict=True):
        lname = "U({}, {})".format(*LAWS[law])
        for p in names:
            rs = sorted((r for r in server_rows if r["policy"] == p and r["law"] == lname),
                        key=lambda r: r["servers"])
            if rs:
                ax2.plot([r["servers"] for r in rs], [r["kernel_ns_per_job"] for r in rs],
                         style, color=colors[p], label=f"{p}, {lname}")
    ax1.set_xlabel(f"mean queue length (jobs; {QUEUE_SERVERS} servers, U(0.1, 0.9))")
    ax2.set_xlabel(f"servers L (intensity {SERVER_INTENSITY})")
    # a guide: time proportional to log x, through the median time at the smallest x
    for ax, rows, xk, yk in ((ax1, queue_rows, "mean_queue", "steady_ns_per_job"),
                             (ax2, server_rows, "servers", "kernel_ns_per_job")):
        xs = sorted({max(float(r[xk]), 2.0) for r in rows})
        if len(xs) > 1:
            y0 = float(np.median([r[yk] for r in rows if max(float(r[xk]), 2.0) == xs[0]]))
            grid = np.geomspace(xs[0], xs[-1], 50)
            ax.plot(grid, y0 * np.log(grid) / math.log(xs[0]), "-", color="0.6", lw=3,
                    alpha=0.4, label="∝ log x (guide)")
    ax1.set_ylabel("kernel ns per arriving job, backlog insertion excluded (dotted: "
                   "included)", fontsize=8)
    ax2.set_ylabel("kernel ns per job (median)")
    for ax, rows in ((ax1, queue_rows), (ax2, server_rows)):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        if rows:
            ax.legend(fontsize=7)
        else:
            ax.text(0.5, 0.5, "section not run", transform=ax.transAxes, ha="center")
    ax1.set_title("time per job vs queue length")
    ax2.set_title("time per job vs servers")
    fig.suptitle("packsched slotted simulator (policies.simulate): growth (issue 14)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- CLI -------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", default=",".join(SECTIONS), help="of: " + ",".join(SECTIONS))
    ap.add_argument("--policies", default=",".join(POLICY_NAMES),
                    help="of: " + ",".join(POLICY_NAMES) + " (growth sections; memory: bfjs)")
    ap.add_argument("--quick", action="store_true", help="two points per series, small runs")
    ap.add_argument("--repeats", type=int, default=1, help="timed calls per point (median)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queue-targets", help="backlogs Q (default 10^2..10^6; quick 10^2,10^4)")
    ap.add_argument("--queue-jobs", type=int, help="arriving jobs per queue point "
                    f"(default {QUEUE_JOBS:,}; quick {QUEUE_JOBS_QUICK:,})")
    ap.add_argument("--queue-intensity", default="auto",
                    help="'auto' (each policy's throughput at the backlog) or a number")
    ap.add_argument("--servers", help="server counts (default 5,20,100,1000,10000; quick 5,100)")
    ap.add_argument("--server-jobs", type=int, help="jobs per server point "
                    f"(default {SERVER_JOBS:,}; quick {SERVER_JOBS_QUICK:,})")
    ap.add_argument("--memory-jobs", help="job counts of the memory runs "
                    "(default 1000000,10000000; quick 100000)")
    ap.add_argument("--json", type=Path, help="write every row and fit here")
    ap.add_argument("--plot", type=Path, help="write the two-panel PNG here")
    args = ap.parse_args(argv)

    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    bad = [s for s in sections if s not in SECTIONS]
    if bad or not sections:
        ap.error(f"unknown section(s) {bad}; choose from {', '.join(SECTIONS)}")
    names = [n.strip() for n in args.policies.split(",") if n.strip()]
    bad = [n for n in names if n not in POLICY_NAMES]
    if bad or not names:
        ap.error(f"unknown policy(ies) {bad}; choose from {', '.join(POLICY_NAMES)}")
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    q = args.quick
    targets = (int_list(args.queue_targets, "--queue-targets", ap) if args.queue_targets
               else list(QUEUE_TARGETS_QUICK if q else QUEUE_TARGETS))
    counts = (int_list(args.servers, "--servers", ap) if args.servers
              else list(SERVER_COUNTS_QUICK if q else SERVER_COUNTS))
    mem_jobs = (int_list(args.memory_jobs, "--memory-jobs", ap) if args.memory_jobs
                else list(MEMORY_JOBS_QUICK if q else MEMORY_JOBS))
    if "memory" in sections:
        from policies.footprint import run_bytes

        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        for jobs in mem_jobs:
            need = run_bytes(jobs, jobs / _rate("wide", MEMORY_SERVERS, MEMORY_INTENSITY),
                             MEMORY_SERVERS)
            if need > ram:
                ap.error(f"--memory-jobs {jobs:,} would need about {need / 2**30:.0f} GiB, "
                         f"more than this machine's {ram / 2**30:.0f} GiB")
    queue_jobs = args.queue_jobs if args.queue_jobs is not None else (
        QUEUE_JOBS_QUICK if q else QUEUE_JOBS)
    server_jobs = args.server_jobs if args.server_jobs is not None else (
        SERVER_JOBS_QUICK if q else SERVER_JOBS)
    if queue_jobs < 1 or server_jobs < 1:
        ap.error("--queue-jobs and --server-jobs must be >= 1")
    intensity: float | None = None
    if args.queue_intensity != "auto":
        try:
            intensity = float(args.queue_intensity)
        except ValueError:
            ap.error(f"--queue-intensity takes 'auto' or a number, got {args.queue_intensity!r}")
        if not 0 < intensity < 10:
            ap.error("--queue-intensity must be in (0, 10)")

    t_start = time.perf_counter()
    if "growth-queue" in sections or "growth-servers" in sections:
        t0 = time.perf_counter()
        warm_up(names)
        print(f"warm-up {time.perf_counter() - t0:.1f} s", flush=True)
    out: dict[str, Any] = {}
    queue_rows: list[dict[str, Any]] = []
    server_rows: list[dict[str, Any]] = []
    mem_rows: list[dict[str, Any]] = []
    failed = False
    if "growth-queue" in sections:
        for n in names:
            for target in targets:
                r = queue_case(n, target, queue_jobs, intensity, args.repeats, args.seed)
                print(f"  queue {r['policy']:8s} Q={target:<9,d} mean queue "
                      f"{r['mean_queue']:>11,.0f}  kernel {r['kernel']['median_s']:7.3f} s",
                      flush=True)
                queue_rows.append(r)
        fits = fit_series(queue_rows, ("policy",), "mean_queue")
        out["growth-queue"] = {"rows": queue_rows, "fits": fits}
        print(f"\n## growth-queue: time per job vs queue length ({QUEUE_SERVERS} servers, "
              f"U(0.1, 0.9), about {queue_jobs:,} arriving jobs)\n")
        print(queue_table(queue_rows, fits), flush=True)
        print()
    if "growth-servers" in sections:
        for n in names:
            for law in LAWS:
                for L in counts:
                    r = servers_case(n, law, L, server_jobs, args.repeats, args.seed)
                    print(f"  servers {r['policy']:8s} {r['law']:14s} L={L:<6,d} kernel "
                          f"{r['kernel']['median_s']:7.3f} s", flush=True)
                    server_rows.append(r)
        fits = fit_series(server_rows, ("policy", "law"), "servers")
        out["growth-servers"] = {"rows": server_rows, "fits": fits}
        print(f"\n## growth-servers: time per job vs servers (intensity {SERVER_INTENSITY}, "
              f"about {server_jobs:,} jobs)\n")
        print(servers_table(server_rows, fits), flush=True)
        print()
    if "memory" in sections:
        for jobs in mem_jobs:
            r = memory_case(jobs, MEMORY_SERVERS, args.seed)
            if r.get("failed"):
                failed = True
                print(f"memory run of {jobs:,} jobs failed (exit {r['returncode']}):\n"
                      f"{r['stderr']}", file=sys.stderr, flush=True)
            elif r["note"]:
                print(f"note ({jobs:,} jobs): {r['note']}", flush=True)
            mem_rows.append(r)
        out["memory"] = {"rows": mem_rows}
        print(f"\n## memory: one BF-J/S run in a fresh process ({MEMORY_SERVERS:,} servers, "
              f"U(0.1, 0.9), intensity {MEMORY_INTENSITY}, check=True)\n")
        print(memory_table(mem_rows), flush=True)
        print()
    elapsed = time.perf_counter() - t_start
    print(f"total {elapsed:.0f} s")
    if args.json:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=ROOT, check=False).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "policies"],
                               capture_output=True, text=True, cwd=ROOT, check=False).stdout
        src = hashlib.sha1()
        for f in sorted((ROOT / "policies" / "slotted").glob("*.py")):
            src.update(f.name.encode() + f.read_bytes())
        meta = {"git": head, "policies_modified": dirty.splitlines(),
                "slotted_sources_sha1": src.hexdigest()[:12],
                "python": platform.python_version(), "numpy": np.__version__,
                "cpus": os.cpu_count(), "machine": platform.machine(), "elapsed_s": elapsed,
                "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**meta, "sections": out}, indent=1))
    if args.plot:
        plot(queue_rows, server_rows, args.plot)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
