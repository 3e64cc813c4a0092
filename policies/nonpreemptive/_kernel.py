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

__all__ = ["pq_online"]


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
