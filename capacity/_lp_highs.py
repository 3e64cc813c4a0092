"""The configuration LP in HiGHS, with columns added incrementally (column generation).

Master problem, for server classes c (``n_c`` identical servers with configuration
set ``K_c``) and a direction ``d`` (the probabilities P of PG21 eq. (4), or a
workload direction of PG18 eq. (2)-(3)):

.. math::
    \\max t \\quad\\text{s.t.}\\quad
    \\sum_c n_c \\sum_{k \\in K_c} k_j p_{ck} \\ge d_j t \\ (\\text{all } j),\\qquad
    \\sum_{k \\in K_c} p_{ck} \\le 1 \\ (\\text{all } c),\\qquad p, t \\ge 0.

Its dual prices ``y_j >= 0`` (rows j) and ``pi_c >= 0`` (rows c) satisfy
``sum_j d_j y_j = 1`` and ``t* = sum_c pi_c``; a configuration k of class c improves
the master iff ``n_c <y, k> > pi_c``.

With one server class (bin packing, rho* on identical servers) HiGHS solves the
covering form instead, ``min sum_k x_k`` s.t. ``sum_k k_j x_k >= d_j`` (Gilmore &
Gomory 1961): the same LP with ``t = n / sum_k x_k`` and ``p = x / sum_k x_k``, prices
``y = u / <d, u>`` from its prices u, but without the column of t, which meets every
row (the 1,000-item Scholl_3-shaped master re-solves 15-20 % faster, rho* of 1,000
sizes 30 %). Its optimum is converted back, so callers see the form above.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import highspy
import numpy as np

from capacity._highs import new_highs
from capacity.configuration_rows import ConfigurationRows

__all__ = ["MasterLP", "MasterSolution", "LPSolveError"]


class LPSolveError(RuntimeError):
    """HiGHS did not return an optimal solution; the message keeps its status.

    Raised by the configuration-LP master (:func:`capacity.rho_star`,
    :func:`capacity.solve_configuration_lp`, :class:`capacity.CapacityRegion`) when
    HiGHS refuses a column or ends a solve in any status but optimal. It is a
    ``RuntimeError`` that the command line reports with exit status 3; the one argument
    is the message, which names HiGHS's status in words.

    References
    ----------
    docs/design.md, section Errors.

    Examples
    --------
    >>> from capacity import LPSolveError
    >>> e = LPSolveError("configuration LP not solved to optimality "
    ...                  "(HiGHS status Time limit reached)")
    >>> isinstance(e, RuntimeError)
    True
    >>> print(e)
    configuration LP not solved to optimality (HiGHS status Time limit reached)
    """


# Coefficients n_c k_j above this are refused: HiGHS drops matrix values >= 1e15
# (its large_matrix_value) and loses accuracy well before that.
MAX_COEFFICIENT = 1e12


@dataclass
class MasterSolution:
    t: float
    y: np.ndarray  # prices of the type rows, >= 0
    pi: np.ndarray  # prices of the class rows, >= 0
    p: np.ndarray  # weights of every column added so far
    iterations: int
    #: amounts moved by each transfer column (:meth:`MasterLP.add_transfers`), in
    #: supply units; empty when there are none
    transfers: np.ndarray = field(default_factory=lambda: np.zeros(0))


class MasterLP:
    """Incremental HiGHS model of the configuration LP (see module docstring)."""

    def __init__(self, demand: np.ndarray, class_counts: np.ndarray):
        d = np.asarray(demand, dtype=float)
        n = np.asarray(class_counts, dtype=float)
        if np.any(d < 0) or not np.any(d > 0):
            raise ValueError("demand must be non-negative with a positive entry")
        self.T, self.C = len(d), len(n)
        self.n = n
        # t is solved for the direction d / max(d) (HiGHS drops matrix values >= 1e15)
        # and reported for d: t = t' / scale, and the prices likewise.
        self._scale = float(d.max())
        d = d / self._scale
        self._d = d
        self._covering = self.C == 1
        h = new_highs()
        # primal simplex: added columns keep the basis primal feasible
        h.setOptionValue("simplex_strategy", 4)
        inf = highspy.kHighsInf
        if self._covering:
            # rows: T type rows sum_k k_j x_k >= d_j; no column of t
            h.addRows(self.T, d, np.full(self.T, inf), 0, np.zeros(1, dtype=np.int32),
                      np.zeros(0, dtype=np.int32), np.zeros(0))
            self._ncols = 0
        else:
            # rows: T type rows (>= 0), C class rows (<= 1)
            lower = np.concatenate([np.zeros(self.T), np.full(self.C, -inf)])
            upper = np.concatenate([np.full(self.T, inf), np.ones(self.C)])
            h.addRows(self.T + self.C, lower, upper, 0, np.zeros(1, dtype=np.int32),
                      np.zeros(0, dtype=np.int32), np.zeros(0))
            # column t: cost -1 (HiGHS minimises), coefficient -d_j in row j
            nz = np.flatnonzero(d > 0).astype(np.int32)
            h.addCol(-1.0, 0.0, inf, len(nz), nz, -d[nz])
            if h.getNumCol() != 1:
                raise LPSolveError("HiGHS refused the column of t")
            self._ncols = 1  # HiGHS columns so far (t first)
        self.h = h
        self.columns: list[tuple[int, np.ndarray]] = []  # (class, config)
        self._col_index: list[int] = []  # HiGHS index of each configuration column
        self._transfer: list[int] = []  # HiGHS indices of transfer columns
        self.transfers: list[tuple[int, ...]] = []  # (i, j, ...) of each transfer column
        self._tight = False  # feasibility tolerances tightened by refresh()
        self._sum_x = 1.0  # sum_k x_k at the last covering optimum, 0 if infeasible

    def add_transfers(self, pairs: list[tuple[int, ...]]) -> None:
        """Columns ``(i, j, ...)`` moving supply from type i to types j, ... that fit in
        its place together.

        These are the primal side of dual-optimal inequalities ``y_i >= y_j + ...``
        (Ben Amor, Desrosiers & Valerio de Carvalho, Oper. Res. 54, 2006): valid
        whenever s_j + ... <= s_i, they stabilise column generation. The moves are
        carried out in the configurations themselves at the end (putting j, ... where
        an i was keeps a configuration feasible).
        """
        if not pairs:
            return
        m = len(pairs)
        starts: list[int] = []
        idx: list[int] = []
        vals: list[float] = []
        for p in pairs:
            coef: dict[int, float] = {p[0]: -1.0}
            for j in p[1:]:
                coef[j] = coef.get(j, 0.0) + 1.0
            starts.append(len(idx))
            for j, v in coef.items():
                idx.append(j)
                vals.append(v)
        self.h.addCols(m, np.zeros(m), np.zeros(m), np.full(m, highspy.kHighsInf), len(idx),
                       np.array(starts, dtype=np.int32), np.array(idx, dtype=np.int32),
                       np.array(vals))
        self._transfer.extend(range(self._ncols, self._ncols + m))
        self.transfers.extend(tuple(int(v) for v in p) for p in pairs)
        self._ncols += m

    def close_transfers(self) -> None:
        """Fix every transfer column at 0 (the basis stays valid)."""
        if self._transfer:
            idx = np.array(self._transfer, dtype=np.int32)
            m = len(idx)
            self.h.changeColsBounds(m, idx, np.zeros(m), np.zeros(m))

    def transferred(self, amounts: np.ndarray) -> np.ndarray:
        """Net supply change of every type when each transfer column moves ``amounts``."""
        src = np.array([p[0] for p in self.transfers], dtype=np.int64)
        owner = np.array([n for n, p in enumerate(self.transfers) for _ in p[1:]],
                         dtype=np.int64)
        dst = np.array([j for p in self.transfers for j in p[1:]], dtype=np.int64)
        x = np.asarray(amounts, dtype=float)
        return (np.bincount(dst, weights=x[owner], minlength=self.T)
                - np.bincount(src, weights=x, minlength=self.T))

    def add_columns(self, cls: int, configs: np.ndarray | ConfigurationRows) -> None:
        """Add configurations (rows of ``configs``) of server class ``cls``."""
        if isinstance(configs, ConfigurationRows):
            starts, idx, counts = configs.sparse()
            kept = list(configs)
        else:
            K = np.atleast_2d(np.asarray(configs, dtype=np.int64))
            row, idx = np.nonzero(K)
            counts = K[row, idx]
            starts = np.searchsorted(row, np.arange(K.shape[0] + 1))
            kept = [k.copy() for k in K] if K.size else []
        m = len(kept)
        if m == 0:
            return
        # the covering form's coefficients are the job counts alone
        mult = 1.0 if self._covering else self.n[cls]
        largest = mult * float(counts.max(initial=0))
        if largest > MAX_COEFFICIENT:
            raise ValueError(
                (f"a configuration of {int(counts.max())} jobs of one type" if
                 self._covering else f"{self.n[cls]:.0f} servers holding up to "
                 f"{int(counts.max())} jobs of one type each")
                + f" give an LP coefficient of {largest:.3g}, above the "
                f"{MAX_COEFFICIENT:.0e} the LP solves accurately"
                + ("" if self._covering else
                   "; the capacity of N identical servers is N times that of one server: "
                   "compute it for fewer servers and scale"))
        for k in kept:
            self.columns.append((cls, k))
        self._col_index.extend(range(self._ncols, self._ncols + m))
        self._ncols += m
        if self._covering:
            self.h.addCols(m, np.ones(m), np.zeros(m), np.full(m, highspy.kHighsInf),
                           len(idx), np.asarray(starts[:-1], dtype=np.int32),
                           np.asarray(idx, dtype=np.int32), counts.astype(float))
        else:
            # each column: its type rows, then its class row (coefficient 1)
            per = np.diff(starts)
            at = starts[:-1] + np.arange(m)  # where each column starts, class rows included
            rows = np.empty(len(idx) + m, dtype=np.int32)
            vals = np.empty(len(idx) + m)
            body = np.ones(len(idx) + m, dtype=bool)
            body[at + per] = False
            rows[body], vals[body] = idx, mult * counts.astype(float)
            rows[~body], vals[~body] = self.T + cls, 1.0
            self.h.addCols(m, np.zeros(m), np.zeros(m), np.full(m, highspy.kHighsInf),
                           len(rows), at.astype(np.int32), rows, vals)
        if self.h.getNumCol() != self._ncols:
            raise LPSolveError(f"HiGHS kept {self.h.getNumCol()} of {self._ncols} columns")

    def reduced_costs(self) -> np.ndarray:
        """Reduced costs of the configuration columns at the last solution (HiGHS
        minimises -t: a column that would improve the master has a negative one)."""
        cd = np.asarray(self.h.getSolution().col_dual)[np.array(self._col_index,
                                                                  dtype=np.int64)]
        if not self._covering:
            return cd
        # covering form: 1 - <u, k> is n / sum x times the reduced cost of the t form;
        # nothing is known of them at t = 0
        return cd * (self.n[0] / self._sum_x) if self._sum_x > 0 else np.zeros_like(cd)

    def remove_columns(self, which: np.ndarray) -> None:
        """Delete configuration columns (positions in :attr:`columns`); they must be
        nonbasic, so the basis stays valid."""
        pos = np.unique(np.asarray(which, dtype=np.int64))
        if pos.size == 0:
            return
        col_index = np.array(self._col_index, dtype=np.int64)
        idx = col_index[pos]
        self.h.deleteCols(len(idx), idx.astype(np.int32))
        gone = np.zeros(self._ncols, dtype=bool)
        gone[idx] = True
        new_index = np.cumsum(~gone) - 1
        keep = np.ones(len(self.columns), dtype=bool)
        keep[pos] = False
        self.columns = [col for col, k in zip(self.columns, keep, strict=True) if k]
        self._col_index = new_index[col_index[keep]].tolist()
        self._transfer = new_index[np.array(self._transfer, dtype=np.int64)].tolist()
        self._ncols -= len(idx)
        if self.h.getNumCol() != self._ncols:
            raise LPSolveError(f"HiGHS kept {self.h.getNumCol()} columns, expected {self._ncols}")

    def refresh(self) -> None:
        """Make the next :meth:`solve` look again: the first call tightens the
        feasibility tolerances and keeps the basis (columns priced just above the
        duals then enter in a few pivots: 264 pivots instead of 13,205 from scratch on
        a 1,000-item bin-packing master); a later call also forgets the basis."""
        if self._tight:
            self.h.clearSolver()
        self.h.setOptionValue("dual_feasibility_tolerance", 1e-10)
        self.h.setOptionValue("primal_feasibility_tolerance", 1e-10)
        self._tight = True

    def solve(self) -> MasterSolution:
        h = self.h
        h.run()
        status = h.getModelStatus()
        if self._covering:
            return self._covering_solution(status)
        self._require_optimal(status)
        sol = h.getSolution()
        col = np.asarray(sol.col_value)
        row_dual = np.asarray(sol.row_dual)
        y = np.maximum(row_dual[: self.T], 0.0) / self._scale
        pi = np.maximum(-row_dual[self.T:], 0.0) / self._scale
        return MasterSolution(float(col[0]) / self._scale, y, pi, col[self._col_index].copy(),
                              int(h.getInfo().simplex_iteration_count),
                              np.maximum(col[np.array(self._transfer, dtype=np.int64)], 0.0))

    def _require_optimal(self, status) -> None:
        if status != highspy.HighsModelStatus.kOptimal:
            raise LPSolveError(
                f"configuration LP not solved to optimality "
                f"(HiGHS status {self.h.modelStatusToString(status)})")

    def _farkas_prices(self) -> np.ndarray:
        """Prices proving an infeasible covering LP (t = 0): some y >= 0 with
        <d, y> = 1 and <a, y> <= 0 for every open column a, from a small LP over y
        (the master's columns become its rows)."""
        lp = self.h.getLp()
        A = lp.a_matrix_
        start = np.asarray(A.start_, dtype=np.int32)
        index = np.asarray(A.index_, dtype=np.int32)
        value = np.asarray(A.value_, dtype=float)
        m = len(start) - 1
        closed = np.asarray(lp.col_upper_)[:m] <= 0
        aux = new_highs()
        inf = highspy.kHighsInf
        aux.addVars(self.T, np.zeros(self.T), np.full(self.T, inf))
        upper = np.where(closed, inf, 0.0)
        aux.addRows(m, np.full(m, -inf), upper, len(index), start[:-1], index, value)
        nz = np.flatnonzero(self._d > 0).astype(np.int32)
        aux.addRow(1.0, 1.0, len(nz), nz, self._d[nz])
        aux.run()
        if aux.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise LPSolveError(
                "configuration LP infeasible, and no prices prove t = 0 (HiGHS status "
                f"{aux.modelStatusToString(aux.getModelStatus())})")
        return np.maximum(np.asarray(aux.getSolution().col_value), 0.0)

    def _covering_solution(self, status) -> MasterSolution:
        """The covering optimum in the t form: with z = sum_k x_k (an x_k below 0
        within HiGHS's tolerances counts as 0) and d scaled by s, t = n / (s z),
        p = x / z, transfers n x / z, y = u / (s z), pi = t. An infeasible covering LP
        (a type no column reaches) is t = 0, with :meth:`_farkas_prices`."""
        h, n = self.h, float(self.n[0])
        iters = int(h.getInfo().simplex_iteration_count)
        tr = np.array(self._transfer, dtype=np.int64)
        if status == highspy.HighsModelStatus.kInfeasible:
            self._sum_x = 0.0
            y = self._farkas_prices()
            zero = np.zeros(len(self._col_index))
            return MasterSolution(0.0, y / self._scale, np.zeros(1), zero, iters,
                                  np.zeros(len(tr)))
        self._require_optimal(status)
        sol = h.getSolution()
        col = np.asarray(sol.col_value)
        # weights within HiGHS's tolerances below 0 are 0: the mixture's weights sum to
        # 1 (with them, the raw Google trace's summed to 1 + 3e-7 and lost its proof)
        x = np.maximum(col[self._col_index], 0.0)
        z = float(x.sum())
        self._sum_x = z
        t = n / (self._scale * z)
        y = np.maximum(np.asarray(sol.row_dual), 0.0) / (self._scale * z)
        return MasterSolution(t, y, np.array([t]), x / z, iters,
                              np.maximum(col[tr], 0.0) * (n / z))
