"""Compiled event loop of the PG21 slotted model and the built-in policies.

One slot t = 0, 1, ..., T-1 (PG21 Sec. II) is: (1) the jobs with arrival slot t join
the queue; (2) the policy schedules; (3) the queue is recorded; (4) every job whose
last service slot is t leaves (in increasing job id, which fixes the float rounding
of the server loads; a server left with no job gets load exactly 0).

A job j fits server l iff ``size[j] <= cap[l] - load[l] + eps`` with
``eps = FEASIBILITY_RTOL * max(cap)`` (the toolkit's one feasibility tolerance); for
VQS and VQS-BF with rounding of small jobs (PG21 V-A), ``size`` and ``load`` are the
packing sizes max(size, cap / 2^J) and their sum.

Data structures (all exact reformulations of the papers' linear scans):

* queued jobs by size: sizes are rank-compressed once; a count tree over ranks answers
  "the largest queued job of size <= r" (BF-S, PG21 IV-A) in O(log n), with FIFO
  lists per rank (ties go to the earliest arrival); a range restriction gives the
  same query inside one virtual queue (VQS-BF step ii, PG21 VI);
* queued jobs by arrival: a min-size tree over job ids answers "the first queued job
  that fits somewhere" (BF-J, FIFO-FF with skipping);
* virtual queues: per-type FIFO lists with lazy deletion (head-of-line, PG21 V-B);
  for VQS step (ii) with skipping, a min-size tree over the positions of the per-type
  lists answers "the earliest queued job of VQ_j that fits" in O(log n);
* packing sizes: with ``VQ_ROUND_SMALL`` a job occupies max(size, cap / 2^J) (PG21
  V-A); every fit test, load, residual and size rank of the kernel uses this packing
  size, while the queued-resource and busy series and the occupancy metrics use the
  real sizes (without the option the two are the same array);
* servers: an array sorted by (residual, index) for best fit, and a max-residual tree
  over indices for first fit and for "the next server, in index order, that some
  job can still enter".

Policies that the paper runs on every server every slot (BF-S, VQS-BF) are run only
on servers where the outcome can differ from "do nothing": servers with a departure
in the previous slot, and servers some newly arrived job fits. After a server is
processed no queued job fits it, and until its next departure its residual does not
grow, so only new arrivals can enter it: the result is identical to the literal
all-servers loop, in the same server order.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

BFJ, BFS, BFJS, VQS, VQSBF, FIFOFF, FIFOFF_SKIP, MAXWEIGHT = range(8)

#: Option bits OR-ed into the policy code of VQS / VQS-BF (``code & POLICY_MASK`` is the
#: policy). ``VQ_ROUND_SMALL``: jobs of size <= cap / 2^J occupy cap / 2^J while in
#: service (PG21 Sec. V-A; 2J = ntypes, servers identical). ``VQ_HOL_SKIP``: VQS step
#: (ii) passes over a VQ_j job that does not fit and tries the next one (PG21 V-B).
VQ_ROUND_SMALL = 1 << 8
VQ_HOL_SKIP = 1 << 9
POLICY_MASK = (1 << 8) - 1

NOT_ARRIVED, QUEUED, STARTED = 0, 1, 2


# -- trees -----------------------------------------------------------------------------


@njit(cache=True)
def _pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


@njit(cache=True)
def _count_add(tree, P, i, d):
    node = i + P
    while node >= 1:
        tree[node] += d
        node >>= 1


@njit(cache=True)
def _rightmost_nonzero(tree, P, hi):
    """Largest leaf index <= hi with a positive count, or -1."""
    if hi < 0:
        return -1
    node = hi + P
    if tree[node] > 0:
        return hi
    while node > 1:
        if (node & 1) == 1 and tree[node - 1] > 0:
            node -= 1
            while node < P:
                node = 2 * node + 1 if tree[2 * node + 1] > 0 else 2 * node
            return node - P
        node >>= 1
    return -1


@njit(cache=True)
def _max_set(tree, P, i, v):
    node = i + P
    tree[node] = v
    node >>= 1
    while node >= 1:
        a = tree[2 * node]
        b = tree[2 * node + 1]
        tree[node] = a if a >= b else b
        node >>= 1


@njit(cache=True)
def _leftmost_geq(tree, P, i, x, eps):
    """Smallest leaf index >= i whose value v has v + eps >= x, or -1 (max tree)."""
    if i >= P:
        return -1
    node = i + P
    if tree[node] + eps >= x:
        return i
    while node > 1:
        if (node & 1) == 0 and tree[node + 1] + eps >= x:
            node += 1
            while node < P:
                node = 2 * node if tree[2 * node] + eps >= x else 2 * node + 1
            return node - P
        node >>= 1
    return -1


@njit(cache=True)
def _leftmost_leq_from(tree, P, i, x):
    """Smallest leaf index >= i whose value is <= x, or -1 (min tree)."""
    if i >= P:
        return -1
    node = i + P
    if tree[node] <= x:
        return i
    while node > 1:
        if (node & 1) == 0 and tree[node + 1] <= x:
            node += 1
            while node < P:
                node = 2 * node if tree[2 * node] <= x else 2 * node + 1
            return node - P
        node >>= 1
    return -1


@njit(cache=True)
def _min_set(tree, P, i, v):
    node = i + P
    tree[node] = v
    node >>= 1
    while node >= 1:
        a = tree[2 * node]
        b = tree[2 * node + 1]
        tree[node] = a if a <= b else b
        node >>= 1


@njit(cache=True)
def _leftmost_leq(tree, P, x):
    """Smallest leaf index whose value is <= x, or -1 (min tree)."""
    if tree[1] > x:
        return -1
    node = 1
    while node < P:
        node = 2 * node if tree[2 * node] <= x else 2 * node + 1
    return node - P


# -- the state -------------------------------------------------------------------------

#: Every array of the simulation, passed around as one (numba-typed) named tuple.
State = namedtuple(
    "State",
    [
        # inputs
        "size", "duration", "cap", "eps", "rank", "rank_vals", "jtype", "T",
        "cfg_k", "cfg_main", "cfg_k1", "track_jobs", "stall", "track_sorted",
        # real sizes (``size`` is the packing size) and VQS step (ii) skipping
        "rsize", "hol_skip", "vtree", "PV", "opos",
        # queue
        "state", "rtree", "PR", "rhead", "rtail", "rnext", "jtree", "PN",
        "order", "tstart", "thead", "qcnt", "tlo", "thi", "qacc",
        # servers
        "load", "load_other", "rload", "njobs", "tcount", "cfg", "stalled",
        "srt", "spos", "sres", "mtree", "PL",
        # calendar
        "dhead", "dnext",
        # outputs
        "start", "server", "acc_from", "half", "half_slots", "area",
    ],
)


@njit(cache=True, inline="always")
def _sort_prefix(a, m):
    """Sort a[:m] in place (insertion sort: m is the handful of events of one slot)."""
    for i in range(1, m):
        v = a[i]
        k = i - 1
        while k >= 0 and a[k] > v:
            a[k + 1] = a[k]
            k -= 1
        a[k + 1] = v


@njit(cache=True)
def _packing_sizes(size, rank, rank_vals, floor):
    """Sizes rounded up to ``floor`` (PG21 V-A) and their rank compression.

    max(., floor) is non-decreasing, so the real ranks map monotonically onto the packing
    ranks (equal packing sizes share one rank, hence one FIFO list: ties by arrival).
    """
    R = rank_vals.shape[0]
    remap = np.empty(R, np.int64)
    vals = np.empty(R)
    m = -1
    for r in range(R):
        v = rank_vals[r] if rank_vals[r] > floor else floor
        if m < 0 or v != vals[m]:
            m += 1
            vals[m] = v
        remap[r] = m
    n = size.shape[0]
    psize = np.empty(n)
    prank = np.empty(n, np.int64)
    for j in range(n):
        prank[j] = remap[rank[j]]
        psize[j] = vals[prank[j]]
    return psize, prank, vals[: m + 1].copy()


@njit(cache=True)
def _make_state(arrival, size, duration, cap, T, eps, rank, rank_vals, jtype, ntypes, cfg_k,
                cfg_main, cfg_k1, track_jobs, stall, track_sorted, out_start, out_server, out_half,
                out_area, round_small, hol_skip):
    n = arrival.shape[0]
    L = cap.shape[0]
    rsize = size
    if round_small and L > 0:
        # PG21 V-A: sizes in (0, cap/2^J] count as cap/2^J (identical servers, 2J types)
        size, rank, rank_vals = _packing_sizes(size, rank, rank_vals,
                                               cap[0] / 2.0 ** (ntypes // 2))
    R = rank_vals.shape[0]
    PR = _pow2(max(R, 1))
    PN = _pow2(max(n, 1)) if track_jobs else 1
    order = np.argsort(jtype, kind="mergesort").astype(np.int64)
    tstart = np.zeros(ntypes + 1, np.int64)
    for j in range(n):
        tstart[jtype[j] + 1] += 1
    for k in range(ntypes):
        tstart[k + 1] += tstart[k]
    PV = _pow2(max(n, 1)) if hol_skip else 1
    vtree = np.full(2 * PV, np.inf)
    opos = np.empty(n if hol_skip else 0, np.int64)
    if hol_skip:
        for p in range(n):
            opos[order[p]] = p
    tlo = np.full(ntypes, R, np.int64)
    thi = np.full(ntypes, -1, np.int64)
    for j in range(n):
        k = jtype[j]
        tlo[k] = min(tlo[k], rank[j])
        thi[k] = max(thi[k], rank[j])
    PL = _pow2(L)
    mtree = np.full(2 * PL, -np.inf)
    for l in range(L):
        _max_set(mtree, PL, l, cap[l])
    srt = np.argsort(cap, kind="mergesort").astype(np.int64)  # by (residual, index)
    sres = np.empty(L)
    spos = np.empty(L, np.int64)
    for p in range(L):
        sres[p] = cap[srt[p]]
        spos[srt[p]] = p
    return State(
        size, duration, cap, eps, rank, rank_vals, jtype, T, cfg_k, cfg_main, cfg_k1,
        track_jobs, stall, track_sorted, rsize, hol_skip, vtree, PV, opos,
        np.zeros(n, np.int8), np.zeros(2 * PR, np.int64), PR,
        np.full(max(R, 1), -1, np.int64), np.full(max(R, 1), -1, np.int64),
        np.full(n, -1, np.int64), np.full(2 * PN, np.inf), PN,
        order, tstart, tstart[:-1].copy(), np.zeros(ntypes, np.int64), tlo, thi,
        np.zeros(2),
        np.zeros(L), np.zeros(L), np.zeros(L), np.zeros(L, np.int64),
        np.zeros((L, ntypes), np.int64),
        np.full(L, -1, np.int64), np.zeros(L, np.bool_), srt, spos, sres, mtree, PL,
        np.full(T, -1, np.int64), np.full(n, -1, np.int64),
        out_start, out_server, np.zeros(L, np.int64), cap / 2.0, out_half, out_area,
    )


@njit(cache=True, inline="always")
def _kahan_add(acc, x):
    """Neumaier-compensated acc[0] += x (acc[1] holds the compensation)."""
    s = acc[0]
    t = s + x
    if abs(s) >= abs(x):
        acc[1] += (s - t) + x
    else:
        acc[1] += (x - t) + s
    acc[0] = t


@njit(cache=True, inline="always")
def _server_update(S, l):
    """Re-key server l after its load changed: max tree, and the (residual, index) order
    when a best-fit policy reads it."""
    r = S.cap[l] - S.load[l]
    _max_set(S.mtree, S.PL, l, r)
    if not S.track_sorted:
        return
    srt, sres, spos = S.srt, S.sres, S.spos
    p = spos[l]
    L = srt.shape[0]
    while p > 0 and (r < sres[p - 1] or (r == sres[p - 1] and srt[p - 1] > l)):
        srt[p] = srt[p - 1]
        sres[p] = sres[p - 1]
        spos[srt[p]] = p
        p -= 1
    while p < L - 1 and (r > sres[p + 1] or (r == sres[p + 1] and srt[p + 1] < l)):
        srt[p] = srt[p + 1]
        sres[p] = sres[p + 1]
        spos[srt[p]] = p
        p += 1
    srt[p] = l
    sres[p] = r
    spos[l] = p


@njit(cache=True, inline="always")
def _room(S, l):
    return S.cap[l] - S.load[l] + S.eps


@njit(cache=True, inline="always")
def _best_fit(S, s):
    """Server with the least residual that still fits size s (ties: lowest index)."""
    # first position with residual + eps >= s: the fit test of _room, evaluated the same way
    lo, hi = 0, S.srt.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if S.sres[mid] + S.eps >= s:
            hi = mid
        else:
            lo = mid + 1
    if lo >= S.srt.shape[0]:
        return -1
    return S.srt[lo]


@njit(cache=True, inline="always")
def _first_fit(S, s, i=0):
    """Lowest-index server >= i that fits size s, or -1."""
    return _leftmost_geq(S.mtree, S.PL, i, s, S.eps)


@njit(cache=True, inline="always")
def _account(S, l, s):
    """Credit server l's current load to slots acc_from[l]..s-1 (occupancy metrics)."""
    d = s - S.acc_from[l]
    if d > 0:
        S.area[l] += d * S.rload[l]
        if S.rload[l] >= S.half[l] - S.eps:
            S.half_slots[l] += d
        S.acc_from[l] = s


