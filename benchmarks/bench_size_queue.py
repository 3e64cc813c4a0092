#!/usr/bin/env python
"""The simulator's size queue alone: time per operation against the queue length.

Run from the repository root::

    python benchmarks/bench_size_queue.py                      # blocks of 256 (the kernel's)
    python benchmarks/bench_size_queue.py --blocks 64,256,1024 --lengths 1000,1000000

The queue (``policies/slotted/_size_queue.py``) holds Q keys (size, job), sizes
Uniform(0.1, 0.9). One operation is what BF-S does per placement in steady state: the
last key <= x (x Uniform(0.1, 1.0)), the removal of that job, the insertion of a new
one, so the length stays Q. Reports the best of ``--repeats`` runs of ``--ops``
operations, in ns per operation; every operation is O(log Q), so a growth faster than
log Q is the memory hierarchy (blocks past the L2 cache, pages past the TLB's reach).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from benchmarks.arguments import int_list  # noqa: E402
from policies.slotted._size_queue import (  # noqa: E402
    size_queue_insert,
    size_queue_last_le,
    size_queue_new,
    size_queue_remove,
)
from theory.budgets import MEMORY_BUDGET  # noqa: E402


@njit(cache=True)
def _fill(Q, sizes, n):
    for j in range(n):
        size_queue_insert(Q, sizes[j], np.int64(j))


@njit(cache=True)
def _churn(Q, sizes, first, xs):
    found = 0
    nxt = first
    for i in range(xs.shape[0]):
        j = size_queue_last_le(Q, xs[i])
        if j >= 0:
            size_queue_remove(Q, sizes[j], j)
            found += 1
        size_queue_insert(Q, sizes[nxt], nxt)
        nxt += 1
    return found


#: sizes drawn (8 bytes per key and operation), the queue's keys and job ids in blocks
#: at least half full (2 x 16), their first keys, with a margin
BYTES_PER_KEY = 64


def ns_per_op(block: int, length: int, ops: int, repeats: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    sizes = rng.uniform(0.1, 0.9, length + ops)
    xs = rng.uniform(0.1, 1.0, ops)
    best = float("inf")
    for _ in range(repeats):
        Q = size_queue_new(np.int64(block))
        _fill(Q, sizes, np.int64(length))
        t0 = time.perf_counter()
        _churn(Q, sizes, np.int64(length), xs)
        best = min(best, time.perf_counter() - t0)
    return 1e9 * best / ops


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", default="256", help="keys per block (the kernel uses 256)")
    ap.add_argument("--lengths", default="1000,10000,100000,1000000", help="queue lengths Q")
    ap.add_argument("--ops", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    blocks = int_list(args.blocks, "--blocks", ap)
    lengths = int_list(args.lengths, "--lengths", ap)
    if min(blocks) < 2:
        ap.error("--blocks must be at least 2")
    if args.ops < 1 or args.repeats < 1:
        ap.error("--ops and --repeats must be >= 1")
    need = BYTES_PER_KEY * (max(lengths) + args.ops)
    if need > MEMORY_BUDGET:
        ap.error(f"--lengths {max(lengths):,} with --ops {args.ops:,} would need about "
                 f"{need / 2**30:.1f} GiB, over the budget of {MEMORY_BUDGET / 2**30:g} GiB")
    ns_per_op(blocks[0], 100, 100, 1, args.seed)  # compile (or load) before timing
    print("| keys per block | " + " | ".join(f"Q = {q:,}" for q in lengths) + " |")
    print("|---|" + "---|" * len(lengths))
    for b in blocks:
        row = []
        for q in lengths:
            print(f"  blocks of {b}, Q = {q:,} ...", file=sys.stderr, flush=True)
            row.append(ns_per_op(b, q, args.ops, args.repeats, args.seed))
        print(f"| {b} | " + " | ".join(f"{v:,.0f} ns" for v in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
