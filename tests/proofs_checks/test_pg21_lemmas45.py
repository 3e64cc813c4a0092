"""PG21 Sec. VIII-B: Lemma 4 (eqs. (48)-(52)), Lemma 5 (eqs. (53)-(55)) and the drift bounds
(56)-(60). Each check holds, and turns 'violated' when what it checks is replaced by a
plausible wrong one (a K_max off by one, a weaker B_gamma, a broken configuration set, a
VQS schedule one job short, a stronger constant in (55), the complement of E charged for
all its slots)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from proofs_checks import ERRATA, get_check, run_checks
from proofs_checks.checks import pg21_lemmas45 as M


@pytest.mark.parametrize("claim", ["PG21.Lemma4", "PG21.Lemma5", "PG21.Lemma5.drift"])
def test_quick_checks_hold(claim):
    res = [r for r in run_checks(claim=claim, quick=True) if r.id == claim]
    assert len(res) == 1
    assert res[0].verdict == "holds", res[0].details
    assert res[0].seconds < 10


# ------------------------------------------------------------------------- Lemma 4
def test_vqs_kmax_is_two_to_the_J_and_needs_rounding():
    for J in range(2, 8):
        assert M.vqs_kmax(J) == 2**J
        assert M.vqs_kmax(J, small_jobs="actual") is None


def test_term1_bound_is_tight_for_the_always_full_server():
    K, mu = 4, F(1, 2)
    for N1 in (1, 3):
        V = M._term1_worst(K, mu, N1)
        assert max(V[1:]) == V[K] == (1 - mu**K) ** N1
        assert V[1] < V[K]


def test_lemma4_fails_with_kmax_off_by_one():
    v = M._lemma4(True, kmax_printed=lambda J: 2**J - 1)
    assert v.verdict == "violated"
    assert not all(r["ok"] for r in v.details["term1"])


def test_lemma4_fails_when_small_jobs_are_packed_at_real_size():
    assert M._lemma4(True, small_jobs="actual").verdict == "violated"


def test_lemma4_fails_with_a_weaker_b_gamma():
    v = M._lemma4(True, b_gamma_factor=2)
    assert v.verdict == "violated"
    assert any(not r["ok"] for r in v.details["assembly"])


def test_lemma4_fails_on_a_configuration_set_with_parallel_rows():
    def broken(J):
        return M._kred(J) + [tuple(2 * x for x in M._kred(J)[0])]  # 2 e_0, parallel to e_0

    v = M._lemma4(True, configs_of=broken)
    assert v.verdict == "violated"
    assert not all(r["positive"] for r in v.details["B_gamma1_positive"])


def test_eq52_instance_separates_and_corrected_constant_holds():
    inst = M._eq52_instance(M._kred)
    assert inst["separates"]
    assert inst["norm_delta"] < inst["B_gamma1_times_norm_Q"]
    assert math.isclose(inst["norm_delta"], 51.0098, abs_tol=1e-4)
    assert math.isclose(inst["B_gamma1_times_norm_Q"], 60.4445, abs_tol=1e-4)
    # the box search finds the sketch's constant too large, the corrected one holds
    s = M._distance_search(2, F(1, 2), 4, M._kred(2))
    assert s["min_ratio_sq"] < M.b_gamma1_squared(2, F(1, 2))
    assert s["min_ratio_sq"] >= M.corrected_distance_constant_squared(2, F(1, 2))


# ------------------------------------------------------------------------- Lemma 5
def test_lemma5_fails_when_vqs_schedules_one_job_short():
    v = M._lemma5(True, deficit=1)
    assert v.verdict == "violated"
    assert v.details["chain"]["failures"]


def test_lemma5_fails_on_an_overfull_reduced_row():
    def broken(J):
        rows = M._kred(J)
        if J < 3:
            return rows
        # e_1 + (floor(2^m/3) + 1) e_{2m}, m = 2: two jobs up to 1/4 next to the VQ_1 job
        return [r if r != tuple(int(i in (1, 4)) for i in range(2 * J)) else
                tuple(2 if i == 4 else int(i == 1) for i in range(2 * J)) for r in rows]

    v = M._lemma5(True, configs_of=broken)
    assert v.verdict == "violated"
    assert v.details["fill_invariant_failures"]


def test_lemma5_fails_without_the_vq1_rows():
    def broken(J):
        return [r for r in M._kred(J) if r[1] == 0]

    v = M._lemma5(True, configs_of=broken)
    assert v.verdict == "violated"
    assert v.details["coverage"][0]["vqs_in_no_row"] == [1]


def test_lemma5_fails_with_a_stronger_constant_in_eq55():
    v = M._lemma5(True, sqrt_den=lambda J: 1)
    assert v.verdict == "violated"
    assert not all(r["ok"] for r in v.details["eq55"])


def test_eq54_equality_is_refuted_on_the_erratum_instance():
    v = M._lemma5(True)
    ex = v.details["eq54_equality"]["example"]
    assert ex["lhs"] == "-1109/1000" and F(ex["printed_rhs"]) == F(2455, 2000)


# ------------------------------------------------------------------------- (56)-(60)
def test_eq56_instance():
    inst = M.eq56_instance()
    assert inst["eq56_fails"] and inst["corrected_holds"] and inst["eq58_holds"]
    assert math.isclose(inst["E_norm"], 4.45571, abs_tol=1e-5)
    assert math.isclose(inst["printed_bound"], 4.45277, abs_tol=1e-5)


def test_eq59_instance_numbers():
    p = dict(M.EQ59_INSTANCE)
    assert M._n2_eq59(p) == 22
    p["N2"] = F(22)
    assert M._q_eq60(p, F(1)) == 6356
    assert M._drift_final(F(63560), p) == F(-14306, 5)
    assert M._drift_bound_printed(F(63560), p, n2_on_bad=True) == F(3323287, 5)


def test_drift_fails_when_the_complement_is_charged_all_its_slots():
    v = M._drift(True, sum_over_bad_slots=True)
    assert v.verdict == "violated"
    assert v.details["chain_grid"]["last_step_failures"]


# ------------------------------------------------------------------------- errata
def test_new_errata_are_registered_with_their_checks():
    want = {"PG21.Lemma4.eq52": "PG21.Lemma4", "PG21.Lemma5.eq54": "PG21.Lemma5",
            "PG21.Thm3.eq56": "PG21.Lemma5.drift", "PG21.Thm3.eq59": "PG21.Lemma5.drift"}
    by_id = {e.id: e for e in ERRATA}
    for eid, check in want.items():
        assert by_id[eid].check == check and get_check(check).id == check
    assert np.isclose(math.sqrt(float(M.b_gamma1_squared(2, F(1, 2)))), 0.15596, atol=1e-5)
