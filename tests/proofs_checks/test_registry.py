"""The catalogue's contract: every check is described, runs, and can fail."""

from __future__ import annotations

import json

import numpy as np
import pytest

from proofs_checks import ERRATA, VERDICTS, Verdict, all_checks, get_check, run_check, run_checks
from proofs_checks.checks import pg18_region, pg21_capacity
from proofs_checks.registry import METHODS, register

PAPERS = {"PG21", "PG18", "XLL21", "FL24"}


def test_every_check_is_described():
    checks = all_checks()
    assert len(checks) >= 11
    ids = [c.id for c in checks]
    assert len(ids) == len(set(ids))
    for c in checks:
        assert c.paper in PAPERS and c.id.startswith(c.paper + ".")
        assert c.method in METHODS
        assert len(c.statement) > 20 and c.location


def test_issue_claims_are_registered():
    ids = {c.id for c in all_checks()}
    for claim in ["PG21.Def6", "PG21.Thm1", "PG21.Lemma2", "PG21.Prop1", "PG21.Lemma3",
                  "PG21.Prop2", "PG21.Thm3.dyadic", "PG21.Fig3.capacity", "PG18.Region",
                  "PG18.TableI"]:
        assert claim in ids


def test_verdict_rejects_unknown_word():
    with pytest.raises(ValueError):
        Verdict("true", details={"no_bound": "a word no check may return"})


def test_duplicate_registration_is_an_error():
    with pytest.raises(ValueError, match="twice"):
        register("PG21.Def6", location="x", statement="x", method="exact")(lambda q: None)


def test_unknown_claim_and_paper():
    with pytest.raises(KeyError):
        get_check("PG21.Nope")
    with pytest.raises(KeyError):
        run_checks(claim="PG99.Thm1")
    with pytest.raises(KeyError):
        run_checks(paper="PG99")


def test_a_crashing_check_is_inconclusive_with_the_error():
    def boom(quick):
        raise RuntimeError("solver exploded")

    c = get_check("PG21.Def6")
    res = run_check(type(c)(c.id, c.paper, c.location, c.statement, c.method, boom))
    assert res.verdict == "inconclusive"
    assert "solver exploded" in res.details["error"]
    assert res.bound is None and res.details["no_bound"]


@pytest.mark.parametrize("claim", ["PG21.Def6", "PG21.Thm2.constants", "PG21.Fig3.capacity",
                                   "PG18.Region", "PG18.TableI", "PG21.Prop2"])
def test_quick_checks_hold_and_serialise(claim):
    (res,) = run_checks(claim=claim, quick=True)
    assert res.verdict == "holds", res.details
    d = res.as_dict()
    assert set(d) == {"id", "paper", "location", "statement", "method", "verdict", "measured",
                      "bound", "relation", "quantity", "params", "seed", "details", "seconds"}
    json.dumps(d, allow_nan=False)
    assert d["verdict"] in VERDICTS


def test_errata_point_at_registered_checks():
    ids = {c.id for c in all_checks()}
    assert len(ERRATA) >= 3
    for e in ERRATA:
        assert e.check in ids
        assert e.printed != e.corrected and e.instance


# ---------------------------------------------------------------- the checks can fail
def test_def6_fails_on_an_infeasible_reduced_set(monkeypatch):
    real = pg21_capacity.reduced_configurations

    def broken(J):
        red = real(J)
        bad = red.configs.copy()
        bad[0, 0] += 1  # two jobs of size up to 1 in one server
        return type(red)(red.J, bad, red.labels)

    monkeypatch.setattr(pg21_capacity, "reduced_configurations", broken)
    assert pg21_capacity.check_def6(True).verdict == "violated"


def test_prop1_fails_without_the_type1_pairings(monkeypatch):
    real = pg21_capacity.reduced_configurations

    def weaker(J):
        red = real(J)
        keep = [i for i, lbl in enumerate(red.labels) if not lbl.startswith("e_1 +")]
        return type(red)(red.J, red.configs[keep], tuple(red.labels[i] for i in keep))

    monkeypatch.setattr(pg21_capacity, "reduced_configurations", weaker)
    v = pg21_capacity.check_prop1(True)
    assert v.verdict == "violated"
    assert min(r["min_ratio"] for r in v.details["exhaustive"]) < 2 / 3


def test_lemma2_fails_against_a_halved_bound(monkeypatch):
    monkeypatch.setattr(pg21_capacity, "mean_size_bound", lambda L, d: L / (2 * d.mean()))
    assert pg21_capacity.check_lemma2(True).verdict == "violated"


