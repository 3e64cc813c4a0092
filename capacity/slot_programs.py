"""Per-slot XLL21 programs: P3 (eq. (9)), the switching-cost program (eqs. (31)-(32)) and
the transient local program (eqs. (38a)-(38d)).

One slot t, the jobs present and unfinished; every input is a plain array (one entry
per job, or per machine) and is validated. P3 and (38) are linear programs in the
matrix form of :mod:`capacity.programs` (solved by ``method=``); (31)-(32) is a convex
QP built in cvxpy.
"""

from __future__ import annotations

import math
import time

import numpy as np

from capacity.programs import LinearProgram, ProgramBuilder, ProgramError, ProgramResult, solve

__all__ = [
    "p3_optimum",
    "p3_program",
    "switching_cost_program",
    "transient_local_program",
]


def _vector(x: object, name: str, n: int | None = None, *, positive: bool = False,
            nonneg: bool = False, integer: bool = False, allow_inf: bool = False
            ) -> np.ndarray:
    try:
        a = np.array(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers, got {x!r}") from None
    if a.ndim != 1 or (n is not None and len(a) != n):
        want = f"of length {n}" if n is not None else "(one dimension)"
        raise ValueError(f"{name} must be a vector {want}, got shape {a.shape}")
    if np.any(np.isnan(a)) or (not allow_inf and not np.all(np.isfinite(a))):
        raise ValueError(f"{name} must be finite")
    if positive and np.any(a <= 0):
        raise ValueError(f"{name} must be > 0 (entry {int(np.argmax(a <= 0))})")
    if nonneg and np.any(a < 0):
        raise ValueError(f"{name} must be >= 0 (entry {int(np.argmax(a < 0))})")
    if integer and np.any(np.isfinite(a) & (a != np.round(a))):
        raise ValueError(f"{name} must be whole numbers (XLL21 II-A: integer cores), "
                         f"got {a[np.isfinite(a) & (a != np.round(a))][0]!r}")
    return a


def p3_program(coeff: object, cores: object, memory: object, machine_cores: object,
               machine_memory: object, *, remaining: object = None, use_memory: bool = True,
               integer: bool = True) -> LinearProgram:
    """P3 of XLL21 Sec. III-A: minimise eq. (9), sum_j coeff_j sum_i x_j^i z_j^i, over
    x(t) in X(t), z(t) in Z(t); coeff_j = w_j(t) - lambda_j(t) (eq. (5) weight minus the
    multiplier of eq. (10)), one entry per job present.

    With ``use_memory`` (default): cores u_j^i in [0, min(d_j, C_i)] (x = u / d_j,
    integer when ``integer``), z_j^i binary (absent where m_j > M_i), u_j^i <=
    min(d_j, C_i) z_j^i (so x z = x: a positive coefficient is never paid), rows
    "cores" sum_j u_j^i <= C_i (4b), "memory" sum_j m_j z_j^i <= M_i (4c; none for
    M_i = inf), "rate" sum_i u_j^i <= d_j (4d), and with ``remaining`` p_j(t) also
    "remaining" sum_i x_j^i <= p_j(t) (rows in cores, sum_i u_j^i <= d_j p_j(t), so
    their duals are per core). ``use_memory=False`` is the z = 1 case of Sec. IV:
    pooled cores u_j in [0, d_j], "capacity" sum_j u_j <= C = sum_i C_i (``memory`` and
    ``machine_memory`` may be None); with ``integer=False`` it is the LP that Lemma 1
    (eq. (22), corrected: see :func:`theory.slot_allocation.lemma1_rates`) solves in
    closed form, and :func:`p3_optimum` returns its duals.

    Parameters
    ----------
    coeff : array_like, shape (N,)
        coeff_j = w_j(t) - lambda_j(t) per job present (finite); negative coefficients
        make serving worthwhile.
    cores : array_like, shape (N,)
        Core demands d_j (> 0; whole numbers when ``integer``).
    memory : array_like, shape (N,), or None
        Memory demands m_j (>= 0); None allowed when ``use_memory=False``.
    machine_cores : array_like, shape (M,)
        Cores C_i per machine (> 0; whole numbers when ``integer``).
    machine_memory : array_like, shape (M,), or None
        Memory M_i per machine (> 0, ``inf`` for no memory row); None allowed when
        ``use_memory=False``.
    remaining : array_like, shape (N,), or None, default None
        Remaining processing p_j(t) (>= 0): adds the rows "remaining"; None: none.
    use_memory : bool, default True
        Model memory per machine (z binaries); False: the pooled z = 1 case.
    integer : bool, default True
        Integer cores u_j^i (4f); False: continuous rates.

    Returns
    -------
    LinearProgram
        Variable blocks ``u`` (cores: (N, M), or (N,) pooled) and ``z`` (with memory);
        the row blocks named above.

    Raises
    ------
    ValueError
        If an input is not a vector of finite numbers of the right length, a core
        demand or capacity is not positive (or not a whole number when ``integer``),
        a memory demand or ``remaining`` is negative, or a machine memory is not
        positive.

    References
    ----------
    XLL21, Sec. III-A, eqs. (9)-(10) (P3), with constraints (4b)-(4d) and (4f);
    Sec. IV-A, Lemma 1, eq. (22) (the pooled LP).

    Examples
    --------
    Two jobs of 2 cores and 1 unit of memory, one machine of 3 cores and memory 1:

    >>> from capacity import p3_program
    >>> p3_program([-3.0, -1.0], [2, 2], [1, 1], [3], [1])
    LinearProgram(P3 (memory, integer): 4 variables (4 integer), 6 rows, 10 nonzeros,
    minimize)
    """
    c = _vector(coeff, "coeff")
    n = len(c)
    d = _vector(cores, "cores", n, positive=True, integer=integer)
    C = _vector(machine_cores, "machine_cores", positive=True, integer=integer)
    rem = None if remaining is None else _vector(remaining, "remaining", n, nonneg=True)
    if use_memory:
        m = _vector(memory, "memory", n, nonneg=True)
        Mi = _vector(machine_memory, "machine_memory", len(C), positive=True, allow_inf=True)
    B = ProgramBuilder(f"P3 ({'memory' if use_memory else 'pooled'}, "
                       f"{'integer' if integer else 'LP'})")
    if not use_memory:
        u = B.add_variables("u", (n,), upper=d, cost=c / d, integer=integer)
        row = B.add_rows("capacity", (), upper=C.sum())
        B.add_terms(row, u)
        if rem is not None:
            rows = B.add_rows("remaining", (n,), upper=d * rem)
            B.add_terms(rows, u)
        return B.build()
    M = len(C)
    fits = np.asarray(m[:, None] <= Mi[None, :])
    big = np.minimum(d[:, None], C[None, :])
    u = B.add_variables("u", (n, M), upper=big, cost=(c / d)[:, None], integer=integer,
                        mask=fits)
    z = B.add_variables("z", (n, M), upper=1.0, integer=True, mask=fits)
    rows = B.add_rows("cores", (M,), upper=C)
    B.add_terms(rows[None, :], u)
    rows = B.add_rows("memory", (M,), upper=np.where(np.isfinite(Mi), Mi, 0.0),
                      mask=np.isfinite(Mi))
    B.add_terms(rows[None, :], z, m[:, None])
    rows = B.add_rows("rate", (n,), upper=d)
    B.add_terms(rows[:, None], u)
    rows = B.add_rows("link", (n, M), upper=0.0, mask=fits)
    B.add_terms(rows, u)
    B.add_terms(rows, z, -big)
    if rem is not None:
        rows = B.add_rows("remaining", (n,), upper=d * rem)
        B.add_terms(rows[:, None], u)
    return B.build()


def p3_optimum(coeff: object, cores: object, memory: object, machine_cores: object,
               machine_memory: object, *, remaining: object = None, use_memory: bool = True,
               integer: bool = True, method: str = "highs",
               time_limit: float | None = None) -> ProgramResult:
    """Optimum of :func:`p3_program`: ``solution["x"]`` (N, M) rates x_j^i = u_j^i / d_j
    and ``"z"`` with memory, ``solution["y"]`` (N,) = sum_i x_j^i always; duals (rows
    "capacity", "remaining") for the pooled LP.

    Parameters
    ----------
    coeff : array_like, shape (N,)
        coeff_j = w_j(t) - lambda_j(t) per job present (finite); negative coefficients
        make serving worthwhile.
    cores : array_like, shape (N,)
        Core demands d_j (> 0; whole numbers when ``integer``).
    memory : array_like, shape (N,), or None
        Memory demands m_j (>= 0); None allowed when ``use_memory=False``.
    machine_cores : array_like, shape (M,)
        Cores C_i per machine (> 0; whole numbers when ``integer``).
    machine_memory : array_like, shape (M,), or None
        Memory M_i per machine (> 0, ``inf`` for no memory row); None allowed when
        ``use_memory=False``.
    remaining : array_like, shape (N,), or None, default None
        Remaining processing p_j(t) (>= 0): adds the rows "remaining"; None: none.
    use_memory : bool, default True
        Model memory per machine (z binaries); False: the pooled z = 1 case.
    integer : bool, default True
        Integer cores u_j^i (4f); False: continuous rates.
    method : {"highs", "cvxpy"}, default "highs"
        The solver (:func:`capacity.solve`).
    time_limit : float or None, default None
        Seconds for the solver (None: no limit).

    Returns
    -------
    ProgramResult
        ``value`` = eq. (9) at the optimum (sum_j coeff_j y_j), the solution blocks
        above and, for the pooled LP, the duals (derivatives of the optimum in the
        capacity, per core, and in each job's remaining work).

    Raises
    ------
    ValueError
        If an input is not a vector of finite numbers of the right length, a core
        demand or capacity is not positive (or not a whole number when ``integer``),
        a memory demand or ``remaining`` is negative, or a machine memory is not
        positive.
    capacity.ProgramError
        When the solver returns no solution.

    References
    ----------
    XLL21, Sec. III-A, eq. (9) (P3); Sec. IV-A, Lemma 1, eq. (22) (its closed form
    without memory, corrected in the errata register as ``XLL21.Lemma1.eq22``).

    Examples
    --------
    Pooled LP: 3 cores for two jobs of 2 cores; the job with the lower coefficient
    runs at full rate, the other gets the last core (rate 1/2), as Lemma 1 says.

    >>> from capacity import p3_optimum
    >>> res = p3_optimum([-3.0, -1.0], [2, 2], None, [3], None, use_memory=False,
    ...                  integer=False)
    >>> res.solution["y"].tolist(), res.value, float(res.duals["capacity"])
    ([1.0, 0.5], -3.5, -0.5)

    With memory 1 per job on a machine of memory 1, only one job runs:

    >>> res = p3_optimum([-3.0, -1.0], [2, 2], [1, 1], [3], [1])
    >>> res.solution["y"].tolist(), res.value
    ([1.0, 0.0], -3.0)
    """
    program = p3_program(coeff, cores, memory, machine_cores, machine_memory,
                         remaining=remaining, use_memory=use_memory, integer=integer)
    res = solve(program, method=method, time_limit=time_limit)
    d = np.asarray(cores, dtype=float)
    sol = dict(res.solution)
    if use_memory:
        sol["x"] = sol["u"] / d[:, None]
        sol["y"] = sol["x"].sum(axis=1)
    else:
        sol["y"] = sol["u"] / d
    return ProgramResult(status=res.status, value=res.value, lower=res.lower,
                         upper=res.upper, solution=sol, duals=res.duals, method=res.method,
                         solver=res.solver, seconds=res.seconds, extra=res.extra)


def switching_cost_program(coeff: object, cores: object, machine_cores: object,
                           x_prev: object, alpha: float, *, present_before: object = None,
                           solver: str | None = "CLARABEL") -> ProgramResult:
    """The per-slot program of OCORP+ (XLL21 Sec. IV-B), eq. (32) with the switching
    cost S(t) of eq. (31), as a convex QP in cvxpy:

    minimise sum_j coeff_j sum_i x_j^i + alpha sum_{j present at t-1} sum_i
    (x_j^i - x_prev_j^i)^2 s.t. sum_j d_j x_j^i <= C_i, sum_i x_j^i <= 1, 0 <= x <= 1.

    Rates are continuous here: the integrality d_j x_j^i in N of (4f) is relaxed (a QP
    over integers is no longer convex); the OCORP+ policy rounds d_j x_j^i down to whole
    cores, which keeps (4b) and (4d). ``present_before`` (bool per job, default all):
    the jobs of eq. (31), t >= a_j + 2; the others pay no switching cost. With
    ``alpha = 0`` this is the LP relaxation of P3 without memory. Returns
    ``solution["x"]`` (N, M) and ``"y"`` (N,); ``value`` recomputed at the returned x,
    ``extra`` its two terms; ``duals`` None.

    Parameters
    ----------
    coeff : array_like, shape (N,)
        coeff_j = w_j(t) - lambda_j(t) per job present (finite).
    cores : array_like, shape (N,)
        Core demands d_j (> 0).
    machine_cores : array_like, shape (M,)
        Cores C_i per machine (> 0).
    x_prev : array_like, shape (N, M)
        The rates x_j^i(t-1) of the previous slot (finite, >= 0).
    alpha : float
        The weight of the switching cost, a finite number >= 0.
    present_before : array_like of bool, shape (N,), or None, default None
        Which jobs pay the switching cost (present at t - 1); None: all.
    solver : str or None, default "CLARABEL"
        The cvxpy solver (None: cvxpy's choice).

    Returns
    -------
    ProgramResult
        ``status`` "optimal" (or "optimal_inaccurate"), ``value`` = eq. (32) at the
        returned x, ``solution["x"]`` and ``solution["y"]``, ``extra``
        (``flowtime_term``, ``switching_cost``, ``alpha``); method "cvxpy".

    Raises
    ------
    ValueError
        If an input is not finite or of the wrong shape, a core demand or capacity is
        not positive, ``x_prev`` is negative, ``alpha`` is not a finite number >= 0,
        or ``present_before`` is not N booleans.
    capacity.ProgramError
        When the solver fails or returns no solution.

    References
    ----------
    XLL21, Sec. IV-B, eqs. (31)-(32) (OCORP+).

    Examples
    --------
    Two equally urgent jobs of one core, one machine of one core: the switching cost
    keeps the job that ran in the previous slot; without it any split is optimal.

    >>> import numpy as np
    >>> from capacity import switching_cost_program
    >>> res = switching_cost_program([-1.0, -1.0], [1, 1], [1], [[1.0], [0.0]], 0.5)
    >>> np.round(res.solution["x"], 3).tolist(), round(res.value, 4)
    ([[1.0], [0.0]], -1.0)
    """
    c = _vector(coeff, "coeff")
    n = len(c)
    d = _vector(cores, "cores", n, positive=True)
    C = _vector(machine_cores, "machine_cores", positive=True)
    M = len(C)
    try:
        prev = np.array(x_prev, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("x_prev must be an (N, M) array of rates") from None
    if prev.shape != (n, M):
        raise ValueError(f"x_prev must have shape ({n}, {M}) (jobs x machines), "
                         f"got {prev.shape}")
    if not np.all(np.isfinite(prev)) or np.any(prev < 0):
        raise ValueError("x_prev must be finite rates >= 0")
    if isinstance(alpha, bool) or not isinstance(alpha, int | float | np.integer | np.floating
                                                 ) or not (math.isfinite(alpha) and alpha >= 0):
        raise ValueError(f"alpha must be a finite number >= 0, got {alpha!r}")
    if present_before is None:
        present = np.ones(n, dtype=bool)
    else:
        present = np.asarray(present_before)
        if present.shape != (n,) or present.dtype != bool:
            raise ValueError(f"present_before must be {n} booleans")
    import cvxpy as cp

    t0 = time.perf_counter()
    if n == 0:  # no job present: the empty allocation, value 0
        return ProgramResult(status="optimal", value=0.0, lower=0.0, upper=0.0,
                             solution={"x": np.zeros((0, M)), "y": np.zeros(0)}, duals=None,
                             method="cvxpy", solver="none", seconds=0.0,
                             extra={"flowtime_term": 0.0, "switching_cost": 0.0,
                                    "alpha": float(alpha)})
    # the objective scaled by a positive constant (same minimiser): the multipliers of
    # eq. (10) grow like t^(k + 1/2) and unscaled coefficients of 1e8 break the solver
    scale = max(1.0, float(np.max(np.abs(c))), float(alpha))
    x = cp.Variable((n, M), bounds=[np.zeros((n, M)), np.ones((n, M))])
    linear = (c / scale) @ cp.sum(x, axis=1)
    rows = np.flatnonzero(present)
    objective = linear
    if alpha > 0 and rows.size:
        objective = linear + (float(alpha) / scale) * cp.sum_squares(x[rows, :] - prev[rows, :])
    cons = [d @ x <= C, cp.sum(x, axis=1) <= 1]
    prob = cp.Problem(cp.Minimize(objective), cons)
    try:
        prob.solve(solver=solver)
    except cp.error.SolverError as e:
        raise ProgramError(f"switching-cost QP: solver failed: {e}", "solver_error") from None
    if prob.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        raise ProgramError(f"switching-cost QP: no solution (cvxpy status {prob.status})",
                           str(prob.status))
    xv = np.clip(np.asarray(x.value, dtype=float), 0.0, 1.0)
    flow = float(c @ xv.sum(axis=1))
    switch = float(np.sum((xv[rows] - prev[rows]) ** 2))
    value = flow + float(alpha) * switch
    status = "optimal" if prob.status == cp.OPTIMAL else "optimal_inaccurate"
    return ProgramResult(status=status, value=value, lower=value, upper=value,
                         solution={"x": xv, "y": xv.sum(axis=1)}, duals=None, method="cvxpy",
                         solver=f"cvxpy {cp.__version__} / {prob.solver_stats.solver_name}",
                         seconds=time.perf_counter() - t0,
                         extra={"flowtime_term": flow, "switching_cost": switch,
                                "alpha": float(alpha), "scale": scale,
                                "solver_value": float(prob.value) * scale})


def transient_local_program(processing: object, remaining: object, cores: object,
                            total_cores: float, *, method: str = "highs") -> ProgramResult:
    """The local program of XLL21 Sec. IV-C, eqs. (38a)-(38d), as an LP:

    maximise sum_j y_j / p_j s.t. "capacity" sum_j d_j y_j <= C (38b), "remaining"
    y_j <= p_j(t) (38c), 0 <= y_j <= 1 (38d).

    Lemma 2 (eq. (39), corrected: :func:`theory.slot_allocation.lemma2_rates`) solves it
    greedily in increasing volume p_j d_j. Returns ``solution["y"]`` and the duals of both
    row blocks (shadow prices, :mod:`capacity.programs` convention).

    Parameters
    ----------
    processing : array_like, shape (N,)
        Processing times p_j (> 0).
    remaining : array_like, shape (N,)
        Remaining processing p_j(t) (>= 0).
    cores : array_like, shape (N,)
        Core demands d_j (> 0).
    total_cores : float
        The capacity C of the slot (a finite number >= 0).
    method : {"highs", "cvxpy"}, default "highs"
        The solver (:func:`capacity.solve`).

    Returns
    -------
    ProgramResult
        ``value`` = sum_j y_j / p_j, ``solution["y"]`` and ``duals`` for the row blocks
        "capacity" and "remaining".

    Raises
    ------
    ValueError
        If an input is not a vector of finite numbers of length N, a processing time or
        core demand is not positive, a remaining time is negative, or ``total_cores``
        is not a finite number >= 0.
    capacity.ProgramError
        When the solver returns no solution.

    References
    ----------
    XLL21, Sec. IV-C, eqs. (38a)-(38d) and Lemma 2, eq. (39) (corrected in the errata
    register as ``XLL21.Lemma2.eq39``).

    Examples
    --------
    One core for two one-core jobs; job 0 (volume 2) has half a slot of work left:

    >>> from capacity import transient_local_program
    >>> res = transient_local_program([2, 4], [0.5, 4], [1, 1], 1)
    >>> res.solution["y"].tolist(), res.value
    ([0.5, 0.5], 0.375)
    >>> float(res.duals["capacity"]), res.duals["remaining"].tolist()
    (0.25, [0.25, 0.0])
    """
    p = _vector(processing, "processing", positive=True)
    n = len(p)
    rem = _vector(remaining, "remaining", n, nonneg=True)
    d = _vector(cores, "cores", n, positive=True)
    if isinstance(total_cores, bool) or not isinstance(
            total_cores, int | float | np.integer | np.floating) or not (
            math.isfinite(total_cores) and total_cores >= 0):
        raise ValueError(f"total_cores must be a finite number >= 0, got {total_cores!r}")
    B = ProgramBuilder("transient local program (38)", sense="maximize")
    y = B.add_variables("y", (n,), upper=1.0, cost=1.0 / p)
    row = B.add_rows("capacity", (), upper=float(total_cores))
    B.add_terms(row, y, d)
    rows = B.add_rows("remaining", (n,), upper=rem)
    B.add_terms(rows, y)
    return solve(B.build(), method=method)
