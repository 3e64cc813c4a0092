"""XLL21 Lemma 1 (eq. (22)) and Lemma 2 (eq. (39)) against literal LPs (scipy linprog)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from theory.slot_allocation import lemma1_rates, lemma2_rates, pack_largest_first


def lp_p3(coeff, d, C):
    """min sum c_j y_j, sum d_j y_j <= C, 0 <= y <= 1 (P3 with z = 1, pooled)."""
    r = linprog(coeff, A_ub=[d], b_ub=[C], bounds=[(0, 1)] * len(d), method="highs")
    assert r.status == 0
    return r.fun


def lp_38(p, rem, d, C):
    r = linprog(-1 / np.asarray(p, float), A_ub=[d], b_ub=[C],
                bounds=[(0, min(1, x)) for x in rem], method="highs")
    assert r.status == 0
    return -r.fun


instances = st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-30, 10), min_size=n, max_size=n),
    st.lists(st.integers(1, 8), min_size=n, max_size=n),
    st.integers(0, 30)))


@settings(max_examples=200, deadline=None)
@given(instances)
def test_lemma1_is_the_lp_optimum(inst):
    c, d, C = inst
    y = lemma1_rates(c, d, C)
    assert np.all((y >= 0) & (y <= 1)) and np.dot(d, y) <= C + 1e-9
    assert np.allclose(np.asarray(d) * y, np.rint(np.asarray(d) * y))  # integer cores
    assert np.dot(c, y) == pytest.approx(lp_p3(c, d, C), abs=1e-9)


def test_lemma1_partial_job_gets_the_leftover_cores():
    # eq. (22) as printed: sum_{n<=1} d_n = 4 >= C = 3 gives 0; the optimum is 3/4
    assert lemma1_rates([-1], [4], 3).tolist() == [0.75]


@settings(max_examples=200, deadline=None)
@given(instances, st.data())
def test_lemma2_is_the_lp_optimum(inst, data):
    _, d, C = inst
    n = len(d)
    p = data.draw(st.lists(st.integers(1, 9), min_size=n, max_size=n))
    rem = [data.draw(st.integers(0, pj * dj)) / dj for pj, dj in zip(p, d, strict=True)]
    y = lemma2_rates(p, rem, d, C)
    assert np.all(y <= np.minimum(1, rem) + 1e-12) and np.dot(d, y) <= C + 1e-9
    assert np.allclose(np.asarray(d) * y, np.rint(np.asarray(d) * y))
    assert np.sum(y / np.asarray(p)) == pytest.approx(lp_38(p, rem, d, C), abs=1e-9)


def test_lemma2_respects_the_caps_the_printed_max_breaks():
    # eq. (39) as printed: max{1, p_j(t)} = 3 > 1
    assert lemma2_rates([3], [3], [1], 1).tolist() == [1.0]
    # max{gamma/d, p(t)} = max{1/2, 1/4}: y = 1/2 > p(t); the min is 1/4
    assert lemma2_rates([1], [0.25], [4], 2).tolist() == [0.25]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=8),
       st.lists(st.integers(1, 16), min_size=1, max_size=4))
def test_pack_largest_first_realises_the_pooled_cores(u, C):
    if sum(u) > sum(C):
        with pytest.raises(ValueError, match="cores asked"):
            pack_largest_first(u, C)
        return
    x = pack_largest_first(u, C)
    assert x.sum(axis=1).tolist() == u and np.all(x.sum(axis=0) <= C) and np.all(x >= 0)


def test_pack_largest_first_follows_the_paper():
    # largest server first, largest jobs first while they fit
    x = pack_largest_first([3, 5, 2], [4, 8])
    assert x[:, 1].tolist() == [3, 5, 0] and x[:, 0].tolist() == [0, 0, 2]


@pytest.mark.parametrize("call", [
    lambda: lemma1_rates([1, 2], [1], 3),
    lambda: lemma1_rates([1], [0], 3),
    lambda: lemma1_rates([float("nan")], [1], 3),
    lambda: lemma1_rates([1], [1], -1),
    lambda: lemma2_rates([1], [-1], [1], 1),
    lambda: pack_largest_first([-1], [2]),
])
def test_bad_inputs(call):
    with pytest.raises(ValueError):
        call()
