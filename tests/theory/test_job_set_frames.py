"""``JobSet.from_frame`` and ``read_jobs(columns=...)``: a trace's own columns, as they are."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from theory.job_sets import JobSet
from theory.readers.job_files import read_jobs

pd = pytest.importorskip("pandas")

FL24 = str(resources.files("theory.data") / "fl24_example_jobs.csv")
RENAMED = {"id": "job", "arrival": "submit_time", "processing": "duration",
           "weight": "prio", "demand": ["cpu", "mem"]}


def _same(a: JobSet, b: JobSet) -> None:
    assert a.ids == b.ids
    for field in ("arrival", "processing", "weight", "demand"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


def _renamed_frame() -> pd.DataFrame:
    df = pd.read_csv(FL24, dtype={"id": str})
    df = df.rename(columns={"id": "job", "arrival": "submit_time", "processing": "duration",
                            "weight": "prio", "demand_0": "cpu", "demand_1": "mem"})
    df.insert(2, "user", "u1")  # a column the mapping does not name
    return df[["mem", "user", "duration", "job", "cpu", "prio", "submit_time"]]


def test_round_trip_against_read_jobs():
    _same(JobSet.from_frame(pd.read_csv(FL24, dtype={"id": str})), read_jobs(FL24))


def test_renamed_columns():
    _same(JobSet.from_frame(_renamed_frame(), columns=RENAMED), read_jobs(FL24))


def test_read_jobs_with_columns(tmp_path):
    f = tmp_path / "trace.csv"
    _renamed_frame().to_csv(f, index=False)
    _same(read_jobs(f, columns=RENAMED), read_jobs(FL24))


def test_defaults_weight_and_time_unit():
    df = pd.DataFrame({"arrival": [0, 120], "processing": [60, 30], "demand_0": [1, 2],
                       "demand_1": [3, 1]})
    jobs = JobSet.from_frame(df, weight=2, time_unit=60)
    assert jobs.ids == ("0", "1") and jobs.weight.tolist() == [2.0, 2.0]
    assert jobs.arrival.tolist() == [0.0, 2.0] and jobs.processing.tolist() == [1.0, 0.5]
    assert jobs.demand.tolist() == [[1.0, 3.0], [2.0, 1.0]]
    one = JobSet.from_frame(df, columns={"demand": "demand_1", "arrival": "processing"})
    assert one.resources == 1 and one.arrival.tolist() == [60.0, 30.0]


def _frame(**change):
    data = {"job": ["a", "b", "c"], "t": [0, 1, 2], "p": [1.0, 2.0, 3.0],
            "cpu": [0.5, 0.5, 0.5]}
    data.update(change)
    return pd.DataFrame(data)


COLS = {"id": "job", "arrival": "t", "processing": "p", "demand": ["cpu"]}


@pytest.mark.parametrize(("frame", "columns", "words"), [
    (_frame(), {**COLS, "arrival": "submit"}, "no column 'submit' (mapped to 'arrival'); "
                                              "the columns are 'job', 't', 'p', 'cpu'"),
    (_frame(), {"id": "job", "processing": "p", "demand": ["cpu"]}, "no column 'arrival'"),
    (_frame(), {**COLS, "demand": None}, "give a list of column names"),
    (_frame(), {k: v for k, v in COLS.items() if k != "demand"}, "no column 'demand_0'"),
    (_frame(), {**COLS, "speed": "p"}, "unknown field 'speed'"),
    (_frame(), {**COLS, "arrival": ""}, "a column name is non-empty text"),
    (_frame(), {**COLS, "demand": ["cpu", "cpu"]}, "names 'cpu' twice"),
    (_frame(p=[1.0, float("nan"), 3.0]), COLS, "column 'p' (processing), row 1: missing"),
    (_frame(p=[1.0, 2.0, -3.0]), COLS, "column 'p' (processing), row 2: -3 must be > 0"),
    (_frame(p=[1.0, 0.0, 3.0]), COLS, "row 1: 0 must be > 0"),
    (_frame(t=[0, "soon", 2]), COLS, "column 't' (arrival), row 1: 'soon' is not a number"),
    (_frame(t=["0", "1", "2"]), COLS, "row 0: '0' is not a number"),
    (_frame(t=[0, -1, 2]), COLS, "column 't' (arrival), row 1: -1 is negative"),
    (_frame(t=[0, 2**53 + 1, 2]), COLS, "row 1: 9007199254740993 is an integer above 2**53"),
    (_frame(p=[1.0, float("inf"), 3.0]), COLS, "row 1: inf is not a finite number"),
    (_frame(t=pd.to_datetime(["2020-01-01"] * 3)), COLS, "holds datetime64"),
    (_frame(cpu=[0.5, 0.0, 0.5]), COLS, "row 1 demands nothing (columns 'cpu' all 0)"),
    (_frame(cpu=[0.5, 0.5, -0.5]), COLS, "column 'cpu' (demand), row 2: -0.5 is negative"),
    (_frame(job=["a", "b", "a"]), COLS, "row 2: id 'a' already used in row 0"),
    (_frame(job=["a", None, "c"]), COLS, "column 'job' (id), row 1: missing"),
    (_frame(p=[1.0, -2.0, 3.0]).set_index(pd.Index([10, 11, 12])), COLS,
     "row 1 (index 11): -2 must be > 0"),
    (_frame().iloc[:0], COLS, "the frame has no rows"),
])
def test_errors_name_column_and_row(frame, columns, words):
    with pytest.raises(ValueError) as err:
        JobSet.from_frame(frame, columns=columns)
    assert words in str(err.value)


def test_weight_errors():
    with pytest.raises(ValueError, match="give one"):
        JobSet.from_frame(_frame(w=[1, 2, 3]), columns={**COLS, "weight": "w"}, weight=2)
    with pytest.raises(ValueError, match=r"column 'w' \(weight\), row 0: 0 must be > 0"):
        JobSet.from_frame(_frame(w=[0, 2, 3]), columns={**COLS, "weight": "w"})
    with pytest.raises(ValueError, match="time_unit must be a finite number > 0"):
        JobSet.from_frame(_frame(), columns=COLS, time_unit=0)
    with pytest.raises(TypeError, match="DataFrame"):
        JobSet.from_frame({"t": [0]}, columns=COLS)


def test_missing_pandas_names_the_extra(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("no pandas")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match=r"pip install 'packsched\[frames\]'"):
        JobSet.from_frame(None)


@pytest.mark.parametrize(("header", "columns", "words"), [
    ("job,t,p,cpu", {"arrival": "t", "processing": "p", "demand": ["gpu"]},
     "trace.csv:1: no column 'gpu' (mapped to 'demand'); the columns are 'job', 't', 'p', "
     "'cpu'"),
    ("job,t,p,cpu,t", {"arrival": "t", "processing": "p", "demand": ["cpu"]},
     "column 't' (for 'arrival') appears 2 times"),
])
def test_read_jobs_mapping_errors(tmp_path, header, columns, words):
    f = tmp_path / "trace.csv"
    f.write_text(header + "\na,0,1,1,0\n")
    with pytest.raises(ValueError) as err:
        read_jobs(f, columns=columns)
    assert words in str(err.value)


def test_read_jobs_mapping_row_errors_name_file_line_and_column(tmp_path):
    f = tmp_path / "trace.csv"
    f.write_text("user,dur,submit,cpu\nx,1,0,1\ny,-2,0,1\n")
    with pytest.raises(ValueError, match=r"trace.csv:3: field 'dur': '-2' must be > 0"):
        read_jobs(f, columns={"arrival": "submit", "processing": "dur", "demand": ["cpu"]})
    f.write_text("user,dur,submit,cpu\nx,1,0,0\n")
    with pytest.raises(ValueError, match=r"trace.csv:2: the job demands nothing \(cpu all 0\)"):
        read_jobs(f, columns={"arrival": "submit", "processing": "dur", "demand": ["cpu"]})
    f.write_text("user,dur,submit,cpu\nx,1,0,1\n")
    jobs = read_jobs(f, columns={"arrival": "submit", "processing": "dur", "demand": "cpu"})
    assert jobs.ids == ("0",) and jobs.where(0) == f"job '0' ({f} line 2)"


def test_a_time_unit_that_pushes_times_past_the_float_range_is_refused():
    import pandas as pd

    df = pd.DataFrame({"arrival": [0, 1e10], "processing": [1, 2], "demand_0": [1, 1]})
    with pytest.raises(ValueError, match="beyond the float range"):
        JobSet.from_frame(df, time_unit=1e-310)
