"""numba event loop of online PRIORITY-QUEUE (FL24 Sec. 4) on M machines.

A mirror of :func:`policies.nonpreemptive.engine.run_nonpreemptive` with
:class:`~policies.nonpreemptive.priority.PriorityQueue` as the policy, giving the same
schedule (tests assert equal starts and machines). Online PQ never plans ahead, so a
machine's usage over any window from now is its usage now; that usage is recomputed,
at each completion, as the left-to-right sum of the demands of its running jobs in
placement order, exactly the float the profile of the Python engine holds. At an event:
arrivals with r_j <= t join the queue, completions with C_j <= t free their machines;
then the waiting jobs are scanned in key order, a job that arrived now tried on every
machine and an older one only on the freed machines (it fitted none before, and usage
elsewhere has not dropped), each placed on the lowest-index machine it fits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.nonpreemptive._timeline import add, successor, value_at, window_max

__all__ = ["pq_online", "list_schedule_kernel"]


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


@njit(cache=True)
def _fits(usage, demand, cap_tol, i, j):
    for r in range(demand.shape[1]):
        if not usage[i, r] + demand[j, r] <= cap_tol[i, r]:
            return False
    return True


@njit(cache=True)
def _room(usage, mind, cap_tol, flist, nf):
    """Can some freed machine take the componentwise smallest waiting demand?"""
    for q in range(nf):
        i = flist[q]
        ok = True
        for r in range(mind.shape[0]):
            if not usage[i, r] + mind[r] <= cap_tol[i, r]:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True)
def pq_online(release_order, arrival, processing, demand, rank, cap_tol):
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
    hs = 0
    waiting = np.zeros(N, np.int64)  # ranks of waiting jobs, sorted
    job_at = np.empty(N, np.int64)
    for j in range(N):
        job_at[rank[j]] = j
    nw = 0
    new = np.zeros(N, np.bool_)
    freed = np.zeros(M, np.bool_)
    flist = np.zeros(M, np.int64)
    mind = np.zeros(R)
    nxt = 0
    placed = 0
    t = -np.inf
    while placed < N:
        ta = arrival[release_order[nxt]] if nxt < N else np.inf
        td = heap_t[0] if hs > 0 else np.inf
        t = min(ta, td)
        if t == np.inf:
            return start, machine, 1
        any_new = False
        while nxt < N and arrival[release_order[nxt]] <= t:
            j = release_order[nxt]
            r = rank[j]
            lo, hi = 0, nw  # insert r into the sorted waiting ranks
            while lo < hi:
                mid = (lo + hi) >> 1
                if waiting[mid] < r:
                    lo = mid + 1
                else:
                    hi = mid
            waiting[lo + 1:nw + 1] = waiting[lo:nw].copy()
            waiting[lo] = r
            nw += 1
            new[j] = True
            any_new = True
            nxt += 1
        any_freed = False
        freed[:] = False
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
        if nw > 0 and (any_new or any_freed):
            nf = 0
            for i in range(M):
                if freed[i]:
                    flist[nf] = i
                    nf += 1
            # the componentwise smallest waiting demand: once no freed machine can take
            # it, no older job fits anywhere (it fitted nowhere before and usage has only
            # grown elsewhere), so only the jobs that arrived now are still tried
            for r in range(R):
                mind[r] = np.inf
            for w in range(nw):
                j = job_at[waiting[w]]
                for r in range(R):
                    mind[r] = min(mind[r], demand[j, r])
            old_alive = _room(usage, mind, cap_tol, flist, nf)
            keep = 0
            for w in range(nw):
                j = job_at[waiting[w]]
                chosen = -1
                if new[j]:
                    for i in range(M):
                        if _fits(usage, demand, cap_tol, i, j):
                            chosen = i
                            break
                elif old_alive:
                    for q in range(nf):
                        if _fits(usage, demand, cap_tol, flist[q], j):
                            chosen = flist[q]
                            break
                if chosen >= 0:
                    start[j] = t
                    machine[j] = chosen
                    end[j] = t + processing[j]
                    for r in range(R):
                        usage[chosen, r] += demand[j, r]
                    if n_run[chosen] == running.shape[1]:
                        grown = np.zeros((M, 2 * running.shape[1]), np.int64)
                        grown[:, :running.shape[1]] = running
                        running = grown
                    running[chosen, n_run[chosen]] = j
                    n_run[chosen] += 1
                    hs = _push(heap_t, heap_m, hs, end[j], chosen)
                    placed += 1
                    if old_alive:
                        old_alive = _room(usage, mind, cap_tol, flist, nf)
                else:
                    waiting[keep] = waiting[w]
                    keep += 1
            nw = keep
        for w in range(nw):
            new[job_at[waiting[w]]] = False
    return start, machine, 0


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
    sp = 0
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
            pos = 0
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
