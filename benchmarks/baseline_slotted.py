"""Hand-written SimPy models of the five PG21 slotted schedulers: baseline and oracle.

PG21 is Psychas & Ghaderi, *High-Throughput Bin Packing: Scheduling Jobs With Random
Resource Demands in Clusters*, IEEE/ACM ToN 2021. Its slotted queueing model (Sec. II)
is run here under

* ``"bfjs"``   BF-J/S (Sec. IV-A),
* ``"bfj"``    BF-J and ``"bfs"`` BF-S (Sec. IV-A, the two adaptations BF-J/S combines),
* ``"fifoff"`` FIFO-FF, the Hadoop-FIFO baseline of Sec. VII-B,
* ``"vqsbf"``  VQS-BF (Sec. VI, on the virtual queues and configurations of Sec. V).

This module is the straightforward discrete-event model a queueing researcher writes
by hand: SimPy, Python lists and dicts, linear scans for "largest fitting job",
"tightest fitting server", "first fitting server". It is deliberately *not* optimised:
it is the baseline of the speed benchmark of the fast simulator, and, because it is
written independently of it, the correctness oracle it is compared against slot by
slot. The two must produce identical per-slot queue trajectories, so the semantics
below are a contract.

Common contract (``eps = rtol * max(capacities)``)
--------------------------------------------------
* Job ``j`` *fits* server ``l`` iff ``p[j] <= (capacities[l] - load[l]) + eps``; the
  *residual* is ``capacities[l] - load[l]``. ``p[j]`` is the job's *packing size*:
  its size, except under VQS-BF with rounding (below).
* Loads are float64 and change only as ``load[l] += p[j]`` (placement) and
  ``load[l] -= p[j]`` (departure); a server left with no job is reset to ``0.0``.
* Slot ``t = 0, ..., T-1`` (PG21 Sec. II, eqs. (2)-(3)):

  1. jobs with ``arrival_slot == t`` join the queue (job ids are arrival order; jobs
     with ``arrival_slot >= T`` never arrive);
  2. the policy schedules (below). A job placed in slot ``t`` has ``start = t`` and
     occupies its server in slots ``t, ..., t + duration - 1``;
  3. record ``queue_length[t]`` (jobs arrived and not started) and
     ``queued_resource[t] = math.fsum(their real sizes)``;
  4. departures at the end of slot ``t`` (jobs whose last slot is ``t``), applied to the
     loads in increasing job id; their servers are "the servers with a departure in
     the previous slot" of slot ``t + 1``.

* "Largest fitting job": the queued job of largest packing size that fits, ties to
  the smallest job id (the earliest arrival). "Tightest fitting server": the fitting
  server of least residual, ties to the smallest index. "First fitting server": the
  fitting server of smallest index.

Policies (step 2)
-----------------
BF-J/S (PG21 IV-A, "BF-J/S" steps 1-2)
  a. BF-S on every server that had a departure at the end of slot ``t-1``, in
  increasing index, over ALL queued jobs (this slot's arrivals included): repeatedly
  the largest fitting job, until none fits;
  b. BF-J on this slot's arrivals still queued, in increasing job id: each to the
  tightest fitting server, else it stays queued.
BF-J (PG21 IV-A, "BF-J", "performed in every time slot")
  every queued job, in increasing job id: to the tightest fitting server, else it stays
  queued (and the next job is tried).
BF-S (PG21 IV-A, "BF-S", every slot)
  every server in increasing index: repeatedly the largest fitting job, until none fits.
FIFO-FF (PG21 VII-B)
  the queued jobs in increasing job id: each to the first fitting server; the first
  job that fits no server ends the slot's scheduling (strict head-of-line blocking).
  Option ``skip=True``: pass over such a job and try the next one.
VQS-BF (PG21 Sec. VI; partition, VQs and K_RED of Sec. V-A/V-B)
  * ``J`` (option; default: the smallest ``J >= 2`` with ``min size / cap > 2^-J``
    in float64 over the jobs that arrive before ``T``, capped at 40; PG21 Thm. 3/4).
    Identical servers only (the partition is relative to the capacity, Sec. IX).
  * type of job ``j``: its cell in the universal partition I of eq. (18)
    (``theory.partitions.universal_partition(J).classify(min(size, cap), cap,
    rtol)``: the last cell VQ_{2J-1} holds (0, (2/3) 2^-(J-1)], Sec. V-A);
  * ``small_jobs="rounded"`` (default; Sec. V-A): ``p[j] = max(size[j], cap / 2^J)``
    in every fit test, load and "largest" comparison; ``"actual"``: ``p[j] = size[j]``;
  * configurations: the rows of K_RED^(J) (Def. 6, eq. (19), in that order;
    ``theory.configurations.reduced_configurations``). A row has k_1 in {0, 1} and at
    most one other nonzero entry k_j, j != 1 (its "main" VQ);
  * every server in increasing index: if it holds no job, its active configuration
    becomes argmax_k <k, Q> (eq. (20)-(21)), Q the number of queued jobs of each type
    at that moment (after this slot's arrivals and the placements already made on
    lower-index servers), first row on ties; then (i) if k_1 = 1: the largest fitting
    VQ_1 job (at most one; no reservation); (ii) if the row has a main VQ_j and the
    server holds fewer than k_j type-j jobs: the largest fitting VQ_j jobs until it
    holds k_j of them or none fits; (iii) BF-S over the whole queue.

Shortcuts that change no decision (they only keep the baseline from being absurdly
slow at thousands of queued jobs; each makes the baseline *faster*, so the measured
speed ratio is conservative): the every-server policies (BF-S, VQS-BF) skip the
"largest fitting job" scan on a server whose room is below the smallest packing size
queued at the start of the slot (no queued job can fit it); the in-order policies
(BF-J, FIFO-FF) skip the server scan for a job larger than the largest residual + eps
(it fits no server); a VQS-BF renewal with an empty queue takes the first row (every
weight is 0).

How SimPy is used (and why the event order is safe)
---------------------------------------------------
Slot ``t`` is the simulated interval ``[t, t + 1)``. One process, ``slot_clock``, does
steps 1-3 at time ``t`` and step 4 at time ``t + 0.75``. Each placed job gets its own
``service`` process that holds the server with ``yield env.timeout(duration - 0.5)``,
i.e. it finishes at ``start + duration - 0.5``: inside its last slot, strictly after
that slot's scheduling (time ``t``) and strictly before that slot's end-of-slot phase
(time ``t + 0.75``). A finishing job only hands itself to the clock (``done`` list);
the clock then releases all of the slot's finished jobs in increasing job id. No two
phases ever share a simulated time, so SimPy's tie-breaking between simultaneous events
(which follows scheduling order, not job id) never matters. All these times are exact
binary fractions, so there is no floating-point drift in the clock.

:func:`simulate_plain` is the same model as a plain ``for`` loop with a departure
calendar instead of SimPy; it shares the cluster and policy code and exists to
cross-check the SimPy event plumbing and to time the SimPy overhead.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable

import numpy as np
import simpy

__all__ = [
    "POLICIES",
    "simulate_simpy",
    "simulate_plain",
    "simulate_bfjs_simpy",
    "simulate_bfjs_plain",
    "random_instance",
]

_END_OF_SLOT = 0.75   # offset of the departure phase inside a slot
_SERVICE_END = 0.5    # a service process ends at start + duration - 0.5
_MAX_J = 40           # largest J of the universal partition (as policies.VQSBF)


def _check_inputs(arrival_slot, size, duration, capacities, slots):
    arrival = np.asarray(arrival_slot)
    sizes = np.asarray(size, dtype=np.float64)
    durations = np.asarray(duration)
    caps = np.asarray(capacities, dtype=np.float64)
    if arrival.ndim != 1 or sizes.shape != arrival.shape or durations.shape != arrival.shape:
        raise ValueError("arrival_slot, size and duration must be 1-d arrays of equal length")
    if caps.ndim != 1 or caps.size == 0:
        raise ValueError("capacities must be a non-empty 1-d array")
    if int(slots) != slots or slots < 0:
        raise ValueError("slots must be a non-negative integer")
    if arrival.size:
        if not np.issubdtype(arrival.dtype, np.integer):
            if not np.all(arrival == np.floor(arrival)):
                raise ValueError("arrival_slot must hold integers")
        if not np.issubdtype(durations.dtype, np.integer):
            if not np.all(durations == np.floor(durations)):
                raise ValueError("duration must hold integers")
        if np.any(arrival < 0) or np.any(np.diff(arrival) < 0):
            raise ValueError("arrival_slot must be non-negative and nondecreasing")
        if not np.all(sizes > 0) or not np.all(np.isfinite(sizes)):
            raise ValueError("sizes must be finite and > 0")
        if np.any(durations < 1):
            raise ValueError("durations must be >= 1")
    if not np.all(caps > 0) or not np.all(np.isfinite(caps)):
        raise ValueError("capacities must be finite and > 0")
    # Plain Python scalars from here on: float is IEEE float64, like numpy's.
    return (arrival.astype(np.int64).tolist(), sizes.tolist(),
            durations.astype(np.int64).tolist(), caps.tolist(), int(slots))


# -- the cluster, the queue and the searches every policy shares ---------------------


class _Cluster:
    """Cluster and queue state of the slotted model (PG21 Sec. II): steps 1, 3 and 4 of
    a slot, the fit test, placement, and the linear-scan searches of the policies.

    A policy subclass implements step 2 as :meth:`schedule` and may take options in
    :meth:`configure`. ``on_start(j)`` is set by the driver (SimPy or plain loop) and
    called for every placed job.
    """

    def __init__(self, arrival, sizes, durations, caps, slots, rtol, **options):
        self.arrival, self.sizes, self.durations, self.caps = arrival, sizes, durations, caps
        self.slots = slots
        self.rtol = rtol
        self.eps = rtol * max(caps)
        n, n_servers = len(sizes), len(caps)
        self.pack = sizes                        # packing sizes (VQS-BF may round them)
        self.jtype: list[int] = []               # virtual queue of each job (VQS-BF)
        self.load = [0.0] * n_servers
        self.on: list[set[int]] = [set() for _ in range(n_servers)]  # jobs in service
        # Queue: job id -> packing size. Jobs are inserted in arrival (= id) order and
        # dicts keep insertion order, so iterating the queue visits job ids in order.
        self.queue: dict[int, float] = {}
        self.next_arrival = 0                    # first job id that has not arrived yet
        self.start = [-1] * n
        self.server = [-1] * n
        self.departed: set[int] = set()          # servers with a departure last slot
        self.queue_length = np.zeros(slots, dtype=np.int64)
        self.queued_resource = np.zeros(slots, dtype=np.float64)
        self.on_start: Callable[[int], object] = lambda j: None
        self.configure(**options)

    def configure(self) -> None:
        """Policy options (none by default: an unknown keyword is a TypeError)."""

    # -- step 1 --------------------------------------------------------------------
    def arrivals(self, t):
        """Jobs with arrival_slot == t join the queue; returns their ids."""
        new = []
        while self.next_arrival < len(self.arrival) and self.arrival[self.next_arrival] == t:
            j = self.next_arrival
            self.queue[j] = self.pack[j]
            new.append(j)
            self.next_arrival += 1
        return new

    # -- step 2 --------------------------------------------------------------------
    def schedule(self, t, new_jobs):
        raise NotImplementedError

    def residual(self, l):
        return self.caps[l] - self.load[l]

    def room(self, l):
        """A job fits server l iff its packing size is <= room(l)."""
        return (self.caps[l] - self.load[l]) + self.eps

    def fits(self, j, l):
        return self.pack[j] <= (self.caps[l] - self.load[l]) + self.eps

    def place(self, j, l, t):
        del self.queue[j]
        self.load[l] += self.pack[j]
        self.on[l].add(j)
        self.start[j] = t
        self.server[j] = l
        self.on_start(j)

    def largest_fitting(self, l, vq=None):
        """The queued job of largest packing size that fits server l (ties: smallest id),
        or -1; ``vq`` restricts the search to one virtual queue (VQS-BF)."""
        room = self.room(l)
        best, best_size = -1, -math.inf
        for j, s in self.queue.items():          # increasing job id
            # strict '>': ties keep the smaller id
            if s > best_size and s <= room and (vq is None or self.jtype[j] == vq):
                best, best_size = j, s
        return best

    def fill(self, l, t, vq=None, limit=None):
        """BF-S on server l (PG21 IV-A): the largest fitting job, repeatedly, until none
        fits (or ``limit`` jobs were placed). Returns the number placed."""
        placed = 0
        while limit is None or placed < limit:
            j = self.largest_fitting(l, vq)
            if j < 0:
                break
            self.place(j, l, t)
            placed += 1
        return placed

    def tightest_server(self, j):
        """BF-J: the fitting server with the least residual (ties: smallest index), or -1."""
        best, best_residual = -1, math.inf
        for l in range(len(self.caps)):          # increasing server index
            residual = self.caps[l] - self.load[l]
            if residual < best_residual and self.fits(j, l):  # strict '<': smaller l on ties
                best, best_residual = l, residual
        return best

    def first_server(self, j):
        """First-Fit: the fitting server of smallest index, or -1."""
        for l in range(len(self.caps)):
            if self.fits(j, l):
                return l
        return -1

    def in_arrival_order(self, t, choose, block):
        """The queued jobs in increasing id, each to server ``choose(j)``. A job that fits
        no server stays queued; with ``block`` it also ends the pass."""
        widest = self.widest()
        for j in list(self.queue):
            if self.pack[j] > widest + self.eps:  # larger than every room: fits nowhere
                if block:
                    return
                continue
            l = choose(j)
            assert l >= 0
            self.place(j, l, t)
            widest = self.widest()

    def widest(self):
        """The largest residual over the servers."""
        return max(self.caps[l] - self.load[l] for l in range(len(self.caps)))

    def smallest_queued(self):
        """The smallest packing size in the queue (inf if empty)."""
        return min(self.queue.values(), default=math.inf)

    # -- step 3 --------------------------------------------------------------------
    def record(self, t):
        self.queue_length[t] = len(self.queue)
        self.queued_resource[t] = math.fsum(self.sizes[j] for j in self.queue)

    # -- step 4 --------------------------------------------------------------------
    def depart(self, jobs):
        """Release the jobs finishing at the end of this slot, in increasing job id."""
        self.departed = set()
        for j in sorted(jobs):
            l = self.server[j]
            self.load[l] -= self.pack[j]
            self.on[l].discard(j)
            if not self.on[l]:
                self.load[l] = 0.0
            self.departed.add(l)

    def result(self):
        return {
            "queue_length": self.queue_length,
            "queued_resource": self.queued_resource,
            "start": np.asarray(self.start, dtype=np.int64),
            "server": np.asarray(self.server, dtype=np.int64),
        }


# -- the policies: step 2 of a slot ---------------------------------------------------


class _BFJS(_Cluster):
    """BF-J/S (PG21 IV-A): BF-S on last slot's departure servers, then BF-J on arrivals."""

    def schedule(self, t, new_jobs):
        for l in sorted(self.departed):          # a. BF-S on last slot's departures
            self.fill(l, t)
        for j in new_jobs:                       # b. BF-J on this slot's arrivals
            if j in self.queue:
                l = self.tightest_server(j)
                if l >= 0:
                    self.place(j, l, t)


