"""``packsched optimum`` at its limits: every column it accepts is modelled, every flag it
accepts is read, stdout holds the JSON alone, the time limit bounds the whole command, and
an answer says what it proves (status, certified, lower, upper)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import time
from importlib import resources

import pytest

from packsched.cli import build_parser, main

DATA = resources.files("theory.data")
XLL21_FILES = ["--jobs", str(DATA / "xll21_example1_jobs.csv"),
               "--cluster", str(DATA / "xll21_example1_cluster.csv")]
FL24_FILES = ["--jobs", str(DATA / "fl24_example_jobs.csv"),
              "--cluster", str(DATA / "fl24_example_cluster.csv")]
OBJECTIVES = ("flowtime", "fractional-flowtime", "weighted-completion", "makespan")


def run(capsys, *argv):
    code = main(["optimum", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def files(tmp_path, jobs: str, cluster: str) -> list[str]:
    (tmp_path / "jobs.csv").write_text(jobs)
    (tmp_path / "cluster.csv").write_text(cluster)
    return ["--jobs", str(tmp_path / "jobs.csv"), "--cluster", str(tmp_path / "cluster.csv")]


def refused(code, out, err, *words):
    """Exit 2, nothing on stdout, one error line (after the progress note, if any)."""
    lines = err.rstrip("\n").splitlines()
    errors = [ln for ln in lines if ln.startswith("packsched: error: ")]
    assert code == 2 and out == "" and errors == lines[-1:], err
    for w in words:
        assert w in errors[0], err


# -------------------------------------------------------------------- resources

THREE = ("id,arrival,processing,weight,demand_0,demand_1,demand_2\n"
         "a,0,2,1,1,1,3\nb,0,2,1,1,1,3\n", "id,capacity_0,capacity_1,capacity_2\nm,4,4,4\n")


@pytest.mark.parametrize("objective", ["flowtime", "fractional-flowtime"])
@pytest.mark.parametrize("flags", [["--memory"], ["--no-memory"], []])
def test_a_third_resource_is_refused_not_ignored(capsys, tmp_path, objective, flags):
    """This input once printed 4 (demand_2 = 3 + 3 > 4 was never read)."""
    code, out, err = run(capsys, *files(tmp_path, *THREE), "--objective", objective,
                         "--k", "1", *flags, "--json")
    refused(code, out, err, "demand_2", "XLL21", "demand_1")


def test_memory_is_modelled_when_the_files_have_it(capsys, tmp_path):
    """Two 1-core jobs of memory 3 on a machine of 2 cores and memory 4: with memory one
    waits (P1 = 1 + 2 = 3); the default used to pool the cores (2) and say memory false."""
    argv = files(tmp_path, "id,arrival,processing,demand_0,demand_1\na,0,1,1,3\nb,0,1,1,3\n",
                 "id,capacity_0,capacity_1\nm,2,4\n")
    for flags, value, memory in (([], 3, True), (["--memory"], 3, True),
                                 (["--no-memory"], 2, False)):
        code, out, err = run(capsys, *argv, "--objective", "flowtime", "--k", "1", *flags,
                             "--json")
        assert code == 0, err
        d = json.loads(out)
        assert (d["value"], d["memory"], d["certified"]) == (value, memory, True), flags


def test_memory_flag_needs_a_second_resource(capsys, tmp_path):
    argv = files(tmp_path, "id,arrival,processing,demand_0\na,0,1,1\n",
                 "id,capacity_0\nm,2\n")
    refused(*run(capsys, *argv, "--objective", "flowtime", "--memory"), "--memory",
            "demand_1")


def test_weights_are_refused_by_the_unweighted_programs(capsys, tmp_path):
    """P1 and P2 are unweighted: a weight column of 5 used to be read and ignored."""
    argv = files(tmp_path, "id,arrival,processing,weight,demand_0\na,0,3,5,1\nb,1,2,1,1\n",
                 "id,capacity_0\nm,1\n")
    for objective in ("flowtime", "fractional-flowtime"):
        refused(*run(capsys, *argv, "--objective", objective), "weight", "'a'")


def test_fl24_reads_every_demand_column(capsys, tmp_path):
    """Guard: only demand_2 keeps these two jobs apart (sum_j C_j = 1 + 2, not 1 + 1)."""
    argv = files(tmp_path, "id,arrival,processing,weight,demand_0,demand_1,demand_2\n"
                           "a,0,1,1,0.1,0.1,0.6\nb,0,1,1,0.1,0.1,0.6\n",
                 "id,capacity_0,capacity_1,capacity_2\nm,1,1,1\n")
    code, out, err = run(capsys, *argv, "--objective", "weighted-completion", "--json")
    assert code == 0, err
    assert json.loads(out)["value"] == 3


# ---------------------------------------------------------------------- flags

#: a value other than the default for every optional flag: (argv, JSON key, JSON value)
NON_DEFAULT = {
    "--k": (["--k", "3"], "k", 3.0),
    "--relax": (["--relax"], "relax", True),
    "--memory": (["--memory"], "memory", True),
    "--no-memory": (["--no-memory"], "memory", False),
    "--horizon": (["--horizon", "120"], "horizon", 120),
    "--time-limit": (["--time-limit", "30"], "time_limit", 30.0),
    "--max-variables": (["--max-variables", "1500000"], "max_variables", 1_500_000),
    "--max-nonzeros": (["--max-nonzeros", "15000000"], "max_nonzeros", 15_000_000),
    "--max-memory": (["--max-memory", "1G"], "max_memory", 2**30),
}


def _optimum_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["optimum"]


def _optional_flags() -> list[tuple[str, str]]:
    flags = []
    for action in _optimum_parser()._actions:
        if isinstance(action, argparse._HelpAction) or action.required:
            continue
        flags += [(opt, action.dest) for opt in action.option_strings if opt.startswith("--")]
    return flags


def test_every_flag_has_a_case():
    """A new flag of ``optimum`` needs a non-default value here (and a declaration)."""
    flags = {opt for opt, _ in _optional_flags()}
    assert flags - {"--json"} == set(NON_DEFAULT)


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("flag", sorted(NON_DEFAULT))
def test_every_flag_is_read_or_refused(capsys, objective, flag):
    """(flag, objective): refused in one line naming the flag, or declared as read by
    the objective (packsched.commands.optimum.USES) and echoed in the JSON."""
    from packsched.commands.optimum import USES

    dest = dict(_optional_flags())[flag]
    argv, key, value = NON_DEFAULT[flag]
    base = XLL21_FILES if objective in ("flowtime", "fractional-flowtime") else FL24_FILES
    code, out, err = run(capsys, *base, "--objective", objective, *argv, "--json")
    if dest not in USES[objective]:
        refused(code, out, err, flag, objective)
        return
    assert code == 0, err
    d = json.loads(out)
    assert d[key] == value and d["objective"] == objective


#: budgets: a tiny one must bind and be refused naming its flag
TINY = {"--max-variables": "1", "--max-nonzeros": "1", "--max-memory": "64"}


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("flag", sorted(TINY))
def test_a_read_budget_binds(capsys, objective, flag):
    """Echoing a budget does not show it is read: a tiny one must be refused by name."""
    from packsched.commands.optimum import USES

    if dict(_optional_flags())[flag] not in USES[objective]:
        return  # refused: test_every_flag_is_read_or_refused
    base = XLL21_FILES if objective in ("flowtime", "fractional-flowtime") else FL24_FILES
    refused(*run(capsys, *base, "--objective", objective, flag, TINY[flag], "--json"), flag)


@pytest.mark.parametrize("objective", ["flowtime", "fractional-flowtime"])
def test_k_and_memory_change_the_optimum(capsys, tmp_path, objective):
    """Two one-slot jobs of 1 core and 3 memory on 2 cores and 4 memory: memory makes
    one wait (P1 with the default k = 2: 1 + 2^2 = 5 against 1 + 1 pooled); k changes
    the objective."""
    (tmp_path / "j.csv").write_text("id,arrival,processing,weight,demand_0,demand_1\n"
                                    "a,0,1,1,1,3\nb,0,1,1,1,3\n")
    (tmp_path / "c.csv").write_text("id,capacity_0,capacity_1\nm,2,4\n")
    argv = ["--jobs", str(tmp_path / "j.csv"), "--cluster", str(tmp_path / "c.csv"),
            "--objective", objective, "--json"]
    values = {}
    for extra in ([], ["--no-memory"], ["--k", "3"]):
        code, out, err = run(capsys, *argv, *extra)
        assert code == 0, err
        values[" ".join(extra)] = json.loads(out)["value"]
    assert values[""] != values["--no-memory"] and values[""] != values["--k 3"], values
    if objective == "flowtime":
        assert (values[""], values["--no-memory"]) == (5, 2)


def test_relax_solves_the_lp_whose_optimum_is_integral(capsys):
    """--relax changes how P2 is solved, not its value: without memory P2's cores form a
    transportation polytope (totally unimodular, integer data), so the LP relaxation's
    optimum is the integer one (capacity.flowtime_programs.p2_program)."""
    argv = [*XLL21_FILES, "--objective", "fractional-flowtime", "--no-memory", "--json"]
    code, out, _ = run(capsys, *argv)
    rcode, rout, rerr = run(capsys, *argv, "--relax")
    assert code == 0 and rcode == 0, rerr
    exact, relaxed = json.loads(out), json.loads(rout)
    assert relaxed["relax"] is True and exact["relax"] is False
    assert relaxed["value"] == pytest.approx(exact["value"], rel=1e-9)


@pytest.mark.parametrize("objective", ["weighted-completion", "makespan"])
def test_k_is_refused_for_fl24(capsys, objective):
    """FL24's optimum once accepted --k and ignored it."""
    refused(*run(capsys, *FL24_FILES, "--objective", objective, "--k", "2"), "--k", "FL24")


