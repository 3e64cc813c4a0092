"""theory.readers.trace_names: the grammar, what each trace gives, and that its results
are those of the per-trace loaders (and of policies.google2011_workload)."""

from __future__ import annotations

import numpy as np
import pytest

import theory.readers as readers
from theory.readers.trace_names import (
    TRACES,
    TraceName,
    parse_trace_name,
    trace_job_set,
    trace_size_law,
    trace_timed_jobs,
)


@pytest.mark.parametrize("text, parsed", [
    ("google2011", TraceName("google2011")),
    ("google2011:cpu", TraceName("google2011", kind="cpu")),
    ("google2019", TraceName("google2019", "a")),
    ("google2019:c:vector:first=100", TraceName("google2019", "c", "vector", 100)),
    ("alibaba2017:first=5", TraceName("alibaba2017", first=5)),
    ("azure2017:memory", TraceName("azure2017", "both", "memory")),
    ("azure2017:train", TraceName("azure2017", "train")),
])
def test_grammar(text, parsed):
    assert parse_trace_name(text) == parsed


@pytest.mark.parametrize("text, fragment", [
    ("googel2011", "unknown trace 'googel2011'"),
    ("googel2011", "did you mean google2011?"),
    ("google2011:mem", "kind must be one of max, cpu, memory, vector, got 'mem'; did you "
                       "mean memory?"),
    ("google2019:z", "'z' is neither a cell (a, b, c, d, e, f, g, h) nor a kind"),
    ("azure2017:tset", "did you mean test?"),
    ("google2019:a:b", "gives the selector twice"),
    ("google2011:cpu:max", "gives the kind twice"),
    ("alibaba2017:first=0", "first=N needs a positive integer N"),
    ("alibaba2017:first=x", "first=N needs a positive integer N"),
])
def test_refusals_are_one_line(text, fragment):
    with pytest.raises(ValueError) as e:
        parse_trace_name(text)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_the_package_exports_what_it_lists():
    assert set(readers.__all__) == set(readers._names)
    for name in readers.__all__:
        assert getattr(readers, name) is not None


def test_size_laws_are_the_loaders():
    from theory.readers.alibaba2017 import alibaba2017_distribution
    from theory.readers.azure import azure2017_distribution
    from theory.readers.google2019 import google2019_distribution
    from theory.readers.traces import trace_distribution

    pairs = [("google2011:cpu", trace_distribution("cpu", exact=True)),
             ("google2019:b:memory", google2019_distribution("b", "memory")),
             ("alibaba2017:cpu", alibaba2017_distribution("cpu")),
             ("azure2017:test:vector", azure2017_distribution("test", "vector"))]
    for name, law in pairs:
        got = trace_size_law(name)
        assert (got.dist.sizes, got.dist.probs) == (law.sizes, law.probs), name
        assert got.info["unit"] and got.info["resource"] == parse_trace_name(name).size_kind


def test_first_n_of_google2011():
    from theory.readers.traces import google2011_sizes

    law = trace_size_law("google2011:cpu:first=50").dist
    sizes = google2011_sizes("cpu", exact=True)[:50]
    assert sum(law.probs) == 1 and set(law.sizes) == set(sizes)


def test_google2011_timed_jobs_are_pg21s_workload():
    """Replayed through policies.trace_workload, the registry's google2011 jobs are
    exactly policies.google2011_workload (PG21 VII-B's preprocessing)."""
    import policies as P

    t = trace_timed_jobs("google2011")
    for scaling in (1.0, 1.4):
        w0 = P.google2011_workload(traffic_scaling=scaling)
        w1 = P.trace_workload(t.arrival, t.sizes("max"), t.service, slot_length=t.slot_seconds,
                              traffic_scaling=scaling)
        for key in ("arrival", "demand", "service"):
            assert np.array_equal(getattr(w0, key), getattr(w1, key)), key


def test_what_a_trace_lacks_is_refused():
    with pytest.raises(ValueError, match="google2019 has no arrival or run times"):
        trace_timed_jobs("google2019")
    with pytest.raises(ValueError, match="no job set"):
        trace_job_set("google2019:c", "xll21-preemptive")
    with pytest.raises(ValueError, match="lifetime file, v1.train.c1800000.txt, was too large"):
        trace_timed_jobs("azure2017:all")
    with pytest.raises(ValueError, match="single-resource"):
        trace_timed_jobs("alibaba2017:vector")
    with pytest.raises(ValueError, match="leave the kind 'cpu' out"):
        trace_job_set("alibaba2017:cpu", "fl24-nonpreemptive")
    with pytest.raises(ValueError, match="finished_only applies to the google2011"):
        trace_size_law("azure2017", finished_only=True)
    assert {n: bool(parse_trace_name(n).lacks_times) for n in TRACES} == {
        "google2011": False, "google2019": True, "alibaba2017": False, "azure2017": False}


@pytest.mark.parametrize("name", ["google2011:first=40", "alibaba2017:first=40",
                                  "azure2017:dev:first=40"])
@pytest.mark.parametrize("family", ["xll21-preemptive", "fl24-nonpreemptive"])
def test_job_sets_in_each_familys_units(name, family):
    s = trace_job_set(name, family)
    assert s.jobs.n == 40 and s.jobs.resources == 2 == s.machines.resources
    if family == "xll21-preemptive":
        assert np.all(s.jobs.demand == np.ceil(s.jobs.demand))
        assert s.machines.capacity[:, 0].tolist() == [64.0, 32.0, 16.0]
    else:
        assert float(s.jobs.processing.min()) == 1.0 and np.all(s.jobs.demand <= 1)
        assert s.machines.m == 20 and np.all(s.machines.capacity == 1)
    assert s.info["trace"] == name and s.info["jobs_count"] == 40


def test_timed_first_and_zero_sizes():
    t = trace_timed_jobs("google2011:cpu:first=30")
    assert t.n == 30 and np.all(t.sizes("cpu") > 0)
    assert t.info["dropped_zero"] > 0  # FINISHed tasks with a CPU request of 0
