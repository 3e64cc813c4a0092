"""numba event loop of the PG18 continuous-time model for RMS and Best-Fit.

A line-by-line mirror of :func:`policies.continuous.engine.simulate_continuous` with
:class:`~policies.continuous.rms.RMS` and :class:`~policies.continuous.bestfit.BestFit`
as hooks (the Python engine is the reference; ``tests/policies/continuous/test_compiled.py``
asserts equal trajectories). Same events in the same order (departures, then
arrivals, then ticks; equal departure times in placement order), the same random
numbers drawn from the same ``numpy.random.Generator`` at the same points, the same
float operations on the loads (:mod:`policies.continuous.formulas`).

Data structures: FIFO queues as linked lists over the job ids; the jobs in service as
records in slots reused through a free list, ordered by (departure time, placement
number) in an indexed binary heap (a replaced dummy is removed from the heap
directly); the dummies of each queue as a doubly linked stack (Remark 2 replaces the
most recent one).
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
from numba import njit

from policies.continuous import formulas
from policies.continuous.codes import (
    KIND_RMS,
    OK,
    ORDER_ARRIVAL,
    ORDER_TYPE,
    OUT_OF_SLOTS,
    ROUTE_CENTRAL,
    ROUTE_JSQ,
    ROUTE_PO2,
    SAMPLE_RANDOM_FIT,
    SAMPLE_UNIFORM,
    TOO_MANY_DUMMIES,
)
from policies.kernel_fit import fits

__all__ = ["run_kernel"]

# Integer counters start as int64 values, not Python constants: numba compiles a helper
# once more for every literal argument (``_release(..., 0, ...)`` then with an int64).
_ZERO = cast(int, np.int64(0))

_rms_weight = njit(cache=True)(formulas.rms_weight)
_service_draw = njit(cache=True)(formulas.service_draw)
_tick_gap = njit(cache=True)(formulas.tick_gap)
_best_fit_score = njit(cache=True)(formulas.best_fit_score)
_demand_fraction = njit(cache=True)(formulas.demand_fraction)


@njit(cache=True)
def _before(a, b, r_time, r_seq):
    return r_time[a] < r_time[b] or (r_time[a] == r_time[b] and r_seq[a] < r_seq[b])


@njit(cache=True)
def _sift_up(heap, pos, i, r_time, r_seq):
    rec = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        p = heap[parent]
        if _before(rec, p, r_time, r_seq):
            heap[i] = p
            pos[p] = i
            i = parent
        else:
            break
    heap[i] = rec
    pos[rec] = i


@njit(cache=True)
def _sift_down(heap, pos, i, size, r_time, r_seq):
    rec = heap[i]
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and _before(heap[c + 1], heap[c], r_time, r_seq):
            c += 1
        if _before(heap[c], rec, r_time, r_seq):
            heap[i] = heap[c]
            pos[heap[i]] = i
            i = c
        else:
            break
    heap[i] = rec
    pos[rec] = i


@njit(cache=True)
def _heap_remove(heap, pos, size, rec, r_time, r_seq):
    """Remove ``rec`` from the heap of ``size`` entries; returns the new size."""
    i = pos[rec]
    size -= 1
    pos[rec] = -1
    if i != size:
        last = heap[size]
        heap[i] = last
        pos[last] = i
        _sift_down(heap, pos, i, size, r_time, r_seq)
        _sift_up(heap, pos, pos[last], r_time, r_seq)
    return size


@njit(cache=True)
def _release(rec, t, srv, j, dummy, sizes, load, total_load, count, on_server, live, free,
             n_free, r_row, r_dstart, d_prev, d_next, d_top, d_count, dummies, dummy_load,
             dummy_total, dlog, n_log):
    """A job (``dummy``: a dummy, taken off its queue's stack and logged) leaves server
    ``srv`` at ``t``: the same float operations, in the same order, as
    ``ContinuousState.pop_departure`` / ``replace_dummy``."""
    if dummy:
        rw = r_row[rec]
        pv = d_prev[rec]
        nx = d_next[rec]
        if pv >= 0:
            d_next[pv] = nx
        if nx >= 0:
            d_prev[nx] = pv
        else:
            d_top[rw, j] = pv
        d_count[rw, j] -= 1
        dummies[srv, j] -= 1
        dummy_total -= 1
        for r in range(sizes.shape[1]):
            dummy_load[r] -= sizes[j, r]
        if dummy_total == 0:
            for r in range(dummy_load.shape[0]):
                dummy_load[r] = 0.0
        if n_log == dlog.shape[0]:
            grown = np.zeros((2 * n_log, 4))
            for q in range(n_log):  # a loop, not a slice copy: no shape check to compile
                for c in range(4):
                    grown[q, c] = dlog[q, c]
            dlog = grown
        dlog[n_log, 0] = r_dstart[rec]
        dlog[n_log, 1] = t
        dlog[n_log, 2] = srv
        dlog[n_log, 3] = j
        n_log += 1
    for r in range(sizes.shape[1]):
        load[srv, r] -= sizes[j, r]
        total_load[r] -= sizes[j, r]
    count[srv, j] -= 1
    on_server[srv] -= 1
    if on_server[srv] == 0:
        for r in range(load.shape[1]):
            load[srv, r] = 0.0
    live[rec] = False
    free[n_free] = rec
    return n_free + 1, dummy_total, dlog, n_log


@njit(cache=True)
def run_kernel(sizes, capacity, cap_tol, arrival, job_type, service, law_code, law_mean,
               law_par, T, w0, samples, rows, kind, cum_rates, total_rate, f_code, b,
               floor, fixed_weights, has_fixed, sampling, adaptive, replace_dummies,
               routing, bf_order, slots, max_dummies, rng):
    L, n_res = capacity.shape
    J = sizes.shape[0]
    N = arrival.shape[0]
    # -- state ------------------------------------------------------------------------
    load = np.zeros((L, n_res))
    count = np.zeros((L, J), np.int64)
    on_server = np.zeros(L, np.int64)
    dummies = np.zeros((L, J), np.int64)
    dummy_total = _ZERO
    dummy_load = np.zeros(n_res)
    total_load = np.zeros(n_res)
    Q = np.zeros((rows, J), np.int64)
    queue_total = np.zeros(J, np.int64)
    q_head = np.full((rows, J), -1, np.int64)
    q_tail = np.full((rows, J), -1, np.int64)
    q_next = np.full(N, -1, np.int64)
    start = np.full(N, np.nan)
    server_of = np.full(N, -1, np.int64)
    finish = np.full(N, np.nan)
    # records in service
    r_server = np.zeros(slots, np.int64)
    r_type = np.zeros(slots, np.int64)
    r_job = np.zeros(slots, np.int64)
    r_row = np.zeros(slots, np.int64)
    r_time = np.zeros(slots)
    r_seq = np.zeros(slots, np.int64)
    r_dstart = np.zeros(slots)
    d_prev = np.full(slots, -1, np.int64)
    d_next = np.full(slots, -1, np.int64)
    live = np.zeros(slots, np.bool_)
    free = np.arange(slots - 1, -1, -1).astype(np.int64)
    n_free = slots
    heap = np.zeros(slots, np.int64)
    pos = np.full(slots, -1, np.int64)
    heap_size = _ZERO
    seq = 0
    d_top = np.full((rows, J), -1, np.int64)
    d_count = np.zeros((rows, J), np.int64)
    dlog = np.zeros((1024, 4))
    n_log = _ZERO
    # metrics
    dt = T / samples
    q_samples = np.zeros((samples, J), np.int64)
    acc_q = np.zeros(J)
    acc_dummy = np.zeros(n_res)
    acc_busy = np.zeros(n_res)
    w = np.zeros(J)
    cum = np.zeros(J)
    fit = np.zeros(L, np.int64)
    ticks = 0
    dummy_placements = 0
    served = 0
    events = 0
    status = OK
    t = 0.0
    prev = 0.0
    k = 0
    i = 0
    next_tick = np.inf
    if total_rate > 0:
        next_tick = t + _tick_gap(rng.random(), total_rate)

    while True:
        # ---- the next event -----------------------------------------------------------
        td = r_time[heap[0]] if heap_size > 0 else np.inf
        ta = arrival[i] if i < N else np.inf
        te = min(td, ta, next_tick)
        if te >= T:
            break
        # advance(te)
        lo = max(prev, w0)
        if te > lo:
            span = te - lo
            for j in range(J):
                acc_q[j] += queue_total[j] * span
            for r in range(n_res):
                acc_dummy[r] += dummy_load[r] * span
                acc_busy[r] += (total_load[r] - dummy_load[r]) * span
        while k < samples and k * dt < te:
            for j in range(J):
                q_samples[k, j] = queue_total[j]
            k += 1
        t = te
        prev = te
        events += 1

        # ---- the event: 0 departure, 1 arrival, 2 tick ----------------------------------
        if td <= ta and td <= next_tick:
            event = 0
        elif ta <= next_tick:
            event = 1
        else:
            event = 2

        # pending placements: mode 0 none, 1 place (job or dummy), 2 start a job,
        # 3 fill a server (BF), 4 replace a dummy (Remark 2)
        mode = 0
        p_server = -1
        p_type = -1
        p_row = 0

        if event == 0:
            rec = heap[0]
            heap_size = _heap_remove(heap, pos, heap_size, rec, r_time, r_seq)
            srv = r_server[rec]
            j = r_type[rec]
            job = r_job[rec]
            row = srv if rows > 1 else 0
            if job >= 0:
                finish[job] = t
            n_free, dummy_total, dlog, n_log = _release(
                rec, t, srv, j, job < 0, sizes, load, total_load, count, on_server, live,
                free, n_free, r_row, r_dstart, d_prev, d_next, d_top, d_count, dummies,
                dummy_load, dummy_total, dlog, n_log)
            # the policy's departure step
            if kind == KIND_RMS:
                if has_fixed:
                    wj = fixed_weights[j]
                else:
                    qmax = 0
                    for jj in range(J):
                        qmax = max(qmax, Q[row, jj])
                    wj = _rms_weight(float(Q[row, j]), float(qmax), f_code, b, floor)
                if rng.random() < -math.expm1(-wj):
                    mode = 1
                    p_server = srv
                    p_type = j
                    p_row = row
            else:
                mode = 3
                p_server = srv
        elif event == 1:
            j = job_type[i]
            row = 0
            if kind == KIND_RMS and routing == ROUTE_JSQ:
                qmin = Q[0, j]
                for s in range(1, L):
                    qmin = min(qmin, Q[s, j])
                m = 0
                for s in range(L):
                    if Q[s, j] == qmin:
                        fit[m] = s
                        m += 1
                row = fit[min(int(rng.random() * m), m - 1)]
            elif kind == KIND_RMS and routing == ROUTE_PO2:
                u1 = rng.random()
                u2 = rng.random()
                u3 = rng.random()
                if L > 1:
                    a = min(int(u1 * L), L - 1)
                    bb = min(int(u2 * (L - 1)), L - 2)
                    if bb >= a:
                        bb += 1
                    qa = Q[a, j]
                    qb = Q[bb, j]
                    if qa != qb:
                        row = a if qa < qb else bb
                    else:
                        row = a if u3 < 0.5 else bb
            # enqueue
            if q_tail[row, j] >= 0:
                q_next[q_tail[row, j]] = i
            else:
                q_head[row, j] = i
            q_tail[row, j] = i
            Q[row, j] += 1
            queue_total[j] += 1
            i += 1
            if kind == KIND_RMS:
                if replace_dummies and d_count[row, j] > 0:
                    mode = 4
                    p_type = j
                    p_row = row
            elif Q[0, j] <= 1:
                # BF: the tightest fitting server, ties to the lowest index
                best = -1
                best_score = -np.inf
                for s in range(L):
                    if fits(load, cap_tol, sizes, s, j):
                        sc = _best_fit_score(sizes[j], load[s], capacity[s])
                        if sc > best_score:
                            best = s
                            best_score = sc
                if best >= 0:
                    mode = 2
                    p_server = best
                    p_type = j
        else:
            ticks += 1
            u1 = rng.random()
            if adaptive:
                qmax = 0
                for jj in range(J):
                    qmax = max(qmax, Q[0, jj])
                wmax = -np.inf
                for jj in range(J):
                    if has_fixed:
                        w[jj] = fixed_weights[jj]
                    else:
                        w[jj] = _rms_weight(float(Q[0, jj]), float(qmax), f_code, b, floor)
                    wmax = max(wmax, w[jj])
                acc = 0.0
                for jj in range(J):
                    acc += math.exp(w[jj] - wmax)
                    cum[jj] = acc
                x = u1 * cum[J - 1]
            else:
                for jj in range(J):
                    cum[jj] = cum_rates[jj]
                x = u1 * total_rate
            j = 0
            while j < J and cum[j] <= x:
                j += 1
            j = min(j, J - 1)
            u2 = rng.random()
            if routing != ROUTE_CENTRAL or sampling == SAMPLE_UNIFORM:
                s = min(int(u2 * L), L - 1)
                if fits(load, cap_tol, sizes, s, j):
                    mode = 1
                    p_server = s
                    p_type = j
                    p_row = s if routing != ROUTE_CENTRAL else 0
            else:
                m = 0
                for s in range(L):
                    if fits(load, cap_tol, sizes, s, j):
                        fit[m] = s
                        m += 1
                if m > 0:
                    if sampling == SAMPLE_RANDOM_FIT:
                        s = fit[min(int(u2 * m), m - 1)]
                    else:
                        s = fit[0]
                        best_score = _best_fit_score(sizes[j], load[s], capacity[s])
                        for q in range(1, m):
                            sc = _best_fit_score(sizes[j], load[fit[q]], capacity[fit[q]])
                            if sc > best_score:
                                s = fit[q]
                                best_score = sc
                    mode = 1
                    p_server = s
                    p_type = j
                    p_row = 0

        # ---- placements -------------------------------------------------------------
        if mode == 4:
            # Remark 2: the most recent dummy of queue (p_row, p_type) gives its place
            rec = d_top[p_row, p_type]
            j = p_type
            srv = r_server[rec]
            heap_size = _heap_remove(heap, pos, heap_size, rec, r_time, r_seq)
            # (r_job[rec] < 0 holds: d_top lists dummies; not the constant True, which
            # numba would compile as a second, literal specialisation of _release)
            n_free, dummy_total, dlog, n_log = _release(
                rec, t, srv, j, r_job[rec] < 0, sizes, load, total_load, count, on_server, live,
                free, n_free, r_row, r_dstart, d_prev, d_next, d_top, d_count, dummies,
                dummy_load, dummy_total, dlog, n_log)
            mode = 2
            p_server = srv

        while mode != 0:
            if mode == 3:
                # BF after a departure: queued jobs onto p_server until none fits
                best = -1
                best_key = np.inf
                for jj in range(J):
                    if Q[0, jj] > 0 and fits(load, cap_tol, sizes, p_server, jj):
                        if bf_order == ORDER_ARRIVAL:
                            key = arrival[q_head[0, jj]]
                        elif bf_order == ORDER_TYPE:
                            key = float(jj)
                        else:
                            key = -_demand_fraction(sizes[jj], capacity[p_server])
                        if key < best_key:
                            best = jj
                            best_key = key
                if best < 0:
                    break
                j = best
                job_mode = 2
                p_row = 0
            else:
                j = p_type
                job_mode = mode
            srv = p_server
            if job_mode == 1 and Q[p_row, j] == 0 and dummy_placements >= max_dummies:
                status = TOO_MANY_DUMMIES
                break
            if n_free == 0:
                status = OUT_OF_SLOTS
                break
            n_free -= 1
            rec = free[n_free]
            if job_mode == 1 and Q[p_row, j] == 0:
                # a dummy (Algorithm 1); its service from one uniform
                until = t + _service_draw(law_code[j], law_mean[j], law_par[j], rng.random())
                job = -1
            else:
                job = q_head[p_row, j]
                q_head[p_row, j] = q_next[job]
                if q_head[p_row, j] < 0:
                    q_tail[p_row, j] = -1
                Q[p_row, j] -= 1
                queue_total[j] -= 1
                start[job] = t
                server_of[job] = srv
                served += 1
                until = t + service[job]
            r_server[rec] = srv
            r_type[rec] = j
            r_job[rec] = job
            r_row[rec] = p_row
            r_time[rec] = until
            r_seq[rec] = seq
            seq += 1
            live[rec] = True
            heap[heap_size] = rec
            pos[rec] = heap_size
            heap_size += 1
            _sift_up(heap, pos, heap_size - 1, r_time, r_seq)
            for r in range(n_res):
                load[srv, r] += sizes[j, r]
                total_load[r] += sizes[j, r]
            count[srv, j] += 1
            on_server[srv] += 1
            if job < 0:
                dummies[srv, j] += 1
                dummy_total += 1
                for r in range(n_res):
                    dummy_load[r] += sizes[j, r]
                dummy_placements += 1
                top = d_top[p_row, j]
                d_prev[rec] = top
                d_next[rec] = -1
                if top >= 0:
                    d_next[top] = rec
                d_top[p_row, j] = rec
                d_count[p_row, j] += 1
                r_dstart[rec] = t
            if mode != 3:
                mode = 0
        if status != OK:
            break
        if event == 2:  # after the tick's placement, as the Python engine
            next_tick = t + _tick_gap(rng.random(), total_rate)

    # advance(T)
    lo = max(prev, w0)
    if T > lo:
        span = T - lo
        for j in range(J):
            acc_q[j] += queue_total[j] * span
        for r in range(n_res):
            acc_dummy[r] += dummy_load[r] * span
            acc_busy[r] += (total_load[r] - dummy_load[r]) * span
    while k < samples and k * dt < T:
        for j in range(J):
            q_samples[k, j] = queue_total[j]
        k += 1
    # dummies still in service at T, in placement order
    n_open = 0
    for rec in range(slots):
        if live[rec] and r_job[rec] < 0:
            n_open += 1
    open_seq = np.zeros(n_open, np.int64)
    open_log = np.zeros((n_open, 4))
    m = 0
    for rec in range(slots):
        if live[rec] and r_job[rec] < 0:
            open_seq[m] = r_seq[rec]
            open_log[m, 0] = r_dstart[rec]
            open_log[m, 1] = T
            open_log[m, 2] = r_server[rec]
            open_log[m, 3] = r_type[rec]
            m += 1
    return (status, start, server_of, finish, q_samples, acc_q, acc_dummy, acc_busy, ticks,
            dummy_placements, served, events, dlog[:n_log].copy(), open_log, open_seq)
