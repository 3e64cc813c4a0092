"""The job and cluster CSV files (theory.readers.job_files): round trips and every
malformed case."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.job_sets import JobSet, Machines
from theory.readers.job_files import (
    read_cluster,
    read_instance,
    read_jobs,
    write_cluster,
    write_jobs,
)

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


# -- edge cases of the reader and the writer (exact integers, range, line numbers) --------

HEAD1 = "id,arrival,processing,demand_0\n"


@pytest.mark.parametrize(("row", "integers", "words"), [
    ("j,0,1,1e-400", False, ":2: field 'demand_0': '1e-400' is nonzero but below"),
    ("j,0,2.0000000000000001,1", True, ":2: field 'processing': '2.0000000000000001' is not an "
                                       "integer (XLL21 needs integer processing times)"),
    ("j,9007199254740993,1,1", True, ":2: field 'arrival': '9007199254740993' is an integer "
                                     "above 2**53"),
    ("j,0,1," + "1" * 5000, False, ":2: field 'demand_0': '1111"),
    ("j,0x10,1,1", False, ":2: field 'arrival': '0x10' is not a number"),
    ("j,1_000,1,1", False, ":2: field 'arrival': '1_000' is not a number"),
    ("j,\u0661,1,1", False, ":2: field 'arrival': '\u0661' is not a number"),
    ("j,0,-inf,1", False, ":2: field 'processing': '-inf' is not a finite"),
    ("j,0,1,1,", False, ":2: 5 fields, the header has 4"),
    ('"j"x,0,1,1', False, ":2: not valid CSV"),
])
def test_field_edge_cases(tmp_path, row, integers, words):
    f = write(tmp_path, "jobs.csv", HEAD1 + row + "\n")
    with pytest.raises(ValueError) as e:
        read_jobs(f, integers=integers)
    assert str(e.value).startswith(f"{f}:2: ") and words in str(e.value)


@pytest.mark.parametrize(("header", "words"), [
    ("id,arrival,processing,weight,demand_0,extra", "column 6 is 'extra' where 'demand_1'"),
    ("id,arrival,demand_0", "column 3 is 'demand_0' where 'processing'"),
    ("id,arrival,processing,weight", "no column 'demand_0'"),
    ("id,arrival,processing,demand_0,weight", "column 5 is 'weight' where 'demand_1'"),
    ("ID,arrival,processing,demand_0", "column 1 is 'ID' where 'id'"),
])
def test_header_problems_say_which_column(tmp_path, header, words):
    f = write(tmp_path, "jobs.csv", f"# c\n\n{header}\nj,0,1,1,1\n")
    with pytest.raises(ValueError) as e:
        read_jobs(f)
    msg = str(e.value)
    assert msg.startswith(f"{f}:3: header") and words in msg and "demand_{R-1}" in msg


def test_integer_spellings_crlf_quotes_and_line_numbers(tmp_path):
    f = write(tmp_path, "jobs.csv", "\ufeff# x\r\n id , arrival,processing ,demand_0\r\n"
                                    '\r\n"a,b", 1e3 ,2.0,+3\r\n  # later\r\nc,0,1,1\r\n')
    jobs = read_jobs(f, integers=True)
    assert jobs.ids == ("a,b", "c") and jobs.arrival.tolist() == [1000, 0]
    with pytest.raises(ValueError, match=r"jobs.csv:7: the job demands nothing"):
        read_jobs(write(tmp_path, "jobs.csv", f.read_text() + "d,0,1,0\n"))
    gz = tmp_path / "jobs.csv.gz"
    gz.write_bytes(gzip.compress(GOOD_JOBS.encode()))
    assert read_jobs(gz).ids == ("j1", "j2")


def test_only_comments_and_instance_line_of_unfit_job(tmp_path):
    with pytest.raises(ValueError, match=r"c.csv: no header \(only comments"):
        read_cluster(write(tmp_path, "c.csv", "# nothing\n\n"))
    j = write(tmp_path, "jobs.csv", "# x\n" + HEAD1 + "a,0,1,5\nbig,0,1,30\n")
    c = write(tmp_path, "cluster.csv", "id,capacity_0\nm1,20\nm2,20\nm3,8\n")
    with pytest.raises(ValueError, match=r"job 'big' .*cluster.csv; the job is on line 4 of"):
        read_instance(j, c)
    with pytest.raises(ValueError, match=r"cluster.csv:2: field 'capacity_0': '1.5' is not an "
                                         r"integer \(XLL21 needs integer capacities\)"):
        read_instance(j, write(tmp_path, "cluster.csv", "id,capacity_0\nm,1.5\n"), integers=True)


def test_writer_refuses_unreadable_ids_and_keeps_exact_values(tmp_path):
    for bad in ("", "a\nb", "a\rb", "b\t", "x\0", "\udcdc"):
        with pytest.raises(ValueError, match="cannot be written"):
            write_cluster(Machines([[1.0]], ids=(bad,)), tmp_path / "c.csv")
    assert not (tmp_path / "c.csv").exists()
    vals = [0.1, 1e16, 2.0**53 + 2, 1e300, 5e-324, 1 / 3]
    jobs = JobSet([0] * 6, vals, [[v] for v in vals], weight=vals,
                  ids=("\u00e9", "x y", "a'b", "<>", ";", "0"))
    back = read_jobs(write_jobs(jobs, tmp_path / "j.csv"))
    assert back.ids == jobs.ids
    assert back.processing.tolist() == vals and back.demand[:, 0].tolist() == vals
    assert (tmp_path / "j.csv").read_text().splitlines()[0] == \
        "id,arrival,processing,weight,demand_0"
