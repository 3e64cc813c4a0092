"""Every error is one line, ``packsched: error: ...``, naming the flag or file, exit 2.

Regression tests for command lines that once gave a traceback or an unclear error (each
names what it pins).
"""

from __future__ import annotations

import json

import pytest

from packsched.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def error_line(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 2) -> str:
    code, out, err = run(capsys, *argv)
    assert code == status, err
    assert out == ""
    assert err.startswith("packsched: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(("argv", "fragments"), [
    # argparse's own errors: our prefix, no usage block
    (["rho-star"], ["one of the arguments --sizes"]),
    (["nope"], ["invalid choice: 'nope'"]),
    (["rho-star", "--sizes", "0.4", "--bogus"], ["unrecognized arguments: --bogus"]),
    (["rho-star", "--servers", "x", "--sizes", "0.4"], ["--servers", "'x' is not an integer"]),
    (["rho-star", "--servers", "0", "--sizes", "0.4"], ["--servers", "positive integer"]),
    (["rho-star", "--servers", "1e8", "--sizes", "0.4"], ["--servers", "not an integer"]),
    (["rho-star", "--levels", "-1", "--dist", "uniform:0.1,0.9"], ["--levels", "at least 0"]),
    # negative numbers without '=' reach the flag's check
    (["rho-star", "--sizes", "-0.3,0.5"], ["sizes", "positive"]),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "-1"],
     ["--workload", "> 0"]),
    # the seed is named
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--seed=-1"],
     ["--seed", "at least 0"]),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1", "--seed", "-1"],
     ["--seed", "at least 0"]),
    (["rho-star", "--sizes", "0.4,,0.6"], ["--sizes", "empty entry"]),
    (["rho-star", "--sizes", "0.4,abc"], ["--sizes", "'abc' is not a number"]),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "1",
      "--max-memory", "lots"], ["--max-memory", "not a size"]),
    (["simulate", "--policy", "bf-js", "--sizes", "0.4", "--workload", "nan"],
     ["--workload", "finite"]),
])
def test_usage_errors_name_the_flag(capsys, argv, fragments):
    err = error_line(capsys, *argv)
    for f in fragments:
        assert f in err, err


def test_unknown_claim_is_an_error_listed_or_run(capsys):
    """One rule: ``--claim Nope`` is exit 2 with and without ``--list``."""
    for argv in (["verify", "--list", "--claim", "Nope"], ["verify", "--claim", "Nope"],
                 ["verify", "--list", "--paper", "NOPE"]):
        err = error_line(capsys, *argv)
        assert "Nope" in err or "NOPE" in err


def test_list_filters_like_run(capsys):
    code, out, _err = run(capsys, "verify", "--list", "--claim", "PG21.Prop2", "--json")
    assert code == 0
    assert [r["id"] for r in json.loads(out)] == ["PG21.Prop2"]


def test_capacity_zero_is_said_in_words(capsys):
    err = error_line(capsys, "rho-star", "--capacity", "0", "--sizes", "0.4")
    assert "Fraction" not in err and "capacit" in err and "0" in err


def test_help_and_version_exit_zero(capsys):
    assert run(capsys, "--version")[0] == 0
    code, out, _err = run(capsys, "rho-star", "--help")
    assert code == 0 and "--max-types" in out


def test_not_utf8_file_is_named(capsys, tmp_path):
    f = tmp_path / "inst.bin"
    f.write_bytes(b"3\n10\n\xdc\xff\n2\n5\n")
    err = error_line(capsys, "rho-star", "--instance", str(f))
    assert str(f) in err and "UTF-8" in err
    g = tmp_path / "sizes.bin"
    g.write_bytes(b"0.4\n\xdc\n")
    err = error_line(capsys, "rho-star", "--trace", str(g))
    assert str(g) in err and "UTF-8" in err


def test_library_errors_are_one_line(capsys):
    """A multi-line library message is folded onto the one error line."""
    from packsched.errors import report

    assert report(ValueError("first\nsecond")) == 2
    assert capsys.readouterr().err == "packsched: error: first second\n"


def test_budget_error_names_the_flag(capsys):
    from packsched.errors import report
    from theory.budgets import BudgetExceeded

    assert report(BudgetExceeded("x", "10 GiB", "8 GiB", "memory_budget")) == 2
    assert "raise it with --max-memory" in capsys.readouterr().err


def test_internal_errors_are_exit_3_and_say_bug(capsys):
    from packsched.errors import report

    assert report(AttributeError("oops")) == 3
    err = capsys.readouterr().err
    assert err.startswith("packsched: error: internal error") and "bug" in err


def test_help_shows_the_library_budgets():
    from packsched.arguments import BUDGET_DEFAULTS
    from theory import budgets

    assert BUDGET_DEFAULTS == {
        "MEMORY_BUDGET": budgets.format_bytes(budgets.MEMORY_BUDGET),
        "MAX_CONFIGURATIONS": f"{budgets.MAX_CONFIGURATIONS:,}",
        "MAX_LP_TYPES": f"{budgets.MAX_LP_TYPES:,}",
    }
