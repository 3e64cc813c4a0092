"""``--trace NAME`` in ``rho-star``, ``simulate`` and ``schedule``: every packaged trace
end to end on a small selection, the units said in the JSON, and one-line refusals for
what a trace lacks or a name that is not one."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from packsched.cli import main


def run_json(capsys, *argv: str) -> dict:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def refused(capsys, *argv: str) -> str:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("packsched: error: ") and len(err.strip().splitlines()) == 1, err
    return err


# -- rho-star --------------------------------------------------------------------------


@pytest.mark.parametrize("name, unit", [
    ("google2011:cpu:first=100", "the largest machine"),
    ("google2019:b:cpu:first=100", "cell b's largest capacity of each resource"),
    ("alibaba2017:cpu:first=167", "64 cores, normalised memory 1"),
    ("azure2017:dev:vector", "an assumed host of 16 cores and 112 GB"),
])
def test_rho_star_of_each_trace(capsys, name, unit):
    d = run_json(capsys, "rho-star", "--trace", name)
    assert d["input"]["kind"] == "trace" and d["input"]["trace"].startswith(name.split(":")[0])
    assert unit in d["input"]["unit"]
    assert d["certified"] is True and d["status"] != "time_limit"
    assert Fraction(d["lower_exact"]) <= Fraction(d["upper_exact"])


def test_rho_star_of_divisible_sizes_is_one_over_the_mean(capsys):
    """azure2017:test:cpu: cores 1..16 of 16 divide each other: rho* = 1 / E[S]."""
    d = run_json(capsys, "rho-star", "--trace", "azure2017:test:cpu")
    probs = [Fraction(p) for p in d["input"]["probs_exact"]]
    sizes = [Fraction(s) for s in d["input"]["sizes_exact"]]
    mean = sum(p * s for p, s in zip(probs, sizes, strict=True))
    assert Fraction(d["lower_exact"]) == Fraction(d["upper_exact"]) == 1 / mean


def test_rho_star_on_the_most_common_machine(capsys):
    """google2019 cell c packed on its most common machine (0.259..., 0.1667...): sizes
    are divided by it (Part A's normalisation), and a size above it is named."""
    d = run_json(capsys, "rho-star", "--trace", "google2019:c:vector:first=20",
                 "--capacity", "0.25927734375:0.166748046875", "--grid", "40:40")
    assert d["input"]["most_common_machine"]["machines"] == 3389
    assert d["input"]["normalised"].startswith("normalised by capacity (")
    assert d["certified"] is True
    err = refused(capsys, "rho-star", "--trace", "google2019:c:vector",
                  "--capacity", "0.25927734375:0.166748046875")
    assert "exceeds the capacity" in err and "in resource 2" in err


def test_a_large_trace_is_bracketed_and_says_so(capsys):
    d = run_json(capsys, "rho-star", "--trace", "google2019:b:cpu", "--grid", "500")
    assert d["bracket"] is True and d["certified"] is True and d["input"]["types"] > 200
    assert "rho_star" not in d  # an interval, never a point it has not proven


# -- simulate --------------------------------------------------------------------------


@pytest.mark.parametrize("name, servers, slots, slot_seconds", [
    ("google2011", "50", "300", 0.1),
    ("alibaba2017", "40", "60", 1.0),
    ("azure2017:dev", "1500", "4", 300.0),
])
def test_simulate_replays_each_timed_trace(capsys, name, servers, slots, slot_seconds):
    d = run_json(capsys, "simulate", "--policy", "bf-js", "--trace", name, "--servers",
                 servers, "--slots", slots, "--traffic-scaling", "1.5")
    i = d["input"]
    assert i["trace"] == name and i["slot_seconds"] == slot_seconds
    assert i["traffic_scaling"] == 1.5 and i["arrivals"].startswith("trace: ")
    assert i["service"].startswith("trace: ") and i["mean_service"] is None
    assert i["unit"] and d["invariants_ok"] is True and d["jobs"] > 0


def test_simulate_google2019_is_a_size_law_with_synthetic_arrivals(capsys):
    d = run_json(capsys, "simulate", "--policy", "bf-js", "--trace", "google2019:h",
                 "--servers", "5", "--intensity", "0.8", "--slots", "500")
    assert d["input"]["arrivals"] == "synthetic (trace has no times)"
    assert d["input"]["arrival_process"] == "poisson" and d["input"]["cell"] == "h"
    assert d["input"]["service"] == "geometric"


# -- schedule --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["google2011:first=60", "alibaba2017:first=60",
                                  "azure2017:dev:first=60"])
