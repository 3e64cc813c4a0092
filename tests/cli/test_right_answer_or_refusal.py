"""Every answer right or refused: regressions for the XLL21 ``schedule`` command, the PG18
``simulate`` flags and the CLI's error lines, each once wrong (a stopped run printed as
finished, a column ignored, a flag text reaching an internal error, a job far in the future
stepped to one slot at a time)."""

from __future__ import annotations

import io
import json
import sys
import time

import numpy as np
import pytest

from packsched.cli import main
from policies.preemptive import run_schedule
from policies.registry import make_policy
from theory.budgets import BudgetExceeded
from theory.job_sets import JobSet, Machines
from theory.progress import Progress


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def one_job(tmp_path):
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0\na,0,5,1,1\n")
    (tmp_path / "c.csv").write_text("id,capacity_0\nm,1\n")
    return ["--jobs", str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv")]


# -- stopped runs are not printed as finished --------------------------------------------


@pytest.mark.parametrize("argv", [
    ["--policy", "srpt", "--max-slots", "1"],
    ["--policy", "ocorp", "--gamma", "1e300"],
    ["--policy", "ocorp", "--mu", "1e-300"],
    ["--policy", "fair", "--max-slots", "4"],  # a variant: one slot short
])
def test_stopped_run_exits_3_with_one_line(capsys, one_job, argv):
    code, out, err = run(capsys, "schedule", *argv, *one_job, "--json")
    assert code == 3 and out == ""
    errors = [line for line in err.splitlines() if line.startswith("packsched: error:")]
    assert len(errors) == 1 and "stopped" in errors[0] and "--allow-unfinished" in errors[0]


def test_ocorp_m_constant_mu_stops(capsys, tmp_path):
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0,demand_1\n"
                                    "a,0,3,1,1,3\nb,0,2,2,1,3\nc,1,1,1,2,1\n")
    (tmp_path / "c.csv").write_text("id,capacity_0,capacity_1\nm,4,4\n")
    code, out, err = run(capsys, "schedule", "--policy", "ocorp-m", "--mu", "3", "--jobs",
                         str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv"),
                         "--json")
    assert code == 3 and out == "" and "stopped" in err


