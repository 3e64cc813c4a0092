"""``packsched schedule``: one XLL21 policy on the jobs and cluster files."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from packsched.cli import main

DATA = resources.files("theory.data")
JOBS, CLUSTER = str(DATA / "xll21_example1_jobs.csv"), str(DATA / "xll21_example1_cluster.csv")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_fair_on_example1_json(capsys):
    code, out, err = run(capsys, "schedule", "--policy", "fair", "--jobs", JOBS, "--cluster",
                         CLUSTER, "--k", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("policy", "jobs", "completion", "flowtime_lk", "fractional_flowtime_lk",
                "weighted_completion", "makespan", "preemptions", "migrations",
                "invariants_ok", "seconds"):
        assert key in d, key
    assert d["completion"] == [3, 5, 6] and d["flowtime_lk"] == 14
    assert d["fractional_flowtime_lk"] == pytest.approx(3 + 5.25 + 43 / 6)
    assert d["invariants_ok"] is True


@pytest.mark.parametrize("policy", ["ocorp", "ocorp-m", "srpt", "srvf", "svf", "srf",
                                    "transient-svf"])
def test_every_file_policy_runs(capsys, policy):
    extra = ["--no-memory"] if policy in ("ocorp", "transient-svf") else []
    code, out, err = run(capsys, "schedule", "--policy", policy, "--jobs", JOBS, "--cluster",
                         CLUSTER, "--json", *extra)
    assert code == 0, err
    assert json.loads(out)["invariants_ok"] is True


@pytest.mark.parametrize(("argv", "words"), [
    (["--policy", "bf-js"], "pg21-slotted policy"),
    (["--policy", "nope"], "unknown policy 'nope': --policy must be one of"),
    (["--policy", "ocorp-mapreduce"], "Python API"),
    (["--policy", "srpt", "--k", "0.5"], "--k"),
    (["--policy", "srpt", "--alpha", "3"], "srpt"),
    (["--policy", "transient-svf", "--memory"], "--no-memory"),
])
def test_usage_errors(capsys, argv, words):
    code, out, err = run(capsys, "schedule", "--jobs", JOBS, "--cluster", CLUSTER, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("packsched: error: ") and words in err


def test_malformed_file_names_file_and_line(capsys, tmp_path):
    f = tmp_path / "jobs.csv"
    f.write_text("id,arrival,processing,demand_0,demand_1\nj,0,1.5,1,1\n")
    code, out, err = run(capsys, "schedule", "--policy", "srpt", "--jobs", str(f),
                         "--cluster", CLUSTER)
    assert code == 2 and f"{f}:2: field 'processing'" in err


def test_each_command_runs_the_families_the_registry_gives_it(capsys):
    """Routing comes from the registry (policies.registry.FAMILIES): every policy of a
    family is accepted by its command and refused by the other, naming its command."""
    from policies.registry import FAMILIES, POLICIES

    for name, info in POLICIES.items():
        command = FAMILIES[info.family].command
        other = (["simulate"] if command == "schedule"
                 else ["schedule", "--jobs", JOBS, "--cluster", CLUSTER])
        code, out, err = run(capsys, *other, "--policy", name)
        assert code == 2 and f"run it with packsched {command}" in err, (name, err)