class _BFJ(_Cluster):
    """BF-J (PG21 IV-A): every queued job in arrival order to its tightest fitting server."""

    def schedule(self, t, new_jobs):
        self.in_arrival_order(t, self.tightest_server, block=False)


class _BFS(_Cluster):
    """BF-S (PG21 IV-A): every server in index order, filled with the largest fitting jobs."""

    def schedule(self, t, new_jobs):
        smallest = self.smallest_queued()
        for l in range(len(self.caps)):
            if self.room(l) >= smallest:         # else no queued job fits server l
                self.fill(l, t)


class _FIFOFF(_Cluster):
    """FIFO-FF (PG21 VII-B): the head of the queue to the first fitting server."""

    def configure(self, skip=False):
        self.skip = bool(skip)

    def schedule(self, t, new_jobs):
        self.in_arrival_order(t, self.first_server, block=not self.skip)


class _VQSBF(_Cluster):
    """VQS-BF (PG21 Sec. VI) on the universal partition (eq. (18)) and K_RED^(J) (eq. (19))."""

    def configure(self, J=None, small_jobs="rounded"):
        from theory.configurations import reduced_configurations
        from theory.partitions import universal_partition

        cap = self.caps[0]
        if any(c != cap for c in self.caps):
            raise ValueError("VQS-BF needs identical servers (PG21 Sec. IX)")
        if small_jobs not in ("rounded", "actual"):
            raise ValueError(f"small_jobs must be 'rounded' or 'actual', got {small_jobs!r}")
        if any(s > cap * (1 + 1e-9) for s in self.sizes):
            raise ValueError("a job is larger than the server capacity")
        if J is None:                            # PG21 Thm. 3: every size > cap / 2^J
            arrived = [s for s, a in zip(self.sizes, self.arrival, strict=True)
                       if a < self.slots]
            u = min(arrived) / cap if arrived else 1.0
            J = 2
            while J < _MAX_J and u <= 2.0**-J:
                J += 1
        if isinstance(J, bool) or not isinstance(J, int) or not 2 <= J <= _MAX_J:
            raise ValueError(f"J must be an integer in [2, {_MAX_J}], got {J!r}")
        self.J = J
        floor = cap / 2**J if small_jobs == "rounded" else 0.0
        self.pack = [s if s > floor else floor for s in self.sizes]
        self.jtype = universal_partition(J).classify(
            np.minimum(self.sizes, cap), cap, self.rtol).tolist() if self.sizes else []
        # K_RED rows as (type, count) pairs, in the order of eq. (19)
        self.rows = [[(i, int(k)) for i, k in enumerate(row) if k]
                     for row in reduced_configurations(J).configs]
        self.k1 = [dict(row).get(1, 0) == 1 for row in self.rows]
        self.main = [next(((i, k) for i, k in row if i != 1), (-1, 0)) for row in self.rows]
        self.qcount = [0] * (2 * J)              # Q_j: queued jobs of each type
        self.active = [0] * len(self.caps)       # active configuration of each server

    def arrivals(self, t):
        new = super().arrivals(t)
        for j in new:
            self.qcount[self.jtype[j]] += 1
        return new

    def place(self, j, l, t):
        super().place(j, l, t)
        self.qcount[self.jtype[j]] -= 1

    def max_weight_row(self):
        """eq. (20): argmax over K_RED of <k, Q>, the first row on ties."""
        if not self.queue:
            return 0                             # every weight is 0
        best, best_weight = 0, -1
        for c, row in enumerate(self.rows):
            weight = sum(k * self.qcount[i] for i, k in row)
            if weight > best_weight:
                best, best_weight = c, weight
        return best

    def schedule(self, t, new_jobs):
        smallest = self.smallest_queued()
        for l in range(len(self.caps)):
            if not self.on[l]:                   # eq. (21): renewed only when empty
                self.active[l] = self.max_weight_row()
            if self.room(l) < smallest:          # no queued job fits server l
                continue
            c = self.active[l]
            if self.k1[c]:                       # (i) the largest fitting VQ_1 job
                self.fill(l, t, vq=1, limit=1)
            typ, want = self.main[c]
            if typ >= 0:                         # (ii) up to k_j jobs of VQ_j, largest first
                have = sum(1 for j in self.on[l] if self.jtype[j] == typ)
                if have < want:
                    self.fill(l, t, vq=typ, limit=want - have)
            self.fill(l, t)                      # (iii) BF-S over the whole queue


