"""No evidence is not stability: a slotted run in which no job arrived, or none left, is
inconclusive, with the reason."""

import json

import policies as P
from packsched.cli import main
from theory import Discrete


def test_no_arrival_is_inconclusive_with_reason():
    w = P.pg21_workload(Discrete(["0.4"]), servers=1, slots=20_000, mu=1e-300,
                        workload=1.4, seed=0)
    r = P.simulate(P.BFJS(), w, P.Cluster.identical(1))
    assert r.jobs == 0
    assert r.stability is not None and r.stability.verdict == "stable"  # the bare judge
    assert r.verdict == "inconclusive"
    assert "no job arrived" in r.verdict_reason
    assert r.summary()["verdict_reason"] == r.verdict_reason


def test_a_run_with_arrivals_has_no_reason():
    w = P.pg21_workload(Discrete(["0.4"]), servers=1, slots=20_000, mu=0.05,
                        workload=0.5, seed=0)
    r = P.simulate(P.BFJS(), w, P.Cluster.identical(1))
    assert r.jobs > 0 and r.verdict_reason is None and r.verdict == "stable"


def test_cli_no_arrival_cases(capsys):
    for extra in (["--mu", "1e-300", "--workload", "1.4"],
                  ["--deterministic", "1000000000000", "--workload", "1"]):
        assert main(["simulate", "--policy", "bf-js", "--sizes", "0.4", "--json", *extra]) == 0
        d = json.loads(capsys.readouterr().out)
        assert d["jobs"] == 0 and d["verdict"] == "inconclusive"
        assert "no job arrived" in d["verdict_reason"]


def test_a_run_in_which_no_job_left_is_inconclusive():
    """Jobs arrive but every service outlasts the run: the queue only fills up."""
    w = P.pg21_workload(Discrete(["0.4"]), servers=1, slots=20_000, deterministic=10**6,
                        workload=100, seed=0)
    r = P.simulate(P.BFJS(), w, P.Cluster.identical(1))
    assert r.jobs > 0 and r.departures == 0
    assert r.verdict == "inconclusive" and "no job left" in r.verdict_reason