def test_thm1_fails_when_the_bracket_is_swapped(monkeypatch):
    real = pg21_capacity.quantile_brackets

    def swapped(*a, **k):
        return [type(b)(b.partition, b.upper, b.lower) for b in real(*a, **k)]

    monkeypatch.setattr(pg21_capacity, "quantile_brackets", swapped)
    assert pg21_capacity.check_thm1(True).verdict == "violated"


def test_region_fails_for_a_point_outside(monkeypatch):
    real = pg18_region.CapacityRegion

    class Smaller(real):  # type: ignore[misc, valid-type]
        def __init__(self, sizes, servers):
            super().__init__(sizes, [(c, max(1, n - 2)) for c, n in servers])

    monkeypatch.setattr(pg18_region, "CapacityRegion", Smaller)
    assert pg18_region.check_region(True).verdict == "violated"


def test_lemma3_search_reports_its_lowest_ratio():
    v = pg21_capacity.check_lemma3(True)
    assert v.verdict == "holds"
    assert 2 / 3 - 1e-9 <= v.details["search_lowest_ratio"] < 0.9
    assert np.isfinite(v.details["lowest_ratio_random"])


def test_checks_in_worker_processes_give_the_same_verdicts_and_evidence():
    """``jobs=2`` (what ``verify`` uses on two cores) only changes where checks run: the
    results come back in catalogue order with the verdicts and evidence of ``jobs=1``."""
    from proofs_checks import iter_results

    checks = [get_check(c) for c in ("PG21.Def6", "PG18.TableI", "PG21.Prop2")]
    here = list(iter_results(checks, quick=True, jobs=1))
    there = list(iter_results(checks, quick=True, jobs=2))
    assert [r.id for r in there] == [c.id for c in checks]
    for a, b in zip(here, there, strict=True):
        da, db = ({k: v for k, v in r.as_dict().items() if k != "seconds"} for r in (a, b))
        assert json.dumps(da, sort_keys=True) == json.dumps(db, sort_keys=True)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True])
def test_jobs_must_be_a_positive_integer(jobs):
    from proofs_checks import iter_results

    with pytest.raises(ValueError, match="jobs"):
        list(iter_results([get_check("PG21.Def6")], jobs=jobs))


def test_unregistered_checks_do_not_go_to_workers():
    from proofs_checks import iter_results

    c = get_check("PG21.Def6")
    fake = type(c)("X.Unregistered", c.paper, c.location, c.statement, c.method, c.func)
    with pytest.raises(ValueError, match="registered"):
        list(iter_results([c, fake], jobs=2))


def _fake(id, engines=()):
    c = get_check("PG21.Def6")
    return type(c)(id, c.paper, c.location, c.statement, c.method, c.func, True, engines)


def test_parallel_runs_start_each_compiled_engine_once_and_keep_every_check():
    """The first check of each engine goes first (two workers compile two engines at
    once), then the checks that run none, then the engines' other checks (cache warm)."""
    from proofs_checks.registry import submission_order

    checks = [_fake("A", ("slotted",)), _fake("B"), _fake("C", ("slotted",)),
              _fake("D", ("continuous",)), _fake("E"), _fake("F", ("continuous",)),
              _fake("G", ("slotted", "continuous"))]
    assert submission_order(checks) == [0, 3, 1, 4, 2, 5, 6]
    assert submission_order([_fake("B"), _fake("E")]) == [0, 1]
    quick = [c for c in all_checks() if c.quick]
    order = submission_order(quick)
    assert sorted(order) == list(range(len(quick)))
    assert {e for i in order[:2] for e in quick[i].engines} == {"slotted", "continuous"}


def test_register_refuses_an_unknown_engine():
    with pytest.raises(ValueError, match="engines"):
        register("X.Y", location="-", statement="-", method="exact", engines=("gpu",))
    with pytest.raises(ValueError, match="engines"):
        register("X.Y", location="-", statement="-", method="exact", engines="slotted")
    with pytest.raises(ValueError, match="engines"):
        register("X.Y", location="-", statement="-", method="exact", engines=5)


@pytest.mark.parametrize("claim", ["PG21.Def6", "PG21.Thm1.dynamic", "PG18.Thm2"])
def test_engine_tags_name_the_simulators_a_check_runs(claim, monkeypatch):
    import policies.continuous._kernel as continuous
    import policies.slotted._kernel as slotted

    used = set()
    for name, mod, attr in (("slotted", slotted, "run"), ("continuous", continuous,
                                                          "run_kernel")):
        real = getattr(mod, attr)

        def spy(*args, _real=real, _name=name, **kw):
            used.add(_name)
            return _real(*args, **kw)

        monkeypatch.setattr(mod, attr, spy)
    c = get_check(claim)
    assert run_check(c, quick=True).verdict == "holds"
    assert used == set(c.engines)
