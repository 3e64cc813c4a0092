"""The master LP in its two forms: one server class is solved as the covering LP
``min sum x`` s.t. ``K x >= d`` (no column of t), several classes in the t form. The
same LP split into two classes of half the servers each (same configurations) is
solved in the t form, so the two must agree: value, prices that prove it, a mixture
that supports it, and reduced costs; an uncovered type is t = 0 with prices that
prove it."""

from __future__ import annotations

import numpy as np
import pytest

from capacity._lp_highs import MasterLP
from capacity.configuration_solver import _dual_optimal_inequalities, _supply


def random_master(seed: int):
    rng = np.random.default_rng(seed)
    T = int(rng.integers(3, 12))
    sizes = np.sort(rng.choice(np.arange(5, 80), size=T, replace=False))
    C = 100
    demand = rng.integers(0, 6, T).astype(float)
    demand[rng.integers(T)] += 1
    n = float(rng.integers(1, 7) * 2)
    cols = []
    for _ in range(int(rng.integers(T, 4 * T))):
        k = np.zeros(T, dtype=np.int64)
        room = C
        for j in rng.permutation(T):
            c = int(rng.integers(0, room // sizes[j] + 1))
            k[j] += c
            room -= c * sizes[j]
        if k.any():
            cols.append(k)
    for j in range(T):  # every type covered
        cols.append(np.eye(T, dtype=np.int64)[j] * (C // sizes[j]))
    return sizes, C, demand, n, np.array(cols)


def check_prices(sol, demand, n_of_col, K, moves=()):
    """y >= 0, <d, y> = 1, n_c <y, k> <= pi_c for every column, y_i >= sum y_j for
    every move (i, j, ...), and sum pi = t: an optimality proof of t."""
    assert np.all(sol.y >= 0)
    assert float(demand @ sol.y) == pytest.approx(1.0, rel=1e-9)
    pi = float(sol.pi.sum())
    assert pi == pytest.approx(sol.t, rel=1e-9, abs=1e-12)
    assert np.all(n_of_col * (K @ sol.y) <= pi * (1 + 1e-9) + 1e-12)
    for i, *js in moves:
        assert sol.y[i] >= sum(sol.y[j] for j in js) - 1e-9 * (1 + sol.y[i])


@pytest.mark.parametrize("transfers", [False, True])
@pytest.mark.parametrize("seed", range(25))
def test_covering_form_agrees_with_the_t_form(seed, transfers):
    sizes, C, demand, n, K = random_master(seed)
    one = MasterLP(demand, np.array([n]))
    two = MasterLP(demand, np.array([n / 2, n / 2]))
    assert one._covering and not two._covering
    one.add_columns(0, K)
    two.add_columns(0, K)
    two.add_columns(1, K)
    moves = _dual_optimal_inequalities(sizes.astype(float)) if transfers else []
    one.add_transfers(moves)
    two.add_transfers(moves)
    a, b = one.solve(), two.solve()
    assert a.t == pytest.approx(b.t, rel=1e-9)
    check_prices(a, demand, np.full(len(K), n), K, moves)
    check_prices(b, demand, np.full(2 * len(K), n / 2), np.vstack([K, K]), moves)
    assert a.p.sum() == pytest.approx(1.0, rel=1e-9)
    pos = demand > 0
    assert np.min(_supply(one, a)[pos] / demand[pos]) == pytest.approx(a.t, rel=1e-9)
    # reduced costs in the t form's units: pi - n <y, k> (HiGHS minimises -t), scaled
    rc = one.reduced_costs()
    scale = demand.max()
    assert rc == pytest.approx(scale * (a.t - n * (K @ a.y)), abs=1e-9 * scale * a.t)


@pytest.mark.parametrize("seed", range(10))
def test_an_uncovered_type_is_t_zero_with_prices_that_prove_it(seed):
    sizes, C, demand, n, K = random_master(seed)
    j = int(np.flatnonzero(demand > 0)[0])
    K = K[K[:, j] == 0]
    master = MasterLP(demand, np.array([n]))
    master.add_columns(0, K)
    sol = master.solve()
    assert sol.t == 0 and not sol.p.any()
    check_prices(sol, demand, np.full(len(K), n), K)
    assert np.all(K @ sol.y <= 1e-12)
    # a column through j: the next solve is positive again
    master.add_columns(0, np.eye(len(sizes), dtype=np.int64)[j:j + 1])
    assert master.solve().t > 0


def test_a_huge_server_count_is_fine_in_the_covering_form():
    """n enters the covering form only through t = n / sum x: 10^15 servers holding 3
    jobs each are no LP coefficient of 3e15 (the t form refuses them)."""
    d = np.array([0.5, 0.5])
    K = np.array([[3, 0], [0, 2], [1, 1]])
    one = MasterLP(d, np.array([1e15]))
    one.add_columns(0, K)
    assert one.solve().t == pytest.approx(1e15 * 2.4, rel=1e-12)
    two = MasterLP(d, np.array([5e14, 5e14]))
    with pytest.raises(ValueError, match="LP coefficient"):
        two.add_columns(0, K)
