"""Compiled sweeps of the slotted invariant checker (:func:`policies.invariants.check_slotted_run`).

Two merges over a run's record, rebuilt from the schedule alone (arrival, start, server,
size, duration), with no per-slot array and no temporary per event: at a million jobs
the checker's numpy temporaries (about forty arrays of one or two million entries) cost
more than the simulation on this VM, where first touching fresh memory is slow.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def queue_sweep(a_slot, a_size, s_slot, s_size, rec_at, rec_q, rec_r, has_r):
    """Compare the queue the schedule implies with a recorded step series.

    ``a_*``: the arrivals within the horizon, ``s_*``: the starts within it, each sorted
    by slot; ``rec_at``/``rec_q``/``rec_r``: the series' record slots (increasing, the
    first 0) and values (queue length; queued resource if ``has_r``). Both sides are step
    functions that move only at an event or a record slot, so they are compared at every
    slot of the union. Returns (queue agrees, queued resource agrees within 1e-12 of the
    sizes added so far + 1e-12, the final queue).
    """
    na, ns, nr = a_slot.shape[0], s_slot.shape[0], rec_at.shape[0]
    ia = 0
    js = 0
    ir = 0
    cur = 0
    q = 0
    r = 0.0
    mag = 0.0
    q_ok = True
    r_ok = True
    big = 9223372036854775807  # no slot reaches it
    while ia < na or js < ns or ir < nr:
        u = big
        if ia < na:
            u = a_slot[ia]
        if js < ns and s_slot[js] < u:
            u = s_slot[js]
        if ir < nr and rec_at[ir] < u:
            u = rec_at[ir]
        while ia < na and a_slot[ia] == u:
            q += 1
            r += a_size[ia]
            mag += abs(a_size[ia])
            ia += 1
        while js < ns and s_slot[js] == u:
            q -= 1
            r -= s_size[js]
            mag += abs(s_size[js])
            js += 1
        while ir < nr and rec_at[ir] <= u:
            cur = ir
            ir += 1
        if rec_q[cur] != q:
            q_ok = False
        if has_r and not abs(rec_r[cur] - r) <= mag * 1e-12 + 1e-12:
            r_ok = False
        if not q_ok and (not r_ok or not has_r):
            break
    return q_ok, r_ok, q


@njit(cache=True)
def capacity_peaks(server, start, end, size, by_start, by_end, L):
    """Per server, the largest load over time and the number of its jobs.

    A job holds its size in slots ``start .. end - 1`` (PG21 Sec. II: it leaves at the
    end of its last service slot), so at equal slots ends come first. ``by_start`` and
    ``by_end`` order the jobs by (server, start) and by (server, end) (the caller
    sorts: numpy's sorts cost no compilation). One running sum per server.
    """
    m = server.shape[0]
    peaks = np.zeros(L)
    counts = np.zeros(L, np.int64)
    a = 0
    b = 0
    while a < m:
        l = server[by_start[a]]
        load = 0.0
        peak = 0.0
        while a < m and server[by_start[a]] == l:
            ja = by_start[a]
            jb = by_end[b]
            if server[jb] == l and end[jb] <= start[ja]:
                load -= size[jb]
                b += 1
            else:
                load += size[ja]
                a += 1
                counts[l] += 1
                peak = max(peak, load)
        while b < m and server[by_end[b]] == l:  # the server's remaining departures
            b += 1
        peaks[l] = peak
    return peaks, counts
