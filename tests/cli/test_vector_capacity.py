"""``rho-star`` with vector sizes and a vector ``--capacity`` (issue 42 part 4): every
size is divided by the capacity componentwise, exactly, and rho* is computed on the
unit capacity; a size above the capacity in some resource is refused, naming it."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from packsched.cli import main


def run_json(capsys, *argv: str) -> dict:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_vector_capacity_divides_componentwise(capsys):
    d = run_json(capsys, "rho-star", "--sizes", "0.5:0.25,0.25:0.5", "--capacity", "1:0.5")
    assert d["input"]["normalised"] == "normalised by capacity (1, 1/2)"
    assert d["input"]["capacity"] == ["1", "0.5"]  # the capacity as given
    assert d["input"]["sizes_exact"] == ["1/4:1", "1/2:1/2"]
    # on (1, 1): (1/2, 1/2) packs twice, (1/4, 1) once; rho P <= x, P = (1/2, 1/2):
    # rho/2 = a, rho/2 = 2b, a + b = 1 -> rho = 4/3
    assert Fraction(d["lower_exact"]) == Fraction(d["upper_exact"]) == Fraction(4, 3)
    assert d["certified"] is True
    # the same answer as the sizes divided by hand
    e = run_json(capsys, "rho-star", "--sizes", "1/2:1/2,1/4:1")
    assert e["lower_exact"] == d["lower_exact"]
    assert "normalised" not in e["input"]


def test_unit_vector_capacity_changes_nothing(capsys):
    d = run_json(capsys, "rho-star", "--sizes", "0.5:0.25,0.25:0.5", "--capacity", "1:1")
    assert "normalised" not in d["input"]


@pytest.mark.parametrize("argv, fragment", [
    (["--sizes", "0.5:0.75,0.25:0.5", "--capacity", "1:0.5"],
     "job size (1/2, 3/4) exceeds the capacity (1, 1/2) in resource 2"),
    (["--sizes", "2:0.1", "--capacity", "1:0.5"],
     "job size (2, 1/10) exceeds the capacity (1, 1/2) in resource 1"),
    (["--sizes", "0.5:0.25:0.1", "--capacity", "1:0.5"], "needs finitely many vector sizes"),
    (["--trace", "google2011:vector", "--capacity", "1:0.5"],
     "exceeds the capacity (1, 1/2) in resource 2"),
])
def test_a_size_above_the_capacity_is_refused_by_name(capsys, argv, fragment):
    code = main(["rho-star", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert fragment in err, err


def test_vector_trace_with_a_vector_capacity_is_bracketed(capsys, tmp_path):
    """A vector trace file with --capacity 2:4 (once refused with a message about
    --grid): the bracket of the sizes divided by hand, on the same grid."""
    f = tmp_path / "vec.txt"
    f.write_text("0.5 1\n0.7 0.5\n1.1 2.2\n0.3 3\n0.5 1\n")
    g = tmp_path / "unit.txt"
    g.write_text("0.25 0.25\n0.35 0.125\n0.55 0.55\n0.15 0.75\n0.25 0.25\n")
    d = run_json(capsys, "rho-star", "--trace", str(f), "--capacity", "2:4", "--grid", "40:20")
    e = run_json(capsys, "rho-star", "--trace", str(g), "--grid", "40:20")
    assert d["input"]["normalised"] == "normalised by capacity (2, 4)"
    assert (d["lower_exact"], d["upper_exact"]) == (e["lower_exact"], e["upper_exact"])
    assert d["certified"] is True


def test_scalar_capacity_with_a_grid_is_normalised(capsys):
    """A grid counts multiples of 1/G of the capacity: a scalar capacity is divided out
    there (the exact LP takes it as it is), with the same answer."""
    d = run_json(capsys, "rho-star", "--sizes", "1,2", "--capacity", "4", "--grid", "8")
    e = run_json(capsys, "rho-star", "--sizes", "1,2", "--capacity", "4")
    assert d["input"]["normalised"] == "normalised by capacity 4"
    assert Fraction(d["lower_exact"]) == Fraction(d["upper_exact"]) \
        == Fraction(e["lower_exact"]) == Fraction(8, 3)
