"""PG21.Lemma3 (PG21 Sec. VIII-B, Lemma 3 with Thm. 3: rho_VQS(F, J) >= (2/3) rho*).

The quick check must reach the bound (the Prop. 2 family of Sec. V-C / Sec. VIII-C has
ratio exactly 2/3), and turn "violated" when K_RED is broken (an infeasible row, a row the
lemma needs dropped, or the library's K_RED disagreeing with the one the check sees) or
when the bound is made stronger than 2/3.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import capacity.reduced
from proofs_checks.checks import pg21_capacity as m
from proofs_checks.registry import get_check
from theory.configurations import ReducedSet

REAL_KRED = m.reduced_configurations


def _with_row(J: int, red: ReducedSet, row: np.ndarray, label: str) -> ReducedSet:
    return ReducedSet(J, np.vstack([red.configs, row[None, :]]), red.labels + (label,))


def _without(label_of: str):
    def kred(J: int) -> ReducedSet:
        red = REAL_KRED(J)
        keep = [i for i, lbl in enumerate(red.labels) if lbl != label_of]
        return ReducedSet(J, red.configs[keep], tuple(red.labels[i] for i in keep))
    return kred


@pytest.fixture(scope="module")
def quick():
    return m.check_lemma3(True)


def test_lemma3_is_registered():
    assert get_check("PG21.Lemma3").func is m.check_lemma3


def test_quick_mode_reaches_two_thirds(quick):
    # (a): the quick search reaches 2/3 within LEMMA3_REACH = 1e-9; on the Prop. 2 family
    # the ratio is exactly 2/3 (rho_VQS = 4/3, rho* = 2), also after descending from
    # perturbed starts (sizes moved by up to 0.02, weights by up to 0.1, a third atom)
    assert quick.verdict == "holds", quick.details
    ev = quick.details
    assert m.LEMMA3_REACH == 1e-9
    assert abs(quick.measured - 2 / 3) <= 1e-9 and quick.bound == Fraction(2, 3)
    assert ev["search_case"]["exact_ratio"] == "2/3"
    assert ev["reaches_bound"]
    search = ev["search"]
    assert search["prop2_seed_ratios"] == [pytest.approx(2 / 3, abs=1e-12)] * 4
    assert abs(search["lowest_after_perturbed_descent"] - 2 / 3) <= 1e-9
    assert all(d["start_ratio"] > 2 / 3 + 1e-3 for d in search["perturbed_descents"])
    # the check's K_RED rows are all feasible and its LP agrees with rho_vqs
    assert ev["kred_feasibility"] == {"J": [2, 10], "rows": 180, "infeasible_rows": []}
    assert ev["disagreements_with_rho_vqs"] == [] and ev["cases_below_bound"] == []


def test_prop2_instance_is_exactly_two_thirds():
    e = Fraction(1, 10)
    case = m._ratio(3, (5000 - 1000, 5000 + 1000), (1, 1))
    assert case is not None and case["agree"]
    assert case["rho_vqs"] == (Fraction(4, 3), Fraction(4, 3))
    assert case["ratio_lo"] == case["ratio_hi"] == Fraction(2, 3)
    assert m._grid_case(3, (4000, 6000), (1, 1))["sizes"] == [str(Fraction(1, 2) - e),
                                                               str(Fraction(1, 2) + e)]


def test_kred_lp_is_certified_exactly():
    # PG21 Def. 6 with J = 2: K_RED = {e_0, 2 e_2, 3 e_3, e_1 + e_3}; VQs 1 and 2 only
    P = [Fraction(0), Fraction(1, 2), Fraction(1, 2), Fraction(0)]
    assert m._kred_lp(P, REAL_KRED(2).configs, 1) == (Fraction(4, 3), Fraction(4, 3))
    assert m._kred_lp(P, REAL_KRED(2).configs, 3) == (Fraction(4), Fraction(4))


# ------------------------------------------------------------- (b) a broken K_RED
def test_an_infeasible_row_fails_the_quick_verdict(monkeypatch):
    # e_1 + e_2: sizes 2/3 + 1/2 > 1 do not fit, and the Prop. 2 pair would "fit" in it
    def kred(J):
        row = np.zeros(2 * J, dtype=np.int64)
        row[1] = row[2] = 1
        return _with_row(J, REAL_KRED(J), row, "e_1 + e_2")

    monkeypatch.setattr(m, "reduced_configurations", kred)
    res = m.check_lemma3(True)
    assert res.verdict == "violated"
    bad = res.details["kred_feasibility"]["infeasible_rows"]
    assert {(b["J"], b["config"], b["rounded_total"]) for b in bad} >= {(2, "e_1 + e_2", "7/6")}
    assert len(bad) == 9  # one per J = 2..10
    # the check's LP over this set no longer agrees with the library's rho_VQS
    assert res.details["disagreements_with_rho_vqs"]


def test_an_infeasible_row_no_ratio_sees_fails_too(monkeypatch):
    # 2^(J-1) + 1 jobs of VQ_{2J-2} (size 1/2^(J-1)): over capacity, on a VQ that no case
    # of the check has mass on when J is large; only the row-by-row test catches it
    def kred(J):
        row = np.zeros(2 * J, dtype=np.int64)
        row[2 * J - 2] = 2 ** (J - 1) + 1
        return _with_row(J, REAL_KRED(J), row, "overfull")

    monkeypatch.setattr(m, "reduced_configurations", kred)
    res = m.check_lemma3(True)
    assert res.verdict == "violated"
    bad = res.details["kred_feasibility"]["infeasible_rows"]
    assert [b["J"] for b in bad] == list(range(2, 11))
    assert all(Fraction(b["rounded_total"]) > 1 for b in bad)


def test_dropping_a_row_the_lemma_needs_fails_the_quick_verdict(monkeypatch):
    # 2 e_2 is the only row of K_RED with a job of VQ_2 = (1/3, 1/2]: without it the
    # Prop. 2 family's job 1/2 - e is never served (rho_VQS = 0)
    monkeypatch.setattr(m, "reduced_configurations", _without("2^1 e_2"))
    res = m.check_lemma3(True)
    assert res.verdict == "violated"
    assert res.details["kred_feasibility"]["infeasible_rows"] == []
    assert res.details["search"]["prop2_seed_ratios"] == [0.0] * 4
    assert res.measured == 0.0
    assert res.details["cases_below_bound"]


def test_dropping_a_row_with_a_substitute_fails_too(monkeypatch):
    # without 3 e_3 the jobs of VQ_3 = (1/4, 1/3] go only one per server, in e_1 + e_3;
    # the check's own LP gives a ratio in (0, 2/3) for every case with mass on VQ_3 alone
    monkeypatch.setattr(m, "reduced_configurations", _without("3*2^0 e_3"))
    case = m._ratio(2, (2600,), (1,))  # rho* = 3 (three jobs of 0.26 fit), rho_VQS = 1
    assert case is not None and case["ratio_lo"] == Fraction(1, 3) and not case["agree"]
    res = m.check_lemma3(True)
    assert res.verdict == "violated"
    assert res.details["kred_feasibility"]["infeasible_rows"] == []
    assert res.details["disagreements_with_rho_vqs"]


def test_a_broken_library_kred_disagrees_with_the_check(monkeypatch):
    # the library's rho_vqs computed over a K_RED without 2 e_2: the check's own LP (on the
    # real K_RED) disagrees with it
    monkeypatch.setattr(capacity.reduced, "reduced_configurations", _without("2^1 e_2"))
    res = m.check_lemma3(True)
    assert res.verdict == "violated"
    assert res.details["disagreements_with_rho_vqs"]


# ------------------------------------------------------------- (c) a stronger bound
@pytest.mark.parametrize("bound", [Fraction(2, 3) + Fraction(1, 10**6), Fraction(7, 10)])
def test_a_bound_above_two_thirds_fails(monkeypatch, bound):
    monkeypatch.setattr(m, "LEMMA3_BOUND", bound)
    res = m.check_lemma3(True)
    assert res.verdict == "violated"
    below = res.details["cases_below_bound"]
    assert below and min(c["ratio"][1] for c in below) == pytest.approx(2 / 3, abs=1e-12)
