"""PG21's errata and the checks that exhibit them: each check holds, and each fails when
what it checks is replaced by the paper's printed version (DESIGN.md: a check must be
able to fail).

Errata: PG21.Prop2.eq61 and PG21.Prop2.eps (Sec. VIII-C, eq. (61)), PG21.Thm2.eq15 and
PG21.Thm2.eq16 (Sec. IV-B, eqs. (15)-(16)), PG21.Prop1.eq28 (Sec. V-C, proof of Prop. 1,
Case 2.2.2, between eqs. (28) and (29)).
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction as F

import numpy as np
import pytest

from packsched.cli import main
from proofs_checks import ERRATA, get_check
from proofs_checks.checks import pg21_capacity as P
from theory.bounds import (
    prop1_eq28_odd_bound,
    prop2_mixture_weights,
    theorem2_h_infimum,
    theorem2_margin,
    theorem2_n2,
)

PG21_ERRATA = {"PG21.Prop2.eq61": "PG21.Prop2", "PG21.Prop2.eps": "PG21.Prop2",
               "PG21.Thm2.eq15": "PG21.Thm2.constants", "PG21.Thm2.eq16": "PG21.Thm2.constants",
               "PG21.Prop1.eq28": "PG21.Prop1.eq28"}


def test_pg21_errata_are_registered_with_their_checks():
    by_id = {e.id: e for e in ERRATA}
    assert ERRATA[0].id == "PG21.Prop2.eq61"  # the README asserts the first id
    for eid, check in PG21_ERRATA.items():
        e = by_id[eid]
        assert e.check == check and get_check(check).id == check
        assert e.printed != e.corrected and e.instance and e.location.startswith("PG21 Sec.")


@pytest.mark.parametrize("check", [P.check_prop2, P.check_thm2_constants, P.check_prop1_eq28],
                         ids=lambda c: c.__name__)
def test_checks_hold(check):
    v = check(True)
    assert v.verdict == "holds", v.details
    json.dumps(v.details, allow_nan=False, default=str)


# ------------------------------------------------------------------ exact arithmetic
def test_eq15_margin_is_exact_and_separates():
    e = F(3, 10)
    assert theorem2_n2(e, 1, 1) == 10
    assert theorem2_margin(e, 3, 1, 1) + 1 - e == F(61, 100)
    assert theorem2_margin(e, 6, 1, 1) + 1 - e == F(71, 100)
    e = F(2, 7)  # N_2 = 11, L N_1/N_2 = 1/11 < eps/3: still fails
    assert theorem2_margin(e, 3, 1, 1) + 1 - e == F(146, 231) < 1 - e
    assert theorem2_margin(e, 6, 1, 1) + 1 - e == F(168, 231) > 1 - e
    # the printed margin is -x (1 - eps/3) < 0: never positive
    for e in (F(1, 1000), F(1, 3), F(99, 100)):
        for L, N1 in ((1, 1), (4, 9), (3, 1000)):
            x = F(L * N1, theorem2_n2(e, L, N1))
            assert theorem2_margin(e, 3, L, N1) == -x * (1 - e / 3) < 0
            assert theorem2_margin(e, 6, L, N1) >= e * e / 9
    with pytest.raises(TypeError):
        theorem2_margin(0.3, 3)  # floats are refused: exact arithmetic only
    with pytest.raises(ValueError):
        theorem2_margin(F(3, 10), 3, L=1)


def test_eq16_h_infimum_instance():
    e = F(3, 10)
    assert theorem2_h_infimum(e, 1, 1) == F(11, 20)
    assert F(1, 2) <= theorem2_h_infimum(e, 1, 1) < 1  # corrected h 1/2, printed h 1


def test_eq28_bounds_and_prop2_weights():
    assert prop1_eq28_odd_bound(3, 1) == 3 and prop1_eq28_odd_bound(3, 1, printed=True) == 1
    assert prop1_eq28_odd_bound(F(3), 2) == F(3, 2)
    assert prop2_mixture_weights(F(1, 3), F(2, 3)) == F(4, 3)
    assert prop2_mixture_weights(F(1, 3), F(1, 3)) is None
    assert prop2_mixture_weights(F(1, 3), F(1, 3), require_distribution=False) == F(2, 3)


# ------------------------------------------------------------------ the checks can fail
def _printed_weights_solver(monkeypatch):
    """The LP solver as if its optimum were the printed (1/3, 1/3) on (2, 0) and (0, 1)."""
    real = P.rounded_rho_star

    def printed(*a, **k):
        res = real(*a, **k)
        order = sorted(range(len(res.sizes)), key=lambda j: res.sizes[j])
        if len(order) != 2:
            return res
        mix = []
        for t in res.mixture:
            cfg = (int(t.config[order[0]]), int(t.config[order[1]]))
            w = {(2, 0): F(1, 3), (0, 1): F(1, 3)}.get(cfg, t.weight)
            mix.append(dataclasses.replace(t, weight=w))
        return dataclasses.replace(res, mixture=mix)

    monkeypatch.setattr(P, "rounded_rho_star", printed)


def test_prop2_fails_when_the_lp_returns_the_printed_weights(monkeypatch):
    _printed_weights_solver(monkeypatch)
    v = P.check_prop2(True)
    assert v.verdict != "holds"
    assert not any(r["lp_weights_equal_corrected"] for r in v.details["cases"])


def test_prop2_fails_if_the_register_took_the_printed_weights_for_correct(monkeypatch):
    monkeypatch.setitem(P.PROP2_WEIGHTS, "corrected", (F(1, 3), F(1, 3)))
    assert P.check_prop2(True).verdict != "holds"


def test_prop2_fails_when_an_endpoint_counts_as_interior(monkeypatch):
    """Reading the cells as closed (1/3 'inside' (1/4, 1/3]) puts e = 1/6 at 3/2: the
    erratum's range (0, 1/6] hinges on the interior."""
    monkeypatch.setattr(P, "_interior", lambda X, x: X.cells[X.type_of(x)].lo < x
                        <= X.cells[X.type_of(x)].hi)
    v = P.check_prop2(True)
    assert v.verdict == "violated"
    bad = [r for r in v.details["erratum_eps_range"] if not r["as_expected"]]
    assert bad and bad[0]["e"] == "1/6" and bad[0]["upper_rounded_rho"] == "3/2"


