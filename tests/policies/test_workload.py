"""The shared workload format and the PG21 generators (policies.workload).

Validation with clear messages, reproducibility from seeds, the laws' means (loose
6-sigma bounds), the PG21 VII-A arrival rates, backlog/head, and trace binning.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.workload import (
    BernoulliArrivals,
    DeterministicService,
    EmpiricalService,
    GeometricService,
    PoissonArrivals,
    Workload,
    arrival_rate_for,
    google2011_workload,
    pg21_workload,
    slotted_workload,
    trace_workload,
)
from theory.distributions import Discrete, Uniform

FIG3B = Discrete(["2", "5"], ["2/3", "1/3"])  # PG21 Fig. 3b sizes, capacity 10


def small(**kw) -> Workload:
    args = {"arrival": np.array([0, 1, 1]), "demand": np.array([0.5, 0.25, 1.0]),
            "service": np.array([2, 1, 3]), "horizon": 5.0}
    args.update(kw)
    return Workload(**args)


# -- Workload validation ---------------------------------------------------------------


@pytest.mark.parametrize(("kw", "match"), [
    ({"demand": np.array([0.5, -0.25, 1.0])}, "demands must be positive"),
    ({"demand": np.array([0.5, 0.0, 1.0])}, "demands must be positive"),
    ({"demand": np.array([0.5, np.nan, 1.0])}, "demand must be finite"),
    ({"demand": np.array([0.5, np.inf, 1.0])}, "demand must be finite"),
    ({"arrival": np.array([0, 2, 1])}, "nondecreasing"),
    ({"arrival": np.array([-1, 1, 1])}, "non-negative"),
    ({"service": np.array([2, 0, 3])}, "service amounts must be positive"),
    ({"service": np.array([2, -1, 3])}, "service amounts must be positive"),
    ({"service": np.array([2.0, np.nan, 3.0])}, "service must be finite"),
    ({"arrival": np.array([0, 1, 5])}, "arrive before the horizon"),
    ({"horizon": float("nan")}, "horizon"),
    ({"horizon": -1.0}, "horizon"),
    ({"demand": np.array([0.5, 0.25])}, "same 3 jobs"),
    ({"arrival": np.array([[0, 1, 1]])}, "1-D"),
    ({"weight": np.array([1.0, -1.0, 1.0])}, "weights"),
    ({"arrival_rate": 0.0}, "arrival_rate must be positive"),
    ({"arrival_rate": float("nan")}, "arrival_rate must be positive"),
    ({"demand": np.array([[0.5, 0.0], [0.0, 0.0], [1.0, 1.0]])}, "demand some resource"),
])
def test_workload_validation(kw, match):
    with pytest.raises(ValueError, match=match):
        small(**kw)


def test_workload_accepts_valid_and_is_read_only():
    w = small()
    assert w.jobs == 3 and w.slotted
    np.testing.assert_array_equal(w.weight, np.ones(3))
    for arr in (w.arrival, w.demand, w.service, w.weight):
        with pytest.raises(ValueError):
            arr[0] = arr[0]
    assert not small(service=np.array([2.0, 1.0, 3.0])).slotted


def test_workload_copies_its_inputs():
    a = np.array([0, 1, 1])
    w = small(arrival=a)
    a[0] = 4
    assert w.arrival[0] == 0


def test_sizes_single_resource_only():
    w = small(demand=np.array([[0.5], [0.25], [1.0]]))
    np.testing.assert_array_equal(w.sizes(), [0.5, 0.25, 1.0])
    w2 = small(demand=np.array([[0.5, 0.1], [0.25, 0.1], [1.0, 0.1]]))
    with pytest.raises(ValueError, match="single-resource"):
        w2.sizes()


def test_work_rate_from_law_or_jobs():
    w = small()
    assert w.work_rate() == pytest.approx((0.5 + 0.25 + 1.0) / 5.0)
    w = small(arrival_rate=0.4, mean_demand=0.3)
    assert w.work_rate() == pytest.approx(0.12)
    empty = Workload(np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64), 0.0)
    assert empty.work_rate() == 0.0 and empty.jobs == 0


# -- laws: validation --------------------------------------------------------------------


@pytest.mark.parametrize(("make", "match"), [
    (lambda: PoissonArrivals(0), "arrival rate must be positive"),
    (lambda: PoissonArrivals(-1.0), "arrival rate must be positive"),
    (lambda: PoissonArrivals(float("nan")), "arrival rate must be positive"),
    (lambda: PoissonArrivals(float("inf")), "arrival rate must be positive"),
    (lambda: PoissonArrivals("fast"), "arrival rate must be a number"),
    (lambda: BernoulliArrivals(1.5), r"p must be in \(0, 1\]"),
    (lambda: BernoulliArrivals(0.0), "p must be positive"),
    (lambda: GeometricService(0.0), "mu must be positive"),
    (lambda: GeometricService(-0.1), "mu must be positive"),
    (lambda: GeometricService(1.5), r"mu must be in \(0, 1\]"),
    (lambda: GeometricService(float("nan")), "mu must be positive"),
    (lambda: DeterministicService(0), "whole slots >= 1"),
    (lambda: DeterministicService(-3), "whole slots >= 1"),
    (lambda: DeterministicService(2.0), "whole slots >= 1"),
    (lambda: DeterministicService(True), "whole slots >= 1"),
    (lambda: EmpiricalService(np.array([0, 2])), "whole slots >= 1"),
    (lambda: EmpiricalService(np.array([1.5, 2.0])), "whole slots >= 1"),
    (lambda: EmpiricalService(np.array([], dtype=np.int64)), "non-empty"),
])
def test_law_validation(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_law_boundaries_accepted():
    assert BernoulliArrivals(1.0).rate == 1.0
    assert GeometricService(1.0).mean == 1.0
    assert DeterministicService(7).mean == 7.0
    assert EmpiricalService(np.array([1, 3])).mean == 2.0
    rng = np.random.default_rng(0)
    assert np.all(GeometricService(1.0).draw(50, rng) == 1)
    assert np.all(BernoulliArrivals(1.0).counts(50, rng) == 1)


@pytest.mark.parametrize(("kw", "match"), [
    ({"workload": 20.0, "arrivals": "bernoulli"}, "rate <= 1"),
    ({"workload": 2.0, "intensity": 0.5}, "exactly one of workload"),
    ({}, "exactly one of workload"),
    ({"workload": -1.0}, "workload rho must be positive"),
    ({"intensity": 0.0}, "intensity must be positive"),
    ({"workload": 1.0, "arrivals": "uniform"}, "'poisson' or 'bernoulli'"),
    ({"workload": 1.0, "deterministic": 3}, "exactly one of mu"),
    ({"workload": 1.0, "mu": None}, "exactly one of mu"),
    ({"workload": 1.0, "mu": 1.5}, r"mu must be in \(0, 1\]"),
    ({"workload": 1.0, "mu": None, "deterministic": 0}, "whole slots >= 1"),
    ({"workload": 1.0, "slots": 0}, "slots must be a positive integer"),
])
def test_pg21_workload_validation(kw, match):
    args = {"servers": 1, "slots": 10, "mu": 0.1}
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        pg21_workload(Discrete(["0.5"]), **args)


def test_slotted_workload_validation():
    d = Discrete(["0.5"])
    geo = GeometricService(0.5)
    with pytest.raises(ValueError, match=r"lie in \[0, slots\)"):
        slotted_workload(d, [0, 10], geo, 10)
    with pytest.raises(ValueError, match="integer slots"):
        slotted_workload(d, [0.0, 1.5], geo, 10)
    with pytest.raises(ValueError, match="nondecreasing"):
        slotted_workload(d, [3, 1], geo, 10)
    with pytest.raises(ValueError, match="service amounts must be positive"):
        slotted_workload(d, [0, 1], [1, 0], 10)
    with pytest.raises(ValueError, match="whole slots for each of the 2 jobs"):
        slotted_workload(d, [0, 1], [1], 10)
    with pytest.raises(ValueError, match="slots must be a positive integer"):
        slotted_workload(d, PoissonArrivals(1.0), geo, 0)
    with pytest.raises(TypeError, match="SizeDistribution"):
        slotted_workload([0.5], [0, 1], [1, 1], 10)


def test_slotted_workload_explicit_jobs():
    w = slotted_workload(Discrete(["0.25"]), [0, 0, 3], [2, 1, 5], 4, seed=1)
    np.testing.assert_array_equal(w.arrival, [0, 0, 3])
    np.testing.assert_array_equal(w.service, [2, 1, 5])
    np.testing.assert_array_equal(w.sizes(), [0.25] * 3)
    assert w.horizon == 4.0 and w.arrival_rate is None and w.slotted


# -- reproducibility ---------------------------------------------------------------------


def _pg21(seed, **kw):
    args = {"servers": 2, "slots": 2000, "mu": 0.05, "workload": 10.0}
    args.update(kw)
    return pg21_workload(Uniform("0.1", "0.9"), seed=seed, **args)


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_jobs(seed):
    a, b = _pg21(seed), _pg21(seed)
    for x, y in ((a.arrival, b.arrival), (a.demand, b.demand), (a.service, b.service)):
        np.testing.assert_array_equal(x, y)
    # a Generator seeded alike gives the same jobs as the int seed
    c = _pg21(np.random.default_rng(seed))
    np.testing.assert_array_equal(a.demand, c.demand)
    np.testing.assert_array_equal(a.service, c.service)


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**32 - 2))
def test_different_seeds_differ(seed):
    a, b = _pg21(seed), _pg21(seed + 1)
    assert a.jobs > 100
    same = (a.jobs == b.jobs and np.array_equal(a.arrival, b.arrival)
            and np.array_equal(a.demand, b.demand))
    assert not same


def test_documented_draw_order():
    """Arrival counts, then sizes, then service, from one generator (module docstring)."""
    dist = Uniform("0.2", "0.7")
    w = slotted_workload(dist, PoissonArrivals(0.3), GeometricService(0.1), 500, seed=42)
    rng = np.random.default_rng(42)
    counts = rng.poisson(0.3, size=500)
    n = int(counts.sum())
    sizes = dist.sample(n, rng)
    service = rng.geometric(0.1, size=n)
    np.testing.assert_array_equal(w.arrival, np.repeat(np.arange(500), counts))
    np.testing.assert_array_equal(w.sizes(), sizes)
    np.testing.assert_array_equal(w.service, service)


# -- the laws' statistics (loose, 6 sigma) -------------------------------------------------


@pytest.mark.parametrize("rate", [0.05, 0.7, 3.0])
def test_poisson_arrival_count_mean(rate):
    slots = 20_000
    w = slotted_workload(Discrete(["0.5"]), PoissonArrivals(rate), DeterministicService(1),
                         slots, seed=7)
    mean = rate * slots
    assert abs(w.jobs - mean) <= 6 * math.sqrt(mean)
    assert w.arrival_rate == rate
    # several arrivals share a slot at high rates; arrivals are whole slots in range
    assert w.arrival.dtype.kind == "i" and w.arrival.min() >= 0 and w.arrival.max() < slots
    if rate > 1:
        assert np.any(np.diff(w.arrival) == 0)


def test_bernoulli_at_most_one_per_slot():
    slots, p = 20_000, 0.3
    w = slotted_workload(Discrete(["0.5"]), BernoulliArrivals(p), DeterministicService(1),
                         slots, seed=3)
    assert np.all(np.diff(w.arrival) > 0)
    sd = math.sqrt(slots * p * (1 - p))
    assert abs(w.jobs - p * slots) <= 6 * sd


@pytest.mark.parametrize("mu", [0.01, 0.2, 0.9])
def test_geometric_service_mean(mu):
    rng = np.random.default_rng(11)
    n = 50_000
    d = GeometricService(mu).draw(n, rng)
    assert d.dtype == np.int64 and d.min() >= 1
    sd = math.sqrt(1 - mu) / mu
    assert abs(d.mean() - 1 / mu) <= 6 * sd / math.sqrt(n)


def test_deterministic_and_empirical_service():
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(DeterministicService(4).draw(5, rng), [4] * 5)
    vals = EmpiricalService(np.array([2, 9])).draw(2000, rng)
    assert set(np.unique(vals)) == {2, 9}


# -- PG21 arrival rates ----------------------------------------------------------------------


@pytest.mark.parametrize("rho", [0.5, 1.4, 3.06])
@pytest.mark.parametrize("mu", [0.01, 0.05])
def test_pg21_workload_rho(rho, mu):
    w = pg21_workload(FIG3B, servers=1, slots=50, capacity=10, mu=mu, workload=rho, seed=0)
    assert w.arrival_rate == pytest.approx(rho * mu, rel=1e-12)


@pytest.mark.parametrize(("alpha", "servers"), [(0.9, 1), (0.5, 3), (1.2, 10)])
def test_pg21_workload_intensity_fig3b(alpha, servers):
    """PG21 VII-A: rho = alpha * L / R-bar with R-bar in capacity units (3/10 here)."""
    mu = 0.01
    w = pg21_workload(FIG3B, servers=servers, slots=50, capacity=10, mu=mu, intensity=alpha,
                      seed=0)
    assert w.arrival_rate == pytest.approx(alpha * servers / (3 / 10) * mu, rel=1e-12)
    assert w.mean_demand == pytest.approx(3.0)  # capacity units
    # the same intensity at capacity 1 with sizes 0.2, 0.5 gives the same rate
    w1 = pg21_workload(Discrete(["0.2", "0.5"], ["2/3", "1/3"]), servers=servers, slots=50,
                       mu=mu, intensity=alpha, seed=0)
    assert w1.arrival_rate == pytest.approx(w.arrival_rate, rel=1e-12)


def test_pg21_workload_intensity_continuous():
    w = pg21_workload(Uniform("0.1", "0.9"), servers=5, slots=50, mu=0.02, intensity=0.9,
                      seed=0)
    assert w.arrival_rate == pytest.approx(0.9 * 5 / 0.5 * 0.02, rel=1e-12)


def test_pg21_workload_deterministic():
    w = pg21_workload(FIG3B, servers=1, slots=5000, capacity=10, deterministic=100,
                      workload=3.0, seed=2)
    assert w.arrival_rate == pytest.approx(3.0 / 100)
    np.testing.assert_array_equal(np.unique(w.service), [100])
    assert arrival_rate_for(FIG3B, servers=1, capacity=10, mean_service=100,
                            workload=3.0) == pytest.approx(0.03)


def test_pg21_workload_capacity_units():
    w = pg21_workload(FIG3B, servers=2, slots=20_000, capacity=10, mu=0.05, workload=3.0,
                      seed=5)
    vals, counts = np.unique(w.sizes(), return_counts=True)
    np.testing.assert_array_equal(vals, [2.0, 5.0])
    n = w.jobs
    assert abs(counts[0] - 2 * n / 3) <= 6 * math.sqrt(n * 2 / 9)
    assert w.work_rate() == pytest.approx(w.arrival_rate * 3.0)


def test_pg21_workload_bernoulli():
    w = pg21_workload(Discrete(["0.5"]), servers=1, slots=5000, mu=0.1, workload=1.0,
                      arrivals="bernoulli", seed=1)
    assert w.arrival_rate == pytest.approx(0.1)
    assert np.all(np.diff(w.arrival) > 0)


def test_arrival_rate_for_validation():
    with pytest.raises(ValueError, match="exactly one"):
        arrival_rate_for(FIG3B, servers=1, mean_service=10)
    with pytest.raises(ValueError, match="capacity must be positive"):
        arrival_rate_for(FIG3B, servers=1, capacity=0, mean_service=10, intensity=1.0)
    with pytest.raises(ValueError, match="mean service time must be positive"):
        arrival_rate_for(FIG3B, servers=1, mean_service=0, workload=1.0)


# -- backlog and head ------------------------------------------------------------------------


def test_with_backlog_puts_jobs_first_at_slot_zero():
    w = pg21_workload(FIG3B, servers=1, slots=300, capacity=10, mu=0.05, workload=2.0, seed=4)
    assert w.arrival[0] == 0 or w.jobs == 0
    b = w.with_backlog(np.array([5.0, 2.0, 5.0]), np.array([7, 8, 9]))
    assert b.jobs == w.jobs + 3
    np.testing.assert_array_equal(b.arrival[:3], [0, 0, 0])
    np.testing.assert_array_equal(b.sizes()[:3], [5.0, 2.0, 5.0])
    np.testing.assert_array_equal(b.service[:3], [7, 8, 9])
    np.testing.assert_array_equal(b.arrival[3:], w.arrival)
    np.testing.assert_array_equal(b.sizes()[3:], w.sizes())
    np.testing.assert_array_equal(b.service[3:], w.service)
    assert b.horizon == w.horizon and b.arrival_rate == w.arrival_rate
    assert b.meta["backlog"] == 3 and b.slotted
    assert b.work_rate() == w.work_rate()  # the law's rate, not inflated by the backlog
    with pytest.raises(ValueError, match="same length"):
        w.with_backlog(np.array([1.0, 2.0]), np.array([3]))
    with pytest.raises(ValueError, match="demands must be positive"):
        w.with_backlog(np.array([0.0]), np.array([3]))


def test_head_is_a_prefix():
    w = pg21_workload(Uniform("0.1", "0.9"), servers=2, slots=1000, mu=0.05, workload=5.0,
                      seed=9)
    h = w.head(400)
    k = int(np.count_nonzero(w.arrival < 400))
    assert h.jobs == k and h.horizon == 400
    np.testing.assert_array_equal(h.arrival, w.arrival[:k])
    np.testing.assert_array_equal(h.demand, w.demand[:k])
    np.testing.assert_array_equal(h.service, w.service[:k])
    assert h.arrival_rate == w.arrival_rate and h.mean_demand == w.mean_demand
    assert w.head(1000).jobs == w.jobs
    assert w.head(0).jobs == 0
    with pytest.raises(ValueError, match="exceeds"):
        w.head(1001)


# -- traces ------------------------------------------------------------------------------------


def test_trace_workload_binning():
    t = np.array([3.0, 1.0, 1.5, 7.9])  # unsorted on purpose
    s = np.array([0.1, 0.2, 0.3, 0.4])
    d = np.array([0.2, 2.5, 3.0, 0.0])
    w = trace_workload(t, s, d, slot_length=1.0)
    # sorted by time, shifted so the first arrival is slot 0: times 0, 0.5, 2, 6.9
    np.testing.assert_array_equal(w.arrival, [0, 0, 2, 6])
    np.testing.assert_array_equal(w.sizes(), [0.2, 0.3, 0.1, 0.4])
    np.testing.assert_array_equal(w.service, [3, 3, 1, 1])  # ceil, at least one slot
    assert w.horizon == 7.0 and w.slotted


def test_trace_workload_traffic_scaling_divides_times():
    t = np.array([0.0, 1.0, 2.5, 4.0, 9.0])
    s = np.full(5, 0.5)
    d = np.full(5, 2.0)
    w = trace_workload(t, s, d, slot_length=0.5, traffic_scaling=2.0)
    # times / 2 = 0, 0.5, 1.25, 2, 4.5 -> slots of 0.5: 0, 1, 2, 4, 9
    np.testing.assert_array_equal(w.arrival, [0, 1, 2, 4, 9])
    np.testing.assert_array_equal(w.service, [4] * 5)  # service is not scaled
    assert w.horizon == 10.0
    w1 = trace_workload(t, s, d, slot_length=0.5)
    assert w1.horizon == 19.0


@pytest.mark.parametrize(("kw", "match"), [
    ({"slot_length": 0.0}, "slot_length must be positive"),
    ({"slot_length": 1.0, "traffic_scaling": 0.0}, "traffic_scaling must be positive"),
    ({"slot_length": float("nan")}, "slot_length must be positive"),
])
def test_trace_workload_validation(kw, match):
    with pytest.raises(ValueError, match=match):
        trace_workload([0.0, 1.0], [0.5, 0.5], [1.0, 1.0], **kw)


def test_trace_workload_bad_records():
    with pytest.raises(ValueError, match="finite"):
        trace_workload([0.0, np.nan], [0.5, 0.5], [1.0, 1.0], slot_length=1.0)
    with pytest.raises(ValueError, match="finite"):
        trace_workload([0.0, 1.0], [0.5, 0.5], [1.0, np.inf], slot_length=1.0)
    with pytest.raises(ValueError, match="demands must be positive"):
        trace_workload([0.0, 1.0], [0.5, -0.5], [1.0, 1.0], slot_length=1.0)
    with pytest.raises(ValueError, match="equal length"):
        trace_workload([0.0, 1.0], [0.5], [1.0, 1.0], slot_length=1.0)


def test_trace_workload_rejects_negative_service():
    with pytest.raises(ValueError, match="service"):
        trace_workload([0.0, 1.0], [0.5, 0.5], [1.0, -3.0], slot_length=1.0)


@pytest.fixture(scope="module")
def google():
    return google2011_workload()


def test_google2011_workload(google):
    w = google
    assert w.jobs > 10_000 and w.slotted
    s = w.sizes()
    assert np.all(s > 0) and np.all(s <= 1)
    assert w.service.min() >= 1
    assert w.arrival[0] == 0 and np.all(np.diff(w.arrival) >= 0)
    assert w.horizon == w.arrival[-1] + 1
    assert w.meta["slot_length"] == 0.1


def test_google2011_traffic_scaling(google):
    w2 = google2011_workload(traffic_scaling=2.0)
    assert w2.jobs == google.jobs
    # halving every time halves every slot index (division by 2 is exact in floats)
    np.testing.assert_array_equal(w2.arrival, google.arrival // 2)
    np.testing.assert_array_equal(w2.service, google.service)
