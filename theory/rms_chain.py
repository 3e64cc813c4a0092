"""The reversible chain RMS-bar of PG18 (Sec. V, Definition 2) and its product forms.

System configurations ``k`` are L x J integer matrices whose row l is a feasible
configuration of server l (PG18 Sec. II); ``K`` is the product of the per-server sets
(:func:`system_configurations`, an array of shape (S, L, J)). RMS-bar(L, r, w) moves

* ``k -> k + e_j^l`` at rate ``r_j / L`` when ``k + e_j^l`` is in K (eq. (7)),
* ``k -> k - e_j^l`` at rate ``k_j^l mu_j exp(-w_j)`` (eq. (8)),

and Lemma 1 gives its stationary law (eq. (9))::

    phi^w(k) = exp(sum_{j,l} w_j k_j^l) prod_{l,j} (r_j / (L mu_j))^{k_j^l} / k_j^l! / Z^w.

``phi^0`` (eq. (11)) is (9) at w = 0. For RMS + JSQ (Algorithm 2, Sec. V-B) each server
has its own clocks of rate ``r_j^l`` and weights ``w_j^l``; the chain is a product of
independent single-server chains and its law is ``psi^w = prod_l phi_l`` with the
per-server form (14), which has no 1/L (``per_server_rates=True`` below).

Probabilities are computed in log space (:func:`scipy.special.logsumexp`) so large
weights do not overflow; the chain's generator is a scipy sparse matrix and its
stationary law a sparse direct solve (:func:`stationary_distribution`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.special import gammaln, logsumexp

from theory.budgets import BudgetExceeded
from theory.configurations import feasible_configurations
from theory.numbers import as_list, positive_int, short_repr

__all__ = [
    "MAX_STATES",
    "MAX_SYMBOLIC_STATES",
    "StationarySolveError",
    "SymbolicBalance",
    "system_configurations",
    "configuration_weight",
    "log_gibbs_weights",
    "log_partition",
    "log_product_form",
    "product_form",
    "log_phi0",
    "rms_bar_generator",
    "stationary_distribution",
    "detailed_balance_symbolic",
    "state_graph",
]

#: System configurations :func:`system_configurations` enumerates before it refuses.
MAX_STATES = 200_000
#: System configurations :func:`detailed_balance_symbolic` handles before it refuses.
MAX_SYMBOLIC_STATES = 5_000


class StationarySolveError(RuntimeError):
    """The linear solve for the stationary law failed (singular system, i.e. a reducible
    chain, or a residual ``|pi Q|`` above the tolerance)."""


# ------------------------------------------------------------------ configurations
def system_configurations(sizes: Sequence[object], capacities: Sequence[object], *,
                          max_states: int = MAX_STATES) -> np.ndarray:
    """All feasible system configurations K (PG18 Sec. II): shape (S, L, J), int64.

    ``capacities`` lists one capacity per server (a number, or a vector of n resources
    like the sizes). K is the product of the per-server sets of
    :func:`theory.configurations.feasible_configurations` (with the empty configuration),
    in lexicographic order of the per-server indices; the first state is ``0``. Above
    ``max_states`` states it refuses with :class:`theory.budgets.BudgetExceeded` naming
    the count, before allocating them.
    """
    caps = as_list(capacities, name="capacities", example="[10, 10] (one per server)",
                   of="per-server capacities")
    if not caps:
        raise ValueError("capacities must list at least one server")
    positive_int(max_states, name="max_states")
    per: list[np.ndarray] = []
    for l, cap in enumerate(caps):
        try:
            ks = feasible_configurations(sizes, cap, max_configurations=int(max_states))
        except BudgetExceeded:
            raise BudgetExceeded(
                f"enumerating the system configurations of {len(caps)} servers",
                f"more than {int(max_states):,} states (server {l} alone has more)",
                f"{int(max_states):,} states", "max_states") from None
        zero = np.zeros((1, ks.shape[1]), dtype=np.int64)
        per.append(np.vstack([zero, ks]))
    count = math.prod(len(p) for p in per)
    if count > max_states:
        raise BudgetExceeded(
            f"enumerating the system configurations of {len(caps)} servers "
            f"({' x '.join(str(len(p)) for p in per)} per-server configurations)",
            f"{count:,} states", f"{int(max_states):,} states", "max_states")
    J = per[0].shape[1]
    idx = np.indices([len(p) for p in per]).reshape(len(per), -1).T  # (S, L)
    out = np.empty((count, len(per), J), dtype=np.int64)
    for l, p in enumerate(per):
        out[:, l, :] = p[idx[:, l]]
    return out


def _as_configs(configs: object) -> np.ndarray:
    a = np.asarray(configs)
    if a.ndim != 3 or 0 in a.shape:
        raise ValueError(f"configs must be a non-empty (S, L, J) array of system "
                         f"configurations, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise ValueError(f"configs must be integers, got dtype {a.dtype}")
    if a.min() < 0:
        raise ValueError("configs must be non-negative")
    return a.astype(np.int64, copy=False)


def _vector(x: object, shape: tuple[int, ...], name: str, *, lower: float | None,
            strict: bool = False) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers, got {short_repr(x)}") from None
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (no NaN or infinity), got {short_repr(x)}")
    if lower is not None and (np.any(a <= lower) if strict else np.any(a < lower)):
        rel = ">" if strict else ">="
        raise ValueError(f"{name} must be {rel} {lower:g}, got {short_repr(x)}")
    return a


def _weights(weights: object, L: int, J: int, per_server: bool) -> np.ndarray:
    """Weights as an (L, J) array: (J,) shared by the servers, or (L, J) if allowed."""
    try:
        nd = np.ndim(weights)  # type: ignore[arg-type]
    except ValueError:
        nd = -1
    shape = (L, J) if per_server and nd == 2 else (J,)
    w = _vector(weights, shape, "weights" if not per_server else "weights (J,) or (L, J)",
                lower=None)
    return np.broadcast_to(w, (L, J)).copy()


def _params(configs: np.ndarray, rates: object, mu: object, weights: object,
            per_server_rates: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated (rates (L, J) as clock rates per server, mu (J,), weights (L, J))."""
    _, L, J = configs.shape
    m = _vector(mu, (J,), "mu", lower=0.0, strict=True)
    if per_server_rates:
        r = _vector(rates, (L, J), "rates (per server, r_j^l)", lower=0.0)
    else:
        r = np.broadcast_to(_vector(rates, (J,), "rates", lower=0.0), (L, J)).copy()
    return r, m, _weights(weights, L, J, per_server_rates)


