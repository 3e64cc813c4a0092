"""Hand-written SimPy model of the BF-J/S scheduler: the benchmark baseline and oracle.

BF-J/S ("Best-Fit from the Job's and the Server's perspectives") is the scheduler of
PG21 (Psychas & Ghaderi, *High-Throughput Bin Packing: Scheduling Jobs With Random
Resource Demands in Clusters*, IEEE/ACM ToN 2021), Sec. IV-A, run on the slotted
queueing model of Sec. II. In every slot it

1. runs BF-S only on the servers that had a departure in the previous slot: each of
   them is filled by repeatedly taking the *largest* queued job that still fits;
2. runs BF-J only on the jobs that arrived in this slot and are still queued: each
   goes to the fitting server with the *least residual capacity*.

This module is the straightforward discrete-event model a queueing researcher writes
by hand (SimPy, Python lists and dicts, linear scans for "largest fitting job" and
"tightest fitting server"). It is deliberately *not* optimised: it is the baseline of
the speed benchmark of the fast simulator, and, because it is written independently of
it, the correctness oracle it is compared against slot by slot. The two must produce
identical per-slot queue trajectories, so the semantics below are a contract.

Contract (``eps = rtol * max(capacities)``)
-------------------------------------------
* Job ``j`` *fits* server ``l`` iff ``size[j] <= (capacities[l] - load[l]) + eps``;
  the residual is ``capacities[l] - load[l]``.
* Loads are float64 and change only as ``load[l] += size[j]`` (placement) and
  ``load[l] -= size[j]`` (departure); a server left with no job is reset to ``0.0``.
* Slot ``t = 0, ..., T-1``:

  1. jobs with ``arrival_slot == t`` join the queue (jobs with ``arrival_slot >= T``
     never arrive);
  2. a. BF-S on every server that had a departure at the end of slot ``t-1``, in
     increasing server index, over ALL queued jobs (new arrivals included): take the
     largest fitting job (ties: smallest job id) until none fits;
     b. BF-J on this slot's arrivals still queued, in increasing job id: the fitting
     server with the smallest residual (ties: smallest index), else stay queued.
     A job placed in slot ``t`` has ``start = t`` and occupies its server in slots
     ``t, ..., t + duration - 1``;
  3. record ``queue_length[t]`` (jobs arrived and not started) and
     ``queued_resource[t] = math.fsum(their sizes)``;
  4. departures at the end of slot ``t`` (jobs whose last slot is ``t``), applied to the
     loads in increasing job id; their servers form the BF-S set of slot ``t + 1``.

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

``simulate_bfjs_plain`` is the same model as a plain ``for`` loop with a departure
calendar instead of SimPy; it shares the scheduling code and exists to cross-check the
SimPy event plumbing and to time the SimPy overhead.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import simpy

__all__ = ["simulate_bfjs_simpy", "simulate_bfjs_plain", "random_instance"]

_END_OF_SLOT = 0.75   # offset of the departure phase inside a slot
_SERVICE_END = 0.5    # a service process ends at start + duration - 0.5


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


class _BFJSCluster:
    """State of the cluster and the queue, with the BF-S / BF-J steps of PG21 Sec. IV-A."""

    def __init__(self, arrival, sizes, durations, caps, slots, rtol):
        self.arrival, self.sizes, self.durations, self.caps = arrival, sizes, durations, caps
        self.slots = slots
        self.eps = rtol * max(caps)
        n, n_servers = len(sizes), len(caps)
        self.load = [0.0] * n_servers
        self.n_jobs_on = [0] * n_servers        # jobs in service on each server
        # Queue: job id -> size. Jobs are inserted in arrival (= id) order and dicts keep
        # insertion order, so iterating the queue visits job ids in increasing order.
        self.queue: dict[int, float] = {}
        self.next_arrival = 0                  # first job id that has not arrived yet
        self.start = [-1] * n
        self.server = [-1] * n
        self.departed_servers: set[int] = set()  # servers with a departure last slot
        self.queue_length = np.zeros(slots, dtype=np.int64)
        self.queued_resource = np.zeros(slots, dtype=np.float64)

    # -- step 1 --------------------------------------------------------------------
    def arrivals(self, t):
        """Jobs with arrival_slot == t join the queue; returns their ids."""
        new = []
        while self.next_arrival < len(self.arrival) and self.arrival[self.next_arrival] == t:
            j = self.next_arrival
            self.queue[j] = self.sizes[j]
            new.append(j)
            self.next_arrival += 1
        return new

    # -- step 2 --------------------------------------------------------------------
    def fits(self, j, l):
        return self.sizes[j] <= (self.caps[l] - self.load[l]) + self.eps

    def place(self, j, l, t):
        del self.queue[j]
        self.load[l] += self.sizes[j]
        self.n_jobs_on[l] += 1
        self.start[j] = t
        self.server[j] = l

    def best_fit_server(self, l, t, on_start):
        """BF-S: fill server l with the largest fitting queued job until none fits."""
        while True:
            best, best_size = -1, -math.inf
            for j, s in self.queue.items():          # increasing job id
                if s > best_size and self.fits(j, l):  # strict '>': ties keep smaller id
                    best, best_size = j, s
            if best < 0:
                return
            self.place(best, l, t)
            on_start(best)

    def best_fit_job(self, j, t, on_start):
        """BF-J: put job j on the fitting server with the least residual capacity."""
        best, best_residual = -1, math.inf
        for l in range(len(self.caps)):              # increasing server index
            residual = self.caps[l] - self.load[l]
            if residual < best_residual and self.fits(j, l):  # strict '<': ties keep smaller l
                best, best_residual = l, residual
        if best >= 0:
            self.place(j, best, t)
            on_start(j)

    def schedule(self, t, new_jobs, on_start):
        for l in sorted(self.departed_servers):     # a. BF-S on last slot's departures
            self.best_fit_server(l, t, on_start)
        self.departed_servers = set()
        for j in new_jobs:                           # b. BF-J on this slot's arrivals
            if j in self.queue:
                self.best_fit_job(j, t, on_start)

    # -- step 3 --------------------------------------------------------------------
    def record(self, t):
        self.queue_length[t] = len(self.queue)
        self.queued_resource[t] = math.fsum(self.queue.values())

    # -- step 4 --------------------------------------------------------------------
    def depart(self, jobs):
        """Release the jobs finishing at the end of this slot, in increasing job id."""
        for j in sorted(jobs):
            l = self.server[j]
            self.load[l] -= self.sizes[j]
            self.n_jobs_on[l] -= 1
            if self.n_jobs_on[l] == 0:
                self.load[l] = 0.0
            self.departed_servers.add(l)

    def result(self):
        return {
            "queue_length": self.queue_length,
            "queued_resource": self.queued_resource,
            "start": np.asarray(self.start, dtype=np.int64),
            "server": np.asarray(self.server, dtype=np.int64),
        }


def simulate_bfjs_simpy(arrival_slot, size, duration, capacities, slots, rtol=1e-9) -> dict:
    """Simulate BF-J/S (PG21 Sec. IV-A) for ``slots`` slots with SimPy.

    Parameters: ``arrival_slot`` int (n,), nondecreasing (job ids are the indices,
    i.e. arrival order; jobs with ``arrival_slot >= slots`` never arrive); ``size`` float
    (n,) > 0; ``duration`` int (n,) >= 1, service length in slots; ``capacities`` float
    (L,); ``rtol`` sets the fit tolerance ``eps = rtol * max(capacities)``.

    returns {"queue_length": np.ndarray[int64] (slots,), "queued_resource":
    np.ndarray[float64] (slots,), "start": np.ndarray[int64] (n,) (-1 if never
    started), "server": np.ndarray[int64] (n,) (-1)}
    """
    arrival, sizes, durations, caps, n_slots = _check_inputs(
        arrival_slot, size, duration, capacities, slots)
    cluster = _BFJSCluster(arrival, sizes, durations, caps, n_slots, rtol)
    env = simpy.Environment()
    done: list[int] = []          # jobs whose service ended during the current slot

    def service(j):
        # Holds its server for slots start .. start+duration-1; finishes inside its last
        # slot, after that slot's scheduling and before that slot's departure phase.
        yield env.timeout(cluster.durations[j] - _SERVICE_END)
        done.append(j)

    def on_start(j):
        env.process(service(j))

    def slot_clock():
        for t in range(cluster.slots):
            assert env.now == t
            new_jobs = cluster.arrivals(t)                 # 1. arrivals
            cluster.schedule(t, new_jobs, on_start)        # 2. BF-S, then BF-J
            cluster.record(t)                              # 3. record
            yield env.timeout(_END_OF_SLOT)
            cluster.depart(done)                           # 4. end-of-slot departures
            done.clear()
            yield env.timeout(1 - _END_OF_SLOT)

    env.run(until=env.process(slot_clock()))
    return cluster.result()


def simulate_bfjs_plain(arrival_slot, size, duration, capacities, slots, rtol=1e-9) -> dict:
    """The same model as :func:`simulate_bfjs_simpy`, as a plain loop with a departure
    calendar (no SimPy). Same arguments and return value."""
    arrival, sizes, durations, caps, n_slots = _check_inputs(
        arrival_slot, size, duration, capacities, slots)
    cluster = _BFJSCluster(arrival, sizes, durations, caps, n_slots, rtol)
    ends: defaultdict[int, list[int]] = defaultdict(list)   # last slot -> jobs

    def on_start(j):
        ends[cluster.start[j] + cluster.durations[j] - 1].append(j)

    for t in range(cluster.slots):
        new_jobs = cluster.arrivals(t)
        cluster.schedule(t, new_jobs, on_start)
        cluster.record(t)
        cluster.depart(ends.pop(t, ()))
    return cluster.result()


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
    import time

    parser = argparse.ArgumentParser(description="Time the BF-J/S baseline on a random case.")
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--alpha", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    inst = random_instance(args.jobs, args.servers, args.alpha, seed=args.seed)
    for fn in (simulate_bfjs_simpy, simulate_bfjs_plain):
        t0 = time.perf_counter()
        out = fn(*inst)
        dt = time.perf_counter() - t0
        print(f"{fn.__name__}: {dt:.3f} s for {args.jobs} jobs, {args.servers} servers, "
              f"{inst[4]} slots; mean queue {out['queue_length'].mean():.2f}, "
              f"started {(out['start'] >= 0).sum()}")
