"""The run contract (docs/design.md, "The run contract"): one entry point,
``policies.run``, and one result base for the four model families."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import policies as P
from policies.invariants import InvariantReport
from policies.result import RESULT_SCHEMA, RunResult
from theory import Cluster, JobSet, Machines, Uniform

COMMON = ["schema", "policy", "family", "status", "stop_reason", "seed", "seconds",
          "invariants_ok", "invariants", "params"]
FIG1B = P.JobTypes([[2.0], [5.0]], mu=[1.0, 1.0])


def _jobs(n=12, seed=0):
    rng = np.random.default_rng(seed)
    return JobSet(np.sort(rng.integers(0, 6, n)), rng.integers(1, 5, n),
                  rng.integers(1, 3, (n, 1)))


def _cases():
    """(policy, workload, cluster, options) of one built-in per family."""
    slotted = P.slotted_workload(Uniform("0.1", "0.9"), P.PoissonArrivals(1.0),
                                 P.GeometricService(0.2), 400, seed=1)
    typed = P.poisson_type_workload(FIG1B, [2.0, 1.0], 60.0, seed=2)
    unit = JobSet(np.sort(np.random.default_rng(3).random(20) * 5),
                  np.random.default_rng(4).random(20) + 0.5,
                  np.random.default_rng(5).random((20, 2)) * 0.5 + 0.05)
    return {
        "pg21-slotted": ("bf-js", slotted, Cluster.identical(3), {}),
        "pg18-continuous": ("rms", typed, Cluster.identical(4, 10.0), {"types": FIG1B}),
        "xll21-preemptive": ("srpt", _jobs(), Machines([[4], [2]]), {}),
        "fl24-nonpreemptive": ("pq-wsjf", unit, Cluster.identical(2, [1.0, 1.0]), {}),
    }


CASES = _cases()


@pytest.mark.parametrize("family", list(CASES))
def test_run_gives_every_family_the_one_result_contract(family):
    name, workload, cluster, options = CASES[family]
    r = P.run(name, workload, cluster, **options)
    assert isinstance(r, RunResult) and r.family == family and r.policy == name
    assert r.status == "finished" and r.stop_reason is None
    assert isinstance(r.invariants, InvariantReport) and r.invariants.ok
    assert r.invariants_ok is True
    s = r.summary()
    assert list(s)[:len(COMMON)] == COMMON
    assert s["schema"] == RESULT_SCHEMA and s["family"] == family
    assert s["invariants"] == r.invariants.as_dict()
    assert set(s["invariants"]) == {"ok", "violations", "max_load_ratio", "checked"}
    json.dumps(r.to_dict(), allow_nan=False)  # JSON-ready: no NaN, no numpy, no Fraction
    assert r.to_dict()["policy"] == name
    for kind in r.frames:
        frame = r.to_frame(kind)
        assert len(frame) > 0 and frame.columns.is_unique
    assert r.to_frame().equals(r.to_frame(r.frames[0]))
    with pytest.raises(ValueError, match="has the frames"):
        r.to_frame("nope")
    text = repr(r)
    assert len(text) < 200 and "invariants ok" in text and name in text
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.invariants = None  # type: ignore[misc]


@pytest.mark.parametrize("family", list(CASES))
def test_an_unchecked_run_says_so(family):
    name, workload, cluster, options = CASES[family]
    r = P.run(name, workload, cluster, check=False, **options)
    assert r.invariants is None and r.invariants_ok is None
    assert r.summary()["invariants"] is None and "invariants unchecked" in repr(r)


def test_the_jobs_frame_has_one_row_per_job():
    name, jobs, machines, _ = CASES["xll21-preemptive"]
    assert len(P.run(name, jobs, machines).to_frame("jobs")) == jobs.n
    name, w, cluster, options = CASES["pg18-continuous"]
    assert len(P.run(name, w, cluster, **options).to_frame("jobs")) == w.jobs


def test_run_is_the_family_engine():
    """The same result as the family's own function, field for field."""
    name, w, cluster, _ = CASES["pg21-slotted"]
    a = P.run(name, w, cluster)
    b = P.simulate(P.make_policy(name), w, cluster)
    assert np.array_equal(a.start, b.start) and np.array_equal(a.server, b.server)
    name, w, cluster, options = CASES["pg18-continuous"]
    a = P.run(P.make_policy(name), w, cluster, seed=7, **options)
    b = P.simulate_continuous(P.make_policy(name), w, cluster, FIG1B, seed=7)
    assert np.array_equal(a.finish, b.finish, equal_nan=True) and a.seed == 7 == b.seed


def test_workloads_and_job_sets_convert():
    """A finite job set runs in the slotted model, a slotted workload in XLL21's."""
    jobs = JobSet([0, 0, 1, 3], [2, 1, 3, 1], [[0.5], [0.4], [0.7], [0.2]])
    r = P.run("bf-j", jobs, Cluster.identical(1))
    assert r.family == "pg21-slotted" and r.started == 4
    assert r.slots == 1 + int(np.max(jobs.arrival + jobs.processing))
    w = P.Workload.from_job_set(jobs)
    assert np.array_equal(w.to_job_set().processing, jobs.processing)
    whole = JobSet([0, 1, 1], [2, 2, 1], [[2], [1], [1]])
    s = P.run("srpt", P.Workload.from_job_set(whole), Machines([[2]]))
    assert s.family == "xll21-preemptive"
    assert np.array_equal(s.completion, P.run("srpt", whole, Machines([[2]])).completion)
    with pytest.raises(ValueError, match="sort the job set by arrival"):
        P.Workload.from_job_set(JobSet([2, 0], [1, 1], [[1], [1]]))


def test_run_refuses_what_it_cannot_run():
    name, jobs, machines, _ = CASES["xll21-preemptive"]
    with pytest.raises(ValueError, match="deterministic"):
        P.run(name, jobs, machines, seed=3)
    with pytest.raises(TypeError, match="policy must be a policy"):
        P.run(object(), jobs, machines)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cluster must be a theory.Cluster"):
        P.run(name, jobs, [[4]])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="types="):
        P.run("rms", CASES["pg18-continuous"][1], Cluster.identical(2, 10.0))
    with pytest.raises(ValueError, match="job types"):
        P.run("rms", jobs, Cluster.identical(2, 10.0), types=FIG1B)
    with pytest.raises(TypeError, match="unexpected keyword"):
        P.run(name, jobs, machines, horizon=3)


def test_machines_and_cluster_are_one_class():
    assert Machines is Cluster
    c = Cluster([[64, 128], [16, 32]], ids=["big", "small"])
    assert c.m == c.servers == 2 and c.ids == ("big", "small")
    assert c.total().tolist() == [80.0, 160.0] and not c.homogeneous


def test_run_knows_every_family_of_the_registry():
    from policies.registry import FAMILIES
    from policies.run import FAMILY_ENGINES

    assert set(FAMILY_ENGINES) == set(FAMILIES)
    for engine in FAMILY_ENGINES.values():
        assert callable(engine.load())
