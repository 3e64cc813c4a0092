"""Step series (policies.step_series) against their one-entry-per-slot arrays, and the
simulator's record kept as one."""

from __future__ import annotations

import numpy as np
import pytest

import policies as P
from policies.slotted import _kernel as K
from policies.stability import judge_stability
from policies.step_series import StepSeries
from theory.distributions import Uniform
from theory.numbers import FEASIBILITY_RTOL


def _runs(rng, n, integer):
    """A series of n slots made of runs of random lengths (some equal neighbours)."""
    vals = rng.integers(0, 4, n) if integer else rng.choice([0.0, 0.25, 1.5, 2.0], n)
    keep = rng.random(n) < 0.3
    keep[0] = True
    idx = np.maximum.accumulate(np.where(keep, np.arange(n), 0))
    return vals[idx]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("integer", [True, False])
def test_matches_the_dense_series(seed, integer):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    x = _runs(rng, n, integer)
    s = StepSeries.from_dense(x)
    assert len(s) == n and s.at[0] == 0 and np.all(np.diff(s.at) > 0)
    assert s.at.size == 1 + np.count_nonzero(x[1:] != x[:-1])
    np.testing.assert_array_equal(s.dense(), x)
    t = rng.integers(0, n, 50)
    np.testing.assert_array_equal(s.value_at(t), x[t])
    np.testing.assert_array_equal(s.changes(), np.flatnonzero(x[1:] != x[:-1]) + 1)
    b = np.arange(n + 1)
    np.testing.assert_allclose(s.integral(b), np.r_[0.0, np.cumsum(x)], rtol=1e-12, atol=1e-12)
    for start in (0, n // 3, n - 1, n):
        ref = float(x[start:].mean()) if start < n else 0.0
        assert s.mean(start) == pytest.approx(ref, rel=1e-12, abs=1e-12)
    assert s.max() == x.max() and s.min() == x.min() and s.last == x[-1]


def test_repeated_records_describe_the_same_series():
    s = StepSeries(np.array([0, 2, 5]), np.array([1.0, 1.0, 3.0]), 7)
    np.testing.assert_array_equal(s.dense(), [1, 1, 1, 1, 1, 3, 3])
    np.testing.assert_array_equal(s.changes(), [5])


@pytest.mark.parametrize("at, values, length, msg", [
    ([1, 2], [0, 0], 4, "slot 0"),
    ([0, 2, 2], [0, 1, 2], 4, "strictly increasing"),
    ([0, 4], [0, 1], 4, "outside"),
    ([0, 1], [0], 4, "shape"),
    ([0], [0], -1, "non-negative"),
    ([0], [0], 0, "length 0"),
    ([], [], 3, "slot 0"),
])
def test_malformed_series_are_refused(at, values, length, msg):
    with pytest.raises(ValueError, match=msg):
        StepSeries(np.array(at, np.int64), np.array(values, float), length)


def test_empty_series():
    s = StepSeries.from_dense(np.zeros(0))
    assert len(s) == 0 and s.dense().size == 0 and s.mean() == 0.0


@pytest.mark.parametrize("seed", range(8))
def test_stability_verdict_of_steps_equals_dense(seed):
    """judge_stability on a step series gives the dense series' verdict and numbers."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 5000))
    drift = rng.choice([0.0, 0.02, -0.01])
    x = np.maximum(np.round(np.cumsum(rng.normal(drift, 1.0, n)) / 4) * 4, 0.0)
    x[: int(rng.integers(0, n // 2))] = 0.0
    kw = {"arrival_work_rate": 0.5} if seed % 2 else {}
    a = judge_stability(x, **kw)
    b = judge_stability(StepSeries.from_dense(x), **kw)
    assert a.verdict == b.verdict and a.scale_source == b.scale_source
    for k in ("drift", "level", "final_level", "se_residual", "se_increment", "scale"):
        assert getattr(b, k) == pytest.approx(getattr(a, k), rel=1e-9, abs=1e-12), k


def _quiet_workload(jobs=4000):
    """PG21 VII-A at 5 servers and mu = 0.01: about 22 slots per job, nearly all quiet."""
    return P.pg21_workload(Uniform(0.1, 0.9), servers=5, slots=jobs * 22, mu=0.01,
                           intensity=0.45, seed=5)


@pytest.mark.parametrize("name", ["BFJS", "BFS", "VQSBF", "FIFOFF", "BFJ", "VQS"])
def test_the_record_is_kept_where_it_changes(name):
    w = _quiet_workload()
    r = P.simulate(getattr(P, name)(), w, P.Cluster.identical(5))
    steps = r.queue_length_steps
    assert r.invariants_ok
    assert steps.at.size < r.slots / 5  # the point: a few records per job, not per slot
    for s in (r.queued_resource_steps, r.busy_resource_steps):
        assert s.at is steps.at and len(s) == r.slots
    rec = np.stack([steps.values, r.queued_resource_steps.values,
                    r.busy_resource_steps.values])
    assert np.all(np.any(rec[:, 1:] != rec[:, :-1], axis=0))  # no repeated record
    assert r.mean_queue == pytest.approx(r.queue_length[r.warmup:].mean(), rel=1e-12)
    assert r.mean_queued_resource == pytest.approx(r.queued_resource[r.warmup:].mean(),
                                                   rel=1e-12)
    assert r.final_queue == r.queue_length[-1]


def test_short_record_arrays_are_reported_not_overrun():
    """The kernel counts records past the arrays' end instead of writing there."""
    w = _quiet_workload(500)
    pol = P.BFJS()
    ref = P.simulate(pol, w, P.Cluster.identical(5))
    k_ref = ref.queue_length_steps.at.size
    n = ref.start.size
    size = np.asarray(w.sizes()[:n], float)
    spec = pol.compiled_spec(size, np.ones(5))
    m = k_ref // 2
    rec = [np.full(m + 8, -7, np.int64), np.zeros(m + 8, np.int64), np.zeros(m + 8),
           np.zeros(m + 8)]
    outs = [np.full(n, -1, np.int64), np.full(n, -1, np.int64)] + [x[:m] for x in rec] + [
        np.zeros(5, np.int64), np.zeros(5)]
    k = K.run(spec.code, np.array(w.arrival[:n]), size, np.array(w.service[:n]), np.ones(5),
              ref.slots, FEASIBILITY_RTOL, spec.jtype, spec.ntypes, spec.cfg_k, spec.cfg_main,
              spec.cfg_k1, spec.track_jobs, spec.stall, *outs)
    assert k > m  # past the end the count is an upper bound (no last record to compare)
    np.testing.assert_array_equal(rec[0][:m], ref.queue_length_steps.at[:m])
    assert np.all(rec[0][m:] == -7)  # nothing written past the end
