#!/usr/bin/env python
"""Cold start of the CLI (issue 13): where a first run's time goes.

Run from the repository root::

    python benchmarks/cold_start.py verify --quick          # empty numba cache
    python benchmarks/cold_start.py --cache DIR verify --quick   # reuse (warm) a cache
    python benchmarks/cold_start.py --repeat 5 rho-star --sizes 0.4,0.6 --probs 0.5,0.5

The arguments after the options are a ``packsched`` command line. Without
``--repeat`` the command runs once in this process with a numba compile listener, on
an empty ``NUMBA_CACHE_DIR`` unless ``--cache`` names one, and the script prints the
wall and CPU time and, per numba function compiled (or loaded from the cache) from
Python, the seconds it took, callees included. With ``--repeat N`` the command runs N
times in fresh interpreters (numba's cache as it is) and the script prints the median
wall and CPU time: the one-shot latency a user sees.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_shot(argv: list[str], repeat: int) -> None:
    walls, cpus = [], []
    for _ in range(repeat):
        r0, t0 = os.times(), time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "packsched", *argv], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              check=False)
        walls.append(time.perf_counter() - t0)
        r1 = os.times()
        cpus.append(r1.children_user - r0.children_user
                    + r1.children_system - r0.children_system)
        if proc.returncode != 0:
            sys.exit(f"packsched {' '.join(argv)} failed:\n{proc.stderr}")
    print(f"packsched {' '.join(argv)}: median of {repeat}: wall "
          f"{statistics.median(walls):.3f} s (min {min(walls):.3f}, max {max(walls):.3f}), "
          f"cpu {statistics.median(cpus):.3f} s")


def profiled(argv: list[str]) -> int:
    from numba.core import event

    stack: list[tuple[str, float]] = []
    top: dict[str, float] = collections.defaultdict(float)

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            f = ev.data["dispatcher"].py_func
            stack.append((f"{f.__module__}.{f.__qualname__}", time.perf_counter()))

        def on_end(self, ev: event.Event) -> None:
            name, t0 = stack.pop()
            if not stack:  # called from Python: callees are part of it
                top[name] += time.perf_counter() - t0

    event.register("numba:compile", Listener())
    from packsched.cli import main

    r0, t0 = os.times(), time.perf_counter()
    code = main(argv)
    wall, r1 = time.perf_counter() - t0, os.times()
    print(f"\npacksched {' '.join(argv)}: exit {code}, wall {wall:.1f} s, cpu "
          f"{r1.user - r0.user + r1.system - r0.system:.1f} s; numba compile or cache "
          f"load {sum(top.values()):.1f} s", file=sys.stderr)
    for name, s in sorted(top.items(), key=lambda x: -x[1]):
        print(f"  {s:7.2f} s  {name}", file=sys.stderr)
    return code


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", help="NUMBA_CACHE_DIR to use (default: a new empty one)")
    p.add_argument("--repeat", type=int, default=0,
                   help="run the command N times in fresh interpreters; print medians")
    p.add_argument("command", nargs=argparse.REMAINDER, help="a packsched command line")
    args = p.parse_args()
    if not args.command:
        p.error("give a packsched command, e.g. verify --quick")
    if args.repeat:
        one_shot(args.command, args.repeat)
        return 0
    if "numba" in sys.modules:  # pragma: no cover - the cache dir is read on import
        sys.exit("numba is already imported")
    os.environ["NUMBA_CACHE_DIR"] = args.cache or tempfile.mkdtemp(prefix="packsched-cold-")
    print(f"NUMBA_CACHE_DIR={os.environ['NUMBA_CACHE_DIR']}", file=sys.stderr)
    sys.path.insert(0, ROOT)
    return profiled(args.command)


if __name__ == "__main__":
    sys.exit(main())
