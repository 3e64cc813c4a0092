"""Missing evidence is "inconclusive", never "violated" (issue 42 follow-up).

A check whose LP is not certified (or whose solve failed or stopped short) has no
evidence either way: PG21.Cor1 said "inconclusive", but PG21.Fig3.capacity, PG21.Thm1 and
others said "violated", as false a verdict as a false "holds". Each check here is fed an
uncertified answer by patching its solver and must come out inconclusive; a genuinely
false (certified) number must still come out violated.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import numpy as np
import pytest

from proofs_checks.checks import fl24_schedules, pg18_region, pg21_capacity
from proofs_checks.registry import get_check, run_check


def verdict(check_id: str) -> str:
    return run_check(get_check(check_id), quick=True).verdict


def _uncertified(res, shrink=F(9, 10)):
    """``res`` as an LP stopped short: the mixture's end lower, not certified."""
    lower = res.lower * shrink if isinstance(res.lower, F) else float(res.lower) * float(shrink)
    return dataclasses.replace(res, lower=lower, certified=False, status="optimal",
                               message="column generation stopped: the pricing search "
                                       "exceeded its budget, so the LP optimum is not proven")


def _certified_as(res, value):
    return dataclasses.replace(res, value=float(value), lower=F(value), upper=F(value),
                               certified=True)


@pytest.fixture
def uncertified_rho_star(monkeypatch):
    real = pg21_capacity.rho_star
    monkeypatch.setattr(pg21_capacity, "rho_star", lambda *a, **k: _uncertified(real(*a, **k)))


@pytest.fixture
def uncertified_rounded(monkeypatch):
    real = pg21_capacity.rounded_rho_star
    monkeypatch.setattr(pg21_capacity, "rounded_rho_star",
                        lambda *a, **k: _uncertified(real(*a, **k)))


# ------------------------------------------------------------------ PG21.Fig3.capacity


def test_fig3_capacity_holds_when_certified():
    assert verdict("PG21.Fig3.capacity") == "holds"


def test_fig3_capacity_uncertified_is_inconclusive(uncertified_rho_star):
    assert verdict("PG21.Fig3.capacity") == "inconclusive"


def test_fig3_capacity_with_a_false_certified_rho_star_is_violated(monkeypatch):
    real = pg21_capacity.rho_star
    monkeypatch.setattr(pg21_capacity, "rho_star",
                        lambda *a, **k: _certified_as(real(*a, **k), F(5, 2)))
    assert verdict("PG21.Fig3.capacity") == "violated"


# ------------------------------------------------------------------ PG21.Thm1


def _patched_brackets(monkeypatch, change):
    real = pg21_capacity.quantile_brackets

    def fake(*a, **k):
        if k.get("tight") is False:  # identity (40) on the paper's X^(n): left alone
            return real(*a, **k)
        return [dataclasses.replace(b, lower=change(b.lower)) for b in real(*a, **k)]

    monkeypatch.setattr(pg21_capacity, "quantile_brackets", fake)


def test_thm1_with_an_unchecked_mixture_is_inconclusive(monkeypatch):
    # the primal check failed: the lower end is 0, proven of nothing
    _patched_brackets(monkeypatch, lambda s: dataclasses.replace(
        s, lower=F(0) if isinstance(s.lower, F) else 0.0, certified=False,
        message="primal check failed: (test)"))
    assert verdict("PG21.Thm1") == "inconclusive"


def test_thm1_with_crossing_proven_ends_is_violated(monkeypatch):
    # a certified lower end above the certified upper end contradicts Thm. 1
    _patched_brackets(monkeypatch, lambda s: dataclasses.replace(
        s, lower=s.lower * 10, upper=s.upper * 10, value=s.value * 10))
    assert verdict("PG21.Thm1") == "violated"


# ------------------------------------------------------------------ PG21.Prop2, dyadic


def test_prop2_uncertified_is_inconclusive(uncertified_rho_star):
    assert verdict("PG21.Prop2") == "inconclusive"


def test_prop2_uncertified_rounded_lps_are_inconclusive(uncertified_rounded):
    assert verdict("PG21.Prop2") == "inconclusive"


