"""Queued jobs ordered by size, for the slotted kernel's "largest fitting job" (PG21 IV-A).

BF-S, BF-J/S and VQS-BF fill a server with "the largest queued job that fits", earliest
arrival among equal sizes. The queue keeps keys (size, job) in increasing size and, among
equal sizes, decreasing job id, so that the last key <= x is the earliest arrival of the
largest size <= x.

Keys live in sorted blocks of at most ``B`` keys (square-root decomposition, a B-tree of
height two): ``order`` lists the live blocks in key order and ``first_size`` /
``first_job`` hold their first keys. A search is a binary search over the first keys,
then one inside a block; an insertion or removal shifts within one block; a full block
splits in two, an empty one is freed for reuse, and the pool of blocks doubles when all
are in use. Memory and cache footprint follow the queue length, not the number of jobs
or of distinct sizes (an index over a million distinct sizes, one rank per job of a
continuous law, missed the cache several times per job).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numba import njit, types
from numba.experimental import structref

__all__ = ["QBLOCK", "SIZE_QUEUE", "size_queue_new", "size_queue_insert", "size_queue_remove",
           "size_queue_last_le"]

#: keys per block in the simulator (tests use small blocks to exercise splits)
QBLOCK = 256

# an int64 value, not a Python literal: numba compiles a helper once more per literal
_ZERO = cast(int, np.int64(0))
_FIRST_BLOCKS = cast(int, np.int64(4))


@structref.register
class _SizeQueueType(types.StructRef):
    """The numba type of a size queue (a struct reference, as the kernel state)."""


class SizeQueue(structref.StructRefProxy):
    """A size queue as Python sees it (tests build one with :func:`size_queue_new`)."""


structref.define_boxing(_SizeQueueType, SizeQueue)

_F1 = types.float64[::1]
_I1 = types.int64[::1]

SIZE_QUEUE = _SizeQueueType([
    ("B", types.int64), ("key", _F1), ("job", _I1), ("count", _I1), ("order", _I1),
    ("first_size", _F1), ("first_job", _I1), ("nblocks", types.int64),
    ("used", types.int64), ("free", _I1), ("nfree", types.int64), ("n", types.int64),
])


@njit(cache=True)
def _alloc(Q, m):
    Q.key = np.empty(m * Q.B)
    Q.job = np.empty(m * Q.B, np.int64)
    Q.count = np.zeros(m, np.int64)
    Q.order = np.empty(m, np.int64)
    Q.first_size = np.empty(m)
    Q.first_job = np.empty(m, np.int64)
    Q.free = np.empty(m, np.int64)


@njit(cache=True)
def size_queue_new(B):
    """An empty queue with blocks of B >= 2 keys (B even)."""
    Q: Any = structref.new(SIZE_QUEUE)  # type: ignore[call-arg]
    Q.B = B
    _alloc(Q, _FIRST_BLOCKS)
    Q.nblocks = 0
    Q.used = 0
    Q.nfree = 0
    Q.n = 0
    return Q


@njit(cache=True)
def _copy_f(dst, d0, src, s0, n):
    """dst[d0:d0+n] = src[s0:s0+n] as a loop: a slice assignment compiles numba's
    shape-mismatch error formatting, seconds per call site (issue 13, cold start)."""
    for i in range(n):
        dst[d0 + i] = src[s0 + i]


@njit(cache=True)
def _copy_i(dst, d0, src, s0, n):
    """:func:`_copy_f` for int64 arrays."""
    for i in range(n):
        dst[d0 + i] = src[s0 + i]


@njit(cache=True)
def _new_block(Q):
    """A free block, growing the pool (doubling) when every block is in use."""
    if Q.nfree > 0:
        Q.nfree -= 1
        return Q.free[Q.nfree]
    m = Q.count.shape[0]
    if Q.used == m:
        key, job, count, order = Q.key, Q.job, Q.count, Q.order
        first_size, first_job = Q.first_size, Q.first_job
        _alloc(Q, 2 * m)
        _copy_f(Q.key, _ZERO, key, _ZERO, m * Q.B)
        _copy_i(Q.job, _ZERO, job, _ZERO, m * Q.B)
        _copy_i(Q.count, _ZERO, count, _ZERO, m)
        _copy_i(Q.order, _ZERO, order, _ZERO, m)
        _copy_f(Q.first_size, _ZERO, first_size, _ZERO, m)
        _copy_i(Q.first_job, _ZERO, first_job, _ZERO, m)
    Q.used += 1
    return Q.used - 1


@njit(cache=True)
def _block_of(Q, s, j):
    """Position in ``order`` of the last block whose first key is <= (s, j), else 0."""
    lo, hi = 0, Q.nblocks
    while lo < hi:
        mid = (lo + hi) >> 1
        fs = Q.first_size[mid]
        if fs < s or (fs == s and Q.first_job[mid] >= j):
            lo = mid + 1
        else:
            hi = mid
    return lo - 1 if lo > 0 else 0


@njit(cache=True)
def _lower_bound(Q, base, m, s, j):
    """First position of block ``base`` (m keys) whose key is >= (s, j)."""
    key, job = Q.key, Q.job
    lo, hi = 0, m
    while lo < hi:
        mid = (lo + hi) >> 1
        k = key[base + mid]
        if k < s or (k == s and job[base + mid] > j):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def size_queue_insert(Q, s, j):
    """Add job j of size s (not already present)."""
    if Q.nblocks == 0:
        blk = _new_block(Q)
        Q.order[0] = blk
        Q.count[blk] = 0
        Q.nblocks = 1
        b = 0
    else:
        b = _block_of(Q, s, j)
        blk = Q.order[b]
    B = Q.B
    base = blk * B
    m = Q.count[blk]
    p = _lower_bound(Q, base, m, s, j)
    key, job = Q.key, Q.job
    for q in range(base + m, base + p, -1):
        key[q] = key[q - 1]
        job[q] = job[q - 1]
    key[base + p] = s
    job[base + p] = j
    m += 1
    Q.count[blk] = m
    Q.n += 1
    if p == 0:
        Q.first_size[b] = s
        Q.first_job[b] = j
    if m == B:  # split: the upper half moves to a new block right after this one
        new = _new_block(Q)
        key, job = Q.key, Q.job  # the pool may have grown
        h = B // 2
        nbase = new * B
        _copy_f(key, nbase, key, base + h, h)
        _copy_i(job, nbase, job, base + h, h)
        Q.count[blk] = h
        Q.count[new] = h
        for q in range(Q.nblocks, b + 1, -1):
            Q.order[q] = Q.order[q - 1]
            Q.first_size[q] = Q.first_size[q - 1]
            Q.first_job[q] = Q.first_job[q - 1]
        Q.order[b + 1] = new
        Q.first_size[b + 1] = key[nbase]
        Q.first_job[b + 1] = job[nbase]
        Q.nblocks += 1


@njit(cache=True)
def size_queue_remove(Q, s, j):
    """Remove job j of size s (present)."""
    b = _block_of(Q, s, j)
    blk = Q.order[b]
    base = blk * Q.B
    m = Q.count[blk]
    p = _lower_bound(Q, base, m, s, j)
    key, job = Q.key, Q.job
    for q in range(base + p, base + m - 1):
        key[q] = key[q + 1]
        job[q] = job[q + 1]
    m -= 1
    Q.count[blk] = m
    Q.n -= 1
    if m == 0:
        Q.free[Q.nfree] = blk
        Q.nfree += 1
        for q in range(b, Q.nblocks - 1):
            Q.order[q] = Q.order[q + 1]
            Q.first_size[q] = Q.first_size[q + 1]
            Q.first_job[q] = Q.first_job[q + 1]
        Q.nblocks -= 1
    elif p == 0:
        Q.first_size[b] = key[base]
        Q.first_job[b] = job[base]


@njit(cache=True)
def size_queue_last_le(Q, x):
    """The job of the largest size <= x, the earliest (lowest id) among equals, or -1."""
    lo, hi = 0, Q.nblocks  # last block whose first size is <= x
    while lo < hi:
        mid = (lo + hi) >> 1
        if Q.first_size[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return -1
    blk = Q.order[lo - 1]
    base = blk * Q.B
    key = Q.key
    lo, hi = 0, Q.count[blk]
    while lo < hi:
        mid = (lo + hi) >> 1
        if key[base + mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return Q.job[base + lo - 1]