@njit(cache=True, inline="always")
def _enqueue(S, j):
    S.state[j] = QUEUED
    r = S.rank[j]
    if S.rhead[r] < 0:
        S.rhead[r] = j
    else:
        S.rnext[S.rtail[r]] = j
    S.rtail[r] = j
    _count_add(S.rtree, S.PR, r, 1)
    S.qcnt[S.jtype[j]] += 1
    if S.track_jobs:
        _min_set(S.jtree, S.PN, j, S.size[j])
    if S.hol_skip:
        _min_set(S.vtree, S.PV, S.opos[j], S.size[j])
    _kahan_add(S.qacc, S.rsize[j])


@njit(cache=True, inline="always")
def _place(S, j, l, t):
    """Start job j on server l in slot t (it leaves at the end of t + duration - 1)."""
    s = S.size[j]
    S.state[j] = STARTED
    r = S.rank[j]
    _count_add(S.rtree, S.PR, r, -1)
    if S.rhead[r] == j:
        S.rhead[r] = S.rnext[j]
    S.qcnt[S.jtype[j]] -= 1
    if S.track_jobs:
        _min_set(S.jtree, S.PN, j, np.inf)
    if S.hol_skip:
        _min_set(S.vtree, S.PV, S.opos[j], np.inf)
    _kahan_add(S.qacc, -S.rsize[j])
    _account(S, l, t)
    S.load[l] += s
    S.rload[l] += S.rsize[j]
    if S.jtype[j] != 1:
        S.load_other[l] += s
    S.njobs[l] += 1
    S.tcount[l, S.jtype[j]] += 1
    S.start[j] = t
    S.server[j] = l
    e = t + S.duration[j] - 1
    if e < S.T:
        S.dnext[j] = S.dhead[e]
        S.dhead[e] = j
    _server_update(S, l)


