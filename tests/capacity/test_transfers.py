"""Transfers (the primal side of dual-optimal inequalities, Ben Amor et al. 2006) carried
out in the configurations: a master that serves small jobs from the slots of large
ones is turned into a pure mixture with the same supply, and a target stop counts it."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from capacity._lp_highs import MasterLP
from capacity.configuration_lp import (
    ConfigurationLP,
    _dual_optimal_inequalities,
    _pure_mixture,
    _supply,
    solve_configuration_lp,
)
from capacity.result import MixtureTerm
from theory.distributions import Uniform
from theory.partitions import quantile_partition, type_probabilities


def supply_of(mixture, T, counts):
    out = np.zeros(T)
    for term in mixture:
        out += counts[term.server_class] * term.weight * term.config
    return out


@pytest.mark.parametrize("seed", range(20))
def test_pure_mixture_has_the_supply_of_the_master_with_transfers(seed):
    """Only large types have columns, only small ones are demanded: every job is served
    through transfers. The pure mixture fits, keeps the class weights, and supplies
    what the master does after its transfers (a mixture without them supplies 0)."""
    rng = np.random.default_rng(seed)
    sizes = np.sort(rng.choice(np.arange(2, 60), size=8, replace=False)).astype(float)
    C = 100
    demand = np.zeros(8)
    demand[:4] = rng.integers(1, 5, 4)
    counts = np.array([float(rng.integers(1, 4))])
    master = MasterLP(demand, counts)
    big = [np.eye(8, dtype=np.int64)[j] * int(C // sizes[j]) for j in range(4, 8)]
    master.add_columns(0, np.array(big))
    master.add_transfers(_dual_optimal_inequalities(sizes))
    sol = master.solve()
    assert sol.t > 0 and sol.transfers.sum() > 0
    mix = _pure_mixture(master, sol, sizes)
    assert all(float(term.config @ sizes) <= C for term in mix)
    assert sum(term.weight for term in mix) <= 1 + 1e-12
    got = supply_of(mix, 8, counts)
    assert got == pytest.approx(_supply(master, sol), abs=1e-9)
    pos = demand > 0
    assert np.min(got[pos] / demand[pos]) == pytest.approx(sol.t, rel=1e-9)
    pure = supply_of([t for t in mix if t.config[4:].any() and not t.config[:4].any()],
                     8, counts)
    assert np.min(pure[pos] / demand[pos]) == 0


def test_a_target_stop_counts_transfers():
    """X^(7) of Uniform(0.01, 0.19) on 5 servers, stopped at 0.999 of its optimum: the
    master reaches it in a few rounds once transfers count (pure columns alone need
    nearly the whole solve); the stopped mixture is exactly checked."""
    dist = Uniform("0.01", "0.19")
    part = quantile_partition(dist, 7)
    probs = type_probabilities(dist, part)
    lp = ConfigurationLP.build(part.upper_sizes, probs, [(1, 5)])
    full = solve_configuration_lp(lp, method="column-generation")
    stop = solve_configuration_lp(lp, method="column-generation", target=0.999 * full.value)
    assert stop.status == "target reached"
    assert 0.999 * full.value <= float(stop.lower) <= full.value * (1 + 1e-12)
    assert stop.iterations * 4 < full.iterations
    for term in stop.mixture:
        assert lp.exact_fits(term.server_class, term.config)
    assert sum(F(term.weight) for term in stop.mixture) <= 1 + F(1, 10**12)  # rescaled



def small_lp(seed: int) -> ConfigurationLP:
    rng = np.random.default_rng(100 + seed)
    sizes = [F(int(v), 100) for v in np.sort(rng.choice(np.arange(8, 60), 7, replace=False))]
    probs = [F(int(v)) for v in rng.integers(1, 9, 7)]
    return ConfigurationLP.build(sizes, [p / sum(probs) for p in probs], [(1, 3)])


def pure_columns_only(master, sol, sizes, most=None):
    """The wrong mixture: the master's columns, its transfers ignored."""
    return [MixtureTerm(c, k, float(p))
            for (c, k), p in zip(master.columns, sol.p, strict=True) if p > 1e-13]


@pytest.mark.parametrize("seed", range(6))
def test_an_optimum_found_with_transfers_in_use_is_certified_and_exact(seed):
    """The transfers stay in the master to the end: an optimum reported with moves in
    use is carried out in the configurations, certified exactly, and equal to full
    enumeration."""
    lp = small_lp(seed)
    cg = solve_configuration_lp(lp, method="column-generation")
    full = solve_configuration_lp(lp, method="enumerate")
    assert cg.certified and cg.exact_check
    assert cg.lower == full.lower == cg.upper
    assert all(lp.exact_fits(t.server_class, t.config) for t in cg.mixture)


def test_the_seeds_above_reach_their_optimum_with_transfers_in_use(monkeypatch):
    """The test above is not vacuous: some of its optima use moves, and with the moves
    ignored (the master's pure columns as the mixture) the certificate refuses them."""
    import capacity.configuration_lp as clp

    used = []
    real = clp._pure_mixture
    monkeypatch.setattr(clp, "_pure_mixture",
                        lambda m, sol, *rest: used.append(1) or real(m, sol, *rest))
    for seed in range(6):
        solve_configuration_lp(small_lp(seed), method="column-generation")
    assert used
    monkeypatch.setattr(clp, "_pure_mixture", pure_columns_only)
    assert not all(solve_configuration_lp(small_lp(seed), method="column-generation").certified
                   for seed in range(6))
