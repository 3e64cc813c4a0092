"""The SimPy models of ``benchmarks/baseline_slotted.py``: hand-checked cases pinning each
policy's contract, SimPy == plain loop, and slot-by-slot equality with the compiled
simulator on the cases of ``benchmarks/bench_continuous.py`` (the oracle check), with
mutants showing that check can fail."""

from __future__ import annotations

import math

import numpy as np
import pytest

import benchmarks.baseline_slotted as bs
from benchmarks.baseline_slotted import POLICIES, simulate_plain, simulate_simpy

SIMULATORS = [simulate_simpy, simulate_plain]
KEYS = ("queue_length", "start", "server")


def run(sim, policy, arrival, size, duration, caps, slots, **kw):
    out = sim(policy, np.asarray(arrival, dtype=np.int64), np.asarray(size, dtype=np.float64),
              np.asarray(duration, dtype=np.int64), np.asarray(caps, dtype=np.float64),
              slots, **kw)
    assert out["queue_length"].dtype == np.int64 and out["queue_length"].shape == (slots,)
    assert out["queued_resource"].dtype == np.float64
    assert out["queued_resource"].shape == (slots,)
    assert out["start"].dtype == np.int64 and out["start"].shape == (len(size),)
    assert out["server"].dtype == np.int64 and out["server"].shape == (len(size),)
    return out


