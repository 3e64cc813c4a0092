"""FL24's schedule checks hold, and each fails when what it checks is replaced by a
plausible wrong thing (DESIGN.md: a check must be able to fail)."""

from __future__ import annotations

import numpy as np
import pytest

from policies.nonpreemptive import NonPreemptivePolicy, run_nonpreemptive
from policies.registry import make_policy
from proofs_checks.checks import fl24_schedules as F

CHECKS = [F.check_lemma41, F.check_lemma64, F.check_lemma67, F.check_patience,
          F.check_lemma63, F.check_thm68, F.check_lemma69]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_fl24_checks_hold(check):
    v = check(True)
    assert v.verdict == "holds", v.details


def _mris_is(monkeypatch, factory):
    """Wherever a check asks for ``mris``, give it ``factory()``."""
    def make(name, **kw):  # noqa: ANN001, ANN202
        return factory() if name == "mris" else make_policy(name, **kw)

    monkeypatch.setattr(F, "make_policy", make)


class Procrastinator(NonPreemptivePolicy):
    """Waits until time 1000, then starts what fits (PQ, release order)."""

    name = "procrastinator"

    def next_wakeup(self, state):  # noqa: ANN001
        return 1000.0 if state.t < 1000.0 else np.inf

    def decide(self, state):  # noqa: ANN001
        if state.t >= 1000.0:
            for j in list(state.queue):
                i = state.first_fit(j)
                if i >= 0:
                    state.place(j, i)


@pytest.mark.parametrize("check", [F.check_lemma41, F.check_patience, F.check_thm68])
def test_ratio_checks_fail_with_a_committing_policy_as_mris(monkeypatch, check):
    """PQ in MRIS's place: Lemma 4.1's instance gives it a ratio about N / 2."""
    _mris_is(monkeypatch, lambda: make_policy("pq-wsjf"))
    assert check(True).verdict == "violated"


def test_makespan_check_fails_with_a_procrastinating_mris(monkeypatch):
    _mris_is(monkeypatch, Procrastinator)
    assert F.check_lemma69(True).verdict == "violated"


def _serial(jobs, machines, sort="wsjf"):  # noqa: ANN001, ANN202
    """Everything on machine 0, one job at a time (not a PQ: it never packs)."""
    class Serial(NonPreemptivePolicy):
        name = "serial"

        def decide(self, state):  # noqa: ANN001
            for j in list(state.queue):
                t = max(state.t, float(np.nanmax(state.start + state.processing))
                        if state.placed else state.t)
                state.place(j, 0, t)

    return run_nonpreemptive(Serial(), jobs, machines)


def test_lemma63_fails_for_a_scheduler_that_does_not_pack(monkeypatch):
    monkeypatch.setattr(F, "offline_pq", _serial)
    assert F.check_lemma63(True).verdict == "violated"


def _paired(real, jobs, machines, sort):  # noqa: ANN001, ANN202
    """Offline PQ, but the jobs of Lemma 6.4's family run two at a time (over capacity)."""
    import dataclasses

    res = real(jobs, machines, sort)
    if jobs.n == 1:
        return res
    return dataclasses.replace(res, start=np.floor(np.arange(jobs.n) / 2) * jobs.processing)


def test_lemma64_fails_when_capacity_is_ignored(monkeypatch):
    real = F.offline_pq
    monkeypatch.setattr(F, "offline_pq", lambda j, m, s="wsjf": _paired(real, j, m, s))
    assert F.check_lemma64(True).verdict == "violated"


def test_lemma67_fails_when_mass_moves_earlier(monkeypatch):
    """With x and y swapped, (3) fails (y's mass comes earlier) and the inequality fails
    for some non-decreasing z: the search must find it."""
    real = F._lemma67_sequences
    monkeypatch.setattr(F, "_lemma67_sequences", lambda data, K: real(data, K)[::-1])
    assert F.check_lemma67(True).verdict == "violated"


def test_alg1_line4_holds_and_fails_if_both_rules_use_the_printed_capacity(monkeypatch):
    assert F.check_alg1_line4(True).verdict == "holds"

    def make(name, **kw):  # noqa: ANN001, ANN202
        return make_policy(name, **{**kw, "capacity_rule": "printed"})

    monkeypatch.setattr(F, "make_policy", make)
    assert F.check_alg1_line4(True).verdict == "violated"
