"""The PG21 slotted engine (policies.slotted.engine.simulate) and its result object.

Hand-checked schedules on one or two servers; user policies written here in plain Python
(BF-J/S and First-Fit) reproduce the compiled built-ins job by job; the summary contract
(docs/design.md keys, JSON-ready); input validation; per-server metrics on a hand case.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies import (
    BFJ,
    BFJS,
    BFS,
    FIFOFF,
    VQS,
    VQSBF,
    Cluster,
    SlotState,
    SlottedPolicy,
    Workload,
    make_policy,
    pg21_workload,
    simulate,
)
from policies.slotted.result import MIN_JUDGED_SLOTS
from theory.distributions import Discrete, Uniform

DESIGN_KEYS = {"verdict", "mean_queue", "mean_queued_resource", "final_queue", "jobs",
               "seconds", "invariants_ok"}


def jobs(arrival, size, service, horizon):
    return Workload(np.array(arrival, dtype=np.int64), np.array(size, dtype=np.float64),
                    np.array(service, dtype=np.int64), float(horizon))


ONE = Cluster.identical(1)


# -- user policies ------------------------------------------------------------------------


class PyBFJS(SlottedPolicy):
    """BF-J/S in plain Python (PG21 IV-A; tie-breaking as policies/slotted/bestfit.py).

    (1) BF-S over the servers with a departure in the previous slot, in increasing
    index: each repeatedly takes the largest queued job that fits (ties: earliest
    arrival). (2) BF-J over the jobs that arrived in this slot and still wait, in
    arrival order: each goes to the fitting server with the least residual (ties:
    lowest index).
    """

    name = "py-bf-js"

    def schedule(self, state: SlotState) -> None:
        for l in state.departed:
            while True:
                best = -1
                for j in state.queue:  # arrival order: strict '>' keeps the earliest
                    if state.fits(j, l) and (best < 0 or state.size[j] > state.size[best]):
                        best = j
                if best < 0:
                    break
                state.place(best, l)
        waiting = set(state.queue)
        for j in state.new_jobs:
            if j not in waiting:
                continue
            fit = [l for l in range(state.servers) if state.fits(j, l)]
            if fit:
                state.place(j, min(fit, key=lambda l: (state.residual(l), l)))


class FirstFit(SlottedPolicy):
    """The SlottedPolicy docstring example: First-Fit in arrival order."""

    name = "my-first-fit"

    def schedule(self, state: SlotState) -> None:
        for j in list(state.queue):
            for l in range(state.servers):
                if state.fits(j, l):
                    state.place(j, l)
                    break


class Idle(SlottedPolicy):
    name = "idle"

    def schedule(self, state: SlotState) -> None:
        pass


# -- hand-checked schedules ------------------------------------------------------------------

# One unit server. j0 (0.6, 3 slots) and j1 (0.5, 2 slots) arrive in slot 0, j2 (0.4,
# 1 slot) in slot 1. j0 starts at once; j1 does not fit beside it; j2 fills the server in
# slot 1 and leaves at its end; j0 leaves at the end of slot 2, so j1 starts in slot 3.
CASE_A = jobs([0, 0, 1], [0.6, 0.5, 0.4], [3, 2, 1], 10)
QUEUE_A = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("policy", [BFJS(), BFJ(), BFS(), FIFOFF(skip=True), PyBFJS(),
                                    FirstFit()])
def test_case_a(policy):
    r = simulate(policy, CASE_A, ONE)
    np.testing.assert_array_equal(r.start, [0, 3, 1])
    np.testing.assert_array_equal(r.server, [0, 0, 0])
    np.testing.assert_array_equal(r.queue_length, QUEUE_A)
    np.testing.assert_allclose(r.queued_resource, [0.5, 0.5, 0.5] + [0.0] * 7, atol=1e-15)
    np.testing.assert_allclose(r.busy_resource, [0.6, 1.0, 0.6, 0.5, 0.5, 0, 0, 0, 0, 0],
                               atol=1e-12)
    np.testing.assert_array_equal(r.waiting_times, [0, 3, 0])
    assert r.invariants_ok and r.final_queue == 0 and r.jobs == 3 and r.started == 3


def test_case_a_vqs_bf_max_weight_configuration():
    """VQS-BF (J=2): Q = (0, 1, 1, 0) over I_0..I_3; the max-weight K_RED row is two jobs
    of I_2 = (1/3, 1/2] (weight 2), so j1 (0.5) starts first and j0 (0.6) waits until the
    server empties (end of slot 1)."""
    r = simulate(VQSBF(J=2), CASE_A, ONE)
    np.testing.assert_array_equal(r.start, [2, 0, 1])
    assert r.invariants_ok


def test_case_a_fifo_head_of_line_blocking():
    """Strict FIFO: j1 blocks j2 until slot 3, then both start."""
    r = simulate(FIFOFF(), CASE_A, ONE)
    np.testing.assert_array_equal(r.start, [0, 3, 3])
    np.testing.assert_array_equal(r.queue_length, [1, 2, 2, 0, 0, 0, 0, 0, 0, 0])
    assert r.invariants_ok


# Two jobs in slot 0, 0.5 then 0.6, two slots each: BF-J (and BF-J/S, whose first slot is
# all BF-J) serves arrival order, BF-S the largest first.
CASE_B = jobs([0, 0], [0.5, 0.6], [2, 2], 6)


@pytest.mark.parametrize(("policy", "start"), [
    (BFJ(), [0, 2]), (BFJS(), [0, 2]), (PyBFJS(), [0, 2]), (FIFOFF(), [0, 2]),
    (BFS(), [2, 0]),
])
def test_case_b_order(policy, start):
    r = simulate(policy, CASE_B, ONE)
    np.testing.assert_array_equal(r.start, start)
    np.testing.assert_array_equal(r.queue_length, [1, 1, 0, 0, 0, 0])


def test_best_fit_ties_and_residuals_two_servers():
    """BF-J: least residual that fits, ties to the lowest index; FF: lowest index."""
    w = jobs([0, 0, 0, 0], [0.3, 0.5, 0.5, 0.2], [5, 5, 5, 5], 8)
    two = Cluster.identical(2)
    for policy in (BFJ(), BFJS(), PyBFJS()):
        r = simulate(policy, w, two)
        # 0.3 -> s0 (tie); 0.5 -> s0 (residual 0.7 < 1); 0.5 -> s1; 0.2 -> s0 (0.2 left)
        np.testing.assert_array_equal(r.server, [0, 0, 1, 0])
        np.testing.assert_array_equal(r.start, [0, 0, 0, 0])
    r = simulate(FIFOFF(), w, two)
    np.testing.assert_array_equal(r.server, [0, 0, 1, 0])
    # heterogeneous: the 0.5 job goes to the tighter server that fits
    het = Cluster(np.array([2.0, 0.6, 1.0]))
    r = simulate(BFJ(), jobs([0], [0.5], [3], 4), het)
    np.testing.assert_array_equal(r.server, [1])
    r = simulate(FIFOFF(), jobs([0], [0.5], [3], 4), het)
    np.testing.assert_array_equal(r.server, [0])


def test_bfjs_serves_departed_servers_only():
    """BF-J/S never revisits a server without a departure, unlike BF-J.

    j0 (1.0) holds the server for 2 slots; j1 (0.5) and j2 (0.5) wait. In slot 2 the
    departed server takes j1 and j2 (BF-S). j3 (0.5, arrives 2) finds nothing; j1 leaves
    at the end of slot 2 but j2 stays: in slot 3 the server had a departure, so BF-S
    gives j3 the room.
    """
    w = jobs([0, 0, 0, 2], [1.0, 0.5, 0.5, 0.5], [2, 1, 5, 3], 8)
    for policy in (BFJS(), PyBFJS()):
        r = simulate(policy, w, ONE)
        np.testing.assert_array_equal(r.start, [0, 2, 2, 3])
        np.testing.assert_array_equal(r.queue_length, [2, 2, 1, 0, 0, 0, 0, 0])


def test_bfjs_largest_first_on_a_departed_server():
    """Step (1) of BF-J/S is BF-S: the departed server takes the largest job first.

    j0 (1.0, 2 slots) holds the server; j1 (0.3) and j2 (0.8) wait. In slot 2 BF-J/S
    gives the server j2 (0.8) and j1 no longer fits; BF-J takes arrival order (j1 first,
    then j2 does not fit). Each holds the server 3 slots, so the other starts in slot 5.
    """
    w = jobs([0, 0, 1], [1.0, 0.3, 0.8], [2, 3, 3], 8)
    for policy in (BFJS(), PyBFJS(), BFS()):
        r = simulate(policy, w, ONE)
        np.testing.assert_array_equal(r.start, [0, 5, 2])
    for policy in (BFJ(), FIFOFF()):
        r = simulate(policy, w, ONE)
        np.testing.assert_array_equal(r.start, [0, 2, 5])


def test_occupancy_and_half_full_hand_case():
    """One server, one job of size 0.6 for 10 of 20 slots."""
    w = jobs([0], [0.6], [10], 20)
    for policy in (BFJS(), BFS(), FIFOFF(), VQS(J=2), PyBFJS(), FirstFit()):
        r = simulate(policy, w, ONE)
        np.testing.assert_allclose(r.occupancy, [0.3])
        np.testing.assert_allclose(r.half_full_fraction, [0.5])
        np.testing.assert_allclose(r.busy_resource, [0.6] * 10 + [0.0] * 10)
        assert r.summary()["mean_occupancy"] == pytest.approx(0.3)
        assert r.summary()["min_half_full_fraction"] == pytest.approx(0.5)


def test_occupancy_heterogeneous_per_server():
    # s0 (cap 2) holds 1.0 for 4 slots; s1 (cap 0.5) holds 0.2 for 8 slots; 8 slots
    w = jobs([0, 0], [1.0, 0.2], [4, 8], 8)
    for policy in (FIFOFF(), FirstFit()):
        r = simulate(policy, w, Cluster(np.array([2.0, 0.5])))
        np.testing.assert_array_equal(r.server, [0, 0])  # first fit: both on s0
        np.testing.assert_allclose(r.occupancy, [(4 * 1.2 + 4 * 0.2) / 16, 0.0])
        np.testing.assert_allclose(r.half_full_fraction, [0.5, 0.0])
    r = simulate(BFJ(), w, Cluster(np.array([2.0, 0.5])))
    np.testing.assert_array_equal(r.server, [0, 1])  # best fit: 0.2 on the small server
    np.testing.assert_allclose(r.occupancy, [0.25, 0.4])
    np.testing.assert_allclose(r.half_full_fraction, [0.5, 0.0])


def test_half_full_boundary():
    """Load exactly capacity / 2 counts as half full (PG21 Lemma 1: >= 1/2)."""
    r = simulate(BFJS(), jobs([0], [0.5], [4], 8), ONE)
    np.testing.assert_allclose(r.half_full_fraction, [0.5])
    r = simulate(BFJS(), jobs([0], [0.49], [4], 8), ONE)
    np.testing.assert_allclose(r.half_full_fraction, [0.0])


def test_slots_shorter_than_horizon_equals_head():
    w = pg21_workload(Uniform("0.1", "0.9"), servers=2, slots=1000, mu=0.05, intensity=0.9,
                      seed=8)
    a = simulate(BFJS(), w, Cluster.identical(2), slots=600)
    b = simulate(BFJS(), w.head(600), Cluster.identical(2))
    assert a.slots == b.slots == 600
    np.testing.assert_array_equal(a.start, b.start)
    np.testing.assert_array_equal(a.queue_length, b.queue_length)
    assert a.jobs == int(np.count_nonzero(w.arrival < 600))


def test_slots_shorter_than_horizon_judged_like_head_for_traces():
    """A trace-like workload (no known rate): unit jobs of 2 slots, one per slot on one
    unit server for 1000 slots (load 2: the queue grows by 1/2 per slot), then a burst
    that is never simulated. Judging the first 1000 slots must not depend on it."""
    arrival = np.concatenate([np.arange(1000), np.repeat(np.arange(1000, 10_000), 100)])
    n = arrival.size
    w = Workload(arrival, np.ones(n), np.full(n, 2), 10_000.0)
    a = simulate(BFJS(), w, ONE, slots=1000)
    b = simulate(BFJS(), w.head(1000), ONE)
    np.testing.assert_array_equal(a.queue_length, b.queue_length)
    assert b.work_rate == pytest.approx(1.0) and b.verdict == "unstable"
    assert a.work_rate == pytest.approx(b.work_rate)
    assert a.verdict == "unstable"  # actual: "stable" (relative drift 0.0055)


def test_backlog_is_served_first():
    w = jobs([0, 1], [0.5, 0.5], [2, 2], 10).with_backlog(np.array([1.0]), np.array([3]))
    r = simulate(FIFOFF(), w, ONE)
    np.testing.assert_array_equal(r.start, [0, 3, 3])
    np.testing.assert_array_equal(r.queue_length[:4], [1, 2, 2, 0])


def test_job_never_fitting_is_an_input_error():
    # a 1.5 job on unit servers can never start: the engine refuses it, naming it
    with pytest.raises(ValueError, match="job 0 of size 1.5 exceeds the capacity 1"):
        simulate(BFJS(), jobs([0, 1], [1.5, 0.5], [2, 2], 6), ONE)


# -- user policies reproduce the built-ins -----------------------------------------------------


def assert_same_run(a, b):
    np.testing.assert_array_equal(a.start, b.start)
    np.testing.assert_array_equal(a.server, b.server)
    np.testing.assert_array_equal(a.queue_length, b.queue_length)
    np.testing.assert_allclose(a.queued_resource, b.queued_resource, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(a.busy_resource, b.busy_resource, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(a.occupancy, b.occupancy, rtol=1e-9)
    np.testing.assert_allclose(a.half_full_fraction, b.half_full_fraction)


CLUSTERS = {
    "one": Cluster.identical(1),
    "three": Cluster.identical(3),
    "hetero": Cluster(np.array([1.0, 0.5, 2.0])),
}
LAWS = {
    "uniform": Uniform("0.05", "0.95"),
    # few sizes: many equal sizes and equal residuals, so the tie-breaking matters
    "atoms": Discrete(["0.2", "0.3", "0.5"], ["1/2", "1/4", "1/4"]),
}


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**31), cluster=st.sampled_from(sorted(CLUSTERS)),
       law=st.sampled_from(sorted(LAWS)), alpha=st.floats(0.4, 1.2))
def test_python_bfjs_reproduces_builtin(seed, cluster, law, alpha):
    c = CLUSTERS[cluster]
    total = float(c.scalar_capacities().sum())
    w = pg21_workload(LAWS[law], servers=1, slots=300, mu=0.1, intensity=alpha * total,
                      seed=seed)
    a = simulate(BFJS(), w, c)
    b = simulate(PyBFJS(), w, c)
    assert b.policy == "py-bf-js" and a.policy == "bf-js"
    assert a.invariants_ok and b.invariants_ok
    assert_same_run(a, b)


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**31), cluster=st.sampled_from(sorted(CLUSTERS)),
       law=st.sampled_from(sorted(LAWS)), alpha=st.floats(0.4, 1.2))
def test_user_first_fit_runs_and_matches_fifo_skip(seed, cluster, law, alpha):
    c = CLUSTERS[cluster]
    total = float(c.scalar_capacities().sum())
    w = pg21_workload(LAWS[law], servers=1, slots=300, mu=0.1, intensity=alpha * total,
                      seed=seed)
    r = simulate(FirstFit(), w, c)
    assert r.invariants_ok, r.invariants.violations
    assert r.policy == "my-first-fit"
    # First-Fit over the queue in arrival order is FIFO-FF with skipping
    assert_same_run(r, simulate(FIFOFF(skip=True), w, c))


# -- a misbehaving user policy is stopped ---------------------------------------------------------


class Misplace(SlottedPolicy):
    def __init__(self, what):
        self.what = what

    def schedule(self, state):
        if state.t == 1:
            if self.what == "twice":
                state.place(0, 0)
                state.place(0, 0)
            elif self.what == "server":
                state.place(0, state.servers)
            elif self.what == "big":  # 0.5 + 0.75 on one unit server
                state.place(0, 0)
                state.place(1, 0)
            elif self.what == "future":
                state.place(2, 0)


@pytest.mark.parametrize(("what", "match"), [
    ("twice", "not waiting"), ("server", "no server"), ("big", "does not fit"),
    ("future", "not waiting"),
])
def test_user_policy_errors(what, match):
    w = jobs([0, 0, 5], [0.5, 0.75, 0.5], [2, 2, 2], 8)
    with pytest.raises(ValueError, match=match):
        simulate(Misplace(what), w, ONE)


def test_slot_state_view():
    seen = []

    class Spy(SlottedPolicy):
        def reset(self, sizes, capacities):
            seen.append(("reset", sizes.tolist(), capacities.tolist()))

        def schedule(self, state):
            seen.append((state.t, list(state.queue), list(state.new_jobs),
                         list(state.departed), [round(x, 12) for x in state.load]))
            if state.t == 0:
                state.place(0, 1)
                assert state.jobs_on(1) == frozenset({0})
                assert state.residual(1) == pytest.approx(0.4)
                assert state.queue_size() == 1

    w = jobs([0, 0], [0.6, 0.3], [1, 1], 3)
    r = simulate(Spy(), w, Cluster.identical(2))
    assert seen[0] == ("reset", [0.6, 0.3], [1.0, 1.0])
    assert seen[1] == (0, [0, 1], [0, 1], [], [0.0, 0.0])
    assert seen[2] == (1, [1], [], [1], [0.0, 0.0])  # s1 emptied at the end of slot 0
    assert seen[3] == (2, [1], [], [], [0.0, 0.0])
    assert r.policy == "python-policy"
    np.testing.assert_array_equal(r.start, [0, -1])


# -- the summary contract and the verdict ---------------------------------------------------------


def test_summary_design_keys_and_json():
    w = pg21_workload(Uniform("0.1", "0.9"), servers=2, slots=3000, mu=0.05, intensity=0.7,
                      seed=1)
    for policy in (BFJS(), PyBFJS()):
        r = simulate(policy, w, Cluster.identical(2))
        s = r.summary()
        assert DESIGN_KEYS <= set(s)
        text = json.dumps(s, allow_nan=False)
        assert json.loads(text)["jobs"] == r.jobs
        assert s["verdict"] in ("stable", "unstable", "inconclusive")
        assert s["verdict"] == r.verdict
        assert s["invariants_ok"] is True
        assert s["jobs"] == int(np.count_nonzero(w.arrival < 3000)) == r.jobs
        assert s["final_queue"] == int(r.queue_length[-1])
        assert s["mean_queue"] == pytest.approx(r.queue_length[r.warmup:].mean())
        assert s["mean_queued_resource"] == pytest.approx(r.queued_resource[r.warmup:].mean())
        assert isinstance(s["seconds"], float) and s["seconds"] >= 0
        assert s["warmup"] == 600 and s["slots"] == 3000
        assert s["stability"]["verdict"] == s["verdict"]


def test_summary_without_check():
    r = simulate(BFJS(), CASE_A, ONE, check=False)
    s = r.summary()
    assert r.invariants is None and s["invariants_ok"] is None
    assert s["invariants"] is None and s["status"] == "finished" and s["schema"] == 1
    json.dumps(s, allow_nan=False)


def test_short_runs_are_inconclusive():
    r = simulate(BFJS(), CASE_A, ONE)
    assert r.stability is None and r.verdict == "inconclusive"
    s = r.summary()
    assert s["verdict"] == "inconclusive" and s["stability"] is None
    json.dumps(s, allow_nan=False)


def test_min_judged_window_boundary():
    w = jobs([0, 13], [0.5, 0.5], [2, 2], 100)
    r = simulate(BFJS(), w, ONE, slots=50, warmup=50 - MIN_JUDGED_SLOTS)
    assert r.stability is not None and r.verdict == "stable"  # queue empty after warm-up
    w = jobs([0, 3], [0.5, 0.5], [2, 2], 100)  # nothing arrives after the warm-up
    assert simulate(BFJS(), w, ONE, slots=50, warmup=10).verdict == "inconclusive"
    r = simulate(BFJS(), w, ONE, slots=50, warmup=50 - MIN_JUDGED_SLOTS + 1)
    assert r.stability is None and r.verdict == "inconclusive"
    r = simulate(Idle(), w, ONE, slots=50, warmup=0)
    assert r.final_queue == 2 and r.mean_queue == pytest.approx((1 * 3 + 2 * 47) / 50)


def test_warmup_excluded_from_averages():
    w = jobs([0, 0, 0], [1.0, 1.0, 1.0], [5, 5, 5], 20)
    r = simulate(BFJS(), w, ONE, warmup=10)
    # queue 2 in slots 0-4, 1 in slots 5-9, 0 afterwards
    np.testing.assert_array_equal(r.queue_length, [2] * 5 + [1] * 5 + [0] * 10)
    assert r.mean_queue == 0.0 and r.mean_queued_resource == 0.0
    r = simulate(BFJS(), w, ONE, warmup=0)
    assert r.mean_queue == pytest.approx(15 / 20)
    assert simulate(BFJS(), w, ONE).warmup == 4  # default slots // 5


@pytest.mark.parametrize("warmup", [-1, 20, 25, 2.5, True, "3"])
def test_warmup_validation(warmup):
    with pytest.raises(ValueError, match="warmup must be an integer"):
        simulate(BFJS(), jobs([0], [0.5], [2], 20), ONE, warmup=warmup)


@pytest.mark.parametrize("slots", [11, 1000])
def test_slots_beyond_horizon_rejected(slots):
    with pytest.raises(ValueError, match="exceeds the workload horizon"):
        simulate(BFJS(), CASE_A, ONE, slots=slots)


@pytest.mark.parametrize("slots", [0, -3, 2.5, True])
def test_slots_validation(slots):
    with pytest.raises(ValueError, match="slots must be a positive integer"):
        simulate(BFJS(), CASE_A, ONE, slots=slots)


def test_input_types():
    with pytest.raises(TypeError, match="Workload"):
        simulate(BFJS(), {"arrival": [0]}, ONE)
    with pytest.raises(TypeError, match="Cluster"):
        simulate(BFJS(), CASE_A, [1.0])
    with pytest.raises(TypeError, match="policy must be"):
        simulate("bf-js", CASE_A, ONE)
    cont = Workload(np.array([0.0, 0.5]), np.array([0.5, 0.5]), np.array([1.0, 1.0]), 2.0)
    with pytest.raises(ValueError, match="integer arrival slots"):
        simulate(BFJS(), cont, ONE)
    vec = Workload(np.array([0, 1]), np.array([[0.5, 0.1], [0.5, 0.1]]), np.array([1, 1]), 2.0)
    with pytest.raises(ValueError, match="single-resource"):
        simulate(BFJS(), vec, ONE)
    with pytest.raises(ValueError, match="single-resource"):
        simulate(BFJS(), CASE_A, Cluster.identical(2, [1.0, 1.0]))


HETERO = Cluster(np.array([1.0, 0.5, 2.0]))


@pytest.mark.parametrize("policy", [
    VQS(J=2), VQSBF(J=2), VQS(), make_policy("maxweight", dist=Discrete(["0.5", "0.6"])),
])
def test_virtual_queue_policies_reject_heterogeneous_servers(policy):
    with pytest.raises(ValueError, match="needs identical servers"):
        simulate(policy, jobs([0, 1], [0.5, 0.6], [2, 2], 4), HETERO)


@pytest.mark.parametrize("policy", [VQS(J=2), VQSBF(J=2)])
def test_virtual_queue_policies_accept_tiny_jobs(policy):
    r = simulate(policy, jobs([0, 1], [1e-10, 0.5], [3, 3], 10), ONE)
    assert r.invariants_ok and r.start[0] == 0 and r.started == 2


@pytest.mark.parametrize("policy", [BFJ(), BFS(), BFJS(), FIFOFF(), FIFOFF(skip=True)])
def test_best_fit_and_fifo_accept_heterogeneous_servers(policy):
    w = pg21_workload(Uniform("0.1", "0.9"), servers=3, slots=500, mu=0.1, intensity=0.8,
                      seed=2)
    r = simulate(policy, w, HETERO)
    assert r.invariants_ok
    # no job of size > 0.5 ever on the half-size server
    on_small = r.server == 1
    assert np.all(w.sizes()[: r.arrival.shape[0]][on_small] <= 0.5 + 1e-9)


def test_same_workload_replays_identically():
    w = pg21_workload(Discrete(["0.4", "0.6"]), servers=3, slots=2000, mu=0.05, intensity=0.9,
                      seed=12)
    a = simulate(BFJS(), w, Cluster.identical(3))
    b = simulate(BFJS(), w, Cluster.identical(3))
    assert_same_run(a, b)
    np.testing.assert_array_equal(a.queued_resource, b.queued_resource)