@pytest.mark.parametrize("policy", ["srpt", "mris"])
def test_schedule_runs_each_trace(capsys, name, policy):
    d = run_json(capsys, "schedule", "--policy", policy, "--trace", name)
    assert d["jobs"] == 60 and d["invariants_ok"] is True
    assert d["trace"]["trace"] == name and d["jobs_file"] is None
    assert d["trace"]["time"] and d["trace"]["cluster"].startswith("default")


def test_schedule_trace_on_a_cluster_file(capsys, tmp_path):
    f = tmp_path / "cluster.csv"
    f.write_text("id,capacity_0,capacity_1\nm,1,1\n")
    d = run_json(capsys, "schedule", "--policy", "pq-wsjf", "--trace",
                 "azure2017:test:first=30", "--cluster", str(f))
    assert d["machines"] == 1 and d["trace"]["cluster"] == str(f)


# -- refusals --------------------------------------------------------------------------


@pytest.mark.parametrize("argv, pattern", [
    (["rho-star", "--trace", "googel2019"], r"no file 'googel2019'.*; did you mean google2019\?"),
    (["rho-star", "--trace", "google2019:i"], r"'i' is neither a cell \(a, b, .*h\) nor a kind"),
    (["rho-star", "--trace", "azure2017:cpus"], r"did you mean cpu\?"),
    (["rho-star", "--trace", "alibaba2017", "--finished-only"], r"google2011 trace only"),
    (["simulate", "--policy", "bf-js", "--trace", "alibaba2071", "--slots", "5"],
     r"--trace supports google2011, .*'alibaba2071'; did you mean alibaba2017\?"),
    (["simulate", "--policy", "bf-js", "--trace", "azure2017:train", "--slots", "5"],
     r"has no run times \(the train split's lifetime file, v1.train.c1800000.txt, was too "
     r"large to copy into the shared data\): use the "
     r"split dev, test or both"),
    (["simulate", "--policy", "bf-js", "--trace", "alibaba2017:vector", "--slots", "5"],
     r"single-resource"),
    (["simulate", "--policy", "bf-js", "--trace", "google2019", "--slots", "5",
      "--traffic-scaling", "2"], r"google2019 has none .*give --workload or --intensity"),
    (["simulate", "--policy", "bf-js", "--trace", "google2019", "--slots", "5"],
     r"give exactly one of --workload"),
    (["simulate", "--policy", "bf-js", "--trace", "azure2017", "--slots", "5",
      "--capacity", "2"], r"--capacity: --trace azure2017 gives sizes as fractions"),
    (["schedule", "--policy", "srpt", "--trace", "google2019"],
     r"google2019 has no times .* so it gives no job set: use google2011, alibaba2017 or "
     r"azure2017"),
    (["schedule", "--policy", "srpt", "--trace", "azure2017:all"], r"has no run times"),
    (["schedule", "--policy", "srpt", "--trace", "google2011:cpu"],
     r"leave the kind 'cpu' out"),
    (["schedule", "--policy", "srpt", "--trace", "gogle2011"],
     r"argument --trace: unknown trace 'gogle2011'.*; did you mean google2011\?"),
    (["schedule", "--policy", "srpt", "--trace", "google2011", "--columns", "id=x"],
     r"--columns maps the columns of a --jobs file"),
    (["schedule", "--policy", "srpt", "--jobs", "jobs.csv"], r"--cluster FILE is required"),
    (["schedule", "--policy", "mris", "--trace", "google2011", "--max-memory", "1G"],
     r"--max-memory budgets reading"),
])
def test_refusals_are_one_line(capsys, argv, pattern):
    err = refused(capsys, *argv)
    assert re.search(pattern, err), err
