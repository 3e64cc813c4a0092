"""Configurations stored as the types of their jobs (capacity/configuration_rows.py),
and the paths that use them: knapsack_dp's columns and MasterLP.add_columns."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import capacity.knapsack as kn
from capacity._lp_highs import MasterLP
from capacity.configuration_rows import ConfigurationRows


def _random_rows(rng, n, T, most):
    jobs = np.full((n, most), -1, dtype=np.int64)
    for r in range(n):
        m = rng.integers(0, most + 1)
        jobs[r, :m] = rng.integers(0, T, m)
    return jobs


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 9), st.integers(1, 5))
def test_rows_read_as_their_dense_configurations(seed, n, T, most):
    rng = np.random.default_rng(seed)
    jobs = _random_rows(rng, n, T, most)
    dense = np.array([np.bincount(r[r >= 0], minlength=T) for r in jobs])
    rows = ConfigurationRows(rng.permuted(jobs, axis=1), T)  # job order is irrelevant
    assert len(rows) == n
    assert np.array_equal(np.asarray(rows), dense)
    assert all(np.array_equal(k, dense[r]) for r, k in enumerate(rows))
    assert all(rows[r].dtype == np.int64 and rows[r].shape == (T,) for r in range(n))
    y = rng.random(T)
    assert np.allclose(rows.values(y), dense @ y, rtol=1e-14, atol=0)
    for r in range(n):
        assert np.array_equal(rows.types(r), np.flatnonzero(dense[r]))
    starts, types, counts = rows.sparse()
    for r in range(n):
        nz = np.flatnonzero(dense[r])
        assert np.array_equal(types[starts[r]:starts[r + 1]], nz)
        assert np.array_equal(counts[starts[r]:starts[r + 1]], dense[r, nz])
    # the first occurrence of each configuration, in order
    firsts = [r for r in range(n) if not any(np.array_equal(dense[q], dense[r])
                                             for q in range(r))]
    assert np.array_equal(np.asarray(rows.distinct()), dense[firsts])
    pick = rng.permutation(n)[:max(1, n // 2)]
    assert np.array_equal(np.asarray(rows[pick]), dense[pick])
    assert np.array_equal(np.asarray(rows[1:]), dense[1:])


def test_rows_refuse_bad_jobs():
    with pytest.raises(ValueError, match="0..2"):
        ConfigurationRows(np.array([[0, 4]]), 3)
    with pytest.raises(ValueError, match="0..2"):
        ConfigurationRows(np.array([[0, -2]]), 3)
    with pytest.raises(ValueError, match="integers"):
        ConfigurationRows(np.array([[0.0, 1.5]]), 3)
    with pytest.raises(ValueError, match="2-D"):
        ConfigurationRows(np.zeros((1, 1, 1), dtype=np.int64), 3)


def _dp_columns(monkeypatch, sparse, v, w, C, thr, full):
    monkeypatch.setattr(kn, "_SPARSE_JOBS", 0 if sparse else 10**9)
    res = kn.knapsack_dp(v, w, C, per_type_threshold=thr, max_columns=len(v),
                         full_columns=full)
    assert isinstance(res.improving, ConfigurationRows) == sparse
    return [k.tolist() for k in res.improving]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("full", [False, True])
def test_dp_columns_as_jobs_equal_dense_columns(monkeypatch, seed, full):
    """knapsack_dp's columns traced as job lists (many types, few jobs each) are the
    dense path's, in the same order."""
    rng = np.random.default_rng(seed)
    T = int(rng.integers(5, 60))
    C = int(rng.integers(50, 400))
    w = rng.integers(max(1, C // 6), C // 2 + 1, T)
    v = w / C * (1 + 0.3 * rng.random(T))
    v[rng.random(T) < 0.2] = 0.0  # types the table leaves out: indices must map back
    thr = 0.8 + 0.3 * rng.random()
    dense = _dp_columns(monkeypatch, False, v, w, C, thr, full)
    assert dense == _dp_columns(monkeypatch, True, v, w, C, thr, full)


def test_master_takes_job_rows_like_dense_rows():
    rng = np.random.default_rng(3)
    T = 7
    jobs = _random_rows(rng, 30, T, 3)
    jobs[:T, 0] = np.arange(T)  # every type covered
    d = rng.random(T) + 0.1
    solutions = []
    for configs in (ConfigurationRows(jobs, T), np.asarray(ConfigurationRows(jobs, T))):
        m = MasterLP(d, np.array([2.0]))
        m.add_columns(0, configs)
        solutions.append(m.solve())
        assert [k.tolist() for _, k in m.columns] == np.asarray(configs).tolist()
    assert solutions[0].t == pytest.approx(solutions[1].t, rel=1e-12)
    assert np.allclose(solutions[0].p, solutions[1].p, atol=1e-12)
