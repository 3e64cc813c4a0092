#!/usr/bin/env python
"""Benchmarks of the PG18 continuous-time simulator: RMS at scale, and a SimPy baseline.

Run from the repository root::

    python benchmarks/bench_pg18.py                                  # full run
    python benchmarks/bench_pg18.py --quick                          # ~30 s
    python benchmarks/bench_pg18.py --out benchmarks/results/pg18-2core.json
    python benchmarks/bench_pg18.py --sections baseline              # a subset

The setting is PG18 Sec. VII-A with the three EC2 job types of Table I on its servers
(``theory.instances.EC2_TABLE_I``: memory, CPU and storage; unit-mean exponential
service), Poisson arrivals at traffic intensity 0.9 (``policies.rates_for_intensity``),
RMS (Algorithm 1, ``make_policy("rms")``) with the paper's clocks of rate L per type and
epsilon = 0.1. The workload is drawn with a fixed seed and cut at the time of its
(N+1)-th arrival, so a run sees exactly N jobs.

Sections:

``large``
    1,000 servers and 1,000,000 arrivals (quick: 100,000) with the compiled engine
    (``simulate_continuous(..., engine="compiled")``; if it cannot be imported, the
    plain-Python ``policies.simulate_continuous`` with a note). Wall seconds of the
    whole call (the engine's own ``seconds`` too), events (arrivals, departures of real
    and dummy jobs, clock ticks) per second. Target: <= 10 s.
``memory``
    The same run in a fresh subprocess: ``VmHWM`` (peak RSS, ``/proc/self/status``)
    after import, after building the workload and after the run, ``ru_maxrss``, and the
    ``tracemalloc`` peak of a second run (the Python allocations, numpy arrays
    included; skipped for the plain-Python engine, which it would slow several-fold).
``baseline``
    The compiled engine against ``benchmarks/simpy_rms.py`` (RMS written in SimPy, the
    way a queueing researcher would) on a smaller instance: 50 servers and 50,000
    arrivals (quick: 20 and 10,000); the plain-Python engine for context. Events per
    second, median of ``--repeats``; the ratio compiled / SimPy (target >= 20x). The
    three must give the same trajectory: per-job start, server and finish, the number
    of ticks and dummy placements (a check: exit code 1 if not).

Timing: each engine is warmed up first (numba compilation or cache load excluded and
reported); every number is a median of ``--repeats`` calls, with the process CPU time
next to the wall time (on a shared 2-core machine CPU well below wall means other
processes took the cores).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
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

from benchmarks.timing import summary  # noqa: E402
from theory.instances import EC2_TABLE_I  # noqa: E402

TARGET_LARGE_S = 10.0       # 1,000 servers, 1,000,000 arrivals
TARGET_SPEEDUP = 20.0       # events per second, compiled engine over the SimPy model

EC2_SIZES = EC2_TABLE_I.sizes()
EC2_CAPACITY = [float(c) for c in EC2_TABLE_I.capacity()]
INTENSITY = 0.9
EPSILON = 0.1
WORKLOAD_SEED = 18
SCHEDULING_SEED = 1


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
    import simpy

    def run(*a: str) -> str:
        try:
            return subprocess.run(list(a), cwd=ROOT, capture_output=True, text=True,
                                  timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    cpu_model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    try:
        import numba
        numba_version = numba.__version__
    except ImportError:
        numba_version = None
    return {
        "python": platform.python_version(), "platform": platform.platform(),
        "nproc": run("nproc"), "cpu_model": cpu_model, "numpy": np.__version__,
        "numba": numba_version, "simpy": simpy.__version__,
        "git_head": run("git", "rev-parse", "--short", "HEAD"),
        "dirty_files": [ln.split(maxsplit=1)[-1] for ln in run(
            "git", "status", "--porcelain", "policies", "benchmarks").splitlines()],
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


def compiled_engine() -> tuple[Callable[..., Any] | None, str]:
    """The compiled engine (``simulate_continuous(..., engine="compiled")``; older
    commits: ``policies.continuous.compiled.simulate_compiled``), else (None, why)."""
    try:
        from policies.continuous.compiled import simulate_compiled  # commits before 40
        return simulate_compiled, "policies.continuous.compiled.simulate_compiled"
    except ImportError:
        pass
    try:
        from policies.continuous.engine import simulate_continuous
    except ImportError as e:
        return None, f"policies.continuous.engine not importable ({e})"

    def compiled(*args: Any, **kw: Any) -> Any:
        return simulate_continuous(*args, engine="compiled", **kw)
    return compiled, "policies.continuous.simulate_continuous(engine='compiled')"


def ec2_instance(servers: int, arrivals: int, seed: int = WORKLOAD_SEED) -> dict[str, Any]:
    """The EC2 setting on ``servers`` servers with exactly ``arrivals`` jobs."""
    import policies as P

    types = P.JobTypes(EC2_SIZES)
    cluster = P.Cluster.identical(servers, EC2_CAPACITY)
    lam = P.rates_for_intensity(types, cluster, INTENSITY)
    span = arrivals / float(lam.sum())
    for stretch in (1.01, 1.05, 1.2):
        w = P.poisson_type_workload(types, lam, span * stretch + 1.0, seed=seed,
                                    servers=servers)
        if w.jobs > arrivals:
            break
    else:  # pragma: no cover - Poisson(1.2 n) <= n
        raise RuntimeError("could not draw enough arrivals")
    horizon = float(w.arrival[arrivals])   # exactly `arrivals` jobs arrive before it
    return {"types": types, "cluster": cluster, "workload": w, "horizon": horizon,
            "clock_rates": float(servers), "arrival_rates": lam.tolist(),
            "servers": servers, "arrivals": arrivals}


def python_engine(*args: Any, **kw: Any) -> Any:
    """The plain-Python engine (``simulate_continuous`` would pick the compiled one)."""
    import policies as P

    return P.simulate_continuous(*args, engine="python", **kw)


def run_engine(engine: Callable[..., Any], inst: dict[str, Any], *, check: bool = True) -> Any:
    """One RMS run; ``check=False`` leaves out the invariant checker (which re-reads the
    whole record after the run), so that only the simulation is timed."""
    import policies as P

    pol = P.make_policy("rms", clock_rates=inst["clock_rates"], epsilon=EPSILON)
    return engine(pol, inst["workload"], inst["cluster"], inst["types"],
                  horizon=inst["horizon"], seed=SCHEDULING_SEED, check=check)


def run_simpy(inst: dict[str, Any]) -> dict[str, Any]:
    from benchmarks.simpy_rms import simulate_simpy_rms

    return simulate_simpy_rms(inst["types"], inst["cluster"], inst["workload"],
                              horizon=inst["horizon"], clock_rates=inst["clock_rates"],
                              epsilon=EPSILON, seed=SCHEDULING_SEED)


def trajectory(res: Any) -> dict[str, Any]:
    get = res.__getitem__ if isinstance(res, dict) else lambda k: getattr(res, k)
    return {k: get(k) for k in ("start", "server", "finish", "ticks", "dummy_placements",
                                "events")}


def same_trajectory(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Fields where two trajectories differ (empty: identical)."""
    bad = [k for k in ("start", "server", "finish")
           if not np.array_equal(np.asarray(a[k]), np.asarray(b[k]), equal_nan=True)]
    return bad + [k for k in ("ticks", "dummy_placements", "events") if int(a[k]) != int(b[k])]


