"""The invariant checker (policies.invariants.check_slotted_run) on hand-made schedules.

A correct schedule passes; each kind of broken schedule is caught with its message;
``max_load_ratio`` is the peak load over capacity.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies import BFJS, FIFOFF, Cluster, check_slotted_run, pg21_workload, simulate
from policies.step_series import StepSeries
from theory.distributions import Discrete, Uniform

SLOTS = 10


def series(arrival, size, start, slots=SLOTS):
    """Queue length and queued resource after scheduling, rebuilt from the schedule."""
    q = np.zeros(slots, np.int64)
    r = np.zeros(slots)
    for t in range(slots):
        waiting = (arrival <= t) & ((start < 0) | (start > t))
        q[t] = int(waiting.sum())
        r[t] = float(size[waiting].sum())
    return q, r


def base():
    """One unit server; three jobs (the engine's hand-checked BF-J/S case).

    j0 (0.6, 3 slots) starts at 0; j1 (0.5, 2 slots) waits until j0 leaves and
    starts at 3; j2 (0.4, 1 slot) arrives at 1 and fills the server at once.
    """
    d = {
        "arrival": np.array([0, 0, 1]),
        "size": np.array([0.6, 0.5, 0.4]),
        "duration": np.array([3, 2, 1]),
        "capacities": np.array([1.0]),
        "slots": SLOTS,
        "start": np.array([0, 3, 1]),
        "server": np.array([0, 0, 0]),
    }
    d["queue_length"], d["queued_resource"] = series(d["arrival"], d["size"], d["start"])
    return d


def check(d):
    return check_slotted_run(**d)


def test_correct_schedule_passes():
    d = base()
    np.testing.assert_array_equal(d["queue_length"], [1, 1, 1] + [0] * 7)
    rep = check(d)
    assert rep.ok, rep.violations
    assert rep.violations == []
    assert rep.max_load_ratio == pytest.approx(1.0)  # 0.6 + 0.4 in slot 1
    assert rep.as_dict() == {"ok": True, "violations": [], "max_load_ratio": rep.max_load_ratio,
                             "checked": ""}


def test_queued_resource_is_optional():
    d = base()
    d["queued_resource"] = None
    assert check(d).ok


def broken(**changes):
    d = base()
    d.update(changes)
    if "queue_length" not in changes:
        d["queue_length"], qr = series(d["arrival"], d["size"], d["start"], d["slots"])
        if "queued_resource" not in changes:
            d["queued_resource"] = qr
    return check(d)


def assert_caught(rep, fragment):
    assert not rep.ok
    assert any(fragment in v for v in rep.violations), rep.violations


def test_over_capacity():
    rep = broken(start=np.array([0, 2, 1]))  # j1 (0.5) joins j0 (0.6) in slot 2
    assert_caught(rep, "server 0 over capacity")
    assert rep.max_load_ratio == pytest.approx(1.1)


def test_adjacent_jobs_do_not_overlap():
    """A job ending at the end of slot t-1 and one starting at t never share the server."""
    # j0 occupies slots 0-2, j1 starts in slot 3
    assert broken(start=np.array([0, 3, 1])).ok
    # one slot earlier they overlap
    assert_caught(broken(start=np.array([0, 2, 1])), "over capacity")


def test_capacity_tolerance():
    # 0.6 + 0.4 + 1e-12 is within FEASIBILITY_RTOL; 1e-6 over is not
    assert broken(size=np.array([0.6, 0.5, 0.4 + 1e-12])).ok
    assert_caught(broken(size=np.array([0.6, 0.5, 0.4 + 1e-6])), "over capacity")


def test_start_before_arrival():
    rep = broken(start=np.array([0, 3, 0]))  # j2 arrives in slot 1
    assert_caught(rep, "started before it arrived")


def test_start_after_horizon():
    rep = broken(start=np.array([0, SLOTS, 1]))
    assert_caught(rep, "after the horizon")


def test_start_without_arriving():
    d = base()
    rep = broken(arrival=np.array([0, 0, SLOTS]), start=np.array([0, 3, 1]),
                 queue_length=d["queue_length"])
    assert_caught(rep, "started without arriving")


def test_queue_series_inconsistent():
    d = base()
    q = d["queue_length"].copy()
    q[5] += 1
    assert_caught(broken(queue_length=q), "queue-length series disagrees")
    q = d["queue_length"].copy()
    q[0] -= 1
    assert_caught(broken(queue_length=q), "queue-length series disagrees")
    assert_caught(broken(queue_length=d["queue_length"][:-1]), "queue-length series disagrees")


def test_queue_series_consistent_but_schedule_not():
    # the series says j1 started at 2, the record says 3
    d = base()
    q, _ = series(d["arrival"], d["size"], np.array([0, 2, 1]))
    assert_caught(broken(queue_length=q), "queue-length series disagrees")


def test_started_job_without_a_server():
    rep = broken(server=np.array([0, 0, -1]))
    assert_caught(rep, "server assignments disagree")


@pytest.mark.parametrize("bad_server", [1, 7])
def test_started_job_on_a_server_that_does_not_exist(bad_server):
    rep = broken(server=np.array([0, 0, bad_server]))
    assert_caught(rep, "server assignments disagree")


def test_server_for_a_waiting_job():
    # j1 never starts but has a server
    start = np.array([0, -1, 1])
    rep = broken(start=start, server=np.array([0, 0, 0]))
    assert_caught(rep, "server assignments disagree")
    assert broken(start=start, server=np.array([0, -1, 0])).ok


def test_queued_resource_inconsistent():
    d = base()
    qr = d["queued_resource"].copy()
    qr[2] += 0.1
    assert_caught(broken(queued_resource=qr), "queued-resource series disagrees")
    qr = d["queued_resource"].copy()
    qr[-1] = 1e-6
    assert_caught(broken(queued_resource=qr), "queued-resource series disagrees")


def test_max_load_ratio_heterogeneous():
    d = {
        "arrival": np.array([0, 0, 2]),
        "size": np.array([0.9, 1.5, 0.4]),
        "duration": np.array([5, 5, 2]),
        "capacities": np.array([1.0, 2.0]),
        "slots": 10,
        "start": np.array([0, 0, 2]),
        "server": np.array([0, 1, 1]),
    }
    d["queue_length"], d["queued_resource"] = series(d["arrival"], d["size"], d["start"])
    rep = check_slotted_run(**d)
    assert rep.ok, rep.violations
    assert rep.max_load_ratio == pytest.approx(0.95)  # (1.5 + 0.4) / 2
    # the same 1.9 on the unit server is over capacity
    d["capacities"] = np.array([2.0, 1.0])
    rep = check_slotted_run(**d)
    assert_caught(rep, "server 1 over capacity")


def test_nothing_started():
    rep = broken(start=np.full(3, -1), server=np.full(3, -1))
    assert rep.ok and rep.max_load_ratio == 0.0


# -- on simulated runs ----------------------------------------------------------------------


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**31), servers=st.integers(1, 4),
       load=st.floats(0.3, 1.3), hetero=st.booleans())
def test_simulated_runs_pass_and_tampering_is_caught(seed, servers, load, hetero):
    cluster = (Cluster(np.linspace(0.6, 1.6, servers)) if hetero
               else Cluster.identical(servers))
    w = pg21_workload(Uniform("0.05", "0.6"), servers=servers, slots=400, mu=0.1,
                      intensity=load, seed=seed)
    for policy in (BFJS(), FIFOFF()):
        r = simulate(policy, w, cluster)
        assert r.invariants_ok, r.invariants.violations
        assert 0 < r.invariants.max_load_ratio <= 1 + 1e-9 or r.started == 0
        cap = cluster.scalar_capacities()
        args = (r.arrival, w.sizes()[: r.arrival.shape[0]], w.service[: r.arrival.shape[0]],
                cap, r.slots)
        assert check_slotted_run(*args, r.start, r.server, r.queue_length,
                                 r.queued_resource).ok
        started = np.flatnonzero(r.start > r.arrival)
        if started.size:
            # move one job that waited to its arrival slot: the queue series now disagrees
            s = r.start.copy()
            s[started[0]] = r.arrival[started[0]]
            rep = check_slotted_run(*args, s, r.server, r.queue_length)
            assert not rep.ok


def test_simulated_run_with_forced_overlap():
    """Two jobs put on one server at once by hand: the checker finds the overload."""
    d = Discrete(["0.75"])
    w = pg21_workload(d, servers=2, slots=200, mu=0.1, workload=1.0, seed=3)
    r = simulate(BFJS(), w, Cluster.identical(2))
    on = np.flatnonzero(r.server == 1)
    assert on.size
    srv = r.server.copy()
    srv[on] = 0
    rep = check_slotted_run(r.arrival, w.sizes()[: r.arrival.shape[0]],
                            w.service[: r.arrival.shape[0]], np.array([1.0, 1.0]), r.slots,
                            r.start, srv, r.queue_length, r.queued_resource)
    assert_caught(rep, "server 0 over capacity")
    assert rep.max_load_ratio == pytest.approx(1.5)


@pytest.mark.parametrize("base", [0, 1 << 52])
@pytest.mark.parametrize("seed", range(4))
def test_capacity_peaks_match_the_load_slot_by_slot(base, seed):
    """The compiled sweep's peak per server equals the literal per-slot load, with jobs
    that start in the slot where another one's service ended (ends come first)."""
    from policies._invariant_sweeps import capacity_peaks

    rng = np.random.default_rng(seed)
    m, L, span = 300, 6, 150
    srv = rng.integers(0, L, m)
    sl = rng.integers(0, span, m)
    dur = rng.integers(1, 40, m)
    h = m // 2  # the second half starts where the first half ends, on the same server
    srv[h:], sl[h:] = srv[:h], sl[:h] + dur[:h]
    size = rng.choice([0.25, 0.5, 0.6, 0.75], m)
    load = np.zeros((L, span + 40))
    for j in range(m):
        load[srv[j], sl[j]:sl[j] + dur[j]] += size[j]  # served in slots sl .. sl + dur - 1
    beg, end = sl + base, sl + dur + base
    by_start = np.lexsort((beg, srv))
    by_end = np.lexsort((end, srv))
    peaks, counts = capacity_peaks(srv.astype(np.int64), beg, end, size, by_start, by_end, L)
    np.testing.assert_allclose(peaks, load.max(axis=1), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(counts, np.bincount(srv, minlength=L))


@pytest.mark.parametrize("seed", range(6))
def test_queue_sweep_matches_the_series_slot_by_slot(seed):
    """The compiled merge accepts exactly the series equal to the literal per-slot queue."""
    from policies._invariant_sweeps import queue_sweep

    rng = np.random.default_rng(seed)
    n, T = 60, 120
    arr = np.sort(rng.integers(0, T, n))
    sl = np.where(rng.random(n) < 0.8, arr + rng.integers(0, 30, n), -1)
    sl[sl >= T] = -1
    size = rng.choice([0.1, 0.3, 0.5], n)
    q = np.array([np.sum(arr <= t) - np.sum((sl >= 0) & (sl <= t)) for t in range(T)])
    r = np.array([size[arr <= t].sum() - size[(sl >= 0) & (sl <= t)].sum() for t in range(T)])
    on = sl >= 0
    o = np.argsort(sl[on], kind="stable")

    def run(qq, rr):
        s = StepSeries.from_dense(qq)
        both = np.union1d(s.at, StepSeries.from_dense(rr).at)
        return queue_sweep(arr, size, sl[on][o], size[on][o], both,
                           s.value_at(both).astype(float), rr[both], True)

    assert run(q, r) == (True, True, q[-1])
    quiet = np.setdiff1d(np.arange(1, T), np.r_[arr, sl[on]])  # no arrival, no start
    for t in (int(rng.integers(1, T)), int(quiet[len(quiet) // 2])):
        q2 = q.copy()
        q2[t] += 1  # one slot off: caught wherever it is, also between events
        assert run(q2, r)[0] is False
    r2 = r.copy()
    r2[t] += 1e-6
    assert run(q, r2)[:2] == (True, False)


@pytest.mark.parametrize("span", [50, 1 << 40, 1 << 61])
@pytest.mark.parametrize("grouped", [True, False])
def test_stable_order_is_a_stable_sort_by_server_then_slot(span, grouped):
    """The packed-key sort (and, past 63 bits, its fallback) equals numpy's stable
    lexsort: by server, then slot, ties in index order."""
    from policies.invariants import _stable_order

    rng = np.random.default_rng(7)
    m = 500
    slot = rng.integers(0, span, m)
    slot[m // 2:] = slot[: m - m // 2]  # ties
    srv = rng.integers(0, 9, m) if grouped else None
    want = np.lexsort((slot, srv)) if grouped else np.argsort(slot, kind="stable")
    np.testing.assert_array_equal(_stable_order(slot, srv), want)
    assert _stable_order(np.zeros(0, np.int64)).size == 0