@njit(cache=True, inline="always")
def _depart(S, j, t):
    l = S.server[j]
    _account(S, l, t + 1)
    s = S.size[j]
    S.load[l] -= s
    S.rload[l] -= S.rsize[j]
    if S.jtype[j] != 1:
        S.load_other[l] -= s
    S.njobs[l] -= 1
    S.tcount[l, S.jtype[j]] -= 1
    if S.njobs[l] == 0:
        S.load[l] = 0.0
        S.rload[l] = 0.0
        S.load_other[l] = 0.0
    return l


@njit(cache=True, inline="always")
def _largest_fitting(S, lo, hi, room):
    """Earliest queued job of the largest size <= room with rank in [lo, hi], or -1."""
    top = np.searchsorted(S.rank_vals, room, side="right") - 1
    if top > hi:
        top = hi
    r = _rightmost_nonzero(S.rtree, S.PR, top)
    if r < lo or r < 0:
        return -1
    j = S.rhead[r]
    while S.state[j] != QUEUED:
        j = S.rnext[j]
    S.rhead[r] = j
    return j


@njit(cache=True, inline="always")
def _bfs_fill(S, l, t, lo, hi, limit):
    """BF-S on server l (PG21 IV-A): the largest fitting queued job, repeatedly.

    Only ranks in [lo, hi]; at most ``limit`` placements. Returns the number placed.
    """
    placed = 0
    while placed < limit:
        j = _largest_fitting(S, lo, hi, _room(S, l))
        if j < 0:
            break
        _place(S, j, l, t)
        placed += 1
    return placed


