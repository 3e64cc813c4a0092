"""The bin-packing LP at its continuous bound, proven on a small residual LP.

No pattern holds more than C, so z_LP >= sum w / C (PG21 Lemma 2 on one server; the
continuous bound). Instances built by cutting bins exactly (BPPLIB's AI class, the
Falkenauer triplets) sit on it: there every optimal pattern is a perfect bin. Then an
integral set of perfect bins (:func:`capacity.exact_fill_packing.exact_fill_bins`) plus
a fractional packing of the other items at *their* continuous bound is a fractional
packing of all items at sum w / C, optimal for the LP with copy bounds and without.

Before that greedy, the perfect patterns of at most three items are enumerated
(:mod:`capacity.perfect_patterns`) and one LP over all of them is solved: when every
item is heavier than C / 4 (BPPLIB's ANI class, the Falkenauer triplets) these are all
the perfect patterns, and an LP at the bound over them is a fractional packing of the
same kind (the ANI-shaped 1,002-item instance: 0.9 s against 8 s for the whole LP).

The residual LP has a fraction of the rows. That is the point: a master of T rows
over patterns of 3-5 random weights has a dense basis inverse, so a simplex pivot
costs O(T^2) and column generation on 1,000 rows spends most of its time there
(``benchmarks/README.md``, sessions 24-31).

When the residual LP stays above its bound, fixed bins are released into it, as in
dynamic constraint aggregation (Elhallaoui, Villeneuve, Soumis & Desaulniers,
Oper. Res. 53(4), 2005): a fixed bin is an aggregated row whose items are priced in
proportion to their weights (it then prices at exactly 1); a pattern that prices above
1 at the residual LP's duals and splits fixed bins releases them. The residual about
doubles a round; a residual above ``max_share`` of the items (and above
:data:`SMALL_RESIDUAL`), a round that releases nothing, or a large residual that
could not double again and is not settled in :data:`LAST_RESIDUAL_ROUNDS` rounds gives up
(``None``), and the caller solves the whole LP. A share of 0.3 proves all of 40
AI-shaped seeds (1,002 items, C = 80,000; the residual reached 230 items); at 0.2, 5
of the 20 seeds 11-30 fell back to the whole LP (6.8-7.3 s each).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from capacity._lp_highs import MasterLP
from capacity.configuration_lp import (
    ConfigurationLP,
    IterationLimit,
    result_of_mixture,
    solve_configuration_lp,
)
from capacity.exact_fill_packing import MAX_EXACT_FILL_CAPACITY, exact_fill_bins
from capacity.knapsack import knapsack_dp
from capacity.perfect_patterns import perfect_patterns_upto_three
from capacity.result import CapacityResult, MixtureTerm

__all__ = ["lp_at_continuous_bound"]

#: Most residual rounds before giving up.
MAX_ROUNDS = 8
#: Residual items always allowed (the share limit is for large instances).
SMALL_RESIDUAL = 150
#: Column-generation rounds of a residual LP of more than SMALL_RESIDUAL items that
#: could not grow again (twice its items above the limit): it only answers whether the
#: residual is at its bound.
LAST_RESIDUAL_ROUNDS = 40
#: The perfect-pattern cover is tried up to this many distinct weights (its search
#: visits T^2 / 2 pairs) and this many patterns per weight (one LP over all of them).
MAX_COVER_TYPES = 5000
MAX_COVER_PATTERNS = 20


def _instance_lp(ws: np.ndarray, capacity: int, bounded: bool) -> ConfigurationLP:
    return ConfigurationLP.of_instance([int(w) for w in ws], capacity,
                                       copies_bounded=bounded)


def _prices(res: CapacityResult, u: np.ndarray, where: dict[int, int]) -> np.ndarray:
    """Full-instance prices per item: ``u`` (weight / C) with the residual LP's duals,
    scaled to bins (a pattern prices at most 1), in place of its types'."""
    out = u.copy()
    scale = float(res.dual_bound[0])
    for s, y in zip(res.sizes, res.dual, strict=True):
        out[where[int(s)]] = float(y) / scale
    return out


def _stopped_at_bound(res: CapacityResult) -> bool:
    return bool(res.extra.get("stopped_at_lemma2"))


