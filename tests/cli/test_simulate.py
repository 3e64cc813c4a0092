"""``packsched simulate`` and ``packsched policies``: the JSON contract of docs/design.md,
exit codes, and agreement with the library."""

from __future__ import annotations

import json

import numpy as np
import pytest

import policies as P
from packsched.cli import main
from theory.distributions import Discrete

DESIGN_KEYS = {"verdict", "mean_queue", "mean_queued_resource", "final_queue", "jobs",
               "seconds", "invariants_ok"}
SLOTS = "20000"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> dict:
    """Run with ``--json``; stdout must be exactly one JSON object on one line."""
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert out.endswith("\n") and out.count("\n") == 1, out
    d = json.loads(out)
    assert isinstance(d, dict)
    return d


def sim(capsys, *argv: str) -> dict:
    return run_json(capsys, "simulate", "--slots", SLOTS, *argv)


def test_json_design_keys(capsys):
    d = sim(capsys, "--policy", "bf-js", "--sizes", "0.4,0.6", "--mu", "0.05",
            "--workload", "1.2")
    assert DESIGN_KEYS <= set(d)
    assert d["verdict"] in ("stable", "unstable", "inconclusive")
    assert d["invariants_ok"] is True
    assert isinstance(d["jobs"], int) and d["jobs"] > 0
    assert isinstance(d["final_queue"], int)
    assert d["policy"] == "bf-js" and d["slots"] == 20000 and d["warmup"] == 4000
    assert d["input"]["arrival_rate"] == pytest.approx(1.2 * 0.05)
    assert d["input"]["workload"] == pytest.approx(1.2)
    assert d["input"]["service"] == "geometric" and d["input"]["seed"] == 0


def test_json_matches_library(capsys):
    """The CLI is a thin layer: same workload and run as the Python API."""
    d = sim(capsys, "--policy", "vqs", "--sizes", "0.4,0.6", "--mu", "0.05",
            "--workload", "1.2", "--servers", "2", "--seed", "11")
    dist = Discrete(["0.4", "0.6"])
    w = P.pg21_workload(dist, servers=2, slots=20000, mu=0.05, workload=1.2, seed=11)
    r = P.simulate(P.make_policy("vqs", dist=dist), w, P.Cluster.identical(2))
    s = r.summary()
    for k in ("verdict", "mean_queue", "mean_queued_resource", "final_queue", "jobs",
              "started", "mean_occupancy"):
        assert d[k] == pytest.approx(s[k]) if isinstance(s[k], float) else d[k] == s[k]
    assert d["params"] == s["params"]


def test_seed_reproducible_and_seed_dependent(capsys):
    args = ("--policy", "bf-j", "--dist", "uniform:0.1,0.9", "--servers", "3",
            "--intensity", "0.8", "--mu", "0.05")
    a = sim(capsys, *args, "--seed", "4")
    b = sim(capsys, *args, "--seed", "4")
    c = sim(capsys, *args, "--seed", "5")
    a.pop("seconds")
    b.pop("seconds")
    assert a == b
    assert (c["jobs"], c["mean_queue"]) != (a["jobs"], a["mean_queue"])


def test_intensity_rate(capsys):
    # PG21 VII-A: rho = alpha L / R-bar; R-bar = 3/10 in capacity units
    d = sim(capsys, "--policy", "bf-js", "--capacity", "10", "--sizes", "2,5",
            "--probs", "2/3,1/3", "--servers", "2", "--intensity", "0.9", "--mu", "0.01")
    assert d["input"]["arrival_rate"] == pytest.approx(0.9 * 2 / 0.3 * 0.01)
    assert d["input"]["intensity"] == 0.9
    assert d["input"]["workload"] == pytest.approx(0.9 * 2 / 0.3)


