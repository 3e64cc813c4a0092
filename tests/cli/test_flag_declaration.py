"""Every flag of ``simulate`` and ``schedule`` is used or refused for each policy: the
(flag, policy) pairs come from the parser itself, the expectation from the one declaration
(:mod:`policies.options`), and each pair is run.

* refused: exit 2, one line naming the flag;
* used: exit 0 and a JSON answer whose computed fields differ from the run without the
  flag (keys that only echo the input are left out of the comparison, on instances
  where the option binds); a budget flag instead refuses a tiny budget naming itself;
  ``--engine`` changes how, not what (the same trajectory), and is recorded as run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from packsched.cli import build_parser, main
from policies.options import accepted_options
from policies.registry import POLICIES

COMMAND_LEVEL = {"help", "policy", "json", "dry_run", "columns"}
#: keys that echo the input or time the run: a flag that changed only these changed nothing
VOLATILE = {"seconds", "jobs_file", "cluster_file", "engine_seconds", "events_per_second",
            "params", "input", "k", "engine"}
BUDGETS = {"max_memory": "64", "max_configurations": "1", "max_ticks": "1",
           "max_dp_cells": "1", "max_slots": None}

#: loaded enough that decisions matter: queues form, small jobs exist (vqs's J), RMS's
#: weights grow (epsilon, f, b)
PG21_BASE = ["--sizes", "0.05,0.3,0.6", "--workload", "1.2", "--slots", "3000"]
PG18_BASE = ["--sizes", "0.3;0.6", "--rates", "3,0.5", "--time", "300", "--servers", "2"]
#: PG21 instances where an option binds (PG21 V-B: hol differs only beyond k_j jobs of a
#: VQ_j, as tests/policies/slotted/test_vqs_rounding.py shows; small jobs need load to matter)
PG21_SPECIAL = {
    "hol": ["--sizes", "0.24,0.17", "--J", "3", "--workload", "8", "--mu", "0.02",
            "--slots", "5000"],
    "small_jobs": ["--sizes", "0.05,0.3,0.6", "--J", "2", "--workload", "2.5", "--slots",
                   "3000"],
}

#: a non-default value per flag (per family where the two differ); flags that define the
#: base command or replace part of it are handled in the test
VALUES: dict[str, list[str]] = {
    "probs": ["--probs", "0.2,0.3,0.5"], "counts": ["--counts", "1,3,2"],
    "servers": ["--servers", "3"], "capacity": ["--capacity", "2"],
    "deterministic": ["--deterministic", "7"], "arrivals": ["--arrivals", "bernoulli"],
    "slots": ["--slots", "2500"], "seed": ["--seed", "4"], "J": ["--J", "2"],
    "small_jobs": ["--small-jobs", "actual"], "hol": ["--hol", "stop"],
    "service": ["--service", "deterministic"], "samples": ["--samples", "77"],
    "engine": ["--engine", "python"], "clock_rates": ["--clock-rates", "9"],
    "epsilon": ["--epsilon", "0.9"], "f": ["--f", "log-power"], "b": ["--b", "0.2"],
    "stop_fraction": ["--stop-fraction", "0.2"], "scv": ["--scv", "9"],
    "pareto_alpha": ["--pareto-alpha", "1.5"],
}
FAMILY_VALUES = {
    "pg21-slotted": {"mu": ["--mu", "0.2"], "warmup": ["--warmup", "100"]},
    "pg18-continuous": {"mu": ["--mu", "2"], "warmup": ["--warmup", "5"]},
}
#: flags that refine another: given with it, and the baseline has the other alone
COMPANIONS = {"b": ["--f", "log-power"], "scv": ["--service", "hyperexponential"],
              "pareto_alpha": ["--service", "pareto"]}


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _dests(command: str) -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return [a.dest for a in sub._actions if a.dest not in COMMAND_LEVEL]


def _run(capsys, argv: list[str]) -> tuple[int, dict | None, str]:
    code = main(argv + ["--json"])
    out, err = capsys.readouterr()
    data = json.loads(out) if code == 0 else None
    if data is not None:
        for key in VOLATILE:
            data.pop(key, None)
    return code, data, err


def _raw(capsys, argv: list[str]) -> str:
    main(argv + ["--json"])
    return capsys.readouterr().out


def _declared_somewhere(dest: str, families: tuple[str, ...]) -> bool:
    return any(dest in accepted_options(n) for n, p in POLICIES.items() if p.family in families)


@pytest.mark.parametrize("command,families", [
    ("simulate", ("pg21-slotted", "pg18-continuous")),
    ("schedule", ("xll21-preemptive", "fl24-nonpreemptive")),
])
def test_every_parser_flag_is_declared(command, families):
    """A flag no policy of the command declares would be refused everywhere, or (before
    the declaration) silently dropped: each flag has a policy that uses it."""
    missing = [d for d in _dests(command) if not _declared_somewhere(d, families)]
    assert not missing, f"{command}: flags no policy declares: {missing}"


def _simulate_cases():
    for family, base in (("pg21-slotted", PG21_BASE), ("pg18-continuous", PG18_BASE)):
        names = [n for n, p in POLICIES.items() if p.family == family]
        # a family's run options are the same for each of its policies: one suffices;
        # keywords (and max_ticks, for clocked policies) are checked on every policy
        per_policy = {k for n in names for k in POLICIES[n].keywords} | {"max_ticks"}
        for dest in _dests("simulate"):
            for name in (names if dest in per_policy else names[:1]):
                yield pytest.param(family, name, dest, base, id=f"{name}-{dest}")


@pytest.mark.parametrize("family,policy,dest,base", list(_simulate_cases()))
def test_simulate_flag_is_used_or_refused(capsys, family, policy, dest, base):
    if family == "pg21-slotted" and dest in PG21_SPECIAL:
        base = PG21_SPECIAL[dest]
    argv = ["simulate", "--policy", policy, *base]
    if policy == "maxweight" and dest != "levels":
        argv = ["simulate", "--policy", policy, "--sizes", "0.4", "--workload", "1",
                "--slots", "2000", "--mu", "0.05"]
    value = FAMILY_VALUES[family].get(dest, VALUES.get(dest))
    if dest in COMPANIONS and COMPANIONS[dest][0].lstrip("-") in accepted_options(policy):
        base = [*base, *COMPANIONS[dest]]
        argv = [*argv, *COMPANIONS[dest]]
    if dest in ("sizes", "rates", "time", "workload", "intensity"):
        return  # the base command's own inputs
    if dest in ("dist", "levels", "traffic_scaling") or dest == "trace":
        alt = {"dist": ["--dist", "uniform:0.2,0.6"], "trace": ["--trace", "google2011"]}
        if dest == "levels":
            value = ["--dist", "uniform:0.2,0.6", "--levels", "1"]
        elif dest == "traffic_scaling":
            value = ["--trace", "google2011", "--traffic-scaling", "2"]
        else:
            value = alt[dest]
        argv = ["simulate", "--policy", policy,
                *(["--workload", "1.2", "--slots", "2000"] if dest != "traffic_scaling"
                  and dest != "trace" else ["--slots", "2000"])]
        if family == "pg18-continuous":
            argv = ["simulate", "--policy", policy, *PG18_BASE]
            if dest in ("dist", "levels", "trace", "traffic_scaling"):
                # --sizes excludes --dist/--trace in the parser: drop it to reach the
                # declaration
                argv = ["simulate", "--policy", policy, "--rates", "1,1", "--time", "20"]
    if dest in BUDGETS:
        value = [_flag(dest), BUDGETS[dest]] if BUDGETS[dest] else None
        if value is None:
            pytest.skip("not a simulate budget")
    if value is None:
        value = [_flag(dest), "1"]
    code, data, err = _run(capsys, argv + value)
    used = dest in accepted_options(policy)
    if not used:
        assert code == 2, (code, err)
        assert _flag(dest) in err, err
        assert "does not use it" in err or "is used only" in err, err
        return
    if dest in BUDGETS:
        assert code == 2 and _flag(dest) in err, (code, err)
        return
    if dest == "engine":  # how, not what: the same trajectory, recorded as run
        assert code == 0
        assert json.loads(_raw(capsys, argv + value))["params"]["engine"] == "python"
        return
    assert code == 0, err
    bcode, baseline, berr = _run(capsys, argv)
    if bcode != 0:
        return  # the flag made a run possible that is refused without it (e.g. --mu)
    assert data != baseline, f"{_flag(dest)} accepted by {policy} but changed nothing"


SCHEDULE_VALUES = {
    "k": ["--k", "3"], "gamma": ["--gamma", "50"], "mu": ["--mu", "300"],
    "alpha": ["--alpha", "0.5"], "max_slots": ["--max-slots", "2", "--allow-unfinished"],
    "allow_unfinished": ["--max-slots", "2", "--allow-unfinished"],
    "eps": ["--eps", "0.5"], "sort": ["--sort", "erf"], "gamma0": ["--gamma0", "4"],
    "capacity_rule": ["--capacity-rule", "printed"],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("flags")
    # XLL21: memory binds (3 + 3 > 4), cores do not; FL24: fractions of a unit machine
    (d / "x_jobs.csv").write_text("id,arrival,processing,weight,demand_0,demand_1\n"
                                  "a,0,3,1,1,3\nb,0,2,2,1,3\nc,1,1,1,2,1\n")
    (d / "x_cluster.csv").write_text("id,capacity_0,capacity_1\nm,4,4\n")
    rng = np.random.default_rng(39)  # 60 jobs: MRIS's knapsack and order both bind
    rows = [f"j{i},{rng.integers(0, 20)},{rng.integers(1, 40) / 4},{rng.integers(1, 9)},"
            f"{rng.integers(5, 95) / 100},{rng.integers(5, 95) / 100}" for i in range(60)]
    (d / "f_jobs.csv").write_text("id,arrival,processing,weight,demand_0,demand_1\n"
                                  + "\n".join(rows) + "\n")
    (d / "f_cluster.csv").write_text("id,capacity_0,capacity_1\nm,1,1\nn,1,1\n")
    return d


def _schedule_cases():
    for name, info in POLICIES.items():
        if info.family in ("xll21-preemptive", "fl24-nonpreemptive") \
                and name != "ocorp-mapreduce":
            for dest in _dests("schedule"):
                if dest not in ("jobs", "cluster"):
                    yield pytest.param(name, dest, id=f"{name}-{dest}")


@pytest.mark.parametrize("policy,dest", list(_schedule_cases()))
def test_schedule_flag_is_used_or_refused(capsys, files, policy, dest):
    xll21 = POLICIES[policy].family == "xll21-preemptive"
    p = "x" if xll21 else "f"
    cores_only = xll21 and not POLICIES[policy].factory().uses_memory
    base = ["schedule", "--policy", policy, "--jobs", str(files / f"{p}_jobs.csv"),
            "--cluster", str(files / f"{p}_cluster.csv"), *(["--no-memory"] * cores_only)]
    if dest == "memory":
        # memory is modelled by default where a policy models it: dropping it must matter;
        # a cores-only policy refuses to model it
        value = ["--memory"] if cores_only else ["--no-memory"]
        if cores_only:
            base.remove("--no-memory")
    elif BUDGETS.get(dest):
        value = [_flag(dest), BUDGETS[dest]]
    else:
        value = SCHEDULE_VALUES[dest]
    code, data, err = _run(capsys, base + value)
    used = dest in accepted_options(policy)
    if not used:
        assert code == 2 and _flag(dest) in err and "does not use it" in err, (code, err)
        return
    if cores_only and dest == "memory":
        assert code == 2 and "--memory" in err, (code, err)
        return
    if BUDGETS.get(dest) and code != 0:  # a tiny budget is refused naming its flag
        assert code == 2 and _flag(dest) in err, (code, err)
        return
    assert code == 0, err
    bcode, baseline, _ = _run(capsys, base)
    assert bcode == 0
    assert data != baseline, f"{' '.join(value)} accepted by {policy} but changed nothing"
