"""The solver of the configuration LP: enumeration or column generation, no certificate.

The model is :class:`capacity.configuration_model.ConfigurationLP` (PG21 eq. (4),
PG18 eqs. (2)-(3)); the HiGHS master is :class:`capacity._lp_highs.MasterLP`.
``method="enumerate"`` lists every maximal configuration (small cases);
``method="column-generation"`` prices columns with the exact knapsack of
:mod:`capacity.knapsack` (Gilmore & Gomory, Oper. Res. 9, 1961) and scales to
thousands of types. ``"auto"`` picks enumeration only when it is cheap.
:func:`solve_uncertified` returns the master's optimum, a mixture and prices, and how
the search ended; :mod:`capacity.configuration_lp` has them certified.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np

from capacity._lp_highs import MasterLP, MasterSolution
from capacity.certification import Stop
from capacity.configuration_model import ConfigurationLP, lemma2_bound
from capacity.configuration_rows import ConfigurationRows
from capacity.deadline import expired
from capacity.knapsack import (
    DP01_TABLE_BYTES,
    DP_MAX_CAPACITY,
    KnapsackResult,
    KnapsackTimeLimit,
    knapsack_bb,
    knapsack_dp,
    knapsack_dp2,
    knapsack_dp_bounded,
    knapsack_dp_cells,
    knapsack_exact,
    split_item_count,
)
from capacity.result import CapacityResult, MixtureTerm
from theory.budgets import MAX_CONFIGURATIONS, MAX_LP_TYPES, check_budget
from theory.configurations import feasible_configurations
from theory.numbers import FEASIBILITY_RTOL, Number, positive_int, to_float_checked
from theory.progress import Progress

__all__ = ["IterationLimit", "METHODS", "UncertifiedSolution", "solve_uncertified"]

METHODS = ("auto", "enumerate", "column-generation")


class IterationLimit(RuntimeError):
    """Column generation reached ``max_iterations`` rounds without an optimum."""


@dataclass(frozen=True)
class UncertifiedSolution:
    """What the solver found, before any certificate.

    ``value``: the master LP's optimum t; ``mixture`` its configurations with their
    weights (transfers carried out); ``prices``: the dual prices a certificate should
    check (the master's, or the sizes in the resource that binds PG21 Lemma 2 when the
    search stopped there); ``master_prices`` and ``class_bounds`` (pi_c / n_c): the
    master's own duals, reported when no certificate is asked for. ``stopped``: why the
    search ended short of proving its optimum (None: it did not), ``at_lemma2``: it
    stopped because the mixture met Lemma 2, ``target``: the caller's target (a float).
    """

    method: str
    value: float
    mixture: list[MixtureTerm]
    prices: np.ndarray
    master_prices: np.ndarray
    class_bounds: list[float]
    iterations: int
    columns: int
    stopped: Stop | None
    at_lemma2: bool
    target: float | None


#: Largest integer capacity priced exactly by dynamic programming in each iteration,
#: and beyond it the most cells (:func:`capacity.knapsack.knapsack_dp_cells`) of a
#: table priced exactly in each iteration (about 0.2 s: the raw Google trace's sizes,
#: to four significant digits, need 1.5e8 cells on a chain of grids instead of 5.4e9).
_DP_EXACT_MAX = 2**17
_DP_EXACT_CELLS = 200_000_000
#: Largest (C_0 + 1)(C_1 + 1) priced exactly by the two-resource dynamic program.
_DP2_EXACT_MAX = 250_000
#: Weight of the stability centre in Wentges dual smoothing (0 disables it); 0.5
#: took half the rounds of 0.8 on 1,000-type bin-packing LPs (benchmarks/README.md).
_SMOOTHING = 0.5
#: The weight then adapts every round (:func:`_next_weight`) unless configurations are
#: short (see _SHORT_COLUMN): it took the raw Google LP from 143 s (669 rounds) to 102 s
#: (378) and the two-resource Google bracket (1/800 x 1/50) from 18.7 s to 12.0 s, but
#: the ANI-shaped 1,000-item bin-packing LP from 14 s to 16-20 s (benchmarks/README.md).
_ADAPTIVE = True
#: Most columns a pricing round adds per server class, up to 1,200 types; beyond, one
#: per six types (up to 1,000): rho* of 2,000 sizes in (0.2, 0.7) took 89 rounds and
#: 6.8 s with 100 a round, 31 rounds and 5.3 s with 333; at 1,000 sizes more did not
#: help (benchmarks/README.md).
_COLUMNS_PER_ROUND = 100


#: Configurations of many jobs priced by a small exact one-resource table: a round adds
#: one column per this many table cells, at least _FEW_COLUMNS (see _columns_per_round).
_CELLS_PER_COLUMN = 1_000_000
_FEW_COLUMNS = 10


def _columns_per_round(T: int, pricers: Sequence[_Pricer] = ()) -> int:
    """Columns a round adds per server class.

    When configurations are long (not :attr:`_Pricer.short_columns`) and every class
    prices on an exact one-resource table, the rounds barely depend on how many
    columns each adds, while the master's re-solve grows with them: the level-8
    quantile bracket of Uniform(0.01, 0.19) (512 types, 8.8 million cells) took 164
    rounds and 8.1 s at 100 a round, 136 rounds and 4.7 s at 10. A large table makes a
    round dear instead, and more columns save rounds (the raw Google trace, 146 million
    cells: 217 rounds at 100 a round, 278 at 10): one column per _CELLS_PER_COLUMN
    cells, at least _FEW_COLUMNS, at most the usual number."""
    if T > 1200:
        usual = min(1000, T // 6)
    else:
        usual = min(_COLUMNS_PER_ROUND, max(20, T // 4))
    if not pricers or any(p.short_columns for p in pricers):
        return usual
    cells = [p.table_cells for p in pricers]
    if any(c is None for c in cells):
        return usual
    return min(usual, max(_FEW_COLUMNS, max(c for c in cells if c is not None)
                          // _CELLS_PER_COLUMN))


#: Column pool: once the master holds more than _POOL_FACTOR columns per row, columns
#: whose reduced cost stayed above _IDLE_REDUCED_COST for _POOL_AGE rounds are removed.
#: Short configurations (every class :attr:`_Pricer.short_columns`) keep a small pool,
#: _SHORT_POOL: their rounds are cheap and their masters degenerate, so the re-solve's
#: pivots, each dearer with every column, are what a round costs (Scholl_3-shaped,
#: 8 seeds: mean 3.17 -> 2.68 s; rho* of 10,000 sizes in (0.2, 0.7) 6.6 -> 6.2 s).
#: Long ones keep the large pool: there the small one cost rounds (the raw Google
#: trace 12.7 -> 53.5 s, rho_VQS 3.4 -> 6.1 s).
_POOL_FACTOR = 4
_POOL_AGE = 10
_SHORT_POOL = (1, 2)
_IDLE_REDUCED_COST = 1e-6
#: When the master's last re-solve took more simplex pivots than it has type rows (a
#: degenerate master: 1,000-item bin-packing LPs from about round 20 on) and a
#: configuration holds at most _SHORT_COLUMN jobs (capacity / smallest size), a round
#: asks the unbounded table for the best configuration through every type and
#: :func:`_disjoint_first` chooses among them (1,000-item AI/ANI/Scholl_3-shaped
#: bin-packing LPs 11, 38 and 9 % faster in one same-hour run). Otherwise the best
#: columns are kept: tracing every type's column back costs more than the master then
#: saves (rho* of 1,000 sizes in (0.2, 0.7): 1.7 s -> 2.6 s; the raw Google trace, up
#: to 6,435 jobs a configuration: 155 s -> 209 s).
_SHORT_COLUMN = 32
#: Most cells (:func:`capacity.knapsack.knapsack_dp_cells`) of the exact pricing table
#: that decides a round in which the rounded grid found nothing, when the table is too
#: large for exact pricing in every round (about 0.7 s on this project's machines).
_DP_PRICE_WORK = 500_000_000
#: Columns of the exact one-resource table: for each type, the best configuration
#: through it that fills the capacity exactly, when one improves the master; the best
#: within the capacity otherwise (the same exact-fill table gives both). An optimal
#: mixture wastes little room, and at PG21 Lemma 2's bound (rho* <= L / R-bar) none:
#: these columns cut the rounds of 1,000-item bin-packing LPs by a third to two thirds
#: (AI-shaped: unbounded LP 49 -> 31 rounds, bounded 46 -> 17; benchmarks/README.md,
#: session 30).
_FULL_COLUMNS = True
#: Grid of the heuristic dynamic program (sizes rounded up: its columns are feasible).
_DP_GRID = 2**14


class _Pricer:
    """Finds improving configurations of one server class for given prices.

    One resource: a dynamic program over an integer capacity grid returns, from one
    table, the best configuration containing each type (many columns per iteration).
    The grid is exact when sizes are integers (after scaling rationals) and the
    capacity is small; otherwise sizes are rounded *up* onto a grid (so the columns
    stay feasible) and optimality is finally proven by exact branch and bound.
    Several resources: branch and bound only.
    """

    def __init__(self, W: np.ndarray, cap: np.ndarray, integral: bool,
                 exact_fits: Callable[[np.ndarray], bool] | None = None,
                 rational: tuple[list, list] | None = None,
                 bounds: np.ndarray | None = None):
        self.W, self.cap, self.integral = W, cap, integral
        # rational inputs too large to scale to integers: float search with tolerance,
        # then every column is re-checked in exact arithmetic
        self.exact_fits = exact_fits
        self.unproven = False
        self.rational: tuple[list, list] | None = rational
        self.bounds = bounds
        self._choices: np.ndarray | None = None  # the bounded program's choice table
        self.grid: tuple[np.ndarray, int] | None = None
        self.grid_exact = False
        self.grid2: tuple[np.ndarray, tuple[int, int]] | None = None
        # one resource, at most _SHORT_COLUMN jobs a configuration
        positive = W[:, 0][W[:, 0] > 0] if W.shape[1] == 1 else W[:0, 0]
        self.short_columns = bool(positive.size) and cap[0] <= _SHORT_COLUMN * positive.min()
        #: set by column generation when the master is degenerate (:func:`_disjoint_first`)
        self.diversify = False
        #: the best configuration at the last smoothed prices (:meth:`smoothed`)
        self.best = np.zeros(len(W), dtype=np.int64)
        if (W.shape[1] == 2 and integral and bounds is None
                and (cap[0] + 1) * (cap[1] + 1) <= _DP2_EXACT_MAX):
            self.grid2 = (W.astype(np.int64), (int(cap[0]), int(cap[1])))
            self.grid_exact = True
        if W.shape[1] == 1:
            # beyond _DP_EXACT_MAX only the unbounded table (the bounded one has no
            # grid chain)
            if integral and (cap[0] <= _DP_EXACT_MAX or (
                    bounds is None and cap[0] <= DP_MAX_CAPACITY
                    and knapsack_dp_cells(W[:, 0].astype(np.int64), int(cap[0]))
                    <= _DP_EXACT_CELLS)):
                self.grid = (W[:, 0].astype(np.int64), int(cap[0]))
                self.grid_exact = True
            else:
                g = np.ceil(W[:, 0] / cap[0] * _DP_GRID * (1 + 1e-12)).astype(np.int64)
                self.grid = (np.maximum(g, 1), _DP_GRID)
            if bounds is not None and not self._bounded_table_fits():
                self.grid, self.grid_exact = None, False
        #: the exact one-resource table offers configurations that fill the capacity
        #: exactly first (:data:`_FULL_COLUMNS`)
        self.full_columns = _FULL_COLUMNS and self.grid_exact and self.grid2 is None

    @property
    def table_cells(self) -> int | None:
        """Cells of the exact one-resource pricing table, None without one."""
        if self.grid is None or not self.grid_exact or self.grid2 is not None:
            return None
        w, C = self.grid
        return knapsack_dp_cells(w, C)

    @property
    def adapts_smoothing(self) -> bool:
        """Adapt the smoothing weight (long configurations: rounds cost more than the
        master's re-solves)."""
        return not self.short_columns

    def candidates(self, max_columns: int) -> int:
        """Columns to ask of the unbounded table, for :meth:`choose` to take
        ``max_columns`` from (more when configurations are short)."""
        return len(self.W) if self.diversify and self.short_columns else max_columns

    def choose(self, cols: Sequence[np.ndarray], max_columns: int) -> Sequence[np.ndarray]:
        """Disjoint first when diversifying short unbounded configurations, else best
        first."""
        if self.diversify and self.short_columns and self.bounds is None:
            return _disjoint_first(cols, max_columns)
        return cols[:max_columns]

    def _bounded_table_fits(self) -> bool:
        assert self.grid is not None and self.bounds is not None
        w, C = self.grid
        return split_item_count(w, self.bounds, C) * (C + 1) <= DP01_TABLE_BYTES

    def _bounded(self, y: np.ndarray, w: np.ndarray, C: int,
                 max_columns: int = 1) -> KnapsackResult:
        """:func:`knapsack_dp_bounded` at the copy bounds, its choice table kept for
        the next round."""
        assert self.bounds is not None
        need = split_item_count(w, self.bounds, C) * (C + 1)
        if need <= DP01_TABLE_BYTES and (self._choices is None or self._choices.size < need):
            self._choices = np.empty(need, dtype=np.uint8)
        return knapsack_dp_bounded(y, w, C, self.bounds, max_columns=max_columns,
                                   choice_buffer=self._choices)

    def _bb(self, y: np.ndarray, thr: float):
        res = knapsack_bb(y, self.W, self.cap, threshold=thr, node_limit=2_000_000,
                          rtol=0.0 if self.integral else FEASIBILITY_RTOL, bounds=self.bounds)
        if res.proven:
            return [*res.improving, res.config]
        if self._exact_dp_affordable():
            w, C = self.W[:, 0].astype(np.int64), int(self.cap[0])
            try:
                dp = (knapsack_dp(y, w, C) if self.bounds is None
                      else self._bounded(y, w, C))
                return [dp.config]
            except ValueError:  # choice table too large: keep what the search found
                pass
        # budget exhausted: use what was found; if nothing, the optimum is unproven and
        # the certificate will say how far the answer can be off
        self.unproven = True
        return [*res.improving, res.config]

    def improving(self, y: np.ndarray, thr: float, max_columns: int) -> Sequence[np.ndarray]:
        """Columns priced above ``thr``; empty only if none exists (proven)."""
        cols: Sequence[np.ndarray] = self._improving(y, thr, max_columns)
        if self.exact_fits is not None:
            cols = [k for k in cols if self.exact_fits(k)]
            if not cols and self.rational is not None:
                # the float search (with tolerance) may only have found columns that
                # are infeasible exactly: decide in rational arithmetic
                rows, cap = self.rational
                try:
                    _v, k = knapsack_exact([Fraction(float(v)) for v in y], rows, cap,
                                           threshold=Fraction(thr),
                                           bounds=None if self.bounds is None
                                           else self.bounds.tolist())
                except KnapsackTimeLimit:  # the limit passed: nothing is proven here
                    self.unproven = True
                    return []
                cols = [] if k is None else [np.array(k, dtype=np.int64)]
        return cols

    def smoothed(self, ys: np.ndarray, y: np.ndarray, thr: float,
                 max_columns: int) -> tuple[Sequence[np.ndarray], float]:
        """Price at smoothed prices ``ys`` (exact grid only): the best configurations
        for ``ys`` that improve the master at its prices ``y``, and max_k <ys, k>."""
        assert self.grid_exact
        if self.grid2 is not None:
            res = knapsack_dp2(ys, self.grid2[0], self.grid2[1], per_type_threshold=0.0,
                               max_columns=max_columns)
            cands, value, self.best = res.improving, float(res.value), res.config
        else:
            assert self.grid is not None
            w, C = self.grid
            if self.bounds is None:
                free = knapsack_dp(ys, w, C, per_type_threshold=0.0,
                                   max_columns=self.candidates(max_columns),
                                   full_columns=self.full_columns)
                cands, value, self.best = free.improving, float(free.value), free.config
            else:
                free = knapsack_dp(ys, w, C, per_type_threshold=0.0, max_columns=max_columns,
                                   full_columns=self.full_columns)
                exact = self._bounded(ys, w, C, max_columns)
                cands = [*exact.improving, *(np.minimum(k, self.bounds) for k in free.improving)]
                value, self.best = float(exact.value), exact.config
        cols = _priced_above(cands, y, thr)
        if self.grid2 is None and self.bounds is None:
            cols = self.choose(cols, max_columns)
        if self.exact_fits is not None:
            cols = [k for k in cols if self.exact_fits(k)]
        return cols, value

    def _improving(self, y: np.ndarray, thr: float, max_columns: int) -> Sequence[np.ndarray]:
        self.last_max: float | None = None
        if self.grid2 is not None:
            res = knapsack_dp2(y, self.grid2[0], self.grid2[1], per_type_threshold=thr,
                               max_columns=max_columns)
            self.last_max = float(res.value)
            return [k for k in res.improving if float(k @ y) > thr]
        if self.grid is not None:
            w, C = self.grid
            if self.bounds is not None:
                # cheap columns first: the unbounded table's best pattern through each
                # type (filling C exactly if it can), capped at the bounds; the bounded
                # program only when none improves
                free = knapsack_dp(y, w, C, per_type_threshold=thr, max_columns=max_columns,
                                   full_columns=self.full_columns)
                capped = [np.minimum(k, self.bounds) for k in free.improving]
                cols = [k for k in capped if float(k @ y) > thr]
                if cols:
                    return cols
                if self.grid_exact and float(free.value) <= thr:
                    # no configuration at all prices above thr: none within the bounds
                    self.last_max = float(free.value)
                    return []
            if self.bounds is None:
                res = knapsack_dp(y, w, C, per_type_threshold=thr,
                                  max_columns=self.candidates(max_columns),
                                  full_columns=self.full_columns)
            else:
                res = self._bounded(y, w, C, max_columns)
            if self.grid_exact:
                self.last_max = float(res.value)
            cands = self.choose(_priced_above(res.improving, y, thr),
                                max_columns)
            if cands or self.grid_exact:
                return cands
            if self._exact_dp_affordable():
                # the rounded grid found nothing: decide with the exact table, which
                # also returns many columns (branch and bound stalls on prices this flat)
                w, C = self.W[:, 0].astype(np.int64), int(self.cap[0])
                res = (knapsack_dp(y, w, C, per_type_threshold=thr,
                                   max_columns=self.candidates(max_columns))
                       if self.bounds is None
                       else self._bounded(y, w, C, max_columns))
                self.last_max = float(res.value)
                return self.choose(_priced_above(res.improving, y, thr),
                                   max_columns)
        return [k for k in self._bb(y, thr) if float(k @ y) > thr]

    def _exact_dp_affordable(self) -> bool:
        """One resource, integer sizes, and the exact table within its work budget."""
        if self.W.shape[1] != 1 or not self.integral or self.cap[0] > DP_MAX_CAPACITY:
            return False
        C = int(self.cap[0])
        w = self.W[:, 0].astype(np.int64)
        if self.bounds is None:
            return knapsack_dp_cells(w, C) <= _DP_PRICE_WORK
        items = split_item_count(w, self.bounds, C)
        return items * (C + 1) <= DP01_TABLE_BYTES and items * C <= _DP_PRICE_WORK


def _next_weight(weight: float, subgradient: np.ndarray, towards: np.ndarray) -> float:
    """Wentges weight of the stability centre after a smoothed round (the auto-adaptive
    rule of Pessoa, Sadykov, Uchoa & Vanderbeck 2018): if the Lagrangian bound's
    subgradient at the smoothed prices falls towards the master's prices (``towards``
    = master prices - centre), smooth less, else more."""
    if float(subgradient @ towards) < 0:
        return max(0.0, weight - 0.1)
    return weight + (1 - weight) * 0.1


def _priced_above(cols: Sequence[np.ndarray], y: np.ndarray, thr: float
                  ) -> Sequence[np.ndarray]:
    """The columns k of ``cols`` with <y, k> above ``thr``, in their order."""
    if isinstance(cols, ConfigurationRows):
        return cols[np.flatnonzero(cols.values(y) > thr)]
    return [k for k in cols if float(k @ y) > thr]


def _disjoint_first(cols: Sequence[np.ndarray], limit: int) -> Sequence[np.ndarray]:
    """At most ``limit`` of ``cols`` (best first): first those sharing no type with a
    better one kept before, then the others in their order.

    The dynamic program's best configuration through each type mostly completes it
    with the same few types; a round of columns that also holds a set of disjoint
    ones gives the master configurations it can combine, which roughly halved the
    master's simplex pivots on 1,000-item AI/ANI-shaped LPs (benchmarks/README.md)."""
    if len(cols) <= 1:
        return cols[:limit]
    rows = cols if isinstance(cols, ConfigurationRows) else None
    used = np.zeros(len(cols[0]) if rows is None else rows.T, dtype=bool)
    first, rest = [], []
    for r in range(len(cols)):
        types = np.flatnonzero(cols[r]) if rows is None else rows.types(r)
        if used[types].any():
            rest.append(r)
        else:
            first.append(r)
            used[types] = True
    chosen = (first + rest)[:limit]
    return [cols[r] for r in chosen] if rows is None else rows[np.array(chosen, dtype=np.int64)]


def _enumerate_columns(lp: ConfigurationLP, max_configurations: int) -> list[np.ndarray]:
    cols = []
    fit = lp.fits_class()
    for c in range(len(lp.caps)):
        idx = np.flatnonzero(fit[c])
        K = np.zeros((0, lp.T), dtype=np.int64)
        if idx.size:
            sub = feasible_configurations([lp.rows[j] for j in idx], lp.caps[c], maximal=True,
                                          max_configurations=max_configurations)
            K = np.zeros((sub.shape[0], lp.T), dtype=np.int64)
            K[:, idx] = sub
            most = lp.copy_bounds()
            if most is not None:
                # a configuration within the bounds lies below a maximal one, hence below
                # that one capped at the bounds: the capped set dominates (covering LP)
                K = np.unique(np.minimum(K, most), axis=0)
        cols.append(K)
    return cols


def _given_columns(lp: ConfigurationLP, columns: Sequence[tuple[int, np.ndarray]],
                   known: set[tuple[int, bytes, bytes]]) -> dict[int, np.ndarray]:
    """Caller's starting configurations by class, capped at the copy bounds, without
    those in ``known``; ``ValueError`` for a class, shape or configuration that does not
    fit this LP."""
    most = lp.copy_bounds()
    out: dict[int, list[np.ndarray]] = {}
    for c, config in columns:
        if not (isinstance(c, int | np.integer) and 0 <= c < len(lp.caps)):
            raise ValueError(f"a starting column's server class must be one of 0..."
                             f"{len(lp.caps) - 1}, got {c!r}")
        k = np.asarray(config)
        if k.shape != (lp.T,) or k.dtype.kind not in "iu" or np.any(k < 0):
            raise ValueError(f"a starting column must be {lp.T} non-negative integer "
                             f"counts, got {config!r}")
        k = k.astype(np.int64) if most is None else np.minimum(k, most).astype(np.int64)
        if not lp.exact_fits(int(c), k):
            raise ValueError(f"starting column {k.tolist()} does not fit a server of "
                             f"class {c}")
        key = _column_key(int(c), k)
        if k.any() and key not in known:
            known.add(key)
            out.setdefault(int(c), []).append(k)
    return {c: np.array(K) for c, K in out.items()}


def _first_fit_decreasing_columns(lp: ConfigurationLP, W: np.ndarray, C: np.ndarray,
                                  copies: int = 4) -> list[ConfigurationRows]:
    """Warm start: distinct bins of a First-Fit-Decreasing packing of the demand.

    Each type appears about ``copies * d_j / mean(d)`` times; the packing's bins are
    feasible configurations close to an optimal mixture, so column generation starts
    near the optimum instead of from single-type columns.
    """
    d = np.array([float(v) for v in lp.demand])
    pos = d > 0
    mult = np.zeros(lp.T, dtype=np.int64)
    mult[pos] = np.maximum(1, np.rint(copies * d[pos] / d[pos].mean())).astype(np.int64)
    most = lp.copy_bounds()
    if most is not None:
        mult = np.minimum(mult, most)
    out = []
    fit = lp.fits_class()
    for c in range(len(lp.caps)):
        share = (W / C[c]).max(axis=1)
        order = [j for j in np.argsort(-share, kind="stable") if fit[c, j] and mult[j] > 0]
        resid = np.empty((int(mult[order].sum()) if order else 0, lp.D))
        members: list[list[int]] = []  # types in each bin, one entry per job
        for j in order:
            need = W[j] * (1 - 1e-12)
            for _ in range(int(mult[j])):
                fits = np.all(resid[:len(members)] >= need, axis=1)
                b = int(fits.argmax()) if len(members) else 0
                if len(members) and fits[b]:
                    resid[b] -= W[j]
                    members[b].append(int(j))
                else:
                    resid[len(members)] = C[c] - W[j]
                    members.append([int(j)])
        distinct = list(dict.fromkeys(tuple(m) for m in members))  # in FFD order
        jobs = np.full((len(distinct), max(map(len, distinct), default=1)), -1,
                       dtype=np.int64)
        for b, m in enumerate(distinct):
            jobs[b, :len(m)] = m
        out.append(ConfigurationRows(jobs, lp.T))
    return out


def _column_key(c: int, k: np.ndarray) -> tuple[int, bytes, bytes]:
    """Hashable identity of column k of class c (sparse: columns of many types are
    mostly zeros, and hashing them whole dominated large LPs)."""
    nz = np.flatnonzero(k)
    return c, nz.tobytes(), k[nz].tobytes()


def _supply(master: MasterLP, sol) -> np.ndarray:
    """Supply n_c sum_k p_ck k_j of every type, after the master's transfers."""
    used = np.flatnonzero(sol.p > 0)
    supply = np.zeros(master.T)
    if used.size:
        cols = [master.columns[i] for i in used]
        weight = np.array([master.n[c] for c, _k in cols]) * sol.p[used]
        supply = weight @ np.array([k for _c, k in cols], dtype=float)
    return supply + master.transferred(sol.transfers) if master.transfers else supply


def _mixture_value(master: MasterLP, sol, d: np.ndarray) -> float:
    """t supported by the master's mixture once its transfers are carried out
    (:func:`_pure_mixture`)."""
    pos = d > 0
    return float(np.min(_supply(master, sol)[pos] / d[pos]))



def _pure_mixture(master: MasterLP, sol, sizes: np.ndarray,
                  most: np.ndarray | None = None) -> list[MixtureTerm]:
    """The master's mixture with its transfers carried out in the configurations.

    A transfer (i, j, ...) of x supply units takes x / (q n_c) of weight from columns
    of class c holding q copies of i and gives it to the same column with each i
    replaced by j, ... (which fit in its place, Ben Amor et al. 2006; q is cut to the
    copy bounds): the supply of every type is
    that of the master with transfers, and every configuration stays feasible. Moves
    run from the largest source type down, so an i moved in from a larger type can
    move on.

    With copy bounds ``most`` (single moves i -> j, see
    :func:`_dual_optimal_inequalities`), only columns with room below the bounds for
    the jobs moved in give weight; slots of i that find none pass on with j's own move,
    to the next smaller type. This is greedy: the caller checks the supply.
    """
    cls: list[int] = []
    cfg: list[np.ndarray] = []
    wt: list[float] = []
    holders: dict[int, list[int]] = {}  # type -> terms whose configuration holds it

    def add(c: int, k: np.ndarray, w: float) -> None:
        for j in np.flatnonzero(k):
            holders.setdefault(int(j), []).append(len(cfg))
        cls.append(c)
        cfg.append(k)
        wt.append(w)

    def swap(i: int, into: tuple[int, ...], amount: float) -> float:
        """Put ``into`` in place of as many i as fit in each configuration holding
        one, in up to ``amount`` supply units; the rest."""
        hold = holders.get(i, [])
        at = 0
        per = {j: into.count(j) for j in into}
        while amount > 0 and at < len(hold):  # terms added here are visited too
            m = hold[at]
            at += 1
            q = int(cfg[m][i])
            if most is not None:
                q = min(q, *((int(most[j]) - int(cfg[m][j])) // c for j, c in per.items()))
            if wt[m] <= 0 or q <= 0:
                continue
            # one copy at a time made a configuration of 10^9 jobs as many terms
            c = cls[m]
            take = min(wt[m], amount / (q * master.n[c]))
            moved = cfg[m].copy()
            moved[i] -= q
            for j, cj in per.items():
                moved[j] += q * cj
            wt[m] -= take
            add(c, moved, take)
            amount -= take * q * master.n[c]
        return amount

    for (c, k), w in zip(master.columns, sol.p, strict=True):
        if w > 0:
            add(c, k, float(w))
    moves = sorted((n for n, x in enumerate(sol.transfers) if x > 0),
                   key=lambda n: -float(sizes[master.transfers[n][0]]))
    passing: dict[int, list[tuple[int, float]]] = {}  # type -> (slot type, units) moving on
    for n in moves:
        i, *into = master.transfers[n]
        left = float(sol.transfers[n])
        for slot, units in [*passing.pop(i, []), (i, left)]:
            units = min(units, left)
            if units <= 0:
                break
            left -= units
            rest = swap(slot, tuple(into), units)
            if rest > 0 and most is not None:
                passing.setdefault(into[0], []).append((slot, rest))
    merged: dict[tuple[int, bytes, bytes], list] = {}
    for c, k, w in zip(cls, cfg, wt, strict=True):
        if w > 1e-13:
            key = _column_key(c, k)
            if key in merged:
                merged[key][2] += w
            else:
                merged[key] = [c, k, w]
    return [MixtureTerm(c, k, w) for c, k, w in merged.values()]


def _warm_columns(lp: ConfigurationLP, warm: CapacityResult,
                  starts: Sequence[np.ndarray | ConfigurationRows]
                  ) -> tuple[list[np.ndarray | ConfigurationRows], np.ndarray | None]:
    """Starting columns plus ``warm``'s configurations capped at the copy bounds, and
    its dual prices scaled like the master's (d.y = 1) as a stability centre.

    ``warm``'s types are matched to this LP's by size; this LP may have more (a finer
    partition): those start at the price of the next larger matched size (one
    resource), which keeps the centre's bound valid, as any prices do."""
    key = [r[0] if lp.D == 1 else tuple(r) for r in lp.rows]
    where = {s: j for j, s in enumerate(key)}
    perm = np.array([where.get(s, -1) for s in warm.sizes], dtype=np.int64)
    if (np.any(perm < 0) or len(set(perm.tolist())) != len(perm)
            or warm.servers != sum(lp.counts)):
        raise ValueError(f"warm_start solves a different LP ({len(warm.sizes)} types, "
                         f"{warm.servers} servers; this one has {lp.T} types, not all of "
                         f"them, and {sum(lp.counts)} servers)")
    most = lp.copy_bounds()
    out: list[list[np.ndarray]] = [[np.asarray(K)] for K in starts]
    y_warm = np.full(lp.T, np.nan)
    y_warm[perm] = np.maximum(np.asarray(warm.dual, dtype=float), 0.0)
    W, C, integral = lp.pricing_data()
    children: dict[int, list[int]] = {}  # matched type -> smaller unmatched ones
    if lp.D == 1 and len(perm) < lp.T:
        order = np.argsort(-W[:, 0], kind="stable")
        ys = y_warm[order]
        known = np.flatnonzero(~np.isnan(ys))
        # each unmatched type takes the price of the next larger matched one; above the
        # largest matched size, that one's price scaled by size
        nxt = np.maximum.accumulate(np.where(np.isnan(ys), -1, np.arange(lp.T)))
        for i in np.flatnonzero(np.isnan(ys)):
            ref = nxt[i] if nxt[i] >= 0 else known[0]
            ys[i] = ys[ref] * (1.0 if nxt[i] >= 0 else W[order[i], 0] / W[order[ref], 0])
            if nxt[i] >= 0:
                children.setdefault(int(order[ref]), []).append(int(order[i]))
        y_warm[order] = ys
    y_warm = np.nan_to_num(y_warm, nan=0.0)
    spread = max((len(v) for v in children.values()), default=0)
    for term in warm.mixture:
        if not 0 <= term.server_class < len(out):
            raise ValueError(f"warm_start uses server class {term.server_class}; this LP "
                             f"has {len(out)}")
        k = np.zeros(lp.T, dtype=np.int64)
        k[perm] = np.asarray(term.config, dtype=np.int64)
        if not lp.exact_fits(term.server_class, k):
            raise ValueError(f"a configuration of warm_start does not fit a server of "
                             f"class {term.server_class}: it solves a different LP")
        new = [k]
        # a finer partition: the same column with its jobs moved to the smaller types
        # split off below them (always feasible); with equal halves, the two columns at
        # half weight cover both as the coarse one did, so the master starts at the
        # coarse optimum
        for v in range(spread):
            shifted = k.copy()
            for m, kids in children.items():
                if k[m] and v < len(kids):
                    shifted[kids[v]] += k[m]
                    shifted[m] = 0
            new.append(shifted)
        if most is not None and np.any(k > most):
            new = [np.minimum(k, most)]
            if lp.D == 1:
                new.append(_refill(new[0], W[:, 0], float(C[term.server_class, 0]), most,
                                   y_warm, 0.0 if integral else FEASIBILITY_RTOL))
        out[term.server_class].extend(new)
    d = np.array([float(v) for v in lp.demand])
    scale = float(y_warm @ d)
    centre = y_warm / scale if scale > 0 and np.all(np.isfinite(y_warm)) else None
    return [np.vstack(K) for K in out], centre


def _refill(k: np.ndarray, w: np.ndarray, cap: float, most: np.ndarray,
            y: np.ndarray, rtol: float) -> np.ndarray:
    """``k`` (one resource) refilled greedily: while some type below its copy bound
    fits the free capacity, add the one of highest price ``y``. Sizes ``w`` are the
    pricing data: integers (``rtol`` 0, exact) or floats (``rtol`` the feasibility
    tolerance)."""
    k = k.copy()
    free = cap - float(w @ k)
    while True:
        ok = np.flatnonzero((k < most) & (w <= free + rtol * cap) & (y > 0))
        if ok.size == 0:
            return k
        j = int(ok[np.argmax(y[ok])])
        k[j] += 1
        free -= float(w[j])


def _dual_optimal_inequalities(sizes: np.ndarray, copies: np.ndarray | None = None,
                               demand: Sequence[Number] | None = None
                               ) -> list[tuple[int, ...]]:
    """Transfer columns for one resource: i -> next smaller type (y_i >= y_j), and
    i -> (j, k) with s_j <= s_i / 2 and s_k <= s_i - s_j the largest such (y_i >= y_j + y_k).

    With copy bounds n (patterns hold at most n_j jobs of type j) and demand d, only
    the moves i -> j with d_i / n_i >= d_j / n_j (all of them for a bin-packing
    instance, where d is proportional to n). One such move is dual-optimal: a mixture
    using it for x units either supplies j without it (drop it) or holds more than x
    jobs i in patterns with fewer than n_j of j (patterns full of j weigh less than
    d_j t / n_j when j falls short, so they hold fewer than n_i d_j t / n_j <= d_i t
    jobs i, while i supplies at least d_i t + x), where i is swapped for j. Along a
    chain :func:`_pure_mixture` carries the moves out greedily and column generation
    closes them if that falls short, so no answer rests on the chain. (Two j's in
    place of one i may exceed n_j: the pairs are not offered.)
    """
    asc = np.argsort(sizes, kind="stable")
    srt = sizes[asc]
    out: list[tuple[int, ...]] = [(int(a), int(b)) for a, b in zip(asc[::-1], asc[::-1][1:],
                                                                    strict=False)]
    if copies is not None:
        if demand is None:
            raise ValueError("moves under copy bounds need the demand")
        return [(i, j) for i, j in out if demand[i] * int(copies[j]) >= demand[j] * int(copies[i])]
    for i in range(len(sizes)):
        pj = int(np.searchsorted(srt, sizes[i] / 2, side="right")) - 1
        if pj < 0:
            continue
        j = int(asc[pj])
        pk = int(np.searchsorted(srt, sizes[i] - sizes[j], side="right")) - 1
        if pk >= 0:
            out.append((i, j, int(asc[pk])))
    return out


def solve_uncertified(
    lp: ConfigurationLP,
    *,
    method: str = "auto",
    enumerate_limit: int = 20_000,
    max_iterations: int = 100_000,
    max_types: int = MAX_LP_TYPES,
    max_configurations: int = MAX_CONFIGURATIONS,
    warm_start: CapacityResult | None = None,
    target: float | None = None,
    columns: Sequence[tuple[int, np.ndarray]] | None = None,
) -> UncertifiedSolution:
    """Solve ``max t`` of the configuration LP; no certificate (see
    :func:`capacity.configuration_lp.solve_configuration_lp` for the arguments).

    Raises ``ValueError`` for an unknown method or bad arguments,
    :class:`theory.budgets.BudgetExceeded` beyond ``max_types`` (and, for
    ``method="enumerate"``, ``max_configurations``), :class:`capacity._lp_highs.LPSolveError`
    when HiGHS fails and :class:`IterationLimit` after ``max_iterations`` rounds.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    positive_int(max_iterations, name="max_iterations")
    check_budget(lp.T, positive_int(max_types, name="max_types"),
                 what=f"a configuration LP of {lp.T:,} job types", option="max_types",
                 unit="types", hint="bracket the sizes on a coarser grid or partition")
    positive_int(max_configurations, name="max_configurations")
    if warm_start is not None and not isinstance(warm_start, CapacityResult):
        raise TypeError(f"warm_start must be a solved LP (a CapacityResult), got "
                        f"{type(warm_start).__name__}")
    W, C, integral = lp.pricing_data()
    d = np.array([float(v) for v in lp.demand])
    counts = np.array(lp.counts, dtype=float)
    master = MasterLP(d, counts)
    chosen = method
    if method == "auto":
        chosen = "enumerate" if lp.T <= 8 and lp.max_items() <= 12 else "column-generation"
        if chosen == "enumerate":
            try:
                cols = _enumerate_columns(lp, min(enumerate_limit, max_configurations))
            except ValueError:
                chosen = "column-generation"
    unproven = reached = at_lemma2 = timed_out = False
    l2 = lemma2_bound(lp)
    # the last mixture carried out under copy bounds, with the solution it came from
    carried: list[tuple[MasterSolution, list[MixtureTerm]]] = []
    if chosen == "enumerate":
        if method == "enumerate":
            cols = _enumerate_columns(lp, max_configurations)
        for c, K in enumerate(cols):
            master.add_columns(c, K)
        sol = master.solve()
        iterations = 1
    else:
        exact_fits = None if integral or not lp.exact else lp.exact_fits
        # FFD bins cover every type with demand; homogeneous columns floor(C/s_j) e_j
        # as well cost more than they saved (rho* of 10,000 sizes: 31 s -> 18 s)
        starts: Sequence[np.ndarray | ConfigurationRows] = _first_fit_decreasing_columns(
            lp, W, C)
        center: np.ndarray | None = None
        if warm_start is not None:
            starts, center = _warm_columns(lp, warm_start, starts)
        for c, start in enumerate(starts):
            master.add_columns(c, start if exact_fits is None else np.array(
                [k for k in start if exact_fits(c, k)], dtype=np.int64).reshape(-1, lp.T))
        if columns is not None:
            known = {_column_key(c, k) for c, k in master.columns}
            for c, K in _given_columns(lp, columns, known).items():
                master.add_columns(c, K)
        if lp.D == 1:
            moves = _dual_optimal_inequalities(W[:, 0], lp.copy_bounds(), lp.demand)
            if exact_fits is not None:  # float sizes of exact rationals: check each move
                size = [Fraction(r[0]) for r in lp.rows]
                moves = [m for m in moves if sum(size[j] for j in m[1:]) <= size[m[0]]]
            master.add_transfers(moves)
        iterations = 0
        if target is not None:
            target = to_float_checked(target, "target")
            if target < 0:
                raise ValueError(f"target must be >= 0, got {target}")
        seen = {_column_key(c, k) for c, k in master.columns}
        most = lp.copy_bounds()

        def moves_fall_short(sol: MasterSolution) -> bool:
            """Under copy bounds, the moves are carried out greedily; when that mixture
            supplies less than the master, the moves are closed and column generation
            goes on from its columns (it always can: closing them never cuts the LP)."""
            if most is None or not sol.transfers.any():
                return False
            mix = _pure_mixture(master, sol, W[:, 0], most)
            carried[:] = [(sol, mix)]
            supply = np.zeros(lp.T)
            for term in mix:
                supply += counts[term.server_class] * term.weight * term.config
            if np.all(supply >= sol.t * (1 - 1e-9) * d) and all(
                    np.all(term.config <= most) for term in mix):
                return False
            master.close_transfers()
            for c in range(len(lp.caps)):
                new = [t.config for t in mix if t.server_class == c
                       and _column_key(c, t.config) not in seen]
                seen.update(_column_key(c, k) for k in new)
                if new:
                    master.add_columns(c, np.array(new))
            return True
        # a mixture within 1e-9 of PG21 Lemma 2 is optimal to 1e-9, and prices
        # proportional to the sizes prove it: the LP's own dual tail is not needed
        stop_at = None if l2 is None else float(l2[0]) * (1 - 1e-9)
        small = lp.T <= 20
        pricers = [_Pricer(W, C[c], integral,
                           None if exact_fits is None else partial(exact_fits, c),
                           (lp.rows, lp.caps[c]) if exact_fits is not None and small else None,
                           lp.copy_bounds())
                   for c in range(len(lp.caps))]
        max_cols = _columns_per_round(lp.T, pricers)
        pool_factor, pool_age = (_SHORT_POOL if all(p.short_columns for p in pricers)
                                 else (_POOL_FACTOR, _POOL_AGE))
        smoothing = all(p.grid_exact for p in pricers) and _SMOOTHING > 0
        weight = _SMOOTHING
        adaptive = _ADAPTIVE and all(p.adapts_smoothing for p in pricers)
        best_bound = np.inf
        refreshed = 0  # re-solves in a row that found only known columns
        idle = np.zeros(0, dtype=np.int64)  # rounds each column has priced out of the basis
        prog = Progress(f"column generation ({lp.T:,} types)", unit="rounds")
        while True:
            iterations += 1
            if iterations > 1:
                prog.update(iterations - 1, note=f"LP value {sol.t:.8g}")
            if iterations > max_iterations:
                raise IterationLimit(f"column generation did not converge in {max_iterations} "
                                   "iterations")
            sol = master.solve()
            if expired():  # capacity.time_limit: keep what the certificate proves
                timed_out = True
                break
            if target is not None and _mixture_value(master, sol, d) >= target * (1 + 1e-9):
                reached = True
                break
            # sol.t first: the mixture's supply is O(columns x T) to add up
            if stop_at is not None and sol.t >= stop_at and \
                    _mixture_value(master, sol, d) >= stop_at and not moves_fall_short(sol):
                at_lemma2 = True
                break
            rc = master.reduced_costs()
            for p in pricers:
                # many pivots for few new columns: diversify the next ones
                p.diversify = sol.iterations > lp.T
            idle = np.concatenate([idle[:len(rc)], np.zeros(len(rc) - min(len(idle), len(rc)),
                                                         dtype=np.int64)])
            idle = np.where(rc > _IDLE_REDUCED_COST, idle + 1, 0)
            thrs = [sol.pi[c] / counts[c] * (1 + 1e-9) + 1e-12 for c in range(len(pricers))]
            found: list[Sequence[np.ndarray]] = [[] for _ in pricers]
            if smoothing and center is not None:
                # Wentges smoothing: price at a convex combination of the best-bound
                # prices and the master's prices; fall back to plain pricing on a miss
                # a warm centre is priced alone first, to learn its bound
                alpha = 1.0 if best_bound == np.inf else weight
                ys = alpha * center + (1 - alpha) * sol.y
                bound = 0.0
                best = np.zeros(lp.T)
                for c, pricer in enumerate(pricers):
                    found[c], beta = pricer.smoothed(ys, sol.y, thrs[c], max_cols)
                    bound += counts[c] * beta
                    best += counts[c] * pricer.best
                bound /= float(ys @ d)
                if adaptive and best_bound < np.inf:
                    weight = _next_weight(weight, best - bound * d, sol.y - center)
                if bound < best_bound:
                    best_bound, center = bound, ys
            if not any(found):
                bound = 0.0
                for c, pricer in enumerate(pricers):
                    found[c] = pricer.improving(sol.y, thrs[c], max_cols)
                    # no maximum when cheap columns made the exact program unnecessary
                    bound += counts[c] * (np.inf if pricer.last_max is None
                                          else pricer.last_max)
                if smoothing and bound / float(sol.y @ d) < best_bound:
                    best_bound, center = bound / float(sol.y @ d), sol.y.copy()
            added = 0
            for c, cands in enumerate(found):
                new = []
                for k in cands:
                    key = _column_key(c, k)
                    if key not in seen:
                        seen.add(key)
                        new.append(k)
                if new:
                    master.add_columns(c, np.array(new))
                    added += len(new)
            if added == 0 and any(p.unproven for p in pricers):
                unproven = True
                timed_out = timed_out or expired()  # the exact search stopped at the limit
                break
            for p in pricers:
                p.unproven = False
            if added == 0:
                # the transfers stay: they are dual-optimal, so prices that price out
                # are feasible for the LP without them, and _pure_mixture carries out
                # the moves in the configurations (within copy bounds, or they close)
                if any(found) and refreshed < 2:
                    # only columns already in the master price above its duals: the
                    # warm-started simplex stopped short; solve again with tighter
                    # tolerances, then once more from scratch
                    master.refresh()
                    refreshed += 1
                    continue
                if moves_fall_short(sol):
                    continue
                break
            refreshed = 0
            # column pool: forget columns long out of the basis once the master is large
            # (they can come back through pricing); the basis stays valid
            if len(master.columns) > pool_factor * (lp.T + len(lp.caps)):
                old_cols = np.flatnonzero(idle >= pool_age)
                for i in old_cols:
                    c, k = master.columns[i]
                    seen.discard(_column_key(c, k))
                master.remove_columns(old_cols)
                keep = np.ones(len(idle), dtype=bool)
                keep[old_cols] = False
                idle = idle[keep]
        prog.__exit__(None, None, None)
    if carried and carried[0][0] is sol:
        mixture = carried[0][1]
    elif sol.transfers.any():
        mixture = _pure_mixture(master, sol, W[:, 0], lp.copy_bounds())
    else:
        mixture = [
            MixtureTerm(c, k, float(p))
            for (c, k), p in zip(master.columns, sol.p, strict=True)
            if p > 1e-13
        ]
    stopped: Stop | None = ("target" if reached else "time_limit" if timed_out
                            else "pricing_budget" if chosen != "enumerate" and unproven
                            else None)
    return UncertifiedSolution(
        method=chosen,
        value=sol.t,
        mixture=mixture,
        prices=W[:, l2[1]].astype(float) if at_lemma2 and l2 is not None else sol.y,
        master_prices=sol.y,
        class_bounds=[float(v) for v in sol.pi / counts],
        iterations=iterations,
        columns=len(master.columns),
        stopped=stopped,
        at_lemma2=at_lemma2,
        target=target,
    )
