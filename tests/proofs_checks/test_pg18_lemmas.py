"""PG18 Sec. V checks (Lemma 1, its RMS + JSQ form (14), Lemma 2, Corollary 1) hold, and
turn "violated" when what they compare against is replaced by a plausible wrong thing."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.checks import pg18_lemmas as m
from proofs_checks.registry import get_check

REAL_GENERATOR = m.rms_bar_generator
REAL_PRODUCT_FORM = m.product_form
REAL_SOLVE = m.solve_gibbs_program
REAL_STATE_GRAPH = m.state_graph


def _systems(res):
    return list(res.details["systems"].values())


# ------------------------------------------------------------------ they hold
def test_the_checks_are_registered():
    for cid, func in [("PG18.Lemma1", m.check_lemma1), ("PG18.Lemma1.JSQ", m.check_lemma1_jsq),
                      ("PG18.Lemma2", m.check_lemma2), ("PG18.Cor1", m.check_cor1)]:
        assert get_check(cid).func is func


def test_lemma1_holds():
    res = m.check_lemma1(True)
    assert res.verdict == "holds"
    assert len(_systems(res)) == len(m.SYSTEMS)
    for s in _systems(res):
        assert s["max_abs_diff"] <= 1e-10 and s["max_abs_diff_large_weights"] <= 1e-10
        assert s["strongly_connected"] and s["min_diff_to_9_without_1_over_L"] > 1e-3
    (sym,) = res.details["symbolic"].values()
    assert sym["equations"] == 220 and sym["failing"] == 0


def test_lemma1_jsq_holds():
    res = m.check_lemma1_jsq(True)
    assert res.verdict == "holds"
    for s in _systems(res):
        assert s["max_abs_diff_to_14"] <= 1e-10
        assert s["max_abs_diff_to_product_of_servers"] <= 1e-10
        assert s["max_abs_diff_14_vs_9_at_r_over_L"] <= 1e-10
        assert s["min_diff_to_14_with_an_extra_1_over_L"] > 1e-3


def test_lemma2_holds():
    res = m.check_lemma2(True)
    assert res.verdict == "holds"
    for s in _systems(res):
        assert s["max_rel_error_value"] <= 1e-6 and s["max_tv_to_phi_w"] <= 1e-4
        assert s["F_at_phi_w_vs_logZ_difference"] <= 1e-10
        assert s["min_margin_over_other_distributions"] > 0


def test_cor1_holds():
    res = m.check_cor1(True)
    assert res.verdict == "holds" and res.details["bound_not_vacuous"]
    for s in _systems(res):
        assert s["min_relative_slack"] >= 0 and s["share_bound_positive"] > 0.1


# ------------------------------------------------------------------ they can fail
def test_lemma1_fails_when_departures_omit_exp_minus_w(monkeypatch):
    """Departures at k mu (the generator built with w = 0: arrivals r/L, departures k mu)."""
    def no_replacement(c, r, mu, w, **kw):
        return REAL_GENERATOR(c, r, mu, np.zeros_like(np.asarray(w, float)), **kw)

    monkeypatch.setattr(m, "rms_bar_generator", no_replacement)
    res = m.check_lemma1(True)
    assert res.verdict == "violated"
    assert all(s["max_abs_diff"] > 1e-3 for s in _systems(res))


def test_lemma1_fails_when_9_has_no_1_over_L(monkeypatch):
    """product_form with servers=1 for its default calls: the main comparison uses (9)
    without the 1/L; the control (an explicit servers=1) is left as it was and still
    passes, so the verdict comes from the main comparison."""
    def no_1_over_L(*args, servers=None, **kw):
        return REAL_PRODUCT_FORM(*args, servers=1 if servers is None else servers, **kw)

    monkeypatch.setattr(m, "product_form", no_1_over_L)
    res = m.check_lemma1(True)
    assert res.verdict == "violated"
    for s in _systems(res):
        assert s["max_abs_diff"] > 1e-3 and s["max_abs_diff_large_weights"] > 1e-10
        assert s["strongly_connected"] and s["min_diff_to_9_without_1_over_L"] > 1e-6
    assert all(v["failing"] == 0 for v in res.details["symbolic"].values())


def test_lemma1_fails_when_the_state_graph_is_not_connected(monkeypatch):
    """A graph with only the arrival edges (no departures (8)) is not strongly connected."""
    def arrivals_only(c):
        g = REAL_STATE_GRAPH(c)
        g.remove_edges_from([(a, b) for a, b, k in g.edges(data="kind") if k == "departure"])
        return g

    monkeypatch.setattr(m, "state_graph", arrivals_only)
    res = m.check_lemma1(True)
    assert res.verdict == "violated"
    assert not any(s["strongly_connected"] for s in _systems(res))
    assert all(s["max_abs_diff"] <= 1e-10 for s in _systems(res))


def test_lemma1_jsq_fails_when_the_clocks_get_an_extra_1_over_L(monkeypatch):
    """The JSQ generator built with rates r_j^l / L (Algorithm 1's uniform sampling)."""
    def central_clock(c, r, mu, w, per_server_rates=False):
        return REAL_GENERATOR(c, np.asarray(r) / c.shape[1], mu, w,
                              per_server_rates=per_server_rates)

    monkeypatch.setattr(m, "rms_bar_generator", central_clock)
    res = m.check_lemma1_jsq(True)
    assert res.verdict == "violated"
    for s in _systems(res):
        assert s["max_abs_diff_to_14"] > 1e-3
        assert s["max_abs_diff_to_product_of_servers"] > 1e-3
        assert s["min_diff_to_14_with_an_extra_1_over_L"] <= 1e-10


def test_lemma2_fails_with_a_uniform_reference(monkeypatch):
    """The program solved with KL to the uniform law instead of phi^0."""
    def uniform_reference(W, log_reference, **kw):
        n = np.asarray(W).size
        return REAL_SOLVE(W, np.full(n, -np.log(n)), **kw)

    monkeypatch.setattr(m, "solve_gibbs_program", uniform_reference)
    res = m.check_lemma2(True)
    assert res.verdict == "violated"
    for s in _systems(res):
        assert s["max_rel_error_value"] > 1e-3 and s["max_tv_to_phi_w"] > 1e-2
        assert s["F_at_phi_w_vs_logZ_difference"] <= 1e-10


@pytest.mark.parametrize("wrong", [
    pytest.param(lambda W, lr: float(np.max(W)), id="max W only"),
    pytest.param(lambda W, lr: float(np.max(W) + 0.5 * np.min(lr)), id="half the constant"),
])
def test_cor1_fails_with_a_stronger_bound(monkeypatch, wrong):
    """Corollary 1 with a bound that drops all, or half, of min log phi^0: some draw in
    quick mode has E W below it (the check reports the largest share of the constant
    used, above 1/2 on some system)."""
    monkeypatch.setattr(m, "cor1_bound", wrong)
    res = m.check_cor1(True)
    assert res.verdict == "violated"
    assert min(s["min_relative_slack"] for s in _systems(res)) < -m.COR1_TOL


def test_cor1_fails_when_the_bound_is_vacuous(monkeypatch):
    """A true but useless bound (never positive) is reported as violated too."""
    monkeypatch.setattr(m, "cor1_bound", lambda W, lr: float(np.min(lr)) - 1.0)
    res = m.check_cor1(True)
    assert res.verdict == "violated" and not res.details["bound_not_vacuous"]
    assert all(s["min_relative_slack"] >= 0 for s in _systems(res))


def test_cor1_bound_by_hand():
    assert m.cor1_bound(np.array([1.0, 4.0, 2.0]), np.log([0.5, 0.3, 0.2])) == pytest.approx(
        4.0 + np.log(0.2))
