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

* queued jobs by size (BF-S, BF-J/S, VQS-BF): sorted blocks of (size, job) keys
  (:mod:`policies.slotted._size_queue`) answer "the earliest queued job of the largest
  size <= r" (BF-S, PG21 IV-A) in O(log n) with a footprint that follows the queue;
  a size range [smin, smax] (the sizes of one type) gives the same query inside one
  virtual queue (VQS-BF step ii, PG21 VI);
* queued jobs by arrival: a min-size tree over job ids answers "the first queued job
  that fits somewhere" (BF-J, FIFO-FF with skipping);
* virtual queues: per-type FIFO lists with lazy deletion (head-of-line, PG21 V-B);
  for VQS step (ii) with skipping, a min-size tree over the positions of the per-type
  lists answers "the earliest queued job of VQ_j that fits" in O(log n);
* packing sizes: with ``VQ_ROUND_SMALL`` a job occupies max(size, cap / 2^J) (PG21
  V-A); every fit test, load, residual and size order of the kernel uses this packing
  size, while the queued-resource and busy series and the occupancy metrics use the
  real sizes (without the option the two are the same array);
* servers: for best fit (BF-J, BF-J/S), buckets of equal width over the residual
  holding lists sorted by (residual, index), a 64-ary bit tree over the non-empty
  buckets, and the servers whose residual is the largest capacity (the empty ones)
  by index; for first fit and for "the next server, in index order, that some job can
  still enter", a max-residual tree over indices;
* the record: (slot, queue length, queued resource, busy resource) at slot 0 and at
  every slot where one of them changes, a step series (:mod:`policies.step_series`);
  quiet slots (:func:`_skip_quiet`) are skipped without writing anything.

Policies that the paper runs on every server every slot (BF-S, VQS-BF) are run only
on servers where the outcome can differ from "do nothing": servers with a departure
in the previous slot, and servers some newly arrived job fits. After a server is
processed no queued job fits it, and until its next departure its residual does not
grow, so only new arrivals can enter it: the result is identical to the literal
all-servers loop, in the same server order.

Compilation (issue 13): every policy has its own loop (``run_bfjs``, ``run_vqs``, ...;
:func:`loop_of`) over the shared helpers, so a run compiles, or loads from numba's
cache, only its policy's code; the state of a run is one struct reference (``STATE``,
a numba ``StructRef``) rather than a named tuple of ~60 arrays passed by value, which
made every helper cost about a second to compile and slowed the calls; integer
arguments are int64 values, never Python literals (each literal is one more
specialisation). :func:`run` keeps the single entry point the engine calls.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numba import njit, types
from numba.experimental import structref

from policies.slotted._size_queue import (
    QBLOCK,
    SIZE_QUEUE,
    size_queue_insert,
    size_queue_last_le,
    size_queue_new,
    size_queue_remove,
)
from policies.slotted.codes import (  # noqa: F401 - re-exported
    BFJ,
    BFJS,
    BFS,
    FIFOFF,
    FIFOFF_SKIP,
    MAXWEIGHT,
    POLICY_MASK,
    VQ_HOL_SKIP,
    VQ_ROUND_SMALL,
    VQS,
    VQSBF,
)

NOT_ARRIVED, QUEUED, STARTED = 0, 1, 2

# Integer arguments as int64 values, not Python constants: numba compiles a helper once
# more for every literal argument (``f(S, 0)`` and ``f(S, i)`` are two specialisations).
_ZERO = cast(int, np.int64(0))
_ONE = cast(int, np.int64(1))
_NO_LIMIT = cast(int, np.int64(1 << 62))
_QBLOCK = cast(int, np.int64(QBLOCK))


# -- trees -----------------------------------------------------------------------------


@njit(cache=True)
def _pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


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
def _hibit(x):
    """Index of the highest set bit of a nonzero int64 word (bit 63 is the sign bit)."""
    if x < 0:
        return 63
    n = 0
    for sh in (32, 16, 8, 4, 2, 1):  # binary search over the word's halves
        if x >= (1 << sh):
            x >>= sh
            n += sh
    return n


@njit(cache=True)
def _bit_levels(R):
    """Word offsets of a 64-ary bit tree over R leaves (level 0 first, root word last)."""
    nlev = 1
    w = (R + 63) >> 6
    while w > 1:
        w = (w + 63) >> 6
        nlev += 1
    off = np.empty(nlev + 1, np.int64)
    off[0] = 0
    w = (R + 63) >> 6
    for lev in range(nlev):
        off[lev + 1] = off[lev] + max(w, 1)
        w = (w + 63) >> 6
    return off