# -- hand-checked cases ------------------------------------------------------------------


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("policy", POLICIES)
def test_common_slot_order(sim, policy):
    # One unit server; job 0 runs slots 0, 1 and leaves at the end of slot 1, so job 1
    # starts in slot 2 under every policy; a departure never frees room in its own slot.
    out = run(sim, policy, [0, 0], [0.6, 0.6], [2, 2], [1.0], 5)
    assert out["start"].tolist() == [0, 2] and out["server"].tolist() == [0, 0]
    assert out["queue_length"].tolist() == [1, 1, 0, 0, 0]
    assert out["queued_resource"].tolist() == [0.6, 0.6, 0.0, 0.0, 0.0]
    # jobs arriving at or after the horizon never arrive
    out = run(sim, policy, [0, 3, 5], [1.0, 0.5, 0.5], [10, 1, 1], [1.0], 5)
    assert out["start"].tolist() == [0, -1, -1]
    assert out["queue_length"].tolist() == [0, 0, 0, 1, 1]
    out = run(sim, policy, [], [], [], [1.0, 1.0], 3)
    assert out["queue_length"].tolist() == [0, 0, 0]


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("policy", POLICIES)
def test_fit_tolerance_and_load_reset(sim, policy):
    e = 1e-13
    a, b = 0.5 - e, 0.5 + e
    assert b > 1.0 - a          # in float64 the second job overshoots by one ulp
    out = run(sim, policy, [0, 0], [a, b], [2, 2], [1.0], 2)
    assert out["start"].tolist() == [0, 0]
    out = run(sim, policy, [0, 0], [a, b], [2, 2], [1.0], 2, rtol=0.0)
    # BF-S takes the larger job b first; VQS-BF (J = 2, rtol = 0: a in VQ_2, b in VQ_1)
    # picks 2 e_2 and serves a first; the others go in arrival order.
    assert out["start"].tolist() == ([-1, 0] if policy == "bfs" else [0, -1])
    # 0.1 + 0.2 leaves load 0.30000000000000004; an emptied server is reset to 0 exactly
    out = run(sim, policy, [0, 0, 1], [0.1, 0.2, 1.0], [1, 1, 1], [1.0], 3, rtol=0.0)
    assert out["start"].tolist() == [0, 0, 1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfj_every_queued_job_in_arrival_order_to_tightest_server(sim):
    # Two unit servers. BF-J takes the jobs in arrival order: 0.5 -> s0 (tie: lowest
    # index), 0.6 -> s1, 0.4 -> s1 (residual 0.4 is tighter than 0.5), 0.5 -> s0.
    out = run(sim, "bfj", [0] * 4, [0.5, 0.6, 0.4, 0.5], [9] * 4, [1.0, 1.0], 2)
    assert out["server"].tolist() == [0, 1, 1, 0]
    # BF-S fills server 0 with the largest jobs first: 0.6 then 0.4; server 1: 0.5, 0.5.
    out = run(sim, "bfs", [0] * 4, [0.5, 0.6, 0.4, 0.5], [9] * 4, [1.0, 1.0], 2)
    assert out["server"].tolist() == [1, 0, 0, 1]
    # Old queued jobs: server freed at the end of slot 0; in slot 1 BF-J takes 0.3 and
    # 0.5 (arrival order) and passes over 0.6 (fits nowhere, does not block).
    out = run(sim, "bfj", [0] * 4, [1.0, 0.3, 0.5, 0.6], [1, 9, 9, 9], [1.0], 3)
    assert out["start"].tolist() == [0, 1, 1, -1]
    # ... where BF-S (and BF-J/S) take the largest first: 0.6, then 0.3.
    for policy in ("bfs", "bfjs"):
        out = run(sim, policy, [0] * 4, [1.0, 0.3, 0.5, 0.6], [1, 9, 9, 9], [1.0], 3)
        assert out["start"].tolist() == [0, 1, -1, 1]
        assert out["queue_length"].tolist() == [3, 1, 1]
        assert out["queued_resource"][1] == 0.5


@pytest.mark.parametrize("sim", SIMULATORS)
def test_bfs_runs_on_every_server_not_only_after_departures(sim):
    # Slot 0: job 0 (0.5) -> s0. Slot 1: 0.2 and 0.4 arrive, no departure. BF-S visits
    # s0 (residual 0.5) and puts the largest fitting job, 0.4, there, then 0.2 -> s1.
    out = run(sim, "bfs", [0, 1, 1], [0.5, 0.2, 0.4], [9] * 3, [1.0, 1.0], 2)
    assert out["server"].tolist() == [0, 1, 0] and out["start"].tolist() == [0, 1, 1]
    # BF-J/S runs BF-J on the arrivals: 0.2 -> s0 (tightest), 0.4 -> s1.
    out = run(sim, "bfjs", [0, 1, 1], [0.5, 0.2, 0.4], [9] * 3, [1.0, 1.0], 2)
    assert out["server"].tolist() == [0, 0, 1]
    # BF-S ties: equal sizes go by arrival.
    out = run(sim, "bfs", [0, 0, 0], [1.0, 0.6, 0.6], [1, 5, 5], [1.0], 3)
    assert out["start"].tolist() == [0, 1, -1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_fifoff_first_fit_and_head_of_line_blocking(sim):
    # First fit, not best fit: job 2 (0.3) goes to s0 (residual 0.5), not the tight s1.
    out = run(sim, "fifoff", [0, 0, 1], [0.5, 0.7, 0.3], [9] * 3, [1.0, 1.0], 2)
    assert out["server"].tolist() == [0, 1, 0]
    # Job 1 (0.6) fits nowhere in slot 0 and blocks job 2 (0.3) behind it until job 0
    # leaves at the end of slot 1; then both start in slot 2.
    out = run(sim, "fifoff", [0, 0, 0], [0.6, 0.6, 0.3], [2, 2, 5], [1.0], 4)
    assert out["start"].tolist() == [0, 2, 2]
    assert out["queue_length"].tolist() == [2, 2, 0, 0]
    # skip=True passes over the blocked head.
    out = run(sim, "fifoff", [0, 0, 0], [0.6, 0.6, 0.3], [2, 2, 5], [1.0], 4, skip=True)
    assert out["start"].tolist() == [0, 2, 0]
    # heterogeneous capacities: the first server by index with room.
    out = run(sim, "fifoff", [0, 0], [0.9, 1.5], [2, 2], [1.0, 3.0], 2)
    assert out["server"].tolist() == [0, 1]


# VQS-BF with J = 2 (PG21 eq. (18)): VQ_0 = (2/3, 1], VQ_1 = (1/2, 2/3], VQ_2 = (1/3, 1/2],
# VQ_3 = (0, 1/3]; K_RED^(2) (eq. (19)) = [e_0, 2 e_2, 3 e_3, e_1 + e_3]; small jobs
# (<= 1/4) are packed as 1/4.


@pytest.mark.parametrize("sim", SIMULATORS)
def test_vqsbf_configuration_serves_its_vq_first(sim):
    # Q = (0, 1, 1, 3): weights 0, 2, 9, 4 -> 3 e_3. (ii) three VQ_3 jobs (0.3 each),
    # (iii) BF-S: 0.4 and 0.6 no longer fit. Plain BF-S would take 0.6 and 0.4.
    sizes = [0.6, 0.4, 0.3, 0.3, 0.3]
    out = run(sim, "vqsbf", [0] * 5, sizes, [9] * 5, [1.0], 1, J=2)
    assert out["start"].tolist() == [-1, -1, 0, 0, 0]
    out = run(sim, "bfs", [0] * 5, sizes, [9] * 5, [1.0], 1)
    assert out["start"].tolist() == [0, 0, -1, -1, -1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_vqsbf_step_i_takes_the_largest_vq1_job(sim):
    # Q = (0, 3, 0, 1): weights 0, 0, 3, 4 -> e_1 + e_3. (i) the largest VQ_1 job, 0.6
    # (not the head of line 0.55); (ii) the VQ_3 job 0.2 (packed as 0.25); (iii) nothing.
    out = run(sim, "vqsbf", [0] * 4, [0.55, 0.6, 0.52, 0.2], [9] * 4, [1.0], 1, J=2)
    assert out["start"].tolist() == [-1, 0, -1, 0]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_vqsbf_max_weight_ties_go_to_the_first_row(sim):
    # Q = (2, 0, 1, 0): e_0 and 2 e_2 both weigh 2 -> e_0 (first row): 0.9 goes in, and
    # 0.45 does not fit beside it. With 2 e_2, 0.45 would have gone in instead.
    out = run(sim, "vqsbf", [0] * 3, [0.9, 0.8, 0.45], [9] * 3, [1.0], 1, J=2)
    assert out["start"].tolist() == [0, -1, -1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_vqsbf_configuration_renewed_only_when_empty(sim):
    # Slot 0: Q = (0, 0, 1, 0) -> 2 e_2; job 0 (0.4) placed. Slot 1: the server holds job
    # 0, so 2 e_2 stays although Q = (0, 0, 1, 1) now prefers 3 e_3: (ii) takes the VQ_2
    # job 0.35 (load 0.75), and the VQ_3 job 0.3 no longer fits.
    out = run(sim, "vqsbf", [0, 1, 1], [0.4, 0.35, 0.3], [9] * 3, [1.0], 2, J=2)
    assert out["start"].tolist() == [0, 1, -1]
    # Job 0 leaves at the end of slot 0 instead: in slot 1 the empty server renews with
    # Q = (0, 0, 1, 3) -> 3 e_3 and takes the three 0.3 jobs (keeping 2 e_2 would have
    # taken 0.45 first, then one 0.3).
    out = run(sim, "vqsbf", [0, 1, 1, 1, 1], [0.4, 0.45, 0.3, 0.3, 0.3], [1] + [9] * 4,
              [1.0], 2, J=2)
    assert out["start"].tolist() == [0, -1, 1, 1, 1]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_vqsbf_small_jobs_rounded(sim):
    # Six jobs of 0.1 with J = 2: packed as 1/4, so four fit (3 e_3 then BF-S); the
    # queue records their real sizes. "actual" packs all six.
    out = run(sim, "vqsbf", [0] * 6, [0.1] * 6, [5] * 6, [1.0], 1, J=2)
    assert out["start"].tolist() == [0, 0, 0, 0, -1, -1]
    assert out["queued_resource"].tolist() == [math.fsum([0.1, 0.1])]
    out = run(sim, "vqsbf", [0] * 6, [0.1] * 6, [5] * 6, [1.0], 1, J=2, small_jobs="actual")
    assert out["start"].tolist() == [0] * 6


def test_vqsbf_default_J_from_the_arriving_jobs():
    # min size 0.3 > 1/4: J = 2, so 0.3 is in VQ_3 and is not rounded
    c = bs._build("vqsbf", [0, 0, 5], [0.3, 0.5, 0.01], [1, 1, 1], [1.0], 5, 1e-9, {})
    assert c.J == 2 and c.pack[:2] == [0.3, 0.5]
    c = bs._build("vqsbf", [0, 0, 5], [0.3, 0.5, 0.01], [1, 1, 1], [1.0], 6, 1e-9, {})
    assert c.J == 7                            # 0.01 arrives: 1/128 < 0.01 <= 1/64
    c = bs._build("vqsbf", [0], [0.5], [1], [2.0], 1, 1e-9, {})
    assert c.J == 3                            # 0.5 / 2 = 1/4 is not > 1/4


def test_bad_input():
    with pytest.raises(ValueError):
        simulate_simpy("bfj", [1, 0], [0.5, 0.5], [1, 1], [1.0], 3)
    with pytest.raises(ValueError):
        simulate_simpy("nope", [0], [0.5], [1], [1.0], 3)
    with pytest.raises(TypeError):
        simulate_simpy("bfj", [0], [0.5], [1], [1.0], 3, skip=True)
    with pytest.raises(ValueError):
        simulate_simpy("vqsbf", [0], [0.5], [1], [1.0, 2.0], 3)
    with pytest.raises(ValueError):
        simulate_simpy("vqsbf", [0], [0.5], [1], [1.0], 3, J=1)
    with pytest.raises(ValueError):
        simulate_simpy("vqsbf", [0], [1.5], [1], [1.0], 3)


# -- SimPy == plain loop -------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("seed", range(3))
def test_simpy_equals_plain(policy, seed):
    rng = np.random.default_rng(seed)
    arrival, size, duration, caps, slots = bs.random_instance(
        300, servers=int(rng.integers(1, 6)), alpha=1.1,
        mean_duration=float(rng.integers(1, 20)), low=0.02, high=0.9, seed=seed)
    if policy != "vqsbf":
        caps = caps * rng.uniform(0.8, 1.5, size=caps.size)
    a = simulate_simpy(policy, arrival, size, duration, caps, slots + 10)
    b = simulate_plain(policy, arrival, size, duration, caps, slots + 10)
    assert a["queue_length"].max() > 0
    for key in a:
        assert np.array_equal(a[key], b[key]), key


# -- the oracle check: equality with the compiled simulator ------------------------------


def _fast(name, w, caps, slots, **options):
    import policies as P

    pol = {"bfjs": P.BFJS, "bfj": P.BFJ, "bfs": P.BFS, "fifoff": P.FIFOFF,
           "vqsbf": P.VQSBF}[name](**options)
    return P.simulate(pol, w, P.Cluster(np.asarray(caps, dtype=np.float64)), slots=slots)


def _differences(res, out):
    bad = [k for k in KEYS if not np.array_equal(getattr(res, k), out[k])]
    if np.max(np.abs(res.queued_resource - out["queued_resource"]), initial=0.0) > 1e-9:
        bad.append("queued_resource")
    return bad


def _case(law, servers, intensity, jobs, seed=1):
    from benchmarks.bench_continuous import workload

    w = workload(law, servers, intensity, jobs, seed)
    return w, int(w.horizon)


GRID = [(p, law, L, a) for p in POLICIES for law in ("wide", "small") for L in (5, 100)
        for a in (0.45, 0.9, 1.1)]


@pytest.mark.parametrize(("policy", "law", "servers", "intensity"), GRID)
def test_simpy_model_equals_simulator(policy, law, servers, intensity):
    """The bench_continuous cases at 3,000 jobs: identical per-slot trajectories."""
    w, slots = _case(law, servers, intensity, 3000)
    out = simulate_simpy(policy, w.arrival, w.sizes(), w.service, np.ones(servers), slots)
    res = _fast(policy, w, np.ones(servers), slots)
    assert _differences(res, out) == []


@pytest.mark.parametrize("policy", POLICIES)
def test_simpy_model_equals_simulator_1000_servers_short(policy):
    """1,000 servers, overloaded, a short run (the long ones are marked slow)."""
    w, slots = _case("wide", 1000, 1.1, 6000)
    out = simulate_simpy(policy, w.arrival, w.sizes(), w.service, np.ones(1000), slots)
    res = _fast(policy, w, np.ones(1000), slots)
    assert res.queue_length.max() > 0
    assert _differences(res, out) == []


@pytest.mark.parametrize(("policy", "options", "hetero"), [
    ("bfjs", {}, True), ("bfj", {}, True), ("bfs", {}, True), ("fifoff", {}, True),
    ("fifoff", {"skip": True}, False), ("fifoff", {"skip": True}, True),
    ("vqsbf", {"J": 3}, False), ("vqsbf", {"J": 3, "small_jobs": "actual"}, False),
    ("vqsbf", {"J": 5}, False)])
def test_options_and_heterogeneous_servers_equal_simulator(policy, options, hetero):
    # J = 3 on U(0.01, 0.19): most jobs are at most 1/8, so rounding matters.
    servers = 7
    w, slots = _case("small", servers, 1.0, 4000, seed=3)
    caps = (np.random.default_rng(3).uniform(0.6, 1.5, servers) if hetero
            else np.ones(servers))
    out = simulate_simpy(policy, w.arrival, w.sizes(), w.service, caps, slots, **options)
    res = _fast(policy, w, caps, slots, **options)
    assert res.queue_length.max() > 0
    assert _differences(res, out) == []


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("law", ["wide", "small"])
@pytest.mark.parametrize("intensity", [0.45, 0.9, 1.1])
def test_simpy_model_equals_simulator_1000_servers(policy, law, intensity):
    w, slots = _case(law, 1000, intensity, 30000)
    out = simulate_simpy(policy, w.arrival, w.sizes(), w.service, np.ones(1000), slots)
    res = _fast(policy, w, np.ones(1000), slots)
    assert _differences(res, out) == []


# -- mutants: the equality check can fail ------------------------------------------------


class _BFJTiesToHighestIndex(bs._BFJ):
    """BF-J breaking residual ties towards the highest server index."""

    def tightest_server(self, j):
        best, best_residual = -1, math.inf
        for l in range(len(self.caps)):
            residual = self.caps[l] - self.load[l]
            if residual <= best_residual and self.fits(j, l):
                best, best_residual = l, residual
        return best


class _FIFOBestFit(bs._FIFOFF):
    """FIFO with best fit instead of first fit."""

    def schedule(self, t, new_jobs):
        self.in_arrival_order(t, self.tightest_server, block=not self.skip)


class _VQSBFNoRounding(bs._VQSBF):
    """VQS-BF that forgets PG21 V-A's rounding but keeps everything else."""

    def configure(self, **options):
        super().configure(**options)
        self.pack = self.sizes


@pytest.mark.parametrize(("policy", "mutant", "options"), [
    ("bfj", _BFJTiesToHighestIndex, {}), ("fifoff", _FIFOBestFit, {}),
    ("vqsbf", _VQSBFNoRounding, {"J": 3})])
def test_mutant_models_are_caught(monkeypatch, policy, mutant, options):
    w, slots = _case("small", 7, 1.0, 4000, seed=3)
    caps = np.ones(7)
    res = _fast(policy, w, caps, slots, **options)
    assert _differences(res, simulate_plain(policy, w.arrival, w.sizes(), w.service, caps,
                                            slots, **options)) == []
    monkeypatch.setitem(bs._POLICIES, policy, mutant)
    out = simulate_plain(policy, w.arrival, w.sizes(), w.service, caps, slots, **options)
    assert {"start", "server"} & set(_differences(res, out))
