#!/usr/bin/env python
"""Benchmarks of the capacity solvers: rho*, bin-packing LP bounds, Theorem 1 brackets.

Run from the repository root::

    python benchmarks/bench_capacity.py                 # full run (several minutes)
    python benchmarks/bench_capacity.py --quick         # smaller sizes, < ~60 s
    python benchmarks/bench_capacity.py --json out.json # also write every number as JSON
    python benchmarks/bench_capacity.py --profile T1000-wide-equal   # cProfile one case

Timings are MEDIANS over repeats (this is a 2-core machine and single timings are
noisy). Numba kernels are compiled by warm-up calls first; the compile time is
reported separately (with a fresh numba cache directory unless ``--numba-cache``).
See ``benchmarks/README.md`` for the targets and the measured numbers.

Sections:

1. ``rho_star`` by column generation at 30, 100 and 1,000 job types (seeded random
   sizes given as 4-decimal strings, i.e. exact rationals), against full enumeration
   where it is feasible, plus the Google 2011 trace (544 distinct sizes).
2. ``bin_packing_lp`` on seeded BPPLIB-shaped instances (Falkenauer U/T, Scholl 1/2/3,
   Hard28-like) written to and read back from ``benchmarks/instances/``.
3. Theorem 1 brackets ``quantile_brackets(Uniform(a, b), levels, servers=5, rtol=1e-3)``.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import math
import os
import platform
import pstats
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
INSTANCES = HERE / "instances"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.timing import CaseTimeout, summary, time_limit  # noqa: E402

#: Targets of the brief (seconds, median wall time).
TARGET_RHO_1000 = 2.0
TARGET_BPP_1000 = 5.0
TARGET_BRACKET = 10.0
REL_AGREE = 1e-9


# -- timing helpers -----------------------------------------------------------------


def measure(fn: Callable[[], Any], repeats: int, budget: float,
            cap: float | None) -> tuple[Any, dict[str, Any]]:
    """Call ``fn`` up to ``repeats`` times (fewer once ``budget`` seconds are spent).

    Returns the last result and the timing summary; on an exception (or a time-cap
    interrupt) returns ``None`` and a summary carrying ``error``.
    """
    times: list[float] = []
    result = None
    start = time.perf_counter()
    while len(times) < repeats:
        t0 = time.perf_counter()
        try:
            with time_limit(cap):
                result = fn()
        except Exception as e:  # noqa: BLE001 - a failing case is a result, not a crash
            s = summary(times)
            s["error"] = f"{type(e).__name__}: {e}"
            s["seconds_to_error"] = time.perf_counter() - t0
            s["traceback_tail"] = traceback.format_exc().strip().splitlines()[-6:]
            return None, s
        times.append(time.perf_counter() - t0)
        spent = time.perf_counter() - start
        if spent + times[-1] > budget:
            break
    return result, summary(times)


def fnum(x: Any) -> float | None:
    if x is None:
        return None
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError):
        return None


def exact_text(x: Any) -> str | None:
    return str(x) if isinstance(x, Fraction) else None


# -- environment --------------------------------------------------------------------


def environment() -> dict[str, Any]:
    import highspy
    import numba

    def git(*a: str) -> str:
        try:
            return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True,
                                  timeout=20).stdout.rstrip("\n")
        except (OSError, subprocess.SubprocessError):
            return ""

    h = hashlib.sha256()
    for p in sorted((ROOT / "capacity").glob("*.py")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    try:
        highs_version = highspy.Highs().version()
    except Exception:  # noqa: BLE001
        highs_version = "?"
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "highs": highs_version,
        "git_head": git("rev-parse", "--short", "HEAD").strip(),
        "capacity_dirty_files": [ln[3:] for ln in git("status", "--porcelain", "capacity")
                                 .splitlines()],
        "capacity_sha256": h.hexdigest()[:16],
        "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR", "(default __pycache__)"),
    }


def warm_up() -> dict[str, Any]:
    """Compile every numba kernel on tiny inputs; time first and second calls.

    ``compile_s`` = first call - second call. The public-API warm-ups afterwards cover
    the paths the benchmarks use (enumeration, exact-grid pricing, the rounded grid
    with branch and bound, float data, the exact certificate).
    """
    from capacity.knapsack import knapsack_bb, knapsack_dp
    from capacity.supportable_workload import bin_packing_lp, rho_star

    calls: list[tuple[str, Callable[[], Any]]] = [
        ("knapsack_bb float", lambda: knapsack_bb(np.array([1.0, 0.7]), np.array([[0.4], [0.3]]),
                                                  np.array([1.0]))),
        ("knapsack_bb exact int", lambda: knapsack_bb(
            np.array([5, 3], dtype=np.int64), np.array([[4], [3]], dtype=np.int64),
            np.array([10], dtype=np.int64), exact=True)),
        ("knapsack_bb float, 2 resources", lambda: knapsack_bb(
            np.array([1.0, 0.7]), np.array([[0.4, 0.2], [0.3, 0.5]]), np.array([1.0, 1.0]))),
        ("knapsack_dp float values", lambda: knapsack_dp(
            np.array([1.0, 0.7]), np.array([4, 3], dtype=np.int64), 10,
            per_type_threshold=0.0, max_columns=4)),
        ("knapsack_dp int values", lambda: knapsack_dp(
            np.array([5, 3], dtype=np.int64), np.array([4, 3], dtype=np.int64), 10)),
        ("rho_star enumerate", lambda: rho_star(["0.4", "0.6"], method="enumerate")),
        ("rho_star column-generation (exact grid)", lambda: rho_star(
            [f"0.{v:04d}" for v in range(1200, 6000, 400)], method="column-generation")),
        ("rho_star column-generation (float sizes)", lambda: rho_star(
            [0.13, 0.21, 0.34, 0.55], method="column-generation")),
        ("rho_star column-generation (rounded grid, 1e-7 sizes)", lambda: rho_star(
            ["0.1234567", "0.2345671", "0.3456712", "0.4567123"], method="column-generation")),
        ("bin_packing_lp C=100000", lambda: bin_packing_lp(
            [20000, 23456, 31000, 34999, 27500, 20001], 100000)),
    ]
    out = []
    for name, fn in calls:
        rec: dict[str, Any] = {"call": name}
        try:
            t0 = time.perf_counter()
            fn()
            t1 = time.perf_counter()
            fn()
            t2 = time.perf_counter()
            rec.update(first_s=t1 - t0, second_s=t2 - t1, compile_s=max(0.0, (t1 - t0) - (t2 - t1)))
        except Exception as e:  # noqa: BLE001
            rec["error"] = f"{type(e).__name__}: {e}"
        out.append(rec)
    return {"calls": out, "total_compile_s": sum(r.get("compile_s", 0.0) for r in out)}


# -- section 1: rho* ------------------------------------------------------------------


def decimal_sizes(T: int, lo: float, hi: float, seed: int) -> list[str]:
    """T distinct sizes in the open interval (lo, hi), as 4-decimal strings."""
    rng = np.random.default_rng(seed)
    a, b = round(lo * 10_000) + 1, round(hi * 10_000) - 1
    vals = np.sort(rng.choice(np.arange(a, b + 1), size=T, replace=False))
    return [f"0.{int(v):04d}" for v in vals]


def random_probs(T: int, seed: int) -> list[Fraction]:
    """Seeded random probabilities (integer weights 1..100, normalised exactly)."""
    w = np.random.default_rng(seed + 7919).integers(1, 101, size=T)
    s = int(w.sum())
    return [Fraction(int(x), s) for x in w]


RHO_CASES_FULL = [
    # name, T, lo, hi, probs, compare with enumeration
    ("T30-narrow-equal", 30, 0.2, 0.7, "equal", True),
    ("T30-narrow-random", 30, 0.2, 0.7, "random", True),
    ("T30-wide-random", 30, 0.01, 0.9, "random", False),
    ("T100-narrow-equal", 100, 0.3, 0.7, "equal", True),
    ("T100-narrow-random", 100, 0.3, 0.7, "random", True),
    ("T100-wide-random", 100, 0.01, 0.9, "random", False),
    ("T1000-narrow-equal", 1000, 0.2, 0.7, "equal", False),
    ("T1000-wide-equal", 1000, 0.01, 0.9, "equal", False),
    ("T1000-wide-random", 1000, 0.01, 0.9, "random", False),
]
RHO_CASES_QUICK = ["T30-narrow-equal", "T30-narrow-random", "T100-wide-random",
                   "T1000-wide-equal"]


def rho_case_fn(T: int, lo: float, hi: float, probs: str, seed: int = 1):
    from capacity.supportable_workload import rho_star

    sizes = decimal_sizes(T, lo, hi, seed)
    p = None if probs == "equal" else random_probs(T, seed)

    def run(method: str) -> Callable[[], Any]:
        return lambda: rho_star(sizes, p, method=method)

    return sizes, run


def rho_record(res: Any) -> dict[str, Any]:
    if res is None:
        return {}
    return {
        "value": res.value,
        "lower": fnum(res.lower),
        "upper": fnum(res.upper),
        "lower_exact": exact_text(res.lower),
        "upper_exact": exact_text(res.upper),
        "certified": bool(res.certified),
        "exact_check": bool(res.exact_check),
        "method": res.method,
        "iterations": res.iterations,
        "columns": res.columns,
        "solver_seconds": res.seconds,
        "message": res.message,
    }


def section_rho(args: argparse.Namespace, checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cases = RHO_CASES_FULL if not args.quick else [
        c for c in RHO_CASES_FULL if c[0] in RHO_CASES_QUICK]
    out = []
    for name, T, lo, hi, probs, enum in cases:
        _sizes, run = rho_case_fn(T, lo, hi, probs)
        rec: dict[str, Any] = {"case": name, "types": T, "size_range": [lo, hi], "probs": probs}
        res, tm = measure(run("column-generation"), args.repeats, args.budget, args.case_cap)
        rec["cg"] = {**tm, **rho_record(res)}
        if T >= 1000:
            rec["target_s"] = TARGET_RHO_1000
            med = tm["median_s"]
            rec["target_met"] = bool(med is not None and "error" not in tm
                                     and med <= TARGET_RHO_1000)
        if enum:
            eres, etm = measure(run("enumerate"), args.repeats, args.budget, args.case_cap)
            rec["enumerate"] = {**etm, **rho_record(eres)}
            if res is not None and eres is not None:
                rel = abs(res.value - eres.value) / abs(eres.value)
                rec["rel_diff"] = rel
                ok = rel <= REL_AGREE
                checks.append({"check": f"{name}: CG == enumerate (rel {rel:.2e} <= 1e-9)",
                               "ok": ok})
        out.append(rec)
        print_rho_row(rec)
    if not args.quick:
        out.append(trace_case(args))
        print_rho_row(out[-1])
    return out


def trace_case(args: argparse.Namespace) -> dict[str, Any]:
    from capacity.supportable_workload import rho_star
    from theory.readers.traces import trace_distribution

    t0 = time.perf_counter()
    dist = trace_distribution("max", exact=True)
    load_s = time.perf_counter() - t0
    rec: dict[str, Any] = {"case": "google2011-max-exact", "types": len(dist.sizes),
                           "size_range": [float(min(dist.sizes)), float(max(dist.sizes))],
                           "probs": "trace counts", "load_s": load_s}
    res, tm = measure(lambda: rho_star(dist, servers=1), args.repeats, args.budget,
                      args.case_cap)
    rec["cg"] = {**tm, **rho_record(res)}
    return rec


def print_rho_row(rec: dict[str, Any]) -> None:
    cg = rec["cg"]
    en = rec.get("enumerate", {})
    val = cg.get("value")
    print(f"  {rec['case']:<22} T={rec['types']:>5}  "
          f"CG {fmt_t(cg):>22}  "
          f"enum {fmt_t(en) if en else '-':>22}  "
          f"rho*={fmt_g(val, '.10g'):<14} "
          f"it={cg.get('iterations', '-')!s:>4} cols={cg.get('columns', '-')!s:>6} "
          f"cert={'y' if cg.get('certified') else 'n'}"
          + (f"  relΔ={rec['rel_diff']:.1e}" if "rel_diff" in rec else "")
          + (f"  [target {rec['target_s']} s: {'met' if rec['target_met'] else 'MISSED'}]"
             if "target_s" in rec else ""), flush=True)
    for part in (cg, en):
        if part and "error" in part:
            print(f"      ERROR after {part['seconds_to_error']:.1f} s: {part['error']}",
                  flush=True)


def fmt_g(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def fmt_t(tm: dict[str, Any]) -> str:
    if not tm:
        return "-"
    if "error" in tm and not tm.get("repeats"):
        return f"ERR@{tm['seconds_to_error']:.1f}s"
    med = tm.get("median_s")
    if med is None:
        return "-"
    return f"{med:8.3f} s (n={tm['repeats']}, {tm['min_s']:.3f}-{tm['max_s']:.3f})"


# -- section 2: bin packing -------------------------------------------------------------


def gen_uniform(rng: np.random.Generator, n: int, lo: int, hi: int) -> list[int]:
    return [int(x) for x in rng.integers(lo, hi + 1, size=n)]


def gen_triplets(rng: np.random.Generator, n: int, cap: int = 1000) -> list[int]:
    """Falkenauer T: n/3 triplets of weights in (C/4, C/2) that fill a bin exactly."""
    assert n % 3 == 0 and cap == 1000
    w: list[int] = []
    for _ in range(n // 3):
        a = int(rng.integers(380, 491))
        b = int(rng.integers(251, (cap - a) // 2 + 1))
        c = cap - a - b
        assert 250 < b <= c < 500 and 250 < a < 500
        w += [a, b, c]
    rng.shuffle(w)
    return w


def scholl2_range(cap: int, avg_div: int, dev: float) -> tuple[int, int]:
    avg = cap / avg_div
    return max(1, round(avg * (1 - dev))), min(cap, round(avg * (1 + dev)))


def bpp_specs() -> list[dict[str, Any]]:
    """Instance shapes (class, name, n, C, generator); seeds are fixed per instance."""
    specs: list[dict[str, Any]] = []
    for i, n in enumerate([120, 250, 500, 1000]):
        specs.append({"cls": "Falkenauer U", "name": f"falkenauer_u{n}_00", "n": n, "C": 150,
                      "gen": ("uniform", 20, 100), "seed": 100 + i})
    for i, n in enumerate([60, 120, 249, 501]):
        specs.append({"cls": "Falkenauer T", "name": f"falkenauer_t{n}_00", "n": n, "C": 1000,
                      "gen": ("triplets",), "seed": 200 + i})
    # Scholl class 1: n in {50,100,200,500}, C in {100,120,150}, w in [1|20|30, 100]
    for i, (n, cap, lo, tag) in enumerate([(100, 100, 1, "N2C1W1"), (200, 120, 20, "N3C2W2"),
                                           (500, 100, 1, "N4C1W1"), (500, 150, 30, "N4C3W4")]):
        specs.append({"cls": "Scholl 1", "name": f"scholl1_{tag}_00", "n": n, "C": cap,
                      "gen": ("uniform", lo, 100), "seed": 300 + i})
    # Scholl class 2: C = 1000, mean C/3, C/5, C/7, C/9 (W1-W4), deviation 20/50/90 %
    for i, (n, div, dev, tag) in enumerate([(100, 3, 0.2, "N2W1B1"), (200, 5, 0.5, "N3W2B2"),
                                            (500, 3, 0.2, "N4W1B1"), (500, 9, 0.9, "N4W4B3")]):
        lo, hi = scholl2_range(1000, div, dev)
        specs.append({"cls": "Scholl 2", "name": f"scholl2_{tag}_00", "n": n, "C": 1000,
                      "gen": ("uniform", lo, hi), "seed": 400 + i})
    # Scholl class 3 ("hard"): C = 100000, w in [20000, 35000]; n = 200 as in the
    # original class, and n = 1000 for the 5 s target
    for i, n in enumerate([200, 1000]):
        specs.append({"cls": "Scholl 3", "name": f"scholl3_n{n}_00", "n": n, "C": 100_000,
                      "gen": ("uniform", 20_000, 35_000), "seed": 500 + i})
    # Hard28-like: n 160-200, C = 1000, weights in [1, 800]
    for i, n in enumerate([160, 180, 200]):
        specs.append({"cls": "Hard28-like", "name": f"hard28like_n{n}_00", "n": n, "C": 1000,
                      "gen": ("uniform", 1, 800), "seed": 600 + i})
    return specs


BPP_QUICK = {"falkenauer_u120_00", "falkenauer_u1000_00", "falkenauer_t120_00",
             "falkenauer_t249_00", "scholl1_N4C1W1_00", "scholl2_N4W4B3_00", "scholl3_n200_00",
             "hard28like_n180_00"}


def generate(spec: dict[str, Any]) -> list[int]:
    rng = np.random.default_rng(spec["seed"])
    kind = spec["gen"][0]
    if kind == "triplets":
        return gen_triplets(rng, spec["n"], spec["C"])
    return gen_uniform(rng, spec["n"], spec["gen"][1], spec["gen"][2])


def ensure_instances(regen: bool) -> list[tuple[dict[str, Any], Path, str]]:
    """Write missing instance files (all, if ``regen``); return (spec, path, status)."""
    from theory.readers.bpplib import write_bpplib

    INSTANCES.mkdir(parents=True, exist_ok=True)
    out = []
    for spec in bpp_specs():
        path = INSTANCES / f"{spec['name']}.txt"
        if regen or not path.exists():
            write_bpplib(path, spec["C"], generate(spec))
            status = "written"
        else:
            status = "existing"
        out.append((spec, path, status))
    return out


def section_bpp(args: argparse.Namespace, checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from capacity.supportable_workload import bin_packing_lp
    from theory.readers.bpplib import read_bpplib

    out = []
    for spec, path, status in ensure_instances(args.regen_instances):
        if args.quick and spec["name"] not in BPP_QUICK:
            continue
        cap, weights = read_bpplib(path)
        fresh = generate(spec)
        rec: dict[str, Any] = {
            "class": spec["cls"], "instance": path.name, "file": status, "n": len(weights),
            "capacity": cap, "distinct_weights": len(set(weights)),
            "weight_range": [min(weights), max(weights)],
            "file_matches_generator": bool(cap == spec["C"] and weights == fresh),
        }
        res, tm = measure(lambda w=weights, c=cap: bin_packing_lp(w, c), args.repeats,
                          args.budget, args.case_cap)
        rec.update(tm)
        if res is not None:
            ex = res.extra
            lo, hi = ex["z_lp_bounds"]
            rec.update({
                "z_lp": fnum(ex["z_lp"]), "z_lp_bounds": [fnum(lo), fnum(hi)],
                "z_lp_bounds_exact": [exact_text(lo), exact_text(hi)],
                "l1": ex["l1"], "lp_bins": ex["lp_bins"], "rho_star": res.value,
                "certified": bool(res.certified), "exact_check": bool(res.exact_check),
                "iterations": res.iterations, "columns": res.columns,
                "message": res.message,
            })
            if spec["gen"][0] == "triplets":
                n = len(weights)
                third = Fraction(n, 3)
                in_bounds = (Fraction(lo) <= third <= Fraction(hi)
                             if isinstance(lo, Fraction | int) and isinstance(hi, Fraction | int)
                             else float(lo) <= n / 3 <= float(hi))
                ok = (abs(float(ex["z_lp"]) - n / 3) <= 1e-9 * n / 3 and in_bounds
                      and ex["lp_bins"] == n // 3)
                rec["triplet_check"] = {
                    "n_over_3": n // 3, "z_lp_float_error": float(ex["z_lp"]) - n / 3,
                    "n_over_3_in_certified_bounds": bool(in_bounds),
                    "certified_bounds_equal_n_over_3": bool(
                        isinstance(lo, Fraction) and lo == third and hi == third),
                    "ok": bool(ok)}
                checks.append({"check": f"{path.name}: z_LP == n/3 = {n // 3}", "ok": bool(ok)})
        if spec["name"] == "scholl3_n1000_00":
            rec["target_s"] = TARGET_BPP_1000
            rec["target_met"] = bool(res is not None and rec["median_s"] <= TARGET_BPP_1000)
        out.append(rec)
        print_bpp_row(rec)
    return out


def print_bpp_row(r: dict[str, Any]) -> None:
    z = r.get("z_lp")
    extra = ""
    if "triplet_check" in r:
        extra += f"  z=n/3:{'ok' if r['triplet_check']['ok'] else 'FAIL'}"
    if "target_s" in r:
        extra += f"  [target {r['target_s']} s: {'met' if r['target_met'] else 'MISSED'}]"
    print(f"  {r['class']:<13} {r['instance']:<26} n={r['n']:>5} C={r['capacity']:>6} "
          f"T={r['distinct_weights']:>4}  z_LP={fmt_g(z, '.6f'):>13} "
          f"L1={r.get('l1', '-')!s:>5} ceil(z)={r.get('lp_bins', '-')!s:>5}  "
          f"{fmt_t(r):>26} cert={'y' if r.get('certified') else 'n'}{extra}", flush=True)
    if "error" in r:
        print(f"      ERROR after {r['seconds_to_error']:.1f} s: {r['error']}", flush=True)


# -- section 3: Theorem 1 brackets ------------------------------------------------------


def section_brackets(args: argparse.Namespace) -> list[dict[str, Any]]:
    from capacity.brackets import partition_bracket, quantile_brackets
    from theory.distributions import Uniform
    from theory.partitions import quantile_partition

    out = []
    servers, rtol = 5, 1e-3
    cap_total = args.bracket_cap
    for a, b in [("0.1", "0.9"), ("0.01", "0.19")]:
        dist = Uniform(a, b)
        rec: dict[str, Any] = {"distribution": f"Uniform({a}, {b})", "servers": servers,
                               "rtol": rtol, "cap_s": cap_total, "levels": []}
        print(f"  Uniform({a}, {b}), servers={servers}, rtol={rtol:g} "
              f"(cap {cap_total:.0f} s):", flush=True)
        start = time.perf_counter()
        stopped = "max level"
        for n in range(0, args.bracket_max_level + 1):
            left = cap_total - (time.perf_counter() - start)
            if left <= 0:
                stopped = f"time cap {cap_total:.0f} s reached before level {n}"
                break
            t0 = time.perf_counter()
            try:
                with time_limit(left):
                    part = quantile_partition(dist, n)
                    br = partition_bracket(dist, part, servers=servers)
            except Exception as e:  # noqa: BLE001
                el = time.perf_counter() - t0
                what = ("interrupted by the time cap" if isinstance(e, CaseTimeout)
                        else f"{type(e).__name__}: {e}")
                rec["levels"].append({"level": n, "cells": 2 ** (n + 1), "seconds": el,
                                      "error": what})
                print(f"    level {n:>2} cells={2 ** (n + 1):>5}  {what} after {el:.1f} s",
                      flush=True)
                stopped = f"level {n} {what} after {el:.1f} s"
                break
            el = time.perf_counter() - t0
            lv = {
                "level": n, "cells": len(part), "seconds": el,
                "lower": float(br.lo), "upper": float(br.hi), "gap": br.gap,
                "certified": br.certified,
                "upper_from": br.as_dict().get("upper_from", "lower-rounded LP"),
                "up": {"types": len(br.lower.sizes),
                       "method": br.lower.method, "iterations": br.lower.iterations,
                       "columns": br.lower.columns, "seconds": br.lower.seconds,
                       "value": br.lower.value},
                "down": {"types": len(br.upper.sizes), "method": br.upper.method,
                         "iterations": br.upper.iterations, "columns": br.upper.columns,
                         "seconds": br.upper.seconds, "value": br.upper.value},
            }
            rec["levels"].append(lv)
            print(f"    level {n:>2} cells={len(part):>5}  [{float(br.lo):.8f}, "
                  f"{float(br.hi):.8f}] gap={br.gap:.2e}  {el:8.3f} s  "
                  f"(up: {br.lower.method[:4]} {br.lower.seconds:.2f} s, it {br.lower.iterations};"
                  f" down: {br.upper.method[:4]} {br.upper.seconds:.2f} s, "
                  f"it {br.upper.iterations})", flush=True)
            if br.gap <= rtol:
                stopped = "rtol reached"
                break
        done = [lv for lv in rec["levels"] if "error" not in lv]
        last = done[-1] if done else None
        total = time.perf_counter() - start
        rec.update({
            "stopped": stopped, "reached_rtol": stopped == "rtol reached",
            "level_reached": last["level"] if last else None,
            "gap": last["gap"] if last else None,
            "lower": last["lower"] if last else None, "upper": last["upper"] if last else None,
            "sum_level_s": total,
        })
        # the API call itself (same loop inside), timed as a median when it is cheap
        if rec["reached_rtol"] and total <= args.bracket_rerun_max:
            reps = args.repeats if total <= 5 else (2 if total <= 20 else 1)
            res, tm = measure(lambda d=dist, lev=last["level"]: quantile_brackets(
                d, lev, servers=servers, rtol=rtol), reps, 3 * args.bracket_rerun_max, None)
            rec["quantile_brackets"] = tm
            if res is not None:
                rec["quantile_brackets"]["final_gap"] = res[-1].gap
            total_med = tm["median_s"] if tm.get("median_s") is not None else total
        else:
            total_med = total
        rec["time_to_rtol_s"] = total_med if rec["reached_rtol"] else None
        rec["target_s"] = TARGET_BRACKET
        rec["target_met"] = bool(rec["reached_rtol"] and total_med <= TARGET_BRACKET)
        print(f"    -> {stopped}; level {rec['level_reached']}, gap {rec['gap']:.2e}, "
              f"time {total_med:.2f} s"
              + (" (median of quantile_brackets calls)" if "quantile_brackets" in rec else
                 " (single pass)")
              + f"  [target {TARGET_BRACKET:.0f} s: {'met' if rec['target_met'] else 'MISSED'}]",
              flush=True)
        out.append(rec)
    return out


# -- profiling ------------------------------------------------------------------------

#: (label, file suffix, function name) whose cumulative times are reported.
PROFILE_BUCKETS = [
    ("HiGHS LP solves (MasterLP.solve)", "_lp_highs.py", "solve"),
    ("  of which highspy run()", "~", "<built-in method highspy._core.run>"),
    ("HiGHS column adds (MasterLP.add_columns)", "_lp_highs.py", "add_columns"),
    ("pricing (_Pricer.improving)", "configuration_solver.py", "improving"),
    ("pricing, smoothed (_Pricer.smoothed)", "configuration_solver.py", "smoothed"),
    ("  knapsack_dp (all callers)", "knapsack.py", "knapsack_dp"),
    ("  knapsack_bb (all callers)", "knapsack.py", "knapsack_bb"),
    ("  knapsack_exact (all callers)", "knapsack.py", "knapsack_exact"),
    ("certificate (certificate.certify)", "certificate.py", "certify"),
    ("exact optimum (certificate.exact_optimum)", "certificate.py", "exact_optimum"),
    ("enumeration (_enumerate_columns)", "configuration_solver.py", "_enumerate_columns"),
    ("FFD warm start", "configuration_solver.py", "_first_fit_decreasing_columns"),
    ("ConfigurationLP.build", "configuration_model.py", "build"),
    ("quantile_partition", "partitions.py", "quantile_partition"),
    ("type_probabilities", "partitions.py", "type_probabilities"),
]


def profile_cases(args: argparse.Namespace) -> dict[str, Callable[[], Any]]:
    from capacity.brackets import partition_bracket
    from capacity.supportable_workload import bin_packing_lp, rho_star
    from theory.distributions import Uniform
    from theory.partitions import quantile_partition
    from theory.readers.bpplib import read_bpplib

    cases: dict[str, Callable[[], Any]] = {}
    for name, T, lo, hi, probs, _enum in RHO_CASES_FULL:
        _s, run = rho_case_fn(T, lo, hi, probs)
        cases[name] = run("column-generation")
        cases[name + ":enumerate"] = run("enumerate")

    def trace() -> Any:
        from theory.readers.traces import trace_distribution
        return rho_star(trace_distribution("max", exact=True), servers=1)

    cases["google2011-max-exact"] = trace
    for spec, path, _st in ensure_instances(False):
        def bpp(p: Path = path) -> Any:
            cap, w = read_bpplib(p)
            return bin_packing_lp(w, cap)
        cases[spec["name"]] = bpp
    for a, b in [("0.1", "0.9"), ("0.01", "0.19")]:
        for n in range(0, 14):
            def lvl(a: str = a, b: str = b, n: int = n) -> Any:
                d = Uniform(a, b)
                return partition_bracket(d, quantile_partition(d, n), servers=5)
            cases[f"bracket-U{a}-{b}-L{n}"] = lvl
    return cases


def run_profile(name: str, args: argparse.Namespace) -> dict[str, Any]:
    cases = profile_cases(args)
    if name not in cases:
        raise SystemExit(f"unknown case {name!r}; known: {', '.join(sorted(cases))}")
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    err = None
    prof.enable()
    try:
        with time_limit(args.case_cap):
            cases[name]()
    except Exception as e:  # noqa: BLE001
        err = f"{type(e).__name__}: {e}"
    finally:
        prof.disable()
    wall = time.perf_counter() - t0
    st = pstats.Stats(prof)
    raw: dict[Any, Any] = st.stats  # type: ignore[attr-defined]
    buckets = []
    for label, suffix, fname in PROFILE_BUCKETS:
        cum = ncalls = 0.0
        for (file, _line, func), (_cc, nc, _tt, ct, _callers) in raw.items():
            if func == fname and (file == suffix or file.endswith(suffix)):
                cum += ct
                ncalls += nc
        if ncalls:
            buckets.append({"part": label, "cumulative_s": cum, "calls": int(ncalls),
                            "share": cum / wall if wall else None})
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(15)
    return {"case": name, "wall_s": wall, "error": err, "buckets": buckets,
            "top_tottime": s.getvalue()}


def print_profile(p: dict[str, Any]) -> None:
    print(f"\n== cProfile of {p['case']}: {p['wall_s']:.2f} s wall"
          + (f" (ended with {p['error']})" if p["error"] else ""))
    for b in p["buckets"]:
        print(f"  {b['part']:<44} {b['cumulative_s']:9.3f} s  {100 * b['share']:5.1f} %  "
              f"({b['calls']} calls)")
    print(p["top_tottime"])


# -- main -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller sizes; < ~60 s in total")
    ap.add_argument("--json", metavar="PATH", help="write every number to this JSON file")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed calls per case (median reported); default 5, quick 3")
    ap.add_argument("--budget", type=float, default=None,
                    help="stop repeating a case after this many seconds (default 30, quick 6)")
    ap.add_argument("--case-cap", type=float, default=None,
                    help="interrupt one call after this many seconds (default 300, quick 10)")
    ap.add_argument("--bracket-cap", type=float, default=None,
                    help="total seconds per bracket distribution (default 120, quick 8)")
    ap.add_argument("--bracket-max-level", type=int, default=13)
    ap.add_argument("--bracket-rerun-max", type=float, default=None,
                    help="re-time quantile_brackets() itself when one pass took at most this "
                         "(default 30, quick 5)")
    ap.add_argument("--sections", default="rho,bpp,bracket",
                    help="comma-separated subset of rho,bpp,bracket")
    ap.add_argument("--regen-instances", action="store_true",
                    help="rewrite benchmarks/instances/ from the seeds")
    ap.add_argument("--numba-cache", choices=["fresh", "default"], default=None,
                    help="'fresh' (default for the full run): an empty numba cache directory, "
                         "so the warm-up measures real compilation; 'default' (default with "
                         "--quick): numba's on-disk cache, the warm-up then measures loads")
    ap.add_argument("--profile", metavar="CASE", action="append", default=[],
                    help="cProfile this case instead of the benchmark (repeatable); "
                         "'list' lists the cases")
    args = ap.parse_args(argv)
    q = args.quick
    args.repeats = args.repeats or (3 if q else 5)
    args.budget = args.budget if args.budget is not None else (6.0 if q else 30.0)
    args.case_cap = args.case_cap if args.case_cap is not None else (10.0 if q else 300.0)
    args.bracket_cap = args.bracket_cap if args.bracket_cap is not None else (8.0 if q
                                                                              else 120.0)
    args.bracket_rerun_max = (args.bracket_rerun_max if args.bracket_rerun_max is not None
                              else (5.0 if q else 30.0))
    args.numba_cache = args.numba_cache or ("default" if q else "fresh")
    if args.numba_cache == "fresh":
        # must be set before numba is imported (by capacity): a fresh cache compiles
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="packsched-bench-numba-")

    wall0 = time.perf_counter()
    t0 = time.perf_counter()
    import capacity.brackets  # noqa: F401
    import capacity.supportable_workload  # noqa: F401
    import_s = time.perf_counter() - t0
    report: dict[str, Any] = {"mode": "quick" if q else "full", "environment": environment(),
                              "import_s": import_s, "settings": {
                                  "repeats": args.repeats, "budget_s": args.budget,
                                  "case_cap_s": args.case_cap,
                                  "bracket_cap_s": args.bracket_cap}}
    env = report["environment"]
    print(f"packsched capacity benchmarks ({report['mode']}) - python {env['python']}, "
          f"{env['cpu_count']} cores, numpy {env['numpy']}, numba {env['numba']}, "
          f"HiGHS {env['highs']}, git {env['git_head']}"
          + (f" + uncommitted capacity/ {env['capacity_dirty_files']}"
             if env["capacity_dirty_files"] else ""))
    print(f"import: {import_s:.2f} s")

    if args.profile:
        if args.profile == ["list"]:
            print("\n".join(sorted(profile_cases(args))))
            return 0
        warm_up()
        report["profiles"] = []
        for name in args.profile:
            p = run_profile(name, args)
            print_profile(p)
            report["profiles"].append(p)
        write_json(args.json, report)
        return 0

    wu = warm_up()
    report["warm_up"] = wu
    print(f"\n== warm-up (numba compilation; first call - second call): "
          f"{wu['total_compile_s']:.2f} s total")
    for r in wu["calls"]:
        if "error" in r:
            print(f"  {r['call']:<56} ERROR {r['error']}")
        else:
            print(f"  {r['call']:<56} compile {r['compile_s']:6.3f} s  "
                  f"(first {r['first_s']:.3f} s, then {r['second_s']:.4f} s)")

    checks: list[dict[str, Any]] = []
    sections = {s.strip() for s in args.sections.split(",")}
    if "rho" in sections:
        print("\n== 1. rho* by column generation vs enumeration (median wall time)")
        report["rho_star"] = section_rho(args, checks)
    if "bpp" in sections:
        print("\n== 2. bin-packing LP bound (BPPLIB-shaped instances in benchmarks/instances/)")
        report["bin_packing"] = section_bpp(args, checks)
    if "bracket" in sections:
        print("\n== 3. Theorem 1 brackets, quantile partitions")
        report["brackets"] = section_brackets(args)

    targets = collect_targets(report)
    report["targets"] = targets
    report["checks"] = checks
    report["total_wall_s"] = time.perf_counter() - wall0
    print("\n== targets")
    for t in targets:
        print(f"  {'met   ' if t['met'] else 'MISSED'} {t['what']}: {t['measured']}")
    print("\n== checks")
    for c in checks:
        print(f"  {'ok  ' if c['ok'] else 'FAIL'} {c['check']}")
    print(f"\ntotal wall time {report['total_wall_s']:.1f} s")
    write_json(args.json, report)
    return 0 if all(c["ok"] for c in checks) else 1


def collect_targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for r in report.get("rho_star", []):
        if "target_s" in r:
            tm = r["cg"]
            meas = (f"ERROR after {tm['seconds_to_error']:.1f} s" if "error" in tm
                    else f"{tm['median_s']:.3f} s median")
            out.append({"what": f"rho* {r['case']} <= {r['target_s']} s", "met": r["target_met"],
                        "measured": meas})
    for r in report.get("bin_packing", []):
        if "target_s" in r:
            meas = (f"ERROR after {r['seconds_to_error']:.1f} s" if "error" in r
                    else f"{r['median_s']:.3f} s median")
            out.append({"what": f"bin_packing_lp {r['instance']} <= {r['target_s']} s",
                        "met": r["target_met"], "measured": meas})
    for r in report.get("brackets", []):
        meas = (f"gap {r['gap']:.2e} at level {r['level_reached']} in "
                f"{r['time_to_rtol_s']:.2f} s" if r["reached_rtol"] else
                f"not reached: {r['stopped']}; best gap {r['gap']:.2e} at level "
                f"{r['level_reached']} after {r['sum_level_s']:.1f} s")
        out.append({"what": f"bracket {r['distribution']} to rtol 1e-3 <= {r['target_s']:.0f} s",
                    "met": r["target_met"], "measured": meas})
    return out


def write_json(path: str | None, report: dict[str, Any]) -> None:
    if not path:
        return
    from theory.json_ready import json_ready

    def clean(o: Any) -> Any:  # JSON has no inf/nan
        if isinstance(o, float) and not math.isfinite(o):
            return str(o)
        if isinstance(o, dict):
            return {k: clean(v) for k, v in o.items()}
        if isinstance(o, list | tuple):
            return [clean(v) for v in o]
        return o

    Path(path).write_text(json.dumps(clean(json_ready(report)), indent=1, default=str) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
