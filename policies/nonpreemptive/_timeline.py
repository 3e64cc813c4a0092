"""Per-machine resource-over-time profiles in numba: a treap per machine (FL24 Sec. 3).

The compiled counterpart of :class:`policies.nonpreemptive.profile.MachineProfiles`, for
schedules of millions of jobs where a sorted array per machine (O(n) per insertion, and
O(segments) per added job) is too slow. Machine ``i``'s step function ``usage(t)`` is a
treap (search tree on the breakpoint times, random heap priorities) rooted at
``root[i]``: node ``x`` holds the segment ``[key[x], next key)`` with usage ``val[x]``,
the subtree maximum ``mx[x]`` and a pending addition ``lz[x]`` for its children
(lazy propagation), so that adding a job's demand on ``[s, e)`` and the peak of a
window are O(log n) expected. Each machine starts with one segment ``[-inf, inf)`` of
usage 0. The true usage of a node is ``val[x]`` plus the pending additions of its
ancestors; a job of demand d fits machine i on [s, s + p) when
``max usage + d <= capacity (1 + FEASIBILITY_RTOL)`` over the segments meeting the
window, as in the Python profile.

Floats: a segment's usage is its jobs' demands summed in a grouping that depends on
the tree (the Python profile sums in placement order), so the two can differ in the
last bit; a decision differs only if an exact sum of demands lies within that rounding
of ``capacity (1 + FEASIBILITY_RTOL)``.

All arrays live in one node pool
(:class:`policies.nonpreemptive.timeline.TimelineProfiles`); the functions take them
explicitly so that numba compiles each once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["NIL", "PATH", "split", "merge", "value_at", "window_max", "successor", "add",
           "has_key"]

NIL = -1
PATH = 4096  # treap depth bound of the path buffers (expected depth ~ 2 ln n)


@njit(cache=True, inline="always")
def _apply(x, d, val, mx, lz):
    for r in range(val.shape[1]):
        val[x, r] += d[r]
        mx[x, r] += d[r]
        lz[x, r] += d[r]


@njit(cache=True)
def _push(x, val, mx, lz, left, right):
    R = val.shape[1]
    nz = False
    for r in range(R):
        if lz[x, r] != 0.0:
            nz = True
            break
    if not nz:
        return
    for c in (left[x], right[x]):
        if c != NIL:
            for r in range(R):
                val[c, r] += lz[x, r]
                mx[c, r] += lz[x, r]
                lz[c, r] += lz[x, r]
    for r in range(R):
        lz[x, r] = 0.0


@njit(cache=True)
def _pull(x, val, mx, left, right):
    a, b = left[x], right[x]
    for r in range(val.shape[1]):
        m = val[x, r]
        if a != NIL and mx[a, r] > m:
            m = mx[a, r]
        if b != NIL and mx[b, r] > m:
            m = mx[b, r]
        mx[x, r] = m


@njit(cache=True)
def split(x, k, key, val, mx, lz, left, right, path):
    """Split the treap ``x`` into (keys < k, keys >= k)."""
    a = NIL
    b = NIL
    la = NIL
    fb = NIL
    n = 0
    while x != NIL:
        _push(x, val, mx, lz, left, right)
        if n == path.shape[0]:
            raise RuntimeError("treap deeper than its path buffer")
        path[n] = x
        n += 1
        if key[x] < k:
            if la == NIL:
                a = x
            else:
                right[la] = x
            la = x
            x = right[x]
        else:
            if fb == NIL:
                b = x
            else:
                left[fb] = x
            fb = x
            x = left[x]
    if la != NIL:
        right[la] = NIL
    if fb != NIL:
        left[fb] = NIL
    for q in range(n - 1, -1, -1):
        _pull(path[q], val, mx, left, right)
    return a, b


@njit(cache=True)
def merge(a, b, val, mx, lz, left, right, prio, path):
    """Join treaps ``a`` and ``b`` whose keys are all smaller in ``a``."""
    root = NIL
    parent = NIL
    side = 0
    n = 0
    while a != NIL and b != NIL:
        if prio[a] > prio[b]:
            x = a
            _push(x, val, mx, lz, left, right)
            a = right[x]
            nside = 1
        else:
            x = b
            _push(x, val, mx, lz, left, right)
            b = left[x]
            nside = 0
        if n == path.shape[0]:
            raise RuntimeError("treap deeper than its path buffer")
        path[n] = x
        n += 1
        if parent == NIL:
            root = x
        elif side == 1:
            right[parent] = x
        else:
            left[parent] = x
        parent = x
        side = nside
    rest = a if a != NIL else b
    if parent == NIL:
        root = rest
    elif side == 1:
        right[parent] = rest
    else:
        left[parent] = rest
    for q in range(n - 1, -1, -1):
        _pull(path[q], val, mx, left, right)
    return root


@njit(cache=True)
def value_at(x, t, key, val, lz, left, right, acc, out):
    """usage(t) in the treap ``x`` (the segment with the largest key <= t) into ``out``;
    returns that node. ``acc``: scratch of length R."""
    R = val.shape[1]
    for r in range(R):
        acc[r] = 0.0
    best = NIL
    while x != NIL:
        if key[x] <= t:
            best = x
            for r in range(R):
                out[r] = val[x, r] + acc[r]
        if key[x] <= t:
            nxt = right[x]
        else:
            nxt = left[x]
        for r in range(R):
            acc[r] += lz[x, r]
        x = nxt
    return best


@njit(cache=True)
def window_max(x, s, e, key, val, mx, lz, left, right, acc, acc2, out):
    """The peak usage over [s, e) (every segment meeting it) of treap ``x`` into
    ``out``: usage(s), and the nodes with keys in (s, e)."""
    R = val.shape[1]
    value_at(x, s, key, val, lz, left, right, acc, out)
    # descend to the first node with key in (s, e)
    for r in range(R):
        acc[r] = 0.0
    while x != NIL:
        if key[x] <= s:
            nxt = right[x]
        elif key[x] >= e:
            nxt = left[x]
        else:
            break
        for r in range(R):
            acc[r] += lz[x, r]
        x = nxt
    if x == NIL:
        return
    for r in range(R):
        v = val[x, r] + acc[r]
        if v > out[r]:
            out[r] = v
        acc[r] += lz[x, r]
    # keys > s in the left subtree: take whole right subtrees on the way down
    y = left[x]
    for r in range(R):
        acc2[r] = acc[r]
    while y != NIL:
        if key[y] > s:
            c = right[y]
            for r in range(R):
                v = val[y, r] + acc2[r]
                if v > out[r]:
                    out[r] = v
                if c != NIL:
                    v = mx[c, r] + lz[y, r] + acc2[r]
                    if v > out[r]:
                        out[r] = v
            nxt = left[y]
        else:
            nxt = right[y]
        for r in range(R):
            acc2[r] += lz[y, r]
        y = nxt
    # keys < e in the right subtree
    y = right[x]
    for r in range(R):
        acc2[r] = acc[r]
    while y != NIL:
        if key[y] < e:
            c = left[y]
            for r in range(R):
                v = val[y, r] + acc2[r]
                if v > out[r]:
                    out[r] = v
                if c != NIL:
                    v = mx[c, r] + lz[y, r] + acc2[r]
                    if v > out[r]:
                        out[r] = v
            nxt = right[y]
        else:
            nxt = left[y]
        for r in range(R):
            acc2[r] += lz[y, r]
        y = nxt


@njit(cache=True)
def successor(x, t, key, left, right):
    """The smallest key > t in treap ``x`` (inf if none)."""
    best = np.inf
    while x != NIL:
        if key[x] > t:
            if key[x] < best:
                best = key[x]
            x = left[x]
        else:
            x = right[x]
    return best


@njit(cache=True)
def _ensure(i, t, key, val, mx, lz, left, right, prio, root, count, path, acc):
    """Make ``t`` a breakpoint of machine ``i`` (its usage that of the segment it
    splits)."""
    a, b = split(root[i], t, key, val, mx, lz, left, right, path)
    y = b
    while y != NIL and left[y] != NIL:
        y = left[y]
    if y != NIL and key[y] == t:
        root[i] = merge(a, b, val, mx, lz, left, right, prio, path)
        return
    x = count[0]
    if x >= key.shape[0]:
        raise RuntimeError("timeline node pool exhausted")
    count[0] = x + 1
    # a holds every key < t, so its rightmost node is the segment that t splits
    y = a
    R = val.shape[1]
    for r in range(R):
        acc[r] = 0.0
    while right[y] != NIL:
        for r in range(R):
            acc[r] += lz[y, r]
        y = right[y]
    key[x] = t
    for r in range(R):
        val[x, r] = val[y, r] + acc[r]
        mx[x, r] = val[x, r]
        lz[x, r] = 0.0
    left[x] = NIL
    right[x] = NIL
    a = merge(a, x, val, mx, lz, left, right, prio, path)
    root[i] = merge(a, b, val, mx, lz, left, right, prio, path)


@njit(cache=True)
def add(i, s, e, d, key, val, mx, lz, left, right, prio, root, count, path, acc):
    """Hold demand ``d`` on machine ``i`` during [s, e)."""
    _ensure(i, s, key, val, mx, lz, left, right, prio, root, count, path, acc)
    _ensure(i, e, key, val, mx, lz, left, right, prio, root, count, path, acc)
    a, b = split(root[i], s, key, val, mx, lz, left, right, path)
    b, c = split(b, e, key, val, mx, lz, left, right, path)
    if b != NIL:  # empty only when s + p rounds to s
        _apply(b, d, val, mx, lz)
    a = merge(a, b, val, mx, lz, left, right, prio, path)
    root[i] = merge(a, c, val, mx, lz, left, right, prio, path)


@njit(cache=True)
def has_key(x, t, key, left, right):
    """Is ``t`` a breakpoint of treap ``x``?"""
    while x != NIL:
        if key[x] == t:
            return True
        x = right[x] if key[x] < t else left[x]
    return False
