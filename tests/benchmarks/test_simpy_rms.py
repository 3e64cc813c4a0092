"""The SimPy model of RMS (``benchmarks/simpy_rms.py``) against the event-driven
simulators: the same scheduling stream must give the same trajectory (PG18 Algorithm 1).
"""

from __future__ import annotations

import numpy as np
import pytest

import policies as P
from benchmarks.simpy_rms import (
    ARRIVAL,
    DEPARTURE,
    TICK,
    After,
    At,
    Environment,
    simulate_simpy_rms,
)
from theory.instances import EC2_TABLE_I

FIG1B = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])
EC2 = P.JobTypes(EC2_TABLE_I.sizes())  # PG18 Table I


def _compiled():
    def simulate_compiled(*args, **kw):
        return P.simulate_continuous(*args, engine="compiled", **kw)
    return simulate_compiled


def _reference(types, cluster, w, *, horizon, clock_rates, epsilon=0.1, seed=0):
    r = P.simulate_continuous(P.make_policy("rms", clock_rates=clock_rates, epsilon=epsilon),
                              w, cluster, types, horizon=horizon, seed=seed)
    assert r.invariants_ok, r.invariants
    return r


def _engines():
    out = [pytest.param(P.simulate_continuous, id="python")]
    sim = _compiled()
    out.append(pytest.param(sim, id="compiled", marks=pytest.mark.skipif(
        sim is None, reason="the compiled engine is not available")))
    return out


def _differences(res, simpy_out) -> list[str]:
    """Names of the fields where an engine result and the SimPy model disagree."""
    bad = [k for k in ("start", "server", "finish")
           if not np.array_equal(np.asarray(getattr(res, k)), simpy_out[k], equal_nan=True)]
    return bad + [k for k in ("ticks", "dummy_placements", "events")
                  if int(getattr(res, k)) != simpy_out[k]]


def _fig1b(horizon=60.0, seed=1):
    C = P.Cluster.identical(10, 10.0)
    return C, P.poisson_type_workload(FIG1B, [20.8, 10.4], horizon, seed=seed)


def _ec2(horizon=150.0, seed=3):
    C = P.Cluster.identical(5, [float(c) for c in EC2_TABLE_I.capacity()])
    lam = P.rates_for_intensity(EC2, C, 0.9)
    return C, P.poisson_type_workload(EC2, lam, horizon, seed=seed)


CASES = {
    # (a) PG18 Fig. 1(b) sizes 2 and 5 on 10 servers of capacity 10, clocks of rate L
    "fig1b": (FIG1B, _fig1b, 60.0, 10.0),
    "fig1b-unequal-clocks": (FIG1B, _fig1b, 60.0, [20.8, 10.4]),
    # (b) the three EC2 types of PG18 Table I on 5 servers at intensity 0.9
    "ec2": (EC2, _ec2, 150.0, 5.0),
}


@pytest.mark.parametrize("engine", _engines())
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("seed", [0, 11])
def test_simpy_model_and_engines_give_the_same_trajectory(case, seed, engine):
    types, make, horizon, clocks = CASES[case]
    C, w = make(horizon)
    slow = simulate_simpy_rms(types, C, w, horizon=horizon, clock_rates=clocks, seed=seed)
    res = engine(P.make_policy("rms", clock_rates=clocks), w, C, types, horizon=horizon,
                 seed=seed)
    assert res.ticks > 100 and res.dummy_placements > 0  # both mechanisms exercised
    assert np.isfinite(slow["finish"]).sum() > 0.5 * w.jobs  # jobs actually get served
    assert _differences(res, slow) == []


def test_the_comparison_can_fail():
    """A different epsilon (weights, eq. (4)), clock rate or seed gives a different
    trajectory: the equality above is not vacuous."""
    types, make, horizon, clocks = CASES["ec2"]
    C, w = make(horizon)
    ref = _reference(types, C, w, horizon=horizon, clock_rates=clocks, seed=5)
    assert _differences(ref, simulate_simpy_rms(types, C, w, horizon=horizon,
                                                clock_rates=clocks, seed=5)) == []
    for kw in ({"epsilon": 0.5}, {"clock_rates": 5.5}, {"seed": 6}):
        args = {"clock_rates": clocks, "seed": 5, **kw}
        other = simulate_simpy_rms(types, C, w, horizon=horizon, **args)
        assert {"start", "server", "finish"} <= set(_differences(ref, other)), kw


def test_equal_arrival_times_and_deterministic_service():
    """Arrivals in batches at integer times and deterministic service (ties between
    arrivals: handled in job order in both)."""
    types = P.JobTypes([[2.0], [5.0]], service=P.ServiceTime("deterministic", 1.5))
    rng = np.random.default_rng(4)
    arrival = np.sort(rng.integers(0, 40, 600)).astype(float)
    jt = rng.integers(0, 2, 600)
    w = P.Workload(arrival, types.sizes[jt], np.full(600, 1.5), 40.0, job_type=jt)
    C = P.Cluster.identical(4, 10.0)
    ref = _reference(types, C, w, horizon=40.0, clock_rates=[6.0, 3.0], seed=2)
    slow = simulate_simpy_rms(types, C, w, horizon=40.0, clock_rates=[6.0, 3.0], seed=2)
    assert _differences(ref, slow) == []
    assert np.array_equal(ref.finish[ref.finish < 40], ref.start[ref.finish < 40] + 1.5)


def test_absolute_times_are_hit_exactly():
    """``now + (t - now)`` misses t here (and no delay reaches it: the sum rounds half
    to even); ``At`` fires at t exactly, before a tick scheduled for the same time."""
    now, t = 8.450357937227178, 48.49718908265604
    assert now + (t - now) != t
    env = Environment(initial_time=now)
    seen = []

    def proc(kind, make):
        yield make()
        seen.append((kind, env.now))

    env.process(proc("tick", lambda: After(env, t - now, TICK)))
    env.process(proc("arrival", lambda: At(env, t, ARRIVAL)))
    env.process(proc("departure", lambda: At(env, t, DEPARTURE)))
    env.run()
    assert seen[:2] == [("departure", t), ("arrival", t)] and seen[2][0] == "tick"
    with pytest.raises(ValueError):
        At(env, 1.0, ARRIVAL)


def test_bad_input():
    C, w = _fig1b(10.0)
    with pytest.raises(ValueError):
        simulate_simpy_rms(FIG1B, C, w, horizon=20.0, clock_rates=10.0)
    with pytest.raises(ValueError):
        simulate_simpy_rms(FIG1B, C, w, horizon=5.0, clock_rates=[1.0, 0.0])
    with pytest.raises(ValueError):
        simulate_simpy_rms(FIG1B, C, w, horizon=5.0, clock_rates=1.0, epsilon=1.0)