def warm_up(engine: Callable[..., Any]) -> dict[str, float]:
    """Two calls on a tiny instance: the first compiles (or loads the cache)."""
    inst = ec2_instance(5, 500)
    _, a, _ = timed(run_engine, engine, inst)
    _, b, _ = timed(run_engine, engine, inst)
    return {"first_s": a, "second_s": b}


def timed_runs(fn: Callable[[], Any], repeats: int) -> tuple[Any, dict[str, Any]]:
    """``repeats`` calls of ``fn``: the last result and the summary of the wall times,
    with the process CPU times and the engine's own ``seconds`` (no invariant checker)
    where the result has one."""
    walls, cpus, own, res = [], [], [], None
    for _ in range(repeats):
        res, wall, cpu = timed(fn)
        walls.append(wall)
        cpus.append(cpu)
        if hasattr(res, "seconds"):
            own.append(float(res.seconds))
    s = summary(walls)
    s["cpu_median_s"] = statistics.median(cpus)
    s["cpu_all_s"] = cpus
    if own:
        s["engine_seconds_median"] = statistics.median(own)
        s["engine_seconds_all"] = own
    return res, s


# -- sections -------------------------------------------------------------------------


def section_large(args: argparse.Namespace, engine: Callable[..., Any],
                  checks: list[dict[str, Any]]) -> dict[str, Any]:
    t0 = time.perf_counter()
    inst = ec2_instance(args.large_servers, args.large_arrivals)
    build_s = time.perf_counter() - t0
    res, s = timed_runs(lambda: run_engine(engine, inst), args.repeats)
    events = int(res.events)
    out = {"servers": inst["servers"], "arrivals": inst["arrivals"],
           "horizon": inst["horizon"], "arrival_rates": inst["arrival_rates"],
           "clock_rates_per_type": inst["clock_rates"], "workload_build_s": build_s,
           "wall": s, "engine_seconds": s["engine_seconds_median"], "events": events,
           "ticks": int(res.ticks), "dummy_placements": int(res.dummy_placements),
           "started": int(np.isfinite(res.start).sum()),
           "events_per_s": events / s["median_s"],
           "invariants_ok": getattr(res, "invariants_ok", None),
           "mean_queue": float(res.mean_queue)}
    checks.append({"check": f"large run invariants ({inst['servers']} servers, "
                            f"{inst['arrivals']:,} arrivals)",
                   "ok": out["invariants_ok"] is not False})
    return out


