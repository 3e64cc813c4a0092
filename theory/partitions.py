"""Partitions of the size axis into job types (PG21 Defs. 3-4, eq. (6), (18), Sec. VIII-A).

A partition X is a finite collection of disjoint intervals ("cells") whose union holds
all the probability of F_R. Jobs whose size falls in cell j are type-j jobs and wait in
virtual queue VQ_j (Def. 3). Upper-rounded VQs treat a type-j job as having size
``sup X_j``, lower-rounded VQs as ``inf X_j`` (Def. 4); P^(X)_j = P(R in X_j) (eq. 6).

Cells may be open or closed at either end, so atoms of F_R can be isolated as singleton
cells ``{a}`` (sup = inf = a): this is how the quantile partitions X^(n) of Sec. VIII-A
are extended here to distributions with atoms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from theory.distributions import SizeDistribution
from theory.numbers import Number, to_number

__all__ = [
    "Cell",
    "Partition",
    "partition_from_cuts",
    "universal_partition",
    "quantile_partition",
    "type_probabilities",
    "grid_partition",
]


@dataclass(frozen=True)
class Cell:
    """An interval of sizes with open or closed ends; a singleton when ``lo == hi``.

    One cell X_j of a partition (PG21 Def. 3). ``x in cell`` tests membership (``x``
    read as :func:`theory.to_number` reads it, exactly for exact input);
    :attr:`upper` = sup X_j and :attr:`lower` = inf X_j are the sizes of the upper-
    and lower-rounded virtual queues (Def. 4). A frozen dataclass; ``str`` writes
    ``(lo, hi]``, ``[lo, hi)``, ... or ``{a}`` for a singleton.

    Parameters
    ----------
    lo : number
        Lower end (a Fraction, int or float; not converted).
    hi : number
        Upper end, at least ``lo``.
    lo_closed : bool, optional
        Whether ``lo`` belongs to the cell (default False).
    hi_closed : bool, optional
        Whether ``hi`` belongs to the cell (default True: the paper's ``(lo, hi]``).

    Raises
    ------
    ValueError
        The cell is empty: ``lo > hi``, or ``lo == hi`` without both ends closed.

    References
    ----------
    PG21, Sec. III-B, Definitions 3 and 4.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import Cell
    >>> c = Cell(Fraction(1, 2), Fraction(2, 3))
    >>> str(c), "0.6" in c, "0.5" in c
    ('(1/2, 2/3]', True, False)
    >>> c.upper, c.lower
    (Fraction(2, 3), Fraction(1, 2))
    >>> str(Cell(Fraction(3, 4), Fraction(3, 4), lo_closed=True, hi_closed=True))
    '{3/4}'
    """

    lo: Number
    hi: Number
    lo_closed: bool = False
    hi_closed: bool = True

    def __post_init__(self) -> None:
        if self.lo > self.hi or (self.lo == self.hi and not (self.lo_closed and self.hi_closed)):
            raise ValueError(f"empty cell {self}")

    def __contains__(self, x: object) -> bool:
        v = to_number(x)
        above = v >= self.lo if self.lo_closed else v > self.lo
        below = v <= self.hi if self.hi_closed else v < self.hi
        return above and below

    @property
    def upper(self) -> Number:
        """Upper-rounded size sup X_j (Def. 4)."""
        return self.hi

    @property
    def lower(self) -> Number:
        """Lower-rounded size inf X_j (Def. 4)."""
        return self.lo

    def __str__(self) -> str:
        if self.lo == self.hi:
            return f"{{{self.lo}}}"
        left = "[" if self.lo_closed else "("
        right = "]" if self.hi_closed else ")"
        return f"{left}{self.lo}, {self.hi}{right}"


class Partition:
    """A finite partition of an interval of sizes into cells (PG21 Def. 3).

    ``cells`` are kept in the given order: type ``j`` is ``cells[j]``. Cells must be
    disjoint and, sorted by position, must abut so that their union is one interval.
    :attr:`upper_sizes` and :attr:`lower_sizes` are the sizes of the upper- and
    lower-rounded VQs (Def. 4); :meth:`type_of` and :meth:`classify` map sizes to
    types; :meth:`refines` compares partitions.

    Parameters
    ----------
    cells : sequence of Cell
        The cells X_j, at least one, in type order.
    name : str, optional
        Label shown in the repr and in messages (default ``"partition"``).

    Raises
    ------
    ValueError
        No cells; two neighbouring cells overlap or leave a gap.

    See Also
    --------
    partition_from_cuts, universal_partition, quantile_partition, grid_partition :
        the partitions the papers use.

    References
    ----------
    PG21, Sec. III-B, Definitions 3 and 4 and eq. (6).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from theory import Cell, Partition
    >>> p = Partition([Cell(Fraction(1, 2), 1), Cell(0, Fraction(1, 2))], name="halves")
    >>> p
    Partition(halves, 2 cells)
    >>> p.upper_sizes, p.lower_sizes
    ([1, Fraction(1, 2)], [Fraction(1, 2), 0])
    >>> p.type_of("0.5"), p.classify([0.2, 0.5, 0.9]).tolist()
    (1, [1, 1, 0])
    """

    def __init__(self, cells: Sequence[Cell], name: str = "partition"):
        if not cells:
            raise ValueError("a partition needs at least one cell")
        self.cells = list(cells)
        self.name = name
        order = sorted(range(len(self.cells)), key=lambda j: (self.cells[j].lo,
                                                               not self.cells[j].lo_closed,
                                                               self.cells[j].hi))
        for a, b in zip(order, order[1:], strict=False):
            ca, cb = self.cells[a], self.cells[b]
            if ca.hi != cb.lo or ca.hi_closed == cb.lo_closed:
                raise ValueError(f"cells {ca} and {cb} overlap or leave a gap")
        self._order = order
        first, last = self.cells[order[0]], self.cells[order[-1]]
        self.lo, self.hi = first.lo, last.hi
        self.lo_closed, self.hi_closed = first.lo_closed, last.hi_closed

    def __len__(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        return f"Partition({self.name}, {len(self)} cells)"

    @property
    def upper_sizes(self) -> list[Number]:
        """Sizes of the upper-rounded VQs, r_j = sup X_j (Def. 4)."""
        return [c.upper for c in self.cells]

    @property
    def lower_sizes(self) -> list[Number]:
        """Sizes of the lower-rounded VQs, r_j = inf X_j (Def. 4)."""
        return [c.lower for c in self.cells]

    def type_of(self, x: object) -> int:
        """Index j of the cell that contains size ``x``."""
        for j, c in enumerate(self.cells):
            if x in c:
                return j
        raise ValueError(f"size {x} lies outside the partition ({self.lo}, {self.hi}]")

    def classify(self, values: object, scale: object = 1, rtol: float = 0.0) -> np.ndarray:
        """Cell index of every float in ``values / scale``, vectorised.

        ``scale`` is the server capacity when sizes are in capacity units: the cell
        limits are multiplied by it in exact arithmetic, so no size is divided and
        a size on a cell boundary lands in the right cell. With ``rtol > 0`` a value
        within ``rtol * scale`` of a cell limit is read as that limit (a float such as
        ``0.2`` then counts as 1/5, matching the feasibility tolerance); otherwise the
        float is classified exactly. Raises for values outside the partition.
        """
        x = np.asarray(values, dtype=np.float64)
        c = to_number(scale, name="scale")
        if not c > 0:
            raise ValueError(f"scale must be positive, got {scale!r}")
        if rtol > 0:
            limits = sorted({Fraction(v) for cell in self.cells for v in (cell.lo, cell.hi)})
            lf = np.array([float(v * Fraction(c)) for v in limits])
            pos = np.clip(np.searchsorted(lf, x), 1, len(lf) - 1) if len(lf) > 1 else \
                np.zeros(x.shape, np.int64)
            near = np.where(np.abs(x - lf[pos - 1]) <= np.abs(x - lf[pos]), pos - 1, pos) \
                if len(lf) > 1 else pos
            at = np.array([self._type_at(v) for v in limits])
            # a limit outside the partition (the open end 0) is never snapped to
            snap = (np.abs(x - lf[near]) <= rtol * float(c)) & (at[near] >= 0)
            if np.any(snap):
                out = np.empty(x.shape, np.int64)
                out[snap] = at[near[snap]]
                if np.any(~snap):
                    out[~snap] = self.classify(x[~snap], scale)
                return out
        tops = []
        for j in self._order:
            cell = self.cells[j]
            b = Fraction(cell.hi) * Fraction(c)
            f = _float_at_most(b)
            if not cell.hi_closed and Fraction(f) == b:
                f = float(np.nextafter(f, -np.inf))
            tops.append(f)
        pos = np.searchsorted(np.array(tops), x, side="left")
        lo = Fraction(self.lo) * Fraction(c)
        low_f = _float_at_most(lo)
        if self.lo_closed and Fraction(low_f) != lo:
            low_f = float(np.nextafter(low_f, np.inf))
        bad = (pos >= len(tops)) | ~np.isfinite(x)
        bad |= (x < low_f) if self.lo_closed else (x <= low_f)
        if np.any(bad):
            v = x[bad][0]
            raise ValueError(f"size {v} lies outside the partition ({self.lo}, {self.hi}] x {c}")
        return np.asarray(self._order, dtype=np.int64)[pos]

    def _type_at(self, v: Fraction) -> int:
        """Cell containing the exact value v, or -1."""
        for j, cell in enumerate(self.cells):
            if v in cell:
                return j
        return -1

    def refines(self, other: Partition) -> bool:
        """True when every cell of ``self`` lies inside one cell of ``other``."""
        for c in self.cells:
            inside = False
            for d in other.cells:
                lo_ok = c.lo > d.lo or (c.lo == d.lo and (d.lo_closed or not c.lo_closed))
                hi_ok = c.hi < d.hi or (c.hi == d.hi and (d.hi_closed or not c.hi_closed))
                if lo_ok and hi_ok:
                    inside = True
                    break
            if not inside:
                return False
        return True


def _float_at_most(b: Fraction) -> float:
    """The largest float <= b."""
    f = float(b)
    if Fraction(f) > b:
        f = float(np.nextafter(f, -np.inf))
    return f


def partition_from_cuts(cuts: Sequence[object], name: str = "cuts") -> Partition:
    """Cells ``(c_{i-1}, c_i]``, i = 1 to N, between increasing cut points ``c_0`` to ``c_N``.

    Parameters
    ----------
    cuts : sequence of numbers
        The cut points, strictly increasing, at least two; exact (Fractions) for ints,
        Fractions and decimal strings.
    name : str, optional
        Label of the partition (default ``"cuts"``).

    Returns
    -------
    Partition
        N cells, type i - 1 being ``(c_{i-1}, c_i]``.

    Raises
    ------
    ValueError
        Fewer than two cut points; a cut point that is not a number; cut points not
        strictly increasing.

    References
    ----------
    PG21, Sec. III-B, Definition 3 (a partition of (0, 1] into intervals).

    Examples
    --------
    >>> from theory import partition_from_cuts
    >>> p = partition_from_cuts(["0", "0.4", "1"])
    >>> [str(c) for c in p.cells]
    ['(0, 2/5]', '(2/5, 1]']
    """
    cs = [to_number(c, name="cut point") for c in cuts]
    if len(cs) < 2:
        raise ValueError("need at least two cut points")
    if any(b <= a for a, b in zip(cs, cs[1:], strict=False)):
        raise ValueError("cut points must be strictly increasing")
    return Partition([Cell(a, b) for a, b in zip(cs, cs[1:], strict=False)], name=name)


def universal_partition(J: int) -> Partition:
    """The universal partition I of PG21 eq. (18), with 2J cells indexed 0..2J-1.

    .. math::
        I_{2m} = (\\tfrac23 2^{-m}, 2^{-m}],\\quad I_{2m+1} = (\\tfrac12 2^{-m}, \\tfrac23 2^{-m}],
        \\quad m = 0, \\dots, J-1.

    Sizes in (0, 1/2^J] join the last virtual queue VQ_{2J-1} (PG21 Sec. V-A), so the
    last cell here is ``(0, (2/3) 2^{-(J-1)}]``; its upper-rounded size is unchanged.
    PG21 V-A: such jobs are placed in VQ_{2J-1} "and their resource sizes are rounded up
    to 1/2^J" (the other jobs join their VQ "without rounding"). This affects what the
    job occupies in a server, not how configurations count it: Q_{2J-1} counts jobs
    (eq. (20)), so a small job counts once either way. VQS and VQS-BF (by default,
    ``small_jobs="rounded"`` in :mod:`policies.slotted.vqs`) pack such a job as size
    1/2^J (:func:`theory.bounds.universal_scheduled_size`); ``small_jobs="actual"``
    packs it at its real size.

    Parameters
    ----------
    J : int
        The parameter J > 1 of eq. (18).

    Returns
    -------
    Partition
        2J cells with exact (Fraction) ends, cell j being I_j of eq. (18) (the last
        extended down to 0); named ``"universal(J=...)"``.

    Raises
    ------
    ValueError
        ``J`` is not an integer above 1.

    See Also
    --------
    reduced_configurations : K_RED^(J), the configurations VQS uses on these VQs.
    choose_J : the J that Corollary 1 asks for.

    References
    ----------
    PG21, Sec. V-A, eq. (18) and the paragraph after it (small jobs in VQ_{2J-1}).

    Examples
    --------
    >>> from theory import universal_partition
    >>> p = universal_partition(2)
    >>> [str(c) for c in p.cells]
    ['(2/3, 1]', '(1/2, 2/3]', '(1/3, 1/2]', '(0, 1/3]']
    >>> p.upper_sizes
    [Fraction(1, 1), Fraction(2, 3), Fraction(1, 2), Fraction(1, 3)]
    """
    if not isinstance(J, int) or J < 2:
        raise ValueError(f"the universal partition needs an integer J > 1 (eq. 18), got {J!r}")
    cells = []
    for m in range(J):
        top = Fraction(1, 2**m)
        cells.append(Cell(Fraction(2, 3) * top, top))
        cells.append(Cell(Fraction(1, 2) * top if m < J - 1 else Fraction(0),
                          Fraction(2, 3) * top))
    return Partition(cells, name=f"universal(J={J})")


def quantile_partition(dist: SizeDistribution, n: int, *, tight: bool = True) -> Partition:
    """The quantile partition X^(n) of PG21 Sec. VIII-A, extended to atoms.

    For a continuous F_R, X^(n) has ``2^(n+1)`` cells ``(xi_{i-1}, xi_i]`` with
    F_R(xi_i) = i / 2^(n+1): each cell has probability 1/2^(n+1).

    Extension to general F_R: the cut points are the generalised quantiles
    ``F^{-1}(i / 2^(n+1))`` together with every atom; each atom becomes a singleton cell
    ``{a}`` (so it is never rounded) and the intervals between cut points are open at
    atoms. X^(n+1) refines X^(n), so the Theorem 1 bounds are monotone in n.

    With ``tight=False`` the outer cut points are 0 and 1 exactly as in the paper (the
    setting of identity (40)-(41)); with ``tight=True`` they are the ends of the support,
    which gives a much narrower bracket for distributions that do not reach 0 or 1.

    Parameters
    ----------
    dist : SizeDistribution
        Scalar sizes in (0, 1] (support within [0, 1]). Exact distributions give exact
        cut points.
    n : int
        The level n >= 0: 2^(n+1) quantile cells (plus singletons for atoms).
    tight : bool, optional
        Keyword only. True (default): the outer cut points are the ends of the support;
        False: 0 and 1, as in the paper.

    Returns
    -------
    Partition
        The cells in increasing order of size, named ``"quantile(n=...)"``.

    Raises
    ------
    ValueError
        ``n`` is not a non-negative integer; ``dist`` has vector sizes; its support
        is not within [0, 1] (sizes must be fractions of a server).

    See Also
    --------
    lower_from_upper_quantile : eq. (40) for these partitions.
    type_probabilities : P^(X)_j, here 1/2^(n+1) per cell for a continuous F_R.

    References
    ----------
    PG21, Sec. VIII-A (proof of Theorem 1: partitions X^(n), eqs. (31)-(41), and the
    general distributions).

    Examples
    --------
    >>> from theory import Discrete, Mixture, Uniform, quantile_partition
    >>> u = Uniform("0.1", "0.9")
    >>> [str(c) for c in quantile_partition(u, 1).cells]
    ['(1/10, 3/10]', '(3/10, 1/2]', '(1/2, 7/10]', '(7/10, 9/10]']
    >>> [str(c) for c in quantile_partition(u, 1, tight=False).cells]
    ['(0, 3/10]', '(3/10, 1/2]', '(1/2, 7/10]', '(7/10, 1]']

    An atom at 3/4 becomes a singleton cell:

    >>> m = Mixture([Uniform("0", "1/2"), Discrete(["3/4"])], ["1/2", "1/2"])
    >>> [str(c) for c in quantile_partition(m, 0).cells]
    ['(0, 1/2]', '(1/2, 3/4)', '{3/4}']
    """
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"level n must be a non-negative integer, got {n!r}")
    if dist.dim != 1:
        raise ValueError("quantile partitions need scalar sizes")
    lo, hi = dist.support()
    if not (lo >= 0 and 0 < hi <= 1):
        raise ValueError(f"sizes must lie in (0, 1] (capacity-normalised); support is [{lo}, {hi}]")
    m = 2 ** (n + 1)
    atoms = {a for a, _p in dist.atoms()}
    exact = dist.exact
    pts = set(atoms)
    for i in range(1, m):
        pts.add(dist.quantile(Fraction(i, m) if exact else i / m))
    if tight:
        pts.update([lo, hi])
        a0, b0 = lo, hi
    else:
        a0, b0 = (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)
        pts.update([a0, b0])
    pts_sorted = sorted(p for p in pts if a0 <= p <= b0)
    cells: list[Cell] = []
    if pts_sorted[0] in atoms and pts_sorted[0] > 0:
        cells.append(Cell(pts_sorted[0], pts_sorted[0], True, True))
    for a, b in zip(pts_sorted, pts_sorted[1:], strict=False):
        if b in atoms:
            cells.append(Cell(a, b, False, False))
            cells.append(Cell(b, b, True, True))
        else:
            cells.append(Cell(a, b, False, True))
    return Partition(cells, name=f"quantile(n={n}{', tight' if tight else ''})")


def type_probabilities(dist: SizeDistribution, partition: Partition) -> list[Number]:
    """P^(X)_j = P(R in X_j) for every cell (PG21 eq. (6)).

    Raises ``ValueError`` when the cells miss some of the probability.

    Parameters
    ----------
    dist : SizeDistribution
        Scalar sizes F_R.
    partition : Partition
        The partition X; its cells should cover the support of ``dist``.

    Returns
    -------
    list of number
        P^(X)_j in the order of ``partition.cells``; exact (Fractions) for an exact
        distribution with rational cell ends.

    Raises
    ------
    ValueError
        The probabilities sum to something other than 1 (beyond 1e-9): the partition
        does not cover the support; ``dist`` has vector sizes.

    References
    ----------
    PG21, Sec. III-B, eq. (6).

    Examples
    --------
    >>> from theory import Discrete, Uniform, quantile_partition, type_probabilities
    >>> from theory import universal_partition
    >>> type_probabilities(Discrete(["0.4", "0.6"]), universal_partition(2))
    [Fraction(0, 1), Fraction(1, 2), Fraction(1, 2), Fraction(0, 1)]
    >>> u = Uniform("0.1", "0.9")
    >>> type_probabilities(u, quantile_partition(u, 1))
    [Fraction(1, 4), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)]
    """
    probs = [dist.prob(c.lo, c.hi, lo_closed=c.lo_closed, hi_closed=c.hi_closed)
             for c in partition.cells]
    total = sum(probs)
    if abs(float(total) - 1.0) > 1e-9:
        raise ValueError(f"{partition} holds probability {float(total):.12g} of the "
                         "distribution, not 1: it does not cover the support")
    return probs


def grid_partition(grid: int, lo: object = 0, hi: object = 1) -> Partition:
    """Cells ``((i-1)/G, i/G]`` of a regular grid covering [lo, hi] (within [0, 1]).

    With upper rounding every size becomes a multiple of 1/G, so a server's
    configurations are those of an integer knapsack of capacity G: the grid
    partition gives Theorem 1 brackets that are fast to solve for many small sizes
    (PG21 Thm. 1 holds for every partition). The cells run from floor(lo G)/G to
    ceil(hi G)/G, so they cover [lo, hi] with whole grid steps.

    Parameters
    ----------
    grid : int
        The number G of grid steps per unit of size, a positive integer.
    lo : number, optional
        Smallest size to cover (default 0).
    hi : number, optional
        Largest size to cover (default 1); ``0 <= lo < hi <= 1``.

    Returns
    -------
    Partition
        Cells ``((i-1)/G, i/G]`` with exact ends, named ``"grid(1/G)"``.

    Raises
    ------
    ValueError
        ``grid`` is not a positive integer; ``lo`` or ``hi`` is not a number; not
        ``0 <= lo < hi <= 1``.

    References
    ----------
    PG21, Sec. III-B, Definitions 3-4 and Theorem 1 (the bracket holds for any
    partition).

    Examples
    --------
    >>> from theory import grid_partition
    >>> [str(c) for c in grid_partition(4).cells]
    ['(0, 1/4]', '(1/4, 1/2]', '(1/2, 3/4]', '(3/4, 1]']
    >>> [str(c) for c in grid_partition(10, "0.25", "0.5").cells]
    ['(1/5, 3/10]', '(3/10, 2/5]', '(2/5, 1/2]']
    """
    if isinstance(grid, bool) or not isinstance(grid, int) or grid < 1:
        raise ValueError(f"grid must be a positive integer, got {grid!r}")
    a, b = Fraction(to_number(lo, name="lo")), Fraction(to_number(hi, name="hi"))
    if not 0 <= a < b <= 1:
        raise ValueError(f"need 0 <= lo < hi <= 1, got {lo}, {hi}")
    i0 = math.floor(a * grid)
    i1 = math.ceil(b * grid)
    cuts = [Fraction(i, grid) for i in range(i0, i1 + 1)]
    return Partition([Cell(x, y) for x, y in zip(cuts, cuts[1:], strict=False)],
                     name=f"grid(1/{grid})")
