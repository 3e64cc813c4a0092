"""PG21.Cor1 (PG21 Sec. V-C, Cor. 1; proof Sec. VIII-D, eq. (62)).

The quick check holds with every final bound certified; it turns "violated" when J is one
smaller than Cor. 1's choice, when the bound drops its (1 - eps) factor, and when the
capacity under test does not count the rounded small jobs as PG21 V-A does.
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from capacity.reduced import rho_vqs
from proofs_checks.checks import pg21_cor1 as m
from proofs_checks.registry import get_check

F = Fraction


@pytest.fixture(scope="module")
def quick():
    t0 = time.perf_counter()
    v = m.check_cor1(True)
    return v, time.perf_counter() - t0


def test_registered():
    c = get_check("PG21.Cor1")
    assert c.method == "LP" and "(62)" in c.location and c.quick


def test_quick_holds_every_case_certified(quick):
    v, seconds = quick
    assert v.verdict == "holds"
    assert seconds < 10
    rows = v.details["rows"]
    assert len(rows) == v.details["cases"] >= 20
    for r in rows:
        assert r["final"] == "certified"
        assert r["ratio rho_vqs/rho*"][0] >= r["bound (1-eps) 2/3"] - 1e-9
        assert r["J"] == r["J_cor1"] and r["J_minimal"]
        assert "contradicted" not in r["steps"].values()
    # the discrete laws certify every step of (62) exactly
    for r in rows:
        if not r["law"].startswith("Uniform"):
            assert set(r["steps"].values()) == {"certified"}, r
    assert v.measured >= v.bound == 1 and v.relation == ">="


def test_J_one_smaller_than_cor1_violates(quick):
    row = m.cor1_case(m.CONTROL_LAW, m.CONTROL_EPS, J_shift=-1)
    assert row["J"] == row["J_cor1"] - 1 == 3
    assert row["final"] == "contradicted"
    step = next(k for k in row["steps"] if k.startswith("(62d)"))
    assert row["steps"][step] == "contradicted"
    assert m.cor1_verdict([row]) == "violated"
    # not only the K_RED LP: any policy on the rounded system 3 is below rho_3*, and
    # rho_3* / rho* is below the bound too
    assert row["rho_3"][1] / row["rho_2 (rho*)"][0] < row["bound (1-eps) 2/3"]
    assert quick[0].details["control_J_minus_1"]["final"] == "contradicted"
    # with Cor. 1's own J the same law satisfies the bound
    assert m.cor1_case(m.CONTROL_LAW, m.CONTROL_EPS)["final"] == "certified"


def test_bound_without_one_minus_eps_violates():
    eps = F(1, 2)
    ok = m.cor1_case(m.NEEDS_EPS_LAW, eps)
    assert ok["J"] == 2 and ok["final"] == "certified"
    strong = m.cor1_case(m.NEEDS_EPS_LAW, eps, bound_eps=F(0))
    assert strong["ratio rho_vqs/rho*"][1] < 2 / 3
    assert m.cor1_verdict([strong]) == "violated"


def test_capacity_that_drops_small_jobs_violates(monkeypatch):
    """A capacity that ignores the jobs of size <= 1/2^J (instead of rounding them up to
    1/2^J in VQ_{2J-1}) disagrees with the LP on the rounded law."""

    def dropping(dist, J, **kw):
        t = F(1, 2**J)
        keep = [(s, p) for s, p in zip(dist.sizes, dist.probs, strict=True) if s > t]
        tot = sum(p for _, p in keep)
        if tot == 1 or not keep:
            return rho_vqs(dist, J, **kw)
        from theory.distributions import Discrete
        return rho_vqs(Discrete([s for s, _ in keep], [p / tot for _, p in keep]), J, **kw)

    monkeypatch.setattr(m, "rho_vqs", dropping)
    row = m.cor1_case(m.NEEDS_EPS_LAW, F(1, 2))
    assert not row["rounding_modelled"]
    assert m.cor1_verdict([row]) == "violated"


def test_law_operations_exact():
    u = m._uniform(F(1))
    t = F(1, 4)
    r = u.rounded(t)
    assert r.atoms == ((t, t),) and r.umass == F(3, 4) and r.ulo == t
    assert r.cdf(t) == t and r.cdf(F(1)) == 1
    c = u.conditioned(t)
    assert c.atoms == () and c.umass == 1 and (c.ulo, c.uhi) == (t, F(1))
    lo, hi = u.rho_star_bracket(1, 4)
    assert lo <= 2 <= hi == 2  # Lemma 2: rho*(Uniform(0, 1]) <= 1 / R-bar = 2
    assert m._choose_J(u, F(1, 10)) == 4  # F(1/16) = 1/16 < 1/10 <= F(1/8)


def test_erratum_eq62_instance(quick):
    """Erratum PG21.Cor1.eq62: rho_4* = (1 - F_R(1/2^J)) rho_1*, not (1 - eps) rho_1*."""
    from proofs_checks import ERRATA

    e = {x.id: x for x in ERRATA}["PG21.Cor1.eq62"]
    assert e.check == "PG21.Cor1"
    row = m.cor1_case(m.NEEDS_EPS_LAW, F(1, 2))
    assert row["J"] == 2 and row["F_R(1/2^J)"] == "9/20"
    assert row["rho_4"] == [2.0, 2.0]
    assert row["rho_1"][0] == pytest.approx(40 / 11, abs=1e-12)
    assert (1 - 0.5) * row["rho_1"][1] < row["rho_4"][0]  # the printed '=' fails
    fails = quick[0].details["printed_equality_fails"]
    assert fails["erratum"] == e.id and fails["rows"] == quick[0].details["cases"]


def test_a_control_that_does_not_fail_makes_the_check_inconclusive(monkeypatch):
    """If one J less than Cor. 1's no longer breaks the bound, the check cannot show it
    measures anything: it must not report holds."""
    real = m.cor1_case

    def blunt(law, eps, **kw):
        row = real(law, eps, **kw)
        return {**row, "final": "certified"} if kw.get("J_shift") == -1 else row

    monkeypatch.setattr(m, "cor1_case", blunt)
    assert m.check_cor1(True).verdict == "inconclusive"
