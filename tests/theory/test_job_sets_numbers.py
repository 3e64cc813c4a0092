"""JobSet and Machines hold only numbers float64 holds: an integer
float64 would round or a number beyond its range is a ValueError naming the argument and
its index, never an OverflowError or a silent rounding."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from theory.job_sets import JobSet, Machines


def _jobs(**fields: object) -> JobSet:
    base: dict[str, object] = {"arrival": [0, 1], "processing": [1, 2],
                               "demand": [[0.5, 0.5], [0.25, 0.5]]}
    base.update(fields)
    return JobSet(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("field, value, words", [
    ("arrival", [0, 10**400], r"arrival\[1\] is 1000.*beyond the float64 range"),
    ("processing", [1, 10**400], r"processing\[1\] is 1000.*beyond the float64 range"),
    ("weight", [Fraction(10**400), 1], r"weight\[0\] is Fraction.*beyond the float64"),
    ("processing", [Decimal("1e400"), 1], r"processing\[0\] is Decimal.*beyond"),
    ("demand", [[0.5, 10**400], [0.25, 0.5]], r"demand\[0, 1\] is 1000.*beyond"),
])
def test_numbers_beyond_float64_are_refused(field, value, words):
    with pytest.raises(ValueError, match=words):
        _jobs(**{field: value})


def test_machines_beyond_float64_are_refused():
    with pytest.raises(ValueError, match=r"capacity\[0, 0\] is 1000.*beyond the float64"):
        Machines([[10**400]])
    with pytest.raises(ValueError, match=r"capacity\[1, 0\] is 9007199254740993"):
        Machines([[1], [2**53 + 1]])


@pytest.mark.parametrize("field, value, where", [
    ("arrival", [0, 2**53 + 1], "arrival[1]"),
    ("arrival", np.array([0, 2**62 + 1], dtype=np.int64), "arrival[1]"),
    ("processing", (2**60 + 1, 1), "processing[0]"),
    ("demand", [[0.5, 2**53 + 1], [0.25, 0.5]], "demand[0, 1]"),  # floats and ints mixed
    ("weight", np.array([1, 2**64 - 1], dtype=np.uint64), "weight[1]"),
])
def test_integers_float64_would_round_are_refused(field, value, where):
    with pytest.raises(ValueError, match=rf"{where.replace('[', '.').replace(']', '.')} is "
                                         r"\d+, an integer above 2\^53 that float64 "
                                         r"cannot hold exactly \(it would read as \d+\)"):
        _jobs(**{field: value})


def test_integers_float64_holds_are_kept_exactly():
    jobs = _jobs(arrival=[2**53 + 2, 10**17], weight=[2**60, 3])
    assert jobs.arrival.tolist() == [float(2**53 + 2), 1e17]
    assert int(jobs.weight[0]) == 2**60
    assert Machines([[2**53 + 2]]).capacity[0, 0] == 2**53 + 2


@pytest.mark.parametrize("field, value, words", [
    ("processing", ["1", "2"], "processing must be numbers, not text such as '1'"),
    ("weight", [True, True], "weight must be numbers, not true/false values"),
    ("arrival", [0, 1 + 2j], "arrival must be an array of real numbers"),
    ("processing", [1, "2"], "processing must be numbers, not text"),
])
def test_non_numbers_are_refused_by_type(field, value, words):
    with pytest.raises(TypeError, match=words):
        _jobs(**{field: value})


def test_other_reals_read_as_the_nearest_float():
    jobs = _jobs(processing=[Fraction(1, 3), Decimal("0.1")], weight=[np.float32(0.5), 1])
    assert jobs.processing.tolist() == [1 / 3, 0.1] and jobs.weight[0] == 0.5
    with pytest.raises(ValueError, match=r"processing\[0\] is Fraction.*below the float64"):
        _jobs(processing=[Fraction(1, 10**400), 1])


def test_a_job_set_names_its_jobs_by_file_line():
    jobs = _jobs(ids=("a", "b"), source="jobs.csv", lines=np.array([2, 5]))
    assert jobs.where(1) == "job 'b' (jobs.csv line 5)"
    assert _jobs(ids=("a", "b")).where(0) == "job 'a'"
    with pytest.raises(ValueError, match="lines must be one line number >= 1 per job"):
        _jobs(lines=np.array([1]))
