"""How capacity time grows with items, capacity and distinct sizes, and where it goes (issue 13).

Three series, each point timed as the median of ``--repeats`` calls (CPU seconds from
``time.process_time``, wall seconds from ``time.perf_counter``), numba compilation
excluded by warm-up calls:

* ``items``: ``bin_packing_lp`` on Scholl_3-shaped instances (weights 20,000-35,000,
  capacity 100,000), n = 125, 250, 500, 1000 items (nearly all weights distinct);
* ``capacity``: ``bin_packing_lp`` on AI-shaped instances of 500 items (bins cut into
  3 or 4 items), capacity 1,000, 10,000, 100,000;
* ``types``: ``rho_star(sizes, method="column-generation")`` of T = 125 ... 2000
  distinct sizes in (0.2, 0.7) with 4 decimals.

The CPU time of each point is split into HiGHS master re-solves (``MasterLP.solve``),
pricing (the knapsack calls of ``capacity.configuration_lp``), the certificate
(``certify`` and ``exact_optimum``, with the knapsack calls they make) and the rest, by
wrapping those functions for the duration of the call; the split is that of the repeat
with the median CPU time. ``rounds`` are the column-generation rounds of the returned
LP; ``LP solves`` counts every master solve (``bin_packing_lp`` first solves the LP
without copy bounds, then the bounded one). It prints a markdown table and the log-log
slope of CPU time in each series, writes every row as JSON and plots the series. The
exit code is 1 when an answer is not certified.

    python benchmarks/bench_growth.py                  # every point, ~2 minutes on 2 cores
    python benchmarks/bench_growth.py --quick          # the two smallest points of each series
    python benchmarks/bench_growth.py --series types --max-points 1 --repeats 1
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _p in (str(ROOT), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from bench_scale import decimal_sizes, scholl3, split_bins  # noqa: E402
from timing import summary  # noqa: E402

SERIES = ("items", "capacity", "types")
PARTS = ("master", "pricing", "certificate")
#: knapsack entry points that capacity.configuration_lp and capacity.certificate import
KNAPSACKS = ("knapsack_dp", "knapsack_dp_bounded", "knapsack_bb", "knapsack_dp2",
             "knapsack_exact")
DEFAULT_JSON = HERE / "results" / "growth-2core.json"
DEFAULT_PNG = HERE / "results" / "growth.png"


# -- where the time goes ---------------------------------------------------------------


@dataclass
class Split:
    """CPU seconds and call counts of the wrapped parts of one call.

    A wrapped call made while another wrapped call runs (pricing inside ``certify``)
    is counted but not timed: its time belongs to the outer part.
    """

    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    calls: dict[str, int] = field(default_factory=dict)
    active: str | None = None

    def wrap(self, fn: Callable[..., Any], part: str, counter: str) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.calls[counter] = self.calls.get(counter, 0) + 1
            if self.active is not None:
                return fn(*args, **kwargs)
            self.active = part
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.cpu[part] += time.process_time() - t
                self.active = None

        return timed


@contextlib.contextmanager
def instrumented(split: Split) -> Iterator[Split]:
    """Wrap the master solve, the pricing knapsacks and the certificate; restore after."""
    import capacity._lp_highs as lp_highs
    import capacity.certificate as certificate
    import capacity.configuration_lp as configuration_lp
    import capacity.configuration_solver as configuration_solver
    import capacity.perfect_bin_decomposition as decomposition

    targets: list[tuple[Any, str, str, str]] = [
        (lp_highs.MasterLP, "solve", "master", "master_solves")]
    # the perfect-bin fast path of bin_packing_lp prices and certifies on its own
    for module in (configuration_lp, configuration_solver, decomposition):
        targets += [(module, name, "pricing", "pricing_calls")
                    for name in KNAPSACKS if hasattr(module, name)]
        targets += [(module, name, "certificate", f"{name}_calls")
                    for name in ("certify", "exact_optimum") if hasattr(module, name)]
    targets += [(certificate, name, "certificate", "certificate_knapsack_calls")
                for name in KNAPSACKS if hasattr(certificate, name)]
    saved: list[tuple[Any, str, Any]] = []
    try:
        for owner, name, part, counter in targets:
            original = vars(owner)[name]
            saved.append((owner, name, original))
            setattr(owner, name, split.wrap(original, part, counter))
        yield split
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


# -- the series ------------------------------------------------------------------------


@dataclass
class Point:
    series: str
    param: int
    entry: str
    make: Callable[[], Any]  # the call's arguments, built outside the timing
    call: Callable[[Any], Any]


def _bpp(ws_c: tuple[list[int], int]) -> Any:
    from capacity.supportable_workload import bin_packing_lp

    return bin_packing_lp(*ws_c)


def _rho(sizes: list[str]) -> Any:
    from capacity.supportable_workload import rho_star

    return rho_star(sizes, method="column-generation")


def ai_500(capacity: int) -> tuple[list[int], int]:
    """500 AI-shaped items (150 bins cut into 3 or 4 items: about 525, cut to 500)."""
    return split_bins(150, capacity, 31)[:500], capacity


def points(series: list[str], max_points: int | None) -> list[Point]:
    out: list[Point] = []
    if "items" in series:
        out += [Point("items", n, "bin_packing_lp",
                      lambda n=n: (scholl3(n, 13), 100_000), _bpp)
                for n in (125, 250, 500, 1000)[:max_points]]
    if "capacity" in series:
        out += [Point("capacity", C, "bin_packing_lp", lambda C=C: ai_500(C), _bpp)
                for C in (1_000, 10_000, 100_000)[:max_points]]
    if "types" in series:
        out += [Point("types", T, "rho_star",
                      lambda T=T: decimal_sizes(T, 0.2, 0.7, 4 if T <= 2000 else 5, 1), _rho)
                for T in (125, 250, 500, 1000, 2000)[:max_points]]
    return out


def warm_up(series: list[str]) -> None:
    """One small call of each entry point used (numba compiles its kernels lazily)."""
    if "items" in series or "capacity" in series:
        _bpp((split_bins(20, 1000, 1), 1000))
        _bpp((scholl3(30, 1), 100_000))
    if "types" in series:
        _rho(decimal_sizes(50, 0.2, 0.7, 4, 0))


def run_point(p: Point, repeats: int) -> dict[str, Any]:
    arg = p.make()
    walls: list[float] = []
    cpus: list[float] = []
    splits: list[Split] = []
    res: Any = None
    for _ in range(repeats):
        split = Split()
        with instrumented(split):
            w0, c0 = time.perf_counter(), time.process_time()
            res = p.call(arg)
            cpus.append(time.process_time() - c0)
            walls.append(time.perf_counter() - w0)
        splits.append(split)
    rep = sorted(range(repeats), key=cpus.__getitem__)[(repeats - 1) // 2]  # median_low
    parts = {f"{k}_s": v for k, v in splits[rep].cpu.items()}
    parts["other_s"] = cpus[rep] - sum(splits[rep].cpu.values())
    parts["total_s"] = cpus[rep]
    ex = res.extra
    if p.entry == "bin_packing_lp":
        ws, C = arg
        items, distinct, capacity = len(ws), ex["distinct_weights"], C
        certified = bool(res.certified and ex["unbounded_certified"])
        value = float(ex["z_lp"])
    else:
        items = distinct = len(arg)
        capacity, certified, value = 1, bool(res.certified), float(res.value)
    return {"series": p.series, "param": p.param, "entry": p.entry, "items": items,
            "distinct": distinct, "capacity": capacity,
            "wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus),
            "wall": summary(walls), "cpu": summary(cpus), "split": parts,
            "calls": splits[rep].calls, "rounds": res.iterations, "columns": res.columns,
            "certified": certified, "value": value}


# -- reporting -------------------------------------------------------------------------

PARAM = {"items": "n", "capacity": "C", "types": "T"}


def markdown(rows: list[dict[str, Any]]) -> str:
    head = ("| series | parameter | items | distinct | wall s | CPU s | master % | pricing % "
            "| certificate % | other % | rounds | LP solves | columns | certified |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        s = r["split"]
        pct = [100 * s[f"{k}_s"] / s["total_s"] if s["total_s"] > 0 else 0.0
               for k in (*PARTS, "other")]
        lines.append(
            f"| {r['series']} | {PARAM[r['series']]} = {r['param']:,} | {r['items']:,} "
            f"| {r['distinct']:,} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | "
            + " | ".join(f"{x:.0f}" for x in pct)
            + f" | {r['rounds']} | {r['calls'].get('master_solves', 0)} | {r['columns']:,} "
            f"| {'yes' if r['certified'] else 'NO'} |")
    return "\n".join(lines)


def slopes(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Log-log slope of CPU time (total and each part) against the series parameter."""
    out: dict[str, dict[str, float]] = {}
    for name in SERIES:
        rs = [r for r in rows if r["series"] == name]
        if len(rs) < 2:
            continue
        x = np.log([r["param"] for r in rs])
        fit = {"cpu": float(np.polyfit(x, np.log([r["cpu_s"] for r in rs]), 1)[0])}
        for k in (*PARTS, "other"):
            y = [r["split"][f"{k}_s"] for r in rs]
            if min(y) > 0:
                fit[k] = float(np.polyfit(x, np.log(y), 1)[0])
        out[name] = fit
    return out


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xlabel = {"items": "items n (Scholl_3-shaped, C = 100,000)",
              "capacity": "capacity C (AI-shaped, 500 items)",
              "types": "distinct sizes T (rho*, sizes in (0.2, 0.7))"}
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, name in zip(axes, SERIES, strict=True):
        rs = [r for r in rows if r["series"] == name]
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel[name])
        ax.set_ylabel("CPU s (median)")
        ax.grid(True, which="both", alpha=0.3)
        if not rs:
            continue
        x = np.array([r["param"] for r in rs], dtype=float)
        ax.plot(x, [r["cpu_s"] for r in rs], "k-o", label="total")
        for k, style in zip((*PARTS, "other"), ("-s", "-^", "-v", ":x"), strict=True):
            y = np.array([r["split"][f"{k}_s"] for r in rs])
            ax.plot(x, np.where(y > 0, y, np.nan), style, label=k)
        ax.set_xlim(x.min() / 1.3, x.max() * 1.3)
        ax.legend(fontsize=8)
    fig.suptitle("packsched capacity: CPU time and where it goes (issue 13)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _jsonable(x: object) -> object:
    return float(x) if isinstance(x, Fraction | np.floating) else str(x)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="calls per point (median)")
    ap.add_argument("--quick", action="store_true",
                    help="only the two smallest points of each series")
    ap.add_argument("--max-points", type=int, default=None,
                    help="only the N smallest points of each series")
    ap.add_argument("--series", default=",".join(SERIES), help="of: " + " ".join(SERIES))
    ap.add_argument("--json", default=str(DEFAULT_JSON), help="rows as JSON ('' for none)")
    ap.add_argument("--png", default=str(DEFAULT_PNG), help="the plot ('' for none)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if args.max_points is not None and args.max_points < 1:
        ap.error("--max-points must be at least 1")
    series = [s.strip() for s in args.series.split(",") if s.strip()]
    bad = [s for s in series if s not in SERIES]
    if bad or not series:
        ap.error(f"unknown series {bad}; choose from {', '.join(SERIES)}")
    max_points = min(args.max_points or 2, 2) if args.quick else args.max_points

    t0 = time.perf_counter()
    warm_up(series)
    print(f"warm-up {time.perf_counter() - t0:.1f} s", flush=True)
    rows = []
    for p in points(series, max_points):
        r = run_point(p, args.repeats)
        print(f"  {p.series:8s} {PARAM[p.series]}={p.param:<7,d} cpu {r['cpu_s']:7.2f} s  "
              f"wall {r['wall_s']:7.2f} s  rounds {r['rounds']}", flush=True)
        rows.append(r)
    elapsed = time.perf_counter() - t0
    fits = slopes(rows)
    print()
    print(markdown(rows))
    print()
    for name, fit in fits.items():
        parts = ", ".join(f"{k} {v:.2f}" for k, v in fit.items() if k != "cpu")
        print(f"{name}: CPU time grows about like {PARAM[name]}^{fit['cpu']:.2f} ({parts})")
    print(f"total {elapsed:.0f} s")
    if args.json:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=ROOT, check=False).stdout.strip()
        meta = {"git": head, "python": platform.python_version(), "cpus": os.cpu_count(),
                "machine": platform.machine(), "repeats": args.repeats,
                "max_points": max_points, "elapsed_s": elapsed}
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**meta, "slopes": fits, "rows": rows}, indent=1,
                                   default=_jsonable))
    if args.png:
        plot(rows, Path(args.png))
    return 0 if all(r["certified"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