def test_capacity_units_deterministic(capsys):
    d = sim(capsys, "--policy", "bf-js", "--sizes", "2,5", "--capacity", "10",
            "--deterministic", "100", "--workload", "2")
    assert DESIGN_KEYS <= set(d)
    assert d["invariants_ok"] is True
    assert d["input"]["capacity"] == 10.0
    assert d["input"]["service"] == "deterministic"
    assert d["input"]["mean_service"] == 100.0
    assert d["input"]["arrival_rate"] == pytest.approx(0.02)
    # same run as the capacity-1 version (sizes 0.2, 0.5), queued resource x 10
    e = sim(capsys, "--policy", "bf-js", "--sizes", "0.2,0.5", "--deterministic", "100",
            "--workload", "2")
    for k in ("jobs", "started", "final_queue", "mean_queue", "verdict"):
        assert d[k] == e[k]
    assert d["mean_queued_resource"] == pytest.approx(10 * e["mean_queued_resource"])
    assert d["mean_occupancy"] == pytest.approx(e["mean_occupancy"])


@pytest.mark.parametrize("policy", [
    "bf-j", "bf-s", "bf-js", "fifo-ff", "fifo-ff-skip", "vqs", "vqs-bf", "maxweight",
])
def test_capacity_units_are_scale_free(capsys, policy):
    """``--capacity 10 --sizes 2,5`` is the same system as ``--sizes 0.2,0.5``."""
    args = ("--policy", policy, "--probs", "2/3,1/3", "--mu", "0.05", "--workload", "2.5")
    code, out, err = run(capsys, "simulate", "--slots", SLOTS, *args, "--capacity", "10",
                         "--sizes", "2,5", "--json")
    assert code == 0, err
    d = json.loads(out)
    e = sim(capsys, *args, "--sizes", "0.2,0.5")
    assert d["params"] == e["params"]
    for k in ("jobs", "started", "final_queue", "mean_queue", "verdict"):
        assert d[k] == e[k]


def test_text_output(capsys):
    code, out, err = run(capsys, "simulate", "--slots", "2000", "--policy", "fifo-ff",
                         "--sizes", "0.4,0.6", "--workload", "1")
    assert code == 0, err
    assert out.startswith("policy fifo-ff on 1 server(s), 2000 slots")
    assert "verdict:" in out and "invariants ok" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_short_run_inconclusive(capsys):
    d = run_json(capsys, "simulate", "--slots", "30", "--policy", "bf-js", "--sizes", "0.5",
                 "--workload", "1")
    assert d["verdict"] == "inconclusive" and d["stability"] is None
    assert "slot(s) after the warm-up" in d["verdict_reason"]
    code, out, err = run(capsys, "simulate", "--slots", "30", "--policy", "bf-js",
                         "--sizes", "0.5", "--workload", "1")
    assert code == 0 and "slot(s) after the warm-up" in out


def test_bernoulli_arrivals(capsys):
    d = sim(capsys, "--policy", "bf-js", "--sizes", "0.5", "--mu", "0.1", "--workload", "1.5",
            "--arrivals", "bernoulli")
    assert d["input"]["arrivals"] == "bernoulli"
    assert d["jobs"] == pytest.approx(20000 * 0.15, abs=6 * np.sqrt(20000 * 0.15))


