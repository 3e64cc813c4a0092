"""Every argument of the PG18 continuous-time library is checked and named, budgets are
estimated before allocation and name a keyword that works, and parameters a law or policy
does not use are refused rather than ignored."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import policies as P
import policies.footprint
from policies.continuous import RMS, BestFit, MaxWeightServers
from policies.continuous.rms import max_jobs_per_server
from theory.budgets import BudgetExceeded

FIG1B = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
ENGINES = ("python", "compiled")


def _small(policy=None, **kw):
    w = P.poisson_type_workload(FIG1B, [1.0, 1.0], 10.0, seed=0)
    return P.simulate_continuous(policy or RMS(), w, P.Cluster.identical(2, 10.0), FIG1B,
                                 **kw)


def _same_run(a, b):
    for f in ("start", "server", "finish", "queue_by_type", "dummy_log"):
        assert np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True), f
    assert (a.ticks, a.dummy_placements, a.events) == (b.ticks, b.dummy_placements, b.events)


# -- a demand tiny against the capacity (once a knapsack RuntimeError) -------------------


@pytest.mark.parametrize("sizes, capacity, M", [
    ([[1e-7], [4.0]], [8.0], 80_000_000),                 # once a RuntimeError
    ([[2e-6, 1e-6], [4.0, 4.0]], [8.0, 8.0], 4_000_000),  # two resources, one binding
])
@pytest.mark.parametrize("name", ["rms", "rms-bf", "bf"])
def test_tiny_demands_are_simulated(sizes, capacity, M, name):
    """``packsched simulate --policy rms --sizes "1e-7;4" --capacity 8 --servers 2
    --rates 1,1 --time 10`` ended in "knapsack search exceeded its node budget"."""
    types = P.JobTypes(sizes)
    C = P.Cluster.identical(2, capacity)
    w = P.poisson_type_workload(types, [1.0, 1.0], 10.0, seed=0)
    runs = [P.simulate_continuous(P.make_policy(name), w, C, types, seed=0, engine=e)
            for e in ENGINES]
    _same_run(*runs)
    assert runs[0].invariants_ok and runs[0].jobs > 0
    if name != "bf":
        assert runs[0].params["M"] == M


def test_M_beyond_the_search_is_the_closed_form():
    """Where the exact search still works, the closed form gives the same M."""
    from policies.continuous.rms import _most_copies

    for sizes, cap in (([[1e-5], [4.0]], [8.0]), ([[3e-3], [0.7]], [1.0]),
                       ([[2e-5, 1e-5], [4.0, 4.0]], [8.0, 8.0])):
        s, c = np.array(sizes), np.array(cap)
        assert _most_copies(s, c) == max_jobs_per_server(s, c[None, :])


def test_tiny_demands_refused_where_no_exact_answer():
    """MaxWeight's oracle cannot search 8e7 copies, and M with two resources is not
    decided by a single type: refused up front, with the type and why."""
    types = P.JobTypes([[1e-7], [4.0]])
    C = P.Cluster.identical(2, 8.0)
    w = P.poisson_type_workload(types, [1.0, 5.0], 10.0, seed=0)
    for name in ("mws", "mwr"):
        with pytest.raises(ValueError, match=r"type 0 \(demand \[1e-07\]\) fits about 8e\+07 "
                                             r"times .* at most 2,000,000 copies"):
            P.simulate_continuous(P.make_policy(name), w, C, types)
    mixed = P.JobTypes([[1e-7, 2e-7], [2e-7, 1e-7]])
    C2 = P.Cluster.identical(2, [8.0, 8.0])
    w2 = P.poisson_type_workload(mixed, [1.0, 1.0], 10.0, seed=0)
    with pytest.raises(ValueError, match=r"M of PG18 Sec. II .* \[40,000,000, 53,333,333\]"):
        P.simulate_continuous(RMS(), w2, C2, mixed)


# -- arguments: types, ranges, names ------------------------------------------------------


@pytest.mark.parametrize("kwargs, match", [
    ({"horizon": "5"}, r"^horizon must be"),
    ({"horizon": True}, r"^horizon must be"),
    ({"warmup": True}, r"^warmup must be"),
    ({"check": "no"}, r"^check must be True or False"),
    ({"samples": 1.7}, r"^samples must be an integer >= 2, got 1.7"),
    ({"max_ticks": float("nan")}, r"^max_ticks must be a positive number"),
    ({"max_ticks": "5"}, r"^max_ticks must be a positive number"),
    ({"memory_budget": 0}, r"^memory_budget must be a positive number"),
    ({"engine": ["auto"]}, r"^engine must be one of"),
])
@pytest.mark.parametrize("engine", ENGINES)
def test_simulate_arguments_are_checked(kwargs, match, engine):
    with pytest.raises(ValueError, match=match):
        _small(**{"engine": engine, **kwargs})


def test_a_numpy_integer_is_a_sample_count():
    assert _small(samples=np.int64(100)).queue.size == 100


@pytest.mark.parametrize("make, match", [
    (lambda: P.Cluster([["8"]]), r"^capacity must be .* got the entry '8'"),
    (lambda: P.Cluster([[True]]), r"^capacity must be .* got the entry True"),
    (lambda: P.Cluster([[1.0, 2.0], [3.0]]), r"^capacity must be .*rows of equal length"),
    (lambda: P.Cluster([[0.0]]), r"^capacity must be positive and finite, got 0.0"),
    (lambda: P.JobTypes([["2"], [5.0]]), r"^sizes must be .* got the entry '2'"),
    (lambda: P.JobTypes([[2.0], [5.0]], service=5), r"^service must be a ServiceTime"),
    (lambda: P.JobTypes([[2.0], [5.0]], names=5), r"^names must be a list"),
    (lambda: P.JobTypes([[2.0], [5.0]], mu=1e-320), r"^mu must be at least"),
    (lambda: P.ServiceTime(["exponential"]), r"^law must be one of"),
    (lambda: P.ServiceTime("exponential", "1"), r"^mean must be a positive number"),
    (lambda: P.poisson_type_workload(FIG1B, [1.0, True], 10.0), r"^rates\[1\] must be"),
    (lambda: P.poisson_type_workload(FIG1B, [1e308, 1e308], 10.0), r"^rates x horizon"),
    (lambda: P.poisson_type_workload(FIG1B, [1.0, 1.0], "10"), r"^horizon must be"),
    (lambda: P.poisson_type_workload(FIG1B, [1.0, 1.0], 10.0, servers=-1), r"^servers must"),
    (lambda: P.rates_for_intensity(FIG1B, P.Cluster.identical(2, 10.0), "0.5"),
     r"^intensity must be"),
    (lambda: RMS(f=["log"]), r"^f must be one of 'log', 'log-power'"),
    (lambda: RMS(adaptive="yes"), r"^adaptive must be True or False"),
    (lambda: RMS(clock_rates="2"), r"^clock_rates must be"),
    (lambda: RMS(weights=["a", 2.0]), r"^weights must be"),
    (lambda: BestFit(order=["type"]), r"^order must be one of"),
    (lambda: MaxWeightServers(cache_size="x"), r"^cache_size must be a positive integer"),
])
def test_bad_values_are_named(make, match):
    with pytest.raises(ValueError, match=match) as e:
        make()
    assert "Error" not in str(e.value) and "()" not in str(e.value)


def test_huge_clock_rates_are_refused_without_a_warning():
    with pytest.raises(ValueError, match="clock_rates x clock_scale overflow"):
        _small(RMS(clock_rates=1e300, clock_scale=1e300))


# -- parameters a law or a weight function does not use -------------------------------


@pytest.mark.parametrize("kwargs, match", [
    ({"law": "hyperexponential", "scv": 1e300}, r"^scv of a hyperexponential law must lie "
                                                r"in \(1, 1e\+06\], got 1e\+300"),
    ({"law": "hyperexponential", "scv": 1e7}, r"^scv of a hyperexponential law"),
    ({"law": "hyperexponential", "scv": float("nan")}, r"^scv of a hyperexponential law"),
    ({"law": "exponential", "scv": 2.0}, r"^scv is a parameter of the hyperexponential law "
                                         r"only; the exponential law does not use it"),
    ({"law": "pareto", "scv": 2.0}, r"^scv is a parameter of the hyperexponential"),
    ({"law": "deterministic", "alpha": 2.0}, r"^alpha is a parameter of the pareto law"),
    ({"law": "pareto", "alpha": float("inf")}, r"^alpha of a pareto law must lie"),
])
def test_service_law_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        P.ServiceTime(mean=1.0, **kwargs)


def test_service_law_defaults_are_kept():
    assert P.ServiceTime("hyperexponential", 1.0) == P.ServiceTime("hyperexponential", 1.0,
                                                                  scv=4.0)
    assert P.ServiceTime("pareto", 1.0).parameter == 2.5
    law = P.ServiceTime("hyperexponential", 1.0, scv=1e6)
    assert np.isfinite(law.from_uniform(np.array([0.0, 0.5, 1 - 2**-53]))).all()


@pytest.mark.parametrize("make, match", [
    (lambda: P.make_policy("rms", f="log", b=0.3), r"^b is the exponent of f='log-power'"),
    (lambda: RMS(b=0.3), r"^b is the exponent of f='log-power'"),
    (lambda: RMS(f="log", b=0.5), r"^b is the exponent of f='log-power'"),
    (lambda: RMS(weights=[1.0, 2.0], f="log", b=0.2), r"^b is the exponent"),
])
def test_weight_parameters_that_would_be_ignored_are_refused(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_log_power_still_takes_b():
    assert RMS(f="log-power", b=0.3).b == 0.3
    assert _small(RMS(f="log-power", b=0.3)).params["b"] == 0.3


# -- max_ticks on a policy without clocks -----------------------------------------------


@pytest.mark.parametrize("name", ["bf", "bf-fifo", "mws"])
def test_max_ticks_is_refused_without_clocks(name):
    w = P.poisson_type_workload(FIG1B, [1.0, 1.0], 10.0, seed=0)
    C = P.Cluster.identical(2, 10.0)
    with pytest.raises(ValueError, match=rf"^max_ticks bounds .* {name} has no clock"):
        P.simulate_continuous(P.make_policy(name), w, C, FIG1B, max_ticks=1e6)
    assert P.simulate_continuous(P.make_policy(name), w, C, FIG1B).ticks == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_max_ticks_still_bounds_clocks(engine):
    with pytest.raises(BudgetExceeded) as e:
        _small(max_ticks=5, engine=engine)
    assert e.value.option == "max_ticks"
    assert _small(max_ticks=1e6, engine=engine).ticks > 0


# -- memory budgets -------------------------------------------------------------------------


@pytest.mark.parametrize("samples", [10**13, 10**12])
@pytest.mark.parametrize("engine", ENGINES)
def test_samples_beyond_memory_are_refused(samples, engine):
    """``--samples 1e12`` and ``samples=10**13`` ended in MemoryError."""
    with pytest.raises(BudgetExceeded, match="queue samples") as e:
        _small(samples=samples, engine=engine)
    assert e.value.option == "memory_budget"


@pytest.mark.parametrize("engine", ENGINES)
def test_memory_budget_is_a_keyword_of_the_run(engine):
    with pytest.raises(BudgetExceeded) as e:
        _small(memory_budget=10_000, engine=engine)
    assert e.value.option == "memory_budget" and "budget of 9.77 KiB" in str(e.value)
    assert _small(memory_budget=10**8, engine=engine).invariants_ok


def test_workload_estimate_counts_the_resources():
    """600 resources per job: the demand rows alone are 4.8 KB a job."""
    wide = P.JobTypes([[1.0] * 600, [2.0] * 600])
    with pytest.raises(BudgetExceeded) as e:
        P.poisson_type_workload(wide, [100.0, 100.0], 100.0, memory_budget=100 * 2**20)
    assert e.value.option == "memory_budget"
    assert P.poisson_type_workload(wide, [1.0, 1.0], 10.0, memory_budget=100 * 2**20).jobs


@pytest.mark.parametrize("engine", ENGINES)
def test_dummy_jobs_beyond_the_budget_stop_the_run(engine):
    """RMS-bar with large fixed weights keeps dummies in service: the dummy log, known
    only as the run goes, is stopped at the budget."""
    from policies.continuous import footprint

    w = P.poisson_type_workload(FIG1B, [0.5, 0.5], 200.0, seed=0)
    C = P.Cluster.identical(4, 10.0)
    full = P.simulate_continuous(RMS(weights=[5.0, 5.0]), w, C, FIG1B, engine=engine)
    assert full.dummy_placements > 200
    static = footprint.run_bytes(jobs=w.jobs, samples=4000, types=2, resources=1, servers=4,
                                 rows=1, slots=64)
    budget = static + 100 * (footprint.DUMMY_BYTES + footprint.JOB_RESOURCE_BYTES)
    with pytest.raises(BudgetExceeded, match=r"placed more than \d+ dummy jobs") as e:
        P.simulate_continuous(RMS(weights=[5.0, 5.0]), w, C, FIG1B, engine=engine,
                              memory_budget=budget)
    assert e.value.option == "memory_budget"


def test_compiled_engine_reruns_when_ticks_pass_their_quantile(monkeypatch):
    """The compiled engine sizes its records by jobs + a high quantile of the ticks; if a
    run needs more it runs again from the same random state (a caller's Generator
    included) with room for any run: the trajectory is the Python engine's."""
    from policies.continuous import _kernel

    w = P.poisson_type_workload(FIG1B, [0.05, 0.05], 40.0, seed=2)
    C = P.Cluster.identical(3, 10.0)
    ref_rng = np.random.default_rng(11)
    ref = P.simulate_continuous(RMS(weights=[3.0, 3.0]), w, C, FIG1B, seed=ref_rng,
                                engine="python")
    calls = []
    kernel = _kernel.run_kernel

    def spy(*args):
        calls.append(args[-3])  # the record slots
        return kernel(*args)

    monkeypatch.setattr(policies.footprint, "expected_jobs_bound", lambda rate, slots: 0.0)
    monkeypatch.setattr(_kernel, "run_kernel", spy)
    rng = np.random.default_rng(11)
    fast = P.simulate_continuous(RMS(weights=[3.0, 3.0]), w, C, FIG1B, seed=rng,
                                 engine="compiled")
    assert len(calls) == 2 and calls[0] < calls[1]
    _same_run(ref, fast)
    assert fast.dummy_placements > 0 and fast.invariants_ok
    assert rng.bit_generator.state == ref_rng.bit_generator.state  # drawn once, not twice


