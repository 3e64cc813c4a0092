"""The compiled PG18 engine against the plain-Python reference: equal trajectories."""

from __future__ import annotations

import numpy as np
import pytest

import policies as P
from policies.registry import policies_of
from theory.instances import EC2_TABLE_I

FIG1B = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
EC2 = P.JobTypes(EC2_TABLE_I.sizes())  # PG18 Table I


def simulate_compiled(*args, **kw):
    return P.simulate_continuous(*args, engine="compiled", **kw)


def supports_compiled(policy) -> bool:
    """Whether the policy declares a compiled path (its ``compiled_spec``)."""
    return policy.compiled_spec(FIG1B, P.Cluster.identical(2, 10.0)) is not None

COMPILED = [n for n in policies_of("pg18-continuous")
            if supports_compiled(P.make_policy(n))]


def _fields(a, b) -> list[str]:
    """Names of the fields where two results differ (trajectory and metrics)."""
    bad = [k for k in ("start", "server", "finish", "queue_by_type", "dummy_log")
           if not np.array_equal(getattr(a, k), getattr(b, k), equal_nan=True)]
    bad += [k for k in ("ticks", "dummy_placements", "events") if getattr(a, k) != getattr(b, k)]
    for k in ("mean_queue", "mean_queue_by_type", "dummy_fraction", "busy_fraction"):
        if not np.allclose(getattr(a, k), getattr(b, k), rtol=1e-9, atol=1e-12):
            bad.append(k)
    return bad


def _both(name, types, cluster, w, horizon, seed=0, **kw):
    ref = P.simulate_continuous(P.make_policy(name, **kw), w, cluster, types, horizon=horizon,
                                seed=seed, engine="python")
    fast = simulate_compiled(P.make_policy(name, **kw), w, cluster, types, horizon=horizon,
                             seed=seed)
    assert ref.invariants_ok and fast.invariants_ok
    return ref, fast


def test_every_rms_and_bf_name_is_compiled():
    assert {"rms", "rms-jsq", "rms-po2", "rms-rf-ad-plus", "rms-bf-ad", "bf", "bf-fifo",
            "bf-largest"} <= set(COMPILED)
    assert not supports_compiled(P.make_policy("mws"))
    assert not supports_compiled(P.make_policy("mwr"))


@pytest.mark.parametrize("name", COMPILED)
@pytest.mark.parametrize("case", ["fig1b", "ec2-heterogeneous"])
def test_same_trajectory_as_the_python_engine(name, case):
    if case == "fig1b":
        types, C = FIG1B, P.Cluster.identical(10, 10.0)
        w = P.poisson_type_workload(types, [20.8, 10.4], 120.0, seed=1)
    else:  # two server shapes, PG18 Table I types
        types = EC2
        C = P.Cluster([[90.0, 90.0, 5000.0]] * 3 + [[60.0, 120.0, 4000.0]] * 2)
        w = P.poisson_type_workload(types, P.rates_for_intensity(types, C, 0.95), 120.0, seed=2)
    ref, fast = _both(name, types, C, w, 120.0, seed=7)
    assert ref.events > 1000
    assert _fields(ref, fast) == []


@pytest.mark.parametrize("law", [P.ServiceTime("deterministic", 1.0),
                                 P.ServiceTime("hyperexponential", 1.0, scv=4.0),
                                 P.ServiceTime("pareto", 1.0, alpha=2.5)])
@pytest.mark.parametrize("name", ["rms-plus", "rms-rf-ad", "rms-jsq", "bf-fifo"])
def test_same_trajectory_under_general_service_laws(name, law):
    """PG18 Sec. IX: dummies draw from the law too; deterministic service makes many
    equal departure times (placement order breaks the ties in both engines)."""
    types = P.JobTypes([[2.0], [5.0]], service=law)
    C = P.Cluster.identical(6, 10.0)
    w = P.poisson_type_workload(types, [10.0, 5.0], 150.0, seed=3)
    ref, fast = _both(name, types, C, w, 150.0, seed=4)
    assert _fields(ref, fast) == []


