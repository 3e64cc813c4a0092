"""``packsched verify`` prints each check's evidence as measured against bound (issue 40,
item 6): integers as integers (a seed is never 2.02408e+07), Fractions as p/q, floats to
six significant digits, no number cut; ``--json`` carries the evidence's fields."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from packsched.cli import main
from packsched.commands import verify
from proofs_checks.claims import Verdict
from proofs_checks.registry import CheckResult


def _result(id: str, v: Verdict) -> CheckResult:
    return CheckResult(id, id.split(".")[0], "Sec. 1", "a statement of the claim", "exact",
                       v.verdict, v.measured, v.bound, v.relation, v.quantity, v.params,
                       v.seed, v.details, 0.125)


VERDICTS = {
    "X.Seed": Verdict("holds", measured=Fraction(10, 3), bound=Fraction(2, 3), relation=">=",
                      quantity="a ratio", params={"n": 3}, seed=20240812),
    "X.Float": Verdict("holds", measured=0.49991234567, bound=0.5, relation="<=",
                       quantity="a " + "very " * 40 + "long description", seed=(1, 2)),
    "X.Tuple": Verdict("holds", measured=(1.33333333, 1.0226349978953926, 1.0),
                       bound=(1.5, 1.1, 1.01), relation="<=",
                       seed={"workload": 10, "policy": 3}),
    "X.Bracket": Verdict("holds", measured=(0.9171875, 0.94375), bound=(0.8971875, 0.96375),
                         relation="overlaps"),
    "X.None": Verdict("inconclusive", details={"no_bound": "an existence claim"}),
}


class FakeRegistry:
    @staticmethod
    def select_checks(**_kw):
        return list(VERDICTS)

    @staticmethod
    def iter_results(checks, **_kw):
        return (_result(c, VERDICTS[c]) for c in checks)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(verify, "registry", lambda: FakeRegistry)


def _rows(out: str) -> dict[str, str]:
    return {line.split()[0]: line for line in out.splitlines() if line.startswith("X.")}


def test_the_table_prints_measured_against_bound(fake, capsys):
    assert main(["verify"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert "10/3 >= 2/3" in rows["X.Seed"]
    assert "seed 20240812;" in rows["X.Seed"] and "e+07" not in rows["X.Seed"]
    assert "0.499912 <= 0.5" in rows["X.Float"] and "seed (1, 2);" in rows["X.Float"]
    assert "(1.33333, 1.02263, 1) <= (1.5, 1.1, 1.01)" in rows["X.Tuple"]
    assert "seed workload=10, policy=3;" in rows["X.Tuple"]
    assert "[0.917188, 0.94375] overlaps [0.897188, 0.96375]" in rows["X.Bracket"]
    assert "(no bound)" in rows["X.None"] and "an existence claim" in rows["X.None"]
    # only the quantity's words are shortened, to the table's width
    assert rows["X.Float"].endswith("...") and len(rows["X.Float"]) <= verify.TABLE_WIDTH
    assert "a ratio" in rows["X.Seed"]


def test_json_has_the_evidence_fields_exact(fake, capsys):
    assert main(["verify", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    r = rows["X.Seed"]
    assert {"measured", "bound", "relation", "quantity", "params", "seed", "details"} <= set(r)
    assert (r["measured"], r["bound"], r["relation"]) == ("10/3", "2/3", ">=")
    assert r["seed"] == 20240812 and isinstance(r["seed"], int) and r["params"] == {"n": 3}
    assert rows["X.Tuple"]["seed"] == {"workload": 10, "policy": 3}
    assert rows["X.None"]["bound"] is None and rows["X.None"]["details"]["no_bound"]


def test_a_registered_check_prints_its_numbers(capsys):
    assert main(["verify", "--claim", "PG18.TableI", "--quick", "--jobs", "1"]) == 0
    (row,) = _rows(capsys.readouterr().out.replace("PG18.", "X.")).values()
    assert "holds" in row and "1 == 1" in row
