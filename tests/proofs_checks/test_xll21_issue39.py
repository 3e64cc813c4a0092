"""Issue 39, XLL21: Lemma 1's harness on C = 0 (class 11) and Theorem 4 decided (class 12)."""

from __future__ import annotations

import numpy as np
import pytest

import proofs_checks.checks.xll21_dynamics as dyn
import proofs_checks.checks.xll21_slot_checks as sc
from proofs_checks import ERRATA, get_check
from theory.slot_allocation import lemma1_rates


# -- class 11: XLL21.Lemma1.numeric, C = 0 -------------------------------------------------
def test_lemma1_full_check_holds_on_its_zero_capacity_instances():
    """The full check draws C = 0 three times; it compared the closed form on 0 cores
    with an LP on 1 core and reported a relative gap of 1."""
    v = sc.check_lemma1_numeric(False)
    assert v.verdict == "holds", v.details
    assert v.details["zero_capacity_instances"] == 3
    assert v.measured <= 1e-9


def test_zero_capacity_has_the_single_feasible_point_zero():
    coeff, d = np.array([-5.0, -1.0, 3.0]), np.array([2.0, 1.0, 1.0])
    assert sc.lemma1_optimum(coeff, d, 0.0) == (0.0, 0.0)
    assert np.all(lemma1_rates(coeff, d, 0.0) == 0)
    # with one core the optimum serves the job of most negative omega
    assert sc.lemma1_optimum(coeff, d, 1.0) == pytest.approx((-2.5, -2.5))
    with pytest.raises(ValueError):
        sc.lemma1_optimum(coeff, d, -1.0)


@pytest.mark.parametrize("shift", [1, -1])
def test_lemma1_check_fails_for_a_closed_form_off_by_one_core(monkeypatch, shift):
    monkeypatch.setattr(sc, "lemma1_rates",
                        lambda c, d, C: lemma1_rates(c, d, max(C + shift, 0.0)))
    assert sc.check_lemma1_numeric(True).verdict == "violated"


def test_lemma1_check_fails_for_a_closed_form_that_gives_zero_cores_one(monkeypatch):
    """The old harness's mistake moved into the closed form: only the C = 0 instances
    (full check) can catch it."""
    monkeypatch.setattr(sc, "lemma1_rates",
                        lambda c, d, C: lemma1_rates(c, d, C if C > 0 else 1.0))
    assert sc.check_lemma1_numeric(True).verdict == "holds"  # no C = 0 among 20
    assert sc.check_lemma1_numeric(False).verdict == "violated"


def test_lemma1_check_fails_for_an_infeasible_closed_form_of_optimal_value(monkeypatch):
    """Jobs with omega_j = 0 cost nothing: serving all of them whole keeps the value
    optimal and can break the capacity, the C = 0 instances included."""
    def free_jobs_whole(c, d, C):
        y = lemma1_rates(c, d, C)
        return np.where(np.asarray(c) == 0, 1.0, y)

    monkeypatch.setattr(sc, "lemma1_rates", free_jobs_whole)
    v = sc.check_lemma1_numeric(False)
    assert v.verdict == "violated" and v.measured <= 1e-9
    assert v.details["infeasible_closed_forms"] > 0


# -- class 12: XLL21.Thm4 ------------------------------------------------------------------
@pytest.fixture(scope="module")
def quick_rows():
    return [dyn.thm4_run(n, span) for n, span in dyn.THM4_SIZES["quick"]]


def test_thm4_is_decided_false_as_printed_with_its_erratum():
    v = dyn.check_thm4(True)
    assert v.verdict == "holds", v.details  # the convention: the refutation holds
    assert v.details["separated"] and v.details["sketch_bound_holds"]
    assert v.details["exceeded_at_jobs"] == [120]
    c = get_check("XLL21.Thm4")
    assert c.statement.startswith("Theorem 4 as printed fails") and c.method == "counterexample"
    (e,) = [e for e in ERRATA if e.id == "XLL21.Thm4"]
    assert e.check == "XLL21.Thm4"


def test_thm4_rows_bracket_opt_and_meet_the_sketch_bound(quick_rows):
    for r in quick_rows:
        assert r["unfinished_at_T"] == 0  # so Reg_T is OCORP's whole P2 cost, >= OPT_P2
        assert r["opt_lower"] < r["regret"] <= r["opt_upper"]
        assert r["sketch_slots_ok"] and r["regret"] <= r["sketch_bound"]
        assert r["opt_needed_by_sketch"] > 1e6 * r["opt_upper"]
        assert r["C"] == 16


