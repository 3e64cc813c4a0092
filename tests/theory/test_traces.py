"""Tests for theory.readers.traces: the packaged Google 2011 task table and user size files."""

from __future__ import annotations

import gzip
import time
from fractions import Fraction
from importlib import resources

import numpy as np
import pytest

from theory.distributions import Discrete
from theory.readers import traces
from theory.readers.traces import (
    GOOGLE2011_COLUMNS,
    google2011_sizes,
    load_google2011,
    read_size_file,
    trace_distribution,
)

N_ROWS = 208_329


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    return load_google2011()


# -- the packaged file -------------------------------------------------------------------


def test_resource_is_inside_the_package():
    res = resources.files("theory") / "data" / "google2011_tasks.csv.gz"
    assert res.is_file()
    assert "shared" not in str(res)
    assert (resources.files("theory") / "data" / "PROVENANCE.md").is_file()


def test_load_time_well_under_two_seconds():
    traces._text_columns_cached.cache_clear()
    t0 = time.perf_counter()
    load_google2011()
    assert time.perf_counter() - t0 < 2.0


def test_columns_and_row_count(data):
    assert tuple(data) == GOOGLE2011_COLUMNS
    for name, arr in data.items():
        assert arr.shape == (N_ROWS,), name
    assert data["end_event"].dtype.kind == "U"
    assert data["cpu_request"].dtype == np.float64
    assert not np.isnan(data["cpu_request"]).any()
    assert not np.isnan(data["memory_request"]).any()


def test_event_counts_match_provenance(data):
    ev, counts = np.unique(data["end_event"], return_counts=True)
    assert dict(zip(ev.tolist(), counts.tolist(), strict=True)) == {
        "": 136_728, "FINISH": 56_824, "KILL": 8_395, "EVICT": 5_794, "FAIL": 588,
    }
    assert int(data["censored"].sum()) == 136_728
    assert np.array_equal(data["censored"] == 1, data["end_event"] == "")
    assert int((data["submit_time_us"] == 0).sum()) == 144_339
    rt = data["runtime_s"]
    assert int((~np.isnan(rt)).sum()) == 71_489
    assert np.nanmin(rt) > 0


def test_distinct_counts_before_filtering(data):
    cpu, mem = data["cpu_request"], data["memory_request"]
    assert len(np.unique(cpu)) == 239
    assert len(np.unique(mem)) == 655
    assert len(np.unique(np.column_stack([cpu, mem]), axis=0)) == 1521
    assert len(np.unique(np.maximum(cpu, mem))) == 545
    assert int((cpu == 0).sum()) == 847
    assert int((mem == 0).sum()) == 3
    assert int(((cpu == 0) & (mem == 0)).sum()) == 2
    assert cpu.max() == 0.5
    assert mem.max() == 0.9551


def test_load_returns_fresh_arrays(data):
    a = load_google2011()
    a["cpu_request"][:] = -1
    assert load_google2011()["cpu_request"][0] == 0.125


# -- sizes -------------------------------------------------------------------------------


def test_max_sizes_in_unit_interval(data):
    s = google2011_sizes()
    assert isinstance(s, np.ndarray)
    assert s.shape == (N_ROWS - 2,)
    assert np.all(s > 0) and np.all(s <= 1)
    assert len(np.unique(s)) == 544
    assert s.mean() == pytest.approx(0.0549205435, rel=1e-9)
    expect = np.maximum(data["cpu_request"], data["memory_request"])
    assert np.array_equal(s, expect[expect > 0])


def test_drop_zero_false_keeps_every_row():
    s = google2011_sizes(drop_zero=False)
    assert s.shape == (N_ROWS,)
    assert int((s == 0).sum()) == 2


@pytest.mark.parametrize(
    ("kind", "n", "distinct"),
    [("cpu", 207_482, 238), ("memory", 208_326, 654), ("max", 208_327, 544)],
)
def test_scalar_kinds(kind, n, distinct):
    s = google2011_sizes(kind)
    assert s.shape == (n,)
    assert len(np.unique(s)) == distinct
    assert np.all(s > 0)


def test_vector_sizes():
    v = google2011_sizes("vector")
    assert v.shape == (N_ROWS - 2, 2)
    assert np.all(v.max(axis=1) > 0)
    assert len(np.unique(v, axis=0)) == 1520


