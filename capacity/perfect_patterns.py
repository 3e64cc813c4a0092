"""Every perfect pattern of at most three items of a bin-packing instance.

A pattern is perfect when its weights sum to exactly the capacity C. At the continuous
bound z_LP = sum w / C (PG21 Lemma 2 on one server) every pattern of an optimal
fractional packing is perfect. When items are heavier than C / 4 (BPPLIB's ANI class,
the Falkenauer triplets) no pattern holds four, and the perfect ones of one, two or
three items are found in O(T^2 log T) for T distinct weights: for each pair, the third
weight is C minus theirs, looked up in the sorted weights.
"""

from __future__ import annotations

import numpy as np

from capacity.configuration_rows import ConfigurationRows
from theory.numbers import positive_int

__all__ = ["perfect_patterns_upto_three"]


def perfect_patterns_upto_three(sizes: np.ndarray, copies: np.ndarray, capacity: int
                                ) -> ConfigurationRows:
    """Every pattern of at most three items, at most ``copies[j]`` of type j, whose
    integer ``sizes`` sum to exactly ``capacity``; each multiset once."""
    s = np.asarray(sizes)
    m = np.asarray(copies)
    if s.ndim != 1 or s.dtype.kind not in "iu" or m.shape != s.shape or m.dtype.kind not in "iu":
        raise ValueError("perfect_patterns_upto_three needs integer sizes and copies, one each")
    if s.size and (s.min() < 1 or np.any(m < 1) or len(np.unique(s)) != s.size):
        raise ValueError("sizes must be distinct positive integers, copies at least 1")
    C = positive_int(capacity, name="capacity")
    T = s.size
    order = np.argsort(s, kind="stable")
    u = s[order].astype(np.int64)
    cnt = m[order]
    found: list[np.ndarray] = [np.flatnonzero(u == C)[:, None]]
    # pairs a <= b, then triples a <= b <= c, positions in u
    b = np.searchsorted(u, C - u)
    ok = (b < T) & (b >= np.arange(T))
    ok[ok] = u[b[ok]] == C - u[ok]
    a = np.flatnonzero(ok)
    found.append(np.stack([a, b[ok]], axis=1))
    for i in range(T):
        rest = C - u[i] - u[i:]  # the third weight for b = i, i + 1, ...
        bs = np.flatnonzero(rest >= u[i:]) + i
        if bs.size == 0:
            break
        c = np.searchsorted(u, rest[bs - i])
        hit = c < T
        hit[hit] = u[c[hit]] == rest[bs - i][hit]
        found.append(np.stack([np.full(int(hit.sum()), i), bs[hit], c[hit]], axis=1))
    rows = []
    for P in found:
        if P.size == 0:
            continue
        # copy bounds: equal positions in a sorted pattern are repeats of one type
        reps = np.ones(P.shape, dtype=np.int64)
        for j in range(1, P.shape[1]):
            reps[:, j] = np.where(P[:, j] == P[:, j - 1], reps[:, j - 1] + 1, 1)
        P = P[np.all(reps <= cnt[P], axis=1)]
        rows.append(np.pad(order[P], ((0, 0), (0, 3 - P.shape[1])), constant_values=-1))
    jobs = np.concatenate(rows) if rows else np.zeros((0, 3), dtype=np.int64)
    return ConfigurationRows(jobs, T)
