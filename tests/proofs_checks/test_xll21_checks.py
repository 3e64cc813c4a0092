"""XLL21 closed-form checks hold, and fail when the form under them is a wrong one."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import proofs_checks.checks.xll21_closed_forms as m
from proofs_checks.registry import get_check
from proofs_checks.symbolic_knapsack import Case, kkt_certificate


def test_the_checks_hold():
    for cid in ("XLL21.Lemma1", "XLL21.Lemma2", "XLL21.Eq5", "XLL21.Alg1.line7"):
        assert get_check(cid).func(True).verdict == "holds", cid


def test_printed_forms_fail_where_the_errata_say():
    ok1, _, ev1 = m._run(m.lemma1_cases, m._lemma1, m.EQ22_PRINTED, m.EQ22_PRINTED)
    ok2, _, ev2 = m._run(m.lemma2_cases, m._lemma2, m.EQ39_PRINTED, m.EQ39_PRINTED)
    assert not ok1 and not ev1["second job partly fits"]["optimal"]
    assert not ok2 and not ev2["job 1 fills C exactly (gamma_2 = 0)"]["optimal"]


def test_a_wrong_ranking_is_caught():
    """Lemma 1 with the jobs' rates filled in decreasing omega (the wrong end first)."""
    ok, _, _ = m._run(m.lemma1_cases, _reversed_lemma1, m.EQ22_CORRECTED, m.EQ22_CORRECTED)
    assert not ok


def _reversed_lemma1(cases: list[Case], inst: dict):
    flipped = dict(inst, omega=list(reversed(inst["omega"])))
    y, used, _ = m._lemma1(cases, flipped)
    c = [inst["omega"][j] * m.D[j] for j in range(3)]
    return y, used, kkt_certificate(c, m.D, [sp.Integer(1)] * 3, inst["C"], y)


def test_kkt_certificate_rejects_an_infeasible_and_a_suboptimal_point():
    d = [sp.Integer(1), sp.Integer(1)]
    u = [sp.Integer(1)] * 2
    cost = [sp.Integer(-2), sp.Integer(-1)]
    assert kkt_certificate(cost, d, u, sp.Integer(1), [1, 0])["optimal"]
    assert not kkt_certificate(cost, d, u, sp.Integer(1), [0, 1])["optimal"]
    assert not kkt_certificate(cost, d, u, sp.Integer(1), [1, 1])["optimal"]


def test_alg1_check_fails_if_the_target_were_the_printed_one(monkeypatch):
    monkeypatch.setattr(m, "long_term_target",
                        lambda a, p, g: np.asarray(p, float) / (1 - np.asarray(a, float)))
    assert m.check_alg1_line7(True).verdict == "violated"


def test_example1_holds_for_fair_and_fails_for_another_scheduler():
    from policies.preemptive import SRPT, Fair
    from proofs_checks.checks.xll21_dynamics import check_example1, example1

    assert check_example1(True).verdict == "holds"
    assert example1(Fair())["flowtime"] == [3, 5, 6]
    other = example1(SRPT())
    assert other["flowtime"] != [3, 5, 6] and round(other["ratio"], 1) != 1.1


def test_thm3_holds_and_a_starving_policy_fails_it():
    import numpy as np

    from policies.preemptive import Allocation, PreemptivePolicy
    from proofs_checks.checks.xll21_dynamics import (
        check_thm3,
        fit_and_gaps,
        loglog_slope,
        online_instance,
    )
    from theory.fractional_flowtime import gamma_horizon

    assert check_thm3(True).verdict == "holds"

    class Idle(PreemptivePolicy):
        name = "idle"

        def allocate(self, view):
            return Allocation(np.zeros((view.n, len(view.machine_cores)), dtype=np.int64))

    jobs, machines = online_instance(0)
    gamma = gamma_horizon(jobs.arrival, jobs.processing, jobs.demand[:, 0], 16)
    horizons = [60, 120, 240, 480]
    runs = fit_and_gaps(lambda T: Idle(), jobs, machines, horizons, 2.0, gamma)
    fit = np.array([r["fit"] / np.sqrt(r["N_T"]) for r in runs])
    gaps = np.array([r["max_gap"] for r in runs])
    assert np.all(fit > 0) and loglog_slope(np.array(horizons), gaps)["high"] >= 1


def test_eq6_is_tight_so_a_smaller_factor_fails():
    import numpy as np

    from proofs_checks.checks.xll21_optima import eq6_ratio
    from theory.job_sets import JobSet, Machines

    r = eq6_ratio(JobSet(np.array([0, 1]), np.array([1, 1]), np.array([[2], [2]])),
                  Machines(np.array([[2]])), 1.0)
    assert r["ratio"] == pytest.approx(2.0)  # p_j = 1: fractional f + 1 = 2 f


def test_thm6_counterexample_and_cor2_fail_under_wrong_inputs(monkeypatch):
    import numpy as np

    import proofs_checks.checks.xll21_optima as o
    from capacity.flowtime_programs import p1_optimum
    from policies.preemptive import PriorityPolicy, run_schedule
    from theory.job_sets import JobSet, Machines

    assert o.check_thm6(True).verdict == "holds" and o.check_cor2(True).verdict == "holds"
    # one job alone: SVF is optimal, nothing separates, the counterexample check fails
    monkeypatch.setattr(o, "THM6_INSTANCE", {"a": [0], "p": [2], "d": [1], "C": [1],
                                             "k": 1.0, "transient": True})
    assert o.check_thm6(True).verdict == "violated"

    class LargestVolumeFirst(PriorityPolicy):
        name = "lvf"

        def key(self, view):
            return -view.processing * view.cores

    jobs, mach = JobSet(np.zeros(4), np.array([1, 1, 1, 10]), np.ones((4, 1))), \
        Machines(np.array([[1]]))
    flow = run_schedule(LargestVolumeFirst(), jobs, mach, k=1).flowtime.sum()
    bound = p1_optimum(jobs, mach, 1.0).value + jobs.processing.sum() / 2
    assert flow > bound  # Cor. 2's bound separates a wrong ranking


def test_slot_checks_hold_and_fail_for_wrong_forms(monkeypatch):
    import proofs_checks.checks.xll21_slot_checks as sc
    from theory.slot_allocation import lemma1_rates

    for f in (sc.check_lemma1_numeric, sc.check_lemma2_numeric, sc.check_thm2):
        assert f(True).verdict == "holds", f.__name__

    def printed_eq22(coeff, d, C):  # the printed case 2: a job that only partly fits gets 0
        y = lemma1_rates(coeff, d, C)
        return np.where(y < 1, 0.0, y)

    monkeypatch.setattr(sc, "lemma1_rates", printed_eq22)
    assert sc.check_lemma1_numeric(True).verdict == "violated"
    monkeypatch.setattr(sc, "lemma2_rates", lambda p, r, d, C: np.zeros(len(p)))
    assert sc.check_lemma2_numeric(True).verdict == "violated"


def test_thm2_fails_when_the_allocation_is_poor(monkeypatch):
    import proofs_checks.checks.xll21_slot_checks as sc
    from policies.preemptive import OCORPM, Allocation

    def one_core(self, view):  # one core to the first job only
        u = np.zeros((view.n, len(view.machine_cores)), dtype=np.int64)
        u[0, 0] = 1
        return Allocation(u, (u > 0).astype(np.int64))

    monkeypatch.setattr(OCORPM, "allocate", one_core)
    assert sc.check_thm2(True).verdict == "violated"
