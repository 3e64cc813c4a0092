#!/usr/bin/env python
"""Benchmarks of the PG21 slotted simulator (issue 3): speed, a baseline, memory.

Run from the repository root::

    python benchmarks/bench_simulate.py                  # full run (about 11 minutes)
    python benchmarks/bench_simulate.py --quick          # smaller sizes, < ~60 s
    python benchmarks/bench_simulate.py --json out.json  # also write every number as JSON
    python benchmarks/bench_simulate.py --sections google,baseline   # a subset

Sections (see ``benchmarks/README.md``, "Simulation (issue 3)", for the numbers):

``google``
    The paper's Google-trace scale: 1,000 unit servers and 1,000,000 jobs under BF-J/S,
    VQS-BF and FIFO-FF. Sizes and durations are resampled jointly (same row) from the
    packaged Google 2011 tasks (``policies.google2011_workload()``, 0.1 s slots), with
    Poisson arrivals at offered load rho = lambda * E[size * duration] / 1000 of 0.9
    (stable) and 1.1 (overloaded, the queue grows: the stress case).
``trace``
    The packaged trace itself on 1,000 servers with traffic scaling 1.0 and 1.6
    (PG21 Fig. 5).
``baseline``
    ``benchmarks/baseline_bfjs.py`` (SimPy and plain-Python BF-J/S, what a researcher
    would write by hand) against ``policies.simulate(BFJS(), ...)`` on the same arrays.
    The queue trajectories, start slots and servers must be identical (a correctness
    test); the speed-up is the baseline's median over the simulator's.
``memory``
    Peak RSS of a fresh subprocess that builds one 1,000,000-job workload and runs one
    simulation with the invariant checks: ``VmHWM`` from ``/proc/self/status`` (its
    ``ru_maxrss`` is recorded too, but Linux carries the parent's peak into a child's
    ``ru_maxrss`` across exec, so it overstates a child started from a large parent).
``compile``
    Cold numba compilation of the kernel in a subprocess with an empty
    ``NUMBA_CACHE_DIR``, and the load time from the on-disk cache.

Timings: ``sim`` is ``SimulationResult.seconds`` (the compiled kernel only);
``e2e`` is the wall time of the whole ``simulate(...)`` call (input preparation,
``np.unique`` rank compression, kernel, invariant checker); ``e2e-nocheck`` the same
with ``check=False``. Each number is the median of ``--repeats`` calls (the min and max
are in the JSON). The kernel is warmed up (compiled or loaded from the cache) first.
The process CPU time of each call is recorded too: on a shared 2-core machine it is
less sensitive to other processes than wall time.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import json
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from benchmarks.timing import CaseTimeout, summary, time_limit  # noqa: E402

#: Targets of the issue.
TARGET_RUN_S = 5.0            # one 1,000-server, 1,000,000-job run
TARGET_SPEEDUP = 20.0         # over the hand-written baseline
TARGET_RSS_BYTES = 1 << 30    # peak RSS of the 1,000,000-job run

SERVERS = 1000
SEED = 2011


# -- helpers --------------------------------------------------------------------------


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float, float]:
    """(result, wall seconds, process CPU seconds) of ``fn(*args, **kwargs)``, after a
    gc.collect()."""
    gc.collect()
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0, time.process_time() - c0


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def environment() -> dict[str, Any]:
    import numba
    import simpy

    def run(*a: str) -> str:
        try:
            return subprocess.run(list(a), cwd=ROOT, capture_output=True, text=True,
                                  timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    cpu_model = ""
    mem_total = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem_total = line.split(":", 1)[1].strip()
                break
    h = hashlib.sha256()
    for p in sorted((ROOT / "policies").rglob("*.py")):
        h.update(str(p.relative_to(ROOT)).encode())
        h.update(p.read_bytes())
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "nproc": run("nproc"),
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model,
        "mem_total": mem_total,
        "numpy": np.__version__,
        "numba": numba.__version__,
        "simpy": simpy.__version__,
        "git_head": run("git", "rev-parse", "--short", "HEAD"),
        "policies_dirty_files": [ln[3:] for ln in run("git", "status", "--porcelain",
                                                      "policies").splitlines()],
        "policies_sha256": h.hexdigest()[:16],
        "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR", "(default __pycache__)"),
        "load_average_start": load_average(),
    }


def jsonable(o: Any) -> Any:
    if isinstance(o, dict):
        return {str(k): jsonable(v) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [jsonable(v) for v in o]
    if isinstance(o, np.integer | np.bool_):
        return o.item()
    if isinstance(o, np.floating | float):
        v = float(o)
        return v if math.isfinite(v) else str(v)
    if isinstance(o, np.ndarray):
        return jsonable(o.tolist())
    return o


# -- workloads ------------------------------------------------------------------------


def google_workload(w0: Any, n: int, rho: float, servers: int = SERVERS,
                    seed: int = SEED) -> tuple[Any, dict[str, Any]]:
    """``n`` jobs resampled from the trace workload ``w0`` (size and duration of one row
    together) with Poisson arrivals at offered load ``rho`` of ``servers`` unit servers.

    The offered work per slot is lambda * E[size * duration] (size and duration are
    resampled jointly, and they are correlated in the trace, so this is not
    lambda * E[size] * E[duration]). The horizon is the last arrival slot + 1.
    """
    import policies as P

    s0 = np.asarray(w0.sizes(), dtype=np.float64)
    d0 = np.asarray(w0.service, dtype=np.int64)
    e_sd = float(np.mean(s0 * d0))
    lam = rho * servers / e_sd
    rng = np.random.default_rng(seed)
    block = int(n / lam * 1.02) + 100
    counts = rng.poisson(lam, size=block)
    while counts.sum() < n:
        counts = np.concatenate([counts, rng.poisson(lam, size=block)])
    arrival = np.repeat(np.arange(counts.size, dtype=np.int64), counts)[:n]
    row = rng.integers(0, s0.size, size=n)
    slots = int(arrival[-1]) + 1
    w = P.Workload(arrival, s0[row], d0[row], float(slots), arrival_rate=lam,
                   meta={"resampled_from": "google2011_workload()", "rho": rho, "seed": seed})
    info = {
        "jobs": n, "slots": slots, "rho": rho, "arrival_rate_per_slot": lam,
        "trace_E_size": float(s0.mean()), "trace_E_duration_slots": float(d0.mean()),
        "trace_E_size_x_duration": e_sd,
        "rho_if_independent": lam * float(s0.mean()) * float(d0.mean()) / servers,
        "distinct_sizes": int(np.unique(s0).size), "seed": seed,
    }
    return w, info


def outcome(res: Any) -> dict[str, Any]:
    q = res.queue_length
    return {
        "jobs": res.jobs, "started": res.started, "final_queue": res.final_queue,
        "mean_queue": res.mean_queue, "max_queue": int(q.max()) if q.size else 0,
        "mean_occupancy": float(np.mean(res.occupancy)),
        "invariants_ok": res.invariants_ok,
        "queue_sha256": hashlib.sha256(np.ascontiguousarray(q).tobytes()).hexdigest()[:16],
    }


POLICY_NAMES = ("bf-js", "vqs-bf", "fifo-ff")


def policy_objects() -> dict[str, Any]:
    import policies as P

    return dict(zip(POLICY_NAMES, (P.BFJS(), P.VQSBF(), P.FIFOFF()), strict=True))


def time_policy(policy: Any, w: Any, cluster: Any, slots: int, repeats: int,
                checks: list[dict[str, Any]], label: str) -> dict[str, Any]:
    """``repeats`` calls with check=True (sim and e2e) and with check=False (e2e)."""
    import policies as P

    sim, e2e, cpu, e2e_nc, cpu_nc = [], [], [], [], []
    hashes = set()
    res = None
    for _ in range(repeats):
        res, wall, c = timed(P.simulate, policy, w, cluster, slots=slots, check=True)
        sim.append(res.seconds)
        e2e.append(wall)
        cpu.append(c)
        hashes.add(outcome(res)["queue_sha256"])
    for _ in range(repeats):
        r2, wall, c = timed(P.simulate, policy, w, cluster, slots=slots, check=False)
        e2e_nc.append(wall)
        cpu_nc.append(c)
        hashes.add(outcome(r2)["queue_sha256"])
        del r2
    assert res is not None
    out = outcome(res)
    checks.append({"check": f"{label}: invariants hold", "ok": bool(res.invariants_ok),
                   "detail": res.invariants.violations if res.invariants else None})
    checks.append({"check": f"{label}: same queue trajectory in every repeat",
                   "ok": len(hashes) == 1})
    rec = {
        "policy": policy.name, "servers": int(cluster.servers), "slots": slots,
        "sim": summary(sim), "e2e": summary(e2e), "e2e_nocheck": summary(e2e_nc),
        "cpu_e2e": summary(cpu), "cpu_e2e_nocheck": summary(cpu_nc), **out,
    }
    rec["jobs_per_s_sim"] = out["jobs"] / rec["sim"]["median_s"]
    rec["jobs_per_s_e2e"] = out["jobs"] / rec["e2e"]["median_s"]
    return rec


# -- sections -------------------------------------------------------------------------


def warm_up() -> dict[str, Any]:
    """First and second call of each policy on a tiny workload (compile or cache load)."""
    import policies as P

    arrival = np.repeat(np.arange(50, dtype=np.int64), 2)
    rng = np.random.default_rng(0)
    w = P.Workload(arrival, rng.uniform(0.1, 0.9, arrival.size),
                   rng.integers(1, 20, arrival.size), 50.0)
    cl = P.Cluster.identical(4)
    out = {}
    for name, pol in policy_objects().items():
        _, first, _ = timed(P.simulate, pol, w, cl)
        _, second, _ = timed(P.simulate, pol, w, cl)
        out[name] = {"first_s": first, "second_s": second}
    return out


_COMPILE_SNIPPET = r"""
import json, time, numpy as np
t0 = time.perf_counter()
import policies as P
imp = time.perf_counter() - t0
arrival = np.repeat(np.arange(50, dtype=np.int64), 2)
rng = np.random.default_rng(0)
w = P.Workload(arrival, rng.uniform(0.1, 0.9, arrival.size), rng.integers(1, 20, arrival.size),
               50.0)