# -- usage errors: exit 2, message on stderr, nothing on stdout -------------------------------


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--intensity", "0.5"],
     "not allowed with"),
    (["--policy", "bf-js", "--sizes", "0.4"], "exactly one of --workload"),
    (["--policy", "nope", "--sizes", "0.4", "--workload", "1"], "unknown policy 'nope'"),
    (["--policy", "BF-JS", "--sizes", "0.4", "--workload", "1"], "unknown policy"),
    (["--policy", "bf-js", "--sizes", "2,12", "--capacity", "10", "--workload", "1"],
     "exceeds the capacity"),
    (["--policy", "bf-js", "--sizes", "1.5", "--workload", "1"], "exceeds the capacity"),
    (["--policy", "bf-js", "--workload", "1"], "give the sizes"),
    (["--policy", "bf-js", "--sizes", "0.4", "--dist", "uniform:0.1,0.9", "--workload", "1"],
     "not allowed with"),
    (["--policy", "bf-js", "--sizes", "0.4,0.6", "--probs", "0.5,0.6", "--workload", "1"],
     "sum to"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--servers", "0"],
     "--servers/-L: must be a positive integer"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--slots", "0"],
     "--slots: must be a positive integer"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--warmup", "30000"],
     "warmup"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "-1"], "workload"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--mu", "0"], "mu"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--mu", "1.5"], "mu"),
    (["--policy", "bf-js", "--sizes", "0.4:0.2", "--workload", "1"], "single-resource"),
    (["--policy", "bf-js", "--dist", "uniform:0.1,0.9", "--capacity", "10",
      "--workload", "1"], "capacity must be 1"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "20", "--mu", "0.1",
      "--arrivals", "bernoulli"], "rate <= 1"),
    (["--policy", "bf-js", "--trace", "google2011", "--workload", "1"],
     "brings its own sizes"),
    (["--policy", "bf-js", "--trace", "borg", "--slots", "10"], "supports google2011"),
    (["--policy", "vqs", "--sizes", "0.4", "--workload", "1", "--J", "1"], "J must be"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--hol", "stop"],
     "--hol: bf-js does not use it"),
    (["--policy", "vqs-bf", "--sizes", "0.4", "--workload", "1", "--hol", "stop"],
     "--hol: vqs-bf does not use it"),
    (["--policy", "vqs", "--sizes", "0.4", "--workload", "1", "--small-jobs", "up"],
     "invalid choice"),
    (["--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--J", "3"],
     "--J: bf-js does not use it"),
    (["--policy", "vqs", "--sizes", "0.4", "--workload", "1", "--levels", "3"],
     "--levels: vqs does not use it"),
    (["--policy", "fifo-ff", "--sizes", "0.4", "--workload", "1", "--max-configurations",
      "9"], "--max-configurations: fifo-ff does not use it"),
    (["--policy", "rms", "--sizes", "0.3,0.6", "--intensity", "0.5", "--time", "10",
      "--small-jobs", "actual"], "--small-jobs: rms does not use it"),
    (["--policy", "rms", "--sizes", "0.3,0.6", "--intensity", "0.5", "--time", "10",
      "--levels", "3"], "--levels: rms does not use it"),
    (["--sizes", "0.4", "--workload", "1"], "--policy"),
])
def test_usage_errors(capsys, argv, fragment):
    code, out, err = run(capsys, "simulate", "--slots", SLOTS, *argv, "--json")
    assert code == 2
    assert out == ""
    assert fragment in err


# -- policies ---------------------------------------------------------------------------------


def test_policies_json(capsys):
    d = run_json(capsys, "policies")
    assert d["policies"] == P.available_policies()
    for name in ("bf-j", "bf-s", "bf-js", "vqs", "vqs-bf", "fifo-ff", "maxweight"):
        assert name in d["policies"]
    assert [r["name"] for r in d["details"]] == d["policies"]
    assert all(r["description"] and r["reference"] for r in d["details"])


def test_policies_text(capsys):
    code, out, _ = run(capsys, "policies")
    assert code == 0
    lines = out.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == P.available_policies()


@pytest.mark.parametrize("name", P.policies_of("pg21-slotted"))
def test_every_listed_policy_simulates(capsys, name):
    d = sim(capsys, "--policy", name, "--sizes", "0.3,0.5,0.7", "--servers", "2",
            "--intensity", "0.7", "--mu", "0.05")
    assert d["invariants_ok"] is True and d["started"] > 0


@pytest.mark.parametrize("name", P.policies_of("xll21-preemptive"))
def test_other_families_are_sent_to_their_command(capsys, name):
    code, out, err = run(capsys, "simulate", "--policy", name, "--sizes", "0.4",
                         "--workload", "1")
    assert code == 2 and "packsched schedule" in err


def test_vqs_small_jobs_flag_changes_the_run(capsys):
    """PG21 V-A: jobs <= 1/2^J occupy 1/2^J. Sizes {0.05, 0.15}, J = 2, two servers: the
    rounded rule admits 4 jobs per server (unstable at workload 12 > 2 * 4), actual sizes
    up to 16 (stable)."""
    argv = ["simulate", "--policy", "vqs", "--sizes", "0.05,0.15", "--J", "2", "--servers",
            "2", "--mu", "0.02", "--workload", "12", "--slots", "20000", "--json"]
    assert run_json(capsys, *argv)["stability"]["verdict"] == "unstable"
    assert run_json(capsys, *argv, "--small-jobs", "actual")["stability"]["verdict"] == \
        "stable"
