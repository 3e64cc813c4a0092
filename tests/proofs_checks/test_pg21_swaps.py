"""PG21 checks that had no test showing they can fail: each is run with a plausible wrong
ingredient in place of the real one and must not hold."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from policies.slotted import VQS, VQSBF, PartitionMaxWeight
from proofs_checks import get_check
from proofs_checks.checks import pg21_capacity, pg21_dynamics
from theory.partitions import universal_partition


def test_dyadic_fails_on_the_universal_partition(monkeypatch):
    """With the universal partition of eq. (18) (cuts at 1/(3 2^m) too) in place of the
    dyadic one, the family no longer drives the ratio to 1/2."""
    assert get_check("PG21.Thm3.dyadic").func(True).verdict == "holds"
    monkeypatch.setattr(pg21_capacity, "partition_from_cuts",
                        lambda cuts, name=None: universal_partition(len(cuts) - 2))
    assert get_check("PG21.Thm3.dyadic").func(True).verdict == "violated"


def test_fig3_capacity_fails_when_vqs_may_use_one_of_each(monkeypatch):
    """A K_RED that allowed (1, 1) on Fig. 3a would give VQS the whole rho* = 2: the
    check must refuse it (Fig. 3a's instability rests on rho_VQS = 4/3)."""
    assert get_check("PG21.Fig3.capacity").func(True).verdict == "holds"
    monkeypatch.setattr(pg21_capacity, "rho_vqs",
                        lambda dist, J: SimpleNamespace(value=2.0, ratio=1.0))
    assert get_check("PG21.Fig3.capacity").func(True).verdict == "violated"


SMALL_SIZES = "uniform[0.01,0.19]"


@pytest.mark.parametrize("cls", [VQS, VQSBF])
def test_thm3_thm4_fail_when_J_ignores_cor1(monkeypatch, cls):
    """On Uniform(0.01, 0.19) Cor. 1 picks J = 7; a VQS (VQS-BF) with J = 2 rounds every
    job up to 1/4 and is unstable at 0.95 * 2/3 rho*, so the check must fail."""
    cases = [c for c in pg21_dynamics._theorem_cases(True) if c[0] == SMALL_SIZES]
    assert len(cases) == 1
    monkeypatch.setattr(pg21_dynamics, "_theorem_cases", lambda quick: cases)
    right = pg21_dynamics._theorem_check(
        lambda d: cls.for_distribution(d, pg21_dynamics._eps(d)), "2/3 rho*", True, 3)
    assert right.verdict == "holds"
    wrong = pg21_dynamics._theorem_check(lambda d: cls(J=2), "2/3 rho*", True, 3)
    assert wrong.verdict == "violated"


def test_thm1_dynamic_fails_on_a_coarse_partition(monkeypatch):
    """MaxWeight on the universal J = 2 partition (4 cells) in place of the exact one
    loses throughput on the check's 4-atom law: its critical load is below 0.95 rho*."""
    coarse = PartitionMaxWeight(universal_partition(2))
    monkeypatch.setattr(PartitionMaxWeight, "exact", staticmethod(lambda dist, **kw: coarse))
    assert get_check("PG21.Thm1.dynamic").func(True).verdict == "violated"


def test_thm2_constants_fails_if_the_library_keeps_the_printed_delta(monkeypatch):
    """theory.bounds.theorem2_constants is inside the check: with the printed
    delta = L N_2 eps/3 of eq. (15) the drift condition fails and so does the check."""
    real = pg21_capacity.theorem2_constants

    def printed(eps, L, mu, u):
        c = real(eps, L, mu, u)
        return {**c, "delta": 2 * c["delta"], "h": 2 * c["h"]}

    monkeypatch.setattr(pg21_capacity, "theorem2_constants", printed)
    assert get_check("PG21.Thm2.constants").func(True).verdict == "violated"
