"""Perfect bins (the exact-fill heuristic) and the bin-packing LP proven at the continuous
bound on a residual LP: the fast path must agree with the whole-LP path to 1e-9."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import capacity.perfect_bin_decomposition as pbd
import capacity.supportable_workload as sw
from capacity import bin_packing_lp
from capacity.configuration_lp import solve_configuration_lp
from capacity.configuration_rows import ConfigurationRows
from capacity.exact_fill_packing import ExactFillPacking, _exact_fill_kernel, exact_fill_bins
from capacity.perfect_bin_decomposition import lp_at_continuous_bound
from capacity.perfect_patterns import perfect_patterns_upto_three


def cut_bins(bins: int, C: int, seed: int, parts=(3, 4)) -> list[int]:
    """Each bin of capacity C cut exactly into 3 or 4 items (AI-shaped), shuffled."""
    rng = np.random.default_rng(seed)
    out: list[int] = []
    for _ in range(bins):
        m = int(rng.choice(parts))
        while True:
            w = np.diff(np.concatenate([[0], np.sort(rng.integers(1, C, m - 1)), [C]]))
            if np.all(w >= C // (m + 2)):
                break
        out.extend(int(x) for x in w)
    return [out[i] for i in rng.permutation(len(out))]


def without_fast_path(monkeypatch):
    monkeypatch.setattr(sw, "lp_at_continuous_bound", lambda *a, **k: None)


def fast_and_whole(ws: list[int], C: int, monkeypatch):
    """bin_packing_lp with the fast paths, then without (the whole LP): both LPs agree
    to 1e-9 and the fast answer is certified."""
    fast = bin_packing_lp(ws, C)
    without_fast_path(monkeypatch)
    whole = bin_packing_lp(ws, C)
    for key in ("z_lp", "z_lp_unbounded"):
        assert float(fast.extra[key]) == pytest.approx(float(whole.extra[key]), rel=1e-9)
    assert fast.certified and fast.extra["unbounded_certified"]
    return fast, whole


# -- the heuristic ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_bins_are_perfect_and_an_unplaced_item_had_no_exact_fill(seed):
    rng = np.random.default_rng(seed)
    C = int(rng.integers(10, 60))
    ws = [int(x) for x in rng.integers(1, C + 1, int(rng.integers(1, 11)))]
    p = exact_fill_bins(ws, C)
    every = sorted(np.concatenate([*p.bins, p.unplaced]).tolist())
    assert every == list(range(len(ws)))
    assert all(sum(ws[i] for i in b) == C for b in p.bins)
    # greedy: an item is left out only if, when its turn came (heaviest first), no subset
    # of the items still free filled its bin exactly; free then = the unplaced after it
    # and every item of a bin opened after it
    order = sorted(range(len(ws)), key=lambda i: -ws[i])
    rank = {i: r for r, i in enumerate(order)}
    opener = [min(b, key=lambda i: rank[i]) for b in p.bins]
    for i0 in p.unplaced.tolist():
        free = [i for i in p.unplaced.tolist() if rank[i] > rank[i0]]
        free += [i for b, o in zip(p.bins, opener, strict=True) if rank[o] > rank[i0]
                 for i in b]
        sums = {sum(ws[i] for i in s) for r in range(len(free) + 1)
                for s in itertools.combinations(free, r)}
        assert C - ws[i0] not in sums
    assert p.unplaced.tolist() == sorted(p.unplaced.tolist(), key=lambda i: (-ws[i], i))


@pytest.mark.parametrize("seed", range(6))
def test_compiled_kernel_matches_its_python_function(seed):
    ws = np.sort(np.array(cut_bins(12, 997, seed), dtype=np.int64))[::-1].copy()
    for most in (len(ws), 2):
        assert np.array_equal(_exact_fill_kernel(ws, 997, most),
                              _exact_fill_kernel.py_func(ws, 997, most))


def test_cut_bins_are_found_again():
    p = exact_fill_bins([6, 4, 7, 3, 5, 5, 10], 10)
    assert len(p.bins) == 4 and p.unplaced.size == 0
    assert exact_fill_bins([6, 6, 6], 10).unplaced.tolist() == [0, 1, 2]
    # a cap on the items left out stops the greedy: what it did not reach is unplaced
    early = exact_fill_bins([9, 9, 6, 4, 5, 5], 10, max_unplaced=1)
    assert early.bins == [] and early.unplaced.tolist() == [0, 1, 2, 4, 5, 3]  # heaviest first
    assert len(exact_fill_bins([9, 9, 6, 4, 5, 5], 10, max_unplaced=2).bins) == 2


@pytest.mark.parametrize("bad, match", [
    (([1.5, 2], 4), "integer weights"),
    (([[1, 2]], 4), "integer weights"),
    (([0, 2], 4), r"in 1\.\.4"),
    (([5, 2], 4), r"in 1\.\.4"),
    (([1, 2], 0), "positive integer"),
    (([1, 2], 2.5), "positive integer"),
    (([1, 2], 1 << 30), "above"),
    (([1, 2], True), "positive integer"),
])
def test_bad_input_is_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        exact_fill_bins(*bad)


# -- the LP at the continuous bound -------------------------------------------------------


@pytest.mark.parametrize("seed", range(16))
def test_fast_path_agrees_with_the_whole_lp(seed, monkeypatch):
    monkeypatch.setattr(sw, "DECOMPOSE_ITEMS", 1)
    rng = np.random.default_rng(seed)
    C = int(rng.choice([1000, 2500, 20_000]))
    ws = cut_bins(int(rng.integers(8, 40)), C, seed)
    if seed % 4 == 3:  # moved units: most bins no longer fill exactly (ANI-shaped)
        for _ in range(len(ws) // 6):
            i, j = rng.choice(len(ws), 2, replace=False)
            if ws[i] > 1 and ws[j] < C - 1:
                ws[i] -= 1
                ws[j] += 1
    fast, whole = fast_and_whole(ws, C, monkeypatch)
    if seed % 4 != 3:
        assert "perfect_bin_decomposition" in fast.extra, "AI-shaped: the fast path runs"
        assert fast.extra["z_lp"] == pytest.approx(sum(ws) / C, rel=1e-12)
        assert fast.lower <= Fraction(len(ws)) / Fraction(sum(ws), C) <= fast.upper


def test_lp_above_the_continuous_bound_is_left_to_the_whole_lp(monkeypatch):
    monkeypatch.setattr(sw, "DECOMPOSE_ITEMS", 1)
    ws = [6, 6, 6, 4, 4, 4]  # z_LP = 3 (6 + 4 each), sum w / C = 3: at the bound
    assert lp_pair(ws, 10) is not None
    ws = [6, 6, 6, 4]  # no two 6s share a bin: z_LP = 3 > 2.2
    assert lp_pair(ws, 10) is None
    res = bin_packing_lp(ws, 10)
    assert "perfect_bin_decomposition" not in res.extra
    assert float(res.extra["z_lp"]) == float(res.extra["z_lp_unbounded"]) == pytest.approx(3)


def lp_pair(ws: list[int], C: int):
    return lp_at_continuous_bound(ws, C)


@pytest.mark.parametrize("bad, match", [
    (([], 10), "non-empty"),
    (([1.5, 2], 10), "integer weights"),
    (([3, 11], 10), r"in 1\.\.10"),
    (([3, 0], 10), r"in 1\.\.10"),
    (([3, 4], -10), "positive integer"),
    (([3, 4], True), "positive integer"),
])
def test_the_fast_path_refuses_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        lp_at_continuous_bound(*bad)
    with pytest.raises(ValueError, match="max_share"):
        lp_at_continuous_bound([3, 7], 10, max_share=0)


def test_a_capacity_beyond_the_heuristic_declines_without_allocating():
    assert lp_at_continuous_bound([1 << 30, 1 << 30], 1 << 31) is None


def without_cover(monkeypatch):
    """The greedy and residual LP alone (no perfect-pattern cover first)."""
    monkeypatch.setattr(pbd, "_perfect_cover", lambda *a: None)


def test_every_item_in_a_perfect_bin_needs_no_residual_lp(monkeypatch):
    without_cover(monkeypatch)
    bounded, free = lp_pair([6, 4, 7, 3, 5, 5, 10], 10)
    assert bounded.certified and free.certified
    assert bounded.extra["perfect_bin_decomposition"]["residual_items"] == 0
    assert bounded.lower == free.lower == Fraction(7, 4)  # 7 items in 4 bins


@pytest.mark.parametrize("wrong", ["overfull", "underfull"])
def test_a_bin_that_is_not_perfect_fails_the_certificate(wrong, monkeypatch):
    """The heuristic replaced by a plausible wrong one: the certificate must catch it
    (and bin_packing_lp then solves the whole LP, with the right answer)."""
    monkeypatch.setattr(sw, "DECOMPOSE_ITEMS", 1)
    without_cover(monkeypatch)

    ws = [6, 4, 7, 3, 5, 5, 10, 2, 8]  # three perfect bins of 10 and (2, 8)

    def broken(weights, C, **_):
        if wrong == "overfull":  # 7 + 4 > 10
            bins = [np.array([0, 7, 8]), np.array([1, 2]), np.array([3, 4]),
                    np.array([5]), np.array([6])]
        else:  # six bins of 9, 9, 9, 5, 10 and 8 where five perfect ones exist
            bins = [np.array([0, 3]), np.array([1, 4]), np.array([2, 7]), np.array([5]),
                    np.array([6]), np.array([8])]
        return ExactFillPacking(bins, np.zeros(0, dtype=np.int64))

    monkeypatch.setattr(pbd, "exact_fill_bins", broken)
    pair = lp_pair(ws, 10)
    assert pair is not None
    assert not pair[0].certified and not pair[1].certified
    res = bin_packing_lp(ws, 10)
    assert res.certified and "perfect_bin_decomposition" not in res.extra
    assert float(res.extra["z_lp"]) == pytest.approx(5.0)


@pytest.mark.parametrize("most", [-1, 2.5, True, "3"])
def test_a_bad_cap_on_unplaced_items_is_refused(most):
    with pytest.raises(ValueError, match="max_unplaced"):
        exact_fill_bins([1, 2], 3, max_unplaced=most)


def test_small_instances_skip_the_fast_path():
    ws = cut_bins(20, 1000, 5)
    assert len(ws) < sw.DECOMPOSE_ITEMS
    assert "perfect_bin_decomposition" not in bin_packing_lp(ws, 1000).extra


# -- perfect patterns of at most three items ------------------------------------------


def triplets(bins: int, C: int, seed: int, moves: int = 0) -> list[int]:
    """Each bin cut into three items above C / 4 (the Falkenauer triplets, BPPLIB's ANI
    class before its changes); ``moves`` unit moves then break some bins."""
    rng = np.random.default_rng(seed)
    out: list[int] = []
    for _ in range(bins):
        while True:
            a, b = (int(x) for x in rng.integers(C // 4 + 1, C // 2, 2))
            c = C - a - b
            if C // 4 < c < C // 2:
                break
        out += [a, b, c]
    for _ in range(moves):
        i, j = rng.choice(len(out), 2, replace=False)
        if out[i] > C // 4 + 1 and out[j] < C // 2 - 1:
            out[i] -= 1
            out[j] += 1
    return [out[i] for i in rng.permutation(len(out))]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 9), st.integers(2, 40))
def test_perfect_patterns_are_every_exact_fill_of_three_or_fewer(seed, T, C):
    rng = np.random.default_rng(seed)
    sizes = rng.choice(np.arange(1, C + 1), min(T, C), replace=False)
    copies = rng.integers(1, 4, sizes.size)
    got = perfect_patterns_upto_three(sizes, copies, C)
    brute = set()
    for m in (1, 2, 3):
        for combo in itertools.combinations_with_replacement(range(sizes.size), m):
            k = np.bincount(combo, minlength=sizes.size)
            if k @ sizes == C and np.all(k <= copies):
                brute.add(tuple(k))
    rows = [tuple(k) for k in got]
    assert len(rows) == len(set(rows)) and set(rows) == brute


def test_perfect_patterns_refuse_bad_input():
    for bad in ((np.array([3, 3]), np.array([1, 1])), (np.array([3, 4]), np.array([1, 0])),
                (np.array([3.0, 4.0]), np.array([1, 1])), (np.array([3, 4]), np.array([1]))):
        with pytest.raises(ValueError):
            perfect_patterns_upto_three(*bad, 10)
    for C in (0, -10, 10.5, True):
        with pytest.raises(ValueError, match="positive integer"):
            perfect_patterns_upto_three(np.array([3, 7]), np.array([1, 1]), C)


@pytest.mark.parametrize("seed", range(10))
def test_perfect_cover_agrees_with_the_whole_lp(seed, monkeypatch):
    """Triplets, whole or with unit moves (ANI-shaped): where the cover proves the LP
    at sum w / C it agrees with the whole LP to 1e-9; elsewhere it declines."""
    monkeypatch.setattr(sw, "DECOMPOSE_ITEMS", 1)
    rng = np.random.default_rng(seed)
    C = int(rng.choice([1000, 4000, 80_000]))
    ws = triplets(int(rng.integers(6, 30)), C, seed, moves=[0, 3, 12][seed % 3])
    fast, whole = fast_and_whole(ws, C, monkeypatch)
    info = fast.extra.get("perfect_bin_decomposition", {})
    at_bound = float(whole.extra["z_lp"]) <= sum(ws) / C * (1 + 1e-9)
    assert ("perfect_patterns" in info) == at_bound, "the cover proves every LP at the bound"
    if seed % 3 == 0:
        assert "perfect_patterns" in info  # untouched triplets are at the bound


def test_a_cover_by_wrong_patterns_fails_the_certificate(monkeypatch):
    """The enumeration replaced by one that also returns an overfull triple: the LP over
    them reaches sum w / C, and the certificate must refuse it."""
    ws = [6, 4, 7, 3, 5, 5, 9, 9, 9]  # each 9 needs a bin of its own: z_LP = 6 > 5.7
    real = pbd.perfect_patterns_upto_three

    def broken(sizes, copies, C):
        extra = np.zeros((1, len(sizes)), dtype=np.int64)
        for s in (9, 5, 6):  # 9 + 5 + 6 = 20 in a bin of 10
            extra[0, int(np.flatnonzero(sizes == s)[0])] = 1
        jobs = np.vstack([_jobs(np.asarray(real(sizes, copies, C))), _jobs(extra)])
        return ConfigurationRows(jobs, len(sizes))

    monkeypatch.setattr(pbd, "perfect_patterns_upto_three", broken)
    lp = pbd._instance_lp(np.array(ws), 10, True)
    sizes = np.array([int(r[0]) for r in lp.rows])
    cover = pbd._perfect_cover(lp, sizes, 10)
    assert cover is not None and cover[0], "the wrong LP reaches the bound"
    pair = lp_pair(ws, 10)
    assert pair is not None and not pair[0].certified and not pair[1].certified
    assert "infeasible" in pair[0].message


def _jobs(K: np.ndarray) -> np.ndarray:
    """Dense configurations as job lists padded with -1 (3 jobs at most)."""
    out = np.full((len(K), 3), -1, dtype=np.int64)
    for r, k in enumerate(K):
        j = np.repeat(np.arange(len(k)), k)
        out[r, :len(j)] = j
    return out


def test_a_cut_bin_needs_a_residual_above_a_fifth_of_the_items():
    """AI-shaped with its last bins cut off (the benchmark's 1,002 of 300 bins, seed 17):
    the LP is at the continuous bound, but only a residual of 230 items shows it. A
    share of 0.2 gave up, and the whole LP took 7 s."""
    from benchmarks.bench_scale import split_bins

    ws, C = split_bins(300, 80_000, 17)[:1002], 80_000
    assert lp_at_continuous_bound(ws, C, max_share=0.2) is None
    got = lp_at_continuous_bound(ws, C)
    assert got is not None
    bounded, free = got
    info = bounded.extra["perfect_bin_decomposition"]
    assert 0.2 * len(ws) < info["residual_items"] <= 0.3 * len(ws)
    assert bounded.certified and free.certified
    assert bounded.lower <= Fraction(len(ws)) / Fraction(sum(ws), C) <= bounded.upper


def test_a_large_last_residual_above_its_bound_gives_up_within_its_rounds(monkeypatch):
    """ANI-shaped (units moved between bins: the LP sits 1.25e-5 above sum w / C): the
    residual that cannot double again gets LAST_RESIDUAL_ROUNDS rounds, not the 75 it
    takes to say no."""
    from benchmarks.bench_scale import ani_shaped

    calls = []
    solve = pbd.solve_configuration_lp

    def recording(lp, **kw):
        calls.append((lp.T, kw.get("max_iterations")))
        return solve(lp, **kw)

    monkeypatch.setattr(pbd, "solve_configuration_lp", recording)
    ws = ani_shaped(334, 80_000, 11)
    found: list[np.ndarray] = []
    assert lp_at_continuous_bound(ws, 80_000, patterns=found) is None
    assert calls[-1][1] == pbd.LAST_RESIDUAL_ROUNDS and calls[-1][0] > pbd.SMALL_RESIDUAL
    assert all(limit is None for _, limit in calls[:-1])
    # what it found starts the whole LP: patterns of the instance's types that fit
    lp = pbd._instance_lp(np.array(ws), 80_000, True)
    assert len(found) > 300
    assert all(lp.within_copies(k) and lp.exact_fits(0, k) for k in found)


@pytest.mark.parametrize("seed", range(8))
def test_starting_columns_change_the_path_not_the_optimum(seed):
    """The perfect bins of the exact-fill heuristic as starting columns of the whole
    bounded LP: both certified, equal to 1e-9; columns that do not fit this LP are
    refused."""
    rng = np.random.default_rng(seed)
    C = int(rng.choice([1000, 2500]))
    ws = cut_bins(int(rng.integers(10, 30)), C, seed)
    for _ in range(len(ws) // 6):  # most bins no longer fill exactly
        i, j = rng.choice(len(ws), 2, replace=False)
        if ws[i] > 1 and ws[j] < C - 1:
            ws[i] -= 1
            ws[j] += 1
    lp = pbd._instance_lp(np.array(ws), C, True)
    sizes = np.array([int(r[0]) for r in lp.rows])
    where = {int(s): j for j, s in enumerate(sizes)}
    bins = exact_fill_bins(np.array(ws), C, max_unplaced=len(ws)).bins
    assert bins
    cols = [(0, pbd._counts(b, np.array(ws), where, lp.T)) for b in bins]
    given = solve_configuration_lp(lp, method="column-generation", columns=cols)
    plain = solve_configuration_lp(lp, method="column-generation")
    assert given.certified and plain.certified
    assert float(given.value) == pytest.approx(float(plain.value), rel=1e-9)
    every_type = np.ones(lp.T, dtype=np.int64)  # one of each: ten bins' worth and more
    assert sizes.sum() > C
    with pytest.raises(ValueError, match="does not fit"):
        solve_configuration_lp(lp, method="column-generation", columns=[(0, every_type)])
    with pytest.raises(ValueError, match="non-negative integer"):
        solve_configuration_lp(lp, method="column-generation", columns=[(0, -every_type)])
    with pytest.raises(ValueError, match="non-negative integer"):
        solve_configuration_lp(lp, method="column-generation",
                               columns=[(0, every_type * np.nan)])
    with pytest.raises(TypeError, match="patterns must be a list"):
        lp_at_continuous_bound(ws, C, patterns=())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="server class"):
        solve_configuration_lp(lp, method="column-generation", columns=[(1, cols[0][1])])
    with pytest.raises(ValueError, match="non-negative integer"):
        solve_configuration_lp(lp, method="column-generation", columns=[(0, [1, 2])])
