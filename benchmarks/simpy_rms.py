"""Hand-written SimPy model of RMS (PG18 Algorithm 1): the benchmark baseline and oracle.

RMS, Randomized Multi-resource Scheduling (Psychas & Ghaderi, *Randomized Algorithms
for Scheduling Multi-Resource Jobs in the Cloud*, IEEE/ACM ToN 2018, Sec. IV,
Algorithm 1), with central queues, one per job type:

* **arrival** of a type-j job: it joins the type-j queue (FIFO);
* **clock tick** (Poisson clocks of rates r_j, here one clock of total rate
  R = sum_j r_j whose tick belongs to type j w.p. r_j / R): a server is chosen
  uniformly at random; if a type-j job fits it, the head-of-line type-j job is placed
  there, or a *dummy* type-j job if Q_j = 0;
* **departure** of a type-j job (real or dummy) from server l: with probability
  1 - exp(-w_j), w_j = max{f(Q_j), eps / (8M) f(Q_max)} (eq. (4)), f(x) = log(1 + x),
  the head-of-line type-j job (or a dummy if Q_j = 0) is placed on server l.

Dummy jobs hold their resources like real jobs, for a service time drawn from the
type's law (Remark 2). M is the most jobs one server can hold
(``policies.continuous.rms.max_jobs_per_server``).

This is the model a queueing researcher writes in SimPy: one process replays the
arrival stream, one process is the clock, and every job in service (real or dummy) is
its own process that times out after its service and then performs the departure
step. It is written independently of the engines of ``policies.continuous`` (it
borrows only the seeding ``scheduling_rng``, M and the inverse-transform formula of the
service laws), and it is the correctness oracle of the event-driven simulators: for the
same scheduling stream it must give the same trajectory.

Contract with ``policies.simulate_continuous`` (random numbers and event order)
--------------------------------------------------------------------------------
* One ``numpy.random.Generator`` (``theory.seeding.scheduling_rng(seed)``),
  drawn in event order: the first clock gap at time 0, before any event; at a tick,
  u1 (type: the first j with u1 * R < r_1 + ... + r_j), u2 (server floor(u2 * L)),
  one uniform for the service of a dummy if one is placed, then the gap to the next
  tick, -log(1 - u) / R; at a departure (real or dummy), u (replace iff
  u < 1 - exp(-w_j)) and, if a dummy is placed, one uniform for its service. Arrivals
  draw nothing.
* Weights are computed after the departing job released its resources, from the
  queue lengths at that instant, with ``policies.continuous.formulas.rms_weight`` (the
  same scalar C-library formulas as the engines, so the floats agree bit for bit; a
  dummy's service likewise comes from ``formulas.service_draw``).
* Fit: ``load[l] + s_j <= capacity[l] * (1 + FEASIBILITY_RTOL)`` in every resource;
  loads change only as ``load += s_j`` / ``load -= s_j`` in event order and a server
  left with no job is reset to exactly 0.
* Event times are the same floats: a departure at ``start + service`` (dummy:
  ``max(service, tiny)``), a tick at ``previous tick + gap`` (SimPy's
  ``now + delay``), an arrival at the workload's time exactly (scheduled at that
  absolute time, :meth:`Environment.schedule_at`). Events at times >= horizon are not
  processed; only arrivals before the horizon exist.
* Ties at equal times (possible only with deterministic inputs; for Poisson workloads
  and continuous laws they have probability zero): departures, then arrivals, then
  ticks; departures among themselves in placement order. SimPy orders its heap by
  (time, priority, insertion id). Every event of the model is scheduled with an
  explicit priority (departure 1 < arrival 2 < tick 3; SimPy's process start events
  are URGENT = 0 and are processed first). A job's process is created when it is
  placed and schedules its departure when it starts, at the same simulated time
  before any other event of that time, so equal-time departures are inserted, and
  processed, in placement order (the reference's (time, placement sequence)).

``simulate_simpy_rms`` returns ``start``, ``server``, ``finish`` per job of the
workload's first n arrivals (n = arrivals before the horizon; ``nan`` / ``-1`` when the
job did not start or finish before the horizon), ``ticks``, ``dummy_placements``,
``events`` (departures + arrivals + ticks processed, as the reference counts them) and
``seconds`` (wall time of the run).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_right
from collections import deque
from heapq import heappush
from typing import Any

import numpy as np
import simpy
from simpy.events import Event

from policies.continuous.formulas import F_LOG, rms_weight, service_draw
from policies.continuous.rms import max_jobs_per_server
from policies.job_types import JobTypes
from policies.workload import Workload
from theory.cluster import Cluster
from theory.numbers import FEASIBILITY_RTOL
from theory.seeding import scheduling_rng

__all__ = ["simulate_simpy_rms", "RMSModel", "Environment", "At", "After", "DEPARTURE",
           "ARRIVAL", "TICK"]

#: SimPy event priorities (lower first at equal times); SimPy's URGENT is 0
DEPARTURE, ARRIVAL, TICK = 1, 2, 3


class After(Event):
    """A timeout with an explicit tie-break priority (``simpy.Timeout`` is always
    NORMAL): it fires at ``env.now + delay``."""

    def __init__(self, env: simpy.Environment, delay: float, priority: int):
        if delay < 0:
            raise ValueError(f"negative delay {delay}")
        super().__init__(env)
        self._ok = True
        self._value = None
        env.schedule(self, priority, delay)


class Environment(simpy.Environment):
    """SimPy's environment that can also schedule at an absolute time.

    The workload's arrival times are absolute, and ``now + (t - now)`` can miss ``t``
    by an ulp, with no delay at all reaching ``t`` exactly in some cases (the sum
    rounds half to even); ``schedule_at`` is ``schedule`` with the time given."""

    def schedule_at(self, event: Event, priority: int, at: float) -> None:
        if not at >= self._now:
            raise ValueError(f"time {at!r} is in the past (now {self._now!r})")
        heappush(self._queue, (at, priority, next(self._eid), event))


class At(Event):
    """An event with a tie-break priority that fires at the absolute time ``at``."""

    def __init__(self, env: Environment, at: float, priority: int):
        super().__init__(env)
        self._ok = True
        self._value = None
        env.schedule_at(self, priority, at)


class RMSModel:
    """The cluster, the queues and the three kinds of process of Algorithm 1."""

    def __init__(self, env: Environment, types: JobTypes, cluster: Cluster,
                 arrival: np.ndarray, job_type: np.ndarray, service: np.ndarray,
                 rates: np.ndarray, epsilon: float, rng: np.random.Generator):
        self.env, self.rng = env, rng
        self.L, self.J = cluster.servers, types.J
        self.sizes = types.sizes.tolist()
        self.cap_tol = (cluster.capacity * (1.0 + FEASIBILITY_RTOL)).tolist()
        self.load = [[0.0] * cluster.resources for _ in range(self.L)]
        self.jobs_on = [0] * self.L                     # jobs (real + dummy) per server
        self.queues: list[deque[int]] = [deque() for _ in range(self.J)]
        self.arrival, self.job_type = arrival.tolist(), job_type.tolist()
        self.service = service.tolist()
        self.total_rate = float(rates.sum())
        self.cum_rates = np.cumsum(rates).tolist()
        self.floor = epsilon / (8.0 * max_jobs_per_server(types.sizes, cluster.capacity))
        code, mean, par = types.law_arrays()
        self.laws = list(zip(code.tolist(), mean.tolist(), par.tolist(), strict=True))
        n = len(self.arrival)
        self.start = np.full(n, np.nan)
        self.server = np.full(n, -1, dtype=np.int64)
        self.finish = np.full(n, np.nan)
        self.ticks = self.dummy_placements = self.events = 0

    # -- the cluster ------------------------------------------------------------------

    def fits(self, server: int, j: int) -> bool:
        return all(a + s <= c for a, s, c in zip(self.load[server], self.sizes[j],
                                                 self.cap_tol[server], strict=True))

    def weight(self, j: int) -> float:
        """w_j of eq. (4) with f(x) = log(1 + x)."""
        q = [len(x) for x in self.queues]
        return rms_weight(float(q[j]), float(max(q)), F_LOG, 0.0, self.floor)

    def place(self, server: int, j: int) -> None:
        """Algorithm 1's placement: the head-of-line type-j job, else a dummy."""
        queue = self.queues[j]
        if queue:
            job = queue.popleft()
            self.start[job], self.server[job] = self.env.now, server
            duration = self.service[job]
        else:
            job = -1
            code, mean, par = self.laws[j]
            duration = service_draw(code, mean, par, float(self.rng.random()))
            self.dummy_placements += 1
        load = self.load[server]
        for k, s in enumerate(self.sizes[j]):
            load[k] += s
        self.jobs_on[server] += 1
        self.env.process(self.in_service(server, j, job, duration))

    # -- processes --------------------------------------------------------------------

    def arrivals(self):
        """Replay the workload's arrival stream: each job joins its type's queue."""
        env = self.env
        for i, t in enumerate(self.arrival):
            yield At(env, t, ARRIVAL)
            self.events += 1
            self.queues[self.job_type[i]].append(i)

    def clock(self):
        """One Poisson clock of rate R = sum_j r_j; a tick belongs to type j w.p.
        r_j / R and samples one server uniformly."""
        env, rng, R, L = self.env, self.rng, self.total_rate, self.L
        while True:
            yield After(env, -math.log1p(-float(rng.random())) / R, TICK)
            self.events += 1
            self.ticks += 1
            j = min(bisect_right(self.cum_rates, float(rng.random()) * R), self.J - 1)
            server = min(int(float(rng.random()) * L), L - 1)
            if self.fits(server, j):
                self.place(server, j)

    def in_service(self, server: int, j: int, job: int, duration: float):
        """A job (``job`` = -1: dummy) holding ``server`` until it departs; then the
        departure step of Algorithm 1."""
        env = self.env
        yield After(env, duration, DEPARTURE)
        self.events += 1
        if job >= 0:
            self.finish[job] = env.now
        load = self.load[server]
        self.jobs_on[server] -= 1
        if self.jobs_on[server] == 0:
            load[:] = [0.0] * len(load)
        else:
            for k, s in enumerate(self.sizes[j]):
                load[k] -= s
        if float(self.rng.random()) < -math.expm1(-self.weight(j)):
            self.place(server, j)


