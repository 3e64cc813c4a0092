"""The simulation checks of PG21 can fail: swapping in the wrong policy turns them red."""

from __future__ import annotations

import pytest

from proofs_checks.checks import pg21_dynamics as D
from proofs_checks.registry import run_checks


def _runs(*pairs: tuple[str, str, bool]) -> list[dict]:
    return [{"key": k, "verdict": v, "invariants_ok": ok} for k, v, ok in pairs]


@pytest.mark.parametrize(("runs", "want"), [
    (_runs(("a", "stable", True), ("b", "unstable", True)), "holds"),
    (_runs(("a", "unstable", True), ("b", "unstable", True)), "violated"),
    (_runs(("a", "inconclusive", True), ("b", "unstable", True)), "inconclusive"),
    (_runs(("a", "stable", False), ("b", "unstable", True)), "violated"),
])
def test_combine(runs, want):
    assert D._combine(runs, {"a": "stable", "b": "unstable"}) == want


def test_fig3a_fails_when_vqs_is_replaced_by_a_stable_policy(monkeypatch):
    monkeypatch.setattr(D, "VQS", D.BFJS)  # the 'VQS' runs are now BF-J/S: stable
    res = D.check_fig3a(True)
    assert res.verdict == "violated"
    assert [r["verdict"] for r in res.details["runs"]][0] == "stable"


def test_lemma1_fails_for_first_fit(monkeypatch):
    monkeypatch.setattr(D, "BFJS", D.FIFOFF)  # the paper: Lemma 1 does not hold for First-Fit
    res = D.check_lemma1(True)
    assert res.verdict == "violated"
    case1 = next(leg for leg in res.details["legs"] if leg["leg"] == "case1")
    assert case1["bf_js"]["fraction_with_event"] < 0.9  # the 'BF-J/S' runs are FIFO-FF


def test_thm2_fails_for_fifo_ff(monkeypatch):
    """With FIFO-FF (head-of-line blocking) in place of BF-J/S the head-of-line case is
    unstable at 0.95 L/(2 R-bar), so Thm. 2's check is violated."""
    monkeypatch.setattr(D, "BFJS", D.FIFOFF)
    res = D.check_thm2(True)
    assert res.verdict == "violated"
    bad = [r for r in res.details["runs"]
           if r["key"].startswith("{0.01, 1}") and "L/(2 R-bar)" in r["key"]]
    assert bad and bad[0]["verdict"] == "unstable" and bad[0]["rho_over_rho_star"] < 0.5


def test_fig3b_from_empty_leg_is_in_the_verdict(monkeypatch):
    """Full mode: with VQS in place of BF-J/S, the from-empty BF-J/S runs are stable, so
    the check is violated even where the hand-built leg would also catch it; the quick
    mode says what it did not run."""
    monkeypatch.setattr(D, "FIG3B_FROM_EMPTY_SLOTS", 10_000_000)
    monkeypatch.setattr(D, "FIG3B_FROM_EMPTY_SEEDS", (1,))
    monkeypatch.setattr(D, "BFJS", D.VQS)
    res = D.check_fig3b(False)
    assert res.verdict == "violated"
    empty = {r["key"]: r["verdict"] for r in res.details["runs"] if "from empty" in r["key"]}
    assert empty == {"from empty, seed 1: vqs": "stable", "from empty, seed 1: bf-js": "stable",
                     "from empty, seed 1: vqs-bf": "unstable"}
    assert "not_shown_in_quick" not in res.details


def test_fig5_holds_on_the_trace_and_fails_with_first_fit(monkeypatch):
    res = D.check_fig5(True)
    assert res.verdict == "holds"
    last = res.details["rows"][-1]
    assert last["fifo_ff_over_best"] >= 1.5 and last["vqs_bf_over_bf_js"] <= 1
    monkeypatch.setattr(D, "BFJS", D.FIFOFF)  # 'BF-J/S' is FIFO-FF: no advantage left
    assert D.check_fig5(True).verdict == "violated"


def test_fig3b_initial_state_is_configuration_2_1():
    w = D._fig3b_workload(200, seed=1)
    assert w.arrival[:4].tolist() == [0, 0, 50, 50]
    assert w.demand[:4].tolist() == [5.0, 5.0, 2.0, 2.0]
    assert w.service[:4].tolist() == [100, 50, 100, 67]


def test_quick_catalogue_lists_the_simulation_checks():
    ids = {r.id for r in run_checks(paper="PG21", claim="PG21.Lemma1", quick=True)}
    assert ids == {"PG21.Lemma1"}
