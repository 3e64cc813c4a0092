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
    """Sizes as a list of rows (one per type; length = number of resources).

    Every number is read as :func:`theory.to_number` reads it: ints, Fractions and
    decimal or ratio strings become exact Fractions, floats stay floats.

    Parameters
    ----------
    sizes : sequence
        One size per job type: a number (one resource) or a list, tuple or array of
        numbers (one per resource), the same length for every type.

    Returns
    -------
    list of list of number
        ``rows[j][d]``: the size of type j in resource d.

    Raises
    ------
    ValueError
        No types; rows of different lengths; an entry that is not a finite number; a
        row with a negative entry or with no positive entry.

    References
    ----------
    PG21, Sec. III-A, Definition 1 (sizes r_j); PG18, Sec. II (vectors s_j);
    docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from theory import as_size_matrix
    >>> as_size_matrix(["0.4", "0.6"])
    [[Fraction(2, 5)], [Fraction(3, 5)]]
    >>> as_size_matrix([(1, 2), (2, 1)])
    [[Fraction(1, 1), Fraction(2, 1)], [Fraction(2, 1), Fraction(1, 1)]]
    """
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
    """Capacity as a vector of length ``dim`` (a scalar is repeated).

    Parameters
    ----------
    capacity : number or sequence of numbers
        The capacity of one server: one positive number for every resource, or a flat
        list, tuple or array with one positive number per resource.
    dim : int
        The number of resources (the length of a size row).

    Returns
    -------
    list of number
        ``dim`` capacities, exact (Fractions) for exact input.

    Raises
    ------
    ValueError
        ``capacity`` is nested, not a number, or not positive; a list whose length
        differs from ``dim``.

    References
    ----------
    PG18, Sec. II (capacities per resource); PG21, Sec. II (capacity normalised to
    one); docs/design.md, section Rationals and floats.

    Examples
    --------
    >>> from theory import as_capacity
    >>> as_capacity(1, 2)
    [Fraction(1, 1), Fraction(1, 1)]
    >>> as_capacity([64, "128"], 2)
    [Fraction(64, 1), Fraction(128, 1)]
    """
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
    """PG21 Def. 1: ``sum_j k_j r_j <= capacity`` (every resource), ``k_j`` in Z_+.

    Exact for rational sizes and capacity; with floats, within
    ``theory.FEASIBILITY_RTOL`` (1e-9, relative).

    Parameters
    ----------
    k : sequence of int
        The configuration: ``k[j]`` jobs of type j (non-negative integers).
    sizes : sequence
        Sizes per type, as :func:`as_size_matrix` reads them.
    capacity : number or sequence of numbers, optional
        Server capacity (default 1), as :func:`as_capacity` reads it.

    Returns
    -------
    bool
        True when the jobs of ``k`` fit together in one server, in every resource.

    Raises
    ------
    ValueError
        ``k`` has a length other than the number of types, or an entry that is not a
        non-negative integer; invalid ``sizes`` or ``capacity`` (see
        :func:`as_size_matrix` and :func:`as_capacity`).

    References
    ----------
    PG21, Sec. III-A, Definition 1; PG18, Sec. II (vector sizes);
    docs/design.md, section Rationals and floats (the tolerance).

    Examples
    --------
    Sizes 0.4 and 0.6 (PG21 Sec. VII-A.1): one of each fills a unit server exactly.

    >>> from theory import is_feasible
    >>> is_feasible([1, 1], ["0.4", "0.6"]), is_feasible([2, 1], ["0.4", "0.6"])
    (True, False)
    >>> is_feasible([1, 1], [(1, 2), (2, 1)], capacity=[3, 3])
    True
    """
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
    """Feasible configurations (Def. 1, zero excluded) one at a time, in lexicographic order.

    Nothing is stored, so the caller decides how many it can afford (no budget
    applies, unlike :func:`feasible_configurations`).

    Parameters
    ----------
    sizes : sequence
        Sizes per type, as :func:`as_size_matrix` reads them; each must fit alone.
    capacity : number or sequence of numbers, optional
        Server capacity (default 1), as :func:`as_capacity` reads it.
    maximal : bool, optional
        Keyword only. True: only configurations to which no job of any type can be
        added. Default False.

    Yields
    ------
    list of int
        One configuration k (``k[j]`` jobs of type j), a new list each time.

    Raises
    ------
    ValueError
        Invalid ``sizes`` or ``capacity``; a type that does not fit in an empty
        server. Raised at the first ``next``.

    References
    ----------
    PG21, Sec. III-A, Definition 1; PG18, Sec. II and Sec. VII (maximal
    configurations).

    Examples
    --------
    >>> from theory import iter_configurations
    >>> list(iter_configurations(["0.4", "0.6"]))
    [[0, 1], [1, 0], [1, 1], [2, 0]]
    >>> list(iter_configurations(["0.4", "0.6"], maximal=True))
    [[1, 1], [2, 0]]
    """
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
    them it refuses with :class:`theory.budgets.BudgetExceeded`. A lower bound on
    their number is computed first, so a hopeless enumeration is refused at once.

    Parameters
    ----------
    sizes : sequence
        Sizes per type, as :func:`as_size_matrix` reads them; each must fit alone.
    capacity : number or sequence of numbers, optional
        Server capacity (default 1), as :func:`as_capacity` reads it.
    maximal : bool, optional
        Keyword only. True: only the maximal configurations. Default False.
    max_configurations : int, optional
        Keyword only. Most feasible configurations enumerated (default
        ``MAX_CONFIGURATIONS``, 2,000,000); a positive integer.

    Returns
    -------
    numpy.ndarray
        Integer array of shape (number of configurations, number of types), one
        configuration per row, in lexicographic order.

    Raises
    ------
    ValueError
        Invalid ``sizes`` or ``capacity``; a type that does not fit in an empty
        server; ``max_configurations`` not a positive integer.
    BudgetExceeded
        More than ``max_configurations`` feasible configurations (a ``ValueError``).

    See Also
    --------
    iter_configurations : the same, one at a time and without a budget.
    reduced_configurations : the 4J - 4 configurations of VQS.

    References
    ----------
    PG21, Sec. III-A, Definition 1 and eq. (4); PG18, Sec. II and Sec. VII (maximal
    configurations); docs/design.md, section Budgets.

    Examples
    --------
    >>> from theory import feasible_configurations
    >>> feasible_configurations(["0.4", "0.6"]).tolist()
    [[0, 1], [1, 0], [1, 1], [2, 0]]
    >>> feasible_configurations([(1, 2), (2, 1)], [4, 4], maximal=True).tolist()
    [[0, 2], [1, 1], [2, 0]]
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
    """Maximal feasible configurations (no job of any type can be added).

    ``feasible_configurations(sizes, capacity, maximal=True)``: their convex hull
    dominates every feasible configuration, so they suffice for ``rho*`` and for
    capacity regions.

    Parameters
    ----------
    sizes : sequence
        Sizes per type, as :func:`as_size_matrix` reads them; each must fit alone.
    capacity : number or sequence of numbers, optional
        Server capacity (default 1), as :func:`as_capacity` reads it.
    max_configurations : int, optional
        Keyword only. Most feasible configurations visited (default
        ``MAX_CONFIGURATIONS``, 2,000,000).

    Returns
    -------
    numpy.ndarray
        Integer array, one maximal configuration per row, in lexicographic order.

    Raises
    ------
    ValueError
        As :func:`feasible_configurations`.
    BudgetExceeded
        More than ``max_configurations`` feasible configurations (all are visited).

    References
    ----------
    PG18, Sec. III and Sec. VII (maximal configurations); PG21, Sec. VIII-C
    (maximal configurations (2, 0) and (0, 1)); docs/design.md, section Budgets.

    Examples
    --------
    >>> from theory import maximal_configurations
    >>> maximal_configurations(["0.4", "0.6"]).tolist()
    [[1, 1], [2, 0]]
    """
    return feasible_configurations(sizes, capacity, maximal=True,
                                   max_configurations=max_configurations)


