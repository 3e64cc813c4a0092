"""The Azure-like FL24 workload from the packaged Azure 2017 trace."""

from __future__ import annotations

import numpy as np
import pytest

from theory.readers.azure import azure2017_job_set, azure2017_vms


@pytest.fixture(scope="module")
def vms():
    return azure2017_vms()


def test_the_packaged_trace(vms):
    """Counts from the provenance file: 259,159 + 410,276 VMs, 5.6% censored, flavour b
    (1 core, 1.75 GB) the most common."""
    assert vms.n == 259_159 + 410_276
    assert 0.05 < vms.censored.mean() < 0.06
    letters, counts = np.unique(vms.flavour, return_counts=True)
    assert letters[np.argmax(counts)] == "b"
    b = vms.flavour == "b"
    assert np.all(vms.cores[b] == 1) and np.all(vms.memory_gb[b] == 1.75)
    assert np.all(np.diff(vms.arrival) >= 0) and vms.arrival.min() >= 1_800_000
    assert np.all(vms.low < vms.high) and vms.low.min() == 0 and vms.high.max() <= 1_728_300


def test_job_set_rules(vms):
    js = azure2017_job_set(jobs=5000)
    assert js.n == 5000 and js.resources == 2
    assert js.arrival.min() == 0 and np.all(np.diff(js.arrival) >= 0)
    assert js.processing.min() == 1.0  # time in units of the shortest job (150 s)
    assert np.all(js.demand <= 1) and js.demand.max() <= 1.0
    assert np.all(js.weight == 1)
    secs = azure2017_job_set(jobs=5000, time_unit="seconds")
    assert secs.processing.min() == 150.0  # bin 0 = [0, 300): midpoint
    assert np.allclose(secs.processing / 150.0, js.processing)
    # every f-th VM from the offset, in release order
    f = int((~vms.censored).sum()) // 5000
    a = azure2017_job_set(every=f, offset=0)
    b = azure2017_job_set(every=f, offset=1)
    assert a.n >= 5000 and a.ids[:5000] == js.ids and a.ids[0] != b.ids[0]
    u1, u2 = (azure2017_job_set(jobs=500, lifetime="uniform", seed=s, time_unit="seconds")
              for s in (1, 2))
    assert not np.array_equal(u1.processing, u2.processing)
    assert np.array_equal(u1.processing, azure2017_job_set(
        jobs=500, lifetime="uniform", seed=1, time_unit="seconds").processing)
    kept = azure2017_job_set(jobs=5000, censored="lower-bound")
    assert kept.n == 5000


@pytest.mark.parametrize("kw, match", [
    ({"jobs": 0}, "jobs"), ({"jobs": 10, "every": 3}, "not both"),
    ({"every": 4, "offset": 4}, "offset"), ({"host": (8, 56)}, "smaller than flavour"),
    ({"censored": "keep"}, "censored"), ({"time_unit": "hours"}, "time_unit"),
    ({"lifetime": "mean"}, "lifetime"), ({"jobs": 10**7}, "fewer than"),
    ({"split": "train"}, "split"), ({"jobs": 10, "weights": np.ones(3)}, "weights"),
])
def test_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        azure2017_job_set(**kw)


def test_resampling_reaches_any_scale_with_the_trace_mix():
    """resample=True: N draws with replacement; flavours and lifetimes keep the trace's
    mix, releases stay in the trace's bins, seeded."""
    base = azure2017_job_set()
    big = azure2017_job_set(jobs=1_000_000, resample=True, seed=3)
    assert big.n == 1_000_000 and np.all(np.diff(big.arrival) >= 0)
    assert np.array_equal(big.arrival, azure2017_job_set(jobs=1_000_000, resample=True,
                                                         seed=3).arrival)
    assert not np.array_equal(big.arrival[:1000], azure2017_job_set(
        jobs=1_000_000, resample=True, seed=4).arrival[:1000])
    for col in range(2):
        f_base = np.unique(base.demand[:, col], return_counts=True)
        f_big = np.unique(big.demand[:, col], return_counts=True)
        assert set(f_big[0]) <= set(f_base[0])
        share = dict(zip(f_base[0], f_base[1] / base.n, strict=True))
        for d, c in zip(*f_big, strict=True):
            assert abs(c / big.n - share[d]) < 0.005
    # the same span in time: the rate grows by N / 631,807
    assert big.arrival.max() == pytest.approx(base.arrival.max(), rel=0.01)
    with pytest.raises(ValueError, match="every and offset do not apply"):
        azure2017_job_set(every=2, resample=True)
