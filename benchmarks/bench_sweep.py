"""The sweep runner's overhead: 1,000 short runs through ``packsched sweep`` (spec, seeds,
an SQLite row committed per run) against the same command lines in a bare loop
(:func:`packsched.sweep_runner.run_point` one after the other, nothing stored), and the
process and Dask executors against the serial one (issue 41: overhead <= 5%; a 2-worker
``LocalCluster`` at most 0.6 of the serial time). ``--slots`` sets the length of a run:
short runs measure the runner, longer ones what parallel workers gain.

    python benchmarks/bench_sweep.py --repeats 3 --json benchmarks/results/sweep-2core.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

SPEC = """\
[sweep]
policies = ["bf-js", "fifo-ff"]
replications = {replications}
seed = 1
[options]
sizes = "0.4,0.6"
servers = 2
mu = 0.05
slots = {slots}
intensity = [0.5, 0.7, 0.9, 1.1, 1.3]
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1000, help="runs (a multiple of 10)")
    ap.add_argument("--slots", type=int, default=2000, help="slots of each run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args(argv)
    if args.runs < 10 or args.runs % 10 or args.repeats < 1:
        ap.error("--runs must be a positive multiple of 10 and --repeats at least 1")
    from packsched.sweep_runner import _tasks, read_spec, run_point, run_sweep

    with tempfile.TemporaryDirectory() as tmp:
        spec_path = Path(tmp) / "spec.toml"
        spec_path.write_text(SPEC.format(replications=args.runs // 10, slots=args.slots))
        spec = read_spec(str(spec_path))
        argvs = [t.payload for t in _tasks(spec)]
        run_point(argvs[0])  # warm-up: compile, caches
        try:
            import dask.distributed  # noqa: F401
            parallel = ("processes", "dask")
        except ImportError:  # the distributed extra is not installed
            parallel = ("processes",)
        times: dict[str, list[float]] = {"bare loop": [], "sweep serial": [],
                                         **{f"sweep {e}": [] for e in parallel}}
        ratios = []

        def bare() -> None:
            t = time.perf_counter()
            for a in argvs:
                run_point(a)
            times["bare loop"].append(time.perf_counter() - t)

        def swept(executor: str, k: int) -> None:
            store = Path(tmp) / f"{executor}-{k}.db"
            t = time.perf_counter()
            run_sweep(read_spec(str(spec_path)), str(store), executor=executor,
                      workers=None if executor == "serial" else args.workers)
            times[f"sweep {executor}"].append(time.perf_counter() - t)

        for k in range(args.repeats):  # alternate the order: drift hits both alike
            if k % 2:
                swept("serial", k)
                bare()
            else:
                bare()
                swept("serial", k)
            ratios.append(times["sweep serial"][-1] / times["bare loop"][-1])
            for executor in parallel:
                swept(executor, k)
    med = {k: statistics.median(v) for k, v in times.items()}
    out = {"runs": args.runs, "slots": args.slots, "repeats": args.repeats,
           "workers": args.workers, "median_s": med,
           "overhead_serial": statistics.median(ratios) - 1,
           **{f"{e}_over_serial": med[f"sweep {e}"] / med["sweep serial"] for e in parallel},
           "all_s": times}
    for k, v in med.items():
        print(f"{k:<16} {v:8.3f} s  ({1000 * v / args.runs:.2f} ms per run)")
    print(f"sweep overhead over the bare loop (median of the paired ratios): "
          f"{100 * out['overhead_serial']:+.1f}%; "
          + "; ".join(f"{e} / serial: {out[f'{e}_over_serial']:.2f}" for e in parallel))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