def test_the_json_flag_is_the_only_output(capsys):
    for objective, base in (("flowtime", XLL21_FILES), ("makespan", FL24_FILES)):
        code, out, err = run(capsys, *base, "--objective", objective, "--json")
        assert code == 0 and out.count("\n") == 1, err
        d = json.loads(out)
        assert d["status"] == "optimal" and d["certified"] is True
    code, out, err = run(capsys, *XLL21_FILES, "--objective", "flowtime", "--json")
    assert json.loads(out)["k"] == 2.0  # --k left out: 2 where it is read


# ---------------------------------------------------------------------- streams

@pytest.mark.parametrize(("objective", "base"), [("flowtime", XLL21_FILES),
                                                 ("weighted-completion", FL24_FILES)])
def test_json_alone_on_stdout_when_stderr_is_closed(monkeypatch, objective, base):
    """``packsched optimum --json 2>&-``: Python's sys.stderr is None; the note went to
    stdout (print(file=None)) and then an AttributeError."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stderr", None)
    with contextlib.redirect_stdout(out):
        code = main(["optimum", *base, "--objective", objective, "--json"])
    assert code == 0
    assert json.loads(out.getvalue())["status"] == "optimal"
    assert out.getvalue().count("\n") == 1


def test_a_closed_pipe_is_not_an_error(tmp_path):
    """``packsched optimum ... --json | head -c 0``: the reader has gone when the JSON is
    written; exit 0 and no error line."""
    proc = subprocess.Popen([sys.executable, "-m", "packsched", "optimum", *XLL21_FILES,
                             "--objective", "flowtime", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "error" not in err and "Exception" not in err, err


# ----------------------------------------------------------------- time and size

LONG = ("id,arrival,processing,weight,demand_0\na,0,3000,1,0.6\nb,0,3000,1,0.6\n",
        "id,capacity_0\nm,1\n")


def test_the_time_limit_covers_building(capsys, tmp_path):
    """Two jobs of 3000 time units: 18 million nonzeros; with --time-limit 2 the command
    took 12 s (building) and then failed with exit 3. Now it answers in time with the
    list schedule (9000, optimal in fact but not proven) and the closed form 6000."""
    t0 = time.perf_counter()
    code, out, err = run(capsys, *files(tmp_path, *LONG), "--objective",
                         "weighted-completion", "--time-limit", "2", "--json")
    wall = time.perf_counter() - t0
    assert code == 0, err
    d = json.loads(out)
    assert (d["status"], d["certified"], d["value"], d["upper"], d["lower"]) == \
        ("time_limit", False, 9000, 9000, 6000)
    assert d["source"] == "list schedule" and "not built" in d["stopped"]
    assert d["seconds"] <= wall and wall < 2 + 3  # a margin for a loaded machine


def test_a_budget_names_a_flag_of_the_command(capsys, tmp_path):
    """The nonzeros budget named 'the keyword max_nonzeros= of the Python API'."""
    jobs = LONG[0].replace("3000", "10000")
    refused(*run(capsys, *files(tmp_path, jobs, LONG[1]), "--objective",
                 "weighted-completion"), "raise it with --max-nonzeros")
    refused(*run(capsys, *files(tmp_path, *LONG), "--objective", "weighted-completion",
                 "--max-memory", "100M"), "raise it with --max-memory")


FORTY = ("id,arrival,processing,demand_0\n" + "".join(
    f"j{i},{i % 7},{1 + i % 5},1\n" for i in range(40)), "id,capacity_0\nm1,4\n")


@pytest.mark.parametrize(("objective", "limit", "closed"), [
    ("flowtime", "0.05", 440),  # sum_j p_j^2; HiGHS has no incumbent after 0.1 s
    ("fractional-flowtime", "1e-9", 653.33),  # sum_j (1^2 + .. + p_j^2) / p_j + p_j^2
])
def test_time_limit_answers_with_bounds_not_exit_3(capsys, tmp_path, objective, limit,
                                                   closed):
    """No incumbent by the limit was exit 3 with a raw solver message; now the best
    schedule known (a list schedule at least) and a closed-form lower bound."""
    code, out, err = run(capsys, *files(tmp_path, *FORTY), "--objective", objective,
                         "--time-limit", limit, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["status"] == "time_limit" and d["certified"] is False
    assert d["time_limit"] == float(limit)
    assert closed <= d["lower"] <= d["upper"] == d["value"]
    assert len(d["completion"]) == 40


def test_nothing_known_gives_a_null_value(capsys, tmp_path):
    """Both list schedules end at 7, the optimum at 6: with --horizon 6 and no time to
    solve there is no schedule to show: value null (upper: the list schedules' 7 if
    they were computed in time, else nothing known)."""
    argv = files(tmp_path, "id,arrival,processing,weight,demand_0\na,1,3,1,0.4\n"
                           "b,1,2,1,0.7\nc,0,2,1,0.3\nd,0,2,1,0.6\n", "id,capacity_0\nm,1\n")
    code, out, err = run(capsys, *argv, "--objective", "makespan", "--horizon", "6",
                         "--time-limit", "1e-9", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["value"], d["status"], d["certified"]) == (None, "time_limit", False)
    assert d["upper"] in (None, 7)
    assert d["lower"] == 5  # ceil(volume 4.4)
    code, out, err = run(capsys, *argv, "--objective", "makespan", "--json")
    assert json.loads(out)["value"] == 6  # the optimum, for the record


def test_default_time_limit_is_the_librarys(capsys):
    import inspect

    from capacity.completion_programs import completion_optimum
    from capacity.flowtime_programs import p1_optimum, p2_optimum
    from capacity.programs import DEFAULT_TIME_LIMIT
    from packsched.commands.optimum import TIME_LIMIT_HELP

    for f in (p1_optimum, p2_optimum, completion_optimum):
        assert inspect.signature(f).parameters["time_limit"].default == DEFAULT_TIME_LIMIT
    assert TIME_LIMIT_HELP == DEFAULT_TIME_LIMIT
    help_text = " ".join(_optimum_parser().format_help().split())
    assert f"default {TIME_LIMIT_HELP} s" in help_text
    code, out, err = run(capsys, *XLL21_FILES, "--objective", "flowtime", "--json")
    assert json.loads(out)["time_limit"] == DEFAULT_TIME_LIMIT


def test_seconds_cover_reading_the_files(capsys, monkeypatch):
    """JSON seconds was the solver's share only."""
    import theory.readers.job_files

    read = theory.readers.job_files.read_instance

    def slow(*args, **kwargs):
        time.sleep(0.3)
        return read(*args, **kwargs)

    monkeypatch.setattr(theory.readers.job_files, "read_instance", slow)
    for objective, base in (("flowtime", XLL21_FILES), ("makespan", FL24_FILES)):
        code, out, err = run(capsys, *base, "--objective", objective, "--json")
        assert code == 0, err
        assert json.loads(out)["seconds"] >= 0.3


