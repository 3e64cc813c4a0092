"""Hand-checked cases pinning the BF-J/S contract of ``benchmarks/baseline_bfjs.py``."""

import math

import numpy as np
import pytest

from benchmarks.baseline_bfjs import (
    random_instance,
    simulate_bfjs_plain,
    simulate_bfjs_simpy,
)

SIMULATORS = [simulate_bfjs_simpy, simulate_bfjs_plain]


def run(sim, arrival, size, duration, caps, slots, **kw):
    out = sim(np.asarray(arrival, dtype=np.int64), np.asarray(size, dtype=np.float64),
              np.asarray(duration, dtype=np.int64), np.asarray(caps, dtype=np.float64),
              slots, **kw)
    assert out["queue_length"].dtype == np.int64 and out["queue_length"].shape == (slots,)
    assert out["queued_resource"].dtype == np.float64
    assert out["queued_resource"].shape == (slots,)
    assert out["start"].dtype == np.int64 and out["start"].shape == (len(size),)
    assert out["server"].dtype == np.int64 and out["server"].shape == (len(size),)
    return out


@pytest.mark.parametrize("sim", SIMULATORS)
def test_two_jobs_one_server(sim):
    # job 0 runs slots 0,1 and leaves at the end of slot 1; job 1 starts at slot 2 (BF-S).
    out = run(sim, [0, 0], [0.6, 0.6], [2, 2], [1.0], 5)
    assert out["queue_length"].tolist() == [1, 1, 0, 0, 0]
    assert out["queued_resource"].tolist() == [0.6, 0.6, 0.0, 0.0, 0.0]
    assert out["start"].tolist() == [0, 2]
    assert out["server"].tolist() == [0, 0]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_duration_one_frees_server_for_next_slot_only(sim):
    # Departure at the end of slot t is never seen by the scheduling of slot t.
    out = run(sim, [0, 0, 0], [1.0, 1.0, 1.0], [1, 1, 1], [1.0], 4)
    assert out["start"].tolist() == [0, 1, 2]
    assert out["queue_length"].tolist() == [2, 1, 0, 0]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfs_takes_largest_fitting_jobs(sim):
    # Job 0 fills the server during slot 0. At slot 1 BF-S refills it from the queue
    # {0.3, 0.5, 0.5, 0.7, 0.2}: 0.7 first, then 0.3 (the largest that still fits).
    out = run(sim, [0] * 6, [1.0, 0.3, 0.5, 0.5, 0.7, 0.2], [1, 9, 9, 9, 9, 9], [1.0], 3)
    assert out["start"].tolist() == [0, 1, -1, -1, 1, -1]
    assert out["queue_length"].tolist() == [5, 3, 3]
    assert out["queued_resource"][1] == math.fsum([0.5, 0.5, 0.2])


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfs_tie_goes_to_smallest_job_id(sim):
    out = run(sim, [0, 0, 0], [1.0, 0.6, 0.6], [1, 5, 5], [1.0], 3)
    assert out["start"].tolist() == [0, 1, -1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfs_runs_before_bfj_and_sees_new_arrivals(sim):
    # Slot 1: the departure server is refilled by BF-S over ALL queued jobs, including
    # job 2 that arrives in slot 1 and is larger than the older job 1.
    out = run(sim, [0, 0, 1], [1.0, 0.4, 0.9], [1, 5, 5], [1.0], 3)
    assert out["start"].tolist() == [0, -1, 1]
    assert out["queue_length"].tolist() == [1, 1, 1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfs_only_on_servers_with_departures_in_index_order(sim):
    # Two unit servers both emptied at the end of slot 0; queue has 0.7 and 0.6.
    # Server 0 goes first and takes 0.7 (largest); server 1 takes 0.6.
    out = run(sim, [0, 0, 0, 0], [1.0, 1.0, 0.6, 0.7], [1, 1, 5, 5], [1.0, 1.0], 3)
    assert out["start"].tolist() == [0, 0, 1, 1]
    assert out["server"].tolist() == [0, 1, 1, 0]
    # Slot 0 (BF-J): job 0 -> server 0, job 1 (1.0) -> server 1, job 2 (0.3) -> server 0
    # (residual 0.5), job 3 (0.45) fits nowhere. Only server 1 frees at the end of
    # slot 0, and BF-S puts job 3 there in slot 1.
    out = run(sim, [0, 0, 0, 0], [0.5, 1.0, 0.3, 0.45], [9, 1, 5, 5], [1.0, 1.0], 3)
    assert out["start"].tolist() == [0, 0, 0, 1]
    assert out["server"].tolist() == [0, 1, 0, 1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfj_picks_tightest_fitting_server(sim):
    # slot 0: job 0 (0.5) -> server 0 (tie, smallest index); job 1 (0.7) -> server 1;
    # job 2 (0.3) fits servers 0 (res 0.5), 1 (res 0.3) and 2 (res 1) -> server 1.
    # slot 1: job 3 (0.2): server 1 is full, server 0 (0.5) is tighter than 2 (1.0).
    out = run(sim, [0, 0, 0, 1], [0.5, 0.7, 0.3, 0.2], [9, 9, 9, 9], [1.0, 1.0, 1.0], 3)
    assert out["server"].tolist() == [0, 1, 1, 0]
    assert out["start"].tolist() == [0, 0, 0, 1]
    assert out["queue_length"].tolist() == [0, 0, 0]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfj_job_that_fits_nowhere_waits_for_bfs(sim):
    out = run(sim, [0, 1], [0.8, 0.8], [3, 2], [1.0], 6)
    # job 1 arrives at slot 1, fits nowhere; job 0 leaves at the end of slot 2.
    assert out["start"].tolist() == [0, 3]
    assert out["queue_length"].tolist() == [0, 1, 1, 0, 0, 0]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_heterogeneous_capacities(sim):
    # caps [3, 1]: job 0 (0.9) goes to server 1 (absolute residual 1 < 3);
    # job 1 (1.5) fits only server 0; job 2 (3.5) fits nowhere, ever.
    out = run(sim, [0, 0, 0], [0.9, 1.5, 3.5], [2, 2, 2], [3.0, 1.0], 6)
    assert out["server"].tolist() == [1, 0, -1]
    assert out["start"].tolist() == [0, 0, -1]
    assert out["queue_length"].tolist() == [1] * 6
    assert out["queued_resource"].tolist() == [3.5] * 6
    # eps = rtol * max(capacities): 1e-9 * 2 here, so 1.0 + 1.5e-9 fits a unit server.
    out = run(sim, [0, 0], [2.0, 1.0 + 1.5e-9], [2, 2], [2.0, 1.0], 2)
    assert out["server"].tolist() == [0, 1]
    out = run(sim, [0, 0], [2.0, 1.0 + 2.5e-9], [2, 2], [2.0, 1.0], 2)
    assert out["server"].tolist() == [0, -1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_late_arrivals_never_appear(sim):
    out = run(sim, [0, 3, 5, 7], [1.0, 0.5, 0.5, 0.5], [10, 1, 1, 1], [1.0], 5)
    assert out["start"].tolist() == [0, -1, -1, -1]
    assert out["server"].tolist() == [0, -1, -1, -1]
    assert out["queue_length"].tolist() == [0, 0, 0, 1, 1]
    out = run(sim, [5, 6], [0.5, 0.5], [1, 1], [1.0], 5)
    assert out["queue_length"].tolist() == [0] * 5
    assert out["start"].tolist() == [-1, -1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_fit_tolerance(sim):
    e = 1e-13
    a, b = 0.5 - e, 0.5 + e
    assert b > 1.0 - a          # in float64 the second job overshoots by one ulp
    out = run(sim, [0, 0], [a, b], [2, 2], [1.0], 2)
    assert out["start"].tolist() == [0, 0] and out["server"].tolist() == [0, 0]
    out = run(sim, [0, 0], [a, b], [2, 2], [1.0], 2, rtol=0.0)
    assert out["start"].tolist() == [0, -1]
    # beyond eps it does not fit
    out = run(sim, [0, 0], [0.5, 0.5 + 1e-6], [2, 2], [1.0], 3)
    assert out["start"].tolist() == [0, 2]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_emptied_server_load_is_reset(sim):
    # 0.1 + 0.2 leaves load 0.30000000000000004; after both leave the load is exactly 0,
    # so a job of size exactly 1 fits with rtol = 0.
    out = run(sim, [0, 0, 0], [0.1, 0.2, 1.0], [1, 1, 1], [1.0], 3, rtol=0.0)
    assert out["start"].tolist() == [0, 0, 1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_no_jobs(sim):
    out = run(sim, [], [], [], [1.0, 1.0], 4)
    assert out["queue_length"].tolist() == [0] * 4
    assert out["queued_resource"].tolist() == [0.0] * 4


def test_bad_input():
    with pytest.raises(ValueError):
        simulate_bfjs_simpy([1, 0], [0.5, 0.5], [1, 1], [1.0], 3)
    with pytest.raises(ValueError):
        simulate_bfjs_simpy([0], [0.0], [1], [1.0], 3)
    with pytest.raises(ValueError):
        simulate_bfjs_simpy([0], [0.5], [0], [1.0], 3)


def _check_invariants(inst, out, rtol=1e-9):
    """Rebuild the schedule from start/server and check what any BF-J/S run must satisfy:
    capacities, the recorded queue, and maximality (no queued job fits any server)."""
    arrival, size, duration, caps, slots = inst
    start, server = out["start"], out["server"]
    eps = rtol * caps.max()
    started = start >= 0
    assert np.all(start[started] >= arrival[started])
    assert np.all(arrival[~started & (arrival < slots)] < slots)
    for t in range(slots):
        running = started & (start <= t) & (start + duration > t)
        queued = (arrival <= t) & ~(started & (start <= t))
        assert out["queue_length"][t] == queued.sum()
        assert out["queued_resource"][t] == math.fsum(size[queued].tolist())
        residual = np.array([caps[l] - math.fsum(size[running & (server == l)].tolist())
                             for l in range(len(caps))])
        assert np.all(residual >= -eps - 1e-12)
        if queued.any():
            # maximality, with a small margin for the summation order of the loads
            assert size[queued].min() > residual.max() + eps - 1e-12


@pytest.mark.parametrize("seed", range(6))
def test_random_runs_simpy_equals_plain_and_invariants(seed):
    rng = np.random.default_rng(seed)
    inst = random_instance(300, servers=int(rng.integers(1, 5)), alpha=1.1,
                           mean_duration=float(rng.integers(1, 20)), seed=seed)
    arrival, size, duration, caps, slots = inst
    caps = caps * rng.uniform(0.8, 1.5, size=caps.size)
    inst = (arrival, size, duration, caps, slots + 10)
    a = simulate_bfjs_simpy(*inst)
    b = simulate_bfjs_plain(*inst)
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    _check_invariants(inst, a)


@pytest.mark.parametrize(("seed", "servers", "hetero"), [(1, 5, False), (2, 20, False),
                                                         (3, 7, True), (4, 1, False)])
def test_simpy_baseline_and_simulator_give_the_same_trajectory(seed, servers, hetero):
    """The issue's correctness test: the hand-written SimPy BF-J/S and the compiled
    simulator produce the same queue trajectory (and the same schedule) for the same
    inputs."""
    import policies as P
    from theory import Uniform

    w = P.pg21_workload(Uniform(0.1, 0.9), servers=servers, slots=4000, mu=0.02,
                        intensity=0.97, seed=seed)
    caps = (np.random.default_rng(seed).uniform(0.6, 1.5, servers) if hetero
            else np.ones(servers))
    fast = P.simulate(P.BFJS(), w, P.Cluster(caps))
    slow = simulate_bfjs_simpy(w.arrival, w.sizes(), w.service, caps, 4000)
    assert fast.queue_length.max() > 0  # a queue actually forms
    np.testing.assert_array_equal(fast.queue_length, slow["queue_length"])
    np.testing.assert_array_equal(fast.start, slow["start"])
    np.testing.assert_array_equal(fast.server, slow["server"])
    np.testing.assert_allclose(fast.queued_resource, slow["queued_resource"], atol=1e-9)
