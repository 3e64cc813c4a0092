"""Work and memory are estimated before allocation; a job no server can serve is
an input error wherever it enters (pg21_workload, simulate)."""

import subprocess
import sys

import pytest

import policies as P
from policies.footprint import run_bytes
from theory import Discrete, Uniform
from theory.budgets import BudgetExceeded

D = Discrete(["0.4", "0.6"])


@pytest.mark.parametrize("kw", [
    {"workload": 1e9},                                 # --workload 1e9
    {"workload": 1, "slots": 10_000_000_000},          # --slots 10000000000
    {"intensity": 1e9},                                # --intensity 1e9
    {"workload": 1, "servers": 100_000_000},           # --servers 100000000
])
def test_oversized_runs_are_refused_before_allocation(kw):
    args = {"servers": 1, "slots": 100_000, "mu": 0.01, "seed": 0, **kw}
    with pytest.raises(BudgetExceeded, match="memory_budget") as e:
        P.pg21_workload(D, **args)
    assert "would need about" in str(e.value) and "budget of 8 GiB" in str(e.value)


def test_budget_is_a_keyword_and_simulate_checks_it_too():
    w = P.pg21_workload(D, servers=2, slots=10_000, mu=0.1, workload=1, seed=0)
    with pytest.raises(BudgetExceeded):
        P.simulate(P.BFJS(), w, P.Cluster.identical(2), memory_budget=1000)
    with pytest.raises(BudgetExceeded):
        P.pg21_workload(D, servers=2, slots=10_000, mu=0.1, workload=1, memory_budget=1000)
    with pytest.raises(ValueError, match="memory_budget"):
        P.pg21_workload(D, servers=2, slots=10, mu=0.1, workload=1, memory_budget=-1)


@pytest.mark.parametrize("servers", [0, -1, True, 1.5, "2"])
def test_servers_must_be_a_positive_integer(servers):
    with pytest.raises(ValueError, match="servers must be a positive integer"):
        P.pg21_workload(D, servers=servers, slots=10, mu=0.1, workload=1)


def test_sizes_above_the_capacity_are_refused_in_the_workload():
    with pytest.raises(ValueError, match="exceeds the capacity 0.5"):
        P.pg21_workload(D, servers=1, slots=10, mu=0.1, workload=1, capacity=0.5)
    with pytest.raises(ValueError, match="exceeds the capacity"):
        P.pg21_workload(Uniform("0.1", "0.9"), servers=1, slots=10, mu=0.1, workload=1,
                        capacity=0.8)


@pytest.mark.parametrize("policy", [P.BFJS(), P.VQS(J=3), P.FIFOFF()])
def test_simulate_refuses_a_job_larger_than_every_server(policy):
    w = P.pg21_workload(D, servers=1, slots=1000, mu=0.1, workload=1, seed=0)
    with pytest.raises(ValueError, match=r"job \d+ of size 0\.[46] exceeds the capacity 0\.3"):
        P.simulate(policy, w, P.Cluster.identical(1, 0.3))


def test_estimate_bounds_a_measured_run():
    """The footprint of a 360k-job run (peak RSS growth of a fresh process over a small
    run) is below the estimate (measured here: 96 MiB against 153 MiB)."""
    code = (
        "import resource, policies as P\n"
        "from theory import Uniform\n"
        "w0 = P.pg21_workload(Uniform('0.1','0.9'), servers=100, slots=1000, mu=0.01,"
        " intensity=0.9, seed=1)\n"
        "P.simulate(P.BFJS(), w0, P.Cluster.identical(100))\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "w = P.pg21_workload(Uniform('0.1','0.9'), servers=100, slots=200_000, mu=0.01,"
        " intensity=0.9, seed=1)\n"
        "r = P.simulate(P.BFJS(), w, P.Cluster.identical(100))\n"
        "print(w.jobs, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout.split()
    jobs, used = int(out[0]), int(out[1])
    estimate = run_bytes(jobs, 200_000, 100)
    print(f"{jobs} jobs: measured {used / 2**20:.0f} MiB, estimated {estimate / 2**20:.0f} MiB")
    assert used <= estimate, (jobs, used, estimate)