_MEMORY_SNIPPET = r"""
import json, resource, sys, time, tracemalloc
sys.path.insert(0, "benchmarks"); sys.path.insert(0, ".")
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out = {"after_import": None}
import numpy as np
import policies as P
import bench_pg18 as B
out["after_import"] = rss()
engine, note = B.compiled_engine()
if engine is None or __PYTHON__:
    engine = B.python_engine
out["engine"] = getattr(engine, "__module__", "?") + "." + engine.__name__
B.warm_up(engine)
out["after_warm_up"] = rss()
inst = B.ec2_instance(__SERVERS__, __ARRIVALS__)
out["after_workload"] = rss()
t = time.perf_counter()
res = B.run_engine(engine, inst)
out["wall_s"] = time.perf_counter() - t
out["events"] = int(res.events)
out["peak_rss"] = rss()
out["ru_maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
del res
if __TRACEMALLOC__:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    res = B.run_engine(engine, inst)
    out["tracemalloc_peak"] = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
print("RESULT " + json.dumps(out))
"""


def section_memory(args: argparse.Namespace, python_fallback: bool,
                   checks: list[dict[str, Any]]) -> dict[str, Any]:
    code = (_MEMORY_SNIPPET.replace("__SERVERS__", str(args.large_servers))
            .replace("__ARRIVALS__", str(args.large_arrivals))
            .replace("__PYTHON__", repr(python_fallback))
            .replace("__TRACEMALLOC__", repr(not python_fallback)))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)
    out: dict[str, Any] = {"error": f"exit {proc.returncode}",
                           "stderr_tail": proc.stderr[-2000:]}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            out = json.loads(line[len("RESULT "):])
    out["subprocess_wall_s"] = time.perf_counter() - t0
    checks.append({"check": "memory subprocess ran", "ok": "error" not in out})
    return out


