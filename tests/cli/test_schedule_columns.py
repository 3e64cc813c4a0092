"""``packsched schedule --columns``: a trace's own jobs CSV, read with a column mapping."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from packsched.cli import main

DATA = resources.files("theory.data")
FL24_JOBS = str(DATA / "fl24_example_jobs.csv")
FL24_CLUSTER = str(DATA / "fl24_example_cluster.csv")
X_JOBS = str(DATA / "xll21_example1_jobs.csv")
X_CLUSTER = str(DATA / "xll21_example1_cluster.csv")
RENAME = {"id": "job", "arrival": "submit_time", "processing": "duration", "weight": "prio",
          "demand_0": "cpu", "demand_1": "mem"}
MAPPING = "arrival=submit_time,processing=duration,demand=cpu+mem,id=job,weight=prio"


def _renamed(src: str, dst, extra: bool = True) -> str:
    lines = Path(src).read_text().splitlines()
    head = [RENAME.get(c, c) for c in lines[0].split(",")]
    rows = [r.split(",") for r in lines[1:] if r.strip()]
    order = list(reversed(range(len(head))))  # columns in another order
    out = [",".join([*(head[k] for k in order), *(["user"] * extra)])]
    out += [",".join([*(r[k] for k in order), *(["u"] * extra)]) for r in rows]
    dst.write_text("\n".join(out) + "\n")
    return str(dst)


def _json(capsys, *argv):
    code = main(["schedule", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    for key in ("seconds", "jobs_file", "engine_seconds"):
        d.pop(key, None)
    return d


@pytest.mark.parametrize("policy", ["mris", "pq-wsjf"])
def test_fl24_renamed_copy_gives_the_same_json(capsys, tmp_path, policy):
    jobs = _renamed(FL24_JOBS, tmp_path / "trace.csv")
    base = ["--policy", policy, "--cluster", FL24_CLUSTER]
    assert _json(capsys, *base, "--jobs", jobs, "--columns", MAPPING) == \
        _json(capsys, *base, "--jobs", FL24_JOBS)


def test_xll21_renamed_copy_gives_the_same_json(capsys, tmp_path):
    jobs = _renamed(X_JOBS, tmp_path / "trace.csv")
    head = Path(X_JOBS).read_text().splitlines()[0]
    mapping = MAPPING if "weight" in head else MAPPING.replace(",weight=prio", "")
    if "demand_1" not in head:
        mapping = mapping.replace("cpu+mem", "cpu")
    base = ["--policy", "srpt", "--cluster", X_CLUSTER, "--k", "1"]
    assert _json(capsys, *base, "--jobs", jobs, "--columns", mapping) == \
        _json(capsys, *base, "--jobs", X_JOBS)


@pytest.mark.parametrize(("mapping", "words"), [
    ("speed=duration", "argument --columns: unknown field 'speed'"),
    ("arrival=", "argument --columns: arrival= names an empty column"),
    ("demand=cpu+", "argument --columns: demand= names an empty column"),
    ("arrival", "argument --columns: 'arrival' is not FIELD=COLUMN"),
    ("arrival=a,arrival=b", "field 'arrival' is mapped twice"),
    (MAPPING.replace("cpu+mem", "cpu+gpu"), "trace.csv:1: no column 'gpu' (mapped to "
                                            "'demand'); the columns are"),
    ("arrival=submit_time,processing=duration,id=job", "no column 'demand_0'"),
])
def test_bad_mappings_exit_2_in_one_line(capsys, tmp_path, mapping, words):
    jobs = _renamed(FL24_JOBS, tmp_path / "trace.csv")
    code = main(["schedule", "--policy", "mris", "--jobs", jobs, "--cluster", FL24_CLUSTER,
                 "--columns", mapping])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("packsched: error: ") and words in err, err