def configuration_weight(configs: object, weights: object) -> np.ndarray:
    """``W(k) = sum_{j,l} w_j k_j^l`` for every state (PG18 eqs. (9)-(10)); ``weights``
    of shape (J,) or per server (L, J)."""
    c = _as_configs(configs)
    _, L, J = c.shape
    return np.einsum("slj,lj->s", c, _weights(weights, L, J, per_server=True))


def log_gibbs_weights(configs: object, rates: object, mu: object, weights: object, *,
                      servers: int | None = None, per_server_rates: bool = False
                      ) -> np.ndarray:
    """Log of the unnormalised product form: (9) (PG18 Lemma 1), or (14) (Sec. V-B).

    (9): ``sum_{l,j} [w_j k + k log(r_j / (L mu_j)) - log k!]`` with ``L = servers``
    (default: the number of servers of ``configs``). ``per_server_rates=True``: ``rates``
    is (L, J) (clock rates ``r_j^l``), ``weights`` (J,) or (L, J), and the base is
    ``r_j^l / mu_j`` (no 1/L, eq. (14)). A zero rate gives probability 0 (log -inf) to
    the states that hold its type.
    """
    c = _as_configs(configs)
    r, m, w = _params(c, rates, mu, weights, per_server_rates)
    if per_server_rates:
        if servers is not None:
            raise ValueError("servers (the 1/L of eq. (9)) has no meaning with per-server "
                             "rates: eq. (14) has no 1/L")
        L_eff = 1.0
    else:
        L_eff = float(c.shape[1] if servers is None else servers)
        if servers is not None and (isinstance(servers, bool) or not servers > 0):
            raise ValueError(f"servers must be positive, got {short_repr(servers)}")
    with np.errstate(divide="ignore"):
        logbase = np.log(r) - np.log(L_eff) - np.log(m)[None, :]  # (L, J)
    # k * log(base) with 0 * log(0) = 0 (a zero rate forbids its type, nothing else)
    kb = np.where(c > 0, c * np.where(np.isfinite(logbase), logbase, 0.0)[None], 0.0)
    forbidden = np.any((c > 0) & ~np.isfinite(logbase)[None], axis=(1, 2))
    out = np.einsum("slj->s", kb + c * w[None]) - np.einsum("slj->s", gammaln(c + 1.0))
    out[forbidden] = -np.inf
    return out