@njit(cache=True)
def _bit_set(bits, off, i):
    """Mark leaf i non-empty: set its bit, and its parents' while they were empty."""
    for lev in range(off.shape[0] - 1):
        w = off[lev] + (i >> 6)
        was = bits[w]
        bits[w] = was | (1 << (i & 63))
        if was != 0:
            return
        i >>= 6


@njit(cache=True)
def _bit_clear(bits, off, i):
    """Mark leaf i empty: clear its bit, and its parents' while they become empty."""
    for lev in range(off.shape[0] - 1):
        w = off[lev] + (i >> 6)
        bits[w] &= ~(1 << (i & 63))
        if bits[w] != 0:
            return
        i >>= 6


@njit(cache=True)
def _bit_next(bits, off, lo):
    """Smallest non-empty leaf >= lo, or -1: a 64-ary bit tree keeps the search in a few
    cache lines."""
    i = lo
    nlev = off.shape[0] - 1
    for lev in range(nlev):
        w = i >> 6
        if off[lev] + w >= off[lev + 1]:
            return -1
        word = bits[off[lev] + w] & ~((1 << (i & 63)) - 1)
        if word != 0:
            i = (w << 6) + _hibit(word & -word)
            for dl in range(lev - 1, -1, -1):
                x = bits[off[dl] + i]
                i = (i << 6) + _hibit(x & -x)
            return i
        i = w + 1
    return -1


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


@structref.register
class _StateType(types.StructRef):
    """The numba type of the simulation state: one reference to a struct of every array
    and scalar of a run. (A named tuple of ~60 fields, passed by value to every helper,
    made each helper cost about a second of compilation; a struct reference is one
    pointer.)"""


class _State(structref.StructRefProxy):
    """A run's state as Python sees it (only passed from :func:`_make_state` to a loop)."""


structref.define_boxing(_StateType, _State)

_F1 = types.float64[::1]
_I1 = types.int64[::1]
_B1 = types.boolean[::1]

#: Every array and scalar of the simulation (fixed types: the engine passes fresh
#: C-contiguous writable arrays).
STATE = _StateType([
    # inputs
    ("size", _F1), ("duration", _I1), ("cap", _F1), ("eps", types.float64),
    ("jtype", _I1), ("T", types.int64),
    ("cfg_k", types.int64[:, ::1]), ("cfg_main", _I1), ("cfg_k1", _B1),
    ("track_jobs", types.boolean), ("stall", types.float64), ("track_sorted", types.boolean),
    # real sizes (``size`` is the packing size) and VQS step (ii) skipping
    ("rsize", _F1), ("hol_skip", types.boolean), ("vtree", _F1), ("PV", types.int64),
    ("opos", _I1),
    # queue
    ("state", types.int8[::1]), ("qn", types.int64), ("track_sizes", types.boolean),
    ("sq", SIZE_QUEUE),
    ("jtree", _F1), ("PN", types.int64),
    ("order", _I1), ("tstart", _I1), ("thead", _I1), ("qcnt", _I1), ("tmin", _F1),
    ("tmax", _F1), ("qacc", _F1),
    # servers
    ("load", _F1), ("load_other", _F1), ("rload", _F1), ("njobs", _I1),
    ("tcount", types.int64[:, ::1]), ("cfg", _I1), ("stalled", _B1),
    ("sres", _F1), ("bof", _I1), ("bnext", _I1), ("bprev", _I1), ("bhead", _I1),
    ("bbits", _I1), ("boff", _I1), ("tbits", _I1), ("toff", _I1), ("tn", types.int64),
    ("NB", types.int64), ("binv", types.float64), ("capmax", types.float64),
    ("mtree", _F1), ("PL", types.int64),
    # calendar
    ("dhead", _I1), ("dmask", types.int64), ("dnext", _I1),
    # the slot loop: next arrival, departed servers of the last slot, busy resource
    ("nxt", types.int64), ("depbuf", _I1), ("dflag", _B1), ("dlist", _I1),
    ("nd", types.int64), ("busy", _F1), ("dirty", types.boolean), ("ghead", types.int64),
    # outputs
    ("start", _I1), ("server", _I1), ("acc_from", _I1), ("half", _F1),
    ("half_slots", _I1), ("area", _F1),
    # the record after scheduling, at the slots where it changed (policies.step_series)
    ("rec_at", _I1), ("rec_qlen", _I1), ("rec_qres", _F1), ("rec_busy", _F1),
    ("nrec", types.int64),
])