def _fmt_row(r: Sequence[Number]) -> str:
    s = ", ".join(written(v) for v in r)
    return s if len(r) == 1 else f"({s})"


#: Largest J of K_RED^(J): its configurations hold up to 2^(J-1) jobs of one VQ.
MAX_J = 50


@dataclass(frozen=True)
class ReducedSet:
    """K_RED^(J) of PG21 Def. 6: 4J - 4 configurations over the 2J VQs of partition I.

    Built by :func:`reduced_configurations`; ``len()`` is the number of
    configurations.

    Parameters
    ----------
    J : int
        The parameter J > 1 of the universal partition (2J virtual queues).
    configs : numpy.ndarray
        Integer array of shape (4J - 4, 2J): one configuration per row, column j
        counting jobs of VQ_j.
    labels : tuple of str
        For each row, the line of eq. (19) that produced it (``"2^1 e_2"``, ...).

    References
    ----------
    PG21, Sec. V-B, Definition 6, eq. (19).

    Examples
    --------
    >>> from theory import reduced_configurations
    >>> r = reduced_configurations(2)
    >>> len(r), r.configs.tolist()
    (4, [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3], [0, 1, 0, 1]])
    >>> r.labels
    ('2^0 e_0', '2^1 e_2', '3*2^0 e_3', 'e_1 + 2^0 e_3')
    """

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

    The sizes of the upper-rounded VQs of :func:`universal_partition` make every
    configuration feasible; VQ indices run 0..2J-1.

    Parameters
    ----------
    J : int
        The parameter J of the universal partition, an integer with 1 < J <= 50
        (``MAX_J``).

    Returns
    -------
    ReducedSet
        The 4J - 4 configurations with their labels, in the order of eq. (19).

    Raises
    ------
    ValueError
        ``J`` is not an integer above 1, or exceeds ``MAX_J`` = 50.

    References
    ----------
    PG21, Sec. V-B, Definition 6, eq. (19).

    Examples
    --------
    >>> from theory import reduced_configurations
    >>> r = reduced_configurations(3)
    >>> len(r)
    8
    >>> r.configs[5].tolist(), r.labels[5]
    ([0, 1, 0, 0, 1, 0], 'e_1 + floor(2^2/3) e_4')
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