@pytest.mark.parametrize("table,key,value", [
    ("THM2_DELTA_DIVISOR", "corrected", 3),   # the printed delta of (15)
    ("THM2_H_DIVISOR", "corrected", 3),       # the printed h of (16)
    ("THM2_DELTA_DIVISOR", "printed", 6),     # an erratum that the printed (15) is wrong
    ("THM2_H_DIVISOR", "printed", 6),
    ("THM2_H_DIVISOR", "corrected", 5),       # a plausible but unjustified h
])
def test_thm2_constants_fail_with_the_printed_constants(monkeypatch, table, key, value):
    monkeypatch.setitem(getattr(P, table), key, value)
    assert P.check_thm2_constants(True).verdict == "violated"


def test_eq28_fails_with_the_printed_bound(monkeypatch):
    monkeypatch.setattr(P, "prop1_eq28_odd_bound",
                        lambda u, m, printed=False: prop1_eq28_odd_bound(u, m, printed=True))
    v = P.check_prop1_eq28(True)
    assert v.verdict == "violated"
    assert v.details["corrected_bound_counterexample"] is not None


def test_eq28_fails_if_the_printed_bound_were_right(monkeypatch):
    monkeypatch.setattr(P, "prop1_eq28_odd_bound",
                        lambda u, m, printed=False: prop1_eq28_odd_bound(u, m))
    v = P.check_prop1_eq28(True)
    assert v.verdict == "violated"
    assert v.details["printed_bound_counterexample"] is None


# ------------------------------------------------------------------ the CLI
def test_cli_lists_and_verifies_the_pg21_errata(capsys):
    assert main(["errata", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ids = {r["id"] for r in rows}
    assert set(PG21_ERRATA) <= ids
    for claim in sorted(set(PG21_ERRATA.values())):
        assert main(["verify", "--claim", claim, "--quick", "--json"]) == 0
        (res,) = json.loads(capsys.readouterr().out)
        assert res["id"] == claim and res["verdict"] == "holds"
        assert np.isfinite(res["seconds"])