def section_baseline(args: argparse.Namespace, engine: Callable[..., Any] | None,
                     checks: list[dict[str, Any]]) -> dict[str, Any]:
    inst = ec2_instance(args.small_servers, args.small_arrivals)
    out: dict[str, Any] = {"servers": inst["servers"], "arrivals": inst["arrivals"],
                           "horizon": inst["horizon"], "repeats": args.repeats}
    runners: dict[str, Callable[[], Any]] = {"simpy": lambda: run_simpy(inst)}
    if engine is not None:
        runners["compiled"] = lambda: run_engine(engine, inst, check=False)
    runners["python"] = lambda: run_engine(python_engine, inst, check=False)
    trajs = {}
    for name, fn in runners.items():
        res, s = timed_runs(fn, args.repeats)
        trajs[name] = trajectory(res)
        ev = int(trajs[name]["events"])
        out[name] = {"wall": s, "events": ev, "events_per_s": ev / s["median_s"]}
    for name in runners:
        if name != "simpy":
            diff = same_trajectory(trajs["simpy"], trajs[name])
            out[f"identical_{name}_simpy"] = not diff
            out[f"differences_{name}_simpy"] = diff
            checks.append({"check": f"{name} engine and SimPy model: same trajectory on "
                                    f"{inst['servers']} servers, {inst['arrivals']:,} "
                                    f"arrivals", "ok": not diff})
    out["ticks"] = int(trajs["simpy"]["ticks"])
    out["dummy_placements"] = int(trajs["simpy"]["dummy_placements"])
    fast = "compiled" if engine is not None else "python"
    out["speedup_engine"] = fast
    out["speedup_vs_simpy"] = out[fast]["events_per_s"] / out["simpy"]["events_per_s"]
    out["speedup_vs_simpy_engine_seconds"] = (out["simpy"]["wall"]["median_s"]
                                              / out[fast]["wall"]["engine_seconds_median"])
    out["python_vs_simpy"] = out["python"]["events_per_s"] / out["simpy"]["events_per_s"]
    return out