def test_batches_at_equal_times_and_fixed_weights():
    """Arrivals in batches at integer times; RMS-bar (fixed weights, Definition 2) and
    f = log^(1-b) (Theorem 1)."""
    rng = np.random.default_rng(5)
    types = P.JobTypes([[2.0], [5.0]], service=P.ServiceTime("deterministic", 1.5))
    arrival = np.sort(rng.integers(0, 60, 900)).astype(float)
    jt = rng.integers(0, 2, 900)
    w = P.Workload(arrival, types.sizes[jt], np.full(900, 1.5), 60.0, job_type=jt)
    C = P.Cluster.identical(4, 10.0)
    for kw in ({"weights": [1.0, 2.5]}, {"f": "log-power", "b": 0.3}):
        ref, fast = _both("rms-ad", types, C, w, 60.0, seed=9, **kw)
        assert _fields(ref, fast) == [], kw


def test_the_comparison_can_fail():
    """Another seed, or another policy on the same seed, gives other trajectories."""
    C = P.Cluster.identical(10, 10.0)
    w = P.poisson_type_workload(FIG1B, [20.8, 10.4], 60.0, seed=1)
    ref = P.simulate_continuous(P.make_policy("rms"), w, C, FIG1B, horizon=60.0, seed=3,
                                engine="python")
    for other in (simulate_compiled(P.make_policy("rms"), w, C, FIG1B, horizon=60.0, seed=4),
                  simulate_compiled(P.make_policy("rms-plus"), w, C, FIG1B, horizon=60.0,
                                    seed=3)):
        assert {"start", "server"} <= set(_fields(ref, other))


def test_auto_engine_and_engine_choice():
    C = P.Cluster.identical(4, 10.0)
    w = P.poisson_type_workload(FIG1B, [8.0, 4.0], 50.0, seed=1)
    auto = P.simulate_continuous(P.make_policy("rms-rf"), w, C, FIG1B, seed=2)
    fast = simulate_compiled(P.make_policy("rms-rf"), w, C, FIG1B, seed=2)
    assert _fields(auto, fast) == []
    # MaxWeight and subclasses run on the Python engine; "compiled" refuses them
    assert P.simulate_continuous(P.make_policy("mws"), w, C, FIG1B, seed=2).invariants_ok
    with pytest.raises(ValueError, match="compiled engine runs the built-in RMS and Best-Fit"):
        P.simulate_continuous(P.make_policy("mws"), w, C, FIG1B, engine="compiled")

    class Plain(P.RMS):  # redefines no hook: the kernel runs it, same trajectory
        pass

    assert supports_compiled(Plain())
    assert _fields(P.simulate_continuous(Plain(), w, C, FIG1B, seed=2, engine="python"),
                   P.simulate_continuous(Plain(), w, C, FIG1B, seed=2)) == []

    class Custom(P.RMS):  # its own tick hook: only the Python engine calls it
        ticks = 0

        def on_tick(self, state):
            type(self).ticks += 1
            super().on_tick(state)

    assert not supports_compiled(Custom())
    r = P.simulate_continuous(Custom(), w, C, FIG1B, seed=2)
    assert r.params["engine"] == "python" and Custom.ticks == r.ticks > 0
    with pytest.raises(ValueError, match="compiled engine runs the built-in RMS and Best-Fit"):
        P.simulate_continuous(Custom(), w, C, FIG1B, engine="compiled")

    class Weighted(P.RMS):  # a helper the kernel inlines counts as a hook too
        def weights(self, state, row=0):
            return super().weights(state, row)

    assert not supports_compiled(Weighted())
    with pytest.raises(ValueError, match="engine must be one of"):
        P.simulate_continuous(P.make_policy("rms"), w, C, FIG1B, engine="numba")


def test_bad_input_is_refused_before_compiling():
    C = P.Cluster.identical(4, 10.0)
    w = P.poisson_type_workload(FIG1B, [8.0, 4.0], 50.0, seed=1)
    with pytest.raises(ValueError, match="horizon"):
        simulate_compiled(P.make_policy("rms"), w, C, FIG1B, horizon=-1.0)
    with pytest.raises(ValueError, match="clock"):
        simulate_compiled(P.make_policy("rms", clock_rates=[1.0, 0.0]), w, C, FIG1B)
