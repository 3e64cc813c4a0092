"""PG18.TableI (PG18 Sec. VII-A, Table I and the text after it): V, the average of the
maximal configurations, is on the boundary of C (eq. (2)): max{t : t V in C} = 1 exactly.
The check must turn "violated" for a V strictly inside C and for one outside C."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs_checks.checks import pg18_region as m
from proofs_checks.registry import get_check

REAL_AVERAGE = m._average_of_maximal


def test_table1_is_registered():
    assert get_check("PG18.TableI").func is m.check_table1


def test_table1_holds_with_v_exactly_on_the_boundary():
    res = m.check_table1(True)
    assert res.verdict == "holds"
    ev = res.details
    assert ev["V_average_of_maximal"] == ["2/3", "11/3", "2/3"]
    assert ev["max_scaling_of_V"] == {"lower": "1", "upper": "1", "exact": True,
                                      "tolerance": None}
    assert ev["V_in_C"] and ev["scaled_V_outside_C_for_every_delta"] and ev["V_on_boundary"]


@pytest.mark.parametrize("factor, in_c, on_edge", [
    (Fraction(95, 100), True, False),   # inside C, not on the boundary: t* = 20/19
    (Fraction(105, 100), False, True),  # outside C: t* = 20/21
])
def test_table1_fails_when_v_is_scaled_off_the_boundary(monkeypatch, factor, in_c, on_edge):
    monkeypatch.setattr(m, "_average_of_maximal",
                        lambda K: [factor * v for v in REAL_AVERAGE(K)])
    res = m.check_table1(True)
    assert res.verdict == "violated"
    ev = res.details
    assert ev["max_scaling_of_V"]["lower"] == str(1 / factor)
    assert ev["V_in_C"] is in_c
    assert ev["scaled_V_outside_C_for_every_delta"] is on_edge
    assert ev["V_on_boundary"] is False
    # the rest of the check is untouched
    assert ev["agrees_with_brute_force"]


def test_table1_float_path_uses_the_stated_tolerance(monkeypatch):
    # float V (not exact): the certified interval is compared within TABLE1_SCALING_TOL
    monkeypatch.setattr(m, "_average_of_maximal",
                        lambda K: [float(v) for v in REAL_AVERAGE(K)])
    res = m.check_table1(True)
    assert res.verdict == "holds"
    assert res.details["max_scaling_of_V"]["tolerance"] == m.TABLE1_SCALING_TOL
    monkeypatch.setattr(m, "_average_of_maximal",
                        lambda K: [0.95 * float(v) for v in REAL_AVERAGE(K)])
    assert m.check_table1(True).verdict == "violated"
