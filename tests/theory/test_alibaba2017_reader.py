"""theory.readers.alibaba2017: the packaged tables against their PROVENANCE file, units,
the timed jobs and job sets, refusals naming the line, and rho* of a sub-sample."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from theory.readers.alibaba2017 import (
    alibaba2017_distribution,
    alibaba2017_job_set,
    alibaba2017_machines,
    alibaba2017_tasks,
    alibaba2017_timed,
)


def test_counts_match_the_provenance():
    t = alibaba2017_tasks()
    assert t.n == 80_553 and int(t.instances.sum()) == 11_909_321
    assert int(t.instances.max()) == 64_486
    status, counts = np.unique(t.status, return_counts=True)
    assert dict(zip(status.tolist(), counts.tolist(), strict=True)) == {
        "Terminated": 67_013, "Waiting": 8_847, "Running": 3_567, "Failed": 1_126}
    assert int(np.isnan(t.plan_cpu).sum()) == int(np.isnan(t.plan_mem).sum()) == 9_017
    assert (int(t.create_s.min()), int(t.create_s.max())) == (-1078, 60181)
    m = alibaba2017_machines()
    assert m.n == 1_313 and m.errors == 39 and set(m.cores.tolist()) == {64.0}
    assert m.unit() == (64.0, 1.0)
    assert m.most_common() == (64.0, 0.6899697150104833, 736)


def test_a_known_row():
    t = alibaba2017_tasks()
    assert (int(t.create_s[0]), int(t.end_s[0]), int(t.job_id[0]), int(t.task_id[0]),
            int(t.instances[0]), str(t.status[0])) == (6459, 6524, 3, 4, 15740, "Terminated")
    assert (t.plan_cpu_text[0], t.plan_mem_text[0]) == ("50", "0.007956928")
    # first row's instances: 15,740 of size (50/6400, 0.007956928) = (1/128, ...)
    d = alibaba2017_distribution("vector", first=1)
    assert d.sizes == [(F(1, 128), F(7956928, 10**9))] and d.probs == [1]


def test_size_law_counts_instances():
    d = alibaba2017_distribution("cpu")
    assert len(d) == 13 and sum(d.probs) == 1
    t = alibaba2017_tasks()
    req = ~np.isnan(t.plan_cpu)
    n = int(t.instances[req].sum())
    assert n == 11_059_704
    half = int(t.instances[req & (t.plan_cpu == 50)].sum())
    assert d.probs[d.sizes.index(F(1, 128))] == F(half, n)
    assert [len(alibaba2017_distribution(k)) for k in ("max", "memory", "vector")] == [
        583, 749, 989]
    # units: fractions of the unit machine (64 cores, memory 1)
    assert max(d.sizes) == F(800, 6400)  # plan_cpu 800 (2 tasks), 8 cores of 64
    assert max(s[1] for s in alibaba2017_distribution("vector").sizes) <= 1


def test_rho_star_of_divisible_sizes_is_lemma2():
    """The first 167 tasks with requests all ask 1/2 or 1 core: sizes 1/128 and 1/64 of
    the unit machine divide each other and 1, so bins fill exactly and rho* = 1 / E[S]
    (PG21 Lemma 2 with equality), an independent closed form."""
    from capacity import rho_star

    t = alibaba2017_tasks()
    first = np.flatnonzero(~np.isnan(t.plan_cpu))[:168]
    assert set(t.plan_cpu[first[:167]].tolist()) == {50.0, 100.0}
    assert t.plan_cpu[first[167]] not in (50.0, 100.0)
    d = alibaba2017_distribution("cpu", first=167)
    assert d.sizes == [F(1, 128), F(1, 64)]
    res = rho_star(d)
    assert res.certified
    assert res.lower <= 1 / d.mean() <= res.upper
    assert float(res.value) == pytest.approx(float(1 / d.mean()), rel=1e-9)


def test_timed_jobs_rules():
    j = alibaba2017_timed(until_seconds=600)
    assert j.slot_seconds == 1.0 and np.all(np.diff(j.arrival) >= 0)
    assert np.all(j.service >= 1) and np.all(j.arrival > 0)
    assert j.info["dropped_tasks"] == {
        "not Terminated": 13_540, "Terminated without a request": 10,
        "created before the trace (create <= 0)": 167, "end not after create": 21}
    assert "upper bound" in j.info["service"]
    assert j.info["instances"] + j.info["beyond_until"] == 10_134_817
    # every instance of a task arrives with it
    assert j.n == j.info["instances"]
    first = alibaba2017_timed(first=10)
    assert first.n == 10 and np.allclose(first.arrival, j.arrival[:10])


def test_job_sets():
    x = alibaba2017_job_set("xll21-preemptive")
    assert x.n == 11_622
    assert np.all(x.demand == np.ceil(x.demand)) and np.all(x.processing >= 1)
    f = alibaba2017_job_set("fl24-nonpreemptive", first=100)
    assert f.n == 100 and float(f.processing.min()) == 1.0 and np.all(f.demand <= 1)
    assert alibaba2017_job_set("fl24-nonpreemptive", seed=1, first=100).ids != f.ids
    with pytest.raises(ValueError, match="family must be"):
        alibaba2017_job_set("pg21")


@pytest.mark.parametrize("line3, fragment", [
    ("5,9,1,2,3,Terminated,50\n", "3: 7 fields, expected 8"),
    ("5,9,1,2,3,Finished,50,0.1\n", "3: status 'Finished' is not one of"),
    ("5,9,1,2,0,Terminated,50,0.1\n", "3: column 'number_of_instances': 0 is below 1"),
    ("5,9,1,2,3,Terminated,50,\n", "3: one request given without the other"),
    ("5,x,1,2,3,Terminated,50,0.1\n", "3: column 'task_end_time': 'x' is not an integer"),
])
def test_a_malformed_line_is_named(tmp_path, line3, fragment):
    f = tmp_path / "batch_task.csv"
    f.write_text("task_create_time, task_end_time, job_id, task_id,number_of_instances, "
                 "status, number_of_cpus_requested_per_instance_in_the_task,"
                 "normalized_memory_requested_per_instance_in_the_task\r\n"
                 "1,2,1,1,1,Terminated,100,0.5\r\n" + line3)
    with pytest.raises(ValueError) as e:
        alibaba2017_tasks(path=f)
    assert str(e.value).startswith(f"{f}:") and fragment in str(e.value), str(e.value)


def test_refusals():
    with pytest.raises(ValueError, match="did you mean memory"):
        alibaba2017_distribution("mem")
    with pytest.raises(ValueError, match="until_seconds must be above 0"):
        alibaba2017_timed(until_seconds=0)
