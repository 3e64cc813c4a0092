"""numba loops of FL24's non-preemptive policies (Sec. 4, 5.2, 7.2) on M machines.

:func:`online_loop` mirrors :func:`policies.nonpreemptive.engine.run_nonpreemptive` with
online PRIORITY-QUEUE, TETRIS or BF-EXEC as the policy, giving the same schedule (tests
assert equal starts and machines). These never plan ahead, so a machine's usage over
any window from now is its usage now; that usage is recomputed, at each completion, as
the left-to-right sum of the demands of its running jobs in placement order, exactly
the float the profile of the Python engine holds. At an event: arrivals with r_j <= t
join the waiting jobs, completions with C_j <= t free their machines; a waiting job
that fitted no machine before can only fit a freed one (usage elsewhere has not
dropped), a job released now any. PQ's scan "each job in key order to the lowest-index
machine it fits" is run machine by machine (the same placements: what fits a machine
depends only on the jobs placed there before), each machine taking the first waiting
job that fits it, found in a segment tree over the scan order.

:func:`list_schedule_kernel` is PQ list scheduling with planning ahead on the treap
profiles of :mod:`policies.nonpreemptive._timeline` (MRIS, CA-PQ).
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numba import njit

from policies.kernel_fit import fits
from policies.nonpreemptive._timeline import add, successor, value_at, window_max
from policies.nonpreemptive.codes import BF_EXEC, TETRIS

__all__ = ["online_loop", "list_schedule_kernel"]


@njit(cache=True)
def _push(heap_t, heap_m, size, t, m):
    i = size
    heap_t[i] = t
    heap_m[i] = m
    while i > 0:
        p = (i - 1) >> 1
        if heap_t[p] > heap_t[i] or (heap_t[p] == heap_t[i] and heap_m[p] > heap_m[i]):
            heap_t[p], heap_t[i] = heap_t[i], heap_t[p]
            heap_m[p], heap_m[i] = heap_m[i], heap_m[p]
            i = p
        else:
            break
    return size + 1


@njit(cache=True)
def _pop(heap_t, heap_m, size):
    size -= 1
    heap_t[0] = heap_t[size]
    heap_m[0] = heap_m[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and (heap_t[c + 1] < heap_t[c] or (
                heap_t[c + 1] == heap_t[c] and heap_m[c + 1] < heap_m[c])):
            c += 1
        if heap_t[c] < heap_t[i] or (heap_t[c] == heap_t[i] and heap_m[c] < heap_m[i]):
            heap_t[c], heap_t[i] = heap_t[i], heap_t[c]
            heap_m[c], heap_m[i] = heap_m[i], heap_m[c]
            i = c
        else:
            break
    return size


# Integer arguments as int64 values, not Python constants: numba compiles a helper once
# more for every literal argument (``f(i, 0)`` and ``f(i, pos)`` are two specialisations).
_ZERO = cast(int, np.int64(0))
_NONE = cast(int, np.int64(-1))


@njit(cache=True)
def _tree_set(v, dj, vol, size, dmin, vmax):
    """Leaf ``v`` (a rank) joins the waiting jobs (``dj``: its demand) or, with ``dj``
    None-like (``vol`` < 0), leaves them; the path to the root is refreshed."""
    R = dmin.shape[1]
    x = size + v
    if vol < 0:
        for r in range(R):
            dmin[x, r] = np.inf
        vmax[x] = -np.inf
    else:
        for r in range(R):
            dmin[x, r] = dj[r]
        vmax[x] = vol
    x >>= 1
    while x >= 1:
        for r in range(R):
            dmin[x, r] = min(dmin[2 * x, r], dmin[2 * x + 1, r])
        vmax[x] = max(vmax[2 * x], vmax[2 * x + 1])
        x >>= 1


@njit(cache=True)
def _next_fit(i, pos_from, size, dmin, usage, cap_tol, stack):
    """The first waiting rank >= ``pos_from`` whose demand fits machine ``i`` now (-1):
    subtrees whose componentwise smallest demand does not fit are skipped (at a leaf the
    test is the job's own fit)."""
    R = dmin.shape[1]
    stack[0, 0] = 1
    stack[0, 1] = 0
    stack[0, 2] = size
    sp = 1
    while sp > 0:
        sp -= 1
        v = stack[sp, 0]
        lo = stack[sp, 1]
        wd = stack[sp, 2]
        if lo + wd <= pos_from:
            continue
        ok = True
        for r in range(R):
            if not usage[i, r] + dmin[v, r] <= cap_tol[i, r]:
                ok = False
                break
        if not ok:
            continue
        if wd == 1:
            return lo
        h = wd >> 1
        stack[sp, 0] = 2 * v + 1
        stack[sp, 1] = lo + h
        stack[sp, 2] = h
        stack[sp + 1, 0] = 2 * v
        stack[sp + 1, 1] = lo
        stack[sp + 1, 2] = h
        sp += 2
    return -1


@njit(cache=True)
def online_loop(kind, release_order, arrival, processing, demand, volume, rank, group_end,
                capacity, cap_tol, eps):
    """Online PQ, TETRIS or BF-EXEC (``kind``) on M machines; returns (start, machine,
    status). ``rank``: each job's place in the order the policy scans its waiting jobs
    (PQ: its sort key; BF-EXEC: processing time; TETRIS: jobs grouped by demand vector,
    within a group by volume; ties to the earlier release). ``group_end[rank]``: where
    that rank's group ends (TETRIS). The waiting jobs sit in a segment tree over the
    ranks holding the componentwise smallest demand and the largest volume."""
    N, R = demand.shape
    M = cap_tol.shape[0]
    start = np.full(N, np.nan)
    machine = np.full(N, -1, np.int64)
    usage = np.zeros((M, R))
    running = np.zeros((M, 64), np.int64)  # per machine, its running jobs in placement order
    n_run = np.zeros(M, np.int64)
    end = np.zeros(N)
    heap_t = np.zeros(N)
    heap_m = np.zeros(N, np.int64)
    hs = _ZERO
    size = 1
    while size < N:
        size *= 2
    dmin = np.full((2 * size, R), np.inf)
    vmax = np.full(2 * size, -np.inf)
    job_at = np.empty(N, np.int64)
    for j in range(N):
        job_at[rank[j]] = j
    release_rank = np.empty(N, np.int64)
    for q in range(N):
        release_rank[release_order[q]] = q
    stack = np.zeros((128, 3), np.int64)
    new = np.zeros(N, np.int64)  # the jobs released now, in release order
    freed = np.zeros(M, np.bool_)
    may = np.zeros(M, np.bool_)
    free = np.zeros(R)
    nxt = 0
    placed = 0
    n_wait = 0
    while placed < N:
        ta = arrival[release_order[nxt]] if nxt < N else np.inf
        td = heap_t[0] if hs > 0 else np.inf
        t = min(ta, td)
        if t == np.inf:
            return start, machine, 1
        n_new = 0
        while nxt < N and arrival[release_order[nxt]] <= t:
            j = release_order[nxt]
            _tree_set(rank[j], demand[j], volume[j], size, dmin, vmax)
            new[n_new] = j
            n_new += 1
            n_wait += 1
            nxt += 1
        any_freed = False
        for fm in range(M):
            freed[fm] = False
        while hs > 0 and heap_t[0] <= t:
            i = heap_m[0]
            hs = _pop(heap_t, heap_m, hs)
            freed[i] = True
            any_freed = True
        if any_freed:
            for i in range(M):
                if freed[i]:  # drop the finished jobs, re-sum the rest in placement order
                    k = 0
                    for q in range(n_run[i]):
                        j = running[i, q]
                        if end[j] > t:
                            running[i, k] = j
                            k += 1
                    n_run[i] = k
                    for r in range(R):
                        acc = 0.0
                        for q in range(k):
                            acc += demand[running[i, q], r]
                        usage[i, r] = acc
        if n_wait == 0 or (n_new == 0 and not any_freed):
            continue
        # a queued job that fitted nowhere before can only fit a freed machine now; a
        # job released now may fit any
        if kind != BF_EXEC:
            for i in range(M):
                may[i] = (freed[i] or n_new > 0) and _next_fit(i, _ZERO, size, dmin, usage,
                                                              cap_tol, stack) >= 0
        if kind == BF_EXEC:
            for q in range(n_new):
                j = new[q]
                best = _NONE
                best_norm = np.inf
                for i in range(M):
                    if fits(usage, cap_tol, demand, i, j):
                        acc = 0.0
                        for r in range(R):
                            f = capacity[i, r] - usage[i, r]
                            acc += f * f
                        nrm = np.sqrt(acc)
                        if nrm < best_norm:
                            best_norm = nrm
                            best = i
                if best >= 0:
                    _tree_set(rank[j], demand[j], -1.0, size, dmin, vmax)
                    n_wait -= 1
                    running = _room_for(running, n_run, best)
                    hs = _start(j, best, t, start, machine, end, usage, demand, processing,
                                running, n_run, heap_t, heap_m, hs)
                    placed += 1
        for i in range(M):
            if kind == BF_EXEC:
                if not freed[i]:
                    continue
            elif not may[i]:
                continue
            pos = _ZERO
            while n_wait > 0:
                if kind == TETRIS:
                    # the best score among every job that fits: ranks run through the
                    # groups of equal demand, each by (volume, release), so a group's
                    # first waiting job beats the rest of it and only those are scored
                    vm = vmax[1]
                    for r in range(R):
                        free[r] = capacity[i, r] - usage[i, r]
                    best = _NONE
                    best_score = -np.inf
                    v = _next_fit(i, _ZERO, size, dmin, usage, cap_tol, stack)
                    while v >= 0:
                        j = job_at[v]
                        a = 0.0
                        for r in range(R):
                            a += demand[j, r] * free[r]
                        sc = a - eps * volume[j] / vm
                        if best < 0 or sc > best_score or (sc == best_score and (
                                volume[j] < volume[best] or (volume[j] == volume[best]
                                                             and release_rank[j] <
                                                             release_rank[best]))):
                            best_score = sc
                            best = j
                        v = _next_fit(i, group_end[v], size, dmin, usage, cap_tol, stack)
                    if best < 0:
                        break
                    j = best
                else:  # the first job in rank order that fits
                    v = _next_fit(i, pos, size, dmin, usage, cap_tol, stack)
                    if v < 0:
                        break
                    j = job_at[v]
                    pos = v + 1
                _tree_set(rank[j], demand[j], -1.0, size, dmin, vmax)
                n_wait -= 1
                running = _room_for(running, n_run, i)
                hs = _start(j, i, t, start, machine, end, usage, demand, processing, running,
                            n_run, heap_t, heap_m, hs)
                placed += 1
    return start, machine, 0


@njit(cache=True)
def _room_for(running, n_run, i):
    if n_run[i] < running.shape[1]:
        return running
    grown = np.zeros((running.shape[0], 2 * running.shape[1]), np.int64)
    for a in range(running.shape[0]):  # a loop, not a slice copy: no shape check to compile
        for b in range(running.shape[1]):
            grown[a, b] = running[a, b]
    return grown


@njit(cache=True)
def _start(j, i, t, start, machine, end, usage, demand, processing, running, n_run, heap_t,
           heap_m, hs):
    """Start job ``j`` on machine ``i`` at ``t`` (``running`` has room)."""
    start[j] = t
    machine[j] = i
    end[j] = t + processing[j]
    for r in range(demand.shape[1]):
        usage[i, r] += demand[j, r]
    running[i, n_run[i]] = j
    n_run[i] += 1
    return _push(heap_t, heap_m, hs, end[j], i)


# ---------------------------------------------------------------- list scheduling


@njit(cache=True)
def _leaf_fits(i, t, p, dj, nbi, u, root, cap_tol, key, val, mx, lz, left, right, acc,
               acc2, w):
    """Does demand ``dj`` fit machine ``i`` on [t, t + p)? ``u``: usage(t); ``nbi``: the
    machine's next breakpoint after t."""
    R = dj.shape[0]
    e = t + p
    if e <= nbi:  # the window lies in the segment of t
        for r in range(R):
            if not u[r] + dj[r] <= cap_tol[i, r]:
                return False
        return True
    window_max(root[i], t, e, key, val, mx, lz, left, right, acc, acc2, w)
    for r in range(R):
        if not w[r] + dj[r] <= cap_tol[i, r]:
            return False
    return True


@njit(cache=True)
def _first_fit(i, t, pos_from, size, pmin, dmin, u, nbi, planned_after, root, cap_tol,
               key, val, mx, lz, left, right, acc, acc2, w, stack):
    """The first position >= ``pos_from`` of the pending tree whose job fits machine
    ``i`` from ``t`` (-1 if none). A subtree is skipped when its componentwise smallest
    demand does not fit usage(t), or (with jobs planned to start after t on ``i``) the
    peak over its shortest job's window: every job in it then fails too."""
    R = u.shape[0]
    stack[0, 0] = 1
    stack[0, 1] = 0
    stack[0, 2] = size
    sp = 1
    while sp > 0:
        sp -= 1
        v = stack[sp, 0]
        lo = stack[sp, 1]
        wd = stack[sp, 2]
        if lo + wd <= pos_from or pmin[v] == np.inf:
            continue
        ok = True
        for r in range(R):
            if not u[r] + dmin[v, r] <= cap_tol[i, r]:
                ok = False
                break
        if not ok:
            continue
        if wd == 1:
            if _leaf_fits(i, t, pmin[v], dmin[v], nbi, u, root, cap_tol, key, val, mx, lz,
                          left, right, acc, acc2, w):
                return lo
            continue
        if planned_after and t + pmin[v] > nbi:
            if not _leaf_fits(i, t, pmin[v], dmin[v], nbi, u, root, cap_tol, key, val, mx,
                              lz, left, right, acc, acc2, w):
                continue
        h = wd >> 1
        stack[sp, 0] = 2 * v + 1
        stack[sp, 1] = lo + h
        stack[sp, 2] = h
        stack[sp + 1, 0] = 2 * v
        stack[sp + 1, 1] = lo
        stack[sp + 1, 2] = h
        sp += 2
    return -1


@njit(cache=True)
def list_schedule_kernel(order, t0, processing, demand, cap_tol, start, machine,
                         last_start, key, val, mx, lz, left, right, prio, root, count, path,
                         scratch):
    """PRIORITY-QUEUE list scheduling (FL24 Sec. 5.2) of ``order`` from ``t0`` on the
    treap timeline: the same schedule as
    :meth:`policies.nonpreemptive.engine.ScheduleState.list_schedule`.

    At ``t0`` every machine, then at each next breakpoint of the profiles the machines
    with a breakpoint there, in index order, take the pending jobs that fit them from
    now for their whole duration, in list order (machine by machine this places the same
    jobs as the Python engine's job-by-job scan: a job goes to the lowest-index machine
    it fits, and what fits a machine depends only on the jobs placed there before it).
    The first fitting job is found by descending a segment tree over the list holding
    the smallest remaining processing time and demands. Returns 0, or 1 if some job
    fits no machine even when every profile is past its last breakpoint."""
    m = order.shape[0]
    N, R = demand.shape
    M = root.shape[0]
    size = 1
    while size < m:
        size *= 2
    pmin = np.full(2 * size, np.inf)
    dmin = np.full((2 * size, R), np.inf)
    for q in range(m):
        j = order[q]
        pmin[size + q] = processing[j]
        for r in range(R):
            dmin[size + q, r] = demand[j, r]
    for v in range(size - 1, 0, -1):
        pmin[v] = min(pmin[2 * v], pmin[2 * v + 1])
        for r in range(R):
            dmin[v, r] = min(dmin[2 * v, r], dmin[2 * v + 1, r])
    u = scratch[0]
    w = scratch[1]
    acc = scratch[2]
    acc2 = scratch[3]
    stack = np.zeros((128, 3), np.int64)
    nb = np.empty(M)
    changed = np.ones(M, np.bool_)
    t = t0
    for i in range(M):
        nb[i] = successor(root[i], t, key, left, right)
    pending = m
    while pending > 0:
        for i in range(M):
            if not changed[i]:
                continue
            value_at(root[i], t, key, val, lz, left, right, acc, u)
            pos = _ZERO
            while pending > 0:
                q = _first_fit(i, t, pos, size, pmin, dmin, u, nb[i], last_start[i] > t,
                               root, cap_tol, key, val, mx, lz, left, right, acc, acc2, w,
                               stack)
                if q < 0:
                    break
                j = order[q]
                e = t + processing[j]
                add(i, t, e, demand[j], key, val, mx, lz, left, right, prio, root, count,
                    path, acc)
                start[j] = t
                machine[j] = i
                if t > last_start[i]:
                    last_start[i] = t
                if t < e < nb[i]:
                    nb[i] = e
                v = size + q
                pmin[v] = np.inf
                for r in range(R):
                    dmin[v, r] = np.inf
                v >>= 1
                while v >= 1:
                    pmin[v] = min(pmin[2 * v], pmin[2 * v + 1])
                    for r in range(R):
                        dmin[v, r] = min(dmin[2 * v, r], dmin[2 * v + 1, r])
                    v >>= 1
                pending -= 1
                pos = q + 1
                value_at(root[i], t, key, val, lz, left, right, acc, u)
        if pending == 0:
            break
        tn = np.inf
        for i in range(M):
            if nb[i] < tn:
                tn = nb[i]
        if tn == np.inf:
            return 1
        t = tn
        for i in range(M):
            changed[i] = nb[i] == t
            if changed[i]:
                nb[i] = successor(root[i], t, key, left, right)
    return 0