def test_finished_only():
    s = google2011_sizes(finished_only=True)
    assert s.shape == (56_824,)
    assert len(trace_distribution(finished_only=True)) == len(np.unique(s)) == 87


def test_bad_kind():
    with pytest.raises(ValueError, match="kind"):
        google2011_sizes("disk")
    with pytest.raises(ValueError, match="kind"):
        trace_distribution("disk")


@pytest.mark.parametrize("kind", ["max", "cpu", "memory"])
def test_exact_equals_float(kind):
    ex = google2011_sizes(kind, exact=True)
    fl = google2011_sizes(kind)
    assert isinstance(ex, list)
    assert all(isinstance(x, Fraction) for x in ex)
    assert np.array_equal(np.array([float(x) for x in ex]), fl)


def test_exact_vector_and_decimal_text():
    ex = google2011_sizes("vector", exact=True)
    fl = google2011_sizes("vector")
    assert isinstance(ex[0], tuple) and len(ex[0]) == 2
    assert np.array_equal(np.array([[float(a), float(b)] for a, b in ex]), fl)
    cpus = {c for c, _ in ex}
    mems = {m for _, m in ex}
    assert Fraction(2499, 100_000) in cpus  # text "0.02499"
    assert Fraction(6248, 1_000_000) in cpus  # text "0.006248"
    assert Fraction(6199, 10**8) in mems  # text "6.199e-05"
    assert Fraction(9551, 10_000) in mems  # the largest memory request


# -- distributions -------------------------------------------------------------------------


def test_trace_distribution_float_and_exact():
    d = trace_distribution()
    e = trace_distribution(exact=True)
    assert isinstance(d, Discrete) and isinstance(e, Discrete)
    assert len(d) == len(e) == 544
    assert e.exact
    assert sum(e.probs) == 1
    assert [float(x) for x in e.sizes] == d.sizes
    assert d.probs == e.probs
    s = google2011_sizes(exact=True)
    assert e.mean() == sum(s, Fraction(0)) / len(s)
    assert float(d.mean()) == pytest.approx(float(np.mean(google2011_sizes())), rel=1e-12)
    # the most common max size is 0.0625 (28,725 of 208,327 tasks)
    atoms = dict(e.atoms())
    assert atoms[Fraction(1, 16)] == Fraction(28_725, 208_327)


def test_trace_distribution_vector_and_cpu():
    v = trace_distribution("vector", exact=True)
    assert v.dim == 2 and len(v) == 1520 and v.exact
    assert all(isinstance(x, Fraction) for k in v.sizes for x in k)
    c = trace_distribution("cpu")
    assert len(c) == 238
    assert c.support()[1] == 0.5


def test_trace_distribution_is_fast():
    t0 = time.perf_counter()
    trace_distribution("vector", exact=True)
    assert time.perf_counter() - t0 < 2.0


# -- user files in the packaged format --------------------------------------------------------


def test_user_file_same_format(tmp_path):
    p = tmp_path / "tasks.csv"
    p.write_text(
        "job_id,cpu_request,memory_request,end_event,submit_time_us,runtime_s,censored\n"
        "1,0.25,0.5,FINISH,0,10.5,0\n"
        "2,,0.1,,600000000,,1\n"  # missing cpu: dropped by the size functions
        "3,0,0,KILL,600000001,,0\n"  # zero vector
        '4,"0.125",0.0625,FINISH,600000002,3,0\n'  # quoted field
    )
    d = load_google2011(p)
    assert d["end_event"].tolist() == ["FINISH", "", "KILL", "FINISH"]
    assert np.isnan(d["cpu_request"][1]) and np.isnan(d["runtime_s"][1])
    assert google2011_sizes(path=p).tolist() == [0.5, 0.125]
    assert google2011_sizes("memory", path=p).tolist() == [0.5, 0.1, 0.0625]
    assert google2011_sizes("vector", path=p, drop_zero=False).shape == (3, 2)
    assert google2011_sizes(path=p, exact=True) == [Fraction(1, 2), Fraction(1, 8)]
    assert google2011_sizes(path=p, finished_only=True).tolist() == [0.5, 0.125]
    dist = trace_distribution(path=p, exact=True)
    assert dist.atoms() == [(Fraction(1, 8), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2))]
    # gzip copies are read too
    pg = tmp_path / "tasks.csv.gz"
    pg.write_bytes(gzip.compress(p.read_bytes()))
    assert google2011_sizes(path=pg).tolist() == [0.5, 0.125]