def test_stopped_run_on_request_has_no_completion_and_lower_bounds(capsys, one_job):
    code, out, err = run(capsys, "schedule", "--policy", "srpt", "--max-slots", "1",
                         "--allow-unfinished", *one_job, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["status"] == "stopped" and "slot cap of 1 was reached" in d["stop_reason"]
    assert d["completion"] == [None] and d["finished"] == 0 and d["unfinished"] == 1
    for key in ("flowtime_lk", "fractional_flowtime_lk", "weighted_completion", "makespan"):
        assert d[key] is None, key
    # c >= max(T + 1, a + p) = 5 (p = 5 slots of one core): every bound at least that
    assert d["makespan_lower"] == 5 and d["flowtime_lk_lower"] == 5
    assert d["weighted_completion_lower"] == 5


def test_stopped_run_with_a_job_not_yet_arrived(capsys, tmp_path):
    """Review finding: T + 1 - a_j < 0 for a job arriving after the stop made the
    bounds fail; an unfinished job completes no earlier than a_j + p_j."""
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0\n"
                                    "a,0,5,1,1\nb,100,1,1,1\n")
    (tmp_path / "c.csv").write_text("id,capacity_0\nm,1\n")
    files = ["--jobs", str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv")]
    code, _, err = run(capsys, "schedule", "--policy", "srpt", "--max-slots", "3", *files)
    assert code == 3 and "stopped" in err
    code, out, err = run(capsys, "schedule", "--policy", "srpt", "--max-slots", "3",
                         "--allow-unfinished", *files, "--json")
    d = json.loads(out)
    assert code == 0 and d["completion"] == [None, None] and d["makespan_lower"] == 101
    assert d["flowtime_lk_lower"] == pytest.approx((5**2 + 1**2) ** 0.5)


def test_cores_only_policy_refuses_memory_in_the_api_too():
    """Review finding: the offline optima model memory by default, so a cores-only run
    beside them compared two problems (online 2 < 'optimal' 3)."""
    jobs = JobSet(arrival=[0, 0], processing=[1, 1], demand=[[1, 3], [1, 3]])
    with pytest.raises(ValueError, match="memory=False"):
        run_schedule(make_policy("transient-svf"), jobs, Machines([[2, 4]]), k=1)
    r = run_schedule(make_policy("transient-svf"), jobs, Machines([[2, 4]]), k=1,
                     memory=False)
    assert r.memory is False
    with pytest.raises(ValueError, match="memory=False"):  # memory on the jobs' side only
        run_schedule(make_policy("ocorp"), jobs, Machines([[2]]), k=1)


def test_total_volume_beyond_the_counters_is_refused():
    jobs = JobSet(arrival=[0] * 4, processing=[512] * 4, demand=[[2**53]] * 4)
    with pytest.raises(ValueError, match="volume"):
        run_schedule(make_policy("srpt"), jobs, Machines([[2**53]]), max_slots=10)


def test_far_arrivals_are_budgeted_before_the_run():
    jobs = JobSet(arrival=[0, 10**9], processing=[1, 1], demand=[[1], [1]])
    with pytest.raises(BudgetExceeded, match="memory_budget"):
        run_schedule(make_policy("srpt"), jobs, Machines([[1]]))


def test_api_stopped_result():
    jobs, m = JobSet(arrival=[0, 0], processing=[1, 5], demand=[[1], [1]]), Machines([[1]])
    r = run_schedule(make_policy("srpt"), jobs, m, max_slots=2)
    assert r.status == "stopped" and r.stopped and r.makespan is None
    assert r.completion[0] == 1 and np.isnan(r.completion[1])
    assert r.flowtime_lk() is None and r.fractional_lk() is None
    assert r.invariants_ok
    done = run_schedule(make_policy("srpt"), jobs, m)
    assert done.status == "finished" and done.stop_reason is None and done.makespan == 6


# -- columns the model does not read ------------------------------------------------------


def test_third_resource_is_refused(capsys, tmp_path):
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0,demand_1,demand_2\n"
                                    "a,0,2,1,1,1,3\nb,0,2,1,1,1,3\n")
    (tmp_path / "c.csv").write_text("id,capacity_0,capacity_1,capacity_2\nm,4,4,4\n")
    code, out, err = run(capsys, "schedule", "--policy", "srpt", "--jobs",
                         str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv"))
    assert code == 2 and "demand_2" in err and "XLL21" in err


def test_third_capacity_column_alone_is_refused():
    """A variant: the jobs have two resources, the cluster three."""
    jobs = JobSet(arrival=[0], processing=[2], demand=[[1, 1]])
    with pytest.raises(ValueError, match="capacity_2"):
        run_schedule(make_policy("srpt"), jobs, Machines([[4, 4, 4]]))


def test_cores_only_policy_refuses_a_memory_column_unless_dropped(capsys, tmp_path):
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0,demand_1\n"
                                    "a,0,2,1,1,3\nb,0,2,1,1,3\n")
    (tmp_path / "c.csv").write_text("id,capacity_0,capacity_1\nm,4,4\n")
    files = ["--jobs", str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv")]
    code, _, err = run(capsys, "schedule", "--policy", "ocorp", *files)
    assert code == 2 and "--no-memory" in err and "demand_1" in err
    code, out, err = run(capsys, "schedule", "--policy", "ocorp", "--no-memory", *files,
                         "--json")
    assert code == 0 and json.loads(out)["memory"] is False


# -- flag texts never reach an internal error --------------------------------------------

PG18 = ["simulate", "--policy", "rms", "--time", "5"]


@pytest.mark.parametrize("argv,flag", [
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "2,,1"], "--rates"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--mu", ""], "--mu"),
    ([*PG18, "--sizes", "2,5;3,,4", "--rates", "1,1", "--capacity", "9,9"], "--sizes"),
    ([*PG18, "--sizes", "2,5;;3,4", "--rates", "1,1", "--capacity", "9,9"], "--sizes"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--capacity", ""], "--capacity"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--samples", "inf"], "--samples"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--samples", "1.7"], "--samples"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--samples", "0"], "--samples"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--samples", ""], "--samples"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,1", "--mu", "inf"], "--mu"),
    ([*PG18, "--sizes", "0.3;0.6", "--rates", "1,nan"], "--rates"),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4,,0.6", "--workload", "1"], "--sizes"),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--mu", ""],
     "--mu"),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--capacity",
      ""], "--capacity"),
])
def test_bad_flag_text_is_a_usage_error_naming_the_flag(capsys, argv, flag):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 2 and out == "", err
    assert flag in err and "internal error" not in err and "Error" not in err