def test_prop2_with_a_certified_rounded_capacity_above_4_3_is_violated(monkeypatch):
    real = pg21_capacity.rounded_rho_star
    monkeypatch.setattr(pg21_capacity, "rounded_rho_star",
                        lambda *a, **k: _certified_as(real(*a, **k), F(3, 2)))
    assert verdict("PG21.Prop2") == "violated"


def test_dyadic_uncertified_is_inconclusive(uncertified_rounded):
    assert verdict("PG21.Thm3.dyadic") == "inconclusive"


# ------------------------------------------------------------------ PG21.Lemma3


def test_lemma3_with_failed_solves_is_inconclusive(monkeypatch):
    import scipy.optimize

    class Failed:
        status = 4
        message = "numerical difficulties (test)"

    monkeypatch.setattr(scipy.optimize, "linprog", lambda *a, **k: Failed())
    assert verdict("PG21.Lemma3") == "inconclusive"


# ------------------------------------------------------------------ PG18


@pytest.fixture
def uncertified_scaling(monkeypatch):
    """max_scaling stops short (wide interval) unless the answer is decided exactly
    elsewhere: CapacityRegion.contains keeps its own exact path."""
    real = pg18_region.CapacityRegion.max_scaling
    seen = {"n": 0}

    def fake(self, direction, *a, **k):
        res = real(self, direction, *a, **k)
        seen["n"] += 1
        return dataclasses.replace(res, lower=res.lower * F(1, 2), upper=res.upper * 2,
                                   certified=False, message="(test) not certified")

    monkeypatch.setattr(pg18_region.CapacityRegion, "max_scaling", fake)
    return seen


@pytest.mark.parametrize("check_id", ["PG18.TableI", "PG18.SecVIIA.V"])
def test_pg18_uncertified_scaling_is_inconclusive(uncertified_scaling, check_id):
    assert verdict(check_id) == "inconclusive"
    assert uncertified_scaling["n"] > 0


def test_pg18_region_uncertified_boundary_is_inconclusive(monkeypatch):
    real = pg18_region.CapacityRegion.max_scaling

    def fake(self, direction, *a, **k):
        res = real(self, direction, *a, **k)
        if [float(v) for v in direction] == [2.0, 1.0]:  # the boundary point only
            res = dataclasses.replace(res, lower=res.lower * F(1, 2), certified=False)
        return res

    monkeypatch.setattr(pg18_region.CapacityRegion, "max_scaling", fake)
    assert verdict("PG18.Region") == "inconclusive"


def test_pg18_v_boundary_with_a_false_exact_scaling_is_violated(monkeypatch):
    real = pg18_region.CapacityRegion.max_scaling
    monkeypatch.setattr(pg18_region.CapacityRegion, "max_scaling",
                        lambda self, d, *a, **k: _certified_as(real(self, d, *a, **k),
                                                               F(3, 2)))
    assert verdict("PG18.SecVIIA.V") == "violated"


# ------------------------------------------------------------------ FL24


def test_fl24_lemma41_with_an_unproven_milp_is_inconclusive(monkeypatch):
    import capacity.completion_programs as cp

    real = cp.completion_optimum
    monkeypatch.setattr(cp, "completion_optimum",
                        lambda *a, **k: dataclasses.replace(real(*a, **k),
                                                            status="time_limit"))
    assert fl24_schedules is not None
    assert verdict("FL24.Lemma4.1") == "inconclusive"


def test_fl24_lemma41_with_a_wrong_proven_optimum_is_violated(monkeypatch):
    import capacity.completion_programs as cp

    real = cp.completion_optimum
    monkeypatch.setattr(cp, "completion_optimum",
                        lambda *a, **k: dataclasses.replace(real(*a, **k),
                                                            value=np.float64(1e6)))
    assert verdict("FL24.Lemma4.1") == "violated"


# ------------------------------------------------------------------ XLL21 (symbolic KKT)


@pytest.mark.parametrize("check_id", ["XLL21.Lemma1", "XLL21.Lemma2"])
def test_xll21_undecided_signs_are_inconclusive(monkeypatch, check_id):
    """sympy unable to decide a sign proves nothing: not a failed KKT condition."""
    import proofs_checks.symbolic_knapsack as sk

    assert verdict(check_id) == "holds"

    def undecided(expr):
        raise sk.Undecided(f"sign of {expr} undecided (test)")

    monkeypatch.setattr(sk, "sign", undecided)
    assert verdict(check_id) == "inconclusive"