def lp_at_continuous_bound(weights: Sequence[int], capacity: int, *, max_share: float = 0.3,
                           patterns: list[np.ndarray] | None = None
                           ) -> tuple[CapacityResult, CapacityResult] | None:
    """Both LPs of a bin-packing instance, ``(bounded, unbounded)`` as
    :meth:`ConfigurationLP.of_instance` builds them (copy-bounded and not), when
    z_LP = sum w / C, each certified; ``None`` when that is not shown within ``max_share``
    of the items in the residual LP (the LP may still be at the bound).

    ``patterns``: when the answer is ``None``, the patterns of the LPs solved on the
    way (over perfect patterns, over residual items) and the perfect bins beside the
    residual are appended to this list, as counts over the types of
    :meth:`ConfigurationLP.of_instance`: starting columns for the whole LP, which is
    then often just above the bound.

    ``weights`` are integers in 1..``capacity`` (else ``ValueError``)."""
    t0 = time.perf_counter()
    if not 0 < max_share <= 1:
        raise ValueError(f"max_share must lie in (0, 1], got {max_share!r}")
    if patterns is not None and not isinstance(patterns, list):
        raise TypeError(f"patterns must be a list to append to, got "
                        f"{type(patterns).__name__}")
    ws = np.asarray(weights)
    if ws.ndim != 1 or ws.size == 0 or ws.dtype.kind not in "iu":
        raise ValueError("lp_at_continuous_bound needs a non-empty list of integer weights")
    C = int(capacity)
    if isinstance(capacity, bool) or C != capacity or C < 1:
        raise ValueError(f"capacity must be a positive integer, got {capacity!r}")
    if ws.min() < 1 or ws.max() > C:
        raise ValueError(f"weights must lie in 1..{C}")
    if C > MAX_EXACT_FILL_CAPACITY:
        return None
    ws = ws.astype(np.int64)
    n = len(ws)
    lp_bounded = _instance_lp(ws, C, True)
    lp_free = _instance_lp(ws, C, False)
    sizes = np.array([int(r[0]) for r in lp_bounded.rows], dtype=np.int64)
    where = {int(s): j for j, s in enumerate(sizes)}
    copies = lp_bounded.copy_bounds()
    assert copies is not None
    cover = _perfect_cover(lp_bounded, sizes, C)
    if cover is not None and cover[0]:
        return _certified(lp_bounded, lp_free, cover[1], sizes, t0, 1,
                          {"perfect_patterns": len(cover[1])},
                          "perfect patterns of at most three items at the continuous bound")
    # the patterns of the LPs solved on the way, over the instance's types
    solved: list[np.ndarray] = [] if cover is None else [term.config for term in cover[1]]
    fixed: list[np.ndarray] = []  # perfect bins (item indices) once the residual LPs run

    def give_up() -> tuple[CapacityResult, CapacityResult] | None:
        if patterns is not None:
            patterns.extend(_counts(items, ws, where, len(sizes)) for items in fixed)
            # an unbounded residual LP's patterns may hold more copies than there are
            patterns.extend(np.minimum(k, copies) for k in solved)
        return None

    # a residual LP of up to SMALL_RESIDUAL items is cheap whatever the instance
    most = max(max_share * n, min(n, SMALL_RESIDUAL))
    packing = exact_fill_bins(ws, C, max_unplaced=int(most))
    residual = packing.unplaced
    if len(residual) > most:
        return give_up()
    fixed = list(packing.bins)
    u = sizes / C
    warm: CapacityResult | None = None
    found: tuple[CapacityResult | None, np.ndarray | None]
    rounds = 0
    while True:
        rounds += 1
        if rounds > MAX_ROUNDS:
            return give_up()
        if len(residual) == 0:
            found = (None, None)
            break
        rw = ws[residual]
        # the last residual that can still grow within `most` only answers "at the
        # bound?": a few rounds do that for the AI-shaped (at most 26 in 40 seeds),
        # while ANI-shaped residuals above the bound took 62-120 to say no
        last = 2 * len(residual) > most and len(residual) > SMALL_RESIDUAL
        limit: dict[str, Any] = {"max_iterations": LAST_RESIDUAL_ROUNDS} if last else {}
        # the unbounded LP first (its transfers make it cheap, and it starts the bounded
        # one); the bounded LP is at the bound only if this one is
        try:
            free = solve_configuration_lp(_instance_lp(rw, C, False),
                                          method="column-generation", certify_result=False,
                                          warm_start=warm, **limit)
            warm = free
            priced = free
            bounded = None
            if _stopped_at_bound(free):
                bounded = solve_configuration_lp(_instance_lp(rw, C, True),
                                                 method="column-generation",
                                                 certify_result=False, warm_start=free,
                                                 **limit)
        except IterationLimit:
            return give_up()
        for solved_lp in (free, bounded):
            if solved_lp is not None:
                cols_of = np.array([where[int(v)] for v in solved_lp.sizes], dtype=np.int64)
                for term in solved_lp.mixture:
                    k = np.zeros(len(sizes), dtype=np.int64)
                    k[cols_of] = term.config
                    solved.append(k)
        if bounded is not None:
            if _stopped_at_bound(bounded):
                found = (bounded, rw)
                break
            priced = bounded
        y = _prices(priced, u, where)
        res = knapsack_dp(y, sizes, C, per_type_threshold=1 + 1e-9, max_columns=lp_free.T)
        cols = sorted(res.improving, key=lambda k: -float(y @ k))
        by_type: dict[int, list[int]] = {}
        for b, items in enumerate(fixed):
            for i in items:
                by_type.setdefault(where[int(ws[i])], []).append(b)
        release: list[int] = []
        taken: set[int] = set()
        room = max(len(residual), 16)
        for k in cols:
            for j in np.flatnonzero(k):
                for b in by_type.get(int(j), ()):
                    if b not in taken and room > 0:
                        taken.add(b)
                        release.append(b)
                        room -= len(fixed[b])
        if not release:
            return give_up()  # no pattern above 1 splits a fixed bin: releasing cannot help
        residual = np.concatenate([residual] + [fixed[b] for b in release])
        fixed = [items for b, items in enumerate(fixed) if b not in taken]
        if len(residual) > most:
            return give_up()
    bounded_res, rw = found
    # the fractional packing of all items: fixed bins once each, the residual LP's
    # patterns at its bins (t-form weights times n_res / t_res), over z bins in all
    mixture: list[MixtureTerm] = []
    z_res = 0.0 if bounded_res is None or rw is None else len(rw) / bounded_res.value
    z = len(fixed) + z_res
    for items in fixed:
        mixture.append(MixtureTerm(0, _counts(items, ws, where, len(sizes)), 1.0 / z))
    if bounded_res is not None:
        cols_of = np.array([where[int(s)] for s in bounded_res.sizes], dtype=np.int64)
        for term in bounded_res.mixture:
            k = np.zeros(len(sizes), dtype=np.int64)
            k[cols_of] = term.config
            mixture.append(MixtureTerm(0, k, float(term.weight) * z_res / z))
    info = {"perfect_bins": len(fixed), "residual_items": 0 if rw is None else len(rw),
            "rounds": rounds}
    return _certified(lp_bounded, lp_free, mixture, sizes, t0, rounds, info,
                      "perfect bins plus a residual LP at its continuous bound")


