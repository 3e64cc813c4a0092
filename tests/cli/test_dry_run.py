"""``--dry-run`` of ``simulate`` and ``schedule``, one policy per family: every input is
checked and the policy built, nothing runs (a horizon no run could finish is accepted
at once); a bad value is the same one line, exit 2, as the run would give."""

from __future__ import annotations

import json
import time
from importlib import resources

import pytest

from packsched.cli import main

DATA = resources.files("theory.data")
XLL_JOBS = str(DATA / "xll21_example1_jobs.csv")
XLL_CLUSTER = str(DATA / "xll21_example1_cluster.csv")
FL_JOBS, FL_CLUSTER = str(DATA / "fl24_example_jobs.csv"), str(DATA / "fl24_example_cluster.csv")

FAMILIES = {
    "pg21-slotted": ["simulate", "--policy", "vqs-bf", "--sizes", "0.4,0.6", "--servers", "2",
                     "--intensity", "0.9", "--slots", "1000000000"],
    "pg18-continuous": ["simulate", "--policy", "rms", "--sizes", "2;5", "--capacity", "10",
                        "--servers", "10", "--rates", "20.8,10.4", "--time", "1e5"],
    "xll21-preemptive": ["schedule", "--policy", "ocorp", "--jobs", XLL_JOBS, "--cluster",
                         XLL_CLUSTER, "--no-memory"],
    "fl24-nonpreemptive": ["schedule", "--policy", "mris", "--jobs", FL_JOBS, "--cluster",
                           FL_CLUSTER],
}


@pytest.mark.parametrize("family", FAMILIES)
def test_a_dry_run_checks_and_runs_nothing(capsys, family):
    t0 = time.perf_counter()
    code = main([*FAMILIES[family], "--dry-run", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out) == {"dry_run": True, "inputs": "ok",
                                             "policy": FAMILIES[family][2]}
    assert time.perf_counter() - t0 < 30  # nothing of the horizon was simulated


@pytest.mark.parametrize("argv, words", [
    (["simulate", "--policy", "bf-js", "--sizes", "0.4,1.6", "--intensity", "0.5"],
     "a job size 1.6 exceeds the capacity 1"),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--intensity", "0.5", "--mu", "0"],
     "--mu: must be > 0"),
    (["simulate", "--policy", "rms", "--sizes", "2;5", "--capacity", "10", "--rates",
      "1,-1", "--time", "10"], "rates[1] must be positive"),
    (["simulate", "--policy", "rms", "--sizes", "2;5", "--capacity", "10", "--rates",
      "20.8,10.4", "--time", "1e7"], "would need about 126 GiB"),
    (["schedule", "--policy", "ocorp", "--jobs", "no/such.csv", "--cluster", XLL_CLUSTER],
     "no/such.csv"),
])
def test_a_dry_run_refuses_what_the_run_would(capsys, argv, words):
    code = main([*argv, "--dry-run"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and words in err and err.count("\n") == 1
    assert main(argv) == 2 and words in capsys.readouterr().err
