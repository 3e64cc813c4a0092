"""VQS / VQS-BF options for two readings of PG21 (``policies/slotted/vqs.py``).

* ``small_jobs``: PG21 Sec. V-A rounds jobs of size <= 1/2^J up to 1/2^J when they join
  VQ_{2J-1} ("rounded", the default); "actual" packs them at their real size. Under
  the rounded rule every job occupies at least cap/2^J, so a server never holds more
  than K_max = 2^J jobs (PG21 Lemma 4) and sum over its jobs of max(size, cap/2^J) never
  exceeds the capacity; on a law with all its mass below 1/2^J the actual-size packing
  holds many more jobs and supports a larger workload.
* ``hol`` (VQS only): PG21 V-B step 2 (ii) "starting from the head-of-the-line job in
  VQ_j, until no more jobs can fit in the server": "skip" (default) takes every VQ_j job
  that fits, in arrival order; "stop" ends at the first head that does not fit.

Each option is also run against the literal plain-Python references
(``reference_policies.py``): identical schedules.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import policies as P
from tests.policies.slotted.reference_policies import RefVQS, RefVQSBF
from theory.bounds import universal_scheduled_size
from theory.distributions import Discrete, Uniform
from theory.numbers import FEASIBILITY_RTOL

RTOL = FEASIBILITY_RTOL


def _per_server_peaks(res: P.SimulationResult, w: P.Workload, cap: float, J: int):
    """Per server, the most jobs in service at once and the largest sum of
    max(size, cap/2^J) over them (a sweep over start/end events; ends come first)."""
    n = res.start.shape[0]
    size = w.sizes()[:n]
    # the theory's rounding (capacity units): universal_scheduled_size on size/cap
    occ = np.array([float(universal_scheduled_size(float(s) / cap, J)) * cap for s in size])
    L = res.occupancy.shape[0]
    T = res.slots
    jobs = np.zeros((L, T + 1))
    load = np.zeros((L, T + 1))
    on = np.flatnonzero(res.start >= 0)
    end = np.minimum(res.start[on] + w.service[on], T)
    np.add.at(jobs, (res.server[on], res.start[on]), 1)
    np.add.at(jobs, (res.server[on], end), -1)
    np.add.at(load, (res.server[on], res.start[on]), occ[on])
    np.add.at(load, (res.server[on], end), -occ[on])
    return np.cumsum(jobs, axis=1).max(axis=1), np.cumsum(load, axis=1).max(axis=1)


# -- small jobs: rounded (PG21 V-A) vs actual ---------------------------------------------

#: All the mass below 1/2^J = 1/4 (J = 2): sizes 0.05 and 0.15, mean 0.1, on 2 servers.
#: Rounded, each job occupies 1/4: at most 4 per server, so the rounded system supports
#: rho < 8 at most; at their real sizes about 10 fit per server. rho = 12 separates them.
SMALL = Discrete([F(1, 20), F(3, 20)])
SMALL_J, SMALL_L, SMALL_RHO = 2, 2, 12.0


@pytest.mark.parametrize("cap", [1, 10])
@pytest.mark.parametrize("cls", [P.VQS, P.VQSBF])
def test_rounded_small_jobs_never_exceed_K_max_and_actual_does(cls, cap):
    dist = SMALL.scaled(F(cap))  # sizes in capacity units
    w = P.pg21_workload(dist, servers=SMALL_L, slots=20_000, capacity=cap, mu=0.02,
                        workload=SMALL_RHO, seed=11)
    c = P.Cluster.identical(SMALL_L, cap)
    K_max = 2**SMALL_J
    out = {}
    for rule in ("rounded", "actual"):
        res = P.simulate(cls(J=SMALL_J, small_jobs=rule), w, c)
        assert res.invariants.ok, res.invariants.violations  # real sizes within capacity
        assert f"small_jobs='{rule}'" in res.params["policy"]
        out[rule] = (res, *_per_server_peaks(res, w, cap, SMALL_J))
    res, jobs, occ = out["rounded"]
    # the paper's rule: at most K_max = 2^J jobs per server, rounded sizes within capacity
    assert jobs.max() == K_max
    assert occ.max() <= cap * (1 + RTOL)
    assert res.verdict == "unstable"  # 12 > 8 = L * 2^J: the rounded system is overloaded
    res_a, jobs_a, occ_a = out["actual"]
    # real-size packing fits more small jobs than the rounded rule allows
    assert jobs_a.max() >= 3 * K_max
    assert occ_a.max() > 2 * cap
    assert res_a.verdict == "stable"
    assert res.mean_queue > 100 * max(res_a.mean_queue, 1.0)
    # the real load is what the server carries: the rounding leaves capacity idle
    assert float(res.occupancy.mean()) < float(res_a.occupancy.mean())


@pytest.mark.parametrize("cls", [P.VQS, P.VQSBF])
def test_rounded_server_holds_exactly_K_max_small_jobs_when_backlogged(cls):
    """Twelve jobs of 0.05 at slot 0, J = 2: rounded to 1/4, four fill the server
    exactly (4 x 1/4 = 1); at their real size all twelve fit (0.6)."""
    w = P.Workload(np.zeros(12, np.int64), np.full(12, 0.05), np.full(12, 5), 3.0)
    c = P.Cluster.identical(1)
    r = P.simulate(cls(J=2), w, c)
    a = P.simulate(cls(J=2, small_jobs="actual"), w, c)
    assert r.start.tolist() == [0] * 4 + [-1] * 8
    assert a.start.tolist() == [0] * 12
    # occupancy is measured with real sizes
    assert r.occupancy[0] == pytest.approx(0.2) and a.occupancy[0] == pytest.approx(0.6)


@pytest.mark.parametrize("cls", [P.VQS, P.VQSBF])
def test_rounding_changes_nothing_without_small_jobs(cls):
    """J from the smallest job (Thm. 3): no job is <= cap/2^J, so both rules agree."""
    dist = Uniform(F(1, 10), F(9, 10))
    w = P.pg21_workload(dist, servers=3, slots=5000, mu=0.05, intensity=0.95, seed=5)
    c = P.Cluster.identical(3)
    a = P.simulate(cls(), w, c)
    b = P.simulate(cls(small_jobs="actual"), w, c)
    assert np.array_equal(a.start, b.start) and np.array_equal(a.server, b.server)


def test_vqs_bf_rounded_ties_go_to_the_earliest_arrival():
    """Rounded, every small job has the same size cap/2^J, so VQS-BF's "largest job"
    steps take them in arrival order; at real sizes the largest goes first."""
    sizes = [0.01, 0.2, 0.05, 0.2, 0.1, 0.15, 0.12]
    w = P.Workload(np.zeros(7, np.int64), np.array(sizes), np.full(7, 5), 3.0)
    c = P.Cluster.identical(1)
    r = P.simulate(P.VQSBF(J=2), w, c)
    assert np.flatnonzero(r.start == 0).tolist() == [0, 1, 2, 3]
    a = P.simulate(P.VQSBF(J=2, small_jobs="actual"), w, c)
    assert a.start.tolist() == [0] * 7


# -- VQS step (ii): skip vs stop (PG21 V-B) -------------------------------------------------

#: J = 3; every job in VQ_4 = (1/6, 1/4], so the max-weight row is 4 e_4.
HOL_SIZES = [0.24, 0.24, 0.17, 0.17, 0.24, 0.17]


def test_hol_readings_on_one_server():
    """Stop: 0.24, 0.24, 0.17, 0.17 (load 0.82), then the head 0.24 does not fit.
    Skip: the same, then passes over that 0.24 and places the last 0.17 (load 0.99)."""
    w = P.Workload(np.zeros(6, np.int64), np.array(HOL_SIZES), np.full(6, 5), 3.0)
    c = P.Cluster.identical(1)
    stop = P.simulate(P.VQS(J=3, hol="stop"), w, c)
    skip = P.simulate(P.VQS(J=3, hol="skip"), w, c)
    assert stop.start.tolist() == [0, 0, 0, 0, -1, -1]
    assert skip.start.tolist() == [0, 0, 0, 0, -1, 0]
    assert P.simulate(P.VQS(J=3), w, c).start.tolist() == skip.start.tolist()  # default
    for hol, res in (("stop", stop), ("skip", skip)):
        lit = P.simulate(RefVQS(3, rtol=RTOL, hol=hol), w, c)
        assert lit.start.tolist() == res.start.tolist()


def test_hol_readings_differ_in_throughput():
    """Sizes 0.24 and 0.17 (VQ_4, J = 3), one server in overload (rho = 8): "skip" keeps
    the server fuller than "stop", which idles whenever a 0.24 head blocks a 0.17."""
    dist = Discrete([F(6, 25), F(17, 100)])
    w = P.pg21_workload(dist, servers=1, slots=40_000, mu=0.02, workload=8.0, seed=3)
    c = P.Cluster.identical(1)
    stop = P.simulate(P.VQS(J=3, hol="stop"), w, c)
    skip = P.simulate(P.VQS(J=3, hol="skip"), w, c)
    busy = {k: float(r.busy_resource[r.warmup:].mean()) for k, r in
            (("stop", stop), ("skip", skip))}
    assert stop.invariants.ok and skip.invariants.ok
    assert busy["skip"] > busy["stop"] + 0.04, busy  # measured: 0.978 vs 0.912
    assert skip.departures > 1.05 * stop.departures


# -- the options against the literal references ------------------------------------------------

def _workload(dist, L, rho, mu, seed, slots=1500):
    return P.pg21_workload(dist, servers=L, slots=slots, mu=mu, workload=rho, seed=seed)


#: name: (seed, law, J, servers, workload rho, rounding changes the schedules, skipping
#: changes VQS's schedules): laws with mass below 1/2^J and VQs whose sizes differ.
#: (U(0.01,0.19) with J = 2: every job rounds to 1/4, so skip = stop.)
CASES = {
    "U(0.01,0.19) J=2": (1, Uniform(F(1, 100), F(19, 100)), 2, 2, 14.0, True, False),
    "U(0.01,0.19) J=3": (2, Uniform(F(1, 100), F(19, 100)), 3, 2, 16.0, True, True),
    "boundary J=3": (3, Discrete(["1/2", "1/4", "1/3", "1/6", "1/8", "1/12", "1/16"]), 3, 2,
                     7.0, True, True),
    "{0.24,0.17} J=3": (4, Discrete([F(6, 25), F(17, 100)]), 3, 2, 9.0, False, True),
    "{0.24,0.17,0.03} J=3": (5, Discrete([F(6, 25), F(17, 100), F(3, 100)]), 3, 3, 14.0,
                             True, True),
    "U(0.05,0.45) J=4": (6, Uniform(F(1, 20), F(9, 20)), 4, 5, 16.0, False, True),
}


def _same(a, b) -> bool:
    return bool(np.array_equal(a.start, b.start) and np.array_equal(a.server, b.server))


@pytest.mark.parametrize("name", list(CASES))
def test_options_match_the_literal_references(name):
    seed, dist, J, L, rho, rounding_matters, skipping_matters = CASES[name]
    w = _workload(dist, L, rho, 0.05, seed=seed)
    c = P.Cluster.identical(L)
    runs: dict[tuple[str, ...], P.SimulationResult] = {}
    for small in ("rounded", "actual"):
        for hol in ("skip", "stop"):
            a = P.simulate(P.VQS(J=J, small_jobs=small, hol=hol), w, c)
            b = P.simulate(RefVQS(J, rtol=RTOL, small_jobs=small, hol=hol), w, c)
            assert a.invariants.ok and b.invariants.ok
            assert _same(a, b), (name, small, hol)
            np.testing.assert_array_equal(a.queue_length, b.queue_length)
            np.testing.assert_allclose(a.queued_resource, b.queued_resource, rtol=0, atol=1e-9)
            runs["vqs", small, hol] = a
        a = P.simulate(P.VQSBF(J=J, small_jobs=small), w, c)
        b = P.simulate(RefVQSBF(J, rtol=RTOL, small_jobs=small), w, c)
        assert a.invariants.ok and b.invariants.ok
        assert _same(a, b), (name, small, "vqs-bf")
        np.testing.assert_allclose(a.queued_resource, b.queued_resource, rtol=0, atol=1e-9)
        runs["vqs-bf", small] = a
    # the comparisons above are not vacuous: the options change the schedules
    if rounding_matters:
        assert not _same(runs["vqs", "rounded", "skip"], runs["vqs", "actual", "skip"])
        assert not _same(runs["vqs", "rounded", "stop"], runs["vqs", "actual", "stop"])
        assert not _same(runs["vqs-bf", "rounded"], runs["vqs-bf", "actual"])
    assert skipping_matters == (
        not _same(runs["vqs", "rounded", "skip"], runs["vqs", "rounded", "stop"]))
    assert not _same(runs["vqs", "actual", "skip"], runs["vqs", "actual", "stop"])


# -- parameters -----------------------------------------------------------------------------


def test_parameters_are_recorded_and_validated():
    assert P.VQS().parameters() == {"J": None, "small_jobs": "rounded", "hol": "skip"}
    assert P.VQSBF(J=3, small_jobs="actual").parameters() == {"J": 3, "small_jobs": "actual"}
    assert repr(P.VQS(J=2, hol="stop")) == "VQS(J=2, small_jobs='rounded', hol='stop')"
    for bad in ({"small_jobs": "round"}, {"small_jobs": None}, {"hol": "skipping"},
                {"hol": True}):
        with pytest.raises(ValueError, match="must be one of"):
            P.VQS(J=2, **bad)
    with pytest.raises(TypeError):
        P.VQSBF(J=2, hol="stop")  # type: ignore[call-arg]
    pol = P.VQS.for_distribution(SMALL, 0.0, small_jobs="actual", hol="stop")
    assert (pol.small_jobs, pol.hol) == ("actual", "stop")
    assert P.VQSBF.for_distribution(SMALL, 0.0).small_jobs == "rounded"


def test_make_policy_passes_the_options():
    assert P.make_policy("vqs", J=3, small_jobs="actual", hol="stop") == \
        P.VQS(J=3, small_jobs="actual", hol="stop")
    assert P.make_policy("vqs-bf", J=3, small_jobs="actual") == \
        P.VQSBF(J=3, small_jobs="actual")
    with pytest.raises(ValueError, match="vqs-bf takes no parameter .hol."):
        P.make_policy("vqs-bf", hol="stop")
