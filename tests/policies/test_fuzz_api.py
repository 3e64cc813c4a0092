"""Bad arguments to the public functions of ``policies``: each call succeeds or raises
ValueError / TypeError with a message, never another exception, and returns within seconds
(a request too big is refused by its budget, not run)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import policies as P
from theory import Discrete, Uniform

BAD = st.sampled_from([
    None, True, False, 0, -1, 1, 2, 0.5, -0.5, 1e-300, 1e9, 10**12, 1e300, float("nan"),
    float("inf"), -float("inf"), "", "abc", "1", "-1", [], [1], [0.4, 0.6], (0.4,), {},
    b"x", np.int64(-3), np.float64("nan"), np.zeros((2, 2)), object(),
])
LAWS = st.sampled_from([Discrete(["0.4", "0.6"]), Uniform("0.1", "0.9"), Discrete(["0.5"])])


def _call(fn, *args, **kwargs) -> None:
    t0 = time.perf_counter()
    try:
        fn(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        assert str(exc), f"{type(exc).__name__} without a message"
    assert time.perf_counter() - t0 < 20, "a call ran for more than 20 s"


@st.composite
def workload_calls(draw: st.DrawFn) -> dict:
    kw = {"servers": 2, "slots": 2000, "mu": 0.05, "workload": 1.0, "seed": 0}
    for key in draw(st.lists(st.sampled_from(
            ["servers", "slots", "mu", "workload", "intensity", "capacity", "seed",
             "deterministic", "arrivals", "memory_budget"]), min_size=1, max_size=3,
            unique=True)):
        kw[key] = draw(BAD)
    return kw


SETTINGS = dict(deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=80, **SETTINGS)
@given(LAWS, workload_calls())
def test_pg21_workload(law, kw):
    _call(P.pg21_workload, law, **kw)


@settings(max_examples=60, **SETTINGS)
@given(st.sampled_from(["bf-js", "vqs", "vqs-bf", "fifo-ff", "maxweight", "nope"]),
       st.dictionaries(st.sampled_from(["J", "levels", "capacity", "max_configurations",
                                        "stall"]), BAD, max_size=2), LAWS)
def test_make_policy(name, kw, law):
    _call(P.make_policy, name, dist=law, **kw)


@settings(max_examples=60, **SETTINGS)
@given(BAD, BAD)
def test_cluster(servers, capacity):
    _call(P.Cluster.identical, servers, capacity)
    _call(P.Cluster, capacity)


@settings(max_examples=60, **SETTINGS)
@given(st.dictionaries(st.sampled_from(["slots", "warmup", "memory_budget", "check"]), BAD,
                       min_size=1, max_size=2))
def test_simulate(kw):
    w = P.pg21_workload(Discrete(["0.4", "0.6"]), servers=2, slots=2000, mu=0.05,
                        workload=1.0, seed=0)
    _call(P.simulate, P.BFJS(), w, P.Cluster.identical(2), **kw)


@settings(max_examples=60, **SETTINGS)
@given(BAD, BAD)
def test_judge_and_seeds(series, n):
    _call(P.judge_stability, series)
    _call(P.judge_stability, np.ones(100), arrival_work_rate=n)
    _call(P.spawn_seeds, series, n)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LAWS, workload_calls())
def test_pg21_workload_long(law, kw):
    _call(P.pg21_workload, law, **kw)
