"""Bad input across the CLI and the API, example by example, with the outcome each must
have: a right answer or a clear refusal, never a confident wrong answer, a traceback, a
computation that runs away without a word, or a message a user cannot act on.

The kinds behind the examples are covered by the fuzz tests (tests/*/test_*fuzz*.py) and
the per-package tests; this file pins the examples themselves.
"""

from __future__ import annotations

import json
import random

import pytest

from packsched.cli import main

# -- helpers ----------------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Exit 2, nothing on stdout, one ``packsched: error:`` line: the line."""
    code, out, err = cli(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.startswith("packsched: error: ")]
    assert code == 2 and out == "" and len(lines) == 1, (code, out, err)
    assert "Traceback" not in err
    return lines[0]


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, err = cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PACKSCHED_PROGRESS", "0")


# -- Confident wrong answers ------------------------------------------------------------

def test_bpplib_csp_layout_is_not_read_as_weights(capsys, tmp_path):
    f = tmp_path / "csp.txt"
    f.write_text("2\n10\n4 2\n5 1\n")  # cutting-stock layout: weight multiplicity
    line = cli_error(capsys, "rho-star", "--instance", str(f))
    assert f"{f}:3" in line and "'2'" in line and "csp" in line
    # under its own option it is read: 2 x 4 and 1 x 5 in capacity 10
    d = cli_json(capsys, "rho-star", "--instance", str(f), "--instance-format", "csp")
    assert d["certified"] and d["items"] == 3 and d["input"]["probs_exact"] == ["2/3", "1/3"]


def test_bpplib_token_after_the_weight_is_named(capsys, tmp_path):
    f = tmp_path / "abc.txt"
    f.write_text("2\n10\n10 abc\n5\n")
    line = cli_error(capsys, "rho-star", "--instance", str(f))
    assert f"{f}:3" in line and "'abc'" in line


def test_server_pairs_of_two_resources_are_refused_with_the_spelling():
    from capacity import CapacityRegion, ServerClass

    for servers in ([(10, 10)], [[10, 10]]):
        with pytest.raises(ValueError, match=r"ServerClass\(capacity=\(10, 10\), count=1\)"):
            CapacityRegion([(2, 3), (5, 1)], servers)
    one = CapacityRegion([(2, 3), (5, 1)], [ServerClass((10, 10))])
    ten = CapacityRegion([(2, 3), (5, 1)], [ServerClass(10, 10)])
    # one (10, 10) server holds 3 jobs of size (2, 3), ten servers of (10, 10) hold 30
    assert not one.contains([20, 0]) and ten.contains([20, 0])


@pytest.mark.parametrize("flags", [["--mu", "1e-300"], ["--deterministic", "1000000000000"]])
def test_a_run_without_arrivals_is_inconclusive(capsys, flags):
    d = cli_json(capsys, "simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
                 *flags)
    assert d["verdict"] == "inconclusive" and "no job arrived" in d["verdict_reason"]


def test_a_job_that_can_never_be_served_is_an_input_error():
    from policies.workload import pg21_workload
    from theory import Discrete

    sizes = Discrete(["0.4", "0.6"])
    with pytest.raises(ValueError, match="capacity"):
        pg21_workload(sizes, servers=1, slots=100, capacity=0.5, workload=1)
    with pytest.raises(ValueError, match="servers"):
        pg21_workload(sizes, servers=0, slots=100, workload=1)


def test_three_thousand_random_sizes_stay_within_lemma2():
    from capacity import rho_star
    from theory import Discrete

    rng = random.Random(1)
    res = rho_star(Discrete([rng.random() for _ in range(3000)]), certify=False)
    assert res.upper <= res.extra["lemma2_bound"] < 1.9976


@pytest.mark.slow
def test_google_trace_without_grid_stays_within_lemma2(capsys):
    d = cli_json(capsys, "rho-star", "--trace", "google2011:max", "--grid", "0")
    assert d["upper"] <= d["lemma2_bound"] <= 18.20813


# -- Tracebacks instead of errors --------------------------------------------------------

@pytest.mark.parametrize(("argv", "words"), [
    (["--sizes", "0.4,0.6", "--vqs", "63"], ["J is at most 50"]),
    (["--sizes", "1e-30"], ["1e-30", "2^36"]),
    (["--sizes", "0.5", "--capacity", "1e400"], ["capacity", "too large"]),
])
def test_extreme_numbers_name_the_limit(capsys, argv, words):
    line = cli_error(capsys, "rho-star", *argv)
    assert all(w in line for w in words), line


def test_instance_capacity_1e300_is_named(capsys, tmp_path):
    f = tmp_path / "big.txt"
    f.write_text("1\n1e300\n5\n")
    line = cli_error(capsys, "rho-star", "--instance", str(f))
    assert f"{f}:2" in line and "1e300" in line


