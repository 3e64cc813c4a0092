"""RMS, Randomized Multi-resource Scheduling, and its variants (PG18 Sec. IV, VI).

One class covers the family; the registry names fix the options:

* clocks (Algorithm 1 "Clock Instances"): type j's Poisson clock of rate r_j ticks,
  a server is chosen and a type-j job is placed if it fits: the head-of-line job, or
  a dummy job if Q_j = 0. Server choice: ``uniform`` (Algorithm 1), ``random-fit``
  (RMS-RF: uniform among the servers the job fits), ``best-fit`` (RMS-BF: the fitting
  server of largest score, PG18 Sec. VI); ``adaptive`` clocks (RMS-AD): one clock of
  rate r = sum_j r_j whose tick goes to type j w.p. proportional to exp(w_j(t));
* departures (Algorithm 1 "Job Departure Instances"): the type-j job that left is
  replaced w.p. 1 - exp(-w_j(t)) by the head-of-line job, or a dummy if Q_j = 0;
* weights, eq. (4): w_j = max{f(Q_j), epsilon / (8M) f(Q_max)} with f(x) = log(1+x)
  (``f="log"``, the paper's simulations, Sec. VII-A) or log^(1-b)(1+x)
  (``f="log-power"``, Theorem 1); fixed weights give RMS-bar (Definition 2);
* ``replace_dummies`` (Remark 2): an arriving type-j job takes the place of a dummy
  type-j job if one is in service;
* ``routing`` (Algorithm 2, Remark 4): ``"jsq"`` or ``"power-of-two"`` gives
  distributed queues Q_j^l with clocks of rate r_j / L each and weights (5).

Random numbers, in order (the protocol a second implementation must follow to give
the same trajectory): a tick draws u1 (the type: the first j with u1 * r < r_1 + ... +
r_j, or with the exp(w) weights for AD) and u2 (the server: floor(u2 * L), or the
floor(u2 * n)-th of the n fitting servers in index order for RF; BF ignores it); a
departure of an RMS job draws u (replace iff u < 1 - exp(-w_j)); a dummy's service
draws one uniform; JSQ draws one uniform at an arrival (the floor(u * m)-th of the m
shortest queues in index order), power-of-two three (two distinct servers and a tie
break u3 < 1/2).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from policies.continuous import codes
from policies.continuous.formulas import F_LOG, F_LOG_POWER, rms_weight
from policies.continuous.policy import HOOKS, ContinuousKernelSpec, ContinuousPolicy
from policies.policy import overrides
from theory.numbers import real_float

if TYPE_CHECKING:
    from policies.continuous.state import ContinuousState
    from policies.job_types import JobTypes
    from theory.cluster import Cluster

__all__ = ["RMS", "max_jobs_per_server", "weight_function"]

SAMPLING = ("uniform", "random-fit", "best-fit")
ROUTING = (None, "jsq", "power-of-two")
F_CHOICES = ("log", "log-power")
F_CODES = {"log": F_LOG, "log-power": F_LOG_POWER}


def weight_function(f: str, b: float = 0.5):
    """The function f of PG18 eq. (4), as a NumPy callable on queue lengths.

    ``log`` is log(1 + x), the paper's choice in its simulations (Sec. VII-A);
    ``log-power`` is log^(1-b)(1 + x), the f of Theorems 1 and 2. RMS's event loops
    evaluate the same f with :func:`math.log1p` on scalars
    (:mod:`policies.continuous.formulas`), so that both engines agree to the bit.

    Parameters
    ----------
    f : {'log', 'log-power'}
        Which function.
    b : float, default 0.5
        The exponent b of ``'log-power'`` (Theorems 1 and 2 take b in (0, 1)); ignored
        by ``'log'``.

    Returns
    -------
    callable
        x -> f(x), elementwise on arrays (``numpy.log1p`` itself for ``'log'``).

    Raises
    ------
    ValueError
        An unknown ``f``.

    References
    ----------
    PG18, Sec. IV-A, eq. (4); Theorem 1 (f = log^(1-b)(1 + x)); Sec. VII-A
    (f(x) = log(1 + x)).

    Examples
    --------
    >>> import numpy as np
    >>> from policies.continuous import weight_function
    >>> weight_function("log")(np.array([0.0, 1.0, 9.0])).round(6).tolist()
    [0.0, 0.693147, 2.302585]
    >>> weight_function("log-power", b=0.5)(np.array([0.0, 1.0, 9.0])).round(6).tolist()
    [0.0, 0.832555, 1.517427]
    """
    if f == "log":
        return np.log1p
    if f == "log-power":
        return lambda x: np.power(np.log1p(x), 1.0 - b)
    raise ValueError(f"f must be one of {F_CHOICES}, got {f!r}")


def max_jobs_per_server(sizes: np.ndarray, capacity: np.ndarray) -> int:
    """M of PG18 Sec. II: the most jobs (of any types) one server can hold, within the
    feasibility tolerance :data:`theory.numbers.FEASIBILITY_RTOL`.

    The exact knapsack search (:func:`capacity.knapsack.knapsack_bb`) counts copies one
    by one; when tiny demands let millions of jobs fit and it runs out of nodes, one
    resource has the closed form floor(c / s_min) (no configuration holds more than
    c / s_min jobs, and s_min alone reaches it), and several resources the count of the
    best single type when an LP dual bound (sum_j k_j <= c.y for y >= 0 with every
    type's s_j.y >= 1) meets it; otherwise M is refused with the type and why.

    Parameters
    ----------
    sizes : numpy.ndarray
        Demand vectors, shape (J, n): one row per job type, one column per resource.
    capacity : numpy.ndarray
        Server capacities, shape (L, n); identical rows are searched once.

    Returns
    -------
    int
        M, the largest number of jobs any one server holds in a feasible configuration.

    Raises
    ------
    ValueError
        M is beyond the exact search and the bounds do not meet (demands tiny against
        the capacity, several resources).

    References
    ----------
    PG18, Sec. II (M, the maximum number of jobs of any types that fit in any server)
    and eq. (4) (the weight floor epsilon / (8M)).

    Examples
    --------
    >>> import numpy as np
    >>> from policies.continuous import max_jobs_per_server
    >>> max_jobs_per_server(np.array([[2.0], [5.0]]), np.array([[10.0], [10.0]]))
    5

    PG18 Table I's EC2 types (memory, CPU) in a server of 90 GB and 90 units hold at
    most 7 jobs, five of the first type and two of the third:

    >>> sizes = np.array([[15.0, 8.0], [17.1, 6.5], [7.0, 20.0]])
    >>> max_jobs_per_server(sizes, np.array([[90.0, 90.0]]))
    7
    """
    from capacity.knapsack import knapsack_bb

    best = 0
    for cap in np.unique(capacity, axis=0):
        res = knapsack_bb(np.ones(sizes.shape[0]), np.asarray(sizes, dtype=float), cap,
                          threshold=0.0)
        best = max(best, int(round(res.value)) if res.proven else _most_copies(sizes, cap))
    return best


def _most_copies(sizes: np.ndarray, cap: np.ndarray) -> int:
    """M of one server class without the search (see :func:`max_jobs_per_server`)."""
    from scipy.optimize import linprog

    from theory.numbers import FEASIBILITY_RTOL

    tol = cap * (1.0 + FEASIBILITY_RTOL)
    alone = [_copies(sizes[j], tol) for j in range(sizes.shape[0])]
    j = int(np.argmax(alone))
    lower = alone[j]
    if sizes.shape[1] == 1:
        return lower
    upper = None
    dual = linprog(tol, A_ub=-sizes, b_ub=-np.ones(sizes.shape[0]), bounds=(0, None),
                   method="highs")
    if dual.status == 0:
        y = np.maximum(dual.x, 0.0)
        cover = float((sizes @ y).min())
        if cover > 0:  # y / cover is dual feasible in floats too: a valid bound
            upper = math.floor(float(tol @ y) / cover * (1.0 + 1e-12))
            if upper <= lower:
                return lower
    raise ValueError(
        f"M of PG18 Sec. II (the most jobs one server holds, in RMS's weight floor "
        f"epsilon/(8M) of eq. (4)) is beyond the exact search: type {j} (demand "
        f"{sizes[j].tolist()}) fits {lower:,} times into capacity {cap.tolist()}, and with "
        f"several resources M lies in [{lower:,}, "
        f"{'?' if upper is None else format(upper, ',')}]; give demands that are not this "
        f"small against the capacity")


def _copies(size: np.ndarray, tol: np.ndarray) -> int:
    """The most copies of one demand vector within ``tol`` (exact in float: checked)."""
    used = size > 0
    k = math.floor(float(np.min(tol[used] / size[used])))
    while k > 0 and np.any(k * size > tol):
        k -= 1
    while np.all((k + 1) * size <= tol):
        k += 1
    return k


def _real(x: object, name: str, low: float, high: float = math.inf, *,
          open_low: bool = True, open_high: bool = False) -> float:
    lo_b, hi_b = "(" if open_low else "[", ")" if open_high else "]"
    allowed = f"a number in {lo_b}{low:g}, {high:g}{hi_b}"
    v = real_float(x, name, allowed)
    ok = math.isfinite(v) and (v > low if open_low else v >= low) and (
        v < high if open_high else v <= high)
    if not ok:
        raise ValueError(f"{name} must lie in {lo_b}{low:g}, {high:g}{hi_b}, got {x!r}")
    return v


def _choice(x: object, name: str, allowed: tuple) -> None:
    if not (x is None or isinstance(x, str)) or x not in allowed:
        shown = ", ".join("None" if a is None else repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {shown}, got {x!r}")


def _flag(x: object, name: str) -> bool:
    if not isinstance(x, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {x!r}")
    return bool(x)


def _fixed_weights(weights: object) -> np.ndarray:
    from theory.arrays import number_array

    w = number_array(weights, "weights", "a list of non-negative numbers, one per type")
    if w.ndim != 1 or w.size == 0 or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("weights must be a list of finite non-negative numbers, one per "
                         "type (fixed weights w_j of RMS-bar, Definition 2)")
    return w


def _clock_rates(x: object) -> object:
    """``clock_rates`` checked now (positive finite numbers); one per type is checked
    when the run binds the policy (the number of types is known then)."""
    if x is None:
        return None
    from theory.arrays import number_array

    r = number_array(x, "clock_rates", "a positive number or a list of one per type")
    if r.ndim > 1 or r.size == 0:
        raise ValueError("clock_rates must be a positive number or a list of one per type")
    if not np.all(np.isfinite(r) & (r > 0)):
        bad = float(r[~(np.isfinite(r) & (r > 0))][0])
        why = " (a clock of rate 0 never samples a server)" if bad == 0 else ""
        raise ValueError(f"clock_rates must be positive and finite, got {bad!r}{why}")
    return float(r) if r.ndim == 0 else r


class RMS(ContinuousPolicy):
    """RMS of PG18: Algorithm 1, Algorithm 2 (``routing``) and the Sec. VI variants.

    Each type j has a Poisson clock of rate r_j. At a tick a server is sampled and a
    type-j job placed there if it fits: the head-of-line job, or a dummy job when
    Q_j = 0. When a type-j job (real or dummy) departs, it is replaced with probability
    1 - exp(-w_j(t)) by the head-of-line job (or a dummy), with the weights of eq. (4),
    w_j = max{f(Q_j), epsilon / (8M) f(Q_max)}. The module docstring gives the
    variants and the order of the random draws. The registry names fix the options
    (``rms``, ``rms-plus``, ``rms-jsq``, ``rms-po2``, ``rms-rf``, ``rms-bf-ad``,
    ``rms-rf-ad-plus``, ...; :func:`policies.make_policy`).

    Parameters
    ----------
    clock_rates : float or array_like or None, default None
        r_j per type, or one number for all types, in ticks per time unit; positive and
        finite. None: L (the number of servers) per type, the paper's choice in
        Sec. VII-A (Fig. 6). With ``adaptive`` the common clock runs at sum_j r_j; with
        ``routing`` each server's clock of type j runs at r_j / L.
    clock_scale : float, default 1.0
        Multiplies the clock rates (RMS-RF-AD+ uses 5, Sec. VII-A.3); positive.
    epsilon : float or None, default None
        epsilon of eq. (4), in (0, 1); None: 0.1 (the paper's simulations do not state
        it).
    f : {'log', 'log-power'} or None, default None
        The weight function of eq. (4) (:func:`weight_function`): ``'log'``,
        log(1 + x), as in Sec. VII-A (the default), or ``'log-power'``,
        log^(1-b)(1 + x), as in Theorems 1 and 2.
    b : float or None, default None
        The exponent of ``f='log-power'``, in (0, 1); None: 0.5. Refused with
        ``f='log'``.
    sampling : {'uniform', 'random-fit', 'best-fit'}, default 'uniform'
        The server chosen at a tick: uniform over all servers (Algorithm 1), uniform
        over the servers the job fits (RMS-RF), or the fitting server of largest
        Best-Fit score (RMS-BF, Sec. VI).
    adaptive : bool, default False
        One common clock whose tick goes to type j with probability proportional to
        exp(w_j(t)) (RMS-AD, Sec. VI).
    replace_dummies : bool, default False
        An arriving type-j job takes the place of a dummy type-j job in service
        (Remark 2).
    routing : {None, 'jsq', 'power-of-two'}, default None
        None: central queues (Algorithm 1); ``'jsq'`` or ``'power-of-two'``: per-server
        queues Q_j^l with weights (5) (Algorithm 2, Remark 4). Only with uniform
        sampling and fixed clocks.
    weights : array_like or None, default None
        Fixed weights w_j >= 0, one per type, instead of eq. (4): RMS-bar
        (Definition 2). (The checks of PG18's theorems swap them into a run that sets
        f, so epsilon, f and b are accepted beside them and recorded, though unused.)
    name : str, default 'rms'
        The policy's name in results.

    Raises
    ------
    ValueError
        An unknown ``sampling``, ``routing`` or ``f``; ``adaptive`` or
        ``replace_dummies`` not a bool; ``routing`` with random-fit, best-fit or
        adaptive clocks; ``epsilon`` or ``b`` outside (0, 1), or ``b`` with ``f='log'``;
        ``clock_scale`` or a clock rate not positive and finite; ``weights`` not finite
        and non-negative; an empty ``name``. When a run binds the policy:
        ``clock_rates`` or ``weights`` of another length than the types, or M beyond
        the exact search (:func:`max_jobs_per_server`).

    References
    ----------
    PG18, Sec. IV-A, Algorithm 1 and eq. (4) (Theorem 1 for f = log^(1-b)(1 + x));
    Sec. IV-B, Algorithm 2, eq. (5), Remark 4; Remark 2; Sec. V, Definition 2
    (RMS-bar); Sec. VI (RMS-RF, RMS-BF, RMS-AD); Sec. VII-A (f = log(1 + x), clock rates,
    RMS-RF-AD+).

    Examples
    --------
    Two servers of capacity 10, job sizes 2 and 5 (PG18 Fig. 1b's types), 30 time
    units, in the plain-Python engine (``engine="auto"`` runs the compiled kernel with
    the same trajectory):

    >>> from policies import RMS, JobTypes, poisson_type_workload, simulate_continuous
    >>> from theory import Cluster
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> w = poisson_type_workload(types, [4.0, 1.6], 30.0, seed=1)
    >>> r = simulate_continuous(RMS(), w, cluster, types, seed=0, engine="python")
    >>> w.jobs, r.started, r.ticks, r.dummy_placements
    (168, 146, 116, 8)
    >>> plus = RMS(sampling="random-fit", adaptive=True, replace_dummies=True,
    ...            clock_scale=5, name="rms-rf-ad-plus")
    >>> r = simulate_continuous(plus, w, cluster, types, seed=0, engine="python")
    >>> r.started, r.ticks, r.dummy_placements, r.params["clock_rates"], r.params["M"]
    (162, 598, 65, [10.0, 10.0], 5)
    >>> RMS(routing="jsq", sampling="best-fit")
    Traceback (most recent call last):
    ...
    ValueError: distributed queues (Algorithm 2) sample their own server: no random-fit, ...
    """

    def __init__(self, *, clock_rates: object = None, clock_scale: float = 1.0,
                 epsilon: float | None = None, f: str | None = None, b: float | None = None,
                 sampling: str = "uniform", adaptive: bool = False,
                 replace_dummies: bool = False, routing: str | None = None,
                 weights: object = None, name: str = "rms"):
        _choice(sampling, "sampling", SAMPLING)
        if not (routing is None or isinstance(routing, str)) or routing not in ROUTING:
            raise ValueError(f"unknown routing rule {routing!r}; known: jsq, power-of-two "
                             f"(or None: central queues)")
        self.adaptive, self.replace_dummies = (_flag(adaptive, "adaptive"),
                                               _flag(replace_dummies, "replace_dummies"))
        if routing is not None and (sampling != "uniform" or self.adaptive):
            raise ValueError("distributed queues (Algorithm 2) sample their own server: "
                             "no random-fit, best-fit or adaptive clocks")
        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a non-empty string, got {name!r}")
        self.fixed_weights = None if weights is None else _fixed_weights(weights)
        if f is not None:
            _choice(f, "f", F_CHOICES)
        self.f = "log" if f is None else f
        self.f_code = F_CODES[self.f]
        self.epsilon = 0.1 if epsilon is None else _real(epsilon, "epsilon", 0.0, 1.0,
                                                         open_high=True)
        self.b = 0.5 if b is None else _real(b, "b", 0.0, 1.0, open_high=True)
        if b is not None and self.f != "log-power":
            raise ValueError("b is the exponent of f='log-power' (log^(1-b)(1+x)); "
                             f"f={self.f!r} does not use it")
        self.clock_scale = _real(clock_scale, "clock_scale", 0.0)
        self.clock_rates = _clock_rates(clock_rates)
        self.sampling, self.routing = sampling, routing
        self.distributed = routing is not None
        self.name = name

    # -- set-up -----------------------------------------------------------------------

    def _rates(self, J: int, L: int) -> np.ndarray:
        """r_j x clock_scale per type, on L servers (default r_j = L)."""
        from policies.job_types import _per_type

        r = float(L) if self.clock_rates is None else self.clock_rates
        try:
            rates = _per_type(r, J, "clock_rates")
        except ValueError as e:
            raise ValueError(f"{e} (a clock of rate 0 never samples a server)") from None
        with np.errstate(over="ignore"):
            rates = rates * self.clock_scale
            total = float(rates.sum())
        if not math.isfinite(total):
            raise ValueError(f"clock_rates x clock_scale overflow the float range "
                             f"(clock_scale {self.clock_scale:g})")
        return rates

    def compiled_spec(self, types: JobTypes, cluster: Cluster) -> ContinuousKernelSpec | None:
        """The kernel's RMS (None for a subclass that redefines a hook)."""
        if overrides(self, RMS, (*HOOKS, "weights", "_tick_type")):
            return None
        M = max_jobs_per_server(types.sizes, cluster.capacity)
        return ContinuousKernelSpec(
            codes.KIND_RMS, np.cumsum(self._rates(types.J, cluster.servers)), self.f_code,
            self.b, self.epsilon / (8.0 * M), self.fixed_weights,
            codes.SAMPLING_CODES[self.sampling], self.adaptive, self.replace_dummies,
            codes.ROUTING_CODES[self.routing])

    def bind(self, state: ContinuousState) -> None:
        J = state.J
        self.rates = self._rates(J, state.L)
        self.total_rate = float(self.rates.sum())
        self._cum = np.cumsum(self.rates)
        if self.fixed_weights is not None and self.fixed_weights.shape != (J,):
            raise ValueError(f"weights must give one entry per type ({J}), got "
                             f"{self.fixed_weights.shape[0]}")
        self.M = max_jobs_per_server(state.sizes, state.capacity)

    def parameters(self) -> dict[str, Any]:
        return {"clock_rates": self.rates.tolist(), "epsilon": self.epsilon, "f": self.f,
                "b": self.b if self.f == "log-power" else None, "M": self.M,
                "sampling": self.sampling, "adaptive": self.adaptive,
                "replace_dummies": self.replace_dummies, "routing": self.routing,
                "fixed_weights": None if self.fixed_weights is None
                else self.fixed_weights.tolist()}

    def clock_rate(self, state: ContinuousState) -> float:
        return self.total_rate

    # -- eq. (4) / (5) ----------------------------------------------------------------

    def weights(self, state: ContinuousState, row: int = 0) -> np.ndarray:
        """w_j(t) of eq. (4) (central) or eq. (5) (queues of server ``row``)."""
        if self.fixed_weights is not None:
            return self.fixed_weights
        q = state.Q[row].tolist()
        q_max, floor = float(max(q)), self.epsilon / (8.0 * self.M)
        return np.array([rms_weight(float(x), q_max, self.f_code, self.b, floor) for x in q])

    # -- hooks ------------------------------------------------------------------------

    def route(self, state: ContinuousState, j: int) -> int:
        if self.routing is None:
            return 0
        L = state.L
        if self.routing == "jsq":
            q = state.Q[:, j]
            shortest = np.flatnonzero(q == q.min())
            return int(shortest[min(int(state.random() * shortest.size), shortest.size - 1)])
        u1, u2, u3 = state.random(), state.random(), state.random()
        if L == 1:
            return 0
        a = min(int(u1 * L), L - 1)
        b = min(int(u2 * (L - 1)), L - 2)
        if b >= a:
            b += 1
        qa, qb = state.Q[a, j], state.Q[b, j]
        if qa != qb:
            return a if qa < qb else b
        return a if u3 < 0.5 else b

    def on_arrival(self, state: ContinuousState, job: int, j: int, row: int) -> None:
        if self.replace_dummies and state.dummy_count(j, row) > 0:
            state.replace_dummy(j, row)

    def _tick_type(self, state: ContinuousState, u: float) -> int:
        if self.adaptive:
            w = self.weights(state)
            w_max = float(w.max())
            cum = np.cumsum([math.exp(float(x) - w_max) for x in w])
            j = int(np.searchsorted(cum, u * cum[-1], side="right"))
        else:
            j = int(np.searchsorted(self._cum, u * self.total_rate, side="right"))
        return min(j, state.J - 1)

    def on_tick(self, state: ContinuousState) -> None:
        j = self._tick_type(state, state.random())
        u2 = state.random()
        L = state.L
        if self.distributed or self.sampling == "uniform":
            server = min(int(u2 * L), L - 1)
            if state.fits(server, j):
                state.place(server, j, server if self.distributed else 0)
            return
        fit = state.fitting_servers(j)
        if fit.size == 0:
            return
        if self.sampling == "random-fit":
            server = int(fit[min(int(u2 * fit.size), fit.size - 1)])
        else:
            server = int(fit[int(np.argmax(state.best_fit_score(fit, j)))])
        state.place(server, j, 0)

    def on_departure(self, state: ContinuousState, server: int, j: int, job: int,
                     row: int) -> None:
        w = float(self.weights(state, row)[j])
        if state.random() < -math.expm1(-w):
            state.place(server, j, row)