@njit(cache=True)
def _hol(S, typ):
    """Head-of-line job of VQ_typ (earliest queued arrival), or -1 if empty."""
    p = S.thead[typ]
    end = S.tstart[typ + 1]
    while p < end and S.state[S.order[p]] == STARTED:
        p += 1
    S.thead[typ] = p
    if p < end and S.state[S.order[p]] == QUEUED:
        return S.order[p]
    return -1


@njit(cache=True)
def _weight(S, c):
    """<k, Q> of configuration row c (PG21 Def. 2, eq. (5))."""
    w = 0
    for typ in range(S.cfg_k.shape[1]):
        w += S.cfg_k[c, typ] * S.qcnt[typ]
    return w


@njit(cache=True)
def _argmax_config(S):
    """Max-weight configuration, PG21 eq. (20): argmax <k, Q>; first row on ties."""
    best = 0
    bw = -1
    for c in range(S.cfg_k.shape[0]):
        w = _weight(S, c)
        if w > bw:
            bw = w
            best = c
    return best


@njit(cache=True)
def _vqs_server(S, l, t):
    """VQS on server l (PG21 V-B): renew when empty, then steps (i)-(ii).

    Step (ii) stops at the first head-of-line job of VQ_j that does not fit, or with
    ``hol_skip`` passes over it and takes every later VQ_j job that still fits
    (policies/slotted/vqs.py, ``hol``). Sizes are packing sizes (``VQ_ROUND_SMALL``).
    """
    if S.njobs[l] == 0:
        S.cfg[l] = _argmax_config(S)
    k = S.cfg[l]
    placed = 0
    room = S.cap[l]
    if S.cfg_k1[k]:
        # (i) 2/3 of the capacity is reserved for one job of VQ_1
        room = S.cap[l] / 3.0
        if S.tcount[l, 1] == 0:
            j = _hol(S, 1)
            if j >= 0 and S.size[j] <= _room(S, l):
                _place(S, j, l, t)
                placed += 1
    typ = S.cfg_main[k]
    if typ >= 0 and S.hol_skip:
        # (ii) the VQ_j jobs in arrival order from the head, passing over those that do
        # not fit, until none fits: repeatedly the earliest queued one that fits (the
        # room only shrinks, so one pass and repeated searches place the same jobs)
        end = S.tstart[typ + 1]
        while True:
            lim = room - S.load_other[l] + S.eps
            r2 = _room(S, l)
            if r2 < lim:
                lim = r2
            p = _leftmost_leq_from(S.vtree, S.PV, S.thead[typ], lim)
            if p < 0 or p >= end:
                break
            _place(S, S.order[p], l, t)
            placed += 1
    elif typ >= 0:
        # (ii) head-of-line jobs of the other VQ until the next one does not fit
        while True:
            j = _hol(S, typ)
            if j < 0 or S.size[j] > room - S.load_other[l] + S.eps or \
                    S.size[j] > _room(S, l):
                break
            _place(S, j, l, t)
            placed += 1
    return placed


