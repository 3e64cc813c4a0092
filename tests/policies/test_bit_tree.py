"""The search structures of the slotted kernel against literal definitions: the 64-ary
bit tree ("largest non-empty leaf <= hi", "smallest non-empty leaf >= lo") after random
insertions and removals, and the cell index over the sorted size values (numpy's
searchsorted)."""

from __future__ import annotations

import numpy as np
import pytest

from policies.slotted._kernel import (
    _bit_clear,
    _bit_levels,
    _bit_next,
    _bit_prev,
    _bit_set,
    _hibit,
    _rank_grid,
    _rank_le,
)


def test_hibit_of_every_single_bit_and_mixed_words():
    for b in range(64):
        assert _hibit(np.int64(1) << np.int64(b)) == b
    rng = np.random.default_rng(0)
    for x in rng.integers(1, 2**62, 200):
        assert _hibit(np.int64(x)) == int(x).bit_length() - 1
    assert _hibit(np.int64(-1)) == 63


@pytest.mark.parametrize("R", [1, 2, 63, 64, 65, 4095, 4096, 4097, 70_000, 262_145])
def test_bit_prev_matches_a_set(R):
    rng = np.random.default_rng(R)
    off = _bit_levels(R)
    bits = np.zeros(off[-1], np.int64)
    present: set[int] = set()
    for step in range(3000):
        r = int(rng.integers(0, R))
        if r in present and rng.random() < 0.5:
            present.discard(r)
            _bit_clear(bits, off, r)
        elif r not in present:
            present.add(r)
            _bit_set(bits, off, r)
        # queries at the edges too: hi itself present, below every leaf, past the end
        for hi in (int(rng.integers(-1, R)), r, R - 1, min(present, default=0) - 1):
            want = max((v for v in present if v <= hi), default=-1)
            assert _bit_prev(bits, off, hi) == want, (R, step, hi)
        for lo in (int(rng.integers(0, R + 1)), r, 0, max(present, default=0) + 1):
            want = min((v for v in present if v >= lo), default=-1)
            assert _bit_next(bits, off, lo) == want, (R, step, lo)
    for r in list(present):
        _bit_clear(bits, off, r)
    assert not bits.any()


@pytest.mark.parametrize("law", ["uniform", "clustered", "tiny-and-huge", "one", "grid"])
def test_rank_le_is_searchsorted(law):
    """The cell index answers searchsorted(vals, x, "right") - 1 for every x: values,
    their neighbours one ulp away, cell edges, below and above every value."""
    rng = np.random.default_rng(7)
    vals = {
        "uniform": rng.uniform(0.1, 0.9, 5000),
        "clustered": np.r_[rng.uniform(0.3, 0.3 + 1e-9, 3000), rng.uniform(0.1, 0.9, 50)],
        "tiny-and-huge": np.r_[rng.uniform(1e-300, 1e-290, 100), rng.uniform(1e3, 1e300, 100)],
        "one": np.array([0.25]),
        "grid": np.arange(1, 4097) / 4096.0,
    }[law]
    vals = np.unique(vals)
    grid, scale = _rank_grid(vals)
    assert grid[0] == 0 and grid[-1] == vals.size and np.all(np.diff(grid) >= 0)
    xs = np.r_[vals, np.nextafter(vals, 0), np.nextafter(vals, np.inf),
               rng.uniform(0, 1.2 * vals.max(), 3000), np.arange(grid.size) / scale,
               -1.0, 0.0, vals.max() * 2, np.inf]
    for x in xs:
        want = int(np.searchsorted(vals, x, side="right")) - 1
        assert _rank_le(vals, grid, scale, float(x)) == want, (law, x)