_POLICIES: dict[str, type[_Cluster]] = {
    "bfjs": _BFJS, "bfj": _BFJ, "bfs": _BFS, "fifoff": _FIFOFF, "vqsbf": _VQSBF}
POLICIES = tuple(_POLICIES)


def _build(policy, arrival_slot, size, duration, capacities, slots, rtol, options):
    if policy not in _POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
    arrival, sizes, durations, caps, n_slots = _check_inputs(
        arrival_slot, size, duration, capacities, slots)
    return _POLICIES[policy](arrival, sizes, durations, caps, n_slots, rtol, **options)


# -- the two drivers -------------------------------------------------------------------


def simulate_simpy(policy, arrival_slot, size, duration, capacities, slots, rtol=1e-9,
                   **policy_options) -> dict:
    """Simulate ``policy`` (one of :data:`POLICIES`) for ``slots`` slots with SimPy.

    Parameters: ``arrival_slot`` int (n,), nondecreasing (job ids are the indices,
    i.e. arrival order; jobs with ``arrival_slot >= slots`` never arrive); ``size`` float
    (n,) > 0; ``duration`` int (n,) >= 1, service length in slots; ``capacities`` float
    (L,); ``rtol`` sets the fit tolerance ``eps = rtol * max(capacities)``;
    ``policy_options``: ``skip`` (``"fifoff"``), ``J`` and ``small_jobs`` (``"vqsbf"``).

    returns {"queue_length": np.ndarray[int64] (slots,), "queued_resource":
    np.ndarray[float64] (slots,), "start": np.ndarray[int64] (n,) (-1 if never
    started), "server": np.ndarray[int64] (n,) (-1)}
    """
    cluster = _build(policy, arrival_slot, size, duration, capacities, slots, rtol,
                     policy_options)
    env = simpy.Environment()
    done: list[int] = []          # jobs whose service ended during the current slot

    def service(j):
        # Holds its server for slots start .. start+duration-1; finishes inside its last
        # slot, after that slot's scheduling and before that slot's departure phase.
        yield env.timeout(cluster.durations[j] - _SERVICE_END)
        done.append(j)

    cluster.on_start = lambda j: env.process(service(j))

    def slot_clock():
        for t in range(cluster.slots):
            assert env.now == t
            new_jobs = cluster.arrivals(t)                 # 1. arrivals
            cluster.schedule(t, new_jobs)                  # 2. the policy
            cluster.record(t)                              # 3. record
            yield env.timeout(_END_OF_SLOT)
            cluster.depart(done)                           # 4. end-of-slot departures
            done.clear()
            yield env.timeout(1 - _END_OF_SLOT)

    env.run(until=env.process(slot_clock()))
    return cluster.result()