def test_user_file_errors(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("submit_time_us,runtime_s,end_event,censored,cpu_request\n0,,,1,0.1\n")
    with pytest.raises(ValueError, match="memory_request"):
        load_google2011(p)
    p.write_text(",".join(GOOGLE2011_COLUMNS) + "\n0,,,1,0.1,0.2\n0,,,1,0.1\n")
    with pytest.raises(ValueError, match="fields"):
        load_google2011(p)
    p.write_text(",".join(GOOGLE2011_COLUMNS) + "\n0,,,1,abc,0.2\n")
    with pytest.raises(ValueError, match="cpu_request"):
        load_google2011(p)
    p.write_text(",".join(GOOGLE2011_COLUMNS) + "\n0,,,1,-0.1,0.2\n")
    with pytest.raises(ValueError, match="negative"):
        google2011_sizes(path=p)
    with pytest.raises(ValueError, match="negative"):
        google2011_sizes(path=p, exact=True)
    p.write_text(",".join(GOOGLE2011_COLUMNS) + "\n0,,,1,0,0\n")
    with pytest.raises(ValueError, match="positive"):
        trace_distribution(path=p)


# -- read_size_file ---------------------------------------------------------------------------


def test_read_scalar_sizes(tmp_path):
    p = tmp_path / "sizes.txt"
    p.write_text("# job sizes\n0.4\n\n  0.6   # a comment\n1/3\n6.199e-05\n")
    assert read_size_file(p) == [
        Fraction(2, 5), Fraction(3, 5), Fraction(1, 3), Fraction(6199, 10**8),
    ]


def test_read_vector_sizes(tmp_path):
    p = tmp_path / "vec.txt"
    p.write_text("0.5, 0.25\n0.1 0.2\n# comment\n0.3\t0.02499\n")
    assert read_size_file(p) == [
        (Fraction(1, 2), Fraction(1, 4)),
        (Fraction(1, 10), Fraction(1, 5)),
        (Fraction(3, 10), Fraction(2499, 100_000)),
    ]


def test_read_csv_column(tmp_path):
    p = tmp_path / "trace.csv"
    p.write_text("# a comment\nid,cpu,mem\n1,0.5,0.25\n2,,0.1\n3,0.125,0.0625\n")
    assert read_size_file(p, column="cpu") == [Fraction(1, 2), Fraction(1, 8)]
    assert read_size_file(p, column=["cpu", "mem"]) == [
        (Fraction(1, 2), Fraction(1, 4)), (Fraction(1, 8), Fraction(1, 16)),
    ]
    with pytest.raises(ValueError, match="no column"):
        read_size_file(p, column="disk")


def test_read_gzip_size_file(tmp_path):
    p = tmp_path / "sizes.txt.gz"
    p.write_bytes(gzip.compress(b"0.2\n0.8\n"))
    assert read_size_file(p) == [Fraction(1, 5), Fraction(4, 5)]


def test_read_the_packaged_trace_as_a_size_file():
    path = resources.files("theory") / "data" / "google2011_tasks.csv.gz"
    with resources.as_file(path) as p:
        cpu = read_size_file(p, column="cpu_request")
    assert len(cpu) == N_ROWS
    assert len(set(cpu)) == 239


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("0.4\n0.3x\n", r":2: '0.3x' is not a number"),
        ("0.4\nsize\n", "not a number"),
        ("0.4\n-0.1\n", "negative"),
        ("0.4 0.5\n0.3\n", "earlier lines"),
        ("0.4,,0.5\n", "empty field"),
        ("nan\n", "not a number"),
    ],
)
def test_read_size_file_malformed(tmp_path, text, match):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    with pytest.raises(ValueError, match=match):
        read_size_file(p)