@pytest.mark.parametrize("argv,flag", [
    (["--arrivals", "bernoulli"], "--arrivals"),
    (["--traffic-scaling", "3"], "--traffic-scaling"),
    (["--slots", "100000"], "--slots"),  # the old default, given: still not used by PG18
    (["--scv", "4"], "--scv"),
    (["--service", "exponential", "--scv", "4"], "--scv"),
    (["--b", "0.3"], "--b"),
    (["--f", "log", "--b", "0.3"], "--b"),
])
def test_pg18_flags_that_were_dropped_are_refused(capsys, argv, flag):
    code, out, err = run(capsys, *PG18, "--sizes", "0.3;0.6", "--rates", "1,1", *argv)
    assert code == 2 and flag in err, err


def test_max_ticks_refused_for_a_policy_without_clocks(capsys):
    code, _, err = run(capsys, "simulate", "--policy", "bf", "--sizes", "0.3;0.6", "--rates",
                       "1,1", "--time", "5", "--max-ticks", "10")
    assert code == 2 and "--max-ticks" in err


def test_closed_stdout_pipe_is_not_an_error(monkeypatch):
    class Closed(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    code = main(["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
                 "--slots", "200", "--json"])
    assert code == 0


def test_closed_stderr_keeps_stdout_clean(monkeypatch, capsys, one_job):
    monkeypatch.setattr(sys, "stderr", None)
    code = main(["schedule", "--policy", "srpt", "--max-slots", "1", *one_job, "--json"])
    out, _ = capsys.readouterr()
    assert code == 3 and out == ""


# -- budgets that cover the work ----------------------------------------------------------


def test_empty_time_is_skipped_not_stepped():
    jobs = JobSet(arrival=[0, 10_000_000], processing=[2, 3], demand=[[1], [1]])
    t0 = time.perf_counter()
    r = run_schedule(make_policy("srpt"), jobs, Machines([[1]]))
    assert time.perf_counter() - t0 < 30  # stepping 10^7 slots took minutes
    assert r.completion.tolist() == [2, 10_000_003] and r.invariants_ok
    assert r.unfinished_work.shape == (10_000_003,)


def test_a_run_longer_than_the_slot_budget_is_refused_up_front():
    jobs = JobSet(arrival=[0], processing=[2**53], demand=[[1]])
    with pytest.raises(BudgetExceeded, match="max_slots"):
        run_schedule(make_policy("srpt"), jobs, Machines([[1]]))


def test_jobs_times_machines_are_budgeted():
    jobs = JobSet(arrival=np.zeros(8000), processing=np.ones(8000),
                  demand=np.ones((8000, 1)))
    machines = Machines(np.ones((100_000, 1)))
    with pytest.raises(BudgetExceeded, match="memory_budget"):
        run_schedule(make_policy("srpt"), jobs, machines)


def test_volume_beyond_the_counters_is_refused():
    jobs = JobSet(arrival=[0], processing=[2**40], demand=[[2**30]])
    with pytest.raises(ValueError, match="volume"):
        run_schedule(make_policy("srpt"), jobs, Machines([[2**30]]), max_slots=10)


def test_busy_slot_budget_names_the_flag_on_the_cli(capsys, tmp_path):
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0\n"
                                    "a,0,100000000,1,1\n")
    (tmp_path / "c.csv").write_text("id,capacity_0\nm,1\n")
    code, _, err = run(capsys, "schedule", "--policy", "srpt", "--jobs",
                       str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv"))
    assert code == 2 and "--max-slots" in err


# -- the API validates like the CLI ------------------------------------------------------


@pytest.mark.parametrize("kw,exc", [
    ({"memory": "off"}, TypeError), ({"max_slots": 2.9}, ValueError),
    ({"max_slots": "5"}, ValueError), ({"max_slots": True}, ValueError),
    ({"k": 0}, ValueError), ({"k": "2"}, ValueError), ({"k": float("nan")}, ValueError),
    ({"memory_budget": -1}, ValueError),
])
def test_run_schedule_refuses_bad_arguments(kw, exc):
    jobs = JobSet(arrival=[0], processing=[2], demand=[[1]])
    with pytest.raises(exc):
        run_schedule(make_policy("srpt"), jobs, Machines([[1]]), **kw)


def test_make_policy_names_an_unknown_parameter():
    with pytest.raises(ValueError, match="'epsilon'"):
        make_policy("bf", epsilon=0.2)
    with pytest.raises(ValueError, match="takes no parameter 'x'"):
        make_policy("bf-exec", x=1)


# -- no promise of the time left for uneven work ------------------------------------------


def test_progress_says_no_time_left_unless_the_work_is_even():
    out = io.StringIO()
    p = Progress("levels", total=10, delay=0, every=0, stream=out)
    p.update(5)
    assert "left" not in out.getvalue() and "5/10" in out.getvalue()
    even = io.StringIO()
    Progress("lines", total=10, delay=0, every=0, stream=even, eta=True).update(5)
    assert "left" in even.getvalue()


# -- rho-star: honest answers at the limits, no flag ignored -----------------------------


def test_rho_star_time_limit_reports_the_proven_bracket(capsys):
    t0 = time.perf_counter()
    code, out, err = run(capsys, "rho-star", "--dist", "uniform:0.01,0.19", "--servers", "5",
                         "--levels", "12", "--time-limit", "0.5", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["status"] == "time_limit" and d["level"] < 12 and d["levels_requested"] == 12
    assert d["certified"] is True and d["lower"] <= d["upper"]
    assert time.perf_counter() - t0 < 60


def test_rho_star_seconds_cover_the_whole_command(capsys):
    code, out, _ = run(capsys, "rho-star", "--sizes", "0.4,0.6", "--json")
    d = json.loads(out)
    assert code == 0 and d["status"] == "optimal" and d["seconds"] >= d["solver_seconds"]


@pytest.mark.parametrize("argv,flag", [
    (["--sizes", "0.4,0.6", "--levels", "3"], "--levels"),
    (["--dist", "uniform:0.1,0.9", "--levels", "1", "--method", "enumerate"], "--method"),
    (["--dist", "uniform:0.1,0.9", "--grid", "10", "--method", "enumerate"], "--method"),
])
def test_rho_star_flags_that_were_ignored_are_refused(capsys, argv, flag):
    code, _, err = run(capsys, "rho-star", *argv)
    assert code == 2 and flag in err, err


def test_maxweight_over_fifteen_sizes_is_refused_up_front(capsys):
    sizes = ",".join(f"{x / 100:g}" for x in range(5, 20))
    t0 = time.perf_counter()
    code, _, err = run(capsys, "simulate", "--policy", "maxweight", "--sizes", sizes,
                       "--workload", "1", "--slots", "1000")
    assert code == 2 and "--max-configurations" in err and "at least" in err
    assert time.perf_counter() - t0 < 10  # enumerating until the budget took minutes


# -- advice that can be followed ---------------------------------------------------------


@pytest.mark.parametrize("policy", ["mris", "mris-split"])
def test_a_tiny_eps_is_refused_with_advice_that_works(capsys, tmp_path, policy):
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0\n"
                                    "a,0,1,1,0.5\nb,0,2,1,0.6\n")
    (tmp_path / "c.csv").write_text("id,capacity_0\nm,1\n")
    code, _, err = run(capsys, "schedule", "--policy", policy, "--eps", "1e-300", "--jobs",
                       str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv"))
    assert code == 2 and "--max-dp-cells" in err and "larger eps" in err, err
    assert "knapsack=" not in err and len(err) < 600  # no API syntax, no 300-digit number
    if policy == "mris-split":
        assert "policy mris-split" not in err  # not advised to use itself


@pytest.mark.parametrize("argv,flag", [
    (["--dist", "uniform:0.1,0.9", "--levels", "1", "--max-configurations", "5"],
     "--max-configurations"),
    (["--sizes", "0.4,0.6", "--max-memory", "1G"], "--max-memory"),
])
def test_rho_star_budgets_that_would_be_ignored_are_refused(capsys, argv, flag):
    code, _, err = run(capsys, "rho-star", *argv)
    assert code == 2 and flag in err, err


@pytest.mark.parametrize("extra,flag", [
    (["--service", "pareto", "--pareto-alpha", "0.5"], "--pareto-alpha"),
    (["--service", "hyperexponential", "--scv", "1e300"], "--scv"),
])
def test_service_law_errors_name_the_flag(capsys, extra, flag):
    code, _, err = run(capsys, *PG18, "--sizes", "0.3;0.6", "--rates", "1,1", *extra)
    assert code == 2 and err.startswith(f"packsched: error: {flag}:"), err


def test_compiled_engine_refusal_names_no_class(capsys):
    code, _, err = run(capsys, *PG18, "--policy", "mwr", "--sizes", "0.3;0.6", "--rates",
                       "1,1", "--engine", "compiled")
    assert code == 2 and "MaxWeightServers" not in err and "simulate_continuous" not in err