@njit(cache=True)
def _vqsbf_server(S, l, t):
    """VQS-BF on server l (PG21 Sec. VI): renew when empty, then steps (i)-(iii)."""
    if S.njobs[l] == 0:
        S.cfg[l] = _argmax_config(S)
    k = S.cfg[l]
    placed = 0
    if S.cfg_k1[k]:
        # (i) the largest job of VQ_1 that fits; it reserves only its own size
        placed += _bfs_fill(S, l, t, S.tlo[1], S.thi[1], 1)
    typ = S.cfg_main[k]
    if typ >= 0 and S.tcount[l, typ] < S.cfg_k[k, typ]:
        # (ii) the largest fitting jobs of VQ_j until the server holds k_j of them
        placed += _bfs_fill(S, l, t, S.tlo[typ], S.thi[typ], S.cfg_k[k, typ] - S.tcount[l, typ])
    # (iii) BF-S over the whole queue
    placed += _bfs_fill(S, l, t, 0, S.rank_vals.shape[0] - 1, 1 << 62)
    return placed


@njit(cache=True)
def _maxweight_server(S, l, t):
    """Partition MaxWeight on server l: renew when empty, hold k_j jobs of each VQ_j.

    With ``stall >= 0`` (the stalling of PG21 Sec. IX and [13]) a server whose
    configuration weighs less than (1 - stall) of the maximum stops taking jobs until it
    is empty, and then renews.
    """
    if S.njobs[l] == 0:
        S.cfg[l] = _argmax_config(S)
        S.stalled[l] = False
    k = S.cfg[l]
    if S.stall >= 0.0 and not S.stalled[l]:
        if _weight(S, k) < (1.0 - S.stall) * _weight(S, _argmax_config(S)):
            S.stalled[l] = True
    if S.stalled[l]:
        return 0
    placed = 0
    for typ in range(S.cfg_k.shape[1]):
        while S.tcount[l, typ] < S.cfg_k[k, typ]:
            j = _hol(S, typ)
            if j < 0 or S.size[j] > _room(S, l):
                break
            _place(S, j, l, t)
            placed += 1
    return placed