cl = P.Cluster.identical(4)
out = {"import_s": imp}
for name, pol in (("bf-js", P.BFJS()), ("vqs-bf", P.VQSBF()), ("fifo-ff", P.FIFOFF())):
    t = time.perf_counter(); P.simulate(pol, w, cl); a = time.perf_counter() - t
    t = time.perf_counter(); P.simulate(pol, w, cl); b = time.perf_counter() - t
    out[name] = {"first_s": a, "second_s": b}
print("RESULT " + json.dumps(out))
"""


def _subprocess_json(code: str, env: dict[str, str] | None = None,
                     timeout: float = 900) -> dict[str, Any]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env=env)
    wall = time.perf_counter() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            out = json.loads(line[len("RESULT "):])
            out["subprocess_wall_s"] = wall
            return out
    return {"error": f"exit {proc.returncode}", "stderr_tail": proc.stderr[-2000:],
            "subprocess_wall_s": wall}


def section_compile() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="packsched-bench-numba-") as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        cold = _subprocess_json(_COMPILE_SNIPPET, env)
        cached = _subprocess_json(_COMPILE_SNIPPET, env)   # same fresh dir, now filled
    return {"cold": cold, "from_cache": cached}


def section_google(args: argparse.Namespace, w0: Any,
                   checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import policies as P

    cluster = P.Cluster.identical(SERVERS)
    rows = []
    for rho in args.loads:
        (w, info), build_s, _ = timed(google_workload, w0, args.jobs, rho)
        info["build_s"] = build_s
        for name, pol in policy_objects().items():
            label = f"google n={args.jobs} rho={rho} {name}"
            rec = time_policy(pol, w, cluster, info["slots"], args.repeats, checks, label)
            rec.update(case=f"google-resampled rho={rho}", workload=info)
            rows.append(rec)
            print_sim_row(rec)
        del w
        gc.collect()
    return rows


def section_trace(args: argparse.Namespace, checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import policies as P

    cluster = P.Cluster.identical(SERVERS)
    rows = []
    for beta in args.scalings:
        w = P.google2011_workload(traffic_scaling=beta)
        s, d = w.sizes(), w.service
        info = {"jobs": w.jobs, "slots": int(w.horizon), "traffic_scaling": beta,
                "offered_load": float(np.sum(s * d)) / w.horizon / SERVERS}
        for name, pol in policy_objects().items():
            rec = time_policy(pol, w, cluster, int(w.horizon), args.small_repeats, checks,
                              f"trace beta={beta} {name}")
            rec.update(case=f"google2011 trace x{beta}", workload=info)
            rows.append(rec)
            print_sim_row(rec)
    return rows


def print_sim_row(r: dict[str, Any]) -> None:
    print(f"  {r['case']:<26} {r['policy']:<8} {r['jobs']:>9,} {r['servers']:>5} "
          f"{r['slots']:>8,} {r['sim']['median_s']:8.3f} {r['e2e']['median_s']:8.3f} "
          f"{r['e2e_nocheck']['median_s']:8.3f} {r['cpu_e2e']['median_s']:8.3f} "
          f"{r['jobs_per_s_sim']:>11,.0f} {r['final_queue']:>8,} {r['mean_queue']:>10,.1f} "
          f"{'ok' if r['invariants_ok'] else 'FAIL'}", flush=True)


SIM_HEADER = (f"  {'case':<26} {'policy':<8} {'jobs':>9} {'L':>5} {'slots':>8} {'sim s':>8} "
              f"{'e2e s':>8} {'nochk s':>8} {'cpu s':>8} {'jobs/s sim':>11} {'final q':>8} "
              f"{'mean q':>10} inv")


def baseline_cases(args: argparse.Namespace, w0: Any) -> list[tuple[str, tuple, int]]:
    """(name, (arrival, size, duration, capacities, slots), repeats of the SimPy model)."""
    from baseline_slotted import random_instance

    q = args.quick
    cases = [("uniform L=20", random_instance(5000 if q else 20000, servers=20, alpha=0.9,
                                              mean_duration=100.0, seed=1), 3)]
    if not q:
        cases.append(("uniform L=100", random_instance(200000, servers=100, alpha=0.9,
                                                       mean_duration=100.0, seed=2), 3))
    # The trace's sizes (87 distinct values, so many ties) on a small cluster, at load 1.0.
    w, info = google_workload(w0, 5000 if q else 20000, 1.0, servers=50, seed=3)
    cases.append(("google-resampled L=50", (w.arrival, w.sizes(), w.service,
                                            np.ones(50), info["slots"]), 3))
    return cases


def section_baseline(args: argparse.Namespace, w0: Any,
                     checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from baseline_slotted import simulate_bfjs_plain, simulate_bfjs_simpy

    import policies as P

    rows = []
    for name, inst, simpy_repeats in baseline_cases(args, w0):
        arrival, size, duration, caps, slots = inst
        w = P.Workload(np.asarray(arrival), np.asarray(size), np.asarray(duration),
                       float(slots))
        cluster = P.Cluster.identical(int(caps.size))
        rec: dict[str, Any] = {"case": name, "jobs": int(w.jobs), "servers": int(caps.size),
                               "slots": int(slots)}
        outs: dict[str, dict[str, np.ndarray]] = {}
        for label, fn, reps in (
            ("simpy", simulate_bfjs_simpy, simpy_repeats),
            ("plain", simulate_bfjs_plain, args.small_repeats),
        ):
            times, cpus = [], []
            for _ in range(reps):
                try:
                    with time_limit(args.baseline_cap):
                        out, wall, c = timed(fn, arrival, size, duration, caps, slots)
                except CaseTimeout as e:
                    rec[f"{label}_error"] = str(e)
                    break
                outs[label] = out
                times.append(wall)
                cpus.append(c)
            rec[label] = summary(times)
            rec[f"cpu_{label}"] = summary(cpus)
        if len(outs) == 2:
            checks.append({"check": f"baseline {name}: SimPy and plain models agree",
                           "ok": all(np.array_equal(outs["simpy"][k], outs["plain"][k])
                                     for k in ("queue_length", "start", "server"))})
        ref = outs.get("simpy", outs.get("plain"))
        sims, e2e, e2e_nc = [], [], []
        res = None
        for _ in range(max(args.small_repeats, 5)):
            res, wall, _ = timed(P.simulate, P.BFJS(), w, cluster, slots=slots)
            sims.append(res.seconds)
            e2e.append(wall)
            _, wall, _ = timed(P.simulate, P.BFJS(), w, cluster, slots=slots, check=False)
            e2e_nc.append(wall)
        assert res is not None
        rec.update(sim=summary(sims), e2e=summary(e2e), e2e_nocheck=summary(e2e_nc),
                   invariants_ok=res.invariants_ok, mean_queue=res.mean_queue,
                   final_queue=res.final_queue, started=res.started)
        if ref is not None:
            same = {k: bool(np.array_equal(getattr(res, k), ref[k]))
                    for k in ("queue_length", "start", "server")}
            qr_diff = float(np.max(np.abs(res.queued_resource - ref["queued_resource"])))
            rec.update(identical=same, queued_resource_max_abs_diff=qr_diff)
            checks.append({"check": f"baseline {name}: identical queue_length, start and "
                                    "server arrays", "ok": all(same.values()), "detail": same})
            checks.append({"check": f"baseline {name}: queued_resource within 1e-9",
                           "ok": qr_diff <= 1e-9, "detail": qr_diff})
        for label in ("simpy", "plain"):
            base = rec[label]["median_s"]
            if base is not None:
                rec[f"speedup_{label}_vs_e2e"] = base / rec["e2e"]["median_s"]
                rec[f"speedup_{label}_vs_sim"] = base / rec["sim"]["median_s"]
        rows.append(rec)
        print_baseline_row(rec)
    return rows


BASE_HEADER = (f"  {'case':<22} {'jobs':>8} {'L':>4} {'slots':>8} {'SimPy s':>8} "
               f"{'plain s':>8} {'sim s':>8} {'e2e s':>7} {'SimPy/e2e':>9} {'plain/e2e':>9} "
               f"{'SimPy/sim':>9} identical")


def print_baseline_row(r: dict[str, Any]) -> None:
    def f(x: float | None, spec: str) -> str:
        return "-" if x is None else format(x, spec)

    same = r.get("identical")
    print(f"  {r['case']:<22} {r['jobs']:>8,} {r['servers']:>4} {r['slots']:>8,} "
          f"{f(r['simpy']['median_s'], '8.3f')} {f(r['plain']['median_s'], '8.3f')} "
          f"{r['sim']['median_s']:8.4f} {r['e2e']['median_s']:7.4f} "
          f"{f(r.get('speedup_simpy_vs_e2e'), '8.1f')}x "
          f"{f(r.get('speedup_plain_vs_e2e'), '8.1f')}x "
          f"{f(r.get('speedup_simpy_vs_sim'), '8.1f')}x "
          f"{'yes' if same and all(same.values()) else 'NO'}", flush=True)


_MEMORY_SNIPPET = r"""
import json, resource, sys, time
sys.path.insert(0, "benchmarks")
import numpy as np
import policies as P
import bench_simulate as B
def rss():
    # VmHWM: the peak RSS of this process image. ru_maxrss is not used for the phases:
    # after fork/vfork + exec Linux carries the parent's peak into it.
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out = {"after_import": rss()}
w0 = P.google2011_workload()
w, info = B.google_workload(w0, __JOBS__, __RHO__)
del w0
out["after_workload"] = rss()
B.warm_up()
out["after_warm_up"] = rss()
pol = B.policy_objects()[__POLICY__]
t = time.perf_counter()
res = P.simulate(pol, w, P.Cluster.identical(B.SERVERS), slots=info["slots"], check=True)
out["e2e_s"] = time.perf_counter() - t
out["sim_s"] = res.seconds
out["invariants_ok"] = res.invariants_ok
out["peak"] = rss()
out["ru_maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out["jobs"] = info["jobs"]
out["workload_bytes"] = int(w.arrival.nbytes + w.demand.nbytes + w.service.nbytes
                            + w.weight.nbytes)
print("RESULT " + json.dumps(out))
"""


def section_memory(args: argparse.Namespace,
                   checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for rho, name in args.memory_cases:
        code = (_MEMORY_SNIPPET.replace("__JOBS__", str(args.jobs))
                .replace("__RHO__", repr(rho)).replace("__POLICY__", repr(name)))
        r = _subprocess_json(code)
        r.update(policy=name, rho=rho)
        rows.append(r)
        if "error" in r:
            print(f"  {name:<8} rho={rho}: ERROR {r['error']} {r['stderr_tail'][-300:]}")
            checks.append({"check": f"memory {name} rho={rho} ran", "ok": False})
            continue
        r["parent_peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(f"  {name:<8} rho={rho:<4} jobs {r['jobs']:>9,}  peak RSS "
              f"{r['peak'] / 2**20:7.0f} MiB (after import {r['after_import'] / 2**20:.0f}, "
              f"workload built {r['after_workload'] / 2**20:.0f}, warm-up "
              f"{r['after_warm_up'] / 2**20:.0f})  sim {r['sim_s']:.2f} s, "
              f"e2e {r['e2e_s']:.2f} s", flush=True)
    return rows


# -- main -----------------------------------------------------------------------------


def collect_targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for r in report.get("google", []):
        sim, e2e = r["sim"]["median_s"], r["e2e"]["median_s"]
        nc = r["e2e_nocheck"]["median_s"]
        out.append({
            "what": f"{r['policy']} rho={r['workload']['rho']} {r['jobs']:,} jobs, "
                    f"{r['servers']} servers <= {TARGET_RUN_S:g} s",
            "met_sim": sim <= TARGET_RUN_S, "met_e2e": e2e <= TARGET_RUN_S,
            "met": e2e <= TARGET_RUN_S,
            "measured": f"sim {sim:.2f} s, e2e {e2e:.2f} s, e2e without checks {nc:.2f} s",
        })
    for r in report.get("baseline", []):
        for label in ("simpy", "plain"):
            x = r.get(f"speedup_{label}_vs_e2e")
            if x is not None:
                out.append({"what": f"baseline {r['case']}: {label} / simulate e2e >= "
                                    f"{TARGET_SPEEDUP:g}x", "met": x >= TARGET_SPEEDUP,
                            "measured": f"{x:.1f}x (vs kernel only "
                                        f"{r[f'speedup_{label}_vs_sim']:.1f}x)"})
    for r in report.get("memory", []):
        if "peak" in r:
            out.append({"what": f"peak RSS {r['policy']} rho={r['rho']} {r['jobs']:,} jobs "
                                "< 1 GiB", "met": r["peak"] < TARGET_RSS_BYTES,
                        "measured": f"{r['peak'] / 2**20:.0f} MiB"})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller sizes; < ~60 s in total")
    ap.add_argument("--json", metavar="PATH", help="write every number to this JSON file")
    ap.add_argument("--jobs", type=int, default=None,
                    help="jobs of the Google-scale case (default 1,000,000; quick 100,000)")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed calls per Google-scale case and variant (default 3, quick 1)")
    ap.add_argument("--small-repeats", type=int, default=None,
                    help="timed calls for the small cases (default 5, quick 3)")
    ap.add_argument("--baseline-cap", type=float, default=120.0,
                    help="interrupt one baseline call after this many seconds")
    ap.add_argument("--sections", default=None,
                    help="comma-separated subset of google,trace,baseline,memory,compile "
                         "(default all; quick: all but compile)")
    args = ap.parse_args(argv)
    q = args.quick
    args.jobs = args.jobs or (100_000 if q else 1_000_000)
    args.repeats = args.repeats or (1 if q else 3)
    args.small_repeats = args.small_repeats or (3 if q else 5)
    args.loads = (0.9, 1.1)
    args.scalings = (1.0,) if q else (1.0, 1.6)
    args.memory_cases = ([(1.1, "bf-js")] if q else
                         [(rho, name) for rho in args.loads for name in POLICY_NAMES])
    sections = set((args.sections or ("google,trace,baseline,memory" if q else
                                      "google,trace,baseline,memory,compile")).split(","))

    wall0 = time.perf_counter()
    t0 = time.perf_counter()
    import policies as P
    import_s = time.perf_counter() - t0
    env = environment()
    report: dict[str, Any] = {
        "mode": "quick" if q else "full", "environment": env, "import_s": import_s,
        "settings": {"jobs": args.jobs, "repeats": args.repeats,
                     "small_repeats": args.small_repeats, "servers": SERVERS,
                     "loads": args.loads, "traffic_scalings": args.scalings, "seed": SEED},
    }
    print(f"packsched simulation benchmarks ({report['mode']}) - python {env['python']}, "
          f"nproc {env['nproc']}, {env['cpu_model']}, numpy {env['numpy']}, numba "
          f"{env['numba']}, simpy {env['simpy']}, git {env['git_head']}"
          + (f" + uncommitted policies/ {env['policies_dirty_files']}"
             if env["policies_dirty_files"] else "")
          + f"; load average {env['load_average_start']}")
    wu = warm_up()
    report["warm_up"] = wu
    print(f"import {import_s:.2f} s; warm-up (first call: compile or cache load) "
          + ", ".join(f"{k} {v['first_s']:.2f} s" for k, v in wu.items()))
    checks: list[dict[str, Any]] = []
    w0 = P.google2011_workload()

    if "compile" in sections:
        print("\n== numba compilation of the kernel (fresh subprocess, empty NUMBA_CACHE_DIR)")
        c = section_compile()
        report["compile"] = c
        for k, v in c.items():
            if "error" in v:
                print(f"  {k}: ERROR {v['error']}")
            else:
                print(f"  {k:<11} first call bf-js {v['bf-js']['first_s']:6.2f} s (then "
                      f"{v['bf-js']['second_s']:.4f} s); vqs-bf {v['vqs-bf']['first_s']:.2f} s, "
                      f"fifo-ff {v['fifo-ff']['first_s']:.2f} s; import {v['import_s']:.2f} s")
    if "google" in sections:
        print(f"\n== Google-scale: {SERVERS} servers, {args.jobs:,} jobs resampled from the "
              f"trace (median of {args.repeats})")
        print(SIM_HEADER)
        report["google"] = section_google(args, w0, checks)
    if "trace" in sections:
        print(f"\n== the packaged Google 2011 trace on {SERVERS} servers "
              f"(median of {args.small_repeats})")
        print(SIM_HEADER)
        report["trace"] = section_trace(args, checks)
    if "baseline" in sections:
        print("\n== BF-J/S baseline (benchmarks/baseline_bfjs.py) vs policies.simulate(BFJS())")
        print(BASE_HEADER)
        report["baseline"] = section_baseline(args, w0, checks)
    if "memory" in sections:
        print(f"\n== peak RSS of a fresh subprocess running one {args.jobs:,}-job simulation "
              "(check=True)")
        report["memory"] = section_memory(args, checks)

    targets = collect_targets(report)
    report["targets"] = targets
    report["checks"] = checks
    report["environment"]["load_average_end"] = load_average()
    report["total_wall_s"] = time.perf_counter() - wall0
    print("\n== targets")
    for t in targets:
        extra = ""
        if "met_sim" in t:
            extra = f" [kernel only: {'met' if t['met_sim'] else 'missed'}]"
        print(f"  {'met   ' if t['met'] else 'MISSED'} {t['what']}: {t['measured']}{extra}")
    print("\n== checks")
    for c in checks:
        print(f"  {'ok  ' if c['ok'] else 'FAIL'} {c['check']}")
    print(f"\ntotal wall time {report['total_wall_s']:.1f} s; load average "
          f"{env['load_average_start']} -> {env['load_average_end']}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(jsonable(report), indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0 if all(c["ok"] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