def test_thm4_decision_flips_for_a_wrong_exponent_or_constant(quick_rows):
    right = dyn.thm4_decision(quick_rows, beta=0.5)
    assert right["separated"] and right["exponent"] == 0.5
    # OPT^1 (beta = 0): the measured growth, nothing exceeds and the slope is not faster
    linear = dyn.thm4_decision(quick_rows, exponent=1.0)
    assert not linear["separated"] and not linear["exceeded_at_jobs"]
    assert not linear["grows_faster"]
    # C growing with the instance (cores times jobs): no instance exceeds
    grown = dyn.thm4_decision(quick_rows, beta=0.5, constant=lambda r: r["C"] * r["jobs"])
    assert not grown["separated"] and not grown["exceeded_at_jobs"]
    # C = max_i C_i = 8 is smaller than sum_i C_i: more instances exceed
    smaller = dyn.thm4_decision(quick_rows, beta=0.5, constant=lambda r: 8.0)
    assert smaller["separated"] and smaller["exceeded_at_jobs"] == [30, 60, 120]


def test_thm4_check_is_violated_when_its_decision_is_not_separated(monkeypatch):
    real = dyn.thm4_decision
    monkeypatch.setattr(dyn, "thm4_decision", lambda rows, beta: real(rows, exponent=1.0))
    assert dyn.check_thm4(True).verdict == "violated"


def test_thm4_sketch_bound_fails_for_a_policy_that_ignores_the_multipliers(monkeypatch):
    """The sketch's bound rests on y(t) minimising (9); a policy that serves every job
    from its first slot (lambda = 0 there) breaks it."""
    import policies.preemptive as pp

    class ServeAll(pp.OCORP):
        def coefficients(self, view):
            return -np.ones(view.n)

    monkeypatch.setattr(pp, "OCORP", ServeAll)
    row = dyn.thm4_run(30, 60)
    assert not row["sketch_slots_ok"]
    assert dyn.check_thm4(True).verdict == "violated"


def test_thm4_full_numbers_are_the_erratum_s():
    """The full family (n = 30..480, ~2 s): the numbers the erratum quotes."""
    ev = dyn.check_thm4(False).details
    assert ev["separated"] and ev["exceeded_at_jobs"] == [120, 240, 480]
    up, low = (ev["regret_vs_opt_loglog_slope"][k] for k in ("opt_upper", "opt_lower"))
    (e,) = [e for e in ERRATA if e.id == "XLL21.Thm4"]
    assert f"e = {up['slope']:.3f} [{up['low']:.3f}, {up['high']:.3f}]" in e.instance
    assert f"{low['slope']:.3f} [{low['low']:.3f}, {low['high']:.3f}]" in e.instance
    assert ", ".join(f"{c:.1f}" for c in ev["C_needed_at_least"]) in e.instance
    by_n = {r["jobs"]: r for r in ev["instances"]}
    assert f"Reg_T = {by_n[120]['regret']:.0f} > " in e.instance
    assert f"OPT <= {by_n[120]['opt_upper']:.0f}" in e.instance


# -- Thm. 3's evidence counted unfinished jobs as completion == 0 (it is NaN) ---------------
def test_thm3_counts_the_unfinished_jobs():
    from policies.preemptive import OCORP

    jobs, machines = dyn.online_instance(0)
    (run,) = dyn.fit_and_gaps(lambda T: OCORP(mu=T ** 1.5, gamma=956.0), jobs, machines,
                              [60], 2.0, 956.0)
    assert run["unfinished"] == run["N_T"] == 34


# -- the full catalogue (issue 39, class 11): ~5 min, so --runslow ---------------------------
def catalogue_verdicts(paper: str | None = None) -> dict[str, str]:
    """Every check of ``paper`` (all papers: None) in its full form, as ``packsched
    verify`` runs it: {claim id: verdict}."""
    import os

    from proofs_checks.registry import iter_results, select_checks

    jobs = max(1, min(2, os.cpu_count() or 1))
    return {r.id: r.verdict for r in iter_results(select_checks(paper=paper), jobs=jobs)}


@pytest.mark.slow
def test_the_full_catalogue_reports_no_violation():
    """A check whose paper is wrong reports the erratum as its claim ('holds', statement
    "... as printed fails", erratum in proofs_checks.errata), so no verdict of the full
    catalogue may be 'violated'; an 'inconclusive' one is allowed, as in verify."""
    verdicts = catalogue_verdicts()
    assert {c for c, v in verdicts.items() if v == "violated"} == set()
    assert {e.check for e in ERRATA} <= set(verdicts)
