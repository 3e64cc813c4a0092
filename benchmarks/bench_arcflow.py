#!/usr/bin/env python
"""Side by side: packsched's bin-packing LP bound against the arc-flow LP of a peer.

Run from the repository root::

    python benchmarks/bench_arcflow.py                   # full run (about 32 minutes)
    python benchmarks/bench_arcflow.py --quick           # small instances, about 30 s
    python benchmarks/bench_arcflow.py --json out.json   # also write every number as JSON

For each bin-packing instance, in the same process and one after the other:

* packsched: ``capacity.supportable_workload.bin_packing_lp(weights, C, unbounded=False)``,
  whose ``extra["z_lp"]`` is the Gilmore-Gomory LP bound over patterns holding at most
  n_j copies of weight j, certified (``extra["z_lp_bounds"]``);
* the arc-flow LP of Valério de Carvalho (1999, 2002) built in numpy and solved with
  HiGHS (:mod:`benchmarks.arcflow_lp`): the ``exact`` graph, whose LP is the same
  bounded bound, and the ``classic`` reduced graph, which does not enforce the copy
  bounds (its LP may be lower: it lies between the unbounded and bounded bounds);
* VPSolver (Brandão & Pedroso 2016) when its binaries are found (``--vpsolver-bin``,
  ``$VPSOLVER_BIN`` or ``PATH``): the LP relaxation of its compressed arc-flow model,
  solved with the same HiGHS settings. ``pip install --no-deps pyvpsolver`` installs it
  (PyPI wheel 3.1.4 for CPython 3.11 on manylinux; the ``vpsolver`` name on PyPI is
  a 0.0 placeholder depending on ``pyvpsolver``).

Instances: every ``benchmarks/instances/*.txt`` (BPPLIB format, read with
``theory.readers.bpplib.read_bpplib``) and AI-like instances generated in memory from seeds
(each bin of capacity C split exactly into 3 or 4 items, so z_LP = the number of bins).

Timings are MEDIANS over ``--repeats`` calls (fewer once ``--budget`` seconds are
spent on a case). One call is stopped after ``--case-cap`` seconds (HiGHS's own time
limit for the arc-flow LPs, a SIGALRM for packsched, a process timeout for VPSolver);
a graph above ``--max-arcs`` arcs is refused before it is solved. Both are reported
per case. Warm-up calls (numba compilation, HiGHS loading) come first and are not timed.

Exit status: 1 if the exact arc-flow bound and packsched's z_lp differ by more than
``--rtol`` (default 1e-6) relative on any case both finished, or if the classic
graph's bound (a relaxation of the bounded LP) is above z_lp by more than that;
0 otherwise (timeouts are reported, not failures); 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
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

from benchmarks.arcflow_lp import (  # noqa: E402
    MAX_ARCS,
    ArcflowTimeout,
    GraphTooLarge,
    arcflow_lp_bound,
    find_vpsolver,
    vpsolver_lp_bound,
)
from benchmarks.timing import CaseTimeout, summary, time_limit  # noqa: E402

#: Relative tolerance of the agreement check.
RTOL = 1e-6

#: Instance files of the quick run.
QUICK_FILES = ("falkenauer_u120_00", "falkenauer_u1000_00", "falkenauer_t60_00",
               "falkenauer_t249_00", "scholl1_N4C1W1_00", "scholl2_N2W1B1_00",
               "scholl2_N4W1B1_00")

#: AI-like instances (name, capacity, bins, seed): each bin filled exactly by 3-4 items.
AI_LIKE = (("ai_like_c1000_b12", 1_000, 12, 700),
           ("ai_like_c2500_b30", 2_500, 30, 701),
           ("ai_like_c20000_b57", 20_000, 57, 702),
           ("ai_like_c20000_b171", 20_000, 171, 703),
           ("ai_like_c80000_b286", 80_000, 286, 704))
AI_QUICK = ("ai_like_c1000_b12",)


# -- instances ----------------------------------------------------------------------------


def ai_like(capacity: int, bins: int, seed: int) -> list[int]:
    """AI-like instance (after BPPLIB's "augmented IRUP" class): each of ``bins`` bins
    of capacity C is split exactly into 3 or 4 items of at least C/10, then the items
    are shuffled. The items of a bin form a pattern, so z_LP = ``bins`` exactly."""
    rng = np.random.default_rng(seed)
    lo = capacity // 10
    out: list[int] = []
    for _ in range(bins):
        k = int(rng.integers(3, 5))
        while True:
            cuts = np.sort(rng.choice(np.arange(1, capacity), size=k - 1, replace=False))
            parts = np.diff(np.concatenate([[0], cuts, [capacity]]))
            if parts.min() >= lo:
                break
        out += [int(p) for p in parts]
    rng.shuffle(out)
    return out


def cases(quick: bool, only: list[str] | None) -> list[dict[str, Any]]:
    """The instances of the run: files, then generated AI-like instances."""
    from theory.readers.bpplib import read_bpplib

    out: list[dict[str, Any]] = []
    for path in sorted(INSTANCES.glob("*.txt")):
        if quick and path.stem not in QUICK_FILES:
            continue
        cap, weights = read_bpplib(path)
        out.append({"instance": path.stem, "source": f"instances/{path.name}", "C": cap,
                    "weights": weights})
    for name, cap, bins, seed in AI_LIKE:
        if quick and name not in AI_QUICK:
            continue
        out.append({"instance": name, "source": f"ai_like(C={cap}, bins={bins}, seed={seed})",
                    "C": cap, "weights": ai_like(cap, bins, seed), "expected_z": bins})
    if only:
        names = {c["instance"] for c in out}
        missing = [o for o in only if o not in names]
        if missing:
            raise ValueError(f"unknown --only case(s) {missing}; known: {sorted(names)}")
        out = [c for c in out if c["instance"] in only]
    return out


# -- measuring ----------------------------------------------------------------------------


def measure(fn: Callable[[], Any], repeats: int, budget: float,
            alarm: float | None) -> tuple[Any, list[Any], dict[str, Any]]:
    """Call ``fn`` up to ``repeats`` times (fewer once ``budget`` seconds are spent).

    Returns the last result, every result, and the timing summary; an exception ends
    the case: the summary then carries ``error`` and ``outcome`` (``timeout``,
    ``too_large`` or ``error``).
    """
    times: list[float] = []
    results: list[Any] = []
    start = time.perf_counter()
    while len(times) < repeats:
        t0 = time.perf_counter()
        try:
            with time_limit(alarm):
                res = fn()
        except Exception as e:  # noqa: BLE001 - a failing case is a result, not a crash
            s = summary(times)
            s["error"] = f"{type(e).__name__}: {e}"
            s["outcome"] = ("timeout" if isinstance(e, ArcflowTimeout | CaseTimeout)
                            else "too_large" if isinstance(e, GraphTooLarge) else "error")
            s["seconds_to_error"] = time.perf_counter() - t0
            if s["outcome"] == "error":
                s["traceback_tail"] = traceback.format_exc().strip().splitlines()[-6:]
            return (results[-1] if results else None), results, s
        times.append(time.perf_counter() - t0)
        results.append(res)
        if time.perf_counter() - start + times[-1] > budget:
            break
    s = summary(times)
    s["outcome"] = "ok"
    return results[-1], results, s


def compare_bounds(z_peer: float | None, z_ref: Any, rtol: float = RTOL) -> dict[str, Any]:
    """Agreement of a peer bound with packsched's z_lp: ``ok`` when
    ``|z_peer - z_ref| <= rtol * |z_ref|``; ``rel_diff`` is that ratio (signed
    ``peer_minus_ref``). Missing values give ``ok = None`` (nothing compared)."""
    if z_peer is None or z_ref is None:
        return {"ok": None, "rel_diff": None, "peer_minus_ref": None}
    ref = float(z_ref)
    peer = float(z_peer)
    if not (math.isfinite(ref) and math.isfinite(peer)):
        return {"ok": False, "rel_diff": math.inf, "peer_minus_ref": peer - ref}
    diff = peer - ref
    rel = abs(diff) / max(abs(ref), 1e-300)
    return {"ok": bool(rel <= rtol), "rel_diff": rel, "peer_minus_ref": diff}


def fnum(x: Any) -> float | None:
    try:
        return None if x is None else float(x)
    except (TypeError, ValueError, OverflowError):
        return None


def warm_up() -> dict[str, Any]:
    """First calls of packsched (numba compilation) and of HiGHS, not timed later."""
    from capacity.supportable_workload import bin_packing_lp

    t0 = time.perf_counter()
    w = [20000, 23456, 31000, 34999, 27500, 20001, 20001]
    for _ in range(2):
        bin_packing_lp(w, 100000, unbounded=False)
        bin_packing_lp([3, 3, 5, 7, 2, 2], 10, unbounded=False)
    t1 = time.perf_counter()
    arcflow_lp_bound([3, 3, 5, 7, 2, 2], 10)
    arcflow_lp_bound([3, 3, 5, 7, 2, 2], 10, graph="classic")
    return {"packsched_s": t1 - t0, "arcflow_s": time.perf_counter() - t1}


# -- one case -------------------------------------------------------------------------------


def run_case(case: dict[str, Any], args: argparse.Namespace,
             vps_bin: Path | None) -> dict[str, Any]:
    from capacity.supportable_workload import bin_packing_lp

    w, cap = case["weights"], case["C"]
    rec: dict[str, Any] = {"instance": case["instance"], "source": case["source"],
                           "n": len(w), "C": cap, "distinct": len(set(w)),
                           "weight_range": [min(w), max(w)]}
    cap_s = args.case_cap
    hopts = {"solver": args.highs_solver}

    # packsched
    res, _, tm = measure(lambda: bin_packing_lp(w, cap, unbounded=False), args.repeats,
                         args.budget, cap_s)
    ps: dict[str, Any] = {"timing": tm}
    if res is not None:
        ex = res.extra
        lo, hi = ex["z_lp_bounds"]
        ps.update({"z_lp": fnum(ex["z_lp"]), "z_lp_bounds": [fnum(lo), fnum(hi)],
                   "z_lp_bounds_exact": [str(lo) if isinstance(lo, Fraction | int) else None,
                                         str(hi) if isinstance(hi, Fraction | int) else None],
                   "certified": bool(res.certified), "iterations": res.iterations,
                   "columns": res.columns, "lp_bins": ex.get("lp_bins")})
    rec["packsched"] = ps
    z_ref = ps.get("z_lp") if tm["outcome"] == "ok" else None

    def peer(fn: Callable[[], tuple[float, dict[str, Any]]]) -> dict[str, Any]:
        # the SIGALRM is a backstop only: HiGHS and VPSolver honour cap_s themselves
        last, every, t = measure(fn, args.repeats, args.budget, cap_s + 30)
        out: dict[str, Any] = {"timing": t}
        if last is not None:
            z, info = last
            out.update({"z": z, **{k: v for k, v in info.items()
                                   if k not in ("build_s", "solve_s", "seconds")}})
            out["build_s"] = statistics.median(i["build_s"] for _, i in every)
            out["solve_s"] = statistics.median(i["solve_s"] for _, i in every)
            out["build_solve_all_s"] = [[i["build_s"], i["solve_s"]] for _, i in every]
        if t["outcome"] != "ok":
            out["z"] = None
        out["vs_packsched"] = compare_bounds(out.get("z"), z_ref, args.rtol)
        return out

    graphs = [g for g in ("exact", "classic") if g in args.methods]
    for g in graphs:
        rec[g] = peer(lambda g=g: arcflow_lp_bound(
            w, cap, graph=g, solver=args.lp_solver, max_arcs=args.max_arcs,
            time_limit=cap_s, highs_options=hopts))
    if "vpsolver" in args.methods:
        if vps_bin is None:
            rec["vpsolver"] = {"timing": {"outcome": "not_installed"}, "z": None}
        else:
            rec["vpsolver"] = peer(lambda: vpsolver_lp_bound(
                w, cap, vps_bin, time_limit=cap_s, highs_options=hopts))

    # checks: the exact graph must agree; the classic graph is a relaxation (<= z_lp)
    checks: list[dict[str, Any]] = []
    if "exact" in rec and rec["exact"]["vs_packsched"]["ok"] is not None:
        checks.append({"check": f"{case['instance']}: exact arc-flow == z_lp (rtol {args.rtol:g})",
                       "ok": rec["exact"]["vs_packsched"]["ok"],
                       "rel_diff": rec["exact"]["vs_packsched"]["rel_diff"]})
    if "classic" in rec and rec["classic"]["vs_packsched"]["ok"] is not None:
        above = rec["classic"]["vs_packsched"]["peer_minus_ref"] > args.rtol * abs(z_ref)
        checks.append({"check": f"{case['instance']}: classic arc-flow <= z_lp", "ok": not above})
    if "expected_z" in case and z_ref is not None:
        checks.append({"check": f"{case['instance']}: z_lp == bins = {case['expected_z']}",
                       "ok": abs(z_ref - case["expected_z"]) <= args.rtol * case["expected_z"]})
    rec["checks"] = checks

    # where a relaxed peer is below z_lp, place it against the unbounded bound (one call)
    weaker = [k for k in ("classic", "vpsolver") if k in rec
              and rec[k].get("vs_packsched", {}).get("ok") is False]
    if weaker and args.unbounded:
        ures, _, utm = measure(lambda: bin_packing_lp(w, cap, unbounded=True), 1, 0.0, cap_s)
        rec["packsched_unbounded"] = {"timing": utm, "z_lp_unbounded": fnum(
            ures.extra["z_lp_unbounded"]) if ures is not None else None}
    return rec


# -- printing -------------------------------------------------------------------------------


def fz(x: Any) -> str:
    return "-" if x is None else f"{float(x):.6f}"


def ft(t: dict[str, Any], cap: float) -> str:
    o = t.get("outcome")
    if o == "ok":
        return f"{t['median_s']:.3f} ({t['repeats']})"
    if o == "timeout":
        return f"timeout >{cap:g}"
    if o == "too_large":
        return "too large"
    if o == "not_installed":
        return "n/a"
    return "ERROR"


def fpeer(p: dict[str, Any] | None, cap: float) -> tuple[str, str, str]:
    if p is None:
        return "-", "-", "-"
    t = p["timing"]
    if t.get("outcome") == "ok":
        tt = f"{t['median_s']:.3f} ({p['build_s']:.3f}/{p['solve_s']:.3f})"
    else:
        tt = ft(t, cap)
    size = f"{p['nodes']}/{p['arcs']}" if p.get("nodes") is not None else "-"
    return fz(p.get("z")), tt, size


def frel(c: dict[str, Any] | None) -> str:
    if not c or c.get("rel_diff") is None:
        return "-"
    return f"{c['rel_diff']:.1e}"


def print_row(r: dict[str, Any], cap: float) -> None:
    ps = r["packsched"]
    ez, et, es = fpeer(r.get("exact"), cap)
    print(f"  {r['instance']:<22} {r['n']:>5} {r['C']:>6} {r['distinct']:>4}  {ez:>14} "
          f"{fz(ps.get('z_lp')):>14} {frel((r.get('exact') or {}).get('vs_packsched')):>8}  "
          f"{et:>28} {ft(ps['timing'], cap):>16}  {es:>17}", flush=True)
    for key in ("classic", "vpsolver"):
        if key in r:
            z, t, s = fpeer(r[key], cap)
            c = r[key].get("vs_packsched")
            sign = ""
            if c and c.get("peer_minus_ref") is not None and c["ok"] is False:
                sign = " (below)" if c["peer_minus_ref"] < 0 else " (ABOVE)"
            print(f"  {'  ' + key:<22} {'':>5} {'':>6} {'':>4}  {z:>14} {'':>14} "
                  f"{frel(c):>8}  {t:>28} {'':>16}  {s:>17}{sign}", flush=True)
    if "packsched_unbounded" in r:
        zu = fz(r["packsched_unbounded"]["z_lp_unbounded"])
        print(f"  {'  unbounded z_lp':<22} {'':>17}  {'':>14} {zu:>14}", flush=True)
    for key in ("packsched", "exact", "classic", "vpsolver"):
        t = (r.get(key) or {}).get("timing", {})
        if t.get("outcome") == "error":
            print(f"      {key} ERROR: {t['error']}", flush=True)


HEADER = (f"  {'instance':<22} {'n':>5} {'C':>6} {'T':>4}  {'z arc-flow':>14} "
          f"{'z packsched':>14} {'rel diff':>8}  {'arc-flow s (build/solve)':>28} "
          f"{'packsched s':>16}  {'nodes/arcs':>17}")


# -- main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small instances; < ~60 s in total")
    ap.add_argument("--json", metavar="PATH", help="write every number to this JSON file")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed calls per method and case (median reported); default 3")
    ap.add_argument("--budget", type=float, default=None,
                    help="stop repeating after this many seconds (default 60, quick 4)")
    ap.add_argument("--case-cap", type=float, default=None,
                    help="stop one call after this many seconds (default 120, quick 8)")
    ap.add_argument("--max-arcs", type=int, default=MAX_ARCS,
                    help=f"refuse arc-flow graphs above this many arcs (default {MAX_ARCS:,})")
    ap.add_argument("--rtol", type=float, default=RTOL,
                    help=f"relative tolerance of the agreement check (default {RTOL:g})")
    ap.add_argument("--methods", default="exact,classic,vpsolver",
                    help="peers to run besides packsched: comma-separated subset of "
                         "exact,classic,vpsolver")
    ap.add_argument("--lp-solver", choices=["highspy", "scipy"], default="highspy",
                    help="highspy.Highs.passModel (default) or scipy.optimize.linprog")
    ap.add_argument("--highs-solver", choices=["ipm", "simplex", "choose"], default="ipm",
                    help="HiGHS algorithm for the arc-flow LPs (default ipm, with crossover)")
    ap.add_argument("--vpsolver-bin", metavar="DIR", default=None,
                    help="directory of VPSolver's vbp2afg and afg2mps")
    ap.add_argument("--no-unbounded", dest="unbounded", action="store_false",
                    help="do not compute the unbounded z_lp where a relaxed peer is lower")
    ap.add_argument("--only", metavar="NAME", action="append", default=None,
                    help="run only this case (repeatable)")
    args = ap.parse_args(argv)
    q = args.quick
    args.repeats = 3 if args.repeats is None else args.repeats  # 0 is refused below
    args.budget = args.budget if args.budget is not None else (4.0 if q else 60.0)
    args.case_cap = args.case_cap if args.case_cap is not None else (8.0 if q else 120.0)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    bad = [m for m in methods if m not in ("exact", "classic", "vpsolver")]
    if (bad or args.repeats < 1 or args.case_cap <= 0 or args.budget < 0 or args.rtol < 0
            or args.max_arcs < 1):
        ap.error(f"bad --methods {bad}" if bad else
                 "--repeats, --case-cap and --max-arcs must be positive, --budget and "
                 "--rtol >= 0")
    args.methods = methods
    try:
        run_cases = cases(q, args.only)  # an unknown --only fails before any work
    except ValueError as e:
        ap.error(str(e))

    wall0 = time.perf_counter()
    t0 = time.perf_counter()
    import capacity.supportable_workload  # noqa: F401
    import_s = time.perf_counter() - t0
    from benchmarks.bench_capacity import environment

    env = environment()
    vps_bin = find_vpsolver(args.vpsolver_bin) if "vpsolver" in methods else None
    vps_version = None
    if vps_bin is not None:
        try:
            _, info = vpsolver_lp_bound([3, 3, 5, 7, 2, 2], 10, vps_bin)
            vps_version = info.get("version")
        except Exception as e:  # noqa: BLE001
            print(f"VPSolver at {vps_bin} does not run: {e}", file=sys.stderr)
            vps_bin = None
    env["vpsolver"] = ({"bin": str(vps_bin), "version": vps_version} if vps_bin
                       else "not found (pip install --no-deps pyvpsolver, or --vpsolver-bin)")
    report: dict[str, Any] = {
        "mode": "quick" if q else "full", "environment": env, "import_s": import_s,
        "settings": {"repeats": args.repeats, "budget_s": args.budget,
                     "case_cap_s": args.case_cap, "max_arcs": args.max_arcs,
                     "rtol": args.rtol, "methods": methods, "lp_solver": args.lp_solver,
                     "highs_solver": args.highs_solver}}
    print(f"arc-flow LP vs packsched bin_packing_lp ({report['mode']}) - python "
          f"{env['python']}, {env['cpu_count']} cores, HiGHS {env['highs']}, git "
          f"{env['git_head']}" + (f" + uncommitted capacity/ {env['capacity_dirty_files']}"
                                  if env["capacity_dirty_files"] else ""))
    print(f"LP: {args.lp_solver}, HiGHS solver={args.highs_solver}; per-call cap "
          f"{args.case_cap:g} s, max arcs {args.max_arcs:,}, repeats {args.repeats}; "
          f"VPSolver: {vps_version + ' at ' + str(vps_bin) if vps_bin else 'not found'}")
    wu = warm_up()
    report["warm_up"] = wu
    print(f"import {import_s:.2f} s; warm-up: packsched {wu['packsched_s']:.2f} s, "
          f"arc-flow {wu['arcflow_s']:.2f} s (not timed below)\n")
    print(HEADER)
    rows = []
    checks: list[dict[str, Any]] = []
    for case in run_cases:
        rec = run_case(case, args, vps_bin)
        rows.append(rec)
        checks += rec["checks"]
        print_row(rec, args.case_cap)
    report["cases"] = rows
    report["checks"] = checks
    report["timeouts"] = [{"instance": r["instance"], "method": k,
                           "outcome": r[k]["timing"]["outcome"]}
                          for r in rows for k in ("packsched", "exact", "classic", "vpsolver")
                          if k in r and r[k]["timing"].get("outcome") in ("timeout",
                                                                          "too_large")]
    report["total_wall_s"] = time.perf_counter() - wall0
    print("\n== timeouts and refusals (per-call cap "
          f"{args.case_cap:g} s, max arcs {args.max_arcs:,})")
    for t in report["timeouts"]:
        print(f"  {t['instance']} {t['method']} {t['outcome']}")
    if not report["timeouts"]:
        print("  none")
    print("\n== checks")
    for c in checks:
        print(f"  {'ok  ' if c['ok'] else 'FAIL'} {c['check']}")
    failed = [c for c in checks if not c["ok"]]
    print(f"\n{len(checks) - len(failed)}/{len(checks)} checks ok; total wall time "
          f"{report['total_wall_s']:.1f} s")
    write_json(args.json, report)
    return 1 if failed else 0


def write_json(path: str | None, report: dict[str, Any]) -> None:
    if not path:
        return

    def clean(o: Any) -> Any:  # JSON has no inf/nan; numpy scalars become Python numbers
        if isinstance(o, np.generic):
            o = o.item()
        if isinstance(o, float) and not math.isfinite(o):
            return str(o)
        if isinstance(o, dict):
            return {str(k): clean(v) for k, v in o.items()}
        if isinstance(o, list | tuple):
            return [clean(v) for v in o]
        return o

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(clean(report), indent=1, default=str) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
