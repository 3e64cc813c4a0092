"""Time the same library calls on two commits, side by side, in one run.

A refactor must not slow a hot path: this checks out ``--base`` (default ``HEAD~1``) in a
temporary git worktree and runs each case below in a fresh Python process from the
base tree and from this tree, alternating, ``--repeats`` times, after one warm-up run
each (numba compiles into each tree's own cache). A case prints the seconds of its timed
section (the call, not the imports or the workload's generation); the table gives the
medians and their ratio (this tree / base).

    python benchmarks/compare_commits.py --base 8b4f998 --repeats 5 --json out.json

The cases use only the API both commits share (``policies.simulate``,
``simulate_continuous``, ``run_schedule``, ``run_nonpreemptive``, ``capacity.rho_star``,
``quantile_brackets``) and the CLI (``verify --quick``, ``--help``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the FL24 cases' job set (unit machines, two resources)
_FL24_JOBS = """
import time, numpy as np, policies as P
from theory.job_sets import JobSet, Machines
g = np.random.default_rng(1); n = 64_000
jobs = JobSet(np.sort(g.random(n) * 2000), g.random(n) * 5 + 0.1,
              g.random((n, 2)) * 0.5 + 0.01, g.integers(1, 5, n))
m = Machines([[1.0, 1.0]] * 4)
"""

#: name -> Python code printing the seconds of its timed section (last line of stdout)
CASES: dict[str, str] = {
    "PG21 BF-J/S, 1,000 servers, 10^6 jobs": """
import time, policies as P
from theory import Uniform
w = P.slotted_workload(Uniform("0.1", "0.9"), P.PoissonArrivals(90.0),
                       P.GeometricService(0.01), 11_200, seed=1)
c = P.Cluster.identical(1000)
t = time.perf_counter(); r = P.simulate(P.BFJS(), w, c); print(time.perf_counter() - t)
""",
    "PG21 VQS-BF, 100 servers, 2x10^5 jobs": """
import time, policies as P
from theory import Uniform
d = Uniform("0.01", "0.19")
w = P.slotted_workload(d, P.PoissonArrivals(50.0), P.GeometricService(0.01), 4_000, seed=2)
c = P.Cluster.identical(100)
p = P.make_policy("vqs-bf", dist=d)
t = time.perf_counter(); r = P.simulate(p, w, c); print(time.perf_counter() - t)
""",
    "PG18 RMS compiled, 1,000 servers, 2x10^5 arrivals": """
import time, policies as P
T = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
w = P.poisson_type_workload(T, [900.0, 450.0], 150.0, seed=1)
c = P.Cluster.identical(1000, 10.0)
t = time.perf_counter()
r = P.simulate_continuous(P.make_policy("rms"), w, c, T, seed=1)
print(time.perf_counter() - t)
""",
    "PG18 Best-Fit python engine, 20 servers, 4x10^3 arrivals": """
import time, policies as P
T = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
w = P.poisson_type_workload(T, [10.0, 5.0], 270.0, seed=3)
c = P.Cluster.identical(20, 10.0)
t = time.perf_counter()
r = P.simulate_continuous(P.make_policy("bf"), w, c, T, seed=1, engine="python")
print(time.perf_counter() - t)
""",
    "FL24 MRIS, 4 machines, 64,000 jobs": _FL24_JOBS + """
t = time.perf_counter()
r = P.run_nonpreemptive(P.make_policy("mris"), jobs, m); print(time.perf_counter() - t)
""",
    "FL24 PQ-WSJF compiled, 4 machines, 64,000 jobs": _FL24_JOBS + """
t = time.perf_counter()
r = P.run_nonpreemptive(P.make_policy("pq-wsjf"), jobs, m); print(time.perf_counter() - t)
""",
    "XLL21 OCORP, 3 machines, 300 jobs": """
import time, numpy as np
from policies.preemptive import run_schedule
from policies.registry import make_policy
from theory.job_sets import JobSet, Machines
g = np.random.default_rng(2); n = 300
jobs = JobSet(np.sort(g.integers(0, 400, n)), g.integers(1, 20, n), g.integers(1, 9, (n, 1)))
m = Machines([[16], [8], [8]])
t = time.perf_counter(); r = run_schedule(make_policy("ocorp"), jobs, m)
print(time.perf_counter() - t)
""",
    "capacity: rho* of 200 sizes, column generation": """
import time
from fractions import Fraction
import numpy as np
from capacity import rho_star
g = np.random.default_rng(4)
sizes = sorted({Fraction(int(x), 1000) for x in g.integers(50, 600, 200)})
probs = [Fraction(1, len(sizes))] * len(sizes)
t = time.perf_counter(); r = rho_star(sizes, probs, servers=1); print(time.perf_counter() - t)
""",
    "capacity: Thm. 1 brackets of Uniform(0.1, 0.9), 8 levels": """
import time
from capacity.brackets import quantile_brackets
from theory import Uniform
t = time.perf_counter(); quantile_brackets(Uniform("0.1", "0.9"), 8, servers=5)
print(time.perf_counter() - t)
""",
    "CLI: verify --quick (2 workers)": """
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, "-m", "packsched", "verify", "--quick", "--jobs", "2"],
               check=True, capture_output=True)
print(time.perf_counter() - t)
""",
    "CLI: packsched --help": """
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, "-m", "packsched", "--help"], check=True, capture_output=True)
print(time.perf_counter() - t)
""",
}


def run_case(code: str, tree: Path, timeout: float) -> float:
    """Seconds the case reports, run by a fresh interpreter from ``tree`` (its packages
    first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, check=True,
                         capture_output=True, text=True, timeout=timeout)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="HEAD~1", help="the commit to compare with")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cases", default="", help="comma-separated substrings of case names")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--json", help="write the table here")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    wanted = [c for c in CASES if not args.cases
              or any(s.strip() and s.strip() in c for s in args.cases.split(","))]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base],
                       cwd=ROOT, check=True, capture_output=True)
        try:
            rows = []
            for name in wanted:
                code = CASES[name]
                for tree in (base, ROOT):  # warm-up: compile into each tree's cache
                    run_case(code, tree, args.timeout)
                times: dict[str, list[float]] = {"base": [], "head": []}
                for _ in range(args.repeats):
                    times["base"].append(run_case(code, base, args.timeout))
                    times["head"].append(run_case(code, ROOT, args.timeout))
                b, h = (statistics.median(times[k]) for k in ("base", "head"))
                rows.append({"case": name, "base_s": b, "head_s": h, "ratio": h / b,
                             "base_all": times["base"], "head_all": times["head"]})
                print(f"{name:<58} base {b:8.3f} s  this {h:8.3f} s  ratio {h / b:5.3f}",
                      flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                           capture_output=True)
    if args.json:
        Path(args.json).write_text(json.dumps({
            "base": args.base, "repeats": args.repeats,
            "date": time.strftime("%Y-%m-%d %H:%M"), "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
