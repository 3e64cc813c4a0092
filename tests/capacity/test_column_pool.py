"""Column generation's column pool (columns long out of the basis leave the master) and
warm starts across partitions: faster paths that must reach the reference optimum."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import capacity.configuration_solver as solver
from capacity._lp_highs import MasterLP
from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp


def instance(seed: int) -> ConfigurationLP:
    rng = np.random.default_rng(seed)
    T = int(rng.integers(3, 8))
    sizes = sorted({F(int(x), 60) for x in rng.integers(4, 40, T)})
    probs = [F(int(x), 1) for x in rng.integers(1, 9, len(sizes))]
    return ConfigurationLP.build(sizes, probs, [(1, int(rng.integers(1, 4)))])


@pytest.mark.parametrize("seed", range(25))
def test_an_eager_pool_reaches_the_enumerated_optimum(seed, monkeypatch):
    """Columns removed after one idle round (the pool at its most aggressive): the
    answer still equals full enumeration to 1e-9, certified."""
    lp = instance(seed)
    ref = solve_configuration_lp(lp, method="enumerate")
    monkeypatch.setattr(solver, "_POOL_FACTOR", 0)
    monkeypatch.setattr(solver, "_POOL_AGE", 1)
    removed = []
    real = MasterLP.remove_columns

    def spy(self, which):
        removed.append(len(np.atleast_1d(which)))
        real(self, which)

    monkeypatch.setattr(MasterLP, "remove_columns", spy)
    cg = solve_configuration_lp(lp, method="column-generation")
    assert cg.certified and ref.certified
    assert cg.value == pytest.approx(ref.value, rel=1e-9)
    assert all(0 < term.weight for term in cg.mixture)
    if seed == 0:
        assert removed, "the pool never ran"


def test_removing_nonbasic_columns_keeps_the_optimum():
    d = np.array([1.0, 2.0, 1.0])
    m = MasterLP(d, np.array([1.0]))
    K = np.array([[2, 0, 0], [0, 3, 0], [0, 0, 2], [1, 1, 0], [0, 1, 1], [1, 0, 1],
                  [1, 1, 1]])
    m.add_columns(0, K)
    first = m.solve()
    idle = np.flatnonzero((first.p == 0) & (m.reduced_costs() > 1e-9))
    assert idle.size
    kept = [k.tobytes() for i, (_c, k) in enumerate(m.columns) if i not in set(idle)]
    m.remove_columns(idle)
    assert [k.tobytes() for _c, k in m.columns] == kept
    again = m.solve()
    assert again.t == pytest.approx(first.t, rel=1e-12)
    assert len(again.p) == len(K) - idle.size
    m.add_columns(0, K[idle])  # they can come back
    assert m.solve().t == pytest.approx(first.t, rel=1e-12)


def test_refresh_keeps_the_basis_once_then_starts_from_scratch():
    """The first refresh only tightens the tolerances (the optimal basis is kept: no
    pivot), a second one also forgets the basis (the simplex pivots again); both reach
    the same optimum."""
    d = np.array([1.0, 2.0, 1.0])
    m = MasterLP(d, np.array([1.0]))
    m.add_columns(0, np.array([[2, 0, 0], [0, 3, 0], [0, 0, 2], [1, 1, 0], [0, 1, 1],
                               [1, 0, 1], [1, 1, 1]]))
    first = m.solve()
    assert first.iterations > 0
    m.refresh()
    warm = m.solve()
    assert warm.iterations == 0
    assert m.h.getOptionValue("dual_feasibility_tolerance")[1] == 1e-10
    m.refresh()
    cold = m.solve()
    assert cold.iterations > 0
    assert warm.t == pytest.approx(first.t, rel=1e-12)
    assert cold.t == pytest.approx(first.t, rel=1e-12)