def simulate_plain(policy, arrival_slot, size, duration, capacities, slots, rtol=1e-9,
                   **policy_options) -> dict:
    """The same model as :func:`simulate_simpy`, as a plain loop with a departure
    calendar (no SimPy). Same arguments and return value."""
    cluster = _build(policy, arrival_slot, size, duration, capacities, slots, rtol,
                     policy_options)
    ends: defaultdict[int, list[int]] = defaultdict(list)   # last slot -> jobs

    def on_start(j):
        ends[cluster.start[j] + cluster.durations[j] - 1].append(j)

    cluster.on_start = on_start
    for t in range(cluster.slots):
        new_jobs = cluster.arrivals(t)
        cluster.schedule(t, new_jobs)
        cluster.record(t)
        cluster.depart(ends.pop(t, ()))
    return cluster.result()


def simulate_bfjs_simpy(arrival_slot, size, duration, capacities, slots, rtol=1e-9) -> dict:
    """BF-J/S with SimPy: ``simulate_simpy("bfjs", ...)``."""
    return simulate_simpy("bfjs", arrival_slot, size, duration, capacities, slots, rtol)


def simulate_bfjs_plain(arrival_slot, size, duration, capacities, slots, rtol=1e-9) -> dict:
    """BF-J/S as a plain loop: ``simulate_plain("bfjs", ...)``."""
    return simulate_plain("bfjs", arrival_slot, size, duration, capacities, slots, rtol)


