"""Peer formulation: the arc-flow LP bound of bin packing, built in numpy, solved by HiGHS.

The arc-flow model of Valério de Carvalho (Annals of OR 86, 1999; "LP models for bin
packing and cutting stock problems", EJOR 141, 2002) sends z units of flow around a
directed acyclic graph whose nodes are bin loads: a path from the empty bin (load 0)
to the sink is a packing pattern, an item arc of type j adds ``k`` copies of weight
``w_j``. The LP

    min z   s.t.   flow conservation at every node (a feedback arc sink -> source
                   carries z),
                   sum over arcs of type j of (copies x flow)  >=  n_j   for each type j,
                   flow >= 0

equals the Gilmore-Gomory LP over the patterns that are paths of the graph (every
arc flow decomposes into path flows, and a DAG's paths are exactly those patterns).
It is the researcher's usual alternative to column generation, so
``benchmarks/bench_arcflow.py`` runs it side by side with packsched's
``capacity.supportable_workload.bin_packing_lp``.

Two graphs are built (``graph=``):

``"exact"`` (the default; it matches packsched's ``z_lp`` exactly)
    The pattern bound ``k_j <= n_j`` is part of the state. Types are sorted by
    non-increasing weight (Valério de Carvalho's ordering) and a node is a pair
    ``(d, j)``: load ``d``, types before ``j`` decided. From ``(d, j)`` go a
    *skip* arc (no copy of type j) and one arc per copy count ``k = 1 .. n_j``
    with ``d + k w_j <= C``, to ``(d + k w_j, j + 1)``. A node whose residual
    capacity ``C - d`` holds none of the types ``j, j+1, ...`` is merged into the
    next layer that can still place something (types are sorted, so that is
    ``max(j + 1, first type with w <= C - d)``), or into the sink. Paths from
    ``(0, 0)`` to the sink are then in one-to-one correspondence with the patterns
    holding at most ``n_j`` copies of each weight (``tests/benchmarks`` checks this
    by enumeration), so the LP is the bounded Gilmore-Gomory bound.

``"classic"`` (Valério de Carvalho's reduced graph)
    Nodes are loads only, ``0 .. C`` restricted to the sums reachable by packing
    items in non-increasing weight order. Arcs of type j leave only the nodes reached
    by items of weight ``>= w_j`` (or 0), in chains of at most ``n_j`` consecutive
    arcs of type j; loss arcs go from every node to ``C``. This graph is much
    smaller, but it does **not** enforce ``k_j <= n_j``: chains that start at
    different nodes join. Weights 2, 2, 1, 1 with C = 5: the chains of weight 1 from
    loads 0, 2 and 4 form the path 0-1-2-3-4-5 of five items of weight 1, and the LP
    drops from the bounded bound 4/3 to 6/5 (the unbounded bound). Its LP lies
    between the unbounded and the bounded Gilmore-Gomory bounds; it is reported for
    comparison, not as the matching bound.

Size of the exact graph. A type is *free* when ``n_j >= floor(C / w_j)`` (its bound
cannot bind); free types are placed after the others, in a position-indexed tail
built like the classic graph (any path there respects the bounds). Nodes whose only
in-arc carries no item are merged into their predecessor. What remains is the 0-1
knapsack state space: about (number of bounded types) x (reachable loads) nodes,
against (reachable loads) for the classic graph. With ~1,000 distinct weights and
C = 100,000 (Scholl 3) that is beyond ``max_arcs``.

VPSolver (Brandão & Pedroso, Comput. Oper. Res. 69, 2016): ``pip install --no-deps
pyvpsolver`` installs from PyPI (wheel 3.1.4, binaries report 3.1.3; the ``vpsolver``
name on PyPI is a 0.0 placeholder that depends on ``pyvpsolver``; ``--no-deps``
avoids its Flask/pytest-cov/coveralls requirements). :func:`vpsolver_lp_bound` runs
its ``vbp2afg`` (graph with compression) and ``afg2mps`` and solves the LP
relaxation of the resulting model with HiGHS; VPSolver's own scripts only call
GLPK/Gurobi/CPLEX/... for the integer model, none of which is installed here.

Solver: the sparse matrix is assembled column-wise with numpy and passed to
``highspy.Highs.passModel`` as an ``HighsLp`` (``solver="highspy"``, default), or to
``scipy.optimize.linprog(method="highs")`` (``solver="scipy"``, which converts it to
scipy's sparse format and splits equality and inequality rows). Both run the same
HiGHS and took the same time within noise (e.g. Falkenauer t501, ipm: 0.59 s and
0.53 s; hard28-like n = 160: 4.7 s and 4.4 s); passModel is the default because it
skips scipy's conversion and input checks. The default algorithm is HiGHS's interior
point method with crossover (``{"solver": "ipm"}``, :data:`DEFAULT_HIGHS_OPTIONS`):
the arc-flow LPs are highly degenerate and simplex was 1.5-3x slower on the mid-sized
ones and did not finish in 60 s on hard28-like n = 160 and 180 (ipm: 5-20 s); pass
``highs_options`` to change it.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "ArcflowGraph",
    "ArcflowSolveError",
    "ArcflowTimeout",
    "GraphTooLarge",
    "MAX_ARCS",
    "arcflow_lp_bound",
    "DEFAULT_HIGHS_OPTIONS",
    "build_graph",
    "find_vpsolver",
    "graph_patterns",
    "item_types",
    "vpsolver_lp_bound",
]

#: Address-space limit of each VPSolver process (bytes).
VPSOLVER_MEMORY = 6 * 2**30
#: Default budget on the number of arcs (each costs ~100 bytes here and in HiGHS).
MAX_ARCS = 12_000_000
GRAPHS = ("exact", "classic")
#: HiGHS options used when ``highs_options`` is None.
DEFAULT_HIGHS_OPTIONS: dict[str, Any] = {"solver": "ipm"}
SOLVERS = ("highspy", "scipy")


class ArcflowSolveError(RuntimeError):
    """HiGHS ended with a status other than optimal."""


class ArcflowTimeout(ArcflowSolveError):
    """HiGHS stopped at its time limit (or graph building exceeded it)."""


class GraphTooLarge(ValueError):
    """The graph would exceed ``max_arcs``; raise the budget to build it anyway."""


@dataclass
class ArcflowGraph:
    """An arc-flow graph: arc ``a`` goes ``tail[a] -> head[a]`` and carries
    ``copies[a]`` items of type ``kind[a]`` (``-1``: a skip or loss arc, no item).

    Type j has weight ``weights[j]`` and multiplicity ``demand[j]`` (n_j); the classic
    graph orders types by non-increasing weight, the exact graph puts the bounded
    types first and the free ones last, each part in non-increasing weight order.
    Node ``source`` is the empty bin and ``sink`` the end of every
    pattern; the feedback arc is not stored.
    """

    graph: str
    capacity: int
    weights: np.ndarray
    demand: np.ndarray
    n_nodes: int
    source: int
    sink: int
    tail: np.ndarray
    head: np.ndarray
    kind: np.ndarray
    copies: np.ndarray

    @property
    def n_arcs(self) -> int:
        return int(len(self.tail))


def item_types(weights: Iterable[object], capacity: object) -> tuple[int, np.ndarray, np.ndarray]:
    """Validate an instance; return ``(C, w, n)``: distinct weights in non-increasing
    order and their multiplicities. Weights and capacity must be integers,
    ``1 <= w <= C``."""
    if isinstance(capacity, bool) or not isinstance(capacity, Integral):
        raise TypeError(f"capacity must be an integer, got {capacity!r}")
    cap = int(capacity)
    if cap < 1:
        raise ValueError(f"capacity must be >= 1, got {cap}")
    ws: list[int] = []
    for i, x in enumerate(weights):
        if isinstance(x, bool) or not isinstance(x, Integral):
            raise TypeError(f"weights[{i}] must be an integer, got {x!r}")
        v = int(x)
        if not 1 <= v <= cap:
            raise ValueError(f"weights[{i}] = {v} is not in [1, C = {cap}]")
        ws.append(v)
    if not ws:
        raise ValueError("a bin-packing instance needs at least one item")
    if cap > 2**40:
        raise ValueError(f"capacity {cap} is too large for a pseudo-polynomial graph")
    counts = Counter(ws)
    w = np.array(sorted(counts, reverse=True), dtype=np.int64)
    n = np.array([counts[int(v)] for v in w], dtype=np.int64)
    return cap, w, n


def _first_fitting(w_desc: np.ndarray, residual: np.ndarray) -> np.ndarray:
    """Smallest index j with ``w_desc[j] <= residual`` (len(w_desc) if none)."""
    return np.searchsorted(-w_desc, -residual, side="left")


def build_graph(weights: Iterable[object], capacity: object, graph: str = "exact", *,
                max_arcs: int = MAX_ARCS, deadline: float | None = None) -> ArcflowGraph:
    """Build the arc-flow graph of an instance (see the module docstring).

    ``deadline`` is a ``time.perf_counter()`` value after which building stops with
    :class:`ArcflowTimeout`; above ``max_arcs`` arcs it stops with :class:`GraphTooLarge`.
    """
    if graph not in GRAPHS:
        raise ValueError(f"graph must be one of {GRAPHS}, got {graph!r}")
    if isinstance(max_arcs, bool) or not isinstance(max_arcs, Integral) or max_arcs < 1:
        raise ValueError(f"max_arcs must be a positive integer, got {max_arcs!r}")
    cap, w, n = item_types(weights, capacity)
    if graph == "exact":
        return _build_exact(cap, w, n, int(max_arcs), deadline)
    return _build_classic(cap, w, n, int(max_arcs), deadline)


def _check(arcs: int, max_arcs: int, deadline: float | None, what: str) -> None:
    if arcs > max_arcs:
        raise GraphTooLarge(f"the {what} arc-flow graph has more than {max_arcs:,} arcs "
                            f"({arcs:,} so far); raise max_arcs to build it")
    if deadline is not None and time.perf_counter() > deadline:
        raise ArcflowTimeout(f"building the {what} graph exceeded the time limit "
                             f"({arcs:,} arcs so far)")


def _build_exact(cap: int, w: np.ndarray, n: np.ndarray, max_arcs: int,
                 deadline: float | None) -> ArcflowGraph:
    # A type is free when its bound cannot bind (n_j >= floor(C / w_j)); the others are
    # bounded. Bounded types first (layers), free types last (a position-indexed tail).
    free = n >= cap // w
    order = np.concatenate([np.flatnonzero(~free), np.flatnonzero(free)])
    w, n = w[order], n[order]  # each part stays in non-increasing weight order
    m, mb = len(w), int(np.count_nonzero(~free))
    wb = w[:mb]
    min_free = int(w[mb:].min()) if mb < m else cap + 1
    stride = cap + 1  # key of layer node (d, j): j * stride + d
    tail_base = mb * stride  # key of tail node d: tail_base + d
    sink_key = (mb + 1) * stride
    pending: list[list[np.ndarray]] = [[] for _ in range(mb)]
    entries = np.zeros(cap + 1, dtype=bool)  # loads at which paths enter the tail
    node_parts: list[np.ndarray] = []
    tails: list[np.ndarray] = []
    heads: list[np.ndarray] = []
    kinds: list[np.ndarray] = []
    copies: list[np.ndarray] = []
    n_nodes = 0
    n_arcs = 0

    def tail_or_sink(load: np.ndarray) -> np.ndarray:
        return np.where(load + min_free <= cap, tail_base + load, sink_key)

    def emit(tail: np.ndarray, load: np.ndarray, j: int, kind: int, k: int) -> None:
        # the next layer that can still place a bounded type; past the last: the tail
        layer = np.maximum(j + 1, _first_fitting(wb, cap - load))
        inner = layer < mb
        out = ~inner
        key = np.where(inner, layer * stride + load, tail_or_sink(load))
        entries[load[out & (load + min_free <= cap)]] = True
        tails.append(tail)
        heads.append(key)
        kinds.append(np.full(len(tail), kind, dtype=np.int32))
        copies.append(np.full(len(tail), k, dtype=np.int32))
        if not inner.any():
            return
        lay, ld = layer[inner], load[inner]
        if np.all(lay == lay[0]):
            pending[int(lay[0])].append(ld)
            return
        o = np.argsort(lay, kind="stable")
        lay, ld = lay[o], ld[o]
        cuts = np.flatnonzero(np.diff(lay)) + 1
        for part_l, part_d in zip(np.split(lay, cuts), np.split(ld, cuts), strict=True):
            pending[int(part_l[0])].append(part_d)

    if mb > 0:
        pending[0].append(np.zeros(1, dtype=np.int64))
    else:
        entries[0] = True
    for j in range(mb):
        if not pending[j]:
            continue
        loads = np.unique(np.concatenate(pending[j]))
        pending[j] = []
        ids = np.arange(n_nodes, n_nodes + len(loads), dtype=np.int64)
        n_nodes += len(loads)
        node_parts.append(j * stride + loads)
        emit(ids, loads, j, -1, 0)  # skip: no copy of type j
        n_arcs += len(loads)
        wj = int(w[j])
        for k in range(1, int(n[j]) + 1):
            d2 = loads + k * wj
            ok = d2 <= cap
            if not ok.any():
                break
            emit(ids[ok], d2[ok], j, j, k)
            n_arcs += int(ok.sum())
        _check(n_arcs, max_arcs, deadline, "exact")
    # tail: Valerio de Carvalho's chains of the free types from the entry loads; every
    # path there is a pattern within the bounds, whatever the order of its items
    reached = entries.copy()
    t_loads, t_kind = _chains(cap, w, n, range(mb, m), reached, n_arcs, max_arcs, deadline,
                              "exact")
    live = np.flatnonzero(reached[: max(cap - min_free + 1, 0)])
    tail_ids = np.arange(n_nodes, n_nodes + len(live), dtype=np.int64)
    node_of = np.full(cap + 1, -1, dtype=np.int64)
    node_of[live] = tail_ids
    node_parts.append(tail_base + live)
    node_parts.append(np.array([sink_key], dtype=np.int64))
    tails += [node_of[t_loads], tail_ids]
    heads += [tail_or_sink(t_loads + w[t_kind]), np.full(len(live), sink_key)]
    kinds += [t_kind, np.full(len(live), -1, dtype=np.int32)]
    copies += [np.ones(len(t_loads), dtype=np.int32), np.zeros(len(live), dtype=np.int32)]
    keys = np.concatenate(node_parts)
    head_keys = np.concatenate(heads)
    head = np.searchsorted(keys, head_keys)
    if not np.array_equal(keys[np.minimum(head, len(keys) - 1)], head_keys):
        raise AssertionError("an arc points to a node that was never created")  # pragma: no cover
    tail = np.concatenate(tails)
    if np.any(tail < 0):
        raise AssertionError("an arc leaves a node that was never created")  # pragma: no cover
    kind, cps = np.concatenate(kinds), np.concatenate(copies)
    n_all = len(keys)
    tail, head, kind, cps, n_all, sink = _contract(tail, head, kind, cps, n_all, 0, n_all - 1)
    return ArcflowGraph("exact", cap, w, n, n_all, 0, sink, tail, head, kind, cps)


def _contract(tail: np.ndarray, head: np.ndarray, kind: np.ndarray, cps: np.ndarray,
              n_nodes: int, source: int, sink: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Merge every node whose only in-arc carries no item into that arc's tail.

    The merged node has the out-arcs of both, so the set of source-sink paths (as
    sequences of item arcs) is unchanged; it removes the nodes of skip chains.
    """
    indeg = np.bincount(head, minlength=n_nodes)
    plain = kind < 0
    merge = np.zeros(n_nodes, dtype=bool)
    h = head[plain]
    merge[h[indeg[h] == 1]] = True
    merge[source] = merge[sink] = False
    into = plain & merge[head]
    rep = np.arange(n_nodes, dtype=np.int64)
    rep[head[into]] = tail[into]
    while True:  # follow chains of merged nodes to their first node (a DAG: this ends)
        nxt = rep[rep]
        if np.array_equal(nxt, rep):
            break
        rep = nxt
    keep = ~into
    new_id = np.cumsum(~merge) - 1
    tail = new_id[rep[tail[keep]]]
    head = new_id[head[keep]]
    return (tail, head, kind[keep], cps[keep], int(n_nodes - merge.sum()),
            int(new_id[sink]))