def simulate_simpy_rms(types: JobTypes, cluster: Cluster, workload: Workload, *,
                       horizon: float, clock_rates: Any, epsilon: float = 0.1,
                       seed: int | np.random.Generator | None = 0) -> dict[str, Any]:
    """Run RMS (Algorithm 1, uniform sampling, f = log(1 + x)) on ``workload`` until
    ``horizon`` in SimPy; see the module docstring for the contract and the output."""
    if not isinstance(types, JobTypes) or not isinstance(cluster, Cluster):
        raise TypeError("types must be a policies.JobTypes and cluster a policies.Cluster")
    types.check_cluster(cluster)
    if workload.job_type is None:
        raise ValueError("the workload has no job types (policies.poisson_type_workload)")
    T = float(horizon)
    if not (math.isfinite(T) and 0 < T <= workload.horizon):
        raise ValueError(f"horizon must lie in (0, {workload.horizon:g}], got {horizon!r}")
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must lie in (0, 1), got {epsilon!r}")
    rates = np.array(np.broadcast_to(np.asarray(clock_rates, dtype=np.float64), (types.J,)))
    if not (np.all(np.isfinite(rates)) and np.all(rates > 0)):
        raise ValueError(f"clock rates must be positive and finite, got {clock_rates!r}")
    t0 = time.perf_counter()
    n = int(np.searchsorted(workload.arrival, T, side="left"))
    env = Environment()
    model = RMSModel(env, types, cluster, np.asarray(workload.arrival[:n], dtype=np.float64),
                     np.asarray(workload.job_type[:n], dtype=np.int64),
                     np.asarray(workload.service[:n], dtype=np.float64), rates,
                     float(epsilon), scheduling_rng(seed))
    env.process(model.clock())      # started first: it draws the first gap at time 0
    env.process(model.arrivals())
    env.run(until=T)
    return {"start": model.start, "server": model.server, "finish": model.finish,
            "ticks": model.ticks, "dummy_placements": model.dummy_placements,
            "events": model.events, "seconds": time.perf_counter() - t0}
