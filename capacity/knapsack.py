"""Exact max-weight configurations: the unbounded (vector) knapsack.

``max_k <y, k>`` over the feasible configurations ``K`` of a server is the pricing
problem of the configuration LP (PG21 eq. (4), PG18 eqs. (2)-(3)), the MaxWeight
step of PG21 Def. 2 / eq. (20) over all of ``K``, and the test of a dual certificate
("no feasible configuration prices above 1").

Method: depth-first branch and bound over types sorted by efficiency (Martello & Toth,
*Knapsack Problems*, 1990, ch. 3.6 for the unbounded case), with the Dantzig bound in
every resource and in the surrogate (capacity-normalised sum) resource. The kernel is
compiled with numba; it runs on float data (feasibility within
:data:`theory.numbers.FEASIBILITY_RTOL`) or on integer data (exact: the certificate
check of rational inputs). For one resource with integer sizes an exact dynamic
program is the fallback when branch and bound exceeds its node budget.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import cast

import numpy as np

from capacity._jit import njit  # numba is imported on the first kernel call
from capacity.configuration_rows import ConfigurationRows
from capacity.deadline import expired
from theory.numbers import FEASIBILITY_RTOL, positive_int

__all__ = ["KnapsackResult", "max_weight_configuration", "knapsack_bb", "knapsack_dp",
           "knapsack_dp2", "knapsack_dp_bounded", "knapsack_dp_cells", "knapsack_dp_table",
           "knapsack_exact", "UNBOUNDED",
           "DP_MAX_CAPACITY", "DP01_TABLE_BYTES", "split_item_count"]


@dataclass(frozen=True)
class KnapsackResult:
    """Best configuration found and whether the search proved it optimal.

    What :func:`knapsack_bb`, :func:`knapsack_dp` and :func:`max_weight_configuration`
    return (frozen).

    Parameters
    ----------
    value : float or int
        ``<values, config>``: a float for float values, an int for integer data
        (exact). With a ``threshold`` and nothing above it, the threshold itself.
    config : numpy.ndarray
        The best configuration, int64, jobs per type (all zero when nothing beats the
        threshold).
    proven : bool
        The search finished, so ``value`` is the maximum; False when the node budget
        ran out first.
    nodes : int
        Branch-and-bound nodes visited (for :func:`knapsack_dp`, the capacity C).
    improving : sequence of numpy.ndarray
        Configurations found above the threshold (dense rows; :func:`knapsack_dp` may
        return a ``ConfigurationRows``, a sequence of them): the columns that column
        generation adds.

    References
    ----------
    PG21, Sec. III-A, Def. 1 (feasible configurations) and Def. 2, eq. (5) (their
    weight); Martello and Toth, *Knapsack Problems*, 1990, ch. 3.6.

    Examples
    --------
    >>> from capacity import max_weight_configuration
    >>> res = max_weight_configuration([3.0, 2.0], [0.4, 0.3], 1.0)
    >>> res.value, res.config.tolist(), res.proven
    (7.0, [1, 2], True)
    """

    value: float
    config: np.ndarray  # int64, one entry per type
    proven: bool  # False when the node budget ran out before the search finished
    nodes: int
    #: configurations above the threshold (dense rows; :func:`knapsack_dp` may return a
    #: :class:`ConfigurationRows`, a sequence of them)
    improving: Sequence[np.ndarray]


@njit(cache=True)
def _bb_kernel(v, W, cap, most, ratio, best0, delta, node_limit, max_keep):  # pragma: no cover
    """Branch and bound; items pre-sorted; ``ratio[i, d]`` = max_{i' >= i} v/W[:, d];
    at most ``most[i]`` copies of item i (the Dantzig bound ignores ``most``: still valid).

    Returns (best value, best config, nodes, finished flag, kept configs, n kept).
    A leaf is accepted when its value exceeds ``best``; a node is pruned when its
    bound is ``<= best + delta``. Works for float or integer ``v``/``W``/``cap``.
    """
    T, D = W.shape
    Dp = ratio.shape[1]
    k = np.zeros(T, dtype=np.int64)
    bestk = np.zeros(T, dtype=np.int64)
    keep = np.zeros((max_keep, T), dtype=np.int64)
    nkeep = 0
    r = cap.copy()
    val = v[0] * 0
    best = best0
    nodes = 0
    i = 0
    finished = True
    found = False
    while True:
        # go forward, filling items greedily, until a prune or a leaf
        pruned = False
        while i < T:
            nodes += 1
            # bound: min over resources (and the surrogate) of r_d * best ratio
            ub = np.inf
            rs = 0.0
            for d in range(D):
                if ratio[i, d] < np.inf:
                    b = r[d] * ratio[i, d]
                    if b < ub:
                        ub = b
                rs += r[d] / cap[d]
            if Dp > D:
                b = rs * ratio[i, D]
                if b < ub:
                    ub = b
            if val + ub <= best + delta:
                pruned = True
                break
            kmax = -1
            for d in range(D):
                if W[i, d] > 0:
                    q = r[d] // W[i, d]
                    if kmax < 0 or q < kmax:
                        kmax = q
            if kmax < 0:
                kmax = 0
            if kmax > most[i]:
                kmax = most[i]
            kk = np.int64(kmax)
            k[i] = kk
            if kk > 0:
                val += kk * v[i]
                for d in range(D):
                    r[d] -= kk * W[i, d]
            i += 1
        if not pruned and val > best:
            best = val
            found = True
            for t in range(T):
                bestk[t] = k[t]
            if nkeep < max_keep:
                for t in range(T):
                    keep[nkeep, t] = k[t]
                nkeep += 1
            else:
                # keep the newest (best) ones: shift
                for s in range(max_keep - 1):
                    for t in range(T):
                        keep[s, t] = keep[s + 1, t]
                for t in range(T):
                    keep[max_keep - 1, t] = k[t]
        # backtrack: last item before i with a positive count
        j = i - 1
        if j > T - 1:
            j = T - 1
        if j == T - 1 and k[j] > 0:
            # fewer copies of the last item leave capacity nothing after it can use:
            # every such leaf is worse (values are positive), so drop them all at once
            val -= k[j] * v[j]
            for d in range(D):
                r[d] += k[j] * W[j, d]
            k[j] = 0
        while j >= 0 and k[j] == 0:
            j -= 1
        if j < 0:
            break
        k[j] -= 1
        val -= v[j]
        for d in range(D):
            r[d] += W[j, d]
        i = j + 1
        nodes += 1
        if nodes > node_limit:
            finished = False
            break
    return best, bestk, nodes, finished, found, keep, nkeep


def _prepare(values: np.ndarray, W: np.ndarray, cap: np.ndarray):
    """Drop worthless types, sort by efficiency, precompute suffix-max ratios."""
    T, D = W.shape
    pos = np.flatnonzero(values > 0)
    if pos.size == 0:
        return pos, None, None, None
    v = values[pos]
    Wp = W[pos]
    Wf = Wp.astype(float)
    capf = cap.astype(float)
    share = (Wf / capf).max(axis=1)
    order = np.argsort(-(v.astype(float) / share), kind="stable")
    idx = pos[order]
    v = v[order]
    Wp = Wp[order]
    Wf = Wf[order]
    with np.errstate(divide="ignore"):
        rat = np.where(Wf > 0, v.astype(float)[:, None] / np.where(Wf > 0, Wf, 1.0), np.inf)
        sur = v.astype(float) / (Wf / capf).sum(axis=1)
    full = np.concatenate([rat, sur[:, None]], axis=1) if D > 1 else rat
    suffix = np.maximum.accumulate(full[::-1], axis=0)[::-1]
    return idx, np.ascontiguousarray(v), np.ascontiguousarray(Wp), np.ascontiguousarray(suffix)


def _checked(values: object, sizes: object, capacity: object
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Numeric arrays (values, sizes as (T, D), capacity as (D,)), finite, sizes >= 0,
    capacity > 0, consistent shapes; anything else a ValueError."""
    arrays = []
    for name, x in (("values", values), ("sizes", sizes), ("capacity", capacity)):
        try:
            a = np.asarray(x)
        except (ValueError, TypeError) as e:
            raise ValueError(f"knapsack {name} must be a numeric array: {e}") from None
        if a.dtype.kind not in "iuf" or a.size == 0:
            raise ValueError(f"knapsack {name} must be a non-empty array of numbers, "
                             f"got dtype {a.dtype} with {a.size} entries")
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise ValueError(f"knapsack {name} must be finite")
        arrays.append(a)
    v, W, cap = arrays
    if W.ndim == 1:
        W = W[:, None]
    cap = np.atleast_1d(cap)
    if v.ndim != 1 or W.ndim != 2 or cap.ndim != 1 or W.shape != (v.shape[0], cap.shape[0]):
        raise ValueError(f"knapsack values {v.shape}, sizes {W.shape} and capacity "
                         f"{cap.shape} have inconsistent shapes")
    if np.any(W < 0) or np.any(cap <= 0):
        raise ValueError("knapsack sizes must be >= 0 and capacities > 0")
    return v, W, cap


#: Dynamic programs of at most this many cells (items x capacity) run their kernels'
#: Python code (``py_func``): faster than importing numba and loading the kernels.
SMALL_DP_CELLS = 20_000

#: Largest integer capacity the one-resource dynamic programs accept.
DP_MAX_CAPACITY = 50_000_000

#: Stands for "no bound" on the copies of a type.
UNBOUNDED = np.iinfo(np.int64).max // 4


def _bounds(bounds: object, T: int) -> np.ndarray:
    """Per-type copy bounds as int64 (UNBOUNDED when ``bounds`` is None)."""
    if bounds is None:
        return np.full(T, UNBOUNDED, dtype=np.int64)
    b = np.asarray(bounds)
    if b.shape != (T,) or b.dtype.kind not in "iu" or np.any(b < 0):
        raise ValueError(f"knapsack bounds must be {T} non-negative integers, got "
                         f"{b.dtype} of shape {b.shape}")
    if b.dtype.kind == "u":  # clip before the cast: 2^64 - 1 must not wrap to -1
        b = np.minimum(b, np.uint64(UNBOUNDED))
    return np.minimum(b.astype(np.int64), UNBOUNDED)


def knapsack_bb(
    values: np.ndarray,
    sizes: np.ndarray,
    capacity: np.ndarray,
    *,
    threshold: float | int | None = None,
    node_limit: int = 5_000_000,
    max_keep: int = 8,
    exact: bool = False,
    rtol: float = FEASIBILITY_RTOL,
    bounds: np.ndarray | None = None,
) -> KnapsackResult:
    """Branch and bound for ``max <values, k>`` s.t. ``sizes^T k <= capacity``, k integer
    (and ``k <= bounds`` when given: the bounded knapsack).

    Depth-first branch and bound over the types sorted by efficiency, with the Dantzig
    bound in every resource and in the surrogate (capacity-normalised sum) resource;
    the kernel is compiled with numba on its first call.

    Parameters
    ----------
    values : array_like, shape (T,)
        The value of one job of each type: floats, or int64 with ``exact=True``.
        Types of value <= 0 are never taken.
    sizes : array_like, shape (T, D) or (T,)
        Sizes per type and resource (``>= 0``): floats, or int64 with ``exact=True``.
    capacity : array_like, shape (D,)
        Capacity per resource (``> 0``), in the units of ``sizes``.
    threshold : float or int or None, default None
        Only configurations worth more than this are searched for (returns value
        ``threshold`` and a zero config when none exists). None: 0.
    node_limit : int, default 5000000
        Most nodes to visit; beyond it the search stops with ``proven=False``.
    max_keep : int, default 8
        Most improving configurations kept in ``improving``.
    exact : bool, default False
        Integer data; the leaf test is exact and pruning keeps a safety margin so
        that a float rounding in the bound can never discard a better configuration.
    rtol : float, default FEASIBILITY_RTOL
        Relative feasibility tolerance for float data (0 for integer-valued floats):
        a load fits when it is at most ``capacity * (1 + rtol)``.
    bounds : array_like of int or None, default None
        Shape (T,), non-negative: the most copies of each type (None: as many as fit).

    Returns
    -------
    KnapsackResult
        The best configuration, its value, ``proven`` and the improving
        configurations found.

    Raises
    ------
    ValueError
        If an array is empty, not numeric, not finite or of inconsistent shape, a size
        is negative or a capacity not positive, ``bounds`` are not T non-negative
        integers, or ``exact=True`` is given non-integer data.

    References
    ----------
    Martello and Toth, *Knapsack Problems*, 1990, ch. 3.6 (unbounded knapsack);
    the pricing problem of PG21, Sec. III-A, eq. (4) and the MaxWeight step of
    PG21, Def. 2, eq. (5).

    Examples
    --------
    >>> from capacity import knapsack_bb
    >>> res = knapsack_bb([3.0, 2.0], [[0.4], [0.3]], [1.0])
    >>> res.value, res.config.tolist(), res.proven
    (7.0, [1, 2], True)
    >>> knapsack_bb([3.0, 2.0], [[0.4], [0.3]], [1.0], threshold=7.0).config.tolist()
    [0, 0]

    Two resources, at most one job of each type:

    >>> res = knapsack_bb([3.0, 2.0, 4.0], [[0.4, 0.1], [0.3, 0.5], [0.5, 0.5]],
    ...                   [1.0, 1.0], bounds=[1, 1, 1])
    >>> res.value, res.config.tolist()
    (7.0, [1, 0, 1])
    """
    v, W, cap = _checked(values, sizes, capacity)
    T, D = W.shape
    ub_all = _bounds(bounds, T)
    best0: np.int64 | float
    if exact:
        if not (v.dtype.kind == "i" and W.dtype.kind == "i" and cap.dtype.kind == "i"):
            raise ValueError("exact=True needs integer values, sizes and capacity")
        v, W, cap = v.astype(np.int64), W.astype(np.int64), cap.astype(np.int64)
        best0 = np.int64(0 if threshold is None else threshold)
        # float bound errors are ~1e-15 relative; never prune within 1e-12 of best
        delta = -1e-12 * max(1.0, abs(float(best0)))
    else:
        v = v.astype(float)
        W = W.astype(float)
        cap = cap.astype(float) * (1.0 + rtol)
        best0 = 0.0 if threshold is None else float(threshold)
        delta = 1e-12 * abs(best0)
    idx, vs, Ws, ratio = _prepare(v, W, cap)
    if idx.size == 0:
        empty = int(best0) if exact else float(best0)
        return KnapsackResult(empty, np.zeros(T, dtype=np.int64), True, 0, [])
    best, bestk, nodes, finished, found, keep, nkeep = _bb_kernel(
        vs, Ws, cap, np.ascontiguousarray(ub_all[idx]), ratio, best0, delta, node_limit,
        max_keep)

    def expand(kk: np.ndarray) -> np.ndarray:
        out = np.zeros(T, dtype=np.int64)
        out[idx] = kk
        return out

    config = expand(bestk) if found else np.zeros(T, dtype=np.int64)
    return KnapsackResult(
        float(best) if not exact else int(best),
        config,
        bool(finished),
        int(nodes),
        [expand(keep[s]) for s in range(nkeep)],
    )


#: Most candidate units :func:`_grid_chain` chooses its chain from.
_CHAIN_CANDIDATES = 256


def _grid_chain(sizes: np.ndarray, capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """Grid units g_1 > ... > g_L (each a multiple of the next, all dividing the
    capacity) and the level of each type, for :func:`_dp_tables`.

    A type whose size is a multiple of g can be packed on a grid of g units (C / g
    cells). Sizes read off a trace to a few significant digits are coarse for large
    jobs and fine only for small ones, so most types need far fewer cells than C. Each
    type goes to the coarsest unit of the chain that divides gcd(size, C); the chain
    minimises the cells swept, sum_l (C / g_l + 1)(types at level l + 1), over chains
    of candidate units (the distinct gcds closed under gcd, up to
    ``_CHAIN_CANDIDATES``). Sizes without common factors give one level: the plain
    table.
    """
    u = np.gcd(sizes.astype(np.int64), np.int64(capacity))
    distinct, count = np.unique(u, return_counts=True)
    cands = {int(x) for x in distinct} | {int(np.gcd.reduce(distinct))}
    frontier = set(cands)
    while frontier and len(cands) <= _CHAIN_CANDIDATES:
        frontier = {math.gcd(a, b) for a in frontier for b in cands} - cands
        cands |= frontier
    order = sorted(cands, reverse=True)
    covered = {g: int(count[distinct % g == 0].sum()) for g in order}
    cost: dict[int, int] = {}
    parent: dict[int, int] = {}
    for g in order:  # the cheapest chain whose finest unit is g
        cells = capacity // g + 1
        cost[g] = cells * (covered[g] + 1)
        for h in order:
            if h <= g:
                break
            if h % g == 0 and cost[h] + cells * (covered[g] - covered[h] + 1) < cost[g]:
                cost[g] = cost[h] + cells * (covered[g] - covered[h] + 1)
                parent[g] = h
    chain = [order[-1]]
    while chain[-1] in parent:
        chain.append(parent[chain[-1]])
    units = np.array(chain[::-1], dtype=np.int64)
    level = np.argmax(u[:, None] % units[None, :] == 0, axis=1).astype(np.int64)
    return units, level


def knapsack_dp_cells(sizes: np.ndarray, capacity: int) -> int:
    """Cells :func:`knapsack_dp` sweeps for these integer sizes and capacity: its work,
    at most (types + 1)(C + 1) and less when sizes share factors with C."""
    w, C = _integer_sizes(sizes, capacity)
    w = w[(w > 0) & (w <= C)]
    if w.size == 0:
        return 0
    units, level = _grid_chain(w, C)
    return _chain_cells(units, np.bincount(level, minlength=len(units)), C)


def _integer_sizes(sizes: object, capacity: object) -> tuple[np.ndarray, int]:
    """Non-negative integer sizes (flat int64) and a positive integer capacity, else a
    ValueError."""
    w = np.asarray(sizes).reshape(-1)
    if w.dtype.kind not in "iu" or np.any(w < 0):
        raise ValueError(f"knapsack sizes must be non-negative integers, got dtype "
                         f"{w.dtype}")
    return w.astype(np.int64), positive_int(capacity, name="knapsack capacity")


def _chain_cells(units: np.ndarray, per_level: np.ndarray, C: int) -> int:
    """Cells swept by :func:`_dp_tables`: each level's table, once to start it and once
    per item."""
    return int(sum((C // int(g) + 1) * (int(m) + 1)
                   for g, m in zip(units, per_level, strict=True)))


#: Value of an exact-fill table's cell that no configuration reaches.
_UNREACHABLE = -1e300


#: Cells of a table that one sweep of :func:`_dp_tables` relaxes at a time (they stay
#: in the L1 cache while every item of a level visits them).
_DP_BLOCK = 2048

#: Items of a level at least this many cells long share one sweep of the level; shorter
#: ones (whose blocks would be too short to pay the loop) each sweep it alone.
_DP_FUSE_MIN = 64


def _dp_offsets(units: np.ndarray, C: int) -> np.ndarray:
    """Where each level's table starts in :func:`_dp_tables`'s buffer (and where the
    last ends)."""
    off = np.zeros(len(units) + 1, dtype=np.int64)
    off[1:] = np.cumsum(C // units + 1)
    return off


@njit(cache=True, fastmath=True)
def _dp_tables(v, w, units, starts, unreachable, tab, off, fuse_min):  # pragma: no cover
    """Unbounded knapsack tables on a chain of grids (:func:`_grid_chain`), written
    into ``tab`` (every cell; ``off`` from :func:`_dp_offsets`).

    Items sorted by level; items ``starts[l]:starts[l + 1]`` have sizes that are
    multiples of ``units[l]``. Table l, ``tab[off[l]:off[l + 1]]``, holds at cell x
    the best value of items of levels <= l within capacity x units[l]: it starts as
    table l - 1 read at the coarser cell (items of coarser levels only fill whole
    coarse units), then its items relax it, x upwards: dp[x] = max(dp[x],
    dp[x - w_i] + v_i). The items of a level at least ``fuse_min`` cells long do this
    together, block by block, each block shorter than every one of them: so a block
    reads only cells before it, which all of them have finished, and it stays in the
    cache while they visit it. Each shorter item then sweeps the table alone (any
    order of complete sweeps gives the unbounded knapsack). The last table is the
    knapsack over all items.

    ``unreachable`` < 0 (a float far below any value: -1e300) makes the tables
    exact-fill: cell x holds the best value of weight exactly x units[l], and
    ``unreachable`` (or slightly above it) where no configuration weighs that; the
    coarser table then starts only the cells on its grid."""
    L = units.shape[0]
    exact = unreachable < 0
    tmp = np.empty(_DP_BLOCK, dtype=tab.dtype)
    for lv in range(L):
        g = units[lv]
        n = off[lv + 1] - off[lv]
        dp = tab[off[lv]:off[lv + 1]]
        if lv == 0:
            dp[:] = unreachable
            dp[0] = 0
        else:
            r = units[lv - 1] // g
            prev = tab[off[lv - 1]:off[lv]]
            if exact:
                dp[:] = unreachable
                for p in range(prev.shape[0]):
                    dp[p * r] = prev[p]
            else:
                for p in range(prev.shape[0]):
                    val = prev[p]
                    for x in range(p * r, min(p * r + r, n)):
                        dp[x] = val
        a, b = starts[lv], starts[lv + 1]
        fused = 0  # one sweep for the long items, then one per short item
        for i in range(a, b):
            if w[i] // g >= fuse_min:
                fused = 1
        for sweep in range(b - a + fused):
            long_items = fused == 1 and sweep == 0
            first = a if long_items else a + sweep - fused
            last = b if long_items else first + 1
            if not long_items and w[first] // g >= fuse_min and fused == 1:
                continue  # swept with the long items
            shortest = n
            for i in range(first, last):
                if not long_items or w[i] // g >= fuse_min:
                    shortest = min(shortest, w[i] // g)
            step = min(shortest, _DP_BLOCK)
            lo = shortest
            while lo < n:
                hi = min(lo + step, n)
                for i in range(first, last):
                    wi = w[i] // g
                    if long_items and wi < fuse_min:
                        continue
                    s = max(lo, wi)
                    m = hi - s
                    if m <= 0:
                        continue
                    vi = v[i]
                    src = dp[s - wi:hi - wi]
                    dst = dp[s:hi]
                    t = tmp[:m]
                    # max into a buffer, then copy: a conditional store in place
                    # compiles to masked vector stores, several times slower
                    for j in range(m):
                        c = src[j] + vi
                        d = dst[j]
                        t[j] = c if c > d else d
                    for j in range(m):
                        dst[j] = t[j]
                lo = hi
    return tab, off


@njit(cache=True)
def _dp_tables_trace(tab, off, v, w, units, starts, caps, exact, out, as_jobs):  # pragma: no cover
    """Configurations worth the table's value at each capacity ``caps[r]`` (up to
    rounding), one row of ``out`` each, read back from the tables alone: at level l and
    cell x the value came either from table l - 1 (move down a level) or from an item
    of level l at cell x - w_i (take the best such item), and repeat. ``exact``: the
    tables are exact-fill and ``caps`` reachable cells; a coarser table then holds
    only the cells on its grid. ``out`` is zero and gets counts per item, or with
    ``as_jobs`` the item of each job in turn (it needs caps[r] // min(w) columns)."""
    for row in range(caps.shape[0]):
        n = 0
        lv = units.shape[0] - 1
        x = caps[row] // units[lv]
        while x > 0 if exact else tab[off[lv] + x] > 0:
            g = units[lv]
            best = tab[0] * 0
            has = not exact  # a value to beat: 0, or the coarser table's
            r = 1
            if lv > 0:
                r = units[lv - 1] // g
                if not exact or x % r == 0:
                    best = tab[off[lv - 1] + x // r]
                    has = True
            bi = -1
            for i in range(starts[lv], starts[lv + 1]):
                wi = w[i] // g
                if wi <= x:
                    cand = tab[off[lv] + x - wi] + v[i]
                    if cand > best or not has:
                        best = cand
                        bi = i
                        has = True
            if bi >= 0:
                if as_jobs:
                    out[row, n] = bi
                    n += 1
                else:
                    out[row, bi] += 1
                x -= w[bi] // g
            elif lv == 0:
                break
            else:
                x = x // r
                lv -= 1
    return out


class _DPTables:
    """The tables of :func:`_dp_tables` for values ``v`` and positive integer sizes
    ``w`` (at most C), with their level chain; small tables run the kernels' Python
    code (no numba). ``exact_fill`` (float values): exact-fill tables, from which the
    best value within each capacity is the running maximum, so one table answers both
    "within c" and "exactly c"."""

    def __init__(self, v: np.ndarray, w: np.ndarray, C: int, exact_fill: bool = False):
        self.units, level = _grid_chain(w, C)
        self.order = np.argsort(level, kind="stable")
        self.starts = np.searchsorted(level[self.order], np.arange(len(self.units) + 1))
        self.v = np.ascontiguousarray(v[self.order])
        self.w = np.ascontiguousarray(w[self.order].astype(np.int64))
        self.T = len(v)
        assert not exact_fill or self.v.dtype.kind == "f", "exact-fill needs float values"
        self.exact_fill = exact_fill
        small = _chain_cells(self.units, np.diff(self.starts), C) <= SMALL_DP_CELLS
        tables = _dp_tables.py_func if small else _dp_tables
        self._trace = _dp_tables_trace.py_func if small else _dp_tables_trace
        unreachable = self.v.dtype.type(_UNREACHABLE if exact_fill else 0)
        # allocated here, not in the kernel: numpy asks for huge pages (numba's
        # allocator does not), which halves the page faults of a 10^7-cell table
        off = _dp_offsets(self.units, C)
        self.tab, self.off = tables(self.v, self.w, self.units, self.starts, unreachable,
                                    np.empty(off[-1], dtype=self.v.dtype), off,
                                    _DP_FUSE_MIN)
        self._exact = self.tab[self.off[-2]:self.off[-1]]
        self._argmax: np.ndarray | None = None
        self._first_best: tuple[int, int] = (-1, -1)  # (cell, first best cell up to it)

    @cached_property
    def last(self) -> np.ndarray:
        """The knapsack over all items, one cell per ``units[-1]`` of capacity (for
        exact-fill tables their running maximum, computed on first use: a pass over
        up to 10^7 cells that a round answered by full columns does not need)."""
        return np.maximum.accumulate(self._exact) if self.exact_fill else self._exact

    def value(self, c: np.ndarray | int) -> np.ndarray:
        """Best value within capacity ``c`` (integer units; an array or one)."""
        cell = np.asarray(c) // self.units[-1]
        if self.exact_fill and cell.ndim == 0:  # one cell: no running maximum needed
            return self._exact[self._first_best_upto(int(cell))]
        return self.last[cell]

    def _first_best_upto(self, cell: int) -> int:
        """The first cell at or below ``cell`` of an exact-fill table that holds the
        best value up to it (one pass over up to 10^7 cells, shared by a round's
        :meth:`value` and :meth:`trace` of the same capacity)."""
        if self._first_best[0] != cell:
            self._first_best = (cell, int(np.argmax(self._exact[:cell + 1])))
        return self._first_best[1]

    def exact_value(self, c: np.ndarray) -> np.ndarray:
        """Best value of weight exactly ``c`` (exact-fill tables; -inf where nothing
        weighs that)."""
        assert self.exact_fill
        c = np.asarray(c, dtype=np.int64)
        g = int(self.units[-1])
        val = self._exact[c // g]
        return np.where((c % g == 0) & (val > _UNREACHABLE / 2), val, -np.inf)

    def full(self) -> np.ndarray:
        """Best value within every integer capacity 0..C."""
        C = int(self.off[-1] - self.off[-2] - 1) * int(self.units[-1])
        return np.repeat(self.last, int(self.units[-1]))[:C + 1]

    def trace(self, caps: np.ndarray, exactly: bool = False) -> np.ndarray:
        """Configurations worth ``value(c)`` for each c in ``caps`` (up to rounding),
        one row each, types in the caller's order; ``exactly``: worth
        ``exact_value(c)`` and weighing exactly c (finite values only)."""
        caps = self._traced_cells(caps, exactly)
        K = np.zeros((caps.size, self.T), dtype=np.int64)
        self._trace(self.tab, self.off, self.v, self.w, self.units, self.starts, caps,
                    self.exact_fill, K, False)
        out = np.zeros_like(K)
        out[:, self.order] = K
        return out

    def trace_jobs(self, caps: np.ndarray, exactly: bool = False) -> np.ndarray:
        """:meth:`trace`'s configurations as the types of their jobs (caller's order),
        one row each, -1 after the last job: a few jobs among many types need far less
        than a dense row."""
        caps = self._traced_cells(caps, exactly)
        width = int(caps.max()) // int(self.w.min()) if caps.size else 0
        J = np.full((caps.size, max(width, 1)), -1, dtype=np.int64)
        self._trace(self.tab, self.off, self.v, self.w, self.units, self.starts, caps,
                    self.exact_fill, J, True)
        return np.where(J >= 0, self.order[J], -1)

    def _traced_cells(self, caps: np.ndarray, exactly: bool) -> np.ndarray:
        """The capacities :meth:`trace` reads back from: for exact-fill tables, unless
        ``exactly``, a cell at or below c that reaches the running maximum (for one
        capacity the first such; for many, the heaviest, from one pass over the
        table)."""
        caps = np.asarray(caps, dtype=np.int64).reshape(-1)
        if self.exact_fill and not exactly:
            g = self.units[-1]
            if caps.size == 1:
                return np.array([self._first_best_upto(int(caps[0]) // g) * g])
            if self._argmax is None:
                cells = np.arange(len(self._exact))
                self._argmax = np.maximum.accumulate(
                    np.where(self._exact == self.last, cells, 0))
            caps = self._argmax[caps // g] * g
        return caps


def knapsack_dp_table(values: np.ndarray, sizes: np.ndarray, capacity: int) -> np.ndarray:
    """The unbounded knapsack's best value within every integer capacity 0..C, for
    positive values and positive integer sizes at most C (:func:`knapsack_dp`'s table).
    Anything else, or C above :data:`DP_MAX_CAPACITY`, is a ValueError (before any
    table is allocated)."""
    w, C = _integer_sizes(sizes, capacity)
    v = np.ascontiguousarray(values)
    if v.dtype.kind not in "iuf" or v.shape != w.shape or not np.all(np.isfinite(v)) \
            or np.any(v <= 0):
        raise ValueError("knapsack_dp_table needs one positive finite value per size")
    if w.size == 0 or np.any(w == 0) or np.any(w > C):
        raise ValueError(f"knapsack_dp_table needs sizes in 1..{C}")
    if C > DP_MAX_CAPACITY:
        raise ValueError(f"capacity {C} too large for the dynamic program "
                         f"(at most {DP_MAX_CAPACITY})")
    return _DPTables(v, w, C).full()


def knapsack_dp(values: np.ndarray, sizes: np.ndarray, capacity: int, *,
                per_type_threshold: float | None = None,
                max_columns: int = 0, full_columns: bool = False) -> KnapsackResult:
    """Exact unbounded knapsack for one resource with integer sizes: O(T C) time at
    most, less when sizes share factors with C (a chain of coarser grids for the
    coarser sizes, :func:`_grid_chain`; :func:`knapsack_dp_cells` is its work).

    With ``per_type_threshold`` the table is also used to return, in ``improving``,
    for every type j the best configuration containing j whose value exceeds the
    threshold (at most ``max_columns``, best first): many columns from one table.
    ``full_columns`` (float values): the best configurations through each type that
    fill the capacity exactly, when any exceeds the threshold; otherwise as above.
    The same table answers both (exact-fill, its running maximum the usual one).

    Parameters
    ----------
    values : array_like, shape (T,)
        The value of one job of each type (ints give an exact int ``value``, floats a
        float one). Types of value <= 0 or larger than the capacity are never taken.
    sizes : array_like of int, shape (T,)
        Non-negative integer sizes.
    capacity : int
        The integer capacity C, at most ``DP_MAX_CAPACITY`` (5e7).
    per_type_threshold : float or None, default None
        With ``max_columns > 0``: return in ``improving``, for each type, the best
        configuration containing it whose value exceeds this threshold.
    max_columns : int, default 0
        Most configurations returned in ``improving`` (best first).
    full_columns : bool, default False
        Prefer the configurations that fill the capacity exactly (float values only).

    Returns
    -------
    KnapsackResult
        The best configuration and its value, always ``proven``; ``nodes`` is C.

    Raises
    ------
    ValueError
        If the sizes or the capacity are not integers (or the capacity is more than one
        number), the capacity exceeds ``DP_MAX_CAPACITY``, a type of size 0 has a
        positive value (the knapsack is then unbounded), ``full_columns=True`` is given
        integer values, or an array is empty, not finite or of inconsistent shape.

    References
    ----------
    Martello and Toth, *Knapsack Problems*, 1990, ch. 3.6; the exact dual check of
    docs/design.md, section Certificates.

    Examples
    --------
    >>> from capacity import knapsack_dp
    >>> res = knapsack_dp([3, 2], [4, 3], 10)
    >>> res.value, res.config.tolist(), res.proven
    (7, [1, 2], True)
    >>> res = knapsack_dp([3.0, 2.0], [4, 3], 10, per_type_threshold=5.0, max_columns=4)
    >>> [k.tolist() for k in res.improving]
    [[1, 2]]
    """
    v, W, cap = _checked(values, sizes, capacity)
    w = W.reshape(-1)
    if w.dtype.kind not in "iu" or cap.dtype.kind not in "iu" or cap.shape != (1,):
        raise ValueError("knapsack_dp needs integer sizes and one integer capacity")
    C = int(cap[0])
    if C > DP_MAX_CAPACITY:
        raise ValueError(f"capacity {C} too large for the dynamic program")
    if full_columns and v.dtype.kind != "f":
        raise ValueError("knapsack_dp(full_columns=True) needs float values")
    T = len(v)
    keep = np.flatnonzero((v > 0) & (w <= C))
    if keep.size == 0:
        return KnapsackResult(0.0, np.zeros(T, dtype=np.int64), True, 0, [])
    if np.any(w[keep] == 0):
        raise ValueError("a type of size 0 with a positive value makes the unbounded "
                         "knapsack unbounded")
    vk = np.ascontiguousarray(v[keep])
    wk = np.ascontiguousarray(w[keep].astype(np.int64))
    tables = _DPTables(vk, wk, C, exact_fill=full_columns)
    k = np.zeros(T, dtype=np.int64)
    k[keep] = tables.trace(np.array([C]))[0]
    improving: Sequence[np.ndarray] = []
    if per_type_threshold is not None and max_columns > 0:
        for exactly in (True, False) if full_columns else (False,):
            rest = tables.exact_value(C - wk) if exactly else tables.value(C - wk)
            vals = vk + rest
            order = np.argsort(-vals, kind="stable")
            # twice the columns wanted: some coincide (the best through i may hold j)
            order = order[vals[order] > per_type_threshold][:2 * max_columns]
            if order.size:
                # the best configuration through type i: i and the best within (or
                # exactly) C - w_i
                if _SPARSE_JOBS * (C // int(wk.min()) + 1) <= T:
                    J = tables.trace_jobs(C - wk[order], exactly=exactly)
                    J = np.where(J >= 0, keep[J], -1)
                    rows = ConfigurationRows(np.column_stack([J, keep[order]]), T)
                    improving = rows.distinct()[:max_columns]
                else:
                    K = tables.trace(C - wk[order], exactly=exactly)
                    K[np.arange(order.size), order] += 1
                    improving = _distinct_rows(K, keep, T, max_columns)
                break
    val = tables.value(C)
    return KnapsackResult(float(val) if v.dtype.kind == "f" else int(val), k, True, C,
                          improving)


#: Columns come back as the types of their jobs (:class:`ConfigurationRows`) when a
#: configuration holds at most 1 / _SPARSE_JOBS of the types: rho* of 10,000 sizes in
#: (0.2, 0.7) traced 20,000 dense rows of 10,000 a round (1.6 GB, 6 s of 22 s).
_SPARSE_JOBS = 4


def _distinct_rows(K: np.ndarray, keep: np.ndarray, T: int, limit: int) -> list[np.ndarray]:
    """The first ``limit`` distinct rows of ``K`` (columns ``keep`` of T types)."""
    full = np.zeros((K.shape[0], T), dtype=np.int64)
    full[:, keep] = K
    out: list[np.ndarray] = []
    seen = set()
    for row in full:
        key = row.tobytes()
        if key not in seen and len(out) < limit:
            seen.add(key)
            out.append(row)
    return out


@njit(cache=True, fastmath=True)
def _dp01_table(v, w, C, take):  # pragma: no cover
    """0/1 knapsack over items (v, w): dp[c] = best value within capacity c. When
    ``take`` has a row per item, ``take[p, c]`` (c >= w_p) says item p improved dp[c]
    at its stage (for the backward reconstruction); cells below w_p are not written.
    Each stage computes its cells from the previous one into a buffer, then copies
    them back, so the loops vectorise (a conditional store in place compiles to masked
    vector stores, several times slower)."""
    P = v.shape[0]
    keep_choices = take.shape[0] == P
    dp = np.zeros(C + 1, dtype=v.dtype)
    tmp = np.empty(C + 1, dtype=v.dtype)
    for p in range(P):
        wp = w[p]
        vp = v[p]
        n = C + 1 - wp
        src = dp[:n]
        dst = dp[wp:]
        t = tmp[:n]
        if keep_choices:
            tk = take[p, wp:]
            for j in range(n):
                a = src[j] + vp
                b = dst[j]
                tk[j] = a > b
                t[j] = a if a > b else b
        else:
            for j in range(n):
                a = src[j] + vp
                b = dst[j]
                t[j] = a if a > b else b
        for j in range(n):
            dst[j] = t[j]
    return dp


#: Most bytes of the choice table of :func:`knapsack_dp_bounded`.
DP01_TABLE_BYTES = 256 * 2**20


def split_item_count(sizes: np.ndarray, bounds: Sequence[int] | np.ndarray,
                     capacity: int) -> int:
    """Items of the 0/1 program :func:`knapsack_dp_bounded` builds: type j with at most
    min(b_j, C // w_j) copies splits into that count's bit length (1, 2, 4, ...)."""
    return sum(int(min(int(b), capacity // max(int(w), 1))).bit_length()
               for w, b in zip(sizes, bounds, strict=True))


def knapsack_dp_bounded(values: np.ndarray, sizes: np.ndarray, capacity: int,
                        bounds: np.ndarray, *, config: bool = True,
                        max_columns: int = 1,
                        choice_buffer: np.ndarray | None = None) -> KnapsackResult:
    """Exact bounded knapsack for one resource with integer sizes: at most ``bounds[j]``
    copies of type j. Each type is split into 1, 2, 4, ... copies (Martello & Toth 1990,
    ch. 7.1.1), then a 0/1 dynamic program over the capacity runs in O(C sum_j log b_j).
    ``config=False`` returns the value only (no choice table: the certificate's use).

    ``improving`` holds the optimum and, up to ``max_columns`` in all, the best
    configurations within ever smaller capacities (each lighter than the one before:
    distinct columns from one table), best first; only those of positive value.

    ``choice_buffer``: a flat uint8 array that holds the choice table when it is large
    enough, else a fresh table is used (a caller pricing many times reuses one: a fresh
    100 MB table costs as much in page faults as the program that fills it); any other
    array is a ValueError."""
    v, W, cap = _checked(values, sizes, capacity)
    w = W.reshape(-1)
    if w.dtype.kind not in "iu" or cap.dtype.kind not in "iu" or cap.shape != (1,):
        raise ValueError("knapsack_dp_bounded needs integer sizes and one integer capacity")
    T = len(v)
    b = _bounds(bounds, T)
    C = int(cap[0])
    if C > DP_MAX_CAPACITY:
        raise ValueError(f"capacity {C} too large for the dynamic program")
    free = np.flatnonzero((v > 0) & (w == 0) & (b > 0))
    if free.size and np.any(b[free] >= UNBOUNDED):
        raise ValueError("a type of size 0 with a positive value and no copy bound makes "
                         "the knapsack unbounded")
    keep = np.flatnonzero((v > 0) & (w <= C) & (w > 0) & (b > 0))
    item, mult = [], []
    for j in keep:
        most = int(min(b[j], C // int(w[j])))
        m = 1
        while most > 0:
            part = min(m, most)
            item.append(j)
            mult.append(part)
            most -= part
            m *= 2
    base = np.zeros(T, dtype=np.int64)
    base[free] = b[free]  # size-0 types: every allowed copy, always
    base_val = v[free] @ b[free] if free.size else v.dtype.type(0)
    if not item:
        val0 = float(base_val) if v.dtype.kind == "f" else int(base_val)
        return KnapsackResult(val0, base, True, 0, [base] if val0 > 0 else [])
    it = np.array(item, dtype=np.int64)
    mu = np.array(mult, dtype=np.int64)
    pv = np.ascontiguousarray(v[it] * mu)
    pw = np.ascontiguousarray(w[it].astype(np.int64) * mu)
    keep_choices = config and len(it) * (C + 1) <= DP01_TABLE_BYTES
    if config and not keep_choices:
        raise ValueError(f"knapsack_dp_bounded: {len(it)} split items x capacity {C} "
                         f"exceed the {DP01_TABLE_BYTES // 2**20} MiB choice table")
    if choice_buffer is not None and (not isinstance(choice_buffer, np.ndarray)
                                      or choice_buffer.dtype != np.uint8
                                      or choice_buffer.ndim != 1):
        raise ValueError("knapsack_dp_bounded: choice_buffer must be a flat uint8 array, "
                         f"got {type(choice_buffer).__name__} "
                         f"{getattr(choice_buffer, 'dtype', '')}".rstrip())
    if not keep_choices:
        take = np.empty((0, 0), dtype=np.uint8)
    elif choice_buffer is not None and choice_buffer.size >= len(it) * (C + 1):
        take = choice_buffer[:len(it) * (C + 1)].reshape(len(it), C + 1)
    else:
        take = np.empty((len(it), C + 1), dtype=np.uint8)
    small = len(it) * C <= SMALL_DP_CELLS
    dp01_table = _dp01_table.py_func if small else _dp01_table
    dp01_trace = _dp01_trace.py_func if small else _dp01_trace
    dp = dp01_table(pv, pw, C, take)
    val = dp[C] + base_val
    k = base.copy()
    improving: list[np.ndarray] = []
    if keep_choices:
        c = C
        while len(improving) < max(1, max_columns) and c >= 0 and (dp[c] > 0 or not improving):
            sel = dp01_trace(take, pw, c)
            kk = base.copy()
            np.add.at(kk, it[sel], mu[sel])
            if not improving:
                k = kk
            if dp[c] + base_val > 0:
                improving.append(kk)
            c = int(pw[sel].sum()) - 1  # the best configuration strictly lighter than kk
    return KnapsackResult(float(val) if v.dtype.kind == "f" else int(val), k, True,
                          len(it) * C, improving)


@njit(cache=True)
def _dp01_trace(take, w, c):  # pragma: no cover
    """Items of a best 0/1 configuration within capacity c, read back from ``take``."""
    P = w.shape[0]
    sel = np.zeros(P, dtype=np.bool_)
    for p in range(P - 1, -1, -1):
        if c >= w[p] and take[p, c]:
            sel[p] = True
            c -= w[p]
    return sel


def max_weight_configuration(
    values: np.ndarray, sizes: np.ndarray, capacity: np.ndarray | float
) -> KnapsackResult:
    """``argmax_{k in K} <values, k>`` over all feasible configurations (float data).

    This is the MaxWeight configuration of PG21 Def. 2 over the full set K; the
    result is proven optimal (raises ``RuntimeError`` if the search budget runs out).
    :func:`knapsack_bb` with threshold 0 on float data.

    Parameters
    ----------
    values : array_like, shape (T,)
        The weight of one job of each type (e.g. the queue lengths Q_j of eq. (5)).
    sizes : array_like, shape (T,) or (T, D)
        Job sizes per type (and resource), ``>= 0``.
    capacity : float or array_like, shape (D,)
        Server capacity per resource, ``> 0``.

    Returns
    -------
    KnapsackResult
        The maximum-weight feasible configuration (``proven`` is True); the zero
        configuration, value 0, when no value is positive.

    Raises
    ------
    ValueError
        On invalid arrays (as :func:`knapsack_bb`).
    RuntimeError
        If the search exceeds its node budget before proving the maximum.

    References
    ----------
    PG21, Sec. III-A, Def. 2, eq. (5) (the weight ``<k, Q>`` of a configuration).

    Examples
    --------
    Queue lengths 3 and 2 of jobs of size 0.4 and 0.3 on a unit server:

    >>> from capacity import max_weight_configuration
    >>> res = max_weight_configuration([3.0, 2.0], [0.4, 0.3], 1.0)
    >>> res.value, res.config.tolist()
    (7.0, [1, 2])
    """
    res = knapsack_bb(np.asarray(values, dtype=float), np.asarray(sizes, dtype=float),
                      np.atleast_1d(np.asarray(capacity, dtype=float)), threshold=0.0)
    if not res.proven:
        raise RuntimeError("knapsack search exceeded its node budget; result not proven")
    return res


class KnapsackTimeLimit(Exception):
    """The active :func:`capacity.deadline.time_limit` passed inside
    :func:`knapsack_exact`'s search: no value is proven."""


#: search nodes of :func:`knapsack_exact` between two looks at the time limit
_NODES_PER_CHECK = 4096


def knapsack_exact(values: list, sizes: list[list], capacity: list,
                   threshold: object = 0, bounds: list[int] | None = None
                   ) -> tuple[Fraction, list[int] | None]:
    """Exact branch and bound in rational arithmetic (pure Python, small instances).

    The readable reference for the compiled kernel, and the exact oracle when rational
    sizes have denominators too large to scale to 64-bit integers. Returns the best
    value above ``threshold`` with its configuration, or ``(threshold, None)`` if no
    configuration is worth more than ``threshold``. ``bounds``: most copies per type.
    The search is exponential in the worst case: inside a
    :func:`capacity.deadline.time_limit` block it raises :class:`KnapsackTimeLimit` once
    the limit has passed (checked every few thousand nodes), so a caller never waits
    past the limit for a value it could not prove anyway.
    """
    T = len(values)
    if bounds is not None:
        bounds = [int(b) for b in _bounds(np.asarray(bounds), T)]
    v = [Fraction(x) for x in values]
    W = [[Fraction(x) for x in row] for row in sizes]
    cap = [Fraction(x) for x in capacity]
    D = len(cap)
    items = [i for i in range(T) if v[i] > 0]

    def share(i: int) -> Fraction:
        return max(W[i][d] / cap[d] for d in range(D))

    items.sort(key=lambda i: v[i] / share(i), reverse=True)
    # suffix maxima of value per unit of each resource; None stands for +infinity
    # (some later type uses none of that resource)
    n = len(items)
    ratio: list[list[Fraction | None]] = [[Fraction(0)] * D for _ in range(n + 1)]
    for pos in range(n - 1, -1, -1):
        i = items[pos]
        for d in range(D):
            here = v[i] / W[i][d] if W[i][d] > 0 else None
            nxt = ratio[pos + 1][d]
            ratio[pos][d] = None if here is None or nxt is None else max(here, nxt)
    # any value Fraction() accepts; Fraction() itself rejects anything else at run time
    best = Fraction(cast("int | Fraction | float | str", threshold))
    best_k: list[int] | None = None
    k = [0] * T

    # with copy bounds, all remaining copies at once bound the rest too (capacity may
    # not bind at all: 2,000 + 2,000 + 100 jobs in a server of capacity 10^9)
    left: list[Fraction] | None = None
    if bounds is not None:
        left = [Fraction(0)] * (n + 1)
        for pos in range(n - 1, -1, -1):
            left[pos] = left[pos + 1] + bounds[items[pos]] * v[items[pos]]

    def bound(pos: int, r: list[Fraction]) -> Fraction | None:
        if pos == n:
            return Fraction(0)
        bs = [r[d] * rd for d in range(D) if (rd := ratio[pos][d]) is not None]
        if left is not None:
            bs.append(left[pos])
        return min(bs) if bs else None

    nodes = 0

    def rec(pos: int, r: list[Fraction], val: Fraction) -> None:
        nonlocal best, best_k, nodes
        nodes += 1
        if nodes % _NODES_PER_CHECK == 0 and expired():
            raise KnapsackTimeLimit
        if pos == n:
            if val > best:
                best, best_k = val, list(k)
            return
        b = bound(pos, r)
        if b is not None and val + b <= best:
            return
        i = items[pos]
        q = min(int(r[d] // W[i][d]) for d in range(D) if W[i][d] > 0)
        if bounds is not None:
            q = min(q, int(bounds[i]))
        for c in range(q, -1, -1):
            k[i] = c
            rec(pos + 1, [r[d] - c * W[i][d] for d in range(D)], val + c * v[i])
        k[i] = 0

    rec(0, cap, Fraction(0))
    return best, best_k


@njit(cache=True)
def _dp2_table(v, w, C0, C1):  # pragma: no cover
    """dp[a, b] = best value within integer capacities (a, b) of two resources, and
    choice[a, b] the type added last (-1: the empty configuration).

    Row by row: a type with w0 > 0 reads a finished earlier row, so its sweep over b
    is a plain loop; types with w0 = 0 then sweep the row in increasing b (each cell
    they read is final). Twice as fast as cell by cell with every type inside.
    """
    dp = np.zeros((C0 + 1, C1 + 1), dtype=v.dtype)
    choice = np.full((C0 + 1, C1 + 1), -1, dtype=np.int64)
    wide = np.flatnonzero(w[:, 0] > 0)
    flat = np.flatnonzero(w[:, 0] == 0)
    for a in range(C0 + 1):
        cur = dp[a]
        ch = choice[a]
        for i in wide:
            w0 = w[i, 0]
            if w0 > a:
                continue
            w1 = w[i, 1]
            vi = v[i]
            src = dp[a - w0]
            for b in range(w1, C1 + 1):
                cand = src[b - w1] + vi
                if cand > cur[b]:
                    cur[b] = cand
                    ch[b] = i
        if flat.size:
            for b in range(C1 + 1):
                for i in flat:
                    w1 = w[i, 1]
                    if w1 <= b:
                        cand = cur[b - w1] + v[i]
                        if cand > cur[b]:
                            cur[b] = cand
                            ch[b] = i
    return dp, choice


@njit(cache=True)
def _dp2_reconstruct(choice, w, a, b, T):  # pragma: no cover
    k = np.zeros(T, dtype=np.int64)
    while True:
        c = choice[a, b]
        if c < 0:
            return k
        k[c] += 1
        a -= w[c, 0]
        b -= w[c, 1]


def knapsack_dp2(values: np.ndarray, sizes: np.ndarray, capacity: tuple[int, int], *,
                 per_type_threshold: float | None = None,
                 max_columns: int = 0) -> KnapsackResult:
    """Exact unbounded knapsack for two resources with integer sizes (O(T C_0 C_1)).

    Like :func:`knapsack_dp`, optionally returns the best configuration containing each
    type (``improving``) from the same table.
    """
    v, W, cap = _checked(values, sizes, capacity)
    if W.shape[1] != 2 or W.dtype.kind not in "iu" or cap.dtype.kind not in "iu":
        raise ValueError("knapsack_dp2 needs a (T, 2) integer size array and two integer "
                         "capacities")
    C0, C1 = (int(c) for c in cap)
    if (C0 + 1) * (C1 + 1) > 20_000_000:
        raise ValueError(f"capacity {capacity} too large for the dynamic program")
    T = len(v)
    keep = np.flatnonzero((v > 0) & (W[:, 0] <= C0) & (W[:, 1] <= C1) & (W.max(axis=1) > 0))
    if keep.size == 0:
        return KnapsackResult(0.0, np.zeros(T, dtype=np.int64), True, 0, [])
    vk = np.ascontiguousarray(v[keep])
    wk = np.ascontiguousarray(W[keep].astype(np.int64))
    dp, choice = _dp2_table(vk, wk, C0, C1)
    k = np.zeros(T, dtype=np.int64)
    k[keep] = _dp2_reconstruct(choice, wk, C0, C1, len(keep))
    improving: list[np.ndarray] = []
    if per_type_threshold is not None and max_columns > 0:
        vals = vk + dp[C0 - wk[:, 0], C1 - wk[:, 1]]
        seen = set()
        for i in np.argsort(-vals, kind="stable"):
            if vals[i] <= per_type_threshold or len(improving) >= max_columns:
                break
            kk = _dp2_reconstruct(choice, wk, C0 - wk[i, 0], C1 - wk[i, 1], len(keep))
            kk[i] += 1
            if kk.tobytes() in seen:
                continue
            seen.add(kk.tobytes())
            full = np.zeros(T, dtype=np.int64)
            full[keep] = kk
            improving.append(full)
    val = dp[C0, C1]
    return KnapsackResult(float(val) if v.dtype.kind == "f" else int(val), k, True,
                          (C0 + 1) * (C1 + 1), improving)


def knapsack_01(values: object, weights: object, capacity: int, *,
                max_cells: int = 50_000_000) -> np.ndarray:
    """Exact 0/1 knapsack by dynamic programming over integer weights: the indices of a
    subset maximising the sum of values with sum of weights <= capacity (items of
    value <= 0 are never taken). O(n * capacity) time; XLL21 Thm. 1 counts this
    O(n(t) M_i) per machine for the z-step of Algorithm 1."""
    v = np.asarray(values, dtype=float).reshape(-1)
    w = np.asarray(weights, dtype=float).reshape(-1)
    if v.shape != w.shape or not np.all(np.isfinite(v)) or not np.all(np.isfinite(w)):
        raise ValueError("knapsack_01 needs finite values and weights of the same length")
    if np.any(w < 0) or np.any(w != np.round(w)):
        raise ValueError("knapsack_01 needs non-negative integer weights")
    if isinstance(capacity, bool) or int(capacity) != capacity or capacity < 0:
        raise ValueError(f"capacity must be a non-negative integer, got {capacity!r}")
    cap = int(capacity)
    items = np.flatnonzero((v > 0) & (w <= cap))
    free = items[w[items] == 0]
    items = items[w[items] > 0]
    if items.size == 0:
        return np.sort(free)
    cap = min(cap, int(w[items].sum()))
    if (cap + 1) * items.size > max_cells:
        raise ValueError(f"knapsack_01: {items.size} items x capacity {cap} exceeds "
                         f"{max_cells:,} table cells")
    best = np.zeros(cap + 1)
    take = np.zeros((items.size, cap + 1), dtype=bool)
    for r, j in enumerate(items):
        wj = int(w[j])
        cand = best[:-wj] + v[j] if wj <= cap else np.zeros(0)
        better = np.zeros(cap + 1, dtype=bool)
        better[wj:] = cand > best[wj:]
        take[r] = better
        best = np.where(better, np.concatenate([np.zeros(wj), cand]), best)
    chosen = []
    c = cap
    for r in range(items.size - 1, -1, -1):
        if take[r, c]:
            chosen.append(items[r])
            c -= int(w[items[r]])
    return np.sort(np.concatenate([free, np.array(chosen, dtype=np.int64)])).astype(np.int64)