def _counts(items: np.ndarray, ws: np.ndarray, where: dict[int, int], T: int) -> np.ndarray:
    """The configuration of a bin: items (indices into ``ws``) counted per type."""
    k = np.zeros(T, dtype=np.int64)
    np.add.at(k, [where[int(w)] for w in ws[items]], 1)
    return k


def _perfect_cover(lp: ConfigurationLP, sizes: np.ndarray, C: int
                   ) -> tuple[bool, list[MixtureTerm]] | None:
    """The optimum of one LP over the perfect patterns of at most three items
    (:func:`capacity.perfect_patterns.perfect_patterns_upto_three`), and whether it is
    at the continuous bound (then a fractional packing there); ``None`` if an item is in
    none of them or they are too many."""
    if lp.T > MAX_COVER_TYPES:
        return None
    copies = lp.copy_bounds()
    assert copies is not None
    rows = perfect_patterns_upto_three(sizes, copies, C)
    if len(rows) == 0 or len(rows) > MAX_COVER_PATTERNS * lp.T:
        return None
    _, types, _ = rows.sparse()
    if np.unique(types).size < lp.T:
        return None
    d = np.array([float(v) for v in lp.demand])
    master = MasterLP(d, np.ones(1))
    master.add_columns(0, rows)
    sol = master.solve()
    at_bound = C / float(sizes @ d)  # t of sum w / C bins
    return sol.t >= at_bound * (1 - 1e-9), [
        MixtureTerm(0, k, float(p)) for (_, k), p in zip(master.columns, sol.p, strict=True)
        if p > 1e-13]


def _certified(lp_bounded: ConfigurationLP, lp_free: ConfigurationLP,
               mixture: list[MixtureTerm], sizes: np.ndarray, t0: float, rounds: int,
               info: dict, how: str) -> tuple[CapacityResult, CapacityResult]:
    """Both LPs' results for a fractional packing at the continuous bound, each
    certified with prices proportional to the weights."""
    seconds = time.perf_counter() - t0
    out = [result_of_mixture(lp, mixture, sizes.astype(float),
                             how=f"{how}, prices proportional to the weights",
                             iterations=rounds, seconds=seconds,
                             extra={"perfect_bin_decomposition": info})
           for lp in (lp_bounded, lp_free)]
    return out[0], out[1]
