"""What a Theorem 1 bracket certifies (issue 42 follow-up).

Each end of a bracket is proven by its own re-checked certificate, whatever stopped
the solve: the lower end by the upper-rounded LP's mixture (any feasible mixture of a
max-LP proves a lower bound), the upper end by the lower-rounded LP's dual prices (a
price vector under which no feasible configuration is worth more than its class bound)
or by PG21 Lemma 2. A stop at the pricing budget, like one at the time limit or at a
target, leaves those checks valid; a check that failed (lower 0, upper inf) or was not
run proves nothing. ``packsched rho-star --dist gamma:2,0.15 --servers 4`` said "NOT
certified" with no reason: its X^(6) upper-rounded LP stopped on its pricing budget
with a re-checked mixture (the lower end), and Lemma 2 is the upper end.
"""

from __future__ import annotations

import dataclasses
import json
import math
from fractions import Fraction as F

import pytest

from capacity.brackets import Bracket, lower_end_proven, partition_bracket, upper_end_proven
from packsched.cli import main
from theory import from_spec
from theory.partitions import quantile_partition

MIXTURE = "mixture:1/2*discrete:0.3@1/2,0.55@1/2+1/2*uniform:0.1,0.9"
BUDGET = ("column generation stopped: the pricing search exceeded its budget, so the LP "
          "optimum is not proven; bounds differ by more than 1e-07 relative")


@pytest.fixture(scope="module")
def solved() -> Bracket:
    """X^(2) of the mixture: both LPs solved exactly, the upper end from the LP."""
    d = from_spec(MIXTURE)
    b = partition_bracket(d, quantile_partition(d, 2))
    assert b.certified and b.upper_from == "lower-rounded LP"
    return b


def _stopped(side, **kw):
    return dataclasses.replace(side, **{"certified": False, "status": "optimal", **kw})


def test_a_pricing_budget_stop_keeps_both_ends_proven(solved):
    """The rechecked mixture and prices of an LP stopped on its pricing budget still
    prove their ends: the bracket is certified (it was not)."""
    lower = _stopped(solved.lower, upper=solved.lower.upper * F(101, 100), message=BUDGET)
    upper = _stopped(solved.upper, lower=solved.upper.lower * F(99, 100), message=BUDGET)
    b = Bracket(solved.partition, lower, upper, solved.lemma2)
    assert lower_end_proven(lower) and upper_end_proven(upper)
    assert b.certified and b.uncertified_reason is None
    assert b.lo == solved.lo and b.hi == solved.hi
    assert b.as_dict()["uncertified_reason"] is None


def test_a_failed_primal_check_is_not_certified(solved):
    lower = _stopped(solved.lower, lower=F(0), message="primal check failed: mixture "
                     "configuration [0, 3] is infeasible for class 0")
    b = Bracket(solved.partition, lower, solved.upper, solved.lemma2)
    assert not lower_end_proven(lower)
    assert not b.certified
    assert "lower end" in b.uncertified_reason and "primal check failed" in b.uncertified_reason
    assert b.as_dict()["uncertified_reason"] == b.uncertified_reason


def test_a_failed_dual_check_is_certified_only_by_lemma2(solved):
    upper = _stopped(solved.upper, upper=math.inf,
                     message="dual check incomplete for class 0 (search budget)")
    assert not upper_end_proven(upper)
    without = Bracket(solved.partition, solved.lower, upper, None)
    assert not without.certified and "upper end" in without.uncertified_reason
    with_l2 = Bracket(solved.partition, solved.lower, upper, solved.lemma2)
    assert with_l2.upper_from == "PG21 Lemma 2" and with_l2.hi == solved.lemma2
    assert with_l2.certified


def test_a_time_limit_stop_proves_no_more_than_its_checks(solved):
    """Stopped at the time limit with a failed dual check and no Lemma 2: the upper end
    is inf, proven of nothing; the bracket was called certified only for the stop."""
    upper = _stopped(solved.upper, upper=math.inf, status="time_limit",
                     message="column generation stopped at the time limit: ...; dual "
                             "check incomplete for class 0 (search budget)",
                     extra={"stopped_at_time_limit": True})
    assert not Bracket(solved.partition, solved.lower, upper, None).certified


def test_an_unchecked_answer_proves_nothing(solved):
    lower = _stopped(solved.lower, lower=solved.lower.value, upper=solved.lower.value,
                     message="certificate not requested")
    assert not lower_end_proven(lower) and not upper_end_proven(lower)
    assert not Bracket(solved.partition, lower, solved.upper, solved.lemma2).certified


# ---------------------------------------------------------------- the CLI


def _run(capsys, *args):
    assert main(["rho-star", *args]) == 0
    return capsys.readouterr().out


def test_gamma_on_four_servers_is_certified_with_its_upper_end_named(capsys):
    out = json.loads(_run(capsys, "--dist", "gamma:2,0.15", "--servers", "4", "--json"))
    # the level whose LP stopped on its pricing budget is the lower end
    assert out["levels"][-1]["lower"] == out["lower"]
    assert out["certified"] is True and out["uncertified_reason"] is None
    assert out["upper_from"] == "PG21 Lemma 2" and out["upper"] == out["lemma2_bound"]
    # Lemma 2, not the lower-rounded prices, proves the upper end: no dual is shown
    assert out["dual"] is None and "Lemma 2" in out["dual_of"]
    assert all(lv["certified"] and lv["uncertified_reason"] is None for lv in out["levels"])
    text = _run(capsys, "--dist", "gamma:2,0.15", "--servers", "4")
    assert "(certified;" in text and "upper end   PG21 Lemma 2" in text


def test_an_unproven_bracket_says_why(monkeypatch, capsys):
    import capacity.brackets as brackets

    real = brackets.rounded_rho_star

    def broken(dist, partition, rounding, **kw):
        res = real(dist, partition, rounding, **kw)
        if rounding == "up":
            res = dataclasses.replace(res, lower=0.0, certified=False,
                                      message="primal check failed: (test)")
        return res

    monkeypatch.setattr(brackets, "rounded_rho_star", broken)
    out = json.loads(_run(capsys, "--dist", "uniform:0.1,0.9", "--levels", "1", "--json"))
    assert out["certified"] is False
    assert "lower end" in out["uncertified_reason"]
    assert "primal check failed" in out["uncertified_reason"]
    text = _run(capsys, "--dist", "uniform:0.1,0.9", "--levels", "1")
    assert "NOT certified" in text and "primal check failed: (test)" in text


def test_an_uncertified_rho_star_is_never_printed_as_the_value(monkeypatch, capsys):
    """An exact LP stopped on its pricing budget (no --time-limit): rho_star is null,
    the proven interval stays, the reason is given; the text prints no value."""
    import capacity

    real = capacity.rho_star

    def stopped(*a, **kw):
        res = real(*a, **kw)
        return dataclasses.replace(res, certified=False, lower=res.lower * F(9, 10),
                                   message=BUDGET)

    monkeypatch.setattr(capacity, "rho_star", stopped)
    out = json.loads(_run(capsys, "--sizes", "0.4,0.6", "--json"))
    assert out["rho_star"] is None and out["certified"] is False
    assert out["lower"] == pytest.approx(1.8) and out["upper"] == 2
    assert "pricing search exceeded its budget" in out["uncertified_reason"]
    text = _run(capsys, "--sizes", "0.4,0.6")
    assert "rho*        not proven" in text and "NOT certified" in text
    assert "9/5 <= rho* <= 2" in text
