"""Literal, slow reference implementations of the PG21 slotted policies.

Each class is a plain-Python :class:`policies.SlottedPolicy` written straight from the
words of PG21 (Secs. IV-A, V-A, V-B, VI, VII-B) and from the tie-breaking contract of
the compiled built-ins (``policies/slotted/_kernel.py``, ``vqs.py``, ``maxweight.py``
docstrings). No clever data structures and no skipping: every server is visited in
every slot, and every search is a linear scan over the queue or over the servers.
They exist only to be compared with the compiled policies (identical schedules).

Conventions shared with the engine (``policies.slotted.engine``):

* a job of size s fits server l iff ``s <= (capacity[l] - load[l]) + eps`` (the
  engine's ``state.fits``); the *residual* is ``capacity[l] - load[l]``. The helpers
  below compute both with exactly these float operations, from ``state.load``;
* ``state.queue`` lists the waiting jobs in arrival order (= increasing job id).

Job types and active configurations are kept in the policy object itself;
:meth:`reset` (called before every run) rebuilds them. Job types follow PG21 Def. 3 /
eq. (18) exactly (``rtol=0``); ``rtol > 0`` reads a size within ``rtol * capacity``
of a cell limit as that limit (the convention of ``Partition.classify(..., rtol)``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from policies import SlottedPolicy
from theory.configurations import maximal_configurations, reduced_configurations
from theory.partitions import Partition, universal_partition

__all__ = [
    "RefBFJ",
    "RefBFS",
    "RefBFJS",
    "RefFIFOFF",
    "RefVQS",
    "RefVQSBF",
    "RefPartitionMaxWeight",
    "literal_observed_J",
    "literal_types",
]


# -- helpers (linear scans) -----------------------------------------------------------


def _residual(state, l: int) -> float:
    """``capacity[l] - load[l]``."""
    return float(state.capacity[l]) - state.load[l]


def _room(state, l: int) -> float:
    """``(capacity[l] - load[l]) + eps``: a job of size s fits server l iff s <= room."""
    return _residual(state, l) + state.eps


def _best_fit_server(state, s: float) -> int:
    """The server with the least residual among those a size-s job fits; ties: lowest
    index; -1 if it fits nowhere (PG21 IV-A, BF-J)."""
    best, best_r = -1, math.inf
    for l in range(state.servers):
        r = _residual(state, l)
        if s <= r + state.eps and r < best_r:  # strict '<': ties keep the lowest index
            best, best_r = l, r
    return best


def _first_fit_server(state, s: float) -> int:
    """The lowest-index server a size-s job fits, or -1 (First-Fit, PG21 VII-B)."""
    for l in range(state.servers):
        if s <= _room(state, l):
            return l
    return -1


def _largest_fitting(state, size: list[float], l: int, allowed=None) -> int:
    """The largest waiting job that fits server l (ties: earliest arrival), or -1.

    ``allowed(j)`` optionally restricts the candidates (one virtual queue).
    """
    room = _room(state, l)
    best = -1
    for j in state.queue:  # arrival order: strict '>' keeps the earliest on ties
        if size[j] <= room and (allowed is None or allowed(j)):
            if best < 0 or size[j] > size[best]:
                best = j
    return best


def _bf_s_server(state, size: list[float], l: int) -> None:
    """BF-S on one server (PG21 IV-A): fill it with the largest fitting job, repeatedly,
    until no more jobs fit."""
    while True:
        j = _largest_fitting(state, size, l)
        if j < 0:
            return
        state.place(j, l)


def _bf_j_job(state, size: list[float], j: int) -> None:
    """BF-J for one job (PG21 IV-A): to the least-residual server that can hold it."""
    l = _best_fit_server(state, size[j])
    if l >= 0:
        state.place(j, l)


# -- Best-Fit (PG21 Sec. IV-A) --------------------------------------------------------


class RefBFJ(SlottedPolicy):
    """BF-J (PG21 IV-A): the jobs of the queue in arrival order, each placed in the
    server with the least residual capacity among those that can accommodate it (ties:
    lowest index), else it stays queued. Every slot, over the whole queue."""

    name = "ref-bf-j"

    def reset(self, sizes, capacities):
        self.size = [float(x) for x in sizes]

    def schedule(self, state):
        for j in list(state.queue):
            _bf_j_job(state, self.size, j)


class RefBFS(SlottedPolicy):
    """BF-S (PG21 IV-A): servers in index order; each is filled iteratively with the
    largest queued job that fits (ties: earliest arrival) until none fits. Every slot,
    every server."""

    name = "ref-bf-s"

    def reset(self, sizes, capacities):
        self.size = [float(x) for x in sizes]

    def schedule(self, state):
        for l in range(state.servers):
            _bf_s_server(state, self.size, l)


class RefBFJS(SlottedPolicy):
    """BF-J/S (PG21 IV-A): (1) BF-S only over the servers that had a departure during
    the previous slot (increasing index); (2) BF-J only over the jobs that arrived in
    this slot and were not scheduled in step (1) (arrival order)."""

    name = "ref-bf-js"

    def reset(self, sizes, capacities):
        self.size = [float(x) for x in sizes]

    def schedule(self, state):
        for l in state.departed:
            _bf_s_server(state, self.size, l)
        waiting = set(state.queue)
        for j in state.new_jobs:
            if j in waiting:
                _bf_j_job(state, self.size, j)


# -- FIFO-FF (PG21 Sec. VII-B) --------------------------------------------------------


class RefFIFOFF(SlottedPolicy):
    """FIFO-FF (PG21 VII-B): the first job in the queue goes to the first (lowest-index)
    server with room for it. ``skip=False``: stop at the first job that fits nowhere
    (head-of-line blocking); ``skip=True``: pass over it and try the next job."""

    name = "ref-fifo-ff"

    def __init__(self, skip: bool = False):
        self.skip = skip

    def reset(self, sizes, capacities):
        self.size = [float(x) for x in sizes]

    def schedule(self, state):
        for j in list(state.queue):
            l = _first_fit_server(state, self.size[j])
            if l < 0:
                if self.skip:
                    continue
                return
            state.place(j, l)


# -- virtual-queue policies (PG21 Secs. V, VI, Thm. 1) --------------------------------


def literal_observed_J(sizes, capacity: float, max_J: int = 40) -> int:
    """Smallest J > 1 with every size > capacity / 2^J (PG21 Thm. 3), capped at max_J,
    decided in exact rational arithmetic."""
    if len(sizes) == 0:
        return 2
    u = Fraction(float(np.min(sizes))) / Fraction(float(capacity))
    J = 2
    while J < max_J and u <= Fraction(1, 2**J):
        J += 1
    return J


def literal_types(partition: Partition, sizes, capacity: float, rtol: float = 0.0) -> list[int]:
    """Type of every job: the index of the cell of ``partition`` holding size/capacity
    (PG21 Def. 3), by a linear scan over the cells in exact rational arithmetic.

    With ``rtol > 0``, a size within ``rtol * capacity`` of a cell limit that lies in
    the partition (the nearest one; the lower one on ties) is read as that limit; the
    open end 0 is never snapped to.
    """
    cap = Fraction(float(capacity))
    limits = sorted({Fraction(v) for cell in partition.cells for v in (cell.lo, cell.hi)})
    limits = [b for b in limits if any(b in c for c in partition.cells)]
    memo: dict[float, int] = {}
    out = []
    for s in sizes:
        s = float(s)
        if s not in memo:
            x = Fraction(s) / cap
            if rtol > 0:
                near = None
                for b in limits:
                    d = abs(s - float(b * cap))
                    if d <= rtol * float(capacity) and (near is None or d < near[0]):
                        near = (d, b)
                if near is not None:
                    x = near[1]
            memo[s] = next(j for j, c in enumerate(partition.cells) if x in c)
        out.append(memo[s])
    return out


def _identical(capacities) -> float:
    c = [float(x) for x in capacities]
    if any(x != c[0] for x in c):
        raise ValueError("virtual-queue policies need identical servers")
    return c[0]


class _VQBase(SlottedPolicy):
    """Job types, per-server active configurations and the max-weight renewal.

    Packing sizes (PG21 V-A, ``vqs.py`` ``small_jobs``): with ``floor > 0`` a job
    occupies max(size, floor) while in service. ``self.psize`` holds these sizes and
    ``self.pload[l]`` their sum on server l, kept with the engine's float operations
    (add at placement; at departures subtract in increasing job id; 0 when empty), so
    with ``floor = 0`` it equals ``state.load``. ``_pfits``/``_proom`` are the fit test
    and room on these sizes; every placement goes through :meth:`_place`.
    """

    def _setup(self, sizes, capacities, partition: Partition, rows, rtol: float,
               floor: float = 0.0) -> None:
        self.cap = _identical(capacities)
        self.size = [float(x) for x in sizes]
        self.psize = [s if s > floor else floor for s in self.size]
        self.jtype = literal_types(partition, sizes, self.cap, rtol)
        self.ntypes = len(partition)
        self.rows = [[int(v) for v in r] for r in rows]
        self.rows_array = np.array(self.rows, dtype=np.int64).reshape(-1, self.ntypes)
        self.active = [0] * len(capacities)
        self.pload = [0.0] * len(capacities)
        self.on: list[set[int]] = [set() for _ in capacities]

    def _sync_departures(self, state) -> None:
        """Take the jobs that left since the last slot off ``pload``."""
        for l in range(state.servers):
            now = state.jobs_on(l)
            for j in sorted(self.on[l] - now):
                self.pload[l] -= self.psize[j]
            if not now:
                self.pload[l] = 0.0
            self.on[l] = set(now)

    def _proom(self, state, l: int) -> float:
        return (float(state.capacity[l]) - self.pload[l]) + state.eps

    def _pfits(self, state, j: int, l: int) -> bool:
        return self.psize[j] <= self._proom(state, l)

    def _place(self, state, j: int, l: int) -> None:
        state.place(j, l)
        self.pload[l] += self.psize[j]
        self.on[l].add(j)

    def _largest_fitting(self, state, l: int, allowed=None) -> int:
        """The waiting job of largest packing size that fits server l (ties: earliest
        arrival), or -1; ``allowed(j)`` optionally restricts the candidates."""
        room = self._proom(state, l)
        best = -1
        for j in state.queue:
            if self.psize[j] <= room and (allowed is None or allowed(j)):
                if best < 0 or self.psize[j] > self.psize[best]:
                    best = j
        return best

    def _queue_counts(self, state) -> np.ndarray:
        """Q_j: the number of waiting jobs of each type, right now."""
        q = [0] * self.ntypes
        for j in state.queue:
            q[self.jtype[j]] += 1
        return np.array(q, dtype=np.int64)

    def _weights(self, state) -> np.ndarray:
        """<k, Q> (PG21 Def. 2, eq. (5)) of every configuration row k."""
        return self.rows_array @ self._queue_counts(state)

    def _renew_if_empty(self, state, l: int) -> bool:
        """Eq. (20)-(21): a server holding no job takes argmax_k <k, Q> (first on ties)."""
        if state.jobs_on(l):
            return False
        self.active[l] = int(np.argmax(self._weights(state)))  # argmax: first maximum
        return True

    def _count_on(self, state, l: int, typ: int) -> int:
        return sum(1 for j in state.jobs_on(l) if self.jtype[j] == typ)

    def _head_of_line(self, state, typ: int) -> int:
        """The earliest waiting job of type typ, or -1."""
        for j in state.queue:
            if self.jtype[j] == typ:
                return j
        return -1

    @staticmethod
    def _other_type(k: list[int]) -> int:
        """The VQ_j of a K_RED row other than VQ_1 (there is at most one), or -1."""
        others = [i for i in range(len(k)) if k[i] > 0 and i != 1]
        assert len(others) <= 1, k
        return others[0] if others else -1


class RefVQS(_VQBase):
    """VQS (PG21 V-B) on the universal partition I of eq. (18) with K_RED^(J) (Def. 6).

    Every slot, every server in index order: (1) if it holds no job, its active
    configuration becomes argmax_{k in K_RED} <k, Q> (eq. (20)), Q counted at that
    moment, first row on ties; (2)(i) if k_1 = 1, 2/3 of the capacity is reserved for
    VQ_1, and if the server holds no type-1 job the head-of-line VQ_1 job is scheduled;
    (ii) a job of the row's other VQ_j fits if it fits in the capacity left for VQ_j
    (cap/3 if k_1 = 1, else cap, minus the sizes of the server's non-type-1 jobs, + eps)
    and in the server. ``hol="stop"``: head-of-line VQ_j jobs are scheduled while they
    fit; the first that does not fit stops it. ``hol="skip"``: the VQ_j jobs are
    visited once in arrival order and each that fits is scheduled.
    (Every placement also passes the server's fit test, so a size read as a cell limit
    within the tolerance can never overfill a server.)
    ``small_jobs="rounded"``: sizes are max(size, cap/2^J) in every test (PG21 V-A).
    """

    name = "ref-vqs"

    def __init__(self, J: int | None = None, rtol: float = 0.0, small_jobs: str = "rounded",
                 hol: str = "skip"):
        assert small_jobs in ("rounded", "actual") and hol in ("skip", "stop")
        self.J = J
        self.rtol = rtol
        self.small_jobs = small_jobs
        self.hol = hol

    def reset(self, sizes, capacities):
        cap = _identical(capacities)
        J = self.J if self.J is not None else literal_observed_J(sizes, cap)
        self._setup(sizes, capacities, universal_partition(J),
                    reduced_configurations(J).configs, self.rtol,
                    cap / 2**J if self.small_jobs == "rounded" else 0.0)

    def _fits_vq(self, state, j: int, l: int, room: float) -> bool:
        other_load = math.fsum(self.psize[i] for i in state.jobs_on(l) if self.jtype[i] != 1)
        return self.psize[j] <= room - other_load + state.eps and self._pfits(state, j, l)

    def schedule(self, state):
        self._sync_departures(state)
        for l in range(state.servers):
            self._renew_if_empty(state, l)
            k = self.rows[self.active[l]]
            room = self.cap
            if k[1] == 1:
                room = self.cap / 3.0
                if self._count_on(state, l, 1) == 0:
                    j = self._head_of_line(state, 1)
                    if j >= 0 and self._pfits(state, j, l):
                        self._place(state, j, l)
            typ = self._other_type(k)
            if typ < 0:
                continue
            if self.hol == "skip":
                for j in list(state.queue):
                    if self.jtype[j] == typ and self._fits_vq(state, j, l, room):
                        self._place(state, j, l)
                continue
            while True:
                j = self._head_of_line(state, typ)
                if j < 0 or not self._fits_vq(state, j, l, room):
                    break
                self._place(state, j, l)


class RefVQSBF(_VQBase):
    """VQS-BF (PG21 Sec. VI): the active configuration is set as in VQS (eq. (20)); then,
    every slot, every server in index order: (i) if k_1 = 1, the largest VQ_1 job that
    fits (at most one; ties earliest arrival); (ii) the largest fitting jobs of the row's
    other VQ_j until the server holds k_j of them (or none fits / VQ_j is empty);
    (iii) BF-S over the whole queue. ``small_jobs="rounded"``: every size, fit test and
    "largest" comparison uses max(size, cap/2^J) (PG21 V-A)."""

    name = "ref-vqs-bf"

    def __init__(self, J: int | None = None, rtol: float = 0.0, small_jobs: str = "rounded"):
        assert small_jobs in ("rounded", "actual")
        self.J = J
        self.rtol = rtol
        self.small_jobs = small_jobs

    def reset(self, sizes, capacities):
        cap = _identical(capacities)
        J = self.J if self.J is not None else literal_observed_J(sizes, cap)
        self._setup(sizes, capacities, universal_partition(J),
                    reduced_configurations(J).configs, self.rtol,
                    cap / 2**J if self.small_jobs == "rounded" else 0.0)

    def schedule(self, state):
        self._sync_departures(state)
        jt = self.jtype
        for l in range(state.servers):
            self._renew_if_empty(state, l)
            k = self.rows[self.active[l]]
            if k[1] == 1:
                j = self._largest_fitting(state, l, lambda i: jt[i] == 1)
                if j >= 0:
                    self._place(state, j, l)
            typ = self._other_type(k)
            if typ >= 0:
                while self._count_on(state, l, typ) < k[typ]:
                    j = self._largest_fitting(state, l, lambda i, typ=typ: jt[i] == typ)
                    if j < 0:
                        break
                    self._place(state, j, l)
            while True:  # BF-S (PG21 IV-A) on packing sizes
                j = self._largest_fitting(state, l)
                if j < 0:
                    break
                self._place(state, j, l)


class RefPartitionMaxWeight(_VQBase):
    """MaxWeight over all maximal feasible configurations of the upper-rounded VQs of a
    partition X of (0, 1] (PG21 Defs. 1-4, Thm. 1), renewed when a server is empty.

    Every slot, every server in index order: if empty, its configuration becomes the
    max-weight row (first on ties); then for each type j in increasing order, while the
    server holds fewer than k_j type-j jobs and VQ_j is non-empty, the head-of-line
    type-j job is scheduled if it fits, else type j stops.

    ``stall`` (PG21 Sec. IX, ``maxweight.py``): a server whose configuration weighs less
    than (1 - stall) times the current maximum weight takes no job until it is empty.
    """

    name = "ref-maxweight"

    def __init__(self, partition: Partition, stall: float | None = None, rtol: float = 0.0):
        self.partition = partition
        self.stall = stall
        self.rtol = rtol

    def reset(self, sizes, capacities):
        rows = maximal_configurations(self.partition.upper_sizes, 1)
        self._setup(sizes, capacities, self.partition, rows, self.rtol)
        self.stalled = [False] * len(capacities)

    def schedule(self, state):
        for l in range(state.servers):
            if self._renew_if_empty(state, l):
                self.stalled[l] = False
            c = self.active[l]
            if self.stall is not None and not self.stalled[l]:
                w = self._weights(state)
                if w[c] < (1.0 - self.stall) * w.max():
                    self.stalled[l] = True
            if self.stalled[l]:
                continue
            k = self.rows[c]
            for typ in range(self.ntypes):
                while self._count_on(state, l, typ) < k[typ]:
                    j = self._head_of_line(state, typ)
                    if j < 0 or not state.fits(j, l):
                        break
                    state.place(j, l)
