"""theory.rms_chain: the reversible chain RMS-bar of PG18 (Sec. V, Definition 2, eqs.
(7)-(9), (11), (14)) against hand-computed cases, its generator and its product forms."""

from __future__ import annotations

import math
import tracemalloc

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import sympy

from theory.budgets import BudgetExceeded
from theory.rms_chain import (
    StationarySolveError,
    configuration_weight,
    detailed_balance_symbolic,
    log_gibbs_weights,
    log_partition,
    log_phi0,
    log_product_form,
    product_form,
    rms_bar_generator,
    state_graph,
    stationary_distribution,
    system_configurations,
)

SIZES = [[2], [5]]  # PG18 Sec. III: two types of sizes 2 and 5 on servers of capacity 10
#: every (k_1, k_2) with 2 k_1 + 5 k_2 <= 10, listed by hand
ONE_SERVER_10 = {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (0, 1), (1, 1), (2, 1),
                 (0, 2)}
ONE_SERVER_5 = {(0, 0), (1, 0), (2, 0), (0, 1)}  # 2 k_1 + 5 k_2 <= 5


def _index(c: np.ndarray) -> dict[tuple[int, ...], int]:
    return {tuple(k.ravel().tolist()): i for i, k in enumerate(c)}


def _server_law(cl: np.ndarray, r, mu, w) -> dict[tuple[int, ...], float]:
    """One server's law (14) written out: exp(w.k) prod_j (r_j/mu_j)^k_j / k_j!, normalised."""
    raw = {tuple(k.tolist()): math.exp(sum(w[j] * k[j] for j in range(len(k))))
           * math.prod((r[j] / mu[j]) ** int(k[j]) / math.factorial(int(k[j]))
                       for j in range(len(k)))
           for k in cl}
    z = sum(raw.values())
    return {k: v / z for k, v in raw.items()}


# ------------------------------------------------------------------ configurations
def test_one_server_configurations_by_hand():
    """K of one server of capacity 10 with sizes 2 and 5: the 10 states listed by hand."""
    c = system_configurations(SIZES, [10])
    assert c.shape == (10, 1, 2) and c.dtype == np.int64
    rows = [tuple(k[0].tolist()) for k in c]
    assert set(rows) == ONE_SERVER_10 and len(set(rows)) == 10
    assert rows[0] == (0, 0)


def test_vector_capacity_configurations_by_hand():
    """Two resources: 2a + b <= 4 and a + 3b <= 4 holds exactly at these 5 (a, b)."""
    c = system_configurations([[2, 1], [1, 3]], [[4, 4]])
    assert {tuple(k[0].tolist()) for k in c} == {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)}