def random_instance(n_jobs, servers=20, alpha=0.9, mean_duration=100.0, low=0.1, high=0.9,
                    seed=0):
    """The synthetic workload of PG21 Sec. VII-A: Poisson arrivals per slot at rate
    ``alpha * servers / (mean_duration * E[R])``, sizes Uniform(low, high), geometric
    durations (support 1, 2, ...) with the given mean, unit capacities.

    Returns ``(arrival_slot, size, duration, capacities, slots)`` where ``slots`` is the
    slot of the last arrival + 1 (so every job arrives)."""
    rng = np.random.default_rng(seed)
    rate = alpha * servers / (mean_duration * (low + high) / 2)
    gaps_needed = int(n_jobs / rate * 1.2) + 100
    per_slot = rng.poisson(rate, size=gaps_needed)
    while per_slot.sum() < n_jobs:
        per_slot = np.concatenate([per_slot, rng.poisson(rate, size=gaps_needed)])
    arrival = np.repeat(np.arange(per_slot.size, dtype=np.int64), per_slot)[:n_jobs]
    size = rng.uniform(low, high, size=n_jobs)
    duration = rng.geometric(1.0 / mean_duration, size=n_jobs).astype(np.int64)
    caps = np.ones(servers, dtype=np.float64)
    return arrival, size, duration, caps, int(arrival[-1]) + 1 if n_jobs else 0


if __name__ == "__main__":
    import argparse
    import sys
    import time
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for theory (VQS-BF)
    parser = argparse.ArgumentParser(description="Time the baseline models on a random case.")
    parser.add_argument("--policy", default="bfjs", choices=POLICIES)
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--alpha", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    inst = random_instance(args.jobs, args.servers, args.alpha, seed=args.seed)
    for fn in (simulate_simpy, simulate_plain):
        t0 = time.perf_counter()
        out = fn(args.policy, *inst)
        dt = time.perf_counter() - t0
        print(f"{fn.__name__}({args.policy}): {dt:.3f} s for {args.jobs} jobs, "
              f"{args.servers} servers, {inst[4]} slots; mean queue "
              f"{out['queue_length'].mean():.2f}, started {(out['start'] >= 0).sum()}")
