"""Feasible configurations of a server (PG21 Def. 1, PG18 Sec. II) and K_RED (PG21 Def. 6).

A configuration ``k = (k_1, ..., k_J)`` packs ``k_j`` jobs of type j in one server; it
is feasible when ``sum_j k_j s_j <= C`` in every resource (vector sizes ``s_j`` and a
capacity vector ``C``). Feasibility is exact for rational inputs and within
:data:`theory.numbers.FEASIBILITY_RTOL` for floats.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from theory.budgets import MAX_CONFIGURATIONS, BudgetExceeded
from theory.numbers import Number, as_list, fits, positive_int, short_repr, to_numbers, written
from theory.progress import Progress

__all__ = [
    "as_size_matrix",
    "as_capacity",
    "is_feasible",
    "iter_configurations",
    "feasible_configurations",
    "maximal_configurations",
    "MAX_J",
    "ReducedSet",
    "reduced_configurations",
]


def as_size_matrix(sizes: Sequence[object]) -> list[list[Number]]:
    """Sizes as a list of rows (one per type; length = number of resources)."""
    if len(sizes) == 0:
        raise ValueError("no job types given")
    rows = []
    for s in sizes:
        if isinstance(s, list | tuple | np.ndarray):
            rows.append(list(s))
        else:
            rows.append([s])
    dims = {len(r) for r in rows}
    if len(dims) != 1:
        raise ValueError("all sizes must have the same number of resources")
    flat = to_numbers([v for r in rows for v in r], name="size")
    d = dims.pop()
    out = [flat[i * d:(i + 1) * d] for i in range(len(rows))]
    for r in out:
        if any(v < 0 for v in r) or all(v == 0 for v in r):
            raise ValueError(f"size {r} must be non-negative with a positive entry")
    return out


def as_capacity(capacity: object, dim: int) -> list[Number]:
    """Capacity as a vector of length ``dim`` (a scalar is repeated)."""
    given = list(capacity) if isinstance(capacity, list | tuple | np.ndarray) else [capacity]
    if any(isinstance(c, list | tuple | np.ndarray) for c in given):
        raise ValueError(f"capacity must be a number or a flat list of numbers, got "
                         f"{short_repr(capacity)}")
    cap = to_numbers(given, name="capacity")
    for c, g in zip(cap, given, strict=True):
        if not c > 0:
            raise ValueError(f"capacity must be positive, got {written(g)}")
    if len(cap) == 1 and not isinstance(capacity, list | tuple | np.ndarray):
        cap = cap * dim
    if len(cap) != dim:
        raise ValueError(f"capacity has {len(cap)} resources, sizes have {dim}")
    return cap



def _load(k: Sequence[int], rows: list[list[Number]], d: int) -> Number:
    return sum((k[j] * rows[j][d] for j in range(len(rows)) if k[j]), Fraction(0))


def is_feasible(k: Sequence[int], sizes: Sequence[object], capacity: object = 1) -> bool:
    """PG21 Def. 1: ``sum_j k_j r_j <= capacity`` (every resource), ``k_j`` in Z_+."""
    rows = as_size_matrix(sizes)
    cap = as_capacity(capacity, len(rows[0]))
    if len(k) != len(rows):
        raise ValueError(f"configuration has {len(k)} entries for {len(rows)} types")
    if any(int(v) != v or v < 0 for v in k):
        raise ValueError(f"configuration entries must be non-negative integers, got {list(k)}")
    return all(fits(_load(k, rows, d), cap[d]) for d in range(len(cap)))


def _checked(sizes: Sequence[object], capacity: object) -> tuple[list[list[Number]],
                                                                  list[Number]]:
    rows = as_size_matrix(as_list(sizes, name="sizes"))
    cap = as_capacity(capacity, len(rows[0]))
    for j, r in enumerate(rows):
        if not all(fits(r[d], cap[d]) for d in range(len(cap))):
            raise ValueError(f"type {j} of size {_fmt_row(r)} does not fit in capacity "
                             f"{_fmt_row(cap)}")
    return rows, cap


def _walk(rows: list[list[Number]], cap: list[Number],
          maximal: bool) -> Iterator[tuple[list[int], bool]]:
    """Every nonzero feasible configuration in lexicographic order, with whether it is
    kept (all are, or only the maximal ones); the yielded list is reused."""
    T, D = len(rows), len(cap)
    zero: Number = Fraction(0) if all(isinstance(c, Fraction) for c in cap) else 0.0
    k = [0] * T
    load = [zero] * D

    def fits_one(j: int) -> bool:
        return all(fits(load[d] + rows[j][d], cap[d]) for d in range(D))

    while True:
        if any(k):
            yield k, not maximal or not any(fits_one(i) for i in range(T))
        # odometer: raise the last type that still fits, after emptying those behind it
        j = T - 1
        while j >= 0 and not fits_one(j):
            if k[j]:
                for d in range(D):
                    load[d] = load[d] - k[j] * rows[j][d]
                k[j] = 0
            j -= 1
        if j < 0:
            return
        k[j] += 1
        for d in range(D):
            load[d] = load[d] + rows[j][d]


def iter_configurations(sizes: Sequence[object], capacity: object = 1, *,
                        maximal: bool = False) -> Iterator[list[int]]:
    """Feasible configurations (Def. 1, zero excluded) one at a time, in lexicographic
    order: nothing is stored, so the caller decides how many it can afford."""
    rows, cap = _checked(sizes, capacity)
    for k, keep in _walk(rows, cap, maximal):
        if keep:
            yield list(k)


def feasible_configurations(
    sizes: Sequence[object],
    capacity: object = 1,
    *,
    maximal: bool = False,
    max_configurations: int = MAX_CONFIGURATIONS,
) -> np.ndarray:
    """All feasible configurations (Def. 1) as rows of an integer array, zero excluded.

    With ``maximal=True`` only those to which no further job fits are returned: the
    convex hull of these dominates every feasible configuration, so they suffice for
    rho* and for capacity regions (PG18 Sec. VII uses "maximal configurations").
    Enumeration visits every feasible configuration; past ``max_configurations`` of
    them it refuses with :class:`theory.budgets.BudgetExceeded`.
    """
    budget = positive_int(max_configurations, name="max_configurations")
    rows, cap = _checked(sizes, capacity)
    T = len(rows)
    what = f"enumerating the feasible configurations of {T} job type{'s' if T > 1 else ''}"
    hint = "the configuration LP's column generation needs no enumeration"
    low = _count_lower_bound(rows, cap)
    if low <= budget:
        low = max(low, _count_on_grid(rows, cap))
    if low > budget:
        raise BudgetExceeded(what, f"at least {_approx(low)} configurations",
                             f"{budget:,} configurations", "max_configurations", hint)
    out: list[list[int]] = []
    with Progress("enumerating configurations", unit="configurations") as prog:
        for seen, (k, keep) in enumerate(_walk(rows, cap, maximal), 1):
            if seen > budget:
                raise BudgetExceeded(what, f"more than {budget:,} configurations",
                                     f"{budget:,} configurations", "max_configurations", hint)
            if seen & 0xFFFF == 0:
                prog.update(seen)
            if keep:
                out.append(list(k))
    return np.array(out, dtype=np.int64).reshape(-1, T)


def _count_lower_bound(rows: list[list[Number]], cap: list[Number]) -> float:
    """A lower bound on the number of feasible configurations, computed in O(T log T).

    If the m types of smallest share sigma = max_d s_jd / C_d each take at most sigma,
    any q = floor(1 / sigma) of their jobs fit together: C(m + q, q) - 1 configurations.
    """
    shares = sorted(max(Fraction(r[d]) / Fraction(cap[d]) for d in range(len(cap)))
                    for r in rows)
    best = 0.0
    for m, sigma in enumerate(shares, 1):
        q = math.floor(1 / sigma)
        if q >= 2**1000:
            return math.inf
        logc = math.lgamma(m + q + 1) - math.lgamma(m + 1) - math.lgamma(q + 1)
        exact = logc < 60
        best = max(best, math.comb(m + q, min(m, q)) - 1 if exact else
                   math.inf if logc > 700 else math.exp(logc))
    return best


#: cells of the grid on which :func:`_count_on_grid` counts configurations
_COUNT_GRID = 4096
#: types beyond which the grid count is skipped (it costs O(types x grid))
_COUNT_MAX_TYPES = 200


def _count_on_grid(rows: list[list[Number]], cap: list[Number]) -> float:
    """A lower bound on the number of feasible configurations of one resource: sizes
    rounded up to a grid of 1/4096 of the capacity only remove configurations, and the
    rounded ones are counted exactly (unbounded knapsack counting, saturated at 2^52),
    without enumerating them. 0 when not applicable (several resources, many types)."""
    if len(cap) != 1 or len(rows) > _COUNT_MAX_TYPES:
        return 0.0
    G, C = _COUNT_GRID, Fraction(cap[0])
    cells = [math.ceil(Fraction(r[0]) / C * G) for r in rows]
    count = np.zeros(G + 1)
    count[0] = 1.0
    for w in cells:
        if not 0 < w <= G:
            continue
        for start in range(w, G + 1, w):  # count[c] += count[c - w], in blocks of w
            stop = min(start + w, G + 1)
            count[start:stop] += count[start - w:stop - w]
        np.minimum(count, 2.0**52, out=count)
    return float(count[1:].sum())


def _approx(x: float) -> str:
    return "10^300" if x > 1e300 else f"{x:,.0f}" if x < 1e15 else f"{x:.3g}"


def maximal_configurations(sizes: Sequence[object], capacity: object = 1, *,
                           max_configurations: int = MAX_CONFIGURATIONS) -> np.ndarray:
    """Maximal feasible configurations (no job of any type can be added)."""
    return feasible_configurations(sizes, capacity, maximal=True,
                                   max_configurations=max_configurations)


def _fmt_row(r: Sequence[Number]) -> str:
    s = ", ".join(written(v) for v in r)
    return s if len(r) == 1 else f"({s})"


#: Largest J of K_RED^(J): its configurations hold up to 2^(J-1) jobs of one VQ.
MAX_J = 50


@dataclass(frozen=True)
class ReducedSet:
    """K_RED^(J) of PG21 Def. 6: 4J - 4 configurations over the 2J VQs of partition I."""

    J: int
    configs: np.ndarray  # shape (4J-4, 2J), integer
    labels: tuple[str, ...]  # which line of eq. (19) produced each row

    def __len__(self) -> int:
        return int(self.configs.shape[0])


def reduced_configurations(J: int) -> ReducedSet:
    """The reduced configuration set K_RED^(J), PG21 Def. 6, eq. (19).

    .. math::
        2^m e_{2m}\\ (m=0..J-1),\\quad 3\\cdot 2^{m-1} e_{2m+1}\\ (m=1..J-1),\\quad
        e_1 + \\lfloor 2^m/3 \\rfloor e_{2m}\\ (m=2..J-1),\\quad
        e_1 + 2^{m-1} e_{2m+1}\\ (m=1..J-1).
    """
    if isinstance(J, bool) or not isinstance(J, int) or J < 2:
        raise ValueError(f"K_RED needs an integer J > 1, got {short_repr(J)}")
    if J > MAX_J:
        raise ValueError(f"K_RED^(J) with J = {J} puts 2^{J - 1} jobs in one server; J is "
                         f"at most {MAX_J} (2^{MAX_J - 1} jobs, the largest count the "
                         "float LP represents exactly)")
    rows: list[np.ndarray] = []
    labels: list[str] = []

    def e(j: int, c: int = 1) -> np.ndarray:
        v = np.zeros(2 * J, dtype=np.int64)
        v[j] = c
        return v

    for m in range(J):
        rows.append(e(2 * m, 2**m))
        labels.append(f"2^{m} e_{2 * m}")
    for m in range(1, J):
        rows.append(e(2 * m + 1, 3 * 2 ** (m - 1)))
        labels.append(f"3*2^{m - 1} e_{2 * m + 1}")
    for m in range(2, J):
        rows.append(e(1) + e(2 * m, 2**m // 3))
        labels.append(f"e_1 + floor(2^{m}/3) e_{2 * m}")
    for m in range(1, J):
        rows.append(e(1) + e(2 * m + 1, 2 ** (m - 1)))
        labels.append(f"e_1 + 2^{m - 1} e_{2 * m + 1}")
    return ReducedSet(J, np.array(rows, dtype=np.int64), tuple(labels))
