"""Linear and mixed-integer programs in matrix form, apart from the solver that runs them.

A :class:`LinearProgram` is

.. math::
    \\min_x \\ (\\text{or } \\max_x)\\ c^T x + c_0 \\quad\\text{s.t.}\\quad
    r_l \\le A x \\le r_u, \\quad l \\le x \\le u, \\quad x_j \\in \\mathbb{Z}\\ (j \\in I),

with ``A`` a scipy CSR matrix, plus *named blocks*: each block of variables (and of
rows) is an integer index array of the block's shape, ``-1`` where the model has no
variable (the value there is 0) or no row. Solutions and duals come back as arrays of
those shapes. The XLL21 programs (:mod:`capacity.flowtime_programs`,
:mod:`capacity.slot_programs`) are built once in this form; :func:`solve` runs it with
``method="highs"`` (highspy, the CSR matrix passed whole with ``passModel``) or
``method="cvxpy"`` (the same matrices as a cvxpy problem: HiGHS for MILPs, cvxpy's default
solver for LPs).

Every answer is re-checked against the rows and bounds (STYLE anchor 4) and comes back
as a :class:`ProgramResult`; anything but a solution (infeasible, unbounded, a solver
failure, a limit reached without an incumbent) raises :class:`ProgramError` with the
solver's status.

Duals (LPs only): ``duals[block][r]`` is the shadow price of row r, the derivative of
the optimal value with respect to the row's active bound (its upper bound for ``<=``
rows, its lower bound for ``>=`` rows, the right-hand side of equalities), 0 for rows
not at a bound. So for a minimisation a binding ``<=`` row has a dual <= 0 and a binding
``>=`` row a dual >= 0 (HiGHS's ``row_dual`` as it comes); both methods report this
convention and the tests check it with finite differences (STYLE anchor 5).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from theory.budgets import check_budget
from theory.json_ready import json_ready

__all__ = [
    "BYTES_PER_NONZERO",
    "DEFAULT_TIME_LIMIT",
    "Deadline",
    "SETUP_SECONDS_PER_NONZERO",
    "check_program_memory",
    "LinearProgram",
    "ProgramBuilder",
    "ProgramError",
    "ProgramResult",
    "PROGRAM_METHODS",
    "solve",
]

PROGRAM_METHODS = ("highs", "cvxpy")
SENSES = ("minimize", "maximize")
#: A returned solution may break a row or bound by at most this, times 1 + |bound|.
FEASIBILITY_TOL = 1e-5
#: Integer variables within this of an integer are snapped to it.
INTEGRALITY_TOL = 1e-5
#: Seconds an offline optimum (building and solving) may take unless ``time_limit`` says
#: otherwise; ``packsched optimum --time-limit`` has the same default (a crowded P1 MILP of
#: 40 jobs is not proven in minutes: the answer then carries its proven bounds).
DEFAULT_TIME_LIMIT = 60.0
#: Seconds per constraint-matrix nonzero to build a program and hand it to HiGHS, before
#: HiGHS first reads its clock (measured 0.6-2.6 us on two shared cores for the FL24 and
#: XLL21 MILPs of 2-18 million nonzeros): a call whose time limit leaves less than this
#: estimate does not build the program.
SETUP_SECONDS_PER_NONZERO = 2e-6
#: Peak bytes per nonzero while a program is built and handed to HiGHS (COO triplets,
#: CSR, HiGHS's copy; measured 67-100 on the FL24 programs of 2-18 million nonzeros).
BYTES_PER_NONZERO = 100


def check_program_memory(nonzeros: float, memory_budget: float, what: str) -> None:
    """Refuse (:class:`theory.budgets.BudgetExceeded`, keyword ``memory_budget``) a program
    whose building would need more than ``memory_budget`` bytes."""
    if isinstance(memory_budget, bool) or not isinstance(
            memory_budget, int | float | np.integer | np.floating) or not memory_budget > 0:
        raise ValueError(f"memory_budget must be a number of bytes > 0, got "
                         f"{memory_budget!r}")
    check_budget(nonzeros * BYTES_PER_NONZERO, memory_budget,
                 what=f"building {what} ({int(nonzeros):,} nonzeros)",
                 option="memory_budget", unit="bytes",
                 hint=f"{BYTES_PER_NONZERO} bytes per nonzero; or fewer jobs or a shorter "
                      f"horizon")


class ProgramError(RuntimeError):
    """The program has no solution to return (infeasible, unbounded, solver failure,
    limit reached with no incumbent); ``status`` keeps the solver's status.

    Raised by :func:`solve` and the programs built on it (the XLL21 and FL24 optima,
    :func:`capacity.solve_volume_knapsack` with ``method="exact"``). A
    ``RuntimeError``: the command line reports it with exit status 3.

    Parameters
    ----------
    message : str
        What failed, naming the program and the solver's status in words.
    status : str, default ""
        The solver's status as it gave it (``"Infeasible"``, ``"solver_error"``,
        ``"invalid_solution"``, ...), kept as the attribute ``status``.

    References
    ----------
    docs/design.md, sections Programs and Errors.

    Examples
    --------
    >>> from capacity import ProgramBuilder, ProgramError, solve
    >>> B = ProgramBuilder("impossible")
    >>> x = B.add_variables("x", (1,), lower=2.0)
    >>> B.add_terms(B.add_rows("cap", (), upper=1.0), x)   # x <= 1 and x >= 2
    >>> try:
    ...     solve(B.build())
    ... except ProgramError as e:
    ...     print(e, "|", e.status)
    impossible: no solution (HiGHS status Infeasible) | Infeasible
    """

    def __init__(self, message: str, status: str = ""):
        super().__init__(message)
        self.status = status


class Deadline:
    """The clock of one call with a ``time_limit`` (seconds, or None for none): building
    checks :meth:`expired` between steps, the solver gets :meth:`remaining`. An
    enclosing :func:`capacity.time_limit` block counts too (the earlier end wins)."""

    def __init__(self, time_limit: float | None):
        if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(
                time_limit, int | float | np.integer | np.floating)
                or not math.isfinite(time_limit) or time_limit <= 0):
            raise ValueError(f"time_limit must be a number of seconds > 0 (or None for no "
                             f"limit), got {time_limit!r}")
        self.start = time.perf_counter()
        self.limit = None if time_limit is None else float(time_limit)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        """Seconds left (None: no limit)."""
        from capacity.deadline import remaining

        own = None if self.limit is None else self.limit - self.elapsed()
        outer = remaining()
        return outer if own is None else own if outer is None else min(own, outer)

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def too_short_for(self, nonzeros: float) -> str | None:
        """Why a program of ``nonzeros`` cannot be built and loaded in the time left
        (:data:`SETUP_SECONDS_PER_NONZERO`), or None when it can."""
        left = self.remaining()
        need = nonzeros * SETUP_SECONDS_PER_NONZERO
        if left is None or need <= left:
            return None
        return (f"the program was not built: its {int(nonzeros):,} nonzeros would take "
                f"about {need:.3g} s to build and load, and the time limit leaves "
                f"{max(left, 0.0):.3g} s")


def solve_before(program: LinearProgram, clock: Deadline, *, method: str,
                 infeasible: str) -> ProgramResult | None:
    """:func:`solve` within the time ``clock`` leaves: the result, or None when the solver
    stopped at the limit with no schedule; an infeasible program raises
    :class:`ProgramError` with ``infeasible`` (why, e.g. the horizon) appended."""
    try:
        return solve(program, method=method, time_limit=clock.remaining())
    except ProgramError as e:
        if "nfeasible" in str(e):
            raise ProgramError(f"{e}: {infeasible}", e.status) from None
        if "limit" in str(e).lower() or clock.expired():
            return None
        raise


def _shape_text(a: np.ndarray) -> str:
    return "x".join(str(s) for s in a.shape) or "scalar"


@dataclass(frozen=True, repr=False)
class ProgramResult:
    """Answer of a program: ``value`` is the objective of ``solution``; ``lower`` and
    ``upper`` bound the optimum (equal when solved to optimality; for a MILP stopped at
    a limit, the dual bound and the incumbent). ``solution`` and ``duals`` map block
    names to arrays (``duals`` None for MILPs and QPs).

    Frozen; returned by :func:`solve` and by the XLL21 and FL24 optima, which add
    their own entries to ``solution`` and ``extra``.

    Parameters
    ----------
    status : str
        ``"optimal"``, or the limit that stopped the solver (``"time_limit"``,
        ``"node_limit"``, ...); the offline optima also use ``"horizon_limit"`` and
        ``"solver_tolerance"``.
    value : float
        The objective of ``solution`` (NaN when an optimum found no schedule).
    lower, upper : float
        Proven bounds on the optimum (``-inf`` / ``inf`` when none is known).
    solution : dict of str to numpy.ndarray
        The solution per variable block, in the block's shape (0 where the block has
        no variable).
    duals : dict of str to numpy.ndarray or None
        Shadow prices per row block (LPs only; the sign convention of
        :mod:`capacity.programs`): the derivative of the optimal value with respect
        to the row's active bound.
    method : str
        ``"highs"`` or ``"cvxpy"`` (``"none"`` when no solver ran).
    solver : str
        The solver and its version.
    seconds : float
        Wall-clock seconds of the call.
    extra : dict, default {}
        Facts about the run: ``max_violation`` of the re-check, sizes, the MILP dual
        bound, and what the offline optima add.

    References
    ----------
    docs/design.md, section Programs.

    Examples
    --------
    >>> from capacity import ProgramBuilder, solve
    >>> B = ProgramBuilder("tiny", sense="maximize")
    >>> x = B.add_variables("x", (2,), upper=[3.0, 1.0], cost=[1.0, 2.0])
    >>> B.add_terms(B.add_rows("budget", (), upper=3.0), x)
    >>> res = solve(B.build())
    >>> res
    ProgramResult(status='optimal', value=4, bounds=[4, 4], method='highs', seconds=...,
    solution={x: 2})
    >>> res.solution["x"].tolist(), float(res.duals["budget"]), res.gap
    ([2.0, 1.0], 1.0, 0.0)
    """

    status: str
    value: float
    lower: float
    upper: float
    solution: dict[str, np.ndarray]
    duals: dict[str, np.ndarray] | None
    method: str
    solver: str
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return self.value

    @property
    def gap(self) -> float:
        """``(upper - lower) / max(1, abs(value))``."""
        return (self.upper - self.lower) / max(1.0, abs(self.value))

    def __repr__(self) -> str:
        blocks = ", ".join(f"{k}: {_shape_text(np.asarray(v))}"
                           for k, v in self.solution.items())
        return (f"ProgramResult(status={self.status!r}, value={self.value:.10g}, "
                f"bounds=[{self.lower:.10g}, {self.upper:.10g}], method={self.method!r}, "
                f"seconds={self.seconds:.3g}, solution={{{blocks}}})")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict (arrays as nested lists, infinities as None)."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "status": self.status, "value": num(self.value), "lower": num(self.lower),
            "upper": num(self.upper), "gap": num(self.gap), "method": self.method,
            "solver": self.solver, "seconds": self.seconds,
            "solution": json_ready(self.solution),
            "duals": None if self.duals is None else json_ready(self.duals),
            "extra": json_ready(self.extra),
        }


@dataclass(frozen=True, repr=False)
class LinearProgram:
    """``sense`` c^T x + ``constant`` s.t. ``row_lower <= A x <= row_upper``,
    ``col_lower <= x <= col_upper``, x_j integer where ``integrality`` (see module
    docstring). ``variables`` / ``rows``: block name -> index array (``-1``: absent).

    Frozen and validated on construction; usually made by :class:`ProgramBuilder`
    and run by :func:`solve`.

    Parameters
    ----------
    c : numpy.ndarray
        Objective coefficients, one per variable (finite).
    A : scipy.sparse.csr_matrix
        The constraint matrix, rows by variables (finite entries).
    row_lower, row_upper : numpy.ndarray
        Bounds on ``A x``, one per row (``-inf`` / ``inf`` for none).
    col_lower, col_upper : numpy.ndarray
        Bounds on ``x``, one per variable.
    integrality : numpy.ndarray
        Booleans, True where the variable is integer (then a MILP).
    variables : mapping of str to numpy.ndarray
        Named blocks of variables: an index array of the block's shape, -1 where the
        model has no variable.
    rows : mapping of str to numpy.ndarray
        Named blocks of rows, likewise.
    constant : float, default 0.0
        Added to the objective.
    sense : {"minimize", "maximize"}, default "minimize"
        The direction of optimisation.
    name : str, default ""
        Shown in messages and the repr.

    Raises
    ------
    ValueError
        If ``sense`` is unknown, ``A`` is not sparse of shape (rows, variables), a
        bound or ``integrality`` has the wrong length, a coefficient is not finite, a
        lower bound exceeds its upper bound, or a block indexes outside the program.

    References
    ----------
    docs/design.md, section Programs.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from capacity import LinearProgram, solve
    >>> lp = LinearProgram(c=np.array([1.0, 2.0]), A=sp.csr_matrix([[1.0, 1.0]]),
    ...                    row_lower=np.array([-np.inf]), row_upper=np.array([3.0]),
    ...                    col_lower=np.zeros(2), col_upper=np.array([3.0, 1.0]),
    ...                    integrality=np.zeros(2, dtype=bool),
    ...                    variables={"x": np.array([0, 1])}, rows={"budget": np.array(0)},
    ...                    sense="maximize", name="tiny")
    >>> lp
    LinearProgram(tiny: 2 variables (0 integer), 1 rows, 2 nonzeros, maximize)
    >>> solve(lp).value
    4.0
    """

    c: np.ndarray
    A: sp.csr_matrix
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integrality: np.ndarray
    variables: Mapping[str, np.ndarray]
    rows: Mapping[str, np.ndarray]
    constant: float = 0.0
    sense: str = "minimize"
    name: str = ""

    def __post_init__(self) -> None:
        n, m = len(self.c), len(self.row_lower)
        if self.sense not in SENSES:
            raise ValueError(f"sense must be one of {SENSES}, got {self.sense!r}")
        if not sp.issparse(self.A) or self.A.shape != (m, n):
            raise ValueError(f"A must be a sparse {m} x {n} matrix")
        for what, arr, size in (("row_upper", self.row_upper, m), ("col_lower", self.col_lower,
                                n), ("col_upper", self.col_upper, n),
                                ("integrality", self.integrality, n)):
            if len(arr) != size:
                raise ValueError(f"{what} has {len(arr)} entries, expected {size}")
        if not (np.all(np.isfinite(self.c)) and np.all(np.isfinite(self.A.data))
                and math.isfinite(self.constant)):
            raise ValueError("objective and matrix coefficients must be finite")
        if np.any(self.row_lower > self.row_upper) or np.any(self.col_lower > self.col_upper):
            raise ValueError("a lower bound exceeds its upper bound")
        for kind, blocks, size in (("variable", self.variables, n), ("row", self.rows, m)):
            for k, idx in blocks.items():
                if idx.size and (idx.max() >= size or idx.min() < -1):
                    raise ValueError(f"{kind} block {k!r} indexes outside 0..{size - 1}")

    @property
    def num_variables(self) -> int:
        return len(self.c)

    @property
    def num_rows(self) -> int:
        return len(self.row_lower)

    @property
    def num_integer(self) -> int:
        return int(np.count_nonzero(self.integrality))

    @property
    def is_mip(self) -> bool:
        return self.num_integer > 0

    def __repr__(self) -> str:
        kind = "MILP" if self.is_mip else "LP"
        return (f"LinearProgram({self.name or kind}: {self.num_variables} variables "
                f"({self.num_integer} integer), {self.num_rows} rows, {self.A.nnz} nonzeros, "
                f"{self.sense})")

    def objective(self, x: np.ndarray) -> float:
        return float(self.c @ x + self.constant)

    def violation(self, x: np.ndarray) -> float:
        """Largest violation of a row or bound by ``x``, each relative to ``1 + abs(bound)``."""
        ax = self.A @ x
        worst = 0.0
        for val, lo, hi in ((ax, self.row_lower, self.row_upper),
                            (x, self.col_lower, self.col_upper)):
            if len(val):
                with np.errstate(invalid="ignore"):
                    below = np.where(np.isfinite(lo), (lo - val) / (1 + np.abs(lo)), 0.0)
                    above = np.where(np.isfinite(hi), (val - hi) / (1 + np.abs(hi)), 0.0)
                worst = max(worst, float(np.max(below)), float(np.max(above)))
        return worst

    def unpack(self, x: np.ndarray, blocks: Mapping[str, np.ndarray] | None = None
               ) -> dict[str, np.ndarray]:
        """Named arrays of a vector over the variables (or, with ``blocks=self.rows``,
        over the rows); 0 where the block has no entry."""
        out = {}
        for k, idx in (self.variables if blocks is None else blocks).items():
            vals = np.where(idx >= 0, x[np.maximum(idx, 0)] if len(x) else 0.0, 0.0)
            out[k] = np.asarray(vals, dtype=float)
        return out


class ProgramBuilder:
    """Collects variable blocks, row blocks and coefficients (COO triplets), then
    :meth:`build` makes the :class:`LinearProgram`.

    :meth:`add_variables` and :meth:`add_rows` return index arrays of the block's
    shape (``-1`` outside a mask); :meth:`add_terms` adds coefficients
    ``A[rows, cols] += values`` with numpy broadcasting, so a whole block of rows is
    written in one call; :meth:`build` sums duplicate entries into a CSR matrix.

    Parameters
    ----------
    name : str, default ""
        The program's name (messages, repr).
    sense : {"minimize", "maximize"}, default "minimize"
        The direction of optimisation (checked by :meth:`build`).

    References
    ----------
    docs/design.md, section Programs.

    Examples
    --------
    Maximise x_0 + 2 x_1 with x_0 + x_1 <= 3, 0 <= x_0 <= 3, 0 <= x_1 <= 1:

    >>> from capacity import ProgramBuilder, solve
    >>> B = ProgramBuilder("tiny", sense="maximize")
    >>> x = B.add_variables("x", (2,), upper=[3.0, 1.0], cost=[1.0, 2.0])
    >>> row = B.add_rows("budget", (), upper=3.0)
    >>> B.add_terms(row, x)
    >>> lp = B.build()
    >>> lp
    LinearProgram(tiny: 2 variables (0 integer), 1 rows, 2 nonzeros, maximize)
    >>> lp.A.toarray().tolist()
    [[1.0, 1.0]]
    >>> solve(lp).solution["x"].tolist()
    [2.0, 1.0]
    """

    def __init__(self, name: str = "", sense: str = "minimize"):
        self.name, self.sense = name, sense
        self._n = 0
        self._m = 0
        self._cost: list[np.ndarray] = []
        self._lo: list[np.ndarray] = []
        self._hi: list[np.ndarray] = []
        self._int: list[np.ndarray] = []
        self._rlo: list[np.ndarray] = []
        self._rhi: list[np.ndarray] = []
        self._coo: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.variables: dict[str, np.ndarray] = {}
        self.rows: dict[str, np.ndarray] = {}

    def add_variables(self, name: str, shape: tuple[int, ...], *, lower: object = 0.0,
                      upper: object = np.inf, cost: object = 0.0, integer: bool = False,
                      mask: np.ndarray | None = None) -> np.ndarray:
        """A block of variables of ``shape`` (only where ``mask``); ``lower``, ``upper``,
        ``cost`` broadcast to ``shape``. Returns the index array (-1 outside the mask)."""
        if name in self.variables:
            raise ValueError(f"variable block {name!r} defined twice")
        keep = np.ones(shape, dtype=bool) if mask is None else np.broadcast_to(mask, shape)
        count = int(keep.sum())
        idx = np.full(shape, -1, dtype=np.int64)
        idx[keep] = np.arange(self._n, self._n + count)
        for store, val in ((self._lo, lower), (self._hi, upper), (self._cost, cost)):
            store.append(np.broadcast_to(np.asarray(val, dtype=float), shape)[keep])
        self._int.append(np.full(count, bool(integer)))
        self._n += count
        self.variables[name] = idx
        return idx

    def add_rows(self, name: str, shape: tuple[int, ...], *, lower: object = -np.inf,
                 upper: object = np.inf, mask: np.ndarray | None = None) -> np.ndarray:
        """A block of rows ``lower <= (A x) <= upper`` (only where ``mask``); returns the
        row index array (-1 outside the mask). Coefficients come from :meth:`add_terms`."""
        if name in self.rows:
            raise ValueError(f"row block {name!r} defined twice")
        keep = np.ones(shape, dtype=bool) if mask is None else np.broadcast_to(mask, shape)
        count = int(keep.sum())
        idx = np.full(shape, -1, dtype=np.int64)
        idx[keep] = np.arange(self._m, self._m + count)
        self._rlo.append(np.broadcast_to(np.asarray(lower, dtype=float), shape)[keep])
        self._rhi.append(np.broadcast_to(np.asarray(upper, dtype=float), shape)[keep])
        self._m += count
        self.rows[name] = idx
        return idx

    def add_terms(self, rows: object, cols: object, values: object = 1.0) -> None:
        """Coefficients A[rows, cols] += values (broadcast together; pairs with a -1 row
        or column are skipped)."""
        r, c, v = np.broadcast_arrays(np.asarray(rows), np.asarray(cols),
                                      np.asarray(values, dtype=float))
        keep = (r >= 0) & (c >= 0) & (v != 0)
        self._coo.append((r[keep].ravel(), c[keep].ravel(), v[keep].ravel()))

    def build(self, constant: float = 0.0) -> LinearProgram:
        def cat(parts: list[np.ndarray], dtype: type = float) -> np.ndarray:
            return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

        if self._coo:
            r, c, v = (np.concatenate(p) for p in zip(*self._coo, strict=True))
        else:
            r = c = np.zeros(0, dtype=np.int64)
            v = np.zeros(0)
        A = sp.csr_matrix((v, (r, c)), shape=(self._m, self._n))
        A.sum_duplicates()
        A.eliminate_zeros()
        return LinearProgram(c=cat(self._cost), A=A, row_lower=cat(self._rlo),
                             row_upper=cat(self._rhi), col_lower=cat(self._lo),
                             col_upper=cat(self._hi), integrality=cat(self._int, bool),
                             variables=dict(self.variables), rows=dict(self.rows),
                             constant=float(constant), sense=self.sense, name=self.name)


# ---------------------------------------------------------------------------- solve


def _check_options(method: str, time_limit: float | None, mip_gap: float) -> None:
    if method not in PROGRAM_METHODS:
        raise ValueError(f"method must be one of {PROGRAM_METHODS}, got {method!r}")
    if time_limit is not None and not (isinstance(time_limit, int | float)
                                       and math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a number of seconds > 0, got {time_limit!r}")
    if not (isinstance(mip_gap, int | float) and 0 <= mip_gap < 1):
        raise ValueError(f"mip_gap must be in [0, 1), got {mip_gap!r}")


def solve(program: LinearProgram, *, method: str = "highs", time_limit: float | None = None,
          mip_gap: float = 0.0) -> ProgramResult:
    """Solve ``program`` with ``method`` ("highs" or "cvxpy"); see the module docstring.

    ``time_limit`` (seconds) and ``mip_gap`` (relative) apply to MILPs; a MILP stopped
    at the limit returns its incumbent with ``status="time_limit"`` and the dual bound as
    ``lower`` (``upper`` for a maximisation). Raises :class:`ProgramError` when there is
    no solution to return.

    Every answer is re-checked: integer variables must come back within 1e-5 of an
    integer (and are snapped to it), and the solution may break no row or bound by
    more than ``FEASIBILITY_TOL`` = 1e-5 times ``1 + |bound|``.

    Parameters
    ----------
    program : LinearProgram
        The program to solve.
    method : {"highs", "cvxpy"}, default "highs"
        ``"highs"``: highspy, the CSR matrix passed whole; ``"cvxpy"``: the same
        matrices as a cvxpy problem (HiGHS for MILPs, cvxpy's default solver for LPs).
    time_limit : float or None, default None
        Seconds for the solver (None: no limit).
    mip_gap : float, default 0.0
        Relative optimality gap at which a MILP stops, in [0, 1).

    Returns
    -------
    ProgramResult
        ``value``, ``lower``, ``upper``, the solution and (LPs) the duals per block.

    Raises
    ------
    ValueError
        For an unknown ``method``, a ``time_limit`` that is not a finite number > 0,
        or a ``mip_gap`` outside [0, 1).
    ProgramError
        When there is no solution to return: infeasible, unbounded, a solver failure,
        a limit reached with no incumbent, or an answer that fails the re-check.

    References
    ----------
    docs/design.md, section Programs.

    Examples
    --------
    >>> from capacity import ProgramBuilder, solve
    >>> B = ProgramBuilder("tiny", sense="maximize")
    >>> x = B.add_variables("x", (2,), upper=[3.0, 1.0], cost=[1.0, 2.0])
    >>> B.add_terms(B.add_rows("budget", (), upper=3.0), x)
    >>> res = solve(B.build())
    >>> res.status, res.value, res.solution["x"].tolist()
    ('optimal', 4.0, [2.0, 1.0])

    The dual of the binding row is the derivative of the optimum in its bound: one
    more unit of budget buys one more unit of x_0.

    >>> float(res.duals["budget"])
    1.0
    """
    _check_options(method, time_limit, mip_gap)
    t0 = time.perf_counter()
    if program.num_variables == 0:  # nothing to choose: feasible iff every row holds at 0
        if program.violation(np.zeros(0)) > 0:
            raise ProgramError(f"{program.name or 'program'}: infeasible (no variables and "
                               f"a row that excludes 0)", "infeasible")
        raw = _Raw("optimal", np.zeros(0), np.zeros(program.num_rows), None, "none")
    elif method == "highs":
        raw = _solve_highs(program, time_limit, mip_gap)
    else:
        raw = _solve_cvxpy(program, time_limit, mip_gap)
    seconds = time.perf_counter() - t0
    return _finish(program, raw, method, seconds, mip_gap)


@dataclass
class _Raw:
    status: str
    x: np.ndarray
    row_dual: np.ndarray | None  # shadow prices (module convention)
    bound: float | None  # MILP dual bound (without the constant)
    solver: str


def _finish(program: LinearProgram, raw: _Raw, method: str, seconds: float,
            mip_gap: float) -> ProgramResult:
    x = raw.x.astype(float).copy()
    ints = program.integrality
    if ints.any():
        snapped = np.rint(x[ints])
        if np.max(np.abs(snapped - x[ints]), initial=0.0) > INTEGRALITY_TOL:
            raise ProgramError(f"{method}: integer variables came back fractional "
                               f"(status {raw.status})", raw.status)
        x[ints] = snapped
    bad = program.violation(x)
    if bad > FEASIBILITY_TOL:
        raise ProgramError(f"{method}: the solution breaks a constraint by {bad:.3g} "
                           f"(relative; status {raw.status})", raw.status)
    value = program.objective(x)
    maximize = program.sense == "maximize"
    lower = upper = value
    extra: dict[str, Any] = {"max_violation": bad, "variables": program.num_variables,
                             "rows": program.num_rows, "integer_variables": program.num_integer,
                             "nonzeros": int(program.A.nnz)}
    if program.is_mip and raw.bound is not None and math.isfinite(raw.bound):
        bound = raw.bound + program.constant
        extra["dual_bound"] = bound
        if raw.status != "optimal" or mip_gap > 0:
            # the proven side; never past the incumbent
            if maximize:
                upper = max(value, bound)
            else:
                lower = min(value, bound)
    elif program.is_mip and raw.status != "optimal":
        if maximize:
            upper = math.inf
        else:
            lower = -math.inf
    duals = None
    if raw.row_dual is not None and not program.is_mip:
        duals = program.unpack(raw.row_dual, program.rows)
    return ProgramResult(status=raw.status, value=value, lower=lower, upper=upper,
                         solution=program.unpack(x), duals=duals, method=method,
                         solver=raw.solver, seconds=seconds, extra=extra)


_HIGHS_STATUS = {
    "kOptimal": "optimal",
    "kTimeLimit": "time_limit",
    "kSolutionLimit": "node_limit",
    "kIterationLimit": "iteration_limit",
    "kInterrupt": "interrupted",
    "kHighsInterrupt": "interrupted",
    "kObjectiveBound": "objective_bound",
    "kObjectiveTarget": "objective_target",
}


def _solve_highs(program: LinearProgram, time_limit: float | None, mip_gap: float) -> _Raw:
    import highspy

    from capacity._highs import new_highs

    h = new_highs()
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if program.is_mip:
        h.setOptionValue("mip_rel_gap", float(mip_gap))
    lp = highspy.HighsLp()
    lp.num_col_ = program.num_variables
    lp.num_row_ = program.num_rows
    lp.col_cost_ = program.c
    lp.col_lower_ = program.col_lower
    lp.col_upper_ = program.col_upper
    lp.row_lower_ = program.row_lower
    lp.row_upper_ = program.row_upper
    A = program.A
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_ = program.num_variables
    lp.a_matrix_.num_row_ = program.num_rows
    lp.a_matrix_.start_ = A.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A.indices.astype(np.int32)
    lp.a_matrix_.value_ = A.data.astype(float)
    if program.sense == "maximize":
        lp.sense_ = highspy.ObjSense.kMaximize
    if program.is_mip:
        kinds = (highspy.HighsVarType.kContinuous, highspy.HighsVarType.kInteger)
        lp.integrality_ = [kinds[int(b)] for b in program.integrality]  # a list only
    if h.passModel(lp) != highspy.HighsStatus.kOk:
        raise ProgramError("HiGHS refused the model (passModel)", "model_error")
    h.run()
    native = h.modelStatusToString(h.getModelStatus())
    key = str(h.getModelStatus()).split(".")[-1]
    status = _HIGHS_STATUS.get(key)
    info = h.getInfo()
    has_point = int(info.primal_solution_status) == 2  # kSolutionStatusFeasible
    solver = f"HiGHS {h.version()}" if hasattr(h, "version") else "HiGHS"
    if status is None or not has_point or (status != "optimal" and not program.is_mip):
        hint = ("; a limit was reached before any feasible solution was found"
                if status is not None else "")
        raise ProgramError(f"{program.name or 'program'}: no solution (HiGHS status "
                           f"{native}){hint}", native)
    sol = h.getSolution()
    x = np.asarray(sol.col_value, dtype=float)
    row_dual = None
    if not program.is_mip and sol.dual_valid:
        row_dual = np.asarray(sol.row_dual, dtype=float)
    bound = float(info.mip_dual_bound) if program.is_mip else None
    return _Raw(status, x, row_dual, bound, solver)


def _solve_cvxpy(program: LinearProgram, time_limit: float | None, mip_gap: float) -> _Raw:
    import cvxpy as cp

    A = program.A.tocsc()
    ints = program.integrality
    parts = []  # (variable, column indices)
    for mask, integer in ((~ints, False), (ints, True)):
        cols = np.flatnonzero(mask)
        if cols.size:
            var = cp.Variable(cols.size, integer=integer,
                              bounds=[program.col_lower[cols], program.col_upper[cols]])
            parts.append((var, cols))

    def affine(M: sp.csc_matrix) -> Any:
        return sum(M[:, cols] @ var for var, cols in parts)

    lo, hi = program.row_lower, program.row_upper
    eq = np.flatnonzero(np.isfinite(lo) & (lo == hi))
    up = np.flatnonzero(np.isfinite(hi) & ~(lo == hi))
    dn = np.flatnonzero(np.isfinite(lo) & ~(lo == hi))
    cons, kinds = [], []
    for sel, kind in ((eq, "eq"), (up, "up"), (dn, "dn")):
        if sel.size:
            expr = affine(A[sel, :])
            cons.append(expr == lo[sel] if kind == "eq" else
                        expr <= hi[sel] if kind == "up" else expr >= lo[sel])
            kinds.append((sel, kind))
    obj = sum(program.c[cols] @ var for var, cols in parts)
    goal = cp.Maximize(obj) if program.sense == "maximize" else cp.Minimize(obj)
    prob = cp.Problem(goal, cons)
    opts: dict[str, Any] = {}
    if program.is_mip:
        opts["solver"] = cp.HIGHS
        opts["mip_rel_gap"] = float(mip_gap)
        if time_limit is not None:
            opts["time_limit"] = float(time_limit)
    try:
        prob.solve(**opts)
    except cp.error.SolverError as e:
        raise ProgramError(f"{program.name or 'program'}: cvxpy solver failed: {e}",
                           "solver_error") from None
    solver = f"cvxpy {cp.__version__} / {prob.solver_stats.solver_name}"
    if prob.status != cp.OPTIMAL:
        raise ProgramError(f"{program.name or 'program'}: no solution (cvxpy status "
                           f"{prob.status})", str(prob.status))
    x = np.zeros(program.num_variables)
    for var, cols in parts:
        x[cols] = np.asarray(var.value, dtype=float).ravel()
    row_dual = None
    if not program.is_mip:
        row_dual = np.zeros(program.num_rows)
        sign = 1.0 if program.sense == "maximize" else -1.0
        for con, (sel, kind) in zip(cons, kinds, strict=True):
            y = np.asarray(con.dual_value, dtype=float).ravel()
            # cvxpy: dual >= 0 on <= rows, and d(min value)/d(b) = -dual; >= rows flip
            row_dual[sel] = -sign * y if kind == "dn" else sign * y
    bound = None
    stats = prob.solver_stats.extra_stats
    if program.is_mip and stats is not None and hasattr(stats, "mip_dual_bound"):
        bound = float(stats.mip_dual_bound)
    return _Raw("optimal", x, row_dual, bound, solver)
