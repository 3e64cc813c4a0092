"""``rho-star --rtol R``: refine the Thm. 1 bracket of a continuous law until its
certified relative gap is at most R, then stop (issue 43, part 2)."""

from __future__ import annotations

import json

import pytest

from packsched.cli import main


def _json(capsys, *argv: str) -> dict:
    assert main(["rho-star", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rtol_stops_at_the_first_level_that_is_tight_enough(capsys):
    out = _json(capsys, "--dist", "uniform:0.1,0.9", "--servers", "5", "--rtol", "0.01")
    assert out["rtol_met"] and out["certified"] and out["relative_gap"] <= 0.01
    gaps = [lv["relative_gap"] for lv in out["levels"]]
    assert gaps[-1] <= 0.01 and all(g > 0.01 for g in gaps[:-1])  # no level wasted
    assert out["lower"] <= 10 <= out["upper"]  # rho* = L / R-bar = 10 (PG21 Sec. VII)


def test_without_rtol_the_default_levels_run(capsys):
    out = _json(capsys, "--dist", "uniform:0.1,0.9", "--servers", "5")
    assert out["rtol"] is None and not out["rtol_met"] and out["level"] == 6


def test_an_unreachable_rtol_is_reported_as_not_met(capsys):
    out = _json(capsys, "--dist", "uniform:0.1,0.9", "--servers", "5", "--rtol", "1e-6",
                "--levels", "3")
    assert not out["rtol_met"] and out["relative_gap"] > 1e-6 and out["level"] == 3


@pytest.mark.parametrize("argv", [["--sizes", "0.4,0.6"],
                                  ["--dist", "uniform:0.1,0.9", "--grid", "20"]])
def test_rtol_is_refused_where_nothing_is_refined(capsys, argv):
    assert main(["rho-star", *argv, "--rtol", "0.01"]) == 2
    assert "--rtol refines the quantile brackets" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0", "1", "-0.1", "nan"])
def test_rtol_must_lie_in_the_open_unit_interval(capsys, bad):
    assert main(["rho-star", "--dist", "uniform:0.1,0.9", "--rtol", bad]) == 2


def test_the_text_output_says_whether_the_target_was_met(capsys):
    assert main(["rho-star", "--dist", "uniform:0.1,0.9", "--rtol", "1e-6",
                 "--levels", "2"]) == 0
    assert "relative gap <= 1e-06: NOT met at level 2" in capsys.readouterr().out
    assert main(["rho-star", "--dist", "uniform:0.1,0.9", "--servers", "5",
                 "--rtol", "0.01"]) == 0
    assert "relative gap <= 0.01: met" in capsys.readouterr().out