def log_partition(configs: object, rates: object, mu: object, weights: object, *,
                  servers: int | None = None, per_server_rates: bool = False) -> float:
    """``log Z^w`` of (9) (or (14)): logsumexp of :func:`log_gibbs_weights`."""
    return float(logsumexp(log_gibbs_weights(configs, rates, mu, weights, servers=servers,
                                             per_server_rates=per_server_rates)))


def log_product_form(configs: object, rates: object, mu: object, weights: object, *,
                     servers: int | None = None, per_server_rates: bool = False
                     ) -> np.ndarray:
    """``log phi^w(k)`` of PG18 eq. (9) (``per_server_rates``: ``log psi^w``, eq. (14))."""
    lw = log_gibbs_weights(configs, rates, mu, weights, servers=servers,
                           per_server_rates=per_server_rates)
    return lw - logsumexp(lw)


def product_form(configs: object, rates: object, mu: object, weights: object, *,
                 servers: int | None = None, per_server_rates: bool = False) -> np.ndarray:
    """Stationary probabilities ``phi^w`` of PG18 Lemma 1, eq. (9), one per state of
    ``configs``; with ``per_server_rates=True`` the RMS + JSQ law ``psi^w = prod_l
    phi_l`` of eq. (14). ``servers`` overrides the L of ``r_j / (L mu_j)`` (default: the
    number of servers; a wrong value gives a wrong form, for tests)."""
    return np.exp(log_product_form(configs, rates, mu, weights, servers=servers,
                                   per_server_rates=per_server_rates))


def log_phi0(configs: object, rates: object, mu: object, *, servers: int | None = None,
             per_server_rates: bool = False) -> np.ndarray:
    """``log phi^0(k)`` of PG18 eq. (11): (9) at w = 0, normalised over ``configs``."""
    c = _as_configs(configs)
    return log_product_form(c, rates, mu, np.zeros(c.shape[2]), servers=servers,
                            per_server_rates=per_server_rates)