# ------------------------------------------------------------------- weights

def _weights(tmp_path, w_a: str) -> list[str]:
    return files(tmp_path, f"id,arrival,processing,weight,demand_0\na,0,3,{w_a},0.6\n"
                           "b,1,2,1,0.6\nc,0,1,1,0.3\n", "id,capacity_0\nm,1\n")


def test_a_tiny_weight_is_not_a_short_horizon(capsys, tmp_path):
    """w_a = 1e-20 failed with 'horizon too short': the deadline cut rounded a to 3.
    b, c first and a last (start 3) is the optimum: 3 + 1 + 6e-20 = 4 in floats."""
    code, out, err = run(capsys, *_weights(tmp_path, "1e-20"), "--objective",
                         "weighted-completion", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["value"] == 4 and d["start"] == [3, 1, 0]
    assert d["status"] in ("optimal", "solver_tolerance") and d["lower"] <= 4


def test_a_huge_weight_solves_or_is_refused_in_words(capsys, tmp_path):
    """w_a = 1e300 failed with 'HiGHS status Unknown' (costs past HiGHS's infinity);
    1e308 with 'cannot convert float NaN to integer'. The first has an answer (a first:
    3e300); the second's sum_j w_j C_j is past the float range."""
    code, out, err = run(capsys, *_weights(tmp_path, "1e300"), "--objective",
                         "weighted-completion", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["value"] == pytest.approx(3e300) and d["start"][0] == 0
    # the unit weights are below what HiGHS resolves beside 1e300: a bracket, honestly
    assert d["status"] in ("optimal", "solver_tolerance") and d["lower"] <= d["value"]
    refused(*run(capsys, *_weights(tmp_path, "1e308"), "--objective",
                 "weighted-completion"), "overflows", "weight")
    code, out, err = run(capsys, *_weights(tmp_path, "1e308"), "--objective", "makespan",
                         "--json")
    assert code == 0 and json.loads(out)["value"] == 5, err


def test_weights_finer_than_the_solver_are_not_certified(capsys, tmp_path):
    """HiGHS stops within 1e-6 of its (normalised) objective: these weights printed
    2.04600018, 'optimal', certified, for an optimum of 2.04600014 (brute force)."""
    argv = files(tmp_path, "id,arrival,processing,weight,demand_0\na,2,2,1e-08,0.59\n"
                           "b,0,2,1,0.72\nc,0,2,0.01,0.66\nd,1,2,1e-08,0.48\n"
                           "e,0,2,0.001,0.52\n", "id,capacity_0\nm,1\n")
    code, out, err = run(capsys, *argv, "--objective", "weighted-completion", "--json")
    assert code == 0, err
    d = json.loads(out)
    best = 2.04600014
    assert d["lower"] <= best <= d["upper"]
    assert d["status"] != "optimal" or d["value"] == pytest.approx(best, rel=1e-15)
    assert d["certified"] == (d["status"] == "optimal")


# ----------------------------------------------------------------- horizons

def test_a_short_horizon_is_not_certified(capsys, tmp_path):
    """X, Y, Z of 3 cores on one 4-core machine: the optimum (k = 2) is 18 and ends in
    slot 6; --horizon 5 gives 19, which was printed 'optimal', certified."""
    argv = files(tmp_path, "id,arrival,processing,demand_0\nX,0,1,3\nY,2,1,3\nZ,2,3,3\n",
                 "id,capacity_0\nm,4\n")
    code, out, err = run(capsys, *argv, "--objective", "flowtime", "--horizon", "5",
                         "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["value"], d["status"], d["certified"]) == (19, "horizon_limit", False)
    assert d["lower"] <= 18 <= d["upper"]
    code, out, err = run(capsys, *argv, "--objective", "flowtime", "--json")
    d = json.loads(out)
    assert (d["value"], d["status"], d["certified"]) == (18, "optimal", True)


def test_a_short_fl24_horizon_is_not_certified(capsys):
    """FL24's example: the optimum 15 ends at 7; within 6 the best is 17."""
    code, out, err = run(capsys, *FL24_FILES, "--objective", "weighted-completion",
                         "--horizon", "6", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["value"], d["status"], d["certified"]) == (17, "horizon_limit", False)
    assert d["lower"] <= 15 <= d["upper"]
