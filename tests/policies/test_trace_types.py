"""PG18 Sec. VII-B trace workload: rounding to sizes 1/2^p, types, arrival scaling, inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import policies as P
from policies.trace_types import (
    MAX_EXPONENT,
    google2011_typed_workload,
    trace_offered_load,
    type_exponents,
)

HEADER = "job_id,task_index,submit_time_us,runtime_s,cpu_request,memory_request\n"


def _csv(tmp_path, rows, header=HEADER, name="tasks.csv"):
    p = tmp_path / name
    p.write_text(header + "".join(",".join(str(x) for x in r) + "\n" for r in rows))
    return p


# -- rounding ---------------------------------------------------------------------------

@pytest.mark.parametrize("request_, p", [
    (0.3, 1),          # round up to 1/2
    (0.25, 2),         # an exact power stays
    (0.2500001, 1),    # just above a power goes up
    (0.0625, 4),
    (0.06, 4),
    (1.0, 0),
    (0.6, 0),
    (0.001, 9),        # below 1/512: 1/512
    (1e-9, 9),
    (1 / 512, 9),
    (1 / 256, 8),
    (0.0, 9),          # a zero request rounds like any request below 1/512
])
def test_rounding_up_to_a_power_of_one_half(request_, p):
    assert type_exponents([request_], [0.0]).tolist() == [p]
    assert type_exponents([0.0], [request_]).tolist() == [p]  # same rule for memory


def test_type_is_the_larger_rounded_request():
    cpu = [0.1, 0.3, 0.001, 0.0, 0.2]
    mem = [0.3, 0.1, 0.02, 0.0, 0.24]
    # 0.3 -> 1/2 beats 0.1 -> 1/8; 0.02 -> 1/32 beats 0.001 -> 1/512; both zero -> 1/512;
    # 0.2 and 0.24 both round to 1/4
    assert type_exponents(cpu, mem).tolist() == [1, 1, 5, 9, 2]
    # the rounded sizes dominate the requests and are less than twice the larger one
    cpu_b, mem_b = np.array(cpu), np.array(mem)
    size = 2.0 ** -type_exponents(cpu_b, mem_b)
    big = np.maximum(cpu_b, mem_b)
    assert np.all(size >= big)
    assert np.all((size < 2 * big) | (size == 2.0 ** -MAX_EXPONENT))


@pytest.mark.parametrize("cpu, mem", [([1.5], [0.1]), ([0.1], [-0.01]), ([math.nan], [0.1]),
                                      ([0.1], [math.inf])])
def test_requests_outside_the_unit_interval_are_refused(cpu, mem):
    with pytest.raises(ValueError, match="requests"):
        type_exponents(cpu, mem)


def test_cpu_and_memory_must_match():
    with pytest.raises(ValueError, match="equal length"):
        type_exponents([0.1, 0.2], [0.1])


# -- the workload from a small file -----------------------------------------------------

ROWS = [  # job_id, task_index, submit_time_us, runtime_s, cpu, memory (not in submit order)
    (1, 0, 5_000_000, 10.0, 0.3, 0.1),     # t = 4 s, size 1/2
    (1, 1, 1_000_000, 20.0, 0.1, 0.02),    # t = 0,   size 1/8
    (2, 0, 3_000_000, 30.0, 0.0, 0.1),     # t = 2 s, size 1/8 (zero CPU: memory decides)
    (2, 1, 3_000_000, 40.0, 0.0, 0.0),     # t = 2 s, size 1/512 (both zero)
    (3, 0, 9_000_000, 50.0, 0.25, 0.001),  # t = 8 s, size 1/4
]


def test_types_arrivals_and_service_from_a_file(tmp_path):
    types, w = google2011_typed_workload(path=_csv(tmp_path, ROWS))
    assert types.J == 4
    assert types.names == ("1/2", "1/4", "1/8", "1/512")
    assert types.sizes[:, 0].tolist() == [0.5, 0.25, 0.125, 1 / 512]
    # sorted by submit time, ties in file order, shifted to start at 0
    assert w.arrival.tolist() == [0.0, 2.0, 2.0, 4.0, 8.0]
    assert w.service.tolist() == [20.0, 30.0, 40.0, 10.0, 50.0]
    assert w.job_type.tolist() == [2, 2, 3, 0, 1]
    assert w.demand[:, 0].tolist() == [0.125, 0.125, 1 / 512, 0.5, 0.25]
    # dummy-job laws: exponential with the type's mean runtime
    assert [s.law for s in types.service] == ["exponential"] * 4
    assert types.mean_service.tolist() == [10.0, 50.0, 25.0, 40.0]
    assert w.horizon > 8.0 and w.horizon == np.nextafter(8.0, np.inf)
    assert w.arrival_rate == pytest.approx(5 / 8)


def test_traffic_scaling_multiplies_arrivals_by_alpha(tmp_path):
    path = _csv(tmp_path, ROWS)
    _, w1 = google2011_typed_workload(path=path)
    _, w4 = google2011_typed_workload(path=path, traffic_scaling=4.0)
    _, wq = google2011_typed_workload(path=path, traffic_scaling=0.5)
    np.testing.assert_allclose(w4.arrival, w1.arrival / 4)
    np.testing.assert_allclose(wq.arrival, w1.arrival * 2)
    np.testing.assert_array_equal(w4.service, w1.service)  # runtimes are not scaled
    assert w4.meta["alpha"] == 0.25 and w4.meta["traffic_scaling"] == 4.0


def test_max_arrivals_keeps_the_first_by_submit_time(tmp_path):
    types, w = google2011_typed_workload(path=_csv(tmp_path, ROWS), max_arrivals=2)
    assert w.jobs == 2 and w.arrival.tolist() == [0.0, 2.0]
    assert types.names == ("1/8",) and types.mean_service.tolist() == [25.0]


def test_offered_load():
    w = P.Workload(np.array([0.0, 1.0]), np.array([[0.5], [0.25]]), np.array([4.0, 8.0]),
                   10.0, job_type=np.array([0, 1]))
    assert trace_offered_load(w) == pytest.approx((0.5 * 4 + 0.25 * 8) / 10)
    with pytest.raises(ValueError, match="one resource"):
        trace_offered_load(P.Workload(np.array([0.0]), np.array([[0.5, 0.5]]),
                                      np.array([1.0]), 1.0))
    with pytest.raises(TypeError):
        trace_offered_load("not a workload")  # type: ignore[arg-type]


# -- the packaged table -----------------------------------------------------------------

def test_packaged_trace():
    types, w = google2011_typed_workload()
    assert 1 <= types.J <= 10
    # sizes 1/4 .. 1/512 occur in the packaged table (the largest request is below 0.25)
    assert types.names == ("1/4", "1/8", "1/16", "1/32", "1/64", "1/128", "1/256", "1/512")
    p = -np.log2(types.sizes[:, 0])
    assert np.all(p == np.round(p)) and np.all((p >= 0) & (p <= MAX_EXPONENT))
    assert np.all(np.diff(p) > 0)  # largest size first, no repeats
    assert w.jobs == 49_782
    assert w.arrival[0] == 0.0 and np.all(np.diff(w.arrival) >= 0)
    assert np.all(w.service > 0)
    np.testing.assert_allclose(w.demand[:, 0], types.sizes[w.job_type, 0])
    for j in range(types.J):  # the dummy law's mean is the type's mean runtime
        assert types.mean_service[j] == pytest.approx(w.service[w.job_type == j].mean())
    _, w2 = google2011_typed_workload(traffic_scaling=2.0)
    np.testing.assert_allclose(w2.arrival, w.arrival / 2)
    assert trace_offered_load(w2) == pytest.approx(2 * trace_offered_load(w), rel=1e-9)


def test_packaged_trace_runs_on_the_simulator():
    types, w = google2011_typed_workload(max_arrivals=300)
    assert w.jobs == 300
    cluster = P.Cluster.identical(50, [1.0])
    r = P.simulate_continuous(P.make_policy("rms-ad", clock_rates=1.0), w, cluster, types,
                              seed=3, warmup=0.0)
    assert r.jobs == 300 and r.invariants_ok
    started = r.server >= 0
    # real jobs run for their trace runtime (those that finished before the horizon)
    done = started & np.isfinite(r.finish)
    np.testing.assert_allclose((r.finish - r.start)[done], w.service[done])


# -- bad inputs -------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [0, 0.0, -1.0, math.nan, math.inf, "2", True, None, [1.0]])
def test_bad_traffic_scaling(bad):
    with pytest.raises(ValueError, match="traffic_scaling"):
        google2011_typed_workload(traffic_scaling=bad)


@pytest.mark.parametrize("bad", [0, -5, 2.0, True, "10"])
def test_bad_max_arrivals(bad):
    with pytest.raises(ValueError, match="max_arrivals"):
        google2011_typed_workload(max_arrivals=bad)


def test_bad_files(tmp_path):
    with pytest.raises(ValueError, match="No such file"):
        google2011_typed_workload(path=tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="lacks column"):
        google2011_typed_workload(path=_csv(tmp_path, [(1, 0, 5, 1.0, 0.1)],
                                            header="job_id,task_index,submit_time_us,"
                                                   "runtime_s,cpu_request\n", name="a.csv"))
    with pytest.raises(ValueError, match="runtime_s must be positive"):
        google2011_typed_workload(path=_csv(tmp_path, [(1, 0, 5, 0.0, 0.1, 0.1)], name="b.csv"))
    with pytest.raises(ValueError, match="not a number"):
        google2011_typed_workload(path=_csv(tmp_path, [(1, 0, 5, 1.0, "x", 0.1)], name="c.csv"))
    with pytest.raises(ValueError, match="requests must lie in"):
        google2011_typed_workload(path=_csv(tmp_path, [(1, 0, 5, 1.0, 1.2, 0.1)], name="d.csv"))
    with pytest.raises(ValueError, match="no tasks"):
        google2011_typed_workload(path=_csv(tmp_path, [], name="e.csv"))
    with pytest.raises(ValueError, match="path must name"):
        google2011_typed_workload(path=3)  # type: ignore[arg-type]
