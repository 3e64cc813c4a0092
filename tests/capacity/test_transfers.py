"""Transfers (the primal side of dual-optimal inequalities, Ben Amor et al. 2006) carried
out in the configurations: a master that serves small jobs from the slots of large
ones is turned into a pure mixture with the same supply, and a target stop counts it."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from capacity._lp_highs import MasterLP
from capacity.configuration_lp import ConfigurationLP, solve_configuration_lp
from capacity.configuration_solver import _dual_optimal_inequalities, _pure_mixture, _supply
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
    import capacity.configuration_solver as solver

    used = []
    real = solver._pure_mixture
    monkeypatch.setattr(solver, "_pure_mixture",
                        lambda m, sol, *rest: used.append(1) or real(m, sol, *rest))
    for seed in range(6):
        solve_configuration_lp(small_lp(seed), method="column-generation")
    assert used
    monkeypatch.setattr(solver, "_pure_mixture", pure_columns_only)
    assert not all(solve_configuration_lp(small_lp(seed), method="column-generation").certified
                   for seed in range(6))


# --- moves under copy bounds (bin-packing LPs) -------------------------------------

def instance(seed: int) -> tuple[list[int], int]:
    """A small bin-packing instance: 3-7 weights, 1-3 copies each, some below half of
    the others (so pair moves would exist), capacity 100."""
    rng = np.random.default_rng(500 + seed)
    T = int(rng.integers(3, 8))
    sizes = rng.choice(np.arange(12, 71), T, replace=False)
    return [int(s) for s in sizes for _ in range(int(rng.integers(1, 4)))], 100


def bounded_lp(ws: list[int], C: int) -> ConfigurationLP:
    return ConfigurationLP.of_instance(ws, C)


@pytest.mark.parametrize("seed", range(30))
def test_moves_under_copy_bounds_keep_the_bounded_lp(seed):
    """Column generation with the moves y_i >= y_j under copy bounds reaches the LP over
    all bounded patterns (enumerated, no moves) to 1e-9, certified, with a mixture
    inside the bounds."""
    lp = bounded_lp(*instance(seed))
    assert lp.copy_bounds() is not None
    cg = solve_configuration_lp(lp, method="column-generation")
    full = solve_configuration_lp(lp, method="enumerate")
    assert cg.certified and full.certified
    assert float(cg.lower) == pytest.approx(float(full.lower), rel=1e-9)
    assert all(lp.within_copies(t.config) and lp.exact_fits(t.server_class, t.config)
               for t in cg.mixture)


def test_only_single_moves_under_copy_bounds():
    """Pairs (two smaller jobs in one job's place) may exceed a copy bound: only the
    chain to the next smaller size is offered, and only where d_i / n_i >= d_j / n_j."""
    sizes = np.array([60.0, 30.0, 25.0, 10.0])
    free = _dual_optimal_inequalities(sizes)
    assert any(len(m) == 3 for m in free)
    prop = _dual_optimal_inequalities(sizes, np.array([2, 1, 1, 3]), [F(2), F(1), F(1), F(3)])
    assert prop == [(0, 1), (1, 2), (2, 3)]
    # demand not proportional to the bounds: 1 -> 2 has d_1 / n_1 = 1 < d_2 / n_2 = 4
    skew = _dual_optimal_inequalities(sizes, np.array([2, 1, 1, 3]), [F(2), F(1), F(4), F(3)])
    assert skew == [(0, 1), (2, 3)]
    with pytest.raises(ValueError, match="demand"):
        _dual_optimal_inequalities(sizes, np.array([1, 1, 1, 1]))


@pytest.mark.parametrize("seed", range(20))
def test_pure_mixture_within_copy_bounds(seed):
    """A master serving jobs through chains of moves under copy bounds: the mixture
    carried out stays within the bounds and supplies what the master does, while the
    same moves carried out without the bounds exceed them on some seeds."""
    rng = np.random.default_rng(700 + seed)
    T = 6
    sizes = np.sort(rng.choice(np.arange(20, 50), T, replace=False))[::-1].astype(float)
    most = rng.integers(1, 3, T)
    demand = most / most.sum()
    master = MasterLP(demand, np.array([1.0]))
    # bins of the largest types only: every smaller type is served by moves
    cols = []
    for a in range(3):
        for b in range(a, 3):
            k = np.zeros(T, dtype=np.int64)
            k[a] += 1
            k[b] += 1
            if k @ sizes <= 100 and np.all(k <= most):
                cols.append(k)
    master.add_columns(0, np.array(cols))
    master.add_transfers(_dual_optimal_inequalities(sizes, most, list(demand)))
    sol = master.solve()
    assert sol.transfers.sum() > 0
    mix = _pure_mixture(master, sol, sizes, most)
    assert all(np.all(t.config <= most) and t.config @ sizes <= 100 for t in mix)
    got = supply_of(mix, T, np.array([1.0]))
    assert np.all(got >= sol.t * demand * (1 - 1e-9))


def test_a_move_into_a_full_type_passes_on_down_the_chain():
    """Sizes 50, 49, 48, one job each, one column {50, 49}: the master reaches t = 2
    with moves 50 -> 49 (1/3) and 49 -> 48 (2/3). The column is full of 49, so the
    slot of 50 passes on to 48; carried out, {50, 49}, {49, 48} and {50, 48} at 1/3
    each supply every job 2/3. (Dropping the first move instead leaves 49 at 1/3.)"""
    sizes = np.array([50.0, 49.0, 48.0])
    most = np.array([1, 1, 1])
    demand = np.full(3, 1 / 3)
    master = MasterLP(demand, np.array([1.0]))
    master.add_columns(0, np.array([[1, 1, 0]]))
    master.add_transfers(_dual_optimal_inequalities(sizes, most, [F(1, 3)] * 3))
    sol = master.solve()
    assert sol.t == pytest.approx(2.0)
    mix = _pure_mixture(master, sol, sizes, most)
    assert all(np.all(t.config <= most) for t in mix)
    assert supply_of(mix, 3, np.array([1.0])) == pytest.approx([2 / 3] * 3)
    # the same moves carried out without the bounds: a configuration with two 49s
    loose = _pure_mixture(master, sol, sizes)
    assert any(np.any(t.config > most) for t in loose)


def test_moves_that_cannot_be_carried_out_are_closed(monkeypatch):
    """The wrong moves for copy bounds (pairs as well: two j's in one i's place) give
    a master above the LP; the mixture carried out falls short, the moves are closed
    and column generation goes on to the LP's optimum, certified."""
    import capacity._lp_highs as lph
    import capacity.configuration_solver as solver

    real = solver._dual_optimal_inequalities
    monkeypatch.setattr(solver, "_dual_optimal_inequalities",
                        lambda sizes, copies=None, demand=None: real(sizes))
    closed = []
    close = lph.MasterLP.close_transfers
    monkeypatch.setattr(lph.MasterLP, "close_transfers",
                        lambda self: closed.append(1) or close(self))
    for seed in range(30):
        lp = bounded_lp(*instance(seed))
        cg = solve_configuration_lp(lp, method="column-generation")
        full = solve_configuration_lp(lp, method="enumerate")
        assert cg.certified
        assert float(cg.lower) == pytest.approx(float(full.lower), rel=1e-9)
    assert closed


def test_warm_start_must_be_a_solved_lp():
    lp = small_lp(0)
    with pytest.raises(TypeError, match="warm_start must be a solved LP"):
        solve_configuration_lp(lp, method="column-generation", warm_start=2.0)


def test_the_bounded_seeds_above_use_moves(monkeypatch):
    """The agreement test above is not vacuous: on some of its instances the optimum is
    reached with moves in use under the copy bounds, and carried out within them."""
    import capacity.configuration_solver as solver

    used = []
    real = solver._pure_mixture
    monkeypatch.setattr(solver, "_pure_mixture",
                        lambda m, sol, s, most=None: used.append(most is not None)
                        or real(m, sol, s, most))
    for seed in range(30):
        solve_configuration_lp(bounded_lp(*instance(seed)), method="column-generation")
    assert any(used)


@pytest.mark.parametrize("most", [None, 400_000_000])
def test_a_transfer_replaces_every_copy_at_once(most):
    """A configuration of 10^9 jobs of a large type serving a small one through a
    transfer: its copies are replaced together (one at a time made 10^9 terms), up to
    the copy bound of the small type (then the supply falls short, and the caller
    closes the transfers)."""
    master = MasterLP(np.array([0.0, 1.0]), np.array([1.0]))
    master.add_columns(0, np.array([[10**9, 0]]))
    master.add_transfers([(0, 1)])
    sol = master.solve()
    bounds = None if most is None else np.array([10**9, most])
    mix = _pure_mixture(master, sol, np.array([2.0, 1.0]), bounds)
    assert len(mix) <= 2
    got = supply_of(mix, 2, [1.0])[1]
    if most is None:
        assert got == pytest.approx(_supply(master, sol)[1], rel=1e-12)
    else:
        assert got == pytest.approx(most) and all(term.config[1] <= most for term in mix)