@njit(cache=True)
def _sort_prefix(a, m):
    """Sort the integers a[:m] in place: insertion sort for the handful of events of
    one slot, heapsort above 32 (integers: any correct sort gives the same order)."""
    if m <= 32:
        for i in range(1, m):
            v = a[i]
            k = i - 1
            while k >= 0 and a[k] > v:
                a[k + 1] = a[k]
                k -= 1
            a[k + 1] = v
        return
    for s in range(m // 2 - 1, -1, -1):
        _sift_down(a, s, m)
    for e in range(m - 1, 0, -1):
        v = a[0]
        a[0] = a[e]
        a[e] = v
        _sift_down(a, _ZERO, e)


@njit(cache=True)
def _sift_down(a, i, m):
    while True:
        c = 2 * i + 1
        if c >= m:
            return
        if c + 1 < m and a[c + 1] > a[c]:
            c += 1
        if a[c] <= a[i]:
            return
        v = a[i]
        a[i] = a[c]
        a[c] = v
        i = c


@njit(cache=True)
def _make_state(arrival, size, duration, cap, T, eps, jtype, ntypes, cfg_k,
                cfg_main, cfg_k1, track_jobs, stall, order, track_sorted, track_sizes,
                out_start, out_server, out_half, out_area, out_at, out_qlen, out_qres,
                out_busy, round_small, hol_skip):
    """The state of a run; ``order`` (jobs by type, stable) is sorted by the caller."""
    n = arrival.shape[0]
    L = cap.shape[0]
    S: Any = structref.new(STATE)  # type: ignore[call-arg]
    S.rsize = size
    if round_small and L > 0:
        # PG21 V-A: sizes in (0, cap/2^J] count as cap/2^J (identical servers, 2J types)
        size = np.maximum(size, cap[0] / 2.0 ** (ntypes // 2))
    PN = _pow2(max(n, 1)) if track_jobs else 1
    tstart = np.zeros(ntypes + 1, np.int64)
    for j in range(n):
        tstart[jtype[j] + 1] += 1
    for k in range(ntypes):
        tstart[k + 1] += tstart[k]
    PV = _pow2(max(n, 1)) if hol_skip else 1
    opos = np.empty(n if hol_skip else 0, np.int64)
    if hol_skip:
        for p in range(n):
            opos[order[p]] = p
    tmin = np.full(ntypes, np.inf)  # packing sizes of each type's jobs
    tmax = np.full(ntypes, -np.inf)
    for j in range(n):
        k = jtype[j]
        tmin[k] = min(tmin[k], size[j])
        tmax[k] = max(tmax[k], size[j])
    PL = _pow2(L)
    mtree = np.full(2 * PL, -np.inf)
    for l in range(L):
        _max_set(mtree, PL, l, cap[l])
    thead = np.empty(ntypes, np.int64)
    for k in range(ntypes):
        thead[k] = tstart[k]
    S.size = size
    S.duration = duration
    S.cap = cap
    S.eps = eps
    S.jtype = jtype
    S.T = T
    S.cfg_k = cfg_k
    S.cfg_main = cfg_main
    S.cfg_k1 = cfg_k1
    S.track_jobs = track_jobs
    S.stall = stall
    S.track_sorted = track_sorted
    S.hol_skip = hol_skip
    S.vtree = np.full(2 * PV, np.inf)
    S.PV = PV
    S.opos = opos
    S.state = np.zeros(n, np.int8)
    S.qn = 0
    S.track_sizes = track_sizes
    S.sq = size_queue_new(_QBLOCK)
    S.jtree = np.full(2 * PN, np.inf)
    S.PN = PN
    S.order = order
    S.tstart = tstart
    S.thead = thead
    S.qcnt = np.zeros(ntypes, np.int64)
    S.tmin = tmin
    S.tmax = tmax
    S.qacc = np.zeros(2)
    S.load = np.zeros(L)
    S.load_other = np.zeros(L)
    S.rload = np.zeros(L)
    S.njobs = np.zeros(L, np.int64)
    S.tcount = np.zeros((L, ntypes), np.int64)
    S.cfg = np.full(L, -1, np.int64)
    S.stalled = np.zeros(L, np.bool_)
    # best-fit order (BF-J, BF-J/S): servers bucketed by residual, see _order_insert
    Lt = L if track_sorted else 0
    NB = 64
    while NB < 8 * Lt and NB < (1 << 22):
        NB *= 2
    if not track_sorted:
        NB = 1
    S.NB = NB
    # loops, not cap.max() / duration.max(): numpy's reductions cost 2 s to compile
    capmax = 1.0 if L == 0 else -np.inf
    for l in range(L):
        capmax = max(capmax, cap[l])
    S.capmax = capmax
    S.binv = NB / S.capmax
    S.sres = cap.copy()
    S.bof = np.full(Lt, -1, np.int64)
    S.bnext = np.full(Lt, -1, np.int64)
    S.bprev = np.full(Lt, -1, np.int64)
    S.bhead = np.full(NB + 2, -1, np.int64)
    S.boff = _bit_levels(NB + 2)
    S.bbits = np.zeros(S.boff[-1], np.int64)
    S.toff = _bit_levels(max(Lt, 1))
    S.tbits = np.zeros(S.toff[-1], np.int64)
    S.tn = 0
    for l in range(Lt):
        _order_insert(S, l)
    S.mtree = mtree
    S.PL = PL
    # departure calendar: a ring over slots mod W > the longest service, so that every
    # pending end slot (t .. t + max duration - 1) has its own entry (not one per slot)
    longest = 1
    for j in range(n):
        longest = max(longest, duration[j])
    W = 1
    while W <= min(longest, T):
        W *= 2
    S.dhead = np.full(W, -1, np.int64)
    S.dmask = W - 1
    S.dnext = np.full(n, -1, np.int64)
    S.nxt = 0
    S.depbuf = np.empty(max(n, 1), np.int64)
    S.dflag = np.zeros(L, np.bool_)
    S.dlist = np.empty(L, np.int64)
    S.nd = 0
    S.busy = np.zeros(2)
    S.dirty = True
    S.ghead = 0
    S.start = out_start
    S.server = out_server
    S.acc_from = np.zeros(L, np.int64)
    S.half = cap / 2.0
    S.half_slots = out_half
    S.area = out_area
    S.rec_at = out_at
    S.rec_qlen = out_qlen
    S.rec_qres = out_qres
    S.rec_busy = out_busy
    S.nrec = 0
    if T > 0 and out_at.shape[0] > 0:  # slot 0 before anything happened; see _record
        out_at[0] = 0
        out_qlen[0] = 0
        out_qres[0] = 0.0
        out_busy[0] = 0.0
        S.nrec = 1
    return S


@njit(cache=True)
def _kahan_add(acc, x):
    """Neumaier-compensated acc[0] += x (acc[1] holds the compensation)."""
    s = acc[0]
    t = s + x
    if abs(s) >= abs(x):
        acc[1] += (s - t) + x
    else:
        acc[1] += (x - t) + s
    acc[0] = t


@njit(cache=True)
def _bucket(S, r):
    """Bucket of residual r: monotone in r; NB is r == capmax (the empty servers of the
    largest capacity, ordered by index alone), NB + 1 holds r > capmax."""
    if r >= S.capmax:
        return S.NB if r == S.capmax else S.NB + 1
    b = int(r * S.binv) if r > 0 else 0
    return b if b < S.NB else S.NB - 1


@njit(cache=True)
def _order_insert(S, l):
    """Insert server l, residual ``S.sres[l]``, into the best-fit order: bucket lists
    sorted by (residual, index), a bit tree over the non-empty buckets, and a bit tree
    over the indices of the servers in bucket NB."""
    r = S.sres[l]
    b = _bucket(S, r)
    S.bof[l] = b
    if b == S.NB:
        _bit_set(S.tbits, S.toff, l)
        S.tn += 1
    else:
        sres, bnext = S.sres, S.bnext
        prev = -1
        p = S.bhead[b]
        while p >= 0 and (sres[p] < r or (sres[p] == r and p < l)):
            prev = p
            p = bnext[p]
        bnext[l] = p
        S.bprev[l] = prev
        if p >= 0:
            S.bprev[p] = l
        if prev >= 0:
            bnext[prev] = l
        else:
            S.bhead[b] = l
    _bit_set(S.bbits, S.boff, b)


@njit(cache=True)
def _order_remove(S, l):
    b = S.bof[l]
    if b == S.NB:
        _bit_clear(S.tbits, S.toff, l)
        S.tn -= 1
        if S.tn == 0:
            _bit_clear(S.bbits, S.boff, b)
        return
    p, n = S.bprev[l], S.bnext[l]
    if n >= 0:
        S.bprev[n] = p
    if p >= 0:
        S.bnext[p] = n
    else:
        S.bhead[b] = n
        if n < 0:
            _bit_clear(S.bbits, S.boff, b)


@njit(cache=True)
def _server_update(S, l):
    """Re-key server l after its load changed: max tree, and the (residual, index) order
    when a best-fit policy reads it."""
    r = S.cap[l] - S.load[l]
    _max_set(S.mtree, S.PL, l, r)
    if not S.track_sorted or r == S.sres[l]:
        return
    _order_remove(S, l)
    S.sres[l] = r
    _order_insert(S, l)


@njit(cache=True)
def _room(S, l):
    return S.cap[l] - S.load[l] + S.eps


@njit(cache=True)
def _best_fit(S, s):
    """Server with the least residual that still fits size s (ties: lowest index), or -1.

    The fit test is that of _room, ``residual + eps >= s``; the search starts one bucket
    below that of s - eps, so rounding in that subtraction cannot skip a fitting server.
    """
    b = _bucket(S, s - S.eps) - 1
    if b < 0:
        b = 0
    while True:
        b = _bit_next(S.bbits, S.boff, b)
        if b < 0:
            return -1
        if b == S.NB:
            if S.capmax + S.eps >= s:
                return _bit_next(S.tbits, S.toff, _ZERO)
        else:
            p = S.bhead[b]
            while p >= 0:
                if S.sres[p] + S.eps >= s:
                    return p
                p = S.bnext[p]
        b += 1


@njit(cache=True)
def _first_fit(S, s, i):
    """Lowest-index server >= i that fits size s, or -1."""
    return _leftmost_geq(S.mtree, S.PL, i, s, S.eps)


@njit(cache=True)
def _account(S, l, s):
    """Credit server l's current load to slots acc_from[l]..s-1 (occupancy metrics)."""
    d = s - S.acc_from[l]
    if d > 0:
        S.area[l] += d * S.rload[l]
        if S.rload[l] >= S.half[l] - S.eps:
            S.half_slots[l] += d
        S.acc_from[l] = s


@njit(cache=True)
def _enqueue(S, j):
    S.state[j] = QUEUED
    S.qn += 1
    if S.track_sizes:
        size_queue_insert(S.sq, S.size[j], j)
    S.qcnt[S.jtype[j]] += 1
    if S.track_jobs:
        _min_set(S.jtree, S.PN, j, S.size[j])
    if S.hol_skip:
        _min_set(S.vtree, S.PV, S.opos[j], S.size[j])
    _kahan_add(S.qacc, S.rsize[j])


@njit(cache=True)
def _place(S, j, l, t):
    """Start job j on server l in slot t (it leaves at the end of t + duration - 1)."""
    s = S.size[j]
    S.state[j] = STARTED
    S.qn -= 1
    if S.track_sizes:
        size_queue_remove(S.sq, s, j)
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
        S.dnext[j] = S.dhead[e & S.dmask]
        S.dhead[e & S.dmask] = j
    _server_update(S, l)


@njit(cache=True)
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


@njit(cache=True)
def _largest_fitting(S, smin, smax, room):
    """Earliest queued job of the largest size <= room with size in [smin, smax], or -1."""
    if S.qn == 0:
        return -1
    j = size_queue_last_le(S.sq, room if room < smax else smax)
    if j < 0 or S.size[j] < smin:
        return -1
    return j


@njit(cache=True)
def _bfs_fill(S, l, t, smin, smax, limit):
    """BF-S on server l (PG21 IV-A): the largest fitting queued job, repeatedly.

    Only sizes in [smin, smax]; at most ``limit`` placements. Returns the number placed.
    """
    placed = 0
    while placed < limit:
        j = _largest_fitting(S, smin, smax, _room(S, l))
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
            j = _hol(S, _ONE)
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
        placed += _bfs_fill(S, l, t, S.tmin[1], S.tmax[1], _ONE)
    typ = S.cfg_main[k]
    if typ >= 0 and S.tcount[l, typ] < S.cfg_k[k, typ]:
        # (ii) the largest fitting jobs of VQ_j until the server holds k_j of them
        placed += _bfs_fill(S, l, t, S.tmin[typ], S.tmax[typ], S.cfg_k[k, typ] - S.tcount[l, typ])
    # (iii) BF-S over the whole queue
    placed += _bfs_fill(S, l, t, -np.inf, np.inf, _NO_LIMIT)
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
def _arrive(S, arrival, t):
    """(1) The jobs that arrive in slot t join the queue; returns the first of them."""
    lo = S.nxt
    n = arrival.shape[0]
    while S.nxt < n and arrival[S.nxt] == t:
        _enqueue(S, S.nxt)
        S.nxt += 1
    return lo


@njit(cache=True)
def _queued_resource(S):
    return S.qacc[0] + S.qacc[1]


@njit(cache=True)
def _record(S, t):
    """(3) Record the queue, queued resource and busy resource after scheduling in slot
    t, unless all three equal the last record. Past the capacity of the record arrays
    only the count grows (the engine reports it)."""
    q = S.qn
    qres = S.qacc[0] + S.qacc[1]
    busy = S.busy[0] + S.busy[1]
    k = S.nrec
    m = S.rec_at.shape[0]
    if k > 0 and k <= m and S.rec_at[k - 1] == t:  # replaces the initial record of slot 0
        k -= 1
    if k > 0 and k <= m:
        if S.rec_qlen[k - 1] == q and S.rec_qres[k - 1] == qres and S.rec_busy[k - 1] == busy:
            S.nrec = k
            return
    if k < m:
        S.rec_at[k] = t
        S.rec_qlen[k] = q
        S.rec_qres[k] = qres
        S.rec_busy[k] = busy
    S.nrec = k + 1


@njit(cache=True)
def _end_slot(S, t, b0):
    """(3) Record the queue after scheduling; (4) departures at the end of slot t, in
    increasing job id; the servers with a departure go to ``S.dlist[:S.nd]``."""
    _kahan_add(S.busy, b0 - (S.qacc[0] + S.qacc[1]))
    _record(S, t)
    depbuf, dflag, dlist = S.depbuf, S.dflag, S.dlist
    m = _ZERO
    j = S.dhead[t & S.dmask]
    S.dhead[t & S.dmask] = -1
    while j >= 0:
        depbuf[m] = j
        m += 1
        j = S.dnext[j]
    nd = _ZERO
    if m > 0:
        _sort_prefix(depbuf, m)
        for q in range(m):
            j = depbuf[q]
            l = _depart(S, j, t)
            _kahan_add(S.busy, -S.rsize[j])
            if not dflag[l]:
                dflag[l] = True
                dlist[nd] = l
                nd += 1
        _sort_prefix(dlist, nd)
        for q in range(nd):
            l = dlist[q]
            dflag[l] = False
            _server_update(S, l)
    S.nd = nd


@njit(cache=True)
def _finish(S):
    for l in range(S.cap.shape[0]):
        _account(S, l, S.T)
    return S.nrec


@njit(cache=True)
def _bfjs_step(S, t, new_lo, new_hi):
    """BF-J/S: BF-S over the servers with a departure in the previous slot, then BF-J
    over the new arrivals still waiting."""
    placed = 0
    for a in range(S.nd):
        placed += _bfs_fill(S, S.dlist[a], t, -np.inf, np.inf, _NO_LIMIT)
    for j in range(new_lo, new_hi):
        if S.state[j] == QUEUED:
            l = _best_fit(S, S.size[j])
            if l >= 0:
                _place(S, j, l, t)
                placed += 1
    return placed


@njit(cache=True)
def _in_order_step(S, t, first_fit):
    """BF-J (best fit) or FIFO-FF with skipping (first fit): jobs in arrival order; a
    job skipped now cannot fit anywhere later this slot."""
    placed = 0
    while True:
        j = _leftmost_leq(S.jtree, S.PN, S.mtree[1] + S.eps)
        if j < 0:
            break
        l = _first_fit(S, S.size[j], _ZERO) if first_fit else _best_fit(S, S.size[j])
        _place(S, j, l, t)
        placed += 1
    return placed


@njit(cache=True)
def _fifoff_step(S, t):
    """FIFO-FF: the head of the queue to the first server it fits; strict head-of-line
    blocking."""
    placed = 0
    n = S.state.shape[0]
    while S.ghead < n and S.state[S.ghead] != NOT_ARRIVED:
        if S.state[S.ghead] == STARTED:
            S.ghead += 1
            continue
        l = _first_fit(S, S.size[S.ghead], _ZERO)
        if l < 0:
            break
        _place(S, S.ghead, l, t)
        placed += 1
    return placed


@njit(cache=True)
def _server_pass(S, t, new_lo, new_hi, vqsbf):
    """BF-S or VQS-BF: every server in index order, skipping those whose outcome is
    "nothing" (no departure in the last slot and no new arrival fits)."""
    L = S.cap.shape[0]
    placed = 0
    i = _ZERO
    a = 0
    # a smallest new arrival still queued, size mn: the minimum moves only when that job
    # is placed (jmin -1: to find; -2: none is left, and none comes back this slot)
    jmin = -1
    mn = np.inf
    while True:
        cand = S.dlist[a] if a < S.nd else L
        if jmin == -1 or (jmin >= 0 and S.state[jmin] != QUEUED):
            jmin = -2
            mn = np.inf
            for j in range(new_lo, new_hi):
                if S.state[j] == QUEUED and S.size[j] < mn:
                    mn = S.size[j]
                    jmin = j
        if mn < np.inf:
            c2 = _first_fit(S, mn, i)
            if c2 >= 0 and c2 < cand:
                cand = c2
        if cand >= L:
            break
        if vqsbf:
            placed += _vqsbf_server(S, cand, t)
        else:
            placed += _bfs_fill(S, cand, t, -np.inf, np.inf, _NO_LIMIT)
        if a < S.nd and S.dlist[a] == cand:
            a += 1
        i = cand + 1
    return placed


@njit(cache=True)
def _vqs_step(S, t, new_lo, new_hi):
    """VQS: every server every slot, unless nothing changed since the last pass."""
    placed = 0
    if S.dirty or S.nd > 0 or new_hi > new_lo:
        for l in range(S.cap.shape[0]):
            placed += _vqs_server(S, l, t)
    S.dirty = placed > 0
    return placed


@njit(cache=True)
def _maxweight_step(S, t, new_lo, new_hi):
    """Partition MaxWeight: every server every slot, unless nothing changed."""
    placed = 0
    if S.dirty or S.nd > 0 or new_hi > new_lo:
        for l in range(S.cap.shape[0]):
            placed += _maxweight_server(S, l, t)
    S.dirty = placed > 0
    return placed


# -- one compiled loop per policy ------------------------------------------------------
#
# Each policy has its own entry point, so a run compiles (or loads from numba's cache)
# only the code of its policy. All share the state, the helpers and the slot: (1)
# arrivals, (2) the policy's step, (3) the record, (4) departures.


@njit(cache=True)
def _skip_quiet(S, arrival, t):
    """The first slot >= t to simulate: quiet slots are skipped.

    A slot is quiet when no job arrives in it, none left at the end of the previous slot
    and (VQS, MaxWeight: the caller's test) the last pass placed nothing. Every policy
    then does nothing: each ends a slot with no queued job it could place, and only an
    arrival or a departure changes that (PG21 IV-A, before BF-J/S: "no further job from
    the queue can be added in any of the servers"), so the record of the slot before holds (the
    record is a step series). At 5 servers and mu = 0.01, a million jobs span 22
    million slots, nearly all quiet.
    """
    if S.nd > 0:
        return t
    stop = S.T
    if S.nxt < arrival.shape[0] and arrival[S.nxt] < stop:
        stop = arrival[S.nxt]
    u = t
    while u < stop and S.dhead[u & S.dmask] < 0:
        u += 1
    return u


@njit(cache=True)
def run_bfjs(S, arrival):
    t = _skip_quiet(S, arrival, _ZERO)
    while t < S.T:
        lo = _arrive(S, arrival, t)
        b0 = _queued_resource(S)
        _bfjs_step(S, t, lo, S.nxt)
        _end_slot(S, t, b0)
        t = _skip_quiet(S, arrival, t + 1)
    return _finish(S)


@njit(cache=True)
def run_in_order(S, arrival, first_fit):
    t = _skip_quiet(S, arrival, _ZERO)
    while t < S.T:
        _arrive(S, arrival, t)
        b0 = _queued_resource(S)
        _in_order_step(S, t, first_fit)
        _end_slot(S, t, b0)
        t = _skip_quiet(S, arrival, t + 1)
    return _finish(S)


@njit(cache=True)
def run_fifoff(S, arrival):
    t = _skip_quiet(S, arrival, _ZERO)
    while t < S.T:
        _arrive(S, arrival, t)
        b0 = _queued_resource(S)
        _fifoff_step(S, t)
        _end_slot(S, t, b0)
        t = _skip_quiet(S, arrival, t + 1)
    return _finish(S)


@njit(cache=True)
def run_servers(S, arrival, vqsbf):
    t = _skip_quiet(S, arrival, _ZERO)
    while t < S.T:
        lo = _arrive(S, arrival, t)
        b0 = _queued_resource(S)
        _server_pass(S, t, lo, S.nxt, vqsbf)
        _end_slot(S, t, b0)
        t = _skip_quiet(S, arrival, t + 1)
    return _finish(S)


@njit(cache=True)
def run_vqs(S, arrival):
    t = _ZERO
    while t < S.T:
        lo = _arrive(S, arrival, t)
        b0 = _queued_resource(S)
        _vqs_step(S, t, lo, S.nxt)
        _end_slot(S, t, b0)
        t += 1
        if not S.dirty:
            t = _skip_quiet(S, arrival, t)
    return _finish(S)


@njit(cache=True)
def run_maxweight(S, arrival):
    t = _ZERO
    while t < S.T:
        lo = _arrive(S, arrival, t)
        b0 = _queued_resource(S)
        _maxweight_step(S, t, lo, S.nxt)
        _end_slot(S, t, b0)
        t += 1
        if not S.dirty:
            t = _skip_quiet(S, arrival, t)
    return _finish(S)


def _c(a, dtype):
    """``a`` as a C-contiguous writable array of ``dtype`` (a copy only when needed): the
    state's fields have fixed types, so every run uses one compiled specialisation."""
    if a.dtype == dtype and a.flags.c_contiguous and a.flags.writeable and a.flags.aligned:
        return a
    return np.array(a, dtype=dtype, order="C")


def run(code, arrival, size, duration, cap, T, eps, jtype, ntypes, cfg_k, cfg_main, cfg_k1,
        track_jobs, stall, out_start, out_server, out_at, out_qlen, out_qres, out_busy,
        out_half, out_area):
    """Simulate slots 0..T-1 under policy ``code``; fill the ``out_*`` arrays.

    ``jtype`` maps jobs to virtual queues 0..ntypes-1 (intervals of sizes);
    ``cfg_k`` (C, ntypes) is the configuration table (K_RED for VQS and VQS-BF,
    maximal configurations for MaxWeight); ``cfg_main``/``cfg_k1`` give, per K_RED row,
    its VQ other than VQ_1 (-1 if none) and whether it holds e_1 (PG21 Def. 6).
    ``out_half``/``out_area`` get, per server, the number of slots at least half full
    and the sum over slots of the load (real sizes), both measured after scheduling.
    ``out_at``, ``out_qlen``, ``out_qres``, ``out_busy`` get the record after scheduling
    (queue length, queued resource, busy resource) at slot 0 and at every later slot
    where it differs from the record before: a step series
    (:class:`policies.step_series.StepSeries`). At most one record per simulated slot:
    min(T, 4 n + 2) entries always suffice (arrival slots, departure slots, the slots
    after them, and for VQS and MaxWeight the slots after a placement, plus slot 0).
    VQS and VQS-BF take option bits in ``code`` (``VQ_ROUND_SMALL``, ``VQ_HOL_SKIP``).
    The ``out_*`` arrays must be C-contiguous and writable (they are filled in place).
    Returns the number of records; a number above ``out_at.shape[0]`` means the record
    arrays were too short (only the first ``out_at.shape[0]`` were written).
    """
    S, loop, extra = _prepare(code, arrival, size, duration, cap, T, eps, jtype, ntypes, cfg_k,
                              cfg_main, cfg_k1, track_jobs, stall, out_start, out_server,
                              out_half, out_area, out_at, out_qlen, out_qres, out_busy)
    return int(loop(S, _c(arrival, np.int64), *extra))


def loop_of(code):
    """The compiled loop of policy ``code`` and its extra arguments."""
    policy = code & POLICY_MASK
    if policy == BFJS:
        return run_bfjs, ()
    if policy == BFJ or policy == FIFOFF_SKIP:
        return run_in_order, (policy == FIFOFF_SKIP,)
    if policy == FIFOFF:
        return run_fifoff, ()
    if policy == BFS or policy == VQSBF:
        return run_servers, (policy == VQSBF,)
    if policy == VQS:
        return run_vqs, ()
    if policy == MAXWEIGHT:
        return run_maxweight, ()
    raise ValueError(f"unknown policy code {code}")


def _prepare(code, arrival, size, duration, cap, T, eps, jtype, ntypes, cfg_k, cfg_main,
             cfg_k1, track_jobs, stall, out_start, out_server, out_half, out_area, out_at,
             out_qlen, out_qres, out_busy):
    policy = code & POLICY_MASK
    loop, extra = loop_of(code)
    jtype = _c(jtype, np.int64)
    cap = _c(cap, np.float64)
    # stable sorts, as numba's mergesort did in the kernel (a stable order is unique)
    order = np.argsort(jtype, kind="stable").astype(np.int64)
    S = _make_state(
        _c(arrival, np.int64), _c(size, np.float64), _c(duration, np.int64), cap, int(T),
        float(eps), jtype, int(ntypes),
        _c(cfg_k, np.int64), _c(cfg_main, np.int64), _c(cfg_k1, np.bool_), bool(track_jobs),
        float(stall), order, policy == BFJ or policy == BFJS,
        policy == BFS or policy == BFJS or policy == VQSBF, out_start, out_server,
        out_half, out_area, out_at, out_qlen, out_qres, out_busy,
        bool(code & VQ_ROUND_SMALL) and policy in (VQS, VQSBF),
        bool(code & VQ_HOL_SKIP) and policy == VQS)
    return S, loop, extra


#: argument types of :func:`_make_state` (what the engine passes; see ``_prepare``)
_MAKE_STATE_SIG = (_I1, _F1, _I1, _F1, types.int64, types.float64, _I1, types.int64,
                   types.int64[:, ::1], _I1, _B1, types.boolean, types.float64, _I1,
                   types.boolean, types.boolean, _I1, _I1, _I1, _F1, _I1, _I1, _F1, _F1,
                   types.boolean, types.boolean)


def compile_policy(code):
    """Compile (or load from numba's cache) what a run of policy ``code`` needs, so that
    a run can be timed without it; only this policy's loop is compiled."""
    loop, extra = loop_of(code)
    _make_state.compile(_MAKE_STATE_SIG)
    loop.compile((STATE, _I1) + (types.boolean,) * len(extra))
