"""PG21.Open.*: the worst laws of the adversarial search, re-measured."""

from __future__ import annotations

import pytest

import proofs_checks.checks.pg21_open as po
from policies.adversarial import verify
from proofs_checks.registry import get_check


def test_keys_parse_back_to_their_laws():
    for key, _ in po.WORST.values():
        assert po.parse_law(key).key == key


def test_bfjs_entry_holds_quickly():
    r = get_check("PG21.Open.BFJS").func(True)
    assert r.verdict == "holds", r.details
    lo, hi = r.measured
    assert r.details["thm2_fraction"] < lo <= hi <= 1.0  # between Thm. 2 and rho*


def test_another_policy_under_the_entry_does_not_reproduce(monkeypatch):
    """FIFO-FF on BF-J/S's worst law is seen unstable near 0.75 rho*: the entry's
    bracket does not reproduce, so the check says violated."""
    monkeypatch.setattr(po, "verify", lambda policy, law, **kw: verify("fifo-ff", law, **kw))
    r = po._open_check("bf-js", True)
    assert r.verdict == "violated" and not r.details["reproduces"]


def test_instability_below_the_guarantee_is_a_violation(monkeypatch):
    def fake(policy, law, **kw):
        v = verify(policy, law, **kw)
        return {**v, "lower": 0.3, "upper": 0.35, "brackets": [[0.3, 0.35]]}

    monkeypatch.setattr(po, "verify", fake)
    monkeypatch.setitem(po.WORST, "bf-js", (po.WORST["bf-js"][0], (0.3, 0.35)))
    r = po._open_check("bf-js", True)
    assert r.verdict == "violated" and r.details["unstable_below_guarantee"]


@pytest.mark.parametrize("policy", sorted(po.WORST))
def test_every_entry_names_a_search(policy):
    assert po.SEARCHES[policy]["seed"] == 2026 and policy in po.GUARANTEE


@pytest.mark.parametrize("policy", sorted(po.WORST))
def test_registered_brackets_are_the_searchs_own_evaluations(policy):
    """A law's evaluation in the search is a function of the seed and the law alone, so
    the registered bracket is reproduced exactly (re-running the whole search with
    search_settings() reproduces the ranking that picked the law)."""
    from policies.adversarial import evaluate_law

    key, bracket = po.WORST[policy]
    st = po.SEARCHES[policy]
    row = evaluate_law(policy, po.parse_law(key), mu=st["mu"], slots=st["slots"], tol=0.02,
                       seed=st["seed"])
    assert (row["lower"], row["upper"]) == pytest.approx(bracket, abs=1e-12)
    assert po.search_settings(policy)["seed"] == st["seed"]


@pytest.mark.parametrize(("entry", "swap"), [("vqs-bf", "bf-js"), ("fifo-ff", "bf-js")])
def test_each_entry_fails_with_another_policy_under_it(monkeypatch, entry, swap):
    """BF-J/S on VQS-BF's worst law and on FIFO-FF's is stable well above their
    registered brackets: neither entry reproduces, so each check says violated."""
    monkeypatch.setattr(po, "verify", lambda policy, law, **kw: verify(swap, law, **kw))
    r = po._open_check(entry, True)
    assert r.verdict == "violated" and not r.details["reproduces"]
