"""MaxWeight baselines of PG18 Sec. I-A and VII-A.3: MWR (refresh) and MWS (stop).

Each server l keeps a target configuration kbar^l, a max-weight configuration
argmax_{k in K_l} sum_j Q_j k_j computed with the exact oracle
:func:`capacity.knapsack.max_weight_configuration`, and serves within it: a queued
type-j job is placed on a server with fewer than kbar_j^l type-j jobs in service
(the lowest such index). The target is renewed only when the server is empty
(refresh times, [17], [18]); an empty server renews it at every event, so that a
target chosen while the queues were empty does not stay empty.

MWS ([19]) adds the stopping rule: at a departure from server l, if the current
target is worth less than ``stop_fraction`` (beta) of the max weight,
sum_j Q_j kbar_j^l < beta max_k sum_j Q_j k_j, the server stops accepting jobs until it
empties, and is then reset to the max-weight configuration. With the exact oracle
(ratio r = 1) [19] guarantees a beta fraction of the region. MWR is beta = 0: it
never stops, and at high load its servers seldom empty (PG18 Fig. 5: unstable).
The servers refresh independently (per-server refresh, as practical systems do; [18]
needs all servers empty at once for its guarantee).

The oracle's search counts copies of a type one by one: a type that fits more than
:data:`MAX_COPIES` times into a server (a demand tiny against the capacity) is refused
when the run starts, before any search could run out of nodes mid-run.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from policies.continuous.policy import ContinuousPolicy
from theory.numbers import positive_int

if TYPE_CHECKING:
    from policies.continuous.state import ContinuousState

__all__ = ["MaxWeightServers", "MAX_COPIES", "CACHE_BYTES"]

#: bytes the cache of max-weight configurations may hold (per policy)
CACHE_BYTES = 64 * 2**20

#: most copies of one type per server the exact oracle is asked to search (its branch
#: and bound visits about two nodes per copy, within its budget of 5,000,000 nodes)
MAX_COPIES = 2_000_000


class MaxWeightServers(ContinuousPolicy):
    """MaxWeight per server, PG18's baselines MWR (refresh) and MWS (stop).

    Each server keeps a target configuration, a max-weight configuration
    argmax_k sum_j Q_j k_j from the exact oracle
    :func:`capacity.knapsack.max_weight_configuration`, renewed only when the server is
    empty, and takes queued jobs within it (the module docstring has the details).
    ``mwr`` is ``stop_fraction=0``; ``mws`` (default ``stop_fraction=0.9``; the paper
    does not state its beta) stops a server whose target is worth less than beta of
    the max weight until it empties.

    Parameters
    ----------
    stop_fraction : float, default 0.9
        beta of MWS, in [0, 1); 0 gives MWR, which never stops.
    name : str or None, default None
        The policy's name in results; None: ``'mwr'`` for beta = 0, else ``'mws'``.
    cache_size : int, default 100000
        Most max-weight configurations cached (per server class and queue vector), and
        at most :data:`CACHE_BYTES` of them.

    Raises
    ------
    ValueError
        ``stop_fraction`` outside [0, 1); ``cache_size`` not a positive integer; an
        empty ``name``. When a run binds the policy: a type that fits more than
        :data:`MAX_COPIES` times into a server.
    capacity.programs.ProgramError
        During a run, when the oracle does not prove a max-weight configuration within
        its search budget.

    References
    ----------
    PG18, Sec. I-A and Sec. VII-A.3, Fig. 5 and 6 (MWR of its reference [18], MWS of
    its reference [19]).

    Examples
    --------
    >>> from policies import MaxWeightServers, JobTypes, poisson_type_workload
    >>> from policies import simulate_continuous
    >>> from theory import Cluster
    >>> types, cluster = JobTypes([[2], [5]]), Cluster.identical(2, 10)
    >>> w = poisson_type_workload(types, [4.0, 1.6], 30.0, seed=1)
    >>> for p in (MaxWeightServers(0.0), MaxWeightServers()):
    ...     r = simulate_continuous(p, w, cluster, types)
    ...     print(r.policy, r.params["stop_fraction"], r.started, r.final_queue)
    mwr 0.0 165 3
    mws 0.9 138 30
    """

    def __init__(self, stop_fraction: float = 0.9, name: str | None = None,
                 cache_size: int = 100_000):
        if isinstance(stop_fraction, bool | np.bool_) \
                or not isinstance(stop_fraction, int | float | np.integer | np.floating) \
                or not (math.isfinite(stop_fraction) and 0 <= stop_fraction < 1):
            raise ValueError(f"stop_fraction (beta) must lie in [0, 1), got {stop_fraction!r}")
        positive_int(cache_size, name="cache_size")
        if name is not None and (not isinstance(name, str) or not name):
            raise ValueError(f"name must be a non-empty string, got {name!r}")
        self.beta = float(stop_fraction)
        self.name = name or ("mwr" if self.beta == 0 else "mws")
        self._cache: dict[tuple[int, bytes], np.ndarray] = {}
        self._cache_size = self._cache_entries = int(cache_size)

    def parameters(self) -> dict[str, Any]:
        return {"stop_fraction": self.beta, "oracle": "capacity.knapsack "
                "max_weight_configuration (exact)"}

    def bind(self, state: ContinuousState) -> None:
        classes, self._class = np.unique(state.capacity, axis=0, return_inverse=True)
        self._class = self._class.ravel()
        self._caps = classes
        _check_copies(self.name, state.sizes, classes)
        # an entry holds a key and a configuration of J int64 and about 250 bytes of
        # Python objects: the cache stays within CACHE_BYTES whatever J
        self._cache_entries = max(1, min(self._cache_size, CACHE_BYTES // (16 * state.J + 250)))
        self.target = np.zeros((state.L, state.J), dtype=np.int64)
        self.stopped = np.zeros(state.L, dtype=bool)

    def max_weight(self, state: ContinuousState, server: int) -> np.ndarray:
        """argmax_{k in K_l} <Q, k> (exact; cached per server class and queue vector)."""
        from capacity.knapsack import max_weight_configuration
        from capacity.programs import ProgramError

        c = int(self._class[server])
        q = state.queue_total
        key = (c, q.tobytes())
        hit = self._cache.get(key)
        if hit is None:
            if not q.any():
                hit = np.zeros(state.J, dtype=np.int64)
            else:
                try:
                    hit = max_weight_configuration(q.astype(np.float64), state.sizes,
                                                   self._caps[c]).config
                except RuntimeError:
                    raise ProgramError(
                        f"{self.name}: the exact max-weight configuration of a server of "
                        f"capacity {self._caps[c].tolist()} for queues {q.tolist()} was not "
                        f"proven within the knapsack search's budget") from None
            if len(self._cache) >= self._cache_entries:
                self._cache.clear()
            self._cache[key] = hit
        return hit

    def _fill(self, state: ContinuousState, server: int) -> None:
        if self.stopped[server]:
            return
        for j in range(state.J):
            while state.count[server, j] < self.target[server, j] and state.Q[0, j] > 0:
                state.start_job(server, j, 0)

    def _refresh_empty(self, state: ContinuousState) -> None:
        for server in np.flatnonzero(state.count.sum(axis=1) == 0):
            self.stopped[server] = False
            self.target[server] = self.max_weight(state, int(server))
            self._fill(state, int(server))

    def on_arrival(self, state: ContinuousState, job: int, j: int, row: int) -> None:
        self._refresh_empty(state)
        if state.Q[0, j] == 0:
            return
        free = np.flatnonzero((state.count[:, j] < self.target[:, j]) & ~self.stopped)
        if free.size:
            state.start_job(int(free[0]), j, 0)

    def on_departure(self, state: ContinuousState, server: int, j: int, job: int,
                     row: int) -> None:
        if state.count[server].sum() == 0:
            self._refresh_empty(state)
            return
        if self.beta > 0 and not self.stopped[server]:
            q = state.queue_total
            best = self.max_weight(state, server)
            if float(q @ self.target[server]) < self.beta * float(q @ best):
                self.stopped[server] = True
        self._fill(state, server)


def _check_copies(name: str, sizes: np.ndarray, classes: np.ndarray) -> None:
    """Refuse a type that fits more than :data:`MAX_COPIES` times into a server class."""
    from theory.numbers import FEASIBILITY_RTOL

    for cap in classes:
        tol = cap * (1.0 + FEASIBILITY_RTOL)
        for j in range(sizes.shape[0]):
            used = sizes[j] > 0
            copies = float(np.min(tol[used] / sizes[j][used]))
            if copies > MAX_COPIES:
                raise ValueError(
                    f"{name}: type {j} (demand {sizes[j].tolist()}) fits about {copies:.3g} "
                    f"times into a server of capacity {cap.tolist()}; the exact max-weight "
                    f"oracle of MaxWeight searches at most {MAX_COPIES:,} copies of a type "
                    f"per server: give demands that are not this small against the capacity")