def test_estimate_bounds_a_measured_run():
    """Peak RSS growth of a fresh process over a warm-up run is below the estimate."""
    code = (
        "import resource, policies as P\n"
        "from policies.continuous import footprint\n"
        "t0 = P.JobTypes([[2.0, 1.0], [5.0, 3.0]]); c0 = P.Cluster.identical(2, [10.0, 10.0])\n"
        "w0 = P.poisson_type_workload(t0, [1.0, 1.0], 20.0, seed=1)\n"
        "P.simulate_continuous(P.make_policy('rms'), w0, c0, t0, samples=100).summary()\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "t = P.JobTypes([[2.0, 1.0], [5.0, 3.0], [1.0, 4.0]])\n"
        "c = P.Cluster.identical(10, [10.0, 10.0])\n"
        "w = P.poisson_type_workload(t, [6.0, 3.0, 5.0], 10_000.0, seed=1)\n"
        "r = P.simulate_continuous(P.make_policy('rms'), w, c, t, samples=200_000)\n"
        "r.summary()\n"
        "used = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024\n"
        "est = footprint.run_bytes(jobs=r.jobs, samples=200_000, types=3, resources=2,"
        " servers=10, rows=1, dummies=r.dummy_placements)\n"
        "print(r.jobs, used, est)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout.split()
    jobs, used, estimate = int(out[0]), int(out[1]), float(out[2])
    print(f"{jobs} jobs: measured {used / 2**20:.0f} MiB, estimated {estimate / 2**20:.0f} MiB")
    assert jobs > 100_000 and used <= estimate, (jobs, used, estimate)


# -- a refusal names a keyword that works ---------------------------------------------------


def test_intensity_budget_is_a_keyword_that_works():
    """``--intensity`` enumerates the maximal configurations (V of PG18 Sec. VII-A); its
    refusal named --max-configurations, a keyword rates_for_intensity did not take."""
    C = P.Cluster.identical(10, 10.0)
    with pytest.raises(BudgetExceeded, match="instead of a traffic intensity") as e:
        P.rates_for_intensity(FIG1B, C, 0.9, max_configurations=2)
    assert e.value.option == "max_configurations"
    assert np.allclose(P.rates_for_intensity(FIG1B, C, 0.9, max_configurations=20),
                       P.rates_for_intensity(FIG1B, C, 0.9))
    with pytest.raises(ValueError, match="^max_configurations must be a positive integer"):
        P.rates_for_intensity(FIG1B, C, 0.9, max_configurations=0)
