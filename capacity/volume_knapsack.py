"""The volume knapsack P1 of MRIS (FL24 Sec. 5.1) and its constraint approximations.

.. math::
    \\textbf{P1:}\\quad \\max_{x \\in \\{0, 1\\}^n} \\sum_j w_j x_j
    \\quad\\text{s.t.}\\quad \\sum_j v_j x_j \\le \\zeta,
    \\qquad w_j > 0,\\ v_j > 0,\\ \\zeta > 0.

MRIS (FL24 Algorithm 1, line 5) needs a set of at least the optimal weight ``OPT(zeta)``
whose volume may exceed ``zeta`` by a bounded factor (a *constraint approximation*,
Lawler 1977). :func:`solve_volume_knapsack` is the one entry point; its methods are

``"cadp"``
    FL24's CONSTRAINT-APPROXIMATE DYNAMIC PROGRAM (Sec. 5.1, Lemma 6.1; Ibarra & Kim's
    rounding): ``K = eps zeta / n``, ``v_hat_j = floor(v_j / K)``, an exact 0/1 dynamic
    program in capacity ``zeta_hat = floor(zeta / K)``, the original items returned.
    Weight ``>= OPT(zeta)``, volume ``< zeta + n K = (1 + eps) zeta``;
    ``O(n zeta_hat) = O(n^2 / eps)`` time and ``n zeta_hat`` bits of memory.
    ``scaling="printed"`` uses ``K = zeta n / eps`` as printed in Sec. 5.1; then
    ``zeta_hat = 0`` and every item with ``v_j < zeta n / eps`` is rounded to size 0 and
    taken: the volume bound fails (the erratum ``FL24.Sec5.1.CADP.K``).
``"greedy"``
    Remark 1 (MRIS-GREEDY of Sec. 7.4): density order, every item while it fits *and*
    the first item that does not fit. Weight ``>= OPT(zeta)``, volume
    ``<= zeta + max_j v_j <= 2 zeta``; ``O(n log n)``.
``"split"``
    Lawler-style: the same guarantee as CADP (weight ``>= OPT(zeta)``, volume
    ``<= (1 + eps) zeta``) in ``O(n log n + n_large / eps^2)`` time (see
    :func:`_solve_split` for the proof). When every volume is at most ``eps zeta / 2``
    there are no large items and it is the greedy with the overflow item. In MRIS
    ``v_j = p_j u_j <= R gamma_k`` (line 3 of Algorithm 1 admits only ``p_j <= gamma_k``),
    which is ``zeta_k / M`` with the capacity ``zeta_k = R M gamma_k`` that Lemma 6.5
    needs (erratum ``FL24.Alg1.line4``): so with ``M >= 2 / eps`` split is the greedy.
``"exact"``
    ``OPT(zeta)`` itself (volume ``<= zeta``): the same dynamic program when the volumes
    are integers and ``n zeta`` is small, otherwise a HiGHS MILP whose status is checked
    (anything but optimal raises :class:`capacity.programs.ProgramError`) and whose
    answer is re-checked in exact arithmetic.

Numbers. Volumes and the capacity are read as the exact binary rationals the floats
are. Every decision that the guarantees rest on (the floors ``floor(v_j / K)``, the
rounded capacity, "does this prefix fit", "is this item large") is made exactly: in
floating point where the float answer is certain, in :class:`fractions.Fraction`
within a rounding band of the boundary. So the volume bounds hold exactly, and
``weight >= OPT(zeta)`` holds up to the floating-point summation of the *weights*
(relative ``n 2^-53``; the dynamic program compares float sums of weights, the
greedy sorts by float densities ``w_j / v_j``).

References
----------
.. [1] Z. Fan and B. Liang, "Online Non-preemptive Multi-Resource Scheduling for
   Weighted Completion Time on Multiple Machines", ICPP 2024 (FL24), Sec. 5.1, 6.1.
.. [2] O. H. Ibarra and C. E. Kim, "Fast approximation algorithms for the knapsack and
   sum of subset problems", J. ACM 22(4), 1975.
.. [3] E. L. Lawler, "Fast approximation algorithms for knapsack problems", FOCS 1977.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np
from numba import njit

from capacity.programs import ProgramError
from theory.budgets import check_budget
from theory.json_ready import json_ready
from theory.numbers import real_float
from theory.progress import Progress

__all__ = [
    "MAX_DP_CELLS",
    "VOLUME_KNAPSACK_METHODS",
    "VOLUME_KNAPSACK_SCALINGS",
    "VolumeKnapsackResult",
    "solve_volume_knapsack",
]

VOLUME_KNAPSACK_METHODS = ("cadp", "greedy", "split", "exact")
VOLUME_KNAPSACK_SCALINGS = ("proof", "printed")
#: Default budget of dynamic-program cells (items x rounded capacity levels): the work,
#: and one bit each of take table (5 * 10^9 cells: 625 MB, a few seconds).
MAX_DP_CELLS = 5_000_000_000
#: "exact" runs the integer dynamic program when it has at most this many cells.
EXACT_DP_CELLS = 50_000_000
#: Cells per call of the compiled kernel between two progress reports.
_CHUNK_CELLS = 200_000_000
#: Re-solves of the MILP (each excluding an answer that is infeasible in exact arithmetic).
_MAX_CUTS = 50
_U = 2.0 ** -53  # unit round-off
_TINY = 2.2250738585072014e-308  # smallest normal float


@dataclass(frozen=True)
class VolumeKnapsackResult:
    """A selection of items for P1 and what it guarantees.

    ``selected`` are the chosen indices (sorted int64); ``weight`` and ``volume`` their
    sums (``math.fsum``); ``volume_bound`` the volume the method guarantees (CADP
    ``zeta + n K``, i.e. ``(1 + eps) zeta`` with the proof's scaling; split
    ``(1 + eps) zeta``; greedy ``2 zeta``; exact ``zeta``); each method also guarantees
    ``weight >= OPT(zeta)`` (exact: ``=``), except CADP with the printed scaling.
    ``details`` has the method's internals (K, rounded capacity, table cells, ...).

    Frozen; returned by :func:`solve_volume_knapsack`.

    Parameters
    ----------
    selected : numpy.ndarray
        Indices of the chosen items, sorted, int64.
    weight : float
        Their total weight, sum_j w_j (``math.fsum``).
    volume : float
        Their total volume, sum_j v_j (``math.fsum``).
    capacity : float
        The capacity ``zeta`` as given.
    method : str
        ``"cadp"``, ``"greedy"``, ``"split"`` or ``"exact"``.
    eps : float
        The error parameter used (cadp, split).
    volume_bound : float
        The volume the method guarantees not to exceed.
    seconds : float
        Wall-clock seconds of the call.
    scaling : str, default "proof"
        CADP's K: ``"proof"`` or ``"printed"``.
    details : dict, default {}
        The method's internals (K, rounded capacity, cells of the table, ...).

    References
    ----------
    FL24, Sec. 5.1 (P1 and CADP), Lemma 6.1 and Remark 1 (the guarantees).

    Examples
    --------
    >>> from capacity import solve_volume_knapsack
    >>> res = solve_volume_knapsack([3, 2, 2], [2.0, 1.0, 1.0], 2.0, method="greedy")
    >>> res.selected.tolist(), res.weight, res.volume, res.volume_bound
    ([0, 1, 2], 7.0, 4.0, 4.0)
    >>> res.as_dict()["method"]
    'greedy'
    """

    selected: np.ndarray
    weight: float
    volume: float
    capacity: float
    method: str
    eps: float
    volume_bound: float
    seconds: float
    scaling: str = "proof"
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "selected": [int(i) for i in self.selected],
            "weight": self.weight,
            "volume": self.volume,
            "capacity": self.capacity,
            "method": self.method,
            "eps": self.eps,
            "scaling": self.scaling,
            "volume_bound": self.volume_bound,
            "seconds": round(self.seconds, 6),
            "details": json_ready(self.details),
        }


# --------------------------------------------------------------------------- inputs
def _vector(name: str, x: object) -> np.ndarray:
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:
        raise ValueError(f"volume knapsack {name} must be a 1-D array of numbers: {e}") from None
    if a.ndim != 1:
        raise ValueError(f"volume knapsack {name} must be 1-D, got shape {a.shape}")
    if a.size and a.dtype.kind not in "iuf":
        raise ValueError(f"volume knapsack {name} must be numbers, got dtype {a.dtype}")
    a = a.astype(float)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"volume knapsack {name} must be finite (no NaN or inf)")
    if np.any(a <= 0):
        j = int(np.flatnonzero(a <= 0)[0])
        raise ValueError(f"volume knapsack {name} must be > 0, got {float(a[j])!r} at "
                         f"index {j}")
    return np.ascontiguousarray(a)


def _real(name: str, x: object) -> float:
    f = real_float(x, name, "a real number")
    if not math.isfinite(f):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return f


# ------------------------------------------------------------------- exact helpers
def _safe_float(q: Fraction) -> float:
    try:
        return float(q)
    except OverflowError:
        return math.inf


def _approx_int(n: int) -> str:
    """A large integer in a few digits (``1/eps^2`` at eps = 1e-300 has 600)."""
    return f"{n:,}" if n < 10**15 else f"about 10^{len(str(n)) - 1}"


def _exact_floor_ratio(v: np.ndarray, inv: Fraction, limit: int) -> np.ndarray:
    """``min(floor(v_j * inv), limit + 1)`` exactly (int64; ``limit < 2^62``).

    The float product is used where its floor is certain (the product and the rounding
    of ``inv`` err by at most 2 ulps, the band below allows 8); the rest are done in
    rational arithmetic.
    """
    out = np.full(v.shape, limit + 1, dtype=np.int64)
    f = _safe_float(inv)
    if _TINY <= f < math.inf:
        with np.errstate(over="ignore", invalid="ignore"):
            r = v * f
            tol = 8 * _U * r + 4 * _TINY
            lo, hi = np.floor(r - tol), np.floor(r + tol)
            finite = np.isfinite(r)
            above = (finite & (lo > limit + 1)) | (r == math.inf)
            small = finite & (lo == hi) & (hi <= limit + 1)
        out[small] = hi[small].astype(np.int64)
        rest = np.flatnonzero(~small & ~above)
    else:
        rest = np.arange(v.size)
    for j in rest:
        out[j] = min(math.floor(Fraction(float(v[j])) * inv), limit + 1)
    return out


def _exact_greater(v: np.ndarray, thr: Fraction) -> np.ndarray:
    """``v_j > thr`` exactly."""
    t = _safe_float(thr)
    out = v > t
    band = np.flatnonzero(np.abs(v - t) <= 4 * _U * abs(t) + 4 * _TINY)
    for j in band:
        out[j] = Fraction(float(v[j])) > thr
    return out


class _Prefix:
    """Prefix sums ``P_i = v_1 + ... + v_i`` of a positive sequence (``P_0 = 0``),
    compared with budgets exactly: floats away from the boundary, fractions near it."""

    def __init__(self, v: np.ndarray):
        self.v = v
        self.P = np.concatenate(([0.0], np.cumsum(v)))
        # recursive summation: |fl(P_i) - P_i| <= (i - 1) u P_i / (1 - (i - 1) u)
        self.tol = 2.0 * (len(v) + 2) * _U * float(self.P[-1]) + 4 * _TINY
        self._exact: list[Fraction] | None = None

    def exact(self, i: int) -> Fraction:
        if self._exact is None:
            self._exact = list(accumulate((Fraction(float(x)) for x in self.v),
                                          initial=Fraction(0)))
        return self._exact[i]

    def count_fitting(self, budgets: np.ndarray, exact_budget: Callable[[int], Fraction],
                      budget_tol: float) -> np.ndarray:
        """For each budget ``b``: the largest ``i`` with ``P_i <= b`` exactly (how many
        leading items fit). ``budgets`` are floats within ``budget_tol`` of the exact
        budgets ``exact_budget(index)``, which are ``>= 0``."""
        tol = self.tol + budget_tol
        lo = np.searchsorted(self.P, budgets - tol, side="right") - 1
        hi = np.searchsorted(self.P, budgets + tol, side="right") - 1
        lo = np.maximum(lo, 0)
        out = lo.copy()
        for b in np.flatnonzero(hi > lo):
            B = exact_budget(int(b))
            i = int(lo[b])
            while i < hi[b] and self.exact(i + 1) <= B:
                i += 1
            out[b] = i
        return out


# --------------------------------------------------------------------- the 0/1 DP
@njit(cache=True)
def _dp_kernel(sizes, weights, dp, bits, tops, hi, i0, i1):  # pragma: no cover
    """0/1 knapsack over items ``i0 .. i1 - 1``, in place; returns the new top level.

    ``dp[c]`` (``c <= hi``) is the best weight of the items so far with total size
    ``<= c``; above ``hi`` (= min(capacity, their total size)) it equals ``dp[hi]``.
    Sizes are integers >= 1. Bit ``c`` of ``bits[i]`` is set when item ``i`` improved
    level ``c``; ``tops[i]`` is ``hi`` after item ``i``. O(sum_i (tops[i] - s_i)) time.
    """
    cap = dp.shape[0] - 1
    one = np.uint64(1)
    for i in range(i0, i1):
        s = sizes[i]
        w = weights[i]
        top = hi + s
        if top > cap:
            top = cap
        base = dp[hi]
        for c in range(hi + 1, top + 1):
            dp[c] = base
        row = bits[i]
        c = top
        while c >= s:
            cand = dp[c - s] + w
            if cand > dp[c]:
                dp[c] = cand
                row[c >> 6] |= one << np.uint64(c & 63)
            c -= 1
        tops[i] = top
        hi = top
    return hi


@njit(cache=True)
def _dp_take(sizes, bits, tops, level):  # pragma: no cover
    """The items of the best set at ``level`` (<= the final top), from the take bits."""
    n = sizes.shape[0]
    take = np.zeros(n, dtype=np.bool_)
    c = level
    for i in range(n - 1, -1, -1):
        if c > tops[i]:
            c = tops[i]
        if c < 0:
            break
        if (bits[i, c >> 6] >> np.uint64(c & 63)) & np.uint64(1):
            take[i] = True
            c -= sizes[i]
    return take


@dataclass
class _DPTable:
    sizes: np.ndarray  # sorted ascending, int64 >= 1
    order: np.ndarray  # positions (in the caller's arrays) of the sorted items
    dp: np.ndarray
    bits: np.ndarray
    tops: np.ndarray
    top: int
    cells: int

    def take(self, level: int) -> np.ndarray:
        """Positions (in the caller's arrays) of the best set within ``level``."""
        mask = _dp_take(self.sizes, self.bits, self.tops, min(level, self.top))
        return np.sort(self.order[mask])


def _dp_run(sizes: np.ndarray, weights: np.ndarray, cap: int, *, max_dp_cells: int,
            what: str) -> _DPTable:
    """Exact 0/1 DP on integer sizes in ``[1, cap]``; refuses above ``max_dp_cells``."""
    n = len(sizes)
    cap = int(min(cap, float(np.sum(sizes, dtype=np.float64)))) if n else 0
    cells = n * (cap + 1)
    check_budget(cells, max_dp_cells, what=f"{what} ({n:,} items x {cap + 1:,} levels)",
                 option="max_dp_cells", unit="table cells",
                 hint="each cell is one step of work and one bit of memory")
    order = np.argsort(sizes, kind="stable")  # small sizes first: the levels grow slowly
    s = np.ascontiguousarray(sizes[order].astype(np.int64))
    w = np.ascontiguousarray(weights[order].astype(np.float64))
    dp = np.zeros(cap + 1)
    bits = np.zeros((n, (cap >> 6) + 1), dtype=np.uint64)
    tops = np.zeros(n, dtype=np.int64)
    top = 0
    step = max(1, _CHUNK_CELLS // (cap + 1))
    with Progress(what, total=n, unit="items") as prog:
        for i0 in range(0, n, step):
            top = int(_dp_kernel(s, w, dp, bits, tops, top, i0, min(n, i0 + step)))
            prog.update(min(n, i0 + step))
    return _DPTable(s, order, dp, bits, tops, top, cells)


# ------------------------------------------------------------------------- methods
def _solve_cadp(w: np.ndarray, v: np.ndarray, zeta: float, eps: float, scaling: str,
                max_dp_cells: int) -> tuple[np.ndarray, float, dict[str, Any]]:
    """FL24 CADP (Sec. 5.1). Proof of Lemma 6.1 with ``K = eps zeta / n``.

    Weight: an optimal set ``O`` (``sum_O v <= zeta``) has
    ``sum_O v_hat <= sum_O v / K <= zeta / K``, an integer bound, so
    ``sum_O v_hat <= zeta_hat``: ``O`` is feasible for the rounded program, and the
    exact DP returns weight ``>= w(O)``. Volume: ``v_j < K (v_hat_j + 1)``, so the set
    ``J`` returned has ``sum_J v < K sum_J v_hat + |J| K <= K zeta_hat + n K
    <= zeta + n K = (1 + eps) zeta``. Items with ``v_hat_j > zeta_hat`` fit no rounded
    set and are dropped; items with ``v_hat_j = 0`` are always taken.

    The proof needs an optimal set of the rounded program, not the DP itself: when every
    weight is equal (unit weights, as in FL24's Azure runs) the most items within
    ``zeta_hat`` are the smallest ``v_hat`` (ties: lower index), found by sorting in
    ``O(n log n)`` instead of ``n zeta_hat`` table cells.
    """
    n = len(w)
    E, Z = Fraction(eps), Fraction(zeta)
    K = E * Z / n if scaling == "proof" else Z * n / E
    inv = 1 / K
    cap_hat = math.floor(Z * inv)
    details: dict[str, Any] = {"K": float(K), "rounded_capacity": cap_hat}
    if np.all(w == w[0]) and cap_hat * n < 2**62:
        # equal weights: the rounded program asks for the most items within zeta_hat,
        # which the smallest rounded volumes give; the DP would find the same weight
        vh = _exact_floor_ratio(v, inv, cap_hat)
        idx = np.flatnonzero(vh <= cap_hat)
        by_size = idx[np.lexsort((idx, vh[idx]))]
        count = int(np.searchsorted(np.cumsum(vh[by_size]), cap_hat, side="right"))
        details.update(dropped=int(n - idx.size), rounded_to_zero=int(np.sum(vh == 0)),
                       dp_items=0, dp_cells=0, equal_weights=True)
        bound = float(Z + n * K) if scaling == "printed" else (1.0 + eps) * zeta
        return by_size[:count], bound, details
    limit = min(cap_hat, max_dp_cells)
    vh = _exact_floor_ratio(v, inv, limit)
    if cap_hat > limit and np.any(vh > limit):
        # an item that fits the rounded capacity alone needs more levels than the budget
        check_budget(min(n * (cap_hat + 1), 10**300), max_dp_cells,
                     what=f"CADP (eps={eps:g}) with rounded capacity {_approx_int(cap_hat)}",
                     option="max_dp_cells", unit="table cells")
    keep = vh <= cap_hat
    zero = np.flatnonzero(keep & (vh == 0))
    dp_items = np.flatnonzero(keep & (vh > 0))
    chosen = zero
    cells = 0
    if dp_items.size:
        table = _dp_run(vh[dp_items], w[dp_items], cap_hat,
                        max_dp_cells=max_dp_cells,
                        what=f"CADP dynamic program (eps={eps:g})")
        chosen = np.concatenate([zero, dp_items[table.take(table.top)]])
        cells = table.cells
    details.update(dropped=int(np.count_nonzero(~keep)), rounded_to_zero=int(zero.size),
                   dp_items=int(dp_items.size), dp_cells=int(cells))
    bound = float(Z + n * K) if scaling == "printed" else (1.0 + eps) * zeta
    return chosen, bound, details


def _density_order(w: np.ndarray, v: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``idx`` sorted by ``w/v`` non-increasing, ties by lower index."""
    return idx[np.lexsort((idx, -(w[idx] / v[idx])))]


def _solve_greedy(w: np.ndarray, v: np.ndarray, zeta: float
                  ) -> tuple[np.ndarray, float, dict[str, Any]]:
    """Remark 1 as MRIS-GREEDY needs it: the density-ordered prefix up to *and including*
    the first item that does not fit.

    Items with ``v_j > zeta`` are in no feasible set and are left out. Order the rest by
    ``w_j / v_j`` (non-increasing) and let ``k`` be the first whose prefix exceeds
    ``zeta``. The fractional optimum is ``w_1 + ... + w_{k-1} + w_k (zeta - P_{k-1})
    / v_k <= w_1 + ... + w_k``, and it bounds ``OPT(zeta)``; the volume is
    ``P_{k-1} + v_k <= zeta + v_k <= 2 zeta``. (If every item fits, all are taken.)

    FL24's Remark 1 says "the better of ``{1..k-1}`` or ``{k}``": run at capacity
    ``zeta`` that is only the classic 1/2-approximation (both sets fit in ``zeta``, so
    it never exceeds ``OPT(zeta)`` and can fall to about half of it); the remark's
    conclusion "by allowing a knapsack with capacity 2 zeta we can obtain the optimal
    weight" needs both sets together, which is what is taken here. (Another reading that
    also works: the classic better-of greedy run in a knapsack of capacity ``2 zeta``
    after leaving out the items above ``zeta``: its prefix then has volume ``>= zeta``
    unless everything fits, so it too is worth ``>= OPT(zeta)``; it uses more volume.)
    """
    cand = np.flatnonzero(v <= zeta)
    order = _density_order(w, v, cand)
    pre = _Prefix(v[order])
    Z = Fraction(zeta)
    k = int(pre.count_fitting(np.array([zeta]), lambda _: Z, 0.0)[0])
    take = order[:min(k + 1, order.size)]
    return take, 2.0 * zeta, {"fitting": k, "overflow_item": (int(order[k]) if k < order.size
                                                              else None),
                              "left_out_above_capacity": int(v.size - cand.size)}


def _solve_split(w: np.ndarray, v: np.ndarray, zeta: float, eps: float,
                 max_dp_cells: int) -> tuple[np.ndarray, float, dict[str, Any]]:
    """Constraint approximation with CADP's guarantee in ``O(n log n + n_large / eps^2)``.

    Let ``delta = eps / 2``, ``L = floor(2 / eps)``, ``K = delta zeta / L``. Items with
    ``v_j > zeta`` are left out (no feasible set has them). An item is *large* if
    ``v_j > delta zeta`` and *small* otherwise.

    1. Large items get ``v_hat_j = floor(v_j / K)`` and an exact 0/1 DP in capacity
       ``C = floor(zeta / K)`` gives, for every level ``c <= C``, a large set ``S_c`` of
       maximum weight with ``sum v_hat <= c``. A large item has ``v_j / K > L``, so
       ``v_hat_j >= L``; a set with ``sum v_hat <= C <= zeta / K = L / delta`` has at most
       ``1 / delta`` items, hence ``m <= L`` items, and
       ``v(S_c) < K sum v_hat + m K <= K c + L K = K c + delta zeta``.
    2. For level ``c`` the small items get the budget ``R_c = zeta - K c >= 0`` and are
       taken greedily by density, including the first one that does not fit (``G_c``):
       ``w(G_c)`` is at least the fractional optimum of the small items in ``R_c``, and
       ``v(G_c) <= R_c + delta zeta``.
    3. Return the best ``S_c + G_c`` over the levels.

    Volume: ``v(S_c) + v(G_c) < K c + delta zeta + zeta - K c + delta zeta
    = (1 + eps) zeta``. Weight: split an optimal set ``O`` into its large part ``O_L`` and
    small part ``O_S``; ``c* = sum_{O_L} v_hat <= v(O_L) / K <= zeta / K`` is a level,
    ``w(S_{c*}) >= w(O_L)`` and ``R_{c*} = zeta - K c* >= zeta - v(O_L) >= v(O_S)``, so
    ``w(G_{c*}) >= w(O_S)``: the best level is worth at least ``OPT(zeta)``.

    Time: sorting, a DP of ``n_large (C + 1)`` cells with ``C <= L / delta <= 4 / eps^2``,
    and a binary search per level: ``O(n log n + n_large / eps^2 + log n / eps^2)``.
    """
    E, Z = Fraction(eps), Fraction(zeta)
    L = math.floor(2 / E)
    dz = E * Z / 2
    K = dz / L
    C = math.floor(Z / K)
    fits = v <= zeta
    large_mask = fits & _exact_greater(v, dz)
    large = np.flatnonzero(large_mask)
    small = _density_order(w, v, np.flatnonzero(fits & ~large_mask))
    details: dict[str, Any] = {"n_large": int(large.size), "n_small": int(small.size),
                               "K_large": float(K), "rounded_capacity": C,
                               "left_out_above_capacity": int(np.count_nonzero(~fits))}
    table = None
    top = 0
    if large.size:
        limit = min(C, max_dp_cells)  # C grows like 1/eps^2: never past int64
        vh = _exact_floor_ratio(v[large], 1 / K, limit)
        if C > limit and np.any(vh > limit):
            check_budget(min(large.size * (C + 1), 10**300), max_dp_cells,
                         what=f"the split knapsack (eps={eps:g}) with rounded capacity "
                         f"{_approx_int(C)}", option="max_dp_cells", unit="table cells",
                         hint="a larger eps needs fewer")
        table = _dp_run(vh, w[large], C, max_dp_cells=max_dp_cells,
                        what=f"split dynamic program on the large items (eps={eps:g})")
        top = table.top
        details["dp_cells"] = int(table.cells)
    levels = np.arange(top + 1)
    Kf = float(K)
    budgets = zeta - Kf * levels
    pre = _Prefix(v[small])
    fit = pre.count_fitting(budgets, lambda c: Z - K * c, 8 * _U * zeta + 4 * _TINY)
    taken = np.minimum(fit + 1, small.size)
    wpre = np.concatenate(([0.0], np.cumsum(w[small])))
    large_w = table.dp[levels] if table is not None else np.zeros(1)
    best = int(np.argmax(large_w + wpre[taken]))
    chosen_large = large[table.take(best)] if table is not None else large[:0]
    chosen = np.concatenate([chosen_large, small[:taken[best]]])
    details.update(level=best, small_taken=int(taken[best]))
    return chosen, (1.0 + eps) * zeta, details


def _solve_exact(w: np.ndarray, v: np.ndarray, zeta: float, max_dp_cells: int,
                 time_limit: float | None) -> tuple[np.ndarray, float, dict[str, Any]]:
    """``OPT(zeta)``: integer DP when it is small, else a HiGHS MILP re-checked exactly."""
    cand = np.flatnonzero(v <= zeta)
    if cand.size == 0:
        return cand, zeta, {"solver": "none"}
    vc = v[cand]
    integral = bool(np.all(vc == np.floor(vc)) and vc.max() <= 2.0**53)
    cap = math.floor(zeta)
    if integral and cand.size * (min(cap, float(vc.sum())) + 1) <= min(EXACT_DP_CELLS,
                                                                        max_dp_cells):
        table = _dp_run(vc.astype(np.int64), w[cand], cap, max_dp_cells=max_dp_cells,
                        what="exact knapsack dynamic program")
        return cand[table.take(table.top)], zeta, {"solver": "dp",
                                                    "dp_cells": int(table.cells)}
    chosen, cuts = _milp(w[cand], vc, zeta, time_limit)
    return cand[chosen], zeta, {"solver": "highs", "cuts": cuts}


def _milp(w: np.ndarray, v: np.ndarray, zeta: float, time_limit: float | None
          ) -> tuple[np.ndarray, int]:
    import highspy

    from capacity._highs import new_highs

    n = len(w)
    Z = Fraction(zeta)
    h = new_highs()
    for opt, val in (("mip_rel_gap", 0.0), ("mip_abs_gap", 0.0),
                     ("mip_feasibility_tolerance", 1e-9),
                     ("primal_feasibility_tolerance", 1e-9)):
        h.setOptionValue(opt, val)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = 1
    lp.col_cost_ = w / w.max()
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.ones(n)
    lp.row_lower_ = np.array([-highspy.kHighsInf])
    lp.row_upper_ = np.array([1.0])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_ = n
    lp.a_matrix_.num_row_ = 1
    lp.a_matrix_.start_ = np.array([0, n], dtype=np.int32)
    lp.a_matrix_.index_ = np.arange(n, dtype=np.int32)
    lp.a_matrix_.value_ = v / zeta
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    # kWarning: HiGHS dropped coefficients below its small_matrix_value; that only
    # relaxes the row, and every answer is re-checked exactly below
    if h.passModel(lp) not in (highspy.HighsStatus.kOk, highspy.HighsStatus.kWarning):
        raise ProgramError("volume knapsack MILP: HiGHS refused the model", "model_error")
    for cuts in range(_MAX_CUTS + 1):
        h.run()
        status = h.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            native = h.modelStatusToString(status)
            raise ProgramError(f"volume knapsack MILP: no optimal solution (HiGHS status "
                               f"{native})", native)
        x = np.asarray(h.getSolution().col_value, dtype=float)
        chosen = np.flatnonzero(x > 0.5)
        if sum((Fraction(float(t)) for t in v[chosen]), Fraction(0)) <= Z:
            return chosen, cuts
        # within HiGHS's tolerance but over zeta exactly: exclude this set, solve again
        h.addRow(-highspy.kHighsInf, float(chosen.size - 1), int(chosen.size),
                 chosen.astype(np.int32), np.ones(chosen.size))
    raise ProgramError(f"volume knapsack MILP: {_MAX_CUTS} answers in a row exceed the "
                       f"capacity in exact arithmetic", "tolerance")


# ---------------------------------------------------------------------- entry point
def solve_volume_knapsack(weights: object, volumes: object, capacity: object, *,
                          method: str = "cadp", eps: object = 0.1, scaling: str = "proof",
                          max_dp_cells: int = MAX_DP_CELLS,
                          time_limit: float | None = None) -> VolumeKnapsackResult:
    """Solve (or constraint-approximate) P1: ``max sum w_j x_j`` s.t.
    ``sum v_j x_j <= capacity``, ``x`` binary (FL24 Sec. 5.1).

    Parameters
    ----------
    weights, volumes : array_like
        1-D arrays of finite numbers ``> 0`` of the same length.
    capacity : float
        The knapsack capacity ``zeta > 0``.
    method : {"cadp", "greedy", "split", "exact"}, default "cadp"
        ``"cadp"`` (FL24 CADP, weight ``>= OPT``, volume ``<= (1 + eps) zeta``),
        ``"greedy"`` (Remark 1: weight ``>= OPT``, volume ``<= 2 zeta``), ``"split"``
        (CADP's guarantee, faster), ``"exact"`` (``OPT``, volume ``<= zeta``).
    eps : float, default 0.1
        The error parameter in ``(0, 1)`` (cadp, split).
    scaling : {"proof", "printed"}, default "proof"
        ``"proof"`` (``K = eps zeta / n``, what the proof of Lemma 6.1 needs) or
        ``"printed"`` (``K = zeta n / eps`` as printed in Sec. 5.1; only to demonstrate
        the erratum); cadp only.
    max_dp_cells : int, default MAX_DP_CELLS
        Budget of dynamic-program cells (items x rounded capacity levels); above it the
        call raises :class:`theory.budgets.BudgetExceeded` before allocating. CADP
        needs about ``n^2 / eps`` cells.
    time_limit : float or None, default None
        Seconds for the MILP of ``"exact"`` (reaching it raises ProgramError).

    Returns
    -------
    VolumeKnapsackResult
        Empty input gives an empty selection.

    Raises
    ------
    ValueError
        On invalid input (lengths, NaN/inf, non-positive weights, volumes or capacity,
        ``eps`` outside ``(0, 1)``, unknown method or scaling).
    BudgetExceeded
        When the dynamic program would exceed ``max_dp_cells``.
    ProgramError
        When the MILP of ``"exact"`` does not end optimal.

    References
    ----------
    FL24, Sec. 5.1 (P1, CADP; Algorithm 1, line 5), Lemma 6.1 (CADP's guarantee) and
    Remark 1 (the greedy); the erratum ``FL24.Sec5.1.CADP.K`` (the printed scaling).

    Examples
    --------
    >>> from capacity import solve_volume_knapsack
    >>> r = solve_volume_knapsack([1, 1], [1.0, 1.0], 1.0, method="greedy")
    >>> r.selected.tolist(), r.volume, r.volume_bound
    ([0, 1], 2.0, 2.0)
    >>> solve_volume_knapsack([1, 1], [1.0, 1.0], 1.0).selected.tolist()
    [0]
    """
    t0 = time.perf_counter()
    if method not in VOLUME_KNAPSACK_METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {VOLUME_KNAPSACK_METHODS}")
    if scaling not in VOLUME_KNAPSACK_SCALINGS:
        raise ValueError(f"unknown scaling {scaling!r}; choose one of "
                         f"{VOLUME_KNAPSACK_SCALINGS}")
    if scaling != "proof" and method != "cadp":
        raise ValueError(f"scaling={scaling!r} applies to method='cadp' only")
    e = _real("eps", eps)
    if not 0 < e < 1:
        raise ValueError(f"eps must lie in (0, 1), got {eps!r}")
    zeta = _real("capacity", capacity)
    if zeta <= 0:
        raise ValueError(f"capacity must be > 0, got {capacity!r}")
    if isinstance(max_dp_cells, bool) or not isinstance(max_dp_cells, numbers.Integral) \
            or not 0 < max_dp_cells <= 2**62:
        raise ValueError(f"max_dp_cells must be an integer in [1, 2^62], got {max_dp_cells!r}")
    if time_limit is not None and not _real("time_limit", time_limit) > 0:
        raise ValueError(f"time_limit must be > 0, got {time_limit!r}")
    w = _vector("weights", weights)
    v = _vector("volumes", volumes)
    if w.shape != v.shape:
        raise ValueError(f"volume knapsack weights ({w.size}) and volumes ({v.size}) "
                         f"differ in length")
    max_cells = int(max_dp_cells)
    details: dict[str, Any]
    if w.size == 0:
        chosen = np.zeros(0, dtype=np.int64)
        bound = {"cadp": (1.0 + e) * zeta, "split": (1.0 + e) * zeta, "greedy": 2.0 * zeta,
                 "exact": zeta}[method]
        details = {}
    elif method == "cadp":
        chosen, bound, details = _solve_cadp(w, v, zeta, e, scaling, max_cells)
    elif method == "greedy":
        chosen, bound, details = _solve_greedy(w, v, zeta)
    elif method == "split":
        chosen, bound, details = _solve_split(w, v, zeta, e, max_cells)
    else:
        chosen, bound, details = _solve_exact(w, v, zeta, max_cells, time_limit)
    sel = np.sort(np.asarray(chosen, dtype=np.int64))
    return VolumeKnapsackResult(
        selected=sel,
        weight=math.fsum(w[sel].tolist()),
        volume=math.fsum(v[sel].tolist()),
        capacity=zeta,
        method=method,
        eps=e,
        volume_bound=bound,
        seconds=time.perf_counter() - t0,
        scaling=scaling,
        details=details,
    )
