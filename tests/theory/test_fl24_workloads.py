"""FL24's workloads in the library: Sec. 7.1's sampling of the Azure stand-in
(theory.readers.azure: the usable-VM count, the step f and the job sets' offsets) and
Sec. 7.5.4's patience instance (theory.instances), moved there from the figure module
and the check module with their behaviour and default seed unchanged."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from theory import instances
from theory.instances import PATIENCE_SEED, patience_instance
from theory.readers import azure
from theory.readers.azure import (
    azure2017_job_set,
    azure2017_vms,
    downsample_every,
    downsample_offsets,
    usable_vms,
)


def _doctests(obj) -> None:  # noqa: ANN001
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    tests = finder.find(obj, globs=vars(instances) if obj is patience_instance
                        else vars(azure))
    assert sum(len(t.examples) for t in tests) > 0
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0


# -- Sec. 7.1: usable VMs, f = floor(usable / N), offsets without replacement ----------

def test_usable_vms_is_what_the_job_sets_draw_from():
    vms = azure2017_vms("both")
    assert usable_vms() == int(np.sum(~vms.censored)) == 631_807
    assert usable_vms(censored="lower-bound") == vms.n == 259_159 + 410_276
    assert usable_vms("dev") + usable_vms("test") == usable_vms()
    with pytest.raises(ValueError, match="censored"):
        usable_vms(censored="keep")
    with pytest.raises(ValueError, match="split"):
        usable_vms("train")


def test_downsample_every_is_floor_usable_over_n():
    assert downsample_every(64_000) == 9  # Sec. 7.1's f at the paper's N = 64,000
    assert downsample_every(4_000) == 157
    assert downsample_every(usable_vms()) == 1
    assert downsample_every(4_000, censored="lower-bound") == 669_435 // 4_000
    # the job set with jobs=N takes the same step: N jobs from every offset in [0, f)
    for off in (0, 8):
        assert azure2017_job_set(jobs=64_000, offset=off).n == 64_000
    with pytest.raises(ValueError, match="offset"):
        azure2017_job_set(jobs=64_000, offset=9)
    with pytest.raises(ValueError, match="resample"):
        downsample_every(usable_vms() + 1)
    for bad in (0, -1, 1.5, True, "10"):
        with pytest.raises(ValueError, match="jobs"):
            downsample_every(bad)


def test_downsample_offsets_are_distinct_draws_from_0_to_f():
    off = downsample_offsets(4_000, 10, seed=2024)
    assert off == sorted(set(off)) and len(off) == 10
    assert all(0 <= o < 157 for o in off)
    # pinned: the figures' stored job sets depend on these (seed [2024, N])
    assert off == [7, 9, 17, 20, 48, 52, 62, 95, 104, 138]
    rng = np.random.default_rng([2024, 4_000])
    assert off == sorted(int(x) for x in rng.choice(157, size=10, replace=False))
    assert downsample_offsets(4_000, 10, seed=2024) == off  # deterministic
    assert downsample_offsets(4_000, 10, seed=2025) != off
    assert downsample_offsets(16_000, 10, seed=2024) != off  # each N its own draw
    # at most f sets: all of them at N = 64,000 (f = 9), in order
    assert downsample_offsets(64_000, 10, seed=2024) == list(range(9))
    assert len(downsample_offsets(64_000, 3, seed=0)) == 3
    for kw in ({"sets": 0}, {"sets": 2.0}, {"seed": -1}, {"seed": 1.5}, {"seed": True}):
        with pytest.raises(ValueError):
            downsample_offsets(4_000, **{"sets": 10, "seed": 0, **kw})
    with pytest.raises(ValueError, match="resample"):
        downsample_offsets(10**7, 10, seed=0)


def test_sampling_docstrings_cite_fl24_and_their_examples_run():
    for f in (usable_vms, downsample_every, downsample_offsets):
        assert "FL24 Sec. 7.1" in (f.__doc__ or "").replace("\n    ", " ")
    _doctests(downsample_offsets)


# -- Sec. 7.5.4: the patience instance ----------------------------------------------

def _old_patience_instance(n, seed=0, R=2):  # noqa: ANN001, ANN202
    """The generator as it was in proofs_checks/checks/fl24_schedules.py."""
    rng = np.random.default_rng(seed)
    arrival = np.concatenate([[0.0], np.sort(rng.uniform(0.01, 0.5, n - 1))])
    processing = np.concatenate([[14.0], rng.uniform(0.1, 1.0, n - 1)])
    demand = np.vstack([np.ones((1, R)), rng.uniform(0.001, 0.02, (n - 1, R))])
    return arrival, processing, demand


@pytest.mark.parametrize(("n", "seed", "R"), [(300, None, 2), (2500, None, 2), (50, 3, 2),
                                              (7, 1, 4), (1, 0, 2)])
def test_patience_instance_is_the_old_generator(n, seed, R):
    jobs = patience_instance(n, R=R) if seed is None else patience_instance(n, seed, R)
    a, p, d = _old_patience_instance(n, 0 if seed is None else seed, R)
    assert np.array_equal(jobs.arrival, a) and np.array_equal(jobs.processing, p)
    assert np.array_equal(jobs.demand, d) and np.array_equal(jobs.weight, np.ones(n))


def test_patience_instance_default_seed_and_shape():
    assert PATIENCE_SEED == 0
    assert np.array_equal(patience_instance(40).arrival,
                          patience_instance(40, seed=PATIENCE_SEED).arrival)
    assert not np.array_equal(patience_instance(40).arrival,
                              patience_instance(40, seed=1).arrival)
    jobs = patience_instance(2500)
    assert (jobs.n, jobs.resources) == (2500, 2)
    assert jobs.arrival[0] == 0 and jobs.processing[0] == 14.0
    assert np.all(jobs.demand[0] == 1.0)  # the long job takes the whole machine
    small = slice(1, None)
    assert np.all(np.diff(jobs.arrival) >= 0)
    assert 0.01 < jobs.arrival[small].min() and jobs.arrival[small].max() < 0.5
    assert 0.1 < jobs.processing[small].min() and jobs.processing[small].max() < 1.0
    assert 0.001 < jobs.demand[small].min() and jobs.demand[small].max() < 0.02
    for bad in ({"n": 0}, {"n": 2.0}, {"n": True}, {"n": 5, "R": 0}):
        with pytest.raises(ValueError):
            patience_instance(**bad)
    _doctests(patience_instance)


def test_the_check_module_uses_the_library_generator():
    from proofs_checks.checks import fl24_schedules

    assert fl24_schedules.patience_instance is patience_instance
    assert "FL24 Sec. 7.5.4" in (patience_instance.__doc__ or "")