@njit(cache=True)
def _serve(S, code, l, t):
    if code == VQSBF:
        return _vqsbf_server(S, l, t)
    return _bfs_fill(S, l, t, 0, S.rank_vals.shape[0] - 1, 1 << 62)


@njit(cache=True)
def run(code, arrival, size, duration, cap, T, eps, rank, rank_vals, jtype, ntypes, cfg_k,
        cfg_main, cfg_k1, track_jobs, stall, out_start, out_server, out_qlen, out_qres, out_busy,
        out_half, out_area):
    """Simulate slots 0..T-1 under policy ``code``; fill the ``out_*`` arrays.

    ``jtype`` maps jobs to virtual queues 0..ntypes-1 (intervals of sizes);
    ``cfg_k`` (C, ntypes) is the configuration table (K_RED for VQS and VQS-BF,
    maximal configurations for MaxWeight); ``cfg_main``/``cfg_k1`` give, per K_RED row,
    its VQ other than VQ_1 (-1 if none) and whether it holds e_1 (PG21 Def. 6).
    ``out_half``/``out_area`` get, per server, the number of slots at least half full
    and the sum over slots of the load (real sizes), both measured after scheduling.
    VQS and VQS-BF take option bits in ``code`` (``VQ_ROUND_SMALL``, ``VQ_HOL_SKIP``).
    Returns the number of jobs that arrived.
    """
    n = arrival.shape[0]
    L = cap.shape[0]
    round_small = (code & VQ_ROUND_SMALL) != 0
    hol_skip = (code & VQ_HOL_SKIP) != 0
    code = code & POLICY_MASK
    S = _make_state(arrival, size, duration, cap, T, eps, rank, rank_vals, jtype, ntypes,
                    cfg_k, cfg_main, cfg_k1, track_jobs, stall,
                    code == BFJ or code == BFJS, out_start, out_server, out_half, out_area,
                    round_small and (code == VQS or code == VQSBF), hol_skip and code == VQS)
    psize = S.size  # the packing sizes (the real ones unless VQ_ROUND_SMALL)
    depbuf = np.empty(max(n, 1), np.int64)
    dflag = np.zeros(L, np.bool_)
    dlist = np.empty(L, np.int64)
    nd = 0
    busy = np.zeros(2)
    dirty = True
    ghead = 0
    nxt = 0
    for t in range(T):
        # (1) arrivals
        new_lo = nxt
        while nxt < n and arrival[nxt] == t:
            _enqueue(S, nxt)
            nxt += 1
        new_hi = nxt

        # (2) scheduling
        b0 = S.qacc[0] + S.qacc[1]
        placed = 0
        if code == BFJS:
            # step 1: BF-S over the servers with a departure in the previous slot
            for a in range(nd):
                placed += _bfs_fill(S, dlist[a], t, 0, S.rank_vals.shape[0] - 1, 1 << 62)
            # step 2: BF-J over the new arrivals still waiting
            for j in range(new_lo, new_hi):
                if S.state[j] == QUEUED:
                    l = _best_fit(S, psize[j])
                    if l >= 0:
                        _place(S, j, l, t)
                        placed += 1
        elif code == BFJ or code == FIFOFF_SKIP:
            # jobs in arrival order; a job skipped now cannot fit anywhere later this slot
            while True:
                j = _leftmost_leq(S.jtree, S.PN, S.mtree[1] + eps)
                if j < 0:
                    break
                l = _best_fit(S, psize[j]) if code == BFJ else _first_fit(S, psize[j])
                _place(S, j, l, t)
                placed += 1
        elif code == FIFOFF:
            while ghead < n and S.state[ghead] != NOT_ARRIVED:
                if S.state[ghead] == STARTED:
                    ghead += 1
                    continue
                l = _first_fit(S, psize[ghead])
                if l < 0:
                    break  # strict head-of-line blocking
                _place(S, ghead, l, t)
                placed += 1
        elif code == BFS or code == VQSBF:
            # every server in index order; skip those whose outcome is "nothing"
            i = 0
            a = 0
            while True:
                cand = dlist[a] if a < nd else L
                mn = np.inf
                for j in range(new_lo, new_hi):
                    if S.state[j] == QUEUED and psize[j] < mn:
                        mn = psize[j]
                if mn < np.inf:
                    c2 = _first_fit(S, mn, i)
                    if c2 >= 0 and c2 < cand:
                        cand = c2
                if cand >= L:
                    break
                placed += _serve(S, code, cand, t)
                if a < nd and dlist[a] == cand:
                    a += 1
                i = cand + 1
        elif code == VQS or code == MAXWEIGHT:
            # every server every slot, unless nothing changed since the last pass
            if dirty or nd > 0 or new_hi > new_lo:
                for l in range(L):
                    if code == VQS:
                        placed += _vqs_server(S, l, t)
                    else:
                        placed += _maxweight_server(S, l, t)
            dirty = placed > 0

        # (3) record the queue after scheduling
        out_qlen[t] = S.rtree[1]
        out_qres[t] = S.qacc[0] + S.qacc[1]
        _kahan_add(busy, b0 - out_qres[t])
        out_busy[t] = busy[0] + busy[1]

        # (4) departures at the end of slot t, in increasing job id
        m = 0
        j = S.dhead[t]
        while j >= 0:
            depbuf[m] = j
            m += 1
            j = S.dnext[j]
        nd = 0
        if m > 0:
            if m > 32:
                depbuf[:m] = np.sort(depbuf[:m])
            else:
                _sort_prefix(depbuf, m)
            for q in range(m):
                j = depbuf[q]
                l = _depart(S, j, t)
                _kahan_add(busy, -size[j])
                if not dflag[l]:
                    dflag[l] = True
                    dlist[nd] = l
                    nd += 1
            if nd > 32:
                dlist[:nd] = np.sort(dlist[:nd])
            else:
                _sort_prefix(dlist, nd)
            for q in range(nd):
                l = dlist[q]
                dflag[l] = False
                _server_update(S, l)
    for l in range(L):
        _account(S, l, T)
    return nxt