# -- main -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller sizes, about 30 s")
    ap.add_argument("--out", "--json", dest="out", metavar="PATH",
                    help="write every number to this JSON file")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed calls per case (default 3; quick: 1 large, 3 baseline)")
    ap.add_argument("--sections", default="large,memory,baseline",
                    help="comma-separated subset of large,memory,baseline")
    ap.add_argument("--python", action="store_true",
                    help="time the plain-Python engine even if the compiled one exists")
    args = ap.parse_args(argv)
    q = args.quick
    args.large_servers = 1000
    args.large_arrivals = 100_000 if q else 1_000_000
    args.small_servers = 20 if q else 50
    args.small_arrivals = 10_000 if q else 50_000
    repeats = args.repeats
    sections = set(args.sections.split(","))
    os.environ.setdefault("PACKSCHED_PROGRESS", "0")

    wall0 = time.perf_counter()

    env = environment()
    engine, note = compiled_engine()
    if args.python:
        engine, note = None, "--python given"
    large_engine = engine or python_engine
    report: dict[str, Any] = {
        "mode": "quick" if q else "full", "environment": env,
        "engine": "compiled" if engine is not None else "python",
        "engine_note": note,
        "settings": {"ec2_sizes": EC2_SIZES, "capacity": EC2_CAPACITY,
                     "intensity": INTENSITY, "epsilon": EPSILON, "clock_rates": "L per type",
                     "workload_seed": WORKLOAD_SEED, "scheduling_seed": SCHEDULING_SEED},
    }
    print(f"PG18 RMS benchmarks ({report['mode']}) - python {env['python']}, nproc "
          f"{env['nproc']}, {env['cpu_model']}, numpy {env['numpy']}, numba {env['numba']}, "
          f"simpy {env['simpy']}, git {env['git_head']}"
          + (f" + uncommitted {env['dirty_files']}" if env["dirty_files"] else "")
          + f"; load average {env['load_average_start']}")
    if engine is None:
        print(f"NOTE: {note}: the plain-Python engine policies.simulate_continuous is timed "
              "in its place")
    wu = warm_up(large_engine)
    report["warm_up"] = wu
    print(f"warm-up of {report['engine']} engine: first call {wu['first_s']:.2f} s, second "
          f"{wu['second_s']:.3f} s")
    checks: list[dict[str, Any]] = []

    if "large" in sections:
        args.repeats = repeats or (1 if q or engine is None else 3)
        print(f"\n== RMS, EC2 types, {args.large_servers:,} servers, "
              f"{args.large_arrivals:,} arrivals, intensity {INTENSITY} "
              f"({report['engine']} engine, median of {args.repeats})")
        r = report["large"] = section_large(args, large_engine, checks)
        w = r["wall"]
        print(f"  wall {w['median_s']:.2f} s (min {w['min_s']:.2f}, max {w['max_s']:.2f}; CPU "
              f"{w['cpu_median_s']:.2f} s), engine seconds {r['engine_seconds']:.2f}; "
              f"{r['events']:,} events ({r['ticks']:,} ticks, {r['dummy_placements']:,} "
              f"dummies) = {r['events_per_s']:,.0f} events/s; mean queue "
              f"{r['mean_queue']:.1f}; workload built in {r['workload_build_s']:.2f} s")
    if "memory" in sections:
        print(f"\n== memory: one {args.large_arrivals:,}-arrival run in a fresh subprocess")
        m = report["memory"] = section_memory(args, engine is None, checks)
        if "error" in m:
            print(f"  ERROR {m['error']}: {m['stderr_tail'][-400:]}")
        else:
            mib = 2.0 ** 20
            tm = (f", tracemalloc peak {m['tracemalloc_peak'] / mib:.0f} MiB"
                  if "tracemalloc_peak" in m else ", tracemalloc skipped (Python engine)")
            print(f"  peak RSS (VmHWM) {m['peak_rss'] / mib:.0f} MiB (after import "
                  f"{m['after_import'] / mib:.0f}, warm-up {m['after_warm_up'] / mib:.0f}, "
                  f"workload {m['after_workload'] / mib:.0f}), ru_maxrss "
                  f"{m['ru_maxrss'] / mib:.0f} MiB{tm}; run {m['wall_s']:.2f} s")
    if "baseline" in sections:
        args.repeats = repeats or 3
        print(f"\n== events/s: {report['engine']} engine vs benchmarks/simpy_rms.py, "
              f"{args.small_servers} servers, {args.small_arrivals:,} arrivals "
              f"(median of {args.repeats})")
        b = report["baseline"] = section_baseline(args, engine, checks)
        for name in ("compiled", "simpy", "python"):
            if name in b:
                c = b[name]
                print(f"  {name:<9} {c['wall']['median_s']:8.3f} s  CPU "
                      f"{c['wall']['cpu_median_s']:8.3f} s  {c['events']:>9,} events  "
                      f"{c['events_per_s']:>12,.0f} events/s")
        es = b.get("speedup_vs_simpy_engine_seconds")
        print(f"  {b['speedup_engine']} / SimPy (events/s, whole call): "
              f"x{b['speedup_vs_simpy']:.1f}"
              + (f" (engine seconds only: x{es:.1f})" if es else "")
              + (f"; python / SimPy: x{b['python_vs_simpy']:.2f}"
                 if b["speedup_engine"] != "python" else "")
              + "; identical trajectories: "
              + ", ".join(f"{k[10:-6]} {v}" for k, v in b.items()
                          if k.startswith("identical_")))

    targets = []
    if "large" in report:
        r = report["large"]
        targets.append({"what": f"RMS {r['servers']} servers, {r['arrivals']:,} arrivals "
                                f"<= {TARGET_LARGE_S:g} s ({report['engine']})",
                        "measured": f"{r['wall']['median_s']:.2f} s",
                        "met": r["wall"]["median_s"] <= TARGET_LARGE_S,
                        "full_size": r["arrivals"] >= 1_000_000})
    if "baseline" in report:
        b = report["baseline"]
        targets.append({"what": f"{b['speedup_engine']} engine >= {TARGET_SPEEDUP:g}x the "
                                "SimPy model's events/s",
                        "measured": f"x{b['speedup_vs_simpy']:.1f}",
                        "met": b["speedup_vs_simpy"] >= TARGET_SPEEDUP})
    report["targets"] = targets
    report["checks"] = checks
    report["environment"]["load_average_end"] = load_average()
    report["parent_ru_maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    report["total_wall_s"] = time.perf_counter() - wall0
    print("\n== targets")
    for t in targets:
        size = "" if t.get("full_size", True) else " [reduced size]"
        print(f"  {'met   ' if t['met'] else 'MISSED'} {t['what']}: {t['measured']}{size}")
    print("\n== checks")
    for c in checks:
        print(f"  {'ok  ' if c['ok'] else 'FAIL'} {c['check']}")
    print(f"\ntotal wall time {report['total_wall_s']:.1f} s; load average "
          f"{env['load_average_start']} -> {env['load_average_end']}")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(jsonable(report), indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0 if all(c["ok"] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