@pytest.mark.parametrize("flags", [
    ["--sizes", "0.4", "--workload", "1e9"],
    ["--sizes", "0.4", "--workload", "1", "--slots", "10000000000"],
    ["--dist", "uniform:0.1,0.9", "--intensity", "1e9"],
    ["--sizes", "0.4", "--workload", "1", "--servers", "100000000"],
])
def test_memory_is_estimated_before_allocating(capsys, flags):
    line = cli_error(capsys, "simulate", "--policy", "bf-js", *flags)
    assert "would need about" in line and "--max-memory" in line


# -- Computations that run away without a word --------------------------------------------

@pytest.mark.parametrize(("argv", "flag"), [
    (["rho-star", "--dist", "uniform:0.1,0.9", "--levels", "40"], "--max-types"),
    (["simulate", "--policy", "maxweight", "--dist", "uniform:0.1,0.9", "--levels", "30",
      "--workload", "1"], "--max-configurations"),
])
def test_work_above_the_budget_is_refused_with_the_flag(capsys, argv, flag):
    line = cli_error(capsys, *argv)
    assert "above the budget" in line and flag in line


def test_a_fine_grid_is_refused(capsys):
    """``--grid 1000000000``: the grid's cells exceed the budget (it was ignored for a
    continuous law, and ran for minutes on a trace)."""
    line = cli_error(capsys, "rho-star", "--dist", "uniform:0.1,0.9", "--grid", "1000000000")
    assert "above the budget" in line and "--max-types" in line


def test_maxweight_with_twenty_sizes_is_refused_or_fast(capsys):
    sizes = ",".join(f"{0.05 + 0.045 * i:.3f}" for i in range(20))
    code, out, err = cli(capsys, "simulate", "--policy", "maxweight", "--sizes", sizes,
                         "--workload", "1", "--slots", "2000", "--json")
    if code == 0:
        assert json.loads(out)["verdict"] in ("stable", "unstable", "inconclusive")
    else:
        assert code == 2 and "--max-configurations" in err


def test_long_computations_report_progress(capsys, monkeypatch):
    monkeypatch.setenv("PACKSCHED_PROGRESS", "1")
    from theory.progress import Progress

    monkeypatch.setitem(Progress.__init__.__kwdefaults__, "delay", 0.0)
    code, out, err = cli(capsys, "rho-star", "--dist", "uniform:0.1,0.9", "--levels", "6",
                         "--json")
    assert code == 0 and json.loads(out) and "packsched: " in err


# -- Messages a user cannot act on ----------------------------------------------------------

def test_not_text_is_said_in_words(capsys, tmp_path):
    f = tmp_path / "blob"
    f.write_bytes(b"\xdc\xff\x00\n")
    line = cli_error(capsys, "rho-star", "--instance", str(f))
    assert str(f) in line and "not UTF-8 text" in line and "codec" not in line


@pytest.mark.parametrize(("argv", "words"), [
    (["rho-star", "--sizes", "0.4,0.6", "--grid", "1"], ["grid 1/1", "grid >= 2"]),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--seed=-1"],
     ["--seed", "-1"]),
    (["rho-star", "--sizes", "0.4", "--capacity", "0"], ["capacity", "positive", "0"]),
    (["rho-star", "--sizes", "-0.3,0.5"], ["sizes", "-0.3"]),
    (["rho-star", "--sizes", "0.4", "--bogus"], ["--bogus"]),
    (["verify", "--list", "--claim", "Nope"], ["Nope"]),
    (["verify", "--claim", "Nope"], ["Nope"]),
])
def test_messages_name_the_flag_in_words(capsys, argv, words):
    line = cli_error(capsys, *argv)
    assert all(w in line for w in words), line
    assert "Fraction" not in line and "usage:" not in line


def test_grid_one_says_what_is_wrong(capsys):
    line = cli_error(capsys, "rho-star", "--sizes", "0.4,0.6", "--grid", "1")
    assert "no job types given" not in line and "too coarse" in line


# -- The README and the API -------------------------------------------------------------

def test_readme_grid_bracket_example_returns_a_bracket():
    from capacity.brackets import Bracket, grid_bracket
    from theory import Discrete

    b = grid_bracket(Discrete([0.3, 0.45, 0.7]), 100)
    assert isinstance(b, Bracket) and b.lo <= b.hi


def test_api_type_errors_say_what_to_write():
    from capacity import rho_star
    from capacity.brackets import quantile_brackets

    with pytest.raises(TypeError, match=r"Discrete\(\[0.4, 0.6\]\)"):
        quantile_brackets([0.4, 0.6], 2)
    with pytest.raises(ValueError, match=r"write \['0.4'\]"):
        rho_star("0.4")