# ------------------------------------------------------------------ the chain
def _transitions(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every arrival ``k -> k + e_j^l`` inside the set: (source, target, l, j) arrays.

    Checks that the states are distinct and that the set is down-closed (every
    ``k - e_j^l`` with ``k_j^l > 0`` is a state), so the departures (8) are exactly the
    reversed arrivals.
    """
    S, L, J = c.shape
    flat = np.ascontiguousarray(c.reshape(S, L * J))
    void = np.dtype((np.void, flat.dtype.itemsize * L * J))
    keys = flat.view(void).ravel()
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    if S > 1 and np.any(skeys[1:] == skeys[:-1]):
        raise ValueError("configs contains a repeated system configuration")

    def lookup(rows: np.ndarray) -> np.ndarray:
        q = np.ascontiguousarray(rows).view(void).ravel()
        pos = np.minimum(np.searchsorted(skeys, q), S - 1)
        return np.where(skeys[pos] == q, order[pos], -1)

    src, dst, ls, js = [], [], [], []
    for p in range(L * J):
        l, j = divmod(p, J)
        down = np.flatnonzero(flat[:, p] > 0)
        if down.size:
            rows = flat[down].copy()
            rows[:, p] -= 1
            below = lookup(rows)
            if np.any(below < 0):
                bad = c[down[np.argmax(below < 0)]]
                raise ValueError(f"configs is not down-closed: {bad.tolist()} is a state but "
                                 f"removing a type-{j} job from server {l} is not")
            src.append(below)
            dst.append(down)
            ls.append(np.full(down.size, l))
            js.append(np.full(down.size, j))
    if not src:
        e = np.zeros(0, dtype=np.int64)
        return e, e, e, e
    return (np.concatenate(src), np.concatenate(dst), np.concatenate(ls),
            np.concatenate(js))


def rms_bar_generator(configs: object, rates: object, mu: object, weights: object, *,
                      per_server_rates: bool = False) -> sp.csr_matrix:
    """Generator Q (rows sum to 0) of RMS-bar(L, r, w), PG18 Definition 2, eqs. (7)-(8).

    ``k -> k + e_j^l`` at ``r_j / L`` (central clock, server sampled uniformly) when the
    target is a state of ``configs``; ``k -> k - e_j^l`` at ``k_j^l mu_j exp(-w_j)``.
    ``per_server_rates=True`` (RMS + JSQ, Algorithm 2): ``rates`` is (L, J), the arrival
    rate is ``r_j^l`` and ``weights`` may be (L, J). ``configs`` must be down-closed (as
    every K is).
    """
    c = _as_configs(configs)
    r, m, w = _params(c, rates, mu, weights, per_server_rates)
    S, L, _ = c.shape
    src, dst, ls, js = _transitions(c)
    up = r[ls, js] if per_server_rates else r[ls, js] / L
    down = c[dst, ls, js] * m[js] * np.exp(-w[ls, js])
    rows = np.concatenate([src, dst])
    cols = np.concatenate([dst, src])
    vals = np.concatenate([up, down])
    off = sp.coo_matrix((vals, (rows, cols)), shape=(S, S)).tocsr()
    out = np.asarray(off.sum(axis=1)).ravel()
    return (off - sp.diags(out)).tocsr()


def stationary_distribution(Q: object, *, tol: float = 1e-9) -> np.ndarray:
    """Solve ``pi Q = 0, sum pi = 1`` (sparse LU on Q^T with its last equation replaced
    by the normalisation). Raises :class:`StationarySolveError` when the chain has more
    than one closed class (so no unique stationary law), the system is singular,
    or the answer has ``max |pi Q| > tol * max |Q_kk|``, a negative entry below ``-tol``
    or a sum off 1 by more than ``tol``."""
    if not sp.issparse(Q):
        Q = sp.csr_matrix(np.asarray(Q, dtype=float))
    Qs = sp.csr_matrix(Q, dtype=float)
    n = Qs.shape[0]
    if Qs.ndim != 2 or Qs.shape != (n, n) or n == 0:
        raise ValueError(f"Q must be a non-empty square matrix, got shape {Qs.shape}")
    if not np.all(np.isfinite(Qs.data)):
        raise ValueError("Q must be finite")
    scale = max(float(np.max(np.abs(Qs.diagonal()))), 1e-300)
    if abs(Qs.sum(axis=1)).max() > 1e-9 * scale:
        raise ValueError("Q is not a generator: its rows must sum to 0")
    from scipy.sparse.csgraph import connected_components

    # two closed classes leave the stationary law non-unique; LU does not always see
    # it (one block solved exactly, the other set to 0), so it is checked on the graph
    pattern = sp.coo_matrix(Qs - sp.diags(Qs.diagonal()))
    keep = pattern.data != 0
    parts, label = connected_components(sp.csr_matrix(pattern), directed=True,
                                        connection="strong")
    leaving = label[pattern.row[keep]] != label[pattern.col[keep]]
    closed = parts - np.unique(label[pattern.row[keep]][leaving]).size
    if closed > 1:
        raise StationarySolveError(f"the chain has {closed} closed classes (it is not "
                                   "irreducible): no unique stationary law")
    A = Qs.T.tolil()
    A[n - 1, :] = np.ones(n)
    b = np.zeros(n)
    b[-1] = 1.0
    from scipy.sparse.linalg import MatrixRankWarning, spsolve

    with warnings.catch_warnings():
        warnings.simplefilter("error", MatrixRankWarning)
        try:
            pi = spsolve(A.tocsc(), b)
        except (MatrixRankWarning, RuntimeError) as e:
            raise StationarySolveError(f"stationary solve failed ({e}); is the chain "
                                       "irreducible?") from None
    pi = np.asarray(pi, dtype=float).ravel()
    if not np.all(np.isfinite(pi)):
        raise StationarySolveError("stationary solve returned NaN/inf (singular system: "
                                   "is the chain irreducible?)")
    resid = float(np.max(np.abs(Qs.T @ pi))) / scale
    if resid > tol or pi.min() < -tol or abs(pi.sum() - 1.0) > tol:
        raise StationarySolveError(
            f"stationary solve inaccurate: max|pi Q|/max|Q_kk| = {resid:.3g}, "
            f"min pi = {pi.min():.3g}, sum pi - 1 = {pi.sum() - 1:.3g} (tol {tol:g})")
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


# ------------------------------------------------------------------ structure
def state_graph(configs: object) -> Any:
    """networkx DiGraph of RMS-bar's transitions (positive rates): nodes are state
    indices (attribute ``config``, a tuple of per-server tuples), edges ``kind`` =
    ``"arrival"`` (eq. (7)) or ``"departure"`` (eq. (8)) with ``server`` and ``type``."""
    import networkx as nx

    c = _as_configs(configs)
    src, dst, ls, js = _transitions(c)
    g = nx.DiGraph()
    g.add_nodes_from((i, {"config": tuple(map(tuple, c[i].tolist()))})
                     for i in range(c.shape[0]))
    for a, b, l, j in zip(src.tolist(), dst.tolist(), ls.tolist(), js.tolist(), strict=True):
        g.add_edge(a, b, kind="arrival", server=l, type=j)
        g.add_edge(b, a, kind="departure", server=l, type=j)
    return g


# ------------------------------------------------------------------ symbolic
class SymbolicBalance(NamedTuple):
    """Result of :func:`detailed_balance_symbolic`: the number of detailed-balance
    equations checked and those that did not simplify to 0 (state, server, type, the
    unsimplified difference)."""

    equations: int
    failures: list[tuple[tuple[tuple[int, ...], ...], int, int, Any]]


def _phi9(k: np.ndarray, r: Sequence[Any], mu: Sequence[Any], w: Sequence[Any],
          L: int) -> Any:
    """PG18 eq. (9), unnormalised, for one system configuration (sympy)."""
    import sympy

    out = sympy.Integer(1)
    for l in range(k.shape[0]):
        for j in range(k.shape[1]):
            n = int(k[l, j])
            out *= sympy.exp(w[j] * n) * (r[j] / (L * mu[j])) ** n / sympy.factorial(n)
    return out


def detailed_balance_symbolic(sizes: Sequence[object], capacities: Sequence[object], *,
                              phi: Callable[..., Any] | None = None,
                              max_states: int = MAX_SYMBOLIC_STATES) -> SymbolicBalance:
    """Check PG18 Lemma 1's detailed balance exactly, with positive symbols r_j, mu_j, w_j:

        phi(k) r_j / L = phi(k + e_j^l) (k_j^l + 1) mu_j exp(-w_j)

    for every state k and every arrival ``k + e_j^l`` in K, ``phi`` the unnormalised
    (9) (or ``phi(k, r, mu, w, L)`` given, an (L, J) integer array and symbol lists).
    Each difference goes through ``sympy.powsimp`` and, if not already 0,
    ``sympy.simplify``. Returns the number of equations and those not equal to 0.
    """
    import sympy

    c = system_configurations(sizes, capacities, max_states=max_states)
    _, L, J = c.shape
    pos = dict(positive=True)
    r = sympy.symbols(f"r1:{J + 1}", **pos)
    mu = sympy.symbols(f"mu1:{J + 1}", **pos)
    w = sympy.symbols(f"w1:{J + 1}", **pos)
    form = _phi9 if phi is None else phi
    src, dst, ls, js = _transitions(c)
    cache: dict[int, Any] = {}

    def at(i: int) -> Any:
        if i not in cache:
            cache[i] = form(c[i], r, mu, w, L)
        return cache[i]

    failures = []
    for a, b, l, j in zip(src.tolist(), dst.tolist(), ls.tolist(), js.tolist(), strict=True):
        n = int(c[a, l, j])
        diff = at(a) * r[j] / L - at(b) * (n + 1) * mu[j] * sympy.exp(-w[j])
        if sympy.powsimp(sympy.expand(diff)) != 0 and sympy.simplify(diff) != 0:
            failures.append((tuple(map(tuple, c[a].tolist())), l, j, diff))
    return SymbolicBalance(len(src), failures)
