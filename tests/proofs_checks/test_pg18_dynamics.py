"""The PG18 simulation checks hold, and each fails when the policy it is about is
replaced by a plausible wrong one (DESIGN.md: a check must be able to fail)."""

from __future__ import annotations

import pytest

from proofs_checks.checks import pg18_dynamics as D

REAL_RUN = D.run_policy


def _substitute(monkeypatch: pytest.MonkeyPatch, swap: dict[str, tuple[str, dict]]) -> None:
    """Run ``swap[name]`` (another name and extra parameters) wherever the check asks for
    ``name``."""
    def run(name, workload, cluster, types, *, seed, **params):  # noqa: ANN001, ANN202
        other, extra = swap.get(name, (name, {}))
        return REAL_RUN(other, workload, cluster, types, seed=seed, **{**params, **extra})

    monkeypatch.setattr(D, "run_policy", run)


@pytest.mark.parametrize("check", [D.check_prop1, D.check_fig1b, D.check_thm1, D.check_thm2,
                                   D.check_remark1])
def test_the_simulation_checks_hold(check):
    v = check(True)
    assert v.verdict == "holds", v.details


def test_prop1_fails_if_rms_is_work_conserving(monkeypatch):
    _substitute(monkeypatch, {"rms": ("bf-fifo", {})})
    assert D.check_prop1(True).verdict == "violated"


def test_fig1b_fails_with_best_fit_in_arrival_order(monkeypatch):
    """bf-fifo is stable on Fig. 1b's system: the check is about the type-order rule."""
    _substitute(monkeypatch, {"bf": ("bf-fifo", {})})
    v = D.check_fig1b(True)
    assert v.verdict == "violated" and v.details["bf"]["verdict"] == "stable"


@pytest.mark.parametrize("check, name", [(D.check_thm1, "rms"), (D.check_thm2, "rms-jsq")])
def test_theorems_fail_with_frozen_weights(monkeypatch, check, name):
    """RMS-bar with fixed weights w_j = 2 (Definition 2) is not throughput optimal: its
    queue grows at 0.9 of the boundary, which the theorems' checks must notice."""
    params = {"weights": [2.0, 2.0, 2.0]}
    _substitute(monkeypatch, {name: (name, params)})
    v = check(True)
    assert v.verdict == "violated"
    assert v.details["intensity 0.9"]["verdict"] == "unstable"


def test_remark1_fails_with_the_queues_swapped(monkeypatch):
    _substitute(monkeypatch, {"rms": ("rms-jsq", {}), "rms-jsq": ("rms", {})})
    assert D.check_remark1(True).verdict == "violated"