def _chains(cap: int, w: np.ndarray, n: np.ndarray, types: Iterable[int], reached: np.ndarray,
            count: int, max_arcs: int, deadline: float | None, what: str
            ) -> tuple[np.ndarray, np.ndarray]:
    """Valerio de Carvalho's arcs: for each type j of ``types`` (in non-increasing
    weight order), arcs of type j leave the loads reached before j (``reached``) in
    chains of at most n_j consecutive arcs. Updates ``reached``; returns the tail loads
    and types of the arcs."""
    tails: list[np.ndarray] = []
    kinds: list[np.ndarray] = []
    pos = np.arange(cap + 1, dtype=np.int64)
    for j in types:
        wj = int(w[j])
        if wj > cap:
            continue
        starts = np.flatnonzero(reached[: cap - wj + 1])
        if len(starts) == 0:
            continue
        length = min(int(n[j]), cap // wj)
        if length * len(starts) <= 4 * (cap + 1):
            is_tail = np.zeros(cap + 1, dtype=bool)
            for i in range(length):
                u = starts + i * wj
                u = u[u + wj <= cap]
                if len(u) == 0:
                    break
                is_tail[u] = True
            t = np.flatnonzero(is_tail)
        else:  # the last start at or below each load, per residue class mod w_j
            rows = -(-(cap + 1) // wj)
            last = np.full(rows * wj, -(cap + 1) * 2, dtype=np.int64)
            last[starts] = starts
            last = np.maximum.accumulate(last.reshape(rows, wj), axis=0).ravel()[: cap + 1]
            t = np.flatnonzero((pos - last < length * wj) & (pos + wj <= cap))
        tails.append(t)
        kinds.append(np.full(len(t), j, dtype=np.int32))
        reached[t + wj] = True
        count += len(t)
        _check(count, max_arcs, deadline, what)
    if not tails:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    return np.concatenate(tails), np.concatenate(kinds)


def _build_classic(cap: int, w: np.ndarray, n: np.ndarray, max_arcs: int,
                   deadline: float | None) -> ArcflowGraph:
    reached = np.zeros(cap + 1, dtype=bool)
    reached[0] = True
    tail_loads, kind = _chains(cap, w, n, range(len(w)), reached, 0, max_arcs, deadline,
                               "classic")
    reached[cap] = True
    loads = np.flatnonzero(reached)
    node_of = np.full(cap + 1, -1, dtype=np.int64)
    node_of[loads] = np.arange(len(loads))
    head_loads = tail_loads + w[kind]
    loss = loads[:-1]  # every node except C: a loss arc to C
    tail = np.concatenate([node_of[tail_loads], node_of[loss]])
    head = np.concatenate([node_of[head_loads], np.full(len(loss), node_of[cap])])
    kind = np.concatenate([kind, np.full(len(loss), -1, dtype=np.int32)])
    cps = np.where(kind >= 0, 1, 0).astype(np.int32)
    _check(len(tail), max_arcs, deadline, "classic")
    return ArcflowGraph("classic", cap, w, n, len(loads), 0, int(node_of[cap]), tail, head,
                        kind, cps)


def graph_patterns(g: ArcflowGraph, limit: int = 100_000) -> Counter[tuple[int, ...]]:
    """Every source-sink path of ``g`` as a pattern (copies of each type, in the order
    of ``g.weights``), with the number of paths giving it. For tests on small graphs;
    refuses (ValueError) above ``limit`` paths."""
    out_arcs: list[list[int]] = [[] for _ in range(g.n_nodes)]
    for a in range(g.n_arcs):
        out_arcs[int(g.tail[a])].append(a)
    m = len(g.weights)
    found: Counter[tuple[int, ...]] = Counter()
    stack: list[tuple[int, tuple[int, ...]]] = [(g.source, (0,) * m)]
    while stack:
        v, pat = stack.pop()
        if v == g.sink:
            found[pat] += 1
            if sum(found.values()) > limit:
                raise ValueError(f"more than {limit} paths")
            continue
        for a in out_arcs[v]:
            k = int(g.kind[a])
            if k >= 0:
                p = list(pat)
                p[k] += int(g.copies[a])
                stack.append((int(g.head[a]), tuple(p)))
            else:
                stack.append((int(g.head[a]), pat))
    return found


def _lp_arrays(g: ArcflowGraph) -> dict[str, Any]:
    """Column-wise matrix of the arc-flow LP: rows are the nodes (out - in = 0) then
    the types (sum of copies >= n_j); columns are the arcs then z (the feedback arc)."""
    na, nv, m = g.n_arcs, g.n_nodes, len(g.weights)
    item = g.kind >= 0
    per_col = np.where(item, 3, 2).astype(np.int64)
    start = np.zeros(na + 2, dtype=np.int64)
    np.cumsum(per_col, out=start[1:na + 1])
    start[na + 1] = start[na] + 2
    nnz = int(start[-1])
    if nnz >= 2**31 - 1:
        raise GraphTooLarge(f"{nnz:,} nonzeros exceed HiGHS's 32-bit matrix indices")
    index = np.empty(nnz, dtype=np.int32)
    value = np.empty(nnz, dtype=np.float64)
    s = start[:na]
    index[s] = g.tail
    value[s] = 1.0
    index[s + 1] = g.head
    value[s + 1] = -1.0
    si = s[item] + 2
    index[si] = nv + g.kind[item]
    value[si] = g.copies[item]
    index[nnz - 2] = g.sink  # feedback arc sink -> source carries z
    value[nnz - 2] = 1.0
    index[nnz - 1] = g.source
    value[nnz - 1] = -1.0
    cost = np.zeros(na + 1)
    cost[na] = 1.0
    row_lower = np.concatenate([np.zeros(nv), g.demand.astype(np.float64)])
    row_upper = np.concatenate([np.zeros(nv), np.full(m, np.inf)])
    return {"start": start, "index": index, "value": value, "cost": cost,
            "row_lower": row_lower, "row_upper": row_upper, "n_rows": nv + m, "n_nodes": nv,
            "n_cols": na + 1}


def _solve_highspy(arr: dict[str, Any], time_limit: float | None,
                   options: dict[str, Any] | None) -> tuple[float, str, dict[str, int], float]:
    import highspy

    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = arr["n_cols"]
    lp.num_row_ = arr["n_rows"]
    lp.col_cost_ = arr["cost"]
    lp.col_lower_ = np.zeros(arr["n_cols"])
    lp.col_upper_ = np.full(arr["n_cols"], inf)
    lp.row_lower_ = arr["row_lower"]
    lp.row_upper_ = np.where(np.isinf(arr["row_upper"]), inf, arr["row_upper"])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = arr["start"].astype(np.int32)
    lp.a_matrix_.index_ = arr["index"]
    lp.a_matrix_.value_ = arr["value"]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if time_limit is not None:
        h.setOptionValue("time_limit", max(float(time_limit), 1e-3))
    _set_options(h, options)
    t0 = time.perf_counter()
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    text = h.modelStatusToString(status)
    if status != highspy.HighsModelStatus.kOptimal:
        _raise_status(text, status == highspy.HighsModelStatus.kTimeLimit)
    info = h.getInfo()
    return (float(info.objective_function_value), text, _iterations(info),
            time.perf_counter() - t0)


def _iterations(info: Any) -> dict[str, int]:
    return {"simplex": int(info.simplex_iteration_count), "ipm": int(info.ipm_iteration_count),
            "crossover": int(info.crossover_iteration_count)}


def _set_options(h: Any, options: dict[str, Any] | None) -> None:
    import highspy

    for key, val in (DEFAULT_HIGHS_OPTIONS if options is None else options).items():
        if h.setOptionValue(key, val) != highspy.HighsStatus.kOk:
            raise ValueError(f"HiGHS refused the option {key}={val!r}")


def _raise_status(text: str, timed_out: bool) -> Any:
    if timed_out:
        raise ArcflowTimeout(f"HiGHS stopped at its time limit ({text})")
    raise ArcflowSolveError(f"HiGHS did not solve the arc-flow LP: {text}")


def _solve_scipy(arr: dict[str, Any], time_limit: float | None,
                 options: dict[str, Any] | None) -> tuple[float, str, dict[str, int], float]:
    from scipy.optimize import linprog
    from scipy.sparse import csc_array

    t0 = time.perf_counter()
    a = csc_array((arr["value"], arr["index"], arr["start"]),
                  shape=(arr["n_rows"], arr["n_cols"]))
    nv = arr["n_nodes"]
    a_eq, a_ub = a[:nv], -a[nv:]
    opts: dict[str, Any] = dict(DEFAULT_HIGHS_OPTIONS if options is None else options)
    method = {"ipm": "highs-ipm", "simplex": "highs-ds", "choose": "highs"}[
        opts.pop("solver", "choose")]
    if time_limit is not None:
        opts["time_limit"] = max(float(time_limit), 1e-3)
    res = linprog(arr["cost"], A_ub=a_ub, b_ub=-arr["row_lower"][nv:], A_eq=a_eq,
                  b_eq=np.zeros(nv), bounds=(0, None), method=method, options=opts)
    if res.status != 0:
        _raise_status(res.message, res.status == 1)
    return (float(res.fun), "Optimal", {"total": int(getattr(res, "nit", -1))},
            time.perf_counter() - t0)


def arcflow_lp_bound(weights: Sequence[object] | Iterable[object], capacity: object, *,
                     graph: str = "exact", solver: str = "highspy",
                     max_arcs: int = MAX_ARCS, time_limit: float | None = None,
                     highs_options: dict[str, Any] | None = None
                     ) -> tuple[float, dict[str, Any]]:
    """Arc-flow LP bound of a bin-packing instance (integer weights, capacity C).

    Returns ``(z, info)``; ``info`` holds ``nodes``, ``arcs``, ``rows``, ``cols``,
    ``nonzeros``, ``build_s`` (graph and matrix), ``solve_s`` (HiGHS, including
    passing the model), ``seconds`` (their sum), ``status``, ``graph``, ``solver``,
    ``types``, ``items`` and ``iterations``. With ``graph="exact"`` z is the bounded
    Gilmore-Gomory bound (patterns hold at most n_j copies of weight j), the
    ``z_lp`` of packsched's ``bin_packing_lp``.

    Raises :class:`ArcflowSolveError` on a HiGHS status other than optimal,
    :class:`ArcflowTimeout` (a subclass) when ``time_limit`` seconds (build + solve)
    run out, :class:`GraphTooLarge` above ``max_arcs`` arcs.
    """
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")
    if time_limit is not None and not (isinstance(time_limit, int | float)
                                       and time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + float(time_limit)
    g = build_graph(weights, capacity, graph, max_arcs=max_arcs, deadline=deadline)
    arr = _lp_arrays(g)
    build_s = time.perf_counter() - t0
    remaining = None if deadline is None else deadline - time.perf_counter()
    if remaining is not None and remaining <= 0:
        raise ArcflowTimeout("the time limit ran out while building the graph")
    solve = _solve_highspy if solver == "highspy" else _solve_scipy
    z, status, iters, solve_s = solve(arr, remaining, highs_options)
    return z, {
        "graph": graph, "solver": solver, "nodes": g.n_nodes, "arcs": g.n_arcs,
        "rows": arr["n_rows"], "cols": arr["n_cols"], "nonzeros": int(len(arr["index"])),
        "types": int(len(g.weights)), "items": int(g.demand.sum()), "status": status,
        "iterations": iters, "build_s": build_s, "solve_s": solve_s,
        "seconds": build_s + solve_s,
    }


# -- VPSolver (Brandão & Pedroso) ---------------------------------------------------------


def find_vpsolver(bin_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """Directory holding VPSolver's ``vbp2afg`` and ``afg2mps`` (from ``bin_dir``, the
    ``VPSOLVER_BIN`` environment variable, or ``PATH``), or None."""
    cands = [bin_dir, os.environ.get("VPSOLVER_BIN")]
    for c in cands:
        if c and (Path(c) / "vbp2afg").is_file() and (Path(c) / "afg2mps").is_file():
            return Path(c)
    exe = shutil.which("vbp2afg")
    if exe and shutil.which("afg2mps"):
        return Path(exe).parent
    return None


def _address_space_limit(limit: int | None) -> Any:
    if limit is None:
        return None

    def apply() -> None:  # runs in the child before exec
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def vpsolver_lp_bound(weights: Iterable[object], capacity: object, bin_dir: Path, *,
                      time_limit: float | None = None,
                      highs_options: dict[str, Any] | None = None,
                      memory_limit: int | None = VPSOLVER_MEMORY
                      ) -> tuple[float, dict[str, Any]]:
    """LP relaxation of VPSolver's arc-flow model (graph compression, method -3):
    ``vbp2afg`` then ``afg2mps``, integrality dropped, solved by HiGHS. Demands are
    the multiplicities n_j. Returns ``(z, info)`` like :func:`arcflow_lp_bound`;
    ``build_s`` is the wall time of the two VPSolver processes, each limited to
    ``memory_limit`` bytes of address space (a process over it fails with an error)."""
    import highspy

    cap, w, n = item_types(weights, capacity)
    with tempfile.TemporaryDirectory(prefix="vpsolver-") as tmp:
        vbp, afg, mps = (Path(tmp) / f"inst.{e}" for e in ("vbp", "afg", "mps"))
        lines = ["1", str(cap), str(len(w))] + [f"{int(a)} {int(b)}" for a, b in zip(w, n,
                                                                                    strict=True)]
        vbp.write_text("\n".join(lines) + "\n")
        t0 = time.perf_counter()
        log = ""
        for cmd in (["vbp2afg", vbp, afg], ["afg2mps", afg, mps]):
            left = None if time_limit is None else max(time_limit - (time.perf_counter() - t0),
                                                       1e-3)
            try:
                proc = subprocess.run([str(bin_dir / str(cmd[0]))] + [str(x) for x in cmd[1:]],
                                      capture_output=True, text=True, timeout=left,
                                      preexec_fn=_address_space_limit(memory_limit))
            except subprocess.TimeoutExpired as e:
                raise ArcflowTimeout(f"VPSolver {cmd[0]} exceeded the time limit") from e
            log += proc.stdout + proc.stderr
            if proc.returncode != 0:
                raise ArcflowSolveError(f"VPSolver {cmd[0]} failed: {log[-400:]}")
        build_s = time.perf_counter() - t0
        nv = na = -1
        text = afg.read_text()
        for line in text.splitlines():
            if line.startswith("$NV{"):
                nv = int(line[4:].rstrip("};"))
            elif line.startswith("$NA{"):
                na = int(line[4:].rstrip("};"))
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        _set_options(h, highs_options)
        t1 = time.perf_counter()
        h.readModel(str(mps))
        lp = h.getLp()
        lp.integrality_ = []
        h.passModel(lp)
        if time_limit is not None:
            h.setOptionValue("time_limit", max(time_limit - (t1 - t0), 1e-3))
        h.run()
        status = h.getModelStatus()
        stext = h.modelStatusToString(status)
        if status != highspy.HighsModelStatus.kOptimal:
            _raise_status(stext, status == highspy.HighsModelStatus.kTimeLimit)
        solve_s = time.perf_counter() - t1
        z = float(h.getInfo().objective_function_value)
        iters = _iterations(h.getInfo())
    return z, {"graph": "vpsolver", "solver": "highspy", "nodes": nv, "arcs": na,
               "types": int(len(w)), "items": int(n.sum()), "status": stext,
               "iterations": iters,
               "build_s": build_s, "solve_s": solve_s, "seconds": build_s + solve_s,
               "version": next((ln.split(",")[0] for ln in log.splitlines()
                                if ln.startswith("VPSolver")), "?")}