def test_read_csv_column_malformed(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("id,cpu\n1,0.5\n2,abc\n")
    with pytest.raises(ValueError, match=r":3: 'abc'"):
        read_size_file(p, column="cpu")
    p.write_text("id,cpu\n1,0.5,7\n")
    with pytest.raises(ValueError, match="fields"):
        read_size_file(p, column="cpu")


# -- every reader names the file and the problem in words ----------------------------------


@pytest.mark.parametrize("column", [None, "cpu"])
def test_read_size_file_not_utf8_names_file_line_and_offset(tmp_path, column):
    p = tmp_path / "sizes.bin"
    p.write_bytes(b"cpu\n0.4\n\xdc\n")
    with pytest.raises(ValueError) as err:
        read_size_file(p, column=column)
    msg = str(err.value)
    assert str(p) in msg and "not UTF-8 text" in msg and "line 3" in msg
    assert "byte 0xdc" in msg and "byte offset 8" in msg and "codec" not in msg


def test_google_loader_not_utf8_and_gzip_of_binary(tmp_path):
    p = tmp_path / "tasks.csv"
    p.write_bytes((",".join(GOOGLE2011_COLUMNS) + "\n0,,,1,0.1,0.2\xe9\n").encode("latin-1"))
    with pytest.raises(ValueError, match=rf"{p.name}: not UTF-8 text: byte 0xe9 on line 2"):
        load_google2011(p)
    g = tmp_path / "sizes.gz"
    g.write_bytes(gzip.compress(bytes(range(256))))
    with pytest.raises(ValueError, match="not UTF-8 text.*after gzip decompression"):
        read_size_file(g)


@pytest.mark.parametrize(("data", "pattern"), [
    (b"\x1f\x8b\x08\x00garbage", "gzip"),
    (gzip.compress(b"0.4\n" * 1000)[:30], "gzip stream is truncated"),
    (b"0.4\n\x000.5\n", "line 2 contains a NUL character"),
])
def test_bad_gzip_and_nul(tmp_path, data, pattern):
    p = tmp_path / "f"
    p.write_bytes(data)
    with pytest.raises(ValueError, match=pattern):
        read_size_file(p)
    with pytest.raises(ValueError, match=pattern):
        load_google2011(p)


@pytest.mark.parametrize(("text", "pattern"), [
    ("", "no sizes .*the file is empty"),
    ("\n   \n", "no sizes .*the file is empty"),
    ("# just a comment\n", "no sizes .*only comments"),
])
def test_read_size_file_without_sizes(tmp_path, text, pattern):
    p = tmp_path / "s.txt"
    p.write_text(text)
    with pytest.raises(ValueError, match=pattern):
        read_size_file(p)


def test_read_csv_column_header_only_and_no_values(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("id,cpu\n")
    with pytest.raises(ValueError, match="a header but no data rows"):
        read_size_file(p, column="cpu")
    p.write_text("id,cpu\n1,\n")
    with pytest.raises(ValueError, match="no sizes in column"):
        read_size_file(p, column="cpu")
    p.write_text("")
    with pytest.raises(ValueError, match="no header line"):
        read_size_file(p, column="cpu")
    p.write_text('id,cpu\n1,"0.5\n')
    with pytest.raises(ValueError, match=r"c.csv:2: not a CSV line"):
        read_size_file(p, column="cpu")


@pytest.mark.parametrize("column", [5, [], [""], ["cpu", 3], {"cpu"}])
def test_read_size_file_bad_column_argument(tmp_path, column):
    p = tmp_path / "c.csv"
    p.write_text("id,cpu\n1,0.5\n")
    with pytest.raises(ValueError, match="column must be a column name"):
        read_size_file(p, column=column)


@pytest.mark.parametrize("reader", [read_size_file, load_google2011,
                                    lambda p: google2011_sizes(path=p)])
def test_missing_file_directory_and_bad_path(tmp_path, reader):
    with pytest.raises(ValueError, match=r"nope.csv: No such file"):
        reader(tmp_path / "nope.csv")
    with pytest.raises(ValueError, match="is a directory, not a file"):
        reader(tmp_path)
    with pytest.raises(ValueError, match="path must be a file name"):
        reader(3)


@pytest.mark.parametrize(("text", "pattern"), [
    ("1e400\n", r":1: '1e400' is too large"),
    ("0.5\n1e-400\n", r":2: '1e-400' is too small"),
    ("1e999999999\n", r":1: '1e999999999' is too large"),
    ("0." + "1" * 5000 + "\n", r":1: a number of 5002 characters is too long"),
    ("inf\n", r":1: 'inf' is not a number \(write a finite number\)"),
])
def test_read_size_file_out_of_range(tmp_path, text, pattern):
    p = tmp_path / "s.txt"
    p.write_text(text)
    with pytest.raises(ValueError, match=pattern):
        read_size_file(p)


def _google_file(tmp_path, *rows: str) -> object:
    p = tmp_path / "tasks.csv"
    p.write_text(",".join(GOOGLE2011_COLUMNS) + "\n" + "".join(r + "\n" for r in rows))
    return p


@pytest.mark.parametrize(("row", "pattern"), [
    ("0,,,1,inf,0.2", r"tasks.csv:2: column 'cpu_request': 'inf' is not a finite number"),
    ("0,,,1,nan,0.2", r"tasks.csv:2: column 'cpu_request': 'nan' is not a finite number"),
    ("0,,,1,1e400,0.2", r"tasks.csv:2: column 'cpu_request': '1e400' is not a finite"),
    ("0,,,1,1e-400,0.2", r"tasks.csv:2: column 'cpu_request': '1e-400' is nonzero but rounds"),
    ("0,,,1,abc,0.2", r"tasks.csv:2: column 'cpu_request': 'abc' is not a number"),
])
@pytest.mark.parametrize("exact", [False, True])
def test_google_cells_name_file_line_and_column(tmp_path, row, pattern, exact):
    p = _google_file(tmp_path, row)
    with pytest.raises(ValueError, match=pattern):
        google2011_sizes(path=p, exact=exact)
    with pytest.raises(ValueError, match=pattern):
        trace_distribution(path=p, exact=exact)


def test_google_line_numbers_count_blank_lines_and_negatives(tmp_path):
    p = _google_file(tmp_path, "", "0,,,1,0.1,0.2", "", "0,,,1,abc,0.2")
    with pytest.raises(ValueError, match=r"tasks.csv:5: column 'cpu_request': 'abc'"):
        load_google2011(p)
    q = _google_file(tmp_path, "0,,,1,0.1,0.2", "0,,,1,0.1,-0.2")
    for exact in (False, True):
        with pytest.raises(ValueError, match=r"tasks.csv:3: negative memory_request '-0.2'"):
            google2011_sizes(path=q, exact=exact)
    r = _google_file(tmp_path, "0,,,1,0.1,0.2", "0,,,1,0.1")
    with pytest.raises(ValueError, match=r"tasks.csv:3: data row 2 has 5 fields, header has 6"):
        load_google2011(r)


def test_google_empty_and_header_only(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("")
    with pytest.raises(ValueError, match="t.csv: empty file"):
        load_google2011(p)
    p.write_text(",".join(GOOGLE2011_COLUMNS) + "\n")
    with pytest.raises(ValueError, match="t.csv: a header but no data rows"):
        trace_distribution(path=p)


@pytest.mark.parametrize(("kwargs", "pattern"), [
    ({"kind": None}, "kind must be one of"),
    ({"kind": ["max"]}, "kind must be one of"),
    ({"exact": "yes"}, "exact must be True or False"),
    ({"finished_only": 1}, "finished_only must be True or False"),
])
def test_trace_distribution_bad_arguments(kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        trace_distribution(**kwargs)
    with pytest.raises(ValueError, match=pattern):
        google2011_sizes(**kwargs)


def test_reading_is_budgeted_before_reading(tmp_path):
    from theory.budgets import BudgetExceeded

    p = tmp_path / "s.txt"
    p.write_text("0.5\n" * 1000)
    with pytest.raises(BudgetExceeded, match=r"reading .*s.txt \(3.91 KiB of text\)") as err:
        read_size_file(p, memory_budget=10_000)
    assert err.value.option == "memory_budget"
    g = tmp_path / "s.gz"
    g.write_bytes(gzip.compress(b"0.5\n" * 100_000))  # 400 kB of text, 1 kB compressed
    with pytest.raises(BudgetExceeded, match="after gzip decompression"):
        read_size_file(g, memory_budget=1_000_000)
    assert len(read_size_file(g)) == 100_000