def test_two_servers_are_the_product_in_lexicographic_order():
    """K for capacities (10, 5) is the 10 x 4 product, the last server varying fastest."""
    c = system_configurations(SIZES, [10, 5])
    p0 = system_configurations(SIZES, [10])[:, 0, :]
    p1 = system_configurations(SIZES, [5])[:, 0, :]
    assert c.shape == (40, 2, 2)
    assert {tuple(k.tolist()) for k in p1} == ONE_SERVER_5
    for i in range(40):
        assert c[i, 0].tolist() == p0[i // 4].tolist()
        assert c[i, 1].tolist() == p1[i % 4].tolist()


def test_configuration_weight_by_hand():
    """W(k) = sum_{j,l} w_j k_j^l, with weights shared (J,) or per server (L, J)."""
    c = np.array([[[3, 0], [1, 1]], [[0, 0], [0, 0]]])
    assert configuration_weight(c, [0.4, 1.1]) == pytest.approx([4 * 0.4 + 1.1, 0.0])
    assert configuration_weight(c, [[0.4, 1.1], [2.0, 3.0]]) == pytest.approx(
        [3 * 0.4 + 2.0 + 3.0, 0.0])


# ------------------------------------------------------------------ product forms
def test_one_server_one_type_is_a_truncated_poisson_law():
    """L = 1, J = 1, size 1, capacity 6: (9) is a^k/k! / sum_{i<=6} a^i/i!, a = r e^w / mu,
    and the generator is the birth-death chain k -> k+1 at r, k -> k-1 at k mu e^-w."""
    r, mu, w, cap = 2.5, 0.8, 0.7, 6
    c = system_configurations([[1]], [cap])
    assert c[:, 0, 0].tolist() == list(range(cap + 1))
    a = r * math.exp(w) / mu
    terms = [a**k / math.factorial(k) for k in range(cap + 1)]
    want = np.array(terms) / sum(terms)
    np.testing.assert_allclose(product_form(c, [r], [mu], [w]), want, rtol=1e-13)
    assert log_partition(c, [r], [mu], [w]) == pytest.approx(
        math.log(sum((r / mu) ** k / math.factorial(k) * math.exp(w * k)
                     for k in range(cap + 1))), rel=1e-13)
    Q = np.zeros((cap + 1, cap + 1))
    for k in range(cap):
        Q[k, k + 1] = r
        Q[k + 1, k] = (k + 1) * mu * math.exp(-w)
    Q -= np.diag(Q.sum(axis=1))
    np.testing.assert_allclose(rms_bar_generator(c, [r], [mu], [w]).toarray(), Q, rtol=1e-14)
    np.testing.assert_allclose(stationary_distribution(Q), want, atol=1e-13)


def test_log_phi0_is_9_at_zero_weights_and_normalised():
    c = system_configurations(SIZES, [10, 5])
    lp = log_phi0(c, [1.3, 0.7], [0.9, 1.6])
    np.testing.assert_allclose(lp, log_product_form(c, [1.3, 0.7], [0.9, 1.6], [0, 0]))
    assert np.exp(lp).sum() == pytest.approx(1.0, abs=1e-14)
    # the empty system has weight 1 before normalising, so log phi^0(0) = -log Z^0
    assert lp[0] == pytest.approx(-log_partition(c, [1.3, 0.7], [0.9, 1.6], [0, 0]))


def test_servers_override_changes_the_base_by_1_over_L():
    """log weight of (9) with L = 2 vs servers=1 differs by sum_{j,l} k_j^l log 2."""
    c = system_configurations(SIZES, [10, 10])
    a = log_gibbs_weights(c, [1.3, 0.7], [0.9, 1.6], [0.4, 1.1])
    b = log_gibbs_weights(c, [1.3, 0.7], [0.9, 1.6], [0.4, 1.1], servers=1)
    np.testing.assert_allclose(b - a, c.sum(axis=(1, 2)) * math.log(2), atol=1e-12)


def test_zero_rate_forbids_its_type_and_the_chain_agrees():
    """r_2 = 0: states holding a type-2 job have probability 0 (they are transient)."""
    c = system_configurations(SIZES, [10, 5])
    r, mu, w = [1.3, 0.0], [0.9, 1.6], [0.4, 1.1]
    phi = product_form(c, r, mu, w)
    holds2 = c[:, :, 1].sum(axis=1) > 0
    assert np.all(phi[holds2] == 0) and np.all(phi[~holds2] > 0)
    np.testing.assert_allclose(stationary_distribution(rms_bar_generator(c, r, mu, w)), phi,
                               atol=1e-12)


def test_large_weights_give_finite_normalised_probabilities():
    """w = 200 (e^(200 k) overflows float64 for k >= 4): log-space (9) stays finite, sums to
    1, puts its mass on the maximum-weight states, and the chain still agrees."""
    c = system_configurations(SIZES, [10, 10])
    r, mu, w = [1.0, 2.0], [1.0, 0.5], [200.0, 200.0]
    lp = log_product_form(c, r, mu, w)
    phi = product_form(c, r, mu, w)
    assert np.all(np.isfinite(lp)) and np.all(np.isfinite(phi))
    assert phi.sum() == pytest.approx(1.0, abs=1e-12)
    W = configuration_weight(c, w)
    assert phi[W == W.max()].sum() == pytest.approx(1.0, abs=1e-12)
    pi = stationary_distribution(rms_bar_generator(c, r, mu, w))
    assert np.max(np.abs(pi - phi)) <= 1e-10


# ------------------------------------------------------------------ the generator
def test_generator_rows_and_spot_checked_rates():
    """Rows sum to 0; k -> k + e_j^l at r_j / L, k -> k - e_j^l at k_j^l mu_j exp(-w_j),
    no move to a configuration that does not fit, and nothing else in the row."""
    c = system_configurations(SIZES, [10, 10])
    idx = _index(c)
    r, mu, w = np.array([1.3, 0.7]), np.array([0.9, 1.6]), np.array([0.4, 1.1])
    Q = rms_bar_generator(c, r, mu, w)
    assert sp.issparse(Q) and Q.shape == (100, 100)
    assert np.max(np.abs(np.asarray(Q.sum(axis=1)).ravel())) <= 1e-13
    k = idx[(3, 0, 1, 1)]  # server 0 holds (3, 0), server 1 holds (1, 1)
    up = idx[(3, 0, 2, 1)]  # a type-1 job to server 1: 2*2 + 5 = 9 <= 10
    assert Q[k, up] == pytest.approx(r[0] / 2, rel=1e-15)
    assert Q[up, k] == pytest.approx(2 * mu[0] * math.exp(-w[0]), rel=1e-15)
    assert Q[k, idx[(2, 0, 1, 1)]] == pytest.approx(3 * mu[0] * math.exp(-w[0]), rel=1e-15)
    assert Q[k, idx[(3, 0, 1, 0)]] == pytest.approx(mu[1] * math.exp(-w[1]), rel=1e-15)
    assert (3, 1, 1, 1) not in idx  # 3*2 + 5 = 11 > 10: that arrival is blocked
    row = Q.getrow(k).toarray().ravel()
    off = np.delete(row, k)
    # (4,0)|(1,1), (2,0)|(1,1), (3,0)|(2,1), (3,0)|(0,1), (3,0)|(1,0)
    assert np.count_nonzero(off) == 5 and np.all(off >= 0)
    want = r[0] / 2 + 3 * mu[0] * math.exp(-w[0]) + r[0] / 2 + mu[0] * math.exp(-w[0]) \
        + mu[1] * math.exp(-w[1])
    assert -row[k] == pytest.approx(want, rel=1e-14)


def test_generator_is_reversible_with_respect_to_9():
    """phi(a) Q[a, b] = phi(b) Q[b, a] for every pair (detailed balance, numerically)."""
    c = system_configurations([[2, 1], [1, 3], [3, 2]], [[6, 6], [5, 7]])
    rng = np.random.default_rng(7)
    r, mu, w = rng.uniform(0.5, 3, 3), rng.uniform(0.5, 2, 3), rng.uniform(0, 4, 3)
    Q = rms_bar_generator(c, r, mu, w).toarray()
    np.fill_diagonal(Q, 0.0)
    assert np.array_equal(Q > 0, Q.T > 0)
    flow = product_form(c, r, mu, w)[:, None] * Q
    np.testing.assert_allclose(flow, flow.T, rtol=1e-12, atol=1e-300)


def test_stationary_law_equals_product_form_on_a_random_system():
    """Lemma 1 on a random small heterogeneous system with vector sizes, to 1e-12."""
    c = system_configurations([[2, 1], [1, 3], [3, 2]], [[6, 6], [5, 7]])
    rng = np.random.default_rng(2018)
    for _ in range(3):
        r, mu, w = rng.uniform(0.5, 3, 3), rng.uniform(0.5, 2, 3), rng.uniform(0, 4, 3)
        pi = stationary_distribution(rms_bar_generator(c, r, mu, w))
        phi = product_form(c, r, mu, w)
        assert np.max(np.abs(pi - phi)) <= 1e-12
        # the form without the 1/L is not the chain's law
        assert np.max(np.abs(pi - product_form(c, r, mu, w, servers=1))) > 1e-3


def test_per_server_form_14_is_the_product_of_single_server_laws():
    """RMS + JSQ on servers of capacity 10 and 5: the chain's law, psi^w of (14) and the
    product of the two hand-written single-server laws coincide; (9) is different."""
    c = system_configurations(SIZES, [10, 5])
    rng = np.random.default_rng(14)
    r, mu, w = rng.uniform(0.5, 3, (2, 2)), rng.uniform(0.5, 2, 2), rng.uniform(0, 4, (2, 2))
    laws = [_server_law(system_configurations(SIZES, [cap])[:, 0, :], r[l], mu, w[l])
            for l, cap in enumerate([10, 5])]
    want = np.array([laws[0][tuple(k[0].tolist())] * laws[1][tuple(k[1].tolist())]
                     for k in c])
    psi = product_form(c, r, mu, w, per_server_rates=True)
    assert np.max(np.abs(psi - want)) <= 1e-12
    pi = stationary_distribution(rms_bar_generator(c, r, mu, w, per_server_rates=True))
    assert np.max(np.abs(pi - want)) <= 1e-12
    # (14) has no 1/L: with r/L it is another law, and (9) at rates r[0] with w[0] too
    assert np.max(np.abs(psi - product_form(c, r / 2, mu, w, per_server_rates=True))) > 1e-3
    np.testing.assert_allclose(
        product_form(c, np.tile(r[0] / 2, (2, 1)), mu, np.tile(w[0], (2, 1)),
                     per_server_rates=True),
        product_form(c, r[0], mu, w[0]), atol=1e-14)


# ------------------------------------------------------------------ stationary solve
def test_reducible_two_state_blocks_raise():
    """Two closed classes {0, 1} and {2, 3}: the stationary law is not unique."""
    block = sp.csr_matrix([[-1.0, 1.0], [2.0, -2.0]])
    with pytest.raises(StationarySolveError, match="irreducible"):
        stationary_distribution(sp.block_diag([block, block]).tocsr())


def test_reducible_block_diagonal_rms_generator_raises():
    """Two copies of a 10-state RMS-bar generator side by side: reducible, so it must raise."""
    c = system_configurations(SIZES, [10])
    A = rms_bar_generator(c, [1.3, 0.7], [0.9, 1.6], [0.4, 1.1])
    with pytest.raises(StationarySolveError):
        stationary_distribution(sp.block_diag([A, A]).tocsr())


def test_stationary_distribution_rejects_non_generators():
    with pytest.raises(ValueError, match="rows must sum to 0"):
        stationary_distribution(np.ones((2, 2)))
    with pytest.raises(ValueError, match="square"):
        stationary_distribution(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="finite"):
        stationary_distribution(np.array([[-np.inf, np.inf], [1.0, -1.0]]))


# ------------------------------------------------------------------ state graph
def test_state_graph_is_strongly_connected_and_matches_the_generator():
    c = system_configurations(SIZES, [10, 5])
    g = state_graph(c)
    assert g.number_of_nodes() == 40 and nx.is_strongly_connected(g)
    Q = rms_bar_generator(c, [1.3, 0.7], [0.9, 1.6], [0.4, 1.1]).tocoo()
    pattern = {(int(a), int(b)) for a, b, v in zip(Q.row, Q.col, Q.data, strict=True)
               if a != b and v > 0}
    assert set(g.edges) == pattern
    idx = _index(c)
    e = g.edges[idx[(0, 0, 0, 0)], idx[(0, 0, 0, 1)]]
    assert e == {"kind": "arrival", "server": 1, "type": 1}
    assert g.nodes[idx[(2, 1, 0, 1)]]["config"] == ((2, 1), (0, 1))
    # without the departures (8) nothing returns to the empty system
    ups = nx.DiGraph((a, b) for a, b, k in g.edges(data="kind") if k == "arrival")
    assert not nx.is_strongly_connected(ups)


def test_birth_death_graph_loses_connectivity_without_a_middle_state():
    """One server, one type: the graph is the path 0 - 1 - ... - 6; removing state 3 cuts it."""
    c = system_configurations([[1]], [6])
    g = state_graph(c)
    assert set(g.edges) == {(k, k + 1) for k in range(6)} | {(k + 1, k) for k in range(6)}
    g.remove_node(3)
    assert not nx.is_strongly_connected(g)


def test_dropping_a_state_from_k():
    """A set that is not down-closed is refused; dropping a maximal state keeps a
    down-closed set whose chain has the restricted, renormalised product form."""
    c = system_configurations(SIZES, [10])
    idx = _index(c)
    r, mu, w = [1.3, 0.7], [0.9, 1.6], [0.4, 1.1]
    holed = np.delete(c, idx[(1, 0)], axis=0)  # (1, 1) and (2, 0) are still states
    with pytest.raises(ValueError, match="not down-closed"):
        rms_bar_generator(holed, r, mu, w)
    with pytest.raises(ValueError, match="not down-closed"):
        state_graph(holed)
    trimmed = np.delete(c, idx[(5, 0)], axis=0)
    assert nx.is_strongly_connected(state_graph(trimmed))
    pi = stationary_distribution(rms_bar_generator(trimmed, r, mu, w))
    phi = np.delete(product_form(c, r, mu, w), idx[(5, 0)])
    np.testing.assert_allclose(pi, phi / phi.sum(), atol=1e-13)


# ------------------------------------------------------------------ symbolic balance
def test_detailed_balance_holds_symbolically_on_one_server():
    """11 arrival pairs in the 10 states of ONE_SERVER_10; each balance equation is 0."""
    res = detailed_balance_symbolic(SIZES, [10])
    assert res.equations == 11 and res.failures == []


def _no_exp(k, r, mu, w, L):
    """(9) without the exp(w k) factor (that is phi^0)."""
    out = sympy.Integer(1)
    for l in range(k.shape[0]):
        for j in range(k.shape[1]):
            n = int(k[l, j])
            out *= (r[j] / (L * mu[j])) ** n / sympy.factorial(n)
    return out


def _no_1_over_L(k, r, mu, w, L):
    """(9) with (r/mu)^k instead of (r/(L mu))^k."""
    out = sympy.Integer(1)
    for l in range(k.shape[0]):
        for j in range(k.shape[1]):
            n = int(k[l, j])
            out *= sympy.exp(w[j] * n) * (r[j] / mu[j]) ** n / sympy.factorial(n)
    return out


def test_detailed_balance_symbolic_catches_wrong_forms():
    """A form without exp(w k) fails every equation; without the 1/L it fails every one on
    2 servers (24 equations on capacities 5, 5) but none on 1 server, where L = 1."""
    one = detailed_balance_symbolic(SIZES, [10], phi=_no_exp)
    assert one.equations == 11 and len(one.failures) == 11
    two = detailed_balance_symbolic(SIZES, [5, 5], phi=_no_1_over_L)
    assert two.equations == 24 and len(two.failures) == 24
    assert detailed_balance_symbolic(SIZES, [5, 5]).failures == []
    assert detailed_balance_symbolic(SIZES, [10], phi=_no_1_over_L).failures == []


# ------------------------------------------------------------------ bad inputs, budgets
C1 = system_configurations(SIZES, [10])


@pytest.mark.parametrize(("call", "match"), [
    (lambda: system_configurations(SIZES, []), "at least one server"),
    (lambda: system_configurations(SIZES, [10], max_states=0), "max_states"),
    (lambda: rms_bar_generator(C1, [1, 1], [-1, 1], [0, 0]), r"mu must be > 0"),
    (lambda: rms_bar_generator(C1, [1, 1], [0, 1], [0, 0]), r"mu must be > 0"),
    (lambda: rms_bar_generator(C1, [np.nan, 1], [1, 1], [0, 0]), "rates must be finite"),
    (lambda: rms_bar_generator(C1, [-1, 1], [1, 1], [0, 0]), r"rates must be >= 0"),
    (lambda: product_form(C1, [1, 1], [1, 1], [np.inf, 0]), "weights must be finite"),
    (lambda: rms_bar_generator(C1, [1, 1, 1], [1, 1], [0, 0]), r"rates must have shape \(2,\)"),
    (lambda: rms_bar_generator(C1, [1, 1], [1, 1], [0, 0, 0]), r"weights must have shape"),
    (lambda: rms_bar_generator(C1, [1, 1], [1, 1], [0, 0], per_server_rates=True),
     r"must have shape \(1, 2\)"),
    (lambda: rms_bar_generator(C1[:, 0, :], [1, 1], [1, 1], [0, 0]), r"\(S, L, J\)"),
    (lambda: rms_bar_generator(C1.astype(float), [1, 1], [1, 1], [0, 0]), "integers"),
    (lambda: rms_bar_generator(-C1, [1, 1], [1, 1], [0, 0]), "non-negative"),
    (lambda: rms_bar_generator(np.concatenate([C1, C1[:1]]), [1, 1], [1, 1], [0, 0]),
     "repeated"),
    (lambda: product_form(C1, [1, 1], [1, 1], [0, 0], servers=0), "servers must be positive"),
    (lambda: product_form(C1, [[1, 1]], [1, 1], [0, 0], servers=1, per_server_rates=True),
     "no 1/L"),
    (lambda: configuration_weight(C1, "ab"), "weights"),
])
def test_bad_inputs_raise_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_huge_system_is_refused_before_allocating():
    """101^10 states on 10 servers: BudgetExceeded naming the count, with little memory."""
    tracemalloc.start()
    try:
        with pytest.raises(BudgetExceeded) as e:
            system_configurations([[1]], [100] * 10)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "110,462,212,541,120,451,001 states" in str(e.value)
    assert e.value.option == "max_states" and peak < 2**20
    with pytest.raises(BudgetExceeded, match="server 0 alone"):
        system_configurations([[1], [1], [1]], [1000])
    assert system_configurations(SIZES, [10, 10], max_states=100).shape[0] == 100
    with pytest.raises(BudgetExceeded):
        system_configurations(SIZES, [10, 10], max_states=99)
