"""The job and cluster CSV files (theory.job_files): round trips and every malformed case."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.job_files import read_cluster, read_instance, read_jobs, write_cluster, write_jobs
from theory.job_sets import JobSet, Machines

GOOD_JOBS = "id,arrival,processing,weight,demand_0,demand_1\nj1,0,1,1,18,1\nj2,3,2,2.5,4,2\n"
GOOD_CLUSTER = "id,capacity_0,capacity_1\nm1,20,4\n"


def write(tmp_path, name: str, text: str | bytes):
    f = tmp_path / name
    f.write_bytes(text.encode() if isinstance(text, str) else text)
    return f


def test_read_good_files_and_comments(tmp_path):
    f = write(tmp_path, "j.csv", "# a comment\n\n" + GOOD_JOBS + "\n")
    jobs = read_jobs(f)
    assert jobs.ids == ("j1", "j2") and jobs.weight.tolist() == [1, 2.5]
    assert jobs.demand.tolist() == [[18, 1], [4, 2]]
    no_weight = read_jobs(write(tmp_path, "n.csv", "id,arrival,processing,demand_0\na, 0 ,2,3\n"))
    assert no_weight.weight.tolist() == [1] and no_weight.processing.tolist() == [2]
    assert read_cluster(write(tmp_path, "c.csv", "\ufeff" + GOOD_CLUSTER)).capacity.tolist() \
        == [[20, 4]]


def test_shipped_example1_files():
    from importlib import resources

    base = resources.files("theory.data")
    jobs, machines = read_instance(base / "xll21_example1_jobs.csv",
                                   base / "xll21_example1_cluster.csv", integers=True)
    assert jobs.processing.tolist() == [1, 2, 3] and machines.capacity.tolist() == [[20, 4]]


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty file"),
    ("id,arrival,processing,weight,demand_0\n", "no jobs"),
    ("id,arrival,proc,demand_0\nj,0,1,1\n", ":1: header"),
    ("id,arrival,processing,weight\nj,0,1,1\n", ":1: header"),
    ("id,arrival,processing,demand_1\nj,0,1,1\n", ":1: header"),
    ("id,arrival,processing,demand_0\nj,0,1\n", ":2: 3 fields, the header has 4"),
    ("id,arrival,processing,demand_0\nj,0,1,1,1\n", ":2: 5 fields"),
    ("id,arrival,processing,demand_0\nj,,1,1\n", ":2: field 'arrival' is empty"),
    ("id,arrival,processing,demand_0\nj,0,abc,1\n", ":2: field 'processing': 'abc'"),
    ("id,arrival,processing,demand_0\nj,0,nan,1\n", "'processing': 'nan' is not a finite"),
    ("id,arrival,processing,demand_0\nj,0,inf,1\n", "'processing': 'inf' is not a finite"),
    ("id,arrival,processing,demand_0\nj,0,1e400,1\n", "'1e400' is not a finite"),
    ("id,arrival,processing,demand_0\nj,-1,1,1\n", "'arrival': '-1' is negative"),
    ("id,arrival,processing,demand_0\nj,0,0,1\n", "'processing': '0' must be > 0"),
    ("id,arrival,processing,weight,demand_0\nj,0,1,0,1\n", "'weight': '0' must be > 0"),
    ("id,arrival,processing,demand_0\nj,0,1,-2\n", "'demand_0': '-2' is negative"),
    ("id,arrival,processing,demand_0,demand_1\nj,0,1,0,0\n", ":2: the job demands nothing"),
    ("id,arrival,processing,demand_0\nj,0,1,1\nj,1,1,1\n", ":3: job id 'j' already used"),
    ("id,arrival,processing,demand_0\n,0,1,1\n", "field 'id' is empty"),
    ('id,arrival,processing,demand_0\n"j,0,1,1\n', "not valid CSV"),
])
def test_malformed_jobs_name_file_line_and_field(tmp_path, text, words):
    f = write(tmp_path, "jobs.csv", text)
    with pytest.raises(ValueError, match="jobs.csv") as e:
        read_jobs(f)
    assert words in str(e.value)


@pytest.mark.parametrize(("field", "row"), [
    ("arrival", "j,0.5,1,1"), ("processing", "j,0,1.5,1"), ("demand_0", "j,0,1,2.5")])
def test_integers_where_xll21_needs_them(tmp_path, field, row):
    f = write(tmp_path, "jobs.csv", f"id,arrival,processing,demand_0\n{row}\n")
    read_jobs(f)  # fine without integers=True
    with pytest.raises(ValueError, match=rf"jobs.csv:2: field '{field}'.*not an integer"):
        read_jobs(f, integers=True)


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty file"), ("id,capacity_0\n", "no machines"),
    ("id,cap_0\nm,1\n", "header"), ("id,capacity_0\nm,0\n", "must be > 0"),
    ("id,capacity_0\nm,1\nm,2\n", "already used"), ("id,capacity_0\nm,2.5\n", "not an integer"),
])
def test_malformed_cluster(tmp_path, text, words):
    f = write(tmp_path, "cluster.csv", text)
    with pytest.raises(ValueError, match="cluster.csv") as e:
        read_cluster(f, integers=True)
    assert words in str(e.value)


def test_instance_checks_both_files_together(tmp_path):
    j = write(tmp_path, "jobs.csv", "id,arrival,processing,demand_0\nbig,0,1,30\n")
    c = write(tmp_path, "cluster.csv", "id,capacity_0\nm,20\n")
    with pytest.raises(ValueError, match=r"jobs.csv: job 'big' .* fits no machine"):
        read_instance(j, c)
    c2 = write(tmp_path, "c2.csv", GOOD_CLUSTER)
    with pytest.raises(ValueError, match="1 demand column.*2 capacity column"):
        read_instance(j, c2)
    bin_ = write(tmp_path, "bin.csv", b"\xdc\xff\n")
    with pytest.raises(ValueError, match="bin.csv.*UTF-8"):
        read_jobs(bin_)


ids = st.text(st.characters(whitelist_categories=("Ll", "Lu", "Nd")), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(ids, min_size=n, max_size=n, unique=True),
    st.lists(st.integers(0, 10**6) | st.floats(0, 1e6, allow_nan=False), min_size=n, max_size=n),
    st.lists(st.integers(1, 10**6) | st.floats(1e-3, 1e6), min_size=n, max_size=n),
    st.lists(st.floats(1e-3, 1e3), min_size=n, max_size=n),
    st.integers(1, 3).flatmap(lambda r: st.lists(
        st.lists(st.integers(1, 100) | st.floats(1e-6, 1.0), min_size=r, max_size=r),
        min_size=n, max_size=n)))))
def test_round_trip(tmp_path_factory, data):
    i, a, p, w, dem = data
    jobs = JobSet(np.array(a, float), np.array(p, float), np.array(dem, float),
                  np.array(w, float), ids=tuple(i))
    f = tmp_path_factory.mktemp("rt") / "jobs.csv"
    write_jobs(jobs, f)
    back = read_jobs(f)
    assert back.ids == jobs.ids
    for name in ("arrival", "processing", "weight", "demand"):
        assert np.array_equal(getattr(back, name), getattr(jobs, name)), name
    m = Machines(np.array(dem, float) + 1, ids=tuple(i))
    write_cluster(m, f)
    assert np.array_equal(read_cluster(f).capacity, m.capacity)


def test_unwritable_ids_are_refused(tmp_path):
    for bad in ("a,b", 'a"b', " a", "#a"):
        with pytest.raises(ValueError, match="cannot be written"):
            write_jobs(JobSet([0], [1], [[1]], ids=(bad,)), tmp_path / "j.csv")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=60) | st.text(max_size=60))
def test_fuzz_appended_garbage(tmp_path_factory, junk):
    f = tmp_path_factory.mktemp("fz") / "jobs.csv"
    f.write_bytes(GOOD_JOBS.encode() + (junk.encode() if isinstance(junk, str) else junk))
    try:
        read_jobs(f)
    except ValueError as e:
        assert str(e).startswith(str(f))
