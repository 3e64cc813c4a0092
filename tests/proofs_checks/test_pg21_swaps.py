"""PG21 checks that had no test showing they can fail: each is run with a plausible wrong
ingredient in place of the real one and must not hold."""

from __future__ import annotations

from types import SimpleNamespace

from proofs_checks import get_check
from proofs_checks.checks import pg21_capacity
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
