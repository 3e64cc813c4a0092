"""The state of the PG18 continuous-time system and the actions a policy may take.

PG18 Sec. II: L servers with capacity vectors, J job types with demand vectors,
queues of waiting jobs (one per type, or one per type at every server: Sec. II (ii)),
jobs in service that hold their demand until they depart, and dummy jobs of
Algorithm 1 that hold resources like real jobs but serve no one.

A policy (:class:`~policies.continuous.policy.ContinuousPolicy`) sees a
:class:`ContinuousState` at every event and acts through :meth:`~ContinuousState.place`,
:meth:`~ContinuousState.start_job`, :meth:`~ContinuousState.start_dummy` and
:meth:`~ContinuousState.replace_dummy`; every random number comes from
:meth:`~ContinuousState.random`, the run's one scheduling stream, so that two
implementations that draw in the same order follow the same trajectory.
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np

from policies.continuous.formulas import service_draw
from policies.job_types import JobTypes
from theory.cluster import Cluster
from theory.numbers import FEASIBILITY_RTOL

__all__ = ["ContinuousState"]


class ContinuousState:
    """The PG18 system at time ``t``: servers, queues, jobs in service, and the actions.

    A policy reads the attributes and acts through the methods: :meth:`place`
    (Algorithm 1's placement: the head-of-line job, or a dummy when the queue is
    empty), :meth:`start_job`, :meth:`start_dummy` and :meth:`replace_dummy`
    (Remark 2). Queries: :meth:`fits`, :meth:`fitting_servers`, :meth:`best_fit_score`
    (Sec. VI), :meth:`head_arrival`, :meth:`dummy_count`, and :meth:`random`, the run's
    one scheduling stream. A job fits when load + demand <= capacity (1 +
    :data:`theory.numbers.FEASIBILITY_RTOL`) in every resource. The engine builds the
    state; a policy never does.

    Attributes: ``t``; ``L``, ``J``, ``sizes`` (J, n), ``capacity`` (L, n); ``load``
    (L, n) resources held (real and dummy jobs); ``count`` (L, J) jobs in service
    (real and dummy), ``dummies`` (L, J) of which dummy; ``Q`` (rows, J) waiting jobs,
    one row for central queues, one per server for distributed queues; ``queue_total``
    (J,) = ``Q.sum(axis=0)``; per job ``start``, ``server`` and ``finish`` (NaN or -1
    until it happens).

    Parameters
    ----------
    types : JobTypes
        The job types: demand vectors, and the service laws of dummy jobs.
    cluster : theory.Cluster
        The servers (capacity per resource).
    job_type : numpy.ndarray
        The type of every job of the run, in arrival order (int).
    service : numpy.ndarray
        The service time of every job, in time units.
    arrival : numpy.ndarray
        The arrival time of every job.
    distributed : bool
        One queue row per server (PG18 Sec. II (ii), Algorithm 2) instead of one
        central row.
    rng : numpy.random.Generator
        The scheduling stream: every random number of the policy and of the dummy jobs'
        service.

    Raises
    ------
    RuntimeError
        From the actions, on a policy error: a job placed where it does not fit, or
        started from an empty queue.

    References
    ----------
    PG18, Sec. II (servers, job types, central and distributed queues) and Sec. IV-A,
    Algorithm 1 and Remark 2 (dummy jobs); docs/design.md, section Simulation (The four
    families).

    Examples
    --------
    The engine builds the state; here one by hand, with two queued jobs (job 0 of type
    1, size 5, and job 1 of type 0, size 2):

    >>> import numpy as np
    >>> from policies import JobTypes
    >>> from policies.continuous import ContinuousState
    >>> from theory import Cluster
    >>> st = ContinuousState(JobTypes([[2], [5]]), Cluster.identical(2, 10),
    ...                      job_type=np.array([1, 0]), service=np.array([1.5, 0.5]),
    ...                      arrival=np.array([0.0, 0.0]), distributed=False,
    ...                      rng=np.random.default_rng(0))
    >>> st.enqueue(0); st.enqueue(1)
    >>> st.Q.tolist(), st.fitting_servers(1).tolist()
    ([[1, 1]], [0, 1])
    >>> st.place(0, 1), st.place(0, 0), st.place(1, 0)  # the last is a dummy
    (0, 1, -1)
    >>> st.load.ravel().tolist(), st.dummies.tolist(), st.fits(0, 1)
    ([7.0, 2.0], [[0, 0], [1, 0]], False)
    >>> st.best_fit_score(np.array([0, 1]), 0).round(6).tolist()  # (2/10)(7/10), (2/10)(2/10)
    [0.14, 0.04]
    """

    def __init__(self, types: JobTypes, cluster: Cluster, job_type: np.ndarray,
                 service: np.ndarray, arrival: np.ndarray, *, distributed: bool,
                 rng: np.random.Generator):
        self.types = types
        self.sizes = types.sizes
        self.capacity = cluster.capacity
        self.L, self.J = cluster.servers, types.J
        self._cap_tol = self.capacity * (1.0 + FEASIBILITY_RTOL)
        self.load = np.zeros_like(self.capacity)
        self.count = np.zeros((self.L, self.J), dtype=np.int64)
        self.dummies = np.zeros((self.L, self.J), dtype=np.int64)
        self.rows = self.L if distributed else 1
        self.Q = np.zeros((self.rows, self.J), dtype=np.int64)
        self.queue_total = np.zeros(self.J, dtype=np.int64)
        self._queues: list[list[deque[int]]] = [[deque() for _ in range(self.J)]
                                                 for _ in range(self.rows)]
        self._rng = rng
        self._law = types.law_arrays()
        self._job_type, self._service, self._arrival = job_type, service, arrival
        self.t = 0.0
        n = job_type.shape[0]
        self.start = np.full(n, np.nan)
        self.server = np.full(n, -1, dtype=np.int64)
        self.finish = np.full(n, np.nan)
        # in service: record id -> (server, type, job (-1 dummy)); heap of (time, record)
        self._records: dict[int, tuple[int, int, int]] = {}
        self._heap: list[tuple[float, int]] = []
        self._next_record = 0
        self._dummy_stack: list[list[list[int]]] = [[[] for _ in range(self.J)]
                                                    for _ in range(self.rows)]
        self.dummy_log: list[tuple[float, float, int, int]] = []  # (start, end, server, type)
        self._dummy_start: dict[int, float] = {}
        self.dummy_load = np.zeros(self.capacity.shape[1])  # resources held by dummies
        self.served = 0  # real jobs started
        self.dummy_placements = 0
        self.ticks = 0

    # -- queries ----------------------------------------------------------------------

    def random(self) -> float:
        """One uniform in [0, 1) from the run's scheduling stream."""
        return float(self._rng.random())

    def fits(self, server: int, j: int) -> bool:
        """Does a type-``j`` job fit the residual capacity of ``server``?"""
        return bool(np.all(self.load[server] + self.sizes[j] <= self._cap_tol[server]))

    def fitting_servers(self, j: int) -> np.ndarray:
        """Servers (increasing index) where a type-``j`` job fits."""
        return np.flatnonzero(np.all(self.load + self.sizes[j] <= self._cap_tol, axis=1))

    def best_fit_score(self, servers: np.ndarray, j: int) -> np.ndarray:
        """PG18 Sec. VI (RMS-BF): inner product of the job's demand and the server's
        occupied resources, both as fractions of the server's capacity."""
        cap, load, s = self.capacity[servers], self.load[servers], self.sizes[j]
        score = np.zeros(len(servers))
        for r in range(s.shape[0]):  # left to right, as formulas.best_fit_score
            score += (s[r] / cap[:, r]) * (load[:, r] / cap[:, r])
        return score

    def head_arrival(self, row: int, j: int) -> float:
        """Arrival time of the head-of-line job of queue (row, j) (inf if empty)."""
        q = self._queues[row][j]
        return float(self._arrival[q[0]]) if q else float("inf")

    def dummy_count(self, j: int, row: int = 0) -> int:
        """Dummy type-``j`` jobs in service (central) or at server ``row`` (distributed)."""
        return len(self._dummy_stack[row][j])

    # -- actions ----------------------------------------------------------------------

    def enqueue(self, job: int, row: int = 0) -> None:
        j = int(self._job_type[job])
        self._queues[row][j].append(job)
        self.Q[row, j] += 1
        self.queue_total[j] += 1

    def place(self, server: int, j: int, row: int = 0) -> int:
        """Algorithm 1's placement: the head-of-line job of queue (row, j) if there is
        one, else a dummy type-``j`` job; the job must fit. Returns the job id or -1."""
        if self.Q[row, j] > 0:
            return self.start_job(server, j, row)
        self.start_dummy(server, j, row)
        return -1

    def start_job(self, server: int, j: int, row: int = 0) -> int:
        """Start the head-of-line job of queue (row, j) on ``server``."""
        if not self.fits(server, j):
            raise RuntimeError(f"policy error: a type-{j} job does not fit server {server}")
        q = self._queues[row][j]
        if not q:
            raise RuntimeError(f"policy error: queue ({row}, {j}) is empty")
        job = q.popleft()
        self.Q[row, j] -= 1
        self.queue_total[j] -= 1
        self.start[job] = self.t
        self.server[job] = server
        self.served += 1
        self._hold(server, j, job, self.t + float(self._service[job]), row)
        return job

    def start_dummy(self, server: int, j: int, row: int = 0) -> None:
        """Start a dummy type-``j`` job on ``server``; its service is drawn from the
        type's law with one uniform (Algorithm 1, Remark 2: dummies are held like real
        jobs)."""
        if not self.fits(server, j):
            raise RuntimeError(f"policy error: a type-{j} job does not fit server {server}")
        code, mean, par = self._law
        d = service_draw(int(code[j]), float(mean[j]), float(par[j]), self.random())
        rec = self._hold(server, j, -1, self.t + d, row)
        self.dummies[server, j] += 1
        self.dummy_load += self.sizes[j]
        self.dummy_placements += 1
        self._dummy_stack[row][j].append(rec)
        self._dummy_start[rec] = self.t

    def replace_dummy(self, j: int, row: int = 0) -> int:
        """Remark 2: the most recently placed dummy type-``j`` job (of server ``row``
        with distributed queues) gives its place to the head-of-line job of queue
        (row, j). Returns the server, or -1 if there is no dummy or no job."""
        stack = self._dummy_stack[row][j]
        if not stack or self.Q[row, j] == 0:
            return -1
        rec = stack.pop()
        server, jj, _ = self._records.pop(rec)
        self._end_dummy(rec, server, j)
        self.load[server] -= self.sizes[j]
        self.count[server, j] -= 1
        self._clean(server)
        self.start_job(server, j, row)
        return server

    # -- engine side ------------------------------------------------------------------

    def _hold(self, server: int, j: int, job: int, until: float, row: int) -> int:
        rec = self._next_record
        self._next_record += 1
        self._records[rec] = (server, j, job)
        heapq.heappush(self._heap, (until, rec))
        self.load[server] += self.sizes[j]
        self.count[server, j] += 1
        return rec

    def _clean(self, server: int) -> None:
        if self.count[server].sum() == 0:  # an empty server holds exactly nothing
            self.load[server] = 0.0

    def _end_dummy(self, rec: int, server: int, j: int) -> None:
        self.dummies[server, j] -= 1
        self.dummy_load -= self.sizes[j]
        if not self.dummies.any():
            self.dummy_load[:] = 0.0
        self.dummy_log.append((self._dummy_start.pop(rec), self.t, server, j))

    def next_departure(self) -> float:
        while self._heap and self._heap[0][1] not in self._records:
            heapq.heappop(self._heap)  # a replaced dummy
        return self._heap[0][0] if self._heap else float("inf")

    def pop_departure(self) -> tuple[int, int, int, int]:
        """Remove the next job to depart: (server, type, job (-1 dummy), queue row)."""
        _, rec = heapq.heappop(self._heap)
        server, j, job = self._records.pop(rec)
        row = server if self.rows > 1 else 0
        if job < 0:
            self._dummy_stack[row][j].remove(rec)
            self._end_dummy(rec, server, j)
        else:
            self.finish[job] = self.t
        self.load[server] -= self.sizes[j]
        self.count[server, j] -= 1
        self._clean(server)
        return server, j, job, row
